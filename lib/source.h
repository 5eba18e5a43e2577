/* The OpenCL C source of the kernels (source.c): files below cl/, embedded in the library at
 * build time (build-aux/embed-cl.sh) or read from CLSCAN_KERNEL_DIR, joined into programs. */
#ifndef CLSCAN_SOURCE_H
#define CLSCAN_SOURCE_H

#include "error.h"

typedef struct clscan_embedded_file {
    const char *path;   /* below cl/, e.g. "scan/tile_staged.cl" */
    const char *text;
} clscan_embedded_file;
extern const clscan_embedded_file clscan_embedded_files[];   /* ends with {NULL, NULL} */

/* The largest kernel file read from CLSCAN_KERNEL_DIR. */
#define CLSCAN_MAX_KERNEL_FILE ((size_t)1 << 20)

/* A program's source: text (may be NULL: an operator's definitions), then each file of the
 * NULL-terminated list files, each followed by a newline; the files from the directories of
 * kernel_dir (CLSCAN_KERNEL_DIR's syntax) or, if it is empty, the embedded ones.  *source is
 * malloc'd. */
cl_int clscan_source_join(const char *fn, const char *kernel_dir, const char *text, const char *const *files, char **source);

#endif
