/* The radix sort engine behind clscan_sorter and clscan_bucketer: stable LSD passes of 8 bits
 * (cl/radix/) over bits [begin, bits) of the keys, ascending or, with every digit inverted,
 * descending.  Each pass: digit histograms per block, one exclusive scan of all the
 * (digit, block) counts with clscan, a stable scatter.  The passes before the last alternate
 * between two scratch buffers and only the last writes the outputs, so that a call that fails
 * after some commands were enqueued leaves the outputs untouched; the input is only read (an
 * in-place sort of one pass first copies it to scratch). */
#include "algo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void release_program(radix_engine *e)
{
    if (e->histogram) clReleaseKernel(e->histogram);
    if (e->scatter) clReleaseKernel(e->scatter);
    if (e->histogram_segments) clReleaseKernel(e->histogram_segments);
    if (e->scatter_segments) clReleaseKernel(e->scatter_segments);
    if (e->bucket_offsets) clReleaseKernel(e->bucket_offsets);
    if (e->bucket_search) clReleaseKernel(e->bucket_search);
    if (e->segmented) clReleaseKernel(e->segmented);
    if (e->segment_blocks) clReleaseKernel(e->segment_blocks);
    if (e->transpose_keys) clReleaseKernel(e->transpose_keys);
    if (e->transpose_values) clReleaseKernel(e->transpose_values);
    if (e->lines) clReleaseKernel(e->lines);
    if (e->sweep_pass) clReleaseKernel(e->sweep_pass);
    if (e->digit_totals) clReleaseKernel(e->digit_totals);
    if (e->digit_starts) clReleaseKernel(e->digit_starts);
    if (e->program) clReleaseProgram(e->program);
    e->histogram = e->scatter = e->histogram_segments = e->scatter_segments = NULL;
    e->bucket_offsets = e->bucket_search = e->segmented = e->segment_blocks = NULL;
    e->transpose_keys = e->transpose_values = e->lines = NULL;
    e->sweep_pass = e->digit_totals = e->digit_starts = NULL;
    e->program = NULL;
}

void radix_engine_free(radix_engine *e)
{
    release_program(e);
    clscan_plan_release(e->scan);
    cl_mem *bufs[] = {&e->counts, &e->first_block, &e->keys_spare, &e->keys_tmp[0], &e->keys_tmp[1], &e->values_tmp[0],
                      &e->values_tmp[1], &e->index_tmp[0], &e->index_tmp[1], &e->sweep};
    for (size_t i = 0; i < sizeof bufs / sizeof *bufs; ++i)
        if (*bufs[i])
            clReleaseMemObject(*bufs[i]);
    if (e->context)
        clReleaseContext(e->context);
    memset(e, 0, sizeof *e);
}

/* Builds the program for the tuning in force. */
static cl_int build(const char *fn, radix_engine *e, int key_order)
{
    const int gpu = clscan_policy_gpu(&e->info, &e->dev);
    const char *files[16];
    size_t nf = 0;
    files[nf++] = "radix/keys.cl";
    files[nf++] = "radix/blocks.cl";
    files[nf++] = gpu ? "radix/histogram_atomic.cl" : "radix/histogram_columns.cl";
    files[nf++] = "common/wg_sum.cl";
    files[nf++] = e->info.nvidia_ptx ? "common/warp_sync_ptx.cl" : "common/warp_sync_barrier.cl";
    if (e->ranked)
        files[nf++] = "radix/onesweep_lookback.cl";   /* before the scatter, which may look back */
    files[nf++] = e->ranked ? "radix/scatter_ranked.cl" : "radix/scatter_table.cl";
    if (e->onesweep)
        files[nf++] = "radix/onesweep.cl";
    files[nf++] = "radix/bucket_offsets.cl";
    files[nf++] = "radix/segmented.cl";
    files[nf++] = "radix/segment_blocks.cl";
    files[nf++] = "radix/transpose.cl";
    files[nf++] = "radix/lines.cl";
    files[nf] = NULL;
    const char *word;
    size_t words;
    algo_words(e->value_size ? e->value_size : 1, &word, &words);
    /* Keys as unsigned words of their own width, and their top bit. */
    const int k = e->key_size == 1 ? 0 : e->key_size == 2 ? 1 : e->key_size == 4 ? 2 : 3;
    static const char *const key_words[] = {"uchar", "ushort", "uint", "ulong"};
    static const char *const key_signs[] = {"0x80u", "0x8000u", "0x80000000u", "0x8000000000000000ul"};
    char defines[768];
    snprintf(defines, sizeof defines, "-DCLSCAN_KEY_TYPE=%s -DCLSCAN_KEY_SIGN=%s -DCLSCAN_KEY_ORDER=%d "
             "-DCLSCAN_VALUE_WORD=%s -DCLSCAN_VALUE_WORDS=%zu -DCLSCAN_WG=%zu -DCLSCAN_ITEMS=%zu "
             "-DCLSCAN_SEG_WG=%zu -DCLSCAN_SEG_ITEMS=%zu -DCLSCAN_SEG_SMALL=%zu -DCLSCAN_SEG_LOCAL=%zu "
             "-DCLSCAN_TR_TILE=%zu -DCLSCAN_TR_WG=%zu -DCLSCAN_LINES_WG=%zu -DCLSCAN_SPIN_LIMIT=%uu", key_words[k],
             key_signs[k], key_order, word, e->value_size ? words : 0, e->wg, e->items, e->seg_wg, e->seg_items,
             e->seg_small, e->seg_local, e->tr_tile, e->tr_wg, e->lines_wg,
             e->dev.spin_limit >= 0 ? (unsigned)e->dev.spin_limit : 20000u);
    cl_int err = clscan_program_get(fn, e->context, e->device, &e->info, &e->dev, NULL, files, defines, &e->program);
    if (err == CL_SUCCESS)
        err = clscan_kernel_create(fn, e->program, e->device, &e->info,
                                   gpu ? "clscan_radix_histogram_atomic" : "clscan_radix_histogram_columns", e->wg,
                                   &e->histogram);
    if (err == CL_SUCCESS)
        err = clscan_kernel_create(fn, e->program, e->device, &e->info,
                                   e->ranked ? "clscan_radix_scatter_ranked" : "clscan_radix_scatter_table", e->wg,
                                   &e->scatter);
    if (err == CL_SUCCESS)
        err = clscan_kernel_create(fn, e->program, e->device, &e->info,
                                   gpu ? "clscan_radix_histogram_atomic_segments" : "clscan_radix_histogram_columns_segments",
                                   e->wg, &e->histogram_segments);
    if (err == CL_SUCCESS)
        err = clscan_kernel_create(fn, e->program, e->device, &e->info,
                                   e->ranked ? "clscan_radix_scatter_ranked_segments" : "clscan_radix_scatter_table_segments",
                                   e->wg, &e->scatter_segments);
    if (err == CL_SUCCESS)
        err = clscan_kernel_create(fn, e->program, e->device, &e->info, "clscan_bucket_offsets", e->offsets_wg,
                                   &e->bucket_offsets);
    if (err == CL_SUCCESS)
        err = clscan_kernel_create(fn, e->program, e->device, &e->info, "clscan_bucket_offsets_search", e->offsets_wg,
                                   &e->bucket_search);
    if (err == CL_SUCCESS)
        err = clscan_kernel_create(fn, e->program, e->device, &e->info, "clscan_radix_segmented", e->seg_wg,
                                   &e->segmented);
    if (err == CL_SUCCESS)
        err = clscan_kernel_create(fn, e->program, e->device, &e->info, "clscan_radix_segment_blocks", 1,
                                   &e->segment_blocks);
    if (err == CL_SUCCESS)
        err = clscan_kernel_create(fn, e->program, e->device, &e->info, "clscan_radix_transpose_keys", e->tr_wg,
                                   &e->transpose_keys);
    if (err == CL_SUCCESS)
        err = clscan_kernel_create(fn, e->program, e->device, &e->info, "clscan_radix_transpose_values", e->tr_wg,
                                   &e->transpose_values);
    if (err == CL_SUCCESS)
        err = clscan_kernel_create(fn, e->program, e->device, &e->info, "clscan_radix_lines", e->lines_wg, &e->lines);
    if (err == CL_SUCCESS && e->onesweep)
        err = clscan_kernel_create(fn, e->program, e->device, &e->info, "clscan_radix_onesweep", e->wg, &e->sweep_pass);
    if (err == CL_SUCCESS && e->onesweep)
        err = clscan_kernel_create(fn, e->program, e->device, &e->info, "clscan_radix_digit_totals", e->wg,
                                   &e->digit_totals);
    if (err == CL_SUCCESS && e->onesweep)
        err = clscan_kernel_create(fn, e->program, e->device, &e->info, "clscan_radix_digit_starts", e->wg,
                                   &e->digit_starts);
    return err;
}

cl_int radix_engine_init(radix_engine *e, const char *fn, cl_context context, cl_device_id device,
                         size_t key_size, int key_order, size_t value_size)
{
    memset(e, 0, sizeof *e);
    cl_int err = clscan_check_device(fn, context, device, &e->info);
    if (err == CL_SUCCESS)
        err = clscan_env_dev_options(fn, &e->dev);
    if (err != CL_SUCCESS)
        return err;
    e->device = device;
    e->context = context;
    e->key_size = key_size;
    e->value_size = value_size;
    e->offsets_wg = e->info.max_work_group_size < 256 ? e->info.max_work_group_size : 256;
    radix_tune(e);
    if (!radix_local_memory_fits(e))
        return clscan_fail(CLSCAN_DEVICE_NOT_SUPPORTED, "%s: %s has %llu bytes of local memory: too little for "
                           "the radix sort", fn, e->info.name, (unsigned long long)e->info.local_mem_size);
    err = build(fn, e, key_order);
    if (err == CL_INVALID_WORK_GROUP_SIZE && e->ranked) {
        /* The kernels run fewer than RADIX work-items on this device: the table instead. */
        release_program(e);
        radix_tune_smaller(e);
        err = build(fn, e, key_order);
    }
    if (err == CL_SUCCESS)
        e->scan = algo_count_plan(context, device, &err);
    if (err != CL_SUCCESS) {
        release_program(e);
        clscan_plan_release(e->scan);
        e->scan = NULL;
        e->context = NULL;
        return err;
    }
    clRetainContext(context);
    return CL_SUCCESS;
}


/* Onesweep's words (radix/onesweep.cl): the digit totals and starts of every pass, then each
 * pass's ticket and (block, digit) status words.  The plain sort takes it where the ranking
 * scatter runs, every count fits a status word (below 2^30 keys) and the tuning asks for it
 * (radix_tuning.c: by default where the passes move values). */
static int sweeps(const radix_engine *e, const radix_job *j)
{
    return (e->onesweep > 0 || (e->onesweep < 0 && j->values_in)) && j->count < ((size_t)1 << 30);
}

static size_t sweep_region(size_t blocks)
{
    return 1 + (size_t)RADIX * blocks;
}

static size_t sweep_bytes(unsigned p, size_t blocks)
{
    return (2 * (size_t)p * RADIX + p * sweep_region(blocks)) * sizeof(cl_uint);
}

cl_int radix_engine_reserve(radix_engine *e, const radix_job *j)
{
    const size_t n = j->count, blocks = radix_ceil_div(n, e->wg * e->items);
    const unsigned p = radix_passes(j);
    cl_int err = clscan_scratch_grow(e->context, &e->counts, &e->counts_cap, (size_t)RADIX * blocks * sizeof(cl_uint));
    /* Scratch for the passes before the last (one set for two passes, two for more), and for
     * the copy of the input of an in-place sort of one pass. */
    const int sets = p >= 3 ? 2 : p == 2 || j->in_place ? 1 : 0;
    for (int s = 0; s < sets && err == CL_SUCCESS; ++s) {
        err = clscan_scratch_grow(e->context, &e->keys_tmp[s], &e->keys_tmp_cap[s], n * e->key_size);
        if (err == CL_SUCCESS && j->values_in)
            err = clscan_scratch_grow(e->context, &e->values_tmp[s], &e->values_tmp_cap[s], n * e->value_size);
        if (err == CL_SUCCESS && j->index_out)
            err = clscan_scratch_grow(e->context, &e->index_tmp[s], &e->index_tmp_cap[s], n * sizeof(cl_uint));
    }
    if (err == CL_SUCCESS && !j->keys_out)
        err = clscan_scratch_grow(e->context, &e->keys_spare, &e->keys_spare_cap, n * e->key_size);
    if (err == CL_SUCCESS && sweeps(e, j))
        err = clscan_scratch_grow(e->context, &e->sweep, &e->sweep_cap, sweep_bytes(p, blocks));
    return err;
}

/* Onesweep's first steps: its words zeroed, every pass's digits counted in one read of the keys,
 * their starts scanned. */
static cl_int sweep_counts(radix_engine *e, clscan_chain *c, const radix_job *j, size_t blocks, cl_mem k_src,
                           size_t k_src_off, cl_ulong mask, cl_uint flip)
{
    const unsigned p = radix_passes(j);
    const cl_uint zero = 0, nb = (cl_uint)blocks, np = p, begin = j->begin;
    const cl_ulong cnt = j->count, k_src_o = k_src_off;
    cl_int err = clscan_chain_fill(c, e->sweep, &zero, sizeof zero, 0, sweep_bytes(p, blocks), 0);
    if (err != CL_SUCCESS)
        return err;
    cl_kernel t = e->digit_totals, s = e->digit_starts;
    ALGO_ARG_MEM(t, 0, k_src); ALGO_ARG(t, 1, k_src_o); ALGO_ARG(t, 2, cnt); ALGO_ARG(t, 3, begin);
    ALGO_ARG(t, 4, np);
    if (err == CL_SUCCESS) err = radix_set_key_arg(e, t, 5, mask);
    if (err == CL_SUCCESS) err = radix_set_key_arg(e, t, 6, j->clamp);
    ALGO_ARG(t, 7, flip); ALGO_ARG_MEM(t, 8, e->sweep); ALGO_ARG(t, 9, nb);
    ALGO_ARG_MEM(s, 0, e->sweep); ALGO_ARG(s, 1, np);
    if (err != CL_SUCCESS)
        return clscan_fail(err, "clSetKernelArg failed: %s", clscan_error_string(err));
    /* a work-group counts several blocks: fewer of local memory's counts added to global memory */
    const size_t groups = blocks < 1024 ? blocks : 1024;
    if ((err = clscan_chain_launch(c, t, groups, e->wg, 0)) != CL_SUCCESS)
        return err;
    return clscan_chain_launch(c, s, 1, e->wg, 0);
}

/* Key-sized kernel arguments (mask, clamp) for 1-, 2-, 4- or 8-byte keys. */
cl_int radix_set_key_arg(radix_engine *e, cl_kernel k, cl_uint i, cl_ulong v)
{
    const cl_uchar v8 = (cl_uchar)v;
    const cl_ushort v16 = (cl_ushort)v;
    const cl_uint v32 = (cl_uint)v;
    switch (e->key_size) {
    case 1: return clSetKernelArg(k, i, sizeof v8, &v8);
    case 2: return clSetKernelArg(k, i, sizeof v16, &v16);
    case 4: return clSetKernelArg(k, i, sizeof v32, &v32);
    default: return clSetKernelArg(k, i, sizeof v, &v);
    }
}

/* The segments' kernel arguments from `first` on (radix/blocks.cl's BLOCK_MAP_PARAMS). */
static cl_int set_map_args(cl_kernel k, cl_uint first, const radix_map *m, cl_ulong in_gap, cl_ulong out_gap)
{
    const cl_ulong seg_length = m->seg_length, o_off = m->offsets_offset, nseg = m->nsegments;
    const cl_uint seg_blocks = (cl_uint)m->seg_blocks, wide = (cl_uint)m->wide;
    cl_int err = CL_SUCCESS;
    ALGO_ARG(k, first, seg_length); ALGO_ARG(k, first + 1, seg_blocks); ALGO_ARG_MEM(k, first + 2, m->first_block);
    ALGO_ARG_MEM(k, first + 3, m->offsets); ALGO_ARG(k, first + 4, o_off); ALGO_ARG(k, first + 5, wide);
    ALGO_ARG(k, first + 6, nseg); ALGO_ARG(k, first + 7, in_gap); ALGO_ARG(k, first + 8, out_gap);
    return err;
}

cl_int radix_engine_passes(radix_engine *e, clscan_chain *c, const radix_job *j, const radix_map *m, cl_mem k_src,
                          size_t k_src_off, cl_mem v_src, size_t v_src_off, cl_mem k_out, size_t k_out_off)
{
    const size_t n = j->count, blocks = m->nblocks;
    const unsigned p = radix_passes(j);
    const cl_ulong below_end = j->bits >= 64 ? ~(cl_ulong)0 : ((cl_ulong)1 << j->bits) - 1;
    const cl_ulong mask = below_end & ~(((cl_ulong)1 << j->begin) - 1);   /* bits [begin, bits) */
    const cl_uint flip = j->descending ? RADIX - 1 : 0;
    /* one segment of all the keys: the kernels without segments */
    const int whole = !m->first_block && m->seg_length == n && !m->in_gap && !m->out_gap;
    cl_int err = CL_SUCCESS;
    cl_mem i_src = NULL;   /* permutations move like the keys */
    size_t i_src_off = 0;
    const int sweep = whole && sweeps(e, j) && e->sweep && e->sweep_cap >= sweep_bytes(p, blocks);
    if (sweep && (err = sweep_counts(e, c, j, blocks, k_src, k_src_off, mask, flip)) != CL_SUCCESS)
        return err;
    for (unsigned pass = 0; pass < p && err == CL_SUCCESS; ++pass) {
        const int last = pass == p - 1, set = pass % 2;
        cl_mem k_dst = last ? k_out : e->keys_tmp[set];
        const cl_ulong k_dst_off = last ? k_out_off : 0;
        cl_mem v_dst = j->values_out ? (last ? j->values_out : e->values_tmp[set]) : NULL;
        const cl_ulong v_dst_off = last ? j->values_out_offset : 0;
        cl_mem i_dst = j->index_out ? (last ? j->index_out : e->index_tmp[set]) : NULL;
        const cl_ulong i_dst_off = last ? j->index_out_offset : 0;
        const cl_uint mode = j->index_out ? (pass == 0 ? 1 : 2) : 0, shift = j->begin + pass * RADIX_BITS;
        const cl_uint nb = (cl_uint)blocks;
        const cl_ulong cnt = n, k_src_o = k_src_off, v_src_o = v_src_off, i_src_o = i_src_off;
        /* rows with pitches: the first pass reads, the last writes, with the gaps */
        const cl_ulong in_gap = pass == 0 ? m->in_gap : 0, out_gap = last ? m->out_gap : 0;

        cl_kernel h = whole ? e->histogram : e->histogram_segments;
        cl_kernel s = sweep ? e->sweep_pass : whole ? e->scatter : e->scatter_segments;
        if (!sweep) {
            ALGO_ARG_MEM(h, 0, k_src); ALGO_ARG(h, 1, k_src_o); ALGO_ARG(h, 2, cnt); ALGO_ARG(h, 3, shift);
            if (err == CL_SUCCESS) err = radix_set_key_arg(e, h, 4, mask);
            if (err == CL_SUCCESS) err = radix_set_key_arg(e, h, 5, j->clamp);
            ALGO_ARG_MEM(h, 6, e->counts); ALGO_ARG(h, 7, nb); ALGO_ARG(h, 8, flip);
            if (!whole && err == CL_SUCCESS)
                err = set_map_args(h, 9, m, in_gap, out_gap);
            if (err != CL_SUCCESS)
                return clscan_fail(err, "clSetKernelArg failed: %s", clscan_error_string(err));
            if ((err = clscan_chain_launch(c, h, blocks, e->wg, 1)) != CL_SUCCESS ||
                (err = clscan_scan_step(c, e->scan, e->counts, (size_t)RADIX * blocks)) != CL_SUCCESS)
                return err;
        }
        ALGO_ARG_MEM(s, 0, k_src); ALGO_ARG(s, 1, k_src_o); ALGO_ARG_MEM(s, 2, k_dst); ALGO_ARG(s, 3, k_dst_off);
        ALGO_ARG_MEM(s, 4, v_src); ALGO_ARG(s, 5, v_src_o); ALGO_ARG_MEM(s, 6, v_dst); ALGO_ARG(s, 7, v_dst_off);
        ALGO_ARG_MEM(s, 8, i_src); ALGO_ARG(s, 9, i_src_o); ALGO_ARG_MEM(s, 10, i_dst); ALGO_ARG(s, 11, i_dst_off);
        ALGO_ARG(s, 12, mode); ALGO_ARG(s, 13, cnt); ALGO_ARG(s, 14, shift);
        if (err == CL_SUCCESS) err = radix_set_key_arg(e, s, 15, mask);
        if (err == CL_SUCCESS) err = radix_set_key_arg(e, s, 16, j->clamp);
        ALGO_ARG_MEM(s, 17, e->counts); ALGO_ARG(s, 18, nb); ALGO_ARG(s, 19, flip);
        if (!whole && err == CL_SUCCESS)
            err = set_map_args(s, 20, m, in_gap, out_gap);
        if (sweep) {
            const cl_ulong region = 2 * (cl_ulong)p * RADIX + pass * sweep_region(blocks);
            const cl_ulong starts = (cl_ulong)(p + pass) * RADIX;
            ALGO_ARG_MEM(s, 20, e->sweep); ALGO_ARG(s, 21, region); ALGO_ARG_MEM(s, 22, e->sweep);
            ALGO_ARG(s, 23, starts);
        }
        if (err != CL_SUCCESS)
            return clscan_fail(err, "clSetKernelArg failed: %s", clscan_error_string(err));
        if ((err = clscan_chain_launch(c, s, blocks, e->wg, 1)) != CL_SUCCESS)
            return err;
        k_src = k_dst;
        k_src_off = (size_t)k_dst_off;
        v_src = v_dst;
        v_src_off = (size_t)v_dst_off;
        i_src = i_dst;
        i_src_off = (size_t)i_dst_off;
    }
    return err;
}

cl_int radix_engine_run(radix_engine *e, clscan_chain *c, const radix_job *j, cl_mem *keys_res, size_t *keys_res_off)
{
    const size_t n = j->count, blocks = radix_ceil_div(n, e->wg * e->items);
    cl_mem k_out = j->keys_out ? j->keys_out : e->keys_spare;
    const size_t k_out_off = j->keys_out ? j->keys_out_offset : 0;
    cl_mem k_src = j->keys_in, v_src = j->values_in;
    size_t k_src_off = j->keys_in_offset, v_src_off = j->values_in_offset;
    cl_int err = CL_SUCCESS;

    /* In place with one pass, that pass would write over its own input: sort from a copy. */
    if (j->in_place && radix_passes(j) == 1) {
        err = clscan_chain_copy(c, j->keys_in, j->keys_in_offset * e->key_size, e->keys_tmp[0], 0, n * e->key_size, 1);
        if (err == CL_SUCCESS && j->values_in)
            err = clscan_chain_copy(c, j->values_in, j->values_in_offset * e->value_size, e->values_tmp[0], 0,
                                    n * e->value_size, 1);
        k_src = e->keys_tmp[0];
        v_src = e->values_tmp[0];
        k_src_off = v_src_off = 0;
    }
    /* one segment of all the keys */
    const radix_map m = {.seg_length = n, .seg_blocks = blocks, .nblocks = blocks};
    if (err == CL_SUCCESS)
        err = radix_engine_passes(e, c, j, &m, k_src, k_src_off, v_src, v_src_off, k_out, k_out_off);
    *keys_res = k_out;
    *keys_res_off = k_out_off;
    return err;
}
