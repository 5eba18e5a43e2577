/* clscan_enqueue_segmented, clscan_enqueue_by_key and clscan_enqueue_segmented_offsets:
 * argument checks, then the scan as kernels on the caller's queue (scan_run.c);
 * clscan_enqueue_segmented_check: the checks alone. */
#include "check.h"
#include "scan_job.h"

#include <stdint.h>

/* clscan_enqueue_segmented's checks on the job j; fills j's options (none). */
static cl_int segmented_checks(const char *fn, clscan_plan *plan, cl_command_queue queue, clscan_scan_job *j,
                               cl_uint nwait, const cl_event *wait, int *done)
{
    clscan_range d, h;
    cl_int err = clscan_scan_check_common(fn, plan, queue, j->count, nwait, wait, done);
    if (err != CL_SUCCESS || (err = clscan_scan_check_no_transform(fn, plan)) != CL_SUCCESS || *done ||
        (err = clscan_scan_check_data(fn, plan, j, &d)) != CL_SUCCESS ||
        (err = clscan_check_buffer(fn, plan->context, j->heads, "heads", 0, j->heads_offset, j->count, 1, &h)) !=
            CL_SUCCESS ||
        (err = clscan_check_disjoint(fn, &h, "heads", &d, "dst")) != CL_SUCCESS)
        return err;
    clscan_scan_no_options(plan, &j->opt);
    return CL_SUCCESS;
}

CLSCAN_API cl_int clscan_enqueue_segmented(clscan_plan *plan, cl_command_queue queue, cl_mem src,
                                           size_t src_offset, cl_mem heads, size_t heads_offset, cl_mem dst,
                                           size_t dst_offset, size_t count, cl_uint num_events_in_wait_list,
                                           const cl_event *event_wait_list, cl_event *event)
{
    static const char fn[] = "clscan_enqueue_segmented";
    /* keys: unused by the heads program, any buffer will do. */
    clscan_scan_job j = {.segmented = 1, .heads = heads, .keys = heads, .heads_offset = heads_offset,
                         .src = src, .dst = dst, .src_offset = src_offset, .dst_offset = dst_offset, .count = count};
    int done = 0;
    cl_int err = segmented_checks(fn, plan, queue, &j, num_events_in_wait_list, event_wait_list, &done);
    if (err != CL_SUCCESS || done)
        return err != CL_SUCCESS ? err
                                 : clscan_scan_empty_marker(fn, queue, num_events_in_wait_list, event_wait_list, event);
    return clscan_scan_locked_run(fn, plan, CLSCAN_PROGRAM_HEADS, &j, queue, num_events_in_wait_list, event_wait_list,
                                  event);
}

CLSCAN_API cl_int clscan_enqueue_segmented_check(clscan_plan *plan, cl_command_queue queue, cl_mem src,
                                                 size_t src_offset, cl_mem heads, size_t heads_offset, cl_mem dst,
                                                 size_t dst_offset, size_t count, cl_uint num_events_in_wait_list,
                                                 const cl_event *event_wait_list)
{
    clscan_scan_job j = {.segmented = 1, .heads = heads, .keys = heads, .heads_offset = heads_offset,
                         .src = src, .dst = dst, .src_offset = src_offset, .dst_offset = dst_offset, .count = count};
    int done = 0;
    return segmented_checks("clscan_enqueue_segmented_check", plan, queue, &j, num_events_in_wait_list,
                            event_wait_list, &done);
}

CLSCAN_API cl_int clscan_enqueue_by_key(clscan_plan *plan, cl_command_queue queue, clscan_type key_type,
                                        cl_mem keys, size_t keys_offset, cl_mem src, size_t src_offset,
                                        cl_mem dst, size_t dst_offset, size_t count,
                                        cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                        cl_event *event)
{
    static const char fn[] = "clscan_enqueue_by_key";
    /* heads: unused by the keys programs, any buffer will do. */
    clscan_scan_job j = {.segmented = 1, .heads = keys, .keys = keys, .keys_offset = keys_offset,
                         .src = src, .dst = dst, .src_offset = src_offset, .dst_offset = dst_offset, .count = count};
    clscan_range d, k;
    int done = 0;
    if (plan && key_type != CLSCAN_INT32 && key_type != CLSCAN_UINT32 && key_type != CLSCAN_INT64 &&
        key_type != CLSCAN_UINT64)
        return clscan_fail(CLSCAN_INVALID_TYPE, "%s: key_type %d is not a 32- or 64-bit integer clscan_type", fn,
                           (int)key_type);
    const int wide = key_type == CLSCAN_INT64 || key_type == CLSCAN_UINT64;
    cl_int err = clscan_scan_check_common(fn, plan, queue, count, num_events_in_wait_list, event_wait_list, &done);
    if (err == CL_SUCCESS)
        err = clscan_scan_check_no_transform(fn, plan);
    if (err == CL_SUCCESS && done)
        return clscan_scan_empty_marker(fn, queue, num_events_in_wait_list, event_wait_list, event);
    if (err != CL_SUCCESS || (err = clscan_scan_check_data(fn, plan, &j, &d)) != CL_SUCCESS ||
        (err = clscan_check_buffer(fn, plan->context, keys, "keys", 0, keys_offset, count, wide ? 8 : 4, &k)) ||
        (err = clscan_check_disjoint(fn, &k, "keys", &d, "dst")) != CL_SUCCESS)
        return err;
    clscan_scan_no_options(plan, &j.opt);
    return clscan_scan_locked_run(fn, plan, wide ? CLSCAN_PROGRAM_KEYS_64 : CLSCAN_PROGRAM_KEYS_32, &j, queue,
                                  num_events_in_wait_list, event_wait_list, event);
}

CLSCAN_API cl_int clscan_enqueue_segmented_offsets(clscan_plan *plan, cl_command_queue queue, cl_mem src,
                                                   size_t src_offset, clscan_type offsets_type, cl_mem offsets,
                                                   size_t offsets_offset, size_t nsegments, cl_mem dst,
                                                   size_t dst_offset, size_t count, cl_mem totals,
                                                   size_t totals_offset, cl_uint num_events_in_wait_list,
                                                   const cl_event *event_wait_list, cl_event *event)
{
    static const char fn[] = "clscan_enqueue_segmented_offsets";
    if (!plan)
        return clscan_fail(CLSCAN_INVALID_PLAN, "%s: plan is NULL", fn);
    if (plan->transform_source)
        return clscan_scan_check_no_transform(fn, plan);
    if (offsets_type != CLSCAN_UINT32 && offsets_type != CLSCAN_UINT64)
        return clscan_fail(CLSCAN_INVALID_TYPE, "%s: offsets_type %d is not CLSCAN_UINT32 or CLSCAN_UINT64", fn,
                           (int)offsets_type);
    if (!dst && !totals)
        return clscan_fail(CL_INVALID_MEM_OBJECT, "%s: dst is NULL and no totals are asked for", fn);
    /* offsets[0] = 0 and offsets[nsegments] = count cannot both hold: no segment would cover
     * the elements. */
    if (nsegments == 0 && count > 0)
        return clscan_fail(CL_INVALID_VALUE, "%s: %zu elements in no segments (nsegments 0 needs count 0)", fn,
                           count);
    /* Nothing to write without elements and without totals of (empty) segments. */
    int done = 0;
    cl_int err = clscan_scan_check_common(fn, plan, queue, count || (totals && nsegments), num_events_in_wait_list,
                                          event_wait_list, &done);
    if (err != CL_SUCCESS || done)
        return err != CL_SUCCESS ? err
                                 : clscan_scan_empty_marker(fn, queue, num_events_in_wait_list, event_wait_list, event);
    if (nsegments == SIZE_MAX)
        return clscan_fail(CLSCAN_RANGE_OUT_OF_BOUNDS, "%s: nsegments + 1 offsets overflow", fn);
    const size_t e = plan->element_size, oe = offsets_type == CLSCAN_UINT64 ? 8 : 4;
    clscan_range s, d, o, t;
    if ((err = clscan_check_buffer(fn, plan->context, src, "src", 0, src_offset, count, e, &s)) != CL_SUCCESS ||
        (dst && (err = clscan_check_buffer(fn, plan->context, dst, "dst", 1, dst_offset, count, e, &d))) ||
        (dst && (err = clscan_check_same_or_disjoint(fn, &s, "src", &d, "dst")) != CL_SUCCESS) ||
        (err = clscan_check_buffer(fn, plan->context, offsets, "offsets", 0, offsets_offset, nsegments + 1, oe,
                                   &o)) != CL_SUCCESS ||
        (dst && (err = clscan_check_disjoint(fn, &o, "offsets", &d, "dst")) != CL_SUCCESS))
        return err;
    if (totals &&
        ((err = clscan_check_buffer(fn, plan->context, totals, "totals", 1, totals_offset, nsegments, e, &t)) ||
         (err = clscan_check_disjoint(fn, &t, "totals", &s, "src")) != CL_SUCCESS ||
         (dst && (err = clscan_check_disjoint(fn, &t, "totals", &d, "dst")) != CL_SUCCESS) ||
         (err = clscan_check_disjoint(fn, &t, "totals", &o, "offsets")) != CL_SUCCESS))
        return err;
    clscan_offsets_job job = {
        .scan = {.segmented = 1, .src = src, .dst = dst, .src_offset = src_offset, .dst_offset = dst_offset,
                 .count = count},
        .offsets = offsets, .offsets_offset = offsets_offset, .wide = oe == 8, .nsegments = nsegments,
        .totals = totals, .totals_offset = totals_offset};
    clscan_scan_no_options(plan, &job.scan.opt);
    pthread_mutex_lock(&plan->lock);
    err = clscan_plan_program(plan, fn, CLSCAN_PROGRAM_HEADS, &job.scan.data);
    if (err == CL_SUCCESS)
        err = clscan_plan_program(plan, fn, CLSCAN_PROGRAM_HEADS, &job.scan.levels);
    if (err == CL_SUCCESS)
        err = clscan_offsets_run(plan, &job, queue, num_events_in_wait_list, event_wait_list, event);
    pthread_mutex_unlock(&plan->lock);
    return err;
}
