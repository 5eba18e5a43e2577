/* clscan tool: random inputs whose scans are exact in any order of evaluation. */
#include "random_input.h"

#include <math.h>
#include <string.h>

#include "elements.h"

/* xoshiro256** seeded through splitmix64 (public-domain generators by Blackman and Vigna). */
typedef struct rng { uint64_t s[4]; } rng;

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static void rng_seed(rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&seed);
}

static inline uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

static uint64_t rng_next(rng *r)
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

/* Uniform integer in [lo, hi] (hi - lo small). */
static int64_t rng_range(rng *r, int64_t lo, int64_t hi)
{
    return lo + (int64_t)(rng_next(r) % (uint64_t)(hi - lo + 1));
}

/* Uniform double in [0, 1). */
static double rng_unit(rng *r)
{
    return (double)(rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

/* ---- storing scalars --------------------------------------------------------------------- */

static void store_bits(clscan_type type, unsigned char *p, size_t i, uint64_t bits)
{
    if (scalar_size(type) == 4) {
        uint32_t v = (uint32_t)bits;
        memcpy(p + i * 4, &v, 4);
    } else {
        memcpy(p + i * 8, &bits, 8);
    }
}

static void store_real(clscan_type type, unsigned char *p, size_t i, double value)
{
    if (type == CLSCAN_FLOAT) {
        float v = (float)value;
        memcpy(p + i * 4, &v, 4);
    } else {
        memcpy(p + i * 8, &value, 8);
    }
}

/* A random finite, normal, non-zero float or double with random sign and exponent. */
static void store_random_normal(clscan_type type, rng *r, unsigned char *p, size_t i)
{
    uint64_t bits = rng_next(r);
    if (type == CLSCAN_FLOAT) {
        uint64_t exponent = (uint64_t)rng_range(r, 1, 254);
        bits = (bits & 0x807fffffu) | (exponent << 23);
    } else {
        uint64_t exponent = (uint64_t)rng_range(r, 1, 2046);
        bits = (bits & 0x800fffffffffffffu) | (exponent << 52);
    }
    store_bits(type, p, i, bits);
}

static void store_signed_zero(clscan_type type, rng *r, unsigned char *p, size_t i)
{
    store_real(type, p, i, (rng_next(r) >> 63) ? -0.0 : 0.0);
}

/* Bound on the running value of the float SUM and AFFINE inputs. */
#define WALK_BOUND ((int64_t)1 << 20)

void random_input(clscan_op op, clscan_type type, uint64_t seed, void *dst, size_t count)
{
    unsigned char *p = dst;
    const bool fp = type_is_float(type);
    rng r;
    rng_seed(&r, seed);

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
                store_bits(type, p, i, rng_next(&r));
        }
        break;
    case CLSCAN_AFFINE:
        if (fp) {
            /* run is the b of the prefix (a, b); the b of any range is a difference of two such
             * values up to sign, so it stays below 2^21 in magnitude as well. */
            int64_t run = 0;
            for (size_t i = 0; i < count; i++) {
                int64_t a = (rng_next(&r) >> 63) ? -1 : 1;
                int64_t b = rng_range(&r, -8, 8);
                if (a * run + b > WALK_BOUND || a * run + b < -WALK_BOUND)
                    b = -b;
                run = a * run + b;
                store_real(type, p, 2 * i, (double)a);
                store_real(type, p, 2 * i + 1, (double)b);
            }
        } else {
            for (size_t i = 0; i < count; i++) {
                store_bits(type, p, 2 * i, rng_next(&r) | 1);
                store_bits(type, p, 2 * i + 1, rng_next(&r));
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
                } else if (rng_next(&r) % 64 == 0) {
                    if (i < count / 4)
                        store_real(type, p, i, op == CLSCAN_MAX ? -0.0 : 0.0);
                    else
                        store_signed_zero(type, &r, p, i);
                } else {
                    double noise = rng_unit(&r) * 2000.0 - 1000.0;
                    store_real(type, p, i, dir * (((double)i - middle) * 0.25 + noise));
                }
            }
        } else {
            for (size_t i = 0; i < count; i++)
                store_bits(type, p, i, rng_next(&r));
        }
        break;
    case CLSCAN_LAST_NONZERO:
        for (size_t i = 0; i < count; i++) {
            if (rng_next(&r) % 32 != 0) {
                if (fp)
                    store_signed_zero(type, &r, p, i);
                else
                    store_bits(type, p, i, 0);
            } else if (fp) {
                store_random_normal(type, &r, p, i);
            } else {
                uint64_t v;
                do
                    v = rng_next(&r);
                while ((scalar_size(type) == 4 ? (uint32_t)v : v) == 0);
                store_bits(type, p, i, v);
            }
        }
        break;
    }
}

const char *describe_random_input(clscan_op op, clscan_type type)
{
    const bool fp = type_is_float(type);
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
