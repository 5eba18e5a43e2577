/* Comparison of a device's scan result with the sequential reference (reference.h): exact, with a
 * report of the first difference, or within a tolerance for float sums and affine scans of
 * arbitrary data, whose result depends on the order of evaluation. */
#ifndef CLSCAN_SUPPORT_COMPARE_H
#define CLSCAN_SUPPORT_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "clscan.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sup_compare_result {
    size_t mismatches;             /* elements that failed the check */
    size_t first_mismatch;         /* the first of them; the count when there is none */
    double max_rel_error;          /* tolerant comparison: the largest relative error */
    size_t worst_index;            /* tolerant comparison: where it occurred */
    long double first_expected[2]; /* tolerant comparison: the reference (a pair for AFFINE) at
                                      first_mismatch */
} sup_compare_result;

/* What exact means. */
typedef enum sup_match {
    /* Every scalar bit for bit: for inputs whose every partial result is exact (the tool's random
     * inputs), the order of evaluation changes no bit. */
    SUP_MATCH_BITS,
    /* Float and double SUM and AFFINE with == (exact values, but the sign of a zero sum may
     * depend on the order of evaluation, and a NaN never matches); everything else bit for bit,
     * so that MAX/MIN/LAST_NONZERO must carry the very NaN payload and zero sign they select. */
    SUP_MATCH_VALUES
} sup_match;

/* Compares count elements; true if all match.  res gets the mismatches and the first one. */
bool sup_compare(clscan_op op, clscan_type type, sup_match match, const void *expected, const void *actual,
                 size_t count, sup_compare_result *res);

/* "first difference at index I of N: expected E, got G (M elements differ)", with the elements
 * as sup_format_element writes them; for a res from sup_compare with mismatches. */
void sup_describe_mismatch(clscan_op op, clscan_type type, const void *expected, const void *actual,
                           size_t count, const sup_compare_result *res, char *buf, size_t size);

/* True for the combinations whose device result legitimately depends on the order of evaluation
 * (float and double SUM and AFFINE). */
bool sup_needs_tolerance(clscan_op op, clscan_type type);

/* The default relative tolerance of sup_compare_tolerant for count elements scanned with tiles of
 * work_group_size * items_per_work_item elements: d times the machine epsilon of type, with
 *   d = tiles + (levels + 2) * (items_per_work_item + log2(work_group_size) + 2)
 * a bound on the number of roundings on the way to any element, for reduce-then-scan (levels of
 * tile totals) and for a single pass (a chain through the tiles before); for AFFINE, whose
 * products accumulate one rounding per element in any order, plus 16 sqrt(count). */
double sup_default_tolerance(clscan_op op, clscan_type type, size_t count, size_t work_group_size,
                             size_t items_per_work_item);

/* Tolerant comparison for float/double SUM and AFFINE: recomputes the sequential scan of src in
 * long double together with the scan of the magnitudes |x| (the scale of the rounding errors any
 * order of evaluation can make), and checks for every element (every component of a pair)
 *     |actual - ref| <= tolerance * max(|ref|, scale).
 * Differences no larger than the smallest normal number of the type (FLT_MIN, DBL_MIN: gradual
 * underflow or a device's flush to zero) count as no error.  Where the reference, rounded to the
 * element type, is NaN or infinite the device must give a NaN or the same infinity; a non-finite
 * device value where the reference is finite fails.  Returns true if all elements pass. */
bool sup_compare_tolerant(clscan_op op, clscan_type type, clscan_kind kind, const void *src, const void *actual,
                          size_t count, double tolerance, sup_compare_result *res);

#ifdef __cplusplus
}
#endif

#endif /* CLSCAN_SUPPORT_COMPARE_H */
