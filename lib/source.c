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

static char *concat(const char *a, const char *b)
{
    const size_t la = strlen(a), lb = strlen(b);
    char *s = malloc(la + lb + 2);
    if (s) {
        memcpy(s, a, la);
        s[la] = '\n';
        memcpy(s + la + 1, b, lb + 1);
    }
    return s;
}

cl_int clscan_builtin_source(char **source)
{
    const char *dir = getenv("CLSCAN_KERNEL_DIR");
    char *ops = NULL, *scan = NULL, *all;
    if (dir && *dir) {
        cl_int err = read_kernel_file(dir, "clscan_ops.cl", &ops);
        if (err == CL_SUCCESS)
            err = read_kernel_file(dir, "clscan_scan.cl", &scan);
        if (err != CL_SUCCESS) {
            free(ops);
            return err;
        }
        all = concat(ops, scan);
        free(ops);
        free(scan);
    } else {
        all = concat(clscan_embedded_clscan_ops_cl, clscan_embedded_clscan_scan_cl);
    }
    if (!all)
        return clscan_fail(CL_OUT_OF_HOST_MEMORY, "out of host memory for the kernel source");
    *source = all;
    return CL_SUCCESS;
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
