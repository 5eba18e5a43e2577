/* Random numbers and random scan inputs: see inputs.h.  Both generators must keep drawing the
 * same numbers in the same order: a seed printed by a test or given to the tool repeats its data. */
#include "support/inputs.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "support/names.h"

/* ---- xoshiro256** ------------------------------------------------------------------------------ */

void sup_rng_seed(sup_rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        r->s[i] = sup_splitmix64(&seed);
}

static inline uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

uint64_t sup_rng_next(sup_rng *r)
{
    uint64_t *s = r->s;
    const uint64_t result = rotl(s[1] * 5, 7) * 9;
    const uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

uint64_t sup_rng_below(sup_rng *r, uint64_t n)
{
    return sup_rng_next(r) % n;
}

/* Uniform integer in [lo, hi] (hi - lo small). */
static int64_t rng_range(sup_rng *r, int64_t lo, int64_t hi)
{
    return lo + (int64_t)sup_rng_below(r, (uint64_t)(hi - lo + 1));
}

/* Uniform double in [0, 1). */
static double rng_unit(sup_rng *r)
{
    return (double)(sup_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

/* ---- Storing scalars (memcpy: any alignment) -------------------------------------------------- */

/* The low bits of bits into scalar i of an integer or float array (the bit pattern). */
static void store_bits(clscan_type type, unsigned char *p, size_t i, uint64_t bits)
{
    if (sup_scalar_size(type) == 4) {
        const uint32_t v = (uint32_t)bits;
        memcpy(p + i * 4, &v, 4);
    } else {
        memcpy(p + i * 8, &bits, 8);
    }
}

static void store_real(clscan_type type, unsigned char *p, size_t i, double value)
{
    if (type == CLSCAN_FLOAT) {
        const float v = (float)value;
        memcpy(p + i * 4, &v, 4);
    } else {
        memcpy(p + i * 8, &value, 8);
    }
}

/* Scalar i of an integer array from 64 random-ish bits u (the high half for 32-bit types);
 * ascending u gives ascending values, for the signed types too (the sign bit is flipped). */
static void store_ordered(clscan_type type, unsigned char *p, size_t i, uint64_t u)
{
    switch (type) {
    case CLSCAN_INT32: store_bits(type, p, i, (uint32_t)(u >> 32) ^ 0x80000000u); break;
    case CLSCAN_UINT32: store_bits(type, p, i, u >> 32); break;
    case CLSCAN_INT64: store_bits(type, p, i, u ^ ((uint64_t)1 << 63)); break;
    case CLSCAN_UINT64: store_bits(type, p, i, u); break;
    default: break;
    }
}

/* ---- Exact inputs (the tool) ------------------------------------------------------------------- */

/* A random finite, normal, non-zero float or double with random sign and exponent. */
static void store_random_normal(clscan_type type, sup_rng *r, unsigned char *p, size_t i)
{
    uint64_t bits = sup_rng_next(r);
    if (type == CLSCAN_FLOAT) {
        const uint64_t exponent = (uint64_t)rng_range(r, 1, 254);
        bits = (bits & 0x807fffffu) | (exponent << 23);
    } else {
        const uint64_t exponent = (uint64_t)rng_range(r, 1, 2046);
        bits = (bits & 0x800fffffffffffffu) | (exponent << 52);
    }
    store_bits(type, p, i, bits);
}

static void store_signed_zero(clscan_type type, sup_rng *r, unsigned char *p, size_t i)
{
    store_real(type, p, i, (sup_rng_next(r) >> 63) ? -0.0 : 0.0);
}

/* Bound on the running value of the float SUM and AFFINE inputs. */
#define WALK_BOUND ((int64_t)1 << 20)

void sup_random_exact(clscan_op op, clscan_type type, uint64_t seed, void *dst, size_t count)
{
    unsigned char *p = (unsigned char *)dst;
    const bool fp = sup_type_is_float(type);
    sup_rng r;
    sup_rng_seed(&r, seed);

    switch (op) {
    case CLSCAN_SUM:
        if (fp) {
            int64_t run = 0;
            for (size_t i = 0; i < count; i++) {
                int64_t v = rng_range(&r, -8, 8);
                if (run + v > WALK_BOUND || run + v < -WALK_BOUND)
                    v = -v;
                run += v;
                store_real(type, p, i, (double)v);
            }
        } else {
            for (size_t i = 0; i < count; i++)
                store_bits(type, p, i, sup_rng_next(&r));
        }
        break;
    case CLSCAN_AFFINE:
        if (fp) {
            /* run is the b of the prefix (a, b); the b of any range is a difference of two such
             * values up to sign, so it stays below 2^21 in magnitude as well. */
            int64_t run = 0;
            for (size_t i = 0; i < count; i++) {
                const int64_t a = (sup_rng_next(&r) >> 63) ? -1 : 1;
                int64_t b = rng_range(&r, -8, 8);
                if (a * run + b > WALK_BOUND || a * run + b < -WALK_BOUND)
                    b = -b;
                run = a * run + b;
                store_real(type, p, 2 * i, (double)a);
                store_real(type, p, 2 * i + 1, (double)b);
            }
        } else {
            for (size_t i = 0; i < count; i++) {
                store_bits(type, p, 2 * i, sup_rng_next(&r) | 1);
                store_bits(type, p, 2 * i + 1, sup_rng_next(&r));
            }
        }
        break;
    case CLSCAN_MAX:
    case CLSCAN_MIN:
        if (fp) {
            /* The running value sits on a plateau of zeros before the trend lifts it: in the
             * first quarter only the zero that loses (-0.0 for MAX, +0.0 for MIN), then both, so
             * that the one change from the losing to the winning zero is somewhere inside.  One
             * NaN near the end must win over everything after it. */
            const double dir = op == CLSCAN_MAX ? 1.0 : -1.0;
            const double middle = (double)count / 2;
            const size_t nan_at = count >= 16 ? count - count / 8 : SIZE_MAX;
            for (size_t i = 0; i < count; i++) {
                if (i == nan_at) {
                    store_real(type, p, i, (double)NAN);
                } else if (sup_rng_next(&r) % 64 == 0) {
                    if (i < count / 4)
                        store_real(type, p, i, op == CLSCAN_MAX ? -0.0 : 0.0);
                    else
                        store_signed_zero(type, &r, p, i);
                } else {
                    const double noise = rng_unit(&r) * 2000.0 - 1000.0;
                    store_real(type, p, i, dir * (((double)i - middle) * 0.25 + noise));
                }
            }
        } else {
            for (size_t i = 0; i < count; i++)
                store_bits(type, p, i, sup_rng_next(&r));
        }
        break;
    case CLSCAN_LAST_NONZERO:
        for (size_t i = 0; i < count; i++) {
            if (sup_rng_next(&r) % 32 != 0) {
                if (fp)
                    store_signed_zero(type, &r, p, i);
                else
                    store_bits(type, p, i, 0);
            } else if (fp) {
                store_random_normal(type, &r, p, i);
            } else {
                uint64_t v;
                do
                    v = sup_rng_next(&r);
                while ((sup_scalar_size(type) == 4 ? (uint32_t)v : v) == 0);
                store_bits(type, p, i, v);
            }
        }
        break;
    }
}

const char *sup_describe_random_exact(clscan_op op, clscan_type type)
{
    const bool fp = sup_type_is_float(type);
    switch (op) {
    case CLSCAN_SUM:
        return fp ? "integers in [-8, 8], bounded sums (exact)" : "full range (wrapping)";
    case CLSCAN_AFFINE:
        return fp ? "a in {-1, 1}, b integers in [-8, 8] (exact)" : "odd a, full range (wrapping)";
    case CLSCAN_MAX:
        return fp ? "rising trend, signed zeros, one NaN" : "full range";
    case CLSCAN_MIN:
        return fp ? "falling trend, signed zeros, one NaN" : "full range";
    case CLSCAN_LAST_NONZERO:
        return fp ? "sparse (1 in 32 non-zero), signed zeros" : "sparse (1 in 32 non-zero)";
    }
    return "?";
}

/* ---- Edge-case inputs (the tests) ---------------------------------------------------------------- */

/* A quiet NaN with a random payload and sign. */
static void store_nan(clscan_type type, sup_rng *r, unsigned char *p, size_t i)
{
    const uint64_t u = sup_rng_next(r);
    if (type == CLSCAN_FLOAT) {
        const uint32_t bits = 0x7fc00000u | (uint32_t)(u & 0x003fffffu) | ((uint32_t)(u >> 40) & 0x80000000u);
        store_bits(type, p, i, bits);
    } else {
        uint64_t bits = UINT64_C(0x7ff8000000000000) | (u & UINT64_C(0x0007ffffffffffff));
        bits |= (sup_rng_next(r) & 1) << 63;
        store_bits(type, p, i, bits);
    }
}

/* Flips the sign bit only: a NaN keeps its payload. */
static void negate_real(clscan_type type, unsigned char *p, size_t i)
{
    if (type == CLSCAN_FLOAT) {
        uint32_t b;
        memcpy(&b, p + i * 4, 4);
        b ^= 0x80000000u;
        memcpy(p + i * 4, &b, 4);
    } else {
        uint64_t b;
        memcpy(&b, p + i * 8, 8);
        b ^= UINT64_C(1) << 63;
        memcpy(p + i * 8, &b, 8);
    }
}

/* A random real number: a random sign, magnitude between 2^-20 and 2^20. */
static double random_real(sup_rng *r)
{
    const double m = (double)(sup_rng_next(r) >> 11) / 9007199254740992.0 + 0.5;
    const double v = ldexp(m, (int)sup_rng_below(r, 41) - 20);
    return sup_rng_next(r) & 1 ? -v : v;
}

static void edges_max_min(clscan_op op, clscan_type type, sup_rng *r, unsigned char *x, size_t n)
{
    if (!sup_type_is_float(type)) {
        const uint64_t step = UINT64_MAX / (n ? n : 1);
        for (size_t i = 0; i < n; i++) {
            uint64_t u;
            const uint64_t k = sup_rng_below(r, 16);
            if (k == 0) {
                u = 0;
            } else if (k == 1) {
                u = UINT64_C(1) << 63;
            } else {
                u = step * i;
                const uint64_t jitter = step < UINT64_MAX / 64 ? sup_rng_below(r, step * 64) : sup_rng_next(r);
                u = u > UINT64_MAX - jitter ? UINT64_MAX : u + jitter;
            }
            store_ordered(type, x, i, op == CLSCAN_MAX ? u : ~u);
        }
        return;
    }
    for (size_t i = 0; i < n; i++) {
        const uint64_t k = sup_rng_below(r, 100);
        double v;
        if (k < 15)
            v = 0.0;
        else if (k < 30)
            v = -0.0;
        else if (k < 38)
            v = -INFINITY;
        else if (k < 40 && i >= n - n / 10)
            v = INFINITY;
        else
            v = floor((double)i / (double)n * 400.0 - 300.0) / 2.0;
        store_real(type, x, i, v);
    }
    if (n > 0) {
        const size_t nans = (size_t)sup_rng_below(r, 4);
        for (size_t k = 0; k < nans; k++)
            store_nan(type, r, x, n / 2 + (size_t)sup_rng_below(r, n - n / 2));
    }
    if (op == CLSCAN_MIN)
        for (size_t i = 0; i < n; i++)
            negate_real(type, x, i);
}

static void edges_last_nonzero(clscan_type type, sup_rng *r, unsigned char *x, size_t n)
{
    const size_t lead = (size_t)sup_rng_below(r, n / 2 + 1);
    for (size_t i = 0; i < n; i++) {
        const bool zero = i < lead || sup_rng_below(r, 8) != 0;
        if (sup_type_is_float(type)) {
            if (zero) {
                store_real(type, x, i, sup_rng_next(r) & 1 ? -0.0 : 0.0);
            } else {
                const uint64_t k = sup_rng_below(r, 16);
                if (k == 0)
                    store_nan(type, r, x, i);
                else if (k == 1)
                    store_real(type, x, i, sup_rng_next(r) & 1 ? -INFINITY : INFINITY);
                else
                    store_real(type, x, i, random_real(r));
            }
        } else {
            uint64_t u = zero ? 0 : sup_rng_next(r);
            if (!zero && sup_rng_below(r, 8) == 0)
                u = sup_rng_next(r) & 1 ? 0 : UINT64_MAX; /* the extremes */
            store_bits(type, x, i, u);
        }
    }
}

void sup_random_edges(clscan_op op, clscan_type type, sup_rng *r, void *xv, size_t n)
{
    unsigned char *x = (unsigned char *)xv;
    const bool fp = sup_type_is_float(type);
    switch (op) {
    case CLSCAN_SUM:
        for (size_t i = 0; i < n; i++) {
            if (fp) /* small integers: exact sums in any order */
                store_real(type, x, i, (double)sup_rng_below(r, 17) - 8.0);
            else
                store_ordered(type, x, i, sup_rng_next(r));
        }
        break;
    case CLSCAN_MAX:
    case CLSCAN_MIN:
        edges_max_min(op, type, r, x, n);
        break;
    case CLSCAN_LAST_NONZERO:
        edges_last_nonzero(type, r, x, n);
        break;
    case CLSCAN_AFFINE:
        for (size_t i = 0; i < n; i++) {
            if (fp) { /* a = +-1, b small: exact in any order */
                store_real(type, x, 2 * i, sup_rng_next(r) & 1 ? -1.0 : 1.0);
                store_real(type, x, 2 * i + 1, (double)sup_rng_below(r, 9) - 4.0);
            } else {
                /* a odd in its own width (the low bits), so that the products never become
                 * 0 mod 2^k, which would make the result blind to all but the last few dozen
                 * elements. */
                store_bits(type, x, 2 * i, sup_rng_next(r) | 1);
                store_ordered(type, x, 2 * i + 1, sup_rng_next(r));
            }
        }
        break;
    }
}
