/* Fuzz target: the developer environment variables (lib/environment.c), CLSCAN_DEVELOP
 * ("key=value" switches separated by ';') and CLSCAN_KERNEL_DIR (directories separated by ':'),
 * read through the library's own function, and the kernel files looked up in those directories
 * (lib/source.c).  The input is the value of CLSCAN_DEVELOP, a NUL byte, then the value of
 * CLSCAN_KERNEL_DIR.  Invariants: the parser accepts or returns CL_INVALID_VALUE or
 * CLSCAN_KERNEL_SOURCE_NOT_FOUND with a message; what it accepts is within the switches' ranges
 * and strings are terminated; a kernel file is found (in the directories or embedded) or the
 * lookup fails with a message. */
#define _POSIX_C_SOURCE 200809L
#include "environment.h"   /* lib/environment.h first: it sets the library's feature macros */
#include "source.h"
#include "fuzz.h"

#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *copy = malloc(size + 1);
    if (!copy)
        return 0;
    memcpy(copy, data, size);
    copy[size] = '\0';
    const char *develop = copy;
    const size_t len = strlen(copy);
    const char *kernel_dir = len < size ? copy + len + 1 : "";
    setenv("CLSCAN_DEVELOP", develop, 1);
    setenv("CLSCAN_KERNEL_DIR", kernel_dir, 1);

    clscan_dev_options dev;
    const cl_int err = clscan_env_dev_options("fuzz_environment", &dev);
    fuzz_assert(err == CL_SUCCESS || err == CL_INVALID_VALUE || err == CLSCAN_KERNEL_SOURCE_NOT_FOUND, "%s",
                clscan_error_string(err));
    if (err != CL_SUCCESS) {
        fuzz_assert(clscan_last_error()[0] != '\0', "no message");
    } else {
        fuzz_assert(dev.policy >= -1 && dev.policy <= 1, "policy %d", dev.policy);
        fuzz_assert((unsigned)dev.tiles <= (unsigned)CLSCAN_TILES_STREAMED, "tiles %d", (int)dev.tiles);
        fuzz_assert((unsigned)dev.primitive <= (unsigned)CLSCAN_PRIMITIVE_TWO_LEVEL, "primitive %d",
                    (int)dev.primitive);
        fuzz_assert(dev.status >= -1 && dev.status <= 2, "status %d", dev.status);
        fuzz_assert(dev.window_polls >= -1 && dev.spin_limit >= -1, "polls %ld, spin limit %ld", dev.window_polls,
                    dev.spin_limit);
        fuzz_assert(memchr(dev.build, '\0', sizeof dev.build) && memchr(dev.kernel_dir, '\0', sizeof dev.kernel_dir),
                    "an unterminated string");
        fuzz_assert(strcmp(dev.kernel_dir, kernel_dir) == 0, "kernel_dir \"%s\", not \"%s\"", dev.kernel_dir,
                    kernel_dir);
        /* One kernel file through the directories (or the embedded copy when there are none). */
        static const char *const files[] = {"scan/combine.cl", NULL};
        char *source = NULL;
        const cl_int serr = clscan_source_join("fuzz_environment", dev.kernel_dir, "/* fuzz */", files, &source);
        fuzz_assert(serr == CL_SUCCESS ? source != NULL : clscan_last_error()[0] != '\0', "%s",
                    clscan_error_string(serr));
        free(source);
    }
    unsetenv("CLSCAN_DEVELOP");
    unsetenv("CLSCAN_KERNEL_DIR");
    free(copy);
    return 0;
}
