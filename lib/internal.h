/* clscan internals, shared by the files of lib/.  Nothing here is exported: the library is
 * built with -fvisibility=hidden and only CLSCAN_API symbols are visible. */
#ifndef CLSCAN_INTERNAL_H
#define CLSCAN_INTERNAL_H

#define _POSIX_C_SOURCE 200809L
#include "config.h"
#include "clscan.h"

#include <pthread.h>
#include <stddef.h>

/* ---- error.c: this thread's last failure ------------------------------------------------ */
#if defined(__GNUC__)
#define CLSCAN_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define CLSCAN_PRINTF(f, a)
#endif
/* Records the message for clscan_last_error() and returns code. */
cl_int clscan_fail(cl_int code, const char *fmt, ...) CLSCAN_PRINTF(2, 3);
/* The same, with text (e.g. a compiler log) appended after the message. */
cl_int clscan_fail_with_text(cl_int code, const char *text, const char *fmt, ...) CLSCAN_PRINTF(3, 4);

/* ---- source.c: the OpenCL C source of the kernels --------------------------------------- */
extern const char clscan_embedded_clscan_ops_cl[];
extern const char clscan_embedded_clscan_segmented_cl[];
extern const char clscan_embedded_clscan_scan_cl[];
/* Each kernel file comes from CLSCAN_KERNEL_DIR when set, else from the embedded copy.
 * The built-in operators' definitions (clscan_ops.cl); *source is malloc'd. */
cl_int clscan_builtin_ops_source(char **source);
/* A program's source: op_source (the definitions of T, NEUTRAL and COMB), then, for segmented
 * scans, clscan_segmented.cl, then clscan_scan.cl.  *source is malloc'd. */
cl_int clscan_program_source(const char *op_source, int segmented, char **source);

/* ---- custom.c: user-defined operators ---------------------------------------------------- */
/* The definitions of T, NEUTRAL and COMB for op (checked: no NULL or empty strings, size > 0),
 * with a compile-time check of sizeof(T) against op->size.  *source is malloc'd. */
cl_int clscan_custom_source(const clscan_custom *op, char **source);
/* The name the compile-time size check declares: a build log that mentions it means the
 * declared size is not the device's sizeof(type). */
#define CLSCAN_CUSTOM_SIZE_CHECK "clscan_declared_size_is_not_sizeof_type"

/* ---- device.c: what the plan needs to know of a device ---------------------------------- */
typedef struct clscan_device_info {
    cl_device_type type;
    size_t max_work_group_size;
    cl_ulong local_mem_size;
    int has_fp64;
    int has_int64_atomics; /* cl_khr_int64_base_atomics: the single pass packs its status words */
    int opencl_c_1_2;      /* accepts -cl-std=CL1.2 */
    int nvidia_ptx;        /* NVIDIA's OpenCL on an NVIDIA GPU: inline PTX (warp shuffles) */
    char name[256];
} clscan_device_info;
cl_int clscan_query_device(cl_device_id device, clscan_device_info *info);

/* ---- program_cache.c: built programs keyed by (context, device, options, source) -------- */
/* Returns a built program (a new reference, to release) from the cache or from a new build. */
cl_int clscan_program_get(cl_context context, cl_device_id device, const char *source,
                          const char *options, cl_program *program);
/* host.c: drops the default context of clscan_host (called by clscan_cache_clear). */
void clscan_host_clear(void);

/* ---- plan.c / enqueue.c ----------------------------------------------------------------- */
/* Scratch memory for the tile totals, one per queue: scans on different queues never share it,
 * and scans on one queue are serialised by the plan's lock and the queue's order. */
typedef struct clscan_scratch {
    cl_command_queue queue;   /* retained */
    cl_mem buffer;            /* NULL until first needed */
    size_t bytes;
    cl_event last_use;        /* out-of-order queues: the next use waits on it; may be NULL */
    unsigned long long stamp; /* for least-recently-used eviction */
    /* Single pass: status words (ticket counter, then one per tile) and tile values (totals,
     * then inclusive prefixes), sized for `tiles` tiles. */
    cl_mem status, values;
    size_t tiles;
    size_t values_bytes;      /* of values: segmented scans need more per tile */
    /* Segmented reduce-then-scan: one flag per tile total of buffer (same indices). */
    cl_mem flags;
    size_t flags_bytes;
    cl_uint tickets;          /* tickets handed out so far (the counter's value), mod 2^32 */
    cl_uint epoch;            /* tag of the status words of the next scan, 1 .. 2^30 - 1 */
    int packed;               /* the status words' layout of the last scan (packed word bytes) */
} clscan_scratch;

#define CLSCAN_MAX_SCRATCH 8

/* A program built for one tuning and its kernels. */
typedef struct clscan_kernels {
    cl_program program;
    cl_kernel scan_tiles;            /* src -> dst, the plan's kind */
    cl_kernel scan_tiles_inclusive;  /* levels of tile totals, in place */
    cl_kernel reduce;                /* tile totals */
    cl_kernel single_pass;           /* decoupled look-back */
} clscan_kernels;

/* The program of segmented scans and scans by key for the plan's tuning: the same kernels on
 * (head flag, value) pairs (cl/clscan_segmented.cl), with fewer elements per work-item when
 * pairs would not fit local memory. */
typedef struct clscan_segmented_kernels {
    clscan_kernels kernels;    /* program NULL: not built yet */
    size_t wg, items;          /* work-items per work-group (the plan's, except on CPUs where
                                * plain scans stream tiles with one), elements per work-item */
} clscan_segmented_kernels;

/* segmented[] of a plan: segments from heads (this program also scans the levels of tile totals
 * of every segmented scan), from keys compared as 32-bit or as 64-bit words. */
#define CLSCAN_SEG_HEADS 0
#define CLSCAN_SEG_KEYS_32 1
#define CLSCAN_SEG_KEYS_64 2

struct clscan_plan {
    cl_context context;        /* retained */
    cl_device_id device;
    clscan_op op;              /* built-in operators; a custom plan has CLSCAN_SUM's tuning */
    clscan_type type;
    clscan_kind kind;
    int custom;                /* a clscan_custom operator: op and type are not used */
    size_t element_size;
    size_t pair_bound;         /* bytes reserved per (head flag, value) pair */
    int packed_status;         /* clscan_plan_packed_status: 0, 8 or 16 */
    clscan_device_info info;
    char *op_source;           /* the definitions of T, NEUTRAL and COMB */
    char *source;              /* the program source the plan builds from */

    pthread_mutex_t lock;      /* kernels' arguments and the scratch table */
    size_t work_group_size;
    size_t items;              /* elements per work-item */
    clscan_kernels kernels;    /* built for that tuning */
    clscan_segmented_kernels segmented[3];   /* CLSCAN_SEG_HEADS, _KEYS_32, _KEYS_64 */
    clscan_algorithm algorithm;

    clscan_scratch scratch[CLSCAN_MAX_SCRATCH];
    unsigned long long clock;
};

/* plan.c: the bytes of the word into which the plain program's single pass packs each tile's
 * status and value: 8 (built-in operators on 4-byte values, devices with 64-bit atomics), 16
 * (built-in operators on 8-byte values, on NVIDIA GPUs or with CLSCAN_PACKED_WIDE=1), or 0
 * (status and value apart).
 * Segmented programs never pack. */
int clscan_plan_packed_status(const clscan_plan *plan);
/* plan.c: the algorithm of a plain (segmented 0) or segmented scan, AUTO resolved. */
clscan_algorithm clscan_plan_algorithm_for(const clscan_plan *plan, int segmented);

/* plan.c: the segmented program `which` (CLSCAN_SEG_*), built on first use for the tuning in
 * force; called with the plan's lock held. */
cl_int clscan_segmented_get(clscan_plan *plan, int which, const clscan_segmented_kernels **kernels);

/* enqueue.c: releases every queue's scratch of the plan. */
void clscan_release_scratch(clscan_plan *plan);

/* ---- Compaction, bucketing and radix sort (issue 5; lib/algo.h has the rest) ------------- */
extern const char clscan_embedded_clscan_compact_cl[];
extern const char clscan_embedded_clscan_radix_cl[];
/* source.c: the program source of one of the algorithms' files (cl/NAME), from
 * CLSCAN_KERNEL_DIR when set, else the embedded copy.  *source is malloc'd. */
cl_int clscan_algo_source(const char *name, const char *embedded, char **source);

#endif
