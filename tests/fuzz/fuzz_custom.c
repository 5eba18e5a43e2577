/* Fuzz target: the checks of a custom operator before anything is compiled.  The input is the
 * operator's size (one byte: 0 ... 255, or with the top bit a large size), then its type,
 * neutral, comb and preamble strings separated by NUL bytes; a missing string is NULL.
 *   - clscan_custom_source (lib/custom.c, linked from the library's objects): rejects exactly
 *     the operators with a NULL or empty type, neutral or comb, a string longer than its
 *     CLSCAN_CUSTOM_MAX_* (clscan.h) or size 0; otherwise its source holds each string verbatim
 *     and the declared size;
 *   - clscan_plan_create_custom, the public function, with an invalid kind on a real context
 *     (CLSCAN_INVALID_CUSTOM_OPERATOR or CLSCAN_INVALID_KIND, nothing compiled) and with a valid
 *     kind and a NULL context (the plan is set up, then the context check fails and it is torn
 *     down): both must return NULL with a message.
 * The compile itself (PoCL: 0.05 to 1 s a program) is not fuzzed: the snippets are the caller's
 * OpenCL C, run with the rights of any kernel the caller enqueues (clscan.h). */
#define _POSIX_C_SOURCE 200809L
#include "custom.h"   /* lib/custom.h, before anything else: it sets the library's feature macros */
#include "fuzz.h"

#include <inttypes.h>
#include <string.h>

static struct {
    int ready;
    cl_device_id device;
    cl_context context;
} env;

static void open_device(void)
{
    cl_platform_id platform;
    env.ready = 1;
    if (clscan_default_device(NULL, &platform, &env.device) != CL_SUCCESS)
        return;
    const cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)platform, 0};
    env.context = clCreateContext(props, 1, &env.device, NULL, NULL, NULL);
}

static int blank(const char *s)
{
    return !s || !*s;
}

static int too_long(const char *s, size_t limit)
{
    return s && strlen(s) > limit;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!env.ready)
        open_device();
    if (size < 1)
        return 0;
    char *copy = malloc(size);
    if (!copy)
        return 0;
    memcpy(copy, data + 1, size - 1);
    copy[size - 1] = '\0';
    /* The strings: the NUL-separated pieces of the bytes after the size (none if there are no
     * such bytes; "a" is one piece, "a\0" two, the second empty); missing ones are NULL. */
    const char *s[4] = {NULL, NULL, NULL, NULL};
    for (size_t i = 0, k = 0; k < 4 && size > 1 && i <= size - 1; k++) {
        s[k] = copy + i;
        i += strlen(copy + i) + 1;
    }
    clscan_custom op = {s[0], data[0] & 0x80 ? (size_t)1 << (data[0] & 0x3f) : data[0], s[1], s[2], s[3]};
    const int invalid = blank(op.type) || blank(op.neutral) || blank(op.comb) || op.size == 0 ||
                        too_long(op.type, CLSCAN_CUSTOM_MAX_TYPE) ||
                        too_long(op.neutral, CLSCAN_CUSTOM_MAX_EXPRESSION) ||
                        too_long(op.comb, CLSCAN_CUSTOM_MAX_EXPRESSION) ||
                        too_long(op.preamble, CLSCAN_CUSTOM_MAX_PREAMBLE);

    char *source = NULL;
    cl_int err = clscan_custom_source(&op, &source);
    if (invalid) {
        fuzz_assert(err == CLSCAN_INVALID_CUSTOM_OPERATOR && !source, "invalid operator: %s",
                    clscan_error_string(err));
    } else {
        fuzz_assert(err == CL_SUCCESS && source, "valid operator: %s: %s", clscan_error_string(err),
                    clscan_last_error());
        char size_text[64];
        snprintf(size_text, sizeof size_text, "== %zu)", op.size);
        fuzz_assert(strstr(source, op.type) && strstr(source, op.neutral) && strstr(source, op.comb) &&
                        (!op.preamble || strstr(source, op.preamble)) && strstr(source, size_text),
                    "the source lacks a snippet or the size");
        free(source);
    }
    source = NULL;
    fuzz_assert(clscan_custom_source(NULL, &source) == CLSCAN_INVALID_CUSTOM_OPERATOR && !source,
                "a NULL operator");

    /* The public function, stopped before the compile. */
    if (env.context) {
        const clscan_kind bad_kind = (clscan_kind)(2 + (data[0] & 7));
        clscan_plan *plan = clscan_plan_create_custom(env.context, env.device, &op, bad_kind, &err);
        fuzz_assert(!plan && err == (invalid ? CLSCAN_INVALID_CUSTOM_OPERATOR : CLSCAN_INVALID_KIND) &&
                        clscan_last_error()[0], "kind %d: %s", (int)bad_kind, clscan_error_string(err));
    }
    clscan_plan *plan = clscan_plan_create_custom(NULL, env.device, &op, CLSCAN_INCLUSIVE, &err);
    fuzz_assert(!plan && err == (invalid ? CLSCAN_INVALID_CUSTOM_OPERATOR : CL_INVALID_CONTEXT) &&
                    clscan_last_error()[0], "NULL context: %s", clscan_error_string(err));
    free(copy);
    return 0;
}
