/* The compactor (compact.c) and what the selections built on it share (select.c: predicates,
 * partition, unique; runs.c: unique_by_key, reduce_by_key): the handle, its program's kernels and
 * the commands of one compaction as steps of a caller's chain. */
#ifndef CLSCAN_COMPACT_H
#define CLSCAN_COMPACT_H

#include "algo.h"

struct clscan_compactor {
    cl_context context;            /* retained */
    cl_device_id device;
    clscan_device_info info;
    clscan_dev_options dev;
    size_t element_size;
    size_t wg, items;
    int gpu;                       /* the device policy: the block scatter */
    char *predicate;               /* a predicate's definitions (select.c), or NULL */
    cl_program program;
    cl_kernel count, scatter;
    cl_kernel partition, flags_runs;   /* cl/select/partition.cl, cl/select/runs.cl */
    cl_kernel flags_if;            /* cl/select/flags_if.cl: compactors with a predicate */
    clscan_plan *scan;
    pthread_mutex_t lock;          /* kernels' arguments, scratch, last_use */
    cl_mem counts, kept, flags;    /* scratch: block counts; the blocking call's total; made flags */
    size_t counts_cap, kept_cap, flags_cap;
    cl_event last_use;             /* the previous call's last command */
};

/* A compactor for element_size bytes (checked), with the predicate's definitions (NULL: none;
 * taken over: freed with the compactor or on failure). */
clscan_compactor *compact_create(const char *fn, cl_context context, cl_device_id device, size_t element_size,
                                 char *predicate, cl_int *err);

/* What the scatter writes. */
typedef enum compact_mode { COMPACT_ELEMENTS, COMPACT_INDICES, COMPACT_PARTITION } compact_mode;

/* One compaction: the elements of src (INDICES: unused) whose flag is set go to dst (INDICES:
 * their cl_uint indices; PARTITION: then the others), the number kept to kept[kept_offset]. */
typedef struct compact_call {
    compact_mode mode;
    cl_mem src, flags, dst, kept;
    size_t src_offset, flags_offset, dst_offset, kept_offset, count;
} compact_call;

/* Makes the scratch hold a compaction of count elements (and count + 1 made flags if flags). */
cl_int compact_reserve(clscan_compactor *c, size_t count, int flags);
/* The commands of k (count > 0) as the next steps of ch, with c's lock held (or c private to the
 * caller) and the scratch reserved: the block counts, their scan, then (total non-NULL) a read
 * of the number kept into *total and the scatter. */
cl_int compact_steps(clscan_compactor *c, clscan_chain *ch, const compact_call *k, cl_uint *total);
/* compact_steps in parts, for callers that run several compactions in one chain and put every
 * scatter (the only command that writes the caller's buffers) after every other command:
 * compact_args sets both kernels' arguments (the kernels are c's: one compaction per compactor
 * between compact_args and its scatter), compact_count_steps enqueues the block counts, their
 * scan and the read of total (NULL: none), compact_scatter_step the scatter. */
cl_int compact_args(clscan_compactor *c, const compact_call *k);
cl_int compact_count_steps(clscan_compactor *c, clscan_chain *ch, const compact_call *k, cl_uint *total);
cl_int compact_scatter_step(clscan_compactor *c, clscan_chain *ch, const compact_call *k);
/* flags[0 ... count) of the predicate (kernel flags_if), or (flags_runs) the runs of src's
 * elements: the first of each run, and flags[count] = 1 (cl/select/runs.cl), as the next step of
 * ch. */
cl_int compact_flags_step(clscan_compactor *c, clscan_chain *ch, cl_kernel kernel, cl_mem src, size_t src_offset,
                          size_t count, cl_mem flags);

#endif
