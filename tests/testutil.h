/* Shared helpers of the clscan test suite: the device, random inputs, the sequential
 * reference scan, comparisons and a checked scan of device buffers. */
#ifndef CLSCAN_TESTUTIL_H
#define CLSCAN_TESTUTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <check.h>

#include "clscan.h"
#include "support/compare.h"
#include "support/inputs.h"
#include "support/names.h"
#include "support/reference.h"

/* The device every test uses: the default device, a context and an in-order queue. */
typedef struct tu_env {
    cl_platform_id platform;
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
} tu_env;

extern tu_env tu;

/* Opens the default device (clscan_default_device(NULL, ...)).  Without any OpenCL device the
 * program exits 77 (skip), or 1 when the environment variable CI is set (CI has a device).
 * Also seeds the random generator (CLSCAN_TEST_SEED or time ^ pid) and prints the seed. */
void tu_open(const char *program);
/* Releases the queue and context and clears the library's caches. */
void tu_close(void);
/* Runs the suite without forking (so the library's program cache is shared by all tests),
 * prints a summary and returns the exit status: 0 if every test passed, else 1. */
int tu_run(Suite *suite);
/* Aborts the whole program with a message after the given number of seconds (a hang guard);
 * the environment variable CLSCAN_TEST_TIMEOUT overrides them (0: no limit). */
void tu_watchdog(unsigned seconds);

/* ---- Random numbers (xoshiro256**, seeded from the printed seed) ---- */
extern uint64_t tu_seed;
uint64_t tu_rand(void);
uint64_t tu_rand_below(uint64_t n); /* uniform in [0, n), n > 0 */

/* ---- Names (the support library's, support/names.h) ---- */
static inline const char *tu_op_name(clscan_op op) { return sup_op_name(op); }
static inline const char *tu_type_name(clscan_type type) { return sup_type_name(type); }
static inline const char *tu_kind_name(clscan_kind kind) { return sup_kind_name(kind); }
static inline size_t tu_scalar_size(clscan_type type) { return sup_scalar_size(type); }
static inline size_t tu_elem_size(clscan_op op, clscan_type type) { return sup_element_size(op, type); }

#define TU_NOPS SUP_NOPS
#define TU_NTYPES SUP_NTYPES
#define tu_ops sup_ops
#define tu_types sup_types

/* ---- Inputs, reference and comparison ---- */
/* Fills n elements of x with the tests' edge-case inputs (sup_random_edges) from this thread's
 * generator. */
void tu_fill(clscan_op op, clscan_type type, void *x, size_t n);
/* Fills n elements with float SUM inputs that are not integers (for the reproducibility check). */
void tu_fill_float_fractions(float *x, size_t n);
/* Fills bytes with random bytes (guard patterns). */
void tu_fill_bytes(void *p, size_t bytes);
/* The sequential reference (sup_reference): acc = N; inclusive: acc = comb(acc, x[i]), y[i] = acc;
 * exclusive: y[i] = acc, acc = comb(acc, x[i]).  x and y may be the same array. */
static inline void tu_reference(clscan_op op, clscan_type type, clscan_kind kind, const void *x, void *y, size_t n)
{
    sup_reference(op, type, kind, x, y, n);
}
/* Compares n elements of got with expected (SUP_MATCH_VALUES): == for SUM and AFFINE on float and
 * double, bit patterns otherwise.  Returns true if equal; otherwise writes the first differing
 * index, both values and the number of differing elements into msg. */
bool tu_compare(clscan_op op, clscan_type type, const void *expected, const void *got, size_t n,
                char *msg, size_t msgsize);
/* Writes element i of x as text. */
static inline void tu_format(clscan_op op, clscan_type type, const void *x, size_t i, char *buf, size_t bufsize)
{
    sup_format_element(op, type, x, i, buf, bufsize);
}

/* ---- Plans ---- */
/* A plan with the automatic tuning and algorithm, created once per (op, type, kind) and kept
 * until tu_close(); fails the current test if creation fails. */
clscan_plan *tu_plan(clscan_op op, clscan_type type, clscan_kind kind);
/* A plan with the given tuning (0, 0: automatic), cached the same way. */
clscan_plan *tu_plan_tuned(clscan_op op, clscan_type type, clscan_kind kind, size_t wg, size_t items);
/* A plan with the given tuning and algorithm, cached the same way.  Plans that differ only in
 * the algorithm share one program (no extra build). */
clscan_plan *tu_plan_algo(clscan_op op, clscan_type type, clscan_kind kind, size_t wg, size_t items,
                          clscan_algorithm algo);
static inline const char *tu_algo_name(clscan_algorithm algo) { return sup_algorithm_name(algo); }
/* For main(), before the tests: creates and caches that plan, or exits 99 (a setup error). */
void tu_prepare_plan(clscan_op op, clscan_type type, clscan_kind kind, size_t wg, size_t items,
                     clscan_algorithm algo);
size_t tu_tile(clscan_plan *plan); /* work_group_size * items_per_work_item */

/* ---- A checked scan of device buffers ---- */
typedef struct tu_case {
    clscan_op op;
    clscan_type type;
    clscan_kind kind;
    size_t count;
    size_t src_offset;
    size_t dst_offset;
    enum { TU_SEPARATE, TU_IN_PLACE, TU_SAME_BUFFER_DISJOINT } layout;
    cl_command_queue queue; /* NULL: tu.queue */
    bool wait_on_writes;    /* write non-blocking and pass the writes' events as the wait list */
    unsigned salt;          /* mixed into the seed of the case's input (different data) */
    const void *input;      /* NULL: random tu_fill() input seeded from the seed and the case */
    void *output;           /* if non-NULL, receives the count scanned elements */
    bool no_reference;      /* skip the comparison with the reference (order-dependent rounding) */
} tu_case;

/* Scans c->count elements of c->input (or fresh random input) with plan into a separate or the
 * same buffer with guard elements around both ranges, waits for the returned event, reads
 * everything back and checks: the result against the reference, the guards and the source
 * untouched.  Returns true if all is right, else false with the seed, the case and the first
 * difference in msg. */
bool tu_check_scan(clscan_plan *plan, const tu_case *c, char *msg, size_t msgsize);
/* Describes the case (op, type, kind, count, offsets, tuning, seed) into buf. */
void tu_describe(clscan_plan *plan, const tu_case *c, char *buf, size_t bufsize);

/* Runs many cases, records the failures (printing each) and asserts at the end. */
typedef struct tu_tally {
    int run, failed;
    char first[2048];
} tu_tally;
void tu_tally_check(tu_tally *t, clscan_plan *plan, const tu_case *c);
#define TU_TALLY_ASSERT(t)                                                          \
    ck_assert_msg((t)->failed == 0, "%d of %d cases failed; the first: %s", (t)->failed, \
                  (t)->run, (t)->first)

/* Asserts (Check) that tu_check_scan passes. */
#define TU_CHECK_SCAN(plan, ...)                                                   \
    do {                                                                           \
        char tu_msg_[2048];                                                        \
        tu_case tu_case_ = {__VA_ARGS__};                                          \
        ck_assert_msg(tu_check_scan((plan), &tu_case_, tu_msg_, sizeof tu_msg_),  \
                      "%s", tu_msg_);                                              \
    } while (0)

/* ---- Small OpenCL helpers that fail the current test on error ---- */
cl_mem tu_buffer(cl_context ctx, cl_mem_flags flags, size_t bytes, const void *init);
void tu_read(cl_command_queue q, cl_mem buf, size_t bytes, void *out);
void tu_write(cl_command_queue q, cl_mem buf, size_t bytes, const void *in);

/* Fails the current test unless got == want and clscan_last_error() says something. */
void tu_expect_status(cl_int got, cl_int want, const char *what);

#endif
