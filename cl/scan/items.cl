/* One work-item's CLSCAN_ITEMS consecutive elements in registers, scanned sequentially: plain
 * scans (scan/items_segmented.cl is the same interface for segmented programs).
 *   ITEMS_DECL(v), ITEMS_PARAM(v), ITEMS_ARG(v)   declare the elements, pass them on
 *   items_load_full / items_load_partial          from global memory (NEUTRAL past count)
 *   items_store_full / items_store_partial        to global memory (nothing past count)
 *   element_at(src, i), item_set, item_value, STAGE_VALUE   for tiles staged through local memory
 *   item_scan      scans the elements in place, returns their total
 *   item_total_direct   item_scan's total of the elements at first, read one at a time
 *   item_apply     applies the work-item's prefix: the tile's scan, inclusive or exclusive */
#define ITEMS_DECL(v) T v[CLSCAN_ITEMS]
#define ITEMS_PARAM(v) T *v
#define ITEMS_ARG(v) v
/* The part of a staged element that is stored. */
#define STAGE_VALUE(s) (s)

CLSCAN_INLINE T element_at(__global const IN_T *src IN_PARAMS, ulong i)
{
    return LOAD_IN(src, i);
}

CLSCAN_INLINE void item_set(T *v, uint k, T e)
{
    v[k] = e;
}

CLSCAN_INLINE T item_value(const T *v, uint k)
{
    return v[k];
}

CLSCAN_INLINE void items_load_full(T *v, __global const IN_T *src IN_PARAMS, ulong first)
{
    for (uint r = 0; r < RUN; ++r)
        for (uint l = 0; l < CLSCAN_LANES; ++l)
            v[VIDX(l, r)] = LOAD_IN(src, first + l * RUN + r);
}

CLSCAN_INLINE void items_load_partial(T *v, __global const IN_T *src IN_PARAMS, ulong first, ulong count)
{
    for (uint r = 0; r < RUN; ++r)
        for (uint l = 0; l < CLSCAN_LANES; ++l)
            v[VIDX(l, r)] = first + l * RUN + r < count ? LOAD_IN(src, first + l * RUN + r) : NEUTRAL;
}

CLSCAN_INLINE void items_store_full(const T *v, __global OUT_T *dst, ulong first)
{
    for (uint r = 0; r < RUN; ++r)
        for (uint l = 0; l < CLSCAN_LANES; ++l)
            STORE_OUT(dst, first + l * RUN + r, v[VIDX(l, r)]);
}

CLSCAN_INLINE void items_store_partial(const T *v, __global OUT_T *dst, ulong first, ulong count)
{
    for (uint r = 0; r < RUN; ++r)
        for (uint l = 0; l < CLSCAN_LANES; ++l)
            if (first + l * RUN + r < count)
                STORE_OUT(dst, first + l * RUN + r, v[VIDX(l, r)]);
}

/* Each run on its own (independent dependency chains, which a CPU overlaps; COMBINE_STEP); the
 * total is the left fold of the runs' totals.  Every total in the kernels comes from here, so
 * equal inputs give equal bits. */
CLSCAN_INLINE T item_scan(T *v)
{
    for (uint r = 1; r < RUN; ++r)
        for (uint l = 0; l < CLSCAN_LANES; ++l)
            v[VIDX(l, r)] = COMBINE_STEP(v[VIDX(l, r - 1)], v[VIDX(l, r)]);
    T total = v[VIDX(0, RUN - 1)];
    for (uint l = 1; l < CLSCAN_LANES; ++l)
        total = COMBINE(total, v[VIDX(l, RUN - 1)]);
    return total;
}

/* The total item_scan returns for the CLSCAN_ITEMS elements from first on (NEUTRAL past count),
 * with the same combinations in the same order, reading one element at a time instead of
 * holding them in an array, in a loop left rolled: the look-back's fallback computes it while
 * the tile's own elements occupy the registers, and an array or an unrolled loop here raised the
 * single pass's register count on the H200 (float SUM 64 -> 80), hence fewer work-groups per SM. */
CLSCAN_INLINE T item_total_direct(__global const IN_T *src IN_PARAMS, ulong first, ulong count)
{
    T total = NEUTRAL;
    for (uint l = 0; l < CLSCAN_LANES; ++l) {
        const ulong run = first + l * RUN;
        T acc = run < count ? LOAD_IN(src, run) : NEUTRAL;
#pragma unroll 1
        for (uint r = 1; r < RUN; ++r)
            acc = COMBINE_STEP(acc, run + r < count ? LOAD_IN(src, run + r) : NEUTRAL);
        total = l == 0 ? acc : COMBINE(total, acc);
    }
    return total;
}

/* Run l gets prefix q[l] = p, then the totals of the runs before it; inclusive v = comb(q, v);
 * exclusive shifts right by one within the run, with q in front.  The outputs are only stored:
 * COMBINE_STEP. */
CLSCAN_INLINE void item_apply(T *v, T p, const int exclusive)
{
    T q[CLSCAN_LANES];
    q[0] = p;
    for (uint l = 1; l < CLSCAN_LANES; ++l)
        q[l] = COMBINE(q[l - 1], v[VIDX(l - 1, RUN - 1)]);
    if (exclusive) {
        for (uint r = RUN - 1; r > 0; --r)
            for (uint l = 0; l < CLSCAN_LANES; ++l)
                v[VIDX(l, r)] = COMBINE_STEP(q[l], v[VIDX(l, r - 1)]);
        for (uint l = 0; l < CLSCAN_LANES; ++l)
            v[VIDX(l, 0)] = q[l];
    } else {
        for (uint r = 0; r < RUN; ++r)
            for (uint l = 0; l < CLSCAN_LANES; ++l)
                v[VIDX(l, r)] = COMBINE_STEP(q[l], v[VIDX(l, r)]);
    }
}
