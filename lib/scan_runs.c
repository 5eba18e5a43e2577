/* Reduce-by-key (see scan_run.h and cl/scan/runs.cl) on the queue's scratch, as the variant's
 * algorithm says: the single pass (one launch of clscan_reduce_runs, after a fill of the status
 * words when they are new; also any count of one tile; on CPUs clscan_reduce_runs_folded, a
 * work-item per compute unit taking tiles in turn, or where its scratch would not fit
 * clscan_reduce_runs_serial, a work-item a tile), or reduce-then-scan (clscan_reduce of
 * the tiles' totals, their scan in place by the carries kernels, clscan_runs_scatter).  Only the last kernel
 * writes the caller's buffers. */
#include "scan_run.h"

#define ARG(k, i, v) (err == CL_SUCCESS ? (err = clSetKernelArg((k), (i), sizeof(v), &(v))) : err)

static cl_int args_failed(cl_int err)
{
    return clscan_fail(err, "clSetKernelArg failed: %s", clscan_error_string(err));
}

/* The arguments the single pass and the scatter share: the job's buffers, indices 0 ... 10. */
static cl_int job_args(const clscan_runs_job *r, cl_kernel k)
{
    const cl_ulong count = r->count;
    cl_int err = CL_SUCCESS;
    ARG(k, 0, r->values);
    ARG(k, 1, r->values_offset);
    ARG(k, 2, r->keys);
    ARG(k, 3, r->keys_offset);
    ARG(k, 4, count);
    ARG(k, 5, r->keys_out);
    ARG(k, 6, r->keys_out_offset);
    ARG(k, 7, r->values_out);
    ARG(k, 8, r->values_out_offset);
    ARG(k, 9, r->nruns);
    ARG(k, 10, r->nruns_offset);
    return err;
}

/* The serial kernel's tile (CPUs): the variant's times a power of two up to 64, while there are
 * still 8 tiles a compute unit.  PoCL, 2 cores, uint32 SUM in runs of 1 ... 16, fastest of 60-100
 * calls, rounds alternating: 2^22 1.48-1.62 ms in tiles of 4096 x 64 (16 tiles) against
 * 1.78-2.82 x 16, 1.83-2.88 x 4 and 2.03-2.36 in tiles of 4096; 2^24 6.5-8.1 against 11.6-12.2
 * in tiles of 4096; 2^18 and 2^20 level within the machine's noise.  What the bigger tiles save
 * was not told apart (PoCL's scheduling of a work-group, the look-back's waits).  A function of
 * the count and the device: the same bits for the same call. */
static size_t serial_tile(const clscan_plan *plan, size_t tile, size_t count)
{
    const size_t units = plan->info.compute_units ? plan->info.compute_units : 1;
    size_t m = 1;
    while (m < 64 && count / (tile * m * 2) >= 8 * units)
        m *= 2;
    return tile * m;
}

/* The folded single pass's work-groups (CPUs, scan/runs_folded.cl): one per compute unit, each
 * with a slot of tile + CLSCAN_RUNS_SLOT_SPARE keys and values, where the slots take at most
 * RUNS_SCRATCH_LIMIT bytes (CLSCAN_DEVELOP's runs_pass decides where given); 0: the serial
 * kernel, a work-group a tile.
 * PoCL, 2 cores, uint32 SUM by uint32 keys in runs of 1 ... 16, 2^22 pairs, medians of 60 calls,
 * four rounds alternating: 3.07-3.42 ms folded against 3.64-4.00 with the heads counted first
 * (the count, a pass of its own over the tile's keys from memory, stalls the core where the
 * fold's loads are hidden behind its arithmetic); the fastest calls level. */
#define RUNS_SCRATCH_LIMIT ((size_t)64 << 20)

static size_t folded_groups(const clscan_plan *plan, const clscan_runs_job *r, size_t tile, size_t key_size)
{
    if (!r->data->reduce_runs_folded || plan->dev.runs_pass == 0)
        return 0;
    const size_t units = plan->info.compute_units ? plan->info.compute_units : 1;
    const size_t slot_bytes = (tile + CLSCAN_RUNS_SLOT_SPARE) * (key_size + plan->element_size);
    return plan->dev.runs_pass == 1 || slot_bytes <= RUNS_SCRATCH_LIMIT / units ? units : 0;
}

static cl_int single_pass(const clscan_plan *plan, const clscan_runs_job *r, clscan_chain *c, clscan_scratch *slot,
                          size_t tiles, size_t tile, int want_event)
{
    const clscan_variant *v = &r->data->variant;
    const size_t key_size = v->what == CLSCAN_PROGRAM_RUNS_64 ? 8 : 4;
    const size_t groups = folded_groups(plan, r, tile, key_size);
    cl_int err = CL_SUCCESS;
    if (groups) {
        err = clscan_scratch_grow(plan->context, &slot->runs_keys, &slot->runs_keys_bytes,
                                  groups * (tile + CLSCAN_RUNS_SLOT_SPARE) * key_size);
        if (err == CL_SUCCESS)
            err = clscan_scratch_grow(plan->context, &slot->runs_values, &slot->runs_values_bytes,
                                      groups * (tile + CLSCAN_RUNS_SLOT_SPARE) * plan->element_size);
        if (err != CL_SUCCESS)
            return err;
    }
    cl_uint base = 0, epoch = 0;
    if ((err = clscan_status_prepare(plan, v, c, slot, tiles, &base, &epoch)) != CL_SUCCESS)
        return err;
    const cl_ulong capacity = slot->tiles;
    cl_kernel k = groups ? r->data->reduce_runs_folded
                  : r->data->reduce_runs_serial ? r->data->reduce_runs_serial : r->data->reduce_runs;
    err = job_args(r, k);
    ARG(k, 11, slot->status);
    ARG(k, 12, slot->values);
    ARG(k, 13, capacity);
    ARG(k, 14, base);
    ARG(k, 15, epoch);
    const cl_ulong tile_size = tile;
    if (r->data->reduce_runs_serial)
        ARG(k, 16, tile_size);
    if (groups) {
        ARG(k, 17, slot->runs_keys);
        ARG(k, 18, slot->runs_values);
    }
    if (err != CL_SUCCESS)
        return args_failed(err);
    /* Each of the folded pass's work-groups takes one ticket past the last tile. */
    if ((err = clscan_chain_launch(c, k, groups ? groups : tiles, r->data->reduce_runs_serial ? 1 : v->wg,
                                   want_event)) == CL_SUCCESS)
        clscan_status_advance(slot, tiles + groups);
    return err;
}

/* A kernel of the carries on the totals' scratch: (totals, counts, n) from index 0, then
 * more (offset, n) where it takes them. */
static cl_int totals_launch(clscan_chain *c, cl_kernel k, const clscan_scratch *slot, cl_ulong offset, cl_ulong n,
                            size_t groups, size_t wg, int with_offset)
{
    cl_int err = CL_SUCCESS;
    ARG(k, 0, slot->totals);
    ARG(k, 1, slot->flags);
    if (with_offset)
        ARG(k, 2, offset);
    ARG(k, with_offset ? 3 : 2, n);
    return err != CL_SUCCESS ? args_failed(err) : clscan_chain_launch(c, k, groups, wg, 0);
}

static cl_int reduce_then_scan(const clscan_plan *plan, const clscan_runs_job *r, clscan_chain *c,
                               clscan_scratch *slot, size_t tiles, int want_event)
{
    const clscan_variant *v = &r->data->variant;
    const size_t tile = v->wg * v->items, chunks = tiles > tile ? tiles / tile + (tiles % tile != 0) : 0;
    /* The tiles' totals and, past them, those of the tiles of totals: values, and their heads
     * counted (4 bytes each). */
    cl_int err = clscan_scratch_grow(plan->context, &slot->totals, &slot->totals_bytes,
                                     (tiles + chunks) * plan->element_size);
    if (err == CL_SUCCESS)
        err = clscan_scratch_grow(plan->context, &slot->flags, &slot->flags_bytes, (tiles + chunks) * sizeof(cl_uint));
    if (err != CL_SUCCESS)
        return err;
    const cl_ulong count = r->count, ntiles = tiles, zero = 0;
    cl_kernel k = r->data->reduce;
    ARG(k, 0, r->values);
    ARG(k, 1, r->values_offset);
    ARG(k, 2, count);
    ARG(k, 3, slot->totals);
    ARG(k, 4, zero);
    ARG(k, 5, r->keys);   /* heads: unused */
    ARG(k, 6, zero);
    ARG(k, 7, r->keys);
    ARG(k, 8, r->keys_offset);
    ARG(k, 9, slot->flags);
    if (err != CL_SUCCESS)
        return args_failed(err);
    if ((err = clscan_chain_launch(c, k, tiles, v->wg, 0)) != CL_SUCCESS)
        return err;
    if (!chunks) {
        err = totals_launch(c, r->data->runs_carries, slot, 0, ntiles, 1, v->wg, 1);
    } else {
        err = totals_launch(c, r->data->runs_chunk_totals, slot, 0, ntiles, chunks, v->wg, 0);
        if (err == CL_SUCCESS)
            err = totals_launch(c, r->data->runs_carries, slot, ntiles, chunks, 1, v->wg, 1);
        if (err == CL_SUCCESS)
            err = totals_launch(c, r->data->runs_chunk_carries, slot, 0, ntiles, chunks, v->wg, 0);
    }
    if (err != CL_SUCCESS)
        return err;
    k = r->data->runs_scatter;
    err = job_args(r, k);
    ARG(k, 11, slot->totals);
    ARG(k, 12, slot->flags);
    return err != CL_SUCCESS ? args_failed(err) : clscan_chain_launch(c, k, tiles, v->wg, want_event);
}

cl_int clscan_runs_run(clscan_plan *plan, const clscan_runs_job *r, cl_command_queue queue, cl_uint nwait,
                       const cl_event *wait, cl_event *event)
{
    const clscan_variant *v = &r->data->variant;
    const int serial = r->data->reduce_runs_serial && v->algorithm == CLSCAN_ALGORITHM_SINGLE_PASS;
    const size_t tile = serial ? serial_tile(plan, v->wg * v->items, r->count) : v->wg * v->items;
    const size_t tiles = r->count / tile + (r->count % tile != 0);
    if (tiles >= (size_t)1 << 31)
        return clscan_fail(CL_INVALID_BUFFER_SIZE, "%zu tiles are too many for reduce-by-key", tiles);
    /* The queue's scratch: after its previous use on out-of-order queues. */
    clscan_scratch *slot = clscan_scratch_slot(plan, queue);
    clscan_chain c;
    cl_int err = clscan_chain_begin(&c, queue, nwait, wait, slot->last_use, 0);
    if (err != CL_SUCCESS)
        return err;
    if (tiles == 1 || v->algorithm == CLSCAN_ALGORITHM_SINGLE_PASS)
        err = single_pass(plan, r, &c, slot, tiles, tile, event != NULL);
    else
        err = reduce_then_scan(plan, r, &c, slot, tiles, event != NULL);
    clscan_chain_end(&c, err, event, c.out_of_order ? &slot->last_use : NULL);
    return err;
}
