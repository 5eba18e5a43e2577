/* Reduce-by-key on CPUs (after scan/runs.cl, whose single pass it replaces there): a tile (a
 * multiple of TILE chosen by the host, lib/scan_runs.c) per work-group of one work-item, which a
 * CPU runs as a plain loop (a work-group's work-items run one after the other anyway; the
 * register tiles' work-items paid for their private arrays and the pair operator on every
 * element: PoCL, 2 cores, 2^22 uint32 SUM in runs of 1 ... 16, 17.5-18.1 ms against 6.3-7.1).
 * The tile's total is counted from its keys and folded over its last run only; the carry comes
 * from a look-back whose fallback computes a silent tile's total the same way (same bits).  Then
 * the tile's values are folded left from the carry, element by element, comb(earlier, later) from
 * NEUTRAL at each head, so a run inside a tile has the bits of the sequential loop's fold.  Each
 * run is written by the tile that holds its last element: the runs before the tile's last head
 * without a branch (every element writes its run's fold so far at the run's rank; the run's last
 * element writes last), the tile's last run once, where it ends with the tile.  Where a slot of
 * scratch per compute unit fits, lib/scan_runs.c takes scan/runs_folded.cl instead, which counts
 * the heads as it folds; the totals and the look-back here serve both. */

/* The tile's last head at or after base (base if none after it). */
CLSCAN_INLINE ulong runs_serial_last_head(__global const KEY_T *keys, ulong base, ulong end)
{
    ulong last = end - 1;
    while (last > base && keys[last] == keys[last - 1])
        --last;
    return last;
}

/* The pair of elements base ... end - 1: the heads among them, and the fold of the values from
 * the last head (or from base) on. */
CLSCAN_INLINE T runs_serial_total(__global const clscan_value *in, __global const KEY_T *keys, ulong base, ulong end)
{
    uint h = base == 0;
    for (ulong i = base + (base == 0); i < end; ++i)
        h += keys[i] != keys[i - 1];
    clscan_value v = clscan_value_neutral();
    for (ulong i = runs_serial_last_head(keys, base, end); i < end; ++i)
        v = VALUE_COMBINE(v, in[i]);
    return clscan_pair_make(v, h);
}

/* The carry of tile g (scan/lookback_alone.cl's, with this file's totals; the tiles before g are
 * full). */
CLSCAN_INLINE T runs_serial_lookback(tile_status s, uint g, __global const clscan_value *in,
                                     __global const KEY_T *keys, ulong tile)
{
    T acc, value = NEUTRAL;
    for (long k = lookback_find_prefix(s, g, NEUTRAL, &acc) + 1; k < (long)g; ++k) {
        uint st = status_poll(s, k, &value);
        if (st == 0) {
            const ulong base = (ulong)k * tile;
            value = lookback_missing(s, k, runs_serial_total(in, keys, base, base + tile), &st);
        }
        acc = st == STATUS_PREFIX ? value : COMBINE(acc, value);
    }
    return acc;
}

/* Tile g's total published, its carry found by the look-back, its prefix published; the carry. */
CLSCAN_INLINE T runs_serial_carry(tile_status s, uint g, T total, __global const clscan_value *in,
                                  __global const KEY_T *keys, ulong tile)
{
    T carry = NEUTRAL;
    if (g != 0) {
        status_publish(s, g, STATUS_AGGREGATE, total);
        carry = runs_serial_lookback(s, g, in, keys, tile);
    }
    status_publish(s, g, STATUS_PREFIX, COMBINE(carry, total));
    return carry;
}

/* The tile's runs from carry (the pairs of the tiles before it) on.  at is the current run's
 * rank; element 0 of the array, the first head, is taken before the loops so that they test no
 * index. */
CLSCAN_INLINE void runs_serial_store(__global const clscan_value *in, __global const KEY_T *keys, ulong base,
                                     ulong end, ulong count, T carry, __global KEY_T *keys_out,
                                     __global clscan_value *values_out)
{
    const ulong last = runs_serial_last_head(keys, base, end);
    clscan_value acc = carry.v;
    uint at = carry.h - 1;   /* a tile after the first holds no head before the carry's */
    KEY_T prev = keys[base - (base != 0)];
    ulong i = base;
    if (base == 0) {
        acc = VALUE_COMBINE(clscan_value_neutral(), in[0]);
        at = 0;
        i = 1;
        if (last > 0) {
            keys_out[0] = prev;
            values_out[0] = acc;
        }
    }
    for (; i < last; ++i) {
        const KEY_T k = keys[i];
        const uint head = k != prev;
        acc = VALUE_COMBINE(head ? clscan_value_neutral() : acc, in[i]);
        at += head;
        keys_out[at] = k;
        values_out[at] = acc;
        prev = k;
    }
    for (; i < end; ++i) {
        const KEY_T k = keys[i];
        const uint head = k != prev;
        acc = VALUE_COMBINE(head ? clscan_value_neutral() : acc, in[i]);
        at += head;
        prev = k;
    }
    if (end == count || keys[end] != prev) {
        keys_out[at] = prev;
        values_out[at] = acc;
    }
}

/* The arguments of clscan_reduce_runs, then the tile (a multiple of TILE: lib/scan_runs.c). */
__kernel __attribute__((reqd_work_group_size(1, 1, 1)))
void clscan_reduce_runs_serial(__global const clscan_value *src, ulong src_offset, __global const KEY_T *keys_buf,
                               ulong keys_offset, ulong count, __global KEY_T *keys_out, ulong keys_out_offset,
                               __global clscan_value *values_out, ulong values_out_offset, __global ulong *nruns,
                               ulong nruns_offset, __global volatile uint *status, __global T *values, ulong tiles,
                               uint ticket_base, uint epoch, ulong tile)
{
    const tile_status s = {status, values, tiles, epoch};
    __global const clscan_value *in = src + src_offset;
    __global const KEY_T *keys = keys_buf + keys_offset;
    const uint g = atomic_inc(&status[0]) - ticket_base;
    const ulong base = (ulong)g * tile, end = count - base < tile ? count : base + tile;

    const T total = runs_serial_total(in, keys, base, end);
    const T carry = runs_serial_carry(s, g, total, in, keys, tile);
    if (end == count)
        nruns[nruns_offset] = carry.h + total.h;
    runs_serial_store(in, keys, base, end, count, carry, keys_out + keys_out_offset, values_out + values_out_offset);
}
