/* The benchmark's cases, shared by clscan-bench (C11), boost-bench (C++) and cub-bench (CUDA):
 * names, element sizes, operators and the input generator (same seed, same data in every
 * program).  The sequential reference (the loop a user writes instead of a library call, timed as
 * such) and the exact check are the support library's: sup_reference (support/reference.h) with
 * the case's operator, type and kind, and sup_compare with SUP_MATCH_VALUES (support/compare.h).
 *
 * Inputs are chosen so that every result is exact in any association order, so every program's
 * result can be compared with == (no tolerance):
 *   float-sum-excl     values in {-1, 0, 1}, a random walk steered to stay within +-1024, so
 *                      every partial sum of any range is an integer below 2^24.
 *   int-max-incl       random int32 around a slowly rising trend (the maximum keeps changing).
 *   int-lastnz-incl    two thirds zeros, the rest random non-zero int32.
 *   float-affine-incl  pairs (a, b), a in {-1, 1}, b in -3..3; the composition of any range is
 *                      (+-1, integer below 2^11), steered like the sum: exact in float.
 *   double-sum-excl    integers in -1000..1000; every partial sum is far below 2^53.
 * These are not the tool's or the tests' inputs (support/inputs.h): the published results are
 * measured on exactly these densities, and every peer generates them from this header.
 * Header-only: every function is static. */
#ifndef CLSCAN_BENCH_COMMON_H
#define CLSCAN_BENCH_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "clscan.h"
#include "support/inputs.h"

/* The cases every peer runs come first (BENCH_NPEER_CASES); the custom-operator and segmented
 * cases follow, on the data of a peer case (bench_base_case): custom-float-sum-excl and
 * custom-float-affine-incl re-express the built-ins as custom operators (clscan alone);
 * seg-float-sum-excl restarts at heads, key-int-max-incl where keys change (clscan, and CUB's
 * scans by key: bench_peer_runs). */
enum { BENCH_FSUM, BENCH_IMAX, BENCH_ILNZ, BENCH_FAFF, BENCH_DSUM, BENCH_NPEER_CASES,
       BENCH_CFSUM = BENCH_NPEER_CASES, BENCH_CFAFF, BENCH_SFSUM, BENCH_KIMAX, BENCH_NCASES };

static const char *const bench_case_names[BENCH_NCASES] = {
    "float-sum-excl", "int-max-incl", "int-lastnz-incl", "float-affine-incl", "double-sum-excl",
    "custom-float-sum-excl", "custom-float-affine-incl", "seg-float-sum-excl", "key-int-max-incl"};
/* Bytes of one element (a pair of floats for the affine cases). */
static const size_t bench_case_esize[BENCH_NCASES] = {4, 4, 4, 8, 8, 4, 8, 4, 4};
/* The scan of each case, as a built-in operator (the custom cases compute the same). */
static const clscan_op bench_case_op[BENCH_NCASES] = {CLSCAN_SUM, CLSCAN_MAX, CLSCAN_LAST_NONZERO, CLSCAN_AFFINE,
                                                      CLSCAN_SUM, CLSCAN_SUM, CLSCAN_AFFINE, CLSCAN_SUM, CLSCAN_MAX};
static const clscan_type bench_case_type[BENCH_NCASES] = {CLSCAN_FLOAT, CLSCAN_INT32, CLSCAN_INT32, CLSCAN_FLOAT,
                                                          CLSCAN_DOUBLE, CLSCAN_FLOAT, CLSCAN_FLOAT, CLSCAN_FLOAT,
                                                          CLSCAN_INT32};
static const clscan_kind bench_case_kind[BENCH_NCASES] = {CLSCAN_EXCLUSIVE, CLSCAN_INCLUSIVE, CLSCAN_INCLUSIVE,
                                                          CLSCAN_INCLUSIVE, CLSCAN_EXCLUSIVE, CLSCAN_EXCLUSIVE,
                                                          CLSCAN_INCLUSIVE, CLSCAN_EXCLUSIVE, CLSCAN_INCLUSIVE};

/* Whether a peer runs case c: every peer the first BENCH_NPEER_CASES; CUB (by_key non-zero) also
 * the segmented cases, with its scans by key (the heads turned into keys on the host). */
static inline int bench_peer_runs(int c, int by_key)
{
    return c < BENCH_NPEER_CASES || (by_key && (c == BENCH_SFSUM || c == BENCH_KIMAX));
}

/* The case with that name, or -1. */
static inline int bench_case_find(const char *name)
{
    for (int c = 0; c < BENCH_NCASES; ++c)
        if (strcmp(name, bench_case_names[c]) == 0)
            return c;
    return -1;
}

/* Writes the input of case c, n elements, to out (n * bench_case_esize[c] bytes). */
static void bench_generate(int c, size_t n, void *out)
{
    uint64_t s = 0x5EEDC1A5CA11ull ^ ((uint64_t)(c + 1) << 56) ^ (uint64_t)n;
    int64_t walk = 0, sign = 1;
    for (size_t i = 0; i < n; ++i) {
        const uint64_t r = sup_splitmix64(&s);
        switch (c) {
        case BENCH_FSUM: {
            int64_t v = (int64_t)(r % 3) - 1;
            if ((walk >= 1024 && v > 0) || (walk <= -1024 && v < 0))
                v = -v;
            walk += v;
            ((float *)out)[i] = (float)v;
            break;
        }
        case BENCH_IMAX:
            ((int32_t *)out)[i] = (int32_t)((int64_t)((r >> 32) % 2000001u) - 1000000 + (int64_t)(i / 64));
            break;
        case BENCH_ILNZ:
            ((int32_t *)out)[i] = r % 3 == 0 ? (int32_t)(uint32_t)((r >> 32) | 1u) : 0;
            break;
        case BENCH_FAFF: {
            const int64_t a = (r & 1) ? 1 : -1;
            int64_t b = (int64_t)((r >> 8) % 7) - 3;
            sign *= a;                 /* product of the a's so far */
            if ((walk >= 1024 && sign * b > 0) || (walk <= -1024 && sign * b < 0))
                b = -b;
            walk += sign * b;          /* the b of every range's composition is +-(walk_j - walk_i) */
            ((float *)out)[2 * i] = (float)a;
            ((float *)out)[2 * i + 1] = (float)b;
            break;
        }
        case BENCH_DSUM:
            ((double *)out)[i] = (double)((int64_t)(r % 2001) - 1000);
            break;
        default:
            break;
        }
    }
}

/* The peer case whose data a case uses (the custom and segmented cases reuse a peer case's). */
static inline int bench_base_case(int c)
{
    switch (c) {
    case BENCH_CFSUM: case BENCH_SFSUM: return BENCH_FSUM;
    case BENCH_CFAFF: return BENCH_FAFF;
    case BENCH_KIMAX: return BENCH_IMAX;
    default: return c;
    }
}

/* Whether case c restarts at segments: by heads (seg-float-sum-excl) or by keys (key-int-max-incl). */
static inline int bench_segmented_case(int c) { return c == BENCH_SFSUM || c == BENCH_KIMAX; }
static inline int bench_by_key_case(int c) { return c == BENCH_KIMAX; }
/* Bytes of one head flag (cl_uchar) or key (cl_uint). */
static inline size_t bench_segs_esize(int c) { return bench_by_key_case(c) ? 4 : 1; }

/* Segments of 1 ... 2048 elements (uniform lengths, mean about 1024): n heads (one byte each,
 * 1 at a segment's first element) for seg-float-sum-excl, n uint32 keys (the segment's number,
 * from 1) for key-int-max-incl.  keys, when not NULL, also gets the keys for a heads case: what a
 * peer without head flags (CUB) scans by. */
static inline void bench_generate_segments(int c, size_t n, void *out, uint32_t *keys)
{
    uint64_t s = 0x5E6A4E47ull ^ (uint64_t)n;
    size_t left = 0;
    uint32_t key = 0;
    for (size_t i = 0; i < n; ++i) {
        const int head = left == 0;
        if (head) {
            left = 1 + (size_t)(sup_splitmix64(&s) % 2048);
            ++key;
        }
        --left;
        if (bench_by_key_case(c))
            ((uint32_t *)out)[i] = key;
        else
            ((unsigned char *)out)[i] = (unsigned char)head;
        if (keys)
            keys[i] = key;
    }
}

/* The median of v[0..n-1] (sorts v); 0 for n == 0. */
static double bench_median(double *v, int n)
{
    for (int i = 1; i < n; ++i)     /* insertion sort: n is small */
        for (int j = i; j > 0 && v[j - 1] > v[j]; --j) {
            const double t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
    if (n <= 0)
        return 0.0;
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Appends s to buf quoted for the shell. */
static inline void bench_shell_quote(char *buf, size_t n, const char *s)
{
    size_t k = strlen(buf);
    if (k + 1 < n) buf[k++] = '\'';
    for (; *s && k + 5 < n; ++s) {
        if (*s == '\'') {
            memcpy(buf + k, "'\\''", 4);
            k += 4;
        } else {
            buf[k++] = *s;
        }
    }
    if (k + 1 < n) buf[k++] = '\'';
    buf[k] = '\0';
}

#endif /* CLSCAN_BENCH_COMMON_H */
