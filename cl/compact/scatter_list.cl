/* The scatter on CPUs: each work-item lists its kept positions without a branch (a
 * mispredicted branch per element costs more than the copy), then copies them to offsets[g]
 * plus the kept elements of the work-items before it.  write_indices 0: dst gets the kept
 * elements of src; 1: indices gets their indices. */

/* list[0 ... m) = the offsets r of the set flags among the CLSCAN_ITEMS from first; returns m. */
inline uint list_own(FLAG_PARAMS, ulong first, ulong count, uint *list)
{
    uint m = 0;
    for (uint r = 0; r < CLSCAN_ITEMS; ++r) {
        list[m] = r;
        m += first + r < count && flag_at(FLAG_ARGS, first + r);
    }
    return m;
}

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
    /* Given flags are counted, then listed after the work-group's sum (read twice, but PoCL
     * keeps less across the sum's barriers: measured faster); evaluated ones are listed first
     * and counted by the list (each evaluated once: measured faster). */
    uint list[CLSCAN_ITEMS], m = 0;
    if (!CLSCAN_FLAGS_GIVEN)
        m = list_own(FLAG_ARGS, first, count, list);
    const uint own = CLSCAN_FLAGS_GIVEN ? count_own(FLAG_ARGS, base, count, li) : m;
    const uint p = offsets[g] + wg_exclusive_sum(own, buf, li);
    if (CLSCAN_FLAGS_GIVEN)
        m = list_own(FLAG_ARGS, first, count, list);
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
