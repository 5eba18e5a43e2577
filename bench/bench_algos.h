/* The cases of clscan-bench-algos, shared with its peers boost-bench-algos (C++) and
 * cub-bench-algos (CUDA): names, inputs (the same generator and seed in every program), the
 * sequential reference (what a user writes instead of a library call) and the exact check.
 *   compact-50       4-byte elements, half of the flags set at random: the kept elements and
 *                    their number
 *   compact-1        the same with 1% kept
 *   bucket-65536     cl_uint keys in [0, 2^16) with cl_uint values: the values grouped by key,
 *                    order kept inside a bucket (clscan also writes the 2^16 + 1 offsets; the
 *                    peers sort the pairs by the 16 key bits, which groups them the same way)
 *   sort-u32         random cl_uint keys
 *   sort-u32-pairs   random cl_uint keys with cl_uint values (the input position): stable
 *   sort-u32-pairs-desc  the same in descending order, still stable (CUB's SortPairsDescending)
 *   sort-f32         random finite floats of both signs (no zeros, no NaNs: every peer's order
 *                    agrees on them)
 *   segsort-u32      random cl_uint keys in segments of random lengths 1 ... 1000 (about n / 500
 *                    segments: 10^5 at 2^26), each sorted on its own; the segments are given as
 *                    the nsegments + 1 uint32 offsets (CSR's row_ptr)
 *   segsort-u32-long  the same with segment lengths 2^(0 ... 20) times 1 ... 2 at random (a
 *                    few long segments holding most keys among short ones: about 60 at 2^24)
 *   sort-u8, sort-u16  random 8- and 16-bit keys (cl_uchar, cl_ushort: 1 and 2 bytes a key on the
 *                    device, held widened to uint32 on the host)
 * Selection (clscan's predicates, partition, unique, reduce_by_key):
 *   select-if        random cl_uint, kept when even (a predicate, no flags): about half
 *   partition        the same predicate, stable: the even ones, then the odd ones, in order
 *   unique           cl_uint keys in runs of 1 ... 8 (the first of each run)
 *   reduce-by-key    cl_uint keys in runs of 1 ... 16 with cl_uint values: each run's key and
 *                    the (wrapping) sum of its values
 * Header-only (static functions), C and C++ (and CUDA host code). */
#ifndef CLSCAN_BENCH_ALGOS_H
#define CLSCAN_BENCH_ALGOS_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Its median and splitmix64 (support/inputs.h); the scans' cases it also defines are not used here. */
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#endif
#include "bench_common.h"
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

enum { ALG_COMPACT50, ALG_COMPACT1, ALG_BUCKET, ALG_SORT_U32, ALG_SORT_PAIRS, ALG_SORT_F32, ALG_SORT_PAIRS_DESC,
       ALG_SELECT_IF, ALG_PARTITION, ALG_UNIQUE, ALG_REDUCE_BY_KEY, ALG_SEGSORT_U32, ALG_SORT_U8, ALG_SORT_U16,
       ALG_SEGSORT_LONG, ALG_NCASES };

static const char *const alg_case_names[ALG_NCASES] = {"compact-50", "compact-1", "bucket-65536",
                                                        "sort-u32", "sort-u32-pairs", "sort-f32",
                                                        "sort-u32-pairs-desc", "select-if", "partition",
                                                        "unique", "reduce-by-key", "segsort-u32", "sort-u8",
                                                        "sort-u16", "segsort-u32-long"};
#define ALG_NBUCKETS 65536u

static int alg_case_find(const char *name)
{
    for (int c = 0; c < ALG_NCASES; ++c)
        if (strcmp(name, alg_case_names[c]) == 0)
            return c;
    return -1;
}

static int alg_has_values(int c)
{
    return c == ALG_BUCKET || c == ALG_SORT_PAIRS || c == ALG_SORT_PAIRS_DESC || c == ALG_REDUCE_BY_KEY;
}
static int alg_is_compaction(int c) { return c == ALG_COMPACT50 || c == ALG_COMPACT1; }
/* Whether the call writes a count (of the kept elements, the runs, or the kept ones first). */
static int alg_writes_count(int c)
{
    return alg_is_compaction(c) || c == ALG_SELECT_IF || c == ALG_PARTITION || c == ALG_UNIQUE || c == ALG_REDUCE_BY_KEY;
}

/* Bytes of one key on the device (the host holds every key as a uint32). */
static size_t alg_key_size(int c) { return c == ALG_SORT_U8 ? 1 : c == ALG_SORT_U16 ? 2 : 4; }

/* Bytes a copy of the input moves (the floor): elements and flags, or keys and values (the
 * segmented sort: its keys; the offsets are about a 500th of them). */
static size_t alg_input_bytes(int c, size_t n)
{
    return alg_is_compaction(c) ? n * 5 : n * (alg_key_size(c) + (alg_has_values(c) ? 4 : 0));
}

/* The keys as the device holds them: n keys of alg_key_size(c) bytes from or to the host's
 * uint32 (narrow may be wide's memory only for 4-byte keys). */
static void alg_pack(int c, size_t n, const uint32_t *wide, void *narrow)
{
    for (size_t i = 0; i < n; ++i) {
        if (alg_key_size(c) == 1)
            ((uint8_t *)narrow)[i] = (uint8_t)wide[i];
        else if (alg_key_size(c) == 2)
            ((uint16_t *)narrow)[i] = (uint16_t)wide[i];
        else
            ((uint32_t *)narrow)[i] = wide[i];
    }
}
static void alg_unpack(int c, size_t n, const void *narrow, uint32_t *wide)
{
    for (size_t i = 0; i < n; ++i)
        wide[i] = alg_key_size(c) == 1 ? ((const uint8_t *)narrow)[i]
                  : alg_key_size(c) == 2 ? ((const uint16_t *)narrow)[i] : ((const uint32_t *)narrow)[i];
}

static int alg_is_segmented(int c) { return c == ALG_SEGSORT_U32 || c == ALG_SEGSORT_LONG; }

/* The segments of the segmented sorts: lengths 1 ... 1000 at random (segsort-u32-long: 2^(0 ...
 * 20) plus 0 ... as many again), the last one cut at n.  Writes the nsegments + 1 offsets
 * (offsets holds n + 1) and returns nsegments (0 for n 0 and the other cases). */
static inline size_t alg_generate_segments(int c, size_t n, uint32_t *offsets)
{
    uint64_t s = 0x5E650A7Eull ^ (uint64_t)n;
    size_t k = 0, at = 0;
    offsets[0] = 0;
    while (alg_is_segmented(c) && at < n) {
        const uint64_t r = sup_splitmix64(&s);
        const size_t base = (size_t)1 << (r >> 32) % 21u;
        const size_t len = c == ALG_SEGSORT_LONG ? base + (size_t)(r % base) : 1 + (size_t)(r % 1000u);
        at = len < n - at ? at + len : n;
        offsets[++k] = (uint32_t)at;
    }
    return k;
}

/* The selections' predicate (select-if, partition). */
static int alg_kept(uint32_t x) { return (x & 1u) == 0; }

/* The input of case c: n keys (or elements) of 4 bytes, n values (cases with values) and n
 * flags (compaction). */
static void alg_generate(int c, size_t n, uint32_t *keys, uint32_t *values, unsigned char *flags)
{
    uint64_t s = 0xA160C1A5CA11ull ^ ((uint64_t)(c + 1) << 56) ^ (uint64_t)n;
    uint32_t run_key = 0, run_left = 0;
    for (size_t i = 0; i < n; ++i) {
        const uint64_t r = sup_splitmix64(&s);
        switch (c) {
        case ALG_UNIQUE:
        case ALG_REDUCE_BY_KEY:
            if (run_left == 0) {   /* a new run, of another key */
                run_key += 1u + (uint32_t)(r >> 40) % 1000u;
                run_left = 1u + (uint32_t)(r >> 20) % (c == ALG_UNIQUE ? 8u : 16u);
            }
            --run_left;
            keys[i] = run_key;
            if (values)
                values[i] = (uint32_t)r;
            break;
        case ALG_COMPACT50:
        case ALG_COMPACT1:
            keys[i] = (uint32_t)r;
            flags[i] = (unsigned char)((r >> 32) % 100 < (c == ALG_COMPACT50 ? 50u : 1u));
            break;
        case ALG_BUCKET:
            keys[i] = (uint32_t)(r % ALG_NBUCKETS);
            values[i] = (uint32_t)(r >> 32);
            break;
        case ALG_SORT_U8:
        case ALG_SORT_U16:
            keys[i] = (uint32_t)(r >> 7) & (c == ALG_SORT_U8 ? 0xffu : 0xffffu);
            break;
        case ALG_SORT_F32: {
            /* +-(1 + 23 random mantissa bits) x 2^(-20 ... 20) */
            const uint32_t bits = ((uint32_t)(r >> 63) << 31) | ((uint32_t)(107 + (r >> 32) % 41) << 23) |
                                  (uint32_t)(r & 0x7fffffu);
            keys[i] = bits;
            break;
        }
        default:
            keys[i] = (uint32_t)r;
            if (values)
                values[i] = (uint32_t)i;
            break;
        }
    }
}

/* The sequential reference.  Compaction: out_keys gets the kept elements, returns their number.
 * Bucketing and sorts: a stable LSD radix sort (8-bit digits) of the keys (the 16 low bits for
 * bucketing, the 8 or 16 bits of the narrow keys; floats by their order bits; descending: the
 * bits inverted), moving the values; the segmented sort: the same on each segment of offsets
 * (nsegments + 1 offsets; NULL and 0 for the other cases); returns n.  tmp: 2n uint32. */
static uint32_t alg_order_bits(int c, uint32_t k)
{
    if (c == ALG_SORT_F32)
        return (k >> 31) ? ~k : (k | 0x80000000u);
    if (c == ALG_SORT_PAIRS_DESC)
        return ~k;
    return k;
}

/* The LSD radix sort of n keys (and values, or NULL) in passes of 8 bits. */
static void alg_radix_sort(int c, int passes, size_t n, const uint32_t *keys, const uint32_t *values,
                           uint32_t *out_keys, uint32_t *out_values, uint32_t *tmp)
{
    uint32_t *ka = tmp, *va = tmp + n;
    const uint32_t *sk = keys, *sv = values;
    for (int p = 0; p < passes; ++p) {
        /* the last pass writes the output */
        uint32_t *dk = (passes - 1 - p) % 2 == 0 ? out_keys : ka;
        uint32_t *dv = (passes - 1 - p) % 2 == 0 ? out_values : va;
        size_t count[257] = {0};
        for (size_t i = 0; i < n; ++i)
            ++count[((alg_order_bits(c, sk[i]) >> (8 * p)) & 255u) + 1];
        for (int d = 0; d < 256; ++d)
            count[d + 1] += count[d];
        for (size_t i = 0; i < n; ++i) {
            const size_t q = count[(alg_order_bits(c, sk[i]) >> (8 * p)) & 255u]++;
            dk[q] = sk[i];
            if (sv)
                dv[q] = sv[i];
        }
        sk = dk;
        sv = sv ? dv : NULL;
    }
}

static size_t alg_sequential(int c, size_t n, const uint32_t *keys, const uint32_t *values,
                             const unsigned char *flags, const uint32_t *offsets, size_t nsegments,
                             uint32_t *out_keys, uint32_t *out_values, uint32_t *tmp)
{
    if (alg_is_compaction(c)) {
        size_t m = 0;
        for (size_t i = 0; i < n; ++i)
            if (flags[i])
                out_keys[m++] = keys[i];
        return m;
    }
    if (c == ALG_SELECT_IF || c == ALG_PARTITION) {   /* partition: all n, the kept first */
        size_t m = 0;
        for (size_t i = 0; i < n; ++i)
            if (alg_kept(keys[i]))
                out_keys[m++] = keys[i];
        for (size_t i = 0; i < n && c == ALG_PARTITION; ++i)
            if (!alg_kept(keys[i]))
                out_keys[m++] = keys[i];
        return m;
    }
    if (c == ALG_UNIQUE || c == ALG_REDUCE_BY_KEY) {
        size_t m = 0;
        for (size_t i = 0; i < n; ++i) {
            if (i == 0 || keys[i] != keys[i - 1]) {
                out_keys[m] = keys[i];
                if (c == ALG_REDUCE_BY_KEY)
                    out_values[m] = 0;
                ++m;
            }
            if (c == ALG_REDUCE_BY_KEY)
                out_values[m - 1] += values[i];
        }
        return m;
    }
    if (alg_is_segmented(c)) {
        for (size_t s = 0; s < nsegments; ++s)
            alg_radix_sort(c, 4, offsets[s + 1] - offsets[s], keys + offsets[s], NULL, out_keys + offsets[s],
                           NULL, tmp);
        return n;
    }
    alg_radix_sort(c, c == ALG_BUCKET || c == ALG_SORT_U16 ? 2 : c == ALG_SORT_U8 ? 1 : 4, n, keys, values,
                   out_keys, out_values, tmp);
    return n;
}

/* Differences between got and ref (n words); *first gets the first (n if none). */
static size_t alg_check(size_t n, const uint32_t *got, const uint32_t *ref, size_t *first)
{
    size_t bad = 0;
    *first = n;
    for (size_t i = 0; i < n; ++i)
        if (got[i] != ref[i] && bad++ == 0)
            *first = i;
    return bad;
}

#endif /* CLSCAN_BENCH_ALGOS_H */
