/* The variant record (variant.c): every choice a scan program's kernels need, made once when a
 * plan is created or changed, from the device, the operator, the user's requests (tuning,
 * algorithm, tiles, primitive) and the developer switches: which parts make the program
 * (cl/scan/) and with which defines.  Nothing is decided again at enqueue time. */
#ifndef CLSCAN_VARIANT_H
#define CLSCAN_VARIANT_H

#include "device.h"
#include "environment.h"

/* What a program scans: plain elements (from the first or from the last), segments from heads
 * or keys (also reduced by key in one pass), the pairs of a linear recurrence made from its coefficients (AFFINE plans), the
 * levels of tile totals of a plan whose kernels' elements are wider than its elements in memory
 * (compensated AFFINE: the totals keep their low parts), or the lines of a 2-D array (the plain
 * program with the kernels of clscan_enqueue_axis, cl/scan/axis.cl). */
typedef enum clscan_program_kind {
    CLSCAN_PROGRAM_PLAIN,
    CLSCAN_PROGRAM_REVERSE,
    CLSCAN_PROGRAM_HEADS,
    CLSCAN_PROGRAM_KEYS_32,
    CLSCAN_PROGRAM_KEYS_64,
    CLSCAN_PROGRAM_RECURRENCE,
    CLSCAN_PROGRAM_RECURRENCE_REVERSE,
    CLSCAN_PROGRAM_LEVELS,
    CLSCAN_PROGRAM_AXIS,
    CLSCAN_PROGRAM_RUNS_32,
    CLSCAN_PROGRAM_RUNS_64
} clscan_program_kind;
#define CLSCAN_PROGRAM_KINDS 11
/* Reduce-by-key in one pass (cl/scan/runs.cl): segments from 4- or 8-byte keys, heads counted. */
#define CLSCAN_PROGRAM_IS_RUNS(what) ((what) == CLSCAN_PROGRAM_RUNS_32 || (what) == CLSCAN_PROGRAM_RUNS_64)
#define CLSCAN_PROGRAM_IS_RECURRENCE(what) \
    ((what) == CLSCAN_PROGRAM_RECURRENCE || (what) == CLSCAN_PROGRAM_RECURRENCE_REVERSE)
/* Plain elements of the operator's type in the kernels, whatever the arrays hold: the plain
 * program's variant but for the direction and the loads and stores. */
#define CLSCAN_PROGRAM_IS_PLAIN(what)                                          \
    ((what) == CLSCAN_PROGRAM_PLAIN || (what) == CLSCAN_PROGRAM_REVERSE ||     \
     CLSCAN_PROGRAM_IS_RECURRENCE(what) || (what) == CLSCAN_PROGRAM_LEVELS || (what) == CLSCAN_PROGRAM_AXIS)
/* Read from the last element backwards. */
#define CLSCAN_PROGRAM_IS_BACKWARDS(what) \
    ((what) == CLSCAN_PROGRAM_REVERSE || (what) == CLSCAN_PROGRAM_RECURRENCE_REVERSE)

/* The single pass's status words (cl/scan/status_*.cl). */
typedef enum clscan_status_layout {
    CLSCAN_STATUS_SEPARATE,   /* status words apart from the values */
    CLSCAN_STATUS_PACKED,     /* status and a 4-byte value in one 64-bit word */
    CLSCAN_STATUS_WIDE,       /* status and an 8-byte value in one 16-byte word */
    CLSCAN_STATUS_LANE        /* status in the free fourth lane of a 16-byte value (compensated
                               * float AFFINE) */
} clscan_status_layout;

/* What a variant is chosen from. */
typedef struct clscan_variant_request {
    const clscan_device_info *info;
    const clscan_dev_options *dev;
    clscan_program_kind what;
    size_t value_size;           /* bytes of the operator's element */
    size_t kernel_size;          /* bytes of the plain kernels' T: value_size, or more where the
                                  * kernels carry more than memory holds (compensated AFFINE) */
    int compensated;             /* AFFINE of FLOAT or DOUBLE with double-word products */
    int transform;               /* loads and stores through the plan's transform (plain programs) */
    size_t pair_bound;           /* bytes reserved per (head flag, value) pair */
    int exact;                   /* every grouping of comb gives the same bits */
    size_t cpu_lanes;            /* independent runs per work-item on CPUs */
    clscan_tiles tiles;          /* the user's choices; AUTO, 0: the library's */
    clscan_primitive primitive;
    clscan_algorithm algorithm;
    size_t wg, items;
    int shrink;                  /* wg, items are a starting point to shrink to the device's limits */
} clscan_variant_request;

typedef struct clscan_variant {
    clscan_program_kind what;
    int gpu;                     /* the device policy: GPU style (coalesced loads, wide
                                  * work-groups) or CPU style */
    clscan_tiles tiles;          /* resolved: REGISTERS, STAGED or STREAMED */
    clscan_primitive primitive;  /* resolved (no part for STREAMED tiles) */
    int shuffle;                 /* TWO_LEVEL through NVIDIA's warp shuffles */
    size_t subgroup;             /* TWO_LEVEL: the first level's size */
    clscan_status_layout status;
    int parallel_lookback;       /* the whole work-group reads the look-back window */
    int tree_fold;               /* ... and folds it with the primitive (exact operators) */
    clscan_algorithm algorithm;  /* resolved: REDUCE_THEN_SCAN or SINGLE_PASS */
    size_t wg, items, lanes;
    size_t lookback;             /* look-back window tiles per work-item */
    unsigned window_polls, spin_limit;
    size_t element_size;         /* bytes of the kernels' T: the value (kernel_size), or a pair's bound */
    size_t pair_bound;
    int compensated;             /* CLSCAN_COMPENSATED: the compensated AFFINE of ops/builtin.cl */
    int transform;               /* scan/io_transform.cl: the plan's transform's definitions follow the operator's */
} clscan_variant;

/* The device policy: GPU style for devices that are not CPUs, unless a developer switch says
 * otherwise.  Also used by the algorithms. */
int clscan_policy_gpu(const clscan_device_info *info, const clscan_dev_options *dev);

/* Resolves the request into *v; CL_INVALID_VALUE, CL_INVALID_WORK_GROUP_SIZE or
 * CLSCAN_DEVICE_NOT_SUPPORTED (with a message naming fn) for what the device or the other
 * choices cannot run. */
cl_int clscan_variant_choose(const char *fn, const clscan_variant_request *r, clscan_variant *v);

/* The algorithm of v's program: requested, or AUTO resolved for the device. */
clscan_algorithm clscan_variant_algorithm(const clscan_variant *v, const clscan_device_info *info,
                                          clscan_algorithm requested);

#define CLSCAN_VARIANT_MAX_FILES 24

/* Places past a tile in each slot of the CPUs' folded reduce-by-key (cl/scan/runs_folded.cl):
 * its vector stores write up to 16 lanes from the last rank.  The runs programs get it as
 * CLSCAN_RUNS_SLOT_SPARE; lib/scan_runs.c sizes the slots with it. */
#define CLSCAN_RUNS_SLOT_SPARE 16
/* The kernel files of v's program, in order after the operator's definitions, NULL-terminated. */
void clscan_variant_files(const clscan_variant *v, const char *files[CLSCAN_VARIANT_MAX_FILES]);
/* The defines v's files need (all but the operator's and the kind's), into buf. */
void clscan_variant_defines(const clscan_variant *v, char *buf, size_t size);

#endif
