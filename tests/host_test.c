/* clscan_host_with (and clscan_host through it): host arrays scanned with carries, totals,
 * reverse scans and reductions, on the default device and on one named by a spec, over the
 * caller's memory where the device shares it and through copies (the developer switch
 * host=copy), against a sequential reference that folds from the carry; in place; counts 0, 1
 * and over many tiles; and the bad arguments (rejected, arrays untouched).
 *
 * Exit status: 0 all checks passed, 1 a check failed, 77 no device, 99 a setup error. */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GUARD 3   /* elements of guard after every array */

/* Exact operators (so that any order of combination gives the reference's bits): integer
 * SUM, float SUM of small integers, MAX, and the non-commutative AFFINE on wrapping integers. */
static const struct {
    clscan_op op;
    clscan_type type;
} ops[] = {
    {CLSCAN_SUM, CLSCAN_INT32}, {CLSCAN_SUM, CLSCAN_FLOAT}, {CLSCAN_MAX, CLSCAN_DOUBLE}, {CLSCAN_AFFINE, CLSCAN_UINT32},
};
#define NOPS (int)(sizeof ops / sizeof ops[0])

static void neutral(clscan_op op, clscan_type type, void *out)
{
    unsigned char one[16] = {0};
    sup_reference(op, type, CLSCAN_EXCLUSIVE, one, out, 1);
}

/* The scan clscan_host_with documents, into y (NULL: none) and *total. */
static void reference(clscan_op op, clscan_type type, clscan_kind kind, const unsigned char *x, unsigned char *y,
                      size_t n, const void *carry, void *total, int reverse)
{
    const size_t e = tu_elem_size(op, type);
    unsigned char acc[16], next[16];
    if (carry)
        memcpy(acc, carry, e);
    else
        neutral(op, type, acc);
    for (size_t k = 0; k < n; k++) {
        const size_t i = reverse ? n - 1 - k : k;
        sup_comb(op, type, acc, x + i * e, next);
        if (y)
            memcpy(y + i * e, kind == CLSCAN_EXCLUSIVE ? acc : next, e);
        memcpy(acc, next, e);
    }
    memcpy(total, acc, e);
}

/* Small integers for float SUM (exact in any order), the tests' edge cases otherwise. */
static void fill(clscan_op op, clscan_type type, void *x, size_t n)
{
    if (op == CLSCAN_SUM && type == CLSCAN_FLOAT)
        for (size_t i = 0; i < n; i++)
            ((float *)x)[i] = (float)((int)tu_rand_below(201) - 100);
    else
        tu_fill(op, type, x, n);
}

typedef struct host_case {
    int init, total, reverse;
    int layout;   /* 0 separate, 1 in place, 2 dst NULL (needs total) */
} host_case;

static bool run_case(const char *spec, int o, clscan_kind kind, size_t n, const host_case *c, char *msg,
                     size_t msgsize)
{
    const clscan_op op = ops[o].op;
    const clscan_type type = ops[o].type;
    const size_t e = tu_elem_size(op, type), bytes = (n + GUARD) * e;
    unsigned char *x = malloc(bytes), *y = malloc(bytes), *ref = malloc(bytes), *x_before = malloc(bytes);
    unsigned char carry[16], total[16 * (1 + GUARD)], ref_total[16], total_before[sizeof total];
    ck_assert(x && y && ref && x_before);
    fill(op, type, x, n + GUARD);
    fill(op, type, carry, 1);
    tu_fill_bytes(y, bytes);
    tu_fill_bytes(total, sizeof total);
    memcpy(total_before, total, sizeof total);
    memcpy(x_before, x, bytes);
    memcpy(ref, c->layout == 1 ? x : y, bytes);
    reference(op, type, kind, x_before, c->layout == 2 ? NULL : ref, n, c->init ? carry : NULL, ref_total,
              c->reverse);
    unsigned char *dst = c->layout == 0 ? y : c->layout == 1 ? x : NULL;
    const cl_int err = clscan_host_with(spec, op, type, kind, x, dst, n, c->init ? carry : NULL,
                                        c->total ? total : NULL, c->reverse);
    const unsigned char *got = c->layout == 1 ? x : y;
    char what[256];
    snprintf(what, sizeof what, "[seed %llu] %s %s %s on %s, %zu elements, init %d, total %d, reverse %d, %s",
             (unsigned long long)tu_seed, tu_op_name(op), tu_type_name(type), tu_kind_name(kind),
             spec ? spec : "the default device", n, c->init, c->total, c->reverse,
             c->layout == 0 ? "separate" : c->layout == 1 ? "in place" : "dst NULL");
    bool ok = true;
    char diff[512];
    if (err != CL_SUCCESS) {
        snprintf(msg, msgsize, "%s: %s: %s", what, clscan_error_string(err), clscan_last_error());
        ok = false;
    } else if (c->layout != 1 && memcmp(x, x_before, bytes) != 0) {
        snprintf(msg, msgsize, "%s: src changed", what);
        ok = false;
    } else if (c->layout != 2 && !tu_compare(op, type, ref, got, n, diff, sizeof diff)) {
        snprintf(msg, msgsize, "%s: %s", what, diff);
        ok = false;
    } else if (memcmp(got + n * e, (c->layout == 1 ? x_before : ref) + n * e, GUARD * e) != 0 ||
               (c->layout == 2 && memcmp(y, ref, bytes) != 0)) {
        snprintf(msg, msgsize, "%s: the guards changed", what);
        ok = false;
    } else if (c->total && !tu_compare(op, type, ref_total, total, 1, diff, sizeof diff)) {
        snprintf(msg, msgsize, "%s: the total: %s", what, diff);
        ok = false;
    } else if (memcmp(total + (c->total ? e : 0), total_before + (c->total ? e : 0), sizeof total - (c->total ? e : 0))) {
        snprintf(msg, msgsize, "%s: bytes after the total changed", what);
        ok = false;
    }
    free(x), free(y), free(ref), free(x_before);
    return ok;
}

static const host_case cases[] = {
    {0, 0, 0, 0}, {1, 1, 0, 0}, {0, 1, 1, 1}, {1, 0, 1, 1}, {1, 1, 1, 2}, {0, 1, 0, 2},
};

static void check_op(const char *spec, int o, clscan_kind kind)
{
    const size_t counts[] = {0, 1, 1000, 100003 + (size_t)tu_rand_below(1000)};
    tu_tally t = {0};
    for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++)
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            char msg[1024];
            t.run++;
            if (!run_case(spec, o, kind, counts[k], &cases[i], msg, sizeof msg)) {
                if (t.failed++ == 0)
                    snprintf(t.first, sizeof t.first, "%s", msg);
                printf("FAILED: %s\n", msg);
            }
        }
    TU_TALLY_ASSERT(&t);
}

START_TEST(host_with_matches_the_reference)
{
    check_op(NULL, _i / 2, _i % 2 ? CLSCAN_EXCLUSIVE : CLSCAN_INCLUSIVE);
}
END_TEST

/* The copying path (the developer switch host=copy, read when a device is opened) on the
 * inclusive non-commutative and integer operators. */
START_TEST(host_with_through_copies)
{
    clscan_cache_clear();
    setenv("CLSCAN_DEVELOP", "host=copy", 1);
    check_op(NULL, 0, CLSCAN_INCLUSIVE);
    check_op(NULL, 3, CLSCAN_INCLUSIVE);
    unsetenv("CLSCAN_DEVELOP");
    clscan_cache_clear();
}
END_TEST

/* The tests' device named by a part of its name, and by "P:D". */
START_TEST(host_with_on_a_named_device)
{
    char name[256] = {0};
    ck_assert(clGetDeviceInfo(tu.device, CL_DEVICE_NAME, sizeof name - 1, name, NULL) == CL_SUCCESS);
    name[12] = '\0';
    check_op(name, 3, CLSCAN_INCLUSIVE);
    int32_t x[5] = {1, -2, 3, 0, -1}, y[5], want[5] = {101, 100, 102, 99, 99}, sum = 0;
    const int32_t start = 100;
    ck_assert(clscan_host_with(name, CLSCAN_SUM, CLSCAN_INT32, CLSCAN_INCLUSIVE, x, y, 5, &start, NULL, 1) ==
              CL_SUCCESS);
    ck_assert(memcmp(y, want, sizeof y) == 0);
    ck_assert(clscan_host_with(name, CLSCAN_SUM, CLSCAN_INT32, CLSCAN_INCLUSIVE, x, NULL, 5, NULL, &sum, 0) ==
              CL_SUCCESS);
    ck_assert_int_eq(sum, 1);
}
END_TEST

START_TEST(bad_host_calls_are_rejected)
{
    int32_t a[64], before[64], total = 7;
    tu_fill_bytes(a, sizeof a);
    memcpy(before, a, sizeof a);
    const int32_t one = 1;
    struct {
        const char *spec;
        int op;
        const void *src;
        void *dst;
        size_t count;
        void *total;
        cl_int want;
    } rows[] = {
        {"no device is called this", CLSCAN_SUM, a, a + 32, 8, NULL, CLSCAN_INVALID_DEVICE_SPEC},
        {NULL, 5, a, a + 32, 8, NULL, CLSCAN_INVALID_OPERATOR},
        {NULL, CLSCAN_SUM, NULL, a + 32, 8, NULL, CL_INVALID_HOST_PTR},
        {NULL, CLSCAN_SUM, a, NULL, 8, NULL, CL_INVALID_HOST_PTR},                 /* dst NULL, no total */
        {NULL, CLSCAN_SUM, a, a + 4, 8, NULL, CL_MEM_COPY_OVERLAP},
        {NULL, CLSCAN_SUM, a, a + 32, 8, a + 3, CL_MEM_COPY_OVERLAP},               /* total inside src */
        {NULL, CLSCAN_SUM, a, a + 32, 8, a + 39, CL_MEM_COPY_OVERLAP},              /* total inside dst */
        {NULL, CLSCAN_SUM, a, a + 32, SIZE_MAX / 2, NULL, CL_INVALID_BUFFER_SIZE},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const cl_int got = clscan_host_with(rows[i].spec, (clscan_op)rows[i].op, CLSCAN_INT32, CLSCAN_INCLUSIVE,
                                            rows[i].src, rows[i].dst, rows[i].count, &one, rows[i].total, 0);
        ck_assert_msg(got == rows[i].want, "row %zu: %s, expected %s", i, clscan_error_string(got),
                      clscan_error_string(rows[i].want));
        ck_assert_msg(strstr(clscan_last_error(), "clscan_host_with"), "row %zu: %s", i, clscan_last_error());
        ck_assert_msg(memcmp(a, before, sizeof a) == 0, "row %zu changed the array", i);
    }
    /* count 0: nothing, or the carry as the total */
    ck_assert(clscan_host_with(NULL, CLSCAN_SUM, CLSCAN_INT32, CLSCAN_INCLUSIVE, NULL, NULL, 0, NULL, NULL, 0) ==
              CL_SUCCESS);
    ck_assert(clscan_host_with(NULL, CLSCAN_SUM, CLSCAN_INT32, CLSCAN_INCLUSIVE, NULL, NULL, 0, &one, &total, 0) ==
              CL_SUCCESS);
    ck_assert_int_eq(total, 1);
}
END_TEST

int main(void)
{
    tu_open("host_test");
    tu_watchdog(600);
    Suite *s = suite_create("host");
    TCase *tc = tcase_create("host");
    tcase_add_loop_test(tc, host_with_matches_the_reference, 0, 2 * NOPS);
    tcase_add_test(tc, host_with_through_copies);
    tcase_add_test(tc, host_with_on_a_named_device);
    tcase_add_test(tc, bad_host_calls_are_rejected);
    suite_add_tcase(s, tc);
    int rc = tu_run(s);
    tu_close();
    return rc;
}
