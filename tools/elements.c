/* clscan tool: names, sizes and printing of operators, element types and kinds. */
#include "elements.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const char *const op_names[] = { "sum", "max", "min", "last-nonzero", "affine" };
static const char *const type_names[] = { "int32", "uint32", "int64", "uint64", "float", "double" };

const char *op_name(clscan_op op)
{
    return (unsigned)op < sizeof op_names / sizeof op_names[0] ? op_names[op] : "?";
}

const char *type_name(clscan_type type)
{
    return (unsigned)type < sizeof type_names / sizeof type_names[0] ? type_names[type] : "?";
}

const char *kind_name(clscan_kind kind)
{
    return kind == CLSCAN_INCLUSIVE ? "inclusive" : kind == CLSCAN_EXCLUSIVE ? "exclusive" : "?";
}

bool parse_op(const char *s, clscan_op *op)
{
    static const clscan_op ops[] = { CLSCAN_SUM, CLSCAN_MAX, CLSCAN_MIN, CLSCAN_LAST_NONZERO, CLSCAN_AFFINE };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        if (strcmp(s, op_names[i]) == 0) {
            *op = ops[i];
            return true;
        }
    }
    if (strcmp(s, "last_nonzero") == 0) { /* the enumerator's spelling */
        *op = CLSCAN_LAST_NONZERO;
        return true;
    }
    return false;
}

bool parse_type(const char *s, clscan_type *type)
{
    static const clscan_type types[] = { CLSCAN_INT32, CLSCAN_UINT32, CLSCAN_INT64,
                                         CLSCAN_UINT64, CLSCAN_FLOAT, CLSCAN_DOUBLE };
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        if (strcmp(s, type_names[i]) == 0) {
            *type = types[i];
            return true;
        }
    }
    return false;
}

size_t scalar_size(clscan_type type)
{
    switch (type) {
    case CLSCAN_INT32:
    case CLSCAN_UINT32:
    case CLSCAN_FLOAT:
        return 4;
    case CLSCAN_INT64:
    case CLSCAN_UINT64:
    case CLSCAN_DOUBLE:
        return 8;
    }
    return 0;
}

size_t scalars_per_element(clscan_op op)
{
    return op == CLSCAN_AFFINE ? 2 : 1;
}

size_t element_bytes(clscan_op op, clscan_type type)
{
    return scalars_per_element(op) * scalar_size(type);
}

bool type_is_float(clscan_type type)
{
    return type == CLSCAN_FLOAT || type == CLSCAN_DOUBLE;
}

static void format_scalar(clscan_type type, const unsigned char *p, char *buf, size_t size)
{
    switch (type) {
    case CLSCAN_INT32: {
        int32_t v;
        memcpy(&v, p, sizeof v);
        snprintf(buf, size, "%" PRId32, v);
        break;
    }
    case CLSCAN_UINT32: {
        uint32_t v;
        memcpy(&v, p, sizeof v);
        snprintf(buf, size, "%" PRIu32, v);
        break;
    }
    case CLSCAN_INT64: {
        int64_t v;
        memcpy(&v, p, sizeof v);
        snprintf(buf, size, "%" PRId64, v);
        break;
    }
    case CLSCAN_UINT64: {
        uint64_t v;
        memcpy(&v, p, sizeof v);
        snprintf(buf, size, "%" PRIu64, v);
        break;
    }
    case CLSCAN_FLOAT: {
        float v;
        uint32_t bits;
        memcpy(&v, p, sizeof v);
        memcpy(&bits, p, sizeof bits);
        snprintf(buf, size, "%.9g [0x%08" PRIx32 "]", (double)v, bits);
        break;
    }
    case CLSCAN_DOUBLE: {
        double v;
        uint64_t bits;
        memcpy(&v, p, sizeof v);
        memcpy(&bits, p, sizeof bits);
        snprintf(buf, size, "%.17g [0x%016" PRIx64 "]", v, bits);
        break;
    }
    default:
        snprintf(buf, size, "?");
        break;
    }
}

void format_element(clscan_op op, clscan_type type, const void *element, char *buf, size_t size)
{
    const unsigned char *p = element;
    if (op == CLSCAN_AFFINE) {
        char a[64], b[64];
        format_scalar(type, p, a, sizeof a);
        format_scalar(type, p + scalar_size(type), b, sizeof b);
        snprintf(buf, size, "(%s, %s)", a, b);
    } else {
        format_scalar(type, p, buf, size);
    }
}
