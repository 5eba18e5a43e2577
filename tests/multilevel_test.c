/* The multi-tile algorithms, made deep and cheap with small tiles (clscan_plan_set_tuning):
 * every operator x type x kind with tile 16 (reduce-then-scan up to five levels, single pass
 * with thousands of tiles), other tunings for a few, and the tuning and algorithm calls. */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"

#include <stdio.h>

#define NCOMBOS (TU_NOPS * TU_NTYPES * 2)

static void combo(int i, clscan_op *op, clscan_type *type, clscan_kind *kind)
{
    *op = tu_ops[i / (TU_NTYPES * 2)];
    *type = tu_types[(i / 2) % TU_NTYPES];
    *kind = i % 2 ? CLSCAN_EXCLUSIVE : CLSCAN_INCLUSIVE;
}

static const clscan_algorithm algos[2] = {CLSCAN_ALGORITHM_REDUCE_THEN_SCAN, CLSCAN_ALGORITHM_SINGLE_PASS};

/* Tile 16 (8 work-items x 2).  Reduce-then-scan: 4101 = 16^3 + 5 elements need four levels
 * (4101, 257, 17, 2), 70000 five (70000, 4375, 274, 18, 2).  Single pass: up to 4375 tiles
 * looking back. */
START_TEST(tile_16_three_to_five_levels_match_the_reference)
{
    clscan_op op;
    clscan_type type;
    clscan_kind kind;
    combo(_i, &op, &type, &kind);
    tu_tally tally = {0};
    for (int a = 0; a < 2; a++) {
        clscan_plan *plan = tu_plan_algo(op, type, kind, 8, 2, algos[a]);
        ck_assert_uint_eq(tu_tile(plan), 16);
        size_t counts[] = {15, 16, 17, 255, 256, 257, 4095, 4096, 4101, 65537, 70000,
                           1 + (size_t)tu_rand_below(100000)};
        for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++)
            tu_tally_check(&tally, plan, &(tu_case){.op = op, .type = type, .kind = kind, .count = counts[k]});
        tu_tally_check(&tally, plan, &(tu_case){.op = op, .type = type, .kind = kind, .count = 70000,
                                                .src_offset = 3, .dst_offset = 5});
        tu_tally_check(&tally, plan, &(tu_case){.op = op, .type = type, .kind = kind, .count = 4101,
                                                .src_offset = 7, .layout = TU_IN_PLACE});
    }
    TU_TALLY_ASSERT(&tally);
}
END_TEST

static const struct {
    clscan_op op;
    clscan_type type;
    clscan_kind kind;
} subset[] = {
    {CLSCAN_SUM, CLSCAN_UINT32, CLSCAN_INCLUSIVE},
    {CLSCAN_AFFINE, CLSCAN_INT32, CLSCAN_EXCLUSIVE},
    {CLSCAN_MAX, CLSCAN_FLOAT, CLSCAN_INCLUSIVE},
    {CLSCAN_LAST_NONZERO, CLSCAN_DOUBLE, CLSCAN_EXCLUSIVE},
};
static const size_t tunings[][2] = {{1, 8}, {2, 1}, {4, 4}, {16, 1}, {32, 4}, {64, 2}};
#define NSUBSET (int)(sizeof subset / sizeof subset[0])
#define NTUNINGS (int)(sizeof tunings / sizeof tunings[0])

/* Other shapes of tile: one work-item per group, one item per work-item, tile 2 (17 levels). */
START_TEST(other_small_tunings_match_the_reference)
{
    clscan_op op = subset[_i / NTUNINGS].op;
    clscan_type type = subset[_i / NTUNINGS].type;
    clscan_kind kind = subset[_i / NTUNINGS].kind;
    size_t wg = tunings[_i % NTUNINGS][0], items = tunings[_i % NTUNINGS][1];
    tu_tally tally = {0};
    for (int a = 0; a < 2; a++) {
        clscan_plan *plan = tu_plan_algo(op, type, kind, wg, items, algos[a]);
        size_t got_wg = 0, got_items = 0;
        ck_assert_int_eq(clscan_plan_get_tuning(plan, &got_wg, &got_items), CL_SUCCESS);
        ck_assert_uint_eq(got_wg, wg);
        ck_assert_uint_eq(got_items, items);
        size_t t = wg * items;
        size_t counts[] = {1, t - 1, t, t + 1, t * t + 1, t * t * t + 3, 70000};
        for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++)
            if (counts[k] > 0 && counts[k] <= 300000)
                tu_tally_check(&tally, plan, &(tu_case){.op = op, .type = type, .kind = kind, .count = counts[k]});
    }
    TU_TALLY_ASSERT(&tally);
}
END_TEST

/* The algorithm calls: AUTO resolves to an algorithm (single pass on CPUs), explicit choices stick,
 * bad values are CL_INVALID_VALUE and keep the old choice. */
START_TEST(set_algorithm_and_get_algorithm_agree)
{
    cl_int err;
    clscan_plan *plan = clscan_plan_create(tu.context, tu.device, CLSCAN_AFFINE, CLSCAN_UINT32,
                                           CLSCAN_EXCLUSIVE, &err);
    ck_assert_msg(plan != NULL, "clscan_plan_create: %s: %s", clscan_error_string(err), clscan_last_error());
    clscan_algorithm a = clscan_plan_get_algorithm(plan);
    ck_assert_msg(a == CLSCAN_ALGORITHM_REDUCE_THEN_SCAN || a == CLSCAN_ALGORITHM_SINGLE_PASS,
                  "a new plan's algorithm is %d, not a resolved one", (int)a);
    cl_device_type dtype = 0;
    ck_assert_int_eq(clGetDeviceInfo(tu.device, CL_DEVICE_TYPE, sizeof dtype, &dtype, NULL), CL_SUCCESS);
    if (dtype & CL_DEVICE_TYPE_CPU)
        ck_assert_msg(a == CLSCAN_ALGORITHM_SINGLE_PASS, "AUTO on a CPU is %s, not single-pass", tu_algo_name(a));
    for (int k = 0; k < 2; k++) {
        ck_assert_int_eq(clscan_plan_set_algorithm(plan, algos[k]), CL_SUCCESS);
        ck_assert_int_eq(clscan_plan_get_algorithm(plan), algos[k]);
        err = clscan_plan_set_algorithm(plan, (clscan_algorithm)3);
        ck_assert_msg(err == CL_INVALID_VALUE, "set_algorithm(3) returned %s", clscan_error_string(err));
        ck_assert_msg(*clscan_last_error(), "no message");
        err = clscan_plan_set_algorithm(plan, (clscan_algorithm)-1);
        ck_assert_msg(err == CL_INVALID_VALUE, "set_algorithm(-1) returned %s", clscan_error_string(err));
        ck_assert_int_eq(clscan_plan_get_algorithm(plan), algos[k]);
        TU_CHECK_SCAN(plan, .op = CLSCAN_AFFINE, .type = CLSCAN_UINT32, .kind = CLSCAN_EXCLUSIVE,
                      .count = 3 * tu_tile(plan) + 1);
    }
    ck_assert_int_eq(clscan_plan_set_algorithm(plan, CLSCAN_ALGORITHM_AUTO), CL_SUCCESS);
    ck_assert_int_eq(clscan_plan_get_algorithm(plan), a);
    err = clscan_plan_set_algorithm(NULL, CLSCAN_ALGORITHM_SINGLE_PASS);
    ck_assert_msg(err == CLSCAN_INVALID_PLAN, "set_algorithm(NULL plan) returned %s", clscan_error_string(err));
    ck_assert_int_eq(clscan_plan_get_algorithm(NULL), CLSCAN_ALGORITHM_AUTO);
    clscan_plan_release(plan);
}
END_TEST

/* The tuning calls: (0, 0) keeps the automatic choice; one 0 keeps that part automatic; the
 * tuning can change back and forth on one plan and the plan keeps scanning right. */
START_TEST(set_tuning_and_get_tuning_agree)
{
    cl_int err;
    clscan_plan *plan = clscan_plan_create(tu.context, tu.device, CLSCAN_SUM, CLSCAN_INT64,
                                           CLSCAN_INCLUSIVE, &err);
    ck_assert_msg(plan != NULL, "clscan_plan_create: %s: %s", clscan_error_string(err), clscan_last_error());
    size_t wg0 = 0, items0 = 0, wg = 0, items = 0;
    ck_assert_int_eq(clscan_plan_get_tuning(plan, &wg0, &items0), CL_SUCCESS);
    ck_assert_msg(wg0 > 0 && (wg0 & (wg0 - 1)) == 0 && items0 > 0 && (items0 & (items0 - 1)) == 0,
                  "the automatic tuning %zu x %zu is not made of powers of two", wg0, items0);
    printf("automatic tuning of SUM int64 inclusive: %zu x %zu (tile %zu)\n", wg0, items0, wg0 * items0);

    ck_assert_int_eq(clscan_plan_set_tuning(plan, 0, 0), CL_SUCCESS);
    ck_assert_int_eq(clscan_plan_get_tuning(plan, &wg, &items), CL_SUCCESS);
    ck_assert_msg(wg == wg0 && items == items0, "set_tuning(0, 0) changed %zu x %zu to %zu x %zu",
                  wg0, items0, wg, items);

    ck_assert_int_eq(clscan_plan_set_tuning(plan, 8, 0), CL_SUCCESS);
    ck_assert_int_eq(clscan_plan_get_tuning(plan, &wg, &items), CL_SUCCESS);
    ck_assert_uint_eq(wg, 8);
    ck_assert_msg(items > 0 && (items & (items - 1)) == 0, "items per work-item %zu", items);
    TU_CHECK_SCAN(plan, .op = CLSCAN_SUM, .type = CLSCAN_INT64, .kind = CLSCAN_INCLUSIVE, .count = 3 * 8 * items + 1);

    ck_assert_int_eq(clscan_plan_set_tuning(plan, 4, 4), CL_SUCCESS);
    ck_assert_int_eq(clscan_plan_get_tuning(plan, &wg, &items), CL_SUCCESS);
    ck_assert_uint_eq(wg, 4);
    ck_assert_uint_eq(items, 4);
    TU_CHECK_SCAN(plan, .op = CLSCAN_SUM, .type = CLSCAN_INT64, .kind = CLSCAN_INCLUSIVE, .count = 4101);

    ck_assert_int_eq(clscan_plan_set_tuning(plan, wg0, items0), CL_SUCCESS);
    ck_assert_int_eq(clscan_plan_get_tuning(plan, &wg, &items), CL_SUCCESS);
    ck_assert_uint_eq(wg, wg0);
    ck_assert_uint_eq(items, items0);
    TU_CHECK_SCAN(plan, .op = CLSCAN_SUM, .type = CLSCAN_INT64, .kind = CLSCAN_INCLUSIVE,
                  .count = 3 * wg0 * items0 + 1);
    clscan_plan_release(plan);
}
END_TEST

int main(void)
{
    tu_open("multilevel_test");
    tu_watchdog(540);
    Suite *s = suite_create("multilevel");
    TCase *tc = tcase_create("tile16");
    tcase_add_loop_test(tc, tile_16_three_to_five_levels_match_the_reference, 0, NCOMBOS);
    suite_add_tcase(s, tc);
    tc = tcase_create("tunings");
    tcase_add_test(tc, set_tuning_and_get_tuning_agree);
    tcase_add_test(tc, set_algorithm_and_get_algorithm_agree);
    tcase_add_loop_test(tc, other_small_tunings_match_the_reference, 0, NSUBSET * NTUNINGS);
    suite_add_tcase(s, tc);
    int rc = tu_run(s);
    tu_close();
    return rc;
}
