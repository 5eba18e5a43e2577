/* Segments given by offsets (clscan_enqueue_segmented_offsets), kernels of the heads program:
 * segment s is [offsets[s], offsets[s + 1]) of count elements, the offsets 4 or 8 bytes wide.
 * The host clears one head flag per element, clscan_offsets_heads sets the flag of the first
 * element of every non-empty segment, the heads program scans, and clscan_offsets_totals writes
 * each segment's reduction.  Every offset is clamped to count: offsets that break the rules
 * give wrong segments but no access outside the arrays, and an empty segment (also one at
 * count, as CSR's trailing empty rows) writes no flag.  Both kernels run any number of
 * work-items over the segments (the host caps the launch). */

/* The offsets from the kernel's buffer argument (read as 4-byte words) and the first offset's
 * index, in elements of 4 or 8 bytes (wide). */
CLSCAN_INLINE __global const uint *offsets_from(__global const uint *buf, ulong first, uint wide)
{
    return wide ? (__global const uint *)((__global const ulong *)buf + first) : buf + first;
}

/* Offset s, clamped to count. */
CLSCAN_INLINE ulong offset_at(__global const uint *offsets, uint wide, ulong s, ulong count)
{
    const ulong o = wide ? ((__global const ulong *)offsets)[s] : (ulong)offsets[s];
    return min(o, count);
}

/* Sets heads[offsets[s]] for every non-empty segment s (the heads cleared before).  With
 * keep_lasts (exclusive plans' totals), lasts[s] receives the segment's last element, read
 * before the scan (which may overwrite it in place). */
__kernel void clscan_offsets_heads(__global const uint *offsets_buf, ulong offsets_offset, uint wide,
                                   ulong nsegments, ulong count, __global uchar *heads,
                                   __global const clscan_value *src, ulong src_offset,
                                   __global clscan_value *lasts, uint keep_lasts)
{
    __global const uint *offsets = offsets_from(offsets_buf, offsets_offset, wide);
    for (ulong s = get_global_id(0); s < nsegments; s += get_global_size(0)) {
        const ulong b = offset_at(offsets, wide, s, count), e = offset_at(offsets, wide, s + 1, count);
        if (b < e)
            heads[b] = 1;
        if (keep_lasts)
            lasts[s] = b < e ? src[src_offset + e - 1] : clscan_value_neutral();
    }
}

/* totals[s]: the reduction of segment s (the neutral element for an empty one) from the scan y
 * of the elements: an inclusive scan's value at the segment's last element, or an exclusive
 * one's combined with that element (kept in lasts). */
__kernel void clscan_offsets_totals(__global const uint *offsets_buf, ulong offsets_offset, uint wide,
                                    ulong nsegments, ulong count, __global const clscan_value *y, ulong y_offset,
                                    __global const clscan_value *lasts, __global clscan_value *totals,
                                    ulong totals_offset)
{
    __global const uint *offsets = offsets_from(offsets_buf, offsets_offset, wide);
    for (ulong s = get_global_id(0); s < nsegments; s += get_global_size(0)) {
        const ulong b = offset_at(offsets, wide, s, count), e = offset_at(offsets, wide, s + 1, count);
        clscan_value t = clscan_value_neutral();
        if (b < e)
            t = CLSCAN_EXCLUSIVE ? VALUE_COMBINE(y[y_offset + e - 1], lasts[s]) : y[y_offset + e - 1];
        totals[totals_offset + s] = t;
    }
}
