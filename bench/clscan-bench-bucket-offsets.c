/* The two kernels of cl/radix/bucket_offsets.cl alone, on sorted keys: the pass over the keys
 * and the search per bucket, alternating, kernel times from profiling events; every offset
 * checked against a sequential lower bound.  For kernel work on the bucketer's choice between
 * them (lib/bucket.c); the whole bucketing is timed by clscan-bench-algos --case bucket-65536,
 * each kernel forced through CLSCAN_DEVELOP=bucket_offsets=scan|search.
 *
 *   bench/clscan-bench-bucket-offsets FILE DEVICE LOG2COUNT NBUCKETS [REPS]
 *
 * FILE: cl/radix/bucket_offsets.cl; DEVICE as clscan_default_device takes it ("P:D" indices or
 * part of a name).  Keys are uniform in
 * 0 ... nbuckets + nbuckets / 64, so that some are past the last bucket (clamped by the
 * kernels).  Prints the fastest and the median time of each kernel; exit status 1 if an offset
 * was wrong, 2 on usage or OpenCL errors. */
#define CL_TARGET_OPENCL_VERSION 120
#ifdef __APPLE__
#include <OpenCL/opencl.h>
#else
#include <CL/cl.h>
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "clscan.h"
#include "support/inputs.h"

#define WG 256
#define PASS_ITEMS 16   /* positions per work-item of the pass, as lib/bucket.c launches it */

static int fail(const char *what, cl_int err)
{
    fprintf(stderr, "clscan-bench-bucket-offsets: %s failed (%d)\n", what, (int)err);
    return 2;
}

static int by_time(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int by_key(const void *a, const void *b)
{
    const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *s = NULL;
    long n = -1;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (s = malloc((size_t)n + 1)) != NULL && fread(s, 1, (size_t)n, f) == (size_t)n)
        s[n] = '\0';
    else
        free(s), s = NULL;
    fclose(f);
    return s;
}

/* The first position whose clamped key is >= b. */
static size_t lower_bound(const uint32_t *k, size_t n, uint32_t clamp, cl_ulong b)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        const size_t m = lo + (hi - lo) / 2;
        if ((k[m] < clamp ? k[m] : clamp) < b)
            lo = m + 1;
        else
            hi = m;
    }
    return lo;
}

int main(int argc, char **argv)
{
    if (argc < 5 || argc > 6 || atoi(argv[3]) < 0 || atoi(argv[3]) > 30 ||
        strtoul(argv[4], NULL, 10) < 1 || strtoul(argv[4], NULL, 10) > (1ul << 30)) {
        fprintf(stderr, "usage: clscan-bench-bucket-offsets FILE DEVICE LOG2COUNT NBUCKETS [REPS]\n");
        return 2;
    }
    const size_t n = (size_t)1 << atoi(argv[3]);
    const cl_uint nb = (cl_uint)strtoul(argv[4], NULL, 10), clamp = nb - 1;
    const int reps = argc > 5 && atoi(argv[5]) > 0 ? atoi(argv[5]) : 21;
    char *src = read_file(argv[1]);
    if (!src) {
        fprintf(stderr, "clscan-bench-bucket-offsets: cannot read %s\n", argv[1]);
        return 2;
    }
    cl_platform_id platform;
    cl_device_id dev;
    cl_int err = clscan_default_device(argv[2], &platform, &dev);
    if (err != CL_SUCCESS)
        return fail("clscan_default_device", err);
    char name[256] = "";
    clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name - 1, name, NULL);
    size_t wg = WG, max_wg = 0;
    if (clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof max_wg, &max_wg, NULL) == CL_SUCCESS && max_wg < wg)
        wg = max_wg;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    if (!ctx)
        return fail("clCreateContext", err);
    cl_command_queue q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
    if (!q)
        return fail("clCreateCommandQueue", err);
    const char *text = src;
    cl_program prog = clCreateProgramWithSource(ctx, 1, &text, NULL, &err);
    if (!prog)
        return fail("clCreateProgramWithSource", err);
    if ((err = clBuildProgram(prog, 1, &dev, "-cl-std=CL1.2", NULL, NULL)) != CL_SUCCESS) {
        static char log[1 << 16];
        clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, NULL);
        fputs(log, stderr);
        return fail("clBuildProgram", err);
    }

    uint32_t *keys = malloc(n * sizeof *keys), *got = malloc(((size_t)nb + 1) * sizeof *got);
    double *times[2] = {malloc((size_t)reps * sizeof(double)), malloc((size_t)reps * sizeof(double))};
    if (!keys || !got || !times[0] || !times[1]) {
        fprintf(stderr, "clscan-bench-bucket-offsets: out of host memory\n");
        return 2;
    }
    sup_rng rng;
    sup_rng_seed(&rng, 5);
    for (size_t i = 0; i < n; ++i)
        keys[i] = (uint32_t)sup_rng_below(&rng, (uint64_t)nb + nb / 64 + 1);
    qsort(keys, n, sizeof *keys, by_key);
    cl_mem kbuf = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof *keys, keys, &err);
    cl_mem obuf[2] = {NULL, NULL};
    for (int a = 0; a < 2 && err == CL_SUCCESS; ++a)
        obuf[a] = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, ((size_t)nb + 1) * sizeof *got, NULL, &err);
    if (err != CL_SUCCESS)
        return fail("clCreateBuffer", err);

    static const char *const names[2] = {"clscan_bucket_offsets", "clscan_bucket_offsets_search"};
    const size_t global[2] = {(n + wg * PASS_ITEMS - 1) / (wg * PASS_ITEMS) * wg, ((size_t)nb + wg) / wg * wg};
    const cl_ulong zero = 0, count = n;
    cl_kernel k[2];
    for (int a = 0; a < 2; ++a) {
        if (!(k[a] = clCreateKernel(prog, names[a], &err)))
            return fail(names[a], err);
        err |= clSetKernelArg(k[a], 0, sizeof kbuf, &kbuf);
        err |= clSetKernelArg(k[a], 1, sizeof zero, &zero);
        err |= clSetKernelArg(k[a], 2, sizeof count, &count);
        err |= clSetKernelArg(k[a], 3, sizeof clamp, &clamp);
        err |= clSetKernelArg(k[a], 4, sizeof obuf[a], &obuf[a]);
        err |= clSetKernelArg(k[a], 5, sizeof zero, &zero);
        err |= clSetKernelArg(k[a], 6, sizeof nb, &nb);
        if (err != CL_SUCCESS)
            return fail("clSetKernelArg", err);
    }
    for (int r = -2; r < reps; ++r)   /* two warm-ups */
        for (int a = 0; a < 2; ++a) {
            cl_event ev;
            cl_ulong t0 = 0, t1 = 0;
            if ((err = clEnqueueNDRangeKernel(q, k[a], 1, NULL, &global[a], &wg, 0, NULL, &ev)) != CL_SUCCESS ||
                (err = clWaitForEvents(1, &ev)) != CL_SUCCESS)
                return fail(names[a], err);
            clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL);
            clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL);
            clReleaseEvent(ev);
            if (r >= 0)
                times[a][r] = (double)(t1 - t0) * 1e-6;
        }
    size_t wrong = 0;
    for (int a = 0; a < 2; ++a) {
        if ((err = clEnqueueReadBuffer(q, obuf[a], CL_TRUE, 0, ((size_t)nb + 1) * sizeof *got, got, 0, NULL, NULL)))
            return fail("clEnqueueReadBuffer", err);
        for (cl_ulong b = 0; b <= nb; ++b)
            wrong += got[b] != lower_bound(keys, n, clamp, b);
    }
    printf("%s, 2^%s keys, %u buckets:", name, argv[3], nb);
    for (int a = 0; a < 2; ++a) {
        qsort(times[a], (size_t)reps, sizeof(double), by_time);
        printf("  %s fastest %.4f median %.4f ms", a ? "search" : "pass", times[a][0], times[a][reps / 2]);
    }
    printf("  wrong offsets %zu\n", wrong);
    for (int a = 0; a < 2; ++a) {
        clReleaseKernel(k[a]);
        clReleaseMemObject(obuf[a]);
        free(times[a]);
    }
    clReleaseMemObject(kbuf);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    free(keys);
    free(got);
    free(src);
    return wrong != 0;
}
