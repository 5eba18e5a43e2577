/* The scatter on CPUs: each work-item first lists its kept positions without a branch (a
 * mispredicted branch per element costs more than the copy; each flag is taken once), then
 * copies them to offsets[g]
 * plus the kept elements of the work-items before it.  write_indices 0: dst gets the kept
 * elements of src; 1: indices gets their indices. */
__kernel __attribute__((reqd_work_group_size(CLSCAN_WG, 1, 1)))
void clscan_compact_scatter_list(FLAG_PARAMS, ulong count, __global W *dst, ulong dst_offset,
                                 __global uint *indices, ulong indices_offset, uint write_indices,
                                 __global const uint *offsets, uint nblocks,
                                 __global ulong *kept, ulong kept_offset)
{
    __local uint buf[2 * CLSCAN_WG];
    const uint li = get_local_id(0), g = get_group_id(0);
    const ulong base = (ulong)g * TILE, first = base + (ulong)li * CLSCAN_ITEMS;
    if (g == 0 && li == 0)
        kept[kept_offset] = offsets[nblocks];
    uint list[CLSCAN_ITEMS], m = 0;
    for (uint r = 0; r < CLSCAN_ITEMS; ++r) {
        list[m] = r;
        m += first + r < count && flag_at(FLAG_ARGS, first + r);
    }
    const uint p = offsets[g] + wg_exclusive_sum(m, buf, li);
    for (uint j = 0; j < m; ++j) {
        const ulong i = first + list[j];
        if (write_indices) {
            indices[indices_offset + p + j] = (uint)i;
        } else {
            __global const W *s = src + (src_offset + i) * WORDS;
            __global W *d = dst + (dst_offset + p + j) * WORDS;
            for (uint w = 0; w < WORDS; ++w)
                d[w] = s[w];
        }
    }
}
