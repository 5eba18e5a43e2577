/* A tile loaded and stored through local memory (GPUs): neighbouring work-items touch
 * neighbouring addresses of global memory (coalesced), then each work-item takes its
 * CLSCAN_ITEMS consecutive elements from the staged tile.  Otherwise as scan/tile_registers.cl,
 * whose interface this part implements.
 * The staged tile has one unused slot after every 32 elements: work-item li reads its run at
 * li * CLSCAN_ITEMS, and without the padding the 32 work-items of a warp would hit the same few
 * banks of local memory (an ITEMS-way conflict). */
#define SIDX(i) ((i) + ((i) >> 5))
#define STAGE_SIZE (TILE + TILE / 32)

#define TILE_PRIVATE(t) ITEMS_DECL(t); T t##_prev = NEUTRAL
#define TILE_PRIVATE_PARAM(t) ITEMS_PARAM(t), T *t##_prev
#define TILE_PRIVATE_ARG(t) ITEMS_ARG(t), &t##_prev
#define TILE_LOCALS WG_LOCALS; __local T stage[STAGE_SIZE]
#define TILE_LOCAL_PARAMS __local T *wg_buf, __local T *stage
#define TILE_LOCAL_ARGS wg_buf, stage

CLSCAN_INLINE T tile_scan(TILE_PRIVATE_PARAM(v), __global const IN_T *src IN_PARAMS, ulong base, ulong count,
                          uint li, TILE_LOCAL_PARAMS)
{
    for (uint k = 0; k < CLSCAN_ITEMS; ++k) {
        const uint i = k * CLSCAN_WG + li;
        stage[SIDX(i)] = base + i < count ? element_at(src IN_ARGS, base + i) : NEUTRAL;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint r = 0; r < RUN; ++r)
        for (uint l = 0; l < CLSCAN_LANES; ++l)
            item_set(ITEMS_ARG(v), VIDX(l, r), stage[SIDX(li * CLSCAN_ITEMS + l * RUN + r)]);
    T total;
    wg_scan(item_scan(ITEMS_ARG(v)), wg_buf, li, v_prev, &total);
    return total;
}

CLSCAN_INLINE void tile_store(TILE_PRIVATE_PARAM(v), __global OUT_T *dst, ulong base, ulong count, uint li,
                              T carry, const int exclusive, TILE_LOCAL_PARAMS)
{
    item_apply(ITEMS_ARG(v), li > 0 ? COMBINE(carry, *v_prev) : carry, exclusive);
    barrier(CLK_LOCAL_MEM_FENCE);   /* everyone has finished reading stage */
    for (uint r = 0; r < RUN; ++r)
        for (uint l = 0; l < CLSCAN_LANES; ++l)
            STAGE_VALUE(stage[SIDX(li * CLSCAN_ITEMS + l * RUN + r)]) = item_value(ITEMS_ARG(v), VIDX(l, r));
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < CLSCAN_ITEMS; ++k) {
        const uint i = k * CLSCAN_WG + li;
        if (base + i < count)
            STORE_OUT(dst, base + i, STAGE_VALUE(stage[SIDX(i)]));
    }
}
