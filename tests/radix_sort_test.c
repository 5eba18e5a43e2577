/* Radix sort against a stable sort on the host: every key type (the scans' six and the 8- and
 * 16-bit keys); random keys, duplicates, already sorted, reversed, all equal, only high bits
 * set, negative numbers, -0.0 and +0.0, infinities and NaNs of both signs; ascending and
 * descending; stability checked through values (the input position, and values of other
 * sizes); the low-bits option and bit ranges (the bits outside the range random); in place;
 * offsets and guards; counts from 0 to three million; the GPUs' tuning; rejected calls. */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every key type, and the bytes of each (indexed by the enumerator). */
#define NKEY_TYPES 10
static const clscan_type key_types[NKEY_TYPES] = {CLSCAN_INT32, CLSCAN_UINT32, CLSCAN_INT64, CLSCAN_UINT64,
                                                  CLSCAN_FLOAT, CLSCAN_DOUBLE, CLSCAN_INT8,  CLSCAN_UINT8,
                                                  CLSCAN_INT16, CLSCAN_UINT16};
static const size_t key_size[NKEY_TYPES] = {4, 4, 8, 8, 4, 8, 1, 1, 2, 2};

/* One sorter per (key type, value size, bit range, direction), kept for the whole program. */
typedef struct sorter_entry {
    clscan_type type;
    size_t value_size;
    unsigned begin, bits;
    int descending;
    clscan_sorter *sorter;
} sorter_entry;
static sorter_entry sorters[128];
static int nsorters;

/* bits 0: the whole key; begin > 0: clscan_sorter_set_key_range(begin, bits), else
 * clscan_sorter_set_key_bits(bits). */
static clscan_sorter *sorter_of(clscan_type type, size_t value_size, unsigned begin, unsigned bits, int descending)
{
    for (int i = 0; i < nsorters; i++)
        if (sorters[i].type == type && sorters[i].value_size == value_size && sorters[i].begin == begin &&
            sorters[i].bits == bits && sorters[i].descending == descending)
            return sorters[i].sorter;
    ck_assert(nsorters < 128);
    cl_int err;
    clscan_sorter *s = clscan_sorter_create(tu.context, tu.device, type, value_size, &err);
    ck_assert_msg(s, "clscan_sorter_create(%s, %zu): %s: %s", tu_type_name(type), value_size,
                  clscan_error_string(err), clscan_last_error());
    if (begin) {
        err = clscan_sorter_set_key_range(s, begin, bits);
        ck_assert_msg(err == CL_SUCCESS, "clscan_sorter_set_key_range(%u, %u): %s", begin, bits, clscan_last_error());
    } else if (bits) {
        err = clscan_sorter_set_key_bits(s, bits);
        ck_assert_msg(err == CL_SUCCESS, "clscan_sorter_set_key_bits(%u): %s", bits, clscan_last_error());
    }
    if (descending) {
        err = clscan_sorter_set_descending(s, descending);
        ck_assert_msg(err == CL_SUCCESS, "clscan_sorter_set_descending: %s", clscan_last_error());
    }
    sorters[nsorters++] = (sorter_entry){type, value_size, begin, bits, descending, s};
    return s;
}

static clscan_sorter *sorter(clscan_type type, size_t value_size, unsigned bits)
{
    return sorter_of(type, value_size, 0, bits, 0);
}

/* ---- Inputs ------------------------------------------------------------------------------ */

enum pattern { RANDOM, DUPLICATES, SORTED, REVERSED, EQUAL, HIGH_BITS, SPECIAL, NPATTERNS };
static const char *const pattern_names[] = {"random", "duplicates", "sorted", "reversed", "all equal",
                                            "high bits only", "special values"};

static uint64_t get_key(const unsigned char *k, size_t ks, size_t i)
{
    if (ks == 1)
        return k[i];
    if (ks == 2) {
        uint16_t v;
        memcpy(&v, k + 2 * i, 2);
        return v;
    }
    if (ks == 4) {
        uint32_t v;
        memcpy(&v, k + 4 * i, 4);
        return v;
    }
    uint64_t v;
    memcpy(&v, k + 8 * i, 8);
    return v;
}

static void put_key(unsigned char *k, size_t ks, size_t i, uint64_t v)
{
    if (ks == 1) {
        k[i] = (unsigned char)v;
    } else if (ks == 2) {
        const uint16_t w = (uint16_t)v;
        memcpy(k + 2 * i, &w, 2);
    } else if (ks == 4) {
        const uint32_t w = (uint32_t)v;
        memcpy(k + 4 * i, &w, 4);
    } else {
        memcpy(k + 8 * i, &v, 8);
    }
}

/* The key's bits mapped to an unsigned integer of the same order (what the test expects:
 * integers by value, floats in IEEE total order). */
static uint64_t order_of(clscan_type t, uint64_t k)
{
    const size_t ks = key_size[t];
    const uint64_t all = ks == 8 ? ~(uint64_t)0 : ((uint64_t)1 << (8 * ks)) - 1, sign = all ^ (all >> 1);
    switch (t) {
    case CLSCAN_INT8: case CLSCAN_INT16: case CLSCAN_INT32: case CLSCAN_INT64: return k ^ sign;
    case CLSCAN_FLOAT: case CLSCAN_DOUBLE: return (k & sign) ? (~k & all) : (k | sign);
    default: return k;
    }
}

/* A special value of a floating type: +-0, +-inf, NaNs of both signs and payloads, denormals,
 * +-1, +-max; or a random finite value. */
static uint64_t special_float(clscan_type t)
{
    if (t == CLSCAN_FLOAT) {
        static const uint32_t sp[] = {0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u,
                                      0xffc00000u, 0x7f800001u, 0xff812345u, 0x00000001u, 0x80000001u,
                                      0x3f800000u, 0xbf800000u, 0x7f7fffffu, 0xff7fffffu};
        if (tu_rand_below(2))
            return sp[tu_rand_below(sizeof sp / sizeof *sp)];
        const float f = (float)((double)(int64_t)tu_rand_below(2000001) - 1000000.0) / 1000.0f;
        uint32_t b;
        memcpy(&b, &f, 4);
        return b;
    }
    static const uint64_t sp[] = {0, 0x8000000000000000u, 0x7ff0000000000000u, 0xfff0000000000000u,
                                  0x7ff8000000000000u, 0xfff8000000000000u, 0x7ff0000000000001u,
                                  0xfff0000000abcdefu, 1, 0x8000000000000001u, 0x3ff0000000000000u,
                                  0xbff0000000000000u};
    if (tu_rand_below(2))
        return sp[tu_rand_below(sizeof sp / sizeof *sp)];
    const double d = ((double)(int64_t)tu_rand_below(2000001) - 1000000.0) / 1000.0;
    uint64_t b;
    memcpy(&b, &d, 8);
    return b;
}

static void fill_keys(clscan_type t, enum pattern p, unsigned char *k, size_t n)
{
    const size_t ks = key_size[t];
    const int width = (int)(8 * ks);
    const uint64_t base = tu_rand();
    for (size_t i = 0; i < n; i++) {
        uint64_t v;
        switch (p) {
        case DUPLICATES: v = tu_rand_below(7) * 0x9e3779b97f4a7c15u; break;
        case SORTED: case REVERSED: v = tu_rand(); break;   /* arranged afterwards */
        case EQUAL: v = base; break;
        case HIGH_BITS: v = tu_rand_below(256) << (width - 8); break;
        case SPECIAL:
            v = t == CLSCAN_FLOAT || t == CLSCAN_DOUBLE ? special_float(t)
                                                         : (uint64_t)((int64_t)tu_rand_below(201) - 100);
            break;
        default: v = tu_rand(); break;
        }
        put_key(k, ks, i, v);
    }
}

/* The sort itself (reference): positions ordered by (order key, position), or by (reversed
 * order key, position) descending: qsort is not stable, the positions make every key distinct. */
static clscan_type cmp_type;
static const unsigned char *cmp_keys;
static uint64_t cmp_mask;
static int cmp_descending;
static int cmp_positions(const void *pa, const void *pb)
{
    const size_t a = *(const size_t *)pa, b = *(const size_t *)pb, ks = key_size[cmp_type];
    const uint64_t ka = order_of(cmp_type, get_key(cmp_keys, ks, a)) & cmp_mask,
                   kb = order_of(cmp_type, get_key(cmp_keys, ks, b)) & cmp_mask;
    if (ka != kb)
        return (ka < kb) != cmp_descending ? -1 : 1;
    return a < b ? -1 : a > b;
}

/* Sorted by bits [begin, bits) (bits 0: all) of the order keys. */
static size_t *reference_order_of(clscan_type t, const unsigned char *keys, size_t n, unsigned begin, unsigned bits,
                                  int descending)
{
    size_t *pos = malloc(n * sizeof *pos + 1);
    ck_assert(pos);
    for (size_t i = 0; i < n; i++)
        pos[i] = i;
    cmp_type = t;
    cmp_keys = keys;
    cmp_mask = bits == 0 || bits >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << bits) - 1;
    cmp_mask &= ~(((uint64_t)1 << begin) - 1);
    cmp_descending = descending;
    qsort(pos, n, sizeof *pos, cmp_positions);
    return pos;
}

static size_t *reference_order(clscan_type t, const unsigned char *keys, size_t n, unsigned bits)
{
    return reference_order_of(t, keys, n, 0, bits, 0);
}

/* Makes the keys sorted (or reversed) in the expected order. */
static void arrange(clscan_type t, enum pattern p, unsigned char *keys, size_t n)
{
    if (p != SORTED && p != REVERSED)
        return;
    const size_t ks = key_size[t];
    size_t *pos = reference_order(t, keys, n, 0);
    unsigned char *copy = malloc(n * ks + 1);
    ck_assert(copy);
    memcpy(copy, keys, n * ks);
    for (size_t i = 0; i < n; i++)
        memcpy(keys + (p == SORTED ? i : n - 1 - i) * ks, copy + pos[i] * ks, ks);
    free(copy);
    free(pos);
}

/* ---- One checked sort -------------------------------------------------------------------- */

typedef struct scase {
    clscan_type type;
    size_t value_size;     /* 0: keys only; 4: values are the input positions (stability) */
    unsigned bits;         /* clscan_sorter_set_key_bits (0: all), or the range's end */
    unsigned begin;        /* > 0: clscan_sorter_set_key_range(begin, bits) */
    int descending;
    enum pattern pattern;
    size_t count;
    size_t in_offset, out_offset;
    int in_place;
    clscan_sorter *use;    /* NULL: sorter_of(type, value_size, begin, bits, descending) */
} scase;

static bool run_case(const scase *c, char *msg, size_t msgsize)
{
    const size_t ks = key_size[c->type], vs = c->value_size, n = c->count;
    const size_t in_n = c->in_offset + n + 3, out_n = c->in_place ? in_n : c->out_offset + n + 5;
    const size_t out_off = c->in_place ? c->in_offset : c->out_offset;
    unsigned char *keys = malloc(in_n * ks), *vals = malloc(in_n * vs + 1), *kout0 = malloc(out_n * ks),
                  *vout0 = malloc(out_n * vs + 1), *kgot = malloc(out_n * ks), *vgot = malloc(out_n * vs + 1),
                  *kexp = malloc(out_n * ks), *vexp = malloc(out_n * vs + 1);
    ck_assert(keys && vals && kout0 && vout0 && kgot && vgot && kexp && vexp);
    tu_fill_bytes(keys, in_n * ks);
    fill_keys(c->type, c->pattern, keys + c->in_offset * ks, n);
    arrange(c->type, c->pattern, keys + c->in_offset * ks, n);
    tu_fill_bytes(vals, in_n * vs);
    if (vs == 4)
        for (size_t i = 0; i < n; i++) {
            const uint32_t p = (uint32_t)i;
            memcpy(vals + (c->in_offset + i) * 4, &p, 4);
        }
    if (c->in_place) {
        memcpy(kout0, keys, in_n * ks);
        memcpy(vout0, vals, in_n * vs);
    } else {
        tu_fill_bytes(kout0, out_n * ks);
        tu_fill_bytes(vout0, out_n * vs);
    }
    size_t *pos = reference_order_of(c->type, keys + c->in_offset * ks, n, c->begin, c->bits, c->descending);
    memcpy(kexp, kout0, out_n * ks);
    memcpy(vexp, vout0, out_n * vs);
    for (size_t i = 0; i < n; i++) {
        memcpy(kexp + (out_off + i) * ks, keys + (c->in_offset + pos[i]) * ks, ks);
        memcpy(vexp + (out_off + i) * vs, vals + (c->in_offset + pos[i]) * vs, vs);
    }
    free(pos);

    cl_mem kin = tu_buffer(tu.context, CL_MEM_READ_WRITE, in_n * ks, keys);
    cl_mem vin = vs ? tu_buffer(tu.context, CL_MEM_READ_WRITE, in_n * vs, vals) : NULL;
    cl_mem kout = c->in_place ? kin : tu_buffer(tu.context, CL_MEM_READ_WRITE, out_n * ks, kout0);
    cl_mem vout = !vs ? NULL : c->in_place ? vin : tu_buffer(tu.context, CL_MEM_READ_WRITE, out_n * vs, vout0);
    clscan_sorter *s = c->use ? c->use : sorter_of(c->type, vs, c->begin, c->bits, c->descending);
    cl_event ev = NULL;
    cl_int err = clscan_sort_enqueue(s, tu.queue, kin, c->in_offset, kout, out_off, vin, c->in_offset, vout, out_off,
                                     n, 0, NULL, &ev);
    bool ok = err == CL_SUCCESS;
    if (!ok)
        snprintf(msg, msgsize, "clscan_sort_enqueue failed: %s: %s", clscan_error_string(err), clscan_last_error());
    if (ok) {
        clWaitForEvents(1, &ev);
        clReleaseEvent(ev);
        tu_read(tu.queue, kout, out_n * ks, kgot);
        if (vs)
            tu_read(tu.queue, vout, out_n * vs, vgot);
        size_t first = out_n;
        for (size_t i = 0; i < out_n && first == out_n; i++)
            if (memcmp(kgot + i * ks, kexp + i * ks, ks) != 0 || memcmp(vgot + i * vs, vexp + i * vs, vs) != 0)
                first = i;
        if (first < out_n) {
            ok = false;
            const long long at = (long long)first - (long long)out_off;
            snprintf(msg, msgsize, "wrong result: first difference at output element %lld%s: key 0x%llx value "
                     "0x%02x..., expected key 0x%llx value 0x%02x...", at, at < 0 || at >= (long long)n ? " (a guard)" : "",
                     (unsigned long long)get_key(kgot, ks, first), vs ? vgot[first * vs] : 0,
                     (unsigned long long)get_key(kexp, ks, first), vs ? vexp[first * vs] : 0);
        }
        if (ok && !c->in_place) {   /* the input is only read */
            unsigned char *now = malloc(in_n * ks);
            ck_assert(now);
            tu_read(tu.queue, kin, in_n * ks, now);
            if (memcmp(now, keys, in_n * ks) != 0) {
                ok = false;
                snprintf(msg, msgsize, "the input keys changed");
            }
            free(now);
        }
    }
    if (!c->in_place) {
        clReleaseMemObject(kout);
        if (vout)
            clReleaseMemObject(vout);
    }
    clReleaseMemObject(kin);
    if (vin)
        clReleaseMemObject(vin);
    free(keys), free(vals), free(kout0), free(vout0), free(kgot), free(vgot), free(kexp), free(vexp);
    return ok;
}

#define CHECK_SORT(...)                                                                                    \
    do {                                                                                                   \
        scase c_ = {__VA_ARGS__};                                                                          \
        char m_[512] = "";                                                                                 \
        bool ok_ = run_case(&c_, m_, sizeof m_);                                                           \
        ck_assert_msg(ok_, "[seed %llu] %s sort of %zu %s keys (%s), values of %zu bytes, key bits %u ... %u, " \
                      "offsets %zu -> %zu%s: %s", (unsigned long long)tu_seed,                               \
                      c_.descending ? "descending" : "ascending", c_.count, tu_type_name(c_.type),          \
                      pattern_names[c_.pattern], c_.value_size, c_.begin, c_.bits, c_.in_offset,            \
                      c_.out_offset, c_.in_place ? " in place" : "", m_);                                   \
    } while (0)

/* Every pattern at counts around the blocks (4096 keys on CPUs), keys only and with positions as
 * values, for each key type. */
START_TEST(patterns_and_counts_match_a_stable_sort)
{
    const clscan_type t = key_types[_i];
    const size_t counts[] = {0, 1, 2, 4095, 4097, 1 + (size_t)tu_rand_below(20000)};
    for (int p = 0; p < NPATTERNS; p++)
        for (size_t k = 0; k < sizeof counts / sizeof *counts; k++)
            CHECK_SORT(.type = t, .value_size = (k + (size_t)p) % 2 ? 4 : 0, .pattern = p, .count = counts[k]);
}
END_TEST

/* Values of other sizes, offsets, in place (even and odd numbers of passes). */
START_TEST(values_offsets_and_in_place)
{
    const clscan_type t = key_types[_i];
    CHECK_SORT(.type = t, .value_size = 4, .pattern = DUPLICATES, .count = 9001, .in_offset = 3, .out_offset = 5);
    CHECK_SORT(.type = t, .value_size = 4, .pattern = SPECIAL, .count = 5000, .in_offset = 2, .in_place = 1);
    CHECK_SORT(.type = t, .pattern = RANDOM, .count = 4096, .in_place = 1);
    if (t == CLSCAN_UINT32) {
        CHECK_SORT(.type = t, .value_size = 12, .pattern = DUPLICATES, .count = 7777, .out_offset = 1);
        CHECK_SORT(.type = t, .value_size = 1, .pattern = RANDOM, .count = 5003, .in_offset = 1);
    }
    if (t == CLSCAN_DOUBLE)
        CHECK_SORT(.type = t, .value_size = 16, .pattern = SPECIAL, .count = 6000, .in_offset = 1, .out_offset = 2);
}
END_TEST

/* Only the low bits of unsigned keys: 1, 2 and 3 passes (the higher bits are ignored: the
 * reference sorts by the low bits only and stays stable). */
START_TEST(low_key_bits_sort_by_those_bits_only)
{
    CHECK_SORT(.type = CLSCAN_UINT32, .value_size = 4, .bits = 8, .pattern = RANDOM, .count = 10007);
    CHECK_SORT(.type = CLSCAN_UINT32, .value_size = 4, .bits = 12, .pattern = RANDOM, .count = 10007, .in_place = 1);
    CHECK_SORT(.type = CLSCAN_UINT32, .value_size = 4, .bits = 20, .pattern = RANDOM, .count = 20011, .in_place = 1);
    CHECK_SORT(.type = CLSCAN_UINT64, .value_size = 4, .bits = 40, .pattern = RANDOM, .count = 10007);
    CHECK_SORT(.type = CLSCAN_UINT64, .value_size = 0, .bits = 64, .pattern = HIGH_BITS, .count = 5000);
}
END_TEST

/* Descending: the reversed order with equal keys in input order (positions as values), every
 * pattern, around the blocks, in place and at offsets. */
START_TEST(descending_matches_a_reversed_stable_sort)
{
    const clscan_type t = key_types[_i];
    const size_t counts[] = {0, 1, 2, 4097, 1 + (size_t)tu_rand_below(20000)};
    for (int p = 0; p < NPATTERNS; p++)
        for (size_t k = 0; k < sizeof counts / sizeof *counts; k++)
            CHECK_SORT(.type = t, .value_size = (k + (size_t)p) % 2 ? 4 : 0, .descending = 1, .pattern = p,
                       .count = counts[k]);
    CHECK_SORT(.type = t, .value_size = 4, .descending = 1, .pattern = DUPLICATES, .count = 9001, .in_offset = 3,
               .out_offset = 5);
    CHECK_SORT(.type = t, .value_size = 4, .descending = 1, .pattern = SPECIAL, .count = 5000, .in_offset = 2,
               .in_place = 1);
}
END_TEST

/* The documented orders of the special values, written out: descending +NaN, +inf, ..., +0.0,
 * -0.0, ..., -inf, -NaN, and ascending the reverse; each value several times, shuffled, with its
 * input position as value (equal bits keep their input order either way). */
static void check_float_order(clscan_type t, int descending)
{
    static const uint32_t f_desc[] = {0x7fc00000u, 0x7f800000u, 0x3f800000u, 0x00000001u, 0x00000000u,
                                      0x80000000u, 0x80000001u, 0xbf800000u, 0xff800000u, 0xffc00000u};
    static const uint64_t d_desc[] = {0x7ff8000000000000u, 0x7ff0000000000000u, 0x3ff0000000000000u, 1u, 0u,
                                      0x8000000000000000u, 0x8000000000000001u, 0xbff0000000000000u,
                                      0xfff0000000000000u, 0xfff8000000000000u};
    enum { NV = 10, REPEAT = 7, N = NV * REPEAT };
    const size_t ks = key_size[t];
    unsigned char keys[N * 8], got[N * 8];
    uint32_t pos[N], gotv[N];
    for (size_t i = 0; i < N; i++)   /* value i % NV, shuffled below */
        put_key(keys, ks, i, t == CLSCAN_FLOAT ? f_desc[i % NV] : d_desc[i % NV]);
    for (size_t i = N - 1; i > 0; i--) {
        const size_t j = (size_t)tu_rand_below(i + 1);
        const uint64_t a = get_key(keys, ks, i), b = get_key(keys, ks, j);
        put_key(keys, ks, i, b);
        put_key(keys, ks, j, a);
    }
    for (uint32_t i = 0; i < N; i++)
        pos[i] = i;
    cl_mem kin = tu_buffer(tu.context, CL_MEM_READ_WRITE, N * ks, keys);
    cl_mem vin = tu_buffer(tu.context, CL_MEM_READ_WRITE, sizeof pos, pos);
    cl_mem kout = tu_buffer(tu.context, CL_MEM_READ_WRITE, N * ks, NULL);
    cl_mem vout = tu_buffer(tu.context, CL_MEM_READ_WRITE, sizeof pos, NULL);
    ck_assert_int_eq(clscan_sort_enqueue(sorter_of(t, 4, 0, 0, descending), tu.queue, kin, 0, kout, 0, vin, 0, vout,
                                         0, N, 0, NULL, NULL), CL_SUCCESS);
    tu_read(tu.queue, kout, N * ks, got);
    tu_read(tu.queue, vout, sizeof gotv, gotv);
    for (size_t i = 0; i < N; i++) {
        const size_t rank = descending ? i / REPEAT : NV - 1 - i / REPEAT;
        const uint64_t want = t == CLSCAN_FLOAT ? f_desc[rank] : d_desc[rank];
        ck_assert_msg(get_key(got, ks, i) == want, "[seed %llu] %s %s: output %zu is 0x%llx, expected 0x%llx",
                      (unsigned long long)tu_seed, tu_type_name(t), descending ? "descending" : "ascending", i,
                      (unsigned long long)get_key(got, ks, i), (unsigned long long)want);
        ck_assert_msg(get_key(keys, ks, gotv[i]) == want && (i % REPEAT == 0 || gotv[i] > gotv[i - 1]),
                      "[seed %llu] %s: output %zu carries value %u: not stable", (unsigned long long)tu_seed,
                      tu_type_name(t), i, (unsigned)gotv[i]);
    }
    clReleaseMemObject(kin), clReleaseMemObject(vin), clReleaseMemObject(kout), clReleaseMemObject(vout);
}

START_TEST(descending_floats_in_reversed_total_order)
{
    check_float_order(CLSCAN_FLOAT, 1);
    check_float_order(CLSCAN_FLOAT, 0);
    check_float_order(CLSCAN_DOUBLE, 1);
    check_float_order(CLSCAN_DOUBLE, 0);
}
END_TEST

/* Bit ranges [begin, end) of unsigned keys whose other bits are random: sorted by the range only,
 * stably; 1 to 4 passes, a range within one byte, across bytes, the top bit alone; descending. */
START_TEST(key_ranges_sort_by_those_bits_only)
{
    CHECK_SORT(.type = CLSCAN_UINT32, .value_size = 4, .begin = 4, .bits = 12, .pattern = RANDOM, .count = 10007);
    CHECK_SORT(.type = CLSCAN_UINT32, .value_size = 4, .begin = 8, .bits = 16, .pattern = RANDOM, .count = 9001,
               .in_place = 1);
    CHECK_SORT(.type = CLSCAN_UINT32, .value_size = 4, .begin = 31, .bits = 32, .pattern = RANDOM, .count = 5001);
    CHECK_SORT(.type = CLSCAN_UINT32, .value_size = 4, .begin = 3, .bits = 29, .pattern = RANDOM, .count = 20011,
               .in_place = 1);
    CHECK_SORT(.type = CLSCAN_UINT32, .value_size = 4, .begin = 4, .bits = 12, .descending = 1, .pattern = RANDOM,
               .count = 10007);
    CHECK_SORT(.type = CLSCAN_UINT64, .value_size = 4, .begin = 20, .bits = 37, .pattern = RANDOM, .count = 10007);
    CHECK_SORT(.type = CLSCAN_UINT64, .value_size = 0, .begin = 56, .bits = 64, .pattern = HIGH_BITS, .count = 5000);
    CHECK_SORT(.type = CLSCAN_UINT64, .value_size = 4, .begin = 1, .bits = 64, .descending = 1, .pattern = RANDOM,
               .count = 4099);
    CHECK_SORT(.type = CLSCAN_UINT8, .value_size = 4, .begin = 1, .bits = 8, .pattern = RANDOM, .count = 9001);
    CHECK_SORT(.type = CLSCAN_UINT8, .value_size = 4, .begin = 3, .bits = 5, .descending = 1, .pattern = RANDOM,
               .count = 9001, .in_place = 1);
    CHECK_SORT(.type = CLSCAN_UINT8, .value_size = 4, .bits = 3, .pattern = RANDOM, .count = 4097);
    CHECK_SORT(.type = CLSCAN_UINT16, .value_size = 4, .begin = 4, .bits = 16, .descending = 1, .pattern = RANDOM,
               .count = 10007);
    CHECK_SORT(.type = CLSCAN_UINT16, .value_size = 4, .bits = 9, .pattern = RANDOM, .count = 10007, .in_place = 1);
    CHECK_SORT(.type = CLSCAN_UINT16, .value_size = 0, .begin = 7, .bits = 8, .pattern = RANDOM, .count = 3);
}
END_TEST

/* One sorter whose settings change between sorts (and survive rejected settings). */
START_TEST(settings_change_between_sorts)
{
    cl_int err;
    clscan_sorter *s = clscan_sorter_create(tu.context, tu.device, CLSCAN_UINT16, 4, &err);
    ck_assert_msg(s, "clscan_sorter_create: %s", clscan_last_error());
    CHECK_SORT(.type = CLSCAN_UINT16, .value_size = 4, .pattern = DUPLICATES, .count = 5003, .use = s);
    ck_assert_int_eq(clscan_sorter_set_descending(s, 7), CL_SUCCESS);
    CHECK_SORT(.type = CLSCAN_UINT16, .value_size = 4, .descending = 1, .pattern = RANDOM, .count = 5003, .use = s);
    ck_assert_int_eq(clscan_sorter_set_key_range(s, 4, 12), CL_SUCCESS);
    CHECK_SORT(.type = CLSCAN_UINT16, .value_size = 4, .begin = 4, .bits = 12, .descending = 1, .pattern = RANDOM,
               .count = 5003, .use = s);
    tu_expect_status(clscan_sorter_set_key_range(s, 12, 4), CLSCAN_INVALID_KEY_BITS, "range [12, 4)");
    tu_expect_status(clscan_sorter_set_key_bits(s, 17), CLSCAN_INVALID_KEY_BITS, "17 bits of uint16");
    CHECK_SORT(.type = CLSCAN_UINT16, .value_size = 4, .begin = 4, .bits = 12, .descending = 1, .pattern = RANDOM,
               .count = 5003, .use = s);
    ck_assert_int_eq(clscan_sorter_set_descending(s, 0), CL_SUCCESS);
    CHECK_SORT(.type = CLSCAN_UINT16, .value_size = 4, .begin = 4, .bits = 12, .pattern = RANDOM, .count = 5003,
               .use = s);
    ck_assert_int_eq(clscan_sorter_set_key_range(s, 0, 12), CL_SUCCESS);   /* = set_key_bits(12) */
    CHECK_SORT(.type = CLSCAN_UINT16, .value_size = 4, .bits = 12, .pattern = RANDOM, .count = 5003, .use = s);
    ck_assert_int_eq(clscan_sorter_set_key_bits(s, 0), CL_SUCCESS);
    CHECK_SORT(.type = CLSCAN_UINT16, .value_size = 4, .pattern = RANDOM, .count = 5003, .use = s);
    clscan_sorter_release(s);
}
END_TEST

/* ---- Segmented sorts ---------------------------------------------------------------------- */

/* Segment lengths: SMALL 0 ... 40 (a quarter empty), MIXED up to 1000 with some of several
 * chunks (5000 ... 9000), HUGE one segment of 20000 between empty ones, LONG every third of
 * 70000 ... 90000 (past the CPUs' limit of the one-work-group kernel: the passes over the whole
 * array) between segments of 0 ... 40. */
enum seg_shape { SEG_SMALL, SEG_MIXED, SEG_HUGE, SEG_LONG };
static const char *const seg_shape_names[] = {"small", "mixed", "huge", "long"};

typedef struct gcase {
    clscan_type type;
    size_t value_size;            /* 0 or 4 (positions) */
    unsigned begin, bits;
    int descending;
    enum pattern pattern;
    size_t nsegments;
    enum seg_shape shape;
    int wide;                     /* 8-byte offsets */
    int in_place;
    int broken;                   /* offsets that break the rules (1 or 2): only the guards are checked */
    clscan_sorter *use;
} gcase;

static bool run_seg_case(const gcase *c, char *msg, size_t msgsize)
{
    const size_t ks = key_size[c->type], vs = c->value_size, ns = c->nsegments, off = 3;
    uint64_t *offs = malloc((ns + 1) * sizeof *offs);
    ck_assert(offs);
    offs[0] = 0;
    for (size_t i = 0; i < ns; i++) {
        size_t len;
        if (c->shape == SEG_SMALL)
            len = tu_rand_below(4) == 0 ? 0 : (size_t)tu_rand_below(41);
        else if (c->shape == SEG_MIXED)
            len = tu_rand_below(8) == 0 ? 5000 + (size_t)tu_rand_below(4001) : (size_t)tu_rand_below(1001);
        else if (c->shape == SEG_LONG)
            len = i % 3 == 1 ? 70000 + (size_t)tu_rand_below(20001) : (size_t)tu_rand_below(41);
        else
            len = i == ns / 2 ? 20000 : 0;
        offs[i + 1] = offs[i] + len;
    }
    const size_t n = (size_t)offs[ns], total = n + off + 2;
    unsigned char *keys = malloc(total * ks + 1), *vals = malloc(total * vs + 1), *kexp = malloc(total * ks + 1),
                  *vexp = malloc(total * vs + 1), *kgot = malloc(total * ks + 1), *vgot = malloc(total * vs + 1),
                  *obytes = malloc((ns + 2) * 8);   /* element 0 a guard: the offsets from element 1 */
    ck_assert(keys && vals && kexp && vexp && kgot && vgot && obytes);
    tu_fill_bytes(keys, total * ks);
    fill_keys(c->type, c->pattern, keys + off * ks, n);
    tu_fill_bytes(vals, total * vs);
    for (size_t i = 0; vs == 4 && i < n; i++) {
        const uint32_t p = (uint32_t)i;
        memcpy(vals + (off + i) * 4, &p, 4);
    }
    unsigned char *kout0 = malloc(total * ks + 1), *vout0 = malloc(total * vs + 1);
    ck_assert(kout0 && vout0);
    if (c->in_place) {
        memcpy(kout0, keys, total * ks);
        memcpy(vout0, vals, total * vs);
    } else {
        tu_fill_bytes(kout0, total * ks);
        tu_fill_bytes(vout0, total * vs);
    }
    memcpy(kexp, kout0, total * ks);
    memcpy(vexp, vout0, total * vs);
    for (size_t sg = 0; sg < ns && !c->broken; sg++) {
        const size_t a = (size_t)offs[sg], len = (size_t)(offs[sg + 1] - offs[sg]);
        size_t *pos = reference_order_of(c->type, keys + (off + a) * ks, len, c->begin, c->bits, c->descending);
        for (size_t i = 0; i < len; i++) {
            memcpy(kexp + (off + a + i) * ks, keys + (off + a + pos[i]) * ks, ks);
            memcpy(vexp + (off + a + i) * vs, vals + (off + a + pos[i]) * vs, vs);
        }
        free(pos);
    }
    if (c->broken == 1)   /* decreasing, and past count */
        for (size_t i = 1; i <= ns; i++)
            offs[i] = i % 3 == 0 ? offs[i] / 2 : i % 3 == 1 ? offs[i] + 1000 : offs[i];
    if (c->broken == 2)   /* every other segment all the keys: more blocks than the passes have */
        for (size_t i = 1; i < ns; i++)
            offs[i] = i % 2 ? n : 0;
    tu_fill_bytes(obytes, (ns + 2) * 8);
    for (size_t i = 0; i <= ns; i++) {
        if (c->wide)
            memcpy(obytes + 8 * (i + 1), &offs[i], 8);
        else {
            const uint32_t o = (uint32_t)offs[i];
            memcpy(obytes + 4 * (i + 1), &o, 4);
        }
    }
    cl_mem kin = tu_buffer(tu.context, CL_MEM_READ_WRITE, total * ks, keys);
    cl_mem vin = vs ? tu_buffer(tu.context, CL_MEM_READ_WRITE, total * vs, vals) : NULL;
    cl_mem kout = c->in_place ? kin : tu_buffer(tu.context, CL_MEM_READ_WRITE, total * ks, kout0);
    cl_mem vout = !vs ? NULL : c->in_place ? vin : tu_buffer(tu.context, CL_MEM_READ_WRITE, total * vs, vout0);
    cl_mem ob = tu_buffer(tu.context, CL_MEM_READ_ONLY, (ns + 2) * (c->wide ? 8 : 4), obytes);
    clscan_sorter *s = c->use ? c->use : sorter_of(c->type, vs, c->begin, c->bits, c->descending);
    cl_event ev = NULL;
    cl_int err = clscan_segmented_sort_enqueue(s, tu.queue, kin, off, kout, off, vin, off, vout, off, n,
                                               c->wide ? CLSCAN_UINT64 : CLSCAN_UINT32, ob, 1, ns, 0, NULL, &ev);
    bool ok = err == CL_SUCCESS;
    if (!ok)
        snprintf(msg, msgsize, "clscan_segmented_sort_enqueue failed: %s: %s", clscan_error_string(err),
                 clscan_last_error());
    if (ok) {
        clWaitForEvents(1, &ev);
        clReleaseEvent(ev);
        tu_read(tu.queue, kout, total * ks, kgot);
        if (vs)
            tu_read(tu.queue, vout, total * vs, vgot);
        for (size_t i = 0; i < total && ok; i++) {
            const bool guard = i < off || i >= off + n;
            if ((guard || !c->broken) &&
                (memcmp(kgot + i * ks, kexp + i * ks, ks) != 0 || memcmp(vgot + i * vs, vexp + i * vs, vs) != 0)) {
                ok = false;
                snprintf(msg, msgsize, "wrong result at element %lld%s: key 0x%llx, expected 0x%llx",
                         (long long)i - (long long)off, guard ? " (a guard)" : "",
                         (unsigned long long)get_key(kgot, ks, i), (unsigned long long)get_key(kexp, ks, i));
            }
        }
    }
    clReleaseMemObject(ob);
    if (!c->in_place) {
        clReleaseMemObject(kout);
        if (vout)
            clReleaseMemObject(vout);
    }
    clReleaseMemObject(kin);
    if (vin)
        clReleaseMemObject(vin);
    free(offs), free(keys), free(vals), free(kexp), free(vexp), free(kgot), free(vgot), free(obytes);
    free(kout0), free(vout0);
    return ok;
}

#define CHECK_SEG(...)                                                                                     \
    do {                                                                                                   \
        gcase g_ = {__VA_ARGS__};                                                                          \
        char m_[512] = "";                                                                                 \
        bool ok_ = run_seg_case(&g_, m_, sizeof m_);                                                       \
        ck_assert_msg(ok_, "[seed %llu] %s segmented sort of %zu %s segments of %s keys (%s), values of %zu " \
                      "bytes, key bits %u ... %u, %s offsets%s%s: %s", (unsigned long long)tu_seed,         \
                      g_.descending ? "descending" : "ascending", g_.nsegments,                            \
                      seg_shape_names[g_.shape], tu_type_name(g_.type), pattern_names[g_.pattern],           \
                      g_.value_size, g_.begin, g_.bits,                                                     \
                      g_.wide ? "64-bit" : "32-bit", g_.in_place ? ", in place" : "",                        \
                      g_.broken ? ", broken offsets" : "", m_);                                              \
    } while (0)

/* Every key type over small and mixed segments, both offset widths; descending, ranges, in
 * place; empty calls. */
START_TEST(segments_match_stable_sorts_of_each)
{
    const clscan_type t = key_types[_i];
    const int wide = (int)tu_rand_below(2);
    CHECK_SEG(.type = t, .value_size = 4, .pattern = DUPLICATES, .nsegments = 2000, .shape = SEG_SMALL, .wide = wide);
    CHECK_SEG(.type = t, .pattern = t == CLSCAN_FLOAT || t == CLSCAN_DOUBLE ? SPECIAL : RANDOM, .nsegments = 40,
              .shape = SEG_MIXED, .wide = !wide);
    CHECK_SEG(.type = t, .value_size = 4, .descending = 1, .pattern = SPECIAL, .nsegments = 30, .shape = SEG_MIXED,
              .in_place = 1);
    CHECK_SEG(.type = t, .value_size = 4, .pattern = RANDOM, .nsegments = 1, .shape = SEG_SMALL);
    CHECK_SEG(.type = t, .value_size = 4, .pattern = RANDOM, .nsegments = 0, .shape = SEG_SMALL);
}
END_TEST

START_TEST(segments_with_ranges_and_huge_segments)
{
    CHECK_SEG(.type = CLSCAN_UINT32, .value_size = 4, .begin = 4, .bits = 12, .pattern = RANDOM, .nsegments = 500,
              .shape = SEG_SMALL);
    CHECK_SEG(.type = CLSCAN_UINT64, .value_size = 4, .begin = 20, .bits = 37, .descending = 1, .pattern = RANDOM,
              .nsegments = 20, .shape = SEG_MIXED, .wide = 1);
    CHECK_SEG(.type = CLSCAN_UINT8, .value_size = 4, .begin = 3, .bits = 5, .pattern = RANDOM, .nsegments = 300,
              .shape = SEG_SMALL, .in_place = 1);
    CHECK_SEG(.type = CLSCAN_UINT16, .value_size = 4, .pattern = DUPLICATES, .nsegments = 5, .shape = SEG_HUGE);
    CHECK_SEG(.type = CLSCAN_INT32, .value_size = 4, .descending = 1, .pattern = RANDOM, .nsegments = 7,
              .shape = SEG_HUGE, .in_place = 1);
    /* Long segments among short ones: both kernels in one call (1, 4 and 8 passes). */
    CHECK_SEG(.type = CLSCAN_UINT32, .value_size = 4, .pattern = RANDOM, .nsegments = 7, .shape = SEG_LONG);
    CHECK_SEG(.type = CLSCAN_UINT8, .value_size = 4, .begin = 3, .bits = 5, .pattern = DUPLICATES, .nsegments = 6,
              .shape = SEG_LONG, .in_place = 1);
    CHECK_SEG(.type = CLSCAN_INT64, .descending = 1, .pattern = RANDOM, .nsegments = 5, .shape = SEG_LONG,
              .wide = 1, .in_place = 1);
    /* 30000 segments of 0 ... 40 keys */
    CHECK_SEG(.type = CLSCAN_FLOAT, .value_size = 4, .pattern = SPECIAL, .nsegments = 30000, .shape = SEG_SMALL);
    /* Offsets that break the rules: the call stays within its ranges. */
    CHECK_SEG(.type = CLSCAN_UINT32, .value_size = 4, .pattern = RANDOM, .nsegments = 300, .shape = SEG_SMALL,
              .broken = 1);
    CHECK_SEG(.type = CLSCAN_INT16, .pattern = RANDOM, .nsegments = 30, .shape = SEG_MIXED, .wide = 1, .broken = 1);
    CHECK_SEG(.type = CLSCAN_UINT32, .value_size = 4, .pattern = RANDOM, .nsegments = 7, .shape = SEG_LONG,
              .broken = 1);
    CHECK_SEG(.type = CLSCAN_UINT32, .value_size = 4, .pattern = RANDOM, .nsegments = 9, .shape = SEG_LONG,
              .broken = 2);
}
END_TEST

/* The GPUs' segmented kernel (64 work-items x 8 keys per chunk; segments of 33 ... 4096 keys, 2048
 * of 8-byte keys, in a bitonic sort in local memory; longer ones by the passes over the whole
 * array, 256 x 16 keys per block) on the CPU. */
START_TEST(segments_with_the_gpu_tuning)
{
    setenv("CLSCAN_DEVELOP", "policy=gpu", 1);
    cl_int err;
    clscan_sorter *f = clscan_sorter_create(tu.context, tu.device, CLSCAN_UINT32, 4, &err);
    clscan_sorter *h = clscan_sorter_create(tu.context, tu.device, CLSCAN_INT16, 0, &err);
    clscan_sorter *d = clscan_sorter_create(tu.context, tu.device, CLSCAN_DOUBLE, 4, &err);
    clscan_sorter *b = clscan_sorter_create(tu.context, tu.device, CLSCAN_UINT8, 0, &err);
    unsetenv("CLSCAN_DEVELOP");
    ck_assert_msg(f && h && d && b, "clscan_sorter_create: %s", clscan_last_error());
    ck_assert_int_eq(clscan_sorter_set_descending(h, 1), CL_SUCCESS);
    ck_assert_int_eq(clscan_sorter_set_descending(d, 1), CL_SUCCESS);
    ck_assert_int_eq(clscan_sorter_set_key_range(b, 3, 8), CL_SUCCESS);
    CHECK_SEG(.type = CLSCAN_UINT32, .value_size = 4, .pattern = DUPLICATES, .nsegments = 300, .shape = SEG_SMALL,
              .use = f);
    CHECK_SEG(.type = CLSCAN_UINT32, .value_size = 4, .pattern = RANDOM, .nsegments = 12, .shape = SEG_MIXED,
              .wide = 1, .use = f, .in_place = 1);
    CHECK_SEG(.type = CLSCAN_INT16, .descending = 1, .pattern = RANDOM, .nsegments = 12, .shape = SEG_MIXED,
              .use = h);
    CHECK_SEG(.type = CLSCAN_DOUBLE, .value_size = 4, .descending = 1, .pattern = SPECIAL, .nsegments = 12,
              .shape = SEG_MIXED, .use = d, .in_place = 1);
    CHECK_SEG(.type = CLSCAN_UINT8, .begin = 3, .bits = 8, .pattern = DUPLICATES, .nsegments = 12, .shape = SEG_MIXED,
              .use = b);
    CHECK_SEG(.type = CLSCAN_UINT32, .value_size = 4, .pattern = RANDOM, .nsegments = 5, .shape = SEG_LONG, .use = f);
    CHECK_SEG(.type = CLSCAN_INT16, .descending = 1, .pattern = DUPLICATES, .nsegments = 4, .shape = SEG_LONG,
              .use = h, .wide = 1);
    CHECK_SEG(.type = CLSCAN_UINT32, .value_size = 4, .pattern = RANDOM, .nsegments = 40, .shape = SEG_MIXED,
              .use = f, .broken = 1);
    CHECK_SEG(.type = CLSCAN_UINT32, .value_size = 4, .pattern = RANDOM, .nsegments = 300, .shape = SEG_MIXED,
              .use = f, .broken = 2);
    clscan_sorter_release(f);
    clscan_sorter_release(h);
    clscan_sorter_release(d);
    clscan_sorter_release(b);
}
END_TEST

/* Rejected segmented sorts: the status, and every buffer as it was. */
START_TEST(rejected_segmented_sorts_leave_the_buffers_untouched)
{
    enum { N = 64, NS = 4 };
    clscan_sorter *s = sorter(CLSCAN_UINT32, 4, 0), *k = sorter(CLSCAN_UINT32, 0, 0);
    unsigned char init[6][N * 4];
    for (int i = 0; i < 6; i++)
        tu_fill_bytes(init[i], sizeof init[i]);
    const uint32_t offs[NS + 1] = {0, 10, 10, 40, N};
    memcpy(init[5], offs, sizeof offs);
    cl_mem kin = tu_buffer(tu.context, CL_MEM_READ_WRITE, N * 4, init[0]);
    cl_mem kout = tu_buffer(tu.context, CL_MEM_READ_WRITE, N * 4, init[1]);
    cl_mem vin = tu_buffer(tu.context, CL_MEM_READ_WRITE, N * 4, init[2]);
    cl_mem vout = tu_buffer(tu.context, CL_MEM_READ_WRITE, N * 4, init[3]);
    cl_mem big = tu_buffer(tu.context, CL_MEM_READ_WRITE, N * 4, init[4]);
    cl_mem ob = tu_buffer(tu.context, CL_MEM_READ_ONLY, N * 4, init[5]);
#define SEG_CALL(so, ko, vo, cnt, ot, o, oo, ns) \
    clscan_segmented_sort_enqueue(so, tu.queue, kin, 0, ko, 0, vin, 0, vo, 0, cnt, ot, o, oo, ns, 0, NULL, NULL)
    tu_expect_status(SEG_CALL(NULL, kout, vout, N, CLSCAN_UINT32, ob, 0, NS), CLSCAN_INVALID_HANDLE, "NULL sorter");
    tu_expect_status(SEG_CALL(s, kout, vout, N, CLSCAN_INT32, ob, 0, NS), CLSCAN_INVALID_TYPE, "offsets int32");
    tu_expect_status(SEG_CALL(s, kout, vout, N, CLSCAN_UINT16, ob, 0, NS), CLSCAN_INVALID_TYPE, "offsets uint16");
    tu_expect_status(SEG_CALL(s, kout, vout, N, CLSCAN_UINT32, ob, 0, 0), CL_INVALID_VALUE, "keys in no segments");
    tu_expect_status(SEG_CALL(s, kout, vout, N, CLSCAN_UINT32, NULL, 0, NS), CL_INVALID_MEM_OBJECT, "NULL offsets");
    tu_expect_status(SEG_CALL(s, kout, vout, N, CLSCAN_UINT32, ob, N - NS, NS), CLSCAN_RANGE_OUT_OF_BOUNDS,
                     "offsets past their buffer");
    tu_expect_status(SEG_CALL(s, kout, vout, N, CLSCAN_UINT64, ob, N / 2 - NS, NS), CLSCAN_RANGE_OUT_OF_BOUNDS,
                     "64-bit offsets past their buffer");
    tu_expect_status(SEG_CALL(s, kout, vout, N, CLSCAN_UINT32, ob, 0, SIZE_MAX), CLSCAN_RANGE_OUT_OF_BOUNDS,
                     "nsegments SIZE_MAX");
    tu_expect_status(SEG_CALL(s, kout, vout, N, CLSCAN_UINT32, kout, 0, NS), CL_MEM_COPY_OVERLAP,
                     "offsets in keys_out");
    tu_expect_status(SEG_CALL(s, kout, vout, N, CLSCAN_UINT32, vout, 0, NS), CL_MEM_COPY_OVERLAP,
                     "offsets in values_out");
    tu_expect_status(SEG_CALL(s, kout, vout, N + 1, CLSCAN_UINT32, ob, 0, NS), CLSCAN_RANGE_OUT_OF_BOUNDS,
                     "keys past their buffer");
    tu_expect_status(SEG_CALL(k, kout, vout, N, CLSCAN_UINT32, ob, 0, NS), CL_INVALID_MEM_OBJECT,
                     "values for a keys-only sorter");
    tu_expect_status(SEG_CALL(s, kout, kout, N, CLSCAN_UINT32, ob, 0, NS), CL_MEM_COPY_OVERLAP,
                     "values_out is keys_out");
    tu_expect_status(clscan_segmented_sort_enqueue(s, NULL, kin, 0, kout, 0, vin, 0, vout, 0, N, CLSCAN_UINT32, ob, 0,
                                                   NS, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE, "NULL queue");
    tu_expect_status(clscan_segmented_sort_enqueue(s, tu.queue, kin, 0, kout, 0, vin, 0, vout, 0, N, CLSCAN_UINT32,
                                                   ob, 0, NS, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST,
                     "1 event, NULL list");
    /* count 0: nothing but a marker, whatever the offsets (none are read) */
    cl_event ev = NULL;
    ck_assert_int_eq(clscan_segmented_sort_enqueue(s, tu.queue, kin, 0, kout, 0, vin, 0, vout, 0, 0, CLSCAN_UINT32,
                                                   NULL, 0, 0, 0, NULL, &ev), CL_SUCCESS);
    ck_assert_int_eq(clWaitForEvents(1, &ev), CL_SUCCESS);
    clReleaseEvent(ev);
#undef SEG_CALL
    clFinish(tu.queue);
    cl_mem bufs[6] = {kin, kout, vin, vout, big, ob};
    for (int i = 0; i < 6; i++) {
        unsigned char now[N * 4];
        tu_read(tu.queue, bufs[i], N * 4, now);
        ck_assert_msg(memcmp(now, init[i], N * 4) == 0, "buffer %d changed by a rejected call", i);
        clReleaseMemObject(bufs[i]);
    }
}
END_TEST

/* Millions: uint32 keys with positions, float special values; int8 and uint16 descending. */
START_TEST(millions_of_keys_match_a_stable_sort)
{
    CHECK_SORT(.type = CLSCAN_UINT32, .value_size = 4, .pattern = RANDOM, .count = 3000017);
    CHECK_SORT(.type = CLSCAN_FLOAT, .pattern = SPECIAL, .count = 1000003);
    CHECK_SORT(.type = CLSCAN_INT8, .value_size = 4, .descending = 1, .pattern = RANDOM, .count = 2000003);
    CHECK_SORT(.type = CLSCAN_UINT16, .value_size = 4, .descending = 1, .pattern = DUPLICATES, .count = 1500007);
}
END_TEST

/* The GPUs' kernels (256 work-items ranking by warps), here on the CPU (a developer switch). */
START_TEST(gpu_tuning_matches_a_stable_sort)
{
    setenv("CLSCAN_DEVELOP", "policy=gpu", 1);
    cl_int err;
    clscan_sorter *f = clscan_sorter_create(tu.context, tu.device, CLSCAN_FLOAT, 4, &err);
    clscan_sorter *g = clscan_sorter_create(tu.context, tu.device, CLSCAN_INT64, 0, &err);
    clscan_sorter *h = clscan_sorter_create(tu.context, tu.device, CLSCAN_INT16, 4, &err);
    clscan_sorter *u = clscan_sorter_create(tu.context, tu.device, CLSCAN_UINT8, 0, &err);
    unsetenv("CLSCAN_DEVELOP");
    ck_assert_msg(f && g && h && u, "clscan_sorter_create: %s", clscan_last_error());
    ck_assert_int_eq(clscan_sorter_set_descending(h, 1), CL_SUCCESS);
    const size_t counts[] = {1, 2047, 2049, 100003};
    for (size_t k = 0; k < 4; k++) {
        CHECK_SORT(.type = CLSCAN_FLOAT, .value_size = 4, .pattern = SPECIAL, .count = counts[k], .use = f);
        CHECK_SORT(.type = CLSCAN_INT64, .pattern = k % 2 ? SPECIAL : RANDOM, .count = counts[k], .use = g,
                   .in_place = k == 3);
        CHECK_SORT(.type = CLSCAN_INT16, .value_size = 4, .descending = 1, .pattern = DUPLICATES, .count = counts[k],
                   .use = h);
        CHECK_SORT(.type = CLSCAN_UINT8, .pattern = RANDOM, .count = counts[k], .use = u, .in_place = k == 2);
    }
    clscan_sorter_release(f);
    clscan_sorter_release(g);
    clscan_sorter_release(h);
    clscan_sorter_release(u);
}
END_TEST

/* Other blocks of the GPUs' kernels through the developer switch (doc/hacking.md): 256 x 2 keys,
 * so that small counts cross many blocks; malformed values refused. */
START_TEST(developer_blocks_match_a_stable_sort)
{
    cl_int err, bad_err[2];
    setenv("CLSCAN_DEVELOP", "policy=gpu;radix_items=2", 1);
    clscan_sorter *p = clscan_sorter_create(tu.context, tu.device, CLSCAN_UINT32, 4, &err);
    clscan_sorter *u = clscan_sorter_create(tu.context, tu.device, CLSCAN_UINT8, 0, &err);
    const char *const bad[] = {"radix_items=0", "radix_items=33"};
    for (int i = 0; i < 2; i++) {
        setenv("CLSCAN_DEVELOP", bad[i], 1);
        clscan_sorter *b = clscan_sorter_create(tu.context, tu.device, CLSCAN_UINT32, 0, &bad_err[i]);
        ck_assert_msg(!b && bad_err[i] == CL_INVALID_VALUE, "%s gave %s", bad[i], clscan_error_string(bad_err[i]));
    }
    unsetenv("CLSCAN_DEVELOP");
    ck_assert_msg(p && u, "clscan_sorter_create: %s", clscan_last_error());
    const size_t counts[] = {1, 511, 513, 100003};
    for (size_t k = 0; k < 4; k++) {
        CHECK_SORT(.type = CLSCAN_UINT32, .value_size = 4, .pattern = DUPLICATES, .count = counts[k], .use = p);
        CHECK_SORT(.type = CLSCAN_UINT8, .pattern = RANDOM, .count = counts[k], .use = u, .in_place = k == 2);
    }
    clscan_sorter_release(p);
    clscan_sorter_release(u);
}
END_TEST

/* An out-of-order queue and a user event in the wait list: nothing runs before the event
 * completes, and two sorts on one sorter (sharing its scratch) follow each other. */
START_TEST(out_of_order_queue_and_wait_list)
{
    cl_int err;
    cl_command_queue ooo = clCreateCommandQueue(tu.context, tu.device, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
    if (!ooo)   /* not every device offers out-of-order queues */
        return;
    enum { N = 50000 };
    uint32_t *k1 = malloc(N * 4), *k2 = malloc(N * 4), *got = malloc(N * 4), *e1 = malloc(N * 4), *e2 = malloc(N * 4);
    ck_assert(k1 && k2 && got && e1 && e2);
    for (size_t i = 0; i < N; i++) {
        k1[i] = e1[i] = (uint32_t)tu_rand();
        k2[i] = e2[i] = (uint32_t)tu_rand_below(1000);
    }
    cmp_type = CLSCAN_UINT32;
    cmp_mask = ~(uint64_t)0;
    size_t *pos1 = reference_order(CLSCAN_UINT32, (unsigned char *)k1, N, 0);
    size_t *pos2 = reference_order(CLSCAN_UINT32, (unsigned char *)k2, N, 0);
    for (size_t i = 0; i < N; i++) {
        e1[i] = k1[pos1[i]];
        e2[i] = k2[pos2[i]];
    }
    free(pos1);
    free(pos2);
    cl_mem in1 = tu_buffer(tu.context, CL_MEM_READ_WRITE, N * 4, k1), in2 = tu_buffer(tu.context, CL_MEM_READ_WRITE, N * 4, k2);
    cl_mem out1 = tu_buffer(tu.context, CL_MEM_READ_WRITE, N * 4, NULL), out2 = tu_buffer(tu.context, CL_MEM_READ_WRITE, N * 4, NULL);
    cl_event gate = clCreateUserEvent(tu.context, &err), d1 = NULL, d2 = NULL;
    clscan_sorter *s = sorter(CLSCAN_UINT32, 0, 0);
    ck_assert_int_eq(clscan_sort_enqueue(s, ooo, in1, 0, out1, 0, NULL, 0, NULL, 0, N, 1, &gate, &d1), CL_SUCCESS);
    ck_assert_int_eq(clscan_sort_enqueue(s, ooo, in2, 0, out2, 0, NULL, 0, NULL, 0, N, 0, NULL, &d2), CL_SUCCESS);
    clFlush(ooo);
    cl_int st1 = CL_COMPLETE;
    clGetEventInfo(d1, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st1, &st1, NULL);
    clSetUserEventStatus(gate, CL_COMPLETE);
    clWaitForEvents(1, &d2);
    clWaitForEvents(1, &d1);
    ck_assert_msg(st1 != CL_COMPLETE, "the sort completed before its wait list");
    tu_read(tu.queue, out1, N * 4, got);
    ck_assert_msg(memcmp(got, e1, N * 4) == 0, "[seed %llu] first sort on the out-of-order queue is wrong",
                  (unsigned long long)tu_seed);
    tu_read(tu.queue, out2, N * 4, got);
    ck_assert_msg(memcmp(got, e2, N * 4) == 0, "[seed %llu] second sort on the out-of-order queue is wrong",
                  (unsigned long long)tu_seed);
    clReleaseEvent(gate), clReleaseEvent(d1), clReleaseEvent(d2);
    clReleaseMemObject(in1), clReleaseMemObject(in2), clReleaseMemObject(out1), clReleaseMemObject(out2);
    clReleaseCommandQueue(ooo);
    free(k1), free(k2), free(got), free(e1), free(e2);
}
END_TEST

/* Two threads share one sorter, each with its own queue: the sorter orders their calls (they
 * share its scratch), and every result is right. */
typedef struct worker {
    clscan_sorter *sorter;
    cl_command_queue queue;
    uint32_t salt;
    int wrong, failed;
} worker;

static void *sort_many(void *arg)
{
    worker *w = arg;
    enum { N = 20000, ROUNDS = 8 };
    uint32_t *keys = malloc(N * 4), *vals = malloc(N * 4), *got = malloc(N * 4), *gotv = malloc(N * 4);
    cl_int err;
    cl_mem kin = clCreateBuffer(tu.context, CL_MEM_READ_WRITE, N * 4, NULL, &err);
    cl_mem vin = clCreateBuffer(tu.context, CL_MEM_READ_WRITE, N * 4, NULL, &err);
    cl_mem kout = clCreateBuffer(tu.context, CL_MEM_READ_WRITE, N * 4, NULL, &err);
    cl_mem vout = clCreateBuffer(tu.context, CL_MEM_READ_WRITE, N * 4, NULL, &err);
    if (!keys || !vals || !got || !gotv || !kin || !vin || !kout || !vout) {
        w->failed = 1;
    }
    for (int r = 0; r < ROUNDS && !w->failed; r++) {
        /* keys: a permutation of 0 .. N-1 scrambled by the round and the thread; values: keys + salt */
        for (uint32_t i = 0; i < N; i++) {
            keys[i] = (uint32_t)(((uint64_t)i * 7919u + (uint64_t)r * 104729u + w->salt) % N);
            vals[i] = keys[i] + w->salt;
        }
        clEnqueueWriteBuffer(w->queue, kin, CL_TRUE, 0, N * 4, keys, 0, NULL, NULL);
        clEnqueueWriteBuffer(w->queue, vin, CL_TRUE, 0, N * 4, vals, 0, NULL, NULL);
        cl_event done = NULL;
        if (clscan_sort_enqueue(w->sorter, w->queue, kin, 0, kout, 0, vin, 0, vout, 0, N, 0, NULL, &done) != CL_SUCCESS) {
            w->failed = 1;
            break;
        }
        clEnqueueReadBuffer(w->queue, kout, CL_TRUE, 0, N * 4, got, 1, &done, NULL);
        clEnqueueReadBuffer(w->queue, vout, CL_TRUE, 0, N * 4, gotv, 0, NULL, NULL);
        clReleaseEvent(done);
        for (uint32_t i = 0; i < N; i++)
            w->wrong += got[i] != i || gotv[i] != i + w->salt;
    }
    cl_mem m[] = {kin, vin, kout, vout};
    for (int i = 0; i < 4; i++)
        if (m[i])
            clReleaseMemObject(m[i]);
    free(keys), free(vals), free(got), free(gotv);
    return NULL;
}

START_TEST(two_threads_share_one_sorter)
{
    clscan_sorter *s = sorter(CLSCAN_UINT32, 4, 0);
    worker w[2];
    pthread_t t[2];
    for (int i = 0; i < 2; i++) {
        cl_int err;
        w[i] = (worker){s, clCreateCommandQueue(tu.context, tu.device, 0, &err), (uint32_t)(1000 + i * 77), 0, 0};
        ck_assert_msg(w[i].queue, "clCreateCommandQueue: %d", (int)err);
        ck_assert_int_eq(pthread_create(&t[i], NULL, sort_many, &w[i]), 0);
    }
    for (int i = 0; i < 2; i++) {
        pthread_join(t[i], NULL);
        clReleaseCommandQueue(w[i].queue);
    }
    for (int i = 0; i < 2; i++) {
        ck_assert_msg(!w[i].failed, "thread %d: a call failed: %s", i, clscan_last_error());
        ck_assert_msg(w[i].wrong == 0, "thread %d: %d wrong keys or values", i, w[i].wrong);
    }
}
END_TEST

/* ---- Rejected calls ---------------------------------------------------------------------- */

START_TEST(rejected_calls_leave_the_buffers_untouched)
{
    cl_int err = 0;
    tu_expect_status(clscan_sorter_create(tu.context, tu.device, (clscan_type)(CLSCAN_UINT16 + 1), 0, &err)
                     ? CL_SUCCESS : err, CLSCAN_INVALID_TYPE, "key type CLSCAN_UINT16 + 1");
    tu_expect_status(clscan_sorter_create(tu.context, tu.device, (clscan_type)-1, 0, &err) ? CL_SUCCESS : err,
                     CLSCAN_INVALID_TYPE, "key type -1");
    tu_expect_status(clscan_sorter_create(tu.context, tu.device, CLSCAN_UINT32, 4097, &err) ? CL_SUCCESS : err,
                     CLSCAN_INVALID_ELEMENT_SIZE, "value size 4097");
    tu_expect_status(clscan_sorter_create(NULL, tu.device, CLSCAN_UINT32, 0, &err) ? CL_SUCCESS : err,
                     CL_INVALID_CONTEXT, "NULL context");
    clscan_sorter *s = sorter(CLSCAN_UINT32, 4, 0), *f = sorter(CLSCAN_FLOAT, 0, 0);
    tu_expect_status(clscan_sorter_set_key_bits(NULL, 8), CLSCAN_INVALID_HANDLE, "set_key_bits: NULL");
    tu_expect_status(clscan_sorter_set_key_bits(s, 33), CLSCAN_INVALID_KEY_BITS, "33 bits of uint32");
    tu_expect_status(clscan_sorter_set_key_bits(f, 8), CLSCAN_INVALID_KEY_BITS, "key bits of float keys");
    clscan_sorter *i8 = sorter(CLSCAN_INT8, 0, 0), *u8 = sorter(CLSCAN_UINT8, 0, 0);
    tu_expect_status(clscan_sorter_set_key_bits(u8, 9), CLSCAN_INVALID_KEY_BITS, "9 bits of uint8");
    tu_expect_status(clscan_sorter_set_key_bits(i8, 4), CLSCAN_INVALID_KEY_BITS, "key bits of int8 keys");
    tu_expect_status(clscan_sorter_set_key_range(NULL, 0, 8), CLSCAN_INVALID_HANDLE, "set_key_range: NULL");
    tu_expect_status(clscan_sorter_set_key_range(s, 8, 8), CLSCAN_INVALID_KEY_BITS, "empty range [8, 8)");
    tu_expect_status(clscan_sorter_set_key_range(s, 9, 8), CLSCAN_INVALID_KEY_BITS, "range [9, 8)");
    tu_expect_status(clscan_sorter_set_key_range(s, 0, 33), CLSCAN_INVALID_KEY_BITS, "range [0, 33) of uint32");
    tu_expect_status(clscan_sorter_set_key_range(s, 32, 40), CLSCAN_INVALID_KEY_BITS, "range [32, 40) of uint32");
    tu_expect_status(clscan_sorter_set_key_range(u8, 0, 9), CLSCAN_INVALID_KEY_BITS, "range [0, 9) of uint8");
    tu_expect_status(clscan_sorter_set_key_range(i8, 0, 7), CLSCAN_INVALID_KEY_BITS, "range [0, 7) of int8");
    tu_expect_status(clscan_sorter_set_key_range(f, 1, 32), CLSCAN_INVALID_KEY_BITS, "range [1, 32) of float");
    ck_assert_int_eq(clscan_sorter_set_key_range(f, 0, 32), CL_SUCCESS);   /* the whole key: any type */
    tu_expect_status(clscan_sorter_set_descending(NULL, 1), CLSCAN_INVALID_HANDLE, "set_descending: NULL");

    enum { N = 100 };
    unsigned char init[5][N * 4];
    for (int i = 0; i < 5; i++)
        tu_fill_bytes(init[i], sizeof init[i]);
    cl_mem kin = tu_buffer(tu.context, CL_MEM_READ_WRITE, N * 4, init[0]);
    cl_mem kout = tu_buffer(tu.context, CL_MEM_READ_WRITE, N * 4, init[1]);
    cl_mem vin = tu_buffer(tu.context, CL_MEM_READ_WRITE, N * 4, init[2]);
    cl_mem vout = tu_buffer(tu.context, CL_MEM_READ_WRITE, N * 4, init[3]);
    cl_mem ro = tu_buffer(tu.context, CL_MEM_READ_ONLY, N * 4, init[4]);

    tu_expect_status(clscan_sort_enqueue(NULL, tu.queue, kin, 0, kout, 0, vin, 0, vout, 0, N, 0, NULL, NULL),
                     CLSCAN_INVALID_HANDLE, "NULL sorter");
    tu_expect_status(clscan_sort_enqueue(s, NULL, kin, 0, kout, 0, vin, 0, vout, 0, N, 0, NULL, NULL),
                     CL_INVALID_COMMAND_QUEUE, "NULL queue");
    tu_expect_status(clscan_sort_enqueue(s, tu.queue, kin, 0, kout, 0, vin, 0, vout, 0, N, 2, NULL, NULL),
                     CL_INVALID_EVENT_WAIT_LIST, "2 events, NULL list");
    tu_expect_status(clscan_sort_enqueue(s, tu.queue, NULL, 0, kout, 0, vin, 0, vout, 0, N, 0, NULL, NULL),
                     CL_INVALID_MEM_OBJECT, "NULL keys_in");
    tu_expect_status(clscan_sort_enqueue(s, tu.queue, kin, 0, kout, 0, NULL, 0, vout, 0, N, 0, NULL, NULL),
                     CL_INVALID_MEM_OBJECT, "NULL values_in");
    tu_expect_status(clscan_sort_enqueue(f, tu.queue, kin, 0, kout, 0, vin, 0, vout, 0, N, 0, NULL, NULL),
                     CL_INVALID_MEM_OBJECT, "values for a keys-only sorter");
    tu_expect_status(clscan_sort_enqueue(s, tu.queue, kin, 1, kout, 0, vin, 0, vout, 0, N, 0, NULL, NULL),
                     CLSCAN_RANGE_OUT_OF_BOUNDS, "keys_in past its end");
    tu_expect_status(clscan_sort_enqueue(s, tu.queue, kin, 0, kout, 0, vin, 0, vout, 1, N, 0, NULL, NULL),
                     CLSCAN_RANGE_OUT_OF_BOUNDS, "values_out past its end");
    tu_expect_status(clscan_sort_enqueue(s, tu.queue, kin, 0, ro, 0, vin, 0, vout, 0, N, 0, NULL, NULL),
                     CL_INVALID_MEM_OBJECT, "read-only keys_out");
    tu_expect_status(clscan_sort_enqueue(s, tu.queue, kin, 0, kin, 1, vin, 0, vout, 0, N - 1, 0, NULL, NULL),
                     CL_MEM_COPY_OVERLAP, "keys shifted by one");
    tu_expect_status(clscan_sort_enqueue(s, tu.queue, kin, 0, kout, 0, vin, 0, kout, 0, N, 0, NULL, NULL),
                     CL_MEM_COPY_OVERLAP, "values_out is keys_out");
    clFinish(tu.queue);
    cl_mem bufs[5] = {kin, kout, vin, vout, ro};
    for (int i = 0; i < 5; i++) {
        unsigned char now[N * 4];
        tu_read(tu.queue, bufs[i], N * 4, now);
        ck_assert_msg(memcmp(now, init[i], N * 4) == 0, "buffer %d changed by a rejected call", i);
        clReleaseMemObject(bufs[i]);
    }
    clscan_sorter_release(NULL);
}
END_TEST

int main(void)
{
    tu_open("radix_sort_test");
    tu_watchdog(500);
    Suite *s = suite_create("radix_sort");
    TCase *tc = tcase_create("sort");
    tcase_add_loop_test(tc, patterns_and_counts_match_a_stable_sort, 0, NKEY_TYPES);
    tcase_add_loop_test(tc, values_offsets_and_in_place, 0, NKEY_TYPES);
    tcase_add_loop_test(tc, descending_matches_a_reversed_stable_sort, 0, NKEY_TYPES);
    tcase_add_test(tc, descending_floats_in_reversed_total_order);
    tcase_add_test(tc, key_ranges_sort_by_those_bits_only);
    tcase_add_test(tc, settings_change_between_sorts);
    tcase_add_loop_test(tc, segments_match_stable_sorts_of_each, 0, NKEY_TYPES);
    tcase_add_test(tc, segments_with_ranges_and_huge_segments);
    tcase_add_test(tc, segments_with_the_gpu_tuning);
    tcase_add_test(tc, rejected_segmented_sorts_leave_the_buffers_untouched);
    tcase_add_test(tc, low_key_bits_sort_by_those_bits_only);
    tcase_add_test(tc, millions_of_keys_match_a_stable_sort);
    tcase_add_test(tc, gpu_tuning_matches_a_stable_sort);
    tcase_add_test(tc, developer_blocks_match_a_stable_sort);
    tcase_add_test(tc, out_of_order_queue_and_wait_list);
    tcase_add_test(tc, two_threads_share_one_sorter);
    tcase_add_test(tc, rejected_calls_leave_the_buffers_untouched);
    suite_add_tcase(s, tc);
    int rc = tu_run(s);
    for (int i = 0; i < nsorters; i++)
        clscan_sorter_release(sorters[i].sorter);
    tu_close();
    return rc;
}
