/* Custom operators (custom.c). */
#ifndef CLSCAN_CUSTOM_H
#define CLSCAN_CUSTOM_H

#include "error.h"

/* The longest snippets accepted (clscan.h).  A compiler parses a long flat expression
 * recursively: PoCL's clang overflowed its stack (killing the caller) on a sum of 24000 terms
 * and built one of 16000; the limits keep the longest expression well below that. */
#define CLSCAN_CUSTOM_MAX_TYPE 256
#define CLSCAN_CUSTOM_MAX_EXPRESSION 4096
#define CLSCAN_CUSTOM_MAX_PREAMBLE 16384

/* The definitions of T, NEUTRAL and COMB for op (checked: no NULL or empty strings, none longer
 * than its limit, size > 0), with a compile-time check of sizeof(T) against op->size.  *source
 * is malloc'd. */
cl_int clscan_custom_source(const clscan_custom *op, char **source);
/* The name the compile-time size check declares: a build log that mentions it means the
 * declared size is not the device's sizeof(type). */
#define CLSCAN_CUSTOM_SIZE_CHECK "clscan_declared_size_is_not_sizeof_type"

#endif
