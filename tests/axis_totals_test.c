/* clscan_enqueue_axis_totals: the total of every row and of every column of pitched 2-D arrays,
 * against the sequential fold of each line gathered on the host (comb(earlier, later) from the
 * neutral).  Exact operators only (integer SUM, the integer AFFINE and LAST_NONZERO on floats,
 * not commutative; custom 2x2 integer matrices, not commutative), so every total is compared
 * bitwise, and so is every element of dst outside the totals (guards: untouched) and all of src
 * (gaps included: untouched).  Float SUM (order-dependent rounding): two calls give the same bits.
 * Shapes: 0xN and Nx0 (the lines without elements get the neutral), 1x1, 1xN, Nx1, 3x5 with pitch
 * 8, 1000x37 and 37x1000 (columns and rows cut into blocks), 2^16x3 (tall), 3x2^17 (wide),
 * 70x33000 (more columns than the kernels cut lines for), random offsets and pitches.  Then
 * empty arrays (the event completes) and bad input (the documented status, a message, buffers
 * untouched).
 *
 * Exit status: 0 all checks passed, 1 some check failed, 77 no device (skip), 99 a setup error. */
#define _POSIX_C_SOURCE 200809L
#include "testops.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One axis program each (the kind of a plan does not change its totals: AFFINE's is exclusive). */
static const struct {
    to_op op;
    clscan_kind kind;
} ops[] = {
    {{NULL, CLSCAN_SUM, CLSCAN_INT32}, CLSCAN_INCLUSIVE},
    {{NULL, CLSCAN_AFFINE, CLSCAN_INT32}, CLSCAN_EXCLUSIVE},
    {{NULL, CLSCAN_LAST_NONZERO, CLSCAN_FLOAT}, CLSCAN_INCLUSIVE},
    {{&to_customs[0], 0, 0}, CLSCAN_INCLUSIVE},
};
#define NOPS (int)(sizeof ops / sizeof ops[0])

typedef struct shape {
    size_t rows, cols;
    size_t pitch;   /* 0: cols plus a random 0 ... 3 */
} shape;

static const shape shapes[] = {
    {0, 5, 0},    {5, 0, 0},    {1, 1, 0},        {1, 1000, 0},      {1000, 1, 0},       {3, 5, 8},
    {1000, 37, 0}, {37, 1000, 0}, {1u << 16, 3, 0}, {3, 1u << 17, 0}, {70, 33000, 33000},
};
#define NSHAPES (int)(sizeof shapes / sizeof shapes[0])

enum { GUARD = 7 };

/* The fold of line l: n elements from first, step apart. */
static void fold_line(const to_op *o, const unsigned char *a, size_t first, size_t step, size_t n, unsigned char *out)
{
    const size_t e = to_size(o);
    unsigned char acc[64], t[64];
    to_neutral(o, acc);
    for (size_t k = 0; k < n; ++k) {
        to_comb(o, acc, a + (first + k * step) * e, t);
        memcpy(acc, t, e);
    }
    memcpy(out, acc, e);
}

/* One call on a random array of the shape; true when right, else the case in msg. */
static bool check_case(const to_op *o, clscan_kind kind, clscan_axis axis, const shape *sh, char *msg, size_t msgsize)
{
    clscan_plan *plan = to_plan(o, kind, 0, 0, CLSCAN_ALGORITHM_AUTO, false);
    const size_t e = to_size(o), rows = sh->rows, cols = sh->cols;
    const int rows_axis = axis == CLSCAN_ALONG_ROWS;
    const size_t nlines = rows_axis ? rows : cols, n = rows_axis ? cols : rows;
    const size_t sp = sh->pitch ? sh->pitch : cols + (size_t)tu_rand_below(4);
    const size_t ext = rows && cols ? (rows - 1) * sp + cols : 0;
    const size_t src_off = GUARD + (size_t)tu_rand_below(3), dst_off = GUARD + (size_t)tu_rand_below(3);
    const size_t ns = src_off + ext + GUARD, nd = dst_off + nlines + GUARD;
    unsigned char *a = malloc(ns * e), *b = malloc(nd * e), *exp = malloc(nd * e),
                  *got = malloc((ns > nd ? ns : nd) * e);
    ck_assert(a && b && exp && got);
    to_fill(o, a, ns);   /* the gaps and guards too */
    to_fill(o, b, nd);
    memcpy(exp, b, nd * e);
    for (size_t l = 0; l < nlines; ++l)
        fold_line(o, a, src_off + l * (rows_axis ? sp : 1), rows_axis ? 1 : sp, n, exp + (dst_off + l) * e);

    cl_mem sbuf = tu_buffer(tu.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, ns * e, a);
    cl_mem dbuf = tu_buffer(tu.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, nd * e, b);
    cl_event ev = NULL;
    cl_int err = clscan_enqueue_axis_totals(plan, tu.queue, axis, sbuf, src_off, sp, dbuf, dst_off, rows, cols, 0,
                                            NULL, &ev);
    bool ok = err == CL_SUCCESS;
    char what[512], name[64];
    snprintf(what, sizeof what, "%s %s totals along %s, %zu x %zu, pitch %zu, offsets %zu/%zu, seed %" PRIu64,
             to_name(o, name, sizeof name), tu_kind_name(kind), rows_axis ? "rows" : "columns", rows, cols, sp,
             src_off, dst_off, tu_seed);
    if (!ok)
        snprintf(msg, msgsize, "%s: %s (%s)", what, clscan_error_string(err), clscan_last_error());
    if (ok) {
        ck_assert_int_eq(clWaitForEvents(1, &ev), CL_SUCCESS);
        clReleaseEvent(ev);
        tu_read(tu.queue, dbuf, nd * e, got);
        const size_t i = to_diff(o, exp, got, nd);
        if (i < nd) {
            ok = false;
            snprintf(msg, msgsize, "%s: element %zu of dst (%s) differs", what, i,
                     i < dst_off || i >= dst_off + nlines ? "a guard" : "a total");
        }
    }
    if (ok) {
        tu_read(tu.queue, sbuf, ns * e, got);
        if (memcmp(got, a, ns * e) != 0) {
            ok = false;
            snprintf(msg, msgsize, "%s: src was written", what);
        }
    }
    clReleaseMemObject(dbuf);
    clReleaseMemObject(sbuf);
    free(a);
    free(b);
    free(exp);
    free(got);
    return ok;
}

START_TEST(totals_match_the_reference)
{
    tu_tally t = {0};
    for (int s = 0; s < NSHAPES; ++s)
        for (int axis = 0; axis < 2; ++axis) {
            char msg[1024];
            t.run++;
            if (!check_case(&ops[_i].op, ops[_i].kind, (clscan_axis)axis, &shapes[s], msg, sizeof msg)) {
                if (t.failed++ == 0)
                    snprintf(t.first, sizeof t.first, "%s", msg);
                fprintf(stderr, "axis_totals_test: %s\n", msg);
            }
        }
    TU_TALLY_ASSERT(&t);
}
END_TEST

/* Float SUM rounds by the order of its combinations: two calls on the same input, the same bits
 * (the blocks depend on the shape alone). */
START_TEST(float_sums_are_reproducible)
{
    clscan_plan *plan = tu_plan(CLSCAN_SUM, CLSCAN_FLOAT, CLSCAN_INCLUSIVE);
    const size_t rows = 300, cols = 2000, n = rows * cols;
    float *x = malloc(n * sizeof *x), *t1 = malloc(cols * sizeof *t1), *t2 = malloc(cols * sizeof *t2);
    ck_assert(x && t1 && t2);
    tu_fill_float_fractions(x, n);
    cl_mem src = tu_buffer(tu.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof *x, x);
    cl_mem dst = tu_buffer(tu.context, CL_MEM_READ_WRITE, cols * sizeof *x, NULL);
    for (int axis = 0; axis < 2; ++axis) {
        const size_t nlines = axis ? cols : rows;
        for (int run = 0; run < 2; ++run) {
            ck_assert_int_eq(clscan_enqueue_axis_totals(plan, tu.queue, (clscan_axis)axis, src, 0, cols, dst, 0, rows,
                                                        cols, 0, NULL, NULL),
                             CL_SUCCESS);
            tu_read(tu.queue, dst, nlines * sizeof *x, run ? t2 : t1);
        }
        ck_assert_msg(memcmp(t1, t2, nlines * sizeof *x) == 0, "float SUM along %s: two calls differ (seed %" PRIu64 ")",
                      axis ? "columns" : "rows", tu_seed);
        /* and near the double sum (a wrong element would be far off) */
        for (size_t l = 0; l < nlines; ++l) {
            double s = 0, mag = 0;
            for (size_t k = 0; k < (axis ? rows : cols); ++k) {
                const float v = axis ? x[k * cols + l] : x[l * cols + k];
                s += v;
                mag += v < 0 ? -v : v;
            }
            ck_assert_msg(t1[l] - s <= 1e-4 * mag + 1e-3 && s - t1[l] <= 1e-4 * mag + 1e-3,
                          "float SUM along %s, line %zu: %g, the double sum %g (seed %" PRIu64 ")",
                          axis ? "columns" : "rows", l, (double)t1[l], s, tu_seed);
        }
    }
    clReleaseMemObject(src);
    clReleaseMemObject(dst);
    free(x);
    free(t1);
    free(t2);
}
END_TEST

/* No lines: nothing written, the event completes after the wait list. */
START_TEST(no_lines_complete_their_event)
{
    clscan_plan *plan = to_plan(&ops[0].op, ops[0].kind, 0, 0, CLSCAN_ALGORITHM_AUTO, false);
    int32_t init[16], got[16];
    tu_fill_bytes(init, sizeof init);
    cl_mem buf = tu_buffer(tu.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof init, init);
    cl_mem dst = tu_buffer(tu.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof init, init);
    /* along rows with no rows, along columns with no columns */
    const size_t shapes0[][3] = {{0, 5, CLSCAN_ALONG_ROWS}, {5, 0, CLSCAN_ALONG_COLUMNS}, {0, 0, CLSCAN_ALONG_ROWS},
                                 {0, 0, CLSCAN_ALONG_COLUMNS}};
    for (int i = 0; i < 4; ++i) {
        cl_int err;
        cl_event user = clCreateUserEvent(tu.context, &err), ev = NULL;
        ck_assert_int_eq(err, CL_SUCCESS);
        err = clscan_enqueue_axis_totals(plan, tu.queue, (clscan_axis)shapes0[i][2], buf, 0, 5, dst, 0,
                                         shapes0[i][0], shapes0[i][1], 1, &user, &ev);
        ck_assert_msg(err == CL_SUCCESS && ev, "%zu x %zu: %s", shapes0[i][0], shapes0[i][1],
                      clscan_error_string(err));
        cl_int st;
        ck_assert_int_eq(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL), CL_SUCCESS);
        ck_assert_msg(st != CL_COMPLETE, "the event completed before its wait list");
        clSetUserEventStatus(user, CL_COMPLETE);
        ck_assert_int_eq(clWaitForEvents(1, &ev), CL_SUCCESS);
        clReleaseEvent(ev);
        clReleaseEvent(user);
    }
    tu_read(tu.queue, buf, sizeof got, got);
    ck_assert_msg(memcmp(got, init, sizeof init) == 0, "an empty array wrote src");
    tu_read(tu.queue, dst, sizeof got, got);
    ck_assert_msg(memcmp(got, init, sizeof init) == 0, "no lines, but dst was written");
    clReleaseMemObject(buf);
    clReleaseMemObject(dst);
}
END_TEST

START_TEST(bad_calls_are_refused_and_touch_nothing)
{
    clscan_plan *plan = to_plan(&ops[0].op, ops[0].kind, 0, 0, CLSCAN_ALGORITHM_AUTO, false);
    enum { N = 64 };
    int32_t init_a[N], init_b[N], got[N];
    tu_fill_bytes(init_a, sizeof init_a);
    tu_fill_bytes(init_b, sizeof init_b);
    cl_mem a = tu_buffer(tu.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof init_a, init_a);
    cl_mem b = tu_buffer(tu.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof init_b, init_b);
    const clscan_axis R = CLSCAN_ALONG_ROWS, C = CLSCAN_ALONG_COLUMNS;
    /* 4 x 5 with pitch 8: elements 0 ... 28 from the offset; 4 row totals or 5 column totals. */
    tu_expect_status(clscan_enqueue_axis_totals(NULL, tu.queue, R, a, 0, 8, b, 0, 4, 5, 0, NULL, NULL),
                     CLSCAN_INVALID_PLAN, "NULL plan");
    tu_expect_status(clscan_enqueue_axis_totals(plan, tu.queue, (clscan_axis)2, a, 0, 8, b, 0, 4, 5, 0, NULL, NULL),
                     CLSCAN_INVALID_AXIS, "axis 2");
    tu_expect_status(clscan_enqueue_axis_totals(plan, tu.queue, R, a, 0, 4, b, 0, 4, 5, 0, NULL, NULL),
                     CLSCAN_INVALID_PITCH, "pitch < cols");
    tu_expect_status(clscan_enqueue_axis_totals(plan, NULL, C, a, 0, 8, b, 0, 4, 5, 0, NULL, NULL),
                     CL_INVALID_COMMAND_QUEUE, "NULL queue");
    tu_expect_status(clscan_enqueue_axis_totals(plan, tu.queue, C, a, 0, 8, b, 0, 4, 5, 1, NULL, NULL),
                     CL_INVALID_EVENT_WAIT_LIST, "1 event, NULL list");
    tu_expect_status(clscan_enqueue_axis_totals(plan, tu.queue, C, NULL, 0, 8, b, 0, 4, 5, 0, NULL, NULL),
                     CL_INVALID_MEM_OBJECT, "NULL src");
    tu_expect_status(clscan_enqueue_axis_totals(plan, tu.queue, R, a, 0, 8, NULL, 0, 4, 5, 0, NULL, NULL),
                     CL_INVALID_MEM_OBJECT, "NULL dst");
    tu_expect_status(clscan_enqueue_axis_totals(plan, tu.queue, R, a, 36, 8, b, 0, 4, 5, 0, NULL, NULL),
                     CLSCAN_RANGE_OUT_OF_BOUNDS, "src's last row past the buffer");
    tu_expect_status(clscan_enqueue_axis_totals(plan, tu.queue, C, a, 0, 8, b, 60, 4, 5, 0, NULL, NULL),
                     CLSCAN_RANGE_OUT_OF_BOUNDS, "5 column totals past dst");
    tu_expect_status(clscan_enqueue_axis_totals(plan, tu.queue, R, a, 0, 8, b, 61, 4, 5, 0, NULL, NULL),
                     CLSCAN_RANGE_OUT_OF_BOUNDS, "4 row totals past dst");
    tu_expect_status(clscan_enqueue_axis_totals(plan, tu.queue, C, a, 0, SIZE_MAX / 2, b, 0, 4, 5, 0, NULL, NULL),
                     CLSCAN_RANGE_OUT_OF_BOUNDS, "rows * pitch overflows");
    tu_expect_status(clscan_enqueue_axis_totals(plan, tu.queue, R, a, 0, 8, a, 28, 4, 5, 0, NULL, NULL),
                     CL_MEM_COPY_OVERLAP, "dst on src's last element");
    tu_expect_status(clscan_enqueue_axis_totals(plan, tu.queue, C, a, 0, 8, a, 5, 4, 5, 0, NULL, NULL),
                     CL_MEM_COPY_OVERLAP, "dst in src's gaps");
    clFinish(tu.queue);
    tu_read(tu.queue, a, sizeof got, got);
    ck_assert_msg(memcmp(got, init_a, sizeof got) == 0, "a refused call wrote a");
    tu_read(tu.queue, b, sizeof got, got);
    ck_assert_msg(memcmp(got, init_b, sizeof got) == 0, "a refused call wrote b");
    /* The same arguments but for the error are accepted. */
    ck_assert_int_eq(clscan_enqueue_axis_totals(plan, tu.queue, C, a, 0, 8, b, 59, 4, 5, 0, NULL, NULL), CL_SUCCESS);
    ck_assert_int_eq(clscan_enqueue_axis_totals(plan, tu.queue, R, a, 0, 8, a, 29, 4, 5, 0, NULL, NULL), CL_SUCCESS);
    clFinish(tu.queue);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
}
END_TEST

int main(void)
{
    tu_open("axis_totals_test");
    tu_watchdog(600);
    for (int i = 0; i < NOPS; ++i)
        to_plan(&ops[i].op, ops[i].kind, 0, 0, CLSCAN_ALGORITHM_AUTO, true);
    Suite *s = suite_create("axis_totals");
    TCase *tc = tcase_create("shapes");
    tcase_set_timeout(tc, 0);
    tcase_add_loop_test(tc, totals_match_the_reference, 0, NOPS);
    tcase_add_test(tc, float_sums_are_reproducible);
    suite_add_tcase(s, tc);
    tc = tcase_create("empty and bad input");
    tcase_set_timeout(tc, 0);
    tcase_add_test(tc, no_lines_complete_their_event);
    tcase_add_test(tc, bad_calls_are_refused_and_touch_nothing);
    suite_add_tcase(s, tc);
    int rc = tu_run(s);
    to_close();
    tu_close();
    return rc;
}
