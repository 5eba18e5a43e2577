/* Fuzz target: the clscan tool's command line (tools/options.c).  The input is the argument
 * list, arguments separated by NUL bytes (at most 64; none for an empty input).  Invariants: the parser returns -1 or
 * the usage status 2; when it accepts, every field holds a value the tool can use, and the
 * strings it keeps point into the arguments. */
#define _POSIX_C_SOURCE 200809L
#include "fuzz.h"

#include <math.h>
#include <string.h>

#include "tools/options.h"

enum { MAX_ARGS = 64 };

/* True if p points into one of the arguments. */
static int in_args(const char *p, char **argv, int argc)
{
    for (int i = 1; i < argc; i++)
        if (p >= argv[i] && p <= argv[i] + strlen(argv[i]))
            return 1;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* One NUL-terminated copy; the arguments are its NUL-separated pieces. */
    char *copy = malloc(size + 1);
    if (!copy)
        return 0;
    memcpy(copy, data, size);
    copy[size] = '\0';
    char *argv[MAX_ARGS + 2];
    int argc = 0;
    argv[argc++] = "clscan";
    for (size_t i = 0; size > 0 && i <= size && argc <= MAX_ARGS; i += strlen(copy + i) + 1)
        argv[argc++] = copy + i;
    argv[argc] = NULL;

    tool_options o;
    const int status = tool_parse_options(argc, argv, &o, fuzz_devnull());
    fuzz_assert(status == -1 || status == EXIT_TROUBLE, "status %d", status);
    if (status == -1) {
        fuzz_assert((unsigned)o.op <= (unsigned)CLSCAN_AFFINE, "op %d", (int)o.op);
        fuzz_assert((unsigned)o.type <= (unsigned)CLSCAN_DOUBLE, "type %d", (int)o.type);
        fuzz_assert((unsigned)o.kind <= (unsigned)CLSCAN_EXCLUSIVE, "kind %d", (int)o.kind);
        fuzz_assert(o.repeat >= 1 && o.repeat <= 1000000, "repeat %lu", o.repeat);
        fuzz_assert(!(o.count_set && o.input), "--count and --input accepted together");
        fuzz_assert(o.count_set || o.count == DEFAULT_COUNT, "count %zu not set", o.count);
        fuzz_assert(!o.algorithm_set || (unsigned)o.algorithm <= (unsigned)CLSCAN_ALGORITHM_SINGLE_PASS,
                    "algorithm %d", (int)o.algorithm);
        fuzz_assert(!o.variant_set || ((unsigned)o.tiles <= (unsigned)CLSCAN_TILES_STREAMED &&
                                       (unsigned)o.primitive <= (unsigned)CLSCAN_PRIMITIVE_TWO_LEVEL),
                    "variant %d:%d", (int)o.tiles, (int)o.primitive);
        fuzz_assert(!o.tolerance_set || (o.tolerance >= 0 && isfinite(o.tolerance)), "tolerance %g", o.tolerance);
        fuzz_assert(!o.device || in_args(o.device, argv, argc), "device string outside the arguments");
        fuzz_assert(!o.input || in_args(o.input, argv, argc), "input string outside the arguments");
        fuzz_assert(!o.output || in_args(o.output, argv, argc), "output string outside the arguments");
    }
    free(copy);
    return 0;
}
