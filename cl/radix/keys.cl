/* clscan radix sort (stable LSD) and bucketing: what every part shares.
 *
 * A program is this file, a histogram (radix/histogram_columns.cl on CPUs,
 * radix/histogram_atomic.cl on GPUs), a scatter (radix/scatter_table.cl, or
 * cl/common/wg_sum.cl, one of cl/common/warp_sync_*.cl and radix/scatter_ranked.cl on GPUs with
 * 256 work-items per work-group)
 * and radix/bucket_offsets.cl.  Build options:
 *   CLSCAN_KEY_TYPE     uchar, ushort, uint or ulong (keys are moved as bit patterns); CLSCAN_KEY_SIGN
 *                       its top bit
 *   CLSCAN_KEY_ORDER    0 unsigned, 1 signed (two's complement), 2 IEEE float (total order)
 *   CLSCAN_VALUE_WORD   the word values are moved in; CLSCAN_VALUE_WORDS per value (0: no values)
 *   CLSCAN_WG           work-items per work-group (a power of two, at most RADIX)
 *   CLSCAN_ITEMS        keys each work-item handles
 * A pass sorts by the digit ((t >> shift) & (RADIX - 1)) ^ flip of t = min(order(key), clamp) & mask,
 * where order() maps the keys to unsigned integers of the same order, mask keeps the bits sorted
 * by and flip is 0 (ascending) or RADIX - 1 (descending: every digit inverted, so the stable
 * passes give the reversed order with equal keys still in input order).  A block is
 * CLSCAN_WG * CLSCAN_ITEMS consecutive keys, one per work-group:
 *   histogram   counts[d * nblocks + b] = keys of block b with digit d;
 *   (the host scans counts exclusively with clscan: digit-major, so the offset of (d, b) is the
 *    number of keys with a smaller digit, plus those with digit d in earlier blocks)
 *   scatter     every key goes to offsets[d, b] plus its rank among the block's keys of digit d,
 *               in input order: stable.
 * Positions past count are skipped, and every work-item reaches every barrier. */
#define RADIX_BITS 8
#define RADIX (1u << RADIX_BITS)
#define TILE (CLSCAN_WG * CLSCAN_ITEMS)

typedef CLSCAN_KEY_TYPE K;
typedef CLSCAN_VALUE_WORD VW;

/* An unsigned integer with the keys' order: signed keys with the sign bit flipped; floats with
 * the sign bit flipped when positive and all bits flipped when negative, which orders -NaN <
 * -inf < ... < -0.0 < +0.0 < ... < +inf < +NaN. */
inline K order_bits(K k)
{
    if (CLSCAN_KEY_ORDER == 1)
        return k ^ CLSCAN_KEY_SIGN;
    if (CLSCAN_KEY_ORDER == 2)
        return (k & CLSCAN_KEY_SIGN) ? ~k : (k | CLSCAN_KEY_SIGN);
    return k;
}

/* The (digit, work-item) tables of radix/histogram_columns.cl and radix/scatter_table.cl: 16-bit
 * counts (at most one block; half the local memory of 32-bit counts), entry d * CLSCAN_WG + w,
 * with two padding counts (one bank word) per RADIX entries so that the work-items' segments
 * start in different banks of local memory. */
typedef ushort count_t;
#define CELL(x) ((x) + 2 * ((x) / RADIX))

inline uint digit_of(K k, uint shift, K mask, K clamp, uint flip)
{
    return ((uint)((min(order_bits(k), clamp) & mask) >> shift) & (RADIX - 1)) ^ flip;
}

/* Moves element i (key k, its value, its index) to position p of the outputs.  index_mode 0: no
 * permutation; 1: index_out gets the input position (first pass); 2: it gets index_in of the
 * input position (later passes). */
inline void move_element(ulong i, uint p, K k, __global K *keys_out, __global const VW *values_in,
                         __global VW *values_out, __global const uint *index_in, __global uint *index_out,
                         uint index_mode)
{
    keys_out[p] = k;
    for (uint w = 0; w < CLSCAN_VALUE_WORDS; ++w)
        values_out[(ulong)p * CLSCAN_VALUE_WORDS + w] = values_in[i * CLSCAN_VALUE_WORDS + w];
    if (index_mode)
        index_out[p] = index_mode == 1 ? (uint)i : index_in[i];
}

/* The parameters of the histograms and scatters (each a kernel over the whole array and one over
 * segments, radix/blocks.cl, on one body). */
#define HISTOGRAM_PARAMS                                                                                    \
    __global const K *keys, ulong keys_offset, ulong count, uint shift, K mask, K clamp, __global uint *counts, \
        uint nblocks, uint flip
#define HISTOGRAM_ARGS keys, keys_offset, count, shift, mask, clamp, counts, nblocks, flip
#define SCATTER_PARAMS                                                                                      \
    __global const K *keys_in, ulong keys_in_offset, __global K *keys_out, ulong keys_out_offset,           \
        __global const VW *values_in, ulong values_in_offset, __global VW *values_out, ulong values_out_offset, \
        __global const uint *index_in, ulong index_in_offset, __global uint *index_out, ulong index_out_offset, \
        uint index_mode, ulong count, uint shift, K mask, K clamp, __global const uint *offsets, uint nblocks, \
        uint flip
#define SCATTER_ARGS                                                                                        \
    keys_in, keys_in_offset, keys_out, keys_out_offset, values_in, values_in_offset, values_out,            \
        values_out_offset, index_in, index_in_offset, index_out, index_out_offset, index_mode, count, shift, mask, \
        clamp, offsets, nblocks, flip
