/* The exclusive sum of one uint per work-item over the work-group: Hillis and Steele's scan
 * (1986) in the halves of buf[2 * CLSCAN_WG], one barrier per step.  Every work-item must call
 * it.  (The algorithms' block counts; the scans have their own primitives in cl/scan/.) */
inline uint wg_exclusive_sum(uint v, __local uint *buf, uint li)
{
    uint rd = 0, wr = CLSCAN_WG;
    buf[li] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint d = 1; d < CLSCAN_WG; d <<= 1) {
        buf[wr + li] = li >= d ? buf[rd + li - d] + buf[rd + li] : buf[rd + li];
        barrier(CLK_LOCAL_MEM_FENCE);
        const uint t = rd;
        rd = wr;
        wr = t;
    }
    return buf[rd + li] - v;
}
