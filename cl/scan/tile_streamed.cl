/* CPUs: a tile in four streamed runs.  The work-group is one work-item (CLSCAN_WG 1), and its
 * tile is four runs of SL consecutive elements.  The runs are scanned side by side, each in a
 * variable of its own (four independent dependency chains, which a core overlaps), and their
 * scans go to local memory (the cache); on the way out each run gets its prefix: the carry, then
 * the totals of the runs before it.  On PoCL this beat the work-items' private arrays (kept on
 * the stack, read back and forth) with their strided runs (2^24 floats: about 1.7x faster;
 * doc/performance.md).  There is no work-group primitive.  The tile's total is the left fold of
 * the four runs' totals, the same in every kernel (the look-back's fallback included), hence the
 * same bits.  The interface of scan/tile_registers.cl; a work-item's private part of the tile is
 * the four runs' totals. */
#define SL (TILE / 4)

#define TILE_PRIVATE(t) T t[4]
#define TILE_PRIVATE_PARAM(t) T *t
#define TILE_PRIVATE_ARG(t) t
#define TILE_LOCALS __local T runs[TILE]
#define TILE_LOCAL_PARAMS __local T *runs
#define TILE_LOCAL_ARGS runs

/* Element i of the tile at base, NEUTRAL past count (`full`: no check needed). */
CLSCAN_INLINE T stream_at(__global const IN_T *src IN_PARAMS, ulong base, uint i, ulong count, const int full)
{
    return full || base + i < count ? LOAD_IN(src, base + i) : NEUTRAL;
}

/* The runs' inclusive scans (COMBINE_STEP) into runs[] (if store: a local pointer cannot be
 * tested for NULL, since address 0 of local memory is a valid one on GPUs) and their totals into
 * t[]; returns the tile's total. */
CLSCAN_INLINE T stream_runs(T *t, __global const IN_T *src IN_PARAMS, ulong base, ulong count, __local T *runs, const int store,
                            const int full)
{
    T a0 = stream_at(src IN_ARGS, base, 0, count, full);
    T a1 = stream_at(src IN_ARGS, base, SL, count, full);
    T a2 = stream_at(src IN_ARGS, base, 2 * SL, count, full);
    T a3 = stream_at(src IN_ARGS, base, 3 * SL, count, full);
    if (store) {
        runs[0] = a0;
        runs[SL] = a1;
        runs[2 * SL] = a2;
        runs[3 * SL] = a3;
    }
    for (uint j = 1; j < SL; ++j) {
        a0 = COMBINE_STEP(a0, stream_at(src IN_ARGS, base, j, count, full));
        a1 = COMBINE_STEP(a1, stream_at(src IN_ARGS, base, SL + j, count, full));
        a2 = COMBINE_STEP(a2, stream_at(src IN_ARGS, base, 2 * SL + j, count, full));
        a3 = COMBINE_STEP(a3, stream_at(src IN_ARGS, base, 3 * SL + j, count, full));
        if (store) {
            runs[j] = a0;
            runs[SL + j] = a1;
            runs[2 * SL + j] = a2;
            runs[3 * SL + j] = a3;
        }
    }
    t[0] = a0;
    t[1] = a1;
    t[2] = a2;
    t[3] = a3;
    return COMBINE(COMBINE(COMBINE(a0, a1), a2), a3);
}

/* The whole tile is read before anything is published or written: an in-place scan's input
 * stays intact for as long as another tile may need to reduce it. */
CLSCAN_INLINE T tile_scan(T *t, __global const IN_T *src IN_PARAMS, ulong base, ulong count, uint li, __local T *runs)
{
    if (base + TILE <= count)
        return stream_runs(t, src IN_ARGS, base, count, runs, 1, 1);
    return stream_runs(t, src IN_ARGS, base, count, runs, 1, 0);
}

/* The tile's total alone (the runs' scans not kept). */
CLSCAN_INLINE T stream_total(__global const IN_T *src IN_PARAMS, ulong base, ulong count, __local T *runs)
{
    T t[4];
    if (base + TILE <= count)
        return stream_runs(t, src IN_ARGS, base, count, runs, 0, 1);
    return stream_runs(t, src IN_ARGS, base, count, runs, 0, 0);
}

/* Run r's output: comb(q, its inclusive scan) (COMBINE_STEP: only stored), or for exclusive the
 * same shifted right by one with q in front; n: the tile's elements before count. */
CLSCAN_INLINE void stream_store_run(__global OUT_T *dst, ulong base, uint n, __local const T *runs, uint r, T q,
                                    const int exclusive)
{
    const uint first = r * SL, end = n < first + SL ? n : first + SL;
    if (first >= end)
        return;
    if (exclusive) {
        STORE_OUT(dst, base + first, q);
        for (uint i = first + 1; i < end; ++i)
            STORE_OUT(dst, base + i, COMBINE_STEP(q, runs[i - 1]));
    } else {
        for (uint i = first; i < end; ++i)
            STORE_OUT(dst, base + i, COMBINE_STEP(q, runs[i]));
    }
}

CLSCAN_INLINE void tile_store(T *t, __global OUT_T *dst, ulong base, ulong count, uint li, T carry,
                              const int exclusive, __local T *runs)
{
    const uint n = count - base < TILE ? (uint)(count - base) : TILE;
    const T q1 = COMBINE(carry, t[0]);
    const T q2 = COMBINE(q1, t[1]);
    const T q3 = COMBINE(q2, t[2]);
    stream_store_run(dst, base, n, runs, 0, carry, exclusive);
    stream_store_run(dst, base, n, runs, 1, q1, exclusive);
    stream_store_run(dst, base, n, runs, 2, q2, exclusive);
    stream_store_run(dst, base, n, runs, 3, q3, exclusive);
}

CLSCAN_INLINE T tile_reduce(__global const IN_T *src IN_PARAMS, ulong base, ulong count, uint li, __local T *runs)
{
    return stream_total(src IN_ARGS, base, count, runs);
}

CLSCAN_INLINE T tile_total_alone(__global const IN_T *src IN_PARAMS, ulong base, ulong count, __local T *buf)
{
    return stream_total(src IN_ARGS, base, count, buf);
}
