/* The sequential reference scans of the built-in operators, for the tests, the clscan tool and
 * the benchmarks (where they are also the timed host loop: one tight loop per operator and type).
 *
 * The scan folds from the neutral element N, one element after the other, with comb(a, b), a the
 * previous value and b the current one, exactly as clscan.h and clscan(3) define the operators:
 *   inclusive  y[i] = N comb x[0] comb ... comb x[i]
 *   exclusive  y[0] = N, y[i] = N comb x[0] comb ... comb x[i-1]
 * Integer sums and affine products wrap (computed in the unsigned type of the same width);
 * MAX/MIN of floats are IEEE 754-2019 maximum/minimum (a NaN wins, the first one; -0.0 < +0.0;
 * ties keep the previous value); LAST_NONZERO treats -0.0 as zero and a NaN as non-zero; AFFINE
 * pairs (a, b) combine as comb(p, c) = (c.a*p.a, c.a*p.b + c.b), each product and sum rounded on
 * its own (never a fused multiply-add), as in the kernels. */
#ifndef CLSCAN_SUPPORT_REFERENCE_H
#define CLSCAN_SUPPORT_REFERENCE_H

#include <stdbool.h>
#include <stddef.h>

#include "clscan.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Scans n elements of x into y; x == y (in place) is allowed, other overlaps are not. */
void sup_reference(clscan_op op, clscan_type type, clscan_kind kind, const void *x, void *y, size_t n);

/* How segments are given, as clscan_enqueue_segmented and clscan_enqueue_by_key take them: head
 * flags of one byte (non-zero starts a segment; element 0 starts one whatever its flag), or keys
 * of 4 or 8 bytes (a segment is a run of equal keys; only equality matters, so the signedness of
 * the key type does not). */
typedef enum sup_segments { SUP_HEADS, SUP_KEYS32, SUP_KEYS64 } sup_segments;

/* The end of the segment that starts at start < n: the index of the next head or change of key,
 * or n. */
size_t sup_segment_end(sup_segments how, const void *segs, size_t start, size_t n);

/* The reference scan restarted at every segment of segs (n flags or keys); x == y allowed. */
void sup_reference_segmented(clscan_op op, clscan_type type, clscan_kind kind, sup_segments how,
                             const void *segs, const void *x, void *y, size_t n);

/* out = comb(a, b) for one element of op and type (out may be a or b). */
void sup_comb(clscan_op op, clscan_type type, const void *a, const void *b, void *out);

/* The scan of clscan_enqueue_with: from carry (NULL: the neutral element) instead of the neutral
 * element, from the last element when reverse, y NULL for a reduction, the total (the carry for
 * n 0) into *total when total is not NULL.  x and y are not the same array (out of place). */
void sup_reference_with(clscan_op op, clscan_type type, clscan_kind kind, const void *x, void *y, size_t n,
                        const void *carry, void *total, bool reverse);

#ifdef __cplusplus
}
#endif

#endif /* CLSCAN_SUPPORT_REFERENCE_H */
