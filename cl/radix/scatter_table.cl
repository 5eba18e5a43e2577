/* The scatter through a (digit, work-item) table (CPUs, and GPUs without 256 work-items per
 * work-group or room for the ranking): each work-item counts its CLSCAN_ITEMS consecutive keys'
 * digits into its column, the work-group scans the table in (digit, work-item) order, and every
 * key goes straight to offsets[d, b] plus its rank among the block's keys of digit d (work-item,
 * then position: the input order). */
/* whole: the plain sort (no segments: no shift to read, no clamp) */
inline void radix_scatter_table(SCATTER_PARAMS, radix_block b, ulong in_gap, ulong out_gap, int whole,
                                __local count_t *table, __local uint *seg, __local uint *dest)
{
    const uint li = get_local_id(0), first = li * CLSCAN_ITEMS;
    __global const K *in = keys_in + keys_in_offset + b.seg * in_gap + b.begin;
    const ulong from = b.begin + b.seg * in_gap, to = b.seg * out_gap;   /* the values' moves */
    if (b.n == 0)   /* the whole work-group: no barrier below is reached by some only */
        return;

    for (uint d = 0; d < RADIX; ++d)
        table[CELL(d * CLSCAN_WG + li)] = 0;
    for (uint r = 0; r < CLSCAN_ITEMS; ++r)
        if (first + r < b.n)
            table[CELL(digit_of(in[first + r], shift, mask, clamp, flip) * CLSCAN_WG + li)] += 1;
    barrier(CLK_LOCAL_MEM_FENCE);

    /* Exclusive scan of the table in (digit, work-item) order: work-item li scans the entries
     * li * RADIX ... li * RADIX + RADIX - 1, then adds the totals of the segments before it. */
    uint sum = 0;
    for (uint j = 0; j < RADIX; ++j) {
        const uint x = CELL(li * RADIX + j), t = table[x];
        table[x] = (count_t)sum;
        sum += t;
    }
    seg[li] = sum;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint before = 0;
    for (uint w = 0; w < li; ++w)
        before += seg[w];
    for (uint j = 0; j < RADIX; ++j)
        table[CELL(li * RADIX + j)] += (count_t)before;
    barrier(CLK_LOCAL_MEM_FENCE);

    /* dest[d]: where the block's keys of digit d start in the output, less their start in the
     * block's order (entry (d, 0)); unsigned arithmetic wraps back when the rank is added. */
    const uint seg_shift = whole ? 0 : (uint)b.seg_begin - offsets[b.seg_slot];
    for (uint d = li; d < RADIX && b.n; d += CLSCAN_WG)
        dest[d] = offsets[b.slot0 + (ulong)d * b.stride] + seg_shift - table[CELL(d * CLSCAN_WG)];
    barrier(CLK_LOCAL_MEM_FENCE);

    for (uint r = 0; r < CLSCAN_ITEMS; ++r) {
        const uint i = first + r;
        if (i < b.n) {
            const K k = in[i];
            const uint d = digit_of(k, shift, mask, clamp, flip), x = CELL(d * CLSCAN_WG + li);
            const uint p = dest[d] + table[x];
            table[x] += 1;
            /* segments: clamped below count (there anyway with offsets that keep the rules) */
            move_element(from + i, whole ? p : min(p, (uint)(count - 1)), k, keys_out + keys_out_offset + to,
                         values_in + values_in_offset * CLSCAN_VALUE_WORDS,
                         values_out + (values_out_offset + to) * CLSCAN_VALUE_WORDS, index_in + index_in_offset,
                         index_out + index_out_offset, index_mode);
        }
    }
}

__kernel __attribute__((reqd_work_group_size(CLSCAN_WG, 1, 1)))
void clscan_radix_scatter_table(SCATTER_PARAMS)
{
    __local count_t table[CELL(RADIX * CLSCAN_WG)];
    __local uint seg[CLSCAN_WG];
    __local uint dest[RADIX];
    radix_scatter_table(SCATTER_ARGS, block_whole(get_group_id(0), nblocks, count), 0, 0, 1, table, seg, dest);
}

__kernel __attribute__((reqd_work_group_size(CLSCAN_WG, 1, 1)))
void clscan_radix_scatter_table_segments(SCATTER_PARAMS, BLOCK_MAP_PARAMS)
{
    __local count_t table[CELL(RADIX * CLSCAN_WG)];
    __local uint seg[CLSCAN_WG];
    __local uint dest[RADIX];
    radix_scatter_table(SCATTER_ARGS, block_of(get_group_id(0), nblocks, count, BLOCK_MAP_ARGS), in_gap, out_gap, 0,
                        table, seg, dest);
}
