/* Scans along one axis of a 2-D array (clscan_enqueue_axis), kernels of the axis program (the
 * plain program's parts before this one: T, NEUTRAL, COMBINE, COMBINE_STEP, LOAD_IN, STORE_OUT).
 * The array is nlines independent lines of n elements; element k of line l is at
 * offset + l * line_stride + k * step.  Along columns a line is a column (line_stride 1, step
 * the row pitch), along rows a row (line_stride the pitch, step 1).
 *
 * One work-item scans one block of `block` consecutive elements of one line; neighbouring
 * work-items take neighbouring lines of one block: along columns they read consecutive elements
 * of one row (coalesced).  With one block per line
 * clscan_axis_scan alone does it; with more, reduce-then-scan over the blocks (Blelloch, "Prefix
 * sums and their applications", 1990): clscan_axis_reduce writes each block's total,
 * clscan_axis_carries turns each line's totals into the carries of its blocks, in order, and
 * clscan_axis_scan scans each block from its carry.  Totals and carries are T (a compensated
 * plan's keep their low parts), at totals[b * nlines + l].  Every output is comb(carry, ...)
 * from NEUTRAL, comb(earlier, later), and the blocks depend on the shape alone: reproducible.
 * Totals along the axis (clscan_enqueue_axis_totals): clscan_axis_reduce's block totals, then
 * clscan_axis_fold folds each line's in order into the line's one output. */

/* Block b of line l: its first element and the end of its elements (at most n). */
CLSCAN_INLINE ulong axis_first(ulong b, ulong block) { return b * block; }
CLSCAN_INLINE ulong axis_end(ulong b, ulong block, ulong n) { return min(n, (b + 1) * block); }

/* The work-item's line and block: the launch pads each block's lines to whole work-groups, so
 * that a work-group's work-items share a block (and its number of steps); live: a real line.
 *
 * lockstep (a constant of each kernel): a barrier after each element, so that the work-items of
 * a work-group step through their lines together.  CPUs run a work-group's work-items in a loop
 * per region between barriers (PoCL): in lockstep that loop is innermost and reads one row's
 * neighbouring elements in order, which the compiler turns into vector loads (PoCL, 4096 x
 * 4096 floats along columns: 189 ms against 396 without); without, each work-item walks its
 * whole column alone, a cache line per element.  Along rows, and on GPUs (whose work-items run
 * together anyway), the kernels without barriers. */
#define AXIS_LINE()                                                 \
    const ulong g = get_global_id(0), padded = get_global_size(0) / nblocks; \
    const ulong l = g % padded, b = g / padded;                     \
    const int live = l < nlines

CLSCAN_INLINE void axis_reduce(__global const IN_T *src, ulong src_offset, ulong src_line_stride, ulong src_step,
                               ulong nlines, ulong n, ulong block, ulong nblocks, __global CARRY_T *totals,
                               const int lockstep)
{
    AXIS_LINE();
    if (!lockstep && !live)
        return;
    __global const IN_T *line = src + src_offset + (live ? l : 0) * src_line_stride;
    T acc = NEUTRAL;
    for (ulong k = axis_first(b, block), e = axis_end(b, block, n); k < e; ++k) {
        if (live)
            acc = COMBINE_STEP(acc, LOAD_IN(line, k * src_step));
        if (lockstep)
            barrier(CLK_GLOBAL_MEM_FENCE);
    }
    if (live)
        totals[b * nlines + l] = acc;
}

/* Scans each block from its carry (use_carries 0: from NEUTRAL, one block per line) into dst.
 * An element is read before its output is stored, so src may be dst (in place). */
CLSCAN_INLINE void axis_scan(__global const IN_T *src, ulong src_offset, ulong src_line_stride, ulong src_step,
                             __global OUT_T *dst, ulong dst_offset, ulong dst_line_stride, ulong dst_step,
                             ulong nlines, ulong n, ulong block, ulong nblocks, __global const CARRY_T *carries,
                             uint use_carries, const int lockstep)
{
    AXIS_LINE();
    if (!lockstep && !live)
        return;
    __global const IN_T *in = src + src_offset + (live ? l : 0) * src_line_stride;
    __global OUT_T *out = dst + dst_offset + (live ? l : 0) * dst_line_stride;
    T acc = live && use_carries ? CARRY_AT(carries, b * nlines + l) : NEUTRAL;
    for (ulong k = axis_first(b, block), e = axis_end(b, block, n); k < e; ++k) {
        if (live) {
            const T x = LOAD_IN(in, k * src_step);
            if (CLSCAN_EXCLUSIVE) {
                STORE_OUT(out, k * dst_step, acc);
                acc = COMBINE_STEP(acc, x);
            } else {
                acc = COMBINE_STEP(acc, x);
                STORE_OUT(out, k * dst_step, acc);
            }
        }
        if (lockstep)
            barrier(CLK_GLOBAL_MEM_FENCE);
    }
}

#define AXIS_REDUCE_PARAMS __global const IN_T *src, ulong src_offset, ulong src_line_stride, ulong src_step, \
                           ulong nlines, ulong n, ulong block, ulong nblocks, __global CARRY_T *totals
#define AXIS_REDUCE_ARGS src, src_offset, src_line_stride, src_step, nlines, n, block, nblocks, totals
#define AXIS_SCAN_PARAMS __global const IN_T *src, ulong src_offset, ulong src_line_stride, ulong src_step, \
                         __global OUT_T *dst, ulong dst_offset, ulong dst_line_stride, ulong dst_step, \
                         ulong nlines, ulong n, ulong block, ulong nblocks, __global const CARRY_T *carries, \
                         uint use_carries
#define AXIS_SCAN_ARGS src, src_offset, src_line_stride, src_step, dst, dst_offset, dst_line_stride, dst_step, \
                       nlines, n, block, nblocks, carries, use_carries

__kernel void clscan_axis_reduce(AXIS_REDUCE_PARAMS) { axis_reduce(AXIS_REDUCE_ARGS, 0); }
__kernel void clscan_axis_reduce_lockstep(AXIS_REDUCE_PARAMS) { axis_reduce(AXIS_REDUCE_ARGS, 1); }
__kernel void clscan_axis_scan(AXIS_SCAN_PARAMS) { axis_scan(AXIS_SCAN_ARGS, 0); }
__kernel void clscan_axis_scan_lockstep(AXIS_SCAN_PARAMS) { axis_scan(AXIS_SCAN_ARGS, 1); }

/* Each line's block totals, in place, into the carries of its blocks: NEUTRAL, then the
 * combination of the totals before each block, in order. */
__kernel void clscan_axis_carries(ulong nlines, ulong nblocks, __global CARRY_T *totals)
{
    const ulong l = get_global_id(0);
    if (l >= nlines)
        return;
    T acc = NEUTRAL;
    for (ulong b = 0; b < nblocks; ++b) {
        const T t = CARRY_AT(totals, b * nlines + l);
        totals[b * nlines + l] = acc;
        acc = COMBINE(acc, t);
    }
}

/* Each line's block totals folded in order, comb(earlier, later), into dst[l] (the output
 * transform, if any, sees the line's number as the index).  Neighbouring work-items take
 * neighbouring lines: the totals and dst are read and written coalesced. */
__kernel void clscan_axis_fold(ulong nlines, ulong nblocks, __global const CARRY_T *totals, __global OUT_T *dst,
                               ulong dst_offset)
{
    const ulong l = get_global_id(0);
    if (l >= nlines)
        return;
    T acc = CARRY_AT(totals, l);
    for (ulong b = 1; b < nblocks; ++b)
        acc = COMBINE(acc, CARRY_AT(totals, b * nlines + l));
    __global OUT_T *out = dst + dst_offset;
    STORE_OUT(out, l, acc);
}
