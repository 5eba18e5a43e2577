/* The net charge of every occupied cell of a grid, as a histogram with a reduction: particles
 * are sorted by their cell (clscan_sort_enqueue, the charges moving along), then
 * clscan_reduce_by_key_enqueue sums the charges of each run of equal cells and writes the
 * occupied cells, their sums and the number of occupied cells, all on the device.  Charges are
 * integers (units of e), so the sums are exact; checked against the histogram loop. */
#include <string.h>

#include "example_device.h"

#define N 300000
#define GRID 64   /* 64^3 cells, most of them empty or nearly so */

int main(void)
{
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
    int status = open_device(&device, &context, &queue);
    if (status)
        return status;

    cl_uint *cell = malloc(N * sizeof *cell), *cells = malloc(N * sizeof *cells);
    cl_int *charge = malloc(N * sizeof *charge), *sums = malloc(N * sizeof *sums);
    cl_int *histogram = calloc((size_t)GRID * GRID * GRID, sizeof *histogram);
    cl_uchar *occupied = calloc((size_t)GRID * GRID * GRID, 1);
    if (!cell || !cells || !charge || !sums || !histogram || !occupied)
        return fail("malloc", CL_OUT_OF_HOST_MEMORY);
    unsigned r = 2026;
    for (int i = 0; i < N; i++) {   /* positions in [0, 1)^3, denser near the middle */
        cl_uint c[3];
        for (int k = 0; k < 3; k++) {
            r = r * 1103515245u + 12345u;
            const float u = (float)(r >> 8) / 16777216.0f;
            c[k] = (cl_uint)((0.5f + (u - 0.5f) * (u - 0.5f) * (u < 0.5f ? -2.0f : 2.0f)) * GRID) % GRID;
        }
        cell[i] = (c[2] * GRID + c[1]) * GRID + c[0];
        r = r * 1103515245u + 12345u;
        charge[i] = (cl_int)((r >> 16) % 5) - 2;   /* -2 ... +2 */
        histogram[cell[i]] += charge[i];
        occupied[cell[i]] = 1;
    }

    cl_int err;
    cl_mem keys = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * sizeof *cell, cell, &err);
    cl_mem values = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * sizeof *charge, charge,
                                   &err);
    cl_mem sorted_keys = clCreateBuffer(context, CL_MEM_READ_WRITE, N * sizeof *cell, NULL, &err);
    cl_mem sorted_values = clCreateBuffer(context, CL_MEM_READ_WRITE, N * sizeof *charge, NULL, &err);
    cl_mem out_cells = clCreateBuffer(context, CL_MEM_READ_WRITE, N * sizeof *cell, NULL, &err);
    cl_mem out_sums = clCreateBuffer(context, CL_MEM_READ_WRITE, N * sizeof *charge, NULL, &err);
    cl_mem nruns = clCreateBuffer(context, CL_MEM_READ_WRITE, sizeof(cl_ulong), NULL, &err);
    if (!keys || !values || !sorted_keys || !sorted_values || !out_cells || !out_sums || !nruns)
        return fail("clCreateBuffer", err);

    /* The handles: a sorter of cl_uint cells with 4-byte values, runs of 4-byte keys and
     * values, and the operator (any plan: a custom one would reduce structs the same way). */
    clscan_sorter *sorter = clscan_sorter_create(context, device, CLSCAN_UINT32, sizeof(cl_int), &err);
    if (!sorter)
        return fail("clscan_sorter_create", err);
    clscan_runs *runs = clscan_runs_create(context, device, sizeof(cl_uint), sizeof(cl_int), &err);
    if (!runs)
        return fail("clscan_runs_create", err);
    clscan_plan *sum = clscan_plan_create(context, device, CLSCAN_SUM, CLSCAN_INT32, CLSCAN_INCLUSIVE, &err);
    if (!sum)
        return fail("clscan_plan_create", err);

    /* Sort, then reduce by key, ordered by the in-order queue; one read of the count at the end. */
    err = clscan_sort_enqueue(sorter, queue, keys, 0, sorted_keys, 0, values, 0, sorted_values, 0, N, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        return fail("clscan_sort_enqueue", err);
    err = clscan_reduce_by_key_enqueue(runs, sum, queue, sorted_keys, 0, sorted_values, 0, N, out_cells, 0, out_sums,
                                       0, nruns, 0, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        return fail("clscan_reduce_by_key_enqueue", err);
    cl_ulong n_cells = 0;
    err = clEnqueueReadBuffer(queue, nruns, CL_TRUE, 0, sizeof n_cells, &n_cells, 0, NULL, NULL);
    if (err == CL_SUCCESS && n_cells <= N)
        err = clEnqueueReadBuffer(queue, out_cells, CL_TRUE, 0, n_cells * sizeof *cells, cells, 0, NULL, NULL);
    if (err == CL_SUCCESS && n_cells <= N)
        err = clEnqueueReadBuffer(queue, out_sums, CL_TRUE, 0, n_cells * sizeof *sums, sums, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        return fail("clEnqueueReadBuffer", err);

    /* The check: the occupied cells in increasing order, each with its histogram's sum. */
    size_t wrong = n_cells > N, m = 0, charged = 0;
    for (cl_uint c = 0; c < GRID * GRID * GRID && !wrong; c++) {
        if (!occupied[c])
            continue;
        wrong += m >= n_cells || cells[m] != c || sums[m] != histogram[c];
        charged += histogram[c] != 0;
        m++;
    }
    wrong += m != n_cells;
    printf("cell_charges: %d particles in %llu occupied cells of %d, %zu of them charged: %s\n", N,
           (unsigned long long)n_cells, GRID * GRID * GRID, charged, wrong ? "WRONG" : "correct");

    clscan_plan_release(sum);
    clscan_runs_release(runs);
    clscan_sorter_release(sorter);
    cl_mem all[] = {keys, values, sorted_keys, sorted_values, out_cells, out_sums, nruns};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        clReleaseMemObject(all[i]);
    close_device(context, queue);
    free(cell), free(cells), free(charge), free(sums), free(histogram), free(occupied);
    return wrong != 0;
}
