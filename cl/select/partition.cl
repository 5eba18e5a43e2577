/* The stable partition's scatter on CPUs (std::stable_partition into dst; CUB's
 * DevicePartition::If): each work-item copies its own consecutive elements.  The arguments
 * of the compaction's scatters without the indices.  With total = offsets[nblocks]
 * (the number kept), the kept elements of block g go to offsets[g] + the kept ones before them
 * in the block, the others to total + the others before them in the whole range: work-item li's
 * first element has in = offsets[g] + (kept before it in the block) kept elements and
 * first - in others before it. */
__kernel __attribute__((reqd_work_group_size(CLSCAN_WG, 1, 1)))
void clscan_select_partition(FLAG_PARAMS, ulong count, __global W *dst, ulong dst_offset,
                             __global const uint *offsets, uint nblocks,
                             __global ulong *kept, ulong kept_offset)
{
    __local uint buf[2 * CLSCAN_WG];
    const uint li = get_local_id(0), g = get_group_id(0);
    const ulong base = (ulong)g * TILE, first = base + (ulong)li * CLSCAN_ITEMS;
    const ulong total = offsets[nblocks];
    if (g == 0 && li == 0)
        kept[kept_offset] = total;
    /* The flags are taken twice (counted, then read or evaluated again): PoCL keeps a private
     * array of them across the work-group sum's barriers at a higher cost (measured). */
    const uint own = count_own(FLAG_ARGS, base, count, li);
    ulong in = offsets[g] + wg_exclusive_sum(own, buf, li);
    ulong out = total + (first - in);
    for (uint r = 0; r < CLSCAN_ITEMS; ++r) {
        const ulong i = first + r;
        if (i >= count)
            break;
        const ulong at = flag_at(FLAG_ARGS, i) ? in++ : out++;
        __global const W *s = src + (src_offset + i) * WORDS;
        __global W *d = dst + (dst_offset + at) * WORDS;
        for (uint w = 0; w < WORDS; ++w)
            d[w] = s[w];
    }
}
