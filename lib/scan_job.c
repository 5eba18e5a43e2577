/* What every scan entry point shares (scan_job.h): the first checks, the empty call's marker,
 * the checks of src and dst, the empty options, and the run of a job under the plan's lock. */
#include "check.h"
#include "scan_job.h"

/* The checks every scan starts with; *done when count is 0 (nothing to scan: the caller
 * enqueues at most clscan_scan_empty_marker). */
cl_int clscan_scan_check_common(const char *fn, clscan_plan *plan, cl_command_queue queue, size_t count,
                                cl_uint nwait, const cl_event *wait, int *done)
{
    cl_int err;
    *done = 0;
    if (!plan)
        return clscan_fail(CLSCAN_INVALID_PLAN, "%s: plan is NULL", fn);
    if ((err = clscan_check_queue(fn, plan->context, plan->device, queue)) != CL_SUCCESS ||
        (err = clscan_check_wait_list(fn, plan->context, nwait, wait)) != CL_SUCCESS)
        return err;
    *done = count == 0;
    return CL_SUCCESS;
}

/* A call with nothing to scan: *event, if asked for, is a marker after the wait list (OpenCL
 * has no empty buffers, so there is nothing to scan). */
cl_int clscan_scan_empty_marker(const char *fn, cl_command_queue queue, cl_uint nwait, const cl_event *wait,
                                cl_event *event)
{
    if (!event)
        return CL_SUCCESS;
    cl_int err = clEnqueueMarkerWithWaitList(queue, nwait, wait, event);
    return err == CL_SUCCESS ? err : clscan_fail(err, "%s: clEnqueueMarkerWithWaitList failed: %s", fn,
                                                 clscan_error_string(err));
}

cl_int clscan_scan_check_no_transform(const char *fn, const clscan_plan *plan)
{
    if (plan && plan->transform_source)
        return clscan_fail(CLSCAN_TRANSFORM_NOT_SUPPORTED, "%s: the plan has a transform, which this scan does not "
                           "apply (clscan_plan_set_transform(plan, NULL) clears it)", fn);
    return CL_SUCCESS;
}

/* src and dst of a scan: elements of the plan (of the transform's sizes); the same range (in place) or apart. */
cl_int clscan_scan_check_data(const char *fn, const clscan_plan *plan, clscan_scan_job *j, clscan_range *d)
{
    clscan_range s;
    cl_int err;
    if ((err = clscan_check_buffer(fn, plan->context, j->src, "src", 0, j->src_offset, j->count, plan->src_size,
                                   &s)) ||
        (err = clscan_check_buffer(fn, plan->context, j->dst, "dst", 1, j->dst_offset, j->count, plan->dst_size, d)))
        return err;
    return clscan_check_same_or_disjoint(fn, &s, "src", d, "dst");
}

/* No options: no carry, no total, dst written. */
void clscan_scan_no_options(const clscan_plan *plan, clscan_job_options *o)
{
    const clscan_job_options none = {.carry_value = plan->zeros, .value_size = plan->element_size, .write_dst = 1};
    *o = none;
}

/* The program that scans the levels of tile totals, in element order: the plain or the heads
 * program; a compensated plan's levels program (its plain programs store pairs narrower than
 * the totals), built only when reduce-then-scan needs it (NULL otherwise). */
static cl_int levels_program(const char *fn, clscan_plan *plan, clscan_program_kind what, clscan_scan_job *j)
{
    const clscan_variant *v = &j->data->variant;
    j->levels = NULL;
    if (!CLSCAN_PROGRAM_IS_PLAIN(what))
        return clscan_plan_program(plan, fn, CLSCAN_PROGRAM_HEADS, &j->levels);
    /* A transform's program loads the user's elements: its totals are scanned by the levels
     * program, as a compensated plan's. */
    if (!v->compensated && !v->transform)
        return clscan_plan_program(plan, fn, CLSCAN_PROGRAM_PLAIN, &j->levels);
    if (v->algorithm == CLSCAN_ALGORITHM_REDUCE_THEN_SCAN && j->count > v->wg * v->items)
        return clscan_plan_program(plan, fn, CLSCAN_PROGRAM_LEVELS, &j->levels);
    return CL_SUCCESS;
}

/* Runs the job on program `what` (and the levels' program), with the plan's lock. */
cl_int clscan_scan_locked_run(const char *fn, clscan_plan *plan, clscan_program_kind what, clscan_scan_job *j,
                              cl_command_queue queue, cl_uint nwait, const cl_event *wait, cl_event *event)
{
    pthread_mutex_lock(&plan->lock);
    cl_int err = clscan_plan_program(plan, fn, what, &j->data);
    if (err == CL_SUCCESS)
        err = levels_program(fn, plan, what, j);
    if (err == CL_SUCCESS)
        err = clscan_scan_run(plan, j, queue, nwait, wait, event);
    pthread_mutex_unlock(&plan->lock);
    return err;
}
