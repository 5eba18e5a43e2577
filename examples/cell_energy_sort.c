/* The particles of each cell of a grid, highest energy first: clscan_bucket_enqueue groups the
 * particles by cell (a stable counting sort) and writes the cells' CSR offsets and the
 * permutation (which particle went where); clscan_segmented_sort_enqueue then sorts the energies
 * of every cell on its own, descending, the particles' numbers moving along.  Everything stays
 * on the device; checked against a sort of each cell's particles on the host (ties: the lower
 * particle number first, as the sorts are stable). */
#include <string.h>

#include "example_device.h"

#define N 200000
#define GRID 32   /* 32^3 cells: about 6 particles per cell, some empty */

typedef struct particle {
    float energy;
    cl_uint id;
} particle;

static int by_energy_down(const void *pa, const void *pb)
{
    const particle *a = pa, *b = pb;
    if (a->energy != b->energy)
        return a->energy < b->energy ? 1 : -1;
    return a->id < b->id ? -1 : a->id > b->id;
}

int main(void)
{
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
    int status = open_device(&device, &context, &queue);
    if (status)
        return status;

    const cl_uint ncells = GRID * GRID * GRID;
    cl_uint *cell = malloc(N * sizeof *cell), *offsets = malloc((ncells + 1) * sizeof *offsets);
    cl_uint *ids = malloc(N * sizeof *ids);
    float *energy = malloc(N * sizeof *energy), *sorted = malloc(N * sizeof *sorted);
    particle *expect = malloc(N * sizeof *expect);
    if (!cell || !offsets || !ids || !energy || !sorted || !expect)
        return fail("malloc", CL_OUT_OF_HOST_MEMORY);
    unsigned r = 2026;
    for (cl_uint i = 0; i < N; i++) {
        r = r * 1103515245u + 12345u;
        cell[i] = (r >> 8) % ncells;
        r = r * 1103515245u + 12345u;
        energy[i] = (float)((r >> 12) % 1000) * 0.5f;   /* ties on purpose */
    }

    cl_int err;
    cl_mem cells_in = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * sizeof *cell, cell, &err);
    cl_mem energy_in = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * sizeof *energy, energy,
                                      &err);
    cl_mem energy_grouped = clCreateBuffer(context, CL_MEM_READ_WRITE, N * sizeof *energy, NULL, &err);
    cl_mem ids_grouped = clCreateBuffer(context, CL_MEM_READ_WRITE, N * sizeof *ids, NULL, &err);
    cl_mem cell_offsets = clCreateBuffer(context, CL_MEM_READ_WRITE, (ncells + 1) * sizeof *offsets, NULL, &err);
    cl_mem energy_out = clCreateBuffer(context, CL_MEM_READ_WRITE, N * sizeof *energy, NULL, &err);
    cl_mem ids_out = clCreateBuffer(context, CL_MEM_READ_WRITE, N * sizeof *ids, NULL, &err);
    if (!cells_in || !energy_in || !energy_grouped || !ids_grouped || !cell_offsets || !energy_out || !ids_out)
        return fail("clCreateBuffer", err);

    /* Group by cell: the energies move along, the permutation is each particle's number. */
    clscan_bucketer *bucketer = clscan_bucketer_create(context, device, ncells, sizeof(float), &err);
    if (!bucketer)
        return fail("clscan_bucketer_create", err);
    err = clscan_bucket_enqueue(bucketer, queue, cells_in, 0, energy_in, 0, N, NULL, 0, energy_grouped, 0,
                                cell_offsets, 0, ids_grouped, 0, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        return fail("clscan_bucket_enqueue", err);

    /* Each cell's energies, highest first, the particle numbers along. */
    clscan_sorter *sorter = clscan_sorter_create(context, device, CLSCAN_FLOAT, sizeof(cl_uint), &err);
    if (!sorter)
        return fail("clscan_sorter_create", err);
    err = clscan_sorter_set_descending(sorter, 1);
    if (err != CL_SUCCESS)
        return fail("clscan_sorter_set_descending", err);
    err = clscan_segmented_sort_enqueue(sorter, queue, energy_grouped, 0, energy_out, 0, ids_grouped, 0, ids_out, 0,
                                        N, CLSCAN_UINT32, cell_offsets, 0, ncells, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        return fail("clscan_segmented_sort_enqueue", err);
    err = clEnqueueReadBuffer(queue, cell_offsets, CL_TRUE, 0, (ncells + 1) * sizeof *offsets, offsets, 0, NULL,
                              NULL);
    if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(queue, energy_out, CL_TRUE, 0, N * sizeof *sorted, sorted, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(queue, ids_out, CL_TRUE, 0, N * sizeof *ids, ids, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        return fail("clEnqueueReadBuffer", err);

    /* The check: the host groups the particles by cell (counting, in particle order) and sorts
     * each cell's group; the device's offsets and segments must be the same. */
    size_t *start = calloc((size_t)ncells + 1, sizeof *start), *fill = malloc((size_t)ncells * sizeof *fill);
    if (!start || !fill)
        return fail("malloc", CL_OUT_OF_HOST_MEMORY);
    for (cl_uint i = 0; i < N; i++)
        start[cell[i] + 1]++;
    for (cl_uint c = 0; c < ncells; c++)
        start[c + 1] += start[c];
    memcpy(fill, start, (size_t)ncells * sizeof *fill);
    for (cl_uint i = 0; i < N; i++)
        expect[fill[cell[i]]++] = (particle){energy[i], i};
    size_t wrong = 0, filled = 0;
    for (cl_uint c = 0; c < ncells; c++) {
        const size_t m = start[c + 1] - start[c];
        qsort(expect + start[c], m, sizeof *expect, by_energy_down);
        wrong += offsets[c] != start[c];
        filled += m > 0;
    }
    wrong += offsets[ncells] != N;
    for (size_t k = 0; k < N; k++)
        wrong += sorted[k] != expect[k].energy || ids[k] != expect[k].id;
    free(start), free(fill);
    printf("cell_energy_sort: %d particles in %zu of %u cells, each cell highest energy first: %s\n", N, filled,
           ncells, wrong ? "WRONG" : "correct");

    clscan_sorter_release(sorter);
    clscan_bucketer_release(bucketer);
    cl_mem all[] = {cells_in, energy_in, energy_grouped, ids_grouped, cell_offsets, energy_out, ids_out};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        clReleaseMemObject(all[i]);
    close_device(context, queue);
    free(cell), free(offsets), free(ids), free(energy), free(sorted), free(expect);
    return wrong != 0;
}
