/* Operators under test, built-in or custom, behind one interface: random inputs, the sequential
 * reference, the comparison and a cached plan.  The custom operators (the list) are
 * defined here with their OpenCL C snippets and their C counterparts. */
#ifndef CLSCAN_TESTOPS_H
#define CLSCAN_TESTOPS_H

#include <stdbool.h>
#include <stddef.h>

#include "testutil.h"

typedef struct to_custom {
    const char *name;
    clscan_custom def;
    void (*fill)(void *x, size_t n);                       /* random inputs */
    void (*neutral)(void *out);
    void (*comb)(const void *a, const void *b, void *out); /* a previous, b current */
    /* Equality of n elements (NULL: bitwise); returns the first differing index or n. */
    size_t (*diff)(const void *e, const void *g, size_t n);
} to_custom;

/* The custom operators: 2x2 int matrices (wrapping), signed 2x2 permutation matrices in float,
 * argmax keeping the first index, a struct declared in the preamble, AFFINE on float. */
#define TO_NCUSTOM 6
extern const to_custom to_customs[TO_NCUSTOM];
#define TO_AFFINE_FLOAT 4   /* the index of the custom AFFINE */

/* An operator under test: a built-in (op, type) when custom is NULL. */
typedef struct to_op {
    const to_custom *custom;
    clscan_op op;
    clscan_type type;
} to_op;

size_t to_size(const to_op *o);
const char *to_name(const to_op *o, char *buf, size_t size);
void to_fill(const to_op *o, void *x, size_t n);
/* The sequential reference of one segment (the whole array for a plain scan); x == y allowed. */
void to_reference(const to_op *o, clscan_kind kind, const void *x, void *y, size_t n);
/* out = comb(a, b) of o (a previous, b current), and o's neutral element. */
void to_comb(const to_op *o, const void *a, const void *b, void *out);
void to_neutral(const to_op *o, void *out);
/* The first index where got differs from expected, or n. */
size_t to_diff(const to_op *o, const void *expected, const void *got, size_t n);

/* A plan for o (tuning 0, 0: automatic), cached until to_close(); fails the test or, with
 * setup set, exits 99 when it cannot be created. */
clscan_plan *to_plan(const to_op *o, clscan_kind kind, size_t wg, size_t items, clscan_algorithm algo,
                     bool setup);
/* Releases the custom plans (built-in plans are testutil's). */
void to_close(void);

#endif
