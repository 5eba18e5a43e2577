/* Comparison of scan results with the reference: see compare.h. */
#include "support/compare.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "support/names.h"

/* ---- Exact -------------------------------------------------------------------------------- */

static bool scalar_equal(clscan_type type, bool by_value, const unsigned char *e, const unsigned char *a)
{
    if (by_value && type == CLSCAN_FLOAT) {
        float x, y;
        memcpy(&x, e, sizeof x);
        memcpy(&y, a, sizeof y);
        return x == y;
    }
    if (by_value && type == CLSCAN_DOUBLE) {
        double x, y;
        memcpy(&x, e, sizeof x);
        memcpy(&y, a, sizeof y);
        return x == y;
    }
    return memcmp(e, a, sup_scalar_size(type)) == 0;
}

bool sup_compare(clscan_op op, clscan_type type, sup_match match, const void *expected, const void *actual,
                 size_t count, sup_compare_result *res)
{
    const size_t s = sup_scalar_size(type), per = sup_scalars_per_element(op), size = s * per;
    const bool by_value = match == SUP_MATCH_VALUES && (op == CLSCAN_SUM || op == CLSCAN_AFFINE);
    const unsigned char *e = (const unsigned char *)expected, *a = (const unsigned char *)actual;
    memset(res, 0, sizeof *res);
    res->first_mismatch = count;
    if (count == 0 || (!by_value && memcmp(e, a, count * size) == 0))
        return true;
    for (size_t i = 0; i < count; i++) {
        for (size_t k = 0; k < per; k++) {
            if (!scalar_equal(type, by_value, e + i * size + k * s, a + i * size + k * s)) {
                if (res->mismatches++ == 0)
                    res->first_mismatch = i;
                break;
            }
        }
    }
    return res->mismatches == 0;
}

void sup_describe_mismatch(clscan_op op, clscan_type type, const void *expected, const void *actual,
                           size_t count, const sup_compare_result *res, char *buf, size_t size)
{
    char e[128], a[128];
    const size_t i = res->first_mismatch;
    sup_format_element(op, type, expected, i, e, sizeof e);
    sup_format_element(op, type, actual, i, a, sizeof a);
    snprintf(buf, size, "first difference at index %zu of %zu: expected %s, got %s (%zu elements differ)", i,
             count, e, a, res->mismatches);
}

/* ---- Tolerant ------------------------------------------------------------------------------- */

bool sup_needs_tolerance(clscan_op op, clscan_type type)
{
    return sup_type_is_float(type) && (op == CLSCAN_SUM || op == CLSCAN_AFFINE);
}

static uint64_t isqrt_u64(uint64_t n)
{
    uint64_t r = 0;
    for (uint64_t bit = (uint64_t)1 << 62; bit != 0; bit >>= 2) {
        if (n >= r + bit) {
            n -= r + bit;
            r = (r >> 1) + bit;
        } else {
            r >>= 1;
        }
    }
    return r;
}

double sup_default_tolerance(clscan_op op, clscan_type type, size_t count, size_t work_group_size,
                             size_t items_per_work_item)
{
    const double eps = type == CLSCAN_FLOAT ? FLT_EPSILON : DBL_EPSILON;
    const size_t wg = work_group_size ? work_group_size : 1;
    const size_t items = items_per_work_item ? items_per_work_item : 1;
    const size_t tile = wg * items > 1 ? wg * items : 2;
    double log2_wg = 0;
    for (size_t w = wg; w > 1; w /= 2)
        log2_wg += 1;
    size_t levels = 0;
    for (size_t n = count; n > tile; n = n / tile + (n % tile != 0))
        levels++;
    const size_t tiles = count / tile + (count % tile != 0);
    double d = (double)tiles + (double)(levels + 2) * ((double)items + log2_wg + 2);
    if (op == CLSCAN_AFFINE)
        d += 16.0 * (double)isqrt_u64((uint64_t)count);
    return eps * d;
}

static inline long double abs_ld(long double x)
{
    return x < 0 ? -x : x;
}

static inline long double load(clscan_type type, const unsigned char *p, size_t i)
{
    if (type == CLSCAN_FLOAT) {
        float v;
        memcpy(&v, p + i * sizeof v, sizeof v);
        return v;
    }
    double v;
    memcpy(&v, p + i * sizeof v, sizeof v);
    return v;
}

/* Relative error of act against ref with error scale scale; INFINITY for a hard failure. */
static double rel_error(clscan_type type, long double ref, long double scale, long double act)
{
    const long double ref_t = type == CLSCAN_FLOAT ? (long double)(float)ref : (long double)(double)ref;
    if (isnan(ref_t))
        return isnan(act) ? 0.0 : (double)INFINITY;
    if (isinf(ref_t))
        return act == ref_t ? 0.0 : (double)INFINITY;
    if (!isfinite(act))
        return (double)INFINITY;
    const long double diff = abs_ld(act - ref);
    /* Differences below the smallest normal number come from gradual underflow (or a device's
     * flush to zero) and say nothing about the order of evaluation. */
    if (diff <= (type == CLSCAN_FLOAT ? (long double)FLT_MIN : (long double)DBL_MIN))
        return 0.0;
    long double den = abs_ld(ref);
    if (scale > den)
        den = scale;
    if (den == 0)
        return diff == 0 ? 0.0 : (double)INFINITY;
    return (double)(diff / den);
}

static void note(sup_compare_result *res, size_t i, double err, double tolerance, long double ref0,
                 long double ref1)
{
    if (err > res->max_rel_error) {
        res->max_rel_error = err;
        res->worst_index = i;
    }
    if (!(err <= tolerance) && res->mismatches++ == 0) {
        res->first_mismatch = i;
        res->first_expected[0] = ref0;
        res->first_expected[1] = ref1;
    }
}

bool sup_compare_tolerant(clscan_op op, clscan_type type, clscan_kind kind, const void *src, const void *actual,
                          size_t count, double tolerance, sup_compare_result *res)
{
    const unsigned char *x = (const unsigned char *)src, *y = (const unsigned char *)actual;
    const bool exclusive = kind == CLSCAN_EXCLUSIVE;
    memset(res, 0, sizeof *res);
    res->first_mismatch = count;
    if (op == CLSCAN_AFFINE) {
        long double ra = 1, rb = 0, sb = 0; /* reference (a, b) and the scale of b */
        for (size_t i = 0; i < count; i++) {
            if (!exclusive) {
                const long double ca = load(type, x, 2 * i), cb = load(type, x, 2 * i + 1);
                rb = ca * rb + cb;
                sb = abs_ld(ca) * sb + abs_ld(cb);
                ra = ca * ra;
            }
            const double ea = rel_error(type, ra, abs_ld(ra), load(type, y, 2 * i));
            const double eb = rel_error(type, rb, sb, load(type, y, 2 * i + 1));
            note(res, i, ea > eb ? ea : eb, tolerance, ra, rb);
            if (exclusive) {
                const long double ca = load(type, x, 2 * i), cb = load(type, x, 2 * i + 1);
                rb = ca * rb + cb;
                sb = abs_ld(ca) * sb + abs_ld(cb);
                ra = ca * ra;
            }
        }
    } else {
        long double r = 0, s = 0; /* reference sum and sum of magnitudes */
        for (size_t i = 0; i < count; i++) {
            if (!exclusive) {
                const long double v = load(type, x, i);
                r += v;
                s += abs_ld(v);
            }
            note(res, i, rel_error(type, r, s, load(type, y, i)), tolerance, r, 0);
            if (exclusive) {
                const long double v = load(type, x, i);
                r += v;
                s += abs_ld(v);
            }
        }
    }
    return res->mismatches == 0;
}
