/* Custom operators (testops.c): 2x2 int matrices, signed permutation matrices in float, argmax
 * with the first index, a struct of the preamble and AFFINE re-expressed, inclusive and
 * exclusive, both multi-tile algorithms, against their sequential references; the custom
 * AFFINE bitwise against the built-in in the working precision; two custom operators never share
 * a program; bad custom operators (NULL or empty strings, a wrong size, a snippet that does not
 * compile).
 *
 * Exit status: 0 all checks passed, 1 some check failed, 77 no device (skip), 99 a setup error. */
#define _POSIX_C_SOURCE 200809L
#include "testops.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const clscan_algorithm algos[2] = {CLSCAN_ALGORITHM_REDUCE_THEN_SCAN, CLSCAN_ALGORITHM_SINGLE_PASS};
#define NLOOP (4 * TO_NCUSTOM) /* operators x kinds x algorithms */

static void combo(int i, to_op *op, clscan_kind *kind, clscan_algorithm *algo)
{
    *op = (to_op){&to_customs[i / 4], CLSCAN_SUM, CLSCAN_INT32};
    *kind = (i / 2) % 2 ? CLSCAN_EXCLUSIVE : CLSCAN_INCLUSIVE;
    *algo = algos[i % 2];
}

enum { GUARD = 5 };

/* Scans count elements (fresh random input, or input when non-NULL) from src_offset to
 * dst_offset (in place: the same buffer and offset), checks the result against the reference,
 * the guards and the source; result (if non-NULL) receives the output. */
static bool check_scan(const to_op *o, clscan_kind kind, clscan_plan *plan, size_t count, size_t src_offset,
                       size_t dst_offset, bool in_place, const void *input, void *result, char *msg,
                       size_t msgsize)
{
    char name[128];
    size_t wg = 0, items = 0;
    clscan_plan_get_tuning(plan, &wg, &items);
    const size_t e = to_size(o), n = count, dst_off = in_place ? src_offset : dst_offset;
    const size_t src_len = src_offset + n + GUARD, dst_len = dst_off + n + GUARD;
    unsigned char *src = malloc(src_len * e), *dst0 = malloc(dst_len * e), *expect = malloc(dst_len * e);
    unsigned char *got = malloc(dst_len * e), *src_back = malloc(src_len * e);
    ck_assert(src && dst0 && expect && got && src_back);
    to_fill(o, src, src_len);
    if (input)
        memcpy(src + src_offset * e, input, n * e);
    tu_fill_bytes(dst0, dst_len * e);
    memcpy(expect, in_place ? src : dst0, dst_len * e);
    to_reference(o, kind, src + src_offset * e, expect + dst_off * e, n);

    cl_mem sbuf = tu_buffer(tu.context, CL_MEM_READ_WRITE, src_len * e, src);
    cl_mem dbuf = in_place ? sbuf : tu_buffer(tu.context, CL_MEM_READ_WRITE, dst_len * e, dst0);
    cl_int err = clscan_enqueue(plan, tu.queue, sbuf, src_offset, dbuf, dst_off, n, 0, NULL, NULL);
    bool ok = err == CL_SUCCESS;
    const char *what = "";
    size_t d = n;
    if (ok) {
        tu_read(tu.queue, dbuf, dst_len * e, got);
        if (!in_place)
            tu_read(tu.queue, sbuf, src_len * e, src_back);
        d = to_diff(o, expect + dst_off * e, got + dst_off * e, n);
        if (d < n)
            what = "a wrong element";
        else if (memcmp(got, expect, dst_off * e) || memcmp(got + (dst_off + n) * e, expect + (dst_off + n) * e, GUARD * e))
            what = "a guard element was written";
        else if (!in_place && memcmp(src, src_back, src_len * e))
            what = "the source changed";
        ok = !*what;
        if (ok && result)
            memcpy(result, got + dst_off * e, n * e);
    }
    if (!ok)
        snprintf(msg, msgsize, "[seed %" PRIu64 "] %s %s, %s, count %zu, src_offset %zu, dst_offset %zu%s, "
                 "tuning %zu x %zu: %s%s%s (first at %zu)", tu_seed, to_name(o, name, sizeof name),
                 tu_kind_name(kind), tu_algo_name(clscan_plan_get_algorithm(plan)), n, src_offset, dst_off,
                 in_place ? " (in place)" : "", wg, items, err != CL_SUCCESS ? clscan_error_string(err) : "",
                 err != CL_SUCCESS ? ": " : "", err != CL_SUCCESS ? clscan_last_error() : what, d);
    clReleaseMemObject(sbuf);
    if (!in_place)
        clReleaseMemObject(dbuf);
    free(src); free(dst0); free(expect); free(got); free(src_back);
    return ok;
}

static void tally(tu_tally *t, const to_op *o, clscan_kind kind, clscan_plan *plan, size_t count,
                  size_t src_offset, size_t dst_offset, bool in_place)
{
    char msg[2048];
    t->run++;
    if (!check_scan(o, kind, plan, count, src_offset, dst_offset, in_place, NULL, NULL, msg, sizeof msg)) {
        if (t->failed++ == 0)
            snprintf(t->first, sizeof t->first, "%s", msg);
        printf("FAIL %s\n", msg);
    }
}

/* The automatic tuning: counts around the tile, several tiles, offsets, in place. */
START_TEST(custom_scan_matches_the_reference)
{
    to_op o;
    clscan_kind kind;
    clscan_algorithm algo;
    combo(_i, &o, &kind, &algo);
    clscan_plan *plan = to_plan(&o, kind, 0, 0, algo, false);
    ck_assert_uint_eq(clscan_element_size(plan), o.custom->def.size);
    const size_t t = tu_tile(plan);
    const size_t counts[] = {1, 100, t - 1, t, t + 1, 3 * t + 7, t + 1 + (size_t)tu_rand_below(6 * t)};
    tu_tally tl = {0};
    for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++)
        tally(&tl, &o, kind, plan, counts[k], 0, 0, false);
    tally(&tl, &o, kind, plan, 2 * t + 3, 7, 2, false);
    tally(&tl, &o, kind, plan, 2 * t + 3, 5, 0, true);
    TU_TALLY_ASSERT(&tl);
}
END_TEST

/* Tile 16: three to five levels, or thousands of tiles looking back. */
START_TEST(custom_scan_over_several_levels_matches_the_reference)
{
    to_op o;
    clscan_kind kind;
    clscan_algorithm algo;
    combo(_i, &o, &kind, &algo);
    clscan_plan *plan = to_plan(&o, kind, 8, 2, algo, false);
    tu_tally tl = {0};
    const size_t counts[] = {257, 4101, 70000};
    for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++)
        tally(&tl, &o, kind, plan, counts[k], 0, 0, false);
    tally(&tl, &o, kind, plan, 4101, 3, 3, true);
    TU_TALLY_ASSERT(&tl);
}
END_TEST

/* The custom AFFINE gives the bits of the built-in in the working precision
 * (CLSCAN_ACCURACY_WORKING: the same expression, each product and sum rounded once) on inputs
 * whose rounding depends on the order of combination.  Same tuning (8 x 2: both have 2 runs per
 * work-item on CPUs, 1 on GPUs).  (The built-in's default, compensated arithmetic is checked
 * against the loop by accuracy_test.) */
START_TEST(custom_affine_is_bitwise_the_builtin)
{
    const clscan_kind kind = _i / 2 ? CLSCAN_EXCLUSIVE : CLSCAN_INCLUSIVE;
    const clscan_algorithm algo = algos[_i % 2];
    const to_op custom = {&to_customs[TO_AFFINE_FLOAT], CLSCAN_SUM, CLSCAN_INT32};
    const to_op builtin = {NULL, CLSCAN_AFFINE, CLSCAN_FLOAT};
    clscan_plan *cp = to_plan(&custom, kind, 8, 2, algo, false);
    clscan_plan *bp = to_plan(&builtin, kind, 8, 2, algo, false);
    ck_assert_msg(clscan_plan_set_accuracy(bp, CLSCAN_ACCURACY_WORKING) == CL_SUCCESS, "%s", clscan_last_error());
    const size_t n = 5000 + (size_t)tu_rand_below(20000);
    float *x = malloc(2 * n * sizeof *x), *yc = malloc(2 * n * sizeof *yc), *yb = malloc(2 * n * sizeof *yb);
    ck_assert(x && yc && yb);
    for (size_t i = 0; i < n; i++) {   /* slopes near 1, offsets in [-1, 1]: rounding everywhere */
        x[2 * i] = 0.75f + (float)tu_rand_below(1u << 20) / (float)(1u << 21);
        x[2 * i + 1] = (float)tu_rand_below(1u << 24) / (float)(1u << 23) - 1.0f;
    }
    cl_mem s = tu_buffer(tu.context, CL_MEM_READ_ONLY, 2 * n * sizeof *x, x);
    cl_mem d = tu_buffer(tu.context, CL_MEM_READ_WRITE, 2 * n * sizeof *x, NULL);
    cl_int err = clscan_enqueue(cp, tu.queue, s, 0, d, 0, n, 0, NULL, NULL);
    ck_assert_msg(err == CL_SUCCESS, "%s", clscan_last_error());
    tu_read(tu.queue, d, 2 * n * sizeof *x, yc);
    err = clscan_enqueue(bp, tu.queue, s, 0, d, 0, n, 0, NULL, NULL);
    ck_assert_msg(err == CL_SUCCESS, "%s", clscan_last_error());
    tu_read(tu.queue, d, 2 * n * sizeof *x, yb);
    size_t i = 0;
    while (i < 2 * n && !memcmp(&yc[i], &yb[i], sizeof *yc))
        i++;
    ck_assert_msg(i == 2 * n, "[seed %" PRIu64 "] %s %s, count %zu: the custom AFFINE differs from the "
                  "built-in at element %zu: %a against %a", tu_seed, tu_kind_name(kind), tu_algo_name(algo),
                  n, i / 2, (double)yc[i], (double)yb[i]);
    clReleaseMemObject(s);
    clReleaseMemObject(d);
    free(x); free(yc); free(yb);
}
END_TEST

/* Two operators that differ only in comb get different programs (the cache keys on the source). */
START_TEST(different_custom_operators_never_share_a_program)
{
    const clscan_custom sum = {"int", 4, "0", "a + b", NULL}, max = {"int", 4, "INT_MIN", "max(a, b)", NULL};
    cl_int err;
    clscan_plan *p1 = clscan_plan_create_custom(tu.context, tu.device, &sum, CLSCAN_INCLUSIVE, &err);
    ck_assert_msg(p1 && err == CL_SUCCESS, "%s", clscan_last_error());
    clscan_plan *p2 = clscan_plan_create_custom(tu.context, tu.device, &max, CLSCAN_INCLUSIVE, &err);
    ck_assert_msg(p2 && err == CL_SUCCESS, "%s", clscan_last_error());
    int x[64], y1[64], y2[64];
    for (int i = 0; i < 64; i++)
        x[i] = (int)tu_rand_below(100) + 1;
    cl_mem s = tu_buffer(tu.context, CL_MEM_READ_WRITE, sizeof x, x);
    cl_mem d = tu_buffer(tu.context, CL_MEM_READ_WRITE, sizeof x, NULL);
    ck_assert_int_eq(clscan_enqueue(p1, tu.queue, s, 0, d, 0, 64, 0, NULL, NULL), CL_SUCCESS);
    tu_read(tu.queue, d, sizeof y1, y1);
    ck_assert_int_eq(clscan_enqueue(p2, tu.queue, s, 0, d, 0, 64, 0, NULL, NULL), CL_SUCCESS);
    tu_read(tu.queue, d, sizeof y2, y2);
    int acc1 = 0, acc2 = x[0];
    for (int i = 0; i < 64; i++) {
        acc1 += x[i];
        acc2 = x[i] > acc2 ? x[i] : acc2;
        ck_assert_msg(y1[i] == acc1 && y2[i] == acc2, "[seed %" PRIu64 "] element %d: sum %d (want %d), "
                      "max %d (want %d)", tu_seed, i, y1[i], acc1, y2[i], acc2);
    }
    clReleaseMemObject(s);
    clReleaseMemObject(d);
    clscan_plan_release(p1);
    clscan_plan_release(p2);
}
END_TEST

/* Creating a plan from a bad operator: NULL, *err set to code, the message mentions `mention`. */
static void expect_refused(const clscan_custom *op, cl_int code, const char *mention)
{
    cl_int err = 12345;
    clscan_plan *p = clscan_plan_create_custom(tu.context, tu.device, op, CLSCAN_INCLUSIVE, &err);
    ck_assert_msg(p == NULL, "a bad custom operator (%s) was accepted", mention);
    ck_assert_msg(err == code, "%s: got %s, want %s: %s", mention, clscan_error_string(err),
                  clscan_error_string(code), clscan_last_error());
    ck_assert_msg(strstr(clscan_last_error(), mention), "the message does not mention \"%s\": %s", mention,
                  clscan_last_error());
}

START_TEST(null_or_empty_strings_and_size_zero_are_refused)
{
    const clscan_custom good = {"int", 4, "0", "a + b", NULL};
    clscan_custom c;
    expect_refused(NULL, CLSCAN_INVALID_CUSTOM_OPERATOR, "op is NULL");
    c = good; c.type = NULL;
    expect_refused(&c, CLSCAN_INVALID_CUSTOM_OPERATOR, "op->type is NULL");
    c = good; c.type = "";
    expect_refused(&c, CLSCAN_INVALID_CUSTOM_OPERATOR, "op->type is an empty string");
    c = good; c.neutral = NULL;
    expect_refused(&c, CLSCAN_INVALID_CUSTOM_OPERATOR, "op->neutral is NULL");
    c = good; c.neutral = "";
    expect_refused(&c, CLSCAN_INVALID_CUSTOM_OPERATOR, "op->neutral is an empty string");
    c = good; c.comb = NULL;
    expect_refused(&c, CLSCAN_INVALID_CUSTOM_OPERATOR, "op->comb is NULL");
    c = good; c.comb = "";
    expect_refused(&c, CLSCAN_INVALID_CUSTOM_OPERATOR, "op->comb is an empty string");
    c = good; c.size = 0;
    expect_refused(&c, CLSCAN_INVALID_CUSTOM_OPERATOR, "op->size is 0");
    cl_int err = 12345;
    ck_assert_ptr_null(clscan_plan_create_custom(tu.context, tu.device, &good, (clscan_kind)7, &err));
    ck_assert_int_eq(err, CLSCAN_INVALID_KIND);
    ck_assert_str_eq(clscan_error_string(CLSCAN_INVALID_CUSTOM_OPERATOR), "CLSCAN_INVALID_CUSTOM_OPERATOR");
}
END_TEST

START_TEST(a_size_that_is_not_sizeof_type_is_refused)
{
    /* float3 takes 16 bytes in OpenCL C; a struct of three floats 12. */
    const clscan_custom f3 = {"float3", 12, "(float3)(0.0f)", "a + b", NULL};
    expect_refused(&f3, CLSCAN_ELEMENT_SIZE_MISMATCH, "sizeof(float3) is not 12");
    const clscan_custom st = {"struct s3", 16, "(struct s3){0, 0, 0}", "a", "struct s3 { int x, y, z; };"};
    expect_refused(&st, CLSCAN_ELEMENT_SIZE_MISMATCH, "sizeof(struct s3) is not 16");
}
END_TEST

START_TEST(a_snippet_that_does_not_compile_gives_the_compilers_log)
{
    const clscan_custom bad = {"int", 4, "0", "a + clscan_no_such_function(b)", NULL};
    expect_refused(&bad, CL_BUILD_PROGRAM_FAILURE, "clscan_no_such_function");
    const clscan_custom bad_preamble = {"int", 4, "0", "a + b", "this is not OpenCL C;"};
    expect_refused(&bad_preamble, CL_BUILD_PROGRAM_FAILURE, "compiler's log");
}
END_TEST

int main(void)
{
    tu_open("custom_test");
    tu_watchdog(600);
    for (int i = 0; i < NLOOP; i++) {
        to_op o;
        clscan_kind kind;
        clscan_algorithm algo;
        combo(i, &o, &kind, &algo);
        to_plan(&o, kind, 0, 0, algo, true);
        to_plan(&o, kind, 8, 2, algo, true);
    }
    Suite *s = suite_create("custom");
    TCase *tc = tcase_create("operators");
    tcase_set_timeout(tc, 0);
    tcase_add_loop_test(tc, custom_scan_matches_the_reference, 0, NLOOP);
    tcase_add_loop_test(tc, custom_scan_over_several_levels_matches_the_reference, 0, NLOOP);
    tcase_add_loop_test(tc, custom_affine_is_bitwise_the_builtin, 0, 4);
    tcase_add_test(tc, different_custom_operators_never_share_a_program);
    suite_add_tcase(s, tc);
    tc = tcase_create("bad operators");
    tcase_set_timeout(tc, 0);
    tcase_add_test(tc, null_or_empty_strings_and_size_zero_are_refused);
    tcase_add_test(tc, a_size_that_is_not_sizeof_type_is_refused);
    tcase_add_test(tc, a_snippet_that_does_not_compile_gives_the_compilers_log);
    suite_add_tcase(s, tc);
    int rc = tu_run(s);
    to_close();
    tu_close();
    return rc;
}
