/* What the algorithms built on the scans (compaction, bucketing, radix sort) share: their limits
 * and the radix sort engine that the sorter and the bucketer drive (radix_engine.c).  They use
 * the runtime of the scans: argument checks (check.h), chains of commands (chain.h), programs
 * (program.h), scratch (plan.h) and the scan of block counts (scan_run.h). */
#ifndef CLSCAN_ALGO_H
#define CLSCAN_ALGO_H

#include "check.h"
#include "program.h"
#include "scan_run.h"

#include <stdint.h>

#define ALGO_MAX_ELEMENT_SIZE 4096
#define ALGO_MAX_COUNT ((size_t)UINT32_MAX)   /* offsets are cl_uint */

/* The word an element of `size` bytes is moved in (the widest that divides it) and their number. */
void algo_words(size_t size, const char **word, size_t *words);
/* The exclusive SUM of cl_uint counts every algorithm scans its block counts with. */
clscan_plan *algo_count_plan(cl_context context, cl_device_id device, cl_int *err);

/* ---- The radix sort engine ---------------------------------------------------------------- */
typedef struct radix_engine {
    cl_context context;          /* retained */
    cl_device_id device;
    clscan_device_info info;
    clscan_dev_options dev;
    size_t key_size, value_size;
    size_t wg, items;            /* a block (one work-group) sorts wg * items keys per pass */
    int ranked;                  /* GPUs: the scatter ranks by warps (radix/scatter_ranked.cl) */
    int onesweep;                /* and the plain sort's passes onesweep's (radix/onesweep.cl): 1 always,
                                  * -1 where they move values, 0 never */
    size_t offsets_wg;           /* work-items per work-group of the bucket offsets (radix/bucket_offsets.cl) */
    unsigned offsets_search_cost;   /* a step of their search per bucket, in positions of their pass */
    size_t seg_wg, seg_items;    /* the segmented sort's work-groups and chunks (radix/segmented.cl) */
    size_t seg_small;            /* and its longest segments ranked by comparisons */
    size_t seg_local;            /* and by a sort in local memory (0: none) */
    size_t seg_global;           /* longer segments: the passes over the whole array (radix/blocks.cl) */
    size_t tr_tile, tr_wg;       /* the transposes' tiles (tr_tile^2 elements) and work-groups (radix/transpose.cl) */
    size_t lines_max, lines_wg;  /* lines of up to lines_max keys (0: none), a work-item each (radix/lines.cl) */
    cl_program program;
    cl_kernel histogram, scatter;                    /* the passes over the whole array */
    cl_kernel histogram_segments, scatter_segments;  /* the same over segments (radix/blocks.cl) */
    cl_kernel bucket_offsets, bucket_search;         /* radix/bucket_offsets.cl's pass and search */
    cl_kernel segmented, segment_blocks, transpose_keys, transpose_values, lines;
    cl_kernel sweep_pass, digit_totals, digit_starts;  /* radix/onesweep.cl (ranked only) */
    clscan_plan *scan;
    /* scratch: the counts, the bucketer's keys when it is not given keys_out, and two sets of
     * keys, values and indices that the passes before the last alternate between */
    cl_mem counts, first_block, keys_spare, keys_tmp[2], values_tmp[2], index_tmp[2];
    size_t counts_cap, first_block_cap, keys_spare_cap, keys_tmp_cap[2], values_tmp_cap[2], index_tmp_cap[2];
    cl_mem sweep;                /* onesweep: digit totals and starts, each pass's ticket and status words */
    size_t sweep_cap;
} radix_engine;

/* The tuning (radix_tuning.c): the passes' blocks (the ranking scatter where the device takes it)
 * and the segmented sort's; the fallback for devices whose kernels run fewer work-items than
 * RADIX; whether the table scatter's local memory fits the device. */
void radix_tune(radix_engine *e);
void radix_tune_smaller(radix_engine *e);
int radix_local_memory_fits(const radix_engine *e);

/* key_size: 1, 2, 4 or 8 bytes; key_order: 0 unsigned, 1 signed (two's complement), 2 IEEE float
 * (total order). */
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
    unsigned bits;                  /* sort by bits [begin, bits) (after the order transform), begin < bits */
    cl_ulong clamp;                 /* keys above it count as it (bucketing); all ones otherwise */
    int in_place;                   /* the outputs are the inputs */
    unsigned begin;                 /* the lowest bit sorted by */
    int descending;                 /* every digit inverted: the reversed order, still stable */
} radix_job;

#define RADIX_BITS 8
#define RADIX (1u << RADIX_BITS)

static inline size_t radix_ceil_div(size_t a, size_t b) { return a / b + (a % b != 0); }
/* The passes of 8 bits over bits [begin, bits). */
static inline unsigned radix_passes(const radix_job *j) { return (j->bits - j->begin + RADIX_BITS - 1) / RADIX_BITS; }

/* Makes sure the scratch holds a job of count elements (before anything is enqueued). */
cl_int radix_engine_reserve(radix_engine *e, const radix_job *j);
/* Enqueues the passes; keys and keys_offset get where the sorted keys are. */
cl_int radix_engine_run(radix_engine *e, clscan_chain *c, const radix_job *j, cl_mem *keys, size_t *keys_offset);

/* The segments of a segmented sort: nsegments + 1 offsets, 4 or 8 bytes wide (CSR's row_ptr);
 * or, with length > 0 (offsets NULL), nsegments segments of length keys each, segment s of the
 * inputs from element s * in_pitch, of the outputs from s * out_pitch (the rows of a 2-D array;
 * pitches >= length; count = nsegments * length). */
typedef struct radix_segments {
    cl_mem offsets;
    size_t offsets_offset;
    int wide;
    size_t nsegments;
    size_t length, in_pitch, out_pitch;
} radix_segments;
/* Makes sure the scratch also holds the segmented sort of j's keys in the segments g (after
 * radix_engine_reserve). */
cl_int radix_engine_reserve_segments(radix_engine *e, const radix_job *j, const radix_segments *g);
/* Enqueues the segmented sort of j (keys_out given, no permutation, after
 * radix_engine_reserve_segments): every segment sorted on its own, those of up to seg_global keys
 * each by one work-group (radix/segmented.cl), the longer ones all together by the passes over
 * the whole array (radix/blocks.cl). */
cl_int radix_engine_run_segmented(radix_engine *e, clscan_chain *c, const radix_job *j, const radix_segments *g);

/* Lines of a 2-D array: nlines of length keys (1 ... lines_max), key k of line s at element
 * s * in_line + k * in_step of the inputs, s * out_line + k * out_step of the outputs. */
typedef struct radix_lines {
    size_t nlines, length, in_line, in_step, out_line, out_step;
} radix_lines;
/* Makes sure the scratch holds a copy of the values of the lines l sorted in place. */
cl_int radix_engine_reserve_lines(radix_engine *e, const radix_job *j, const radix_lines *l);
/* Enqueues the sort of every line of l on its own, stably, a work-item each (radix/lines.cl). */
cl_int radix_engine_run_lines(radix_engine *e, clscan_chain *c, const radix_job *j, const radix_lines *l);

/* How the passes over the whole array see the keys (radix/blocks.cl): segments of seg_length
 * keys, seg_blocks blocks each (the plain sort: one segment of count keys), or, with seg_length
 * 0, segments by offsets whose first blocks first_block holds; nblocks work-groups; the first
 * pass's inputs and the last pass's outputs in_gap and out_gap elements further per segment. */
typedef struct radix_map {
    size_t seg_length, seg_blocks, nblocks;
    cl_mem first_block, offsets;
    size_t offsets_offset, nsegments;
    int wide;
    size_t in_gap, out_gap;
} radix_map;
/* Sets key-sized kernel argument i (mask, clamp) to v. */
cl_int radix_set_key_arg(radix_engine *e, cl_kernel k, cl_uint i, cl_ulong v);
/* Enqueues the passes of j from (k_src, v_src) to (k_out, j->values_out). */
cl_int radix_engine_passes(radix_engine *e, clscan_chain *c, const radix_job *j, const radix_map *m, cl_mem k_src,
                          size_t k_src_off, cl_mem v_src, size_t v_src_off, cl_mem k_out, size_t k_out_off);
/* Enqueues the sort of j (keys_out given, count contiguous keys) whose segments all hold one key:
 * copies of the arrays not in place, else a marker. */
cl_int radix_engine_copy(radix_engine *e, clscan_chain *c, const radix_job *j);
/* Enqueues the transpose of the rows x cols array of keys (values: values_size 1) src from
 * src_offset, rows src_pitch apart, into the cols x rows array dst (rows dst_pitch apart). */
cl_int radix_engine_transpose(radix_engine *e, clscan_chain *c, int values, cl_mem src, size_t src_offset,
                              size_t src_pitch, cl_mem dst, size_t dst_offset, size_t dst_pitch, size_t rows,
                              size_t cols);
#define ALGO_ARG(k, i, v) (err == CL_SUCCESS ? (err = clSetKernelArg((k), (i), sizeof(v), &(v))) : err)
#define ALGO_ARG_MEM(k, i, m) \
    (err == CL_SUCCESS ? (err = clSetKernelArg((k), (i), sizeof(cl_mem), (m) ? (const void *)&(m) : NULL)) : err)

#endif
