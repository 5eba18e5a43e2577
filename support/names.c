/* Names, sizes and printing of operators, types, kinds, algorithms and variants: see names.h. */
#include "support/names.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

const clscan_op sup_ops[SUP_NOPS] = {CLSCAN_SUM, CLSCAN_MAX, CLSCAN_MIN, CLSCAN_LAST_NONZERO, CLSCAN_AFFINE};
const clscan_type sup_types[SUP_NTYPES] = {CLSCAN_INT32, CLSCAN_UINT32, CLSCAN_INT64,
                                           CLSCAN_UINT64, CLSCAN_FLOAT, CLSCAN_DOUBLE};

/* Indexed by the enumerators' values (0, 1, ...). */
static const char *const op_names[SUP_NOPS] = {"sum", "max", "min", "last-nonzero", "affine"};
static const char *const type_names[SUP_NTYPES] = {"int32", "uint32", "int64", "uint64", "float", "double"};
static const char *const kind_names[2] = {"inclusive", "exclusive"};
static const char *const algorithm_names[3] = {"auto", "reduce-then-scan", "single-pass"};
static const char *const tiles_names[4] = {"auto", "registers", "staged", "streamed"};
static const char *const primitive_names[4] = {"auto", "hillis-steele", "blelloch", "two-level"};
static const char *const accuracy_names[3] = {"auto", "working", "compensated"};

/* The enumerators are checked against the tables' order once, here. */
_Static_assert(CLSCAN_SUM == 0 && CLSCAN_AFFINE == SUP_NOPS - 1, "clscan_op is not 0 ... SUP_NOPS - 1");
_Static_assert(CLSCAN_INT32 == 0 && CLSCAN_DOUBLE == SUP_NTYPES - 1, "clscan_type is not 0 ... SUP_NTYPES - 1");
_Static_assert(CLSCAN_INCLUSIVE == 0 && CLSCAN_EXCLUSIVE == 1, "clscan_kind is not 0, 1");
_Static_assert(CLSCAN_ALGORITHM_AUTO == 0 && CLSCAN_ALGORITHM_REDUCE_THEN_SCAN == 1 &&
               CLSCAN_ALGORITHM_SINGLE_PASS == 2, "clscan_algorithm is not 0, 1, 2");
_Static_assert(CLSCAN_TILES_AUTO == 0 && CLSCAN_TILES_STREAMED == 3, "clscan_tiles is not 0 ... 3");
_Static_assert(CLSCAN_PRIMITIVE_AUTO == 0 && CLSCAN_PRIMITIVE_TWO_LEVEL == 3, "clscan_primitive is not 0 ... 3");
_Static_assert(CLSCAN_ACCURACY_AUTO == 0 && CLSCAN_ACCURACY_COMPENSATED == 2, "clscan_accuracy is not 0, 1, 2");

#define NAME_OF(table, value) \
    ((unsigned)(value) < sizeof table / sizeof table[0] ? table[(unsigned)(value)] : "?")

const char *sup_op_name(clscan_op op) { return NAME_OF(op_names, op); }
/* The radix sort's key types after the scans' (not in sup_types, not parsed). */
static const char *const key_type_names[] = {"int8", "uint8", "int16", "uint16"};
_Static_assert(CLSCAN_INT8 == SUP_NTYPES && CLSCAN_UINT16 == SUP_NTYPES + 3, "the key types follow the scans'");

const char *sup_type_name(clscan_type type)
{
    return (unsigned)type >= SUP_NTYPES ? NAME_OF(key_type_names, (unsigned)type - SUP_NTYPES) : type_names[type];
}
const char *sup_kind_name(clscan_kind kind) { return NAME_OF(kind_names, kind); }
const char *sup_algorithm_name(clscan_algorithm algorithm) { return NAME_OF(algorithm_names, algorithm); }
const char *sup_tiles_name(clscan_tiles tiles) { return NAME_OF(tiles_names, tiles); }
const char *sup_primitive_name(clscan_primitive primitive) { return NAME_OF(primitive_names, primitive); }
const char *sup_accuracy_name(clscan_accuracy accuracy) { return NAME_OF(accuracy_names, accuracy); }

/* The index of s in table, or -1. */
static int find_name(const char *const *table, size_t n, const char *s)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(s, table[i]) == 0)
            return (int)i;
    return -1;
}

#define PARSE(table, type_, s, out)                                       \
    do {                                                                  \
        const int i_ = find_name(table, sizeof table / sizeof table[0], s); \
        if (i_ < 0)                                                       \
            return false;                                                 \
        *(out) = (type_)i_;                                               \
        return true;                                                      \
    } while (0)

bool sup_parse_op(const char *s, clscan_op *out)
{
    if (strcmp(s, "last_nonzero") == 0) {
        *out = CLSCAN_LAST_NONZERO;
        return true;
    }
    PARSE(op_names, clscan_op, s, out);
}

bool sup_parse_type(const char *s, clscan_type *out) { PARSE(type_names, clscan_type, s, out); }
bool sup_parse_kind(const char *s, clscan_kind *out) { PARSE(kind_names, clscan_kind, s, out); }
bool sup_parse_algorithm(const char *s, clscan_algorithm *out) { PARSE(algorithm_names, clscan_algorithm, s, out); }
bool sup_parse_tiles(const char *s, clscan_tiles *out) { PARSE(tiles_names, clscan_tiles, s, out); }
bool sup_parse_primitive(const char *s, clscan_primitive *out) { PARSE(primitive_names, clscan_primitive, s, out); }
bool sup_parse_accuracy(const char *s, clscan_accuracy *out) { PARSE(accuracy_names, clscan_accuracy, s, out); }

size_t sup_scalar_size(clscan_type type)
{
    switch (type) {
    case CLSCAN_INT32: case CLSCAN_UINT32: case CLSCAN_FLOAT: return 4;
    case CLSCAN_INT64: case CLSCAN_UINT64: case CLSCAN_DOUBLE: return 8;
    case CLSCAN_INT8: case CLSCAN_UINT8: return 1;
    case CLSCAN_INT16: case CLSCAN_UINT16: return 2;
    }
    return 0;
}

size_t sup_scalars_per_element(clscan_op op)
{
    return op == CLSCAN_AFFINE ? 2 : 1;
}

size_t sup_element_size(clscan_op op, clscan_type type)
{
    return sup_scalars_per_element(op) * sup_scalar_size(type);
}

bool sup_type_is_float(clscan_type type)
{
    return type == CLSCAN_FLOAT || type == CLSCAN_DOUBLE;
}

/* Scalar i of x (memcpy: x need not be aligned for the type). */
static void format_scalar(clscan_type type, const void *x, size_t i, char *buf, size_t size)
{
    const unsigned char *p = (const unsigned char *)x + i * sup_scalar_size(type);
    int8_t i8;
    int16_t i16;
    uint16_t u16;
    int32_t i32;
    uint32_t u32;
    int64_t i64;
    uint64_t u64;
    float f;
    double d;
    switch (type) {
    case CLSCAN_INT8: memcpy(&i8, p, 1); snprintf(buf, size, "%d", (int)i8); return;
    case CLSCAN_UINT8: snprintf(buf, size, "%u", (unsigned)*p); return;
    case CLSCAN_INT16: memcpy(&i16, p, 2); snprintf(buf, size, "%d", (int)i16); return;
    case CLSCAN_UINT16: memcpy(&u16, p, 2); snprintf(buf, size, "%u", (unsigned)u16); return;
    case CLSCAN_INT32: memcpy(&i32, p, 4); snprintf(buf, size, "%" PRId32, i32); return;
    case CLSCAN_UINT32: memcpy(&u32, p, 4); snprintf(buf, size, "%" PRIu32, u32); return;
    case CLSCAN_INT64: memcpy(&i64, p, 8); snprintf(buf, size, "%" PRId64, i64); return;
    case CLSCAN_UINT64: memcpy(&u64, p, 8); snprintf(buf, size, "%" PRIu64, u64); return;
    case CLSCAN_FLOAT:
        memcpy(&f, p, 4);
        memcpy(&u32, p, 4);
        snprintf(buf, size, "%.9g [0x%08" PRIx32 "]", (double)f, u32);
        return;
    case CLSCAN_DOUBLE:
        memcpy(&d, p, 8);
        memcpy(&u64, p, 8);
        snprintf(buf, size, "%.17g [0x%016" PRIx64 "]", d, u64);
        return;
    }
    snprintf(buf, size, "?");
}

void sup_format_element(clscan_op op, clscan_type type, const void *x, size_t i, char *buf, size_t size)
{
    if (op == CLSCAN_AFFINE) {
        char a[64], b[64];
        format_scalar(type, x, 2 * i, a, sizeof a);
        format_scalar(type, x, 2 * i + 1, b, sizeof b);
        snprintf(buf, size, "(%s, %s)", a, b);
    } else {
        format_scalar(type, x, i, buf, size);
    }
}
