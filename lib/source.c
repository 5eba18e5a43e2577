/* The OpenCL C source of the kernels: embedded in the library at build time, or read from
 * CLSCAN_KERNEL_DIR for kernel work without rebuilding the library. */
#include "internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reads DIR/name whole into a malloc'd string. */
static cl_int read_kernel_file(const char *dir, const char *name, char **text)
{
    char path[4096];
    if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, name) >= sizeof path)
        return clscan_fail(CLSCAN_KERNEL_SOURCE_NOT_FOUND, "CLSCAN_KERNEL_DIR is too long");
    FILE *f = fopen(path, "rb");
    if (!f)
        return clscan_fail(CLSCAN_KERNEL_SOURCE_NOT_FOUND, "cannot open %s (CLSCAN_KERNEL_DIR): %s",
                           path, strerror(errno));
    size_t cap = 1 << 14, len = 0;
    char *buf = malloc(cap);
    while (buf) {
        len += fread(buf + len, 1, cap - 1 - len, f);
        if (len < cap - 1)
            break;
        char *bigger = realloc(buf, cap * 2);
        if (!bigger) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = bigger;
        cap *= 2;
    }
    const int failed = ferror(f);
    fclose(f);
    if (!buf)
        return clscan_fail(CL_OUT_OF_HOST_MEMORY, "out of host memory reading %s", path);
    if (failed) {
        free(buf);
        return clscan_fail(CLSCAN_KERNEL_SOURCE_NOT_FOUND, "cannot read %s (CLSCAN_KERNEL_DIR)", path);
    }
    buf[len] = '\0';
    *text = buf;
    return CL_SUCCESS;
}

/* The text of the kernel file `name`: from CLSCAN_KERNEL_DIR when set, else embedded. */
static cl_int kernel_file(const char *name, const char *embedded, char **text)
{
    const char *dir = getenv("CLSCAN_KERNEL_DIR");
    if (dir && *dir)
        return read_kernel_file(dir, name, text);
    const size_t n = strlen(embedded) + 1;
    if (!(*text = malloc(n)))
        return clscan_fail(CL_OUT_OF_HOST_MEMORY, "out of host memory for the kernel source");
    memcpy(*text, embedded, n);
    return CL_SUCCESS;
}

/* Joins parts (NULL-terminated list) with a newline after each; NULL when out of memory. */
static char *join(const char *const *parts)
{
    size_t n = 1;
    for (const char *const *p = parts; *p; ++p)
        n += strlen(*p) + 1;
    char *s = malloc(n), *end = s;
    if (!s)
        return NULL;
    for (const char *const *p = parts; *p; ++p) {
        const size_t len = strlen(*p);
        memcpy(end, *p, len);
        end[len] = '\n';
        end += len + 1;
    }
    *end = '\0';
    return s;
}

cl_int clscan_builtin_ops_source(char **source)
{
    return kernel_file("clscan_ops.cl", clscan_embedded_clscan_ops_cl, source);
}

cl_int clscan_program_source(const char *op_source, int segmented, char **source)
{
    char *seg = NULL, *scan = NULL;
    cl_int err = CL_SUCCESS;
    if (segmented)
        err = kernel_file("clscan_segmented.cl", clscan_embedded_clscan_segmented_cl, &seg);
    if (err == CL_SUCCESS)
        err = kernel_file("clscan_scan.cl", clscan_embedded_clscan_scan_cl, &scan);
    if (err == CL_SUCCESS) {
        const char *parts[] = {op_source, seg ? seg : scan, seg ? scan : NULL, NULL};
        if (!(*source = join(parts)))
            err = clscan_fail(CL_OUT_OF_HOST_MEMORY, "out of host memory for the kernel source");
    }
    free(seg);
    free(scan);
    return err;
}

/* The source of one of the algorithms' programs (compaction, radix sort): one file of cl/,
 * self-contained, from CLSCAN_KERNEL_DIR like the scans' sources. */
cl_int clscan_algo_source(const char *name, const char *embedded, char **source)
{
    const char *dir = getenv("CLSCAN_KERNEL_DIR");
    if (dir && *dir)
        return read_kernel_file(dir, name, source);
    const size_t n = strlen(embedded) + 1;
    if (!(*source = malloc(n)))
        return clscan_fail(CL_OUT_OF_HOST_MEMORY, "out of host memory for the kernel source");
    memcpy(*source, embedded, n);
    return CL_SUCCESS;
}
