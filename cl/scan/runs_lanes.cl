/* Reduce-by-key's fold in vector lanes on CPUs (before scan/runs_folded.cl, whose loop then
 * takes 16 pairs a step): 4-byte keys, and values whose operator has a form on 16 lanes that is
 * exact in any grouping (COMB_LANES16 of ops/builtin.cl: SUM, MAX, MIN and LAST_NONZERO of 4-byte
 * integers), where the compiler offers vector compress (common/compress.cl, so that
 * -DCLSCAN_NO_COMPRESS, the developer build option, measures the scalar loop against this one).
 * Elsewhere RUNS_LANES is 0 and the scalar loop takes every pair.  A step is a segmented
 * inclusive scan of its 16 values in registers (Hillis and Steele 1986: four shifts, each lane
 * stopping at its run's head, the vector's first lane counting as one), then the lanes before
 * the vector's first head continue the run of the pair before it as comb(carry, lane), and the
 * lanes that end a run (the next key differs) are packed by compress and stored at their runs'
 * ranks.  The chain from step to step is a permute, the operator and a blend, where the scalar
 * loop's is the fold and the rank of every pair (PoCL 3.1, 2 cores, 2^22 uint32 SUM:
 * doc/performance.md). */
#if HAVE_COMPRESS && defined(COMB_LANES16) && CLSCAN_KEY_BYTES == 4
#define RUNS_LANES 16

/* Lane k takes lane k - d; the lowest d lanes keep their own (they are stopped already). */
#define LANES_UP1 (uint16)(0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14)
#define LANES_UP2 (uint16)(0, 1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13)
#define LANES_UP4 (uint16)(0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)
#define LANES_UP8 (uint16)(0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7)
#define LANES_BIT (uint16)(1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768)

/* Pairs i ... i + 15 (0 < i, i + 16 < count: the keys on either side are read): their runs
 * folded on from *carry (in every lane, the fold of the run of pair i - 1), those that end among
 * them stored from rank next on in the slot (sk, sv: 16 places from next are the slot's);
 * *carry becomes the fold of pair i + 15's run.  The next rank. */
CLSCAN_INLINE uint runs_lanes_step(__global const uint *keys, __global const clscan_value *in, ulong i,
                                   uint16 *carry, __global uint *sk, __global clscan_value *sv, uint next)
{
    __global const uint *vin = (__global const uint *)in + i;
    const uint16 k = vload16(0, keys + i);
    const int16 head = k != vload16(0, keys + i - 1), ends = k != vload16(0, keys + i + 1);
    uint16 v = vload16(0, vin);
    int16 stop = head | (int16)(-1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    v = select(COMB_LANES16(vload16(0, vin - 1), v), v, stop);   /* the first shift from memory */
    stop |= shuffle(stop, LANES_UP1);
    v = select(COMB_LANES16(shuffle(v, LANES_UP2), v), v, stop);
    stop |= shuffle(stop, LANES_UP2);
    v = select(COMB_LANES16(shuffle(v, LANES_UP4), v), v, stop);
    stop |= shuffle(stop, LANES_UP4);
    v = select(COMB_LANES16(shuffle(v, LANES_UP8), v), v, stop);
    const uint heads = lanes_mask16(head), m = lanes_mask16(ends);
    const uint before = (heads & -heads) - 1;   /* the lanes before the first head */
    v = select(v, COMB_LANES16(*carry, v), ((uint16)before & LANES_BIT) != (uint16)0);
    *carry = shuffle(v, (uint16)15);
    compress_store_int16(as_int16(k), m, (__global int *)(sk + next));
    compress_store_int16(as_int16(v), m, (__global int *)(sv + next));
    return next + popcount(m);
}

/* The pairs from *i on while a whole step fits before end (the fold of scan/runs_folded.cl, whose
 * state prev, acc and at it continues and leaves as its loop would). */
CLSCAN_INLINE void runs_lanes_fold(__global const clscan_value *in, __global const KEY_T *keys, ulong *i, ulong end,
                                   KEY_T *prev, clscan_value *acc, uint *at, __global KEY_T *sk,
                                   __global clscan_value *sv)
{
    ulong j = *i;
    uint next = *at + (keys[j] != *prev);   /* the rank of pair j's run */
    uint16 carry = (uint16)(as_uint(*acc));
    for (; j + RUNS_LANES < end; j += RUNS_LANES)
        next = runs_lanes_step(keys, in, j, &carry, sk, sv, next);
    *acc = AS_S(carry.s0);
    *prev = keys[j - 1];
    *at = next - (keys[j] != *prev);
    *i = j;
}
#else
#define RUNS_LANES 0

CLSCAN_INLINE void runs_lanes_fold(__global const clscan_value *in, __global const KEY_T *keys, ulong *i, ulong end,
                                   KEY_T *prev, clscan_value *acc, uint *at, __global KEY_T *sk,
                                   __global clscan_value *sv)
{
}
#endif
