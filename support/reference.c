/* The sequential reference scans: see reference.h. */
#include "support/reference.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

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
        default: break;   /* the sort's key types: no scans */
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
        default: break;   /* the sort's key types: no scans */
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

/* ---- One combination, and the scan with a carry-in, a total and a direction ------------------ */

#define COMB_AS(T, F) (*(T *)out = F(*(const T *)a, *(const T *)b))

void sup_comb(clscan_op op, clscan_type type, const void *a, const void *b, void *out)
{
    const bool wide = sup_scalar_size(type) == 8;
    switch (op) {
    case CLSCAN_SUM:
        if (type == CLSCAN_FLOAT) COMB_AS(float, sum_f);
        else if (type == CLSCAN_DOUBLE) COMB_AS(double, sum_d);
        else if (wide) COMB_AS(uint64_t, sum_u64);
        else COMB_AS(uint32_t, sum_u32);
        break;
    case CLSCAN_MAX:
        switch (type) {
        case CLSCAN_INT32: COMB_AS(int32_t, max_i32); break;
        case CLSCAN_UINT32: COMB_AS(uint32_t, max_u32); break;
        case CLSCAN_INT64: COMB_AS(int64_t, max_i64); break;
        case CLSCAN_UINT64: COMB_AS(uint64_t, max_u64); break;
        case CLSCAN_FLOAT: COMB_AS(float, max_f); break;
        case CLSCAN_DOUBLE: COMB_AS(double, max_d); break;
        default: break;   /* the sort's key types: no scans */
        }
        break;
    case CLSCAN_MIN:
        switch (type) {
        case CLSCAN_INT32: COMB_AS(int32_t, min_i32); break;
        case CLSCAN_UINT32: COMB_AS(uint32_t, min_u32); break;
        case CLSCAN_INT64: COMB_AS(int64_t, min_i64); break;
        case CLSCAN_UINT64: COMB_AS(uint64_t, min_u64); break;
        case CLSCAN_FLOAT: COMB_AS(float, min_f); break;
        case CLSCAN_DOUBLE: COMB_AS(double, min_d); break;
        default: break;   /* the sort's key types: no scans */
        }
        break;
    case CLSCAN_LAST_NONZERO:
        if (type == CLSCAN_FLOAT) COMB_AS(float, lnz_f);
        else if (type == CLSCAN_DOUBLE) COMB_AS(double, lnz_d);
        else if (wide) COMB_AS(uint64_t, lnz_u64);
        else COMB_AS(uint32_t, lnz_u32);
        break;
    case CLSCAN_AFFINE: {
        /* The pair after the step x_ = b, from the previous pair (pa_, pb_) = a. */
#define AFFINE_COMB(T)                                                   \
        do {                                                             \
            const T *x_ = (const T *)b;                                  \
            const size_t i_ = 0;                                         \
            T pa_ = ((const T *)a)[0], pb_ = ((const T *)a)[1];          \
            AFFINE_STEP(T);                                              \
            ((T *)out)[0] = pa_;                                         \
            ((T *)out)[1] = pb_;                                         \
        } while (0)
        if (type == CLSCAN_FLOAT) AFFINE_COMB(float);
        else if (type == CLSCAN_DOUBLE) AFFINE_COMB(double);
        else if (wide) AFFINE_COMB(uint64_t);
        else AFFINE_COMB(uint32_t);
#undef AFFINE_COMB
        break;
    }
    }
}

void sup_reference_with(clscan_op op, clscan_type type, clscan_kind kind, const void *x, void *y, size_t n,
                        const void *carry, void *total, bool reverse)
{
    const size_t e = sup_element_size(op, type);
    unsigned char acc[16], next[16];
    /* acc: the carry, or the neutral element (the scan of nothing, read off the reference). */
    if (carry)
        memcpy(acc, carry, e);
    else {
        unsigned char one[16] = {0};
        sup_reference(op, type, CLSCAN_EXCLUSIVE, one, acc, 1);
    }
    for (size_t k = 0; k < n; k++) {
        const size_t i = reverse ? n - 1 - k : k;
        const unsigned char *xi = (const unsigned char *)x + i * e;
        unsigned char *yi = (unsigned char *)y + i * e;
        sup_comb(op, type, acc, xi, next);
        if (y)
            memcpy(yi, kind == CLSCAN_EXCLUSIVE ? acc : next, e);
        memcpy(acc, next, e);
    }
    if (total)
        memcpy(total, acc, e);
}
