/* The compaction in one pass on CPUs: a work-group of one work-item per block of
 * CLSCAN_ONE_PASS_TILE elements (blocks in the order of their tickets, as in compact/one_pass.cl,
 * with the same status words, compact/one_pass_status.cl).  The work-item counts the block's
 * kept elements, publishes their number, adds up the counts of the blocks before it one status
 * word at a time back to the nearest prefix (counting a block still silent after
 * CLSCAN_SPIN_LIMIT polls from its flags itself), then stores its kept elements: one launch,
 * the block's second read from the cache.
 * The arguments of compact/one_pass.cl; the count of compact/flags_loop.cl. */
#define SERIAL_TILE CLSCAN_ONE_PASS_TILE

inline uint serial_lookback(FLAG_PARAMS, ulong count, __global volatile ulong *status, uint g, uint epoch)
{
    uint before = 0;
    for (uint j = g; j-- > 0;) {
        uint n, st, spins = 0;
        while ((st = one_pass_read(status, j, epoch, &n)) == 0 && ++spins < CLSCAN_SPIN_LIMIT)
            ;
        if (st == 0) {
            const ulong first = (ulong)j * SERIAL_TILE;
            n = count_range(FLAG_ARGS, first, (uint)min((ulong)SERIAL_TILE, count - first));
        }
        before += n;
        if (st == ONE_PASS_PREFIX)
            break;
    }
    return before;
}

/* Kept elements first ... first + end (the last kept one) of the block, in order from position p
 * (the block's positions end at limit): by vector compress (compact/compress.cl) while a whole
 * vector's positions are the block's, then every element is stored at the next free position
 * and the position advances only past a kept one, so each position ends up holding its kept
 * element, with neither a branch nor a list (a mispredicted branch per element costs more than
 * the store), and nothing is written past the block's positions. */
inline void serial_store(FLAG_PARAMS, __global W *dst, ulong dst_offset, __global uint *indices,
                         ulong indices_offset, uint write_indices, ulong first, uint end, ulong p,
                         ulong limit)
{
    ulong at = p;
    uint r = 0;
    if (first == 0) {   /* element 0 first, so that the loops below need not test for it */
        if (write_indices) {
            indices[indices_offset + at] = 0;
        } else {
            for (uint w = 0; w < WORDS; ++w)
                dst[(dst_offset + at) * WORDS + w] = src[src_offset * WORDS + w];
        }
        at += flag_at(FLAG_ARGS, 0);
        r = 1;
    }
    if (write_indices) {
        for (; COMPRESS_INDEX_LANES && r + COMPRESS_INDEX_LANES <= end + 1 && at + COMPRESS_INDEX_LANES <= limit;
             r += COMPRESS_INDEX_LANES) {
            const uint m = flags_mask_past_first(FLAG_ARGS, first + r, COMPRESS_INDEX_LANES);
            compress_indices((uint)(first + r), indices + indices_offset + at, m);
            at += popcount(m);
        }
        for (; r <= end; ++r) {
            indices[indices_offset + at] = (uint)(first + r);
            at += flag_past_first(FLAG_ARGS, first + r);
        }
    } else {
        for (; COMPRESS_LANES && r + COMPRESS_LANES <= end + 1 && at + COMPRESS_LANES <= limit; r += COMPRESS_LANES) {
            const ulong i = first + r;
            const uint m = flags_mask_past_first(FLAG_ARGS, i, COMPRESS_LANES);
            compress_elements(src + (src_offset + i) * WORDS, dst + (dst_offset + at) * WORDS, m);
            at += popcount(m);
        }
        /* Four at a time, their flags (in scalars: PoCL kept an array of them on the stack)
         * before their stores: fewer loop steps.  PoCL, 2^22 uint32, cycles in the kernel over
         * 21 calls, six rounds alternating: against one at a time, unique 92-111 million against
         * 103-119, compact-50 87-110 against 94-115; against the array, select-if 71-98 against
         * 102-116, compact-50 87-92 against 96-107, unique level. */
        for (; r + 4 <= end + 1; r += 4) {
            const ulong i = first + r;
            const uint f0 = flag_past_first(FLAG_ARGS, i), f1 = flag_past_first(FLAG_ARGS, i + 1);
            const uint f2 = flag_past_first(FLAG_ARGS, i + 2), f3 = flag_past_first(FLAG_ARGS, i + 3);
            __global const W *s = src + (src_offset + i) * WORDS;
            __global W *d = dst + dst_offset * WORDS;
            const ulong a1 = at + f0, a2 = a1 + f1, a3 = a2 + f2;
            for (uint w = 0; w < WORDS; ++w) {
                d[at * WORDS + w] = s[w];
                d[a1 * WORDS + w] = s[WORDS + w];
                d[a2 * WORDS + w] = s[2 * WORDS + w];
                d[a3 * WORDS + w] = s[3 * WORDS + w];
            }
            at = a3 + f3;
        }
        for (; r <= end; ++r) {
            __global const W *s = src + (src_offset + first + r) * WORDS;
            __global W *d = dst + (dst_offset + at) * WORDS;
            for (uint w = 0; w < WORDS; ++w)
                d[w] = s[w];
            at += flag_past_first(FLAG_ARGS, first + r);
        }
    }
}

__kernel __attribute__((reqd_work_group_size(1, 1, 1)))
void clscan_compact_one_pass(FLAG_PARAMS, ulong count, __global W *dst, ulong dst_offset,
                             __global uint *indices, ulong indices_offset, uint write_indices,
                             __global volatile ulong *status, uint ticket_base, uint epoch,
                             __global ulong *kept, ulong kept_offset)
{
    const uint g = atomic_inc((volatile __global uint *)status) - ticket_base;
    const ulong first = (ulong)g * SERIAL_TILE;
    const uint in_block = (uint)min((ulong)SERIAL_TILE, count - first);
    const uint n = count_range(FLAG_ARGS, first, in_block);
    one_pass_publish(status, g, epoch, g == 0 ? ONE_PASS_PREFIX : ONE_PASS_AGGREGATE, n);
    const uint p = g == 0 ? 0 : serial_lookback(FLAG_ARGS, count, status, g, epoch);
    if (g > 0)
        one_pass_publish(status, g, epoch, ONE_PASS_PREFIX, p + n);
    if (g == get_num_groups(0) - 1)
        kept[kept_offset] = (ulong)p + n;
    if (n == 0)
        return;
    uint end = in_block - 1;   /* the last kept element: few steps back on most data */
    while (!flag_at(FLAG_ARGS, first + end))
        --end;
    serial_store(FLAG_ARGS, dst, dst_offset, indices, indices_offset, write_indices, first, end, p,
                 (ulong)p + n);
}
