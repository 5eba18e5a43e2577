/* What the scan entry points (scan.c, scan_segmented.c) share: the checks every scan starts
 * with, the checks of src and dst, a job without options, and its run under the plan's lock. */
#ifndef CLSCAN_SCAN_JOB_H
#define CLSCAN_SCAN_JOB_H

#include "scan_run.h"

/* plan, queue and wait list; *done when count is 0 (nothing to scan: the caller enqueues at
 * most clscan_scan_empty_marker). */
cl_int clscan_scan_check_common(const char *fn, clscan_plan *plan, cl_command_queue queue, size_t count,
                                cl_uint nwait, const cl_event *wait, int *done);
/* *event, if asked for, as a marker after the wait list: a call with nothing to scan. */
cl_int clscan_scan_empty_marker(const char *fn, cl_command_queue queue, cl_uint nwait, const cl_event *wait,
                                cl_event *event);
/* j's src and dst: elements of the plan, the same range (in place) or apart; dst's range in *d. */
cl_int clscan_scan_check_data(const char *fn, const clscan_plan *plan, clscan_scan_job *j, clscan_range *d);
/* CLSCAN_TRANSFORM_NOT_SUPPORTED for a plan with a transform (scans that apply none). */
cl_int clscan_scan_check_no_transform(const char *fn, const clscan_plan *plan);
/* No carry, no total, dst written. */
void clscan_scan_no_options(const clscan_plan *plan, clscan_job_options *o);
/* Runs j on program `what` (and the levels' program) with the plan's lock. */
cl_int clscan_scan_locked_run(const char *fn, clscan_plan *plan, clscan_program_kind what, clscan_scan_job *j,
                              cl_command_queue queue, cl_uint nwait, const cl_event *wait, cl_event *event);

#endif
