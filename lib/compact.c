/* Stream compaction: per-block counts of the set flags, one exclusive scan of the counts (the
 * block offsets, and the total at the end: by the count kernel's last block up to 1024 blocks,
 * by a clscan plan above), then a stable scatter of the kept elements or of their indices
 * (cl/compact/); where 64-bit atomics exist, one kernel instead:
 * on GPUs, up to 8192 blocks, the block scatter with a decoupled look-back over the block counts
 * (cl/compact/one_pass.cl, a program of its own: larger blocks), on CPUs a work-item a block of
 * 4096 elements that counts, looks back and stores (cl/compact/one_pass_serial.cl).  The flags
 * come from one of the flag sources (compact.h), each a program of its own: the caller's flags,
 * a predicate or the runs of src, the latter two evaluated where the kernels need them instead
 * of stored (so that a selection reads src once or twice and writes no flags). */
#include "compact.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Blocks of 16 x 256 flags on CPUs (each work-item streams through its own run); on GPUs
 * (many work-items, short runs; a work-item's flags are the bits of one uint, so at most 32) 256
 * x 16 for the count, scan and scatter kernels and 256 x 32 for the one pass.  H200, 2^24 and 2^26
 * elements, the one pass in blocks of 256 x 32 against 256 x 16: unique 0.070-0.072 and
 * 0.200-0.203 ms against 0.075-0.078 and 0.220-0.223, select-if 0.077-0.078 and 0.221-0.223
 * against 0.084-0.085 and 0.230-0.231; the three kernels in blocks of 256 x 32 lost at 2^26
 * (select-if 0.252-0.253 ms against 0.230-0.231, unique 0.236-0.242 against 0.220-0.223,
 * partition 0.351-0.358 against 0.275-0.277).  PoCL's CPU device, running the GPUs' kernels for
 * the tests (a developer switch), crashed in the one pass at 32 flags a work-item (a store past
 * its stack frame, PoCL 3.1): there the sizes are swapped, so that the tests still see blocks
 * that differ between the two.  The CPUs' one pass takes blocks of 4096 elements, one work-item
 * each (PoCL, 2 cores, 2^22 uint32, four rounds alternating with the count, scan and scatter
 * kernels in blocks of 16 x 256: compact-1 3.1-3.9 ms against 4.2-5.0, select-if 3.6-6.4
 * against 4.9-7.7, compact-50 3.8-6.5 against 4.8-7.5, unique level). */
static void tuning(clscan_compactor *c)
{
    c->gpu = clscan_policy_gpu(&c->info, &c->dev);
    const int pocl_cpu = c->gpu && (c->info.type & CL_DEVICE_TYPE_CPU);
    c->wg = c->gpu ? 256 : 16;
    c->items = !c->gpu ? 256 : pocl_cpu ? 32 : 16;
    c->one_pass_items = !c->gpu ? 4096 : pocl_cpu ? 16 : 32;
    /* Developer switches: the count, scan and scatter kernels' blocks (a work-item's flags are
     * one uint's bits in the GPUs' kernels). */
    if (c->dev.compact_wg > 0)
        c->wg = (size_t)c->dev.compact_wg;
    if (c->dev.compact_items > 0 && (!c->gpu || c->dev.compact_items <= 32))
        c->items = (size_t)c->dev.compact_items;
    while (c->wg > c->info.max_work_group_size)
        c->wg /= 2;
}

static void release_part(compact_part *p)
{
    cl_kernel kernels[] = {p->count, p->scatter, p->partition, p->flags_runs, p->one_pass};
    for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; ++i)
        if (kernels[i])
            clReleaseKernel(kernels[i]);
    if (p->program)
        clReleaseProgram(p->program);
    if (p->one_pass_program)
        clReleaseProgram(p->one_pass_program);
    *p = (compact_part){0};
}

static void release_parts(clscan_compactor *c)
{
    for (int s = 0; s < COMPACT_SOURCES; ++s)
        release_part(&c->parts[s]);
    if (c->counts) clReleaseMemObject(c->counts);
    if (c->kept) clReleaseMemObject(c->kept);
    if (c->status) clReleaseMemObject(c->status);
    if (c->last_use) clReleaseEvent(c->last_use);
    clscan_plan_release(c->scan);
}

/* The CPUs' one pass, a kernel of each flag source's program (cl/compact/one_pass_serial.cl);
 * GPUs build theirs as a program of its own. */
static int serial_one_pass(const clscan_compactor *c)
{
    return !c->gpu && compact_one_pass_available(c);
}

/* The partition's scatter takes a block a work-group: one work-item on CPUs
 * (cl/select/partition.cl), the part's work-group on GPUs. */
static size_t partition_wg(const clscan_compactor *c, const compact_part *p)
{
    return c->gpu ? p->wg : 1;
}

/* The kernels of a flag source's program: the compaction's, the partition's and (the flags
 * source's program, for runs.c) the flags of runs. */
static cl_int kernels(const char *fn, clscan_compactor *c, compact_source from, compact_part *p)
{
    struct { const char *name; cl_kernel *kernel; size_t wg; } k[] = {
        {"clscan_compact_count", &p->count, p->wg},
        {c->gpu ? "clscan_compact_scatter_block" : "clscan_compact_scatter_list", &p->scatter, p->wg},
        {c->gpu ? "clscan_select_partition_block" : "clscan_select_partition", &p->partition, partition_wg(c, p)},
        {"clscan_select_flags_runs", &p->flags_runs, p->wg}};
    cl_int err = CL_SUCCESS;
    for (size_t i = 0; i < (from == COMPACT_FROM_FLAGS ? 4u : 3u) && err == CL_SUCCESS; ++i)
        err = clscan_kernel_create(fn, p->program, c->device, &c->info, k[i].name, k[i].wg, k[i].kernel);
    if (err == CL_SUCCESS && p->one_pass_program)
        err = clscan_kernel_create(fn, p->one_pass_program, c->device, &c->info, "clscan_compact_one_pass", p->wg,
                                   &p->one_pass);
    if (err == CL_SUCCESS && serial_one_pass(c))
        err = clscan_kernel_create(fn, p->program, c->device, &c->info, "clscan_compact_one_pass", 1, &p->one_pass);
    return err;
}

/* The program of the flags from `from` in blocks of wg x items: the count, scan and scatter
 * kernels', or the one pass's. */
static cl_int program(const char *fn, clscan_compactor *c, compact_source from, size_t wg, size_t items,
                      int one_pass, cl_program *out)
{
    static const char *const sources[] = {"select/from_flags.cl", "select/from_predicate.cl", "select/from_runs.cl"};
    const int serial = serial_one_pass(c);
    const char *files[] = {"compact/elements.cl", "common/compress.cl", "compact/compress.cl", "common/wg_sum.cl",
                           "select/index.cl", "select/runs.cl", sources[from],
                           c->gpu ? "compact/flags_bits.cl" : "compact/flags_loop.cl", "compact/count.cl",
                           c->gpu ? "compact/scatter_block.cl" : "compact/scatter_list.cl",
                           c->gpu ? "select/partition_block.cl" : "select/partition.cl",
                           one_pass || serial ? "compact/one_pass_status.cl" : NULL,
                           one_pass ? "compact/one_pass.cl" : serial ? "compact/one_pass_serial.cl" : NULL, NULL};
    const char *word;
    size_t words;
    algo_words(c->element_size, &word, &words);
    char defines[320];
    int n = snprintf(defines, sizeof defines, "-DCLSCAN_WG=%zu -DCLSCAN_ITEMS=%zu -DCLSCAN_WORD=%s -DCLSCAN_WORDS=%zu "
                     "-DCLSCAN_SELECT_STRIDED=%d -DCLSCAN_FLAGS_GIVEN=%d -DCLSCAN_SPIN_LIMIT=%uu", wg, items, word,
                     words, c->gpu, from == COMPACT_FROM_FLAGS,
                     c->dev.spin_limit >= 0 ? (unsigned)c->dev.spin_limit : 20000u);
    if (serial && n >= 0 && (size_t)n < sizeof defines)
        snprintf(defines + n, sizeof defines - (size_t)n, " -DCLSCAN_ONE_PASS_TILE=%zu", c->one_pass_items);
    return clscan_program_get(fn, c->context, c->device, &c->info, &c->dev,
                              from == COMPACT_FROM_PREDICATE ? c->predicate : NULL, files, defines, out);
}

/* Builds the programs of the flags from `from` into c->parts[from]; on failure the part stays
 * empty. */
static cl_int build(const char *fn, clscan_compactor *c, compact_source from)
{
    compact_part *p = &c->parts[from];
    p->wg = c->wg;
    cl_int err;
    for (;;) {
        err = program(fn, c, from, p->wg, c->items, 0, &p->program);
        if (err == CL_SUCCESS && c->gpu && compact_one_pass_available(c))
            err = program(fn, c, from, p->wg, c->one_pass_items, 1, &p->one_pass_program);
        if (err == CL_SUCCESS)
            err = kernels(fn, c, from, p);
        if (err == CL_SUCCESS)
            return err;
        const size_t wg = p->wg;
        release_part(p);
        if (err != CL_INVALID_WORK_GROUP_SIZE || wg == 1)
            return err;
        /* The kernels run fewer work-items on this device: halve the work-group. */
        p->wg = wg / 2;
    }
}

clscan_compactor *compact_create(const char *fn, cl_context context, cl_device_id device, size_t element_size,
                                 char *predicate, int selections, cl_int *err)
{
    if (element_size == 0 || element_size > ALGO_MAX_ELEMENT_SIZE) {
        free(predicate);
        *err = clscan_fail(CLSCAN_INVALID_ELEMENT_SIZE, "%s: element_size %zu is not in 1 ... %d", fn,
                           element_size, ALGO_MAX_ELEMENT_SIZE);
        return NULL;
    }
    clscan_compactor *c = calloc(1, sizeof *c);
    if (!c) {
        free(predicate);
        *err = clscan_fail(CL_OUT_OF_HOST_MEMORY, "%s: out of host memory for a compactor", fn);
        return NULL;
    }
    c->context = context;
    c->device = device;
    c->element_size = element_size;
    c->predicate = predicate;
    /* Every program the handle's functions use is built now: an enqueue only enqueues. */
    if ((*err = clscan_check_device(fn, context, device, &c->info)) == CL_SUCCESS &&
        (*err = clscan_env_dev_options(fn, &c->dev)) == CL_SUCCESS) {
        tuning(c);
        /* The predicate's first: its errors are the caller's. */
        const compact_source order[] = {COMPACT_FROM_PREDICATE, COMPACT_FROM_FLAGS, COMPACT_FROM_RUNS};
        for (int i = 0; i < COMPACT_SOURCES && *err == CL_SUCCESS; ++i)
            if (order[i] == COMPACT_FROM_FLAGS || (selections && (order[i] == COMPACT_FROM_RUNS || predicate)))
                *err = build(fn, c, order[i]);
    }
    if (*err == CL_SUCCESS)
        c->scan = algo_count_plan(context, device, err);
    if (*err != CL_SUCCESS) {
        release_parts(c);
        free(c->predicate);
        free(c);
        return NULL;
    }
    clRetainContext(context);
    pthread_mutex_init(&c->lock, NULL);
    return c;
}

CLSCAN_API clscan_compactor *clscan_compactor_create(cl_context context, cl_device_id device,
                                                     size_t element_size, cl_int *errcode_ret)
{
    cl_int dummy;
    return compact_create("clscan_compactor_create", context, device, element_size, NULL, 1,
                          errcode_ret ? errcode_ret : &dummy);
}

CLSCAN_API void clscan_compactor_release(clscan_compactor *c)
{
    if (!c)
        return;
    release_parts(c);
    pthread_mutex_destroy(&c->lock);
    clReleaseContext(c->context);
    free(c->predicate);
    free(c);
}

static size_t ceil_div(size_t a, size_t b) { return a / b + (a % b != 0); }

cl_int compact_reserve(clscan_compactor *c, compact_source from, size_t count)
{
    const size_t blocks = ceil_div(count, c->parts[from].wg * c->items);
    return count ? clscan_scratch_grow(c->context, &c->counts, &c->counts_cap, (blocks + 1) * sizeof(cl_uint))
                 : CL_SUCCESS;
}

cl_int compact_flags_step(clscan_compactor *c, clscan_chain *ch, cl_mem src, size_t src_offset, size_t count,
                          cl_mem flags)
{
    const compact_part *p = &c->parts[COMPACT_FROM_FLAGS];
    const cl_ulong so = src_offset, n = count;
    cl_kernel kernel = p->flags_runs;
    cl_int err = CL_SUCCESS;
    ALGO_ARG_MEM(kernel, 0, src); ALGO_ARG(kernel, 1, so); ALGO_ARG(kernel, 2, n); ALGO_ARG_MEM(kernel, 3, flags);
    if (err != CL_SUCCESS)
        return clscan_fail(err, "clSetKernelArg failed: %s", clscan_error_string(err));
    return clscan_chain_launch(ch, kernel, ceil_div(count, p->wg * c->items), p->wg, 1);
}

size_t compact_blocks(const clscan_compactor *c, const compact_call *k)
{
    return ceil_div(k->count, c->parts[k->from].wg * c->items);
}

/* The flag source's arguments (src, src_offset, flags, flags_offset) and the count: the first
 * five of every kernel. */
static cl_int source_args(cl_kernel ks, const compact_call *k)
{
    const cl_uint indices = k->mode == COMPACT_INDICES;
    const cl_ulong n = k->count, fo = k->flags_offset, so = k->src_offset;
    const cl_mem none = NULL, src = indices ? none : k->src, flags = k->from == COMPACT_FROM_FLAGS ? k->flags : none;
    cl_int err = CL_SUCCESS;
    ALGO_ARG_MEM(ks, 0, src); ALGO_ARG(ks, 1, so); ALGO_ARG_MEM(ks, 2, flags); ALGO_ARG(ks, 3, fo);
    ALGO_ARG(ks, 4, n);
    return err;
}

cl_int compact_output_args(cl_kernel ks, const compact_call *k)
{
    const cl_uint indices = k->mode == COMPACT_INDICES;
    const cl_mem none = NULL, data = indices ? none : k->dst, idx = indices ? k->dst : none;
    const cl_ulong data_off = indices ? 0 : k->dst_offset, idx_off = indices ? k->dst_offset : 0;
    cl_int err = source_args(ks, k);
    ALGO_ARG_MEM(ks, 5, data); ALGO_ARG(ks, 6, data_off);
    ALGO_ARG_MEM(ks, 7, idx); ALGO_ARG(ks, 8, idx_off); ALGO_ARG(ks, 9, indices);
    return err;
}

/* The arguments of k's count kernel (counts: the compactor's scratch) or of its scatter (offsets:
 * the scanned counts); both take the flag source's (src, src_offset, flags, flags_offset) first. */
static cl_int set_args(clscan_compactor *c, const compact_call *k, int scatter, cl_mem offsets)
{
    const compact_part *part = &c->parts[k->from];
    const cl_uint nb = (cl_uint)compact_blocks(c, k);
    const cl_ulong ko = k->kept_offset, dof = k->dst_offset;
    cl_kernel ks = !scatter ? part->count : k->mode == COMPACT_PARTITION ? part->partition : part->scatter;
    cl_int err;
    if (!scatter) {
        err = source_args(ks, k);
        ALGO_ARG_MEM(ks, 5, c->counts); ALGO_ARG(ks, 6, nb);
    } else if (k->mode == COMPACT_PARTITION) {
        err = source_args(ks, k);
        ALGO_ARG_MEM(ks, 5, k->dst); ALGO_ARG(ks, 6, dof);
        ALGO_ARG_MEM(ks, 7, offsets); ALGO_ARG(ks, 8, nb); ALGO_ARG_MEM(ks, 9, k->kept); ALGO_ARG(ks, 10, ko);
    } else {
        err = compact_output_args(ks, k);
        ALGO_ARG_MEM(ks, 10, offsets); ALGO_ARG(ks, 11, nb); ALGO_ARG_MEM(ks, 12, k->kept); ALGO_ARG(ks, 13, ko);
    }
    return err == CL_SUCCESS ? err : clscan_fail(err, "clSetKernelArg failed: %s", clscan_error_string(err));
}

cl_int compact_args(clscan_compactor *c, const compact_call *k, cl_mem offsets)
{
    cl_int err = offsets ? CL_SUCCESS : set_args(c, k, 0, NULL);
    return err == CL_SUCCESS ? set_args(c, k, 1, offsets ? offsets : c->counts) : err;
}

/* The count kernel's last block scans the counts (cl/compact/count.cl) up to this many blocks, a
 * scan of the counts after it above.  H200, partition, three rounds alternating in one build, ms
 * by the last block against a scan: 2^20 (256 blocks) 0.031-0.050 against 0.060-0.066, 2^22
 * (1024) 0.045-0.067 against 0.059-0.086, 2^24 (4096) 0.101-0.112 against 0.097-0.108, 2^26
 * (16384) 0.300-0.312 against 0.264-0.269: one launch less, but from 4096 blocks on the last
 * block's scan or each block's wait for its ticket (not told apart) costs more than that launch.
 * PoCL, 2 cores, 2^22 (1024 blocks): 4.6-6.4 ms against 5.2-6.8. */
#define COUNT_OFFSETS_MAX_BLOCKS 1024

static int offsets_by_count(const clscan_compactor *c, size_t blocks)
{
    return c->dev.compact_offsets >= 0 ? c->dev.compact_offsets : blocks <= COUNT_OFFSETS_MAX_BLOCKS;
}

cl_int compact_count_steps(clscan_compactor *c, clscan_chain *ch, const compact_call *k, cl_uint *total)
{
    const compact_part *part = &c->parts[k->from];
    const size_t blocks = compact_blocks(c, k);
    const cl_uint by_count = (cl_uint)offsets_by_count(c, blocks);
    cl_int err = by_count ? compact_status_reserve(c, ch, 0) : CL_SUCCESS;
    if (err != CL_SUCCESS)
        return err;
    const cl_mem none = NULL, tickets = by_count ? c->status : none;
    ALGO_ARG_MEM(part->count, 7, tickets); ALGO_ARG(part->count, 8, c->tickets); ALGO_ARG(part->count, 9, by_count);
    if (err != CL_SUCCESS)
        return clscan_fail(err, "clSetKernelArg failed: %s", clscan_error_string(err));
    err = clscan_chain_launch(ch, part->count, blocks, part->wg, 1);
    if (err == CL_SUCCESS && by_count)
        c->tickets += (cl_uint)blocks;
    else if (err == CL_SUCCESS)
        err = clscan_scan_step(ch, c->scan, c->counts, blocks + 1);
    if (err == CL_SUCCESS && total)
        err = clscan_chain_read(ch, c->counts, blocks * sizeof(cl_uint), sizeof(cl_uint), total, 1);
    return err;
}

cl_int compact_scatter_step(clscan_compactor *c, clscan_chain *ch, const compact_call *k)
{
    const compact_part *part = &c->parts[k->from];
    const int partition = k->mode == COMPACT_PARTITION;
    return clscan_chain_launch(ch, partition ? part->partition : part->scatter, compact_blocks(c, k),
                               partition ? partition_wg(c, part) : part->wg, 1);
}

cl_int compact_steps(clscan_compactor *c, clscan_chain *ch, const compact_call *k, cl_uint *total)
{
    if (compact_one_pass_applies(c, k, total))
        return compact_one_pass_step(c, ch, k);
    /* Both kernels' arguments first, then the commands: the scatter, the only command that
     * writes the caller's buffers, comes last. */
    cl_int err = compact_args(c, k, NULL);
    if (err == CL_SUCCESS)
        err = compact_count_steps(c, ch, k, total);
    if (err == CL_SUCCESS)
        err = compact_scatter_step(c, ch, k);
    return err;
}

int compact_same_blocks(const clscan_compactor *a, const clscan_compactor *b, compact_source from)
{
    return a->parts[from].wg * a->items == b->parts[from].wg * b->items;
}
