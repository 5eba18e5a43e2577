/* Operators under test: see testops.h. */
#define _POSIX_C_SOURCE 200809L
#include "testops.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- 2x2 int matrices, row-major (x y; z w), product "previous times current" with wrapping
 * arithmetic: not commutative. ---- */
typedef struct { int32_t m[4]; } mat2i;

static void mat2i_mul(const void *pa, const void *pb, void *out)
{
    const int32_t *a = ((const mat2i *)pa)->m, *b = ((const mat2i *)pb)->m;
    uint32_t r[4] = {
        (uint32_t)a[0] * (uint32_t)b[0] + (uint32_t)a[1] * (uint32_t)b[2],
        (uint32_t)a[0] * (uint32_t)b[1] + (uint32_t)a[1] * (uint32_t)b[3],
        (uint32_t)a[2] * (uint32_t)b[0] + (uint32_t)a[3] * (uint32_t)b[2],
        (uint32_t)a[2] * (uint32_t)b[1] + (uint32_t)a[3] * (uint32_t)b[3],
    };
    memcpy(((mat2i *)out)->m, r, sizeof r);
}

static void mat2i_neutral(void *out)
{
    *(mat2i *)out = (mat2i){{1, 0, 0, 1}};
}

/* Odd determinant (x, w odd, y even): invertible mod 2^32, so long products never collapse to
 * a matrix that forgets its inputs. */
static void mat2i_fill(void *x, size_t n)
{
    mat2i *m = x;
    for (size_t i = 0; i < n; i++) {
        m[i].m[0] = (int32_t)(uint32_t)(tu_rand() | 1);
        m[i].m[1] = (int32_t)(uint32_t)(tu_rand() & ~(uint64_t)1);
        m[i].m[2] = (int32_t)(uint32_t)tu_rand();
        m[i].m[3] = (int32_t)(uint32_t)(tu_rand() | 1);
    }
}

/* ---- Signed 2x2 permutation matrices in float: a non-commutative group of 8 elements whose
 * products are exact (the zeros' signs may differ with the order: compared with ==). ---- */
typedef struct { float m[4]; } mat2f;

static void mat2f_mul(const void *pa, const void *pb, void *out)
{
    const float *a = ((const mat2f *)pa)->m, *b = ((const mat2f *)pb)->m;
    mat2f r = {{a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
                a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3]}};
    *(mat2f *)out = r;
}

static void mat2f_neutral(void *out)
{
    *(mat2f *)out = (mat2f){{1.0f, 0.0f, 0.0f, 1.0f}};
}

static void mat2f_fill(void *x, size_t n)
{
    mat2f *m = x;
    for (size_t i = 0; i < n; i++) {
        const float s = tu_rand() & 1 ? -1.0f : 1.0f, t = tu_rand() & 1 ? -1.0f : 1.0f;
        m[i] = tu_rand() & 1 ? (mat2f){{s, 0.0f, 0.0f, t}} : (mat2f){{0.0f, s, t, 0.0f}};
    }
}

static size_t float_diff(const void *e, const void *g, size_t n, size_t per)
{
    const float *a = e, *b = g;
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < per; k++)
            if (!(a[i * per + k] == b[i * per + k]))
                return i;
    return n;
}

static size_t mat2f_diff(const void *e, const void *g, size_t n)
{
    return float_diff(e, g, n, 4);
}

/* ---- Argmax keeping the first index: (value, index) as int2; a tie keeps the smaller index,
 * so the neutral (INT_MIN, INT_MAX) is neutral on both sides. ---- */
typedef struct { int32_t v, i; } argmax;

static void argmax_comb(const void *pa, const void *pb, void *out)
{
    const argmax a = *(const argmax *)pa, b = *(const argmax *)pb;
    *(argmax *)out = (b.v > a.v || (b.v == a.v && b.i < a.i)) ? b : a;
}

static void argmax_neutral(void *out)
{
    *(argmax *)out = (argmax){INT32_MIN, INT32_MAX};
}

/* Few distinct values (many ties); the index is the position. */
static void argmax_fill(void *x, size_t n)
{
    argmax *a = x;
    for (size_t i = 0; i < n; i++)
        a[i] = (argmax){(int32_t)tu_rand_below(64) - 32, (int32_t)i};
}

/* ---- A struct of the preamble: first and last value, count and wrapping sum of a range ----
 * (OpenCL C and C lay it out alike: 4 + 4 + 4 + 4 padding + 8 = 24 bytes.) */
typedef struct { int32_t first, last; uint32_t count; uint64_t sum; } range_stats;

static void stats_comb(const void *pa, const void *pb, void *out)
{
    const range_stats a = *(const range_stats *)pa, b = *(const range_stats *)pb;
    range_stats r;
    memset(&r, 0, sizeof r);   /* the padding compares bitwise */
    r.first = a.count ? a.first : b.first;
    r.last = b.count ? b.last : a.last;
    r.count = a.count + b.count;
    r.sum = a.sum + b.sum;
    *(range_stats *)out = r;
}

static void stats_neutral(void *out)
{
    range_stats r;
    memset(&r, 0, sizeof r);
    *(range_stats *)out = r;
}

static void stats_fill(void *x, size_t n)
{
    range_stats *s = x;
    for (size_t i = 0; i < n; i++) {
        memset(&s[i], 0, sizeof s[i]);
        const int32_t v = (int32_t)(uint32_t)tu_rand();
        s[i].first = s[i].last = v;
        s[i].count = 1;
        s[i].sum = tu_rand();
    }
}

static size_t stats_diff(const void *e, const void *g, size_t n)
{
    const range_stats *a = e, *b = g;
    for (size_t i = 0; i < n; i++)
        if (a[i].first != b[i].first || a[i].last != b[i].last || a[i].count != b[i].count ||
            a[i].sum != b[i].sum)
            return i;
    return n;
}

/* ---- AFFINE on float, as the built-in defines it; compared with the built-in (bitwise) and,
 * with +-1 slopes and small offsets, exactly with the reference. ---- */
static void affine_comb(const void *pa, const void *pb, void *out)
{
    const float *p = pa, *c = pb;
    volatile float prod = c[0] * p[1];   /* no fused multiply-add, like the kernels */
    float r[2] = {c[0] * p[0], prod + c[1]};
    memcpy(out, r, sizeof r);
}

static void affine_neutral(void *out)
{
    const float r[2] = {1.0f, 0.0f};
    memcpy(out, r, sizeof r);
}

static void affine_fill(void *x, size_t n)
{
    tu_fill(CLSCAN_AFFINE, CLSCAN_FLOAT, x, n);
}

static size_t affine_diff(const void *e, const void *g, size_t n)
{
    return float_diff(e, g, n, 2);
}

/* ---- AFFINE on 16-bit unsigned integers, modulo 2^16: a 4-byte, exact, non-commutative
 * operator (the packed status word's size). ---- */
static void affine16_comb(const void *pa, const void *pb, void *out)
{
    const uint16_t *p = pa, *c = pb;
    const uint16_t r[2] = {(uint16_t)((uint32_t)c[0] * p[0]), (uint16_t)((uint32_t)c[0] * p[1] + c[1])};
    memcpy(out, r, sizeof r);
}

static void affine16_neutral(void *out)
{
    const uint16_t r[2] = {1, 0};
    memcpy(out, r, sizeof r);
}

static void affine16_fill(void *x, size_t n)
{
    uint16_t *v = x;   /* odd slopes: their products never vanish modulo 2^16 */
    for (size_t i = 0; i < n; i++) {
        v[2 * i] = (uint16_t)(tu_rand() | 1u);
        v[2 * i + 1] = (uint16_t)tu_rand();
    }
}

static const char mat2i_preamble[] =
    "/* (x y; z w) times (x y; z w), wrapping: unsigned arithmetic */\n"
    "inline int4 mat2i_mul(int4 p, int4 q)\n"
    "{\n"
    "    const uint4 a = as_uint4(p), b = as_uint4(q);\n"
    "    return as_int4((uint4)(a.x * b.x + a.y * b.z, a.x * b.y + a.y * b.w,\n"
    "                           a.z * b.x + a.w * b.z, a.z * b.y + a.w * b.w));\n"
    "}\n";

static const char mat2f_preamble[] =
    "inline float4 mat2f_mul(float4 a, float4 b)\n"
    "{\n"
    "    return (float4)(a.x * b.x + a.y * b.z, a.x * b.y + a.y * b.w,\n"
    "                    a.z * b.x + a.w * b.z, a.z * b.y + a.w * b.w);\n"
    "}\n";

static const char stats_preamble[] =
    "typedef struct range_stats { int first, last; uint count; ulong sum; } range_stats;\n"
    "inline range_stats stats_comb(range_stats a, range_stats b)\n"
    "{\n"
    "    range_stats r;\n"
    "    r.first = a.count ? a.first : b.first;\n"
    "    r.last = b.count ? b.last : a.last;\n"
    "    r.count = a.count + b.count;\n"
    "    r.sum = a.sum + b.sum;\n"
    "    return r;\n"
    "}\n"
    "inline range_stats stats_neutral(void)\n"
    "{\n"
    "    range_stats r = {0, 0, 0, 0};\n"
    "    return r;\n"
    "}\n";

const to_custom to_customs[TO_NCUSTOM] = {
    {"mat2 int", {"int4", 16, "(int4)(1, 0, 0, 1)", "mat2i_mul(a, b)", mat2i_preamble},
     mat2i_fill, mat2i_neutral, mat2i_mul, NULL},
    {"signed permutation float", {"float4", 16, "(float4)(1.0f, 0.0f, 0.0f, 1.0f)", "mat2f_mul(a, b)",
                                  mat2f_preamble},
     mat2f_fill, mat2f_neutral, mat2f_mul, mat2f_diff},
    {"argmax first index", {"int2", 8, "(int2)(INT_MIN, INT_MAX)",
                            "(b.x > a.x || (b.x == a.x && b.y < a.y)) ? b : a", NULL},
     argmax_fill, argmax_neutral, argmax_comb, NULL},
    {"struct range_stats", {"range_stats", sizeof(range_stats), "stats_neutral()", "stats_comb(a, b)",
                            stats_preamble},
     stats_fill, stats_neutral, stats_comb, stats_diff},
    {"affine float", {"float2", 8, "(float2)(1.0f, 0.0f)", "(float2)(b.x * a.x, b.x * a.y + b.y)", NULL},
     affine_fill, affine_neutral, affine_comb, affine_diff},
    {"affine ushort", {"ushort2", 4, "(ushort2)(1, 0)",
                       "(ushort2)((ushort)((uint)b.x * a.x), (ushort)((uint)b.x * a.y + b.y))", NULL},
     affine16_fill, affine16_neutral, affine16_comb, NULL},
};

size_t to_size(const to_op *o)
{
    return o->custom ? o->custom->def.size : tu_elem_size(o->op, o->type);
}

const char *to_name(const to_op *o, char *buf, size_t size)
{
    if (o->custom)
        snprintf(buf, size, "custom %s", o->custom->name);
    else
        snprintf(buf, size, "%s %s", tu_op_name(o->op), tu_type_name(o->type));
    return buf;
}

void to_fill(const to_op *o, void *x, size_t n)
{
    if (o->custom)
        o->custom->fill(x, n);
    else
        tu_fill(o->op, o->type, x, n);
}

void to_comb(const to_op *o, const void *a, const void *b, void *out)
{
    if (o->custom)
        o->custom->comb(a, b, out);
    else
        sup_comb(o->op, o->type, a, b, out);
}

void to_neutral(const to_op *o, void *out)
{
    if (o->custom) {
        o->custom->neutral(out);
    } else {
        unsigned char any[16] = {0};
        sup_reference(o->op, o->type, CLSCAN_EXCLUSIVE, any, out, 1);
    }
}

void to_reference(const to_op *o, clscan_kind kind, const void *x, void *y, size_t n)
{
    if (!o->custom) {
        tu_reference(o->op, o->type, kind, x, y, n);
        return;
    }
    const size_t e = o->custom->def.size;
    unsigned char acc[64], cur[64];
    o->custom->neutral(acc);
    for (size_t i = 0; i < n; i++) {
        memcpy(cur, (const unsigned char *)x + i * e, e);
        if (kind == CLSCAN_EXCLUSIVE)
            memcpy((unsigned char *)y + i * e, acc, e);
        o->custom->comb(acc, cur, acc);
        if (kind == CLSCAN_INCLUSIVE)
            memcpy((unsigned char *)y + i * e, acc, e);
    }
}

size_t to_diff(const to_op *o, const void *expected, const void *got, size_t n)
{
    if (o->custom) {
        if (o->custom->diff)
            return o->custom->diff(expected, got, n);
        const size_t e = o->custom->def.size;
        for (size_t i = 0; i < n; i++)
            if (memcmp((const unsigned char *)expected + i * e, (const unsigned char *)got + i * e, e))
                return i;
        return n;
    }
    sup_compare_result res;
    sup_compare(o->op, o->type, SUP_MATCH_VALUES, expected, got, n, &res);
    return res.first_mismatch;
}

typedef struct custom_plan {
    const to_custom *custom;
    clscan_kind kind;
    size_t wg, items;
    clscan_algorithm algo;
    clscan_plan *plan;
} custom_plan;

static custom_plan cplans[128];
static size_t ncplans;

clscan_plan *to_plan(const to_op *o, clscan_kind kind, size_t wg, size_t items, clscan_algorithm algo,
                     bool setup)
{
    if (!o->custom) {
        if (setup) {
            tu_prepare_plan(o->op, o->type, kind, wg, items, algo);
            return NULL;
        }
        return tu_plan_algo(o->op, o->type, kind, wg, items, algo);
    }
    for (size_t i = 0; i < ncplans; i++)
        if (cplans[i].custom == o->custom && cplans[i].kind == kind && cplans[i].wg == wg &&
            cplans[i].items == items && cplans[i].algo == algo)
            return cplans[i].plan;
    cl_int err = 12345;
    clscan_plan *p = ncplans < sizeof cplans / sizeof cplans[0]
                         ? clscan_plan_create_custom(tu.context, tu.device, &o->custom->def, kind, &err)
                         : NULL;
    if (p && (wg || items))
        err = clscan_plan_set_tuning(p, wg, items);
    if (p && err == CL_SUCCESS && algo != CLSCAN_ALGORITHM_AUTO)
        err = clscan_plan_set_algorithm(p, algo);
    if (!p || err != CL_SUCCESS) {
        char msg[512];
        snprintf(msg, sizeof msg, "cannot create the plan of custom %s %s (tuning %zu x %zu, %s): %s: %s",
                 o->custom->name, tu_kind_name(kind), wg, items, tu_algo_name(algo),
                 clscan_error_string(err), clscan_last_error());
        clscan_plan_release(p);
        if (setup) {
            fprintf(stderr, "setup error: %s\n", msg);
            exit(99);
        }
        ck_abort_msg("%s", msg);
    }
    cplans[ncplans++] = (custom_plan){o->custom, kind, wg, items, algo, p};
    return p;
}

void to_close(void)
{
    for (size_t i = 0; i < ncplans; i++)
        clscan_plan_release(cplans[i].plan);
    ncplans = 0;
}
