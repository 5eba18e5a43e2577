/* Digit histograms with local atomics on one histogram per work-group (GPUs); the keys are read
 * strided (coalesced): the histogram does not care about their order. */
__kernel __attribute__((reqd_work_group_size(CLSCAN_WG, 1, 1)))
void clscan_radix_histogram_atomic(__global const K *keys, ulong keys_offset, ulong count, uint shift, K mask,
                                   K clamp, __global uint *counts, uint nblocks, uint flip)
{
    __local uint hist[RADIX];
    const uint li = get_local_id(0), g = get_group_id(0);
    const ulong base = (ulong)g * TILE;
    __global const K *in = keys + keys_offset;
    for (uint d = li; d < RADIX; d += CLSCAN_WG)
        hist[d] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (base + TILE <= count) {
        for (uint r = 0; r < CLSCAN_ITEMS; ++r)
            atomic_inc(&hist[digit_of(in[base + r * CLSCAN_WG + li], shift, mask, clamp, flip)]);
    } else {
        for (uint r = 0; r < CLSCAN_ITEMS; ++r) {
            const ulong i = base + r * CLSCAN_WG + li;
            if (i < count)
                atomic_inc(&hist[digit_of(in[i], shift, mask, clamp, flip)]);
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint d = li; d < RADIX; d += CLSCAN_WG)
        counts[(ulong)d * nblocks + g] = hist[d];
}
