/* clscan stream compaction: keep the elements whose cl_uchar flag is non-zero, in order.
 *
 * Build options:
 *   CLSCAN_ELEMENT_SIZE  bytes of one element (1 ... 4096)
 *   CLSCAN_WG            work-items per work-group (a power of two)
 *   CLSCAN_ITEMS         flags each work-item handles (consecutive ones, so that its kept
 *                        elements come out in order)
 *   CLSCAN_COMPACT_LIST  1: list the kept positions first, branch-free (CPUs); 0: walk (GPUs)
 * A block is CLSCAN_WG * CLSCAN_ITEMS consecutive elements, one per work-group:
 *   clscan_compact_count    counts[b] = flags set in block b (and counts[nblocks] = 0);
 *   (the host scans counts[0 ... nblocks] exclusively with clscan: offsets, the last = total)
 *   clscan_compact_scatter  each work-item writes its kept elements from offsets[b] plus the
 *                           kept elements of the work-items before it; work-group 0 writes the
 *                           total as a ulong.
 * Positions past count are skipped, and every work-item reaches every barrier. */

#define TILE (CLSCAN_WG * CLSCAN_ITEMS)

/* Elements are copied in the widest words that divide their size (buffers are aligned). */
#if CLSCAN_ELEMENT_SIZE % 16 == 0
typedef uint4 W;
#define WORD_SIZE 16
#elif CLSCAN_ELEMENT_SIZE % 8 == 0
typedef uint2 W;
#define WORD_SIZE 8
#elif CLSCAN_ELEMENT_SIZE % 4 == 0
typedef uint W;
#define WORD_SIZE 4
#else
typedef uchar W;
#define WORD_SIZE 1
#endif
#define WORDS (CLSCAN_ELEMENT_SIZE / WORD_SIZE)

/* Flags set among the work-item's CLSCAN_ITEMS consecutive flags of the block at base. */
inline uint count_own(__global const uchar *flags, ulong base, ulong count, uint li)
{
    const ulong first = base + (ulong)li * CLSCAN_ITEMS;
    uint n = 0;
    if (base + TILE <= count) {   /* a full block: no bounds checks */
        for (uint r = 0; r < CLSCAN_ITEMS; ++r)
            n += flags[first + r] != 0;
    } else {
        for (uint r = 0; r < CLSCAN_ITEMS; ++r)
            n += first + r < count && flags[first + r] != 0;
    }
    return n;
}

__kernel __attribute__((reqd_work_group_size(CLSCAN_WG, 1, 1)))
void clscan_compact_count(__global const uchar *flags, ulong flags_offset, ulong count,
                          __global uint *counts, uint nblocks)
{
    __local uint total;
    const uint li = get_local_id(0), g = get_group_id(0);
    if (li == 0)
        total = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint n = count_own(flags + flags_offset, (ulong)g * TILE, count, li);
    if (n)
        atomic_add(&total, n);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (li == 0) {
        counts[g] = total;
        if (g == 0)
            counts[nblocks] = 0;   /* scanned into the total */
    }
}

/* The exclusive sum of v over the work-items before li (Hillis-Steele in buf[2 * CLSCAN_WG]). */
inline uint wg_exclusive_sum(uint v, __local uint *buf, uint li)
{
    uint rd = 0, wr = CLSCAN_WG;
    buf[li] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint d = 1; d < CLSCAN_WG; d <<= 1) {
        buf[wr + li] = li >= d ? buf[rd + li - d] + buf[rd + li] : buf[rd + li];
        barrier(CLK_LOCAL_MEM_FENCE);
        const uint t = rd; rd = wr; wr = t;
    }
    return buf[rd + li] - v;
}

/* The position (from first) of the next set flag at or after *r; advances *r past it. */
inline uint next_kept(__global const uchar *f, ulong first, ulong count, uint *r)
{
    while (first + *r < count && f[first + *r] == 0)
        ++*r;
    return (*r)++;
}

/* write_indices 0: dst gets the kept elements of src; 1: indices gets their indices. */
__kernel __attribute__((reqd_work_group_size(CLSCAN_WG, 1, 1)))
void clscan_compact_scatter(__global const W *src, ulong src_offset, __global const uchar *flags,
                            ulong flags_offset, ulong count, __global W *dst, ulong dst_offset,
                            __global uint *indices, ulong indices_offset, uint write_indices,
                            __global const uint *offsets, uint nblocks,
                            __global ulong *kept, ulong kept_offset)
{
    __local uint buf[2 * CLSCAN_WG];
    const uint li = get_local_id(0), g = get_group_id(0);
    const ulong base = (ulong)g * TILE, first = base + (ulong)li * CLSCAN_ITEMS;
    __global const uchar *f = flags + flags_offset;
    const uint own = count_own(f, base, count, li);
    const uint p = offsets[g] + wg_exclusive_sum(own, buf, li);
#if CLSCAN_COMPACT_LIST
    /* CPUs: first list the kept positions without a branch (a mispredicted branch per element
     * costs more than the copy), then copy them. */
    uint list[CLSCAN_ITEMS], m = 0;
    for (uint r = 0; r < CLSCAN_ITEMS; ++r) {
        list[m] = r;
        m += first + r < count && f[first + r] != 0;
    }
#define KEPT(j) (first + list[j])
#else
    const uint m = own;
    uint r = 0;   /* GPUs: walk the flags, the next kept one each time */
#define KEPT(j) (first + next_kept(f, first, count, &r))
#endif
    for (uint j = 0; j < m; ++j) {
        const ulong i = KEPT(j);
        if (write_indices) {
            indices[indices_offset + p + j] = (uint)i;
        } else {
            __global const W *s = src + (src_offset + i) * WORDS;
            __global W *d = dst + (dst_offset + p + j) * WORDS;
            for (uint w = 0; w < WORDS; ++w)
                d[w] = s[w];
        }
    }
#undef KEPT
    if (g == 0 && li == 0)
        kept[kept_offset] = offsets[nblocks];
}
