/* clscan tool: names, sizes and printing of operators, element types and kinds. */
#ifndef CLSCAN_TOOL_ELEMENTS_H
#define CLSCAN_TOOL_ELEMENTS_H

#include <stdbool.h>
#include <stddef.h>

#include <clscan.h>

const char *op_name(clscan_op op);       /* "sum", "max", "min", "last-nonzero", "affine" */
const char *type_name(clscan_type type); /* "int32", ..., "double" */
const char *kind_name(clscan_kind kind); /* "inclusive", "exclusive" */

/* Parse the command-line names above; false if s names nothing. */
bool parse_op(const char *s, clscan_op *op);
bool parse_type(const char *s, clscan_type *type);

size_t scalar_size(clscan_type type);             /* bytes of one scalar */
size_t scalars_per_element(clscan_op op);         /* 2 for AFFINE (a, b), else 1 */
size_t element_bytes(clscan_op op, clscan_type type);
bool type_is_float(clscan_type type);             /* float or double */

/* Writes one element as text, e.g. "-3", "1.5 (0x3fc00000)" or "(a, b)". */
void format_element(clscan_op op, clscan_type type, const void *element, char *buf, size_t size);

#endif /* CLSCAN_TOOL_ELEMENTS_H */
