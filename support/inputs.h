/* Random numbers and random scan inputs for the tests, the clscan tool and the benchmarks.
 *
 * Two generators of inputs, because their contracts differ:
 *   sup_random_exact   (the tool) reproducible from a seed, documented in clscan(1) and described
 *                      in one line: values chosen so that every partial result of every range is
 *                      exact, and so the device must match the reference bit for bit.
 *   sup_random_edges   (the tests) the cases kernels get wrong: NaNs with payloads and signs,
 *                      infinities, signed zeros on long plateaus, runs of equal values, extremes
 *                      of the integer range, long runs of zeros; still exact in any order.
 * The benchmarks' inputs (bench/bench_common.h) are a third contract: fixed per benchmark case and
 * generated alike by the C, C++ and CUDA programs, which share only sup_splitmix64 from here. */
#ifndef CLSCAN_SUPPORT_INPUTS_H
#define CLSCAN_SUPPORT_INPUTS_H

#include <stddef.h>
#include <stdint.h>

#include "clscan.h"

#ifdef __cplusplus
extern "C" {
#endif

/* splitmix64 (public domain, Vigna): the next number of the sequence of state.  Inline, so that
 * the header-only benchmark code can use it without the library. */
static inline uint64_t sup_splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* xoshiro256** (public domain, Blackman and Vigna), seeded through splitmix64. */
typedef struct sup_rng {
    uint64_t s[4];
} sup_rng;

void sup_rng_seed(sup_rng *r, uint64_t seed);
uint64_t sup_rng_next(sup_rng *r);
/* In [0, n), n > 0, by the remainder (the bias is far below what the inputs care about). */
uint64_t sup_rng_below(sup_rng *r, uint64_t n);

/* Fills dst with count random elements of op and type (pairs for AFFINE), reproducibly from
 * seed.  Every partial result of every contiguous range is exactly representable, so a parallel
 * scan must match the sequential reference bit for bit:
 *   SUM, floats        integers in [-8, 8], with the sign flipped where the running sum would
 *                      leave [-2^20, 2^20] (so every range sum is below 2^21 in magnitude)
 *   AFFINE, floats     a in {-1, 1}, b an integer in [-8, 8], bounded in the same way
 *   SUM, integers      full-range values (the sums wrap)
 *   AFFINE, integers   a full-range odd values (their products never collapse to 0), b full-range
 *   MAX, MIN, floats   an increasing (MAX) or decreasing (MIN) trend with noise crossing zero
 *                      in the middle; about one element in 64 a zero: in the first quarter
 *                      the losing one (-0.0 for MAX, +0.0 for MIN), then of random sign, so
 *                      the running value moves from the losing to the winning zero once;
 *                      one quiet NaN at count - count/8 (count >= 16); no infinity or subnormal
 *   MAX, MIN, integers full-range values
 *   LAST_NONZERO       sparse: one element in 32 a non-zero full-range value (floats: finite,
 *                      normal, random sign and exponent), the others 0 (floats: +0.0 or -0.0)
 * sup_describe_random_exact() returns a one-line description of this choice. */
void sup_random_exact(clscan_op op, clscan_type type, uint64_t seed, void *dst, size_t count);
const char *sup_describe_random_exact(clscan_op op, clscan_type type);

/* Fills n elements of x from r with the tests' inputs:
 *   SUM                integers: full range (wrapping); floats: integers in [-8, 8] (exact)
 *   MAX, MIN, integers a rising (MAX) or falling (MIN) trend over the full range with jitter, so
 *                      that the running value keeps changing across tiles; one in 16 the lowest
 *                      (MIN: highest) value, one in 16 the middle of the range (signed: zero)
 *   MAX, MIN, floats   integers and halves rising from -150 to +50 (many ties), mixed with +0.0,
 *                      -0.0 and -inf (long plateaus on signed zeros), +inf only in the last tenth,
 *                      0 to 3 NaNs with random payloads and signs in the second half; MIN gets
 *                      the same values negated
 *   LAST_NONZERO       a run of leading zeros, then one in 8 non-zero (zeros of both signs;
 *                      floats: also NaNs and infinities; integers: also the extremes)
 *   AFFINE             integers: full range with odd a (products never collapse to 0 mod 2^k);
 *                      floats: a = +-1, b in [-4, 4] (exact) */
void sup_random_edges(clscan_op op, clscan_type type, sup_rng *r, void *x, size_t n);

#ifdef __cplusplus
}
#endif

#endif /* CLSCAN_SUPPORT_INPUTS_H */
