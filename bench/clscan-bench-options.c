/* clscan-bench-options: what the scan options cost (bench/README).
 *   recurrence   clscan_enqueue_recurrence (float and double; a constant or an array) against the
 *                AFFINE scan of pairs already made, the same with the pairing pass before it (a
 *                kernel that interleaves a and b), and the sequential loop;
 *   reduction    clscan_enqueue_with with dst NULL against the scan of the same array;
 *   segments     clscan_enqueue_segmented_offsets (float SUM, CSR-like offsets of rows of 1 to
 *                63 elements, a few empty) against clscan_enqueue_segmented given the heads, the
 *                same with the pass that makes the heads from the offsets before it, and the
 *                reduction by segment (dst NULL, the totals only);
 *   axis         clscan_enqueue_axis (float SUM) along the rows and along the columns of 2^24
 *                floats as 2^12 x 2^12, 16 x 2^20 and 2^20 x 16 (rows x cols, pitch = cols),
 *                against clscan_enqueue of the same 2^24 floats as one array (--axis: these
 *                rows alone, and the two below);
 *   axis totals  clscan_enqueue_axis_totals (float SUM) along the rows and the columns of the same
 *                shapes, against the reduction of the 2^24 floats as one array;
 *   axis sort    clscan_axis_sort_enqueue (uint32 keys alone) along the rows and the columns of
 *                2^12 x 2^12, 2^16 x 256, 256 x 2^16, 16 x 2^20 and 1 x 2^24, against
 *                clscan_sort_enqueue of the same 2^24 keys as one array;
 *   transform    the exclusive count of live float4 particles through an input transform against
 *                the plain int scan of the flags already made;
 *   host         clscan_host over the caller's memory against the copying path (the developer
 *                switch host=copy), wall time of the whole call.
 * Device times as clscan-bench measures them (a marker before, the last command's end after;
 * the median of --reps runs after a warm-up); copy = clEnqueueCopyBuffer of the bytes the
 * operation must move (read once and written once).  Every result is checked once against the
 * loop, exactly: the inputs are bench_common.h's affine and sum data, exact in any order. */
#define _POSIX_C_SOURCE 200809L
#include "bench_common.h"
#include "support/reference.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct ctx {
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
    int reps;
    cl_kernel pair[2];   /* the pairing pass: float, double (NULL without fp64) */
    cl_kernel heads;     /* the heads from CSR offsets */
} ctx;

/* The passes a user writes to make AFFINE's pairs from arrays a and b, and a segmented scan's
 * heads from CSR offsets (after the heads are cleared). */
static const char pair_source[] =
    "__kernel void heads_from_offsets(__global const uint *offsets, __global uchar *heads, uint n)\n"
    "{ const uint o = offsets[get_global_id(0)]; if (o < n) heads[o] = 1; }\n"
    "__kernel void pair_float(__global const float *a, __global const float *b, __global float2 *p)\n"
    "{ const size_t i = get_global_id(0); p[i] = (float2)(a[i], b[i]); }\n"
    "#ifdef FP64\n"
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "__kernel void pair_double(__global const double *a, __global const double *b, __global double2 *p)\n"
    "{ const size_t i = get_global_id(0); p[i] = (double2)(a[i], b[i]); }\n"
    "#endif\n";

static double wall_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int fail(const char *what, cl_int err)
{
    fprintf(stderr, "clscan-bench-options: %s: %s: %s\n", what, clscan_error_string(err), clscan_last_error());
    return 1;
}

/* One operation to time: enqueues its commands, the last one's event in *ev. */
typedef cl_int (*op_fn)(const ctx *c, void *arg, cl_event *ev);

/* The median device time of fn (ms), or a negative value on failure. */
static double device_ms(const ctx *c, op_fn fn, void *arg)
{
    double t[64];
    const int reps = c->reps < 64 ? c->reps : 64;
    for (int r = -1; r < reps; ++r) {   /* r == -1: the warm-up */
        cl_event marker = NULL, ev = NULL;
        cl_int err = clEnqueueMarkerWithWaitList(c->queue, 0, NULL, &marker);
        if (err == CL_SUCCESS)
            err = fn(c, arg, &ev);
        clFinish(c->queue);
        cl_ulong m = 0, end = 0;
        if (err == CL_SUCCESS)
            err = clGetEventProfilingInfo(marker, CL_PROFILING_COMMAND_END, sizeof m, &m, NULL);
        if (err == CL_SUCCESS)
            err = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL);
        if (marker)
            clReleaseEvent(marker);
        if (ev)
            clReleaseEvent(ev);
        if (err != CL_SUCCESS) {
            fail("a timed run", err);
            return -1;
        }
        if (r >= 0)
            t[r] = (double)(end - m) / 1e6;
    }
    return bench_median(t, reps);
}

/* ---- The operations ---- */
typedef struct args {
    clscan_plan *plan;
    cl_mem a, b, y, pairs, src, dst, total;
    cl_mem offsets, heads, totals;
    const void *a_const;
    size_t n, scalar, bytes, nsegments;
    int with_pairing;
    clscan_axis axis;
    size_t rows, cols;
    clscan_sorter *sorter;
} args;

static cl_int run_recurrence(const ctx *c, void *p, cl_event *ev)
{
    const args *x = p;
    return clscan_enqueue_recurrence(x->plan, c->queue, x->a_const ? NULL : x->a, 0, x->a_const, x->b, 0, x->y, 0,
                                     x->n, NULL, 0, NULL, ev);
}

/* The pairs made from a and b by the pairing kernel, then scanned in place. */
static cl_int run_pairs(const ctx *c, void *p, cl_event *ev)
{
    const args *x = p;
    cl_int err = CL_SUCCESS;
    if (x->with_pairing) {
        cl_kernel k = c->pair[x->scalar == 8];
        err = clSetKernelArg(k, 0, sizeof(cl_mem), &x->a);
        if (err == CL_SUCCESS)
            err = clSetKernelArg(k, 1, sizeof(cl_mem), &x->b);
        if (err == CL_SUCCESS)
            err = clSetKernelArg(k, 2, sizeof(cl_mem), &x->pairs);
        if (err == CL_SUCCESS)
            err = clEnqueueNDRangeKernel(c->queue, k, 1, NULL, &x->n, NULL, 0, NULL, NULL);
    }
    return err != CL_SUCCESS ? err : clscan_enqueue(x->plan, c->queue, x->pairs, 0, x->pairs, 0, x->n, 0, NULL, ev);
}

static cl_int run_copy(const ctx *c, void *p, cl_event *ev)
{
    const args *x = p;
    return clEnqueueCopyBuffer(c->queue, x->src, x->dst, 0, 0, x->bytes, 0, NULL, ev);
}

static cl_int run_scan(const ctx *c, void *p, cl_event *ev)
{
    const args *x = p;
    return clscan_enqueue(x->plan, c->queue, x->src, 0, x->dst, 0, x->n, 0, NULL, ev);
}

static cl_int run_reduce(const ctx *c, void *p, cl_event *ev)
{
    const args *x = p;
    const clscan_scan_options o = {.total = x->total};
    return clscan_enqueue_with(x->plan, c->queue, x->src, 0, NULL, 0, x->n, &o, 0, NULL, ev);
}

static cl_int run_axis(const ctx *c, void *p, cl_event *ev)
{
    const args *x = p;
    return clscan_enqueue_axis(x->plan, c->queue, x->axis, x->src, 0, x->cols, x->dst, 0, x->cols, x->rows, x->cols,
                               0, NULL, ev);
}

static cl_int run_axis_totals(const ctx *c, void *p, cl_event *ev)
{
    const args *x = p;
    return clscan_enqueue_axis_totals(x->plan, c->queue, x->axis, x->src, 0, x->cols, x->dst, 0, x->rows, x->cols, 0,
                                      NULL, ev);
}

static cl_int run_axis_sort(const ctx *c, void *p, cl_event *ev)
{
    const args *x = p;
    return clscan_axis_sort_enqueue(x->sorter, c->queue, x->axis, x->src, 0, x->cols, x->dst, 0, x->cols, NULL, 0,
                                    NULL, 0, x->rows, x->cols, 0, NULL, ev);
}

static cl_int run_sort(const ctx *c, void *p, cl_event *ev)
{
    const args *x = p;
    return clscan_sort_enqueue(x->sorter, c->queue, x->src, 0, x->dst, 0, NULL, 0, NULL, 0, x->n, 0, NULL, ev);
}

static cl_int run_offsets(const ctx *c, void *p, cl_event *ev)
{
    const args *x = p;
    return clscan_enqueue_segmented_offsets(x->plan, c->queue, x->src, 0, CLSCAN_UINT32, x->offsets, 0, x->nsegments,
                                            x->dst, 0, x->n, NULL, 0, 0, NULL, ev);
}

static cl_int run_segment_totals(const ctx *c, void *p, cl_event *ev)
{
    const args *x = p;
    return clscan_enqueue_segmented_offsets(x->plan, c->queue, x->src, 0, CLSCAN_UINT32, x->offsets, 0, x->nsegments,
                                            NULL, 0, x->n, x->totals, 0, 0, NULL, ev);
}

/* The heads made from the offsets when with_pairing (cleared, then one per segment start), then
 * the segmented scan by heads. */
static cl_int run_heads(const ctx *c, void *p, cl_event *ev)
{
    const args *x = p;
    cl_int err = CL_SUCCESS;
    if (x->with_pairing) {
        const cl_uchar zero = 0;
        const cl_uint n32 = (cl_uint)x->n;
        err = clEnqueueFillBuffer(c->queue, x->heads, &zero, 1, 0, x->n, 0, NULL, NULL);
        if (err == CL_SUCCESS)
            err = clSetKernelArg(c->heads, 0, sizeof(cl_mem), &x->offsets);
        if (err == CL_SUCCESS)
            err = clSetKernelArg(c->heads, 1, sizeof(cl_mem), &x->heads);
        if (err == CL_SUCCESS)
            err = clSetKernelArg(c->heads, 2, sizeof n32, &n32);
        if (err == CL_SUCCESS)
            err = clEnqueueNDRangeKernel(c->queue, c->heads, 1, NULL, &x->nsegments, NULL, 0, NULL, NULL);
    }
    return err != CL_SUCCESS ? err
                             : clscan_enqueue_segmented(x->plan, c->queue, x->src, 0, x->heads, 0, x->dst, 0, x->n, 0,
                                                        NULL, ev);
}

static cl_mem buffer(const ctx *c, size_t bytes, const void *init)
{
    cl_int err;
    cl_mem m = clCreateBuffer(c->context, CL_MEM_READ_WRITE | (init ? CL_MEM_COPY_HOST_PTR : 0), bytes, (void *)init,
                              &err);
    if (!m)
        fail("clCreateBuffer", err);
    return m;
}

/* Recurrence rows of one type at n: a constant (1) and an array (+-1), b from the affine data. */
static int bench_recurrence(const ctx *c, clscan_type type, size_t n)
{
    const size_t s = type == CLSCAN_FLOAT ? 4 : 8;
    float *pf = malloc(n * 8);
    unsigned char *a = malloc(n * s), *b = malloc(n * s), *y = malloc(n * s), *pairs = malloc(2 * n * s);
    double *ref = malloc(n * sizeof *ref);
    if (!pf || !a || !b || !y || !pairs || !ref)
        return fail("malloc", CL_OUT_OF_HOST_MEMORY);
    bench_generate(BENCH_FAFF, n, pf);
    for (size_t i = 0; i < n; ++i) {
        if (type == CLSCAN_FLOAT) {
            memcpy(a + i * s, &pf[2 * i], 4);
            memcpy(b + i * s, &pf[2 * i + 1], 4);
        } else {
            const double da = pf[2 * i], db = pf[2 * i + 1];
            memcpy(a + i * s, &da, 8);
            memcpy(b + i * s, &db, 8);
        }
    }
    cl_int err;
    clscan_plan *plan = clscan_plan_create(c->context, c->device, CLSCAN_AFFINE, type, CLSCAN_INCLUSIVE, &err);
    if (!plan)
        return fail("clscan_plan_create", err);
    args x = {.plan = plan, .n = n, .scalar = s, .a = buffer(c, n * s, a), .b = buffer(c, n * s, b),
              .y = buffer(c, n * s, NULL), .pairs = buffer(c, 2 * n * s, NULL), .src = NULL};
    x.src = buffer(c, 2 * n * s, NULL);
    x.dst = buffer(c, 2 * n * s, NULL);
    if (!x.a || !x.b || !x.y || !x.pairs || !x.src || !x.dst)
        return 1;
    const char *tname = type == CLSCAN_FLOAT ? "float" : "double";
    const double one_d = 1.0;
    const float one_f = 1.0f;
    for (int constant = 1; constant >= 0; --constant) {
        x.a_const = constant ? (type == CLSCAN_FLOAT ? (const void *)&one_f : (const void *)&one_d) : NULL;
        /* The loop (timed), and the check of the recurrence against it. */
        const double t0 = wall_ms();
        double acc = 0;
        for (size_t i = 0; i < n; ++i) {
            if (type == CLSCAN_FLOAT) {
                float fa, fb;
                memcpy(&fa, a + i * 4, 4);
                memcpy(&fb, b + i * 4, 4);
                acc = (constant ? 1.0f : fa) * (float)acc + fb;
            } else {
                double ai, bi;
                memcpy(&ai, a + i * 8, 8);
                memcpy(&bi, b + i * 8, 8);
                acc = (constant ? 1.0 : ai) * acc + bi;
            }
            ref[i] = acc;
        }
        const double loop_ms = wall_ms() - t0;
        const double rec_ms = device_ms(c, run_recurrence, &x);
        if (rec_ms < 0 || (err = clEnqueueReadBuffer(c->queue, x.y, CL_TRUE, 0, n * s, y, 0, NULL, NULL)))
            return fail("the recurrence", err);
        size_t wrong = 0;
        for (size_t i = 0; i < n; ++i) {
            float f;
            double d;
            if (type == CLSCAN_FLOAT)
                memcpy(&f, y + i * 4, 4), d = f;
            else
                memcpy(&d, y + i * 8, 8);
            wrong += d != ref[i];
        }
        /* The pairs of the same problem (a constant becomes an array of it). */
        for (size_t i = 0; i < n; ++i) {
            memcpy(pairs + 2 * i * s, constant ? x.a_const : a + i * s, s);
            memcpy(pairs + (2 * i + 1) * s, b + i * s, s);
        }
        cl_mem a_array = x.a;
        if (constant) {   /* the pairing pass copies from an array of the constant */
            unsigned char *ac = malloc(n * s);
            if (!ac)
                return fail("malloc", CL_OUT_OF_HOST_MEMORY);
            for (size_t i = 0; i < n; ++i)
                memcpy(ac + i * s, x.a_const, s);
            x.a = buffer(c, n * s, ac);
            free(ac);
        }
        if ((err = clEnqueueWriteBuffer(c->queue, x.pairs, CL_TRUE, 0, 2 * n * s, pairs, 0, NULL, NULL)))
            return fail("clEnqueueWriteBuffer", err);
        x.with_pairing = 0;
        const double pairs_ms = device_ms(c, run_pairs, &x);
        x.with_pairing = 1;
        const double pairing_ms = device_ms(c, run_pairs, &x);
        if (constant) {
            clReleaseMemObject(x.a);
            x.a = a_array;
        }
        x.bytes = (constant ? 1 : 3) * n * s / (constant ? 1 : 2);   /* copy: reads + writes = moved bytes */
        const double copy_ms = device_ms(c, run_copy, &x);
        printf("recurrence-%-6s %-10s %10zu %10.4f %10.4f %10.4f %10.4f %10.4f %6.2f %6.2f %s\n", tname,
               constant ? "const" : "array", n, rec_ms, pairs_ms, pairing_ms, copy_ms, loop_ms, pairing_ms / rec_ms,
               rec_ms / copy_ms, wrong ? "WRONG" : "ok");
        if (wrong)
            return 1;
    }
    clReleaseMemObject(x.a), clReleaseMemObject(x.b), clReleaseMemObject(x.y), clReleaseMemObject(x.pairs);
    clReleaseMemObject(x.src), clReleaseMemObject(x.dst);
    clscan_plan_release(plan);
    free(pf), free(a), free(b), free(y), free(pairs), free(ref);
    return 0;
}

/* Reduction rows: float SUM (exclusive scan against the total of the reduction) at n. */
static int bench_reduction(const ctx *c, int bench_case, size_t n)
{
    const size_t e = bench_case_esize[bench_case];
    unsigned char *in = malloc(n * e), *out = malloc(n * e), total[16], want[16];
    if (!in || !out)
        return fail("malloc", CL_OUT_OF_HOST_MEMORY);
    bench_generate(bench_case, n, in);
    const clscan_op op = bench_case_op[bench_case];
    const clscan_type type = bench_case_type[bench_case];
    cl_int err;
    clscan_plan *plan = clscan_plan_create(c->context, c->device, op, type, CLSCAN_INCLUSIVE, &err);
    if (!plan)
        return fail("clscan_plan_create", err);
    args x = {.plan = plan, .n = n, .src = buffer(c, n * e, in), .dst = buffer(c, n * e, NULL),
              .total = buffer(c, e, NULL), .bytes = n * e};
    if (!x.src || !x.dst || !x.total)
        return 1;
    const double reduce_ms = device_ms(c, run_reduce, &x);
    if (reduce_ms < 0 || (err = clEnqueueReadBuffer(c->queue, x.total, CL_TRUE, 0, e, total, 0, NULL, NULL)))
        return fail("the reduction", err);
    const double scan_ms = device_ms(c, run_scan, &x);
    x.bytes = n * e / 2;   /* a reduction moves n * e bytes: the copy of half */
    const double half_copy_ms = device_ms(c, run_copy, &x);
    x.bytes = n * e;
    const double copy_ms = device_ms(c, run_copy, &x);
    sup_reference(op, type, CLSCAN_INCLUSIVE, in, out, n);
    memcpy(want, out + (n - 1) * e, e);
    const int wrong = memcmp(want, total, e) != 0;
    char row[64];
    snprintf(row, sizeof row, "reduction-%s", bench_case_names[bench_case]);
    printf("%-28s %10zu %10.4f %10.4f %10.4f %10.4f %6.2f %6.2f %s\n", row, n,
           reduce_ms, scan_ms, half_copy_ms, copy_ms, reduce_ms / scan_ms, reduce_ms / half_copy_ms,
           wrong ? "WRONG" : "ok");
    clReleaseMemObject(x.src), clReleaseMemObject(x.dst), clReleaseMemObject(x.total);
    clscan_plan_release(plan);
    free(in), free(out);
    return wrong;
}

/* Segment rows: float SUM (inclusive) over CSR-like rows of 0 to 63 elements (mean 32) at n. */
static int bench_segments(const ctx *c, size_t n)
{
    const size_t max_segments = n + 1;
    float *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out), *want = malloc(n * sizeof *want);
    cl_uint *offsets = malloc((max_segments + 1) * sizeof *offsets);
    unsigned char *heads = calloc(n, 1);
    if (!in || !out || !want || !offsets || !heads)
        return fail("malloc", CL_OUT_OF_HOST_MEMORY);
    bench_generate(BENCH_FSUM, n, in);
    uint64_t s = 0x5E65u ^ (uint64_t)n;
    size_t nseg = 0;
    offsets[0] = 0;
    while (offsets[nseg] < n) {   /* row lengths 0 ... 63: one row in 64 is empty */
        const size_t len = (size_t)(sup_splitmix64(&s) % 64), at = offsets[nseg];
        offsets[++nseg] = (cl_uint)(at + len < n ? at + len : n);
        if (at < n && len)
            heads[at] = 1;
    }
    sup_reference_segmented(CLSCAN_SUM, CLSCAN_FLOAT, CLSCAN_INCLUSIVE, SUP_HEADS, heads, in, want, n);
    cl_int err;
    clscan_plan *plan = clscan_plan_create(c->context, c->device, CLSCAN_SUM, CLSCAN_FLOAT, CLSCAN_INCLUSIVE, &err);
    if (!plan)
        return fail("clscan_plan_create", err);
    args x = {.plan = plan, .n = n, .nsegments = nseg, .bytes = n * sizeof *in, .src = buffer(c, n * sizeof *in, in),
              .dst = buffer(c, n * sizeof *in, NULL), .offsets = buffer(c, (nseg + 1) * sizeof *offsets, offsets),
              .heads = buffer(c, n, heads), .totals = buffer(c, nseg * sizeof *in, NULL)};
    if (!x.src || !x.dst || !x.offsets || !x.heads || !x.totals)
        return 1;
    int wrong = 0;
    const double offsets_ms = device_ms(c, run_offsets, &x);
    if (offsets_ms >= 0 && (err = clEnqueueReadBuffer(c->queue, x.dst, CL_TRUE, 0, x.bytes, out, 0, NULL, NULL)))
        return fail("clEnqueueReadBuffer", err);
    wrong |= memcmp(out, want, x.bytes) != 0;
    const double heads_ms = device_ms(c, run_heads, &x);
    x.with_pairing = 1;
    const double built_ms = device_ms(c, run_heads, &x);
    if (built_ms >= 0 && (err = clEnqueueReadBuffer(c->queue, x.dst, CL_TRUE, 0, x.bytes, out, 0, NULL, NULL)))
        return fail("clEnqueueReadBuffer", err);
    wrong |= memcmp(out, want, x.bytes) != 0;
    const double totals_ms = device_ms(c, run_segment_totals, &x);
    if (totals_ms >= 0 && (err = clEnqueueReadBuffer(c->queue, x.totals, CL_TRUE, 0, nseg * sizeof *in, out, 0, NULL,
                                                     NULL)))
        return fail("clEnqueueReadBuffer", err);
    for (size_t k = 0; k < nseg && !wrong; ++k) {   /* a row's total: its last output, 0 when empty */
        const float t = offsets[k + 1] > offsets[k] ? want[offsets[k + 1] - 1] : 0.0f;
        wrong = memcmp(&t, &out[k], sizeof t) != 0;
    }
    const double copy_ms = device_ms(c, run_copy, &x);
    if (offsets_ms < 0 || heads_ms < 0 || built_ms < 0 || totals_ms < 0 || copy_ms < 0)
        return 1;
    printf("%-28s %10zu %10.4f %10.4f %10.4f %10.4f %10.4f %6.2f %6.2f %s\n", "segments-float-sum-incl", n, offsets_ms,
           heads_ms, built_ms, totals_ms, copy_ms, built_ms / offsets_ms, offsets_ms / copy_ms,
           wrong ? "WRONG" : "ok");
    clReleaseMemObject(x.src), clReleaseMemObject(x.dst), clReleaseMemObject(x.offsets);
    clReleaseMemObject(x.heads), clReleaseMemObject(x.totals);
    clscan_plan_release(plan);
    free(in), free(out), free(want), free(offsets), free(heads);
    return wrong;
}

/* Transform rows: the exclusive count of live float4 particles (w > 0) through an input
 * transform (clscan_plan_set_transform: reads 16 bytes, writes 4 per element) against the plain
 * int SUM scan of flags already made (4 and 4), at n. */
static int bench_transform(const ctx *c, size_t n)
{
    float *p = malloc(n * 4 * sizeof *p);
    cl_int *flags = malloc(n * sizeof *flags), *out = malloc(n * sizeof *out), *want = malloc(n * sizeof *want);
    if (!p || !flags || !out || !want)
        return fail("malloc", CL_OUT_OF_HOST_MEMORY);
    srand(7);
    cl_int acc = 0;
    for (size_t i = 0; i < n; ++i) {
        for (int k = 0; k < 4; ++k)
            p[4 * i + k] = (float)(rand() % 2001 - 1000) / 100.0f;
        flags[i] = p[4 * i + 3] > 0.0f;
        want[i] = acc;
        acc += flags[i];
    }
    cl_int err;
    clscan_plan *tplan = clscan_plan_create(c->context, c->device, CLSCAN_SUM, CLSCAN_INT32, CLSCAN_EXCLUSIVE, &err);
    clscan_plan *plan = tplan ? clscan_plan_create(c->context, c->device, CLSCAN_SUM, CLSCAN_INT32, CLSCAN_EXCLUSIVE,
                                                   &err) : NULL;
    if (!plan)
        return fail("clscan_plan_create", err);
    const clscan_transform alive = {"float4", 16, "(x.w > 0.0f) ? 1 : 0", NULL, 0, NULL, NULL};
    if ((err = clscan_plan_set_transform(tplan, &alive)) != CL_SUCCESS)
        return fail("clscan_plan_set_transform", err);
    args t = {.plan = tplan, .n = n, .src = buffer(c, n * 16, p), .dst = buffer(c, n * 4, NULL)};
    args x = {.plan = plan, .n = n, .src = buffer(c, n * 4, flags), .dst = t.dst};
    if (!t.src || !t.dst || !x.src)
        return 1;
    const double transform_ms = device_ms(c, run_scan, &t);
    int wrong = transform_ms < 0;
    if (!wrong && (err = clEnqueueReadBuffer(c->queue, t.dst, CL_TRUE, 0, n * 4, out, 0, NULL, NULL)) == CL_SUCCESS)
        wrong = memcmp(out, want, n * 4) != 0;
    const double int_ms = device_ms(c, run_scan, &x);
    if (!wrong && int_ms >= 0 &&
        (err = clEnqueueReadBuffer(c->queue, x.dst, CL_TRUE, 0, n * 4, out, 0, NULL, NULL)) == CL_SUCCESS)
        wrong = memcmp(out, want, n * 4) != 0;
    if (transform_ms < 0 || int_ms < 0)
        return fail("the scans", err);
    printf("%-28s %10zu %10.4f %10.4f %6.2f %s\n", "transform-float4-count-excl", n, transform_ms, int_ms,
           transform_ms / int_ms, wrong ? "WRONG" : "ok");
    clReleaseMemObject(t.src), clReleaseMemObject(t.dst), clReleaseMemObject(x.src);
    clscan_plan_release(tplan), clscan_plan_release(plan);
    free(p), free(flags), free(out), free(want);
    return wrong;
}

/* clscan_host's wall time (median of reps) for float SUM at n, over memory or through copies. */
static int bench_host(const ctx *c, size_t n, const char *spec)
{
    float *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y), *ref = malloc(n * sizeof *ref);
    if (!x || !y || !ref)
        return fail("malloc", CL_OUT_OF_HOST_MEMORY);
    bench_generate(BENCH_FSUM, n, x);
    sup_reference(CLSCAN_SUM, CLSCAN_FLOAT, CLSCAN_INCLUSIVE, x, ref, n);
    double ms[2];
    int wrong = 0;
    for (int path = 0; path < 2; ++path) {   /* 0: the library's choice, 1: copies */
        clscan_cache_clear();
        if (path)
            setenv("CLSCAN_DEVELOP", "host=copy", 1);
        double t[64];
        const int reps = c->reps < 64 ? c->reps : 64;
        for (int r = -1; r < reps; ++r) {
            const double t0 = wall_ms();
            const cl_int err = clscan_host_with(spec, CLSCAN_SUM, CLSCAN_FLOAT, CLSCAN_INCLUSIVE, x, y, n, NULL,
                                                NULL, 0);
            if (err != CL_SUCCESS)
                return fail("clscan_host_with", err);
            if (r >= 0)
                t[r] = wall_ms() - t0;
        }
        ms[path] = bench_median(t, reps);
        wrong += memcmp(y, ref, n * sizeof *y) != 0;
        if (path)
            unsetenv("CLSCAN_DEVELOP");
    }
    clscan_cache_clear();
    printf("%-28s %10zu %10.4f %10.4f %6.2f %s\n", "host-float-sum-incl", n, ms[0], ms[1], ms[1] / ms[0],
           wrong ? "WRONG" : "ok");
    free(x), free(y), free(ref);
    return wrong;
}

/* Whether out holds the scans of the lines of in (rows x cols, dense) along axis. */
static int axis_right(const float *in, const float *out, size_t rows, size_t cols, clscan_axis axis, float *line,
                      float *want)
{
    const int along_rows = axis == CLSCAN_ALONG_ROWS;
    const size_t nlines = along_rows ? rows : cols, n = along_rows ? cols : rows;
    const size_t stride = along_rows ? cols : 1, step = along_rows ? 1 : cols;
    for (size_t l = 0; l < nlines; ++l) {
        for (size_t k = 0; k < n; ++k)
            line[k] = in[l * stride + k * step];
        sup_reference(CLSCAN_SUM, CLSCAN_FLOAT, CLSCAN_INCLUSIVE, line, want, n);
        for (size_t k = 0; k < n; ++k)
            if (memcmp(&want[k], &out[l * stride + k * step], sizeof *want) != 0)
                return 0;
    }
    return 1;
}

/* Axis rows: float SUM along the rows and along the columns of rows x cols, against the plain
 * scan and the copy of the same bytes. */
static int bench_axis(const ctx *c, size_t rows, size_t cols)
{
    const size_t n = rows * cols, big = rows > cols ? rows : cols;
    float *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out), *line = malloc(big * sizeof *line),
          *want = malloc(big * sizeof *want);
    if (!in || !out || !line || !want)
        return fail("malloc", CL_OUT_OF_HOST_MEMORY);
    bench_generate(BENCH_FSUM, n, in);
    cl_int err;
    clscan_plan *plan = clscan_plan_create(c->context, c->device, CLSCAN_SUM, CLSCAN_FLOAT, CLSCAN_INCLUSIVE, &err);
    if (!plan)
        return fail("clscan_plan_create", err);
    args x = {.plan = plan, .n = n, .rows = rows, .cols = cols, .src = buffer(c, n * sizeof *in, in),
              .dst = buffer(c, n * sizeof *in, NULL), .bytes = n * sizeof *in};
    if (!x.src || !x.dst)
        return 1;
    double ms[2];
    int wrong = 0;
    for (int a = 0; a < 2 && !wrong; ++a) {
        x.axis = a ? CLSCAN_ALONG_COLUMNS : CLSCAN_ALONG_ROWS;
        if ((ms[a] = device_ms(c, run_axis, &x)) < 0)
            return 1;
        if ((err = clEnqueueReadBuffer(c->queue, x.dst, CL_TRUE, 0, x.bytes, out, 0, NULL, NULL)) != CL_SUCCESS)
            return fail("clEnqueueReadBuffer", err);
        wrong = !axis_right(in, out, rows, cols, x.axis, line, want);
    }
    const double scan_ms = wrong ? 0 : device_ms(c, run_scan, &x), copy_ms = wrong ? 0 : device_ms(c, run_copy, &x);
    char row[64];
    snprintf(row, sizeof row, "axis-%zux%zu", rows, cols);
    if (wrong)
        printf("%-28s %10zu WRONG\n", row, n);
    else
        printf("%-28s %10zu %10.4f %10.4f %10.4f %10.4f %6.2f %6.2f ok\n", row, n, ms[0], ms[1], scan_ms, copy_ms,
               ms[0] / scan_ms, ms[1] / scan_ms);
    clReleaseMemObject(x.src), clReleaseMemObject(x.dst);
    clscan_plan_release(plan);
    free(in), free(out), free(line), free(want);
    return wrong;
}

/* Axis totals rows: float SUM along the rows and along the columns of rows x cols, against the
 * reduction of the same floats as one array (exact data: compared bitwise with the loop). */
static int bench_axis_totals(const ctx *c, size_t rows, size_t cols)
{
    const size_t n = rows * cols, big = rows > cols ? rows : cols;
    float *in = malloc(n * sizeof *in), *out = malloc(big * sizeof *out);
    if (!in || !out)
        return fail("malloc", CL_OUT_OF_HOST_MEMORY);
    bench_generate(BENCH_FSUM, n, in);
    cl_int err;
    clscan_plan *plan = clscan_plan_create(c->context, c->device, CLSCAN_SUM, CLSCAN_FLOAT, CLSCAN_INCLUSIVE, &err);
    if (!plan)
        return fail("clscan_plan_create", err);
    args x = {.plan = plan, .n = n, .rows = rows, .cols = cols, .src = buffer(c, n * sizeof *in, in),
              .dst = buffer(c, big * sizeof *in, NULL), .total = buffer(c, sizeof *in, NULL)};
    if (!x.src || !x.dst || !x.total)
        return 1;
    double ms[2];
    int wrong = 0;
    for (int a = 0; a < 2 && !wrong; ++a) {
        x.axis = a ? CLSCAN_ALONG_COLUMNS : CLSCAN_ALONG_ROWS;
        const size_t nlines = a ? cols : rows, len = a ? rows : cols;
        if ((ms[a] = device_ms(c, run_axis_totals, &x)) < 0)
            return 1;
        if ((err = clEnqueueReadBuffer(c->queue, x.dst, CL_TRUE, 0, nlines * sizeof *out, out, 0, NULL, NULL)) !=
            CL_SUCCESS)
            return fail("clEnqueueReadBuffer", err);
        for (size_t l = 0; l < nlines && !wrong; ++l) {
            float acc = 0;
            for (size_t k = 0; k < len; ++k)
                acc += a ? in[k * cols + l] : in[l * cols + k];
            wrong = memcmp(&acc, &out[l], sizeof acc) != 0;
        }
    }
    const double reduce_ms = wrong ? 0 : device_ms(c, run_reduce, &x);
    char row[64];
    snprintf(row, sizeof row, "axis-totals-%zux%zu", rows, cols);
    if (wrong)
        printf("%-28s %10zu WRONG\n", row, n);
    else
        printf("%-28s %10zu %10.4f %10.4f %10.4f %6.2f %6.2f ok\n", row, n, ms[0], ms[1], reduce_ms,
               ms[0] / reduce_ms, ms[1] / reduce_ms);
    clReleaseMemObject(x.src), clReleaseMemObject(x.dst), clReleaseMemObject(x.total);
    clscan_plan_release(plan);
    free(in), free(out);
    return wrong;
}

static int cmp_u32(const void *a, const void *b)
{
    const cl_uint x = *(const cl_uint *)a, y = *(const cl_uint *)b;
    return (x > y) - (x < y);
}

/* Axis sort rows: random uint32 keys sorted along the rows and along the columns of rows x cols,
 * against one sort of the same keys; each line checked against qsort's. */
static int bench_axis_sort(const ctx *c, clscan_sorter *sorter, size_t rows, size_t cols)
{
    const size_t n = rows * cols, big = rows > cols ? rows : cols;
    cl_uint *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out), *line = malloc(big * sizeof *line);
    if (!in || !out || !line)
        return fail("malloc", CL_OUT_OF_HOST_MEMORY);
    uint64_t state = 0x9e3779b97f4a7c15ull;
    for (size_t i = 0; i < n; ++i) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        in[i] = (cl_uint)(state >> 32);
    }
    args x = {.sorter = sorter, .n = n, .rows = rows, .cols = cols, .src = buffer(c, n * sizeof *in, in),
              .dst = buffer(c, n * sizeof *in, NULL)};
    if (!x.src || !x.dst)
        return 1;
    double ms[2];
    int wrong = 0;
    cl_int err;
    for (int a = 0; a < 2 && !wrong; ++a) {
        x.axis = a ? CLSCAN_ALONG_COLUMNS : CLSCAN_ALONG_ROWS;
        const size_t nlines = a ? cols : rows, len = a ? rows : cols;
        if ((ms[a] = device_ms(c, run_axis_sort, &x)) < 0)
            return 1;
        if ((err = clEnqueueReadBuffer(c->queue, x.dst, CL_TRUE, 0, n * sizeof *out, out, 0, NULL, NULL)) !=
            CL_SUCCESS)
            return fail("clEnqueueReadBuffer", err);
        for (size_t l = 0; l < nlines && !wrong; ++l) {
            for (size_t k = 0; k < len; ++k)
                line[k] = a ? in[k * cols + l] : in[l * cols + k];
            qsort(line, len, sizeof *line, cmp_u32);
            for (size_t k = 0; k < len && !wrong; ++k)
                wrong = line[k] != (a ? out[k * cols + l] : out[l * cols + k]);
        }
    }
    const double sort_ms = wrong ? 0 : device_ms(c, run_sort, &x);
    char row[64];
    snprintf(row, sizeof row, "axis-sort-%zux%zu", rows, cols);
    if (wrong)
        printf("%-28s %10zu WRONG\n", row, n);
    else
        printf("%-28s %10zu %10.4f %10.4f %10.4f %6.2f %6.2f ok\n", row, n, ms[0], ms[1], sort_ms, ms[0] / sort_ms,
               ms[1] / sort_ms);
    clReleaseMemObject(x.src), clReleaseMemObject(x.dst);
    free(in), free(out), free(line);
    return wrong;
}

static void usage(void)
{
    puts("usage: clscan-bench-options [--device SPEC] [--min LG] [--max LG] [--reps N] [--host-count N] [--axis]\n"
         "  counts 2^min ... 2^max in steps of x4 (default 20 ... 24); --host-count: clscan_host's\n"
         "  count (default 10000000; 0: no host rows); --axis: only the rows of the axis functions");
}

int main(int argc, char **argv)
{
    const char *spec = NULL;
    int lo = 20, hi = 24;
    size_t host_count = 10000000;
    int axis_only = 0;
    ctx c = {.reps = 10};
    for (int i = 1; i < argc; ++i) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(argv[i], "--device") && v)
            spec = v, ++i;
        else if (!strcmp(argv[i], "--min") && v)
            lo = atoi(v), ++i;
        else if (!strcmp(argv[i], "--max") && v)
            hi = atoi(v), ++i;
        else if (!strcmp(argv[i], "--reps") && v)
            c.reps = atoi(v), ++i;
        else if (!strcmp(argv[i], "--host-count") && v)
            host_count = (size_t)strtoull(v, NULL, 10), ++i;
        else if (!strcmp(argv[i], "--axis"))
            axis_only = 1;
        else {
            usage();
            return !strcmp(argv[i], "--help") ? 0 : 2;
        }
    }
    if (lo < 1 || hi > 30 || lo > hi || c.reps < 1) {
        usage();
        return 2;
    }
    cl_platform_id platform;
    cl_int err = clscan_default_device(spec, &platform, &c.device);
    if (err != CL_SUCCESS)
        return fail("clscan_default_device", err);
    c.context = clCreateContext(NULL, 1, &c.device, NULL, NULL, &err);
    if (!c.context)
        return fail("clCreateContext", err);
    c.queue = clCreateCommandQueue(c.context, c.device, CL_QUEUE_PROFILING_ENABLE, &err);
    if (!c.queue)
        return fail("clCreateCommandQueue", err);
    cl_device_fp_config fp64 = 0;
    clGetDeviceInfo(c.device, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp64, &fp64, NULL);
    const char *src = pair_source;
    cl_program prog = clCreateProgramWithSource(c.context, 1, &src, NULL, &err);
    if (err == CL_SUCCESS)
        err = clBuildProgram(prog, 1, &c.device, fp64 ? "-DFP64" : "", NULL, NULL);
    if (err == CL_SUCCESS)
        c.pair[0] = clCreateKernel(prog, "pair_float", &err);
    if (err == CL_SUCCESS)
        c.heads = clCreateKernel(prog, "heads_from_offsets", &err);
    if (err == CL_SUCCESS && fp64)
        c.pair[1] = clCreateKernel(prog, "pair_double", &err);
    if (err != CL_SUCCESS)
        return fail("the pairing kernel", err);
    char name[256] = {0}, driver[256] = {0};
    clGetDeviceInfo(c.device, CL_DEVICE_NAME, sizeof name - 1, name, NULL);
    clGetDeviceInfo(c.device, CL_DRIVER_VERSION, sizeof driver - 1, driver, NULL);
    char date[64];
    const time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&now));
    printf("# clscan-bench-options on %s (driver %s), %s, %d reps (medians, ms)\n#", name, driver, date, c.reps);
    for (int i = 0; i < argc; ++i)
        printf(" %s", argv[i]);
    printf("\n# %-26s %10s %10s %10s %10s %10s %10s %6s %6s\n", "recurrence  a", "n", "rec_ms", "pairs_ms",
           "+pairing", "copy_ms", "loop_ms", "x_rec", "x_copy");
    int rc = 0;
    for (int lg = lo; lg <= hi && !rc && !axis_only; lg += 2) {
        rc |= bench_recurrence(&c, CLSCAN_FLOAT, (size_t)1 << lg);
        if (fp64 && !rc)
            rc |= bench_recurrence(&c, CLSCAN_DOUBLE, (size_t)1 << lg);
    }
    printf("# %-26s %10s %10s %10s %10s %10s %6s %6s\n", "reduction", "n", "reduce_ms", "scan_ms", "copy/2_ms",
           "copy_ms", "x_scan", "x_copy");
    for (int lg = lo; lg <= hi && !rc && !axis_only; lg += 2) {
        rc |= bench_reduction(&c, BENCH_FSUM, (size_t)1 << lg);
        if (!rc)
            rc |= bench_reduction(&c, BENCH_FAFF, (size_t)1 << lg);
    }
    printf("# %-26s %10s %10s %10s %10s %10s %10s %6s %6s\n", "segments", "n", "offsets_ms", "heads_ms",
           "+heads", "totals_ms", "copy_ms", "x_offs", "x_copy");
    for (int lg = lo; lg <= hi && !rc && !axis_only; lg += 2)
        rc |= bench_segments(&c, (size_t)1 << lg);
    printf("# %-26s %10s %10s %10s %10s %10s %6s %6s\n", "axis  rows x cols", "n", "rows_ms", "cols_ms", "scan_ms",
           "copy_ms", "x_rows", "x_cols");
    static const size_t shapes[][2] = {{4096, 4096}, {16, 1 << 20}, {1 << 20, 16}};
    for (int i = 0; i < 3 && !rc; ++i)
        rc |= bench_axis(&c, shapes[i][0], shapes[i][1]);
    printf("# %-26s %10s %10s %10s %10s %6s %6s\n", "axis-totals  rows x cols", "n", "rows_ms", "cols_ms",
           "reduce_ms", "x_rows", "x_cols");
    for (int i = 0; i < 3 && !rc; ++i)
        rc |= bench_axis_totals(&c, shapes[i][0], shapes[i][1]);
    printf("# %-26s %10s %10s %10s %10s %6s %6s\n", "axis-sort  rows x cols", "n", "rows_ms", "cols_ms", "sort_ms",
           "x_rows", "x_cols");
    clscan_sorter *sorter = rc ? NULL : clscan_sorter_create(c.context, c.device, CLSCAN_UINT32, 0, &err);
    if (!rc && !sorter)
        rc = fail("clscan_sorter_create", err);
    static const size_t sort_shapes[][2] = {{4096, 4096}, {1 << 16, 256}, {256, 1 << 16}, {16, 1 << 20},
                                            {1 << 20, 16}, {32, 1 << 19}, {1, 1 << 24}};
    for (int i = 0; i < 7 && !rc; ++i)
        rc |= bench_axis_sort(&c, sorter, sort_shapes[i][0], sort_shapes[i][1]);
    clscan_sorter_release(sorter);
    printf("# %-26s %10s %10s %10s %6s\n", "transform", "n", "float4_ms", "int_ms", "x_int");
    for (int lg = lo; lg <= hi && !rc && !axis_only; lg += 2)
        rc |= bench_transform(&c, (size_t)1 << lg);
    if (host_count && !rc && !axis_only) {
        printf("# %-26s %10s %10s %10s %6s   (wall time of the whole call)\n", "host", "n", "map_ms", "copy_ms",
               "x_map");
        rc |= bench_host(&c, host_count, spec);
    }
    clReleaseKernel(c.heads);
    for (int k = 0; k < 2; ++k)
        if (c.pair[k])
            clReleaseKernel(c.pair[k]);
    clReleaseProgram(prog);
    clReleaseCommandQueue(c.queue);
    clReleaseContext(c.context);
    clscan_cache_clear();
    return rc;
}
