/* clscan-bench-mpi: weak and strong scaling of clscan_mpi_enqueue (bench/README, doc/mpi.md).
 *
 *   mpiexec -n P clscan-bench-mpi [--count N] [--op sum|affine] [--type float|double] [--reps R]
 *                                 [--strong]
 *
 * Weak scaling (the default): N elements on every rank; strong (--strong): N elements in all,
 * split evenly.  Each rank scans on GPU (local rank mod the number of GPUs of its node, the local
 * rank from MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)) where the node has GPUs, else on the
 * default device (clscan_default_device).  Times are MPI_Wtime around the call and a clFinish of
 * the queue, after a barrier; a run's time is the slowest rank's; the median of R runs after a
 * warm-up.  The exchange (the part's reduction and its read-back, then MPI_Allgather of one
 * element per rank: what clscan_mpi_enqueue does before its carries) is timed the same way on
 * its own, and its share of the call is printed (and the MPI_Allgather's time alone).  The efficiency is against one rank: the same
 * call on MPI_COMM_SELF on rank 0 alone, with N elements (weak: T1 / TP; strong: T1 / (P TP)).
 * The result is checked once against the sequential scan, exactly (the inputs are exact in any
 * order: support/inputs.h). */
#include <clscan_mpi.h>

#include "support/inputs.h"
#include "support/reference.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct args {
    size_t count;
    clscan_op op;
    clscan_type type;
    int reps, strong;
} args;

typedef struct bench {
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
    clscan_plan *plan;
    char name[128];
} bench;

static int rank, nranks;

static int usage(void)
{
    if (rank == 0)
        fprintf(stderr, "usage: clscan-bench-mpi [--count N] [--op sum|affine] [--type float|double] [--reps R] "
                        "[--strong]\n");
    return 2;
}

static int parse(int argc, char **argv, args *a)
{
    *a = (args){.count = 1 << 20, .op = CLSCAN_SUM, .type = CLSCAN_FLOAT, .reps = 10};
    for (int i = 1; i < argc; ++i) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(argv[i], "--strong"))
            a->strong = 1;
        else if (!strcmp(argv[i], "--count") && v && (a->count = strtoull(v, NULL, 0)) > 0)
            ++i;
        else if (!strcmp(argv[i], "--reps") && v && (a->reps = atoi(v)) > 0 && a->reps <= 1000)
            ++i;
        else if (!strcmp(argv[i], "--op") && v && (!strcmp(v, "sum") || !strcmp(v, "affine")))
            a->op = !strcmp(v, "sum") ? CLSCAN_SUM : CLSCAN_AFFINE, ++i;
        else if (!strcmp(argv[i], "--type") && v && (!strcmp(v, "float") || !strcmp(v, "double")))
            a->type = !strcmp(v, "float") ? CLSCAN_FLOAT : CLSCAN_DOUBLE, ++i;
        else
            return usage();
    }
    return 0;
}

static int fail(const char *what, cl_int err)
{
    fprintf(stderr, "clscan-bench-mpi: rank %d: %s: %s: %s %s\n", rank, what, clscan_error_string(err),
            clscan_last_error(), clscan_mpi_last_error());
    MPI_Abort(MPI_COMM_WORLD, 1);
    return 1;
}

/* GPU local_rank mod the node's GPUs, else the default device. */
static cl_int choose_device(cl_device_id *device)
{
    MPI_Comm node;
    int local = 0;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &local);
    MPI_Comm_free(&node);
    cl_platform_id platforms[16];
    cl_device_id gpus[64];
    cl_uint np = 0, ngpu = 0;
    if (clGetPlatformIDs(16, platforms, &np) != CL_SUCCESS)
        np = 0;
    for (cl_uint p = 0; p < np && p < 16; ++p) {
        cl_uint n = 0;
        if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_GPU, 64 - ngpu, gpus + ngpu, &n) == CL_SUCCESS)
            ngpu += n < 64 - ngpu ? n : 64 - ngpu;
    }
    if (ngpu) {
        *device = gpus[(cl_uint)local % ngpu];
        return CL_SUCCESS;
    }
    cl_platform_id platform;
    return clscan_default_device(NULL, &platform, device);
}

static void open_bench(const args *a, bench *b)
{
    cl_int err = choose_device(&b->device);
    if (err != CL_SUCCESS)
        fail("a device", err);
    clGetDeviceInfo(b->device, CL_DEVICE_NAME, sizeof b->name - 1, b->name, NULL);
    b->context = clCreateContext(NULL, 1, &b->device, NULL, NULL, &err);
    if (err == CL_SUCCESS)
        b->queue = clCreateCommandQueue(b->context, b->device, 0, &err);
    if (err == CL_SUCCESS)
        b->plan = clscan_plan_create(b->context, b->device, a->op, a->type, CLSCAN_INCLUSIVE, &err);
    if (err != CL_SUCCESS)
        fail("a context, queue and plan", err);
}

/* One timed call: the slowest rank's seconds. */
static double timed_scan(const bench *b, MPI_Comm comm, cl_mem src, cl_mem dst, size_t n)
{
    MPI_Barrier(comm);
    const double t0 = MPI_Wtime();
    cl_int err = clscan_mpi_enqueue(b->plan, comm, b->queue, src, 0, dst, 0, n, NULL, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clFinish(b->queue);
    if (err != CL_SUCCESS)
        fail("clscan_mpi_enqueue", err);
    double t = MPI_Wtime() - t0, slowest = t;
    MPI_Allreduce(&t, &slowest, 1, MPI_DOUBLE, MPI_MAX, comm);
    return slowest;
}

/* The exchange alone, as clscan_mpi_enqueue does it: reduce, read back, gather; *gather: the
 * slowest rank's MPI_Allgather alone. */
static double timed_exchange(const bench *b, cl_mem src, cl_mem total, size_t n, unsigned char *all, double *gather)
{
    const size_t e = clscan_element_size(b->plan);
    const clscan_scan_options o = {.total = total};
    unsigned char own[16];
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    cl_int err = clscan_enqueue_with(b->plan, b->queue, n ? src : total, 0, NULL, 0, n, &o, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(b->queue, total, CL_TRUE, 0, e, own, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        fail("the exchange's reduction", err);
    const double t1 = MPI_Wtime();
    MPI_Allgather(own, (int)e, MPI_BYTE, all, (int)e, MPI_BYTE, MPI_COMM_WORLD);
    double t[2] = {MPI_Wtime() - t0, MPI_Wtime() - t1}, slowest[2];
    MPI_Allreduce(t, slowest, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    *gather = slowest[1];
    return slowest[0];
}

static int cmp_double(const void *x, const void *y)
{
    const double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static double median(double *t, int n)
{
    qsort(t, (size_t)n, sizeof *t, cmp_double);
    return n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
}

/* The global input: every rank generates the whole array from one seed and keeps its part. */
static cl_mem input(const bench *b, const args *a, size_t first, size_t n, size_t total, unsigned char **host)
{
    const size_t e = clscan_element_size(b->plan);
    unsigned char *x = malloc((total ? total : 1) * e);
    cl_int err = x ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    if (err != CL_SUCCESS)
        fail("host memory", err);
    sup_random_exact(a->op, a->type, 42, x, total);
    cl_mem m = clCreateBuffer(b->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, (n ? n : 1) * e, x + first * e,
                              &err);
    if (err != CL_SUCCESS)
        fail("a buffer", err);
    *host = x;
    return m;
}

/* Checks this rank's part of the scan against the sequential one. */
static int check(const bench *b, const args *a, unsigned char *x, size_t first, size_t n, size_t total, cl_mem dst)
{
    const size_t e = clscan_element_size(b->plan);
    unsigned char *y = malloc((total ? total : 1) * e), *got = malloc((n ? n : 1) * e);
    if (!y || !got)
        fail("host memory", CL_OUT_OF_HOST_MEMORY);
    sup_reference(a->op, a->type, CLSCAN_INCLUSIVE, x, y, total);
    cl_int err = n ? clEnqueueReadBuffer(b->queue, dst, CL_TRUE, 0, n * e, got, 0, NULL, NULL) : CL_SUCCESS;
    int ok = err == CL_SUCCESS && (!n || memcmp(got, y + first * e, n * e) == 0), all = 0;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    free(y);
    free(got);
    return all;
}

/* Rank 0 alone on MPI_COMM_SELF with n elements: the one-rank time (seconds, median). */
static double one_rank(const bench *b, const args *a, size_t n)
{
    double t[1000], result = 0;
    if (rank == 0) {
        unsigned char *x;
        cl_mem src = input(b, a, 0, n, n, &x);
        cl_int err;
        cl_mem dst = clCreateBuffer(b->context, CL_MEM_READ_WRITE, n * clscan_element_size(b->plan), NULL, &err);
        if (err != CL_SUCCESS)
            fail("a buffer", err);
        timed_scan(b, MPI_COMM_SELF, src, dst, n);
        for (int r = 0; r < a->reps; ++r)
            t[r] = timed_scan(b, MPI_COMM_SELF, src, dst, n);
        result = median(t, a->reps);
        clReleaseMemObject(src);
        clReleaseMemObject(dst);
        free(x);
    }
    MPI_Bcast(&result, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    return result;
}

static void report(const bench *b, const args *a, size_t n, double t1, double tp, double tx, double tg, int ok)
{
    char line[256];
    snprintf(line, sizeof line, "rank %d: %s: %zu elements", rank, b->name, n);
    if (rank == 0) {
        printf("clscan-bench-mpi: %s scaling, %s %s inclusive, %d ranks, %zu elements %s, median of %d\n",
               a->strong ? "strong" : "weak", a->op == CLSCAN_SUM ? "sum" : "affine",
               a->type == CLSCAN_FLOAT ? "float" : "double", nranks, a->count, a->strong ? "in all" : "per rank",
               a->reps);
        puts(line);
        for (int j = 1; j < nranks; ++j) {
            MPI_Recv(line, sizeof line, MPI_CHAR, j, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            puts(line);
        }
        const double eff = a->strong ? t1 / (nranks * tp) : t1 / tp;
        printf("ranks %d  time %.3f ms  exchange %.3f ms (%.0f%%; MPI_Allgather %.3f ms)  one rank %.3f ms  "
               "efficiency %.2f  %s\n", nranks, tp * 1e3, tx * 1e3, 100 * tx / tp, tg * 1e3, t1 * 1e3, eff,
               ok ? "correct" : "WRONG");
    } else {
        MPI_Send(line, sizeof line, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
    }
}

int main(int argc, char **argv)
{
    args a;
    bench b;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    if (parse(argc, argv, &a)) {
        MPI_Finalize();
        return 2;
    }
    open_bench(&a, &b);
    const size_t per = a.strong ? a.count / (size_t)nranks : a.count, extra = a.strong ? a.count % (size_t)nranks : 0;
    const size_t n = per + ((size_t)rank < extra), first = per * (size_t)rank + ((size_t)rank < extra ? (size_t)rank
                                                                                                      : extra);
    const size_t total = a.strong ? a.count : a.count * (size_t)nranks, e = clscan_element_size(b.plan);
    unsigned char *x, *all = malloc((size_t)nranks * e);
    cl_int err;
    cl_mem src = input(&b, &a, first, n, total, &x);
    cl_mem dst = clCreateBuffer(b.context, CL_MEM_READ_WRITE, (n ? n : 1) * e, NULL, &err);
    cl_mem tot = err == CL_SUCCESS ? clCreateBuffer(b.context, CL_MEM_READ_WRITE, e, NULL, &err) : NULL;
    if (err != CL_SUCCESS || !all)
        fail("buffers", err);
    timed_scan(&b, MPI_COMM_WORLD, src, dst, n);   /* warm-up (and the result checked) */
    const int ok = check(&b, &a, x, first, n, total, dst);
    free(x);
    double ts[1000], tx[1000], tg[1000];
    for (int r = 0; r < a.reps; ++r) {
        ts[r] = timed_scan(&b, MPI_COMM_WORLD, src, dst, n);
        tx[r] = timed_exchange(&b, src, tot, n, all, &tg[r]);
    }
    const double tp = median(ts, a.reps), tex = median(tx, a.reps), tgat = median(tg, a.reps);
    const double t1 = one_rank(&b, &a, a.count);
    report(&b, &a, n, t1, tp, tex, tgat, ok);
    clReleaseMemObject(src), clReleaseMemObject(dst), clReleaseMemObject(tot);
    free(all);
    clscan_plan_release(b.plan);
    clReleaseCommandQueue(b.queue);
    clReleaseContext(b.context);
    clscan_mpi_cache_clear();
    clscan_cache_clear();
    MPI_Finalize();
    return ok ? 0 : 1;
}
