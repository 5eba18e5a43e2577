/* clscan_mpi_enqueue and clscan_mpi_enqueue_segmented on every rank of MPI_COMM_WORLD
 * (tests/mpi_test.sh runs it on 1, 2, 3, 4 and 8 ranks).  Every rank generates the same global
 * array from the seed, scans its part through libclscan_mpi and checks it EXACTLY against its
 * part of a sequential scan of the whole array: SUM, MAX, LAST_NONZERO and AFFINE on int32
 * (wrapping, so exact) and a custom non-commutative operator (2x2 int matrices), inclusive and
 * exclusive; uneven parts and empty ones; a carry from the host or the device on the starting
 * rank, totals on some ranks, reverse scans; segmented scans whose segments cross ranks (ranks
 * without a head); and one rank passing a bad argument (every rank returns an error and every
 * buffer is byte-identical after).  Guards around every range must stay untouched.
 * Rank 0 prints a summary in Check's format ("N%: Checks: N, Failures: N, Errors: N"); a failure
 * prints its case, rank and seed (CLSCAN_TEST_SEED reproduces it). */
#define _POSIX_C_SOURCE 200809L
#include "clscan_mpi.h"
#include "support/inputs.h"
#include "support/reference.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define GUARD 3        /* elements of random bytes around every range */
#define MAX_PART 48    /* the most elements of one part: several tiles of 8 */

/* ---- The operators under test -------------------------------------------------------------- */

typedef struct op_def {
    const char *name;
    clscan_op op;   /* built-in (custom 0) */
    int custom;     /* the 2x2 int matrices */
} op_def;
static const op_def ops[] = {
    {"sum int32", CLSCAN_SUM, 0},       {"max int32", CLSCAN_MAX, 0},    {"last-nonzero int32", CLSCAN_LAST_NONZERO, 0},
    {"affine int32", CLSCAN_AFFINE, 0}, {"mat2 int (custom)", 0, 1},
};
#define NOPS ((int)(sizeof ops / sizeof ops[0]))
enum { SUM, MAX, LAST_NONZERO, AFFINE, MAT2 };

static const char mat2_preamble[] =
    "inline int4 mat2_mul(int4 p, int4 q)\n"
    "{\n"
    "    const uint4 a = as_uint4(p), b = as_uint4(q);\n"
    "    return as_int4((uint4)(a.x * b.x + a.y * b.z, a.x * b.y + a.y * b.w,\n"
    "                           a.z * b.x + a.w * b.z, a.z * b.y + a.w * b.w));\n"
    "}\n";

static size_t esize(int o)
{
    return ops[o].custom ? 16 : clscan_op_element_size(ops[o].op, CLSCAN_INT32);
}

/* comb(a, b): a previous, b current (out may be a or b). */
static void comb(int o, const void *a, const void *b, void *out)
{
    if (!ops[o].custom) {
        sup_comb(ops[o].op, CLSCAN_INT32, a, b, out);
        return;
    }
    uint32_t p[4], q[4];
    memcpy(p, a, 16);
    memcpy(q, b, 16);
    const uint32_t r[4] = {p[0] * q[0] + p[1] * q[2], p[0] * q[1] + p[1] * q[3], p[2] * q[0] + p[3] * q[2],
                           p[2] * q[1] + p[3] * q[3]};
    memcpy(out, r, 16);
}

static void neutral(int o, void *out)
{
    static const int32_t id[4] = {1, 0, 0, 1};
    if (ops[o].custom)
        memcpy(out, id, 16);
    else
        sup_reference_with(ops[o].op, CLSCAN_INT32, CLSCAN_INCLUSIVE, NULL, NULL, 0, NULL, out, false);
}

static void fill(int o, uint64_t seed, void *x, size_t n)
{
    if (!ops[o].custom) {
        sup_random_exact(ops[o].op, CLSCAN_INT32, seed, x, n);
        return;
    }
    sup_rng r;
    sup_rng_seed(&r, seed);
    uint32_t *m = x;
    for (size_t i = 0; i < n; ++i) {   /* odd determinant: long products keep their inputs */
        m[4 * i] = (uint32_t)sup_rng_next(&r) | 1;
        m[4 * i + 1] = (uint32_t)sup_rng_next(&r) & ~1u;
        m[4 * i + 2] = (uint32_t)sup_rng_next(&r);
        m[4 * i + 3] = (uint32_t)sup_rng_next(&r) | 1;
    }
}

/* The sequential scan of n elements (heads: segmented, NULL: plain) from carry (NULL: the
 * neutral), reverse: from the end; *total receives the last state. */
static void reference(int o, clscan_kind kind, const unsigned char *x, const unsigned char *heads, size_t n,
                      const void *carry, int reverse, unsigned char *y, void *total)
{
    const size_t e = esize(o);
    unsigned char acc[16];
    if (carry)
        memcpy(acc, carry, e);
    else
        neutral(o, acc);
    for (size_t k = 0; k < n; ++k) {
        const size_t i = reverse ? n - 1 - k : k;
        if (heads && (k == 0 || heads[i]))
            neutral(o, acc);
        if (kind == CLSCAN_EXCLUSIVE)
            memcpy(y + i * e, acc, e);
        comb(o, acc, x + i * e, acc);
        if (kind == CLSCAN_INCLUSIVE)
            memcpy(y + i * e, acc, e);
    }
    memcpy(total, acc, e);
}

/* ---- The device, the plans, the tally ------------------------------------------------------ */

static int rank, nranks;
static uint64_t seed;
static cl_context context;
static cl_command_queue queue;
static clscan_plan *plans[NOPS][2];
static int checks, failures;

static void setup_error(const char *what, cl_int err)
{
    fprintf(stderr, "mpi_test: rank %d: setup error: %s: %s: %s\n", rank, what, clscan_error_string(err),
            clscan_last_error());
    MPI_Abort(MPI_COMM_WORLD, 99);
}

static clscan_plan *plan_of(int o, clscan_kind kind)
{
    clscan_plan **p = &plans[o][kind];
    if (*p)
        return *p;
    cl_device_id device;
    cl_int err = clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof device, &device, NULL);
    const clscan_custom mat2 = {"int4", 16, "(int4)(1, 0, 0, 1)", "mat2_mul(a, b)", mat2_preamble};
    if (err == CL_SUCCESS)
        *p = ops[o].custom ? clscan_plan_create_custom(context, device, &mat2, kind, &err)
                           : clscan_plan_create(context, device, ops[o].op, CLSCAN_INT32, kind, &err);
    if (err == CL_SUCCESS)   /* tiles of 8: a part of 48 crosses several */
        err = clscan_plan_set_tuning(*p, 2, 4);
    if (err != CL_SUCCESS)
        setup_error("a plan", err);
    return *p;
}

static void open_device(void)
{
    cl_platform_id platform;
    cl_device_id device;
    cl_int err = clscan_default_device(NULL, &platform, &device);
    if (err != CL_SUCCESS)
        setup_error("clscan_default_device", err);
    context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    if (err == CL_SUCCESS)
        queue = clCreateCommandQueue(context, device, 0, &err);
    if (err != CL_SUCCESS)
        setup_error("a context and a queue", err);
}

/* One collective check: counted once; a failure on any rank fails it. */
static void tally(int ok, const char *what)
{
    int all = 0;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    ++checks;
    if (!all) {
        ++failures;
        if (rank == 0)
            fprintf(stderr, "mpi_test: FAILED on %d ranks: %s (seed %" PRIu64 ")\n", nranks, what, seed);
    }
}

static int complain(const char *what, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "mpi_test: rank %d of %d: %s: ", rank, nranks, what);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, " (seed %" PRIu64 ")\n", seed);
    va_end(ap);
    return 0;
}

static cl_mem buffer(size_t bytes, const void *init)
{
    cl_int err;
    cl_mem b = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, (void *)init, &err);
    if (err != CL_SUCCESS)
        setup_error("a buffer", err);
    return b;
}

static void read_back(cl_mem b, size_t bytes, void *out)
{
    cl_int err = clEnqueueReadBuffer(queue, b, CL_TRUE, 0, bytes, out, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        setup_error("a read", err);
}

static void random_bytes(sup_rng *r, unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        p[i] = (unsigned char)sup_rng_next(r);
}

/* ---- One case ------------------------------------------------------------------------------ */

typedef struct scase {
    const char *what;
    int op;
    clscan_kind kind;
    int segmented;
    int carry;     /* on the starting rank: 0 none, 1 init (host), 2 carry_in (device) */
    int total;     /* 0 none, 1 on every rank, 2 on the even ranks */
    int reverse;
    int parts;     /* 0 uneven with empty ones, 1 all on the last rank, 2 all empty, 3 none empty */
    int heads;     /* segmented: 0 one in six, 1 two in the whole array, 2 none (one segment) */
    int no_dst;    /* a reduction: dst NULL */
    int bad;       /* 0 none; 1 the last rank's dst past its end; 2 the starting rank's carry_in in
                      its dst; 3 a middle rank's heads NULL; 4 rank 1's plan of narrower elements */
} scase;

/* The global array, the same on every rank. */
typedef struct global {
    size_t counts[64], offset, n, total_n, e;
    unsigned char *x, *y, *heads, carry[16], total[16];
} global;

static void make_global(const scase *c, uint64_t s, global *g)
{
    sup_rng r;
    sup_rng_seed(&r, s);
    g->e = esize(c->op);
    g->total_n = 0;
    for (int j = 0; j < nranks; ++j) {
        size_t n = sup_rng_below(&r, MAX_PART + 1);
        if (c->parts == 0 && sup_rng_below(&r, 4) == 0)
            n = 0;
        if (c->parts == 1)
            n = j == nranks - 1 ? 3 * MAX_PART : 0;
        if (c->parts == 2)
            n = 0;
        if (c->parts == 3 && n == 0)
            n = 1;
        g->counts[j] = n;
        if (j == rank)
            g->offset = g->total_n;
        g->total_n += n;
    }
    g->n = g->counts[rank];
    const size_t all = g->total_n ? g->total_n : 1;
    g->x = malloc(all * g->e);
    g->y = malloc(all * g->e);
    g->heads = calloc(all, 1);
    if (!g->x || !g->y || !g->heads)
        setup_error("host memory", CL_OUT_OF_HOST_MEMORY);
    fill(c->op, s + 1, g->x, g->total_n);
    fill(c->op, s + 2, g->carry, 1);
    for (size_t i = 0; i < g->total_n; ++i)
        g->heads[i] = c->heads == 0 ? sup_rng_below(&r, 6) == 0 : 0;
    for (int k = 0; c->heads == 1 && k < 2 && g->total_n; ++k)
        g->heads[sup_rng_below(&r, g->total_n)] = (unsigned char)(1 + k);
    reference(c->op, c->kind, g->x, c->segmented ? g->heads : NULL, g->total_n, c->carry ? g->carry : NULL,
              c->reverse, g->y, g->total);
}

/* The rank's buffers: ranges with GUARD elements of random bytes around them, and their first
 * contents. */
typedef struct bufs {
    size_t src_bytes, dst_bytes, heads_bytes, small_bytes;
    unsigned char *src0, *dst0, *heads0, *carry0, *total0;
    cl_mem src, dst, heads, carry, total;
} bufs;

static void make_bufs(const global *g, sup_rng *r, bufs *b)
{
    const size_t e = g->e;
    b->src_bytes = (g->n + 2 * GUARD) * e;
    b->dst_bytes = b->src_bytes + e;
    b->heads_bytes = g->n + 2 * GUARD;
    b->small_bytes = 3 * e;
    b->src0 = malloc(b->src_bytes);
    b->dst0 = malloc(b->dst_bytes);
    b->heads0 = malloc(b->heads_bytes);
    b->carry0 = malloc(b->small_bytes);
    b->total0 = malloc(b->small_bytes);
    if (!b->src0 || !b->dst0 || !b->heads0 || !b->carry0 || !b->total0)
        setup_error("host memory", CL_OUT_OF_HOST_MEMORY);
    random_bytes(r, b->src0, b->src_bytes);
    random_bytes(r, b->dst0, b->dst_bytes);
    random_bytes(r, b->heads0, b->heads_bytes);
    random_bytes(r, b->carry0, b->small_bytes);
    random_bytes(r, b->total0, b->small_bytes);
    memcpy(b->src0 + GUARD * e, g->x + g->offset * e, g->n * e);
    memcpy(b->heads0 + GUARD, g->heads + g->offset, g->n);
    memcpy(b->carry0 + 2 * e, g->carry, e);
    b->src = buffer(b->src_bytes, b->src0);
    b->dst = buffer(b->dst_bytes, b->dst0);
    b->heads = buffer(b->heads_bytes, b->heads0);
    b->carry = buffer(b->small_bytes, b->carry0);
    b->total = buffer(b->small_bytes, b->total0);
}

static void free_bufs(bufs *b)
{
    clReleaseMemObject(b->src), clReleaseMemObject(b->dst), clReleaseMemObject(b->heads);
    clReleaseMemObject(b->carry), clReleaseMemObject(b->total);
    free(b->src0), free(b->dst0), free(b->heads0), free(b->carry0), free(b->total0);
}

/* The status every rank must get, and the call. */
static cl_int expected(const scase *c)
{
    if (c->bad == 4)
        return CL_INVALID_VALUE;
    const int who = c->bad == 1 ? nranks - 1 : c->bad == 2 ? (c->reverse ? nranks - 1 : 0) : nranks / 2;
    const cl_int own = c->bad == 1 ? CLSCAN_RANGE_OUT_OF_BOUNDS : c->bad == 2 ? CL_MEM_COPY_OVERLAP
                                                                               : CL_INVALID_MEM_OBJECT;
    return !c->bad ? CL_SUCCESS : rank == who ? own : CLSCAN_MPI_REMOTE_ERROR;
}

static cl_int call(const scase *c, const global *g, bufs *b, int wants_total, cl_event *ev)
{
    const int starts = rank == (c->reverse ? nranks - 1 : 0);
    clscan_plan *plan = plan_of(c->op, c->kind);
    size_t dst_offset = GUARD + 1;
    cl_mem heads = b->heads;
    if (c->bad == 4 && rank == 1)   /* narrower elements: its own ranges still check */
        plan = plan_of(SUM, c->kind);
    if (c->bad == 1 && rank == nranks - 1)
        dst_offset += GUARD + 1;
    if (c->bad == 3 && rank == nranks / 2)
        heads = NULL;
    if (c->segmented)
        return clscan_mpi_enqueue_segmented(plan, MPI_COMM_WORLD, queue, b->src, GUARD, heads, GUARD, b->dst,
                                            dst_offset, g->n, 0, NULL, ev);
    clscan_scan_options o = {.reverse = c->reverse, .total = wants_total ? b->total : NULL, .total_offset = 1};
    if (starts && c->carry == 1)
        o.init = g->carry;
    if (starts && c->carry == 2) {
        o.carry_in = b->carry;
        o.carry_in_offset = 2;
    }
    if (c->bad == 2 && starts) {
        o.carry_in = b->dst;
        o.carry_in_offset = GUARD + 1;
    }
    return clscan_mpi_enqueue(plan, MPI_COMM_WORLD, queue, b->src, GUARD, c->no_dst ? NULL : b->dst, dst_offset,
                              g->n, &o, 0, NULL, ev);
}

/* What the rank's buffers hold after the call, against what they must hold. */
static int compare(const scase *c, const global *g, const bufs *b, int wants_total, int touched)
{
    const size_t e = g->e;
    unsigned char *got = malloc(b->dst_bytes), *want = malloc(b->dst_bytes);
    int ok = got && want;
    if (!ok)
        setup_error("host memory", CL_OUT_OF_HOST_MEMORY);
    memcpy(want, b->dst0, b->dst_bytes);
    if (touched && !c->no_dst)
        memcpy(want + (GUARD + 1) * e, g->y + g->offset * e, g->n * e);
    read_back(b->dst, b->dst_bytes, got);
    for (size_t i = 0; ok && i < b->dst_bytes / e; ++i)
        if (memcmp(got + i * e, want + i * e, e))
            ok = complain(c->what, "dst element %zu of %zu (part of %zu from %zu, guards %d) is wrong", i,
                          b->dst_bytes / e, g->n, g->offset, GUARD + 1);
    read_back(b->src, b->src_bytes, got);
    if (ok && memcmp(got, b->src0, b->src_bytes))
        ok = complain(c->what, "src changed");
    read_back(b->heads, b->heads_bytes, got);
    if (ok && memcmp(got, b->heads0, b->heads_bytes))
        ok = complain(c->what, "heads changed");
    read_back(b->carry, b->small_bytes, got);
    if (ok && memcmp(got, b->carry0, b->small_bytes))
        ok = complain(c->what, "the carry changed");
    memcpy(want, b->total0, b->small_bytes);
    if (touched && wants_total)
        memcpy(want + e, g->total, e);
    read_back(b->total, b->small_bytes, got);
    if (ok && memcmp(got, want, b->small_bytes))
        ok = complain(c->what, "the total (or its guards) is wrong");
    free(got);
    free(want);
    return ok;
}

static void run_case(const scase *c, unsigned salt)
{
    if (c->bad == 4 && nranks == 1)
        return;   /* needs a second rank */
    const uint64_t s = seed ^ ((uint64_t)salt * 0x9e3779b97f4a7c15u);
    global g;
    bufs b;
    sup_rng r;
    sup_rng_seed(&r, s + 1000 + (uint64_t)rank);
    make_global(c, s, &g);
    make_bufs(&g, &r, &b);
    const int wants_total = c->total == 1 || (c->total == 2 && rank % 2 == 0) || (c->no_dst && !c->segmented);
    cl_event ev = NULL;
    const cl_int want = expected(c);
    const cl_int err = call(c, &g, &b, wants_total, &ev);
    int ok = 1;
    if (err != want)
        ok = complain(c->what, "returned %s, expected %s: %s", clscan_error_string(err), clscan_error_string(want),
                      clscan_mpi_last_error());
    if (ev) {
        if (err != CL_SUCCESS)
            ok = complain(c->what, "an event was returned with an error");
        clWaitForEvents(1, &ev);
        clReleaseEvent(ev);
    }
    clFinish(queue);
    ok = compare(c, &g, &b, wants_total, err == CL_SUCCESS) && ok;
    tally(ok, c->what);
    free_bufs(&b);
    free(g.x), free(g.y), free(g.heads);
}

/* ---- The cases ----------------------------------------------------------------------------- */

static void plain_cases(int o, clscan_kind k)
{
    const scase cases[] = {
        {"plain, uneven parts", o, k, .parts = 0},
        {"plain, init on the first rank, totals", o, k, .carry = 1, .total = 1},
        {"plain, carry_in on the first rank, totals on even ranks", o, k, .carry = 2, .total = 2, .parts = 3},
        {"plain, all on the last rank", o, k, .parts = 1, .total = 1},
        {"plain, every part empty, totals", o, k, .parts = 2, .total = 1, .carry = 1},
        {"a global reduction (dst NULL)", o, k, .no_dst = 1, .carry = 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
        run_case(&cases[i], (unsigned)(100 * o + 10 * k + i));
}

static void reverse_cases(int o, clscan_kind k)
{
    const scase cases[] = {
        {"reverse, uneven parts", o, k, .reverse = 1},
        {"reverse, init on the last rank, totals", o, k, .reverse = 1, .carry = 1, .total = 1},
        {"reverse, carry_in on the last rank", o, k, .reverse = 1, .carry = 2, .total = 2, .parts = 3},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
        run_case(&cases[i], (unsigned)(1000 + 100 * o + 10 * k + i));
}

static void segmented_cases(int o, clscan_kind k)
{
    const scase cases[] = {
        {"segmented, heads one in six", o, k, .segmented = 1, .heads = 0},
        {"segmented, two heads in all (ranks without)", o, k, .segmented = 1, .heads = 1},
        {"segmented, one segment over every rank", o, k, .segmented = 1, .heads = 2, .parts = 3},
        {"segmented, all on the last rank", o, k, .segmented = 1, .heads = 1, .parts = 1},
        {"segmented, every part empty", o, k, .segmented = 1, .parts = 2},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
        run_case(&cases[i], (unsigned)(2000 + 100 * o + 10 * k + i));
}

static void bad_cases(void)
{
    const scase cases[] = {
        {"bad: the last rank's dst past its end", SUM, CLSCAN_INCLUSIVE, .bad = 1, .total = 1, .parts = 3},
        {"bad: the first rank's carry_in inside its dst", AFFINE, CLSCAN_EXCLUSIVE, .bad = 2, .carry = 2,
         .total = 1, .parts = 3},
        {"bad: a middle rank's heads NULL", MAT2, CLSCAN_INCLUSIVE, .segmented = 1, .bad = 3, .parts = 3},
        {"bad: the last rank's dst past its end (segmented)", SUM, CLSCAN_EXCLUSIVE, .segmented = 1, .bad = 1,
         .parts = 3},
        {"bad: rank 1's plan of another element size", AFFINE, CLSCAN_INCLUSIVE, .bad = 4, .total = 1, .parts = 3},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
        run_case(&cases[i], (unsigned)(3000 + i));
}

/* The seed: CLSCAN_TEST_SEED, or rank 0's clock, the same on every rank. */
static void choose_seed(void)
{
    const char *s = getenv("CLSCAN_TEST_SEED");
    seed = s && *s ? strtoull(s, NULL, 0) : (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 16);
    MPI_Bcast(&seed, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    if (nranks > 64) {
        if (rank == 0)
            fprintf(stderr, "mpi_test: at most 64 ranks\n");
        MPI_Finalize();
        return 99;
    }
    choose_seed();
    if (rank == 0)
        printf("mpi_test: %d ranks, seed %" PRIu64 "\n", nranks, seed);
    open_device();
    for (int o = 0; o < NOPS; ++o)
        for (int k = 0; k < 2; ++k) {
            plain_cases(o, (clscan_kind)k);
            if ((o == SUM && k == 0) || (o == AFFINE && k == 1) || (o == MAT2 && k == 0))
                reverse_cases(o, (clscan_kind)k);
            if (o == SUM || o == AFFINE || o == MAT2)
                segmented_cases(o, (clscan_kind)k);
        }
    bad_cases();
    for (int o = 0; o < NOPS; ++o)
        for (int k = 0; k < 2; ++k)
            clscan_plan_release(plans[o][k]);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    clscan_mpi_cache_clear();
    clscan_cache_clear();
    if (rank == 0)
        printf("%d%%: Checks: %d, Failures: %d, Errors: 0\n", checks ? 100 * (checks - failures) / checks : 100,
               checks, failures);
    MPI_Finalize();
    return failures ? 1 : 0;
}
