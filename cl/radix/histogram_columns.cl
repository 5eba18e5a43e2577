/* Digit histograms without atomics (CPUs, where local atomics are locked instructions): each
 * work-item counts into its own column of a (digit, work-item) table, then the columns are
 * summed. */
inline void radix_histogram_columns(HISTOGRAM_PARAMS, radix_block b, ulong in_gap, __local count_t *table)
{
    const uint li = get_local_id(0), first = li * CLSCAN_ITEMS;
    __global const K *in = keys + keys_offset + b.seg * in_gap + b.begin;
    if (b.n == 0) {   /* the whole work-group: no barrier below is reached by some only */
        for (uint d = li; d < RADIX && b.stride; d += CLSCAN_WG)
            counts[b.slot0 + (ulong)d * b.stride] = 0;
        return;
    }
    for (uint d = 0; d < RADIX; ++d)
        table[CELL(d * CLSCAN_WG + li)] = 0;
    if (b.n == TILE) {
        for (uint r = 0; r < CLSCAN_ITEMS; ++r)
            table[CELL(digit_of(in[first + r], shift, mask, clamp, flip) * CLSCAN_WG + li)] += 1;
    } else {
        for (uint r = 0; r < CLSCAN_ITEMS; ++r)
            if (first + r < b.n)
                table[CELL(digit_of(in[first + r], shift, mask, clamp, flip) * CLSCAN_WG + li)] += 1;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint d = li; d < RADIX && b.stride; d += CLSCAN_WG) {
        uint sum = 0;
        for (uint w = 0; w < CLSCAN_WG; ++w)
            sum += table[CELL(d * CLSCAN_WG + w)];
        counts[b.slot0 + (ulong)d * b.stride] = sum;
    }
}

__kernel __attribute__((reqd_work_group_size(CLSCAN_WG, 1, 1)))
void clscan_radix_histogram_columns(HISTOGRAM_PARAMS)
{
    __local count_t table[CELL(RADIX * CLSCAN_WG)];
    radix_histogram_columns(HISTOGRAM_ARGS, block_whole(get_group_id(0), nblocks, count), 0, table);
}

__kernel __attribute__((reqd_work_group_size(CLSCAN_WG, 1, 1)))
void clscan_radix_histogram_columns_segments(HISTOGRAM_PARAMS, BLOCK_MAP_PARAMS)
{
    __local count_t table[CELL(RADIX * CLSCAN_WG)];
    radix_histogram_columns(HISTOGRAM_ARGS, block_of(get_group_id(0), nblocks, count, BLOCK_MAP_ARGS), in_gap,
                            table);
}
