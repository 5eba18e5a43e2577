/* Reduce-by-key (runs programs: CLSCAN_RUNS, segments from keys): the segmented scan of the
 * values by keys on the counted pairs of scan/segmented.cl, which stores only the last
 * inclusive value of each run of equal keys, with its key, at the run's rank (the heads up to
 * it, which the same scan counts).  No flags, scan or compaction go through memory between
 * passes, and each run is written once (the shape of CUB's DeviceReduceByKey).  The values fold
 * as the segmented scan folds them, comb(earlier, later) from NEUTRAL at each head, so a run's
 * reduction has the bits of its scan's last output.  The last tile writes the number of runs.
 * Two ways, register tiles only (scan/tile_registers.cl):
 *   clscan_reduce_runs   the single pass (scan/single_pass.cl's decoupled look-back, D. Merrill
 *                        and M. Garland, 2016): keys and values read once (CPUs);
 *   clscan_reduce, clscan_runs_*carries, clscan_runs_scatter   reduce-then-scan: the
 *                        tiles' totals, their exclusive scan, then each tile again with its
 *                        carry (GPUs: there the single pass is bound by its chain of look-backs
 *                        for tiles of the few thousand pairs that registers hold). */

/* Stores the run ends among a work-item's elements from `first` on, after item_apply: p is
 * the work-item's prefix, whose count is the heads before its first element. */
CLSCAN_INLINE void runs_store(const clscan_value *x, const clscan_flags *f, T p, __global const KEY_T *keys,
                              ulong first, ulong count, __global KEY_T *keys_out, __global clscan_value *values_out)
{
    uint before[CLSCAN_LANES];   /* the heads before each lane's run */
    before[0] = p.h;
    for (uint l = 1; l < CLSCAN_LANES; ++l)
        before[l] = before[l - 1] + FLAGS_HEADS(f[VIDX(l - 1, RUN - 1)]);
    for (uint l = 0; l < CLSCAN_LANES; ++l)
        for (uint r = 0; r < RUN; ++r) {
            const ulong i = first + l * RUN + r;
            /* The last element of a run: the next one starts a segment (known from the flags
             * within the lane's run, from the keys at its end). */
            const int next_head = r + 1 < RUN ? (f[VIDX(l, r + 1)] & FLAG_OWN) != 0
                                  : i + 1 < count && keys[i + 1] != keys[i];
            const int end = i + 1 == count || (i + 1 < count && next_head);
            if (end) {
                const uint rank = before[l] + FLAGS_HEADS(f[VIDX(l, r)]) - 1;
                keys_out[rank] = keys[i];
                values_out[rank] = x[VIDX(l, r)];
            }
        }
}

/* The tile's run ends with carry-in `carry` (the pairs of the tiles before it), by every
 * work-item. */
CLSCAN_INLINE void runs_tile_store(TILE_PRIVATE_PARAM(v), __global const KEY_T *keys, ulong base, ulong count,
                                   uint li, T carry, __global KEY_T *keys_out, __global clscan_value *values_out)
{
    const T p = li > 0 ? COMBINE(carry, *v_prev) : carry;
    item_apply(ITEMS_ARG(v), p, 0);
    runs_store(ITEMS_ARG(v), p, keys, base + (ulong)li * CLSCAN_ITEMS, count, keys_out, values_out);
}

/* count elements of src with keys (both from their offsets); the runs to keys_out and
 * values_out, their number to nruns[nruns_offset].  status, values, tiles, ticket_base, epoch:
 * as clscan_scan_single_pass. */
__kernel __attribute__((reqd_work_group_size(CLSCAN_WG, 1, 1)))
void clscan_reduce_runs(__global const clscan_value *src, ulong src_offset, __global const KEY_T *keys_buf,
                        ulong keys_offset, ulong count, __global KEY_T *keys_out, ulong keys_out_offset,
                        __global clscan_value *values_out, ulong values_out_offset, __global ulong *nruns,
                        ulong nruns_offset, __global volatile uint *status, __global T *values, ulong tiles,
                        uint ticket_base, uint epoch)
{
    TILE_LOCALS;
    LOOKBACK_LOCALS;
    __local uint l_tile;
    __local T l_carry;
    TILE_PRIVATE(t);
    const uint li = get_local_id(0);
    const tile_status s = {status, values, tiles, epoch};
    __global const clscan_value *in = src + src_offset;
    __global const uchar *heads = 0;   /* IN_ARGS: segments from keys only */
    __global const KEY_T *keys = keys_buf + keys_offset;

    if (li == 0) {
        l_tile = atomic_inc(&status[0]) - ticket_base;
        lookback_prepare(LOOKBACK_LOCAL_ARGS);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint g = l_tile;
    const ulong base = (ulong)g * TILE;
    const T origin = NEUTRAL;

    const T total = tile_scan(TILE_PRIVATE_ARG(t), in IN_ARGS, base, count, li, TILE_LOCAL_ARGS);
    if (li == 0)
        status_publish(s, g, g == 0 ? STATUS_PREFIX : STATUS_AGGREGATE, g == 0 ? COMBINE(origin, total) : total);
    T carry = origin;
    if (g > 0) {
        const int found = lookback_window(s, g, li, origin, &l_carry, LOOKBACK_LOCAL_ARGS);
        if (li == 0) {
            if (!found)
                l_carry = lookback_alone(s, g, origin, in IN_ARGS, count, LOOKBACK_SCRATCH);
            status_publish(s, g, STATUS_PREFIX, COMBINE(l_carry, total));
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        carry = l_carry;
    }
    if (li == 0 && g == get_num_groups(0) - 1)
        nruns[nruns_offset] = carry.h + total.h;
    runs_tile_store(TILE_PRIVATE_ARG(t), keys, base, count, li, carry, keys_out + keys_out_offset,
                    values_out + values_out_offset);
}

/* Reduce-then-scan, second step: the n tile totals of clscan_reduce (values, and the heads in
 * counts) in place to their exclusive scan.  Where they fit one tile of totals, one work-group
 * scans them (clscan_runs_carries); else each tile of totals is folded into totals[n + g]
 * (clscan_runs_chunk_totals), those are scanned by one work-group, and each tile of totals is
 * scanned again from its carry (clscan_runs_chunk_carries).  A work-item folds a range of
 * consecutive totals (CLSCAN_ITEMS of a tile of totals), the work-group scans the folds. */
CLSCAN_INLINE T totals_fold(__global const clscan_value *totals, __global const clscan_heads *counts, ulong first,
                            ulong end)
{
    T fold = NEUTRAL;
    for (ulong g = first; g < end; ++g)
        fold = COMBINE(fold, clscan_pair_make(totals[g], counts[g]));
    return fold;
}

/* The totals first ... end - 1 replaced by their exclusive scan from carry. */
CLSCAN_INLINE void totals_rescan(__global clscan_value *totals, __global clscan_heads *counts, ulong first,
                                 ulong end, T carry)
{
    for (ulong g = first; g < end; ++g) {
        const T t = clscan_pair_make(totals[g], counts[g]);
        totals[g] = carry.v;
        counts[g] = carry.h;
        carry = COMBINE(carry, t);
    }
}

/* A work-item's share of the n totals: a range of `per` from li * per on, up to n. */
CLSCAN_INLINE ulong totals_end(ulong first, ulong per, ulong n)
{
    return first + per < n ? first + per : n;
}

/* The n totals from offset on, by one work-group: each work-item a range of consecutive ones. */
__kernel __attribute__((reqd_work_group_size(CLSCAN_WG, 1, 1)))
void clscan_runs_carries(__global clscan_value *totals_buf, __global clscan_heads *counts_buf, ulong offset,
                         ulong n)
{
    TILE_LOCALS;
    __global clscan_value *totals = totals_buf + offset;
    __global clscan_heads *counts = counts_buf + offset;
    const uint li = get_local_id(0);
    const ulong per = (n + CLSCAN_WG - 1) / CLSCAN_WG, first = li * per, end = totals_end(first, per, n);
    T before = NEUTRAL, all;
    wg_scan(totals_fold(totals, counts, first, end), wg_buf, li, &before, &all);
    totals_rescan(totals, counts, first, end, li > 0 ? before : NEUTRAL);
}

/* Tile g of the n totals folded into totals[n + g], counts[n + g]. */
__kernel __attribute__((reqd_work_group_size(CLSCAN_WG, 1, 1)))
void clscan_runs_chunk_totals(__global clscan_value *totals, __global clscan_heads *counts, ulong n)
{
    TILE_LOCALS;
    const uint li = get_local_id(0), g = get_group_id(0);
    const ulong first = (ulong)g * TILE + (ulong)li * CLSCAN_ITEMS;
    T before = NEUTRAL, all;
    wg_scan(totals_fold(totals, counts, first, totals_end(first, CLSCAN_ITEMS, n)), wg_buf, li, &before, &all);
    if (li == 0) {
        totals[n + g] = all.v;
        counts[n + g] = all.h;
    }
}

/* Tile g of the n totals to its exclusive scan from the carry in totals[n + g], counts[n + g]. */
__kernel __attribute__((reqd_work_group_size(CLSCAN_WG, 1, 1)))
void clscan_runs_chunk_carries(__global clscan_value *totals, __global clscan_heads *counts, ulong n)
{
    TILE_LOCALS;
    const uint li = get_local_id(0), g = get_group_id(0);
    const ulong first = (ulong)g * TILE + (ulong)li * CLSCAN_ITEMS, end = totals_end(first, CLSCAN_ITEMS, n);
    T before = NEUTRAL, all;
    wg_scan(totals_fold(totals, counts, first, end), wg_buf, li, &before, &all);
    const T carry = clscan_pair_make(totals[n + g], counts[n + g]);
    totals_rescan(totals, counts, first, end, li > 0 ? COMBINE(carry, before) : carry);
}

/* Reduce-then-scan, last step: each tile with its carry from clscan_runs_carries.  The
 * arguments of clscan_reduce_runs up to nruns_offset. */
__kernel __attribute__((reqd_work_group_size(CLSCAN_WG, 1, 1)))
void clscan_runs_scatter(__global const clscan_value *src, ulong src_offset, __global const KEY_T *keys_buf,
                         ulong keys_offset, ulong count, __global KEY_T *keys_out, ulong keys_out_offset,
                         __global clscan_value *values_out, ulong values_out_offset, __global ulong *nruns,
                         ulong nruns_offset, __global const clscan_value *carries,
                         __global const clscan_heads *carry_counts)
{
    TILE_LOCALS;
    TILE_PRIVATE(t);
    const uint li = get_local_id(0), g = get_group_id(0);
    const ulong base = (ulong)g * TILE;
    __global const uchar *heads = 0;   /* IN_ARGS: segments from keys only */
    __global const KEY_T *keys = keys_buf + keys_offset;
    const T total = tile_scan(TILE_PRIVATE_ARG(t), src + src_offset IN_ARGS, base, count, li, TILE_LOCAL_ARGS);
    const T carry = clscan_pair_make(carries[g], carry_counts[g]);
    if (li == 0 && g == get_num_groups(0) - 1)
        nruns[nruns_offset] = carry.h + total.h;
    runs_tile_store(TILE_PRIVATE_ARG(t), keys, base, count, li, carry, keys_out + keys_out_offset,
                    values_out + values_out_offset);
}
