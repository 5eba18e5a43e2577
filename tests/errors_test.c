/* Bad input: every rejected call returns its specific status code, leaves a non-empty
 * clscan_last_error() message, and leaves every buffer byte-identical.
 *
 * Not testable here: CLSCAN_FP64_NOT_SUPPORTED and CLSCAN_DEVICE_NOT_SUPPORTED need a device
 * without cl_khr_fp64 or with tiny limits, and PoCL (which runs the suite) has fp64 and large
 * limits.  A non-NULL but invalid queue or buffer handle (garbage, or released) cannot be passed
 * safely: the ICD loader dereferences it before any check could run, so only NULL is tested. */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"

#include <ctype.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef CLSCAN_TEST_SRCDIR
#define CLSCAN_TEST_SRCDIR "."
#endif

enum { N = 64 }; /* elements of the fixture's buffers */

/* ---- Buffers whose contents must survive every rejected call ---- */

typedef struct watched {
    cl_mem mem;
    cl_command_queue queue;
    size_t bytes;
    unsigned char *before;
} watched;

static watched watch[8];
static int nwatch;
static cl_mem src, dst;
static clscan_plan *plan; /* SUM int32 inclusive */

static cl_mem watched_buffer(cl_context ctx, cl_command_queue q, cl_mem_flags flags, size_t bytes)
{
    ck_assert_int_lt(nwatch, 8);
    watched *w = &watch[nwatch++];
    w->before = malloc(bytes);
    ck_assert_ptr_nonnull(w->before);
    tu_fill_bytes(w->before, bytes);
    w->mem = tu_buffer(ctx, flags, bytes, w->before);
    w->queue = q;
    w->bytes = bytes;
    return w->mem;
}

static void check_untouched(const char *after)
{
    clFinish(tu.queue);
    for (int i = 0; i < nwatch; i++) {
        unsigned char *now = malloc(watch[i].bytes);
        ck_assert_ptr_nonnull(now);
        tu_read(watch[i].queue, watch[i].mem, watch[i].bytes, now);
        size_t k = 0;
        while (k < watch[i].bytes && now[k] == watch[i].before[k])
            k++;
        free(now);
        ck_assert_msg(k == watch[i].bytes, "after %s: byte %zu of buffer %d changed", after, k, i);
    }
}

/* Takes new snapshots after a valid call changed buffers. */
static void refresh_snapshots(void)
{
    for (int i = 0; i < nwatch; i++)
        tu_read(watch[i].queue, watch[i].mem, watch[i].bytes, watch[i].before);
}

static void setup(void)
{
    plan = tu_plan(CLSCAN_SUM, CLSCAN_INT32, CLSCAN_INCLUSIVE);
    src = watched_buffer(tu.context, tu.queue, CL_MEM_READ_WRITE, N * 4);
    dst = watched_buffer(tu.context, tu.queue, CL_MEM_READ_WRITE, N * 4);
}

static void teardown(void)
{
    clFinish(tu.queue);
    for (int i = 0; i < nwatch; i++) {
        clReleaseMemObject(watch[i].mem);
        free(watch[i].before);
    }
    nwatch = 0;
}

/* The call returns the expected code with a message, and no buffer changed. */
#define EXPECT(call, expected)                                                                   \
    do {                                                                                         \
        cl_int got_ = (call);                                                                    \
        ck_assert_msg(got_ == (expected), "%s returned %s (%d), expected %s (%d)", #call,        \
                      clscan_error_string(got_), (int)got_, #expected, (int)(expected));         \
        const char *msg_ = clscan_last_error();                                                  \
        ck_assert_msg(msg_ != NULL && msg_[0] != '\0', "%s: clscan_last_error() is empty", #call); \
        check_untouched(#call);                                                                  \
    } while (0)

/* clscan_enqueue with the fixture's plan and queue and an event that is released if set. */
static cl_int enq(clscan_plan *p, cl_command_queue q, cl_mem s, size_t so, cl_mem d, size_t dof, size_t count,
                  cl_uint nw, const cl_event *wl)
{
    cl_event ev = NULL;
    cl_int err = clscan_enqueue(p, q, s, so, d, dof, count, nw, wl, &ev);
    if (ev) {
        clWaitForEvents(1, &ev);
        clReleaseEvent(ev);
    }
    return err;
}

/* A valid scan of int32 SUM from s to d (the fixture plan) with the result checked. */
static void expect_scan_works(cl_mem s, size_t so, cl_mem d, size_t dof, size_t count)
{
    int32_t in[N], out[N], ref[N];
    ck_assert(clEnqueueReadBuffer(tu.queue, s, CL_TRUE, so * 4, count * 4, in, 0, NULL, NULL) == CL_SUCCESS);
    cl_int err = enq(plan, tu.queue, s, so, d, dof, count, 0, NULL);
    ck_assert_msg(err == CL_SUCCESS, "a valid scan (offsets %zu, %zu, count %zu) failed: %s: %s", so, dof, count,
                  clscan_error_string(err), clscan_last_error());
    ck_assert(clEnqueueReadBuffer(tu.queue, d, CL_TRUE, dof * 4, count * 4, out, 0, NULL, NULL) == CL_SUCCESS);
    tu_reference(CLSCAN_SUM, CLSCAN_INT32, CLSCAN_INCLUSIVE, in, ref, count);
    char diff[512];
    ck_assert_msg(tu_compare(CLSCAN_SUM, CLSCAN_INT32, ref, out, count, diff, sizeof diff),
                  "valid scan (offsets %zu, %zu, count %zu): %s", so, dof, count, diff);
}

/* ---- clscan_enqueue ---- */

START_TEST(null_plan_is_invalid_plan)
{
    EXPECT(enq(NULL, tu.queue, src, 0, dst, 0, 16, 0, NULL), CLSCAN_INVALID_PLAN);
    EXPECT(enq(NULL, tu.queue, src, 0, dst, 0, 0, 0, NULL), CLSCAN_INVALID_PLAN);
}
END_TEST

START_TEST(null_queue_is_invalid_command_queue)
{
    EXPECT(enq(plan, NULL, src, 0, dst, 0, 16, 0, NULL), CL_INVALID_COMMAND_QUEUE);
}
END_TEST

START_TEST(null_buffers_are_invalid_mem_object)
{
    EXPECT(enq(plan, tu.queue, NULL, 0, dst, 0, 16, 0, NULL), CL_INVALID_MEM_OBJECT);
    EXPECT(enq(plan, tu.queue, src, 0, NULL, 0, 16, 0, NULL), CL_INVALID_MEM_OBJECT);
    EXPECT(enq(plan, tu.queue, NULL, 0, NULL, 0, 16, 0, NULL), CL_INVALID_MEM_OBJECT);
}
END_TEST

START_TEST(write_only_source_or_read_only_destination_is_invalid_mem_object)
{
    cl_mem wo = watched_buffer(tu.context, tu.queue, CL_MEM_WRITE_ONLY, N * 4);
    cl_mem ro = watched_buffer(tu.context, tu.queue, CL_MEM_READ_ONLY, N * 4);
    EXPECT(enq(plan, tu.queue, wo, 0, dst, 0, 16, 0, NULL), CL_INVALID_MEM_OBJECT);
    EXPECT(enq(plan, tu.queue, src, 0, ro, 0, 16, 0, NULL), CL_INVALID_MEM_OBJECT);
    EXPECT(enq(plan, tu.queue, ro, 3, ro, 3, 16, 0, NULL), CL_INVALID_MEM_OBJECT); /* in place */
    EXPECT(enq(plan, tu.queue, wo, 3, wo, 3, 16, 0, NULL), CL_INVALID_MEM_OBJECT);
    /* The right way round works: read-only source, write-only destination. */
    expect_scan_works(ro, 2, wo, 5, 40);
    refresh_snapshots();
    EXPECT(enq(plan, tu.queue, wo, 0, ro, 0, 16, 0, NULL), CL_INVALID_MEM_OBJECT);
}
END_TEST

START_TEST(ranges_past_the_end_are_out_of_bounds)
{
    /* N int32 elements plus 3 bytes: still N elements. */
    cl_mem odd = watched_buffer(tu.context, tu.queue, CL_MEM_READ_WRITE, N * 4 + 3);
    EXPECT(enq(plan, tu.queue, src, 60, dst, 0, 5, 0, NULL), CLSCAN_RANGE_OUT_OF_BOUNDS);
    EXPECT(enq(plan, tu.queue, src, 0, dst, 60, 5, 0, NULL), CLSCAN_RANGE_OUT_OF_BOUNDS);
    EXPECT(enq(plan, tu.queue, src, 0, dst, 0, N + 1, 0, NULL), CLSCAN_RANGE_OUT_OF_BOUNDS);
    EXPECT(enq(plan, tu.queue, src, N, dst, 0, 1, 0, NULL), CLSCAN_RANGE_OUT_OF_BOUNDS);
    EXPECT(enq(plan, tu.queue, odd, 0, dst, 0, N + 1, 0, NULL), CLSCAN_RANGE_OUT_OF_BOUNDS);
    EXPECT(enq(plan, tu.queue, src, 0, odd, 1, N, 0, NULL), CLSCAN_RANGE_OUT_OF_BOUNDS);
    EXPECT(enq(plan, tu.queue, src, 10, src, 10, N - 9, 0, NULL), CLSCAN_RANGE_OUT_OF_BOUNDS); /* in place */
    /* offset + count overflows size_t */
    EXPECT(enq(plan, tu.queue, src, SIZE_MAX, dst, 0, 2, 0, NULL), CLSCAN_RANGE_OUT_OF_BOUNDS);
    EXPECT(enq(plan, tu.queue, src, 1, dst, 0, SIZE_MAX, 0, NULL), CLSCAN_RANGE_OUT_OF_BOUNDS);
    EXPECT(enq(plan, tu.queue, src, 0, dst, SIZE_MAX - 1, 3, 0, NULL), CLSCAN_RANGE_OUT_OF_BOUNDS);
    EXPECT(enq(plan, tu.queue, src, 0, dst, 0, SIZE_MAX, 0, NULL), CLSCAN_RANGE_OUT_OF_BOUNDS);
    /* (offset + count) * element size overflows: count * 4 wraps around to 4 bytes */
    EXPECT(enq(plan, tu.queue, src, 0, dst, 0, SIZE_MAX / 4 + 2, 0, NULL), CLSCAN_RANGE_OUT_OF_BOUNDS);
    EXPECT(enq(plan, tu.queue, src, SIZE_MAX / 4 + 1, dst, 0, 1, 0, NULL), CLSCAN_RANGE_OUT_OF_BOUNDS);
    EXPECT(enq(plan, tu.queue, src, 0, dst, SIZE_MAX / 4 + 1, 1, 0, NULL), CLSCAN_RANGE_OUT_OF_BOUNDS);

    /* Pairs: an AFFINE double element is 16 bytes, so the N * 4 bytes hold N / 4 elements. */
    clscan_plan *affine = tu_plan(CLSCAN_AFFINE, CLSCAN_DOUBLE, CLSCAN_INCLUSIVE);
    EXPECT(enq(affine, tu.queue, src, 0, dst, 0, N / 4 + 1, 0, NULL), CLSCAN_RANGE_OUT_OF_BOUNDS);
    EXPECT(enq(affine, tu.queue, src, 1, dst, 0, N / 4, 0, NULL), CLSCAN_RANGE_OUT_OF_BOUNDS);
    EXPECT(enq(affine, tu.queue, src, 0, dst, N / 4, 1, 0, NULL), CLSCAN_RANGE_OUT_OF_BOUNDS);
    EXPECT(enq(affine, tu.queue, src, 0, dst, 0, SIZE_MAX / 16 + 2, 0, NULL), CLSCAN_RANGE_OUT_OF_BOUNDS);

    /* Up to the very end is fine. */
    expect_scan_works(src, 60, dst, 0, 4);
    expect_scan_works(odd, 0, dst, 0, N);
}
END_TEST

START_TEST(overlapping_ranges_of_one_buffer_are_copy_overlap)
{
    EXPECT(enq(plan, tu.queue, src, 0, src, 10, 20, 0, NULL), CL_MEM_COPY_OVERLAP);
    EXPECT(enq(plan, tu.queue, src, 10, src, 0, 20, 0, NULL), CL_MEM_COPY_OVERLAP);
    EXPECT(enq(plan, tu.queue, src, 0, src, 1, 2, 0, NULL), CL_MEM_COPY_OVERLAP);
    EXPECT(enq(plan, tu.queue, src, 5, src, 4, N - 5, 0, NULL), CL_MEM_COPY_OVERLAP);
    /* Disjoint ranges of one buffer, adjacent ones too, are valid. */
    expect_scan_works(src, 0, src, 20, 20);
    expect_scan_works(src, 40, src, 10, 20);
    expect_scan_works(src, 0, src, 32, 32);
    refresh_snapshots();
    EXPECT(enq(plan, tu.queue, src, 20, src, 21, 20, 0, NULL), CL_MEM_COPY_OVERLAP);
}
END_TEST

START_TEST(objects_of_another_context_are_invalid_context)
{
    cl_int err;
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)tu.platform, 0};
    cl_context ctx2 = clCreateContext(props, 1, &tu.device, NULL, NULL, &err);
    ck_assert_int_eq(err, CL_SUCCESS);
    cl_command_queue q2 = clCreateCommandQueue(ctx2, tu.device, 0, &err);
    ck_assert_int_eq(err, CL_SUCCESS);
    cl_mem src2 = watched_buffer(ctx2, q2, CL_MEM_READ_WRITE, N * 4);
    cl_mem dst2 = watched_buffer(ctx2, q2, CL_MEM_READ_WRITE, N * 4);
    EXPECT(enq(plan, q2, src, 0, dst, 0, 16, 0, NULL), CL_INVALID_CONTEXT);
    EXPECT(enq(plan, tu.queue, src2, 0, dst, 0, 16, 0, NULL), CL_INVALID_CONTEXT);
    EXPECT(enq(plan, tu.queue, src, 0, dst2, 0, 16, 0, NULL), CL_INVALID_CONTEXT);
    EXPECT(enq(plan, q2, src2, 0, dst2, 0, 16, 0, NULL), CL_INVALID_CONTEXT);
    EXPECT(enq(plan, q2, src2, 0, src2, 0, 16, 0, NULL), CL_INVALID_CONTEXT);
    /* An event of another context in the wait list (OpenCL's rule for wait lists). */
    cl_event other = clCreateUserEvent(ctx2, &err);
    ck_assert_int_eq(err, CL_SUCCESS);
    ck_assert_int_eq(clSetUserEventStatus(other, CL_COMPLETE), CL_SUCCESS);
    EXPECT(enq(plan, tu.queue, src, 0, dst, 0, 16, 1, &other), CL_INVALID_CONTEXT);
    clReleaseEvent(other);
    teardown(); /* releases the buffers, those of ctx2 too, before ctx2 goes */
    clReleaseCommandQueue(q2);
    clReleaseContext(ctx2);
}
END_TEST

START_TEST(inconsistent_wait_lists_are_invalid_event_wait_list)
{
    cl_int err;
    cl_event done = clCreateUserEvent(tu.context, &err);
    ck_assert_int_eq(err, CL_SUCCESS);
    ck_assert_int_eq(clSetUserEventStatus(done, CL_COMPLETE), CL_SUCCESS);
    EXPECT(enq(plan, tu.queue, src, 0, dst, 0, 16, 1, NULL), CL_INVALID_EVENT_WAIT_LIST);
    EXPECT(enq(plan, tu.queue, src, 0, dst, 0, 16, 2, NULL), CL_INVALID_EVENT_WAIT_LIST);
    EXPECT(enq(plan, tu.queue, src, 0, dst, 0, 16, 0, &done), CL_INVALID_EVENT_WAIT_LIST);
    cl_event null_event = NULL;
    EXPECT(enq(plan, tu.queue, src, 0, dst, 0, 16, 1, &null_event), CL_INVALID_EVENT_WAIT_LIST);
    clReleaseEvent(done);
}
END_TEST

START_TEST(count_zero_is_a_no_op_with_a_valid_event)
{
    cl_event ev = NULL;
    cl_int err = clscan_enqueue(plan, tu.queue, src, 0, dst, 0, 0, 0, NULL, &ev);
    ck_assert_msg(err == CL_SUCCESS, "count 0: %s: %s", clscan_error_string(err), clscan_last_error());
    ck_assert_msg(ev != NULL, "count 0 returned no event");
    ck_assert_int_eq(clWaitForEvents(1, &ev), CL_SUCCESS);
    cl_int status = -1;
    ck_assert_int_eq(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL),
                     CL_SUCCESS);
    ck_assert_int_eq(status, CL_COMPLETE);
    clReleaseEvent(ev);
    ck_assert_int_eq(clscan_enqueue(plan, tu.queue, src, 0, dst, 0, 0, 0, NULL, NULL), CL_SUCCESS);
    ck_assert_int_eq(clscan_enqueue(plan, tu.queue, src, N, dst, N, 0, 0, NULL, NULL), CL_SUCCESS);
    ck_assert_int_eq(clscan_enqueue(plan, tu.queue, src, 5, src, 5, 0, 0, NULL, NULL), CL_SUCCESS);
    check_untouched("count 0");
}
END_TEST

/* ---- clscan_plan_create and friends ---- */

START_TEST(plan_create_rejects_bad_arguments)
{
    static const struct {
        int op, type, kind;
        bool null_context, null_device;
        cl_int expected;
    } bad[] = {
        {5, CLSCAN_INT32, CLSCAN_INCLUSIVE, false, false, CLSCAN_INVALID_OPERATOR},
        {-1, CLSCAN_INT32, CLSCAN_INCLUSIVE, false, false, CLSCAN_INVALID_OPERATOR},
        {1000, CLSCAN_FLOAT, CLSCAN_EXCLUSIVE, false, false, CLSCAN_INVALID_OPERATOR},
        {CLSCAN_SUM, 6, CLSCAN_INCLUSIVE, false, false, CLSCAN_INVALID_TYPE},
        {CLSCAN_MAX, -1, CLSCAN_INCLUSIVE, false, false, CLSCAN_INVALID_TYPE},
        {CLSCAN_SUM, CLSCAN_INT32, 2, false, false, CLSCAN_INVALID_KIND},
        {CLSCAN_AFFINE, CLSCAN_DOUBLE, -1, false, false, CLSCAN_INVALID_KIND},
        {CLSCAN_SUM, CLSCAN_INT32, CLSCAN_INCLUSIVE, true, false, CL_INVALID_CONTEXT},
        {CLSCAN_SUM, CLSCAN_INT32, CLSCAN_INCLUSIVE, false, true, CL_INVALID_DEVICE},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cl_context ctx = bad[i].null_context ? NULL : tu.context;
        cl_device_id dev = bad[i].null_device ? NULL : tu.device;
        cl_int err = 12345;
        clscan_plan *p = clscan_plan_create(ctx, dev, (clscan_op)bad[i].op, (clscan_type)bad[i].type,
                                            (clscan_kind)bad[i].kind, &err);
        ck_assert_msg(p == NULL, "case %zu: clscan_plan_create accepted bad arguments", i);
        ck_assert_msg(err == bad[i].expected, "case %zu (op %d, type %d, kind %d%s%s): got %s, expected %s", i,
                      bad[i].op, bad[i].type, bad[i].kind, ctx ? "" : ", NULL context", dev ? "" : ", NULL device",
                      clscan_error_string(err), clscan_error_string(bad[i].expected));
        ck_assert_msg(clscan_last_error() && *clscan_last_error(), "case %zu: no message", i);
        /* errcode_ret NULL must not crash */
        p = clscan_plan_create(ctx, dev, (clscan_op)bad[i].op, (clscan_type)bad[i].type,
                               (clscan_kind)bad[i].kind, NULL);
        ck_assert_msg(p == NULL, "case %zu (errcode_ret NULL): clscan_plan_create accepted bad arguments", i);
    }
    /* A good plan with errcode_ret NULL. */
    clscan_plan *p = clscan_plan_create(tu.context, tu.device, CLSCAN_SUM, CLSCAN_INT32, CLSCAN_INCLUSIVE, NULL);
    ck_assert_ptr_nonnull(p);
    clscan_plan_release(p);
}
END_TEST

START_TEST(null_plan_release_and_sizes)
{
    clscan_plan_release(NULL);
    ck_assert_uint_eq(clscan_element_size(NULL), 0);
    for (int o = 0; o < TU_NOPS; o++)
        for (int t = 0; t < TU_NTYPES; t++)
            ck_assert_msg(clscan_op_element_size(tu_ops[o], tu_types[t]) == tu_elem_size(tu_ops[o], tu_types[t]),
                          "clscan_op_element_size(%s, %s) = %zu, expected %zu", tu_op_name(tu_ops[o]),
                          tu_type_name(tu_types[t]), clscan_op_element_size(tu_ops[o], tu_types[t]),
                          tu_elem_size(tu_ops[o], tu_types[t]));
    ck_assert_uint_eq(clscan_op_element_size(CLSCAN_AFFINE, CLSCAN_FLOAT), 8);
    ck_assert_uint_eq(clscan_op_element_size(CLSCAN_AFFINE, CLSCAN_DOUBLE), 16);
    ck_assert_uint_eq(clscan_op_element_size((clscan_op)5, CLSCAN_INT32), 0);
    ck_assert_uint_eq(clscan_op_element_size((clscan_op)-1, CLSCAN_INT32), 0);
    ck_assert_uint_eq(clscan_op_element_size(CLSCAN_SUM, (clscan_type)6), 0);
    ck_assert_uint_eq(clscan_op_element_size(CLSCAN_SUM, (clscan_type)-1), 0);
    ck_assert_uint_eq(clscan_element_size(plan), 4);
}
END_TEST

START_TEST(set_tuning_rejects_bad_values_and_keeps_the_old_tuning)
{
    cl_int err;
    clscan_plan *p = clscan_plan_create(tu.context, tu.device, CLSCAN_SUM, CLSCAN_INT32, CLSCAN_INCLUSIVE, &err);
    ck_assert_ptr_nonnull(p);
    ck_assert_int_eq(clscan_plan_set_tuning(p, 8, 2), CL_SUCCESS);
    size_t max_wg = 0, wg = 0, items = 0;
    ck_assert_int_eq(clGetDeviceInfo(tu.device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof max_wg, &max_wg, NULL),
                     CL_SUCCESS);
    size_t too_big = 1;
    while (too_big <= max_wg)
        too_big *= 2;
    static const size_t not_pow2[][2] = {{3, 2}, {8, 3}, {6, 0}, {0, 5}, {12, 4}, {8, SIZE_MAX}};
    for (size_t i = 0; i < sizeof not_pow2 / sizeof not_pow2[0]; i++)
        EXPECT(clscan_plan_set_tuning(p, not_pow2[i][0], not_pow2[i][1]), CL_INVALID_VALUE);
    EXPECT(clscan_plan_set_tuning(p, too_big, 1), CL_INVALID_WORK_GROUP_SIZE);
    EXPECT(clscan_plan_set_tuning(p, too_big * 4, 2), CL_INVALID_WORK_GROUP_SIZE);
    EXPECT(clscan_plan_set_tuning(NULL, 8, 2), CLSCAN_INVALID_PLAN);
    EXPECT(clscan_plan_get_tuning(NULL, &wg, &items), CLSCAN_INVALID_PLAN);
    ck_assert_int_eq(clscan_plan_get_tuning(p, &wg, &items), CL_SUCCESS);
    ck_assert_msg(wg == 8 && items == 2, "a rejected set_tuning changed the tuning 8 x 2 to %zu x %zu", wg, items);
    TU_CHECK_SCAN(p, .op = CLSCAN_SUM, .type = CLSCAN_INT32, .kind = CLSCAN_INCLUSIVE, .count = 4101,
                  .src_offset = 1, .dst_offset = 2);
    clscan_plan_release(p);
}
END_TEST

/* Tunings that fit the local memory but not a work-group's private memory: PoCL kept the tile of
 * 512 x 4096 int32 elements (8 MiB) on a thread's stack and crashed in the kernel. */
START_TEST(set_tuning_rejects_tiles_too_large_for_private_memory)
{
    cl_int err;
    clscan_plan *p = clscan_plan_create(tu.context, tu.device, CLSCAN_MAX, CLSCAN_INT32, CLSCAN_INCLUSIVE, &err);
    ck_assert_ptr_nonnull(p);
    static const size_t huge[][2] = {{512, 4096}, {1024, 4096}, {2048, 1024}, {4096, 512}};
    for (size_t i = 0; i < sizeof huge / sizeof huge[0]; i++) {
        err = clscan_plan_set_tuning(p, huge[i][0], huge[i][1]);
        ck_assert_msg(err == CLSCAN_DEVICE_NOT_SUPPORTED || err == CL_INVALID_WORK_GROUP_SIZE,
                      "%zu x %zu int32: %s", huge[i][0], huge[i][1], clscan_error_string(err));
        ck_assert_msg(*clscan_last_error(), "no message");
        check_untouched("set_tuning");
    }
    TU_CHECK_SCAN(p, .op = CLSCAN_MAX, .type = CLSCAN_INT32, .kind = CLSCAN_INCLUSIVE, .count = 3000017);
    clscan_plan_release(p);
}
END_TEST

/* Custom operators' snippets longer than the documented limits are rejected before any compiler
 * sees them: PoCL's clang overflowed its stack on a neutral "0+0+...+0" of 65536 characters. */
START_TEST(custom_snippets_longer_than_the_limits_are_invalid)
{
    const size_t n = 65536;
    char *deep = malloc(n + 1);
    ck_assert_ptr_nonnull(deep);
    for (size_t i = 0; i < n; i++)
        deep[i] = i % 2 ? '+' : '0';
    deep[n - 1] = '0';
    deep[n] = '\0';
    const clscan_custom ops[] = {
        {"int", 4, deep, "a + b", NULL},
        {"int", 4, "0", deep, NULL},
        {"int", 4, "0", "a + b", deep},
        {deep, 4, "0", "a + b", NULL},
    };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        cl_int err = 12345;
        clscan_plan *p = clscan_plan_create_custom(tu.context, tu.device, &ops[i], CLSCAN_INCLUSIVE, &err);
        clscan_plan_release(p);
        ck_assert_msg(p == NULL && err == CLSCAN_INVALID_CUSTOM_OPERATOR, "snippet %zu: %s", i,
                      clscan_error_string(err));
        ck_assert_msg(strstr(clscan_last_error(), "clscan_plan_create_custom"), "%s", clscan_last_error());
    }
    free(deep);
}
END_TEST

/* A declared size no type can have is a size mismatch, not a device limit. */
START_TEST(custom_size_beyond_any_type_is_a_size_mismatch)
{
    const clscan_custom op = {"int", (size_t)1 << 62, "0", "a + b", NULL};
    cl_int err = 12345;
    clscan_plan *p = clscan_plan_create_custom(tu.context, tu.device, &op, CLSCAN_INCLUSIVE, &err);
    clscan_plan_release(p);
    ck_assert_msg(p == NULL && err == CLSCAN_ELEMENT_SIZE_MISMATCH, "got %s: %s", clscan_error_string(err),
                  clscan_last_error());
    ck_assert_msg(strstr(clscan_last_error(), "clscan_plan_create_custom"), "%s", clscan_last_error());
}
END_TEST

/* ---- Kernel sources from CLSCAN_KERNEL_DIR ----
 * These use MIN uint64 exclusive, which no other test of this program builds, so that no cached
 * program (built from the embedded sources) could stand in for the one from the directory. */

static char kdir[64];

static void copy_file(const char *from, const char *to, const char *append)
{
    FILE *in = fopen(from, "rb");
    ck_assert_msg(in != NULL, "cannot read %s (CLSCAN_SRCDIR must name the source tree)", from);
    FILE *out = fopen(to, "wb");
    ck_assert_msg(out != NULL, "cannot write %s", to);
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        ck_assert(fwrite(buf, 1, n, out) == n);
    if (append)
        fputs(append, out);
    fclose(in);
    ck_assert(fclose(out) == 0);
}

/* Makes a temporary directory with a copy of scan/single_pass.cl, with `append` appended (may be
 * NULL), and puts it in front of the source tree's cl/ in CLSCAN_KERNEL_DIR: the other files come
 * from the source tree. */
static void make_kernel_dir(const char *append)
{
    const char *srcdir = getenv("CLSCAN_SRCDIR");
    if (!srcdir || !*srcdir)
        srcdir = CLSCAN_TEST_SRCDIR;
    snprintf(kdir, sizeof kdir, "/tmp/clscan-kernels-XXXXXX");
    ck_assert_msg(mkdtemp(kdir) != NULL, "mkdtemp failed");
    char from[4096], to[4096], path[8300];
    snprintf(to, sizeof to, "%s/scan", kdir);
    ck_assert(mkdir(to, 0700) == 0);
    snprintf(from, sizeof from, "%s/cl/scan/single_pass.cl", srcdir);
    snprintf(to, sizeof to, "%s/scan/single_pass.cl", kdir);
    copy_file(from, to, append);
    snprintf(path, sizeof path, "%s:%s/cl", kdir, srcdir);
    ck_assert(setenv("CLSCAN_KERNEL_DIR", path, 1) == 0);
}

static void remove_kernel_dir(void)
{
    unsetenv("CLSCAN_KERNEL_DIR");
    if (!kdir[0])
        return;
    char path[4096];
    snprintf(path, sizeof path, "%s/scan/single_pass.cl", kdir);
    unlink(path);
    snprintf(path, sizeof path, "%s/scan", kdir);
    rmdir(path);
    rmdir(kdir);
    kdir[0] = '\0';
}

/* A kernel directory whose ops/builtin.cl is a FIFO, a device or a file over 1 MiB: the plan
 * fails at once (a FIFO blocked fopen for ever; /dev/zero was read up to 4 GB). */
START_TEST(kernel_dir_reads_only_regular_files_of_bounded_size)
{
    char dir[64] = "/tmp/clscan-kernels-XXXXXX", ops[128], path[256];
    ck_assert(mkdtemp(dir) != NULL);
    snprintf(ops, sizeof ops, "%s/ops", dir);
    snprintf(path, sizeof path, "%s/builtin.cl", ops);
    ck_assert(mkdir(ops, 0700) == 0);
    for (int kind = 0; kind < 3; kind++) {
        if (kind == 0) {
            ck_assert(mkfifo(path, 0600) == 0);
        } else if (kind == 1) {
            ck_assert(symlink("/dev/zero", path) == 0);
        } else {
            FILE *f = fopen(path, "wb");
            ck_assert_ptr_nonnull(f);
            ck_assert(fseek(f, 2L << 20, SEEK_SET) == 0 && fputc(' ', f) != EOF && fclose(f) == 0);
        }
        ck_assert(setenv("CLSCAN_KERNEL_DIR", dir, 1) == 0);
        cl_int err = 12345;
        clscan_plan *p = clscan_plan_create(tu.context, tu.device, CLSCAN_MIN, CLSCAN_UINT64, CLSCAN_EXCLUSIVE, &err);
        unsetenv("CLSCAN_KERNEL_DIR");
        clscan_plan_release(p);
        unlink(path);
        ck_assert_msg(p == NULL && err == CLSCAN_KERNEL_SOURCE_NOT_FOUND, "case %d: got %s", kind,
                      clscan_error_string(err));
        ck_assert_msg(*clscan_last_error(), "case %d: no message", kind);
    }
    rmdir(ops);
    rmdir(dir);
}
END_TEST

START_TEST(missing_kernel_dir_is_source_not_found)
{
    ck_assert(setenv("CLSCAN_KERNEL_DIR", "/nonexistent/clscan-kernels", 1) == 0);
    cl_int err = 12345;
    clscan_plan *p = clscan_plan_create(tu.context, tu.device, CLSCAN_MIN, CLSCAN_UINT64, CLSCAN_EXCLUSIVE, &err);
    unsetenv("CLSCAN_KERNEL_DIR");
    clscan_plan_release(p);
    ck_assert_msg(p == NULL, "a plan was created from /nonexistent");
    ck_assert_msg(err == CLSCAN_KERNEL_SOURCE_NOT_FOUND, "got %s", clscan_error_string(err));
    ck_assert_msg(*clscan_last_error(), "no message");
}
END_TEST

static bool mentions_error(const char *s)
{
    for (; *s; s++)
        if (tolower((unsigned char)s[0]) == 'e' && strncmp(s + 1, "rror", 4) == 0)
            return true;
    return false;
}

START_TEST(syntax_error_in_kernel_dir_is_build_failure_with_the_log)
{
    make_kernel_dir("\n__kernel void clscan_injected_syntax_error(__global int *p) { p[0] = ; }\n");
    cl_int err = 12345;
    clscan_plan *p = clscan_plan_create(tu.context, tu.device, CLSCAN_MIN, CLSCAN_UINT64, CLSCAN_EXCLUSIVE, &err);
    remove_kernel_dir();
    char msg[4096];
    snprintf(msg, sizeof msg, "%s", clscan_last_error() ? clscan_last_error() : "(null)");
    clscan_plan_release(p);
    ck_assert_msg(p == NULL, "a plan was created from sources with a syntax error");
    ck_assert_msg(err == CL_BUILD_PROGRAM_FAILURE, "got %s", clscan_error_string(err));
    ck_assert_msg(mentions_error(msg), "the message does not show the build log: \"%s\"", msg);
}
END_TEST

START_TEST(copied_kernel_dir_works)
{
    make_kernel_dir(NULL);
    cl_int err = 12345;
    clscan_plan *p = clscan_plan_create(tu.context, tu.device, CLSCAN_MIN, CLSCAN_UINT64, CLSCAN_EXCLUSIVE, &err);
    remove_kernel_dir();
    ck_assert_msg(p != NULL && err == CL_SUCCESS, "a plan from a copy of the sources: %s: %s",
                  clscan_error_string(err), clscan_last_error());
    char msg[2048];
    bool ok = tu_check_scan(p, &(tu_case){.op = CLSCAN_MIN, .type = CLSCAN_UINT64, .kind = CLSCAN_EXCLUSIVE,
                                          .count = 3 * tu_tile(p) + 1}, msg, sizeof msg);
    clscan_plan_release(p);
    ck_assert_msg(ok, "%s", msg);
}
END_TEST

/* ---- Devices, strings, version ---- */

START_TEST(device_specs)
{
    cl_platform_id pl = NULL;
    cl_device_id dev = NULL;
    EXPECT(clscan_default_device("no-such-device-xyz", &pl, &dev), CLSCAN_INVALID_DEVICE_SPEC);
    EXPECT(clscan_default_device("99:0", &pl, &dev), CLSCAN_INVALID_DEVICE_SPEC);
    EXPECT(clscan_default_device("0:99", &pl, &dev), CLSCAN_INVALID_DEVICE_SPEC);
    cl_int err = clscan_default_device("0:0", &pl, &dev);
    ck_assert_msg(err == CL_SUCCESS, "\"0:0\": %s: %s", clscan_error_string(err), clscan_last_error());
    ck_assert(pl != NULL && dev != NULL);
    cl_platform_id first;
    cl_uint np = 0;
    ck_assert_int_eq(clGetPlatformIDs(1, &first, &np), CL_SUCCESS);
    ck_assert_msg(pl == first, "\"0:0\" is not on the first platform");

    /* The environment: CLSCAN_DEVICE decides for NULL, an explicit spec wins over it. */
    const char *old = getenv("CLSCAN_DEVICE");
    char *saved = old ? strdup(old) : NULL;
    setenv("CLSCAN_DEVICE", "no-such-device-xyz", 1);
    cl_int env_err = clscan_default_device(NULL, &pl, &dev);
    cl_int spec_err = clscan_default_device("0:0", &pl, &dev);
    if (saved)
        setenv("CLSCAN_DEVICE", saved, 1);
    else
        unsetenv("CLSCAN_DEVICE");
    free(saved);
    ck_assert_msg(env_err == CLSCAN_INVALID_DEVICE_SPEC, "CLSCAN_DEVICE=no-such-device-xyz: got %s",
                  clscan_error_string(env_err));
    ck_assert_msg(spec_err == CL_SUCCESS, "\"0:0\" with CLSCAN_DEVICE=no-such-device-xyz: got %s",
                  clscan_error_string(spec_err));
}
END_TEST

#define NAME_OF(code) {code, #code}

START_TEST(error_strings_name_the_codes)
{
    static const struct {
        cl_int code;
        const char *name;
    } names[] = {
        NAME_OF(CL_SUCCESS),
        NAME_OF(CL_INVALID_VALUE),
        NAME_OF(CL_INVALID_COMMAND_QUEUE),
        NAME_OF(CL_INVALID_MEM_OBJECT),
        NAME_OF(CL_INVALID_CONTEXT),
        NAME_OF(CL_INVALID_DEVICE),
        NAME_OF(CL_INVALID_EVENT_WAIT_LIST),
        NAME_OF(CL_INVALID_HOST_PTR),
        NAME_OF(CL_INVALID_WORK_GROUP_SIZE),
        NAME_OF(CL_MEM_COPY_OVERLAP),
        NAME_OF(CL_BUILD_PROGRAM_FAILURE),
        NAME_OF(CL_OUT_OF_RESOURCES),
        NAME_OF(CL_OUT_OF_HOST_MEMORY),
        NAME_OF(CLSCAN_INVALID_PLAN),
        NAME_OF(CLSCAN_INVALID_OPERATOR),
        NAME_OF(CLSCAN_INVALID_TYPE),
        NAME_OF(CLSCAN_INVALID_KIND),
        NAME_OF(CLSCAN_FP64_NOT_SUPPORTED),
        NAME_OF(CLSCAN_RANGE_OUT_OF_BOUNDS),
        NAME_OF(CLSCAN_DEVICE_NOT_SUPPORTED),
        NAME_OF(CLSCAN_KERNEL_SOURCE_NOT_FOUND),
        NAME_OF(CLSCAN_INVALID_DEVICE_SPEC),
        NAME_OF(CLSCAN_MPI_REMOTE_ERROR),
        NAME_OF(CLSCAN_MPI_FAILED),
        NAME_OF(CLSCAN_INVALID_PREDICATE),
        NAME_OF(CLSCAN_NO_PREDICATE),
        NAME_OF(CLSCAN_INVALID_AXIS),
        NAME_OF(CLSCAN_INVALID_PITCH),
        NAME_OF(CLSCAN_INVALID_TRANSFORM),
        NAME_OF(CLSCAN_TRANSFORM_NOT_SUPPORTED),
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const char *s = clscan_error_string(names[i].code);
        ck_assert_msg(s != NULL && strcmp(s, names[i].name) == 0, "clscan_error_string(%d) = \"%s\", expected \"%s\"",
                      (int)names[i].code, s ? s : "(null)", names[i].name);
    }
    static const cl_int unknown[] = {1, 12345, -2999, -3099, -3050, -9999, INT_MIN, INT_MAX};
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
        const char *s = clscan_error_string(unknown[i]);
        ck_assert_msg(s != NULL && *s, "clscan_error_string(%d) is NULL or empty", (int)unknown[i]);
    }
}
END_TEST

START_TEST(version_string_is_the_package_version)
{
    const char *v = clscan_version_string();
    ck_assert_ptr_nonnull(v);
    ck_assert_str_eq(v, CLSCAN_VERSION_STRING);
    unsigned a, b, c;
    char rest;
    ck_assert_msg(sscanf(v, "%u.%u.%u%c", &a, &b, &c, &rest) == 3, "version \"%s\" is not MAJOR.MINOR.PATCH", v);
    ck_assert(a == CLSCAN_VERSION_MAJOR && b == CLSCAN_VERSION_MINOR && c == CLSCAN_VERSION_PATCH);
}
END_TEST

/* ---- clscan_host ---- */

START_TEST(host_rejects_null_pointers_and_overlap)
{
    int32_t a[40], before[40];
    tu_fill_bytes(a, sizeof a);
    memcpy(before, a, sizeof a);
    int32_t out[40];
#define EXPECT_HOST(call, expected)                                                                    \
    do {                                                                                               \
        cl_int got_ = (call);                                                                          \
        ck_assert_msg(got_ == (expected), "%s returned %s, expected %s", #call, clscan_error_string(got_), \
                      #expected);                                                                      \
        ck_assert_msg(clscan_last_error() && *clscan_last_error(), "%s: no message", #call);            \
        ck_assert_msg(memcmp(a, before, sizeof a) == 0, "%s changed the array", #call);                 \
    } while (0)
    EXPECT_HOST(clscan_host(CLSCAN_SUM, CLSCAN_INT32, CLSCAN_INCLUSIVE, NULL, out, 10), CL_INVALID_HOST_PTR);
    EXPECT_HOST(clscan_host(CLSCAN_SUM, CLSCAN_INT32, CLSCAN_INCLUSIVE, a, NULL, 10), CL_INVALID_HOST_PTR);
    EXPECT_HOST(clscan_host(CLSCAN_SUM, CLSCAN_INT32, CLSCAN_INCLUSIVE, NULL, NULL, 10), CL_INVALID_HOST_PTR);
    EXPECT_HOST(clscan_host(CLSCAN_SUM, CLSCAN_INT32, CLSCAN_INCLUSIVE, a, a + 1, 10), CL_MEM_COPY_OVERLAP);
    EXPECT_HOST(clscan_host(CLSCAN_SUM, CLSCAN_INT32, CLSCAN_EXCLUSIVE, a + 5, a, 10), CL_MEM_COPY_OVERLAP);
    EXPECT_HOST(clscan_host(CLSCAN_SUM, CLSCAN_INT32, CLSCAN_INCLUSIVE, a, a + 9, 10), CL_MEM_COPY_OVERLAP);
    /* An AFFINE int32 element is 8 bytes: one int32 apart overlaps. */
    EXPECT_HOST(clscan_host(CLSCAN_AFFINE, CLSCAN_INT32, CLSCAN_INCLUSIVE, a, a + 1, 10), CL_MEM_COPY_OVERLAP);
    EXPECT_HOST(clscan_host((clscan_op)5, CLSCAN_INT32, CLSCAN_INCLUSIVE, a, out, 10), CLSCAN_INVALID_OPERATOR);
    EXPECT_HOST(clscan_host(CLSCAN_SUM, (clscan_type)6, CLSCAN_INCLUSIVE, a, out, 10), CLSCAN_INVALID_TYPE);
    EXPECT_HOST(clscan_host(CLSCAN_SUM, CLSCAN_INT32, (clscan_kind)2, a, out, 10), CLSCAN_INVALID_KIND);
    ck_assert_int_eq(clscan_host(CLSCAN_SUM, CLSCAN_INT32, CLSCAN_INCLUSIVE, NULL, NULL, 0), CL_SUCCESS);
    /* Disjoint parts of one array are fine. */
    ck_assert_int_eq(clscan_host(CLSCAN_SUM, CLSCAN_INT32, CLSCAN_INCLUSIVE, a, a + 10, 10), CL_SUCCESS);
    int32_t ref[10];
    tu_reference(CLSCAN_SUM, CLSCAN_INT32, CLSCAN_INCLUSIVE, before, ref, 10);
    ck_assert(memcmp(a + 10, ref, sizeof ref) == 0);
    ck_assert(memcmp(a, before, 10 * sizeof a[0]) == 0);
#undef EXPECT_HOST
}
END_TEST

int main(void)
{
    tu_open("errors_test");
    tu_watchdog(300);
    Suite *s = suite_create("errors");
    TCase *tc = tcase_create("enqueue");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, null_plan_is_invalid_plan);
    tcase_add_test(tc, null_queue_is_invalid_command_queue);
    tcase_add_test(tc, null_buffers_are_invalid_mem_object);
    tcase_add_test(tc, write_only_source_or_read_only_destination_is_invalid_mem_object);
    tcase_add_test(tc, ranges_past_the_end_are_out_of_bounds);
    tcase_add_test(tc, overlapping_ranges_of_one_buffer_are_copy_overlap);
    tcase_add_test(tc, objects_of_another_context_are_invalid_context);
    tcase_add_test(tc, inconsistent_wait_lists_are_invalid_event_wait_list);
    tcase_add_test(tc, count_zero_is_a_no_op_with_a_valid_event);
    suite_add_tcase(s, tc);
    tc = tcase_create("plan");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, plan_create_rejects_bad_arguments);
    tcase_add_test(tc, null_plan_release_and_sizes);
    tcase_add_test(tc, set_tuning_rejects_bad_values_and_keeps_the_old_tuning);
    tcase_add_test(tc, set_tuning_rejects_tiles_too_large_for_private_memory);
    tcase_add_test(tc, custom_snippets_longer_than_the_limits_are_invalid);
    tcase_add_test(tc, custom_size_beyond_any_type_is_a_size_mismatch);
    suite_add_tcase(s, tc);
    tc = tcase_create("kernel_dir");
    tcase_add_test(tc, missing_kernel_dir_is_source_not_found);
    tcase_add_test(tc, kernel_dir_reads_only_regular_files_of_bounded_size);
    tcase_add_test(tc, syntax_error_in_kernel_dir_is_build_failure_with_the_log);
    tcase_add_test(tc, copied_kernel_dir_works);
    suite_add_tcase(s, tc);
    tc = tcase_create("misc");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, device_specs);
    tcase_add_test(tc, error_strings_name_the_codes);
    tcase_add_test(tc, version_string_is_the_package_version);
    tcase_add_test(tc, host_rejects_null_pointers_and_overlap);
    suite_add_tcase(s, tc);
    int rc = tu_run(s);
    tu_close();
    return rc;
}
