/* The single pass's fallback gives the same bits as its fast path.
 *
 * When a tile's look-back waits too long for a predecessor, the waiting work-group computes that
 * predecessor's total itself (tile_total_alone, cl/scan/tile_*.cl), with the combinations of the
 * work-group primitive's tree (cl/scan/wg_tree.cl).  If they differed from the primitive, float
 * results would depend on timing.  Here one plan is built as usual and one where every tile
 * recomputes the totals of all the tiles before it (a test hook in place of the status words,
 * tests/hooks/unpublished, and developer switches that skip the window), and their float SUM and
 * AFFINE scans (AFFINE in both accuracies) of values with rounding everywhere must agree bit for
 * bit, for each shape of the
 * tile and of the primitive: staged (the GPUs' policy) with Hillis-Steele, two levels (the shape
 * NVIDIA's warp shuffles use) and Blelloch; the work-items' registers (the CPUs' policy) with two
 * levels and Blelloch; and the work-groups of one work-item that scan their tile in four streamed
 * runs (the CPUs' default).  On NVIDIA's OpenCL the default variant is the shuffle itself.
 * The CPUs' reduce-by-key, whose fallback counts a tile's heads and folds its last run, is
 * checked the same way.
 *
 * Exit status: 0 all checks passed, 1 a check failed, 77 no device, 99 a setup error. */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The developer switches that send every tile of the single pass down the slow path, with the
 * test hook tests/hooks/unpublished/scan/status_separate.cl in front of the kernel sources. */
#define FALLBACK_ONLY "status=separate;window_polls=0;spin_limit=0"

static const struct {
    const char *policy;          /* CLSCAN_DEVELOP policy; NULL: the device's */
    clscan_tiles tiles;
    clscan_primitive primitive;
    size_t wg, items;            /* 0: automatic */
} variants[] = {
    {NULL, CLSCAN_TILES_AUTO, CLSCAN_PRIMITIVE_AUTO, 0, 0},   /* the device's own choice */
    {"gpu", CLSCAN_TILES_STAGED, CLSCAN_PRIMITIVE_HILLIS_STEELE, 64, 4},
    {"gpu", CLSCAN_TILES_STAGED, CLSCAN_PRIMITIVE_TWO_LEVEL, 64, 4},
    {"gpu", CLSCAN_TILES_STAGED, CLSCAN_PRIMITIVE_BLELLOCH, 64, 4},
    {"cpu", CLSCAN_TILES_REGISTERS, CLSCAN_PRIMITIVE_TWO_LEVEL, 16, 8},
    {"cpu", CLSCAN_TILES_REGISTERS, CLSCAN_PRIMITIVE_BLELLOCH, 16, 8},
    {"cpu", CLSCAN_TILES_STREAMED, CLSCAN_PRIMITIVE_AUTO, 1, 16},
};
#define NVARIANTS (int)(sizeof variants / sizeof variants[0])

static void set_or_unset(const char *name, const char *value)
{
    if (value)
        setenv(name, value, 1);
    else
        unsetenv(name);
}

/* The plan of variant v; fallback: every tile through the slow path. */
static clscan_plan *make_plan(clscan_op op, clscan_accuracy accuracy, int v, int fallback)
{
    char develop[256], kernels[8192];
    const char *srcdir = getenv("CLSCAN_SRCDIR");
    if (!srcdir || !*srcdir)
        srcdir = CLSCAN_TEST_SRCDIR;
    snprintf(develop, sizeof develop, "%s%s%s", variants[v].policy ? "policy=" : "",
             variants[v].policy ? variants[v].policy : "", fallback ? ";" FALLBACK_ONLY : "");
    snprintf(kernels, sizeof kernels, "%s/tests/hooks/unpublished:%s/cl", srcdir, srcdir);
    set_or_unset("CLSCAN_DEVELOP", develop[0] ? develop : NULL);
    set_or_unset("CLSCAN_KERNEL_DIR", fallback ? kernels : NULL);
    cl_int err;
    clscan_plan *plan = clscan_plan_create(tu.context, tu.device, op, CLSCAN_FLOAT, CLSCAN_INCLUSIVE, &err);
    unsetenv("CLSCAN_DEVELOP");
    unsetenv("CLSCAN_KERNEL_DIR");
    if (plan && err == CL_SUCCESS)
        err = clscan_plan_set_variant(plan, variants[v].tiles, variants[v].primitive);
    if (plan && err == CL_SUCCESS)
        err = clscan_plan_set_tuning(plan, variants[v].wg, variants[v].items);
    if (plan && err == CL_SUCCESS)
        err = clscan_plan_set_algorithm(plan, CLSCAN_ALGORITHM_SINGLE_PASS);
    if (plan && err == CL_SUCCESS)
        err = clscan_plan_set_accuracy(plan, accuracy);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "lookback_test: plan for variant %d failed: %s: %s\n", v, clscan_error_string(err),
                clscan_last_error());
        exit(99);
    }
    return plan;
}

/* Values with rounding in every combination: fractions for SUM; for AFFINE, a near 1 and b a
 * fraction, so that products and sums round too. */
static void fill(clscan_op op, float *x, size_t n)
{
    const size_t scalars = op == CLSCAN_AFFINE ? 2 * n : n;
    tu_fill_float_fractions(x, scalars);
    if (op == CLSCAN_AFFINE)
        for (size_t i = 0; i < n; i++)
            x[2 * i] = 0.9375f + x[2 * i] / 8.0f;
}

/* SUM, AFFINE in the working precision and compensated (whose tile totals carry the products'
 * low parts) on each variant. */
START_TEST(fallback_gives_the_fast_paths_bits)
{
    const clscan_op op = _i % 3 ? CLSCAN_AFFINE : CLSCAN_SUM;
    const clscan_accuracy accuracy = _i % 3 == 2 ? CLSCAN_ACCURACY_COMPENSATED : CLSCAN_ACCURACY_WORKING;
    const int v = _i / 3;
    clscan_plan *fast = make_plan(op, accuracy, v, 0);
    clscan_plan *slow = make_plan(op, accuracy, v, 1);
    /* The automatic tuning depends on the status layout, which the slow path forces: the slow
     * plan takes the fast one's, so that both combine in the same order. */
    size_t fast_wg = 0, fast_items = 0;
    clscan_plan_get_tuning(fast, &fast_wg, &fast_items);
    ck_assert(clscan_plan_set_tuning(slow, fast_wg, fast_items) == CL_SUCCESS);

    const size_t n = 50 * tu_tile(fast) + 17, es = clscan_element_size(fast);
    float *x = malloc(n * es), *y1 = malloc(n * es), *y2 = malloc(n * es);
    ck_assert(x && y1 && y2);
    fill(op, x, n);
    char msg[2048];
    tu_case c = {.op = op, .type = CLSCAN_FLOAT, .kind = CLSCAN_INCLUSIVE, .count = n, .input = x,
                 .no_reference = true};
    c.output = y1;
    bool ok = tu_check_scan(fast, &c, msg, sizeof msg);
    ck_assert_msg(ok, "%s", msg);
    c.output = y2;
    ok = tu_check_scan(slow, &c, msg, sizeof msg);
    ck_assert_msg(ok, "%s", msg);
    size_t first = n;
    for (size_t i = 0; i < n && first == n; i++)
        if (memcmp((char *)y1 + i * es, (char *)y2 + i * es, es) != 0)
            first = i;
    char d1[64] = "", d2[64] = "";
    if (first < n) {
        tu_format(op, CLSCAN_FLOAT, y1, first, d1, sizeof d1);
        tu_format(op, CLSCAN_FLOAT, y2, first, d2, sizeof d2);
    }
    size_t wg = 0, items = 0;
    clscan_tiles tiles;
    clscan_primitive primitive;
    clscan_plan_get_tuning(fast, &wg, &items);
    clscan_plan_get_variant(fast, &tiles, &primitive);
    clscan_plan_release(fast);
    clscan_plan_release(slow);
    free(x), free(y1), free(y2);
    ck_assert_msg(first == n, "[seed %llu] float %s (accuracy %d) single pass, policy %s, tiles %d, primitive %d, "
                  "tuning %zu x %zu, %zu elements: fast path and fallback differ first at %zu: %s vs %s",
                  (unsigned long long)tu_seed, tu_op_name(op), (int)accuracy,
                  variants[v].policy ? variants[v].policy : "default",
                  (int)tiles, (int)primitive, wg, items, n, first, d1, d2);
}
END_TEST

/* A plan's plain scans pack each tile's status and value into one 64-bit word (4-byte built-in
 * operators, devices with 64-bit atomics); its segmented scans do not.  Both share the plan's
 * status scratch on a queue, which must be cleared when the layout changes: the other layout's
 * words could hold anything where this one looks for its epoch.  Alternate them on one plan and
 * queue, single pass forced, and check each result exactly. */
START_TEST(plain_and_segmented_single_passes_alternate_on_one_plan)
{
    cl_int err;
    clscan_plan *plan = clscan_plan_create(tu.context, tu.device, CLSCAN_SUM, CLSCAN_UINT32, CLSCAN_INCLUSIVE, &err);
    ck_assert_msg(plan != NULL, "clscan_plan_create: %s: %s", clscan_error_string(err), clscan_last_error());
    ck_assert_int_eq(clscan_plan_set_algorithm(plan, CLSCAN_ALGORITHM_SINGLE_PASS), CL_SUCCESS);
    const size_t n = 40 * tu_tile(plan) + 5;
    cl_uint *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y), *ref = malloc(n * sizeof *ref);
    cl_uchar *heads = malloc(n);
    ck_assert(x && y && ref && heads);
    for (size_t i = 0; i < n; i++) {
        x[i] = (cl_uint)tu_rand();
        heads[i] = tu_rand_below(100) < 3;
    }
    cl_mem src = tu_buffer(tu.context, CL_MEM_READ_ONLY, n * sizeof *x, x);
    cl_mem dst = tu_buffer(tu.context, CL_MEM_READ_WRITE, n * sizeof *y, NULL);
    cl_mem h = tu_buffer(tu.context, CL_MEM_READ_ONLY, n, heads);
    for (int round = 0; round < 6; round++) {
        const int segmented = round % 2;
        cl_uint acc = 0;
        for (size_t i = 0; i < n; i++) {   /* unsigned: wraps as the device's sum does */
            acc = (segmented && heads[i] ? 0u : acc) + x[i];
            ref[i] = acc;
        }
        err = segmented ? clscan_enqueue_segmented(plan, tu.queue, src, 0, h, 0, dst, 0, n, 0, NULL, NULL)
                        : clscan_enqueue(plan, tu.queue, src, 0, dst, 0, n, 0, NULL, NULL);
        ck_assert_msg(err == CL_SUCCESS, "round %d: %s: %s", round, clscan_error_string(err), clscan_last_error());
        tu_read(tu.queue, dst, n * sizeof *y, y);
        size_t first = n;
        for (size_t i = 0; i < n && first == n; i++)
            if (y[i] != ref[i])
                first = i;
        ck_assert_msg(first == n, "[seed %llu] round %d (%s), %zu elements: first difference at %zu: %u, expected %u",
                      (unsigned long long)tu_seed, round, segmented ? "segmented" : "plain", n, first,
                      first < n ? y[first] : 0u, first < n ? ref[first] : 0u);
    }
    clReleaseMemObject(src);
    clReleaseMemObject(dst);
    clReleaseMemObject(h);
    clscan_plan_release(plan);
    free(x), free(y), free(ref), free(heads);
}
END_TEST

/* The CPUs' reduce-by-key (cl/scan/runs_serial.cl) recomputes a silent tile's total from its
 * keys and values: with every tile through that path, float SUM by runs of 1 ... 3000 keys (runs
 * that cross tiles, values with rounding) gives the fast path's bits, in tiles of several times
 * the variant's (lib/scan_runs.c) and of the variant's own. */
static void runs_reduce(const char *develop, int fallback, const cl_uint *keys, const float *x, size_t n,
                        cl_uint *keys_out, float *y, cl_ulong *nruns)
{
    char kernels[8192], all[256];
    const char *srcdir = getenv("CLSCAN_SRCDIR");
    if (!srcdir || !*srcdir)
        srcdir = CLSCAN_TEST_SRCDIR;
    snprintf(kernels, sizeof kernels, "%s/tests/hooks/unpublished:%s/cl", srcdir, srcdir);
    snprintf(all, sizeof all, "%s%s", develop, fallback ? ";" FALLBACK_ONLY : "");
    setenv("CLSCAN_DEVELOP", all, 1);
    set_or_unset("CLSCAN_KERNEL_DIR", fallback ? kernels : NULL);
    cl_int err;
    clscan_plan *plan = clscan_plan_create(tu.context, tu.device, CLSCAN_SUM, CLSCAN_FLOAT, CLSCAN_INCLUSIVE, &err);
    clscan_runs *r = err == CL_SUCCESS ? clscan_runs_create(tu.context, tu.device, 4, 4, &err) : NULL;
    unsetenv("CLSCAN_DEVELOP");
    unsetenv("CLSCAN_KERNEL_DIR");
    if (err == CL_SUCCESS)
        err = clscan_plan_set_algorithm(plan, CLSCAN_ALGORITHM_SINGLE_PASS);
    ck_assert_msg(err == CL_SUCCESS, "%s: %s", clscan_error_string(err), clscan_last_error());
    cl_mem k = tu_buffer(tu.context, CL_MEM_READ_ONLY, n * sizeof *keys, keys);
    cl_mem v = tu_buffer(tu.context, CL_MEM_READ_ONLY, n * sizeof *x, x);
    cl_mem ko = tu_buffer(tu.context, CL_MEM_READ_WRITE, n * sizeof *keys_out, NULL);
    cl_mem vo = tu_buffer(tu.context, CL_MEM_READ_WRITE, n * sizeof *y, NULL);
    cl_mem c = tu_buffer(tu.context, CL_MEM_READ_WRITE, sizeof *nruns, NULL);
    err = clscan_reduce_by_key_enqueue(r, plan, tu.queue, k, 0, v, 0, n, ko, 0, vo, 0, c, 0, 0, NULL, NULL);
    ck_assert_msg(err == CL_SUCCESS, "%s: %s", clscan_error_string(err), clscan_last_error());
    tu_read(tu.queue, c, sizeof *nruns, nruns);
    tu_read(tu.queue, ko, n * sizeof *keys_out, keys_out);
    tu_read(tu.queue, vo, n * sizeof *y, y);
    clReleaseMemObject(k), clReleaseMemObject(v), clReleaseMemObject(ko), clReleaseMemObject(vo);
    clReleaseMemObject(c);
    clscan_runs_release(r);
    clscan_plan_release(plan);
}

START_TEST(reduce_by_key_fallback_gives_the_fast_paths_bits)
{
    const size_t counts[] = {1000003, 70001};
    const size_t n = counts[_i];
    cl_uint *keys = malloc(n * sizeof *keys), *k1 = malloc(n * sizeof *k1), *k2 = malloc(n * sizeof *k2);
    float *x = malloc(n * sizeof *x), *y1 = malloc(n * sizeof *y1), *y2 = malloc(n * sizeof *y2);
    ck_assert(keys && k1 && k2 && x && y1 && y2);
    size_t runs = 0;
    for (size_t i = 0, left = 0; i < n; i++, left--) {
        if (left == 0) {
            left = 1 + tu_rand_below(3000);
            ++runs;
        }
        keys[i] = (cl_uint)runs;
    }
    tu_fill_float_fractions(x, n);
    cl_ulong fast_runs = 0, slow_runs = 0;
    runs_reduce("policy=cpu", 0, keys, x, n, k1, y1, &fast_runs);
    runs_reduce("policy=cpu", 1, keys, x, n, k2, y2, &slow_runs);
    size_t first = runs;
    for (size_t i = 0; i < runs && fast_runs == runs && slow_runs == runs && first == runs; i++)
        if (k1[i] != k2[i] || memcmp(&y1[i], &y2[i], sizeof *y1) != 0)
            first = i;
    ck_assert_msg(fast_runs == runs && slow_runs == runs && first == runs,
                  "[seed %llu] reduce_by_key of %zu floats in %zu runs: %llu and %llu runs; fast path and "
                  "fallback differ first at run %zu: %a vs %a", (unsigned long long)tu_seed, n, runs,
                  (unsigned long long)fast_runs, (unsigned long long)slow_runs, first,
                  first < runs ? (double)y1[first] : 0.0, first < runs ? (double)y2[first] : 0.0);
    free(keys), free(k1), free(k2), free(x), free(y1), free(y2);
}
END_TEST

int main(void)
{
    tu_open("lookback_test");
    tu_watchdog(540);
    Suite *s = suite_create("lookback");
    TCase *tc = tcase_create("fallback");
    tcase_add_loop_test(tc, fallback_gives_the_fast_paths_bits, 0, 3 * NVARIANTS);
    suite_add_tcase(s, tc);
    TCase *layouts = tcase_create("status layouts");
    tcase_add_test(layouts, plain_and_segmented_single_passes_alternate_on_one_plan);
    suite_add_tcase(s, layouts);
    TCase *runs = tcase_create("reduce_by_key");
    tcase_add_loop_test(runs, reduce_by_key_fallback_gives_the_fast_paths_bits, 0, 2);
    suite_add_tcase(s, runs);
    int rc = tu_run(s);
    tu_close();
    return rc;
}
