/* A first-order IIR filter, y[i] = a * y[i-1] + b[i] with b[i] = (1 - a) * x[i], over a signal
 * split across the ranks of MPI_COMM_WORLD (uneven parts): each rank holds the maps
 * y -> a*y + b[i] of its samples as AFFINE pairs (a, b[i]) on its device, and clscan_mpi_enqueue
 * composes them across ranks (the inclusive AFFINE scan, from the carry (1, y0) on rank 0):
 * the b of each output pair is y[i].  The total (on every rank) is the filter's state after the
 * last sample.  Each rank checks its part against the sequential loop over the whole signal
 * (the scan rounds in another order: within a tolerance).  doc/mpi.md says why pairs, and the
 * recurrence without pairs. */
#include <math.h>
#include <string.h>

#include <clscan_mpi.h>

#include "example_device.h"

#define N 100000

/* The samples before rank r's first, for parts of uneven lengths. */
static size_t part_start(int r, int p)
{
    return (size_t)((double)N * r * (r + p) / ((double)p * 2 * p));   /* growing parts */
}

static int run(cl_device_id device, cl_context context, cl_command_queue queue, int rank, int nranks)
{
    const double a = 0.999, y0 = 1.0, carry[2] = {1.0, y0};   /* the map y -> y0 */
    const size_t first = part_start(rank, nranks), n = part_start(rank + 1, nranks) - first;
    double *pairs = malloc((n ? n : 1) * 2 * sizeof *pairs), total[2] = {0, 0};
    if (!pairs)
        return fail("malloc", CL_OUT_OF_HOST_MEMORY);
    for (size_t i = 0; i < n; i++) {
        const size_t g = first + i;
        pairs[2 * i] = a;
        pairs[2 * i + 1] = (1 - a) * (sin(2e-5 * g) + 0.5 * sin(0.3 * g));
    }
    cl_int err;
    cl_mem buf = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, (n ? n : 1) * 2 * sizeof *pairs,
                                pairs, &err);
    cl_mem tot = buf ? clCreateBuffer(context, CL_MEM_READ_WRITE, sizeof total, NULL, &err) : NULL;
    clscan_plan *plan = tot ? clscan_plan_create(context, device, CLSCAN_AFFINE, CLSCAN_DOUBLE, CLSCAN_INCLUSIVE,
                                                 &err) : NULL;
    if (!plan)
        return fail("buffers and a plan", err);
    clscan_scan_options options = {.total = tot};
    if (rank == 0)
        options.init = carry;
    err = clscan_mpi_enqueue(plan, MPI_COMM_WORLD, queue, buf, 0, buf, 0, n, &options, 0, NULL, NULL);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "clscan_mpi_enqueue: %s: %s\n", clscan_error_string(err), clscan_mpi_last_error());
        return 1;
    }
    if ((err = clEnqueueReadBuffer(queue, buf, CL_TRUE, 0, n * 2 * sizeof *pairs, pairs, 0, NULL, NULL)) ||
        (err = clEnqueueReadBuffer(queue, tot, CL_TRUE, 0, sizeof total, total, 0, NULL, NULL)))
        return fail("clEnqueueReadBuffer", err);
    double state = y0, worst = 0;
    for (size_t g = 0; g < N; g++) {   /* the sequential filter over the whole signal */
        state = a * state + (1 - a) * (sin(2e-5 * g) + 0.5 * sin(0.3 * g));
        if (g >= first && g < first + n)
            worst = fmax(worst, fabs(pairs[2 * (g - first) + 1] - state));
    }
    worst = fmax(worst, fabs(total[1] - state));
    double all = 0;
    MPI_Allreduce(&worst, &all, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    const int ok = all < 1e-9;
    if (rank == 0)
        printf("mpi_iir_filter: %d ranks, y[%d] = %.12f (loop %.12f), largest difference %.2g: %s\n", nranks, N - 1,
               total[1], state, all, ok ? "correct" : "WRONG");
    clscan_plan_release(plan);
    clReleaseMemObject(buf);
    clReleaseMemObject(tot);
    free(pairs);
    return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
    int rank, nranks;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
    int rc = open_device(&device, &context, &queue);
    if (rc == 0) {
        rc = run(device, context, queue, rank, nranks);
        close_device(context, queue);
    }
    clscan_mpi_cache_clear();
    MPI_Finalize();
    return rc;
}
