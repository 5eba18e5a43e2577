/* What the algorithms built on the scans (compaction, bucketing, radix sort) share: argument
 * checks, a chain of commands with events, program builds and growing scratch buffers
 * (algo_common.c), and the radix sort engine that the sorter and the bucketer drive
 * (radix_engine.c). */
#ifndef CLSCAN_ALGO_H
#define CLSCAN_ALGO_H

#include "internal.h"

#include <stdint.h>

#define ALGO_MAX_ELEMENT_SIZE 4096
#define ALGO_MAX_COUNT ((size_t)UINT32_MAX)   /* offsets are cl_uint */

/* ---- Argument checks (each records a message naming fn and returns the status) ----------- */
/* The device is in the context and is one the kernels can run on; fills *info. */
cl_int algo_check_create(const char *fn, cl_context context, cl_device_id device, clscan_device_info *info);
cl_int algo_check_queue(const char *fn, cl_context context, cl_device_id device, cl_command_queue queue);
cl_int algo_check_wait_list(const char *fn, cl_context context, cl_uint n, const cl_event *list);

/* Where a checked range lies: the buffer it is carved from, and its first and end byte there. */
typedef struct algo_range {
    cl_mem root;
    size_t begin, end;
} algo_range;
/* mem holds elements [offset, offset + count) of esize bytes, belongs to context, and may be
 * read (written = 0) or written (1). */
cl_int algo_check_buffer(const char *fn, cl_context context, cl_mem mem, const char *what, int written,
                         size_t offset, size_t count, size_t esize, algo_range *range);
/* 0: disjoint (or empty); 1: the same bytes; 2: a partial overlap. */
int algo_overlap(const algo_range *a, const algo_range *b);
/* Fails with CL_MEM_COPY_OVERLAP if the two overlap at all. */
cl_int algo_check_disjoint(const char *fn, const algo_range *a, const char *what_a, const algo_range *b,
                           const char *what_b);

/* ---- A chain of commands: each waits on the one before (any queue order) ------------------ */
typedef struct algo_chain {
    cl_command_queue queue;
    cl_event *wait;         /* the wait list of the next command */
    cl_uint nwait;
    cl_event *first_list;   /* the caller's list plus the handle's last use (owned) */
    cl_event last;          /* the last command's event (owned) */
} algo_chain;
/* The first command waits on the caller's list and on the handle's previous use (may be NULL). */
cl_int algo_chain_begin(algo_chain *c, cl_command_queue queue, cl_uint nwait, const cl_event *wait,
                        cl_event previous_use);
cl_int algo_launch(algo_chain *c, cl_kernel kernel, size_t groups, size_t wg);
cl_int algo_fill(algo_chain *c, cl_mem buffer, const void *pattern, size_t pattern_size, size_t offset,
                 size_t bytes);
cl_int algo_copy(algo_chain *c, cl_mem src, size_t src_offset, cl_mem dst, size_t dst_offset, size_t bytes);
/* Exclusive scan of count elements of buffer, in place, with plan. */
cl_int algo_scan(algo_chain *c, clscan_plan *plan, cl_mem buffer, size_t count);
/* A marker that completes after the caller's list (count 0: nothing to do). */
cl_int algo_marker(algo_chain *c);
/* Ends the chain: on success the last event goes to *event (if non-NULL) and replaces
 * *last_use (the handle's); on failure everything is released. */
void algo_chain_end(algo_chain *c, cl_int err, cl_event *event, cl_event *last_use);

/* ---- Programs, kernels and scratch ------------------------------------------------------- */
/* GPU-style tuning (CLSCAN_FORCE_STAGE=1 asks for it on a CPU, for tests). */
int algo_gpu_style(const clscan_device_info *info);
/* Builds (or takes from the cache) cl/file with the defines. */
cl_int algo_build(cl_context context, cl_device_id device, const clscan_device_info *info, const char *file,
                  const char *embedded, const char *defines, cl_program *program);
/* Creates the kernel and checks that it runs wg work-items (CL_INVALID_WORK_GROUP_SIZE if not). */
cl_int algo_kernel(cl_program program, cl_device_id device, const char *name, size_t wg, cl_kernel *kernel);
/* Makes *buffer at least bytes large (a new buffer if it is smaller; contents not kept). */
cl_int algo_grow(const char *fn, cl_context context, cl_mem *buffer, size_t *capacity, size_t bytes);
/* The exclusive SUM of cl_uint counts every algorithm scans its block counts with. */
clscan_plan *algo_count_plan(cl_context context, cl_device_id device, cl_int *err);

#define ALGO_ARG(k, i, v) (err == CL_SUCCESS ? (err = clSetKernelArg((k), (i), sizeof(v), &(v))) : err)
#define ALGO_ARG_MEM(k, i, m) (err == CL_SUCCESS ? (err = clSetKernelArg((k), (i), sizeof(cl_mem), (m) ? (const void *)&(m) : NULL)) : err)

/* ---- The radix sort engine ---------------------------------------------------------------- */
typedef struct radix_engine {
    cl_context context;          /* retained */
    cl_device_id device;
    clscan_device_info info;
    size_t key_size, value_size;
    size_t wg, items;            /* a block (one work-group) sorts wg * items keys per pass */
    int ranked;                  /* GPUs: the scatter ranks by warps (CLSCAN_SCATTER_RANKED) */
    cl_program program;
    cl_kernel histogram, scatter, bucket_offsets;
    clscan_plan *scan;
    /* scratch */
    cl_mem counts, keys_tmp, keys_spare, values_tmp, index_tmp;
    size_t counts_cap, keys_tmp_cap, keys_spare_cap, values_tmp_cap, index_tmp_cap;
} radix_engine;

/* key_order: 0 unsigned, 1 signed (two's complement), 2 IEEE float (total order). */
cl_int radix_engine_init(radix_engine *e, const char *fn, cl_context context, cl_device_id device,
                         size_t key_size, int key_order, size_t value_size);
void radix_engine_free(radix_engine *e);

typedef struct radix_job {
    cl_mem keys_in, keys_out;       /* keys_out NULL: the engine's spare buffer */
    size_t keys_in_offset, keys_out_offset;
    cl_mem values_in, values_out;   /* both NULL without values */
    size_t values_in_offset, values_out_offset;
    cl_mem index_out;               /* NULL: no permutation */
    size_t index_out_offset;
    size_t count;                   /* 1 ... ALGO_MAX_COUNT */
    unsigned bits;                  /* low bits to sort by (after the order transform), >= 1 */
    cl_ulong clamp;                 /* keys above it count as it (bucketing); all ones otherwise */
    int in_place;                   /* the outputs are the inputs */
} radix_job;

/* Makes sure the scratch holds a job of count elements (before anything is enqueued). */
cl_int radix_engine_reserve(radix_engine *e, const char *fn, const radix_job *j);
/* Enqueues the passes; keys and keys_offset get where the sorted keys are. */
cl_int radix_engine_run(radix_engine *e, algo_chain *c, const radix_job *j, cl_mem *keys, size_t *keys_offset);

#endif
