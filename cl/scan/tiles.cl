/* The kernels of reduce-then-scan (lib/scan_levels.c runs them): with n[0] = count elements and
 * n[l + 1] = ceil(n[l] / TILE) tile totals at level l + 1,
 *   clscan_reduce                levels 0 -> 1 -> ... up to one tile: each tile's total;
 *   clscan_scan_tiles_inclusive  the top level in place, then each lower level of totals in
 *                                place with its carries from the level above;
 *   clscan_scan_tiles            the data, with carry-in = the scanned total of the tiles before
 *                                (also a whole scan of one tile, without carries).
 * (G. E. Blelloch, "Prefix sums and their applications", 1990, and the multi-level scans of GPU
 * libraries since.)  A carry is applied as comb(carry, x), so the order of comb's arguments
 * holds across tiles and levels. */

/* The carry-in of this work-group's tile: origin (the scan's carry-in, or NEUTRAL) combined with
 * the inclusive scan of the tile totals up to the tile before it (origin alone for the first
 * tile, and when there are no carries: one tile).  Without a carry-in (with_origin 0) the tile
 * totals' scan is the carry as it is. */
CLSCAN_INLINE T tile_carry(__global const CARRY_T *carries, uint use_carries, T origin, uint with_origin)
{
    const size_t g = get_group_id(0);
    if (!use_carries || g == 0)
        return origin;
    return with_origin ? COMBINE(origin, CARRY_AT(carries, g - 1)) : CARRY_AT(carries, g - 1);
}

/* Scans count elements of src into dst (src == dst: in place), one tile per work-group, of the
 * plan's kind, after the options (scan/options.cl): the carry-in, the total written by the last
 * tile, dst written or not (a reduction).  count 0 with one work-group: the total alone. */
__kernel __attribute__((reqd_work_group_size(CLSCAN_WG, 1, 1)))
void clscan_scan_tiles(__global const IN_T *src, ulong src_offset, __global OUT_T *dst, ulong dst_offset,
                       ulong count, __global const CARRY_T *carries, ulong carries_offset,
                       uint use_carries, OPTIONS_PARAMS IN_KERNEL_PARAMS)
{
    TILE_LOCALS;
    IN_KERNEL_LOCALS
    TILE_PRIVATE(t);
    const uint li = get_local_id(0);
    const ulong base = (ulong)get_group_id(0) * TILE;
    const T origin = options_origin(OPTIONS_ARGS);
    const T total = tile_scan(TILE_PRIVATE_ARG(t), src + src_offset IN_ARGS, base, count, li, TILE_LOCAL_ARGS);
    const T carry = tile_carry(carries + carries_offset, use_carries, origin, carry_mode);
    if (li == 0 && get_group_id(0) == get_num_groups(0) - 1)
        options_total(count == 0 ? origin : COMBINE(carry, total), OPTIONS_ARGS);
    if (write_dst)
        tile_store(TILE_PRIVATE_ARG(t), dst + dst_offset, base, count, li, carry, CLSCAN_EXCLUSIVE, TILE_LOCAL_ARGS);
}

/* The same, always inclusive and in place: the levels of tile totals. */
__kernel __attribute__((reqd_work_group_size(CLSCAN_WG, 1, 1)))
void clscan_scan_tiles_inclusive(__global OUT_T *data, ulong offset, ulong count,
                                 __global const CARRY_T *carries, ulong carries_offset,
                                 uint use_carries IN_KERNEL_PARAMS)
{
    TILE_LOCALS;
    IN_KERNEL_LOCALS
    TILE_PRIVATE(t);
    const uint li = get_local_id(0);
    const ulong base = (ulong)get_group_id(0) * TILE;
    tile_scan(TILE_PRIVATE_ARG(t), LEVELS_IN(data + offset) IN_ARGS, base, count, li, TILE_LOCAL_ARGS);
    tile_store(TILE_PRIVATE_ARG(t), data + offset, base, count, li,
               tile_carry(carries + carries_offset, use_carries, NEUTRAL, 0), 0, TILE_LOCAL_ARGS);
}

/* Writes the total of each tile of src (count elements) to totals[group]. */
__kernel __attribute__((reqd_work_group_size(CLSCAN_WG, 1, 1)))
void clscan_reduce(__global const IN_T *src, ulong src_offset, ulong count,
                   __global CARRY_T *totals, ulong totals_offset IN_KERNEL_PARAMS TOTALS_PARAMS)
{
    TILE_LOCALS;
    IN_KERNEL_LOCALS
    const uint li = get_local_id(0);
    const T total = tile_reduce(src + src_offset IN_ARGS, (ulong)get_group_id(0) * TILE, count, li,
                                TILE_LOCAL_ARGS);
    if (li == 0)
        STORE_TOTAL(totals, totals_offset + get_group_id(0), total);
}
