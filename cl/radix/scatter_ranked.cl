/* The scatter on GPUs with CLSCAN_WG == RADIX work-items and at most 65536 keys per block, in
 * four steps:
 *   load   the block's keys, striped (coalesced), every load in flight before the first is used;
 *   rank   by groups of 32 work-items ("warps"), each with its own digit counts, instead of
 *          through the (digit, work-item) table.  Warp w holds the block's keys
 *          32 * CLSCAN_ITEMS * w + 32 * r + lane for rounds r = 0 ... CLSCAN_ITEMS - 1, so the
 *          order (warp, round, lane) is the input order.  In each round every lane finds the
 *          lanes of its warp with the same digit (its peers: each lane sets its bit in the (warp,
 *          digit) mask); its rank among the warp's keys of that digit is the warp's count so far
 *          plus its peers in lower lanes, and the highest peer adds the peers to the count.  A
 *          round's steps are ordered by warp_sync() (common/warp_sync_*.cl): only the warp's own
 *          lanes share its masks and counts.  After the rounds, one scan of the (digit, warp)
 *          counts gives every key its rank in the block;
 *   stage  the keys in local memory in their block order (in the masks' memory, free by then,
 *          which is the larger of the masks' 16 KiB and the block's keys), their positions in
 *          order[];
 *   store  ranks li, li + CLSCAN_WG, ...: keys alone: each work-item reads all its keys and
 *          positions first, then writes them, so that its loads do not wait behind its stores
 *          (nothing tells the compiler that inputs and outputs never overlap); with values (and
 *          the index passes) one key at a time, the registers for every value costing more
 *          than the waits (H200, 2^26: pairs 3.39 ms against 3.52, uint32 keys 2.15 against
 *          2.24), except values of one word whose block fits the staging memory: those are
 *          loaded as the keys were (coalesced), staged at their keys' ranks once the keys are
 *          read back, and stored from there, instead of gathered from global memory one key
 *          at a time (H200, 2^26, three rounds alternating: uint32 pairs 2.971-2.976 ms
 *          against 3.016-3.021, bucketing 1.699-1.701 against 1.716-1.719).  Neighbours write
 *          neighbouring addresses within a digit.
 * (NVIDIA's match.any.sync through inline PTX was measured slower on the H200 than the masks.)
 * The arguments of radix/scatter_table.cl. */
#define NWARPS (CLSCAN_WG / 32)
#define NOT_A_DIGIT RADIX   /* positions past count: their own peers, never counted */
/* The scratch: two sets of (warp, digit) lane masks, later the block's keys staged; words. */
#define MASK_WORDS (2 * NWARPS * RADIX)
#define STAGE_WORDS ((TILE * sizeof(K) + sizeof(uint) - 1) / sizeof(uint))
#define SCRATCH_WORDS (MASK_WORDS > STAGE_WORDS ? MASK_WORDS : STAGE_WORDS)
/* Values of one word whose block fits the staging memory go through it as the keys do. */
#define STAGED_VALUES (CLSCAN_VALUE_WORDS == 1 && TILE * sizeof(VW) <= SCRATCH_WORDS * sizeof(uint))

/* whole: the plain sort (no segments: no shift to read, no clamp).  sweep: NULL, or the onesweep
 * pass's status words (radix/onesweep_lookback.cl; the block's places from its digits' starts and a
 * look-back instead of offsets) */
inline void radix_scatter_ranked(SCATTER_PARAMS, radix_block b, ulong in_gap, ulong out_gap, int whole,
                                 __local uint *counts_of, __local uint *scratch, __local uint *dest,
                                 __local ushort *order, __global volatile uint *sweep, uint g,
                                 __global const uint *starts)
{
    const uint li = get_local_id(0);
    const uint w = li / 32, lane = li % 32;
    const uint below = (1u << lane) - 1u;      /* lanes under this one */
    const uint in_block = b.n;
    const ulong from = b.begin + b.seg * in_gap, to = b.seg * out_gap;
    __global const K *in = keys_in + keys_in_offset + from;
    if (b.n == 0)   /* the whole work-group: no barrier below is reached by some only */
        return;
    __local uint *mine = counts_of + w * RADIX;
    __local K *staged = (__local K *)scratch;

    for (uint j = li; j < NWARPS * RADIX; j += CLSCAN_WG)
        counts_of[j] = 0;
    for (uint j = li; j < MASK_WORDS; j += CLSCAN_WG)
        scratch[j] = 0;

    K key[CLSCAN_ITEMS];
    ushort rank[CLSCAN_ITEMS];
    const uint first = w * 32 * CLSCAN_ITEMS + lane;
    for (uint r = 0; r < CLSCAN_ITEMS; ++r) {
        const uint pos = first + 32 * r;
        key[r] = pos < in_block ? in[pos] : 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    for (uint r = 0; r < CLSCAN_ITEMS; ++r) {
        const uint d = first + 32 * r < in_block ? digit_of(key[r], shift, mask, clamp, flip) : NOT_A_DIGIT;
        /* Two sets of masks in turn: a round's masks are cleared while the next round fills
         * the other set, so two syncs per round suffice. */
        __local uint *masks = scratch + (r % 2) * NWARPS * RADIX + w * RADIX;
        if (d < RADIX)
            atomic_or(&masks[d], 1u << lane);
        warp_sync();
        const uint peers = d < RADIX ? masks[d] : 0;
        const uint before = d < RADIX ? mine[d] : 0;
        warp_sync();
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
    if (sweep)
        dest[li] = starts[li] + onesweep_lookback(sweep, g, li, run, keys_in + keys_in_offset, count, shift, mask,
                                                  clamp, flip) - start;
    else if (run)
        dest[li] = offsets[b.slot0 + (ulong)li * b.stride] + (whole ? 0 : (uint)b.seg_begin - offsets[b.seg_slot]) -
                   start;
    barrier(CLK_LOCAL_MEM_FENCE);
    const int staged_values = STAGED_VALUES && !index_mode;
    for (uint r = 0; r < CLSCAN_ITEMS; ++r)
        if (first + 32 * r < in_block) {
            const uint at = mine[digit_of(key[r], shift, mask, clamp, flip)] + rank[r];
            if (!staged_values)
                order[at] = (ushort)(first + 32 * r);
            staged[at] = key[r];
            rank[r] = (ushort)at;
        }
    barrier(CLK_LOCAL_MEM_FENCE);

    /* Segments: positions clamped below count (there anyway with offsets that keep the rules;
     * a branch there cost the plain sort 15% on the H200, a clamp nothing it needs). */
    const uint last = (uint)(count - 1);
    if (staged_values) {   /* rank[r]: key r's rank in the block */
        __global const VW *vin = values_in + values_in_offset + from;
        __global VW *vout = values_out + values_out_offset + to;
        __global K *keys_to = keys_out + keys_out_offset + to;
        VW v[CLSCAN_ITEMS];
        for (uint r = 0; r < CLSCAN_ITEMS; ++r) {
            const uint pos = first + 32 * r;
            v[r] = pos < in_block ? vin[pos] : 0;
        }
        K mine_k[CLSCAN_ITEMS];
        for (uint r = 0; r < CLSCAN_ITEMS; ++r) {
            const uint rk = r * CLSCAN_WG + li;
            mine_k[r] = rk < in_block ? staged[rk] : 0;
        }
        barrier(CLK_LOCAL_MEM_FENCE);   /* the staged keys read: their memory takes the values */
        __local VW *vstaged = (__local VW *)scratch;
        for (uint r = 0; r < CLSCAN_ITEMS; ++r)
            if (first + 32 * r < in_block)
                vstaged[rank[r]] = v[r];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint r = 0; r < CLSCAN_ITEMS; ++r) {
            const uint rk = r * CLSCAN_WG + li;
            if (rk >= in_block)
                break;
            const uint p0 = dest[digit_of(mine_k[r], shift, mask, clamp, flip)] + rk, p = whole ? p0 : min(p0, last);
            keys_to[p] = mine_k[r];
            vout[p] = vstaged[rk];
        }
        return;
    }
    if (CLSCAN_VALUE_WORDS) {   /* values: one at a time */
        for (uint rk = li; rk < in_block; rk += CLSCAN_WG) {
            const uint i = order[rk];
            const K k = staged[rk];
            const uint p = dest[digit_of(k, shift, mask, clamp, flip)] + rk;
            move_element(from + i, whole ? p : min(p, last), k, keys_out + keys_out_offset + to,
                         values_in + values_in_offset * CLSCAN_VALUE_WORDS,
                         values_out + (values_out_offset + to) * CLSCAN_VALUE_WORDS, index_in + index_in_offset,
                         index_out + index_out_offset, index_mode);
        }
        return;
    }
    uint at[CLSCAN_ITEMS];
    for (uint r = 0; r < CLSCAN_ITEMS; ++r) {
        const uint rk = r * CLSCAN_WG + li;
        const int here = rk < in_block;
        at[r] = here ? order[rk] : 0;
        key[r] = here ? staged[rk] : 0;
    }
    __global K *keys_to = keys_out + keys_out_offset + to;
    for (uint r = 0; r < CLSCAN_ITEMS; ++r) {
        const uint rk = r * CLSCAN_WG + li;
        if (rk >= in_block)
            break;
        const uint p0 = dest[digit_of(key[r], shift, mask, clamp, flip)] + rk, p = whole ? p0 : min(p0, last);
        keys_to[p] = key[r];
        /* index_mode 1: the input position (first pass); 2: index_in there (later passes) */
        if (index_mode)
            index_out[index_out_offset + p] = index_mode == 2 ? index_in[index_in_offset + from + at[r]] : (uint)(from + at[r]);
    }
}

__kernel __attribute__((reqd_work_group_size(CLSCAN_WG, 1, 1)))
void clscan_radix_scatter_ranked(SCATTER_PARAMS)
{
    __local uint counts_of[NWARPS * RADIX];    /* (warp, digit): keys ranked so far; then offsets */
    /* two sets of (warp, digit) lane masks; the scan's buffer; the staged keys (8-byte aligned:
     * NVIDIA GPUs fault on a misaligned 64-bit access, where CPUs do not) */
    __local uint scratch[SCRATCH_WORDS] __attribute__((aligned(8)));
    __local uint dest[RADIX];
    __local ushort order[TILE];                /* order[rank in block] = position in block */
    radix_scatter_ranked(SCATTER_ARGS, block_whole(get_group_id(0), nblocks, count), 0, 0, 1, counts_of, scratch, dest,
                         order, 0, 0, 0);
}

__kernel __attribute__((reqd_work_group_size(CLSCAN_WG, 1, 1)))
void clscan_radix_scatter_ranked_segments(SCATTER_PARAMS, BLOCK_MAP_PARAMS)
{
    __local uint counts_of[NWARPS * RADIX];    /* (warp, digit): keys ranked so far; then offsets */
    /* two sets of (warp, digit) lane masks; the scan's buffer; the staged keys (8-byte aligned:
     * NVIDIA GPUs fault on a misaligned 64-bit access, where CPUs do not) */
    __local uint scratch[SCRATCH_WORDS] __attribute__((aligned(8)));
    __local uint dest[RADIX];
    __local ushort order[TILE];                /* order[rank in block] = position in block */
    radix_scatter_ranked(SCATTER_ARGS, block_of(get_group_id(0), nblocks, count, BLOCK_MAP_ARGS), in_gap, out_gap, 0,
                         counts_of, scratch, dest, order, 0, 0, 0);
}
