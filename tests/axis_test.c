/* clscan_enqueue_axis: scans along the rows and along the columns of 2-D arrays with pitches,
 * against the sequential reference of each row or column gathered on the host.  Exact operators
 * only (integer SUM, the integer AFFINE and LAST_NONZERO on floats, not commutative; custom 2x2
 * integer matrices and argmax), so every output is compared bitwise, and so is every element of
 * dst outside the array (guards around it and the gaps between cols and the pitch: untouched).
 * Shapes: 1x1, 1xN, Nx1, 3x5 with pitch 8, 1000x37, 37x1000, 4x2^20, 2^16x3 and a wide short
 * one (more columns than the kernels cut lines into blocks for), both axes, random offsets and
 * pitches, src and dst apart, in the same buffer apart, and in place; src untouched.  Then
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

/* Each (operator, kind) is two program builds (the plain and the axis program). */
static const to_op ops[] = {
    {NULL, CLSCAN_SUM, CLSCAN_INT32},
    {NULL, CLSCAN_AFFINE, CLSCAN_INT32},
    {NULL, CLSCAN_LAST_NONZERO, CLSCAN_FLOAT},
    {&to_customs[0], 0, 0},
    {&to_customs[2], 0, 0},
};
#define NOPS (int)(sizeof ops / sizeof ops[0])
#define NCOMBOS (2 * NOPS) /* operators x kinds */

static const to_op *combo(int i, clscan_kind *kind)
{
    *kind = i % 2 ? CLSCAN_EXCLUSIVE : CLSCAN_INCLUSIVE;
    return &ops[i / 2];
}

typedef struct shape {
    size_t rows, cols;
    size_t pitch;   /* 0: cols plus a random 0 ... 3 (each of src and dst) */
    bool all_ops;   /* every operator, else SUM and the 2x2 matrices (the large shapes) */
} shape;

static const shape shapes[] = {
    {1, 1, 0, true},          {1, 1000, 0, true},    {1000, 1, 0, true},  {3, 5, 8, true},
    {1000, 37, 0, true},      {37, 1000, 0, true},   {4, 1u << 20, 0, false}, {1u << 16, 3, 0, false},
    {70, 33000, 33000, false},
};
#define NSHAPES (int)(sizeof shapes / sizeof shapes[0])

enum { GUARD = 7 };
typedef enum { SEPARATE, SAME_BUFFER, IN_PLACE } layout;
static const char *const layout_names[] = {"separate buffers", "one buffer, apart", "in place"};

/* Gathers line l (n elements from first, step apart) of a into line, and scatters back. */
static void gather(const unsigned char *a, size_t first, size_t step, size_t n, size_t e, unsigned char *line)
{
    for (size_t k = 0; k < n; ++k)
        memcpy(line + k * e, a + (first + k * step) * e, e);
}

static void scatter(unsigned char *a, size_t first, size_t step, size_t n, size_t e, const unsigned char *line)
{
    for (size_t k = 0; k < n; ++k)
        memcpy(a + (first + k * step) * e, line + k * e, e);
}

/* The expected contents of the destination: before, with every line scanned from src. */
static void expected_dst(const to_op *o, clscan_kind kind, clscan_axis axis, const unsigned char *src,
                         size_t src_off, size_t sp, unsigned char *exp, size_t dst_off, size_t dp, size_t rows,
                         size_t cols)
{
    const size_t e = to_size(o), rows_axis = axis == CLSCAN_ALONG_ROWS;
    const size_t nlines = rows_axis ? rows : cols, n = rows_axis ? cols : rows;
    unsigned char *line = malloc(n * e);
    ck_assert(line);
    for (size_t l = 0; l < nlines; ++l) {
        gather(src, src_off + l * (rows_axis ? sp : 1), rows_axis ? 1 : sp, n, e, line);
        to_reference(o, kind, line, line, n);
        scatter(exp, dst_off + l * (rows_axis ? dp : 1), rows_axis ? 1 : dp, n, e, line);
    }
    free(line);
}

/* One scan of a random array of the shape; true when right, else the case in msg. */
static bool check_case(const to_op *o, clscan_kind kind, clscan_axis axis, const shape *sh, layout lay, char *msg,
                       size_t msgsize)
{
    clscan_plan *plan = to_plan(o, kind, 0, 0, CLSCAN_ALGORITHM_AUTO, false);
    const size_t e = to_size(o), rows = sh->rows, cols = sh->cols;
    const size_t sp = sh->pitch ? sh->pitch : cols + (size_t)tu_rand_below(4);
    const size_t dp = lay == IN_PLACE ? sp : sh->pitch ? sh->pitch : cols + (size_t)tu_rand_below(4);
    const size_t ext_s = (rows - 1) * sp + cols, ext_d = (rows - 1) * dp + cols;
    const size_t src_off = GUARD + (size_t)tu_rand_below(3);
    /* One buffer apart: dst after src's array. */
    const size_t dst_off = lay == IN_PLACE ? src_off : lay == SAME_BUFFER ? src_off + ext_s + GUARD
                                                                          : GUARD + (size_t)tu_rand_below(3);
    const size_t ns = src_off + ext_s + GUARD;
    const size_t nd = lay == SEPARATE ? dst_off + ext_d + GUARD : lay == SAME_BUFFER ? dst_off + ext_d + GUARD : ns;
    unsigned char *a = malloc(ns * e), *b = malloc(nd * e), *exp = malloc(nd * e), *got = malloc((ns > nd ? ns : nd) * e);
    ck_assert(a && b && exp && got);
    to_fill(o, a, ns);   /* the gaps and guards too: random elements */
    if (lay == SEPARATE)
        to_fill(o, b, nd);
    else
        memcpy(b, a, ns * e);
    if (lay == SAME_BUFFER)
        to_fill(o, b + ns * e, nd - ns);
    memcpy(exp, b, nd * e);
    expected_dst(o, kind, axis, lay == SEPARATE ? a : b, src_off, sp, exp, dst_off, dp, rows, cols);

    cl_mem sbuf = tu_buffer(tu.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, (lay == SEPARATE ? ns : nd) * e,
                            lay == SEPARATE ? a : b);
    cl_mem dbuf = lay == SEPARATE ? tu_buffer(tu.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, nd * e, b) : sbuf;
    cl_event ev = NULL;
    cl_int err = clscan_enqueue_axis(plan, tu.queue, axis, sbuf, src_off, sp, dbuf, dst_off, dp, rows, cols, 0, NULL,
                                     &ev);
    bool ok = err == CL_SUCCESS;
    char what[512], name[64];
    snprintf(what, sizeof what, "%s %s along %s, %zu x %zu, pitches %zu/%zu, offsets %zu/%zu, %s, seed %" PRIu64,
             to_name(o, name, sizeof name), tu_kind_name(kind), axis == CLSCAN_ALONG_ROWS ? "rows" : "columns", rows,
             cols, sp, dp, src_off, dst_off, layout_names[lay], tu_seed);
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
                     i < dst_off || i >= dst_off + ext_d ? "a guard" : (i - dst_off) % dp >= cols ? "a gap" : "output");
        }
    }
    if (ok && lay == SEPARATE) {
        tu_read(tu.queue, sbuf, ns * e, got);
        if (memcmp(got, a, ns * e) != 0) {
            ok = false;
            snprintf(msg, msgsize, "%s: src was written", what);
        }
    }
    if (dbuf != sbuf)
        clReleaseMemObject(dbuf);
    clReleaseMemObject(sbuf);
    free(a);
    free(b);
    free(exp);
    free(got);
    return ok;
}

START_TEST(shapes_match_the_reference)
{
    clscan_kind kind;
    const to_op *o = combo(_i, &kind);
    tu_tally t = {0};
    for (int s = 0; s < NSHAPES; ++s) {
        if (!shapes[s].all_ops && _i / 2 != 0 && _i / 2 != 3)
            continue;
        for (int axis = 0; axis < 2; ++axis)
            for (int lay = 0; lay < 3; ++lay) {
                /* The large shapes once per layout and axis, each layout with one of the kinds. */
                if (!shapes[s].all_ops && lay == SAME_BUFFER && kind == CLSCAN_EXCLUSIVE)
                    continue;
                char msg[1024];
                t.run++;
                if (!check_case(o, kind, (clscan_axis)axis, &shapes[s], (layout)lay, msg, sizeof msg)) {
                    if (t.failed++ == 0)
                        snprintf(t.first, sizeof t.first, "%s", msg);
                    fprintf(stderr, "axis_test: %s\n", msg);
                }
            }
    }
    TU_TALLY_ASSERT(&t);
}
END_TEST

/* rows or cols 0: nothing written, the event completes after the wait list. */
START_TEST(empty_arrays_complete_their_event)
{
    clscan_plan *plan = to_plan(&ops[0], CLSCAN_INCLUSIVE, 0, 0, CLSCAN_ALGORITHM_AUTO, false);
    int32_t init[16], got[16];
    tu_fill_bytes(init, sizeof init);
    cl_mem buf = tu_buffer(tu.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof init, init);
    const size_t shapes0[][2] = {{0, 5}, {5, 0}, {0, 0}};
    for (int i = 0; i < 3; ++i)
        for (int axis = 0; axis < 2; ++axis) {
            cl_int err;
            cl_event user = clCreateUserEvent(tu.context, &err), ev = NULL;
            ck_assert_int_eq(err, CL_SUCCESS);
            err = clscan_enqueue_axis(plan, tu.queue, (clscan_axis)axis, buf, 0, 5, buf, 0, 5, shapes0[i][0],
                                      shapes0[i][1], 1, &user, &ev);
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
    ck_assert_msg(memcmp(got, init, sizeof init) == 0, "an empty array wrote the buffer");
    clReleaseMemObject(buf);
}
END_TEST

START_TEST(bad_calls_are_refused_and_touch_nothing)
{
    clscan_plan *plan = to_plan(&ops[0], CLSCAN_INCLUSIVE, 0, 0, CLSCAN_ALGORITHM_AUTO, false);
    enum { N = 64 };
    int32_t init_a[N], init_b[N], got[N];
    tu_fill_bytes(init_a, sizeof init_a);
    tu_fill_bytes(init_b, sizeof init_b);
    cl_mem a = tu_buffer(tu.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof init_a, init_a);
    cl_mem b = tu_buffer(tu.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof init_b, init_b);
    const clscan_axis R = CLSCAN_ALONG_ROWS, C = CLSCAN_ALONG_COLUMNS;
    /* 4 x 5 with pitch 8: elements 0 ... 28 from the offset. */
    tu_expect_status(clscan_enqueue_axis(NULL, tu.queue, R, a, 0, 8, b, 0, 8, 4, 5, 0, NULL, NULL),
                     CLSCAN_INVALID_PLAN, "NULL plan");
    tu_expect_status(clscan_enqueue_axis(plan, tu.queue, (clscan_axis)2, a, 0, 8, b, 0, 8, 4, 5, 0, NULL, NULL),
                     CLSCAN_INVALID_AXIS, "axis 2");
    tu_expect_status(clscan_enqueue_axis(plan, tu.queue, (clscan_axis)-1, a, 0, 8, b, 0, 8, 4, 5, 0, NULL, NULL),
                     CLSCAN_INVALID_AXIS, "axis -1");
    tu_expect_status(clscan_enqueue_axis(plan, tu.queue, R, a, 0, 4, b, 0, 8, 4, 5, 0, NULL, NULL),
                     CLSCAN_INVALID_PITCH, "src pitch < cols");
    tu_expect_status(clscan_enqueue_axis(plan, tu.queue, C, a, 0, 8, b, 0, 4, 4, 5, 0, NULL, NULL),
                     CLSCAN_INVALID_PITCH, "dst pitch < cols");
    tu_expect_status(clscan_enqueue_axis(plan, NULL, C, a, 0, 8, b, 0, 8, 4, 5, 0, NULL, NULL),
                     CL_INVALID_COMMAND_QUEUE, "NULL queue");
    tu_expect_status(clscan_enqueue_axis(plan, tu.queue, C, a, 0, 8, b, 0, 8, 4, 5, 1, NULL, NULL),
                     CL_INVALID_EVENT_WAIT_LIST, "1 event, NULL list");
    tu_expect_status(clscan_enqueue_axis(plan, tu.queue, C, NULL, 0, 8, b, 0, 8, 4, 5, 0, NULL, NULL),
                     CL_INVALID_MEM_OBJECT, "NULL src");
    tu_expect_status(clscan_enqueue_axis(plan, tu.queue, R, a, 0, 8, NULL, 0, 8, 4, 5, 0, NULL, NULL),
                     CL_INVALID_MEM_OBJECT, "NULL dst");
    /* The last row ends at offset + 29: 36 + 29 > 64. */
    tu_expect_status(clscan_enqueue_axis(plan, tu.queue, R, a, 36, 8, b, 0, 8, 4, 5, 0, NULL, NULL),
                     CLSCAN_RANGE_OUT_OF_BOUNDS, "src's last row past the buffer");
    tu_expect_status(clscan_enqueue_axis(plan, tu.queue, C, a, 0, 8, b, 0, 12, 6, 5, 0, NULL, NULL),
                     CLSCAN_RANGE_OUT_OF_BOUNDS, "dst's last row past the buffer");
    tu_expect_status(clscan_enqueue_axis(plan, tu.queue, C, a, 0, SIZE_MAX / 2, b, 0, 8, 4, 5, 0, NULL, NULL),
                     CLSCAN_RANGE_OUT_OF_BOUNDS, "rows * pitch overflows");
    tu_expect_status(clscan_enqueue_axis(plan, tu.queue, R, a, 0, 8, b, 0, 8, SIZE_MAX, 5, 0, NULL, NULL),
                     CLSCAN_RANGE_OUT_OF_BOUNDS, "SIZE_MAX rows");
    tu_expect_status(clscan_enqueue_axis(plan, tu.queue, R, a, 0, 8, a, 3, 8, 4, 5, 0, NULL, NULL),
                     CL_MEM_COPY_OVERLAP, "dst 3 elements after src");
    tu_expect_status(clscan_enqueue_axis(plan, tu.queue, C, a, 0, 8, a, 0, 9, 4, 5, 0, NULL, NULL),
                     CL_MEM_COPY_OVERLAP, "the same first element, another pitch");
    tu_expect_status(clscan_enqueue_axis(plan, tu.queue, C, a, 5, 8, a, 0, 8, 4, 5, 0, NULL, NULL),
                     CL_MEM_COPY_OVERLAP, "dst's rows in src's gaps");
    clFinish(tu.queue);
    tu_read(tu.queue, a, sizeof got, got);
    ck_assert_msg(memcmp(got, init_a, sizeof got) == 0, "a refused call wrote a");
    tu_read(tu.queue, b, sizeof got, got);
    ck_assert_msg(memcmp(got, init_b, sizeof got) == 0, "a refused call wrote b");
    /* The same arguments but for the error are accepted. */
    ck_assert_int_eq(clscan_enqueue_axis(plan, tu.queue, C, a, 0, 8, a, 0, 8, 4, 5, 0, NULL, NULL), CL_SUCCESS);
    ck_assert_int_eq(clscan_enqueue_axis(plan, tu.queue, R, a, 0, 8, b, 35, 8, 4, 5, 0, NULL, NULL), CL_SUCCESS);
    clFinish(tu.queue);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
}
END_TEST

int main(void)
{
    tu_open("axis_test");
    tu_watchdog(900);
    for (int i = 0; i < NCOMBOS; ++i) {
        clscan_kind kind;
        const to_op *o = combo(i, &kind);
        to_plan(o, kind, 0, 0, CLSCAN_ALGORITHM_AUTO, true);
    }
    Suite *s = suite_create("axis");
    TCase *tc = tcase_create("shapes");
    tcase_set_timeout(tc, 0);
    tcase_add_loop_test(tc, shapes_match_the_reference, 0, NCOMBOS);
    suite_add_tcase(s, tc);
    tc = tcase_create("empty and bad input");
    tcase_set_timeout(tc, 0);
    tcase_add_test(tc, empty_arrays_complete_their_event);
    tcase_add_test(tc, bad_calls_are_refused_and_touch_nothing);
    suite_add_tcase(s, tc);
    int rc = tu_run(s);
    to_close();
    tu_close();
    return rc;
}
