/* clscan_mpi: distributed prefix scans over MPI, one part of the array per rank (libclscan_mpi;
 * doc/mpi.md has the design, clscan_mpi_enqueue(3) the details).
 *
 * The ranks of a communicator, in its rank order, hold consecutive parts of one global array,
 * each in a buffer of its own device.  Every function here is collective over the communicator:
 * every rank calls it, with its part (of any length, 0 included).  Each rank reduces its part on
 * its device, the ranks' totals (one element each, as bytes) are gathered, and each rank's
 * device combines the totals before it into its carry and scans its part with it: the data is
 * read twice and written once, never copied to the host, and combined by the plan's own kernels
 * only (custom operators included).  Results are bitwise reproducible for a fixed number of
 * ranks and parts.
 *
 * Errors: every rank checks all its arguments before any rank enqueues anything, and the ranks
 * agree: every rank returns an error if any rank rejects its arguments (its own status on the
 * rejecting ranks, CLSCAN_MPI_REMOTE_ERROR on the others), and then no buffer is touched on any
 * rank.  The status codes are those of clscan.h (clscan_error_string names them all). */
#ifndef CLSCAN_MPI_H
#define CLSCAN_MPI_H

#include <mpi.h>
#include <clscan.h>

#if defined(_WIN32) && defined(CLSCAN_MPI_BUILDING_LIBRARY) && defined(DLL_EXPORT)
#define CLSCAN_MPI_API __declspec(dllexport)
#elif defined(__GNUC__) && defined(CLSCAN_MPI_BUILDING_LIBRARY)
#define CLSCAN_MPI_API __attribute__((visibility("default")))
#else
#define CLSCAN_MPI_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Collective over comm: every rank calls it with its part (ranks in comm's rank order are the
 * array's order; local_count may differ per rank and may be 0).  Scans the global array: the
 * result on each rank is its part of the global inclusive or exclusive scan (the plan's kind),
 * with options as in clscan_enqueue_with: a carry (carry_in or init) given on the rank where the
 * scan starts (rank 0; with reverse, the last rank) starts the global scan, the other ranks'
 * carries are ignored; total, if given on a rank, receives the global total there; reverse (the
 * same on every rank) scans from the last rank's end; dst NULL with a total is a global
 * reduction.  Returns when the MPI exchange is done (after the wait list has completed: the
 * part's total is read back); the rest of the device work is enqueued on queue, and *event (if
 * event is non-NULL) completes when dst and the total are written.  Every rank gets the same
 * status: if any rank rejects its arguments (those clscan_enqueue_with would reject, a NULL comm,
 * or a plan whose element size differs from another rank's), all return an error
 * (CLSCAN_MPI_REMOTE_ERROR on the others) and no buffer is touched anywhere.  CLSCAN_MPI_FAILED
 * when an MPI call fails (comm's error handler returned: MPI_ERRORS_RETURN). */
CLSCAN_MPI_API cl_int clscan_mpi_enqueue(clscan_plan *plan, MPI_Comm comm, cl_command_queue queue,
                                         cl_mem src, size_t src_offset, cl_mem dst, size_t dst_offset,
                                         size_t local_count, const clscan_scan_options *options,
                                         cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                         cl_event *event);

/* The same for segmented scans by head flags (as clscan_enqueue_segmented: heads holds one
 * cl_uchar per element, heads_offset in bytes; the first element of the global array always
 * starts a segment): a segment may cross one or several ranks, and a rank may hold no head. */
CLSCAN_MPI_API cl_int clscan_mpi_enqueue_segmented(clscan_plan *plan, MPI_Comm comm, cl_command_queue queue,
                                                   cl_mem src, size_t src_offset, cl_mem heads,
                                                   size_t heads_offset, cl_mem dst, size_t dst_offset,
                                                   size_t local_count, cl_uint num_events_in_wait_list,
                                                   const cl_event *event_wait_list, cl_event *event);

/* A one-line message for this thread's last failure of a clscan_mpi function (the library's own
 * message, or libclscan's clscan_last_error() prefixed with the function's name). */
CLSCAN_MPI_API const char *clscan_mpi_last_error(void);

/* Releases the small programs libclscan_mpi builds once per context and device (for the head
 * flags of segmented scans), and with them their contexts' references.  Must not race with
 * calls of clscan_mpi_enqueue_segmented. */
CLSCAN_MPI_API void clscan_mpi_cache_clear(void);

#ifdef __cplusplus
}
#endif
#endif /* CLSCAN_MPI_H */
