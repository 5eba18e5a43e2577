/* Plans (plan.c), their programs (scan_program.c) and scratch (scratch.c); the scans run on them
 * (scan.c, scan_run.c). */
#ifndef CLSCAN_PLAN_H
#define CLSCAN_PLAN_H

#include "chain.h"
#include "variant.h"

#include <pthread.h>

/* scratch.c: makes *buffer (of *capacity bytes) at least bytes large; a new buffer if it is
 * smaller (contents not kept). */
cl_int clscan_scratch_grow(cl_context context, cl_mem *buffer, size_t *capacity, size_t bytes);

/* A scan program: its variant and its kernels (program NULL: not built yet). */
typedef struct clscan_scan_program {
    clscan_variant variant;
    cl_program program;
    cl_kernel scan_tiles;            /* src -> dst, the plan's kind (also one tile alone) */
    cl_kernel scan_tiles_inclusive;  /* levels of tile totals, in place */
    cl_kernel reduce;                /* tile totals */
    cl_kernel single_pass;           /* decoupled look-back */
    /* The heads program's segments from offsets (cl/scan/offsets.cl); NULL in the others. */
    cl_kernel offsets_heads, offsets_totals;
    /* The axis program's lines of a 2-D array (cl/scan/axis.cl); NULL in the others. */
    cl_kernel axis_reduce, axis_carries, axis_scan, axis_reduce_lockstep, axis_scan_lockstep, axis_fold;
    /* The runs programs' reduce-by-key (cl/scan/runs.cl): the single pass, and the carries and
     * the scatter of reduce-then-scan (after reduce); NULL in the others. */
    cl_kernel reduce_runs, runs_carries, runs_chunk_totals, runs_chunk_carries, runs_scatter;
    cl_kernel reduce_runs_serial;   /* CPUs: the single pass by one work-item a tile (scan/runs_serial.cl) */
    cl_kernel reduce_runs_folded;   /* CPUs: the same, the keys read once, through scratch (scan/runs_folded.cl) */
} clscan_scan_program;

/* Scratch memory, one per queue: scans on different queues never share it, and scans on one
 * queue are serialised by the plan's lock and the queue's order (on out-of-order queues, by
 * last_use). */
typedef struct clscan_scratch {
    cl_command_queue queue;   /* retained; NULL: a free slot */
    cl_event last_use;        /* out-of-order queues: the next use waits on it; may be NULL */
    unsigned long long stamp; /* for least-recently-used eviction */
    /* Reduce-then-scan: the levels of tile totals, and (segmented) one flag per total. */
    cl_mem totals, flags;
    size_t totals_bytes, flags_bytes;
    /* Single pass: the ticket counter and the status words (16 bytes per tile, room for every
     * layout), and the separate layout's tile values (totals, then prefixes). */
    cl_mem status, values;
    size_t status_bytes, values_bytes;
    size_t tiles;             /* tiles the status words have room for */
    cl_uint tickets;          /* tickets handed out so far (the counter's value), mod 2^32 */
    cl_uint epoch;            /* tag of the status words of the next scan, 1 .. 2^30 - 1; 0: clear them */
    int layout;               /* the status layout the words were last written in */
    /* Segments from offsets: a head flag per element, the scan when there is no dst (totals
     * alone), and each segment's last element (an exclusive plan's totals). */
    cl_mem seg_heads, seg_scan, seg_lasts;
    size_t seg_heads_bytes, seg_scan_bytes, seg_lasts_bytes;
    /* Reduce-by-key on CPUs (scan/runs_folded.cl): a slot of keys and of values per work-group. */
    cl_mem runs_keys, runs_values;
    size_t runs_keys_bytes, runs_values_bytes;
} clscan_scratch;

#define CLSCAN_MAX_SCRATCH 8

/* What the user chose for a plan (0 and AUTO: the library's choice). */
typedef struct clscan_choices {
    size_t wg, items;
    clscan_tiles tiles;
    clscan_primitive primitive;
    clscan_algorithm algorithm;
    clscan_accuracy accuracy;
} clscan_choices;

struct clscan_plan {
    cl_context context;        /* retained */
    cl_device_id device;
    clscan_device_info info;
    clscan_dev_options dev;    /* developer switches, read at creation */
    /* The operator and the kind. */
    int custom;                /* a clscan_custom operator (op and type unused) */
    clscan_op op;
    clscan_type type;
    size_t element_size;
    size_t pair_bound;         /* bytes reserved per (head flag, value) pair */
    char *op_source;           /* custom operators: the definitions of T, NEUTRAL and COMB */
    void *zeros;               /* an element of zero bytes: the kernels' carry argument unused */
    /* A transform (clscan_plan_set_transform): the definitions of cl/scan/io_transform.cl (NULL:
     * none), whether it maps the destination too, and the bytes of the elements of src and dst
     * in memory (element_size without a transform). */
    char *transform_source;
    int transform_out;
    size_t src_size, dst_size;
    clscan_kind kind;
    clscan_choices want;       /* the user's choices */

    pthread_mutex_t lock;      /* kernels' arguments, the programs and the scratch table */
    clscan_scan_program programs[CLSCAN_PROGRAM_KINDS];   /* PLAIN always built, the others on first use */
    clscan_scratch scratch[CLSCAN_MAX_SCRATCH];
    unsigned long long clock;
};

/* scan_program.c: builds the program of request r (the plan's operator and kind) into *p. */
cl_int clscan_scan_program_build(const clscan_plan *plan, const char *fn, const clscan_variant_request *r,
                                 clscan_scan_program *p);
void clscan_scan_program_release(clscan_scan_program *p);

/* plan.c: the request for a program of the plan with the plan's choices (what PLAIN: with the
 * given tuning, 0 automatic; segmented: the plain program's). */
void clscan_plan_request(const clscan_plan *plan, clscan_program_kind what, clscan_variant_request *r);
/* plan.c: program `what`, built on first use; called with the plan's lock held. */
cl_int clscan_plan_program(clscan_plan *plan, const char *fn, clscan_program_kind what,
                           const clscan_scan_program **program);
/* plan.c: builds the plain program for the plan's choices and puts it in place of the old one
 * (the segmented programs are rebuilt on their next use); the old ones are kept on failure.
 * Called with the plan's lock held, or before the plan is shared. */
cl_int clscan_plan_rebuild(clscan_plan *plan, const char *fn);

/* scratch.c: the queue's slot (called with the lock held), and releasing them all. */
clscan_scratch *clscan_scratch_slot(clscan_plan *plan, cl_command_queue queue);
void clscan_scratch_release(clscan_plan *plan);

#endif
