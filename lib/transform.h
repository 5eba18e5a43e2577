/* Transforms of a plan's input and output (transform.c, also clscan_plan_set_transform). */
#ifndef CLSCAN_TRANSFORM_H
#define CLSCAN_TRANSFORM_H

#include "error.h"

/* The definitions cl/scan/io_transform.cl needs for t (checked: no NULL or empty src_type or
 * in, src_size > 0, dst_type, dst_size and out all given or none, nothing longer than the
 * CLSCAN_CUSTOM_MAX_* limits), with compile-time checks of the sizes; placed after the
 * operator's definitions.  *source is malloc'd. */
cl_int clscan_transform_source(const char *fn, const clscan_transform *t, char **source);
/* The names the compile-time size checks declare: a build log that mentions one means a declared
 * size is not the device's sizeof. */
#define CLSCAN_TRANSFORM_SRC_CHECK "clscan_src_size_is_not_sizeof_src_type"
#define CLSCAN_TRANSFORM_DST_CHECK "clscan_dst_size_is_not_sizeof_dst_type"

#endif
