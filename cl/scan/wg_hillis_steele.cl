/* The work-group primitive: Hillis and Steele's scan (W. D. Hillis and G. L. Steele, "Data
 * parallel algorithms", Communications of the ACM 29(12), 1986), with a double-buffered
 * __local array: each step reads one half and writes the other, so one barrier per step
 * suffices and no read races a write.  Work n log2(n) - (n - 1), depth log2(n).
 *
 * wg_scan(v, buf, li, &prev, &total) scans one value per work-item: *prev receives the
 * combination of the values of the work-items before li (for li > 0), *total the work-group's.
 * buf is WG_LOCALS' wg_buf.  Every work-item must call it (it has barriers). */
#define WG_LOCALS __local T wg_buf[2 * CLSCAN_WG]

CLSCAN_INLINE void wg_scan(T v, __local T *buf, uint li, T *prev, T *total)
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
        const uint t = rd;
        rd = wr;
        wr = t;
    }
    if (li > 0)
        *prev = buf[rd + li - 1];
    *total = buf[rd + CLSCAN_WG - 1];
}
