/* clscan_enqueue_recurrence: y[i] = a[i] * y[i-1] + b[i] (and backwards), against the sequential
 * loop (exact for integers, within a rounding bound for float and double) and bitwise against
 * clscan_enqueue_with on the pairs (a[i], b[i]) with the carry (1, y0); a as an array and as a
 * constant, y0 from the host and from the device, totals, reverse, in place and y NULL, both
 * multi-tile algorithms, tiles of 16 (several levels) and the automatic tuning, both accuracies
 * (clscan_plan_set_accuracy), counts 0, 1,
 * around a tile and over thousands of tiles; and its bad arguments (rejected, buffers untouched).
 *
 * Exit status: 0 all checks passed, 1 a check failed, 77 no device, 99 a setup error. */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GUARD 5   /* values of guard around every range */

/* The plans under test: type, tuning (0, 0: automatic) and accuracy, set on the plan, so that its
 * scans of pairs compute what its recurrences compute (AUTO's recurrences are COMPENSATED:
 * accuracy_test). */
static const struct {
    clscan_type type;
    size_t wg, items;
    clscan_accuracy accuracy;
} configs[] = {
    {CLSCAN_FLOAT, 8, 2, CLSCAN_ACCURACY_COMPENSATED},  {CLSCAN_FLOAT, 0, 0, CLSCAN_ACCURACY_COMPENSATED},
    {CLSCAN_DOUBLE, 8, 2, CLSCAN_ACCURACY_WORKING},     {CLSCAN_DOUBLE, 0, 0, CLSCAN_ACCURACY_COMPENSATED},
    {CLSCAN_UINT64, 8, 2, CLSCAN_ACCURACY_AUTO},
};
#define NCONFIGS (int)(sizeof configs / sizeof configs[0])

/* One value of the plan's type, as long double (exactly for float and double) or uint64. */
typedef struct value {
    long double f;
    uint64_t u;
    long double mag;   /* the loop's: the sum of the magnitudes of its terms */
} value;

static value get(clscan_type t, const unsigned char *p, size_t i)
{
    value v = {0, 0, 0};
    if (t == CLSCAN_FLOAT) {
        float f;
        memcpy(&f, p + i * 4, 4);
        v.f = f;
    } else if (t == CLSCAN_DOUBLE) {
        double d;
        memcpy(&d, p + i * 8, 8);
        v.f = d;
    } else {
        memcpy(&v.u, p + i * 8, 8);
    }
    return v;
}

/* n random values: a in +-[0.5, 1) and b in [-1, 1) for float and double, anything for integers. */
static void fill(clscan_type t, unsigned char *p, size_t n, int is_a)
{
    for (size_t i = 0; i < n; i++) {
        const double u = (double)(tu_rand() >> 11) / 9007199254740992.0;   /* [0, 1) */
        const double d = is_a ? (tu_rand() & 1 ? -1 : 1) * (0.5 + 0.5 * u) : 2 * u - 1;
        if (t == CLSCAN_FLOAT) {
            const float f = (float)d;
            memcpy(p + i * 4, &f, 4);
        } else if (t == CLSCAN_DOUBLE) {
            memcpy(p + i * 8, &d, 8);
        } else {
            const uint64_t r = tu_rand();
            memcpy(p + i * 8, &r, 8);
        }
    }
}

typedef struct rec_case {
    int a_const;    /* a is the constant *a_const */
    int carry;      /* 0 none, 1 init (host), 2 carry_in (device) */
    int total;
    int reverse;
    int layout;     /* 0 separate y, 1 y == b (in place), 2 y NULL (needs total) */
} rec_case;

/* The pairs' bits of the same problem through clscan_enqueue_with: y (n values) and the total. */
static cl_int through_pairs(clscan_plan *plan, clscan_type t, const unsigned char *a, const unsigned char *b,
                            size_t n, const rec_case *c, const unsigned char *y0, unsigned char *y,
                            unsigned char *total)
{
    const size_t s = tu_scalar_size(t), e = 2 * s, m = n ? n : 1;
    unsigned char *pairs = malloc(m * e), *carry = malloc(e), *tot = malloc(e);
    ck_assert(pairs && carry && tot);
    for (size_t i = 0; i < n; i++) {
        memcpy(pairs + i * e, c->a_const ? a : a + i * s, s);
        memcpy(pairs + i * e + s, b + i * s, s);
    }
    memset(carry, 0, e);   /* (1, y0) */
    if (t == CLSCAN_FLOAT)
        memcpy(carry, &(float){1}, 4);
    else if (t == CLSCAN_DOUBLE)
        memcpy(carry, &(double){1}, 8);
    else
        memcpy(carry, &(uint64_t){1}, 8);
    if (c->carry)
        memcpy(carry + s, y0, s);
    cl_mem src = tu_buffer(tu.context, CL_MEM_READ_WRITE, m * e, pairs);
    cl_mem cin = tu_buffer(tu.context, CL_MEM_READ_ONLY, e, carry);
    cl_mem tout = tu_buffer(tu.context, CL_MEM_READ_WRITE, e, carry);
    clscan_scan_options opt = {.reverse = c->reverse};
    if (c->carry == 2)
        opt.carry_in = cin;
    else if (c->carry == 1)
        opt.init = carry;
    if (c->total)
        opt.total = tout;
    cl_int err = CL_SUCCESS;
    if (n || c->total)   /* in place: the pairs of the scan */
        err = clscan_enqueue_with(plan, tu.queue, src, 0, c->layout == 2 ? NULL : src, 0, n, &opt, 0, NULL, NULL);
    if (err == CL_SUCCESS) {
        tu_read(tu.queue, src, m * e, pairs);
        tu_read(tu.queue, tout, e, tot);
        for (size_t i = 0; i < n; i++)
            memcpy(y + i * s, pairs + i * e + s, s);
        memcpy(total, tot + s, s);
    }
    clReleaseMemObject(src), clReleaseMemObject(cin), clReleaseMemObject(tout);
    free(pairs), free(carry), free(tot);
    return err;
}

/* The first i where y differs from the sequential loop (exact for integers; for float and double
 * beyond a bound on the rounding errors of any order of composition: a multiple of the unit
 * roundoff times the magnitude sum |a| |y_prev| + |b| of the loop), or n. */
static size_t check_loop(clscan_type t, const unsigned char *a, const unsigned char *b, size_t n, int a_const,
                         int reverse, const unsigned char *y0, const unsigned char *y, value *last)
{
    const long double eps = t == CLSCAN_FLOAT ? FLT_EPSILON : DBL_EPSILON;
    const long double bound = 64 * (2 + log2((double)n + 1)) * eps;
    value acc = y0 ? get(t, y0, 0) : (value){0, 0, 0};
    long double mag = fabsl(acc.f);
    for (size_t k = 0; k < n; k++) {
        const size_t i = reverse ? n - 1 - k : k;
        const value ai = get(t, a, a_const ? 0 : i), bi = get(t, b, i);
        acc.u = ai.u * acc.u + bi.u;
        acc.f = ai.f * acc.f + bi.f;
        mag = fabsl(ai.f) * mag + fabsl(bi.f);
        if (y) {
            const value yi = get(t, y, i);
            if (t == CLSCAN_UINT64 ? yi.u != acc.u : !(fabsl(yi.f - acc.f) <= bound * mag))
                return i;
        }
    }
    acc.mag = mag;
    *last = acc;
    return n;
}

/* Whether the value at got is the loop's last (exact for integers, else within the bound). */
static bool close_to(clscan_type t, value want, const unsigned char *got, size_t n)
{
    const value g = get(t, got, 0);
    const long double eps = t == CLSCAN_FLOAT ? FLT_EPSILON : DBL_EPSILON;
    return t == CLSCAN_UINT64 ? g.u == want.u : fabsl(g.f - want.f) <= 64 * (2 + log2((double)n + 1)) * eps * want.mag;
}

/* Runs one case; returns false with a message. */
static bool run_case(int config, clscan_algorithm algo, size_t n, const rec_case *c, char *msg, size_t msgsize)
{
    const clscan_type t = configs[config].type;
    const size_t wg = configs[config].wg, items = configs[config].items;
    const size_t s = tu_scalar_size(t), bytes = (n + 2 * GUARD) * s, small = (2 * GUARD + 1) * s;
    clscan_plan *plan = tu_plan_algo(CLSCAN_AFFINE, t, CLSCAN_INCLUSIVE, wg, items, algo);
    if (clscan_plan_get_accuracy(plan) != configs[config].accuracy)
        ck_assert_msg(clscan_plan_set_accuracy(plan, configs[config].accuracy) == CL_SUCCESS, "%s",
                      clscan_last_error());
    unsigned char *a = malloc(bytes), *b = malloc(bytes), *y = malloc(bytes), *before = malloc(bytes);
    unsigned char *b_after = malloc(bytes), *a_after = malloc(bytes), *pairs_y = malloc(bytes);
    unsigned char *carry = malloc(small), *tot = malloc(small), *tot_before = malloc(small), *pairs_total = malloc(s);
    ck_assert(a && b && y && before && b_after && a_after && pairs_y && carry && tot && tot_before && pairs_total);
    fill(t, a, n + 2 * GUARD, 1);
    fill(t, b, n + 2 * GUARD, 0);
    fill(t, carry, 2 * GUARD + 1, 0);
    tu_fill_bytes(y, bytes);
    tu_fill_bytes(tot, small);
    memcpy(before, c->layout == 1 ? b : y, bytes);
    memcpy(tot_before, tot, small);

    cl_mem abuf = tu_buffer(tu.context, CL_MEM_READ_ONLY, bytes, a);
    cl_mem bbuf = tu_buffer(tu.context, CL_MEM_READ_WRITE, bytes, b);
    cl_mem ybuf = tu_buffer(tu.context, CL_MEM_READ_WRITE, bytes, y);
    cl_mem cin = tu_buffer(tu.context, CL_MEM_READ_ONLY, small, carry);
    cl_mem tout = tu_buffer(tu.context, CL_MEM_READ_WRITE, small, tot);
    clscan_scan_options opt = {.reverse = c->reverse};
    const unsigned char *y0 = c->carry ? carry + GUARD * s : NULL;   /* the middle value */
    if (c->carry == 2) {
        opt.carry_in = cin;
        opt.carry_in_offset = GUARD;
    } else if (c->carry == 1) {
        opt.init = y0;
    }
    if (c->total) {
        opt.total = tout;
        opt.total_offset = GUARD;
    }
    const unsigned char *a0 = a + GUARD * s;   /* the constant: the first of the range */
    cl_mem out = c->layout == 0 ? ybuf : c->layout == 1 ? bbuf : NULL;
    cl_event ev = NULL;
    cl_int err = clscan_enqueue_recurrence(plan, tu.queue, c->a_const ? NULL : abuf, GUARD, c->a_const ? a0 : NULL,
                                           bbuf, GUARD, out, GUARD, n, &opt, 0, NULL, &ev);
    if (err == CL_SUCCESS) {
        ck_assert(clWaitForEvents(1, &ev) == CL_SUCCESS);
        clReleaseEvent(ev);
    }
    tu_read(tu.queue, c->layout == 1 ? bbuf : ybuf, bytes, y);
    tu_read(tu.queue, tout, small, tot);
    tu_read(tu.queue, abuf, bytes, a_after);
    if (c->layout != 1)
        tu_read(tu.queue, bbuf, bytes, b_after);

    char what[256];
    snprintf(what, sizeof what, "[seed %llu] AFFINE %s (accuracy %d), tuning %zu x %zu, %s, %zu values, a %s, y0 %s, "
             "total %d, reverse %d, %s", (unsigned long long)tu_seed, tu_type_name(t), (int)configs[config].accuracy,
             wg, items,
             algo == CLSCAN_ALGORITHM_SINGLE_PASS ? "single pass" : "reduce-then-scan", n,
             c->a_const ? "constant" : "array", c->carry == 2 ? "carry_in" : c->carry ? "init" : "none", c->total,
             c->reverse, c->layout == 0 ? "separate y" : c->layout == 1 ? "in place" : "y NULL");
    /* A reduction through reduce-then-scan sweeps down where one on pairs stops at the top. */
    const bool tree_may_differ = algo == CLSCAN_ALGORITHM_REDUCE_THEN_SCAN && n > tu_tile(plan);
    bool ok = true;
    size_t at;
    value last = {0, 0, 0};
    const unsigned char *got = y + GUARD * s;
    if (err != CL_SUCCESS) {
        snprintf(msg, msgsize, "%s: %s: %s", what, clscan_error_string(err), clscan_last_error());
        ok = false;
    } else if (memcmp(y, before, GUARD * s) != 0 || memcmp(y + (n + GUARD) * s, before + (n + GUARD) * s, GUARD * s) ||
               (c->layout == 2 && memcmp(y, before, bytes) != 0)) {
        snprintf(msg, msgsize, "%s: y's guards changed", what);
        ok = false;
    } else if (memcmp(a_after, a, bytes) != 0 || (c->layout != 1 && memcmp(b_after, b, bytes) != 0)) {
        snprintf(msg, msgsize, "%s: a or b changed", what);
        ok = false;
    } else if ((at = check_loop(t, a0, b + GUARD * s, n, c->a_const, c->reverse, y0, c->layout == 2 ? NULL : got,
                                &last)) < n) {
        snprintf(msg, msgsize, "%s: y[%zu] is not the loop's", what, at);
        ok = false;
    } else if (memcmp(tot, tot_before, GUARD * s) != 0 ||
               memcmp(tot + (GUARD + 1) * s, tot_before + (GUARD + 1) * s, GUARD * s) != 0 ||
               (!c->total && memcmp(tot, tot_before, small) != 0)) {
        snprintf(msg, msgsize, "%s: the total's guards changed", what);
        ok = false;
    } else if ((err = through_pairs(plan, t, a0, b + GUARD * s, n, c, y0, pairs_y, pairs_total)) != CL_SUCCESS) {
        snprintf(msg, msgsize, "%s: on pairs: %s: %s", what, clscan_error_string(err), clscan_last_error());
        ok = false;
    } else if (c->layout != 2 && memcmp(pairs_y, got, n * s) != 0) {
        snprintf(msg, msgsize, "%s: y differs from the pairs' scan in its bits", what);
        ok = false;
    } else if (c->total && !close_to(t, last, tot + GUARD * s, n)) {
        snprintf(msg, msgsize, "%s: the total is not the loop's", what);
        ok = false;
    } else if (c->total && memcmp(pairs_total, tot + GUARD * s, s) != 0 && (c->layout != 2 || !tree_may_differ)) {
        snprintf(msg, msgsize, "%s: the total differs from the pairs' in its bits", what);
        ok = false;
    } else if (c->total && c->layout != 2 && n && memcmp(tot + GUARD * s, got + (c->reverse ? 0 : n - 1) * s, s)) {
        snprintf(msg, msgsize, "%s: the total is not the last y", what);
        ok = false;
    }
    clReleaseMemObject(abuf), clReleaseMemObject(bbuf), clReleaseMemObject(ybuf), clReleaseMemObject(cin);
    clReleaseMemObject(tout);
    free(a), free(b), free(y), free(before), free(b_after), free(a_after), free(pairs_y), free(carry), free(tot);
    free(tot_before), free(pairs_total);
    return ok;
}

/* The option cases at counts that cross the decomposition, both algorithms, one plan. */
static void check_all(int config)
{
    static const rec_case cases[] = {
        {0, 0, 0, 0, 0}, {1, 1, 1, 0, 0}, {0, 2, 1, 0, 1}, {1, 0, 0, 1, 0}, {0, 1, 1, 1, 1},
        {1, 2, 0, 1, 0}, {0, 2, 1, 0, 2}, {1, 1, 1, 1, 2}, {0, 0, 1, 1, 0},
    };
    static const clscan_algorithm algos[] = {CLSCAN_ALGORITHM_REDUCE_THEN_SCAN, CLSCAN_ALGORITHM_SINGLE_PASS};
    const size_t tile = tu_tile(tu_plan_algo(CLSCAN_AFFINE, configs[config].type, CLSCAN_INCLUSIVE,
                                             configs[config].wg, configs[config].items, algos[0]));
    const size_t counts[] = {0, 1, tile - 1, tile + 1, 3 * tile + 5, 4101 + (size_t)tu_rand_below(70000)};
    tu_tally t = {0};
    for (size_t g = 0; g < 2; g++)
        for (size_t k = g ? 3 : 0; k < sizeof counts / sizeof counts[0]; k++)   /* one tile: one algorithm */
            for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
                char msg[1024];
                t.run++;
                if (!run_case(config, algos[g], counts[k], &cases[i], msg, sizeof msg)) {
                    if (t.failed++ == 0)
                        snprintf(t.first, sizeof t.first, "%s", msg);
                    printf("FAILED: %s\n", msg);
                }
            }
    TU_TALLY_ASSERT(&t);
}

START_TEST(recurrences_match_the_loop_and_the_pairs)
{
    check_all(_i);
}
END_TEST

/* Bad arguments: the documented status, a message naming the function, no buffer changed. */
START_TEST(bad_recurrences_are_rejected)
{
    clscan_plan *plan = tu_plan(CLSCAN_AFFINE, CLSCAN_FLOAT, CLSCAN_INCLUSIVE);
    clscan_plan *sum = tu_plan(CLSCAN_SUM, CLSCAN_FLOAT, CLSCAN_INCLUSIVE);
    clscan_plan *excl = tu_plan_tuned(CLSCAN_AFFINE, CLSCAN_FLOAT, CLSCAN_EXCLUSIVE, 8, 2);
    float x[64], y[64], before[64];
    const float one = 1;
    tu_fill_bytes(x, sizeof x);
    tu_fill_bytes(y, sizeof y);
    memcpy(before, y, sizeof y);
    cl_mem b = tu_buffer(tu.context, CL_MEM_READ_ONLY, sizeof x, x);
    cl_mem a = tu_buffer(tu.context, CL_MEM_READ_ONLY, sizeof x, x);
    cl_mem out = tu_buffer(tu.context, CL_MEM_READ_WRITE, sizeof y, y);
    struct {
        clscan_plan *plan;
        cl_mem a;
        const float *a_const;
        size_t b_offset, y_offset, count;
        int null_y;
        clscan_scan_options opt;
        cl_int want;
    } rows[] = {
        {sum, a, NULL, 0, 0, 8, 0, {0}, CLSCAN_INVALID_OPERATOR},
        {excl, a, NULL, 0, 0, 8, 0, {0}, CLSCAN_INVALID_KIND},
        {plan, NULL, NULL, 0, 0, 8, 0, {0}, CL_INVALID_VALUE},                       /* a and a_const NULL */
        {plan, a, NULL, 60, 0, 8, 0, {0}, CLSCAN_RANGE_OUT_OF_BOUNDS},                /* b past the end */
        {plan, NULL, &one, 0, 60, 8, 0, {0}, CLSCAN_RANGE_OUT_OF_BOUNDS},             /* y past the end */
        {plan, b, NULL, 0, 0, 8, 0, {0}, CL_INVALID_MEM_OBJECT},                      /* y read-only: below */
        {plan, a, NULL, 0, 0, 8, 0, {.carry_in = out, .carry_in_offset = 64}, CLSCAN_RANGE_OUT_OF_BOUNDS},
        {plan, a, NULL, 0, 0, 8, 0, {.carry_in = out, .carry_in_offset = 3}, CL_MEM_COPY_OVERLAP},
        {plan, a, NULL, 0, 0, 8, 0, {.total = out, .total_offset = 7}, CL_MEM_COPY_OVERLAP},   /* total in y */
        {plan, a, NULL, 0, 0, 8, 0, {.total = b, .total_offset = 20}, CL_INVALID_MEM_OBJECT},  /* read-only */
        {plan, NULL, &one, 0, 0, 8, 1, {.reverse = 1}, CL_INVALID_MEM_OBJECT},       /* y NULL, no total */
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        cl_mem yb = rows[i].null_y ? NULL : i == 5 ? b : out;
        const cl_int got = clscan_enqueue_recurrence(rows[i].plan, tu.queue, rows[i].a, 0, rows[i].a_const, b,
                                                     rows[i].b_offset, yb, rows[i].y_offset, rows[i].count,
                                                     &rows[i].opt, 0, NULL, NULL);
        ck_assert_msg(got == rows[i].want, "row %zu: %s, expected %s", i, clscan_error_string(got),
                      clscan_error_string(rows[i].want));
        ck_assert_msg(strstr(clscan_last_error(), "clscan_enqueue_recurrence"), "row %zu: %s", i,
                      clscan_last_error());
        tu_read(tu.queue, out, sizeof y, y);
        ck_assert_msg(memcmp(y, before, sizeof y) == 0, "row %zu changed y", i);
    }
    /* A plan of a custom operator, even one that computes AFFINE. */
    clscan_custom def = {"float2", 8, "(float2)(1.0f, 0.0f)", "(float2)(b.x * a.x, b.x * a.y + b.y)", NULL};
    cl_int err;
    clscan_plan *custom = clscan_plan_create_custom(tu.context, tu.device, &def, CLSCAN_INCLUSIVE, &err);
    ck_assert(err == CL_SUCCESS);
    tu_expect_status(clscan_enqueue_recurrence(custom, tu.queue, NULL, 0, &one, b, 0, out, 0, 8, NULL, 0, NULL,
                                               NULL), CLSCAN_INVALID_OPERATOR, "custom plan");
    clscan_plan_release(custom);
    tu_expect_status(clscan_enqueue_recurrence(NULL, tu.queue, NULL, 0, &one, b, 0, out, 0, 8, NULL, 0, NULL, NULL),
                     CLSCAN_INVALID_PLAN, "NULL plan");
    tu_read(tu.queue, out, sizeof y, y);
    ck_assert(memcmp(y, before, sizeof y) == 0);
    clReleaseMemObject(a), clReleaseMemObject(b), clReleaseMemObject(out);
}
END_TEST

int main(void)
{
    tu_open("recurrence_test");
    tu_watchdog(600);
    for (int i = 0; i < NCONFIGS; i++)
        tu_prepare_plan(CLSCAN_AFFINE, configs[i].type, CLSCAN_INCLUSIVE, configs[i].wg, configs[i].items,
                        CLSCAN_ALGORITHM_AUTO);
    Suite *s = suite_create("recurrence");
    TCase *tc = tcase_create("recurrence");
    tcase_add_loop_test(tc, recurrences_match_the_loop_and_the_pairs, 0, NCONFIGS);
    tcase_add_test(tc, bad_recurrences_are_rejected);
    suite_add_tcase(s, tc);
    int rc = tu_run(s);
    tu_close();
    return rc;
}
