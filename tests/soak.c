/* soak: random scans on the default device until the time is up, each checked exactly.
 *
 *   tests/soak [--seconds=S] [--seed=N] [--case=K] [--max-count=N] [--every=N] [--no-in-place]
 *
 * Every case draws, from its own seed (the run's seed and the case's number), a plan and a scan:
 *   the plan  from a pool of plan slots that grows with the number of cases (8 + cases / 64), so
 *             that plans are reused and program builds (0.05 to 1 s each on PoCL) stay a small
 *             part of the time.  A slot is a built-in operator, type and kind, or one of three
 *             custom operators (AFFINE on uint2 and on float2, not commutative, and LAST_NONZERO
 *             on long); a variant (clscan_plan_set_variant: random tiles and primitive) and a
 *             tuning (clscan_plan_set_tuning: powers of two up to the device's work-group size
 *             and 4096 elements per work-item), each automatic in 60% of the slots.  A variant
 *             or tuning the library rejects makes a rejected slot: counted, and fine;
 *   the scan  plain, segmented (random heads) or by key (random runs of 32- or 64-bit keys); half
 *             the plain scans through clscan_enqueue_with with random options (a carry from the
 *             host, a total, reverse; checked against sup_reference_with); an algorithm; a count from 0 to --max-count (default 2^22), biased to the plan's tile
 *             boundaries, one and two levels of tiles; source and destination offsets; in place
 *             or not; blocking writes or a wait list; an in-order or an out-of-order queue.
 * The inputs come from support/inputs.h: sup_random_exact (every partial result exact, compared
 * bit for bit with support/reference.h) or sup_random_edges (NaNs, infinities, signed zeros,
 * extremes; compared as SUP_MATCH_VALUES).  Around the destination range, guard elements of a
 * random pattern must stay as they were; so must the source when not in place, and the whole
 * destination when the library rejects a scan.  At the end, with every plan released and the
 * caches cleared, the reference counts of the context and the queues must be back to the soak's
 * own: a leaked buffer, program, kernel or event shows there.
 *
 * --no-in-place draws no in-place scans: tests/hooks/unpublished (every tile of the single pass
 * recomputes its predecessors from their input) needs the source and the destination apart:
 *   CLSCAN_KERNEL_DIR=tests/hooks/unpublished:cl \
 *   CLSCAN_DEVELOP="status=separate;window_polls=0;spin_limit=0" tests/soak --no-in-place \
 *   --max-count=65536
 * (the recomputation is quadratic in the number of tiles: small counts).
 *
 * A line every --every operations (default 200) and at the end: operations, elements, failures,
 * rejected plans and scans, plans created, seconds, and the seed.  Exit status 0 if every case
 * passed; 1 at the first failure, after a line with the seed and the case (repeat it alone with
 * --seed=N --case=K), or for a leak; 2 for usage or setup errors.  'make soak SOAK_SECONDS=600'
 * runs it. */
#define _POSIX_C_SOURCE 200809L

#include <clscan.h>

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "support/compare.h"
#include "support/inputs.h"
#include "support/names.h"
#include "support/reference.h"

enum { GUARD = 7 };

/* ---- custom operators: the snippets and the built-in (op, type) computing the same ---------- */

typedef struct soak_custom {
    const char *name;
    clscan_custom def;
    clscan_op op;     /* its reference and inputs */
    clscan_type type;
} soak_custom;

static const soak_custom customs[] = {
    {"custom affine uint2", {"uint2", 8, "(uint2)(1, 0)", "(uint2)(b.x * a.x, b.x * a.y + b.y)", NULL},
     CLSCAN_AFFINE, CLSCAN_UINT32},
    {"custom affine float2", {"float2", 8, "(float2)(1.0f, 0.0f)", "soak_affine(a, b)",
     "float2 soak_affine(float2 p, float2 c) { return (float2)(c.x * p.x, c.x * p.y + c.y); }"},
     CLSCAN_AFFINE, CLSCAN_FLOAT},
    {"custom last-nonzero long", {"long", 8, "0L", "b != 0 ? b : a", NULL}, CLSCAN_LAST_NONZERO, CLSCAN_INT64},
};
#define NCUSTOM (int)(sizeof customs / sizeof customs[0])

/* ---- the run ------------------------------------------------------------------------------- */

static struct {
    double seconds;
    uint64_t seed;
    long long only_case;   /* -1: all */
    size_t max_count;
    unsigned long every;
    bool no_in_place;      /* for test hooks that need src and dst apart */
} opt = {60, 0, -1, (size_t)1 << 22, 200, false};

static struct {
    cl_platform_id platform;
    cl_device_id device;
    cl_context context;
    cl_command_queue queue, ooo_queue;   /* in order; out of order (NULL if unsupported) */
    size_t max_wg;
    bool fp64;
} dev;

static struct {
    unsigned long long operations, elements, failures, rejected_scans, cases;
    unsigned long plans, rejected_plans, slots;
    double plan_seconds;   /* creating plans and setting their variants and tunings (builds) */
} total;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t mix(uint64_t a, uint64_t b)
{
    uint64_t s = a ^ (b * 0x9e3779b97f4a7c15u);
    sup_splitmix64(&s);
    return sup_splitmix64(&s);
}

static size_t pow2_below(sup_rng *r, size_t max)   /* 1, 2, 4, ... <= max */
{
    unsigned bits = 0;
    while (((size_t)2 << bits) <= max)
        bits++;
    return (size_t)1 << sup_rng_below(r, bits + 1);
}

/* ---- plan slots -------------------------------------------------------------------------- */

typedef struct slot {
    bool made;                /* tried already */
    clscan_plan *plan;        /* NULL: rejected */
    int custom;               /* index into customs, or -1 */
    clscan_op op;
    clscan_type type;
    clscan_kind kind;
    bool variant_set, tuning_set;
    clscan_tiles tiles;
    clscan_primitive primitive;
    size_t wg, items;
    char why[256];            /* the rejection */
} slot;

#define MAX_SLOTS 4096
static slot slots[MAX_SLOTS];

/* The parameters of slot i, drawn from the run's seed and i alone. */
static void slot_params(size_t i, slot *s)
{
    sup_rng r;
    sup_rng_seed(&r, mix(opt.seed, 0x510700000000u + i));
    s->custom = sup_rng_below(&r, 10) == 0 ? (int)sup_rng_below(&r, NCUSTOM) : -1;
    s->op = sup_ops[sup_rng_below(&r, SUP_NOPS)];
    do
        s->type = sup_types[sup_rng_below(&r, SUP_NTYPES)];
    while (s->type == CLSCAN_DOUBLE && !dev.fp64);
    s->kind = sup_rng_below(&r, 2) ? CLSCAN_EXCLUSIVE : CLSCAN_INCLUSIVE;
    s->variant_set = sup_rng_below(&r, 10) >= 6;
    s->tiles = (clscan_tiles)sup_rng_below(&r, 4);
    s->primitive = (clscan_primitive)sup_rng_below(&r, 4);
    s->tuning_set = sup_rng_below(&r, 10) >= 6;
    /* Either may stay automatic (0); work-groups up to the device's limit, tiles up to 2^16. */
    s->wg = sup_rng_below(&r, 8) == 0 ? 0 : pow2_below(&r, dev.max_wg);
    s->items = sup_rng_below(&r, 8) == 0 ? 0 : pow2_below(&r, 4096);
    while (s->wg * s->items > ((size_t)1 << 16))
        s->items /= 2;
    if (s->custom >= 0) {
        s->op = customs[s->custom].op;
        s->type = customs[s->custom].type;
    }
}

static void describe_slot(const slot *s, char *buf, size_t size)
{
    int n = s->custom >= 0 ? snprintf(buf, size, "%s, %s", customs[s->custom].name, sup_kind_name(s->kind))
                           : snprintf(buf, size, "%s %s, %s", sup_op_name(s->op), sup_type_name(s->type),
                                      sup_kind_name(s->kind));
    if (n > 0 && (size_t)n < size && s->variant_set)
        n += snprintf(buf + n, size - (size_t)n, ", variant %s:%s", sup_tiles_name(s->tiles),
                      sup_primitive_name(s->primitive));
    if (n > 0 && (size_t)n < size && s->tuning_set)
        snprintf(buf + n, size - (size_t)n, ", tuning %zu:%zu", s->wg, s->items);
}

/* The plan of slot i, created on first use; NULL if the library rejected its variant or tuning
 * (*failed set if the plan itself could not be created: a failure). */
static slot *get_slot(size_t i, bool *failed, char *msg, size_t msgsize)
{
    slot *s = &slots[i];
    *failed = false;
    if (s->made)
        return s;
    slot_params(i, s);
    s->made = true;
    total.slots++;
    const double t0 = now();
    cl_int err;
    s->plan = s->custom >= 0
                  ? clscan_plan_create_custom(dev.context, dev.device, &customs[s->custom].def, s->kind, &err)
                  : clscan_plan_create(dev.context, dev.device, s->op, s->type, s->kind, &err);
    if (!s->plan) {
        char d[256];
        describe_slot(s, d, sizeof d);
        snprintf(msg, msgsize, "plan creation (%s) failed: %s: %s", d, clscan_error_string(err), clscan_last_error());
        *failed = true;
        return s;
    }
    total.plans++;
    err = CL_SUCCESS;
    const char *what = "";
    if (s->variant_set && (err = clscan_plan_set_variant(s->plan, s->tiles, s->primitive)) != CL_SUCCESS)
        what = "clscan_plan_set_variant";
    else if (s->tuning_set && (err = clscan_plan_set_tuning(s->plan, s->wg, s->items)) != CL_SUCCESS)
        what = "clscan_plan_set_tuning";
    if (err != CL_SUCCESS) {
        snprintf(s->why, sizeof s->why, "%s: %s", what, clscan_error_string(err));
        clscan_plan_release(s->plan);
        s->plan = NULL;
        total.rejected_plans++;
    }
    total.plan_seconds += now() - t0;
    return s;
}

/* ---- a case ------------------------------------------------------------------------------ */

typedef enum { PLAIN, HEADS, KEYS } segments_how;
static const char *const how_names[] = {"plain", "segmented", "by key"};

typedef struct scan_case {
    size_t slot;
    segments_how how;
    clscan_type key_type;
    clscan_algorithm algorithm;
    size_t count, src_offset, dst_offset, seg_offset;
    bool in_place, exact_inputs, wait_list, out_of_order;
    uint64_t input_seed;
    size_t mean_segment;   /* heads or key runs: the mean segment length */
    bool with, init, total, reverse;   /* plain scans: clscan_enqueue_with and its options */
} scan_case;

/* A count for tiles of t elements, biased to where the kernels change what they do. */
static size_t draw_count(sup_rng *r, size_t t)
{
    const size_t max = opt.max_count;
    size_t n;
    switch (sup_rng_below(r, 8)) {
    case 0: n = sup_rng_below(r, 9); break;                                  /* 0 ... 8 */
    case 1: case 2: n = t * (1 + sup_rng_below(r, 64)) + sup_rng_below(r, 3) - 1; break;
    case 3: n = t * t + sup_rng_below(r, 3) - 1; break;                      /* two levels */
    case 4: n = t * t * (2 + sup_rng_below(r, 3)) + sup_rng_below(r, 3) - 1; break;
    case 5: n = sup_rng_below(r, 4 * t + 1); break;
    default: {                                                               /* log-uniform */
        unsigned bits = 0;
        while (((size_t)2 << bits) <= max)
            bits++;
        const size_t top = (size_t)1 << sup_rng_below(r, bits + 1);
        n = top + sup_rng_below(r, top);
    }
    }
    return n > max ? sup_rng_below(r, max + 1) : n;
}

static void draw_case(unsigned long long k, scan_case *c, size_t nslots)
{
    sup_rng r;
    sup_rng_seed(&r, mix(opt.seed, k));
    memset(c, 0, sizeof *c);
    c->slot = (size_t)sup_rng_below(&r, nslots);
    const unsigned h = (unsigned)sup_rng_below(&r, 10);
    c->how = h < 6 ? PLAIN : h < 8 ? HEADS : KEYS;
    static const clscan_type key_types[] = {CLSCAN_INT32, CLSCAN_UINT32, CLSCAN_INT64, CLSCAN_UINT64};
    c->key_type = key_types[sup_rng_below(&r, 4)];
    c->algorithm = (clscan_algorithm)sup_rng_below(&r, 3);
    c->in_place = sup_rng_below(&r, 5) == 0 && !opt.no_in_place;
    c->src_offset = sup_rng_below(&r, 2) ? 0 : sup_rng_below(&r, 100);
    c->dst_offset = c->in_place ? c->src_offset : sup_rng_below(&r, 2) ? 0 : sup_rng_below(&r, 100);
    c->seg_offset = sup_rng_below(&r, 2) ? 0 : sup_rng_below(&r, 100);
    c->exact_inputs = sup_rng_below(&r, 10) < 6;
    c->wait_list = sup_rng_below(&r, 3) == 0;
    c->out_of_order = dev.ooo_queue && sup_rng_below(&r, 5) == 0;
    c->input_seed = sup_rng_next(&r);
    c->with = c->how == PLAIN && sup_rng_below(&r, 2) == 0;
    c->init = c->with && sup_rng_below(&r, 2) == 0;
    c->total = c->with && sup_rng_below(&r, 2) == 0;
    c->reverse = c->with && sup_rng_below(&r, 2) == 0;
    /* The count and the segments need the plan's tile: drawn from a second generator so that the
     * case does not depend on whether the plan exists. */
}

static void draw_sizes(unsigned long long k, scan_case *c, size_t tile)
{
    sup_rng r;
    sup_rng_seed(&r, mix(opt.seed ^ 0xc0ffee, k));
    c->count = draw_count(&r, tile);
    static const size_t means[] = {1, 2, 5, 0, 0, 0};   /* 0: relative to the tile */
    const size_t m = means[sup_rng_below(&r, 6)];
    c->mean_segment = m ? m : tile * (1 + sup_rng_below(&r, 8)) / (1 + sup_rng_below(&r, 4));
    if (c->mean_segment == 0)
        c->mean_segment = 1;
}

static void describe_case(unsigned long long k, const scan_case *c, const slot *s, char *buf, size_t size)
{
    char d[256];
    describe_slot(s, d, sizeof d);
    size_t wg = 0, items = 0;
    if (s->plan)
        clscan_plan_get_tuning(s->plan, &wg, &items);
    snprintf(buf, size, "case %llu (seed %" PRIu64 "): %s, %s%s%s, %s, count %zu, src offset %zu, dst offset %zu%s, "
             "%s inputs, %s%s; plan slot %zu, tiles of %zu x %zu", k, opt.seed, d, how_names[c->how],
             c->how == KEYS ? " of " : "", c->how == KEYS ? sup_type_name(c->key_type) : "",
             sup_algorithm_name(c->algorithm), c->count, c->src_offset, c->dst_offset, c->in_place ? " (in place)" : "",
             c->exact_inputs ? "exact" : "edge", c->wait_list ? "wait list" : "blocking writes",
             c->out_of_order ? ", out-of-order queue" : "", c->slot, wg, items);
    if (c->with) {
        const size_t n = strlen(buf);
        snprintf(buf + n, size - n, ", clscan_enqueue_with:%s%s%s", c->init ? " init" : "", c->total ? " total" : "",
                 c->reverse ? " reverse" : "");
    }
    if (c->how != PLAIN) {
        const size_t n = strlen(buf);
        snprintf(buf + n, size - n, ", segment offset %zu, mean segment %zu", c->seg_offset, c->mean_segment);
    }
}

static void fill_bytes(sup_rng *r, unsigned char *p, size_t bytes)
{
    for (size_t i = 0; i < bytes; i += 8) {
        const uint64_t v = sup_rng_next(r);
        memcpy(p + i, &v, bytes - i < 8 ? bytes - i : 8);
    }
}

static cl_mem buffer(size_t bytes, const void *init, cl_int *err)
{
    return clCreateBuffer(dev.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, (void *)init, err);
}

/* Writes bytes to buf at 0: blocking, or non-blocking with its event appended to evs. */
static cl_int write_buffer(cl_command_queue q, cl_mem buf, size_t bytes, const void *data, bool wait_list,
                           cl_event *evs, cl_uint *nevs)
{
    if (!wait_list)
        return clEnqueueWriteBuffer(q, buf, CL_TRUE, 0, bytes, data, 0, NULL, NULL);
    return clEnqueueWriteBuffer(q, buf, CL_FALSE, 0, bytes, data, 0, NULL, &evs[(*nevs)++]);
}

#define FAIL(...)                                              \
    do {                                                       \
        snprintf(msg, msgsize, __VA_ARGS__);                   \
        ok = false;                                            \
        goto out;                                              \
    } while (0)

/* Runs case c on the plan of slot s and checks it.  False with a message on a failure. */
static bool run_case(const scan_case *c, const slot *s, bool *rejected, char *msg, size_t msgsize)
{
    const clscan_op op = s->op;
    const clscan_type type = s->type;
    const size_t e = sup_element_size(op, type), n = c->count;
    const size_t ke = c->how == HEADS ? 1 : sup_scalar_size(c->key_type);
    const size_t src_len = c->src_offset + n + GUARD, seg_len = c->seg_offset + n + GUARD;
    const size_t dst_len = c->in_place ? src_len : c->dst_offset + n + GUARD;
    bool ok = true;
    cl_int err;
    cl_mem sbuf = NULL, dbuf = NULL, gbuf = NULL, tbuf = NULL;
    unsigned char carry[16], total_want[16], total_got[3 * 16], total_init[3 * 16];
    cl_event evs[3], done = NULL;
    cl_uint nevs = 0;
    cl_command_queue q = c->out_of_order ? dev.ooo_queue : dev.queue;
    *rejected = false;

    unsigned char *src = malloc(src_len * e), *dst0 = malloc(dst_len * e), *expect = malloc(dst_len * e);
    unsigned char *got = malloc(dst_len * e), *src_back = malloc(src_len * e), *seg = malloc(seg_len * ke);
    if (!src || !dst0 || !expect || !got || !src_back || !seg)
        FAIL("out of host memory for %zu elements", n);

    /* Inputs: the source range from the case's seed; guards and the destination random. */
    sup_rng r;
    sup_rng_seed(&r, c->input_seed);
    fill_bytes(&r, src, src_len * e);
    fill_bytes(&r, dst0, dst_len * e);
    unsigned char *x = src + c->src_offset * e;
    if (c->exact_inputs)
        sup_random_exact(op, type, c->input_seed, x, n);
    else
        sup_random_edges(op, type, &r, x, n);
    /* Segments: a head (or a new key) before element i with probability 1 / mean_segment. */
    uint64_t key = sup_rng_next(&r);
    for (size_t i = 0; i < seg_len; i++) {
        const bool head = sup_rng_below(&r, c->mean_segment) == 0;
        unsigned char *p = seg + i * ke;
        if (c->how == HEADS) {
            *p = head ? (unsigned char)(1 + sup_rng_below(&r, 255)) : 0;
        } else {
            if (head)
                key += 1 + sup_rng_below(&r, 3);
            if (ke == 4) {
                const uint32_t k32 = (uint32_t)key;
                memcpy(p, &k32, 4);
            } else {
                memcpy(p, &key, 8);
            }
        }
    }

    /* The options' carry (one more input element) and the total's guards. */
    if (c->exact_inputs)
        sup_random_exact(op, type, c->input_seed ^ 1, carry, 1);
    else
        sup_random_edges(op, type, &r, carry, 1);
    fill_bytes(&r, total_init, 3 * e);

    /* The expected destination: as it was, with the reference scan in its range. */
    memcpy(expect, c->in_place ? src : dst0, dst_len * e);
    unsigned char *y = expect + c->dst_offset * e;
    if (c->with)
        sup_reference_with(op, type, s->kind, x, y, n, c->init ? carry : NULL, total_want, c->reverse);
    else if (c->how == PLAIN)
        sup_reference(op, type, s->kind, x, y, n);
    else
        sup_reference_segmented(op, type, s->kind, c->how == HEADS ? SUP_HEADS : ke == 4 ? SUP_KEYS32 : SUP_KEYS64,
                                seg + c->seg_offset * ke, x, y, n);

    /* Buffers hold garbage until the writes (or the copies at creation, for blocking writes). */
    const bool via_write = c->wait_list || c->out_of_order;
    sbuf = buffer(src_len * e, src, &err);
    if (sbuf && !c->in_place)
        dbuf = buffer(dst_len * e, dst0, &err);
    if (sbuf && (c->in_place || dbuf) && c->how != PLAIN)
        gbuf = buffer(seg_len * ke, seg, &err);
    if (sbuf && c->total)
        tbuf = buffer(3 * e, total_init, &err);
    if (!sbuf || (!c->in_place && !dbuf) || (c->how != PLAIN && !gbuf) || (c->total && !tbuf))
        FAIL("clCreateBuffer: %s", clscan_error_string(err));
    if (c->in_place)
        dbuf = sbuf;
    if (via_write) {
        if ((err = write_buffer(q, sbuf, src_len * e, src, true, evs, &nevs)) != CL_SUCCESS ||
            (!c->in_place && (err = write_buffer(q, dbuf, dst_len * e, dst0, true, evs, &nevs)) != CL_SUCCESS) ||
            (gbuf && (err = write_buffer(q, gbuf, seg_len * ke, seg, true, evs, &nevs)) != CL_SUCCESS))
            FAIL("clEnqueueWriteBuffer: %s", clscan_error_string(err));
    }

    if ((err = clscan_plan_set_algorithm(s->plan, c->algorithm)) != CL_SUCCESS)
        FAIL("clscan_plan_set_algorithm: %s: %s", clscan_error_string(err), clscan_last_error());
    switch (c->how) {
    case PLAIN:
        if (c->with) {
            const clscan_scan_options o = {.init = c->init ? carry : NULL, .total = tbuf, .total_offset = 1,
                                           .reverse = c->reverse};
            err = clscan_enqueue_with(s->plan, q, sbuf, c->src_offset, dbuf, c->dst_offset, n, &o, nevs,
                                      nevs ? evs : NULL, &done);
        } else {
            err = clscan_enqueue(s->plan, q, sbuf, c->src_offset, dbuf, c->dst_offset, n, nevs, nevs ? evs : NULL,
                                 &done);
        }
        break;
    case HEADS:
        err = clscan_enqueue_segmented(s->plan, q, sbuf, c->src_offset, gbuf, c->seg_offset, dbuf, c->dst_offset, n,
                                       nevs, nevs ? evs : NULL, &done);
        break;
    case KEYS:
        err = clscan_enqueue_by_key(s->plan, q, c->key_type, gbuf, c->seg_offset, sbuf, c->src_offset, dbuf,
                                    c->dst_offset, n, nevs, nevs ? evs : NULL, &done);
        break;
    }
    if (err != CL_SUCCESS) {
        /* A tuning whose segmented program does not fit the device may be rejected at the first
         * segmented scan; anything else is a failure.  A rejected call leaves every buffer
         * untouched. */
        const bool may_reject = c->how != PLAIN && (err == CLSCAN_DEVICE_NOT_SUPPORTED || err == CL_INVALID_VALUE ||
                                                    err == CL_INVALID_WORK_GROUP_SIZE);
        if (!may_reject)
            FAIL("%s: %s: %s", c->with ? "clscan_enqueue_with" : c->how == PLAIN ? "clscan_enqueue" : c->how == HEADS ? "clscan_enqueue_segmented"
                                                                                   : "clscan_enqueue_by_key",
                 clscan_error_string(err), clscan_last_error());
        if (done)
            FAIL("a rejected call returned an event");
        *rejected = true;
        memcpy(expect, c->in_place ? src : dst0, dst_len * e);
    }
    if ((err = clFinish(q)) != CL_SUCCESS)
        FAIL("clFinish: %s", clscan_error_string(err));
    if (done) {
        cl_int status = CL_QUEUED;
        err = clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
        if (err != CL_SUCCESS || status != CL_COMPLETE)
            FAIL("the scan's event: %s, status %d after clFinish", clscan_error_string(err), (int)status);
    }
    if ((err = clEnqueueReadBuffer(q, dbuf, CL_TRUE, 0, dst_len * e, got, 0, NULL, NULL)) != CL_SUCCESS ||
        (!c->in_place &&
         (err = clEnqueueReadBuffer(q, sbuf, CL_TRUE, 0, src_len * e, src_back, 0, NULL, NULL)) != CL_SUCCESS))
        FAIL("clEnqueueReadBuffer: %s", clscan_error_string(err));

    /* The guards (and all of the destination after a rejection), then the range, then the source. */
    const size_t lo = c->dst_offset * e, hi = (c->dst_offset + n) * e;
    const size_t range_lo = *rejected ? dst_len * e : lo, range_hi = *rejected ? dst_len * e : hi;
    for (size_t i = 0; i < dst_len * e; i++)
        if ((i < range_lo || i >= range_hi) && got[i] != expect[i])
            FAIL("%s: byte %zu of the destination buffer changed (the range is bytes %zu to %zu)",
                 *rejected ? "a rejected scan" : "a guard", i, lo, hi);
    if (!*rejected) {
        sup_compare_result res;
        const sup_match match = c->exact_inputs ? SUP_MATCH_BITS : SUP_MATCH_VALUES;
        if (!sup_compare(op, type, match, y, got + lo, n, &res)) {
            char what[512];
            sup_describe_mismatch(op, type, y, got + lo, n, &res, what, sizeof what);
            FAIL("%s", what);
        }
    }
    if (!c->in_place && memcmp(src, src_back, src_len * e) != 0)
        FAIL("the source buffer changed");
    /* The total between its guards (untouched after a rejection). */
    if (tbuf) {
        if ((err = clEnqueueReadBuffer(q, tbuf, CL_TRUE, 0, 3 * e, total_got, 0, NULL, NULL)) != CL_SUCCESS)
            FAIL("clEnqueueReadBuffer: %s", clscan_error_string(err));
        if (memcmp(total_got, total_init, e) != 0 || memcmp(total_got + 2 * e, total_init + 2 * e, e) != 0 ||
            (*rejected && memcmp(total_got + e, total_init + e, e) != 0))
            FAIL("a guard of the total changed");
        sup_compare_result res;
        if (!*rejected && !sup_compare(op, type, c->exact_inputs ? SUP_MATCH_BITS : SUP_MATCH_VALUES, total_want,
                                       total_got + e, 1, &res)) {
            char what[512];
            sup_describe_mismatch(op, type, total_want, total_got + e, 1, &res, what, sizeof what);
            FAIL("the total: %s", what);
        }
    }

out:
    if (done)
        clReleaseEvent(done);
    for (cl_uint i = 0; i < nevs; i++)
        clReleaseEvent(evs[i]);
    if (gbuf)
        clReleaseMemObject(gbuf);
    if (tbuf)
        clReleaseMemObject(tbuf);
    if (dbuf && dbuf != sbuf)
        clReleaseMemObject(dbuf);
    if (sbuf)
        clReleaseMemObject(sbuf);
    free(src);
    free(dst0);
    free(expect);
    free(got);
    free(src_back);
    free(seg);
    return ok;
}

/* ---- setup and the loop ------------------------------------------------------------------ */

static bool parse_number(const char *arg, const char *name, double *out)
{
    const size_t len = strlen(name);
    if (strncmp(arg, name, len) != 0 || arg[len] != '=')
        return false;
    char *end;
    errno = 0;
    *out = strtod(arg + len + 1, &end);
    if (errno || *end || end == arg + len + 1 || !(*out >= 0)) {
        fprintf(stderr, "soak: invalid %s\n", arg);
        exit(2);
    }
    return true;
}

static void usage(void)
{
    fprintf(stderr, "usage: soak [--seconds=S] [--seed=N] [--case=K] [--max-count=N] [--every=N] [--no-in-place]\n");
    exit(2);
}

static void setup(void)
{
    cl_int err = clscan_default_device(NULL, &dev.platform, &dev.device);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "soak: no device: %s: %s\n", clscan_error_string(err), clscan_last_error());
        exit(2);
    }
    const cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)dev.platform, 0};
    dev.context = clCreateContext(props, 1, &dev.device, NULL, NULL, &err);
    if (dev.context)
        dev.queue = clCreateCommandQueue(dev.context, dev.device, 0, &err);
    if (!dev.context || !dev.queue) {
        fprintf(stderr, "soak: cannot create a context and a queue: %s\n", clscan_error_string(err));
        exit(2);
    }
    dev.ooo_queue = clCreateCommandQueue(dev.context, dev.device, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
    char name[256] = "", ext[4096] = "";
    clGetDeviceInfo(dev.device, CL_DEVICE_NAME, sizeof name - 1, name, NULL);
    clGetDeviceInfo(dev.device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof dev.max_wg, &dev.max_wg, NULL);
    clGetDeviceInfo(dev.device, CL_DEVICE_EXTENSIONS, sizeof ext - 1, ext, NULL);
    dev.fp64 = strstr(ext, "cl_khr_fp64") != NULL;
    if (dev.max_wg == 0)
        dev.max_wg = 1;
    printf("soak: device %s; seed %" PRIu64 "; %.0f s; counts up to %zu\n", name, opt.seed, opt.seconds,
           opt.max_count);
    fflush(stdout);
}

static void print_totals(const char *what, double t0)
{
    printf("soak: %s%llu operations (%llu rejected), %llu elements, %llu failures; %lu plan slots (%lu "
           "rejected), %lu plans, %.0f s creating them; %.0f s; seed %" PRIu64 "\n", what, total.operations,
           total.rejected_scans, total.elements, total.failures, total.slots, total.rejected_plans, total.plans,
           total.plan_seconds, now() - t0, opt.seed);
    fflush(stdout);
}

int main(int argc, char **argv)
{
    bool seed_set = false;
    for (int i = 1; i < argc; i++) {
        double v;
        if (parse_number(argv[i], "--seconds", &v))
            opt.seconds = v;
        else if (parse_number(argv[i], "--seed", &v))
            opt.seed = strtoull(strchr(argv[i], '=') + 1, NULL, 10), seed_set = true;
        else if (parse_number(argv[i], "--case", &v))
            opt.only_case = (long long)v;
        else if (parse_number(argv[i], "--max-count", &v))
            opt.max_count = (size_t)v;
        else if (parse_number(argv[i], "--every", &v) && v >= 1)
            opt.every = (unsigned long)v;
        else if (strcmp(argv[i], "--no-in-place") == 0)
            opt.no_in_place = true;
        else
            usage();
    }
    if (!seed_set)
        opt.seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 20);
    setup();

    const double t0 = now(), deadline = t0 + opt.seconds;
    char msg[2048], desc[1024];
    int status = 0;
    const unsigned long long first = opt.only_case >= 0 ? (unsigned long long)opt.only_case : 0;
    for (unsigned long long k = first; opt.only_case >= 0 ? k == first : now() < deadline; k++) {
        size_t nslots = 8 + k / 64;
        if (nslots > MAX_SLOTS)
            nslots = MAX_SLOTS;
        scan_case c;
        draw_case(k, &c, nslots);
        bool failed;
        const slot *s = get_slot(c.slot, &failed, msg, sizeof msg);
        total.cases++;
        if (failed) {
            printf("soak: FAILED case %llu (seed %" PRIu64 "): %s\n", k, opt.seed, msg);
            total.failures++;
            status = 1;
            break;
        }
        if (!s->plan) {
            if (opt.only_case >= 0) {
                describe_slot(s, desc, sizeof desc);
                printf("soak: case %llu: the plan slot %zu (%s) was rejected: %s\n", k, c.slot, desc, s->why);
            }
            continue;
        }
        size_t wg = 0, items = 0;
        clscan_plan_get_tuning(s->plan, &wg, &items);
        draw_sizes(k, &c, wg * items);
        bool rejected;
        const bool ok = run_case(&c, s, &rejected, msg, sizeof msg);
        total.operations++;
        total.rejected_scans += rejected;
        total.elements += rejected ? 0 : c.count;
        if (!ok || opt.only_case >= 0) {
            describe_case(k, &c, s, desc, sizeof desc);
            printf("soak: %s %s%s%s\n", ok ? "passed" : "FAILED", desc, ok ? "" : ": ", ok ? "" : msg);
        }
        if (!ok) {
            printf("soak: repeat with: soak --seed=%" PRIu64 " --case=%llu\n", opt.seed, k);
            total.failures++;
            status = 1;
            break;
        }
        if (total.operations % opt.every == 0)
            print_totals("", t0);
    }
    print_totals(status ? "stopped at the first failure: " : "done: ", t0);

    for (size_t i = 0; i < MAX_SLOTS; i++)
        clscan_plan_release(slots[i].plan);
    clscan_cache_clear();
    /* Leaks of OpenCL objects, which PoCL keeps reachable (LeakSanitizer cannot see them): with
     * every plan released and the caches cleared, the context is held by itself and the two
     * queues at most (buffers, programs and queues hold their context on PoCL; NVIDIA's queues
     * do not count), and each queue by itself only (events hold their queue): more is a leak. */
    cl_uint context_refs = 0, queue_refs = 0, ooo_refs = 1;
    clGetContextInfo(dev.context, CL_CONTEXT_REFERENCE_COUNT, sizeof context_refs, &context_refs, NULL);
    clGetCommandQueueInfo(dev.queue, CL_QUEUE_REFERENCE_COUNT, sizeof queue_refs, &queue_refs, NULL);
    if (dev.ooo_queue)
        clGetCommandQueueInfo(dev.ooo_queue, CL_QUEUE_REFERENCE_COUNT, sizeof ooo_refs, &ooo_refs, NULL);
    if (context_refs > 2u + (dev.ooo_queue != NULL) || queue_refs > 1 || ooo_refs > 1) {
        printf("soak: LEAK: with every plan released, the context has %u references (at most %u), the queues "
               "%u and %u (at most 1): OpenCL objects were not released (seed %" PRIu64 ")\n", context_refs,
               2u + (dev.ooo_queue != NULL), queue_refs, ooo_refs, opt.seed);
        status = 1;
    }
    if (dev.ooo_queue)
        clReleaseCommandQueue(dev.ooo_queue);
    clReleaseCommandQueue(dev.queue);
    clReleaseContext(dev.context);
    return status;
}
