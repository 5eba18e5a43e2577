/* What the tiles held in the work-items' registers (scan/tile_registers.cl and
 * scan/tile_staged.cl) share: the tile's total alone, and the reduction. */

CLSCAN_INLINE T tile_reduce(__global const IN_T *src IN_PARAMS, ulong base, ulong count, uint li,
                            TILE_LOCAL_PARAMS)
{
    TILE_PRIVATE(v);
    return tile_scan(TILE_PRIVATE_ARG(v), src IN_ARGS, base, count, li, TILE_LOCAL_ARGS);
}

/* One work-item reads the whole tile straight from global memory: the same elements, scanned by
 * the same functions in the same order, as the work-group's tile_scan; then the primitive's
 * tree over the work-items' totals (scan/wg_tree.cl). */
CLSCAN_INLINE T tile_total_alone(__global const IN_T *src IN_PARAMS, ulong base, ulong count, __local T *buf)
{
    for (uint w = 0; w < CLSCAN_WG; ++w)
        buf[w] = item_total_direct(src IN_ARGS, base + (ulong)w * CLSCAN_ITEMS, count);
    return wg_total_alone(buf);
}
