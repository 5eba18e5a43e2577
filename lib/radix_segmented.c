/* The segmented sort on the radix engine: every segment of the keys sorted on its own, stably.
 * Segments of up to seg_global keys go to radix/segmented.cl, one work-group each, in one launch
 * (comparisons, a sort in local memory or passes within the work-group); longer ones to the
 * passes over the whole array (radix/blocks.cl), all of them in the same passes, each segment in
 * blocks of its own.  Uniform segments (rows) are all short or all long; segments by offsets,
 * whose lengths the host does not read, take both when count > seg_global (the work-group
 * kernel skips the long ones, the passes the short ones: radix/segment_blocks.cl gives those
 * no blocks).  And for the sorts along an axis: short lines a work-item each (radix/lines.cl),
 * the copies of one-key lines, and the transposes of longer columns. */
#include "algo.h"

/* What the passes over the whole array sort of segments g of count keys (nblocks 0: none). */
static radix_map long_segments(const radix_engine *e, const radix_segments *g, size_t count)
{
    const size_t tile = e->wg * e->items;
    radix_map m = {0};
    if (g->length) {
        if (g->length > e->seg_global) {
            m.seg_length = g->length;
            m.seg_blocks = radix_ceil_div(g->length, tile);
            m.nblocks = g->nsegments * m.seg_blocks;
            m.in_gap = g->in_pitch - g->length;
            m.out_gap = g->out_pitch - g->length;
        }
        return m;
    }
    if (count > e->seg_global) {
        /* at most count / (seg_global + 1) long segments, each with one block not full */
        m.nblocks = radix_ceil_div(count, tile) + count / (e->seg_global + 1);
        m.first_block = e->first_block;
        m.offsets = g->offsets;
        m.offsets_offset = g->offsets_offset;
        m.wide = g->wide;
        m.nsegments = g->nsegments;
    }
    return m;
}

cl_int radix_engine_reserve_segments(radix_engine *e, const radix_job *j, const radix_segments *g)
{
    const radix_map m = long_segments(e, g, j->count);
    cl_int err = CL_SUCCESS;
    if (m.nblocks)
        err = clscan_scratch_grow(e->context, &e->counts, &e->counts_cap, (size_t)RADIX * m.nblocks * sizeof(cl_uint));
    if (err == CL_SUCCESS && m.nblocks && !g->length)
        err = clscan_scratch_grow(e->context, &e->first_block, &e->first_block_cap,
                                  (g->nsegments + 1) * sizeof(cl_uint));
    return err;
}

/* The first block of each long segment given by offsets: their blocks, scanned. */
static cl_int first_blocks(radix_engine *e, clscan_chain *c, const radix_segments *g, size_t count)
{
    const cl_ulong o_off = g->offsets_offset, nseg = g->nsegments, cnt = count, above = e->seg_global;
    const cl_uint wide = (cl_uint)g->wide;
    cl_kernel k = e->segment_blocks;
    cl_int err = CL_SUCCESS;
    ALGO_ARG_MEM(k, 0, g->offsets); ALGO_ARG(k, 1, o_off); ALGO_ARG(k, 2, wide); ALGO_ARG(k, 3, nseg);
    ALGO_ARG(k, 4, cnt); ALGO_ARG(k, 5, above); ALGO_ARG_MEM(k, 6, e->first_block);
    if (err != CL_SUCCESS)
        return clscan_fail(err, "clSetKernelArg failed: %s", clscan_error_string(err));
    const size_t wg = e->info.max_work_group_size < 64 ? e->info.max_work_group_size : 64;
    if ((err = clscan_chain_launch(c, k, radix_ceil_div(g->nsegments + 1, wg), wg, 1)) != CL_SUCCESS)
        return err;
    return clscan_scan_step(c, e->scan, e->first_block, g->nsegments + 1);
}

/* The bits [begin, bits) that j sorts by. */
static cl_ulong sort_mask(const radix_job *j)
{
    const cl_ulong below_end = j->bits >= 64 ? ~(cl_ulong)0 : ((cl_ulong)1 << j->bits) - 1;
    return below_end & ~(((cl_ulong)1 << j->begin) - 1);
}

/* The work-group kernel over the segments of up to seg_global keys. */
static cl_int short_segments(radix_engine *e, clscan_chain *c, const radix_job *j, const radix_segments *g,
                             cl_mem k_src, cl_ulong k_src_off, cl_mem v_src, cl_ulong v_src_off)
{
    const cl_uint p = radix_passes(j), begin = j->begin, flip = j->descending ? RADIX - 1 : 0, wide = (cl_uint)g->wide;
    const cl_ulong mask = sort_mask(j);
    cl_int err = CL_SUCCESS;
    /* Scratch of the passes before the last (none for one pass: its kernel never reads it). */
    cl_mem kt0 = p >= 2 ? e->keys_tmp[0] : NULL, kt1 = p >= 3 ? e->keys_tmp[1] : NULL;
    cl_mem vt0 = p >= 2 && j->values_in ? e->values_tmp[0] : NULL;
    cl_mem vt1 = p >= 3 && j->values_in ? e->values_tmp[1] : NULL;
    const cl_ulong k_dst_off = j->keys_out_offset, v_dst_off = j->values_out_offset, o_off = g->offsets_offset;
    const cl_ulong nseg = g->nsegments, cnt = j->count, above = e->seg_global;
    /* One work-group per segment, up to 2^20 work-groups (each then takes every 2^20-th). */
    const size_t groups = g->nsegments < ((size_t)1 << 20) ? g->nsegments : (size_t)1 << 20;
    cl_kernel k = e->segmented;
    ALGO_ARG_MEM(k, 0, k_src); ALGO_ARG(k, 1, k_src_off); ALGO_ARG_MEM(k, 2, j->keys_out); ALGO_ARG(k, 3, k_dst_off);
    ALGO_ARG_MEM(k, 4, v_src); ALGO_ARG(k, 5, v_src_off); ALGO_ARG_MEM(k, 6, j->values_out);
    ALGO_ARG(k, 7, v_dst_off); ALGO_ARG_MEM(k, 8, kt0); ALGO_ARG_MEM(k, 9, kt1); ALGO_ARG_MEM(k, 10, vt0);
    ALGO_ARG_MEM(k, 11, vt1); ALGO_ARG_MEM(k, 12, g->offsets); ALGO_ARG(k, 13, o_off); ALGO_ARG(k, 14, wide);
    ALGO_ARG(k, 15, nseg); ALGO_ARG(k, 16, cnt); ALGO_ARG(k, 17, begin); ALGO_ARG(k, 18, p);
    if (err == CL_SUCCESS) err = radix_set_key_arg(e, k, 19, mask);
    ALGO_ARG(k, 20, flip);
    const cl_uint via_tmp = j->in_place && p >= 2;   /* small segments in place: through scratch 0 */
    ALGO_ARG(k, 21, via_tmp);
    const cl_ulong length = g->length, in_pitch = g->in_pitch, out_pitch = g->out_pitch;
    ALGO_ARG(k, 22, length);
    ALGO_ARG(k, 23, in_pitch);
    ALGO_ARG(k, 24, out_pitch);
    ALGO_ARG(k, 25, above);
    if (err != CL_SUCCESS)
        return clscan_fail(err, "clSetKernelArg failed: %s", clscan_error_string(err));
    return clscan_chain_launch(c, k, groups, e->seg_wg, 1);
}

cl_int radix_engine_run_segmented(radix_engine *e, clscan_chain *c, const radix_job *j, const radix_segments *g)
{
    const size_t n = j->count;
    cl_mem k_src = j->keys_in, v_src = j->values_in;
    size_t k_src_off = j->keys_in_offset, v_src_off = j->values_in_offset;
    cl_int err = CL_SUCCESS;
    /* In place with one pass, that pass would write over keys of its segment not read yet: from
     * a copy of the input (uniform segments: of its whole extent, gaps too, pitches kept;
     * radix_engine_reserve made room for it). */
    const size_t in_n = g->length ? (g->nsegments - 1) * g->in_pitch + g->length : n;
    if (j->in_place && radix_passes(j) == 1) {
        err = clscan_chain_copy(c, j->keys_in, j->keys_in_offset * e->key_size, e->keys_tmp[0], 0,
                                in_n * e->key_size, 1);
        if (err == CL_SUCCESS && j->values_in)
            err = clscan_chain_copy(c, j->values_in, j->values_in_offset * e->value_size, e->values_tmp[0], 0,
                                    in_n * e->value_size, 1);
        if (err != CL_SUCCESS)
            return err;
        k_src = e->keys_tmp[0];
        v_src = e->values_tmp[0];
        k_src_off = v_src_off = 0;
    }
    const radix_map m = long_segments(e, g, n);
    if (!(g->length && m.nblocks) &&
        (err = short_segments(e, c, j, g, k_src, k_src_off, v_src, v_src_off)) != CL_SUCCESS)
        return err;
    if (!m.nblocks)
        return CL_SUCCESS;
    if (!g->length && (err = first_blocks(e, c, g, n)) != CL_SUCCESS)
        return err;
    return radix_engine_passes(e, c, j, &m, k_src, k_src_off, v_src, v_src_off, j->keys_out, j->keys_out_offset);
}

/* The values of lines sorted in place are gathered from a copy of their whole extent. */
static int values_in_place(const radix_job *j)
{
    return j->values_in && j->values_in == j->values_out && j->values_in_offset == j->values_out_offset;
}

static size_t lines_extent(const radix_lines *l)
{
    return (l->nlines - 1) * l->in_line + (l->length - 1) * l->in_step + 1;
}

cl_int radix_engine_reserve_lines(radix_engine *e, const radix_job *j, const radix_lines *l)
{
    if (!values_in_place(j))
        return CL_SUCCESS;
    return clscan_scratch_grow(e->context, &e->values_tmp[0], &e->values_tmp_cap[0], lines_extent(l) * e->value_size);
}

cl_int radix_engine_run_lines(radix_engine *e, clscan_chain *c, const radix_job *j, const radix_lines *l)
{
    cl_mem v_src = j->values_in;
    cl_ulong v_src_off = j->values_in_offset;
    cl_int err = CL_SUCCESS;
    if (values_in_place(j)) {
        if ((err = clscan_chain_copy(c, j->values_in, j->values_in_offset * e->value_size, e->values_tmp[0], 0,
                                     lines_extent(l) * e->value_size, 1)) != CL_SUCCESS)
            return err;
        v_src = e->values_tmp[0];
        v_src_off = 0;
    }
    const cl_ulong k_in_off = j->keys_in_offset, k_out_off = j->keys_out_offset, v_out_off = j->values_out_offset;
    const cl_ulong nlines = l->nlines, in_line = l->in_line, in_step = l->in_step, out_line = l->out_line,
                   out_step = l->out_step;
    const cl_uint length = (cl_uint)l->length, flip = j->descending ? RADIX - 1 : 0;
    cl_kernel k = e->lines;
    ALGO_ARG_MEM(k, 0, j->keys_in); ALGO_ARG(k, 1, k_in_off); ALGO_ARG_MEM(k, 2, j->keys_out);
    ALGO_ARG(k, 3, k_out_off); ALGO_ARG_MEM(k, 4, v_src); ALGO_ARG(k, 5, v_src_off);
    ALGO_ARG_MEM(k, 6, j->values_out); ALGO_ARG(k, 7, v_out_off); ALGO_ARG(k, 8, nlines); ALGO_ARG(k, 9, length);
    ALGO_ARG(k, 10, in_line); ALGO_ARG(k, 11, in_step); ALGO_ARG(k, 12, out_line); ALGO_ARG(k, 13, out_step);
    if (err == CL_SUCCESS) err = radix_set_key_arg(e, k, 14, sort_mask(j));
    ALGO_ARG(k, 15, flip);
    if (err != CL_SUCCESS)
        return clscan_fail(err, "clSetKernelArg failed: %s", clscan_error_string(err));
    /* a work-item per line, up to 2^16 work-groups (each work-item then takes every so many) */
    const size_t groups = radix_ceil_div(l->nlines, e->lines_wg);
    return clscan_chain_launch(c, k, groups < ((size_t)1 << 16) ? groups : (size_t)1 << 16, e->lines_wg, 1);
}

/* A sort whose segments all hold one key, the count contiguous (one row along columns, one column
 * of pitch 1 along rows): a copy of each array not sorted in place (a million one-key lines would
 * otherwise cost a million work-groups). */
cl_int radix_engine_copy(radix_engine *e, clscan_chain *c, const radix_job *j)
{
    const size_t n = j->count;
    const int keys_copied = j->keys_in != j->keys_out || j->keys_in_offset != j->keys_out_offset;
    const int values_copied =
        j->values_in && (j->values_in != j->values_out || j->values_in_offset != j->values_out_offset);
    cl_int err = CL_SUCCESS;
    if (!keys_copied && !values_copied)
        return clscan_chain_marker(c);
    if (keys_copied)
        err = clscan_chain_copy(c, j->keys_in, j->keys_in_offset * e->key_size, j->keys_out,
                                j->keys_out_offset * e->key_size, n * e->key_size, 1);
    if (err == CL_SUCCESS && values_copied)
        err = clscan_chain_copy(c, j->values_in, j->values_in_offset * e->value_size, j->values_out,
                                j->values_out_offset * e->value_size, n * e->value_size, 1);
    return err;
}

/* The transposes of the sorts along columns (radix/transpose.cl). */
cl_int radix_engine_transpose(radix_engine *e, clscan_chain *c, int values, cl_mem src, size_t src_offset,
                              size_t src_pitch, cl_mem dst, size_t dst_offset, size_t dst_pitch, size_t rows,
                              size_t cols)
{
    const size_t tiles_x = radix_ceil_div(cols, e->tr_tile), tiles = radix_ceil_div(rows, e->tr_tile) * tiles_x;
    const cl_ulong so = src_offset, sp = src_pitch, d_o = dst_offset, dp = dst_pitch, r = rows, cl = cols,
                   tx = tiles_x;
    cl_kernel k = values ? e->transpose_values : e->transpose_keys;
    cl_int err = CL_SUCCESS;
    ALGO_ARG_MEM(k, 0, src); ALGO_ARG_MEM(k, 1, dst); ALGO_ARG(k, 2, so); ALGO_ARG(k, 3, sp); ALGO_ARG(k, 4, d_o);
    ALGO_ARG(k, 5, dp); ALGO_ARG(k, 6, r); ALGO_ARG(k, 7, cl); ALGO_ARG(k, 8, tx);
    if (err != CL_SUCCESS)
        return clscan_fail(err, "clSetKernelArg failed: %s", clscan_error_string(err));
    return clscan_chain_launch(c, k, tiles, e->tr_wg, 1);
}
