/* Digit histograms with local atomics on one histogram per work-group (GPUs); the keys are read
 * strided (coalesced): the histogram does not care about their order. */
inline void radix_histogram_atomic(HISTOGRAM_PARAMS, radix_block b, ulong in_gap, __local uint *hist)
{
    const uint li = get_local_id(0);
    __global const K *in = keys + keys_offset + b.seg * in_gap + b.begin;
    if (b.n == 0) {   /* the whole work-group: no barrier below is reached by some only */
        for (uint d = li; d < RADIX && b.stride; d += CLSCAN_WG)
            counts[b.slot0 + (ulong)d * b.stride] = 0;
        return;
    }
    for (uint d = li; d < RADIX; d += CLSCAN_WG)
        hist[d] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (b.n == TILE) {
        /* every key loaded before the first atomic: the loads in flight together, where a load
         * after an atomic waited for it */
        K key[CLSCAN_ITEMS];
        for (uint r = 0; r < CLSCAN_ITEMS; ++r)
            key[r] = in[r * CLSCAN_WG + li];
        for (uint r = 0; r < CLSCAN_ITEMS; ++r)
            atomic_inc(&hist[digit_of(key[r], shift, mask, clamp, flip)]);
    } else {
        for (uint r = 0; r < CLSCAN_ITEMS; ++r) {
            const uint i = r * CLSCAN_WG + li;
            if (i < b.n)
                atomic_inc(&hist[digit_of(in[i], shift, mask, clamp, flip)]);
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint d = li; d < RADIX && b.stride; d += CLSCAN_WG)
        counts[b.slot0 + (ulong)d * b.stride] = hist[d];
}

__kernel __attribute__((reqd_work_group_size(CLSCAN_WG, 1, 1)))
void clscan_radix_histogram_atomic(HISTOGRAM_PARAMS)
{
    __local uint hist[RADIX];
    radix_histogram_atomic(HISTOGRAM_ARGS, block_whole(get_group_id(0), nblocks, count), 0, hist);
}

__kernel __attribute__((reqd_work_group_size(CLSCAN_WG, 1, 1)))
void clscan_radix_histogram_atomic_segments(HISTOGRAM_PARAMS, BLOCK_MAP_PARAMS)
{
    __local uint hist[RADIX];
    radix_histogram_atomic(HISTOGRAM_ARGS, block_of(get_group_id(0), nblocks, count, BLOCK_MAP_ARGS), in_gap,
                           hist);
}
