/* The kernels' OpenCL C files: embedded, or read from CLSCAN_KERNEL_DIR for kernel work without
 * rebuilding the library.  CLSCAN_KERNEL_DIR is a list of directories separated by ':', each
 * laid out as cl/; a file is read from the first that has it (the tests put a directory with a
 * few replaced files in front of the source tree's cl/). */
#include "source.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Reads the regular file at path whole into a malloc'd string: no FIFO or device (the open
 * does not block), nothing over CLSCAN_MAX_KERNEL_FILE.  ENOENT leaves *text NULL. */
static cl_int read_file(const char *fn, const char *path, char **text)
{
    *text = NULL;
    const int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
    if (fd < 0)
        return errno == ENOENT ? CL_SUCCESS
                               : clscan_fail(CLSCAN_KERNEL_SOURCE_NOT_FOUND, "%s: cannot open %s (CLSCAN_KERNEL_DIR): %s",
                                             fn, path, strerror(errno));
    struct stat st;
    cl_int err = CL_SUCCESS;
    char *buf = NULL;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        err = clscan_fail(CLSCAN_KERNEL_SOURCE_NOT_FOUND, "%s: %s (CLSCAN_KERNEL_DIR) is not a regular file", fn, path);
    else if ((size_t)st.st_size > CLSCAN_MAX_KERNEL_FILE)
        err = clscan_fail(CLSCAN_KERNEL_SOURCE_NOT_FOUND, "%s: %s (CLSCAN_KERNEL_DIR) has %lld bytes, more than a "
                          "kernel file may (%zu)", fn, path, (long long)st.st_size, CLSCAN_MAX_KERNEL_FILE);
    else if (!(buf = malloc((size_t)st.st_size + 1)))
        err = clscan_fail(CL_OUT_OF_HOST_MEMORY, "%s: out of host memory reading %s", fn, path);
    size_t len = 0;
    while (err == CL_SUCCESS && len < (size_t)st.st_size) {
        const ssize_t n = read(fd, buf + len, (size_t)st.st_size - len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            err = clscan_fail(CLSCAN_KERNEL_SOURCE_NOT_FOUND, "%s: cannot read %s (CLSCAN_KERNEL_DIR)", fn, path);
        else
            len += (size_t)n;
    }
    close(fd);
    if (err != CL_SUCCESS) {
        free(buf);
        return err;
    }
    buf[len] = '\0';
    *text = buf;
    return CL_SUCCESS;
}

/* The text of the kernel file `name` (a path below cl/), malloc'd or (embedded) not: *owned. */
static cl_int kernel_file(const char *fn, const char *dirs, const char *name, const char **text, char **owned)
{
    *owned = NULL;
    if (dirs[0]) {
        for (const char *d = dirs; *d;) {
            const size_t n = strcspn(d, ":");
            char path[4096];
            if (n > 0 && (size_t)snprintf(path, sizeof path, "%.*s/%s", (int)n, d, name) >= sizeof path)
                return clscan_fail(CLSCAN_KERNEL_SOURCE_NOT_FOUND, "%s: CLSCAN_KERNEL_DIR: a directory name is too long", fn);
            cl_int err = n > 0 ? read_file(fn, path, owned) : CL_SUCCESS;
            if (err != CL_SUCCESS || *owned) {
                *text = *owned;
                return err;
            }
            d += n + (d[n] == ':');
        }
        return clscan_fail(CLSCAN_KERNEL_SOURCE_NOT_FOUND, "%s: no directory of CLSCAN_KERNEL_DIR (%s) has %s", fn,
                           dirs, name);
    }
    for (const clscan_embedded_file *f = clscan_embedded_files; f->path; ++f)
        if (strcmp(f->path, name) == 0) {
            *text = f->text;
            return CL_SUCCESS;
        }
    return clscan_fail(CLSCAN_KERNEL_SOURCE_NOT_FOUND, "%s: the library has no kernel file %s", fn, name);
}

cl_int clscan_source_join(const char *fn, const char *kernel_dir, const char *text, const char *const *files, char **source)
{
    size_t nfiles = 0;
    while (files[nfiles])
        ++nfiles;
    const char *texts[32];
    char *owned[32] = {0};
    if (nfiles > 32)
        return clscan_fail(CL_OUT_OF_RESOURCES, "%s: a program of more than 32 kernel files", fn);
    cl_int err = CL_SUCCESS;
    size_t n = (text ? strlen(text) + 1 : 0) + 1;
    for (size_t i = 0; i < nfiles && err == CL_SUCCESS; ++i)
        if ((err = kernel_file(fn, kernel_dir, files[i], &texts[i], &owned[i])) == CL_SUCCESS)
            n += strlen(texts[i]) + 1;
    char *s = err == CL_SUCCESS ? malloc(n) : NULL;
    if (err == CL_SUCCESS && !s)
        err = clscan_fail(CL_OUT_OF_HOST_MEMORY, "%s: out of host memory for the kernel source", fn);
    if (s) {
        char *end = s;
        for (size_t i = 0; i <= nfiles; ++i) {
            const char *part = i == 0 ? text : texts[i - 1];
            if (!part)
                continue;
            const size_t len = strlen(part);
            memcpy(end, part, len);
            end[len] = '\n';
            end += len + 1;
        }
        *end = '\0';
        *source = s;
    }
    for (size_t i = 0; i < nfiles; ++i)
        free(owned[i]);
    return err;
}
