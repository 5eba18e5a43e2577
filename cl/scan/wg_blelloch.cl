/* The work-group primitive: Blelloch's work-efficient scan (G. E. Blelloch, "Prefix sums and
 * their applications", CMU-CS-90-190, 1990).  An up-sweep builds subtree totals in place, a
 * down-sweep hands each subtree the combination of everything to its left.  Work about 2n,
 * depth 2 log2(n).  The same contract as scan/wg_hillis_steele.cl. */
#define WG_LOCALS __local T wg_buf[CLSCAN_WG]

CLSCAN_INLINE void wg_scan(T v, __local T *buf, uint li, T *prev, T *total)
{
    buf[li] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint d = 1; d < CLSCAN_WG; d <<= 1) {
        if ((li + 1) % (2 * d) == 0)
            buf[li] = COMBINE(buf[li - d], buf[li]);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    *total = buf[CLSCAN_WG - 1];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (li == CLSCAN_WG - 1)
        buf[li] = NEUTRAL;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint d = CLSCAN_WG / 2; d >= 1; d >>= 1) {
        if ((li + 1) % (2 * d) == 0) {
            const T left = buf[li - d];
            buf[li - d] = buf[li];
            buf[li] = COMBINE(buf[li], left);   /* what is left of me, then my left sibling */
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (li > 0)
        *prev = buf[li];
}
