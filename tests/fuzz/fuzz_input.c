/* Fuzz target: the clscan tool's input file (--input: tools/options.c) and what the tool does
 * with it on the host (support/reference.c, support/compare.c, support/names.c).  The input is
 * three bytes choosing the operator, the type and the kind, then the file's contents.
 * Invariants: the reader accepts exactly the files of a whole number of elements and returns
 * their bytes; the reference scan in place gives the bits it gives into another array; the
 * segmented reference (heads taken from the data) gives on every segment the plain reference of
 * that segment; a result compares bitwise equal to itself.  The tolerant comparison and the
 * formatting of elements run on whatever the data holds (NaNs, infinities, subnormals). */
#define _POSIX_C_SOURCE 200809L
#include "fuzz.h"

#include <string.h>

#include "support/compare.h"
#include "support/names.h"
#include "support/reference.h"
#include "tools/options.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 3)
        return 0;
    const clscan_op op = sup_ops[data[0] % SUP_NOPS];
    const clscan_type type = sup_types[data[1] % SUP_NTYPES];
    const clscan_kind kind = data[2] & 1 ? CLSCAN_EXCLUSIVE : CLSCAN_INCLUSIVE;
    const uint8_t *file = data + 3;
    const size_t bytes = size - 3, e = sup_element_size(op, type);

    /* The file as a stream (an empty one from /dev/null: fmemopen wants a buffer). */
    FILE *f = bytes ? fmemopen((void *)file, bytes, "rb") : fopen("/dev/null", "rb");
    if (!f)
        return 0;
    unsigned char *x = NULL;
    size_t count = 0;
    const bool ok = tool_read_input_stream(f, "fuzz", op, type, &x, &count, fuzz_devnull());
    fclose(f);
    fuzz_assert(ok == (bytes % e == 0), "read %s %zu bytes of %zu-byte elements", ok ? "accepted" : "rejected",
                bytes, e);
    if (!ok)
        return 0;
    fuzz_assert(count * e == bytes && memcmp(x, file, bytes) == 0, "read %zu elements of %zu bytes", count, bytes);

    const size_t n = count ? count * e : 1;
    unsigned char *y = malloc(n), *z = malloc(n), *s = malloc(n), *heads = malloc(count ? count : 1);
    if (!y || !z || !s || !heads)
        abort();

    /* The reference, into y and in place (z). */
    sup_reference(op, type, kind, x, y, count);
    memcpy(z, x, count * e);
    sup_reference(op, type, kind, z, z, count);
    sup_compare_result res;
    fuzz_assert(sup_compare(op, type, SUP_MATCH_BITS, y, z, count, &res), "in place differs at %zu",
                res.first_mismatch);
    fuzz_assert(sup_compare(op, type, SUP_MATCH_BITS, y, y, count, &res), "a result differs from itself");
    sup_compare(op, type, SUP_MATCH_VALUES, y, z, count, &res);

    /* Segmented: heads from the data's bytes; each segment must be the plain reference. */
    for (size_t i = 0; i < count; i++)
        heads[i] = x[i * e] & 0x11;
    sup_reference_segmented(op, type, kind, SUP_HEADS, heads, x, s, count);
    for (size_t start = 0, end; start < count; start = end) {
        end = sup_segment_end(SUP_HEADS, heads, start, count);
        fuzz_assert(end > start && end <= count, "segment [%zu, %zu) of %zu", start, end, count);
        sup_reference(op, type, kind, x + start * e, z + start * e, end - start);
    }
    fuzz_assert(sup_compare(op, type, SUP_MATCH_BITS, z, s, count, &res), "segmented differs at %zu",
                res.first_mismatch);

    /* What the tool does with --input data: the tolerant check, the report of a difference. */
    if (sup_needs_tolerance(op, type)) {
        const double tol = sup_default_tolerance(op, type, count, 1 + (data[2] >> 4), 1u << (data[2] >> 1 & 7));
        sup_compare_tolerant(op, type, kind, x, y, count, tol, &res);
        sup_compare_tolerant(op, type, kind, x, x, count, tol, &res);
    }
    if (!sup_compare(op, type, SUP_MATCH_BITS, x, y, count, &res)) {
        char text[512];
        sup_describe_mismatch(op, type, x, y, count, &res, text, sizeof text);
        fuzz_assert(text[0] != '\0', "an empty description of a mismatch");
    }
    char buf[128];
    for (size_t i = 0; i < count && i < 4; i++)
        sup_format_element(op, type, x, i, buf, sizeof buf);

    free(x);
    free(y);
    free(z);
    free(s);
    free(heads);
    return 0;
}
