/* The compactor (compact.c) and what the selections built on it share (select.c: predicates,
 * partition, unique; runs.c: unique_by_key, reduce_by_key): the handle, its program's kernels and
 * the commands of one compaction as steps of a caller's chain. */
#ifndef CLSCAN_COMPACT_H
#define CLSCAN_COMPACT_H

#include "algo.h"

/* Where a compaction's flags come from: the flag source part of a program (cl/select/from_*.cl). */
typedef enum compact_source {
    COMPACT_FROM_FLAGS,       /* the caller's uchar flags */
    COMPACT_FROM_PREDICATE,   /* the compactor's predicate of each element of src */
    COMPACT_FROM_RUNS,        /* whether each element of src starts a run of equal ones */
    COMPACT_SOURCES
} compact_source;

/* The program of one flag source and its kernels (NULL if the handle has none; wg may be below
 * the compactor's where the device runs that program's kernels with fewer work-items). */
typedef struct compact_part {
    cl_program program;
    size_t wg;
    cl_kernel count, scatter, partition;
    cl_kernel flags_runs;          /* cl/select/runs.cl: the flags of runs, for runs.c */
    cl_program one_pass_program;   /* its blocks of wg x one_pass_items (GPUs with 64-bit atomics), */
    cl_kernel one_pass;            /* cl/compact/one_pass.cl; or both NULL */
} compact_part;

struct clscan_compactor {
    cl_context context;            /* retained */
    cl_device_id device;
    clscan_device_info info;
    clscan_dev_options dev;
    size_t element_size;
    size_t wg, items;              /* the blocks of the count, scan and scatter kernels */
    size_t one_pass_items;         /* and of the one pass (compact_one_pass.c) */
    int gpu;                       /* the device policy: the block scatters */
    char *predicate;               /* a predicate's definitions (select.c), or NULL */
    compact_part parts[COMPACT_SOURCES];   /* built at creation (compact_create) */
    clscan_plan *scan;
    pthread_mutex_t lock;          /* parts, kernels' arguments, scratch, last_use */
    cl_mem counts, kept;           /* scratch: block counts; the blocking call's total */
    size_t counts_cap, kept_cap;
    /* The one-pass compaction's ticket counter (the count kernel's too) and status words (8
     * bytes per block), tagged with an epoch of 30 bits so that they are cleared only when new
     * or at the epochs' end. */
    cl_mem status;
    size_t status_cap;
    cl_uint tickets, epoch;
    cl_event last_use;             /* the previous call's last command */
};

/* A compactor for element_size bytes (checked), with the predicate's definitions (NULL: none;
 * taken over: freed with the compactor or on failure).  It builds the program of given flags
 * and, if selections, those of the runs and (with a predicate) of the predicate. */
clscan_compactor *compact_create(const char *fn, cl_context context, cl_device_id device, size_t element_size,
                                 char *predicate, int selections, cl_int *err);

/* What the scatter writes. */
typedef enum compact_mode { COMPACT_ELEMENTS, COMPACT_INDICES, COMPACT_PARTITION } compact_mode;

/* One compaction: the elements of src (INDICES: unused) whose flag (from: where it comes from;
 * flags, flags_offset: COMPACT_FROM_FLAGS only) is set go to dst (INDICES: their cl_uint indices;
 * PARTITION: then the others), the number kept to kept[kept_offset]. */
typedef struct compact_call {
    compact_mode mode;
    compact_source from;
    cl_mem src, flags, dst, kept;
    size_t src_offset, flags_offset, dst_offset, kept_offset, count;
} compact_call;

/* Makes c's scratch hold a compaction of count elements with flags from `from` (a source whose
 * program c has), with c's lock held. */
cl_int compact_reserve(clscan_compactor *c, compact_source from, size_t count);
/* The commands of k (count > 0) as the next steps of ch, with c's lock held (or c private to the
 * caller) and compact_reserve done: the block counts, their scan, then (total non-NULL) a read
 * of the number kept into *total and the scatter; or, without total, for elements or indices
 * where c has the one-pass kernel (compact_one_pass_applies: on GPUs up to ONE_PASS_MAX_BLOCKS
 * blocks), that kernel alone (after a fill of its status words when they are new). */
cl_int compact_steps(clscan_compactor *c, clscan_chain *ch, const compact_call *k, cl_uint *total);
/* compact_steps in parts, for callers that run several compactions in one chain and put every
 * scatter (the only command that writes the caller's buffers) after every other command:
 * compact_args sets both kernels' arguments (the kernels are c's: one compaction per compactor
 * between compact_args and its scatter), compact_count_steps enqueues the block counts, their
 * scan (by the count kernel's last block up to COUNT_OFFSETS_MAX_BLOCKS blocks) and the
 * read of total (NULL: none), compact_scatter_step the scatter.  offsets NULL: the
 * scatter reads the offsets that c's count steps make; else another compactor's counts, after its
 * count steps of the same flags in the same blocks (compact_same_blocks), and c's count steps
 * are not needed. */
cl_int compact_args(clscan_compactor *c, const compact_call *k, cl_mem offsets);
cl_int compact_count_steps(clscan_compactor *c, clscan_chain *ch, const compact_call *k, cl_uint *total);
cl_int compact_scatter_step(clscan_compactor *c, clscan_chain *ch, const compact_call *k);
/* The blocks k's range is cut into. */
size_t compact_blocks(const clscan_compactor *c, const compact_call *k);
/* The scatter's arguments 0 ... 9 (the flag source's, the count, dst, indices, write_indices),
 * which the one-pass kernel takes too. */
cl_int compact_output_args(cl_kernel ks, const compact_call *k);

/* compact_one_pass.c: whether c's programs have the one-pass kernel (GPUs with 64-bit atomics);
 * whether k (total: as compact_steps) runs on it; and its command (after a fill of the status
 * words when they are new), as the next step of ch. */
int compact_one_pass_available(const clscan_compactor *c);
int compact_one_pass_applies(const clscan_compactor *c, const compact_call *k, const cl_uint *total);
cl_int compact_one_pass_step(clscan_compactor *c, clscan_chain *ch, const compact_call *k);
/* The ticket counter and the status words of `blocks` blocks (grown, and cleared by a command of
 * ch where new or at the epochs' end), with c's lock held. */
cl_int compact_status_reserve(clscan_compactor *c, clscan_chain *ch, size_t blocks);

/* compact_enqueue.c: a checked call's commands on queue after the previous call on c, with c's
 * lock held (total: as compact_steps); and a blocking call (the lock taken, k->kept set to c's
 * own, the number kept into *kept once the commands are done). */
cl_int compact_enqueue_locked(clscan_compactor *c, cl_command_queue queue, const compact_call *k, cl_uint nwait,
                              const cl_event *wait, cl_event *event, cl_uint *total);
cl_int compact_blocking(const char *fn, clscan_compactor *c, cl_command_queue queue, compact_call *k,
                        cl_uint nwait, const cl_event *wait, size_t *kept);

/* Whether compactors a and b cut a range into the same blocks with flags from `from`. */
int compact_same_blocks(const clscan_compactor *a, const clscan_compactor *b, compact_source from);
/* The runs of src's elements as flags (kernel flags_runs of the COMPACT_FROM_FLAGS part, reserved):
 * flags[0 ... count) the first of each run, and flags[count] = 1 (cl/select/runs.cl), as the
 * next step of ch. */
cl_int compact_flags_step(clscan_compactor *c, clscan_chain *ch, cl_mem src, size_t src_offset, size_t count,
                          cl_mem flags);

#endif
