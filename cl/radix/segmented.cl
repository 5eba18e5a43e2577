/* The segmented sort: every segment [offsets[s], offsets[s + 1]) of the keys sorted on its own,
 * stably, by one work-group (of CLSCAN_SEG_WG work-items), all in one launch.  Work-group g
 * sorts segments g, g + ngroups, ...
 *   Segments of at most CLSCAN_SEG_SMALL keys: each key goes straight to its stable rank,
 *   counted by comparing it with the segment's other keys (n^2 comparisons, no passes); in
 *   place (via_tmp), through scratch 0 and back.  Such a segment's work-group skips the passes
 *   (their loop runs 0 times for it), so that every barrier stays outside branches.
 *   Segments of at most CLSCAN_SEG_LOCAL keys (0: none): a bitonic sort (K. E. Batcher, "Sorting
 *   networks and their applications", AFIPS 1968) of (sort key, index) pairs in the table's local
 *   memory, padded to a power of two with the largest key; the index breaks ties, so the sort is
 *   stable; then each key and value is copied from its index, as the small segments' are.
 *   Longer ones: per pass, the digits of the passes over the whole array (radix/keys.cl): the
 *   segment's digit histogram, its exclusive scan (where each digit's keys start in the
 *   segment), then the segment's chunks of CLSCAN_SEG_WG * CLSCAN_SEG_ITEMS keys in order, each
 *   ranked through a (digit, work-item) table as in radix/scatter_table.cl, so that keys of one
 *   digit keep their input order: stable.  A pass reads what the previous one wrote through the
 *   same work-group (the barriers' global fence orders them); pass p writes the outputs when it
 *   is the last, else scratch p % 2.
 * Segments of more than `above` keys are left to the passes over the whole array
 * (radix/blocks.cl), which sort all of them at once.
 * Offsets are 4 or 8 bytes wide and clamped to count (offsets that break the rules give
 * unspecified results, within the buffers).
 *   Uniform segments (length > 0, no offsets: the rows of a 2-D array, clscan_axis_sort_enqueue):
 *   segment s is [s * length, (s + 1) * length) of the scratch; its inputs start at element
 *   s * in_pitch, its outputs at s * out_pitch (pitches >= length, the gaps between never read
 *   nor written): the inputs and outputs are addressed through pointers moved by s * (pitch -
 *   length), so that one index i serves all three.  Every work-item reaches every barrier: the bounds
 * of the loops and branches around them are the work-group's. */
#define SEG_TILE (CLSCAN_SEG_WG * CLSCAN_SEG_ITEMS)

/* What the passes sort by, as one number: the bits of the mask, inverted when descending (kflip
 * = mask). */
inline K sort_key(K k, K mask, K kflip)
{
    return (order_bits(k) & mask) ^ kflip;
}

inline ulong seg_offset(__global const uint *offsets, uint wide, ulong s, ulong count)
{
    const ulong o = wide ? ((__global const ulong *)offsets)[s] : (ulong)offsets[s];
    return min(o, count);
}

/* Moves the key and value at from (of ks, vs) to to (of kd, vd). */
inline void seg_move(__global const K *ks, __global const VW *vs, ulong from, __global K *kd, __global VW *vd,
                     ulong to)
{
    kd[to] = ks[from];
    for (uint w = 0; w < CLSCAN_VALUE_WORDS; ++w)
        vd[to * CLSCAN_VALUE_WORDS + w] = vs[from * CLSCAN_VALUE_WORDS + w];
}

/* The bitonic sort of n keys (0: none; the same n for the whole work-group, so that every
 * work-item meets every barrier) of the segment at first, written to kd and vd at first. */
inline void local_sort(__local count_t *table, ulong n, ulong first, __global const K *ks, __global const VW *vs,
                       __global K *kd, __global VW *vd, K mask, K kflip)
{
#if CLSCAN_SEG_LOCAL
    __local K *key = (__local K *)table;
    __local uint *index = (__local uint *)(key + CLSCAN_SEG_LOCAL);
    const uint li = get_local_id(0), m = (uint)n;
    uint n2 = m ? 2 : 0;
    while (n2 < m)
        n2 *= 2;
    for (uint i = li; i < n2; i += CLSCAN_SEG_WG) {
        key[i] = i < m ? sort_key(ks[first + i], mask, kflip) : (K)~(K)0;
        index[i] = i;
    }
    for (uint size = 2; size <= n2; size *= 2) {
        for (uint stride = size / 2; stride > 0; stride /= 2) {
            barrier(CLK_LOCAL_MEM_FENCE);
            for (uint t = li; t < n2 / 2; t += CLSCAN_SEG_WG) {
                const uint lo = 2 * t - (t & (stride - 1)), hi = lo + stride;
                const K a = key[lo], b = key[hi];
                const uint ia = index[lo], ib = index[hi];
                /* ascending where bit `size` of lo is clear: (a, ia) after (b, ib) swaps */
                if ((a > b || (a == b && ia > ib)) == ((lo & size) == 0)) {
                    key[lo] = b;
                    key[hi] = a;
                    index[lo] = ib;
                    index[hi] = ia;
                }
            }
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = li; i < m; i += CLSCAN_SEG_WG)
        seg_move(ks, vs, first + index[i], kd, vd, first + i);
#endif
}

__kernel __attribute__((reqd_work_group_size(CLSCAN_SEG_WG, 1, 1)))
void clscan_radix_segmented(__global const K *keys_in, ulong keys_in_offset, __global K *keys_out,
                            ulong keys_out_offset, __global const VW *values_in, ulong values_in_offset,
                            __global VW *values_out, ulong values_out_offset, __global K *keys_tmp0,
                            __global K *keys_tmp1, __global VW *values_tmp0, __global VW *values_tmp1,
                            __global const uint *offsets_buf, ulong offsets_offset, uint wide, ulong nsegments,
                            ulong count, uint begin, uint passes, K mask, uint flip, uint via_tmp, ulong length,
                            ulong in_pitch, ulong out_pitch, ulong above)
{
    __local count_t table[CELL(RADIX * CLSCAN_SEG_WG)] __attribute__((aligned(8)));
    __local uint seg[CLSCAN_SEG_WG];
    __local uint start[RADIX + 1];   /* the chunk's keys of smaller digits; [RADIX]: the chunk's size */
    __local uint base[RADIX];        /* where the segment's next key of each digit goes */
    const uint li = get_local_id(0);
    const K all = (K)~(K)0, kflip = flip ? mask : (K)0;
    __global const uint *offsets = wide ? (__global const uint *)((__global const ulong *)offsets_buf + offsets_offset)
                                        : offsets_buf + offsets_offset;

    for (ulong s = get_group_id(0); s < nsegments; s += get_num_groups(0)) {
        const ulong first = length ? s * length : seg_offset(offsets, wide, s, count);
        const ulong end = length ? first + length : max(seg_offset(offsets, wide, s + 1, count), first);
        const ulong n = end - first;
        if (n > above)   /* the passes over the whole array sort it (radix/blocks.cl) */
            continue;
        /* The segment's inputs and outputs, indexed as the scratch (uniform segments: moved by
         * the gaps before them; 0 otherwise). */
        const ulong in_at = length ? s * (in_pitch - length) : 0, out_at = length ? s * (out_pitch - length) : 0;
        __global const K *keys_seg_in = keys_in + keys_in_offset + in_at;
        __global const VW *values_seg_in = values_in + (values_in_offset + in_at) * CLSCAN_VALUE_WORDS;
        __global K *keys_seg_out = keys_out + keys_out_offset + out_at;
        __global VW *values_seg_out = values_out + (values_out_offset + out_at) * CLSCAN_VALUE_WORDS;
        /* the same for the whole work-group */
        const int small = n <= CLSCAN_SEG_SMALL, in_local = !small && n <= CLSCAN_SEG_LOCAL;
        __global const K *ks = keys_seg_in;
        __global const VW *vs = values_seg_in;
        __global K *kd = via_tmp ? keys_tmp0 : keys_seg_out;
        __global VW *vd = via_tmp ? values_tmp0 : values_seg_out;
        if (small) {
            for (ulong i = first + li; i < end; i += CLSCAN_SEG_WG) {
                const K t = sort_key(ks[i], mask, kflip);
                ulong q = first;
                for (ulong j = first; j < end; ++j) {
                    const K u = sort_key(ks[j], mask, kflip);
                    q += u < t || (u == t && j < i);
                }
                seg_move(ks, vs, i, kd, vd, q);
            }
        }
        local_sort(table, in_local ? n : 0, first, ks, vs, kd, vd, mask, kflip);
        /* Outside the branches: inside the one below, on 32 work-items, PoCL let some copy before
         * others had ranked (tests/radix_sort_test with CLSCAN_DEVELOP=policy=gpu). */
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
        if ((small || in_local) && via_tmp) {
            for (ulong i = first + li; i < end; i += CLSCAN_SEG_WG)
                seg_move(keys_tmp0, values_tmp0, i, keys_seg_out, values_seg_out, i);
        }
        for (uint p = 0; p < (small || in_local ? 0 : passes); ++p) {
            const uint shift = begin + p * RADIX_BITS;
            const int last = p == passes - 1;
            __global const K *ks = p == 0 ? keys_seg_in : (p % 2 ? keys_tmp0 : keys_tmp1);
            __global const VW *vs = p == 0 ? values_seg_in : (p % 2 ? values_tmp0 : values_tmp1);
            __global K *kd = last ? keys_seg_out : (p % 2 ? keys_tmp1 : keys_tmp0);
            __global VW *vd = last ? values_seg_out : (p % 2 ? values_tmp1 : values_tmp0);

            /* The segment's histogram: each chunk counted in the table's columns (16-bit counts),
             * then summed into base (a segment of one chunk needs none: its chunk's digit starts
             * are the segment's). */
            for (uint d = 0; d < RADIX; ++d)
                table[CELL(d * CLSCAN_SEG_WG + li)] = 0;
            for (uint d = li; d < RADIX; d += CLSCAN_SEG_WG)
                base[d] = 0;
            barrier(CLK_LOCAL_MEM_FENCE);
            for (ulong c = 0; n > SEG_TILE && c < n; c += SEG_TILE) {
                const ulong from = first + c + (ulong)li * CLSCAN_SEG_ITEMS;
                const ulong to = min(from + CLSCAN_SEG_ITEMS, end);   /* this work-item's keys of the chunk */
                for (ulong i = from; i < to; ++i)
                    table[CELL(digit_of(ks[i], shift, mask, all, flip) * CLSCAN_SEG_WG + li)] += 1;
                barrier(CLK_LOCAL_MEM_FENCE);
                for (uint d = li; d < RADIX; d += CLSCAN_SEG_WG) {
                    uint sum = 0;
                    for (uint w = 0; w < CLSCAN_SEG_WG; ++w) {
                        sum += table[CELL(d * CLSCAN_SEG_WG + w)];
                        table[CELL(d * CLSCAN_SEG_WG + w)] = 0;
                    }
                    base[d] += sum;
                }
                barrier(CLK_LOCAL_MEM_FENCE);
            }
            if (li == 0 && n > SEG_TILE) {   /* exclusive scan: where each digit's keys start in the output */
                uint run = 0;
                for (uint d = 0; d < RADIX; ++d) {
                    const uint t = base[d];
                    base[d] = run;
                    run += t;
                }
            }
            barrier(CLK_LOCAL_MEM_FENCE);

            /* The chunks in order: ranks within the chunk by (digit, work-item, position). */
            for (ulong c = 0; c < n; c += SEG_TILE) {
                const ulong from = first + c + (ulong)li * CLSCAN_SEG_ITEMS;
                const ulong to = min(from + CLSCAN_SEG_ITEMS, end);
                for (ulong i = from; i < to; ++i)
                    table[CELL(digit_of(ks[i], shift, mask, all, flip) * CLSCAN_SEG_WG + li)] += 1;
                barrier(CLK_LOCAL_MEM_FENCE);
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
                for (uint d = li; d < RADIX; d += CLSCAN_SEG_WG) {
                    start[d] = table[CELL(d * CLSCAN_SEG_WG)];
                    if (n <= SEG_TILE)   /* no histogram: the chunk is the segment */
                        base[d] = start[d];
                }
                if (li == 0)
                    start[RADIX] = (uint)min(n - c, (ulong)SEG_TILE);
                barrier(CLK_LOCAL_MEM_FENCE);
                for (ulong i = from; i < to; ++i) {
                    const K k = ks[i];
                    const uint d = digit_of(k, shift, mask, all, flip), x = CELL(d * CLSCAN_SEG_WG + li);
                    /* below end with offsets that keep the rules; else clamped (keys of segments
                     * that overlap can change between the counts and here) */
                    const ulong q = min(first + base[d] + (table[x] - start[d]), end - 1);
                    table[x] += 1;
                    kd[q] = k;
                    for (uint w = 0; w < CLSCAN_VALUE_WORDS; ++w)
                        vd[q * CLSCAN_VALUE_WORDS + w] = vs[i * CLSCAN_VALUE_WORDS + w];
                }
                barrier(CLK_LOCAL_MEM_FENCE);
                for (uint d = li; d < RADIX; d += CLSCAN_SEG_WG) {
                    base[d] += start[d + 1] - start[d];
                    for (uint w = 0; w < CLSCAN_SEG_WG; ++w)
                        table[CELL(d * CLSCAN_SEG_WG + w)] = 0;
                }
                barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
            }
            barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
        }
    }
}
