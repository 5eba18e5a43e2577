/* The scatter on GPUs (CLSCAN_ITEMS <= 32, blocks of at most 65536 elements): the block's kept
 * positions are listed in local memory in order, then the whole work-group copies them out, each
 * work-item a batch of words at a time: neighbouring work-items write neighbouring words, and
 * read from the same small window of src (which the flags of a predicate or of runs have just
 * read: mostly from the cache).  The arguments of scatter_list.cl.  block_list_own and
 * block_write also serve the one-pass compaction (compact/one_pass.cl). */

/* The words a work-item copies at once in the block writes. */
#define BATCH 8

/* Lists the set bits (bit r: element r) of each work-item's flags in order in list, from at, the
 * kept elements of the work-items before it. */
inline void block_list_own(uint bits, uint at, __local ushort *list, uint li)
{
    for (uint r = 0; r < CLSCAN_ITEMS; ++r)
        if (bits >> r & 1u)
            list[at++] = (ushort)(li * CLSCAN_ITEMS + r);
}

/* Lists the set bits of each work-item's flags in order in list; returns the block's count to
 * every work-item. */
inline uint block_list(uint bits, __local uint *buf, __local ushort *list, __local uint *block_kept, uint li)
{
    const uint own = popcount(bits);
    const uint at = wg_exclusive_sum(own, buf, li);
    if (li == CLSCAN_WG - 1)
        *block_kept = at + own;
    block_list_own(bits, at, list, li);
    barrier(CLK_LOCAL_MEM_FENCE);
    return *block_kept;
}

/* The n listed elements of the block at base (or their indices) to position p on. */
inline void block_write(FLAG_PARAMS, ulong base, uint n, ulong p, __global W *dst, ulong dst_offset,
                        __global uint *indices, ulong indices_offset, uint write_indices,
                        __local const ushort *list, uint li)
{
    if (write_indices) {
        for (uint k = li; k < n; k += CLSCAN_WG)
            indices[indices_offset + p + k] = (uint)(base + list[k]);
    } else {
        __global const W *s = src + (src_offset + base) * WORDS;
        __global W *d = dst + (dst_offset + p) * WORDS;
        /* BATCH words a work-item loaded before any is stored: the compiler may not move a load
         * above a store to another buffer, so one at a time each would wait for the last. */
        const uint words = n * WORDS;
        for (uint x0 = li; x0 < words; x0 += BATCH * CLSCAN_WG) {
            W v[BATCH];
            for (uint u = 0; u < BATCH; ++u) {
                const uint x = x0 + u * CLSCAN_WG;
                if (x < words)
                    v[u] = s[(ulong)list[x / WORDS] * WORDS + x % WORDS];
            }
            for (uint u = 0; u < BATCH; ++u) {
                const uint x = x0 + u * CLSCAN_WG;
                if (x < words)
                    d[x] = v[u];
            }
        }
    }
}

__kernel __attribute__((reqd_work_group_size(CLSCAN_WG, 1, 1)))
void clscan_compact_scatter_block(FLAG_PARAMS, ulong count, __global W *dst, ulong dst_offset,
                                  __global uint *indices, ulong indices_offset, uint write_indices,
                                  __global const uint *offsets, uint nblocks,
                                  __global ulong *kept, ulong kept_offset)
{
    __local uint buf[2 * CLSCAN_WG];
    __local uint4 stage[(TILE + 15) / 16];
    __local ushort list[TILE];
    __local uint block_kept;
    const uint li = get_local_id(0), g = get_group_id(0);
    const ulong base = (ulong)g * TILE;
    if (g == 0 && li == 0)
        kept[kept_offset] = offsets[nblocks];
    const uint bits = own_flags(FLAG_ARGS, base, count, li, (__local uchar *)stage);
    const uint n = block_list(bits, buf, list, &block_kept, li);
    block_write(FLAG_ARGS, base, n, offsets[g], dst, dst_offset, indices, indices_offset, write_indices, list, li);
}
