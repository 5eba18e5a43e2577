/* clscan_enqueue_with: carries (from the host and from the device), totals, reverse scans and
 * reductions, against a sequential reference that folds from the carry, for built-in and custom
 * operators (non-commutative ones among them), inclusive and exclusive, both multi-tile
 * algorithms, tiles of 16 (several levels) and the automatic tuning, counts 0, 1, around a tile
 * and over thousands of tiles; and the options' bad arguments (rejected, buffers untouched).
 *
 * Exit status: 0 all checks passed, 1 a check failed, 77 no device, 99 a setup error. */
#define _POSIX_C_SOURCE 200809L
#include "testops.h"
#include "support/reference.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GUARD 7   /* elements of guard around every range */

/* The operators: built-ins of every kind of arithmetic, and two custom non-commutative ones
 * (2x2 integer matrices, signed permutation matrices in float). */
static to_op ops[] = {
    {NULL, CLSCAN_SUM, CLSCAN_INT32},
    {NULL, CLSCAN_SUM, CLSCAN_FLOAT},
    {NULL, CLSCAN_MAX, CLSCAN_DOUBLE},
    {NULL, CLSCAN_LAST_NONZERO, CLSCAN_INT64},
    {NULL, CLSCAN_AFFINE, CLSCAN_FLOAT},
    {NULL, CLSCAN_AFFINE, CLSCAN_UINT64},
    {&to_customs[0], 0, 0},
    {&to_customs[1], 0, 0},
};
#define NOPS (int)(sizeof ops / sizeof ops[0])

/* The scan clscan_enqueue_with documents: from carry (NULL: neutral), from the end when
 * reverse; y NULL: none; the total into *total. */
static void reference(const to_op *o, clscan_kind kind, const void *x, void *y, size_t n, const void *carry,
                      void *total, int reverse)
{
    const size_t e = to_size(o);
    unsigned char *acc = malloc(e), *next = malloc(e);
    ck_assert(acc && next);
    if (carry)
        memcpy(acc, carry, e);
    else
        to_neutral(o, acc);
    for (size_t k = 0; k < n; k++) {
        const size_t i = reverse ? n - 1 - k : k;
        to_comb(o, acc, (const unsigned char *)x + i * e, next);
        if (y)
            memcpy((unsigned char *)y + i * e, kind == CLSCAN_EXCLUSIVE ? acc : next, e);
        memcpy(acc, next, e);
    }
    if (total)
        memcpy(total, acc, e);
    free(acc), free(next);
}

typedef struct opt_case {
    int carry;      /* 0 none, 1 init (host), 2 carry_in (device) */
    int total;
    int reverse;
    int reduce;     /* dst NULL (needs total) */
} opt_case;

/* Runs one case; returns false with a message. */
static bool run_case(const to_op *o, clscan_kind kind, size_t wg, size_t items, clscan_algorithm algo, size_t n,
                     const opt_case *c, char *msg, size_t msgsize)
{
    const size_t e = to_size(o), bytes = (n + 2 * GUARD) * e;
    clscan_plan *plan = to_plan(o, kind, wg, items, algo, false);
    unsigned char *x = malloc(bytes), *y = malloc(bytes), *ref = malloc(bytes), *before = malloc(bytes);
    unsigned char *carry = malloc(e * (2 * GUARD + 1)), *tot = malloc(e * (2 * GUARD + 1));
    unsigned char *tot_before = malloc(e * (2 * GUARD + 1)), *ref_total = malloc(e);
    ck_assert(x && y && ref && before && carry && tot && tot_before && ref_total);
    to_fill(o, x, n + 2 * GUARD);
    to_fill(o, carry, 2 * GUARD + 1);
    tu_fill_bytes(y, bytes);
    tu_fill_bytes(tot, e * (2 * GUARD + 1));
    memcpy(before, y, bytes);
    memcpy(tot_before, tot, e * (2 * GUARD + 1));

    cl_mem src = tu_buffer(tu.context, CL_MEM_READ_ONLY, bytes, x);
    cl_mem dst = tu_buffer(tu.context, CL_MEM_READ_WRITE, bytes, y);
    cl_mem cin = tu_buffer(tu.context, CL_MEM_READ_ONLY, e * (2 * GUARD + 1), carry);
    cl_mem tout = tu_buffer(tu.context, CL_MEM_READ_WRITE, e * (2 * GUARD + 1), tot);
    clscan_scan_options opt;
    memset(&opt, 0, sizeof opt);
    const unsigned char *c0 = carry + GUARD * e;   /* the carry: the middle element */
    if (c->carry == 2) {
        opt.carry_in = cin;
        opt.carry_in_offset = GUARD;
    } else if (c->carry == 1) {
        opt.init = c0;
    }
    if (c->total) {
        opt.total = tout;
        opt.total_offset = GUARD;
    }
    opt.reverse = c->reverse;
    cl_event ev = NULL;
    cl_int err = clscan_enqueue_with(plan, tu.queue, src, GUARD, c->reduce ? NULL : dst, GUARD, n, &opt, 0, NULL,
                                     &ev);
    if (err == CL_SUCCESS) {
        ck_assert(clWaitForEvents(1, &ev) == CL_SUCCESS);
        clReleaseEvent(ev);
    }
    tu_read(tu.queue, dst, bytes, y);
    tu_read(tu.queue, tout, e * (2 * GUARD + 1), tot);
    memcpy(ref, before, bytes);
    reference(o, kind, x + GUARD * e, c->reduce ? NULL : ref + GUARD * e, n, c->carry ? c0 : NULL, ref_total,
              c->reverse);
    char name[64];
    to_name(o, name, sizeof name);
    char what[256];
    snprintf(what, sizeof what, "[seed %llu] %s %s, tuning %zu x %zu, %s, %zu elements, carry %s, total %d, "
             "reverse %d, %s", (unsigned long long)tu_seed, name, kind == CLSCAN_EXCLUSIVE ? "exclusive" : "inclusive",
             wg, items, algo == CLSCAN_ALGORITHM_SINGLE_PASS ? "single pass" : "reduce-then-scan", n,
             c->carry == 2 ? "carry_in" : c->carry ? "init" : "none", c->total, c->reverse,
             c->reduce ? "reduction" : "scan");
    bool ok = true;
    size_t at;
    if (err != CL_SUCCESS) {
        snprintf(msg, msgsize, "%s: %s: %s", what, clscan_error_string(err), clscan_last_error());
        ok = false;
    } else if (memcmp(y, before, GUARD * e) != 0 || memcmp(y + (n + GUARD) * e, before + (n + GUARD) * e, GUARD * e) ||
               (c->reduce && memcmp(y, before, bytes) != 0)) {
        snprintf(msg, msgsize, "%s: the output's guards changed", what);   /* bytes: random floats hold NaNs */
        ok = false;
    } else if (!c->reduce && (at = to_diff(o, ref + GUARD * e, y + GUARD * e, n)) < n) {
        snprintf(msg, msgsize, "%s: wrong output at %zu", what, at);
        ok = false;
    } else if (c->total && to_diff(o, ref_total, tot + GUARD * e, 1) != 1) {
        snprintf(msg, msgsize, "%s: wrong total", what);
        ok = false;
    } else if (memcmp(tot, tot_before, GUARD * e) != 0 ||
               memcmp(tot + (GUARD + 1) * e, tot_before + (GUARD + 1) * e, GUARD * e) != 0 ||
               (!c->total && memcmp(tot, tot_before, (2 * GUARD + 1) * e) != 0)) {
        snprintf(msg, msgsize, "%s: the total's guards changed", what);
        ok = false;
    }
    clReleaseMemObject(src), clReleaseMemObject(dst), clReleaseMemObject(cin), clReleaseMemObject(tout);
    free(x), free(y), free(ref), free(before), free(carry), free(tot), free(tot_before), free(ref_total);
    return ok;
}

/* Every option case at counts that cross the decomposition: one operator, one kind, one tuning,
 * both algorithms. */
static void check_all(int op_index, clscan_kind kind, size_t wg, size_t items)
{
    static const opt_case cases[] = {
        {0, 0, 0, 0}, {1, 0, 0, 0}, {2, 1, 0, 0}, {0, 1, 1, 0}, {1, 1, 1, 0},
        {2, 0, 1, 0}, {0, 1, 0, 1}, {1, 1, 0, 1}, {2, 1, 1, 1}, {0, 1, 1, 1},
    };
    static const clscan_algorithm algos[] = {CLSCAN_ALGORITHM_REDUCE_THEN_SCAN, CLSCAN_ALGORITHM_SINGLE_PASS};
    const to_op *o = &ops[op_index];
    const size_t tile = tu_tile(to_plan(o, kind, wg, items, algos[0], false));
    const size_t counts[] = {0, 1, tile - 1, tile + 1, 3 * tile + 5, 4101 + (size_t)tu_rand_below(70000)};
    tu_tally t = {0};
    for (size_t a = 0; a < 2; a++)
        for (size_t k = a ? 3 : 0; k < sizeof counts / sizeof counts[0]; k++)   /* one tile: one algorithm */
            for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
                char msg[1024];
                t.run++;
                if (!run_case(o, kind, wg, items, algos[a], counts[k], &cases[i], msg, sizeof msg)) {
                    if (t.failed++ == 0)
                        snprintf(t.first, sizeof t.first, "%s", msg);
                    printf("FAILED: %s\n", msg);
                }
            }
    TU_TALLY_ASSERT(&t);
}

START_TEST(options_with_small_tiles)
{
    check_all(_i / 2, _i % 2 ? CLSCAN_EXCLUSIVE : CLSCAN_INCLUSIVE, 8, 2);
}
END_TEST

/* The automatic tuning for an exact operator, AFFINE and a custom one (each tuning and
 * direction is a program build of its own: the suite keeps them few). */
static const int auto_ops[] = {0, 4, 7};
#define NAUTO (int)(sizeof auto_ops / sizeof auto_ops[0])

START_TEST(options_with_the_automatic_tuning)
{
    check_all(auto_ops[_i / 2], _i % 2 ? CLSCAN_EXCLUSIVE : CLSCAN_INCLUSIVE, 0, 0);
}
END_TEST

/* The options' bad arguments: the documented status, a message, and no buffer changed. */
START_TEST(bad_options_are_rejected)
{
    const to_op *o = &ops[0];
    clscan_plan *plan = to_plan(o, CLSCAN_INCLUSIVE, 0, 0, CLSCAN_ALGORITHM_AUTO, false);
    int32_t x[64], y[64], before[64];
    tu_fill_bytes(x, sizeof x);
    tu_fill_bytes(y, sizeof y);
    memcpy(before, y, sizeof y);
    cl_mem src = tu_buffer(tu.context, CL_MEM_READ_ONLY, sizeof x, x);
    cl_mem dst = tu_buffer(tu.context, CL_MEM_READ_WRITE, sizeof y, y);
    cl_mem ro = tu_buffer(tu.context, CL_MEM_READ_ONLY, sizeof y, y);
    struct {
        clscan_scan_options opt;
        int null_dst;
        cl_int want;
    } rows[] = {
        {{.carry_in = dst, .carry_in_offset = 64}, 0, CLSCAN_RANGE_OUT_OF_BOUNDS},   /* carry_in past the end */
        {{.carry_in = dst, .carry_in_offset = 40}, 0, CL_MEM_COPY_OVERLAP},          /* carry_in inside dst */
        {{.total = dst, .total_offset = 64}, 0, CLSCAN_RANGE_OUT_OF_BOUNDS},         /* total past the end */
        {{.total = dst, .total_offset = 40}, 0, CL_MEM_COPY_OVERLAP},                /* total inside dst */
        {{.total = src, .total_offset = 40}, 1, CL_INVALID_MEM_OBJECT},              /* total read-only */
        {{.total = ro, .total_offset = 3}, 1, CL_INVALID_MEM_OBJECT},                /* total read-only */
        {{.carry_in = dst, .carry_in_offset = 50, .total = dst, .total_offset = 50}, 1, CL_MEM_COPY_OVERLAP},
        {{.reverse = 1}, 1, CL_INVALID_MEM_OBJECT},                                  /* dst NULL, no total */
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const cl_int got = clscan_enqueue_with(plan, tu.queue, src, 0, rows[i].null_dst ? NULL : dst, 32, 32,
                                               &rows[i].opt, 0, NULL, NULL);
        ck_assert_msg(got == rows[i].want, "row %zu: %s, expected %s", i, clscan_error_string(got),
                      clscan_error_string(rows[i].want));
        ck_assert_msg(strstr(clscan_last_error(), "clscan_enqueue_with"), "row %zu: %s", i, clscan_last_error());
        /* The checks alone give the same status. */
        const cl_int checked = clscan_enqueue_with_check(plan, tu.queue, src, 0, rows[i].null_dst ? NULL : dst, 32, 32,
                                                         &rows[i].opt, 0, NULL);
        ck_assert_msg(checked == got, "row %zu: the check gives %s, the call %s", i, clscan_error_string(checked),
                      clscan_error_string(got));
        ck_assert_msg(strstr(clscan_last_error(), "clscan_enqueue_with_check"), "row %zu: %s", i, clscan_last_error());
        tu_read(tu.queue, dst, sizeof y, y);
        ck_assert_msg(memcmp(y, before, sizeof y) == 0, "row %zu changed dst", i);
    }
    /* Valid calls pass the checks and enqueue nothing: dst and the total stay as they were. */
    const clscan_scan_options total = {.total = dst, .total_offset = 0, .reverse = 1};
    ck_assert_int_eq(clscan_enqueue_with_check(plan, tu.queue, src, 0, dst, 32, 32, &total, 0, NULL), CL_SUCCESS);
    ck_assert_int_eq(clscan_enqueue_with_check(plan, tu.queue, src, 0, dst, 32, 32, NULL, 0, NULL), CL_SUCCESS);
    ck_assert_int_eq(clscan_enqueue_with_check(plan, tu.queue, src, 0, dst, 0, 0, NULL, 0, NULL), CL_SUCCESS);
    ck_assert_int_eq(clscan_enqueue_with_check(plan, tu.queue, src, 0, dst, 40, 32, NULL, 0, NULL),
                     CLSCAN_RANGE_OUT_OF_BOUNDS);
    ck_assert_int_eq(clscan_enqueue_with_check(NULL, tu.queue, src, 0, dst, 0, 32, &total, 0, NULL),
                     CLSCAN_INVALID_PLAN);
    clFinish(tu.queue);
    tu_read(tu.queue, dst, sizeof y, y);
    ck_assert_msg(memcmp(y, before, sizeof y) == 0, "a valid check changed dst");
    clReleaseMemObject(src), clReleaseMemObject(dst), clReleaseMemObject(ro);
}
END_TEST

int main(void)
{
    tu_open("options_test");
    tu_watchdog(600);
    for (int i = 0; i < NOPS; i++)
        for (int k = 0; k < 2; k++) {
            to_plan(&ops[i], k ? CLSCAN_EXCLUSIVE : CLSCAN_INCLUSIVE, 8, 2, CLSCAN_ALGORITHM_AUTO, true);
        }
    for (int i = 0; i < NAUTO; i++)
        for (int k = 0; k < 2; k++)
            to_plan(&ops[auto_ops[i]], k ? CLSCAN_EXCLUSIVE : CLSCAN_INCLUSIVE, 0, 0, CLSCAN_ALGORITHM_AUTO, true);
    Suite *s = suite_create("options");
    TCase *tc = tcase_create("options");
    tcase_add_loop_test(tc, options_with_small_tiles, 0, 2 * NOPS);
    tcase_add_loop_test(tc, options_with_the_automatic_tuning, 0, 2 * NAUTO);
    tcase_add_test(tc, bad_options_are_rejected);
    suite_add_tcase(s, tc);
    int rc = tu_run(s);
    to_close();
    tu_close();
    return rc;
}
