/* A distributed stream compaction: particles split across the ranks of MPI_COMM_WORLD, those
 * inside a sphere kept, in their global order.  Each rank compacts its part on its device
 * (clscan_compact_enqueue), which leaves its number kept on the device; clscan_mpi_enqueue, an
 * exclusive SUM over one element per rank, turns those counts into each rank's global write
 * offset and the global number kept (every rank), without a host copy of the counts' scan.  The
 * ranks then send their kept particles to rank 0 at their offsets (MPI_Gatherv), which checks
 * the whole against a sequential compaction. */
#include <string.h>

#include <clscan_mpi.h>

#include "example_device.h"

#define N 200000

typedef struct particle {
    float x, y, z, w;
} particle;

/* The same particles on every rank (a fixed generator); rank r holds [start(r), start(r + 1)). */
static particle make(size_t i)
{
    unsigned s = (unsigned)i * 2654435761u;
    particle p;
    float *c = &p.x;
    for (int k = 0; k < 4; k++) {
        s = s * 1664525u + 1013904223u;
        c[k] = (float)(s >> 8) / (float)(1u << 24) * 2 - 1;
    }
    return p;
}

static int inside(const particle *p)
{
    return p->x * p->x + p->y * p->y + p->z * p->z < 0.5f;
}

static size_t start(int r, int p)
{
    return (size_t)((double)N * r / p);
}

static int check(const particle *all, cl_ulong total)
{
    size_t k = 0;
    int ok = 1;
    for (size_t i = 0; i < N && ok; i++) {
        const particle p = make(i);
        if (inside(&p))
            ok = k < total && memcmp(&all[k++], &p, sizeof p) == 0;
    }
    return ok && k == total;
}

/* The local compaction and the global offsets: *offset and *total, read back. */
/* The local compaction and the global offsets: this rank's number kept, its offset and the
 * global total, read back. */
static cl_int compact_part(cl_device_id device, cl_context context, cl_command_queue queue, cl_mem src,
                           cl_mem flags, size_t n, cl_mem dst, cl_ulong c[3])
{
    cl_int err;
    cl_mem counts = clCreateBuffer(context, CL_MEM_READ_WRITE, 3 * sizeof(cl_ulong), NULL, &err);
    clscan_compactor *compactor = counts ? clscan_compactor_create(context, device, sizeof(particle), &err) : NULL;
    clscan_plan *plan = compactor ? clscan_plan_create(context, device, CLSCAN_SUM, CLSCAN_UINT64,
                                                       CLSCAN_EXCLUSIVE, &err) : NULL;
    cl_event kept = NULL;
    /* counts[0]: kept here; counts[1]: the offset (its exclusive scan); counts[2]: the total. */
    if (plan && n)
        err = clscan_compact_enqueue(compactor, queue, src, 0, flags, 0, n, dst, 0, counts, 0, 0, NULL, &kept);
    else if (plan) {
        const cl_ulong zero = 0;
        err = clEnqueueWriteBuffer(queue, counts, CL_TRUE, 0, sizeof zero, &zero, 0, NULL, NULL);
    }
    const clscan_scan_options options = {.total = counts, .total_offset = 2};
    if (err == CL_SUCCESS)
        err = clscan_mpi_enqueue(plan, MPI_COMM_WORLD, queue, counts, 0, counts, 1, 1, &options, kept ? 1 : 0,
                                 kept ? &kept : NULL, NULL);
    if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(queue, counts, CL_TRUE, 0, 3 * sizeof(cl_ulong), c, 0, NULL, NULL);
    if (kept)
        clReleaseEvent(kept);
    clscan_plan_release(plan);
    clscan_compactor_release(compactor);
    if (counts)
        clReleaseMemObject(counts);
    return err;
}

static int run(cl_device_id device, cl_context context, cl_command_queue queue, int rank, int nranks)
{
    const size_t first = start(rank, nranks), n = start(rank + 1, nranks) - first, m = n ? n : 1;
    particle *p = malloc(m * sizeof *p);
    cl_uchar *f = malloc(m);
    if (!p || !f)
        return fail("malloc", CL_OUT_OF_HOST_MEMORY);
    for (size_t i = 0; i < n; i++) {
        p[i] = make(first + i);
        f[i] = (cl_uchar)inside(&p[i]);
    }
    cl_int err;
    cl_mem src = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, m * sizeof *p, p, &err);
    cl_mem flags = src ? clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, m, f, &err) : NULL;
    cl_mem dst = flags ? clCreateBuffer(context, CL_MEM_READ_WRITE, m * sizeof *p, NULL, &err) : NULL;
    cl_ulong c[3] = {0, 0, 0};
    if (!dst || (err = compact_part(device, context, queue, src, flags, n, dst, c)) != CL_SUCCESS) {
        fprintf(stderr, "mpi_compact: %s: %s %s\n", clscan_error_string(err), clscan_last_error(),
                clscan_mpi_last_error());
        return 1;
    }
    const cl_ulong mine = c[0], offset = c[1], total = c[2];
    if (mine && (err = clEnqueueReadBuffer(queue, dst, CL_TRUE, 0, mine * sizeof *p, p, 0, NULL, NULL)))
        return fail("clEnqueueReadBuffer", err);
    int count = (int)(mine * sizeof *p), displ = (int)(offset * sizeof *p), *counts = NULL, *displs = NULL;
    particle *all = NULL;
    if (rank == 0 && (!(counts = malloc(nranks * sizeof *counts)) || !(displs = malloc(nranks * sizeof *displs)) ||
                      !(all = malloc((total ? total : 1) * sizeof *all))))
        return fail("malloc", CL_OUT_OF_HOST_MEMORY);
    MPI_Gather(&count, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Gather(&displ, 1, MPI_INT, displs, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Gatherv(p, count, MPI_BYTE, all, counts, displs, MPI_BYTE, 0, MPI_COMM_WORLD);
    int ok = rank != 0 || check(all, total);
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("mpi_compact: %d ranks kept %llu of %d particles: %s\n", nranks, (unsigned long long)total, N,
               ok ? "correct" : "WRONG");
    clReleaseMemObject(src), clReleaseMemObject(flags), clReleaseMemObject(dst);
    free(p), free(f), free(counts), free(displs), free(all);
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
