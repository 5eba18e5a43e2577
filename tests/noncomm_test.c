/* The non-commutative operators, AFFINE and LAST_NONZERO, on several types, inclusive and
 * exclusive, over several blocks and levels: swapping the arguments of any combination changes
 * their results.  Both multi-tile algorithms (reduce-then-scan, single pass) are checked.
 * tests/swapped_comb.sh runs this program with every comb(a, b) computing comb(b, a) and
 * expects it to fail.
 *
 * Exit status: 0 all checks passed, 1 some check failed (a wrong value), 77 no device (skip),
 * 99 a setup error (a plan could not be created). */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>

static const struct {
    clscan_op op;
    clscan_type type;
} combos[] = {
    {CLSCAN_AFFINE, CLSCAN_INT32},        {CLSCAN_AFFINE, CLSCAN_UINT64},
    {CLSCAN_AFFINE, CLSCAN_FLOAT},        {CLSCAN_AFFINE, CLSCAN_DOUBLE},
    {CLSCAN_LAST_NONZERO, CLSCAN_UINT32}, {CLSCAN_LAST_NONZERO, CLSCAN_INT64},
    {CLSCAN_LAST_NONZERO, CLSCAN_FLOAT},  {CLSCAN_LAST_NONZERO, CLSCAN_DOUBLE},
};
#define NCOMBOS (int)(sizeof combos / sizeof combos[0])

static const clscan_algorithm algos[2] = {CLSCAN_ALGORITHM_REDUCE_THEN_SCAN, CLSCAN_ALGORITHM_SINGLE_PASS};
#define NLOOP (4 * NCOMBOS) /* combos x kinds x algorithms */

static void combo(int i, clscan_op *op, clscan_type *type, clscan_kind *kind, clscan_algorithm *algo)
{
    *op = combos[i / 4].op;
    *type = combos[i / 4].type;
    *kind = (i / 2) % 2 ? CLSCAN_EXCLUSIVE : CLSCAN_INCLUSIVE;
    *algo = algos[i % 2];
}

/* The automatic tuning: one small count, then two to six tiles. */
START_TEST(noncommutative_scan_over_several_tiles_matches_the_reference)
{
    clscan_op op;
    clscan_type type;
    clscan_kind kind;
    clscan_algorithm algo;
    combo(_i, &op, &type, &kind, &algo);
    clscan_plan *plan = tu_plan_algo(op, type, kind, 0, 0, algo);
    size_t t = tu_tile(plan);
    size_t counts[] = {100, 2 * t + 5, 3 * t + 1, t + 1 + (size_t)tu_rand_below(5 * t)};
    tu_tally tally = {0};
    for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++)
        tu_tally_check(&tally, plan, &(tu_case){.op = op, .type = type, .kind = kind, .count = counts[k]});
    tu_tally_check(&tally, plan, &(tu_case){.op = op, .type = type, .kind = kind, .count = 3 * t + 1,
                                            .src_offset = 9, .layout = TU_IN_PLACE});
    TU_TALLY_ASSERT(&tally);
}
END_TEST

/* Tile 16: three to five levels, or thousands of tiles looking back. */
START_TEST(noncommutative_scan_over_several_levels_matches_the_reference)
{
    clscan_op op;
    clscan_type type;
    clscan_kind kind;
    clscan_algorithm algo;
    combo(_i, &op, &type, &kind, &algo);
    clscan_plan *plan = tu_plan_algo(op, type, kind, 8, 2, algo);
    size_t counts[] = {257, 4101, 70000};
    tu_tally tally = {0};
    for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++)
        tu_tally_check(&tally, plan, &(tu_case){.op = op, .type = type, .kind = kind, .count = counts[k]});
    TU_TALLY_ASSERT(&tally);
}
END_TEST

int main(void)
{
    const char *opts = getenv("CLSCAN_DEVELOP");
    tu_open("noncomm_test");
    tu_watchdog(540);
    if (opts && *opts)
        printf("noncomm_test: CLSCAN_DEVELOP=%s\n", opts);
    /* Setup first, apart from the checks: a plan that cannot be created is a setup error (99),
     * never a check failure. */
    for (int i = 0; i < NLOOP; i++) {
        clscan_op op;
        clscan_type type;
        clscan_kind kind;
        clscan_algorithm algo;
        combo(i, &op, &type, &kind, &algo);
        tu_prepare_plan(op, type, kind, 0, 0, algo);
        tu_prepare_plan(op, type, kind, 8, 2, algo);
    }
    Suite *s = suite_create("noncommutative");
    TCase *tc = tcase_create("tiles");
    tcase_add_loop_test(tc, noncommutative_scan_over_several_tiles_matches_the_reference, 0, NLOOP);
    suite_add_tcase(s, tc);
    tc = tcase_create("levels");
    tcase_add_loop_test(tc, noncommutative_scan_over_several_levels_matches_the_reference, 0, NLOOP);
    suite_add_tcase(s, tc);
    int rc = tu_run(s);
    tu_close();
    return rc;
}
