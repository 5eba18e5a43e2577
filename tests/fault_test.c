/* fault_test: every failable call the library makes, failed in turn, over sequences that touch
 * every public function.
 *
 * tests/fault_test.sh runs this program with the shim tests/fault/shim.c preloaded (shim.h):
 * it counts the OpenCL calls and the malloc, calloc and realloc calls made from inside
 * libclscan.so, can fail the kth of them the way the API lets it fail, and keeps books of the
 * OpenCL references and heap blocks the library holds.
 *
 * A scenario is a setup (plans or handles the sequence needs; never failed), a body (the
 * sequence of public calls under test), and a cleanup (releases; never failed).  For each
 * scenario the walk runs k = 1, 2, ... until a body makes fewer than k failable calls; each run
 *   1. sets up, runs the body with the kth failable call of the library failed, then runs the
 *      body again on the same handles without a fault (the retry), then cleans up (and clears
 *      the library's cache where the scenario's body builds programs: "cold");
 *   2. requires of the public call in which the fault fired: either it returns an error, and
 *      then its outputs are as they were (the bytes of its output buffers, *event, the handle
 *      and *errcode_ret of a create function, a plan's tuning and variant), or it succeeds with
 *      the right result (the support library's sequential references); of every other call,
 *      in the faulted body and in the retry: success with the right result;
 *   3. requires of the books: no OpenCL reference and no heap block the library took during the
 *      run is left after the cleanup, and the driver's context and queues have the reference
 *      counts they had before the run.
 * Every enqueue waits on inputs written behind a user event that the driver completes only
 * after the call returned, on an in-order and on an out-of-order queue, so that the commands of
 * a failed call are still pending when the next call is made.  At the end of each scenario,
 * after clscan_cache_clear(), the library must hold nothing at all.
 *
 * Each scenario walks in a child process of its own (forked before any OpenCL call): a crash or
 * a hang (CLSCAN_TEST_TIMEOUT seconds per run, default 120; 0: none) is reported with its k and
 * the walk goes on at k + 1.  Sort and bucket calls write their outputs in several passes; a
 * fault in a late pass leaves earlier passes' output behind, a segmented scan by offsets writes
 * its totals after dst, and the blocking reads of clscan_compact and clscan_compact_if come after
 * the scatter: those outputs are checked untouched only with FAULT_TEST_STRICT=1
 * (tests/fault_outputs.sh, an expected failure until the library keeps them untouched).
 * unique_by_key and reduce_by_key enqueue the keys' scatter (keys_out, nruns) and the values'
 * last, after every other failable call: their outputs are checked untouched unless the fault
 * failed that last enqueue, which leaves keys_out and nruns written, whole.
 *
 * Environment: FAULT_TEST_SCENARIOS (words; only scenarios whose name contains one of them),
 * FAULT_TEST_VERBOSE=1 (a line per k), FAULT_TEST_STRICT=1, CLSCAN_TEST_SEED.
 * Exit status: 0 pass, 1 fail, 77 skip (no device, no shim), 99 setup error. */
#define _GNU_SOURCE
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clscan.h"
#include "support/inputs.h"
#include "support/names.h"
#include "support/reference.h"
#include "tests/fault/util.h"

static const char program[] = "fault_test";
static const fault_shim_api *shim;
static bool verbose, strict;

#define N_MAX 5000                  /* elements of the largest call */
#define OUT_BYTES (N_MAX * 16)      /* bytes of every output buffer */
#define KEPT_BYTES 64

/* ---- Runs and problems ---------------------------------------------------------------------- */

typedef struct run {
    const char *scenario;
    long k;                   /* the failable call failed (0: none) */
    bool retry;               /* the body again, without a fault */
    int problems;
    bool fired_before;        /* the fault had fired before the current public call */
    long counted_before;      /* the failable calls counted before the current public call */
    char fault_in[160];       /* the public call in which the fault fired ("": none yet) */
    const char *fault_call;   /* the library's call that was failed there */
    cl_int fault_status;      /* what that call returned */
    int unchecked;            /* outputs of failed calls not checked (see FAULT_TEST_STRICT) */
} run;

static void problem(run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void problem(run *r, const char *fmt, ...)
{
    const char *fired = r->fault_call ? r->fault_call : shim->fired();
    printf("FAIL %s k=%ld%s", r->scenario, r->k, r->retry ? " (retry)" : "");
    if (fired && r->k)
        printf(" [%s failed in %s]", fired, r->fault_in[0] ? r->fault_in : "no checked call");
    printf(": ");
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    fflush(stdout);
    ++r->problems;
}

/* The public call in progress, for the parent's report when the child dies (shared memory). */
static char *crash_note;
static size_t crash_note_size;

/* Around every public call that can make failable calls. */
static void call_begin(run *r, const char *what)
{
    r->fired_before = shim->fired() != NULL;
    r->counted_before = shim->counted();
    if (crash_note)
        snprintf(crash_note, crash_note_size, "%s%s", what, r->retry ? " (retry)" : "");
}

/* Whether the fault fired in the call just made (recorded with its status). */
static bool call_end(run *r, const char *what, cl_int err)
{
    const bool fired = !r->fired_before && shim->fired() != NULL;
    if (fired) {
        r->fault_call = shim->fired();
        snprintf(r->fault_in, sizeof r->fault_in, "%s", what);
        r->fault_status = err;
    }
    return fired;
}

/* The verdict on a status: true if the call succeeded (its results are checked next); false if
 * it failed (its outputs must be as they were).  Only the faulted call may fail. */
static bool succeeded(run *r, const char *what, cl_int err, bool fired)
{
    if (err == CL_SUCCESS)
        return true;
    if (!fired)
        problem(r, "%s failed without a fault in it: %s: %s", what, clscan_error_string(err), clscan_last_error());
    else if (strcmp(clscan_error_string(err), "unknown status code") == 0)
        problem(r, "%s failed with %d, which is no status code", what, (int)err);
    else if (!clscan_last_error()[0])
        problem(r, "%s failed (%s) without a message in clscan_last_error()", what, clscan_error_string(err));
    return false;
}

/* The verdict on a create function's handle and *errcode_ret (err starts as ERR_UNSET). */
#define ERR_UNSET 12345
static bool created(run *r, const char *what, const void *handle, cl_int err, bool fired)
{
    if (handle && err == CL_SUCCESS)
        return true;
    if (handle) {
        problem(r, "%s returned a handle and the status %s", what, clscan_error_string(err));
        return true;
    }
    if (err == CL_SUCCESS || err == ERR_UNSET) {
        problem(r, "%s returned NULL with %s", what, err == CL_SUCCESS ? "CL_SUCCESS" : "*errcode_ret not set");
        return false;
    }
    succeeded(r, what, err, fired);
    return false;
}

/* ---- The driver's buffers and inputs -------------------------------------------------------- */

static cl_command_queue q;   /* the scenario's queue (in-order or out-of-order) */
static struct {
    cl_mem src, heads, keys, flags, values;
    cl_mem out[4];
    cl_mem kept;
} b;

static unsigned char pattern[OUT_BYTES];      /* what every output holds before a call */
static unsigned char image[OUT_BYTES];        /* the expected content of an output */
static unsigned char got[OUT_BYTES];
static unsigned char ref[4][OUT_BYTES];       /* references */

static cl_uchar heads[N_MAX], flags[N_MAX];
static cl_uint keys32[N_MAX], sort_keys[N_MAX], values[N_MAX], bucket_keys5[N_MAX], bucket_keys300[N_MAX];
static cl_ulong keys64[N_MAX];

/* Scan inputs per operator and type, made on first use from the seed. */
static struct {
    clscan_op op;
    clscan_type type;
    unsigned char x[N_MAX * 16];
} inputs[8];
static int ninputs;

static const void *input_of(clscan_op op, clscan_type type)
{
    for (int i = 0; i < ninputs; ++i)
        if (inputs[i].op == op && inputs[i].type == type)
            return inputs[i].x;
    if (ninputs == (int)(sizeof inputs / sizeof inputs[0])) {
        fprintf(stderr, "setup error: too many scan inputs\n");
        exit(99);
    }
    sup_rng rng;
    sup_rng_seed(&rng, fu_seed ^ (0x9e3779b97f4a7c15u * (uint64_t)(1 + op * 8 + type)));
    inputs[ninputs].op = op;
    inputs[ninputs].type = type;
    sup_random_edges(op, type, &rng, inputs[ninputs].x, N_MAX);
    return inputs[ninputs++].x;
}

static void make_inputs(void)
{
    fu_random_bytes(pattern, sizeof pattern);
    cl_uint key = 7;
    cl_ulong key64 = 0x123456789abull;
    for (size_t i = 0; i < N_MAX; ++i) {
        heads[i] = fu_rand() % 8 == 0 ? (cl_uchar)(1 + fu_rand() % 255) : 0;
        flags[i] = fu_rand() % 3 == 0 ? (cl_uchar)(1 + fu_rand() % 255) : 0;
        if (fu_rand() % 6 == 0)
            key = (cl_uint)fu_rand();
        if (fu_rand() % 6 == 0)
            key64 = fu_rand();
        keys32[i] = key;
        keys64[i] = key64;
        sort_keys[i] = (cl_uint)fu_rand();
        values[i] = (cl_uint)fu_rand();
        bucket_keys5[i] = (cl_uint)(fu_rand() % 8);      /* 5 buckets: 5, 6 and 7 count as 4 */
        bucket_keys300[i] = (cl_uint)(fu_rand() % 310);
    }
}

static void make_buffers(void)
{
    b.src = fu_buffer(N_MAX * 16);
    b.heads = fu_buffer(N_MAX);
    b.keys = fu_buffer(N_MAX * 8);
    b.flags = fu_buffer(N_MAX);
    b.values = fu_buffer(N_MAX * 4);
    for (int i = 0; i < 4; ++i)
        b.out[i] = fu_buffer(OUT_BYTES);
    b.kept = fu_buffer(KEPT_BYTES);
}

static void release_buffers(void)
{
    cl_mem *all[] = {&b.src, &b.heads, &b.keys, &b.flags, &b.values, &b.out[0], &b.out[1], &b.out[2], &b.out[3],
                     &b.kept};
    for (size_t i = 0; i < sizeof all / sizeof *all; ++i) {
        clReleaseMemObject(*all[i]);
        *all[i] = NULL;
    }
}

static void prefill(cl_mem buffer, size_t bytes)
{
    fu_write(buffer, bytes, pattern);
}

/* Checks that the output holds head (head_bytes of it) and the pattern after it; head NULL:
 * the pattern alone.  result: head is the call's result (else its outputs were to be
 * untouched). */
static void check_output(run *r, const char *what, const char *name, cl_mem buffer, size_t bytes, const void *head,
                         size_t head_bytes, bool result)
{
    memcpy(image, pattern, bytes);
    if (head && head_bytes)
        memcpy(image, head, head_bytes);
    fu_read(buffer, bytes, got);
    if (memcmp(image, got, bytes) == 0)
        return;
    size_t i = 0;
    while (image[i] == got[i])
        ++i;
    problem(r, "%s: %s %s at byte %zu (of %zu; %zu bytes of %s before the pattern)", what, name,
            result ? "is wrong" : "was changed by the failed call", i, bytes, head ? head_bytes : 0,
            result ? "result" : "input");
}

/* Whether the output holds head (head_bytes of it) and the pattern after it (no problem if not). */
static bool output_is(cl_mem buffer, size_t bytes, const void *head, size_t head_bytes)
{
    memcpy(image, pattern, bytes);
    if (head && head_bytes)
        memcpy(image, head, head_bytes);
    fu_read(buffer, bytes, got);
    return memcmp(image, got, bytes) == 0;
}

/* A host array: the same check. */
static void check_host(run *r, const char *what, const char *name, const void *array, size_t bytes, const void *head,
                       size_t head_bytes, bool result)
{
    memcpy(image, pattern, bytes);
    if (head && head_bytes)
        memcpy(image, head, head_bytes);
    if (memcmp(image, array, bytes) == 0)
        return;
    const unsigned char *a = array;
    size_t i = 0;
    while (image[i] == a[i])
        ++i;
    problem(r, "%s: %s %s at byte %zu of %zu", what, name, result ? "is wrong" : "was changed by the failed call", i,
            bytes);
}

/* An output that a failed call may have written (passes before the failure): checked only in
 * strict mode. */
static void check_untouched_late(run *r, const char *what, const char *name, cl_mem buffer, size_t bytes,
                                 const void *head, size_t head_bytes)
{
    if (strict)
        check_output(r, what, name, buffer, bytes, head, head_bytes, false);
    else
        ++r->unchecked;
}

/* *event after the call: on success a complete event (the driver takes it over and releases
 * it); on failure untouched. */
static void check_event(run *r, const char *what, cl_event ev, bool ok)
{
    if (!ok) {
        if (ev != fu_no_event)
            problem(r, "%s failed but wrote *event", what);
        return;
    }
    if (ev == fu_no_event || ev == NULL) {
        problem(r, "%s succeeded without an event", what);
        return;
    }
    shim->adopt(ev);
    const cl_int err = clWaitForEvents(1, &ev);
    const cl_int status = fu_event_status(ev);
    if (err != CL_SUCCESS || status != CL_COMPLETE)
        problem(r, "%s: its event ended with %s (status %d)", what, clscan_error_string(err), (int)status);
    clReleaseEvent(ev);
}

/* ---- Steps: scans --------------------------------------------------------------------------- */

typedef enum segments { PLAIN, HEADS, KEYS32, KEYS64 } segments;

typedef struct scan_spec {
    clscan_op op;
    clscan_type type;
    clscan_kind kind;
} scan_spec;

static void scan_step(run *r, clscan_plan *plan, const scan_spec *s, segments how, size_t count)
{
    static const char *const fns[] = {"clscan_enqueue", "clscan_enqueue_segmented", "clscan_enqueue_by_key(uint32)",
                                      "clscan_enqueue_by_key(uint64)"};
    if (!plan)
        return;   /* its creation failed */
    char what[160];
    snprintf(what, sizeof what, "%s(%s %s %s, %zu elements, %s)", fns[how], sup_op_name(s->op),
             sup_type_name(s->type), sup_kind_name(s->kind), count,
             sup_algorithm_name(clscan_plan_get_algorithm(plan)));
    const size_t e = clscan_op_element_size(s->op, s->type);
    const void *x = input_of(s->op, s->type);
    prefill(b.out[0], OUT_BYTES);
    fu_gate g;
    fu_gate_begin(&g, q);
    fu_gate_write(&g, b.src, count * e, x);
    if (how == HEADS)
        fu_gate_write(&g, b.heads, count, heads);
    else if (how == KEYS32)
        fu_gate_write(&g, b.keys, count * 4, keys32);
    else if (how == KEYS64)
        fu_gate_write(&g, b.keys, count * 8, keys64);
    cl_event ev = fu_no_event;
    cl_int err;
    call_begin(r, what);
    switch (how) {
    case PLAIN:
        err = clscan_enqueue(plan, q, b.src, 0, b.out[0], 0, count, g.n, g.writes, &ev);
        break;
    case HEADS:
        err = clscan_enqueue_segmented(plan, q, b.src, 0, b.heads, 0, b.out[0], 0, count, g.n, g.writes, &ev);
        break;
    default:
        err = clscan_enqueue_by_key(plan, q, how == KEYS32 ? CLSCAN_UINT32 : CLSCAN_INT64, b.keys, 0, b.src, 0,
                                    b.out[0], 0, count, g.n, g.writes, &ev);
        break;
    }
    const bool fired = call_end(r, what, err);
    fu_gate_open(&g);
    const bool ok = succeeded(r, what, err, fired);
    check_event(r, what, ev, ok);
    if (ok) {
        if (how == PLAIN)
            sup_reference(s->op, s->type, s->kind, x, ref[0], count);
        else
            sup_reference_segmented(s->op, s->type, s->kind,
                                    how == HEADS ? SUP_HEADS : how == KEYS32 ? SUP_KEYS32 : SUP_KEYS64,
                                    how == HEADS ? (const void *)heads : how == KEYS32 ? (const void *)keys32
                                                                                      : (const void *)keys64,
                                    x, ref[0], count);
    }
    check_output(r, what, "dst", b.out[0], OUT_BYTES, ok ? ref[0] : NULL, count * e, ok);
}

/* Segments given by offsets: where heads has a head (and element 0), with an empty segment
 * first and two last (offsets = count).  Outputs: dst (NULL: the totals alone) and the
 * totals (NULL: none). */
static cl_uint offsets[N_MAX + 4];

static void offsets_step(run *r, clscan_plan *plan, const scan_spec *s, size_t count, bool dst, bool totals)
{
    if (!plan)
        return;
    char what[192];
    snprintf(what, sizeof what, "clscan_enqueue_segmented_offsets(%s %s %s, %zu elements, %s%s, %s)",
             sup_op_name(s->op), sup_type_name(s->type), sup_kind_name(s->kind), count, dst ? "dst" : "",
             totals ? (dst ? " and totals" : "totals") : "", sup_algorithm_name(clscan_plan_get_algorithm(plan)));
    const size_t e = clscan_op_element_size(s->op, s->type);
    const void *x = input_of(s->op, s->type);
    size_t nseg = 0;
    offsets[nseg++] = 0;
    for (size_t i = 0; i < count; ++i)
        if (i == 0 || heads[i])
            offsets[nseg++] = (cl_uint)i;
    offsets[nseg++] = (cl_uint)count;
    offsets[nseg] = (cl_uint)count;   /* nseg segments: nseg + 1 offsets */
    prefill(b.out[0], OUT_BYTES);
    prefill(b.out[1], OUT_BYTES);
    fu_gate g;
    fu_gate_begin(&g, q);
    fu_gate_write(&g, b.src, count * e, x);
    fu_gate_write(&g, b.keys, (nseg + 1) * sizeof *offsets, offsets);
    cl_event ev = fu_no_event;
    call_begin(r, what);
    const cl_int err = clscan_enqueue_segmented_offsets(plan, q, b.src, 0, CLSCAN_UINT32, b.keys, 0, nseg,
                                                        dst ? b.out[0] : NULL, 0, count, totals ? b.out[1] : NULL, 0,
                                                        g.n, g.writes, &ev);
    const bool fired = call_end(r, what, err);
    fu_gate_open(&g);
    const bool ok = succeeded(r, what, err, fired);
    check_event(r, what, ev, ok);
    if (ok) {
        /* The scan on the equivalent heads, and each segment's last inclusive value. */
        sup_reference_segmented(s->op, s->type, s->kind, SUP_HEADS, heads, x, ref[0], count);
        sup_reference_segmented(s->op, s->type, CLSCAN_INCLUSIVE, SUP_HEADS, heads, x, ref[2], count);
        unsigned char none[16] = {0};
        for (size_t k = 0; k < nseg; ++k) {
            const size_t end = offsets[k + 1];
            if (offsets[k] < end)
                memcpy(ref[1] + k * e, ref[2] + (end - 1) * e, e);
            else
                sup_reference(s->op, s->type, CLSCAN_EXCLUSIVE, none, ref[1] + k * e, 1);   /* the neutral */
        }
    }
    /* A failure of the totals' command, the last, comes after the scan wrote dst. */
    if (!ok && dst && totals)
        check_untouched_late(r, what, "dst", b.out[0], OUT_BYTES, NULL, 0);
    else
        check_output(r, what, "dst", b.out[0], OUT_BYTES, ok && dst ? ref[0] : NULL, count * e, ok);
    check_output(r, what, "totals", b.out[1], OUT_BYTES, ok && totals ? ref[1] : NULL, nseg * e, ok);
}

/* ---- Steps: plans --------------------------------------------------------------------------- */

static clscan_plan *create_step(run *r, const scan_spec *s)
{
    char what[128];
    snprintf(what, sizeof what, "clscan_plan_create(%s, %s, %s)", sup_op_name(s->op), sup_type_name(s->type),
             sup_kind_name(s->kind));
    cl_int err = ERR_UNSET;
    call_begin(r, what);
    clscan_plan *p = clscan_plan_create(fu.context, fu.device, s->op, s->type, s->kind, &err);
    const bool fired = call_end(r, what, p ? CL_SUCCESS : err);
    return created(r, what, p, err, fired) ? p : NULL;
}

/* A custom operator: the maximum of ints through a preamble's type. */
static const clscan_custom custom_max = {"my_int", 4, "INT_MIN", "max(a, b)", "typedef int my_int;"};
static const scan_spec custom_max_spec = {CLSCAN_MAX, CLSCAN_INT32, CLSCAN_EXCLUSIVE};

static clscan_plan *create_custom_step(run *r)
{
    const char *what = "clscan_plan_create_custom(max of my_int, EXCLUSIVE)";
    cl_int err = ERR_UNSET;
    call_begin(r, what);
    clscan_plan *p = clscan_plan_create_custom(fu.context, fu.device, &custom_max, CLSCAN_EXCLUSIVE, &err);
    const bool fired = call_end(r, what, p ? CL_SUCCESS : err);
    return created(r, what, p, err, fired) ? p : NULL;
}

/* The getters of a plan: no failable calls, but right answers. */
static void getters_step(run *r, clscan_plan *plan, size_t element_size)
{
    if (!plan)
        return;
    size_t wg = 0, items = 0;
    clscan_tiles tiles = CLSCAN_TILES_AUTO;
    clscan_primitive primitive = CLSCAN_PRIMITIVE_AUTO;
    if (clscan_plan_get_tuning(plan, &wg, &items) != CL_SUCCESS || !wg || !items)
        problem(r, "clscan_plan_get_tuning gave %zu x %zu", wg, items);
    if (clscan_plan_get_variant(plan, &tiles, &primitive) != CL_SUCCESS || tiles == CLSCAN_TILES_AUTO)
        problem(r, "clscan_plan_get_variant gave tiles %d", (int)tiles);
    if (clscan_plan_get_algorithm(plan) == CLSCAN_ALGORITHM_AUTO)
        problem(r, "clscan_plan_get_algorithm gave AUTO");
    if (clscan_element_size(plan) != element_size)
        problem(r, "clscan_element_size gave %zu, not %zu", clscan_element_size(plan), element_size);
}

static void tuning_step(run *r, clscan_plan *plan, size_t wg, size_t items)
{
    if (!plan)
        return;
    char what[96];
    snprintf(what, sizeof what, "clscan_plan_set_tuning(%zu, %zu)", wg, items);
    size_t wg0 = 0, items0 = 0, wg1 = 0, items1 = 0;
    clscan_tiles t0, t1;
    clscan_primitive p0, p1;
    clscan_plan_get_tuning(plan, &wg0, &items0);
    clscan_plan_get_variant(plan, &t0, &p0);
    call_begin(r, what);
    const cl_int err = clscan_plan_set_tuning(plan, wg, items);
    const bool fired = call_end(r, what, err);
    clscan_plan_get_tuning(plan, &wg1, &items1);
    clscan_plan_get_variant(plan, &t1, &p1);
    if (succeeded(r, what, err, fired)) {
        if ((wg && wg1 != wg) || (items && items1 != items))
            problem(r, "%s: the tuning in force is %zu x %zu", what, wg1, items1);
    } else if (wg1 != wg0 || items1 != items0 || t1 != t0 || p1 != p0) {
        problem(r, "%s failed but changed the plan: tuning %zu x %zu -> %zu x %zu, variant %d/%d -> %d/%d", what, wg0,
                items0, wg1, items1, (int)t0, (int)p0, (int)t1, (int)p1);
    }
}

static void variant_step(run *r, clscan_plan *plan, clscan_tiles tiles, clscan_primitive primitive)
{
    if (!plan)
        return;
    char what[96];
    snprintf(what, sizeof what, "clscan_plan_set_variant(%s, %s)", sup_tiles_name(tiles),
             sup_primitive_name(primitive));
    size_t wg0 = 0, items0 = 0, wg1 = 0, items1 = 0;
    clscan_tiles t0, t1;
    clscan_primitive p0, p1;
    clscan_plan_get_tuning(plan, &wg0, &items0);
    clscan_plan_get_variant(plan, &t0, &p0);
    call_begin(r, what);
    const cl_int err = clscan_plan_set_variant(plan, tiles, primitive);
    const bool fired = call_end(r, what, err);
    clscan_plan_get_tuning(plan, &wg1, &items1);
    clscan_plan_get_variant(plan, &t1, &p1);
    if (succeeded(r, what, err, fired)) {
        if ((tiles != CLSCAN_TILES_AUTO && t1 != tiles) ||
            (primitive != CLSCAN_PRIMITIVE_AUTO && p1 != primitive))
            problem(r, "%s: the variant in force is %s, %s", what, sup_tiles_name(t1), sup_primitive_name(p1));
    } else if (wg1 != wg0 || items1 != items0 || t1 != t0 || p1 != p0) {
        problem(r, "%s failed but changed the plan: tuning %zu x %zu -> %zu x %zu, variant %d/%d -> %d/%d", what, wg0,
                items0, wg1, items1, (int)t0, (int)p0, (int)t1, (int)p1);
    }
}

static void algorithm_step(run *r, clscan_plan *plan, clscan_algorithm algorithm)
{
    if (!plan)
        return;
    const char *what = "clscan_plan_set_algorithm";
    call_begin(r, what);
    const cl_int err = clscan_plan_set_algorithm(plan, algorithm);
    const bool fired = call_end(r, what, err);
    if (succeeded(r, what, err, fired) && clscan_plan_get_algorithm(plan) != algorithm)
        problem(r, "clscan_plan_set_algorithm(%s): %s in force", sup_algorithm_name(algorithm),
                sup_algorithm_name(clscan_plan_get_algorithm(plan)));
}

static void release_plan(clscan_plan **plan)
{
    clscan_plan_release(*plan);
    *plan = NULL;
}

/* ---- Steps: compaction ---------------------------------------------------------------------- */

/* The reference compaction of values by flags (indices: the positions); returns the count. */
static size_t compact_reference(size_t count, bool indices, cl_uint *out)
{
    size_t n = 0;
    for (size_t i = 0; i < count; ++i)
        if (flags[i])
            out[n++] = indices ? (cl_uint)i : values[i];
    return n;
}

static void compact_step(run *r, clscan_compactor *c, size_t count, bool indices)
{
    if (!c)
        return;
    char what[96];
    snprintf(what, sizeof what, "%s(%zu elements)", indices ? "clscan_compact_indices_enqueue" : "clscan_compact_enqueue",
             count);
    prefill(b.out[0], OUT_BYTES);
    prefill(b.kept, KEPT_BYTES);
    fu_gate g;
    fu_gate_begin(&g, q);
    fu_gate_write(&g, b.flags, count, flags);
    if (!indices)
        fu_gate_write(&g, b.values, count * 4, values);
    cl_event ev = fu_no_event;
    call_begin(r, what);
    const cl_int err =
        indices ? clscan_compact_indices_enqueue(c, q, b.flags, 0, count, b.out[0], 0, b.kept, 0, g.n, g.writes, &ev)
                : clscan_compact_enqueue(c, q, b.values, 0, b.flags, 0, count, b.out[0], 0, b.kept, 0, g.n, g.writes,
                                         &ev);
    const bool fired = call_end(r, what, err);
    fu_gate_open(&g);
    const bool ok = succeeded(r, what, err, fired);
    check_event(r, what, ev, ok);
    const cl_ulong kept = ok ? compact_reference(count, indices, (cl_uint *)ref[0]) : 0;
    check_output(r, what, indices ? "indices" : "dst", b.out[0], OUT_BYTES, ok ? ref[0] : NULL, (size_t)kept * 4, ok);
    check_output(r, what, "kept", b.kept, KEPT_BYTES, ok ? &kept : NULL, sizeof kept, ok);
}

/* clscan_compact: blocking, so no gate (its own read would wait for the driver forever). */
static void compact_blocking_step(run *r, clscan_compactor *c, size_t count)
{
    if (!c)
        return;
    char what[64];
    snprintf(what, sizeof what, "clscan_compact(%zu elements)", count);
    prefill(b.out[0], OUT_BYTES);
    fu_write(b.flags, count, flags);
    fu_write(b.values, count * 4, values);
    const size_t unset = (size_t)0x5a5a5a5a;
    size_t kept = unset;
    call_begin(r, what);
    const cl_int err = clscan_compact(c, q, b.values, 0, b.flags, 0, count, b.out[0], 0, &kept, 0, NULL);
    const bool fired = call_end(r, what, err);
    clFinish(q);   /* what a failed call enqueued */
    if (succeeded(r, what, err, fired)) {
        const size_t n = compact_reference(count, false, (cl_uint *)ref[0]);
        if (kept != n)
            problem(r, "%s: kept %zu elements, not %zu", what, kept, n);
        check_output(r, what, "dst", b.out[0], OUT_BYTES, ref[0], n * 4, true);
    } else {
        if (kept != unset)
            problem(r, "%s failed but wrote *kept (%zu)", what, kept);
        /* A failed wait for the compaction comes after the scatter was enqueued, which then
         * writes dst anyway: nothing can take it back (the count is read before the scatter,
         * so a failure to enqueue that read leaves dst untouched and is checked). */
        const char *fired_call = shim->fired();
        if (fired && fired_call && strcmp(fired_call, "clWaitForEvents") == 0)
            ++r->unchecked;
        else
            check_output(r, what, "dst", b.out[0], OUT_BYTES, NULL, 0, false);
    }
}

static clscan_compactor *compactor_create_step(run *r, size_t element_size)
{
    const char *what = "clscan_compactor_create(4-byte elements)";
    cl_int err = ERR_UNSET;
    call_begin(r, what);
    clscan_compactor *c = clscan_compactor_create(fu.context, fu.device, element_size, &err);
    const bool fired = call_end(r, what, c ? CL_SUCCESS : err);
    return created(r, what, c, err, fired) ? c : NULL;
}

/* ---- Steps: selections ---------------------------------------------------------------------- */

/* The predicate of the selection scenario's compactor, and the host's. */
static const clscan_predicate select_pred = {"uint", "(x & 3) != 0", NULL};
static bool select_flag(cl_uint x)
{
    return (x & 3) != 0;
}

typedef enum select_kind { SEL_IF, SEL_PARTITION, SEL_PARTITION_IF, SEL_UNIQUE } select_kind;

/* The reference of a selection of count elements into out; returns the number kept (the first
 * part of a partition, the runs of unique). */
static size_t select_reference(select_kind how, size_t count, cl_uint *out)
{
    const cl_uint *src = how == SEL_UNIQUE ? keys32 : values;
    size_t n = 0;
    for (size_t i = 0; i < count; ++i) {
        const bool keep = how == SEL_UNIQUE ? i == 0 || keys32[i] != keys32[i - 1]
                          : how == SEL_PARTITION ? flags[i] != 0 : select_flag(values[i]);
        if (keep)
            out[n++] = src[i];
    }
    if (how == SEL_PARTITION || how == SEL_PARTITION_IF)
        for (size_t i = 0, m = n; i < count; ++i)
            if (!(how == SEL_PARTITION ? flags[i] != 0 : select_flag(values[i])))
                out[m++] = src[i];
    return n;
}

/* clscan_compact_if_enqueue, clscan_partition_enqueue, clscan_partition_if_enqueue or
 * clscan_unique_enqueue (the values, flags, or keys32 in runs) on c. */
static void select_step(run *r, clscan_compactor *c, select_kind how, size_t count)
{
    static const char *const fns[] = {"clscan_compact_if_enqueue", "clscan_partition_enqueue",
                                      "clscan_partition_if_enqueue", "clscan_unique_enqueue"};
    if (!c)
        return;
    char what[96];
    snprintf(what, sizeof what, "%s(%zu elements)", fns[how], count);
    prefill(b.out[0], OUT_BYTES);
    prefill(b.kept, KEPT_BYTES);
    const cl_mem src = how == SEL_UNIQUE ? b.keys : b.values;
    fu_gate g;
    fu_gate_begin(&g, q);
    fu_gate_write(&g, src, count * 4, how == SEL_UNIQUE ? keys32 : values);
    if (how == SEL_PARTITION)
        fu_gate_write(&g, b.flags, count, flags);
    cl_event ev = fu_no_event;
    call_begin(r, what);
    cl_int err;
    switch (how) {
    case SEL_IF:
        err = clscan_compact_if_enqueue(c, q, src, 0, count, b.out[0], 0, b.kept, 0, g.n, g.writes, &ev);
        break;
    case SEL_PARTITION:
        err = clscan_partition_enqueue(c, q, src, 0, b.flags, 0, count, b.out[0], 0, b.kept, 0, g.n, g.writes, &ev);
        break;
    case SEL_PARTITION_IF:
        err = clscan_partition_if_enqueue(c, q, src, 0, count, b.out[0], 0, b.kept, 0, g.n, g.writes, &ev);
        break;
    default:
        err = clscan_unique_enqueue(c, q, src, 0, count, b.out[0], 0, b.kept, 0, g.n, g.writes, &ev);
        break;
    }
    const bool fired = call_end(r, what, err);
    fu_gate_open(&g);
    const bool ok = succeeded(r, what, err, fired);
    check_event(r, what, ev, ok);
    const cl_ulong kept = ok ? select_reference(how, count, (cl_uint *)ref[0]) : 0;
    const size_t written = how == SEL_PARTITION || how == SEL_PARTITION_IF ? count : (size_t)kept;
    check_output(r, what, "dst", b.out[0], OUT_BYTES, ok ? ref[0] : NULL, written * 4, ok);
    check_output(r, what, "kept", b.kept, KEPT_BYTES, ok ? &kept : NULL, sizeof kept, ok);
}

/* clscan_compact_if: blocking, so no gate (as compact_blocking_step). */
static void compact_if_blocking_step(run *r, clscan_compactor *c, size_t count)
{
    if (!c)
        return;
    char what[64];
    snprintf(what, sizeof what, "clscan_compact_if(%zu elements)", count);
    prefill(b.out[0], OUT_BYTES);
    fu_write(b.values, count * 4, values);
    const size_t unset = (size_t)0x5a5a5a5a;
    size_t kept = unset;
    call_begin(r, what);
    const cl_int err = clscan_compact_if(c, q, b.values, 0, count, b.out[0], 0, &kept, 0, NULL);
    const bool fired = call_end(r, what, err);
    clFinish(q);   /* what a failed call enqueued */
    if (succeeded(r, what, err, fired)) {
        const size_t n = select_reference(SEL_IF, count, (cl_uint *)ref[0]);
        if (kept != n)
            problem(r, "%s: kept %zu elements, not %zu", what, kept, n);
        check_output(r, what, "dst", b.out[0], OUT_BYTES, ref[0], n * 4, true);
    } else {
        if (kept != unset)
            problem(r, "%s failed but wrote *kept (%zu)", what, kept);
        const char *fired_call = shim->fired();   /* as clscan_compact: a failed wait comes after the scatter */
        if (fired && fired_call && strcmp(fired_call, "clWaitForEvents") == 0)
            ++r->unchecked;
        else
            check_output(r, what, "dst", b.out[0], OUT_BYTES, NULL, 0, false);
    }
}

static clscan_compactor *compactor_create_if_step(run *r)
{
    const char *what = "clscan_compactor_create_if(uint, (x & 3) != 0)";
    cl_int err = ERR_UNSET;
    call_begin(r, what);
    clscan_compactor *c = clscan_compactor_create_if(fu.context, fu.device, 4, &select_pred, &err);
    const bool fired = call_end(r, what, c ? CL_SUCCESS : err);
    return created(r, what, c, err, fired) ? c : NULL;
}

static clscan_runs *runs_create_step(run *r)
{
    const char *what = "clscan_runs_create(4-byte keys and values)";
    cl_int err = ERR_UNSET;
    call_begin(r, what);
    clscan_runs *h = clscan_runs_create(fu.context, fu.device, 4, 4, &err);
    const bool fired = call_end(r, what, h ? CL_SUCCESS : err);
    return created(r, what, h, err, fired) ? h : NULL;
}

/* The failable calls that the runs calls of a faulted body made when they succeeded, by the
 * call's description (0: none seen yet). */
static struct {
    char what[96];
    long calls;
} runs_calls[4];

static long *runs_calls_of(const char *what)
{
    for (size_t i = 0; i < sizeof runs_calls / sizeof *runs_calls; ++i) {
        if (!runs_calls[i].what[0])
            snprintf(runs_calls[i].what, sizeof runs_calls[i].what, "%s", what);
        if (strcmp(runs_calls[i].what, what) == 0)
            return &runs_calls[i].calls;
    }
    return NULL;
}

/* clscan_unique_by_key_enqueue (plan NULL) or clscan_reduce_by_key_enqueue with plan (uint32 SUM
 * inclusive) of keys32 and the values. */
static void runs_step(run *r, clscan_runs *h, clscan_plan *p, size_t count)
{
    if (!h)
        return;
    char what[96];
    snprintf(what, sizeof what, "%s(%zu elements)", p ? "clscan_reduce_by_key_enqueue" : "clscan_unique_by_key_enqueue",
             count);
    prefill(b.out[0], OUT_BYTES);
    prefill(b.out[1], OUT_BYTES);
    prefill(b.kept, KEPT_BYTES);
    fu_gate g;
    fu_gate_begin(&g, q);
    fu_gate_write(&g, b.keys, count * 4, keys32);
    fu_gate_write(&g, b.values, count * 4, values);
    cl_event ev = fu_no_event;
    call_begin(r, what);
    const cl_int err =
        p ? clscan_reduce_by_key_enqueue(h, p, q, b.keys, 0, b.values, 0, count, b.out[0], 0, b.out[1], 0, b.kept, 0,
                                         g.n, g.writes, &ev)
          : clscan_unique_by_key_enqueue(h, q, b.keys, 0, b.values, 0, count, b.out[0], 0, b.out[1], 0, b.kept, 0,
                                         g.n, g.writes, &ev);
    const bool fired = call_end(r, what, err);
    fu_gate_open(&g);
    const bool ok = succeeded(r, what, err, fired);
    check_event(r, what, ev, ok);
    cl_uint *kexp = (cl_uint *)ref[0], *vexp = (cl_uint *)ref[1];
    cl_ulong n = 0;
    for (size_t i = 0; i < count; ++i) {
        if (i == 0 || keys32[i] != keys32[i - 1]) {
            kexp[n] = keys32[i];
            vexp[n++] = values[i];
        } else if (p) {
            vexp[n - 1] += values[i];
        }
    }
    long *calls = runs_calls_of(what);
    const long made = shim->counted() - r->counted_before;
    if (ok) {
        if (calls && !r->retry && r->k > 0)
            *calls = made;
        check_output(r, what, "keys_out", b.out[0], OUT_BYTES, kexp, (size_t)n * 4, true);
        check_output(r, what, "values_out", b.out[1], OUT_BYTES, vexp, (size_t)n * 4, true);
        check_output(r, what, "nruns", b.kept, KEPT_BYTES, &n, sizeof n, true);
    } else {
        /* The two scatters are the last commands, after every other failable call: a failure to
         * enqueue the values' scatter (the call's last failable call, when their number is known
         * from a faulted body's call that succeeded) leaves the keys' scatter's keys_out and
         * nruns behind, whole; any other failure leaves them untouched. */
        check_output(r, what, "values_out", b.out[1], OUT_BYTES, NULL, 0, false);
        const bool last = fired && r->fault_call && strcmp(r->fault_call, "clEnqueueNDRangeKernel") == 0 &&
                          (!calls || !*calls || made == *calls);
        if (!last || !output_is(b.out[0], OUT_BYTES, kexp, (size_t)n * 4) ||
            !output_is(b.kept, KEPT_BYTES, &n, sizeof n)) {
            check_output(r, what, "keys_out", b.out[0], OUT_BYTES, NULL, 0, false);
            check_output(r, what, "nruns", b.kept, KEPT_BYTES, NULL, 0, false);
        }
    }
}

/* ---- Steps: bucketing ----------------------------------------------------------------------- */

static void bucket_step(run *r, clscan_bucketer *bk, cl_uint nbuckets, bool with_values, size_t count,
                        bool keys_out, bool permutation)
{
    if (!bk)
        return;
    const cl_uint *keys = nbuckets == 5 ? bucket_keys5 : bucket_keys300;
    char what[128];
    snprintf(what, sizeof what, "clscan_bucket_enqueue(%u buckets, %zu elements%s%s%s)", nbuckets, count,
             with_values ? ", values" : "", keys_out ? ", keys_out" : "", permutation ? ", permutation" : "");
    for (int i = 0; i < 4; ++i)
        prefill(b.out[i], OUT_BYTES);
    fu_gate g;
    fu_gate_begin(&g, q);
    fu_gate_write(&g, b.keys, count * 4, keys);
    if (with_values)
        fu_gate_write(&g, b.values, count * 4, values);
    cl_event ev = fu_no_event;
    call_begin(r, what);
    const cl_int err = clscan_bucket_enqueue(bk, q, b.keys, 0, with_values ? b.values : NULL, 0, count,
                                             keys_out ? b.out[0] : NULL, 0, with_values ? b.out[1] : NULL, 0,
                                             b.out[2], 0, permutation ? b.out[3] : NULL, 0, g.n, g.writes, &ev);
    const bool fired = call_end(r, what, err);
    fu_gate_open(&g);
    const bool ok = succeeded(r, what, err, fired);
    check_event(r, what, ev, ok);
    if (ok) {
        /* A stable counting sort; keys at or above nbuckets count as nbuckets - 1. */
        cl_uint *kexp = (cl_uint *)ref[0], *vexp = (cl_uint *)ref[1], *oexp = (cl_uint *)ref[2],
                *pexp = (cl_uint *)ref[3];
        memset(oexp, 0, ((size_t)nbuckets + 1) * 4);
        for (size_t i = 0; i < count; ++i)
            ++oexp[(keys[i] < nbuckets ? keys[i] : nbuckets - 1) + 1];
        for (cl_uint k = 0; k < nbuckets; ++k)
            oexp[k + 1] += oexp[k];
        static cl_uint next[512];
        memcpy(next, oexp, (size_t)nbuckets * 4);
        for (size_t i = 0; i < count; ++i) {
            const cl_uint p = next[keys[i] < nbuckets ? keys[i] : nbuckets - 1]++;
            kexp[p] = keys[i];
            vexp[p] = values[i];
            pexp[p] = (cl_uint)i;
        }
        check_output(r, what, "keys_out", b.out[0], OUT_BYTES, keys_out ? kexp : NULL, keys_out ? count * 4 : 0, true);
        check_output(r, what, "values_out", b.out[1], OUT_BYTES, with_values ? vexp : NULL,
                     with_values ? count * 4 : 0, true);
        check_output(r, what, "offsets", b.out[2], OUT_BYTES, oexp, ((size_t)nbuckets + 1) * 4, true);
        check_output(r, what, "permutation", b.out[3], OUT_BYTES, permutation ? pexp : NULL,
                     permutation ? count * 4 : 0, true);
    } else {
        /* The offsets are written by the last command, the rest by the passes before it. */
        check_output(r, what, "offsets", b.out[2], OUT_BYTES, NULL, 0, false);
        check_untouched_late(r, what, "keys_out", b.out[0], OUT_BYTES, NULL, 0);
        check_untouched_late(r, what, "values_out", b.out[1], OUT_BYTES, NULL, 0);
        check_untouched_late(r, what, "permutation", b.out[3], OUT_BYTES, NULL, 0);
    }
}

static clscan_bucketer *bucketer_create_step(run *r, cl_uint nbuckets, size_t value_size)
{
    char what[96];
    snprintf(what, sizeof what, "clscan_bucketer_create(%u buckets, %zu-byte values)", nbuckets, value_size);
    cl_int err = ERR_UNSET;
    call_begin(r, what);
    clscan_bucketer *bk = clscan_bucketer_create(fu.context, fu.device, nbuckets, value_size, &err);
    const bool fired = call_end(r, what, bk ? CL_SUCCESS : err);
    return created(r, what, bk, err, fired) ? bk : NULL;
}

/* ---- Steps: sorting ------------------------------------------------------------------------- */

static cl_uint sort_mask;
static bool sort_desc;
static int by_masked_key(const void *a, const void *b2)
{
    const cl_uint i = *(const cl_uint *)a, j = *(const cl_uint *)b2;
    const cl_uint ki = sort_keys[i] & sort_mask, kj = sort_keys[j] & sort_mask;
    if (ki != kj)
        return (ki < kj) != sort_desc ? -1 : 1;
    return i < j ? -1 : i > j;
}

static void sort_step(run *r, clscan_sorter *s, unsigned bits, bool desc, size_t count, bool in_place)
{
    if (!s)
        return;
    char what[128];
    snprintf(what, sizeof what, "clscan_sort_enqueue(%zu uint32 keys and values, %u bits%s%s)", count, bits,
             desc ? ", descending" : "", in_place ? ", in place" : "");
    prefill(b.out[0], OUT_BYTES);
    prefill(b.out[1], OUT_BYTES);
    fu_gate g;
    fu_gate_begin(&g, q);
    const cl_mem kin = in_place ? b.out[0] : b.keys, vin = in_place ? b.out[1] : b.values;
    fu_gate_write(&g, kin, count * 4, sort_keys);
    fu_gate_write(&g, vin, count * 4, values);
    cl_event ev = fu_no_event;
    call_begin(r, what);
    const cl_int err = clscan_sort_enqueue(s, q, kin, 0, b.out[0], 0, vin, 0, b.out[1], 0, count, g.n, g.writes, &ev);
    const bool fired = call_end(r, what, err);
    fu_gate_open(&g);
    const bool ok = succeeded(r, what, err, fired);
    check_event(r, what, ev, ok);
    if (ok) {
        cl_uint *order = (cl_uint *)ref[2], *kexp = (cl_uint *)ref[0], *vexp = (cl_uint *)ref[1];
        for (size_t i = 0; i < count; ++i)
            order[i] = (cl_uint)i;
        sort_mask = bits >= 32 ? ~(cl_uint)0 : ((cl_uint)1 << bits) - 1;
        sort_desc = desc;
        qsort(order, count, sizeof *order, by_masked_key);
        for (size_t i = 0; i < count; ++i) {
            kexp[i] = sort_keys[order[i]];
            vexp[i] = values[order[i]];
        }
        check_output(r, what, "keys_out", b.out[0], OUT_BYTES, kexp, count * 4, true);
        check_output(r, what, "values_out", b.out[1], OUT_BYTES, vexp, count * 4, true);
    } else {
        /* Passes alternate between the outputs and scratch: a fault in a later pass leaves an
         * earlier pass's output behind. */
        check_untouched_late(r, what, "keys_out", b.out[0], OUT_BYTES, in_place ? sort_keys : NULL,
                             in_place ? count * 4 : 0);
        check_untouched_late(r, what, "values_out", b.out[1], OUT_BYTES, in_place ? values : NULL,
                             in_place ? count * 4 : 0);
    }
}

static clscan_sorter *sorter_create_step(run *r)
{
    const char *what = "clscan_sorter_create(UINT32 keys, 4-byte values)";
    cl_int err = ERR_UNSET;
    call_begin(r, what);
    clscan_sorter *s = clscan_sorter_create(fu.context, fu.device, CLSCAN_UINT32, 4, &err);
    const bool fired = call_end(r, what, s ? CL_SUCCESS : err);
    return created(r, what, s, err, fired) ? s : NULL;
}

static void key_bits_step(run *r, clscan_sorter *s, unsigned bits)
{
    if (!s)
        return;
    const char *what = "clscan_sorter_set_key_bits";
    call_begin(r, what);
    const cl_int err = clscan_sorter_set_key_bits(s, bits);
    const bool fired = call_end(r, what, err);
    succeeded(r, what, err, fired);
}

static void descending_step(run *r, clscan_sorter *s)
{
    if (!s)
        return;
    const char *what = "clscan_sorter_set_descending";
    call_begin(r, what);
    const cl_int err = clscan_sorter_set_descending(s, 1);
    const bool fired = call_end(r, what, err);
    succeeded(r, what, err, fired);
}

/* The segments of offsets_step (from heads, an empty one first and two last), each sorted on its
 * own by the low bits keys, descending. */
static void segmented_sort_step(run *r, clscan_sorter *s, unsigned bits, size_t count)
{
    if (!s)
        return;
    char what[128];
    snprintf(what, sizeof what, "clscan_segmented_sort_enqueue(%zu uint32 keys and values, %u bits, descending)",
             count, bits);
    size_t nseg = 0;
    offsets[nseg++] = 0;
    for (size_t i = 0; i < count; ++i)
        if (i == 0 || heads[i])
            offsets[nseg++] = (cl_uint)i;
    offsets[nseg++] = (cl_uint)count;
    offsets[nseg] = (cl_uint)count;
    prefill(b.out[0], OUT_BYTES);
    prefill(b.out[1], OUT_BYTES);
    fu_gate g;
    fu_gate_begin(&g, q);
    fu_gate_write(&g, b.src, count * 4, sort_keys);
    fu_gate_write(&g, b.values, count * 4, values);
    fu_gate_write(&g, b.keys, (nseg + 1) * sizeof *offsets, offsets);
    cl_event ev = fu_no_event;
    call_begin(r, what);
    const cl_int err = clscan_segmented_sort_enqueue(s, q, b.src, 0, b.out[0], 0, b.values, 0, b.out[1], 0, count,
                                                     CLSCAN_UINT32, b.keys, 0, nseg, g.n, g.writes, &ev);
    const bool fired = call_end(r, what, err);
    fu_gate_open(&g);
    const bool ok = succeeded(r, what, err, fired);
    check_event(r, what, ev, ok);
    if (ok) {
        cl_uint *order = (cl_uint *)ref[2], *kexp = (cl_uint *)ref[0], *vexp = (cl_uint *)ref[1];
        for (size_t i = 0; i < count; ++i)
            order[i] = (cl_uint)i;
        sort_mask = bits >= 32 ? ~(cl_uint)0 : ((cl_uint)1 << bits) - 1;
        sort_desc = true;
        for (size_t k = 0; k < nseg; ++k)
            qsort(order + offsets[k], offsets[k + 1] - offsets[k], sizeof *order, by_masked_key);
        for (size_t i = 0; i < count; ++i) {
            kexp[i] = sort_keys[order[i]];
            vexp[i] = values[order[i]];
        }
        check_output(r, what, "keys_out", b.out[0], OUT_BYTES, kexp, count * 4, true);
        check_output(r, what, "values_out", b.out[1], OUT_BYTES, vexp, count * 4, true);
    } else {   /* one launch writes both; a failure after it (its event) may leave them written */
        check_untouched_late(r, what, "keys_out", b.out[0], OUT_BYTES, NULL, 0);
        check_untouched_late(r, what, "values_out", b.out[1], OUT_BYTES, NULL, 0);
    }
}

/* ---- Steps: clscan_host and clscan_default_device ------------------------------------------- */

static unsigned char host_array[OUT_BYTES];

static void host_step(run *r, const scan_spec *s, size_t count, bool in_place)
{
    char what[128];
    snprintf(what, sizeof what, "clscan_host(%s %s %s, %zu elements%s)", sup_op_name(s->op), sup_type_name(s->type),
             sup_kind_name(s->kind), count, in_place ? ", in place" : "");
    const size_t e = clscan_op_element_size(s->op, s->type);
    const void *x = input_of(s->op, s->type);
    memcpy(host_array, pattern, sizeof host_array);
    if (in_place)
        memcpy(host_array, x, count * e);
    call_begin(r, what);
    const cl_int err = clscan_host(s->op, s->type, s->kind, in_place ? host_array : x, host_array, count);
    const bool fired = call_end(r, what, err);
    const bool ok = succeeded(r, what, err, fired);
    if (ok)
        sup_reference(s->op, s->type, s->kind, x, ref[0], count);
    /* Over host memory the scan writes dst itself: a failure to map it back comes after. */
    const char *late = fired && !ok ? shim->fired() : NULL;
    if (late && (!strcmp(late, "clEnqueueMapBuffer") || !strcmp(late, "clEnqueueUnmapMemObject")) && !strict)
        ++r->unchecked;
    else
        check_host(r, what, "dst", host_array, sizeof host_array, ok ? ref[0] : in_place ? x : NULL, count * e, ok);
}

static void default_device_step(run *r)
{
    const char *what = "clscan_default_device(NULL)";
    cl_platform_id platform = (cl_platform_id)fu_no_event;
    cl_device_id device = (cl_device_id)fu_no_event;
    call_begin(r, what);
    const cl_int err = clscan_default_device(NULL, &platform, &device);
    const bool fired = call_end(r, what, err);
    if (succeeded(r, what, err, fired)) {
        if (platform != fu.platform || device != fu.device)
            problem(r, "%s gave another device than before", what);
    } else if (platform != (cl_platform_id)fu_no_event || device != (cl_device_id)fu_no_event) {
        problem(r, "%s failed but wrote its results", what);
    }
}

/* ---- Scenarios ------------------------------------------------------------------------------ */

static clscan_plan *plan;   /* the plan a scenario's setup makes */

static void no_setup(void) {}

static void release_setup_plan(void)
{
    release_plan(&plan);
}

/* Fails the setup of a run (never injected; an error is a setup error of the test). */
static void setup_plan(const scan_spec *s, size_t wg, size_t items)
{
    cl_int err;
    plan = clscan_plan_create(fu.context, fu.device, s->op, s->type, s->kind, &err);
    if (plan && (wg || items))
        err = clscan_plan_set_tuning(plan, wg, items);
    if (!plan || err != CL_SUCCESS) {
        fprintf(stderr, "setup error: the scenario's plan: %s: %s\n", clscan_error_string(err), clscan_last_error());
        exit(99);
    }
}

/* Plans, built-in and custom, built inside the body (cold), with the cache cleared between
 * them; the functions that make no failable calls on the way. */
static const scan_spec sum_u32_incl = {CLSCAN_SUM, CLSCAN_UINT32, CLSCAN_INCLUSIVE};

static void plans_body(run *r)
{
    if (strcmp(clscan_version_string(), "") == 0 || clscan_op_element_size(CLSCAN_AFFINE, CLSCAN_INT64) != 16 ||
        strcmp(clscan_error_string(CL_OUT_OF_RESOURCES), "CL_OUT_OF_RESOURCES") != 0)
        problem(r, "clscan_version_string, clscan_op_element_size or clscan_error_string gave a wrong answer");
    clscan_plan *p1 = create_step(r, &sum_u32_incl);
    getters_step(r, p1, 4);
    scan_step(r, p1, &sum_u32_incl, PLAIN, 100);
    clscan_cache_clear();   /* p1 keeps its own references */
    scan_step(r, p1, &sum_u32_incl, PLAIN, 3000);
    clscan_plan *p2 = create_custom_step(r);
    getters_step(r, p2, 4);
    scan_step(r, p2, &custom_max_spec, PLAIN, 5000);
    release_plan(&p1);
    release_plan(&p2);
}

/* Scans of one tile and of many with both algorithms, several levels of tile totals. */
static const scan_spec affine_i32 = {CLSCAN_AFFINE, CLSCAN_INT32, CLSCAN_INCLUSIVE};

static void scans_setup(void)
{
    setup_plan(&affine_i32, 4, 4);   /* tiles of 16: 5000 elements are 3 levels of totals */
}

static void scans_body(run *r)
{
    algorithm_step(r, plan, CLSCAN_ALGORITHM_REDUCE_THEN_SCAN);
    scan_step(r, plan, &affine_i32, PLAIN, 10);
    scan_step(r, plan, &affine_i32, PLAIN, 5000);
    scan_step(r, plan, &affine_i32, PLAIN, 1500);
    algorithm_step(r, plan, CLSCAN_ALGORITHM_SINGLE_PASS);
    scan_step(r, plan, &affine_i32, PLAIN, 5000);
    scan_step(r, plan, &affine_i32, PLAIN, 1500);
}

/* Segmented scans and scans by key: their programs are made on first use, in the body. */
static const scan_spec seg_spec = {CLSCAN_SUM, CLSCAN_UINT32, CLSCAN_EXCLUSIVE};

static void segmented_setup(void)
{
    setup_plan(&seg_spec, 4, 4);
}

static void segmented_body(run *r)
{
    algorithm_step(r, plan, CLSCAN_ALGORITHM_REDUCE_THEN_SCAN);
    scan_step(r, plan, &seg_spec, HEADS, 10);
    scan_step(r, plan, &seg_spec, HEADS, 3000);
    algorithm_step(r, plan, CLSCAN_ALGORITHM_SINGLE_PASS);
    scan_step(r, plan, &seg_spec, HEADS, 3000);
    scan_step(r, plan, &seg_spec, KEYS32, 3000);
    scan_step(r, plan, &seg_spec, KEYS64, 300);
    offsets_step(r, plan, &seg_spec, 3000, true, false);
    offsets_step(r, plan, &seg_spec, 10, false, true);
    algorithm_step(r, plan, CLSCAN_ALGORITHM_REDUCE_THEN_SCAN);
    offsets_step(r, plan, &seg_spec, 3000, true, true);
}

/* The same with the library's cache cleared after every run: the first segmented scan and the
 * first scan by key build their programs (the plan stays usable when that fails). */
static void segmented_cold_body(run *r)
{
    scan_step(r, plan, &seg_spec, HEADS, 10);
    scan_step(r, plan, &seg_spec, KEYS64, 100);
}

/* Tuning and variants: rebuilds that keep the plan as it was when they fail. */
static const scan_spec min_i32 = {CLSCAN_MIN, CLSCAN_INT32, CLSCAN_EXCLUSIVE};

static void variants_setup(void)
{
    setup_plan(&min_i32, 0, 0);
}

static void variants_body(run *r)
{
    tuning_step(r, plan, 8, 8);
    scan_step(r, plan, &min_i32, PLAIN, 1000);
    variant_step(r, plan, CLSCAN_TILES_REGISTERS, CLSCAN_PRIMITIVE_BLELLOCH);
    scan_step(r, plan, &min_i32, PLAIN, 1000);
    variant_step(r, plan, CLSCAN_TILES_AUTO, CLSCAN_PRIMITIVE_AUTO);
    tuning_step(r, plan, 0, 0);
    scan_step(r, plan, &min_i32, PLAIN, 1000);
}

static void compaction_body(run *r)
{
    clscan_compactor *c = compactor_create_step(r, 4);
    compact_step(r, c, 5000, false);
    compact_step(r, c, 5000, true);
    compact_blocking_step(r, c, 3000);
    clscan_compactor_release(c);
}

/* The selections: a compactor with a predicate (its functions, partition by flags, unique) and
 * the runs of keys (unique_by_key; reduce_by_key with the setup's plan, whose segmented program
 * the first call builds). */
static void selection_setup(void)
{
    setup_plan(&sum_u32_incl, 0, 0);
}

/* reduce_by_key: the runs' flags, the plan's segmented scan and two compactions in one chain
 * (the out-of-order walk; the rest of the selections share their commands with it or with the
 * compaction, and walk in order only, to keep the run time modest). */
static void reduce_body(run *r)
{
    clscan_runs *h = runs_create_step(r);
    runs_step(r, h, plan, 3000);
    clscan_runs_release(h);
}

static void selection_body(run *r)
{
    clscan_compactor *c = compactor_create_if_step(r);
    select_step(r, c, SEL_IF, 5000);
    compact_if_blocking_step(r, c, 3000);
    select_step(r, c, SEL_PARTITION_IF, 5000);
    select_step(r, c, SEL_PARTITION, 3000);
    select_step(r, c, SEL_UNIQUE, 3000);
    clscan_compactor_release(c);
    clscan_runs *h = runs_create_step(r);
    runs_step(r, h, NULL, 5000);
    runs_step(r, h, plan, 3000);
    clscan_runs_release(h);
}

static void bucketing_body(run *r)
{
    clscan_bucketer *bk = bucketer_create_step(r, 5, 4);
    bucket_step(r, bk, 5, true, 5000, true, true);
    bucket_step(r, bk, 5, true, 3000, false, false);
    clscan_bucketer_release(bk);
    bk = bucketer_create_step(r, 300, 0);   /* two passes */
    bucket_step(r, bk, 300, false, 3000, true, true);
    clscan_bucketer_release(bk);
}

static void sorting_body(run *r)
{
    clscan_sorter *s = sorter_create_step(r);
    sort_step(r, s, 32, false, 5000, false);
    key_bits_step(r, s, 12);
    sort_step(r, s, 12, false, 3000, false);
    key_bits_step(r, s, 24);
    sort_step(r, s, 24, false, 3000, true);   /* an odd number of passes in place: from a copy */
    descending_step(r, s);
    sort_step(r, s, 24, true, 3000, false);
    segmented_sort_step(r, s, 24, 3000);
    clscan_sorter_release(s);
}

/* clscan_host on the library's own default context (cold: clscan_cache_clear drops it). */
static const scan_spec max_i64_excl = {CLSCAN_MAX, CLSCAN_INT64, CLSCAN_EXCLUSIVE};

static void host_body(run *r)
{
    default_device_step(r);
    host_step(r, &sum_u32_incl, 1000, false);
    host_step(r, &max_i64_excl, 5000, true);
}

/* The on-disk program cache's way in: builds from source stored (clGetProgramInfo, the file's
 * buffers) in a directory of the walk's own, emptied before each run; the other scenarios find
 * their programs' files in the suite's cache (CLSCAN_CACHE_DIR) and take the binary's way. */
static char disk_dir[256];

static void disk_setup(void)
{
    if (!disk_dir[0]) {   /* the walk's first run: before the library reads CLSCAN_CACHE_DIR */
        const char *tmp = getenv("TMPDIR");
        snprintf(disk_dir, sizeof disk_dir, "%s/clscan-fault-test-XXXXXX", tmp && *tmp ? tmp : "/tmp");
        if (!mkdtemp(disk_dir) || setenv("CLSCAN_CACHE_DIR", disk_dir, 1) != 0) {
            perror("fault_test: the disk cache's directory");
            exit(99);
        }
    }
}

static void disk_cleanup(void)
{
    DIR *d = opendir(disk_dir);
    for (struct dirent *e; d && (e = readdir(d));) {
        char path[512];
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0 &&
            (size_t)snprintf(path, sizeof path, "%s/%s", disk_dir, e->d_name) < sizeof path)
            unlink(path);
    }
    if (d)
        closedir(d);
    rmdir(disk_dir);   /* the library makes it again */
}

static void disk_body(run *r)
{
    clscan_plan *p1 = create_step(r, &sum_u32_incl);
    scan_step(r, p1, &sum_u32_incl, PLAIN, 1000);
    clscan_plan *p2 = create_custom_step(r);
    scan_step(r, p2, &custom_max_spec, PLAIN, 1000);
    release_plan(&p1);
    release_plan(&p2);
}

typedef struct scenario {
    const char *name;
    bool cold;             /* the cleanup clears the library's cache: the body builds its programs */
    bool out_of_order;     /* the queue the body enqueues on */
    void (*setup)(void);
    void (*body)(run *r);
    void (*cleanup)(void);
} scenario;

static const scenario scenarios[] = {
    {"plans", true, false, no_setup, plans_body, no_setup},
    {"scans/in-order", false, false, scans_setup, scans_body, release_setup_plan},
    {"scans/out-of-order", false, true, scans_setup, scans_body, release_setup_plan},
    {"segmented/in-order", false, false, segmented_setup, segmented_body, release_setup_plan},
    {"segmented/out-of-order", false, true, segmented_setup, segmented_body, release_setup_plan},
    {"segmented/cold", true, false, segmented_setup, segmented_cold_body, release_setup_plan},
    {"variants", false, false, variants_setup, variants_body, release_setup_plan},
    {"compaction/in-order", false, false, no_setup, compaction_body, no_setup},
    {"compaction/out-of-order", false, true, no_setup, compaction_body, no_setup},
    {"selection/in-order", false, false, selection_setup, selection_body, release_setup_plan},
    {"selection/out-of-order", false, true, selection_setup, reduce_body, release_setup_plan},
    {"bucketing/in-order", false, false, no_setup, bucketing_body, no_setup},
    {"bucketing/out-of-order", false, true, no_setup, bucketing_body, no_setup},
    {"sorting/in-order", false, false, no_setup, sorting_body, no_setup},
    {"sorting/out-of-order", false, true, no_setup, sorting_body, no_setup},
    {"host", true, false, no_setup, host_body, no_setup},
    {"disk-store", true, false, disk_setup, disk_body, disk_cleanup},
};
#define NSCENARIOS (sizeof scenarios / sizeof scenarios[0])

/* ---- The walk ------------------------------------------------------------------------------- */

/* What a scenario's child tells the parent (shared memory: it survives the child's crash). */
typedef struct progress {
    int pass;            /* the walk in progress (warm scenarios walk twice) */
    long k;              /* the run in progress */
    char step[160];      /* the public call in progress */
    long points;         /* failable calls of the body (the walk's length) */
    long errors;         /* faulted calls that returned an error */
    long absorbed;       /* faulted calls that succeeded anyway */
    long unchecked;      /* outputs of failed calls not checked (not strict) */
    long problems;
    bool finished;
} progress;

static unsigned run_timeout = 120;

/* The reference counts of the driver's context and queues. */
typedef struct refcounts {
    cl_uint context, queue, io;
} refcounts;

static refcounts driver_refcounts(void)
{
    refcounts n = {0, 0, 0};
    clGetContextInfo(fu.context, CL_CONTEXT_REFERENCE_COUNT, sizeof n.context, &n.context, NULL);
    clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, sizeof n.queue, &n.queue, NULL);
    clGetCommandQueueInfo(fu.io, CL_QUEUE_REFERENCE_COUNT, sizeof n.io, &n.io, NULL);
    return n;
}

/* Whether the counts came back to what they were (or below: PoCL drops the references of
 * completed commands' events from its own threads, a little after clFinish; an over-release by
 * the library shows in the shim's books).  Waits up to a second for PoCL to settle. */
static bool refcounts_back(const refcounts *before, refcounts *after)
{
    for (int i = 0; i < 200; ++i) {
        *after = driver_refcounts();
        if (after->context <= before->context && after->queue <= before->queue && after->io <= before->io)
            return true;
        fu_sleep_ms(5);
    }
    return false;
}

/* One run with the kth failable call failed (0: none); true if the fault was reached.  books:
 * check the shim's books and the driver's reference counts (not while the library's cache may
 * still grow). */
static bool one_run(const scenario *s, long k, bool books, progress *pr)
{
    run r = {.scenario = s->name, .k = k};
    shim->run_begin();
    const refcounts before = driver_refcounts();
    shim->arm(NULL, 0);
    s->setup();
    shim->arm(NULL, k);
    s->body(&r);
    const char *fired = shim->fired();
    const long counted = shim->counted();
    shim->arm(NULL, 0);
    if (fired && !r.fault_in[0])
        problem(&r, "the fault (%s) fired outside the calls the driver checks", fired);
    r.retry = true;
    s->body(&r);
    r.retry = false;
    s->cleanup();
    if (s->cold)
        clscan_cache_clear();
    clFinish(q);
    clFinish(fu.io);
    char text[4096];
    if (shim->run_check(text, sizeof text) && books)
        problem(&r, "the library kept what it took during the run:\n%s", text);
    /* (Not after the first run: PoCL's queues keep a reference to the event of their last
     * command, and that event one to its queue, from the first command on.) */
    refcounts after;
    if (books && k > 0 && !refcounts_back(&before, &after))
        problem(&r, "the driver's reference counts did not come back: context %u -> %u, queue %u -> %u, io queue "
                "%u -> %u", before.context, after.context, before.queue, after.queue, before.io, after.io);
    if (fired) {
        if (books) {
            if (r.fault_status == CL_SUCCESS)
                ++pr->absorbed;
            else
                ++pr->errors;
        }
    } else if (k > 0) {
        if (books)
            pr->points = k - 1;
        if (counted != k - 1)
            problem(&r, "the body made %ld failable calls; the walk failed %ld of them", counted, k - 1);
    }
    if (verbose && k)
        printf("  %s k=%ld%s: %s%s%s -> %s\n", s->name, k, books ? "" : " (warming)", fired ? fired : "(not reached)",
               fired ? " in " : "", fired ? r.fault_in : "", fired ? clscan_error_string(r.fault_status) : "");
    if (books)
        pr->unchecked += r.unchecked;
    pr->problems += r.problems;
    return fired != NULL;
}

/* The child: the walk of one scenario from pass and k (after a crash: where it stopped); its
 * exit status.  A cold scenario walks once.  A warm one walks twice: the first walk checks
 * the results but not the books, since a call after a fault may take a path that builds a
 * program the run without faults did not, and the library's cache keeps it; the second walk,
 * which finds every program in the cache, checks everything. */
static int walk(const scenario *s, int start_pass, long start_k, progress *pr)
{
    fu_open(program);
    q = fu_queue(s->out_of_order);
    make_buffers();
    make_inputs();
    crash_note = pr->step;
    crash_note_size = sizeof pr->step;
    /* The run without a fault: the programs the body needs in the library's cache (where it is
     * kept) and in PoCL's. */
    pr->pass = start_pass;
    pr->k = 0;
    alarm(run_timeout);
    one_run(s, 0, s->cold, pr);
    for (int pass = start_pass; pass < 2; ++pass) {
        const bool books = s->cold || pass == 1;
        if (s->cold && pass == 0)
            continue;
        for (long k = pass == start_pass ? start_k : 1;; ++k) {
            pr->pass = pass;
            pr->k = k;
            alarm(run_timeout);
            if (!one_run(s, k, books, pr))
                break;
        }
    }
    alarm(0);
    /* The end: the library holds nothing once its cache is cleared. */
    clscan_cache_clear();
    release_buffers();
    clReleaseCommandQueue(q);
    fu_close();
    char text[4096];
    if (shim->all_check(text, sizeof text)) {
        printf("FAIL %s: after clscan_cache_clear the library still holds:\n%s", s->name, text);
        ++pr->problems;
    }
    pr->finished = true;
    return pr->problems ? 1 : 0;
}

static bool selected(const scenario *s)
{
    const char *want = getenv("FAULT_TEST_SCENARIOS");
    if (!want || !*want)
        return true;
    char words[512];
    snprintf(words, sizeof words, "%s", want);
    for (char *w = strtok(words, " ,"); w; w = strtok(NULL, " ,"))
        if (strstr(s->name, w))
            return true;
    return false;
}

int main(int argc, char **argv)
{
    (void)argc;
    shim = fu_shim(program, argv);
    verbose = getenv("FAULT_TEST_VERBOSE") && atoi(getenv("FAULT_TEST_VERBOSE")) > 0;
    strict = getenv("FAULT_TEST_STRICT") && atoi(getenv("FAULT_TEST_STRICT")) > 0;
    const char *timeout = getenv("CLSCAN_TEST_TIMEOUT");
    if (timeout && *timeout)
        run_timeout = (unsigned)strtoul(timeout, NULL, 10);
    fu_seed_from_env(program);
    progress *pr = mmap(NULL, sizeof *pr, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (pr == MAP_FAILED) {
        perror("mmap");
        return 99;
    }
    const double t0 = fu_now();
    long points = 0, problems = 0, unchecked = 0;
    int nrun = 0, status = 0;
    for (size_t i = 0; i < NSCENARIOS; ++i) {
        const scenario *s = &scenarios[i];
        if (!selected(s))
            continue;
        const double ts = fu_now();
        memset(pr, 0, sizeof *pr);
        long start = 1;
        int start_pass = 0, crashes = 0;
        for (;;) {
            fflush(NULL);
            const pid_t pid = fork();
            if (pid < 0) {
                perror("fork");
                return 99;
            }
            if (pid == 0) {
                const int rc = walk(s, start_pass, start, pr);
                fflush(NULL);
                _exit(rc);
            }
            int ws;
            while (waitpid(pid, &ws, 0) < 0)
                ;
            if (WIFEXITED(ws)) {
                const int code = WEXITSTATUS(ws);
                if (code == 77 || code == 99)
                    return code;
                break;
            }
            const int sig = WIFSIGNALED(ws) ? WTERMSIG(ws) : 0;
            printf("FAIL %s k=%ld%s: the process died of signal %d (%s)%s in %s\n", s->name, pr->k,
                   pr->k == 0 ? " (the run without a fault)" : pr->pass == 0 && !s->cold ? " (first walk)" : "", sig,
                   strsignal(sig), sig == SIGALRM ? ": a run took longer than CLSCAN_TEST_TIMEOUT" : "", pr->step);
            ++pr->problems;
            if (pr->k == 0 || ++crashes == 5)
                break;
            start_pass = pr->pass;   /* the walk goes on after the crash */
            start = pr->k + 1;
        }
        printf("%s: %-24s %5ld points: %ld errors returned, %ld absorbed with the right result%s (%.1f s)\n",
               program, s->name, pr->points, pr->errors, pr->absorbed, pr->finished ? "" : ", unfinished",
               fu_now() - ts);
        fflush(stdout);
        points += pr->points;
        problems += pr->problems;
        unchecked += pr->unchecked;
        status |= pr->problems || !pr->finished;
        ++nrun;
    }
    if (unchecked)
        printf("%s: %ld outputs of failed calls were not checked untouched: sort and bucket outputs, the dst "
               "of segmented scans by offsets with totals (FAULT_TEST_STRICT=1 checks them) and clscan_compact's and clscan_compact_if's dst after its read "
               "failed\n", program, unchecked);
    printf("%s: %ld fault points tried in %d scenarios (%.1f s)%s\n", program, points, nrun, fu_now() - t0,
           problems ? "; problems found (lines starting FAIL)" : "");
    return status ? 1 : 0;
}
