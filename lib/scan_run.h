/* Running a scan on the plan's kernels (scan_run.c): one tile, reduce-then-scan or the single
 * pass, as a chain of commands on the caller's queue. */
#ifndef CLSCAN_SCAN_RUN_H
#define CLSCAN_SCAN_RUN_H

#include "plan.h"

/* What a scan launches: the data's program, the program of the levels of tile totals (the same
 * for plain scans; the heads program for segmented ones), and where heads or keys come from. */
typedef struct clscan_scan_job {
    const clscan_scan_program *data;
    const clscan_scan_program *levels;
    int segmented;
    cl_mem heads, keys;          /* segmented: the program uses one, the other is a placeholder */
    cl_ulong heads_offset, keys_offset;
    cl_mem src, dst;
    cl_ulong src_offset, dst_offset;
    size_t count;                /* > 0 */
} clscan_scan_job;

/* Enqueues the job after the wait list; called with the plan's lock held. */
cl_int clscan_scan_run(clscan_plan *plan, const clscan_scan_job *j, cl_command_queue queue, cl_uint nwait,
                       const cl_event *wait, cl_event *event);

/* scan.c: an exclusive (the plan's kind) scan of count elements of buffer in place, as the next
 * command of another operation's chain (the algorithms' block counts). */
cl_int clscan_scan_step(clscan_chain *c, clscan_plan *plan, cl_mem buffer, size_t count);

#endif
