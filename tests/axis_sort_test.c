/* clscan_axis_sort_enqueue: every row or every column of pitched 2-D arrays sorted, against a
 * stable sort of each line gathered on the host.  Two sorters (two radix programs): uint32 keys
 * with 4-byte values (each value the key's place in the input, so that a broken stability shows
 * in the values) and uint16 keys alone.  Keys full-width random or from a few values (many
 * duplicates, sorted by their low 8 bits: one pass), ascending and descending (the same sorter,
 * set between calls).  Shapes: 1x1, 1xN,
 * Nx1, 3x5 with pitch 8, 33x65 and 37x100 (partial transpose tiles), 100x37, lines of 31, 32 and
 * 33 keys (the CPUs' longest segment ranked by comparisons is 32), 5000x3 and 3x5000 (lines longer
 * than one chunk of the segmented kernel: 4096 keys on CPUs), random offsets and pitches; outputs
 * apart from the inputs (every element of the output buffers compared: the gaps and guards
 * untouched; the inputs untouched) and in place.  Then empty arrays (the event completes) and
 * bad input (the documented status, a message, buffers untouched).
 *
 * Exit status: 0 all checks passed, 1 some check failed, 77 no device (skip), 99 a setup error. */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static clscan_sorter *sorter32;   /* uint32 keys, 4-byte values */
static clscan_sorter *sorter16;   /* uint16 keys alone */

typedef struct shape {
    size_t rows, cols;
    size_t pitch;   /* 0: cols plus a random 0 ... 3 */
} shape;

static const shape shapes[] = {
    {1, 1, 0},   {1, 1000, 0}, {1000, 1, 0}, {3, 5, 8},   {33, 65, 0},   {37, 100, 0},
    {100, 37, 0}, {31, 33, 0},  {32, 31, 0},  {33, 32, 0}, {5000, 3, 0}, {3, 5000, 0},
    /* lines of more than 2^16 keys: the passes over the whole array, each line in blocks of its own */
    {2, 70001, 0}, {70001, 2, 0},
};
#define NSHAPES (int)(sizeof shapes / sizeof shapes[0])
/* The GPUs' tuning, where lines of up to 32 keys take a work-item each and lines of more than
 * 4096 keys the passes over the whole array. */
static const shape gpu_shapes[] = {{3, 5000, 0}, {5000, 3, 0}, {2, 4097, 9000}, {4, 300, 0},
                                   {1, 12000, 0}, {32, 300, 0}, {300, 33, 0}};
#define NGPU_SHAPES (int)(sizeof gpu_shapes / sizeof gpu_shapes[0])

enum { GUARD = 5 };

/* One key of a line and its place in the line, for the stable reference. */
typedef struct item {
    uint32_t key, value;
    size_t at;
} item;
static int descending_order;

static int by_key(const void *a, const void *b)
{
    const item *x = a, *y = b;
    if (x->key != y->key)
        return (x->key < y->key) != descending_order ? -1 : 1;
    return x->at < y->at ? -1 : x->at > y->at;
}

static uint32_t get_key(const void *k, size_t ks, size_t i)
{
    if (ks == 2) {
        uint16_t v;
        memcpy(&v, (const unsigned char *)k + 2 * i, 2);
        return v;
    }
    uint32_t v;
    memcpy(&v, (const unsigned char *)k + 4 * i, 4);
    return v;
}

static void put_key(void *k, size_t ks, size_t i, uint32_t v)
{
    if (ks == 2) {
        const uint16_t w = (uint16_t)v;
        memcpy((unsigned char *)k + 2 * i, &w, 2);
    } else {
        memcpy((unsigned char *)k + 4 * i, &v, 4);
    }
}

/* The expected outputs: every line of (keys, values) from in_off, pitch ip, sorted stably into
 * (ek, ev) from out_off, pitch op. */
static void expected_lines(size_t ks, int columns, const void *keys, const uint32_t *values, size_t in_off,
                           size_t ip, void *ek, uint32_t *ev, size_t out_off, size_t op, size_t rows, size_t cols)
{
    const size_t nlines = columns ? cols : rows, n = columns ? rows : cols;
    item *line = malloc(n * sizeof *line);
    ck_assert(line);
    for (size_t l = 0; l < nlines; ++l) {
        for (size_t k = 0; k < n; ++k) {
            const size_t i = in_off + (columns ? k * ip + l : l * ip + k);
            line[k] = (item){get_key(keys, ks, i), values ? values[i] : 0, k};
        }
        qsort(line, n, sizeof *line, by_key);
        for (size_t k = 0; k < n; ++k) {
            const size_t o = out_off + (columns ? k * op + l : l * op + k);
            put_key(ek, ks, o, line[k].key);
            if (ev)
                ev[o] = line[k].value;
        }
    }
    free(line);
}

/* One sort of random keys of the shape; true when right, else the case in msg. */
static bool check_case(bool with_values, bool few_keys, bool descending, clscan_axis axis, const shape *sh,
                       bool in_place, char *msg, size_t msgsize)
{
    clscan_sorter *s = with_values ? sorter32 : sorter16;
    const size_t ks = with_values ? 4 : 2, rows = sh->rows, cols = sh->cols;
    const size_t ip = sh->pitch ? sh->pitch : cols + (size_t)tu_rand_below(4);
    const size_t op = in_place ? ip : sh->pitch ? sh->pitch : cols + (size_t)tu_rand_below(4);
    const size_t in_off = GUARD + (size_t)tu_rand_below(3), out_off = in_place ? in_off : GUARD + tu_rand_below(3);
    const size_t ni = in_off + (rows - 1) * ip + cols + GUARD, no = out_off + (rows - 1) * op + cols + GUARD;
    const size_t nb = ni > no ? ni : no;   /* every buffer nb elements */
    void *k = malloc(nb * ks), *ko = malloc(nb * ks), *ek = malloc(nb * ks), *got = malloc(nb * 4);
    uint32_t *v = malloc(nb * 4), *vo = malloc(nb * 4), *ev = malloc(nb * 4);
    ck_assert(k && ko && ek && got && v && vo && ev);
    for (size_t i = 0; i < nb; ++i) {
        put_key(k, ks, i, few_keys ? (uint32_t)tu_rand_below(5) : (uint32_t)tu_rand());
        v[i] = (uint32_t)i;
    }
    tu_fill_bytes(ko, nb * ks);
    tu_fill_bytes(vo, nb * 4);
    if (in_place) {
        memcpy(ko, k, nb * ks);
        memcpy(vo, v, nb * 4);
    }
    memcpy(ek, ko, nb * ks);
    memcpy(ev, vo, nb * 4);
    const int columns = axis == CLSCAN_ALONG_COLUMNS;
    descending_order = descending;
    expected_lines(ks, columns, k, with_values ? v : NULL, in_off, ip, ek, with_values ? ev : NULL, out_off, op, rows,
                   cols);

    const cl_mem_flags f = CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR;
    cl_mem bk = tu_buffer(tu.context, f, nb * ks, k), bv = tu_buffer(tu.context, f, nb * 4, v);
    cl_mem bko = in_place ? bk : tu_buffer(tu.context, f, nb * ks, ko);
    cl_mem bvo = in_place ? bv : tu_buffer(tu.context, f, nb * 4, vo);
    ck_assert_int_eq(clscan_sorter_set_descending(s, descending), CL_SUCCESS);
    /* Keys below 5: sorted by their low 8 bits, one pass (in place: from a copy of the input). */
    ck_assert_int_eq(clscan_sorter_set_key_bits(s, few_keys ? 8 : 0), CL_SUCCESS);
    cl_event ev_done = NULL;
    cl_int err = clscan_axis_sort_enqueue(s, tu.queue, axis, bk, in_off, ip, bko, out_off, op,
                                          with_values ? bv : NULL, in_off, with_values ? bvo : NULL, out_off, rows,
                                          cols, 0, NULL, &ev_done);
    char what[512];
    snprintf(what, sizeof what, "%s keys%s (%s), %s, along %s, %zu x %zu, pitches %zu/%zu, offsets %zu/%zu, %s, "
             "seed %" PRIu64, ks == 4 ? "uint32" : "uint16", with_values ? " and values" : "",
             few_keys ? "5 values, 8 bits" : "random", descending ? "descending" : "ascending", columns ? "columns" : "rows",
             rows, cols, ip, op, in_off, out_off, in_place ? "in place" : "apart", tu_seed);
    bool ok = err == CL_SUCCESS;
    if (!ok)
        snprintf(msg, msgsize, "%s: %s (%s)", what, clscan_error_string(err), clscan_last_error());
    if (ok) {
        ck_assert_int_eq(clWaitForEvents(1, &ev_done), CL_SUCCESS);
        clReleaseEvent(ev_done);
        tu_read(tu.queue, bko, nb * ks, got);
        for (size_t i = 0; ok && i < nb; ++i)
            if (get_key(got, ks, i) != get_key(ek, ks, i)) {
                ok = false;
                snprintf(msg, msgsize, "%s: key %zu of keys_out is %" PRIu32 ", expected %" PRIu32 " (%s)", what, i,
                         get_key(got, ks, i), get_key(ek, ks, i),
                         i < out_off || i >= no - GUARD || (i - out_off) % op >= cols ? "a gap or guard" : "sorted");
            }
    }
    if (ok && with_values) {
        tu_read(tu.queue, bvo, nb * 4, got);
        const uint32_t *g = got;
        for (size_t i = 0; ok && i < nb; ++i)
            if (g[i] != ev[i]) {
                ok = false;
                snprintf(msg, msgsize, "%s: value %zu of values_out is %" PRIu32 ", expected %" PRIu32 " (%s)", what,
                         i, g[i], ev[i],
                         i < out_off || i >= no - GUARD || (i - out_off) % op >= cols ? "a gap or guard" : "stability");
            }
    }
    if (ok && !in_place) {
        tu_read(tu.queue, bk, nb * ks, got);
        if (memcmp(got, k, nb * ks) != 0) {
            ok = false;
            snprintf(msg, msgsize, "%s: keys_in was written", what);
        }
        tu_read(tu.queue, bv, nb * 4, got);
        if (ok && memcmp(got, v, nb * 4) != 0) {
            ok = false;
            snprintf(msg, msgsize, "%s: values_in was written", what);
        }
    }
    if (!in_place) {
        clReleaseMemObject(bko);
        clReleaseMemObject(bvo);
    }
    clReleaseMemObject(bk);
    clReleaseMemObject(bv);
    free(k);
    free(ko);
    free(ek);
    free(got);
    free(v);
    free(vo);
    free(ev);
    return ok;
}

/* Every shape of the list along both axes, in place or not, random or few keys. */
static void check_shapes(const shape *list, int nshapes, bool with_values, bool descending)
{
    tu_tally t = {0};
    for (int sh = 0; sh < nshapes; ++sh)
        for (int axis = 0; axis < 2; ++axis)
            for (int in_place = 0; in_place < 2; ++in_place)
                for (int few = 0; few < 2; ++few) {
                    char msg[1024];
                    t.run++;
                    if (!check_case(with_values, few, descending, (clscan_axis)axis, &list[sh], in_place, msg,
                                    sizeof msg)) {
                        if (t.failed++ == 0)
                            snprintf(t.first, sizeof t.first, "%s", msg);
                        fprintf(stderr, "axis_sort_test: %s\n", msg);
                    }
                }
    TU_TALLY_ASSERT(&t);
}

/* _i: bit 0 values (uint32 keys) or keys alone (uint16), bit 1 descending. */
START_TEST(lines_match_a_stable_sort)
{
    check_shapes(shapes, NSHAPES, _i & 1, _i & 2);
}
END_TEST

START_TEST(lines_with_the_gpu_tuning)
{
    clscan_sorter *s32 = sorter32, *s16 = sorter16;
    cl_int err;
    setenv("CLSCAN_DEVELOP", "policy=gpu", 1);
    sorter32 = clscan_sorter_create(tu.context, tu.device, CLSCAN_UINT32, 4, &err);
    sorter16 = clscan_sorter_create(tu.context, tu.device, CLSCAN_UINT16, 0, &err);
    unsetenv("CLSCAN_DEVELOP");
    ck_assert_msg(sorter32 && sorter16, "clscan_sorter_create: %s", clscan_last_error());
    check_shapes(gpu_shapes, NGPU_SHAPES, _i & 1, _i & 2);
    clscan_sorter_release(sorter32);
    clscan_sorter_release(sorter16);
    sorter32 = s32;
    sorter16 = s16;
}
END_TEST

/* rows or cols 0: nothing written, the event completes after the wait list. */
START_TEST(empty_arrays_complete_their_event)
{
    uint32_t init[16], got[16];
    tu_fill_bytes(init, sizeof init);
    cl_mem buf = tu_buffer(tu.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof init, init);
    const size_t shapes0[][2] = {{0, 5}, {5, 0}, {0, 0}};
    for (int i = 0; i < 3; ++i)
        for (int axis = 0; axis < 2; ++axis) {
            cl_int err;
            cl_event user = clCreateUserEvent(tu.context, &err), ev = NULL;
            ck_assert_int_eq(err, CL_SUCCESS);
            err = clscan_axis_sort_enqueue(sorter32, tu.queue, (clscan_axis)axis, buf, 0, 5, buf, 0, 5, buf, 0, buf,
                                           0, shapes0[i][0], shapes0[i][1], 1, &user, &ev);
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
    enum { N = 64 };
    uint32_t init[4][N], got[N];
    cl_mem b[4];
    for (int i = 0; i < 4; ++i) {
        tu_fill_bytes(init[i], sizeof init[i]);
        b[i] = tu_buffer(tu.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof init[i], init[i]);
    }
    clscan_sorter *s = sorter32;
    const clscan_axis R = CLSCAN_ALONG_ROWS, C = CLSCAN_ALONG_COLUMNS;
    /* 4 x 5 with pitch 8: elements 0 ... 28 from the offset; keys b[0] -> b[1], values b[2] -> b[3]. */
#define SORT(sorter, axis, ki, kio, ip, ko, koo, op, vi, vo, rows, cols, nw, wl)                                  \
    clscan_axis_sort_enqueue((sorter), tu.queue, (axis), (ki), (kio), (ip), (ko), (koo), (op), (vi), 0, (vo), 0, \
                             (rows), (cols), (nw), (wl), NULL)
    tu_expect_status(SORT(NULL, R, b[0], 0, 8, b[1], 0, 8, b[2], b[3], 4, 5, 0, NULL), CLSCAN_INVALID_HANDLE,
                     "NULL sorter");
    tu_expect_status(SORT(s, (clscan_axis)2, b[0], 0, 8, b[1], 0, 8, b[2], b[3], 4, 5, 0, NULL), CLSCAN_INVALID_AXIS,
                     "axis 2");
    tu_expect_status(SORT(s, R, b[0], 0, 4, b[1], 0, 8, b[2], b[3], 4, 5, 0, NULL), CLSCAN_INVALID_PITCH,
                     "in pitch < cols");
    tu_expect_status(SORT(s, C, b[0], 0, 8, b[1], 0, 4, b[2], b[3], 4, 5, 0, NULL), CLSCAN_INVALID_PITCH,
                     "out pitch < cols");
    tu_expect_status(clscan_axis_sort_enqueue(s, NULL, C, b[0], 0, 8, b[1], 0, 8, b[2], 0, b[3], 0, 4, 5, 0, NULL,
                                              NULL),
                     CL_INVALID_COMMAND_QUEUE, "NULL queue");
    tu_expect_status(SORT(s, C, b[0], 0, 8, b[1], 0, 8, b[2], b[3], 4, 5, 1, NULL), CL_INVALID_EVENT_WAIT_LIST,
                     "1 event, NULL list");
    tu_expect_status(SORT(s, C, NULL, 0, 8, b[1], 0, 8, b[2], b[3], 4, 5, 0, NULL), CL_INVALID_MEM_OBJECT,
                     "NULL keys_in");
    tu_expect_status(SORT(s, R, b[0], 0, 8, NULL, 0, 8, b[2], b[3], 4, 5, 0, NULL), CL_INVALID_MEM_OBJECT,
                     "NULL keys_out");
    tu_expect_status(SORT(s, R, b[0], 0, 8, b[1], 0, 8, NULL, b[3], 4, 5, 0, NULL), CL_INVALID_MEM_OBJECT,
                     "NULL values_in to a sorter with values");
    tu_expect_status(SORT(sorter16, R, b[0], 0, 8, b[1], 0, 8, b[2], NULL, 4, 5, 0, NULL), CL_INVALID_MEM_OBJECT,
                     "values_in to a sorter of keys alone");
    tu_expect_status(SORT(s, R, b[0], 36, 8, b[1], 0, 8, b[2], b[3], 4, 5, 0, NULL), CLSCAN_RANGE_OUT_OF_BOUNDS,
                     "keys_in's last row past the buffer");
    tu_expect_status(SORT(s, C, b[0], 0, 8, b[1], 0, 12, b[2], b[3], 6, 5, 0, NULL), CLSCAN_RANGE_OUT_OF_BOUNDS,
                     "the outputs' last row past the buffers");
    tu_expect_status(SORT(s, C, b[0], 0, SIZE_MAX / 2, b[1], 0, 8, b[2], b[3], 4, 5, 0, NULL),
                     CLSCAN_RANGE_OUT_OF_BOUNDS, "rows * pitch overflows");
    tu_expect_status(SORT(s, R, b[0], 0, (size_t)1 << 20, b[1], 0, (size_t)1 << 20, b[2], b[3], (size_t)1 << 13,
                          (size_t)1 << 20, 0, NULL),
                     CL_INVALID_BUFFER_SIZE, "2^33 keys");
    tu_expect_status(SORT(s, R, b[0], 0, 8, b[0], 3, 8, b[2], b[3], 4, 5, 0, NULL), CL_MEM_COPY_OVERLAP,
                     "keys_out 3 elements after keys_in");
    tu_expect_status(SORT(s, C, b[0], 0, 8, b[0], 0, 9, b[2], b[3], 4, 5, 0, NULL), CL_MEM_COPY_OVERLAP,
                     "keys_out: keys_in's first element, another pitch");
    tu_expect_status(SORT(s, R, b[0], 0, 8, b[1], 0, 8, b[2], b[1], 4, 5, 0, NULL), CL_MEM_COPY_OVERLAP,
                     "values_out over keys_out");
    tu_expect_status(SORT(s, R, b[0], 0, 8, b[1], 0, 8, b[1], b[3], 4, 5, 0, NULL), CL_MEM_COPY_OVERLAP,
                     "values_in over keys_out");
    tu_expect_status(SORT(s, R, b[0], 0, 8, b[1], 0, 8, b[2], b[0], 4, 5, 0, NULL), CL_MEM_COPY_OVERLAP,
                     "values_out over keys_in");
    clFinish(tu.queue);
    for (int i = 0; i < 4; ++i) {
        tu_read(tu.queue, b[i], sizeof got, got);
        ck_assert_msg(memcmp(got, init[i], sizeof got) == 0, "a refused call wrote buffer %d", i);
    }
    /* The same arguments but for the error are accepted (in place along columns; 4 + 5 keys apart). */
    ck_assert_int_eq(SORT(s, C, b[0], 0, 8, b[0], 0, 8, b[2], b[2], 4, 5, 0, NULL), CL_SUCCESS);
    ck_assert_int_eq(SORT(s, R, b[0], 0, 8, b[1], 35, 8, b[2], b[3], 4, 5, 0, NULL), CL_SUCCESS);
    clFinish(tu.queue);
#undef SORT
    for (int i = 0; i < 4; ++i)
        clReleaseMemObject(b[i]);
}
END_TEST

int main(void)
{
    tu_open("axis_sort_test");
    tu_watchdog(900);
    cl_int err;
    sorter32 = clscan_sorter_create(tu.context, tu.device, CLSCAN_UINT32, 4, &err);
    if (sorter32)
        sorter16 = clscan_sorter_create(tu.context, tu.device, CLSCAN_UINT16, 0, &err);
    if (!sorter16) {
        fprintf(stderr, "axis_sort_test: clscan_sorter_create: %s (%s)\n", clscan_error_string(err),
                clscan_last_error());
        return 99;
    }
    Suite *s = suite_create("axis_sort");
    TCase *tc = tcase_create("shapes");
    tcase_set_timeout(tc, 0);
    tcase_add_loop_test(tc, lines_match_a_stable_sort, 0, 4);
    tcase_add_loop_test(tc, lines_with_the_gpu_tuning, 0, 4);
    suite_add_tcase(s, tc);
    tc = tcase_create("empty and bad input");
    tcase_set_timeout(tc, 0);
    tcase_add_test(tc, empty_arrays_complete_their_event);
    tcase_add_test(tc, bad_calls_are_refused_and_touch_nothing);
    suite_add_tcase(s, tc);
    int rc = tu_run(s);
    clscan_sorter_release(sorter32);
    clscan_sorter_release(sorter16);
    tu_close();
    return rc;
}
