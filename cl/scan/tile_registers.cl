/* A tile whose work-items read their own CLSCAN_ITEMS consecutive elements straight from global
 * memory (CPUs, where a work-item streams through its run), then:
 *   1. each work-item scans its elements in registers (item_scan);
 *   2. the work-group scans the work-items' totals with the primitive (wg_scan);
 *   3. each work-item applies its prefix: the tile's carry, then the totals of the work-items
 *      before it, as comb(prefix, x).
 * The tile interface (the same in scan/tile_staged.cl and scan/tile_streamed.cl):
 *   TILE_PRIVATE(t), TILE_PRIVATE_PARAM(t), TILE_PRIVATE_ARG(t)   a work-item's part of the tile
 *   TILE_LOCALS, TILE_LOCAL_PARAMS, TILE_LOCAL_ARGS                the tile's local memory
 *   tile_scan      loads and scans the tile at base; returns its total (to every work-item)
 *   tile_store     stores the tile's scan with carry-in `carry`, inclusive or exclusive
 *   tile_reduce    the tile's total only (scan/tile_items.cl for this tile and the staged one)
 *   tile_total_alone   the tile's total computed by one work-item, with the same bits (the
 *                  look-back's fallback), buf holding CLSCAN_WG elements */
#define TILE_PRIVATE(t) ITEMS_DECL(t); T t##_prev = NEUTRAL
#define TILE_PRIVATE_PARAM(t) ITEMS_PARAM(t), T *t##_prev
#define TILE_PRIVATE_ARG(t) ITEMS_ARG(t), &t##_prev
#define TILE_LOCALS WG_LOCALS
#define TILE_LOCAL_PARAMS __local T *wg_buf
#define TILE_LOCAL_ARGS wg_buf

CLSCAN_INLINE T tile_scan(TILE_PRIVATE_PARAM(v), __global const IN_T *src IN_PARAMS, ulong base, ulong count,
                          uint li, TILE_LOCAL_PARAMS)
{
    const ulong first = base + (ulong)li * CLSCAN_ITEMS;
    if (base + TILE <= count)   /* a full tile: no checks in the loop */
        items_load_full(ITEMS_ARG(v), src IN_ARGS, first);
    else
        items_load_partial(ITEMS_ARG(v), src IN_ARGS, first, count);
    T total;
    wg_scan(item_scan(ITEMS_ARG(v)), wg_buf, li, v_prev, &total);
    return total;
}

CLSCAN_INLINE void tile_store(TILE_PRIVATE_PARAM(v), __global OUT_T *dst, ulong base, ulong count, uint li,
                              T carry, const int exclusive, TILE_LOCAL_PARAMS)
{
    item_apply(ITEMS_ARG(v), li > 0 ? COMBINE(carry, *v_prev) : carry, exclusive);
    const ulong first = base + (ulong)li * CLSCAN_ITEMS;
    if (base + TILE <= count)
        items_store_full(ITEMS_ARG(v), dst, first);
    else
        items_store_partial(ITEMS_ARG(v), dst, first, count);
}
