/* The stable partition's scatter on GPUs (CLSCAN_ITEMS <= 32, blocks of at most 65536
 * elements), the arguments of partition.cl: as compact/scatter_block.cl, the block's positions
 * are listed in local memory, the kept ones from the front of list and the others from its back
 * (both in order), then the whole work-group copies them out word by word, neighbouring
 * work-items writing neighbouring words: the block's kept elements to offsets[g] ..., its
 * others to total + (base - offsets[g]) ... (the others before the block). */
__kernel __attribute__((reqd_work_group_size(CLSCAN_WG, 1, 1)))
void clscan_select_partition_block(FLAG_PARAMS, ulong count, __global W *dst, ulong dst_offset,
                                   __global const uint *offsets, uint nblocks,
                                   __global ulong *kept, ulong kept_offset)
{
    __local uint buf[2 * CLSCAN_WG];
    __local uint4 stage[(TILE + 15) / 16];
    __local ushort list[TILE];
    __local uint block_kept;
    const uint li = get_local_id(0), g = get_group_id(0);
    const ulong base = (ulong)g * TILE, first = base + (ulong)li * CLSCAN_ITEMS;
    const ulong total = offsets[nblocks];
    if (g == 0 && li == 0)
        kept[kept_offset] = total;
    const uint bits = own_flags(FLAG_ARGS, base, count, li, (__local uchar *)stage), own = popcount(bits);
    const uint valid = first < count ? (uint)min((ulong)CLSCAN_ITEMS, count - first) : 0;
    uint in = wg_exclusive_sum(own, buf, li);
    /* A work-item with elements follows only full ones: li * CLSCAN_ITEMS - in others before it. */
    uint out = li * CLSCAN_ITEMS - in;
    if (li == CLSCAN_WG - 1)
        block_kept = in + own;
    for (uint r = 0; r < valid; ++r) {
        const ushort at = (ushort)(li * CLSCAN_ITEMS + r);
        if (bits >> r & 1u)
            list[in++] = at;
        else
            list[TILE - 1 - out++] = at;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint kept_here = block_kept, n = (uint)min((ulong)TILE, count - base);
    const ulong p = offsets[g], q = total + (base - p);
    __global const W *s = src + (src_offset + base) * WORDS;
    __global W *d = dst + dst_offset * WORDS;
    for (uint x = li; x < n * WORDS; x += CLSCAN_WG) {
        const uint k = x / WORDS, w = x % WORDS;
        const int front = k < kept_here;
        const uint from = front ? list[k] : list[TILE - 1 - (k - kept_here)];
        const ulong at = front ? p + k : q + (k - kept_here);
        d[at * WORDS + w] = s[(ulong)from * WORDS + w];
    }
}
