/* clscan_mpi_enqueue_segmented: segmented scans whose segments may cross ranks.  Each rank finds
 * its first head f and one past its last head (heads.c); its outgoing value is the reduction of
 * its last segment's elements (from its last head; all of them without a head).  After the
 * exchange, the carry into rank r is the reduction of the values of ranks j0 ... r - 1, where j0
 * is the last rank before r that holds a head (or whose first element is the array's first,
 * which always starts a segment).  Rank r then scans [0, f) as a plain scan with that carry
 * (no head there: a plain scan with the carry is the segmented one) and [f, n) as a segmented
 * scan (it starts at a head: no carry needed).  Without such a j0, element 0 of rank r is the
 * array's first and its whole part is a segmented scan. */
#include "internal.h"

/* The last rank before r whose part starts a segment or holds a head, or -1. */
static int segment_start(const clscan_mpi_exchange *x)
{
    int first_nonempty = x->size;
    for (int j = 0; j < x->size; ++j)
        if (clscan_mpi_flags(x, j) & CLSCAN_MPI_NONEMPTY) {
            first_nonempty = j;
            break;
        }
    for (int j = x->rank - 1; j >= 0; --j)
        if ((clscan_mpi_flags(x, j) & CLSCAN_MPI_HAS_HEAD) || j == first_nonempty)
            return j;
    return -1;
}

/* After the exchange: the carry (if any), then the part's two scans. */
static cl_int scan_part(const char *fn, clscan_mpi_exchange *x, cl_mem src, size_t src_offset, cl_mem heads,
                        size_t heads_offset, cl_mem dst, size_t dst_offset, size_t count, size_t first,
                        cl_event *event)
{
    const int j0 = segment_start(x);
    cl_event prefix = NULL, rest = NULL;
    cl_int err = CL_SUCCESS;
    if (j0 < 0)
        first = 0;   /* the array's first element: a segment starts here */
    if (count && first > 0) {
        err = clscan_mpi_scan_carried(fn, x, (size_t)j0, (size_t)(x->rank - j0), NULL, 0, src, src_offset, dst,
                                      dst_offset, first, &prefix);
    }
    if (err == CL_SUCCESS && count > first &&
        (err = clscan_enqueue_segmented(x->plan, x->queue, src, src_offset + first, heads, heads_offset + first, dst,
                                        dst_offset + first, count - first, 0, NULL, &rest)) != CL_SUCCESS)
        clscan_mpi_fail_core(fn, err);
    if (err == CL_SUCCESS)
        err = clscan_mpi_join(fn, x->queue, prefix, rest, event);
    if (prefix)
        clReleaseEvent(prefix);
    if (rest)
        clReleaseEvent(rest);
    return err;
}

/* Before the exchange: the part's heads and its last segment's reduction (read back). */
static cl_int reduce_tail(const char *fn, clscan_mpi_exchange *x, cl_mem src, size_t src_offset, cl_mem heads,
                          size_t heads_offset, size_t count, cl_uint nwait, const cl_event *wait, size_t *first,
                          unsigned *flags)
{
    size_t last_end = 0;
    cl_int err = CL_SUCCESS;
    *first = count;
    *flags = count ? CLSCAN_MPI_NONEMPTY : 0;
    if (count)
        err = clscan_mpi_find_heads(fn, x->queue, heads, heads_offset, count, nwait, wait, first, &last_end);
    if (err != CL_SUCCESS)
        return err;
    const size_t tail = last_end ? last_end - 1 : 0;   /* the last segment's first element */
    if (last_end)
        *flags |= CLSCAN_MPI_HAS_HEAD;
    return clscan_mpi_reduce_own(fn, x, src, src_offset + tail, count - tail, 0, nwait, wait);
}

CLSCAN_MPI_API cl_int clscan_mpi_enqueue_segmented(clscan_plan *plan, MPI_Comm comm, cl_command_queue queue,
                                                   cl_mem src, size_t src_offset, cl_mem heads,
                                                   size_t heads_offset, cl_mem dst, size_t dst_offset,
                                                   size_t local_count, cl_uint num_events_in_wait_list,
                                                   const cl_event *event_wait_list, cl_event *event)
{
    static const char fn[] = "clscan_mpi_enqueue_segmented";
    int rank, size;
    cl_int err = clscan_mpi_comm(fn, comm, &rank, &size);
    if (err != CL_SUCCESS)
        return err;   /* no communicator to agree over */
    if ((err = clscan_enqueue_segmented_check(plan, queue, src, src_offset, heads, heads_offset, dst, dst_offset,
                                              local_count, num_events_in_wait_list, event_wait_list)) != CL_SUCCESS)
        clscan_mpi_fail_core(fn, err);
    const long same = (long)clscan_element_size(plan);
    if ((err = clscan_mpi_agree(fn, comm, err, same)) != CL_SUCCESS)
        return err;
    clscan_mpi_exchange x;
    if ((err = clscan_mpi_exchange_init(fn, &x, plan, comm, queue, rank, size)) != CL_SUCCESS) {
        clscan_mpi_agree(fn, comm, err, same);   /* the others are waiting in the next collective */
        return err;
    }
    size_t first = 0;
    unsigned flags = 0;
    err = reduce_tail(fn, &x, src, src_offset, heads, heads_offset, local_count, num_events_in_wait_list,
                      event_wait_list, &first, &flags);
    if ((err = clscan_mpi_agree(fn, comm, err, same)) == CL_SUCCESS &&
        (err = clscan_mpi_gather(fn, &x, flags, NULL)) == CL_SUCCESS)
        err = scan_part(fn, &x, src, src_offset, heads, heads_offset, dst, dst_offset, local_count, first, event);
    clscan_mpi_exchange_release(&x);
    return err;
}
