/* The work-group primitive in two levels of Hillis-Steele (scan/wg_hillis_steele.cl): within
 * subgroups of CLSCAN_SUBGROUP consecutive work-items, then over the subgroups' totals
 * (CLSCAN_WG / CLSCAN_SUBGROUP <= CLSCAN_SUBGROUP), in the halves of one local array.  The same
 * combinations in the same order as scan/wg_two_level_shuffle.cl, which NVIDIA GPUs run in
 * registers: this part lets every device run (and the tests check) that shape.  The same
 * contract as scan/wg_hillis_steele.cl. */
#define WG_LOCALS __local T wg_buf[2 * CLSCAN_WG]
#define SG CLSCAN_SUBGROUP
#define NSG (CLSCAN_WG / SG)

CLSCAN_INLINE void wg_scan(T v, __local T *buf, uint li, T *prev, T *total)
{
    const uint lane = li % SG, sg = li / SG;
    uint rd = 0, wr = CLSCAN_WG;
    buf[li] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint d = 1; d < SG; d <<= 1) {
        T r = buf[rd + li];
        if (lane >= d)
            r = COMBINE(buf[rd + li - d], r);
        buf[wr + li] = r;
        barrier(CLK_LOCAL_MEM_FENCE);
        const uint t = rd;
        rd = wr;
        wr = t;
    }
    const T before = lane > 0 ? buf[rd + li - 1] : NEUTRAL;   /* lane - 1's inclusive value */
    /* Level 2 in the other half: the subgroups' totals, then Hillis-Steele among them. */
    if (li < NSG)
        buf[wr + li] = buf[rd + li * SG + SG - 1];
    barrier(CLK_LOCAL_MEM_FENCE);
    uint t = rd;
    rd = wr;
    wr = t;
    for (uint d = 1; d < NSG; d <<= 1) {
        if (li < NSG) {
            T r = buf[rd + li];
            if (li >= d)
                r = COMBINE(buf[rd + li - d], r);
            buf[wr + li] = r;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        t = rd;
        rd = wr;
        wr = t;
    }
    __local T *sg_incl = buf + rd;
    *total = sg_incl[NSG - 1];
    if (sg > 0)
        *prev = lane > 0 ? COMBINE(sg_incl[sg - 1], before) : sg_incl[sg - 1];
    else if (lane > 0)
        *prev = before;
}
