/* clscan scan kernels, generic over the operator.
 *
 * Needs (from clscan_ops.cl or a user operator): T, NEUTRAL, COMB(a, b).
 * Needs from the build options:
 *   CLSCAN_WG        work-items per work-group (a power of two)
 *   CLSCAN_ITEMS     elements each work-item scans sequentially (a power of two)
 *   CLSCAN_EXCLUSIVE 0 or 1: the kind of clscan_scan_tiles
 *   CLSCAN_STAGE     1: load and store a tile through local memory, so that neighbouring
 *                    work-items touch neighbouring addresses (coalesced, for GPUs);
 *                    0: each work-item reads its own run of CLSCAN_ITEMS elements (CPUs)
 * Optional: CLSCAN_SWAP_COMB swaps comb's arguments everywhere.  It exists only to prove
 * that the test suite catches a scan that combines in the wrong order.
 *
 * A tile is CLSCAN_WG * CLSCAN_ITEMS consecutive elements, scanned by one work-group:
 *   1. each work-item scans its CLSCAN_ITEMS elements sequentially, in registers;
 *   2. the work-group scans the work-items' totals with the Hillis-Steele double-buffered
 *      scan (wg_scan_hillis_steele);
 *   3. each work-item applies its prefix p (the tile's carry-in, then the totals of the
 *      work-items before it) as comb(p, x).
 * Positions past the count hold NEUTRAL, and every work-item reaches every barrier.
 * Arrays of many tiles are scanned by the host in levels (reduce-then-scan): clscan_reduce
 * writes each tile's total, the totals are scanned (recursively, with the same kernels), and
 * clscan_scan_tiles scans each tile with carry-in = the scanned total of the tiles before it. */

#ifdef CLSCAN_SWAP_COMB
#define COMBINE(a, b) COMB(b, a)
#else
#define COMBINE(a, b) COMB(a, b)
#endif

#define TILE (CLSCAN_WG * CLSCAN_ITEMS)

/* The seed's algorithm: inclusive scan of one value per work-item over the work-group, in two
 * halves of one __local array (2 * CLSCAN_WG elements).  Each step reads one half and writes
 * the other, so one barrier per step suffices and no read can race a write.  Returns the
 * offset of the half that holds the result: buf[r + li] is the inclusive prefix of li. */
inline uint wg_scan_hillis_steele(T v, __local T *buf, uint li)
{
    uint rd = 0, wr = CLSCAN_WG;
    buf[li] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint d = 1; d < CLSCAN_WG; d <<= 1) {
        T r = buf[rd + li];
        if (li >= d)
            r = COMBINE(buf[rd + li - d], r);   /* comb(previous, current) */
        buf[wr + li] = r;
        barrier(CLK_LOCAL_MEM_FENCE);
        const uint t = rd; rd = wr; wr = t;
    }
    return rd;
}

/* Loads the work-item's CLSCAN_ITEMS consecutive elements of the tile at `base` (NEUTRAL past
 * count).  `stage` holds TILE elements when CLSCAN_STAGE is 1. */
inline void load_items(T *v, __global const T *src, ulong base, ulong count, uint li,
                       __local T *stage)
{
#if CLSCAN_STAGE
    for (uint k = 0; k < CLSCAN_ITEMS; ++k) {
        const uint i = k * CLSCAN_WG + li;
        stage[i] = base + i < count ? src[base + i] : NEUTRAL;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < CLSCAN_ITEMS; ++k)
        v[k] = stage[li * CLSCAN_ITEMS + k];
#else
    (void)stage;
    const ulong first = base + (ulong)li * CLSCAN_ITEMS;
    for (uint k = 0; k < CLSCAN_ITEMS; ++k)
        v[k] = first + k < count ? src[first + k] : NEUTRAL;
#endif
}

/* Stores what load_items loaded, skipping positions past count. */
inline void store_items(const T *v, __global T *dst, ulong base, ulong count, uint li,
                        __local T *stage)
{
#if CLSCAN_STAGE
    barrier(CLK_LOCAL_MEM_FENCE);   /* everyone has finished reading stage */
    for (uint k = 0; k < CLSCAN_ITEMS; ++k)
        stage[li * CLSCAN_ITEMS + k] = v[k];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < CLSCAN_ITEMS; ++k) {
        const uint i = k * CLSCAN_WG + li;
        if (base + i < count)
            dst[base + i] = stage[i];
    }
#else
    (void)stage;
    const ulong first = base + (ulong)li * CLSCAN_ITEMS;
    for (uint k = 0; k < CLSCAN_ITEMS; ++k)
        if (first + k < count)
            dst[first + k] = v[k];
#endif
}

/* Scans one tile of src into dst with carry-in `carry` (NEUTRAL for the first tile).  Every
 * output is comb(carry, ...), so the result is the fold from NEUTRAL whatever the tiling. */
inline void scan_tile(__global const T *src, __global T *dst, ulong count, T carry,
                      const int exclusive, __local T *hs, __local T *stage)
{
    const uint li = get_local_id(0);
    const ulong base = (ulong)get_group_id(0) * TILE;
    T v[CLSCAN_ITEMS];
    load_items(v, src, base, count, li, stage);

    for (uint k = 1; k < CLSCAN_ITEMS; ++k)
        v[k] = COMBINE(v[k - 1], v[k]);
    const uint r = wg_scan_hillis_steele(v[CLSCAN_ITEMS - 1], hs, li);
    /* The work-item's prefix: the carry, then the totals of the work-items before it. */
    const T p = li > 0 ? COMBINE(carry, hs[r + li - 1]) : carry;

    if (exclusive) {
        /* The inclusive result shifted right by one, with the prefix in front. */
        for (uint k = CLSCAN_ITEMS - 1; k > 0; --k)
            v[k] = COMBINE(p, v[k - 1]);
        v[0] = p;
    } else {
        for (uint k = 0; k < CLSCAN_ITEMS; ++k)
            v[k] = COMBINE(p, v[k]);
    }
    store_items(v, dst, base, count, li, stage);
}

#if CLSCAN_STAGE
#define STAGE_DECL __local T stage[TILE]
#else
#define STAGE_DECL __local T *stage = 0
#endif

/* The carry-in of this work-group's tile: the inclusive scan of the tile totals up to the tile
 * before it, or NEUTRAL for the first tile (and when there are no carries: one tile). */
inline T tile_carry(__global const T *carries, uint use_carries)
{
    const size_t g = get_group_id(0);
    return use_carries && g > 0 ? carries[g - 1] : NEUTRAL;
}

/* Scans count elements of src into dst (src == dst: in place), one tile per work-group, of the
 * kind CLSCAN_EXCLUSIVE. */
__kernel __attribute__((reqd_work_group_size(CLSCAN_WG, 1, 1)))
void clscan_scan_tiles(__global const T *src, ulong src_offset, __global T *dst, ulong dst_offset,
                       ulong count, __global const T *carries, ulong carries_offset,
                       uint use_carries)
{
    __local T hs[2 * CLSCAN_WG];
    STAGE_DECL;
    scan_tile(src + src_offset, dst + dst_offset, count,
              tile_carry(carries + carries_offset, use_carries), CLSCAN_EXCLUSIVE, hs, stage);
}

/* The same, always inclusive: used in place on the levels of tile totals. */
__kernel __attribute__((reqd_work_group_size(CLSCAN_WG, 1, 1)))
void clscan_scan_tiles_inclusive(__global T *data, ulong offset, ulong count,
                                 __global const T *carries, ulong carries_offset,
                                 uint use_carries)
{
    __local T hs[2 * CLSCAN_WG];
    STAGE_DECL;
    scan_tile(data + offset, data + offset, count,
              tile_carry(carries + carries_offset, use_carries), 0, hs, stage);
}

/* Writes the total of each tile of src (count elements) to totals[group]. */
__kernel __attribute__((reqd_work_group_size(CLSCAN_WG, 1, 1)))
void clscan_reduce(__global const T *src, ulong src_offset, ulong count,
                   __global T *totals, ulong totals_offset)
{
    __local T hs[2 * CLSCAN_WG];
    STAGE_DECL;
    const uint li = get_local_id(0);
    const ulong base = (ulong)get_group_id(0) * TILE;
    T v[CLSCAN_ITEMS];
    load_items(v, src + src_offset, base, count, li, stage);
    T acc = v[0];
    for (uint k = 1; k < CLSCAN_ITEMS; ++k)
        acc = COMBINE(acc, v[k]);
    const uint r = wg_scan_hillis_steele(acc, hs, li);
    if (li == 0)
        totals[totals_offset + get_group_id(0)] = hs[r + CLSCAN_WG - 1];
}
