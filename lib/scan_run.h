/* Running a scan on the plan's kernels (scan_run.c): one tile, reduce-then-scan or the single
 * pass, as a chain of commands on the caller's queue. */
#ifndef CLSCAN_SCAN_RUN_H
#define CLSCAN_SCAN_RUN_H

#include "plan.h"

/* The options of a scan as the kernels take them (cl/scan/options.cl). */
typedef struct clscan_job_options {
    cl_uint carry_mode;          /* 0 none, 1 carry_value, 2 carry_buf[carry_offset] */
    const void *carry_value;     /* an element (mode 1), or the plan's zeros */
    size_t value_size;           /* bytes of the carry and the total (a recurrence's: one y) */
    cl_mem carry_buf, total_buf; /* NULL: none */
    cl_ulong carry_offset, total_offset;
    cl_uint write_dst;           /* 0: a reduction (dst NULL) */
    /* Inclusive scans that store dst copy the total from it after the scan (so that it is the
     * last output's bits, not another tree's), not from the kernels: */
    int total_from_dst;
    cl_ulong last_offset;        /* the last output's offset in dst (elements of value_size) */
} clscan_job_options;

/* What a scan launches: the data's program, the program of the levels of tile totals (the same
 * for plain scans; the heads program for segmented ones), and where heads or keys come from. */
typedef struct clscan_scan_job {
    const clscan_scan_program *data;
    const clscan_scan_program *levels;
    int segmented;
    cl_mem heads, keys;          /* segmented: the program uses one, the other is a placeholder */
    cl_ulong heads_offset, keys_offset;
    int recurrence;              /* the coefficients a of a recurrence program: */
    cl_mem coef;                 /* the array (a placeholder when constant) */
    cl_ulong coef_offset;        /* reverse programs: of the last one */
    const void *coef_value;      /* the constant (or the plan's zeros) */
    size_t coef_size;            /* bytes of one coefficient */
    cl_uint coef_const;
    cl_mem src, dst;             /* dst NULL: no scan stored (opt.write_dst 0) */
    cl_ulong src_offset, dst_offset;   /* reverse programs: of the last elements */
    size_t count;                /* > 0, or 0 with a total to write */
    clscan_job_options opt;
} clscan_scan_job;

/* Enqueues the job after the wait list; called with the plan's lock held. */
cl_int clscan_scan_run(clscan_plan *plan, const clscan_scan_job *j, cl_command_queue queue, cl_uint nwait,
                       const cl_event *wait, cl_event *event);

/* A segmented scan with segments given by offsets (clscan_enqueue_segmented_offsets), checked. */
typedef struct clscan_offsets_job {
    clscan_scan_job scan;        /* the heads program's job: src, dst (NULL: totals alone), count */
    cl_mem offsets;
    cl_ulong offsets_offset;     /* in offsets */
    cl_uint wide;                /* 8-byte offsets */
    size_t nsegments;            /* > 0 (count 0: with totals) */
    cl_mem totals;               /* NULL: none */
    cl_ulong totals_offset;
} clscan_offsets_job;

/* Enqueues it after the wait list (the heads, the scan, the totals); the lock held. */
cl_int clscan_offsets_run(clscan_plan *plan, clscan_offsets_job *o, cl_command_queue queue, cl_uint nwait,
                          const cl_event *wait, cl_event *event);

/* A scan along one axis of a 2-D array (clscan_enqueue_axis), checked: nlines lines of n > 0
 * elements each, element k of line l at offset + l * line_stride + k * step (in elements) of src
 * and of dst. */
typedef struct clscan_axis_job {
    const clscan_scan_program *data;   /* the axis program */
    cl_mem src, dst;
    cl_ulong src_offset, src_line_stride, src_step;
    cl_ulong dst_offset, dst_line_stride, dst_step;
    size_t nlines, n;
    int columns;                       /* along columns (the CPUs' kernels in lockstep) */
} clscan_axis_job;

/* Work-items per work-group of the axis kernels on a device. */
size_t clscan_axis_wg(const clscan_device_info *info);

/* Enqueues it after the wait list; the lock held. */
cl_int clscan_axis_run(clscan_plan *plan, const clscan_axis_job *a, cl_command_queue queue, cl_uint nwait,
                       const cl_event *wait, cl_event *event);

/* The single pass's status words for `tiles` tiles of variant v in the queue's slot: grown, and
 * cleared (as the first command of c) when new; *base and *epoch for the kernel.  After the
 * kernel is enqueued, clscan_status_advance. */
cl_int clscan_status_prepare(const clscan_plan *plan, const clscan_variant *v, clscan_chain *c,
                             clscan_scratch *slot, size_t tiles, cl_uint *base, cl_uint *epoch);
void clscan_status_advance(clscan_scratch *slot, size_t tiles);

/* Reduce-by-key in one pass (scan_runs.c, cl/scan/runs.cl), checked: count > 0 values of the
 * plan's type with 4- or 8-byte keys; the runs' keys and reductions, and their number. */
typedef struct clscan_runs_job {
    const clscan_scan_program *data;   /* a runs program */
    cl_mem keys, values, keys_out, values_out, nruns;
    cl_ulong keys_offset, values_offset, keys_out_offset, values_out_offset, nruns_offset;
    size_t count;
} clscan_runs_job;

/* Enqueues it after the wait list; the lock held. */
cl_int clscan_runs_run(clscan_plan *plan, const clscan_runs_job *r, cl_command_queue queue, cl_uint nwait,
                       const cl_event *wait, cl_event *event);

/* scan.c: an exclusive (the plan's kind) scan of count elements of buffer in place, as the next
 * command of another operation's chain (the algorithms' block counts). */
cl_int clscan_scan_step(clscan_chain *c, clscan_plan *plan, cl_mem buffer, size_t count);

#endif
