/* clscan radix sort (stable LSD) and bucketing.
 *
 * Build options:
 *   CLSCAN_KEY_SIZE    4 or 8 (bytes of a key; keys are moved as bit patterns)
 *   CLSCAN_KEY_ORDER   0 unsigned, 1 signed (two's complement), 2 IEEE float (total order)
 *   CLSCAN_VALUE_SIZE  bytes of the value moved with each key (0: none)
 *   CLSCAN_WG          work-items per work-group (a power of two, at most RADIX)
 *   CLSCAN_ITEMS       keys each work-item handles (without the ranking: consecutive ones, so
 *                      the order of equal digits in a block, work-item then position, is the
 *                      input order)
 *   CLSCAN_HIST_COLUMNS 1: histograms without atomics (CPUs); 0: with local atomics (GPUs)
 *   CLSCAN_SCATTER_RANKED 1 (GPUs with CLSCAN_WG == RADIX): the scatter loads the block striped
 *                      (coalesced) and ranks the keys by groups of 32 work-items ("warps"), each
 *                      with its own digit counts (see below), instead of the (digit, work-item)
 *                      table; the order in the block is then warp, round, lane: the input order.
 *                      The warps find equal digits with local atomics and two barriers a round
 *                      (NVIDIA's match.any.sync through inline PTX was tried: slower on the H200)
 * A pass sorts by the digit (t >> shift) & (RADIX - 1) of t = min(order(key), clamp) & mask,
 * where order() maps the keys to unsigned integers of the same order.  A block is
 * CLSCAN_WG * CLSCAN_ITEMS consecutive keys, one per work-group:
 *   clscan_radix_histogram  counts[d * nblocks + b] = keys of block b with digit d;
 *   (the host scans counts exclusively with clscan: digit-major, so the offset of (d, b) is
 *    the number of keys with a smaller digit, plus those with digit d in earlier blocks)
 *   clscan_radix_scatter    each work-item counts its keys' digits into its column of a
 *                           (digit, work-item) table in local memory, the work-group scans the
 *                           table in that order, and every key goes to offsets[d, b] plus its
 *                           rank among the block's keys of digit d: stable.  (With
 *                           CLSCAN_SCATTER_RANKED the ranks come from the warps, see below.)
 * Positions past count are skipped, and every work-item reaches every barrier. */

#define RADIX_BITS 8
#define RADIX (1u << RADIX_BITS)
#define TILE (CLSCAN_WG * CLSCAN_ITEMS)

#if CLSCAN_KEY_SIZE == 4
typedef uint K;
#define K_SIGN 0x80000000u
#else
typedef ulong K;
#define K_SIGN 0x8000000000000000ul
#endif

#if CLSCAN_VALUE_SIZE % 16 == 0
typedef uint4 VW;
#define VW_SIZE 16
#elif CLSCAN_VALUE_SIZE % 8 == 0
typedef uint2 VW;
#define VW_SIZE 8
#elif CLSCAN_VALUE_SIZE % 4 == 0
typedef uint VW;
#define VW_SIZE 4
#else
typedef uchar VW;
#define VW_SIZE 1
#endif
#define VWORDS (CLSCAN_VALUE_SIZE / VW_SIZE)

/* An unsigned integer with the keys' order: signed keys with the sign bit flipped; floats with
 * the sign bit flipped when positive and all bits flipped when negative, which orders -NaN <
 * -inf < ... < -0.0 < +0.0 < ... < +inf < +NaN. */
inline K order_bits(K k)
{
#if CLSCAN_KEY_ORDER == 1
    return k ^ K_SIGN;
#elif CLSCAN_KEY_ORDER == 2
    return (k & K_SIGN) ? ~k : (k | K_SIGN);
#else
    return k;
#endif
}

inline uint digit_of(K k, uint shift, K mask, K clamp)
{
    return (uint)((min(order_bits(k), clamp) & mask) >> shift) & (RADIX - 1);
}

/* The (digit, work-item) table of counts (at most one block, so 16 bits: half the local memory
 * of 32-bit counts, more work-groups in flight on GPUs): entry d * CLSCAN_WG + w, two padding
 * counts (one bank word) per RADIX entries so that the work-items' segments (RADIX entries
 * each) start in different local memory banks. */
typedef ushort count_t;
#define CELL(x) ((x) + 2 * ((x) / RADIX))

/* CLSCAN_HIST_COLUMNS (CPUs, where local atomics are locked instructions): each work-item
 * counts into its own column of the (digit, work-item) table, then the columns are summed.
 * Otherwise (GPUs): local atomics on one histogram. */
__kernel __attribute__((reqd_work_group_size(CLSCAN_WG, 1, 1)))
void clscan_radix_histogram(__global const K *keys, ulong keys_offset, ulong count, uint shift, K mask,
                            K clamp, __global uint *counts, uint nblocks)
{
    const uint li = get_local_id(0), g = get_group_id(0);
    const ulong base = (ulong)g * TILE;
    __global const K *in = keys + keys_offset;
#if CLSCAN_HIST_COLUMNS
    __local count_t table[CELL(RADIX * CLSCAN_WG)];
    for (uint d = 0; d < RADIX; ++d)
        table[CELL(d * CLSCAN_WG + li)] = 0;
    const ulong first = base + (ulong)li * CLSCAN_ITEMS;
    if (base + TILE <= count) {
        for (uint r = 0; r < CLSCAN_ITEMS; ++r)
            table[CELL(digit_of(in[first + r], shift, mask, clamp) * CLSCAN_WG + li)] += 1;
    } else {
        for (uint r = 0; r < CLSCAN_ITEMS; ++r)
            if (first + r < count)
                table[CELL(digit_of(in[first + r], shift, mask, clamp) * CLSCAN_WG + li)] += 1;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint d = li; d < RADIX; d += CLSCAN_WG) {
        uint sum = 0;
        for (uint w = 0; w < CLSCAN_WG; ++w)
            sum += table[CELL(d * CLSCAN_WG + w)];
        counts[(ulong)d * nblocks + g] = sum;
    }
#else
    __local uint hist[RADIX];
    for (uint d = li; d < RADIX; d += CLSCAN_WG)
        hist[d] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    /* Strided (coalesced): the histogram does not care about the order. */
    if (base + TILE <= count) {
        for (uint r = 0; r < CLSCAN_ITEMS; ++r)
            atomic_inc(&hist[digit_of(in[base + r * CLSCAN_WG + li], shift, mask, clamp)]);
    } else {
        for (uint r = 0; r < CLSCAN_ITEMS; ++r) {
            const ulong i = base + r * CLSCAN_WG + li;
            if (i < count)
                atomic_inc(&hist[digit_of(in[i], shift, mask, clamp)]);
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint d = li; d < RADIX; d += CLSCAN_WG)
        counts[(ulong)d * nblocks + g] = hist[d];
#endif
}

#ifndef CLSCAN_SCATTER_RANKED
#define CLSCAN_SCATTER_RANKED 0
#endif

#if CLSCAN_SCATTER_RANKED
#if CLSCAN_WG != RADIX || TILE > 65536
#error "CLSCAN_SCATTER_RANKED needs CLSCAN_WG == 256 work-items and at most 2048 keys each"
#endif
/* Ranking by warps.  Warp w (work-items 32w ... 32w + 31) holds the block's keys
 * 32 * CLSCAN_ITEMS * w + 32 * r + lane for rounds r = 0 ... CLSCAN_ITEMS - 1: loads are
 * coalesced and the order (warp, round, lane) is the input order.  In each round every lane
 * finds the lanes of its warp with the same digit (its peers: each lane sets its bit in the
 * (warp, digit) mask); its rank among the warp's keys of
 * that digit is the warp's count so far plus its peers in lower lanes, and the highest peer
 * adds the peers to the count.  After the rounds, one scan of the (digit, warp) counts gives
 * every key its rank in the block. */
#define NWARPS (CLSCAN_WG / 32)
#define NOT_A_DIGIT RADIX   /* positions past count: their own peers, never counted */

/* Exclusive sum over the work-group (Hillis-Steele, double-buffered in buf[2 * CLSCAN_WG]). */
inline uint wg_exclusive_sum(uint v, __local uint *buf, uint li)
{
    uint rd = 0, wr = CLSCAN_WG;
    buf[li] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint d = 1; d < CLSCAN_WG; d <<= 1) {
        buf[wr + li] = li >= d ? buf[rd + li - d] + buf[rd + li] : buf[rd + li];
        barrier(CLK_LOCAL_MEM_FENCE);
        const uint t = rd; rd = wr; wr = t;
    }
    return buf[rd + li] - v;
}
#endif

/* index_mode 0: no permutation; 1: index_out gets the input position (first pass); 2: it gets
 * index_in of the input position (later passes). */
__kernel __attribute__((reqd_work_group_size(CLSCAN_WG, 1, 1)))
void clscan_radix_scatter(__global const K *keys_in, ulong keys_in_offset, __global K *keys_out,
                          ulong keys_out_offset, __global const VW *values_in, ulong values_in_offset,
                          __global VW *values_out, ulong values_out_offset, __global const uint *index_in,
                          ulong index_in_offset, __global uint *index_out, ulong index_out_offset, uint index_mode, ulong count,
                          uint shift, K mask, K clamp, __global const uint *offsets, uint nblocks)
{
#if CLSCAN_SCATTER_RANKED
    __local uint counts_of[NWARPS * RADIX];    /* (warp, digit): keys ranked so far; then offsets */
    __local uint scratch[2 * NWARPS * RADIX];  /* two sets of (warp, digit) lane masks; the scan's buffer */
    __local uint dest[RADIX];
    __local ushort order[TILE];                /* order[rank in block] = position in block */
    const uint li = get_local_id(0), g = get_group_id(0);
    const uint w = li / 32;
    const uint lane = li % 32;
    const uint below = (1u << lane) - 1u;      /* lanes under this one */
    const ulong base = (ulong)g * TILE;
    const uint in_block = count - base < TILE ? (uint)(count - base) : TILE;
    __global const K *in = keys_in + keys_in_offset;
    __local uint *mine = counts_of + w * RADIX;

    for (uint j = li; j < NWARPS * RADIX; j += CLSCAN_WG)
        counts_of[j] = 0;
    for (uint j = li; j < 2 * NWARPS * RADIX; j += CLSCAN_WG)
        scratch[j] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);

    uint digit[CLSCAN_ITEMS];
    ushort rank[CLSCAN_ITEMS];
    const uint first = w * 32 * CLSCAN_ITEMS + lane;
    for (uint r = 0; r < CLSCAN_ITEMS; ++r) {
        const uint pos = first + 32 * r;
        const uint d = pos < in_block ? digit_of(in[base + pos], shift, mask, clamp) : NOT_A_DIGIT;
        digit[r] = d;
        /* Two sets of masks in turn: a round's masks are cleared while the next round fills
         * the other set, so two barriers per round suffice. */
        __local uint *masks = scratch + (r % 2) * NWARPS * RADIX + w * RADIX;
        if (d < RADIX)
            atomic_or(&masks[d], 1u << lane);
        barrier(CLK_LOCAL_MEM_FENCE);
        const uint peers = d < RADIX ? masks[d] : 0;
        const uint before = d < RADIX ? mine[d] : 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (d < RADIX && lane == 31 - clz(peers)) {
            mine[d] = before + popcount(peers);
            masks[d] = 0;
        }
        rank[r] = (ushort)(before + popcount(peers & below));
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    /* Work-item li owns digit li: the warps' counts become offsets within the digit, the
     * digits' totals are scanned, and dest[d] is where the block's keys of digit d go in the
     * output, less their first rank in the block. */
    uint run = 0;
    for (uint v = 0; v < NWARPS; ++v) {
        const uint c = counts_of[v * RADIX + li];
        counts_of[v * RADIX + li] = run;
        run += c;
    }
    const uint start = wg_exclusive_sum(run, scratch, li);
    for (uint v = 0; v < NWARPS; ++v)
        counts_of[v * RADIX + li] += start;
    if (run)
        dest[li] = offsets[(ulong)li * nblocks + g] - start;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint r = 0; r < CLSCAN_ITEMS; ++r)
        if (digit[r] < RADIX)
            order[mine[digit[r]] + rank[r]] = (ushort)(first + 32 * r);
    barrier(CLK_LOCAL_MEM_FENCE);

    /* Ranks li, li + CLSCAN_WG, ...: neighbours write neighbouring addresses within a digit. */
    for (uint rk = li; rk < in_block; rk += CLSCAN_WG) {
        const ulong i = base + order[rk];
        const K k = in[i];
        const uint p = dest[digit_of(k, shift, mask, clamp)] + rk;
#else
    __local count_t table[CELL(RADIX * CLSCAN_WG)];
    __local uint seg[CLSCAN_WG];
    __local uint dest[RADIX];
    const uint li = get_local_id(0), g = get_group_id(0);
    const ulong first = (ulong)g * TILE + (ulong)li * CLSCAN_ITEMS;
    __global const K *in = keys_in + keys_in_offset;

    for (uint d = 0; d < RADIX; ++d)
        table[CELL(d * CLSCAN_WG + li)] = 0;
    for (uint r = 0; r < CLSCAN_ITEMS; ++r)
        if (first + r < count)
            table[CELL(digit_of(in[first + r], shift, mask, clamp) * CLSCAN_WG + li)] += 1;
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
    for (uint d = li; d < RADIX; d += CLSCAN_WG)
        dest[d] = offsets[(ulong)d * nblocks + g] - table[CELL(d * CLSCAN_WG)];
    barrier(CLK_LOCAL_MEM_FENCE);

    /* Each key straight to its place (CPUs, and GPUs without room for the ranking). */
    for (uint r = 0; r < CLSCAN_ITEMS; ++r) {
        const ulong i = first + r;
        if (i < count) {
            const K k = in[i];
            const uint x = CELL(digit_of(k, shift, mask, clamp) * CLSCAN_WG + li);
            const uint p = dest[digit_of(k, shift, mask, clamp)] + table[x];
            table[x] += 1;
#endif
            keys_out[keys_out_offset + p] = k;
#if CLSCAN_VALUE_SIZE > 0
            __global const VW *vs = values_in + (values_in_offset + i) * VWORDS;
            __global VW *vd = values_out + (values_out_offset + p) * VWORDS;
            for (uint w = 0; w < VWORDS; ++w)
                vd[w] = vs[w];
#endif
            if (index_mode)
                index_out[index_out_offset + p] = index_mode == 1 ? (uint)i : index_in[index_in_offset + i];
#if !CLSCAN_SCATTER_RANKED
        }
#endif
    }
}

/* Bucket offsets from the sorted keys: offsets[b] = the first position whose key is >= b, for
 * b = 0 ... nbuckets (so offsets[nbuckets] = count).  Position i writes the buckets after its
 * predecessor's key up to its own; the last position also those after its key.  Each entry is
 * written exactly once.  Keys above clamp count as clamp.  (No barriers: one position per
 * work-item.) */
__kernel void clscan_bucket_offsets(__global const uint *keys, ulong keys_offset, ulong count, uint clamp,
                                    __global uint *offsets, ulong offsets_offset, uint nbuckets)
{
    const ulong i = get_global_id(0);
    if (i >= count)
        return;
    __global const uint *k = keys + keys_offset;
    __global uint *o = offsets + offsets_offset;
    const uint key = min(k[i], clamp);
    const uint from = i > 0 ? min(k[i - 1], clamp) + 1 : 0;
    for (uint b = from; b <= key; ++b)
        o[b] = (uint)i;
    if (i == count - 1)
        for (uint b = key + 1; b <= nbuckets; ++b)
            o[b] = (uint)count;
}
