/* clscan_enqueue_axis: scans along the rows or the columns of a 2-D array with pitches, on the
 * axis program's kernels (cl/scan/axis.cl): the argument checks, the choice of blocks, and the
 * commands (one kernel, or reduce-then-scan over blocks of each line).
 * clscan_enqueue_axis_totals: the totals of the lines, on the same blocks (the blocks' totals,
 * then each line's folded in order). */
#include "check.h"
#include "scan_job.h"

#include <stdint.h>

/* Work-items per work-group of the axis kernels: 64 neighbouring lines (along columns, 64
 * consecutive elements of a row: 256 bytes of floats, whole cache lines and memory
 * transactions), fewer where the device allows fewer. */
#define AXIS_WG 64

size_t clscan_axis_wg(const clscan_device_info *info)
{
    size_t wg = AXIS_WG;
    while (wg > 1 && wg > info->max_work_group_size)
        wg /= 2;
    return wg;
}

/* The work-items the blocks aim at: enough to fill a GPU (the H200's 132 multiprocessors with 4
 * work-groups of 64 each, and more); a line is cut into blocks of at least MIN_BLOCK elements
 * only when the lines alone give fewer work-items.  The blocks depend on the shape alone, never
 * on the device, so the same shape has the same bits everywhere. */
#define AXIS_WORK_ITEMS ((size_t)1 << 15)
#define MIN_BLOCK 64

static size_t ceil_div(size_t a, size_t b) { return a / b + (a % b != 0); }

/* Elements of each block of nlines lines of n elements, and the blocks per line. */
static void axis_blocks(size_t nlines, size_t n, size_t *block, size_t *nblocks)
{
    if (n == 0) {   /* (totals of empty lines: one empty block each, its total the neutral) */
        *block = 0;
        *nblocks = 1;
        return;
    }
    size_t k = 1;
    if (nlines < AXIS_WORK_ITEMS && n > MIN_BLOCK) {
        k = ceil_div(AXIS_WORK_ITEMS, nlines);
        if (k > ceil_div(n, MIN_BLOCK))
            k = ceil_div(n, MIN_BLOCK);
    }
    *block = ceil_div(n, k);
    *nblocks = ceil_div(n, *block);
}

#define ARG(k, i, v) (err == CL_SUCCESS ? (err = clSetKernelArg((k), (i), sizeof(v), &(v))) : err)

/* k over items work-items, after its arguments were set (err: how that went). */
static cl_int launch(cl_int err, clscan_chain *c, cl_kernel k, size_t items, size_t wg, int want_event)
{
    if (err != CL_SUCCESS)
        return clscan_fail(err, "clscan_enqueue_axis: clSetKernelArg failed: %s", clscan_error_string(err));
    return clscan_chain_launch(c, k, ceil_div(items, wg), wg, want_event);
}

/* The source's arguments from index 0: buffer, offset, line stride, step. */
static cl_int src_args(const clscan_axis_job *a, cl_kernel k)
{
    cl_int err = CL_SUCCESS;
    ARG(k, 0, a->src);
    ARG(k, 1, a->src_offset);
    ARG(k, 2, a->src_line_stride);
    ARG(k, 3, a->src_step);
    return err;
}

/* Along columns on CPUs the kernels run in lockstep (cl/scan/axis.cl), in work-groups no wider
 * than the lines (their padding steps too). */
static int axis_lockstep(const clscan_axis_job *a, size_t *wg)
{
    const int lockstep = a->columns && !a->data->variant.gpu;
    while (lockstep && *wg > 1 && *wg / 2 >= a->nlines)
        *wg /= 2;
    return lockstep;
}

/* clscan_axis_reduce: the total of every block of every line into totals[b * nlines + l]. */
static cl_int reduce_blocks(const clscan_axis_job *a, clscan_chain *c, cl_mem totals, size_t block, size_t nblocks,
                            size_t wg, int lockstep)
{
    const cl_ulong nlines = a->nlines, n = a->n, b = block, nb = nblocks;
    /* Each block's lines padded to whole work-groups: a work-group's work-items share a block. */
    const size_t items = ceil_div(a->nlines, wg) * wg * nblocks;
    cl_kernel k = lockstep ? a->data->axis_reduce_lockstep : a->data->axis_reduce;
    cl_int err = src_args(a, k);
    ARG(k, 4, nlines);
    ARG(k, 5, n);
    ARG(k, 6, b);
    ARG(k, 7, nb);
    ARG(k, 8, totals);
    return launch(err, c, k, items, wg, 0);
}

static cl_int axis_commands(const clscan_axis_job *a, clscan_chain *c, cl_mem totals, size_t block, size_t nblocks,
                            size_t wg, int want_event)
{
    const cl_ulong nlines = a->nlines, n = a->n, b = block, nb = nblocks;
    const cl_uint use = nblocks > 1;
    const int lockstep = axis_lockstep(a, &wg);
    /* Each block's lines padded to whole work-groups: a work-group's work-items share a block. */
    const size_t items = ceil_div(a->nlines, wg) * wg * nblocks;
    cl_int err = CL_SUCCESS;
    if (use) {
        if ((err = reduce_blocks(a, c, totals, block, nblocks, wg, lockstep)) != CL_SUCCESS)
            return err;
        cl_kernel k = a->data->axis_carries;
        ARG(k, 0, nlines);
        ARG(k, 1, nb);
        ARG(k, 2, totals);
        if ((err = launch(err, c, k, a->nlines, wg, 0)) != CL_SUCCESS)
            return err;
    }
    cl_kernel k = lockstep ? a->data->axis_scan_lockstep : a->data->axis_scan;
    err = src_args(a, k);
    ARG(k, 4, a->dst);
    ARG(k, 5, a->dst_offset);
    ARG(k, 6, a->dst_line_stride);
    ARG(k, 7, a->dst_step);
    ARG(k, 8, nlines);
    ARG(k, 9, n);
    ARG(k, 10, b);
    ARG(k, 11, nb);
    if (err == CL_SUCCESS)   /* unused with one block per line */
        err = clSetKernelArg(k, 12, sizeof(cl_mem), use ? &totals : NULL);
    ARG(k, 13, use);
    return launch(err, c, k, items, wg, want_event);
}

cl_int clscan_axis_run(clscan_plan *plan, const clscan_axis_job *a, cl_command_queue queue, cl_uint nwait,
                       const cl_event *wait, cl_event *event)
{
    size_t block, nblocks;
    axis_blocks(a->nlines, a->n, &block, &nblocks);
    /* More than one block per line: the totals in the queue's scratch (reduce-then-scan's), after
     * its previous use on out-of-order queues. */
    clscan_scratch *slot = nblocks > 1 ? clscan_scratch_slot(plan, queue) : NULL;
    cl_int err = CL_SUCCESS;
    if (slot)
        err = clscan_scratch_grow(plan->context, &slot->totals, &slot->totals_bytes,
                                  a->nlines * nblocks * a->data->variant.element_size);
    if (err != CL_SUCCESS)
        return err;
    clscan_chain c;
    if ((err = clscan_chain_begin(&c, queue, nwait, wait, slot ? slot->last_use : NULL, 0)) != CL_SUCCESS)
        return err;
    err = axis_commands(a, &c, slot ? slot->totals : NULL, block, nblocks, clscan_axis_wg(&plan->info),
                        event != NULL);
    clscan_chain_end(&c, err, event, slot && c.out_of_order ? &slot->last_use : NULL);
    return err;
}

CLSCAN_API cl_int clscan_enqueue_axis(clscan_plan *plan, cl_command_queue queue, clscan_axis axis, cl_mem src,
                                      size_t src_offset, size_t src_row_pitch, cl_mem dst, size_t dst_offset,
                                      size_t dst_row_pitch, size_t rows, size_t cols,
                                      cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                      cl_event *event)
{
    static const char fn[] = "clscan_enqueue_axis";
    if (!plan)
        return clscan_fail(CLSCAN_INVALID_PLAN, "%s: plan is NULL", fn);
    if (axis != CLSCAN_ALONG_ROWS && axis != CLSCAN_ALONG_COLUMNS)
        return clscan_fail(CLSCAN_INVALID_AXIS, "%s: axis %d is not CLSCAN_ALONG_ROWS or CLSCAN_ALONG_COLUMNS", fn,
                           (int)axis);
    if (src_row_pitch < cols || dst_row_pitch < cols)
        return clscan_fail(CLSCAN_INVALID_PITCH, "%s: a row pitch (src %zu, dst %zu) is less than cols (%zu)", fn,
                           src_row_pitch, dst_row_pitch, cols);
    int done = 0;
    cl_int err = clscan_scan_check_common(fn, plan, queue, rows && cols, num_events_in_wait_list, event_wait_list,
                                          &done);
    if (err == CL_SUCCESS)
        err = clscan_scan_check_no_transform(fn, plan);   /* the axis program applies none */
    if (err != CL_SUCCESS || done)
        return err != CL_SUCCESS ? err
                                 : clscan_scan_empty_marker(fn, queue, num_events_in_wait_list, event_wait_list, event);
    const size_t ns = clscan_pitched_extent(rows, cols, src_row_pitch);
    const size_t nd = clscan_pitched_extent(rows, cols, dst_row_pitch);
    if (ns == SIZE_MAX || nd == SIZE_MAX)
        return clscan_fail(CLSCAN_RANGE_OUT_OF_BOUNDS, "%s: %zu rows of pitch %zu overflow", fn, rows,
                           ns == SIZE_MAX ? src_row_pitch : dst_row_pitch);
    const size_t e = plan->element_size;
    clscan_range s, d;
    if ((err = clscan_check_buffer(fn, plan->context, src, "src", 0, src_offset, ns, e, &s)) != CL_SUCCESS ||
        (err = clscan_check_buffer(fn, plan->context, dst, "dst", 1, dst_offset, nd, e, &d)) != CL_SUCCESS)
        return err;
    /* In place: the same elements, row by row (the same first element and pitch); the arrays'
     * extents may also share bytes where one's rows lie in the other's gaps, which is rejected
     * as any other overlap. */
    const int overlap = clscan_overlap(&s, &d);
    if (overlap == 2 || (overlap == 1 && rows > 1 && src_row_pitch != dst_row_pitch))
        return clscan_fail(CL_MEM_COPY_OVERLAP, "%s: src and dst overlap without being the same array (the same "
                           "buffer, offset and row pitch)", fn);
    const int rows_axis = axis == CLSCAN_ALONG_ROWS;
    clscan_axis_job a = {.src = src, .dst = dst, .src_offset = src_offset, .dst_offset = dst_offset,
                         .src_line_stride = rows_axis ? src_row_pitch : 1, .src_step = rows_axis ? 1 : src_row_pitch,
                         .dst_line_stride = rows_axis ? dst_row_pitch : 1, .dst_step = rows_axis ? 1 : dst_row_pitch,
                         .nlines = rows_axis ? rows : cols, .n = rows_axis ? cols : rows, .columns = !rows_axis};
    pthread_mutex_lock(&plan->lock);
    err = clscan_plan_program(plan, fn, CLSCAN_PROGRAM_AXIS, &a.data);
    if (err == CL_SUCCESS)
        err = clscan_axis_run(plan, &a, queue, num_events_in_wait_list, event_wait_list, event);
    pthread_mutex_unlock(&plan->lock);
    return err;
}

/* The totals: every block's total into the queue's scratch (one block per line, when the lines
 * alone fill the device), then each line's folded into dst[dst_offset + l].  The lock held. */
static cl_int axis_totals_run(clscan_plan *plan, const clscan_axis_job *a, cl_command_queue queue, cl_uint nwait,
                              const cl_event *wait, cl_event *event)
{
    size_t block, nblocks, wg = clscan_axis_wg(&plan->info);
    axis_blocks(a->nlines, a->n, &block, &nblocks);
    clscan_scratch *slot = clscan_scratch_slot(plan, queue);
    cl_int err = clscan_scratch_grow(plan->context, &slot->totals, &slot->totals_bytes,
                                     a->nlines * nblocks * a->data->variant.element_size);
    clscan_chain c;
    if (err != CL_SUCCESS || (err = clscan_chain_begin(&c, queue, nwait, wait, slot->last_use, 0)) != CL_SUCCESS)
        return err;
    const int lockstep = axis_lockstep(a, &wg);
    err = reduce_blocks(a, &c, slot->totals, block, nblocks, wg, lockstep);
    if (err == CL_SUCCESS) {
        const cl_ulong nlines = a->nlines, nb = nblocks;
        cl_kernel k = a->data->axis_fold;
        ARG(k, 0, nlines);
        ARG(k, 1, nb);
        ARG(k, 2, slot->totals);
        ARG(k, 3, a->dst);
        ARG(k, 4, a->dst_offset);
        err = launch(err, &c, k, a->nlines, wg, event != NULL);
    }
    clscan_chain_end(&c, err, event, c.out_of_order ? &slot->last_use : NULL);
    return err;
}

CLSCAN_API cl_int clscan_enqueue_axis_totals(clscan_plan *plan, cl_command_queue queue, clscan_axis axis, cl_mem src,
                                             size_t src_offset, size_t src_row_pitch, cl_mem dst, size_t dst_offset,
                                             size_t rows, size_t cols, cl_uint num_events_in_wait_list,
                                             const cl_event *event_wait_list, cl_event *event)
{
    static const char fn[] = "clscan_enqueue_axis_totals";
    if (!plan)
        return clscan_fail(CLSCAN_INVALID_PLAN, "%s: plan is NULL", fn);
    if (axis != CLSCAN_ALONG_ROWS && axis != CLSCAN_ALONG_COLUMNS)
        return clscan_fail(CLSCAN_INVALID_AXIS, "%s: axis %d is not CLSCAN_ALONG_ROWS or CLSCAN_ALONG_COLUMNS", fn,
                           (int)axis);
    if (src_row_pitch < cols)
        return clscan_fail(CLSCAN_INVALID_PITCH, "%s: the row pitch %zu is less than cols (%zu)", fn, src_row_pitch,
                           cols);
    const int rows_axis = axis == CLSCAN_ALONG_ROWS;
    const size_t nlines = rows_axis ? rows : cols, n = rows_axis ? cols : rows;
    /* Lines without elements still have totals (the neutral); no lines, nothing to write. */
    int done = 0;
    cl_int err = clscan_scan_check_common(fn, plan, queue, nlines, num_events_in_wait_list, event_wait_list, &done);
    if (err == CL_SUCCESS)
        err = clscan_scan_check_no_transform(fn, plan);
    if (err != CL_SUCCESS || done)
        return err != CL_SUCCESS ? err
                                 : clscan_scan_empty_marker(fn, queue, num_events_in_wait_list, event_wait_list, event);
    const size_t ns = n ? clscan_pitched_extent(rows, cols, src_row_pitch) : 0;
    if (ns == SIZE_MAX)
        return clscan_fail(CLSCAN_RANGE_OUT_OF_BOUNDS, "%s: %zu rows of pitch %zu overflow", fn, rows, src_row_pitch);
    clscan_range s, d;
    if ((err = clscan_check_buffer(fn, plan->context, src, "src", 0, src_offset, ns, plan->element_size, &s)) !=
            CL_SUCCESS ||
        (err = clscan_check_buffer(fn, plan->context, dst, "dst", 1, dst_offset, nlines, plan->element_size, &d)) !=
            CL_SUCCESS ||
        (err = clscan_check_disjoint(fn, &s, "src", &d, "dst")) != CL_SUCCESS)
        return err;
    clscan_axis_job a = {.src = src, .dst = dst, .src_offset = src_offset, .dst_offset = dst_offset,
                         .src_line_stride = rows_axis ? src_row_pitch : 1, .src_step = rows_axis ? 1 : src_row_pitch,
                         .dst_line_stride = 1, .dst_step = 1, .nlines = nlines, .n = n, .columns = !rows_axis};
    pthread_mutex_lock(&plan->lock);
    err = clscan_plan_program(plan, fn, CLSCAN_PROGRAM_AXIS, &a.data);
    if (err == CL_SUCCESS)
        err = axis_totals_run(plan, &a, queue, num_events_in_wait_list, event_wait_list, event);
    pthread_mutex_unlock(&plan->lock);
    return err;
}
