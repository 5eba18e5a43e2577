/* The work-group primitive in two levels on NVIDIA GPUs (NVIDIA's own OpenCL platform, which
 * compiles inline PTX): Hillis-Steele within each warp of 32 work-items in registers with the
 * warp shuffle shfl.sync.up.b32 (one per 32-bit word of T, no barrier), then Hillis-Steele over
 * the warps' totals by the first warp: two barriers instead of log2(CLSCAN_WG).  The same
 * combinations in the same order as scan/wg_two_level.cl (CLSCAN_SUBGROUP is 32), hence the
 * same bits.  The same contract as scan/wg_hillis_steele.cl. */
#define WG_LOCALS __local T wg_buf[2 * CLSCAN_WG]
#define SG CLSCAN_SUBGROUP
#define NSG (CLSCAN_WG / SG)

/* T as 32-bit words, for the shuffles (a partial last word travels whole). */
#define T_WORDS ((sizeof(T) + 3) / 4)
typedef union {
    T t;
    uint w[T_WORDS];
} t_words;

/* Lane l gets lane l - d's v (lanes below d keep their own). */
CLSCAN_INLINE T shuffle_up(T v, uint d)
{
    t_words in, out;
    in.t = v;
    for (uint k = 0; k < T_WORDS; ++k) {
        uint r;
        asm volatile("shfl.sync.up.b32 %0, %1, %2, 0, 0xffffffff;" : "=r"(r) : "r"(in.w[k]), "r"(d));
        out.w[k] = r;
    }
    return out.t;
}

CLSCAN_INLINE void wg_scan(T v, __local T *buf, uint li, T *prev, T *total)
{
    const uint lane = li % SG, sg = li / SG;
    for (uint d = 1; d < SG; d <<= 1) {
        const T r = shuffle_up(v, d);
        if (lane >= d)
            v = COMBINE(r, v);   /* comb(previous, current) */
    }
    const T before = shuffle_up(v, 1);   /* lane - 1's inclusive value */
    if (lane == SG - 1)
        buf[sg] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (sg == 0) {   /* one warp: shuffles need all its lanes */
        T s = lane < NSG ? buf[lane] : NEUTRAL;
        for (uint d = 1; d < NSG; d <<= 1) {
            const T r = shuffle_up(s, d);
            if (lane >= d)
                s = COMBINE(r, s);
        }
        if (lane < NSG)
            buf[NSG + lane] = s;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    __local T *sg_incl = buf + NSG;
    *total = sg_incl[NSG - 1];
    if (sg > 0)
        *prev = lane > 0 ? COMBINE(sg_incl[sg - 1], before) : sg_incl[sg - 1];
    else if (lane > 0)
        *prev = before;
}
