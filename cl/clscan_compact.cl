/* clscan stream compaction: keep the elements whose cl_uchar flag is non-zero, in order.
 *
 * Build options:
 *   CLSCAN_ELEMENT_SIZE  bytes of one element (1 ... 4096)
 *   CLSCAN_WG            work-items per work-group (a power of two)
 *   CLSCAN_ITEMS         flags each work-item handles (consecutive ones, so that its kept
 *                        elements come out in order)
 *   CLSCAN_COMPACT_LIST  1: each work-item lists its kept positions, branch-free, and copies
 *                        them (CPUs); 0: the block's kept positions are listed in local memory
 *                        and copied out by the whole work-group (GPUs: CLSCAN_ITEMS <= 32 and
 *                        blocks of at most 65536 elements)
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

#if !CLSCAN_COMPACT_LIST && (CLSCAN_ITEMS > 32 || CLSCAN_WG * CLSCAN_ITEMS > 65536)
#error "CLSCAN_COMPACT_LIST=0 needs CLSCAN_ITEMS <= 32 and blocks of at most 65536 elements"
#endif

#if CLSCAN_ITEMS <= 32
/* Bit r of the result: flag first + r is set (r < CLSCAN_ITEMS <= 32), positions past count
 * clear.  GPUs read a full block's flags 16 at a time when they are 16-byte aligned. */
inline uint own_flags(__global const uchar *flags, ulong base, ulong count, uint li)
{
    const ulong first = base + (ulong)li * CLSCAN_ITEMS;
    uint bits = 0;
#if !CLSCAN_COMPACT_LIST && CLSCAN_ITEMS % 16 == 0
    if (base + TILE <= count && ((ulong)(flags + first) & 15) == 0) {
        __global const uint4 *q = (__global const uint4 *)(flags + first);
        for (uint v = 0; v < CLSCAN_ITEMS / 16; ++v) {
            const uint4 x = q[v];
            const uint words[4] = {x.s0, x.s1, x.s2, x.s3};
            for (uint j = 0; j < 4; ++j)
                for (uint b = 0; b < 4; ++b)   /* little-endian: byte b is flag 4j + b */
                    bits |= (uint)(((words[j] >> (8 * b)) & 0xffu) != 0) << (16 * v + 4 * j + b);
        }
        return bits;
    }
#endif
    if (base + TILE <= count) {   /* a full block: no bounds checks */
        for (uint r = 0; r < CLSCAN_ITEMS; ++r)
            bits |= (uint)(flags[first + r] != 0) << r;
    } else {
        for (uint r = 0; r < CLSCAN_ITEMS; ++r)
            bits |= (uint)(first + r < count && flags[first + r] != 0) << r;
    }
    return bits;
}
#endif

/* Flags set among the work-item's CLSCAN_ITEMS consecutive flags of the block at base. */
inline uint count_own(__global const uchar *flags, ulong base, ulong count, uint li)
{
#if CLSCAN_ITEMS <= 32
    return popcount(own_flags(flags, base, count, li));
#else
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
#endif
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
    if (g == 0 && li == 0)
        kept[kept_offset] = offsets[nblocks];
#if CLSCAN_COMPACT_LIST
    /* CPUs: first list the kept positions without a branch (a mispredicted branch per element
     * costs more than the copy), then copy them. */
    const uint own = count_own(f, base, count, li);
    const uint p = offsets[g] + wg_exclusive_sum(own, buf, li);
    uint list[CLSCAN_ITEMS], m = 0;
    for (uint r = 0; r < CLSCAN_ITEMS; ++r) {
        list[m] = r;
        m += first + r < count && f[first + r] != 0;
    }
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
#else
    /* GPUs: the block's kept positions are listed in local memory in order, then the whole
     * work-group copies them out word by word: neighbouring work-items write neighbouring
     * words, and read from the same small window of src. */
    __local ushort list[TILE];
    __local uint block_kept;
    const uint bits = own_flags(f, base, count, li), own = popcount(bits);
    uint at = wg_exclusive_sum(own, buf, li);
    if (li == CLSCAN_WG - 1)
        block_kept = at + own;
    for (uint r = 0; r < CLSCAN_ITEMS; ++r)
        if (bits >> r & 1u)
            list[at++] = (ushort)(li * CLSCAN_ITEMS + r);
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint n = block_kept;
    const ulong p = offsets[g];
    if (write_indices) {
        for (uint k = li; k < n; k += CLSCAN_WG)
            indices[indices_offset + p + k] = (uint)(base + list[k]);
    } else {
        __global const W *s = src + (src_offset + base) * WORDS;
        __global W *d = dst + (dst_offset + p) * WORDS;
        for (uint x = li; x < n * WORDS; x += CLSCAN_WG) {
            const uint k = x / WORDS, w = x % WORDS;
            d[x] = s[(ulong)list[k] * WORDS + w];
        }
    }
#endif
}
