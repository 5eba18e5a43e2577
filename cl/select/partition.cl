/* The stable partition's scatter on CPUs (std::stable_partition into dst; CUB's
 * DevicePartition::If): one work-item per block of TILE elements, copying them in order.  The
 * arguments of the compaction's scatters without the indices.  With total = offsets[nblocks]
 * (the number kept), the kept elements of block g go to offsets[g] on, the others to
 * total + (the others before the block) = total + base - offsets[g] on.  The count kernel's
 * blocks are those of the work-groups of CLSCAN_WG work-items; here one work-item takes the whole
 * block, so the block's flags are evaluated once more and nothing is summed across work-items
 * (PoCL, 2^22 uint32, rounds alternating with CLSCAN_WG work-items a block, each counting its
 * share again before a work-group sum: 2 cores 6.7-8.7 ms against 7.6-14.0, 16 cores 1.95-2.8
 * against 3.3-4.4; doc/perf/pocl-*-partition-scatter-2026-12-03.txt). */
__kernel __attribute__((reqd_work_group_size(1, 1, 1)))
void clscan_select_partition(FLAG_PARAMS, ulong count, __global W *dst, ulong dst_offset,
                             __global const uint *offsets, uint nblocks,
                             __global ulong *kept, ulong kept_offset)
{
    const uint g = get_group_id(0);
    const ulong base = (ulong)g * TILE, total = offsets[nblocks];
    if (g == 0)
        kept[kept_offset] = total;
    const uint items = (uint)min((ulong)TILE, count - base);
    ulong in = offsets[g], out = total + (base - in);
    __global const W *s = src + (src_offset + base) * WORDS;
    __global W *d = dst + dst_offset * WORDS;
    const ulong in_end = offsets[g + 1], out_end = out + (items - (in_end - in));
    uint r = 0;
    /* By vector compress (compact/compress.cl), the kept and the others of each vector, while
     * both sides' next positions are the block's. */
    for (; COMPRESS_LANES && r + COMPRESS_LANES <= items && in + COMPRESS_LANES <= in_end &&
           out + COMPRESS_LANES <= out_end; r += COMPRESS_LANES) {
        const uint m = flags_mask(FLAG_ARGS, base + r, COMPRESS_LANES), kept_here = popcount(m);
        compress_elements(s + r * WORDS, d + in * WORDS, m);
        compress_elements(s + r * WORDS, d + out * WORDS, ~m & ((1u << COMPRESS_LANES) - 1u));
        in += kept_here;
        out += COMPRESS_LANES - kept_here;
    }
    for (; r < items; ++r) {
        const ulong at = flag_at(FLAG_ARGS, base + r) ? in++ : out++;
        for (uint w = 0; w < WORDS; ++w)
            d[at * WORDS + w] = s[r * WORDS + w];
    }
}
