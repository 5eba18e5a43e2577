/* The exchange: each rank's one element (its part's total, or a segment's tail) read back from
 * its device, gathered as bytes by every rank (MPI_Allgather: elements of any size and any
 * operator travel alike), written to a small device buffer and combined there by the plan's own
 * kernels (clscan_enqueue_with as a reduction), never on the host: a custom operator's comb
 * exists only in OpenCL C. */
#include "internal.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

static size_t record_size(const clscan_mpi_exchange *x)
{
    return 1 + 2 * x->e;
}

cl_int clscan_mpi_exchange_init(const char *fn, clscan_mpi_exchange *x, clscan_plan *plan, MPI_Comm comm,
                                cl_command_queue queue, int rank, int size)
{
    cl_context context;
    cl_int err;
    *x = (clscan_mpi_exchange){.plan = plan, .comm = comm, .queue = queue, .rank = rank, .size = size,
                               .e = clscan_element_size(plan)};
    if (record_size(x) > INT_MAX || (size_t)size > SIZE_MAX / record_size(x) - 2)
        return clscan_mpi_fail(CL_INVALID_VALUE, "%s: elements of %zu bytes are too large to exchange", fn, x->e);
    if (!(x->records = malloc((size_t)size * record_size(x))))
        return clscan_mpi_fail(CL_OUT_OF_HOST_MEMORY, "%s: no memory for %d records", fn, size);
    if ((err = clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof context, &context, NULL)) == CL_SUCCESS)
        x->values = clCreateBuffer(context, CL_MEM_READ_WRITE, ((size_t)size + 2) * x->e, NULL, &err);
    if (err != CL_SUCCESS) {
        clscan_mpi_exchange_release(x);
        return clscan_mpi_fail(err, "%s: a buffer of %d elements: %s", fn, size + 2, clscan_error_string(err));
    }
    return CL_SUCCESS;
}

void clscan_mpi_exchange_release(clscan_mpi_exchange *x)
{
    if (x->values)
        clReleaseMemObject(x->values);   /* freed once the commands using it have finished */
    free(x->records);
    x->values = NULL;
    x->records = NULL;
}

cl_int clscan_mpi_reduce_own(const char *fn, clscan_mpi_exchange *x, cl_mem src, size_t src_offset, size_t count,
                             int reverse, cl_uint nwait, const cl_event *wait)
{
    /* An empty part reduces an empty range of the exchange's own buffer: its neutral element. */
    const clscan_scan_options o = {.total = x->values, .total_offset = CLSCAN_MPI_OWN(x), .reverse = reverse};
    cl_event ev = NULL;
    cl_int err = clscan_enqueue_with(x->plan, x->queue, count ? src : x->values, count ? src_offset : 0, NULL, 0,
                                     count, &o, nwait, wait, &ev);
    if (err != CL_SUCCESS)
        return clscan_mpi_fail_core(fn, err);
    unsigned char *own = x->records + (size_t)x->rank * record_size(x) + 1;
    err = clEnqueueReadBuffer(x->queue, x->values, CL_TRUE, CLSCAN_MPI_OWN(x) * x->e, x->e, own, 1, &ev, NULL);
    clReleaseEvent(ev);
    return err == CL_SUCCESS ? err : clscan_mpi_fail(err, "%s: reading the part's total: %s", fn,
                                                     clscan_error_string(err));
}

cl_int clscan_mpi_gather(const char *fn, clscan_mpi_exchange *x, unsigned flags, const void *carry)
{
    const size_t rs = record_size(x), e = x->e;
    unsigned char *mine = x->records + (size_t)x->rank * rs;
    mine[0] = (unsigned char)(flags | (carry ? CLSCAN_MPI_HAS_CARRY : 0));
    if (carry)
        memmove(mine + 1 + e, carry, e);   /* may be its place already */
    else
        memset(mine + 1 + e, 0, e);
    /* MPI_IN_PLACE: this rank's record is already in its place (MPI 3.1, 5.7). */
    int rc = MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, x->records, (int)rs, MPI_BYTE, x->comm);
    if (rc != MPI_SUCCESS)
        return clscan_mpi_fail_mpi(fn, "MPI_Allgather", rc);
    /* The values, packed, into [0, size) of the device buffer. */
    unsigned char *values = malloc((size_t)x->size * e);
    if (!values)
        return clscan_mpi_fail(CL_OUT_OF_HOST_MEMORY, "%s: no memory for %d values", fn, x->size);
    for (int j = 0; j < x->size; ++j)
        memcpy(values + (size_t)j * e, x->records + (size_t)j * rs + 1, e);
    cl_int err = clEnqueueWriteBuffer(x->queue, x->values, CL_TRUE, 0, (size_t)x->size * e, values, 0, NULL, NULL);
    free(values);
    return err == CL_SUCCESS ? err : clscan_mpi_fail(err, "%s: writing the ranks' values: %s", fn,
                                                     clscan_error_string(err));
}

unsigned clscan_mpi_flags(const clscan_mpi_exchange *x, int j)
{
    return x->records[(size_t)j * record_size(x)];
}

const void *clscan_mpi_record_carry(const clscan_mpi_exchange *x, int j)
{
    return clscan_mpi_flags(x, j) & CLSCAN_MPI_HAS_CARRY ? x->records + (size_t)j * record_size(x) + 1 + x->e : NULL;
}

cl_int clscan_mpi_combine(const char *fn, clscan_mpi_exchange *x, size_t first, size_t count, const void *init,
                          int reverse, cl_mem total, size_t total_offset, cl_event *event)
{
    const clscan_scan_options o = {.init = init, .total = total, .total_offset = total_offset, .reverse = reverse};
    /* count 0 reads nothing: any offset inside the buffer will do. */
    cl_int err = clscan_enqueue_with(x->plan, x->queue, x->values, count ? first : 0, NULL, 0, count, &o, 0, NULL,
                                     event);
    return err == CL_SUCCESS ? err : clscan_mpi_fail_core(fn, err);
}

cl_int clscan_mpi_scan_carried(const char *fn, clscan_mpi_exchange *x, size_t first, size_t nvalues, const void *init,
                               int reverse, cl_mem src, size_t src_offset, cl_mem dst, size_t dst_offset,
                               size_t count, cl_event *event)
{
    cl_event carried = NULL;
    cl_int err = clscan_mpi_combine(fn, x, first, nvalues, init, reverse, x->values, CLSCAN_MPI_CARRY(x), &carried);
    const clscan_scan_options with = {.carry_in = x->values, .carry_in_offset = CLSCAN_MPI_CARRY(x),
                                      .reverse = reverse};
    if (err == CL_SUCCESS &&
        (err = clscan_enqueue_with(x->plan, x->queue, src, src_offset, dst, dst_offset, count, &with, 1, &carried,
                                   event)) != CL_SUCCESS)
        clscan_mpi_fail_core(fn, err);
    if (carried)
        clReleaseEvent(carried);
    return err;
}

cl_int clscan_mpi_join(const char *fn, cl_command_queue queue, cl_event a, cl_event b, cl_event *event)
{
    cl_event list[2];
    cl_uint n = 0;
    if (!event)
        return CL_SUCCESS;
    if (a)
        list[n++] = a;
    if (b)
        list[n++] = b;
    cl_int err = clEnqueueMarkerWithWaitList(queue, n, n ? list : NULL, event);
    return err == CL_SUCCESS ? err : clscan_mpi_fail(err, "%s: clEnqueueMarkerWithWaitList failed: %s", fn,
                                                     clscan_error_string(err));
}
