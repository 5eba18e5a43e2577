/* Names, sizes and printing of the built-in operators, element types, kinds, algorithms and
 * kernel variants, for
 * the programs around the library: the tests, the clscan tool and the benchmarks.  A new
 * operator or type is added here once for all of them (the library has its own table in
 * lib/plan.c: it does not depend on these programs). */
#ifndef CLSCAN_SUPPORT_NAMES_H
#define CLSCAN_SUPPORT_NAMES_H

#include <stdbool.h>
#include <stddef.h>

#include "clscan.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Every built-in operator and element type, in the order of their enumerators. */
#define SUP_NOPS 5
#define SUP_NTYPES 6
extern const clscan_op sup_ops[SUP_NOPS];
extern const clscan_type sup_types[SUP_NTYPES];

/* Names as the tool's options spell them; "?" for a value outside the enumeration. */
const char *sup_op_name(clscan_op op);       /* "sum", "max", "min", "last-nonzero", "affine" */
const char *sup_type_name(clscan_type type); /* "int32", ..., "double"; the sort keys "int8" ... "uint16" */
const char *sup_kind_name(clscan_kind kind); /* "inclusive", "exclusive" */
const char *sup_algorithm_name(clscan_algorithm algorithm); /* "auto", "reduce-then-scan", "single-pass" */
const char *sup_accuracy_name(clscan_accuracy accuracy);    /* "auto", "working", "compensated" */
const char *sup_tiles_name(clscan_tiles tiles);             /* "auto", "registers", "staged", "streamed" */
const char *sup_primitive_name(clscan_primitive primitive); /* "auto", "hillis-steele", "blelloch", "two-level" */

/* The names above back to values (for operators also "last_nonzero", the enumerator's
 * spelling); false, and *out untouched, if s names nothing. */
bool sup_parse_op(const char *s, clscan_op *out);
bool sup_parse_type(const char *s, clscan_type *out);
bool sup_parse_kind(const char *s, clscan_kind *out);
bool sup_parse_algorithm(const char *s, clscan_algorithm *out);
bool sup_parse_accuracy(const char *s, clscan_accuracy *out);
bool sup_parse_tiles(const char *s, clscan_tiles *out);
bool sup_parse_primitive(const char *s, clscan_primitive *out);

size_t sup_scalar_size(clscan_type type);                /* bytes of one scalar; 0 for no type */
size_t sup_scalars_per_element(clscan_op op);            /* 2 for AFFINE's pairs (a, b), else 1 */
size_t sup_element_size(clscan_op op, clscan_type type); /* bytes of one element */
bool sup_type_is_float(clscan_type type);                /* float or double */

/* Writes element i of the array x as text: "-3", "1.5 [0x3fc00000]" (floats with their bits, so
 * that signed zeros and NaN payloads show), "(a, b)" for AFFINE. */
void sup_format_element(clscan_op op, clscan_type type, const void *x, size_t i, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* CLSCAN_SUPPORT_NAMES_H */
