/* The compaction in one kernel: on GPUs the block scatter with a decoupled look-back over the
 * blocks' counts (cl/compact/one_pass.cl), on CPUs a work-item a block looking back one block at
 * a time (cl/compact/one_pass_serial.cl); both on the compactor's ticket counter and 64-bit
 * status words. */
#include "compact.h"

/* Status words are tagged with an epoch of 30 bits; at its end they are cleared again. */
#define EPOCH_LIMIT (1u << 30)

/* On GPUs the one pass up to this many blocks, the count, scan and scatter above: its blocks publish
 * one after the other, and beyond some 8192 blocks that chain costs more than reading the flags
 * twice (H200, alternating with the three kernels in blocks of 256 x 16, four selections, the one
 * pass in blocks of 256 x 16: 2^22 0.029-0.045 ms against 0.059-0.084, 2^24 0.054-0.093
 * against 0.071-0.113, 2^26 (16384 blocks) 0.135-0.268 against 0.115-0.244,
 * doc/perf/h200-compact-one-pass-2026-12-01.txt; in blocks of 256 x 32, 2^26 (8192 blocks):
 * unique 0.200-0.203 against 0.220-0.223, compact-50 0.188-0.190 against 0.199-0.202). */
#define ONE_PASS_MAX_BLOCKS 8192

/* Where the status words are single 64-bit atomics. */
int compact_one_pass_available(const clscan_compactor *c)
{
    return c->info.has_int64_atomics != 0;
}

/* The one pass's work-items per block: the part's on GPUs, one on CPUs. */
static size_t one_pass_wg(const clscan_compactor *c, const compact_call *k)
{
    return c->gpu ? c->parts[k->from].wg : 1;
}

/* The one pass's blocks (of its own size, compact.c's tuning). */
static size_t one_pass_blocks(const clscan_compactor *c, const compact_call *k)
{
    const size_t tile = one_pass_wg(c, k) * c->one_pass_items;
    return k->count / tile + (k->count % tile != 0);
}

/* Elements or indices (partition keeps its own scatter), without a total read before the
 * scatter (the blocking calls). */
int compact_one_pass_applies(const clscan_compactor *c, const compact_call *k, const cl_uint *total)
{
    return !total && k->mode != COMPACT_PARTITION && c->parts[k->from].one_pass &&
           (!c->gpu || one_pass_blocks(c, k) <= ONE_PASS_MAX_BLOCKS);
}

cl_int compact_status_reserve(clscan_compactor *c, clscan_chain *ch, size_t blocks)
{
    cl_mem old = c->status;
    cl_int err = clscan_scratch_grow(c->context, &c->status, &c->status_cap, (1 + blocks) * sizeof(cl_ulong));
    if (err != CL_SUCCESS)
        return err;
    if (c->status != old || c->epoch == 0 || c->epoch >= EPOCH_LIMIT) {
        const cl_uint zero = 0;
        if ((err = clscan_chain_fill(ch, c->status, &zero, sizeof zero, 0, c->status_cap, 1)) != CL_SUCCESS)
            return err;
        c->epoch = 1;
        c->tickets = 0;
    }
    return CL_SUCCESS;
}

cl_int compact_one_pass_step(clscan_compactor *c, clscan_chain *ch, const compact_call *k)
{
    const compact_part *part = &c->parts[k->from];
    const size_t blocks = one_pass_blocks(c, k);
    cl_int err = compact_status_reserve(c, ch, blocks);
    if (err != CL_SUCCESS)
        return err;
    /* The scatter's first ten, then the status words, the ticket base, the epoch, the total. */
    const cl_ulong ko = k->kept_offset;
    cl_kernel ks = part->one_pass;
    err = compact_output_args(ks, k);
    ALGO_ARG_MEM(ks, 10, c->status); ALGO_ARG(ks, 11, c->tickets); ALGO_ARG(ks, 12, c->epoch);
    ALGO_ARG_MEM(ks, 13, k->kept); ALGO_ARG(ks, 14, ko);
    if (err != CL_SUCCESS)
        return clscan_fail(err, "clSetKernelArg failed: %s", clscan_error_string(err));
    if ((err = clscan_chain_launch(ch, ks, blocks, one_pass_wg(c, k), 1)) == CL_SUCCESS) {
        c->tickets += (cl_uint)blocks;
        c->epoch += 1;
    }
    return err;
}
