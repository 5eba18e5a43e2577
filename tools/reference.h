/* clscan tool: the sequential CPU reference scan and the comparison of a device result with it.
 *
 * The reference folds from the neutral element N, one element after the other:
 *   inclusive  y[i] = N comb x[0] comb ... comb x[i]
 *   exclusive  y[0] = N, y[i] = N comb x[0] comb ... comb x[i-1]
 * with comb(a, b), a the previous value, exactly as documented in clscan.h (integer sums and
 * affine products wrap, MAX/MIN of floats are IEEE 754-2019 maximum/minimum, LAST_NONZERO
 * treats -0.0 as zero). */
#ifndef CLSCAN_TOOL_REFERENCE_H
#define CLSCAN_TOOL_REFERENCE_H

#include <stdbool.h>
#include <stddef.h>

#include <clscan.h>

/* Sequential scan of count elements of src into dst (src and dst must not overlap),
 * computed in the element type. */
void reference_scan(clscan_op op, clscan_type type, clscan_kind kind,
                    const void *src, void *dst, size_t count);

typedef struct compare_result {
    size_t mismatches;      /* elements that failed the check */
    size_t first_mismatch;  /* index of the first of them (when mismatches > 0) */
    double max_rel_error;   /* tolerant comparison: the largest relative error */
    size_t worst_index;     /* tolerant comparison: where it occurred */
    long double first_expected[2]; /* tolerant comparison: reference value(s) at first_mismatch */
} compare_result;

/* Bitwise comparison of count elements.  Returns true if all are equal. */
bool compare_exact(clscan_op op, clscan_type type, const void *expected, const void *actual,
                   size_t count, compare_result *res);

/* True for the combinations whose device result legitimately depends on the order of
 * evaluation (float and double SUM and AFFINE). */
bool needs_tolerance(clscan_op op, clscan_type type);

/* The default relative tolerance of compare_tolerant for count elements scanned with tiles of
 * work_group_size * items_per_work_item elements: d times the machine epsilon of type, with
 *   d = tiles + (levels + 2) * (items_per_work_item + log2(work_group_size) + 2)
 * a bound on the number of roundings on the way to any element, for reduce-then-scan (levels
 * of tile totals) and for a single pass (a chain through the tiles before); for AFFINE, whose
 * products accumulate one rounding per element in any order, plus 16 sqrt(count). */
double default_tolerance(clscan_op op, clscan_type type, size_t count,
                         size_t work_group_size, size_t items_per_work_item);

/* Tolerant comparison for float/double SUM and AFFINE: recomputes the sequential scan of src in
 * long double together with the scan of the magnitudes |x| (the scale of the rounding errors any
 * order of evaluation can make), and checks for every element (every component of a pair)
 *     |actual - ref| <= tolerance * max(|ref|, scale).
 * Differences no larger than the smallest normal number of the type (FLT_MIN, DBL_MIN: gradual
 * underflow or a device's flush to zero) count as no error.
 * Where the reference, rounded to the element type, is NaN or infinite the device must give a
 * NaN or the same infinity; a non-finite device value where the reference is finite fails.
 * Returns true if all elements pass. */
bool compare_tolerant(clscan_op op, clscan_type type, clscan_kind kind, const void *src,
                      const void *actual, size_t count, double tolerance, compare_result *res);

#endif /* CLSCAN_TOOL_REFERENCE_H */
