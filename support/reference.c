/* The sequential reference scans: see reference.h. */
#include "support/reference.h"

#include <math.h>
#include <stdint.h>

#include "support/names.h"

/* a*b + c must round twice, like the kernels (cl/ops/builtin.cl turns FP_CONTRACT off): GCC
 * would otherwise fuse it on machines with FMA, even across statements, outside ISO mode. */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

/* ---- comb(a, b), a the previous value ------------------------------------------------------ */

/* Integer SUM, AFFINE and LAST_NONZERO run on the unsigned type of the same width: wrapping
 * without signed overflow, the same bits for the signed types. */
static inline uint32_t sum_u32(uint32_t a, uint32_t b) { return (uint32_t)(a + b); }
static inline uint64_t sum_u64(uint64_t a, uint64_t b) { return a + b; }
static inline float sum_f(float a, float b) { return a + b; }
static inline double sum_d(double a, double b) { return a + b; }

/* Ties keep a. */
static inline int32_t max_i32(int32_t a, int32_t b) { return b > a ? b : a; }
static inline uint32_t max_u32(uint32_t a, uint32_t b) { return b > a ? b : a; }
static inline int64_t max_i64(int64_t a, int64_t b) { return b > a ? b : a; }
static inline uint64_t max_u64(uint64_t a, uint64_t b) { return b > a ? b : a; }
static inline int32_t min_i32(int32_t a, int32_t b) { return b < a ? b : a; }
static inline uint32_t min_u32(uint32_t a, uint32_t b) { return b < a ? b : a; }
static inline int64_t min_i64(int64_t a, int64_t b) { return b < a ? b : a; }
static inline uint64_t min_u64(uint64_t a, uint64_t b) { return b < a ? b : a; }

/* IEEE 754-2019 maximum and minimum: a NaN wins (the earlier one), -0.0 < +0.0, ties keep a. */
static inline float max_f(float a, float b)
{
    return isnan(a) ? a : isnan(b) ? b : (b > a || (b == a && signbit(a) && !signbit(b))) ? b : a;
}
static inline double max_d(double a, double b)
{
    return isnan(a) ? a : isnan(b) ? b : (b > a || (b == a && signbit(a) && !signbit(b))) ? b : a;
}
static inline float min_f(float a, float b)
{
    return isnan(a) ? a : isnan(b) ? b : (b < a || (b == a && signbit(b) && !signbit(a))) ? b : a;
}
static inline double min_d(double a, double b)
{
    return isnan(a) ? a : isnan(b) ? b : (b < a || (b == a && signbit(b) && !signbit(a))) ? b : a;
}

/* b != 0: for floats -0.0 == 0 counts as zero, a NaN (never == 0) as non-zero. */
static inline uint32_t lnz_u32(uint32_t a, uint32_t b) { return b != 0 ? b : a; }
static inline uint64_t lnz_u64(uint64_t a, uint64_t b) { return b != 0 ? b : a; }
static inline float lnz_f(float a, float b) { return b != 0 ? b : a; }
static inline double lnz_d(double a, double b) { return b != 0 ? b : a; }

/* ---- The loops: one per operator and type, the kind tested outside ------------------------- */

/* x[i] is read before y[i] is written: in place works. */
#define SCAN_LOOP(T, NEUTRAL, COMB)                    \
    do {                                               \
        const T *x_ = (const T *)x;                    \
        T *y_ = (T *)y;                                \
        T acc_ = (NEUTRAL);                            \
        if (kind == CLSCAN_EXCLUSIVE) {                \
            for (size_t i_ = 0; i_ < n; i_++) {        \
                const T v_ = x_[i_];                   \
                y_[i_] = acc_;                         \
                acc_ = COMB(acc_, v_);                 \
            }                                          \
        } else {                                       \
            for (size_t i_ = 0; i_ < n; i_++) {        \
                acc_ = COMB(acc_, x_[i_]);             \
                y_[i_] = acc_;                         \
            }                                          \
        }                                              \
    } while (0)

/* Pairs (a, b) meaning x -> a*x + b; comb(p, c) = (c.a*p.a, c.a*p.b + c.b); neutral (1, 0).
 * c is read before y[i] is written: in place works. */
#define AFFINE_STEP(T)                                 \
    do {                                               \
        const T ca_ = x_[2 * i_], cb_ = x_[2 * i_ + 1]; \
        const T prod_ = (T)(ca_ * pb_);                \
        pa_ = (T)(ca_ * pa_);                          \
        pb_ = (T)(prod_ + cb_);                        \
    } while (0)
#define AFFINE_LOOP(T)                                 \
    do {                                               \
        const T *x_ = (const T *)x;                    \
        T *y_ = (T *)y;                                \
        T pa_ = 1, pb_ = 0;                            \
        if (kind == CLSCAN_EXCLUSIVE) {                \
            for (size_t i_ = 0; i_ < n; i_++) {        \
                const T ea_ = pa_, eb_ = pb_;          \
                AFFINE_STEP(T);                        \
                y_[2 * i_] = ea_;                      \
                y_[2 * i_ + 1] = eb_;                  \
            }                                          \
        } else {                                       \
            for (size_t i_ = 0; i_ < n; i_++) {        \
                AFFINE_STEP(T);                        \
                y_[2 * i_] = pa_;                      \
                y_[2 * i_ + 1] = pb_;                  \
            }                                          \
        }                                              \
    } while (0)

void sup_reference(clscan_op op, clscan_type type, clscan_kind kind, const void *x, void *y, size_t n)
{
    const bool wide = sup_scalar_size(type) == 8;
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
        case CLSCAN_INT32: SCAN_LOOP(int32_t, INT32_MIN, max_i32); break;
        case CLSCAN_UINT32: SCAN_LOOP(uint32_t, 0, max_u32); break;
        case CLSCAN_INT64: SCAN_LOOP(int64_t, INT64_MIN, max_i64); break;
        case CLSCAN_UINT64: SCAN_LOOP(uint64_t, 0, max_u64); break;
        case CLSCAN_FLOAT: SCAN_LOOP(float, -INFINITY, max_f); break;
        case CLSCAN_DOUBLE: SCAN_LOOP(double, -(double)INFINITY, max_d); break;
        }
        break;
    case CLSCAN_MIN:
        switch (type) {
        case CLSCAN_INT32: SCAN_LOOP(int32_t, INT32_MAX, min_i32); break;
        case CLSCAN_UINT32: SCAN_LOOP(uint32_t, UINT32_MAX, min_u32); break;
        case CLSCAN_INT64: SCAN_LOOP(int64_t, INT64_MAX, min_i64); break;
        case CLSCAN_UINT64: SCAN_LOOP(uint64_t, UINT64_MAX, min_u64); break;
        case CLSCAN_FLOAT: SCAN_LOOP(float, INFINITY, min_f); break;
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

/* ---- Segments ------------------------------------------------------------------------------- */

size_t sup_segment_end(sup_segments how, const void *segs, size_t start, size_t n)
{
    size_t i = start + 1;
    switch (how) {
    case SUP_HEADS: {
        const unsigned char *h = (const unsigned char *)segs;
        while (i < n && h[i] == 0)
            i++;
        break;
    }
    case SUP_KEYS32: {
        const uint32_t *k = (const uint32_t *)segs;
        while (i < n && k[i] == k[start])
            i++;
        break;
    }
    case SUP_KEYS64: {
        const uint64_t *k = (const uint64_t *)segs;
        while (i < n && k[i] == k[start])
            i++;
        break;
    }
    }
    return i < n ? i : n;
}

void sup_reference_segmented(clscan_op op, clscan_type type, clscan_kind kind, sup_segments how,
                             const void *segs, const void *x, void *y, size_t n)
{
    const size_t e = sup_element_size(op, type);
    for (size_t start = 0, end; start < n; start = end) {
        end = sup_segment_end(how, segs, start, n);
        sup_reference(op, type, kind, (const unsigned char *)x + start * e, (unsigned char *)y + start * e,
                      end - start);
    }
}
