/* Custom operators (custom.c). */
#ifndef CLSCAN_CUSTOM_H
#define CLSCAN_CUSTOM_H

#include "error.h"

/* The definitions of T, NEUTRAL and COMB for op (checked: no NULL or empty strings, none longer
 * than its CLSCAN_CUSTOM_MAX_* of clscan.h, size > 0), with a compile-time check of sizeof(T)
 * against op->size.  *source is malloc'd. */
cl_int clscan_custom_source(const clscan_custom *op, char **source);
/* The name the compile-time size check declares: a build log that mentions it means the
 * declared size is not the device's sizeof(type). */
#define CLSCAN_CUSTOM_SIZE_CHECK "clscan_declared_size_is_not_sizeof_type"

#endif
