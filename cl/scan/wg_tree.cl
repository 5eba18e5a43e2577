/* A work-group's total computed by one work-item: the look-back's fallback needs a late tile's
 * total with the bits its own work-group gives it.  Every primitive's total is the balanced
 * binary tree over the work-items' values (Hillis-Steele's last element, the two-level scan's
 * trees within and over the subgroups, Blelloch's up-sweep alike), so this up-sweep of
 * buf[0 ... CLSCAN_WG - 1], in place, gives those bits.  The loops stay rolled: unrolled, this
 * slow path raised the single pass's registers on the H200 (8-byte values 122 -> 128 and a
 * stack; float AFFINE 122 -> 160). */
CLSCAN_INLINE T wg_total_alone(__local T *buf)
{
#pragma unroll 1
    for (uint d = 1; d < CLSCAN_WG; d <<= 1)
#pragma unroll 1
        for (uint i = 2 * d - 1; i < CLSCAN_WG; i += 2 * d)
            buf[i] = COMBINE(buf[i - d], buf[i]);
    return buf[CLSCAN_WG - 1];
}
