/* Onesweep (A. Adinets and D. Merrill, "Onesweep: a faster least significant digit radix sort
 * for GPUs", 2022): one pass over the keys counts the digits of every pass (their starts), and
 * each pass's ranking scatter finds its block's place per digit by a decoupled look-back over
 * the blocks before it (D. Merrill and M. Garland, 2016) instead of a histogram kernel and a
 * scan of the (digit, block) counts per pass.  A pass's status words: sweep[0] the ticket
 * counter (blocks take their index in the order they start, so a block waits only on blocks
 * that have started), sweep[1 + g * RADIX + d] block g's keys of digit d (AGGREGATE) or those
 * of blocks 0 ... g (PREFIX), written by atomic exchange; zero: not yet.  Counts below 2^30 (the
 * host takes this path for fewer keys). */
#define SWEEP_AGGREGATE (1u << 30)
#define SWEEP_PREFIX (2u << 30)
#define SWEEP_COUNT (SWEEP_AGGREGATE - 1u)

/* The keys of digit d in block j, counted by one work-item: the fallback for a block still
 * silent after CLSCAN_SPIN_LIMIT polls (a count is a sum: the same result; the "decoupled
 * fallback" of T. Smith, R. Levien and J. D. Owens, SPAA 2025). */
inline uint onesweep_count(__global const K *keys, ulong count, uint j, uint d, uint shift, K mask, K clamp,
                           uint flip)
{
    const ulong begin = (ulong)j * TILE, end = min(begin + TILE, count);
    uint n = 0;
    for (ulong i = begin; i < end; ++i)
        n += digit_of(keys[i], shift, mask, clamp, flip) == d;
    return n;
}

/* Publishes block g's count of digit d (run) and returns the keys of digit d in blocks 0 ... g - 1
 * (keys: the pass's input, for the fallback). */
inline uint onesweep_lookback(__global volatile uint *status, uint g, uint d, uint run, __global const K *keys,
                              ulong count, uint shift, K mask, K clamp, uint flip)
{
    __global volatile uint *mine = status + (ulong)g * RADIX + d;
    if (g == 0) {
        atomic_xchg(mine, SWEEP_PREFIX | run);
        return 0;
    }
    atomic_xchg(mine, SWEEP_AGGREGATE | run);
    uint before = 0, spins = 0;
    for (long j = (long)g - 1; j >= 0;) {
        const uint s = status[(ulong)j * RADIX + d];
        if (s == 0 && ++spins < CLSCAN_SPIN_LIMIT)
            continue;   /* block j has not counted yet */
        if (s == 0) {
            before += onesweep_count(keys, count, (uint)j, d, shift, mask, clamp, flip);
        } else {
            before += s & SWEEP_COUNT;
            if (s & SWEEP_PREFIX)
                break;
        }
        --j;
        spins = 0;
    }
    atomic_xchg(mine, SWEEP_PREFIX | (before + run));
    return before;
}
