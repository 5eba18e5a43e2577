/* clscan_mpi_enqueue: the global scan of the ranks' parts.  Each rank reduces its part on its
 * device, the totals are gathered (one element per rank, with the starting rank's carry), each
 * device combines the totals before its part (after it, reversed) into its carry, and scans its
 * part with that carry: reduce, exchange, scan, as the tiles of a reduce-then-scan (Merrill and
 * Garland 2016), one level up. */
#include "internal.h"

/* This rank's checks: the call it will make on its part, with the carry of the options only on
 * the rank where the scan starts (the others take theirs from the exchange). */
static cl_int check_local(const char *fn, clscan_plan *plan, cl_command_queue queue, cl_mem src, size_t src_offset,
                          cl_mem dst, size_t dst_offset, size_t count, const clscan_scan_options *options,
                          int starts, cl_uint nwait, const cl_event *wait)
{
    clscan_scan_options o = options ? *options : (clscan_scan_options){0};
    if (!starts) {
        o.carry_in = NULL;
        o.init = NULL;
    }
    cl_int err = clscan_enqueue_with_check(plan, queue, src, src_offset, dst, dst_offset, count, &o, nwait, wait);
    /* The exchange combines the ranks' totals (elements of the operator's type) with the plan
     * itself, which a transform would map again: a plan with one is refused.  The segmented
     * check of an empty range finds it (CLSCAN_TRANSFORM_NOT_SUPPORTED) and checks nothing else
     * the call above has not. */
    if (err == CL_SUCCESS)
        err = clscan_enqueue_segmented_check(plan, queue, NULL, 0, NULL, 0, NULL, 0, 0, nwait, wait);
    return err == CL_SUCCESS ? err : clscan_mpi_fail_core(fn, err);
}

/* The starting rank's carry on the host (read after the wait list), or NULL without one. */
static cl_int start_carry(const char *fn, const clscan_mpi_exchange *x, const clscan_scan_options *o, void *buf,
                          cl_uint nwait, const cl_event *wait, const void **carry)
{
    *carry = NULL;
    if (o->carry_in) {
        cl_int err = clEnqueueReadBuffer(x->queue, o->carry_in, CL_TRUE, o->carry_in_offset * x->e, x->e, buf, nwait,
                                         wait, NULL);
        if (err != CL_SUCCESS)
            return clscan_mpi_fail(err, "%s: reading options->carry_in: %s", fn, clscan_error_string(err));
        *carry = buf;
    } else if (o->init) {
        *carry = o->init;
    }
    return CL_SUCCESS;
}

/* After the exchange: the carry into this rank, the global total, the scan of the part. */
static cl_int scan_part(const char *fn, clscan_mpi_exchange *x, cl_mem src, size_t src_offset, cl_mem dst,
                        size_t dst_offset, size_t count, const clscan_scan_options *o, cl_event *event)
{
    const int p = x->size, r = x->rank, start = o->reverse ? p - 1 : 0;
    const void *init = clscan_mpi_record_carry(x, start);
    cl_event total = NULL, scanned = NULL;
    cl_int err = CL_SUCCESS;
    if (o->total)
        err = clscan_mpi_combine(fn, x, 0, (size_t)p, init, o->reverse, o->total, o->total_offset, &total);
    if (err == CL_SUCCESS && dst) {
        /* Forwards the ranks before this one, reverse those after it. */
        const size_t first = o->reverse ? (size_t)r + 1 : 0, n = o->reverse ? (size_t)(p - 1 - r) : (size_t)r;
        err = clscan_mpi_scan_carried(fn, x, first, n, init, o->reverse, src, src_offset, dst, dst_offset, count,
                                      &scanned);
    }
    if (err == CL_SUCCESS)
        err = clscan_mpi_join(fn, x->queue, scanned, total, event);
    if (total)
        clReleaseEvent(total);
    if (scanned)
        clReleaseEvent(scanned);
    return err;
}

CLSCAN_MPI_API cl_int clscan_mpi_enqueue(clscan_plan *plan, MPI_Comm comm, cl_command_queue queue, cl_mem src,
                                         size_t src_offset, cl_mem dst, size_t dst_offset, size_t local_count,
                                         const clscan_scan_options *options, cl_uint num_events_in_wait_list,
                                         const cl_event *event_wait_list, cl_event *event)
{
    static const char fn[] = "clscan_mpi_enqueue";
    const clscan_scan_options none = {0}, *o = options ? options : &none;
    int rank, size;
    cl_int err = clscan_mpi_comm(fn, comm, &rank, &size);
    if (err != CL_SUCCESS)
        return err;   /* no communicator to agree over */
    const int starts = rank == (o->reverse ? size - 1 : 0);
    err = check_local(fn, plan, queue, src, src_offset, dst, dst_offset, local_count, o, starts,
                      num_events_in_wait_list, event_wait_list);
    /* The ranks' plans must agree on the element size, and on the direction. */
    const long same = (long)clscan_element_size(plan) * 2 + (o->reverse != 0);
    if ((err = clscan_mpi_agree(fn, comm, err, same)) != CL_SUCCESS)
        return err;
    clscan_mpi_exchange x;
    if ((err = clscan_mpi_exchange_init(fn, &x, plan, comm, queue, rank, size)) != CL_SUCCESS) {
        clscan_mpi_agree(fn, comm, err, same);   /* the others are waiting in the next collective */
        return err;
    }
    unsigned char *carry_buf = x.records + (size_t)rank * (1 + 2 * x.e) + 1 + x.e;   /* its record's place */
    const void *carry = NULL;
    err = clscan_mpi_reduce_own(fn, &x, src, src_offset, local_count, o->reverse, num_events_in_wait_list,
                                event_wait_list);
    if (err == CL_SUCCESS && starts)
        err = start_carry(fn, &x, o, carry_buf, num_events_in_wait_list, event_wait_list, &carry);
    if ((err = clscan_mpi_agree(fn, comm, err, same)) == CL_SUCCESS &&
        (err = clscan_mpi_gather(fn, &x, local_count ? CLSCAN_MPI_NONEMPTY : 0, carry)) == CL_SUCCESS)
        err = scan_part(fn, &x, src, src_offset, dst, dst_offset, local_count, o, event);
    clscan_mpi_exchange_release(&x);
    return err;
}
