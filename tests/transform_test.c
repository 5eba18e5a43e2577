/* Transforms (clscan_plan_set_transform): scans whose source or destination type is not the
 * operator's, against a sequential transform and scan on the host, on fresh random data: float4
 * particles -> int counts (an exclusive SUM: a compaction's offsets), uchar -> uint SUM over sizes
 * crossing tiles and levels, the non-commutative LAST_NONZERO of indices (in(x, i) = x ? i : 0),
 * an output transform (int SUM -> float), a custom operator with a transform; both multi-tile
 * algorithms, carries, totals and reverse scans (clscan_enqueue_with); empty input; bad
 * transforms (NULL or empty strings, sizes that are not sizeof, a snippet that does not compile)
 * and the scans that take no transform; buffer ranges checked in the transformed sizes, every
 * buffer untouched on rejection.  All comparisons are bitwise (the operators are exact).
 *
 * Exit status: 0 all checks passed, 1 some check failed, 77 no device (skip), 99 a setup error. */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- The cases: a transform, the operator (T is 4 bytes in all of them) and the host's own ---- */

typedef struct tcase {
    const char *name;
    int custom;                  /* a custom SUM of uint (op and type unused) */
    clscan_op op;
    clscan_type type;
    clscan_kind kind;
    clscan_transform t;
    void (*fill)(unsigned char *src, size_t n);
    uint32_t (*in)(const unsigned char *x, uint64_t i);
    uint32_t (*comb)(uint32_t a, uint32_t b);
    void (*out)(uint32_t y, unsigned char *d);   /* NULL: y itself */
} tcase;

static uint32_t sum(uint32_t a, uint32_t b) { return a + b; }
static uint32_t last_nonzero(uint32_t a, uint32_t b) { return b ? b : a; }

static float rand_float(void) { return (float)tu_rand_below(2001) / 100.0f - 10.0f; }

static void fill_particles(unsigned char *src, size_t n)
{
    for (size_t k = 0; k < n; ++k) {
        float p[4] = {rand_float(), rand_float(), rand_float(), rand_float()};
        if (tu_rand_below(8) == 0)
            p[3] = tu_rand_below(2) ? 0.0f : -0.0f;   /* zeros of both signs are not counted */
        memcpy(src + 16 * k, p, sizeof p);
    }
}
static uint32_t particle_alive(const unsigned char *x, uint64_t i)
{
    (void)i;
    float w;
    memcpy(&w, x + 12, sizeof w);
    return w > 0.0f ? 1 : 0;
}

static void fill_bytes(unsigned char *src, size_t n) { tu_fill_bytes(src, n); }
static uint32_t byte_value(const unsigned char *x, uint64_t i)
{
    (void)i;
    return *x;
}

static void fill_sparse_ints(unsigned char *src, size_t n)
{
    for (size_t k = 0; k < n; ++k) {
        const int32_t v = tu_rand_below(4) == 0 ? (int32_t)tu_rand() : 0;
        memcpy(src + 4 * k, &v, sizeof v);
    }
}
static uint32_t index_if_set(const unsigned char *x, uint64_t i)
{
    int32_t v;
    memcpy(&v, x, sizeof v);
    return v ? (uint32_t)(int32_t)i : 0;
}

static void fill_shorts(unsigned char *src, size_t n) { tu_fill_bytes(src, 2 * n); }
static uint32_t short_value(const unsigned char *x, uint64_t i)
{
    (void)i;
    int16_t v;
    memcpy(&v, x, sizeof v);
    return (uint32_t)(int32_t)v;
}
static void to_float(uint32_t y, unsigned char *d)
{
    const float f = (float)(int32_t)y;
    memcpy(d, &f, sizeof f);
}

static const tcase cases[] = {
    {"float4 particles -> int count, exclusive SUM", 0, CLSCAN_SUM, CLSCAN_INT32, CLSCAN_EXCLUSIVE,
     {"float4", 16, "(x.w > 0.0f) ? 1 : 0", NULL, 0, NULL, NULL}, fill_particles, particle_alive, sum, NULL},
    {"uchar -> uint, inclusive SUM", 0, CLSCAN_SUM, CLSCAN_UINT32, CLSCAN_INCLUSIVE,
     {"uchar", 1, "(uint)x", NULL, 0, NULL, NULL}, fill_bytes, byte_value, sum, NULL},
    {"int -> its index where non-zero, LAST_NONZERO", 0, CLSCAN_LAST_NONZERO, CLSCAN_INT32, CLSCAN_INCLUSIVE,
     {"int", 4, "x ? (int)i : 0", NULL, 0, NULL, NULL}, fill_sparse_ints, index_if_set, last_nonzero, NULL},
    {"short -> int SUM -> float", 0, CLSCAN_SUM, CLSCAN_INT32, CLSCAN_INCLUSIVE,
     {"struct wrapped", 2, "(int)x.s", "float", 4, "convert_float(y)", "struct wrapped { short s; };"},
     fill_shorts, short_value, sum, to_float},
    {"uchar -> custom uint SUM, exclusive", 1, CLSCAN_SUM, CLSCAN_UINT32, CLSCAN_EXCLUSIVE,
     {"uchar", 1, "convert_uint(x)", NULL, 0, NULL, NULL}, fill_bytes, byte_value, sum, NULL},
};
#define NCASES (sizeof cases / sizeof *cases)

static size_t dst_size(const tcase *c) { return c->t.out ? c->t.dst_size : 4; }

static clscan_plan *case_plan(const tcase *c)
{
    static const clscan_custom usum = {"uint", 4, "0u", "a + b", NULL};
    cl_int err;
    clscan_plan *plan = c->custom ? clscan_plan_create_custom(tu.context, tu.device, &usum, c->kind, &err)
                                  : clscan_plan_create(tu.context, tu.device, c->op, c->type, c->kind, &err);
    ck_assert_msg(plan, "plan for %s: %s: %s", c->name, clscan_error_string(err), clscan_last_error());
    err = clscan_plan_set_transform(plan, &c->t);
    ck_assert_msg(err == CL_SUCCESS, "transform %s: %s: %s", c->name, clscan_error_string(err), clscan_last_error());
    return plan;
}

/* The sequential transform and scan: dst (elements of dst_size) at the places of src's elements
 * (reverse: read from the end, the index counted from the end); *total the reduction with the
 * carry. */
static void reference(const tcase *c, const unsigned char *src, unsigned char *dst, size_t n, int reverse,
                      const uint32_t *carry, uint32_t *total)
{
    const size_t ss = c->t.src_size, ds = dst_size(c);
    uint32_t acc = carry ? *carry : 0;   /* the neutral of SUM and LAST_NONZERO */
    for (size_t k = 0; k < n; ++k) {
        const size_t p = reverse ? n - 1 - k : k;
        const uint32_t x = c->in(src + p * ss, k);
        const uint32_t before = acc;
        acc = c->comb(acc, x);
        const uint32_t y = c->kind == CLSCAN_EXCLUSIVE ? before : acc;
        if (c->out)
            c->out(y, dst + p * ds);
        else
            memcpy(dst + p * ds, &y, 4);
    }
    *total = acc;
}

enum { GUARD = 3 };

/* One scan of n fresh elements from src_offset GUARD into dst at GUARD, through clscan_enqueue
 * (with_options 0), clscan_enqueue_with (1: a random init carry and the total; reverse) or its
 * reduction (2: dst NULL, the total alone), checked bitwise with the guards and the source. */
static void check_scan(clscan_plan *plan, const tcase *c, size_t n, int with_options, int reverse)
{
    const size_t ss = c->t.src_size, ds = dst_size(c), len = n + 2 * GUARD;
    unsigned char *src = malloc(len * ss), *src_back = malloc(len * ss), *dst0 = malloc(len * ds);
    unsigned char *expect = malloc(len * ds), *got = malloc(len * ds);
    ck_assert(src && src_back && dst0 && expect && got);
    tu_fill_bytes(src, len * ss);
    c->fill(src + GUARD * ss, n);
    tu_fill_bytes(dst0, len * ds);
    memcpy(expect, dst0, len * ds);
    const uint32_t init = c->comb == last_nonzero ? (uint32_t)tu_rand_below(1000) : (uint32_t)tu_rand();
    const uint32_t total0 = (uint32_t)tu_rand();
    uint32_t want_total, got_total;
    reference(c, src + GUARD * ss, expect + GUARD * ds, n, reverse, with_options ? &init : NULL, &want_total);
    if (with_options == 2)   /* a reduction writes no dst */
        memcpy(expect, dst0, len * ds);

    cl_mem sbuf = tu_buffer(tu.context, CL_MEM_READ_WRITE, len * ss, src);
    cl_mem dbuf = tu_buffer(tu.context, CL_MEM_READ_WRITE, len * ds, dst0);
    cl_mem tbuf = tu_buffer(tu.context, CL_MEM_READ_WRITE, 4, &total0);
    const clscan_scan_options o = {.init = &init, .total = tbuf, .reverse = reverse};
    const cl_int err = with_options ? clscan_enqueue_with(plan, tu.queue, sbuf, GUARD, with_options == 2 ? NULL : dbuf,
                                                          GUARD, n, &o, 0, NULL, NULL)
                                    : clscan_enqueue(plan, tu.queue, sbuf, GUARD, dbuf, GUARD, n, 0, NULL, NULL);
    ck_assert_msg(err == CL_SUCCESS, "[seed %" PRIu64 "] %s, count %zu: %s: %s", tu_seed, c->name, n,
                  clscan_error_string(err), clscan_last_error());
    tu_read(tu.queue, dbuf, len * ds, got);
    tu_read(tu.queue, sbuf, len * ss, src_back);
    tu_read(tu.queue, tbuf, 4, &got_total);
    size_t first = len;
    for (size_t k = 0; k < len && first == len; ++k)
        if (memcmp(expect + k * ds, got + k * ds, ds))
            first = k;
    ck_assert_msg(first == len, "[seed %" PRIu64 "] %s, %s, count %zu%s%s: element %zu (place %zu of the buffer, "
                  "guards %d each side) differs", tu_seed, c->name, tu_algo_name(clscan_plan_get_algorithm(plan)), n,
                  with_options == 2 ? ", a reduction" : with_options ? ", with init and total" : "",
                  reverse ? ", reverse" : "", first - GUARD, first, GUARD);
    ck_assert_msg(!memcmp(src, src_back, len * ss), "[seed %" PRIu64 "] %s, count %zu: the source changed", tu_seed,
                  c->name, n);
    const uint32_t expect_total = with_options ? want_total : total0;
    ck_assert_msg(got_total == expect_total, "[seed %" PRIu64 "] %s, %s, count %zu: total %" PRIu32 ", expected %"
                  PRIu32, tu_seed, c->name, tu_algo_name(clscan_plan_get_algorithm(plan)), n, got_total, expect_total);
    clReleaseMemObject(sbuf);
    clReleaseMemObject(dbuf);
    clReleaseMemObject(tbuf);
    free(src);
    free(src_back);
    free(dst0);
    free(expect);
    free(got);
}

static const clscan_algorithm algos[2] = {CLSCAN_ALGORITHM_REDUCE_THEN_SCAN, CLSCAN_ALGORITHM_SINGLE_PASS};

/* Every case, both algorithms: one element, a partial tile, and 2^20 + 7 (many tiles), plain. */
START_TEST(transformed_scans_match_the_reference)
{
    const tcase *c = &cases[_i / 2];
    clscan_plan *plan = case_plan(c);
    ck_assert_int_eq(clscan_plan_set_algorithm(plan, algos[_i % 2]), CL_SUCCESS);
    const size_t tile = tu_tile(plan);
    const size_t sizes[] = {1, 1000, tile - 1, tile + 1, ((size_t)1 << 20) + 7};
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; ++k)
        check_scan(plan, c, sizes[k], 0, 0);
    clscan_plan_release(plan);
}
END_TEST

/* uchar -> uint over many levels of small tiles (reduce-then-scan's levels program scans the
 * totals in T; the single pass's look-back and fallback read the bytes), with the options. */
START_TEST(small_tiles_cross_every_level)
{
    const tcase *c = &cases[1];
    clscan_plan *plan = case_plan(c);
    ck_assert_int_eq(clscan_plan_set_tuning(plan, 4, 4), CL_SUCCESS);
    ck_assert_int_eq(clscan_plan_set_algorithm(plan, algos[_i]), CL_SUCCESS);
    const size_t sizes[] = {1, 15, 16, 17, 1000, ((size_t)1 << 20) + 7};
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; ++k) {
        check_scan(plan, c, sizes[k], 0, 0);
        check_scan(plan, c, sizes[k], 1, 0);
        check_scan(plan, c, sizes[k], 2, 0);
    }
    clscan_plan_release(plan);
}
END_TEST

/* Carries, totals, reductions and reverse scans (the index counted from the end) on every case. */
START_TEST(options_and_reverse_scans)
{
    const tcase *c = &cases[_i / 2];
    clscan_plan *plan = case_plan(c);
    ck_assert_int_eq(clscan_plan_set_algorithm(plan, algos[_i % 2]), CL_SUCCESS);
    const size_t sizes[] = {1, 777, 3 * tu_tile(plan) + 5};
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; ++k) {
        check_scan(plan, c, sizes[k], 1, 0);
        check_scan(plan, c, sizes[k], 1, 1);
        check_scan(plan, c, sizes[k], 2, k % 2);
    }
    clscan_plan_release(plan);
}
END_TEST

/* count 0: nothing written; with a total, the total is the carry. */
START_TEST(empty_input)
{
    const tcase *c = &cases[0];
    clscan_plan *plan = case_plan(c);
    const int32_t dst0[2] = {7, 8};
    const uint32_t init = 41, total0 = 5;
    uint32_t got_total;
    int32_t got[2];
    const float src0[4] = {1, 2, 3, 4};
    cl_mem sbuf = tu_buffer(tu.context, CL_MEM_READ_WRITE, sizeof src0, src0);
    cl_mem dbuf = tu_buffer(tu.context, CL_MEM_READ_WRITE, sizeof dst0, dst0);
    cl_mem tbuf = tu_buffer(tu.context, CL_MEM_READ_WRITE, 4, &total0);
    ck_assert_int_eq(clscan_enqueue(plan, tu.queue, sbuf, 0, dbuf, 0, 0, 0, NULL, NULL), CL_SUCCESS);
    const clscan_scan_options o = {.init = &init, .total = tbuf};
    ck_assert_int_eq(clscan_enqueue_with(plan, tu.queue, sbuf, 1, dbuf, 2, 0, &o, 0, NULL, NULL), CL_SUCCESS);
    tu_read(tu.queue, dbuf, sizeof got, got);
    tu_read(tu.queue, tbuf, 4, &got_total);
    ck_assert(!memcmp(got, dst0, sizeof got));
    ck_assert_uint_eq(got_total, init);
    clReleaseMemObject(sbuf);
    clReleaseMemObject(dbuf);
    clReleaseMemObject(tbuf);
    clscan_plan_release(plan);
}
END_TEST

/* A bad transform is rejected with its status and leaves the plan as it was (its transform still
 * scans correctly). */
static void expect_refused(clscan_plan *plan, const clscan_transform *t, cl_int want, const char *what,
                           const char *in_message)
{
    const cl_int err = clscan_plan_set_transform(plan, t);
    tu_expect_status(err, want, what);
    ck_assert_msg(!in_message || strstr(clscan_last_error(), in_message), "%s: the message \"%s\" does not say \"%s\"",
                  what, clscan_last_error(), in_message);
}

START_TEST(bad_transforms_are_rejected)
{
    const tcase *c = &cases[1];
    clscan_plan *plan = case_plan(c);
    const clscan_transform good = c->t;
    clscan_transform t = good;
    tu_expect_status(clscan_plan_set_transform(NULL, &good), CLSCAN_INVALID_PLAN, "NULL plan");
    t.in = NULL;
    expect_refused(plan, &t, CLSCAN_INVALID_TRANSFORM, "NULL in", "in");
    t.in = "";
    expect_refused(plan, &t, CLSCAN_INVALID_TRANSFORM, "empty in", "in");
    t = good;
    t.src_type = NULL;
    expect_refused(plan, &t, CLSCAN_INVALID_TRANSFORM, "NULL src_type", "src_type");
    t = good;
    t.src_type = "";
    expect_refused(plan, &t, CLSCAN_INVALID_TRANSFORM, "empty src_type", "src_type");
    t = good;
    t.src_size = 0;
    expect_refused(plan, &t, CLSCAN_INVALID_TRANSFORM, "src_size 0", "src_size");
    t = good;
    t.dst_type = "float";
    t.dst_size = 4;
    expect_refused(plan, &t, CLSCAN_INVALID_TRANSFORM, "dst_type without out", NULL);
    t.out = "";
    expect_refused(plan, &t, CLSCAN_INVALID_TRANSFORM, "empty out", "out");
    t.out = "convert_float(y)";
    t.dst_size = 0;
    expect_refused(plan, &t, CLSCAN_INVALID_TRANSFORM, "dst_size 0", NULL);
    char *long_in = malloc(CLSCAN_CUSTOM_MAX_EXPRESSION + 2);
    ck_assert(long_in);
    memset(long_in, 'x', CLSCAN_CUSTOM_MAX_EXPRESSION + 1);
    long_in[CLSCAN_CUSTOM_MAX_EXPRESSION + 1] = '\0';
    t = good;
    t.in = long_in;
    expect_refused(plan, &t, CLSCAN_INVALID_TRANSFORM, "in too long", "longer");
    free(long_in);
    /* Sizes that are not the device's sizeof: found by the compile-time checks. */
    t = cases[0].t;
    t.src_size = 12;
    expect_refused(plan, &t, CLSCAN_ELEMENT_SIZE_MISMATCH, "float4 of 12 bytes", "sizeof(float4)");
    t = cases[3].t;
    t.dst_size = 8;
    expect_refused(plan, &t, CLSCAN_ELEMENT_SIZE_MISMATCH, "float of 8 bytes", "sizeof(float)");
    /* A snippet that does not compile: the compiler's log in the message. */
    t = good;
    t.in = "x +* undeclared_name";
    expect_refused(plan, &t, CL_BUILD_PROGRAM_FAILURE, "a snippet that does not compile", "undeclared_name");
    t = good;
    t.in = "(float4)(1.0f)";   /* not convertible to T */
    expect_refused(plan, &t, CL_BUILD_PROGRAM_FAILURE, "in of the wrong type", NULL);
    /* The plan kept its transform. */
    check_scan(plan, c, 1000, 0, 0);
    /* Cleared: a plain uint scan again (elements of 4 bytes in src). */
    ck_assert_int_eq(clscan_plan_set_transform(plan, NULL), CL_SUCCESS);
    const uint32_t x[3] = {1, 2, 3};
    uint32_t y[3];
    cl_mem b = tu_buffer(tu.context, CL_MEM_READ_WRITE, sizeof x, x);
    ck_assert_int_eq(clscan_enqueue(plan, tu.queue, b, 0, b, 0, 3, 0, NULL, NULL), CL_SUCCESS);
    tu_read(tu.queue, b, sizeof y, y);
    ck_assert(y[0] == 1 && y[1] == 3 && y[2] == 6);
    clReleaseMemObject(b);
    clscan_plan_release(plan);
}
END_TEST

/* Ranges are checked in the transformed sizes: src in src_size, dst in dst_size, carry and total
 * in the operator's; the scans without transforms refuse the plan; nothing is written then. */
START_TEST(buffers_are_checked_in_the_transformed_sizes)
{
    const tcase *c = &cases[3];   /* 2-byte source, 4-byte float destination, int T */
    clscan_plan *plan = case_plan(c);
    enum { N = 100 };
    unsigned char src[2 * N], dst0[4 * N], got[4 * N];
    tu_fill_bytes(src, sizeof src);
    tu_fill_bytes(dst0, sizeof dst0);
    cl_mem s_exact = tu_buffer(tu.context, CL_MEM_READ_WRITE, 2 * N, src);
    cl_mem s_short = tu_buffer(tu.context, CL_MEM_READ_WRITE, 2 * N - 1, src);
    cl_mem d_short = tu_buffer(tu.context, CL_MEM_READ_WRITE, 4 * N - 1, dst0);
    cl_mem d = tu_buffer(tu.context, CL_MEM_READ_WRITE, 4 * N, dst0);
    cl_mem heads = tu_buffer(tu.context, CL_MEM_READ_WRITE, N, src);
    const int32_t one = 1;
    cl_mem small = tu_buffer(tu.context, CL_MEM_READ_WRITE, 3, &one);
    tu_expect_status(clscan_enqueue(plan, tu.queue, s_short, 0, d, 0, N, 0, NULL, NULL), CLSCAN_RANGE_OUT_OF_BOUNDS,
                     "src one byte short of N shorts");
    tu_expect_status(clscan_enqueue(plan, tu.queue, s_exact, 1, d, 0, N, 0, NULL, NULL), CLSCAN_RANGE_OUT_OF_BOUNDS,
                     "src offset 1 past N shorts");
    tu_expect_status(clscan_enqueue(plan, tu.queue, s_exact, 0, d_short, 0, N, 0, NULL, NULL),
                     CLSCAN_RANGE_OUT_OF_BOUNDS, "dst one byte short of N floats");
    const clscan_scan_options o = {.total = small};
    tu_expect_status(clscan_enqueue_with(plan, tu.queue, s_exact, 0, d, 0, N, &o, 0, NULL, NULL),
                     CLSCAN_RANGE_OUT_OF_BOUNDS, "a total of 3 bytes");
    const clscan_scan_options oc = {.carry_in = small};
    tu_expect_status(clscan_enqueue_with(plan, tu.queue, s_exact, 0, d, 0, N, &oc, 0, NULL, NULL),
                     CLSCAN_RANGE_OUT_OF_BOUNDS, "a carry of 3 bytes");
    tu_expect_status(clscan_enqueue_segmented(plan, tu.queue, s_exact, 0, heads, 0, d, 0, N, 0, NULL, NULL),
                     CLSCAN_TRANSFORM_NOT_SUPPORTED, "clscan_enqueue_segmented");
    tu_expect_status(clscan_enqueue_by_key(plan, tu.queue, CLSCAN_INT32, d, 0, s_exact, 0, d, 0, N, 0, NULL, NULL),
                     CLSCAN_TRANSFORM_NOT_SUPPORTED, "clscan_enqueue_by_key");
    tu_expect_status(clscan_enqueue_segmented_offsets(plan, tu.queue, s_exact, 0, CLSCAN_UINT32, heads, 0, 1, d, 0, N,
                                                      NULL, 0, 0, NULL, NULL),
                     CLSCAN_TRANSFORM_NOT_SUPPORTED, "clscan_enqueue_segmented_offsets");
    tu_expect_status(clscan_enqueue_axis(plan, tu.queue, CLSCAN_ALONG_COLUMNS, s_exact, 0, 10, d, 0, 10, 10, 10, 0,
                                         NULL, NULL),
                     CLSCAN_TRANSFORM_NOT_SUPPORTED, "clscan_enqueue_axis");
    tu_expect_status(clscan_enqueue_axis_totals(plan, tu.queue, CLSCAN_ALONG_ROWS, s_exact, 0, 10, d, 0, 10, 10, 0,
                                                NULL, NULL),
                     CLSCAN_TRANSFORM_NOT_SUPPORTED, "clscan_enqueue_axis_totals");
    tu_read(tu.queue, d, sizeof got, got);
    ck_assert_msg(!memcmp(got, dst0, sizeof got), "a rejected call wrote dst");
    tu_read(tu.queue, d_short, sizeof got - 1, got);
    ck_assert_msg(!memcmp(got, dst0, sizeof got - 1), "a rejected call wrote dst");
    /* The exact sizes pass: N shorts into N floats. */
    ck_assert_int_eq(clscan_enqueue(plan, tu.queue, s_exact, 0, d, 0, N, 0, NULL, NULL), CL_SUCCESS);
    clReleaseMemObject(s_exact);
    clReleaseMemObject(s_short);
    clReleaseMemObject(d_short);
    clReleaseMemObject(d);
    clReleaseMemObject(heads);
    clReleaseMemObject(small);
    clscan_plan_release(plan);
    /* A recurrence refuses an AFFINE plan with a transform. */
    cl_int err;
    clscan_plan *affine = clscan_plan_create(tu.context, tu.device, CLSCAN_AFFINE, CLSCAN_FLOAT, CLSCAN_INCLUSIVE,
                                             &err);
    ck_assert(affine);
    const clscan_transform pairs = {"float", 4, "(float2)(1.0f, x)", NULL, 0, NULL, NULL};
    ck_assert_int_eq(clscan_plan_set_transform(affine, &pairs), CL_SUCCESS);
    const float a = 1.0f;
    cl_mem b = tu_buffer(tu.context, CL_MEM_READ_WRITE, 16, NULL);
    tu_expect_status(clscan_enqueue_recurrence(affine, tu.queue, NULL, 0, &a, b, 0, b, 0, 4, NULL, 0, NULL, NULL),
                     CLSCAN_TRANSFORM_NOT_SUPPORTED, "clscan_enqueue_recurrence");
    clReleaseMemObject(b);
    clscan_plan_release(affine);
}
END_TEST

int main(void)
{
    tu_open("transform_test");
    tu_watchdog(900);
    Suite *s = suite_create("transform");
    TCase *tc = tcase_create("transforms");
    tcase_set_timeout(tc, 0);
    tcase_add_loop_test(tc, transformed_scans_match_the_reference, 0, 2 * NCASES);
    tcase_add_loop_test(tc, small_tiles_cross_every_level, 0, 2);
    tcase_add_loop_test(tc, options_and_reverse_scans, 0, 2 * NCASES);
    tcase_add_test(tc, empty_input);
    tcase_add_test(tc, bad_transforms_are_rejected);
    tcase_add_test(tc, buffers_are_checked_in_the_transformed_sizes);
    suite_add_tcase(s, tc);
    const int status = tu_run(s);
    tu_close();
    return status;
}
