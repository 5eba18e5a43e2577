/* clscan tool: the sequential CPU reference scan and the comparison of a device result with it. */
#include "reference.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "elements.h"

/* ---- comb(a, b), a the previous value ---------------------------------------------------- */

/* Sums and affine maps of integers are computed in the unsigned type of the same width: the
 * wrap-around result has the same bits for the signed types, without signed overflow. */
static inline uint32_t sum_u32(uint32_t a, uint32_t b) { return (uint32_t)(a + b); }
static inline uint64_t sum_u64(uint64_t a, uint64_t b) { return a + b; }
static inline float    sum_f(float a, float b)         { return a + b; }
static inline double   sum_d(double a, double b)       { return a + b; }

static inline int32_t  max_i32(int32_t a, int32_t b)   { return b > a ? b : a; }
static inline uint32_t max_u32(uint32_t a, uint32_t b) { return b > a ? b : a; }
static inline int64_t  max_i64(int64_t a, int64_t b)   { return b > a ? b : a; }
static inline uint64_t max_u64(uint64_t a, uint64_t b) { return b > a ? b : a; }
static inline int32_t  min_i32(int32_t a, int32_t b)   { return b < a ? b : a; }
static inline uint32_t min_u32(uint32_t a, uint32_t b) { return b < a ? b : a; }
static inline int64_t  min_i64(int64_t a, int64_t b)   { return b < a ? b : a; }
static inline uint64_t min_u64(uint64_t a, uint64_t b) { return b < a ? b : a; }

/* IEEE 754-2019 maximum and minimum: a NaN wins (the earlier one), -0.0 < +0.0. */
static inline float max_f(float a, float b)
{
    return isnan(a) ? a : isnan(b) ? b
         : (b > a || (b == a && signbit(a) && !signbit(b))) ? b : a;
}
static inline double max_d(double a, double b)
{
    return isnan(a) ? a : isnan(b) ? b
         : (b > a || (b == a && signbit(a) && !signbit(b))) ? b : a;
}
static inline float min_f(float a, float b)
{
    return isnan(a) ? a : isnan(b) ? b
         : (b < a || (b == a && signbit(b) && !signbit(a))) ? b : a;
}
static inline double min_d(double a, double b)
{
    return isnan(a) ? a : isnan(b) ? b
         : (b < a || (b == a && signbit(b) && !signbit(a))) ? b : a;
}

/* b != 0: for floats -0.0 == 0 counts as zero, a NaN as non-zero. */
static inline uint32_t lnz_u32(uint32_t a, uint32_t b) { return b != 0 ? b : a; }
static inline uint64_t lnz_u64(uint64_t a, uint64_t b) { return b != 0 ? b : a; }
static inline float    lnz_f(float a, float b)         { return b != 0 ? b : a; }
static inline double   lnz_d(double a, double b)       { return b != 0 ? b : a; }

/* ---- the sequential loops ---------------------------------------------------------------- */

#define SCAN_LOOP(T, NEUTRAL, COMB)                                                   \
    do {                                                                              \
        const T *x_ = src;                                                            \
        T *y_ = dst;                                                                  \
        T acc_ = (NEUTRAL);                                                           \
        if (kind == CLSCAN_EXCLUSIVE) {                                               \
            for (size_t i_ = 0; i_ < count; i_++) {                                   \
                T v_ = x_[i_];                                                        \
                y_[i_] = acc_;                                                        \
                acc_ = COMB(acc_, v_);                                                \
            }                                                                         \
        } else {                                                                      \
            for (size_t i_ = 0; i_ < count; i_++) {                                   \
                acc_ = COMB(acc_, x_[i_]);                                            \
                y_[i_] = acc_;                                                        \
            }                                                                         \
        }                                                                             \
    } while (0)

/* Pairs (a, b) meaning x -> a*x + b; comb(p, c) = (c.a*p.a, c.a*p.b + c.b); neutral (1, 0). */
#define AFFINE_LOOP(T)                                                                \
    do {                                                                              \
        const T *x_ = src;                                                            \
        T *y_ = dst;                                                                  \
        T pa_ = 1, pb_ = 0;                                                           \
        for (size_t i_ = 0; i_ < count; i_++) {                                       \
            T ca_ = x_[2 * i_], cb_ = x_[2 * i_ + 1];                                 \
            if (kind == CLSCAN_EXCLUSIVE) {                                           \
                y_[2 * i_] = pa_;                                                     \
                y_[2 * i_ + 1] = pb_;                                                 \
            }                                                                         \
            T na_ = (T)(ca_ * pa_);                                                   \
            T nb_ = (T)((T)(ca_ * pb_) + cb_);                                        \
            pa_ = na_;                                                                \
            pb_ = nb_;                                                                \
            if (kind != CLSCAN_EXCLUSIVE) {                                           \
                y_[2 * i_] = pa_;                                                     \
                y_[2 * i_ + 1] = pb_;                                                 \
            }                                                                         \
        }                                                                             \
    } while (0)

void reference_scan(clscan_op op, clscan_type type, clscan_kind kind,
                    const void *src, void *dst, size_t count)
{
    const bool wide = scalar_size(type) == 8;
    switch (op) {
    case CLSCAN_SUM:
        if (type == CLSCAN_FLOAT)
            SCAN_LOOP(float, 0.0f, sum_f);
        else if (type == CLSCAN_DOUBLE)
            SCAN_LOOP(double, 0.0, sum_d);
        else if (wide)
            SCAN_LOOP(uint64_t, 0, sum_u64);
        else
            SCAN_LOOP(uint32_t, 0, sum_u32);
        break;
    case CLSCAN_MAX:
        switch (type) {
        case CLSCAN_INT32:  SCAN_LOOP(int32_t, INT32_MIN, max_i32); break;
        case CLSCAN_UINT32: SCAN_LOOP(uint32_t, 0, max_u32); break;
        case CLSCAN_INT64:  SCAN_LOOP(int64_t, INT64_MIN, max_i64); break;
        case CLSCAN_UINT64: SCAN_LOOP(uint64_t, 0, max_u64); break;
        case CLSCAN_FLOAT:  SCAN_LOOP(float, -INFINITY, max_f); break;
        case CLSCAN_DOUBLE: SCAN_LOOP(double, -(double)INFINITY, max_d); break;
        }
        break;
    case CLSCAN_MIN:
        switch (type) {
        case CLSCAN_INT32:  SCAN_LOOP(int32_t, INT32_MAX, min_i32); break;
        case CLSCAN_UINT32: SCAN_LOOP(uint32_t, UINT32_MAX, min_u32); break;
        case CLSCAN_INT64:  SCAN_LOOP(int64_t, INT64_MAX, min_i64); break;
        case CLSCAN_UINT64: SCAN_LOOP(uint64_t, UINT64_MAX, min_u64); break;
        case CLSCAN_FLOAT:  SCAN_LOOP(float, INFINITY, min_f); break;
        case CLSCAN_DOUBLE: SCAN_LOOP(double, (double)INFINITY, min_d); break;
        }
        break;
    case CLSCAN_LAST_NONZERO:
        if (type == CLSCAN_FLOAT)
            SCAN_LOOP(float, 0.0f, lnz_f);
        else if (type == CLSCAN_DOUBLE)
            SCAN_LOOP(double, 0.0, lnz_d);
        else if (wide)
            SCAN_LOOP(uint64_t, 0, lnz_u64);
        else
            SCAN_LOOP(uint32_t, 0, lnz_u32);
        break;
    case CLSCAN_AFFINE:
        if (type == CLSCAN_FLOAT)
            AFFINE_LOOP(float);
        else if (type == CLSCAN_DOUBLE)
            AFFINE_LOOP(double);
        else if (wide)
            AFFINE_LOOP(uint64_t);
        else
            AFFINE_LOOP(uint32_t);
        break;
    }
}

/* ---- comparison -------------------------------------------------------------------------- */

bool compare_exact(clscan_op op, clscan_type type, const void *expected, const void *actual,
                   size_t count, compare_result *res)
{
    const size_t size = element_bytes(op, type);
    const unsigned char *e = expected, *a = actual;
    memset(res, 0, sizeof *res);
    if (count == 0 || memcmp(e, a, count * size) == 0)
        return true;
    for (size_t i = 0; i < count; i++) {
        if (memcmp(e + i * size, a + i * size, size) != 0) {
            if (res->mismatches++ == 0)
                res->first_mismatch = i;
        }
    }
    return res->mismatches == 0;
}

bool needs_tolerance(clscan_op op, clscan_type type)
{
    return type_is_float(type) && (op == CLSCAN_SUM || op == CLSCAN_AFFINE);
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

double default_tolerance(clscan_op op, clscan_type type, size_t count,
                         size_t work_group_size, size_t items_per_work_item)
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

static void note(compare_result *res, size_t i, double err, double tolerance,
                 long double ref0, long double ref1)
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

bool compare_tolerant(clscan_op op, clscan_type type, clscan_kind kind, const void *src,
                      const void *actual, size_t count, double tolerance, compare_result *res)
{
    const unsigned char *x = src, *y = actual;
    const bool exclusive = kind == CLSCAN_EXCLUSIVE;
    memset(res, 0, sizeof *res);
    if (op == CLSCAN_AFFINE) {
        long double ra = 1, rb = 0, sb = 0; /* reference (a, b) and the scale of b */
        for (size_t i = 0; i < count; i++) {
            if (!exclusive) {
                const long double ca = load(type, x, 2 * i), cb = load(type, x, 2 * i + 1);
                rb = ca * rb + cb;
                sb = abs_ld(ca) * sb + abs_ld(cb);
                ra = ca * ra;
            }
            double ea = rel_error(type, ra, abs_ld(ra), load(type, y, 2 * i));
            double eb = rel_error(type, rb, sb, load(type, y, 2 * i + 1));
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
