/* clscan tool: random inputs whose scans are exact in any order of evaluation. */
#ifndef CLSCAN_TOOL_RANDOM_INPUT_H
#define CLSCAN_TOOL_RANDOM_INPUT_H

#include <stddef.h>
#include <stdint.h>

#include <clscan.h>

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
 * describe_random_input() returns a one-line description of this choice. */
void random_input(clscan_op op, clscan_type type, uint64_t seed, void *dst, size_t count);
const char *describe_random_input(clscan_op op, clscan_type type);

#endif /* CLSCAN_TOOL_RANDOM_INPUT_H */
