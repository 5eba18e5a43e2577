/* The fuzz targets of tests/fuzz/: each defines LLVMFuzzerTestOneInput, which libFuzzer calls
 * with generated inputs ('make fuzz', built by clang with -fsanitize=fuzzer) and replay.c with
 * the files of the seed corpus and of the regressions (the test suite).  A target returns 0;
 * a broken invariant calls fuzz_fail, which aborts (a crash to libFuzzer, a failure to the
 * suite). */
#ifndef CLSCAN_FUZZ_H
#define CLSCAN_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Reports a broken invariant and aborts. */
#define fuzz_fail(...)                                                          \
    do {                                                                        \
        fprintf(stderr, "%s:%d: invariant broken: ", __FILE__, __LINE__);      \
        fprintf(stderr, __VA_ARGS__);                                           \
        fputc('\n', stderr);                                                    \
        abort();                                                                \
    } while (0)

#define fuzz_assert(cond, ...)                                                  \
    do {                                                                        \
        if (!(cond))                                                            \
            fuzz_fail(__VA_ARGS__);                                             \
    } while (0)

/* A stream that discards what is written (the code under test prints its messages). */
static inline FILE *fuzz_devnull(void)
{
    static FILE *f;
    if (!f && !(f = fopen("/dev/null", "w")))
        fuzz_fail("cannot open /dev/null");
    return f;
}

#endif
