/* The accuracy of AFFINE on FLOAT and DOUBLE (clscan_plan_set_accuracy): with a constant slope
 * over thousands of tiles of 16 elements, where every tile's product of slopes has the same
 * rounding error and the working precision's carries drift with the number of tiles, the
 * recurrence of the automatic accuracy (on CPUs; elsewhere it has the working bits) and the
 * compensated scan of pairs stay within 4 times the error of the sequential loop in the same
 * precision (products and y, against a compensated long double reference); the automatic
 * recurrence has the bits of the compensated (on CPUs) or working pairs' scan; and
 * where no product is rounded (slopes +-1, and powers of two up to an overflow) the compensated
 * scan has the working precision's bits.  Both multi-tile algorithms.
 *
 * Exit status: 0 all checks passed, 1 a check failed, 77 no device, 99 a setup error. */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 100000      /* 6250 tiles of 16 */
#define BOUND 4.0L    /* times the loop's error */

static const clscan_accuracy accuracies[3] = {CLSCAN_ACCURACY_AUTO, CLSCAN_ACCURACY_WORKING,
                                              CLSCAN_ACCURACY_COMPENSATED};
static const clscan_algorithm algos[2] = {CLSCAN_ALGORITHM_REDUCE_THEN_SCAN, CLSCAN_ALGORITHM_SINGLE_PASS};
static clscan_plan *plans[2][2][3];   /* float/double, algorithm, accuracy */

static clscan_plan *plan_of(int dbl, int algo, clscan_accuracy acc)
{
    return plans[dbl][algo][acc == CLSCAN_ACCURACY_AUTO ? 0 : acc == CLSCAN_ACCURACY_WORKING ? 1 : 2];
}

static long double get(int dbl, const void *p, size_t i)
{
    return dbl ? (long double)((const double *)p)[i] : (long double)((const float *)p)[i];
}

static void put(int dbl, void *p, size_t i, double v)
{
    if (dbl)
        ((double *)p)[i] = v;
    else
        ((float *)p)[i] = (float)v;
}

/* The products and y of the recurrence to about long double's roundoff: the compensated product
 * and the compensated Horner scheme (TwoProduct by fmal, TwoSum). */
static void reference(int dbl, const void *a, const void *b, size_t n, long double *ra, long double *ry)
{
    long double p = 1, pc = 0, y = 0, yc = 0;
    for (size_t i = 0; i < n; i++) {
        const long double ai = get(dbl, a, i), bi = get(dbl, b, i);
        const long double q = p * ai;
        pc = pc * ai + fmal(p, ai, -q);
        p = q;
        ra[i] = p + pc;
        const long double t = y * ai, te = fmal(y, ai, -t), s = t + bi, z = s - t;
        yc = yc * ai + (te + ((t - (s - z)) + (bi - z)));
        y = s;
        ry[i] = y + yc;
    }
}

/* The largest relative error of n values at got (every stride-th, from the first) against ref. */
static long double max_error(int dbl, const void *got, size_t stride, const long double *ref, size_t n)
{
    long double m = 0;
    for (size_t i = 0; i < n; i++) {
        const long double e = fabsl(get(dbl, got, i * stride) - ref[i]) / fabsl(ref[i]);
        m = isnan(e) ? INFINITY : e > m ? e : m;
    }
    return m;
}

/* The sequential loop in the element type, each product and sum rounded on its own: pairs (A, y). */
static void loop(int dbl, const void *a, const void *b, size_t n, void *out)
{
    if (dbl) {
        double p = 1, y = 0;
        for (size_t i = 0; i < n; i++) {
            const double ai = ((const double *)a)[i];
            volatile double t = ai * y;
            p = ai * p;
            y = t + ((const double *)b)[i];
            ((double *)out)[2 * i] = p;
            ((double *)out)[2 * i + 1] = y;
        }
    } else {
        float p = 1, y = 0;
        for (size_t i = 0; i < n; i++) {
            const float ai = ((const float *)a)[i];
            volatile float t = ai * y;
            p = ai * p;
            y = t + ((const float *)b)[i];
            ((float *)out)[2 * i] = p;
            ((float *)out)[2 * i + 1] = y;
        }
    }
}

/* The pairs' scan of plan (n pairs) into out. */
static void scan_pairs(clscan_plan *plan, const void *pairs, size_t n, size_t s, void *out)
{
    cl_mem src = tu_buffer(tu.context, CL_MEM_READ_ONLY, 2 * n * s, pairs);
    cl_mem dst = tu_buffer(tu.context, CL_MEM_READ_WRITE, 2 * n * s, NULL);
    ck_assert_msg(clscan_enqueue(plan, tu.queue, src, 0, dst, 0, n, 0, NULL, NULL) == CL_SUCCESS, "%s",
                  clscan_last_error());
    tu_read(tu.queue, dst, 2 * n * s, out);
    clReleaseMemObject(src);
    clReleaseMemObject(dst);
}

/* The recurrence of plan with the constant *a_const into y. */
static void recurrence(clscan_plan *plan, const void *a_const, const void *b, size_t n, size_t s, void *y)
{
    cl_mem bb = tu_buffer(tu.context, CL_MEM_READ_ONLY, n * s, b);
    cl_mem yb = tu_buffer(tu.context, CL_MEM_READ_WRITE, n * s, NULL);
    ck_assert_msg(clscan_enqueue_recurrence(plan, tu.queue, NULL, 0, a_const, bb, 0, yb, 0, n, NULL, 0, NULL, NULL) ==
                  CL_SUCCESS, "%s", clscan_last_error());
    tu_read(tu.queue, yb, n * s, y);
    clReleaseMemObject(bb);
    clReleaseMemObject(yb);
}

/* a = 0.99999 (rounded to the type) and b uniform in [0, 1): every term positive, so the relative
 * error is the error over the sum of the terms' magnitudes. */
START_TEST(constant_slope_stays_within_four_times_the_loop)
{
    const int dbl = _i / 2, al = _i % 2;
    const size_t n = N, s = dbl ? 8 : 4;
    unsigned char *a = malloc(n * s), *b = malloc(n * s), *pairs = malloc(2 * n * s), *out = malloc(2 * n * s);
    unsigned char *y_auto = malloc(n * s);
    long double *ra = malloc(n * sizeof *ra), *ry = malloc(n * sizeof *ry);
    ck_assert(a && b && pairs && out && y_auto && ra && ry);
    for (size_t i = 0; i < n; i++) {
        put(dbl, a, i, 0.99999);
        put(dbl, b, i, (double)(tu_rand() >> 11) / 9007199254740992.0);
        memcpy(pairs + 2 * i * s, a + i * s, s);
        memcpy(pairs + (2 * i + 1) * s, b + i * s, s);
    }
    reference(dbl, a, b, n, ra, ry);
    loop(dbl, a, b, n, out);
    const long double loop_a = max_error(dbl, out, 2, ra, n), loop_y = max_error(dbl, out + s, 2, ry, n);
    char what[128];
    snprintf(what, sizeof what, "[seed %llu] %s, %s, tiles of 16, a = 0.99999, %d values",
             (unsigned long long)tu_seed, dbl ? "double" : "float", tu_algo_name(algos[al]), N);

    /* The automatic accuracy compensates recurrences on CPUs only (elsewhere: the working bits). */
    cl_device_type type = 0;
    ck_assert(clGetDeviceInfo(tu.device, CL_DEVICE_TYPE, sizeof type, &type, NULL) == CL_SUCCESS);
    const bool auto_compensates = (type & CL_DEVICE_TYPE_CPU) != 0;
    recurrence(plan_of(dbl, al, CLSCAN_ACCURACY_AUTO), a, b, n, s, y_auto);
    const long double rec_y = max_error(dbl, y_auto, 1, ry, n);
    ck_assert_msg(!auto_compensates || rec_y <= BOUND * loop_y, "%s: the recurrence's y has relative error %.3Le, "
                  "the loop's %.3Le", what, rec_y, loop_y);
    if (!auto_compensates) {
        scan_pairs(plan_of(dbl, al, CLSCAN_ACCURACY_WORKING), pairs, n, s, out);
        for (size_t i = 0; i < n; i++)
            ck_assert_msg(!memcmp(y_auto + i * s, out + (2 * i + 1) * s, s), "%s: the automatic recurrence differs "
                          "from the working scan of pairs at y[%zu]", what, i);
    }

    scan_pairs(plan_of(dbl, al, CLSCAN_ACCURACY_COMPENSATED), pairs, n, s, out);
    const long double scan_a = max_error(dbl, out, 2, ra, n), scan_y = max_error(dbl, out + s, 2, ry, n);
    ck_assert_msg(scan_a <= BOUND * loop_a, "%s: the compensated scan's products have relative error %.3Le, the "
                  "loop's %.3Le", what, scan_a, loop_a);
    ck_assert_msg(scan_y <= BOUND * loop_y, "%s: the compensated scan's y has relative error %.3Le, the loop's %.3Le",
                  what, scan_y, loop_y);
    for (size_t i = 0; i < n && auto_compensates; i++)
        ck_assert_msg(!memcmp(y_auto + i * s, out + (2 * i + 1) * s, s), "%s: the automatic recurrence differs from "
                      "the compensated scan of pairs at y[%zu]", what, i);
    free(a), free(b), free(pairs), free(out), free(y_auto), free(ra), free(ry);
}
END_TEST

/* Exact products: slopes +-1 with small integer offsets (every result exact), then slopes 2 with
 * offsets 1, whose products overflow to inf after 2^127 (float) or 2^1023 (double) and whose y
 * rounds: the compensated scan gives the working precision's bits, infinities included. */
START_TEST(exact_products_give_the_working_bits)
{
    const int dbl = _i / 2, al = _i % 2;
    const size_t s = dbl ? 8 : 4;
    for (int kind = 0; kind < 2; kind++) {
        const size_t n = kind == 0 ? 5000 : dbl ? 1100 : 300;
        unsigned char *pairs = malloc(2 * n * s), *work = malloc(2 * n * s), *comp = malloc(2 * n * s);
        ck_assert(pairs && work && comp);
        for (size_t i = 0; i < n; i++) {
            put(dbl, pairs, 2 * i, kind ? 2.0 : tu_rand() & 1 ? -1.0 : 1.0);
            put(dbl, pairs, 2 * i + 1, kind ? 1.0 : (double)tu_rand_below(17) - 8.0);
        }
        scan_pairs(plan_of(dbl, al, CLSCAN_ACCURACY_WORKING), pairs, n, s, work);
        scan_pairs(plan_of(dbl, al, CLSCAN_ACCURACY_COMPENSATED), pairs, n, s, comp);
        if (kind)
            ck_assert_msg(isinf(get(dbl, work, 2 * (n - 1))), "the products of 2 did not overflow");
        for (size_t i = 0; i < 2 * n; i++)
            ck_assert_msg(!memcmp(work + i * s, comp + i * s, s), "[seed %llu] %s, %s, %s: element %zu's %s is %La "
                          "compensated, %La in the working precision", (unsigned long long)tu_seed,
                          dbl ? "double" : "float", tu_algo_name(algos[al]), kind ? "slopes 2" : "slopes +-1", i / 2,
                          i % 2 ? "y" : "product", get(dbl, comp, i), get(dbl, work, i));
        free(pairs), free(work), free(comp);
    }
}
END_TEST

int main(void)
{
    tu_open("accuracy_test");
    tu_watchdog(300);
    for (int d = 0; d < 2; d++)
        for (int al = 0; al < 2; al++)
            for (int k = 0; k < 3; k++) {
                cl_int err = 12345;
                clscan_plan *p = clscan_plan_create(tu.context, tu.device, CLSCAN_AFFINE,
                                                    d ? CLSCAN_DOUBLE : CLSCAN_FLOAT, CLSCAN_INCLUSIVE, &err);
                if (p && err == CL_SUCCESS)
                    err = clscan_plan_set_tuning(p, 8, 2);
                if (p && err == CL_SUCCESS)
                    err = clscan_plan_set_algorithm(p, algos[al]);
                if (p && err == CL_SUCCESS && accuracies[k] != CLSCAN_ACCURACY_AUTO)
                    err = clscan_plan_set_accuracy(p, accuracies[k]);
                if (!p || err != CL_SUCCESS || clscan_plan_get_accuracy(p) != accuracies[k]) {
                    fprintf(stderr, "setup error: an AFFINE %s plan of accuracy %d: %s: %s\n",
                            d ? "double" : "float", (int)accuracies[k], clscan_error_string(err),
                            clscan_last_error());
                    return 99;
                }
                plans[d][al][k] = p;
            }
    Suite *s = suite_create("accuracy");
    TCase *tc = tcase_create("affine");
    tcase_add_loop_test(tc, constant_slope_stays_within_four_times_the_loop, 0, 4);
    tcase_add_loop_test(tc, exact_products_give_the_working_bits, 0, 4);
    suite_add_tcase(s, tc);
    int rc = tu_run(s);
    for (int d = 0; d < 2; d++)
        for (int al = 0; al < 2; al++)
            for (int k = 0; k < 3; k++)
                clscan_plan_release(plans[d][al][k]);
    tu_close();
    return rc;
}
