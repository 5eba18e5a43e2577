/* The blocks of each segment given by offsets that the passes over the whole array sort
 * (radix/blocks.cl): ceil(n / TILE) for a segment of n keys above `above`, none for the others
 * (radix/segmented.cl sorts those); blocks[nsegments] = 0, so that the exclusive scan of the
 * nsegments + 1 entries ends with the total. */
__kernel void clscan_radix_segment_blocks(__global const uint *offsets, ulong offsets_offset, uint wide,
                                          ulong nsegments, ulong count, ulong above, __global uint *blocks)
{
    const ulong s = get_global_id(0);
    if (s > nsegments)
        return;
    uint nb = 0;
    if (s < nsegments) {
        const ulong first = block_offset(offsets, offsets_offset, wide, s, count);
        const ulong end = max(block_offset(offsets, offsets_offset, wide, s + 1, count), first);
        nb = end - first > above ? (uint)((end - first + TILE - 1) / TILE) : 0;
    }
    blocks[s] = nb;
}
