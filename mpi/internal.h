/* libclscan_mpi's internals: messages, the ranks' agreement on a status, the exchange of one
 * element per rank, and the head-flag kernels of segmented scans. */
#ifndef CLSCAN_MPI_INTERNAL_H
#define CLSCAN_MPI_INTERNAL_H

#include "clscan_mpi.h"

/* ---- error.c: this thread's message ---- */
/* Records a message (printf format) and returns code. */
cl_int clscan_mpi_fail(cl_int code, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* After a libclscan call failed with code: records "fn: " and clscan_last_error(); returns code. */
cl_int clscan_mpi_fail_core(const char *fn, cl_int code);
/* After an MPI call failed with rc: records its MPI error string; returns CLSCAN_MPI_FAILED. */
cl_int clscan_mpi_fail_mpi(const char *fn, const char *call, int rc);

/* ---- agree.c: the ranks' common status ---- */
/* This rank's rank and size in comm; CL_INVALID_VALUE for MPI_COMM_NULL, CLSCAN_MPI_FAILED if MPI
 * is not running or the calls fail.  Not collective: a failure here is this rank's alone. */
cl_int clscan_mpi_comm(const char *fn, MPI_Comm comm, int *rank, int *size);
/* Collective: the status every rank returns, from this rank's verdict `local` and a value that
 * must be the same on every rank (`same`, e.g. the element size): local where it failed,
 * CLSCAN_MPI_REMOTE_ERROR where only other ranks failed, CL_INVALID_VALUE everywhere when
 * `same` differs between ranks, CLSCAN_MPI_FAILED when the reduction fails. */
cl_int clscan_mpi_agree(const char *fn, MPI_Comm comm, cl_int local, long same);

/* ---- exchange.c: one element per rank, combined on the device ---- */
/* A rank's record in the exchange: flags, then its value (e bytes), then a carry (e bytes). */
enum {
    CLSCAN_MPI_HAS_CARRY = 1, /* the record's carry starts the scan (the starting rank's) */
    CLSCAN_MPI_HAS_HEAD = 2,  /* segmented: the part holds a head; its value starts at the last one */
    CLSCAN_MPI_NONEMPTY = 4   /* the part holds elements */
};
typedef struct clscan_mpi_exchange {
    clscan_plan *plan;
    MPI_Comm comm;
    cl_command_queue queue;
    int rank, size;
    size_t e;              /* bytes of one element */
    cl_mem values;         /* size + 2 elements: every rank's value [0, size), this rank's at size,
                              the carry into this rank at size + 1 */
    unsigned char *records; /* size records of 1 + 2e bytes, gathered */
} clscan_mpi_exchange;
#define CLSCAN_MPI_OWN(x) ((size_t)(x)->size)
#define CLSCAN_MPI_CARRY(x) ((size_t)(x)->size + 1)
/* Allocates the device buffer and the host records (released by clscan_mpi_exchange_release). */
cl_int clscan_mpi_exchange_init(const char *fn, clscan_mpi_exchange *x, clscan_plan *plan, MPI_Comm comm,
                                cl_command_queue queue, int rank, int size);
void clscan_mpi_exchange_release(clscan_mpi_exchange *x);
/* Reduces count elements of src from src_offset (reverse: from the last) into the own value
 * (count 0: the neutral), after the wait list, and reads it back. */
cl_int clscan_mpi_reduce_own(const char *fn, clscan_mpi_exchange *x, cl_mem src, size_t src_offset, size_t count,
                             int reverse, cl_uint nwait, const cl_event *wait);
/* Collective: gathers every rank's record (flags, the own value read back, carry: e bytes or
 * NULL) and writes the values to the device buffer [0, size). */
cl_int clscan_mpi_gather(const char *fn, clscan_mpi_exchange *x, unsigned flags, const void *carry);
/* The flags and the carry of rank j's record. */
unsigned clscan_mpi_flags(const clscan_mpi_exchange *x, int j);
const void *clscan_mpi_record_carry(const clscan_mpi_exchange *x, int j);
/* Combines count gathered values from `first` (reverse: from the last) with the carry init
 * (NULL: none) on the device into total[total_offset]; *event completes when it is written. */
cl_int clscan_mpi_combine(const char *fn, clscan_mpi_exchange *x, size_t first, size_t count, const void *init,
                          int reverse, cl_mem total, size_t total_offset, cl_event *event);
/* The carry into this rank (clscan_mpi_combine of count values from first, with init, into the
 * device buffer's carry slot), then the scan of count elements of src into dst with that carry
 * (reverse: backwards); *event completes when dst is written. */
cl_int clscan_mpi_scan_carried(const char *fn, clscan_mpi_exchange *x, size_t first, size_t nvalues, const void *init,
                               int reverse, cl_mem src, size_t src_offset, cl_mem dst, size_t dst_offset,
                               size_t count, cl_event *event);
/* One event that completes when the given ones (NULLs skipped) have: *event (if non-NULL). */
cl_int clscan_mpi_join(const char *fn, cl_command_queue queue, cl_event a, cl_event b, cl_event *event);

/* ---- heads.c: the first and the last head of a part ---- */
/* After the wait list, finds the first head (count if none) and one past the last (0 if none)
 * among count > 0 flags of heads from heads_offset, and reads them back. */
cl_int clscan_mpi_find_heads(const char *fn, cl_command_queue queue, cl_mem heads, size_t heads_offset,
                             size_t count, cl_uint nwait, const cl_event *wait, size_t *first, size_t *last_end);

#endif
