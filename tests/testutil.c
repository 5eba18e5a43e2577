#define _POSIX_C_SOURCE 200809L
#include "testutil.h"

#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

tu_env tu;
uint64_t tu_seed;

/* ---- Random numbers: xoshiro256**, one state per thread ---------------------------------- */

static _Thread_local sup_rng rng;
static _Thread_local bool rng_seeded;

static void rng_seed(uint64_t seed)
{
    sup_rng_seed(&rng, seed);
    rng_seeded = true;
}

/* This thread's generator, seeded on its first use. */
static sup_rng *thread_rng(void)
{
    if (!rng_seeded) {
        static _Atomic unsigned threads;
        rng_seed(tu_seed ^ (0x51ed2701u * ++threads));
    }
    return &rng;
}

uint64_t tu_rand(void)
{
    return sup_rng_next(thread_rng());
}

uint64_t tu_rand_below(uint64_t n)
{
    return tu_rand() % n;
}

void tu_fill_bytes(void *p, size_t bytes)
{
    unsigned char *b = p;
    for (size_t i = 0; i < bytes; i++)
        b[i] = (unsigned char)tu_rand();
}

/* ---- Setup ---------------------------------------------------------------------------------- */

static bool any_device(void)
{
    cl_uint np = 0;
    cl_platform_id plats[16];
    if (clGetPlatformIDs(16, plats, &np) != CL_SUCCESS || np == 0)
        return false;
    for (cl_uint p = 0; p < np && p < 16; p++) {
        cl_uint nd = 0;
        if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 0, NULL, &nd) == CL_SUCCESS && nd > 0)
            return true;
    }
    return false;
}

void tu_open(const char *program)
{
    const char *s = getenv("CLSCAN_TEST_SEED");
    tu_seed = s && *s ? strtoull(s, NULL, 0) : ((uint64_t)time(NULL) ^ ((uint64_t)getpid() << 20));
    rng_seed(tu_seed);
    printf("%s: seed %" PRIu64 " (set CLSCAN_TEST_SEED=%" PRIu64 " to repeat)\n", program, tu_seed, tu_seed);
    fflush(stdout);

    cl_int err = clscan_default_device(NULL, &tu.platform, &tu.device);
    if (err != CL_SUCCESS) {
        if (!any_device()) {
            const char *ci = getenv("CI");
            if (ci && *ci) {
                fprintf(stderr, "%s: FAIL: no OpenCL device found, but CI is set (CI=%s) and CI "
                        "machines must have one (clscan_default_device: %s)\n",
                        program, ci, clscan_error_string(err));
                exit(1);
            }
            fprintf(stderr, "%s: SKIP: no OpenCL device found (clscan_default_device: %s)\n",
                    program, clscan_error_string(err));
            exit(77);
        }
        fprintf(stderr, "%s: clscan_default_device(NULL) failed although a device exists: %s: %s\n",
                program, clscan_error_string(err), clscan_last_error());
        exit(1);
    }
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)tu.platform, 0};
    tu.context = clCreateContext(props, 1, &tu.device, NULL, NULL, &err);
    if (err == CL_SUCCESS)
        tu.queue = clCreateCommandQueue(tu.context, tu.device, 0, &err);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "%s: setup error: cannot create a context and queue: %d\n", program, (int)err);
        exit(99);
    }
    char name[256] = "";
    clGetDeviceInfo(tu.device, CL_DEVICE_NAME, sizeof name - 1, name, NULL);
    printf("%s: device: %s\n", program, name);
    fflush(stdout);
}

typedef struct plan_entry {
    clscan_op op;
    clscan_type type;
    clscan_kind kind;
    size_t wg, items;
    clscan_algorithm algo;
    clscan_plan *plan;
} plan_entry;

static plan_entry plans[512];
static size_t nplans;

void tu_close(void)
{
    for (size_t i = 0; i < nplans; i++)
        clscan_plan_release(plans[i].plan);
    nplans = 0;
    if (tu.queue)
        clReleaseCommandQueue(tu.queue);
    if (tu.context)
        clReleaseContext(tu.context);
    tu.queue = NULL;
    tu.context = NULL;
    clscan_cache_clear();
}

int tu_run(Suite *suite)
{
    SRunner *sr = srunner_create(suite);
    /* No fork: the tests share the device, the plans and the library's program cache. */
    srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    if (failed)
        printf("%d test(s) failed; seed %" PRIu64 " (CLSCAN_TEST_SEED=%" PRIu64 " repeats them)\n",
               failed, tu_seed, tu_seed);
    return failed ? 1 : 0;
}

static void on_alarm(int sig)
{
    (void)sig;
    static const char msg[] = "\nwatchdog: the test program hung; aborting\n";
    if (write(2, msg, sizeof msg - 1) < 0) {
        /* nothing more to do */
    }
    _exit(1);
}

void tu_watchdog(unsigned seconds)
{
    const char *env = getenv("CLSCAN_TEST_TIMEOUT"); /* seconds; 0 turns the watchdog off */
    if (env && *env)
        seconds = (unsigned)strtoul(env, NULL, 10);
    if (seconds) {
        signal(SIGALRM, on_alarm);
        alarm(seconds);
    }
}

/* ---- Inputs and comparison ---------------------------------------------------------------- */

void tu_fill(clscan_op op, clscan_type type, void *x, size_t n)
{
    sup_random_edges(op, type, thread_rng(), x, n);
}

void tu_fill_float_fractions(float *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        x[i] = (float)((double)((int64_t)tu_rand_below(1u << 24) - (1 << 23)) / 8388608.0);
}

bool tu_compare(clscan_op op, clscan_type type, const void *expected, const void *got, size_t n,
                char *msg, size_t msgsize)
{
    sup_compare_result res;
    if (sup_compare(op, type, SUP_MATCH_VALUES, expected, got, n, &res))
        return true;
    sup_describe_mismatch(op, type, expected, got, n, &res, msg, msgsize);
    return false;
}

/* ---- Plans ---------------------------------------------------------------------------------- */

clscan_plan *tu_plan_algo(clscan_op op, clscan_type type, clscan_kind kind, size_t wg, size_t items,
                          clscan_algorithm algo)
{
    for (size_t i = 0; i < nplans; i++)
        if (plans[i].op == op && plans[i].type == type && plans[i].kind == kind &&
            plans[i].wg == wg && plans[i].items == items && plans[i].algo == algo)
            return plans[i].plan;
    ck_assert_msg(nplans < sizeof plans / sizeof plans[0], "too many plans");
    cl_int err = 12345;
    clscan_plan *p = clscan_plan_create(tu.context, tu.device, op, type, kind, &err);
    ck_assert_msg(p != NULL && err == CL_SUCCESS, "clscan_plan_create(%s, %s, %s) failed: %s: %s",
                  tu_op_name(op), tu_type_name(type), tu_kind_name(kind), clscan_error_string(err),
                  clscan_last_error());
    if (wg || items) {
        err = clscan_plan_set_tuning(p, wg, items);
        if (err != CL_SUCCESS) {
            clscan_plan_release(p);
            ck_abort_msg("clscan_plan_set_tuning(%s %s %s, %zu, %zu) failed: %s: %s", tu_op_name(op),
                         tu_type_name(type), tu_kind_name(kind), wg, items, clscan_error_string(err),
                         clscan_last_error());
        }
    }
    if (algo != CLSCAN_ALGORITHM_AUTO) {
        err = clscan_plan_set_algorithm(p, algo);
        if (err != CL_SUCCESS) {
            clscan_plan_release(p);
            ck_abort_msg("clscan_plan_set_algorithm(%s): %s: %s", tu_algo_name(algo), clscan_error_string(err),
                         clscan_last_error());
        }
    }
    plans[nplans++] = (plan_entry){op, type, kind, wg, items, algo, p};
    return p;
}

clscan_plan *tu_plan_tuned(clscan_op op, clscan_type type, clscan_kind kind, size_t wg, size_t items)
{
    return tu_plan_algo(op, type, kind, wg, items, CLSCAN_ALGORITHM_AUTO);
}

void tu_prepare_plan(clscan_op op, clscan_type type, clscan_kind kind, size_t wg, size_t items,
                     clscan_algorithm algo)
{
    cl_int err = 12345;
    clscan_plan *p = clscan_plan_create(tu.context, tu.device, op, type, kind, &err);
    if (p && (wg || items))
        err = clscan_plan_set_tuning(p, wg, items);
    if (p && err == CL_SUCCESS && algo != CLSCAN_ALGORITHM_AUTO)
        err = clscan_plan_set_algorithm(p, algo);
    if (!p || err != CL_SUCCESS || nplans == sizeof plans / sizeof plans[0]) {
        fprintf(stderr, "setup error: cannot prepare the plan %s %s %s (tuning %zu x %zu, %s): %s: %s\n",
                tu_op_name(op), tu_type_name(type), tu_kind_name(kind), wg, items, tu_algo_name(algo),
                clscan_error_string(err), clscan_last_error());
        exit(99);
    }
    plans[nplans++] = (plan_entry){op, type, kind, wg, items, algo, p};
}

clscan_plan *tu_plan(clscan_op op, clscan_type type, clscan_kind kind)
{
    return tu_plan_tuned(op, type, kind, 0, 0);
}

size_t tu_tile(clscan_plan *plan)
{
    size_t wg = 0, items = 0;
    cl_int err = clscan_plan_get_tuning(plan, &wg, &items);
    ck_assert_msg(err == CL_SUCCESS, "clscan_plan_get_tuning: %s", clscan_error_string(err));
    ck_assert_msg(wg > 0 && items > 0, "clscan_plan_get_tuning gave %zu x %zu", wg, items);
    return wg * items;
}

/* ---- The checked scan --------------------------------------------------------------------------- */

void tu_describe(clscan_plan *plan, const tu_case *c, char *buf, size_t size)
{
    static const char *layouts[] = {"separate buffers", "in place", "same buffer, disjoint ranges"};
    size_t wg = 0, items = 0;
    clscan_plan_get_tuning(plan, &wg, &items);
    snprintf(buf, size, "[seed %" PRIu64 "] %s %s %s, count %zu, src_offset %zu, dst_offset %zu, %s, "
             "tuning %zu x %zu (tile %zu), %s%s%s", tu_seed, tu_op_name(c->op), tu_type_name(c->type),
             tu_kind_name(c->kind), c->count, c->src_offset,
             c->layout == TU_IN_PLACE ? c->src_offset : c->dst_offset, layouts[c->layout], wg, items,
             wg * items, tu_algo_name(clscan_plan_get_algorithm(plan)), c->queue ? ", own queue" : "",
             c->wait_on_writes ? ", waits on the writes" : "");
}

static uint64_t case_seed(const tu_case *c)
{
    uint64_t h = tu_seed;
    uint64_t parts[] = {(uint64_t)c->op, (uint64_t)c->type, (uint64_t)c->kind, c->count,
                        c->src_offset, c->dst_offset, (uint64_t)c->layout, c->salt};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        h ^= parts[i] + 0x9e3779b97f4a7c15u + (h << 6) + (h >> 2);
        h = sup_splitmix64(&h);
    }
    return h;
}

#define FAIL(...)                                                                   \
    do {                                                                            \
        char what_[1024];                                                            \
        snprintf(what_, sizeof what_, __VA_ARGS__);                                 \
        snprintf(msg, msgsize, "%s: %s", desc, what_);                              \
        ok = false;                                                                 \
        goto out;                                                                   \
    } while (0)

bool tu_check_scan(clscan_plan *plan, const tu_case *c, char *msg, size_t msgsize)
{
    /* Atomic: threads_test checks cases from two threads at once. */
    static _Atomic int trace = -1; /* CLSCAN_TEST_TRACE=1: print every case before it runs */
    if (trace < 0)
        trace = getenv("CLSCAN_TEST_TRACE") != NULL;
    enum { GUARD = 5 };
    char desc[512];
    tu_describe(plan, c, desc, sizeof desc);
    bool ok = true;
    cl_int err;
    cl_command_queue q = c->queue ? c->queue : tu.queue;
    size_t es = tu_elem_size(c->op, c->type);
    size_t n = c->count;
    bool two = c->layout == TU_SEPARATE;
    size_t src_off = c->src_offset;
    size_t dst_off = c->layout == TU_IN_PLACE ? src_off : c->dst_offset;
    size_t src_len = (two ? src_off : (src_off > dst_off ? src_off : dst_off)) + n + GUARD;
    size_t dst_len = two ? dst_off + n + GUARD : src_len;
    cl_mem sbuf = NULL, dbuf = NULL;
    cl_event ev = NULL, writes[2] = {NULL, NULL};
    unsigned char *src0 = malloc(src_len * es), *dst0 = malloc(dst_len * es);
    unsigned char *src1 = malloc(src_len * es), *dst1 = malloc(dst_len * es);
    unsigned char *ref = malloc(n * es + 1);
    if (!src0 || !dst0 || !src1 || !dst1 || !ref)
        FAIL("out of host memory");
    if (clscan_element_size(plan) != es)
        FAIL("clscan_element_size is %zu, expected %zu", clscan_element_size(plan), es);

    /* Random guards around everything, then the input at src_off. */
    tu_fill_bytes(src0, src_len * es);
    tu_fill_bytes(dst0, dst_len * es);
    if (c->input)
        memcpy(src0 + src_off * es, c->input, n * es);
    else {
        const sup_rng saved = rng;
        rng_seed(case_seed(c)); /* the same case gives the same input for a given seed */
        tu_fill(c->op, c->type, src0 + src_off * es, n);
        rng = saved;
        tu_rand();
    }
    if (!two) /* one buffer: the source range lies in it too */
        memcpy(dst0 + src_off * es, src0 + src_off * es, n * es);
    tu_reference(c->op, c->type, c->kind, src0 + src_off * es, ref, n);

    sbuf = clCreateBuffer(tu.context, CL_MEM_READ_WRITE, (two ? src_len : dst_len) * es, NULL, &err);
    if (err != CL_SUCCESS)
        FAIL("clCreateBuffer: %d", (int)err);
    if (two) {
        dbuf = clCreateBuffer(tu.context, CL_MEM_READ_WRITE, dst_len * es, NULL, &err);
        if (err != CL_SUCCESS)
            FAIL("clCreateBuffer: %d", (int)err);
    } else {
        dbuf = sbuf;
        clRetainMemObject(dbuf);
    }
    cl_bool blocking = c->wait_on_writes ? CL_FALSE : CL_TRUE;
    cl_uint nwrites = 0;
    if (two) {
        err = clEnqueueWriteBuffer(q, sbuf, blocking, 0, src_len * es, src0, 0, NULL,
                                   blocking ? NULL : &writes[nwrites++]);
        if (err != CL_SUCCESS)
            FAIL("clEnqueueWriteBuffer: %d", (int)err);
    }
    err = clEnqueueWriteBuffer(q, dbuf, blocking, 0, dst_len * es, dst0, 0, NULL,
                               blocking ? NULL : &writes[nwrites++]);
    if (err != CL_SUCCESS)
        FAIL("clEnqueueWriteBuffer: %d", (int)err);

    if (trace)
        fprintf(stderr, "trace: %s\n", desc);
    err = clscan_enqueue(plan, q, sbuf, src_off, dbuf, dst_off, n, nwrites, nwrites ? writes : NULL, &ev);
    if (err != CL_SUCCESS)
        FAIL("clscan_enqueue failed: %s: %s", clscan_error_string(err), clscan_last_error());
    if (ev == NULL)
        FAIL("clscan_enqueue returned no event");
    err = clWaitForEvents(1, &ev);
    if (err != CL_SUCCESS)
        FAIL("clWaitForEvents on the returned event: %d", (int)err);
    /* The event completed: dst must be written.  The reads do not wait on anything else (on an
     * out-of-order queue they may run at once). */
    if (two) {
        err = clEnqueueReadBuffer(q, sbuf, CL_TRUE, 0, src_len * es, src1, 0, NULL, NULL);
        if (err != CL_SUCCESS)
            FAIL("clEnqueueReadBuffer: %d", (int)err);
    }
    err = clEnqueueReadBuffer(q, dbuf, CL_TRUE, 0, dst_len * es, dst1, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        FAIL("clEnqueueReadBuffer: %d", (int)err);

    if (c->output)
        memcpy(c->output, dst1 + dst_off * es, n * es);
    char diff[512];
    if (!c->no_reference && !tu_compare(c->op, c->type, ref, dst1 + dst_off * es, n, diff, sizeof diff))
        FAIL("wrong result: %s", diff);
    if (two && memcmp(src0, src1, src_len * es) != 0)
        FAIL("the source buffer changed");
    for (size_t i = 0; i < dst_len; i++) {
        if (i >= dst_off && i < dst_off + n)
            continue;
        if (memcmp(dst0 + i * es, dst1 + i * es, es) != 0) {
            if (!two && i >= src_off && i < src_off + n)
                FAIL("the source range changed at element %zu", i);
            FAIL("guard element %zu of the destination buffer (outside [%zu, %zu)) was overwritten",
                 i, dst_off, dst_off + n);
        }
    }
out:
    if (!ok) /* leave nothing running on the buffers we free */
        clFinish(q);
    for (int i = 0; i < 2; i++)
        if (writes[i])
            clReleaseEvent(writes[i]);
    if (ev)
        clReleaseEvent(ev);
    if (sbuf)
        clReleaseMemObject(sbuf);
    if (dbuf)
        clReleaseMemObject(dbuf);
    free(src0);
    free(dst0);
    free(src1);
    free(dst1);
    free(ref);
    return ok;
}

void tu_tally_check(tu_tally *t, clscan_plan *plan, const tu_case *c)
{
    char msg[2048];
    t->run++;
    if (!tu_check_scan(plan, c, msg, sizeof msg)) {
        if (t->failed++ == 0)
            snprintf(t->first, sizeof t->first, "%s", msg);
        fprintf(stderr, "FAILED: %s\n", msg);
    }
}

/* ---- OpenCL helpers ------------------------------------------------------------------------- */

cl_mem tu_buffer(cl_context ctx, cl_mem_flags flags, size_t bytes, const void *init)
{
    cl_int err;
    cl_mem m = clCreateBuffer(ctx, flags | (init ? CL_MEM_COPY_HOST_PTR : 0), bytes, (void *)init, &err);
    ck_assert_msg(err == CL_SUCCESS && m, "clCreateBuffer(%zu bytes): %d", bytes, (int)err);
    return m;
}

void tu_read(cl_command_queue q, cl_mem buf, size_t bytes, void *out)
{
    cl_int err = clEnqueueReadBuffer(q, buf, CL_TRUE, 0, bytes, out, 0, NULL, NULL);
    ck_assert_msg(err == CL_SUCCESS, "clEnqueueReadBuffer: %d", (int)err);
}

void tu_write(cl_command_queue q, cl_mem buf, size_t bytes, const void *in)
{
    cl_int err = clEnqueueWriteBuffer(q, buf, CL_TRUE, 0, bytes, in, 0, NULL, NULL);
    ck_assert_msg(err == CL_SUCCESS, "clEnqueueWriteBuffer: %d", (int)err);
}

void tu_expect_status(cl_int got, cl_int want, const char *what)
{
    ck_assert_msg(got == want, "%s: got %s, expected %s (%s)", what, clscan_error_string(got),
                  clscan_error_string(want), clscan_last_error());
    ck_assert_msg(clscan_last_error()[0] != '\0', "%s: no message", what);
}
