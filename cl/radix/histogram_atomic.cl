/* Digit histograms with local atomics on one histogram per work-group (GPUs); the keys are read
 * strided (coalesced): the histogram does not care about their order. */
__kernel __attribute__((reqd_work_group_size(CLSCAN_WG, 1, 1)))
void clscan_radix_histogram_atomic(__global const K *keys, ulong keys_offset, ulong count, uint shift, K mask,
                                   K clamp, __global uint *counts, uint nblocks, uint flip, BLOCK_MAP_PARAMS)
{
    __local uint hist[RADIX];
    const uint li = get_local_id(0);
    const radix_block b = block_of(get_group_id(0), nblocks, count, BLOCK_MAP_ARGS);
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
        for (uint r = 0; r < CLSCAN_ITEMS; ++r)
            atomic_inc(&hist[digit_of(in[r * CLSCAN_WG + li], shift, mask, clamp, flip)]);
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
