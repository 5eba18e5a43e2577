/* Onesweep's kernels (A. Adinets and D. Merrill, 2022; radix/onesweep_lookback.cl says how it
 * works): every pass's digits counted in one read of the keys, their starts, and the passes.
 * Built only for the engines that take onesweep (lib/radix_tuning.c). */

/* totals[p * RADIX + d]: the keys whose digit of pass p (bits begin + 8 p ...) is d, p < npasses;
 * each work-group counts blocks g, g + groups, ... in local memory, then adds to totals. */
__kernel __attribute__((reqd_work_group_size(CLSCAN_WG, 1, 1)))
void clscan_radix_digit_totals(__global const K *keys, ulong keys_offset, ulong count, uint begin, uint npasses,
                               K mask, K clamp, uint flip, __global uint *totals, uint nblocks)
{
    __local uint hist[sizeof(K) * RADIX];
    const uint li = get_local_id(0);
    for (uint d = li; d < npasses * RADIX; d += CLSCAN_WG)
        hist[d] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint g = get_group_id(0); g < nblocks; g += get_num_groups(0)) {
        const radix_block b = block_whole(g, nblocks, count);
        __global const K *in = keys + keys_offset + b.begin;
        K key[CLSCAN_ITEMS];   /* loaded before the first atomic (radix/histogram_atomic.cl) */
        for (uint r = 0; r < CLSCAN_ITEMS; ++r) {
            const uint i = r * CLSCAN_WG + li;
            key[r] = i < b.n ? in[i] : 0;
        }
        for (uint r = 0; r < CLSCAN_ITEMS; ++r)
            if (r * CLSCAN_WG + li < b.n)
                for (uint p = 0; p < npasses; ++p)
                    atomic_inc(&hist[p * RADIX + digit_of(key[r], begin + p * RADIX_BITS, mask, clamp, flip)]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint d = li; d < npasses * RADIX; d += CLSCAN_WG)
        if (hist[d])
            atomic_add(&totals[d], hist[d]);
}

/* sweep[(npasses + p) * RADIX + d]: the keys of pass p's digits below d, from the totals in
 * sweep[p * RADIX + d] (one work-group). */
__kernel __attribute__((reqd_work_group_size(CLSCAN_WG, 1, 1)))
void clscan_radix_digit_starts(__global uint *sweep, uint npasses)
{
    __local uint buf[2 * CLSCAN_WG];
    const uint li = get_local_id(0);
    for (uint p = 0; p < npasses; ++p) {
        const uint s = wg_exclusive_sum(sweep[p * RADIX + li], buf, li);
        sweep[(npasses + p) * RADIX + li] = s;
        barrier(CLK_LOCAL_MEM_FENCE);   /* buf is written again by the next pass */
    }
}

/* A pass: the ranking scatter (radix/scatter_ranked.cl) of the blocks in the order of their
 * tickets, sweep[0], each block's places from its digits' starts and the look-back
 * (radix/onesweep_lookback.cl). */
__kernel __attribute__((reqd_work_group_size(CLSCAN_WG, 1, 1)))
void clscan_radix_onesweep(SCATTER_PARAMS, __global volatile uint *sweep_words, ulong sweep_offset,
                           __global const uint *starts_words, ulong starts_offset)
{
    __global volatile uint *sweep = sweep_words + sweep_offset;
    __global const uint *starts = starts_words + starts_offset;
    __local uint counts_of[NWARPS * RADIX];    /* (warp, digit): keys ranked so far; then offsets */
    /* two sets of (warp, digit) lane masks; the scan's buffer; the staged keys (8-byte aligned:
     * NVIDIA GPUs fault on a misaligned 64-bit access, where CPUs do not) */
    __local uint scratch[SCRATCH_WORDS] __attribute__((aligned(8)));
    __local uint dest[RADIX];
    __local ushort order[TILE];                /* order[rank in block] = position in block */
    __local uint ticket;
    if (get_local_id(0) == 0)
        ticket = atomic_inc(sweep);
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint g = ticket;
    radix_scatter_ranked(SCATTER_ARGS, block_whole(g, nblocks, count), 0, 0, 1, counts_of, scratch, dest, order,
                         sweep + 1, g, starts);
}
