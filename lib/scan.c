/* clscan_enqueue, clscan_enqueue_segmented and clscan_enqueue_by_key: argument checks, then the
 * scan as kernels on the caller's queue (scan_run.c). */
#include "check.h"
#include "scan_run.h"

#include <stdlib.h>

/* The checks every scan starts with; *done when count is 0 (then *event, if asked for, is a
 * marker after the wait list: OpenCL has no empty buffers, so there is nothing to scan). */
static cl_int check_common(const char *fn, clscan_plan *plan, cl_command_queue queue, size_t count, cl_uint nwait,
                           const cl_event *wait, cl_event *event, int *done)
{
    cl_int err;
    *done = 0;
    if (!plan)
        return clscan_fail(CLSCAN_INVALID_PLAN, "%s: plan is NULL", fn);
    if ((err = clscan_check_queue(fn, plan->context, plan->device, queue)) != CL_SUCCESS ||
        (err = clscan_check_wait_list(fn, plan->context, nwait, wait)) != CL_SUCCESS)
        return err;
    if (count == 0) {
        *done = 1;
        if (!event)
            return CL_SUCCESS;
        err = clEnqueueMarkerWithWaitList(queue, nwait, wait, event);
        return err == CL_SUCCESS ? err : clscan_fail(err, "%s: clEnqueueMarkerWithWaitList failed: %s", fn,
                                                     clscan_error_string(err));
    }
    return CL_SUCCESS;
}

/* src and dst of a scan: elements of the plan; the same range (in place) or apart. */
static cl_int check_data(const char *fn, const clscan_plan *plan, clscan_scan_job *j, clscan_range *d)
{
    clscan_range s;
    const size_t e = plan->element_size;
    cl_int err;
    if ((err = clscan_check_buffer(fn, plan->context, j->src, "src", 0, j->src_offset, j->count, e, &s)) ||
        (err = clscan_check_buffer(fn, plan->context, j->dst, "dst", 1, j->dst_offset, j->count, e, d)))
        return err;
    return clscan_check_same_or_disjoint(fn, &s, "src", d, "dst");
}

/* Runs the job on program `what` (the levels on the heads program), with the plan's lock. */
static cl_int run(const char *fn, clscan_plan *plan, clscan_program_kind what, clscan_scan_job *j,
                  cl_command_queue queue, cl_uint nwait, const cl_event *wait, cl_event *event)
{
    pthread_mutex_lock(&plan->lock);
    cl_int err = clscan_plan_program(plan, fn, what, &j->data);
    if (err == CL_SUCCESS)
        err = clscan_plan_program(plan, fn, what == CLSCAN_PROGRAM_PLAIN ? what : CLSCAN_PROGRAM_HEADS, &j->levels);
    if (err == CL_SUCCESS)
        err = clscan_scan_run(plan, j, queue, nwait, wait, event);
    pthread_mutex_unlock(&plan->lock);
    return err;
}

CLSCAN_API cl_int clscan_enqueue(clscan_plan *plan, cl_command_queue queue, cl_mem src, size_t src_offset,
                                 cl_mem dst, size_t dst_offset, size_t count, cl_uint num_events_in_wait_list,
                                 const cl_event *event_wait_list, cl_event *event)
{
    static const char fn[] = "clscan_enqueue";
    clscan_scan_job j = {.src = src, .dst = dst, .src_offset = src_offset, .dst_offset = dst_offset, .count = count};
    clscan_range d;
    int done;
    cl_int err = check_common(fn, plan, queue, count, num_events_in_wait_list, event_wait_list, event, &done);
    if (err != CL_SUCCESS || done || (err = check_data(fn, plan, &j, &d)) != CL_SUCCESS)
        return err;
    return run(fn, plan, CLSCAN_PROGRAM_PLAIN, &j, queue, num_events_in_wait_list, event_wait_list, event);
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
    clscan_range d, h;
    int done;
    cl_int err = check_common(fn, plan, queue, count, num_events_in_wait_list, event_wait_list, event, &done);
    if (err != CL_SUCCESS || done || (err = check_data(fn, plan, &j, &d)) != CL_SUCCESS ||
        (err = clscan_check_buffer(fn, plan->context, heads, "heads", 0, heads_offset, count, 1, &h)) != CL_SUCCESS ||
        (err = clscan_check_disjoint(fn, &h, "heads", &d, "dst")) != CL_SUCCESS)
        return err;
    return run(fn, plan, CLSCAN_PROGRAM_HEADS, &j, queue, num_events_in_wait_list, event_wait_list, event);
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
    int done;
    if (plan && key_type != CLSCAN_INT32 && key_type != CLSCAN_UINT32 && key_type != CLSCAN_INT64 &&
        key_type != CLSCAN_UINT64)
        return clscan_fail(CLSCAN_INVALID_TYPE, "%s: key_type %d is not an integer clscan_type", fn, (int)key_type);
    const int wide = key_type == CLSCAN_INT64 || key_type == CLSCAN_UINT64;
    cl_int err = check_common(fn, plan, queue, count, num_events_in_wait_list, event_wait_list, event, &done);
    if (err != CL_SUCCESS || done || (err = check_data(fn, plan, &j, &d)) != CL_SUCCESS ||
        (err = clscan_check_buffer(fn, plan->context, keys, "keys", 0, keys_offset, count, wide ? 8 : 4, &k)) ||
        (err = clscan_check_disjoint(fn, &k, "keys", &d, "dst")) != CL_SUCCESS)
        return err;
    return run(fn, plan, wide ? CLSCAN_PROGRAM_KEYS_64 : CLSCAN_PROGRAM_KEYS_32, &j, queue,
               num_events_in_wait_list, event_wait_list, event);
}

cl_int clscan_scan_step(clscan_chain *c, clscan_plan *plan, cl_mem buffer, size_t count)
{
    cl_event stack[CLSCAN_CHAIN_STACK], *heap, ev = NULL;
    const cl_event *list;
    cl_uint n;
    cl_int err = clscan_chain_wait_list(c, stack, &heap, &list, &n);
    if (err == CL_SUCCESS)
        err = clscan_enqueue(plan, c->queue, buffer, 0, buffer, 0, count, n, list,
                             clscan_chain_wants_event(c, 0) ? &ev : NULL);
    free(heap);
    if (err == CL_SUCCESS)
        clscan_chain_advance(c, ev);
    return err;
}
