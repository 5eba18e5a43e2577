/* Correctness of every operator x type x kind with the automatic tuning: counts around the tile,
 * offsets with guards, in place, a large prime count, reproducibility, and clscan_host. */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NCOMBOS (TU_NOPS * TU_NTYPES * 2)

static void combo(int i, clscan_op *op, clscan_type *type, clscan_kind *kind)
{
    *op = tu_ops[i / (TU_NTYPES * 2)];
    *type = tu_types[(i / 2) % TU_NTYPES];
    *kind = i % 2 ? CLSCAN_EXCLUSIVE : CLSCAN_INCLUSIVE;
}

static const clscan_algorithm algos[3] = {CLSCAN_ALGORITHM_AUTO, CLSCAN_ALGORITHM_REDUCE_THEN_SCAN,
                                          CLSCAN_ALGORITHM_SINGLE_PASS};

/* Counts 0, 1, 2, around one and three tiles, and a random one; the default algorithm and both
 * explicit ones (plans that share one program). */
START_TEST(counts_around_the_tile_match_the_reference)
{
    clscan_op op;
    clscan_type type;
    clscan_kind kind;
    combo(_i, &op, &type, &kind);
    tu_tally tally = {0};
    for (int a = 0; a < 3; a++) {
        clscan_plan *plan = tu_plan_algo(op, type, kind, 0, 0, algos[a]);
        size_t t = tu_tile(plan);
        size_t counts[] = {0, 1, 2, t - 1, t, t + 1, 3 * t - 1, 3 * t + 1, 1 + (size_t)tu_rand_below(8 * t)};
        for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++)
            tu_tally_check(&tally, plan, &(tu_case){.op = op, .type = type, .kind = kind, .count = counts[k]});
    }
    TU_TALLY_ASSERT(&tally);
}
END_TEST

/* Nonzero offsets into separate buffers, in place, and one buffer with disjoint ranges. */
START_TEST(offsets_in_place_and_disjoint_ranges_keep_the_guards)
{
    clscan_op op;
    clscan_type type;
    clscan_kind kind;
    combo(_i, &op, &type, &kind);
    tu_tally tally = {0};
    for (size_t k = 0; k < 4; k++) {
        /* one tile, then several with each algorithm */
        clscan_plan *plan = tu_plan_algo(op, type, kind, 0, 0, algos[k < 2 ? 0 : k - 1]);
        size_t n = k == 0 ? 37 : 2 * tu_tile(plan) + 7;
        tu_case cases[] = {
            {.src_offset = 3, .dst_offset = 0},
            {.src_offset = 0, .dst_offset = 5},
            {.src_offset = 1001, .dst_offset = 17},
            {.src_offset = 0, .layout = TU_IN_PLACE},
            {.src_offset = 7, .layout = TU_IN_PLACE},
            {.src_offset = 0, .dst_offset = n + 3, .layout = TU_SAME_BUFFER_DISJOINT},
            {.src_offset = n + 2, .dst_offset = 1, .layout = TU_SAME_BUFFER_DISJOINT},
            {.src_offset = 0, .dst_offset = n, .layout = TU_SAME_BUFFER_DISJOINT}, /* adjacent */
        };
        for (size_t j = 0; j < sizeof cases / sizeof cases[0]; j++) {
            tu_case c = cases[j];
            c.op = op, c.type = type, c.kind = kind, c.count = n;
            tu_tally_check(&tally, plan, &c);
        }
    }
    TU_TALLY_ASSERT(&tally);
}
END_TEST

static const struct {
    clscan_op op;
    clscan_type type;
} large[] = {
    {CLSCAN_SUM, CLSCAN_INT32},           {CLSCAN_SUM, CLSCAN_UINT64},       {CLSCAN_SUM, CLSCAN_FLOAT},
    {CLSCAN_SUM, CLSCAN_DOUBLE},          {CLSCAN_AFFINE, CLSCAN_INT32},     {CLSCAN_AFFINE, CLSCAN_INT64},
    {CLSCAN_AFFINE, CLSCAN_FLOAT},        {CLSCAN_AFFINE, CLSCAN_DOUBLE},    {CLSCAN_LAST_NONZERO, CLSCAN_UINT32},
    {CLSCAN_LAST_NONZERO, CLSCAN_INT64},  {CLSCAN_LAST_NONZERO, CLSCAN_FLOAT}, {CLSCAN_LAST_NONZERO, CLSCAN_DOUBLE},
    {CLSCAN_MAX, CLSCAN_FLOAT},           {CLSCAN_MIN, CLSCAN_INT64},
};
#define NLARGE ((int)(sizeof large / sizeof large[0]))

/* 999983 (a prime) elements with the automatic tuning, both algorithms; odd offsets for some. */
START_TEST(prime_count_near_a_million_matches_the_reference)
{
    clscan_op op = large[_i / 4].op;
    clscan_type type = large[_i / 4].type;
    clscan_kind kind = _i % 2 ? CLSCAN_EXCLUSIVE : CLSCAN_INCLUSIVE;
    clscan_plan *plan = tu_plan_algo(op, type, kind, 0, 0, algos[1 + (_i / 2) % 2]);
    TU_CHECK_SCAN(plan, .op = op, .type = type, .kind = kind, .count = 999983);
    if (_i % 8 == 1 || _i % 8 == 6)
        TU_CHECK_SCAN(plan, .op = op, .type = type, .kind = kind, .count = 999983, .src_offset = 3,
                      .dst_offset = 11);
    if (_i % 8 == 2 || _i % 8 == 7)
        TU_CHECK_SCAN(plan, .op = op, .type = type, .kind = kind, .count = 999983, .src_offset = 5,
                      .layout = TU_IN_PLACE);
}
END_TEST

/* A float sum of random fractions (rounding everywhere) twice: bitwise the same output, with
 * each algorithm. */
START_TEST(float_sum_of_fractions_is_reproducible)
{
    clscan_kind kind = _i % 2 ? CLSCAN_EXCLUSIVE : CLSCAN_INCLUSIVE;
    clscan_plan *plan = tu_plan_algo(CLSCAN_SUM, CLSCAN_FLOAT, kind, 0, 0, algos[1 + _i / 2]);
    size_t n = 1000003;
    float *x = malloc(n * sizeof *x), *y1 = malloc(n * sizeof *y1), *y2 = malloc(n * sizeof *y2);
    ck_assert(x && y1 && y2);
    tu_fill_float_fractions(x, n);
    char msg[2048];
    bool ok1 = tu_check_scan(plan, &(tu_case){.op = CLSCAN_SUM, .type = CLSCAN_FLOAT, .kind = kind,
                                              .count = n, .input = x, .output = y1, .no_reference = true},
                             msg, sizeof msg);
    ck_assert_msg(ok1, "%s", msg);
    bool ok2 = tu_check_scan(plan, &(tu_case){.op = CLSCAN_SUM, .type = CLSCAN_FLOAT, .kind = kind,
                                              .count = n, .input = x, .output = y2, .no_reference = true},
                             msg, sizeof msg);
    ck_assert_msg(ok2, "%s", msg);
    size_t first = n;
    for (size_t i = 0; i < n && first == n; i++)
        if (memcmp(&y1[i], &y2[i], sizeof(float)) != 0)
            first = i;
    double acc = 0, worst = 0;
    for (size_t i = 0; i < n; i++) {
        if (kind == CLSCAN_INCLUSIVE)
            acc += x[i];
        worst = fmax(worst, fabs(acc - (double)y1[i]));
        if (kind == CLSCAN_EXCLUSIVE)
            acc += x[i];
    }
    char d1[64] = "", d2[64] = "";
    if (first < n) {
        tu_format(CLSCAN_SUM, CLSCAN_FLOAT, y1, first, d1, sizeof d1);
        tu_format(CLSCAN_SUM, CLSCAN_FLOAT, y2, first, d2, sizeof d2);
    }
    free(x);
    free(y1);
    free(y2);
    const char *algo = tu_algo_name(clscan_plan_get_algorithm(plan));
    ck_assert_msg(first == n, "[seed %llu] float SUM %s %s of %zu fractions: run 1 and run 2 differ first "
                  "at index %zu: %s vs %s", (unsigned long long)tu_seed, tu_kind_name(kind), algo, n, first, d1, d2);
    ck_assert_msg(worst < 1.0, "[seed %llu] float SUM %s %s: an output is %g away from the exact sum",
                  (unsigned long long)tu_seed, tu_kind_name(kind), algo, worst);
}
END_TEST

/* clscan_host on the default device, into another array and in place. */
START_TEST(host_scan_matches_the_reference)
{
    static const struct {
        clscan_op op;
        clscan_type type;
        clscan_kind kind;
        size_t count;
        bool in_place;
    } cases[] = {
        {CLSCAN_SUM, CLSCAN_INT32, CLSCAN_INCLUSIVE, 1000, false},
        {CLSCAN_AFFINE, CLSCAN_FLOAT, CLSCAN_EXCLUSIVE, 5001, true},
        {CLSCAN_LAST_NONZERO, CLSCAN_DOUBLE, CLSCAN_INCLUSIVE, 70001, false},
        {CLSCAN_MAX, CLSCAN_FLOAT, CLSCAN_EXCLUSIVE, 30011, true},
        {CLSCAN_SUM, CLSCAN_INT32, CLSCAN_INCLUSIVE, 1, true},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        size_t es = tu_elem_size(cases[k].op, cases[k].type), n = cases[k].count;
        unsigned char *x = malloc(n * es), *x0 = malloc(n * es), *y = malloc(n * es), *ref = malloc(n * es);
        ck_assert(x && x0 && y && ref);
        tu_fill(cases[k].op, cases[k].type, x, n);
        memcpy(x0, x, n * es);
        tu_reference(cases[k].op, cases[k].type, cases[k].kind, x, ref, n);
        unsigned char *out = cases[k].in_place ? x : y;
        cl_int err = clscan_host(cases[k].op, cases[k].type, cases[k].kind, x, out, n);
        char diff[512] = "";
        bool same = err == CL_SUCCESS && tu_compare(cases[k].op, cases[k].type, ref, out, n, diff, sizeof diff);
        bool src_kept = cases[k].in_place || memcmp(x, x0, n * es) == 0;
        free(x), free(x0), free(y), free(ref);
        ck_assert_msg(err == CL_SUCCESS, "clscan_host(%s %s %s, %zu) failed: %s: %s", tu_op_name(cases[k].op),
                      tu_type_name(cases[k].type), tu_kind_name(cases[k].kind), n, clscan_error_string(err),
                      clscan_last_error());
        ck_assert_msg(same, "[seed %llu] clscan_host(%s %s %s, count %zu%s): %s", (unsigned long long)tu_seed,
                      tu_op_name(cases[k].op), tu_type_name(cases[k].type), tu_kind_name(cases[k].kind), n,
                      cases[k].in_place ? ", in place" : "", diff);
        ck_assert_msg(src_kept, "clscan_host changed its source array");
    }
}
END_TEST

int main(void)
{
    tu_open("scan_test");
    tu_watchdog(540);
    Suite *s = suite_create("scan");
    TCase *tc = tcase_create("counts");
    tcase_add_loop_test(tc, counts_around_the_tile_match_the_reference, 0, NCOMBOS);
    suite_add_tcase(s, tc);
    tc = tcase_create("offsets");
    tcase_add_loop_test(tc, offsets_in_place_and_disjoint_ranges_keep_the_guards, 0, NCOMBOS);
    suite_add_tcase(s, tc);
    tc = tcase_create("large");
    tcase_add_loop_test(tc, prime_count_near_a_million_matches_the_reference, 0, 4 * NLARGE);
    tcase_add_loop_test(tc, float_sum_of_fractions_is_reproducible, 0, 4);
    suite_add_tcase(s, tc);
    tc = tcase_create("host");
    tcase_add_test(tc, host_scan_matches_the_reference);
    suite_add_tcase(s, tc);
    int rc = tu_run(s);
    tu_close();
    return rc;
}
