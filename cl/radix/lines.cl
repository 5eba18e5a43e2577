/* Short lines of a 2-D array sorted one per work-item (clscan_axis_sort_enqueue's rows or columns
 * of at most CLSCAN_SEG_SMALL keys): where radix/segmented.cl gives each line a work-group, most
 * of whose work-items would idle, and a million lines a million work-groups.  Key k of line s is
 * element s * in_line + k * in_step of the inputs (rows: in_line the row pitch, in_step 1;
 * columns: in_line 1, in_step the row pitch, so that neighbouring work-items read neighbouring
 * keys) and s * out_line + k * out_step of the outputs.  The line's keys are staged in local
 * memory (element k of work-item li at k * CLSCAN_LINES_WG + li: no bank conflicts); each key's
 * stable rank is counted by comparing its sort key (radix/segmented.cl's sort_key: the bits
 * sorted by, inverted when descending) with the others' (the keys before it: not greater; after
 * it: smaller); then the outputs are written in order from the inverse permutation.  The keys
 * are read before any is written, so keys in place are safe; values are gathered from values_in
 * (the host passes a copy of them for values in place). */

__kernel __attribute__((reqd_work_group_size(CLSCAN_LINES_WG, 1, 1)))
void clscan_radix_lines(__global const K *keys_in, ulong keys_in_offset, __global K *keys_out, ulong keys_out_offset,
                        __global const VW *values_in, ulong values_in_offset, __global VW *values_out,
                        ulong values_out_offset, ulong nlines, uint length, ulong in_line, ulong in_step,
                        ulong out_line, ulong out_step, K mask, uint flip)
{
    __local K key[CLSCAN_SEG_SMALL * CLSCAN_LINES_WG];
    __local uchar from[CLSCAN_SEG_SMALL * CLSCAN_LINES_WG];   /* the key of each output position */
    const uint li = get_local_id(0);
    const K kflip = flip ? mask : (K)0;
    for (ulong s = get_global_id(0); s < nlines; s += get_global_size(0)) {
        const ulong in = keys_in_offset + s * in_line, out = keys_out_offset + s * out_line;
        for (uint k = 0; k < length; ++k)
            key[k * CLSCAN_LINES_WG + li] = keys_in[in + k * in_step];
        for (uint i = 0; i < length; ++i) {
            const K t = sort_key(key[i * CLSCAN_LINES_WG + li], mask, kflip);
            uint q = 0;
            for (uint j = 0; j < i; ++j)
                q += sort_key(key[j * CLSCAN_LINES_WG + li], mask, kflip) <= t;
            for (uint j = i + 1; j < length; ++j)
                q += sort_key(key[j * CLSCAN_LINES_WG + li], mask, kflip) < t;
            from[q * CLSCAN_LINES_WG + li] = (uchar)i;
        }
        const ulong vin = values_in_offset + s * in_line, vout = values_out_offset + s * out_line;
        for (uint q = 0; q < length; ++q) {
            const uint i = from[q * CLSCAN_LINES_WG + li];
            keys_out[out + q * out_step] = key[i * CLSCAN_LINES_WG + li];
            for (uint w = 0; w < CLSCAN_VALUE_WORDS; ++w)
                values_out[(vout + q * out_step) * CLSCAN_VALUE_WORDS + w] =
                    values_in[(vin + i * in_step) * CLSCAN_VALUE_WORDS + w];
        }
    }
}
