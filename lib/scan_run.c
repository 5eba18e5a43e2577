/* Running a scan (see scan_run.h and cl/scan/):
 * - count <= one tile: one launch of clscan_scan_tiles;
 * - reduce-then-scan: with n[0] = count and n[l + 1] = ceil(n[l] / tile) tile totals at level
 *   l + 1 (in the queue's scratch), clscan_reduce up the levels, clscan_scan_tiles_inclusive on
 *   the top level and down the levels in place, then clscan_scan_tiles on the data;
 * - single pass: one launch of clscan_scan_single_pass (decoupled look-back), after a fill of
 *   the status words when they are new.
 * Only the last kernel writes dst: a failure before it leaves dst untouched.  Segments given by
 * offsets add commands around the scan: their heads into the queue's scratch before, their
 * totals after (a failure of that last command leaves dst written). */
#include "scan_run.h"

#define MAX_LEVELS 66

#define ARG(k, i, v) (err == CL_SUCCESS ? (err = clSetKernelArg((k), (i), sizeof(v), &(v))) : err)

static cl_int args_failed(cl_int err)
{
    return clscan_fail(err, "clSetKernelArg failed: %s", clscan_error_string(err));
}

static size_t ceil_div(size_t a, size_t b) { return a / b + (a % b != 0); }

/* A segmented kernel's source arguments from index i: heads, keys and their offsets. */
static cl_int seg_args(const clscan_scan_job *j, cl_kernel k, cl_uint i, cl_mem heads, cl_ulong heads_offset,
                       cl_mem keys, cl_ulong keys_offset)
{
    cl_int err = CL_SUCCESS;
    if (j->segmented) {
        ARG(k, i, heads);
        ARG(k, i + 1, heads_offset);
        ARG(k, i + 2, keys);
        ARG(k, i + 3, keys_offset);
    }
    return err;
}

/* The data's own heads or keys, or a recurrence's coefficients. */
static cl_int data_args(const clscan_scan_job *j, cl_kernel k, cl_uint i)
{
    if (!j->recurrence)
        return seg_args(j, k, i, j->heads, j->heads_offset, j->keys, j->keys_offset);
    cl_int err = CL_SUCCESS;
    ARG(k, i, j->coef);
    ARG(k, i + 1, j->coef_offset);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(k, i + 2, j->coef_size, j->coef_value);
    ARG(k, i + 3, j->coef_const);
    return err;
}

/* The options' arguments from index i (OPTIONS_PARAMS of cl/scan/options.cl): 8 of them. */
static cl_int option_args(const clscan_job_options *o, cl_kernel k, cl_uint i)
{
    const cl_uint write_total = o->total_buf != NULL && !o->total_from_dst;
    cl_int err = clSetKernelArg(k, i, o->value_size, o->carry_value);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(k, i + 1, sizeof(cl_mem), o->carry_buf ? &o->carry_buf : NULL);
    ARG(k, i + 2, o->carry_offset);
    ARG(k, i + 3, o->carry_mode);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(k, i + 4, sizeof(cl_mem), o->total_buf ? &o->total_buf : NULL);
    ARG(k, i + 5, o->total_offset);
    ARG(k, i + 6, write_total);
    ARG(k, i + 7, o->write_dst);
    return err;
}

/* clscan_scan_tiles of program p on count elements of src (at src_offset) into dst, with
 * carries from `carries` (NULL: none, one tile) and the job's options; count 0: the total alone. */
static cl_int scan_tiles(const clscan_scan_job *j, const clscan_scan_program *p,
                         clscan_chain *c, cl_mem src, cl_ulong src_offset, size_t count, cl_mem carries,
                         const clscan_job_options *o, int want_event)
{
    const clscan_variant *v = &p->variant;
    const cl_ulong n = count, carries_offset = 0;
    const cl_uint use = carries != NULL;
    cl_kernel k = p->scan_tiles;
    cl_int err = CL_SUCCESS;
    ARG(k, 0, src);
    ARG(k, 1, src_offset);
    if (err == CL_SUCCESS)   /* no dst (a reduction): NULL */
        err = clSetKernelArg(k, 2, sizeof(cl_mem), o->write_dst ? &j->dst : NULL);
    ARG(k, 3, j->dst_offset);
    ARG(k, 4, n);
    if (err == CL_SUCCESS)   /* unused without carries */
        err = clSetKernelArg(k, 5, sizeof(cl_mem), carries ? &carries : NULL);
    ARG(k, 6, carries_offset);
    ARG(k, 7, use);
    if (err == CL_SUCCESS)
        err = option_args(o, k, 8);
    if (err == CL_SUCCESS)
        err = p == j->data ? data_args(j, k, 16) : seg_args(j, k, 16, NULL, 0, NULL, 0);
    const size_t groups = count ? ceil_div(count, v->wg * v->items) : 1;
    return err != CL_SUCCESS ? args_failed(err) : clscan_chain_launch(c, k, groups, v->wg, want_event);
}

static cl_int reduce_then_scan(const clscan_plan *plan, const clscan_scan_job *j, clscan_chain *c,
                               clscan_scratch *slot, int want_event)
{
    const size_t wg = j->data->variant.wg, tile = wg * j->data->variant.items;
    /* Sizes and scratch offsets (in elements) of the levels of tile totals. */
    size_t n[MAX_LEVELS], off[MAX_LEVELS], total = 0;
    int levels = 0;   /* levels of totals above the data */
    n[0] = j->count;
    while (n[levels] > tile) {   /* tile >= 2: at most log2(count) levels */
        n[levels + 1] = ceil_div(n[levels], tile);
        off[levels + 1] = total;
        total += n[levels + 1];
        ++levels;
    }
    /* Totals of the kernels' T (a compensated plan's are wider than its elements); segmented
     * programs keep values (and flags apart). */
    const size_t carry = j->segmented ? plan->element_size : j->data->variant.element_size;
    cl_int err = clscan_scratch_grow(plan->context, &slot->totals, &slot->totals_bytes, total * carry);
    if (err == CL_SUCCESS && j->segmented)
        err = clscan_scratch_grow(plan->context, &slot->flags, &slot->flags_bytes, total);
    if (err != CL_SUCCESS)
        return err;
    const cl_mem scratch = slot->totals, flags = j->segmented ? slot->flags : slot->totals;
    const cl_uint yes = 1, no = 0;

    /* Up: tile totals of each level into the next (segmented: with the flags of the tiles). */
    for (int l = 0; l < levels && err == CL_SUCCESS; ++l) {
        const cl_mem in = l == 0 ? j->src : scratch;
        const cl_ulong in_off = l == 0 ? j->src_offset : off[l], in_n = n[l], out_off = off[l + 1];
        cl_kernel k = l == 0 ? j->data->reduce : j->levels->reduce;
        ARG(k, 0, in);
        ARG(k, 1, in_off);
        ARG(k, 2, in_n);
        ARG(k, 3, scratch);
        ARG(k, 4, out_off);
        if (err == CL_SUCCESS)
            err = l == 0 ? data_args(j, k, 5) : seg_args(j, k, 5, flags, in_off, flags, 0);
        if (j->segmented)
            ARG(k, 9, flags);
        err = err != CL_SUCCESS ? args_failed(err) : clscan_chain_launch(c, k, n[l + 1], wg, 0);
    }
    if (err != CL_SUCCESS)
        return err;
    /* A reduction (no dst) scans the top level's totals for the total alone (one tile, through
     * the levels' program: the totals are in the order the data's program read them).  Not a
     * recurrence's, nor a compensated plan's: their carries and totals are single values or
     * pairs where the levels' program takes its T, so they run the down-sweep and the data's
     * last pass, which stores nothing. */
    if (!j->opt.write_dst && !j->recurrence && !j->data->variant.compensated)
        return scan_tiles(j, j->levels, c, scratch, off[levels], n[levels], NULL, &j->opt, want_event);
    /* Down: each level of totals in place, the top one without carries. */
    for (int l = levels; l >= 1 && err == CL_SUCCESS; --l) {
        const cl_ulong o = off[l], nl = n[l], carry_off = l < levels ? off[l + 1] : 0;
        const cl_uint use = l < levels ? yes : no;
        cl_kernel k = j->levels->scan_tiles_inclusive;
        ARG(k, 0, scratch);
        ARG(k, 1, o);
        ARG(k, 2, nl);
        ARG(k, 3, scratch);
        ARG(k, 4, carry_off);
        ARG(k, 5, use);
        if (err == CL_SUCCESS)
            err = seg_args(j, k, 6, flags, o, flags, 0);
        err = err != CL_SUCCESS ? args_failed(err) : clscan_chain_launch(c, k, ceil_div(n[l], tile), wg, 0);
    }
    if (err != CL_SUCCESS)
        return err;
    /* Last: the data, with the carries of level 1 (at offset 0 of the scratch). */
    return scan_tiles(j, j->data, c, j->src, j->src_offset, j->count, scratch, &j->opt, want_event);
}

/* Status words are tagged with an epoch of 30 bits; at its end they are cleared again. */
#define EPOCH_LIMIT (1u << 30)
/* Bytes per tile of status words, for every layout (16-byte packed words), and for the ticket
 * counter in front of them. */
#define STATUS_BYTES 16

cl_int clscan_status_prepare(const clscan_plan *plan, const clscan_variant *v, clscan_chain *c,
                             clscan_scratch *slot, size_t tiles, cl_uint *base, cl_uint *epoch)
{
    cl_mem old_status = slot->status;
    cl_int err = clscan_scratch_grow(plan->context, &slot->status, &slot->status_bytes, (1 + tiles) * STATUS_BYTES);
    if (err != CL_SUCCESS)
        return err;
    if (slot->status != old_status) {   /* new words: cleared below */
        slot->tiles = slot->status_bytes / STATUS_BYTES - 1;
        slot->epoch = 0;
    }
    /* The separate layout's values for every tile the status words have room for. */
    if ((err = clscan_scratch_grow(plan->context, &slot->values, &slot->values_bytes,
                                   2 * slot->tiles * v->element_size)) != CL_SUCCESS)
        return err;
    /* Cleared at the first scan, at the end of the epochs, and when the layout changes (another
     * layout's words could hold anything where this one's status words are). */
    if (slot->epoch == 0 || slot->epoch >= EPOCH_LIMIT || slot->layout != (int)v->status) {
        const cl_uint zero = 0;
        if ((err = clscan_chain_fill(c, slot->status, &zero, sizeof zero, 0, slot->status_bytes, 0)) != CL_SUCCESS)
            return err;
        slot->epoch = 1;
        slot->tickets = 0;
        slot->layout = (int)v->status;
    }
    *base = slot->tickets;
    *epoch = slot->epoch;
    return CL_SUCCESS;
}

void clscan_status_advance(clscan_scratch *slot, size_t tiles)
{
    slot->tickets += (cl_uint)tiles;
    slot->epoch += 1;
}

static cl_int single_pass(const clscan_plan *plan, const clscan_scan_job *j, clscan_chain *c,
                          clscan_scratch *slot, int want_event)
{
    const clscan_variant *v = &j->data->variant;
    const size_t tiles = ceil_div(j->count, v->wg * v->items);
    if (tiles >= (size_t)1 << 31)
        return clscan_fail(CL_INVALID_BUFFER_SIZE, "%zu tiles are too many for the single-pass scan; use "
                           "CLSCAN_ALGORITHM_REDUCE_THEN_SCAN", tiles);
    cl_uint base, epoch;
    cl_int err = clscan_status_prepare(plan, v, c, slot, tiles, &base, &epoch);
    if (err != CL_SUCCESS)
        return err;
    const cl_ulong count = j->count, capacity = slot->tiles;
    cl_kernel k = j->data->single_pass;
    ARG(k, 0, j->src);
    ARG(k, 1, j->src_offset);
    if (err == CL_SUCCESS)   /* no dst (a reduction): NULL */
        err = clSetKernelArg(k, 2, sizeof(cl_mem), j->opt.write_dst ? &j->dst : NULL);
    ARG(k, 3, j->dst_offset);
    ARG(k, 4, count);
    ARG(k, 5, slot->status);
    ARG(k, 6, slot->values);
    ARG(k, 7, capacity);
    ARG(k, 8, base);
    ARG(k, 9, epoch);
    if (err == CL_SUCCESS)
        err = option_args(&j->opt, k, 10);
    if (err == CL_SUCCESS)
        err = data_args(j, k, 18);
    err = err != CL_SUCCESS ? args_failed(err) : clscan_chain_launch(c, k, tiles, v->wg, want_event);
    if (err == CL_SUCCESS)
        clscan_status_advance(slot, tiles);
    return err;
}

/* More than one tile: the queue's scratch. */
static int several_tiles(const clscan_scan_job *j)
{
    const clscan_variant *v = &j->data->variant;
    return j->count > v->wg * v->items;
}

/* The job's scan as the next commands of chain c: one tile, or either algorithm on the queue's
 * scratch slot; want_event: the last command's event is wanted. */
static cl_int scan_commands(const clscan_plan *plan, const clscan_scan_job *j, clscan_chain *c, clscan_scratch *slot,
                            int want_event)
{
    if (!several_tiles(j))
        return scan_tiles(j, j->data, c, j->src, j->src_offset, j->count, NULL, &j->opt, want_event);
    if (j->data->variant.algorithm == CLSCAN_ALGORITHM_SINGLE_PASS)
        return single_pass(plan, j, c, slot, want_event);
    return reduce_then_scan(plan, j, c, slot, want_event);
}

cl_int clscan_scan_run(clscan_plan *plan, const clscan_scan_job *j, cl_command_queue queue, cl_uint nwait,
                       const cl_event *wait, cl_event *event)
{
    clscan_chain c;
    /* One tile needs no scratch; more need the queue's, after its previous use on out-of-order
     * queues (in-order queues order the uses themselves). */
    clscan_scratch *slot = several_tiles(j) ? clscan_scratch_slot(plan, queue) : NULL;
    cl_int err = clscan_chain_begin(&c, queue, nwait, wait, slot ? slot->last_use : NULL, 0);
    if (err != CL_SUCCESS)
        return err;
    const int last = event != NULL && !j->opt.total_from_dst;   /* the scan is the last command */
    err = scan_commands(plan, j, &c, slot, last);
    if (err == CL_SUCCESS && j->opt.total_from_dst)
        err = clscan_chain_copy(&c, j->dst, j->opt.last_offset * j->opt.value_size, j->opt.total_buf,
                                j->opt.total_offset * j->opt.value_size, j->opt.value_size, event != NULL);
    clscan_chain_end(&c, err, event, slot && c.out_of_order ? &slot->last_use : NULL);
    return err;
}

/* Launches of the offsets' kernels: a work-item per segment, at most this many work-groups (the
 * kernels loop over the rest). */
#define MAX_SEGMENT_GROUPS 4096

static cl_int segments_launch(clscan_chain *c, cl_kernel k, size_t nsegments, size_t wg, int want_event)
{
    const size_t groups = ceil_div(nsegments, wg);
    return clscan_chain_launch(c, k, groups < MAX_SEGMENT_GROUPS ? groups : MAX_SEGMENT_GROUPS, wg, want_event);
}

/* The offsets' arguments from index 0: the buffer, the first offset, the width, the segments
 * and the count they are clamped to. */
static cl_int offsets_args(const clscan_offsets_job *o, cl_kernel k)
{
    const cl_ulong nsegments = o->nsegments, count = o->scan.count;
    cl_int err = CL_SUCCESS;
    ARG(k, 0, o->offsets);
    ARG(k, 1, o->offsets_offset);
    ARG(k, 2, o->wide);
    ARG(k, 3, nsegments);
    ARG(k, 4, count);
    return err;
}

/* The heads from the offsets: the queue's head flags cleared (in 4-byte words), then set at
 * the segments' starts; with keep_lasts, the segments' last elements kept too. */
static cl_int offsets_heads(const clscan_offsets_job *o, clscan_chain *c, const clscan_scratch *slot,
                            cl_uint keep_lasts)
{
    const clscan_scan_job *j = &o->scan;
    const cl_uint zero = 0;
    cl_int err = clscan_chain_fill(c, slot->seg_heads, &zero, sizeof zero, 0, (j->count + 3) / 4 * 4, 0);
    if (err != CL_SUCCESS)
        return err;
    cl_kernel k = j->data->offsets_heads;
    err = offsets_args(o, k);
    ARG(k, 5, slot->seg_heads);
    ARG(k, 6, j->src);
    ARG(k, 7, j->src_offset);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(k, 8, sizeof(cl_mem), keep_lasts ? &slot->seg_lasts : NULL);
    ARG(k, 9, keep_lasts);
    return err != CL_SUCCESS ? args_failed(err) : segments_launch(c, k, o->nsegments, j->data->variant.wg, 0);
}

/* The totals from the scan y (at y_offset) and the kept last elements (NULL: none). */
static cl_int offsets_totals(const clscan_offsets_job *o, clscan_chain *c, cl_mem y, cl_ulong y_offset, cl_mem lasts,
                             int want_event)
{
    cl_kernel k = o->scan.data->offsets_totals;
    cl_int err = offsets_args(o, k);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(k, 5, sizeof(cl_mem), y ? &y : NULL);
    ARG(k, 6, y_offset);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(k, 7, sizeof(cl_mem), lasts ? &lasts : NULL);
    ARG(k, 8, o->totals);
    ARG(k, 9, o->totals_offset);
    return err != CL_SUCCESS ? args_failed(err)
                             : segments_launch(c, k, o->nsegments, o->scan.data->variant.wg, want_event);
}

cl_int clscan_offsets_run(clscan_plan *plan, clscan_offsets_job *o, cl_command_queue queue, cl_uint nwait,
                          const cl_event *wait, cl_event *event)
{
    clscan_scan_job *j = &o->scan;
    const size_t e = plan->element_size;
    /* An exclusive scan's totals combine the last output with the last element, which an
     * in-place scan overwrites: kept before it. */
    const cl_uint keep_lasts = o->totals && plan->kind == CLSCAN_EXCLUSIVE;
    /* Elements need the queue's scratch (the heads at least), after its previous use on
     * out-of-order queues; totals of empty segments alone need nothing. */
    clscan_scratch *slot = j->count ? clscan_scratch_slot(plan, queue) : NULL;
    cl_int err = CL_SUCCESS;
    if (slot) {
        err = clscan_scratch_grow(plan->context, &slot->seg_heads, &slot->seg_heads_bytes, (j->count + 3) / 4 * 4);
        if (err == CL_SUCCESS && !j->dst)
            err = clscan_scratch_grow(plan->context, &slot->seg_scan, &slot->seg_scan_bytes, j->count * e);
        if (err == CL_SUCCESS && keep_lasts)
            err = clscan_scratch_grow(plan->context, &slot->seg_lasts, &slot->seg_lasts_bytes, o->nsegments * e);
        if (err != CL_SUCCESS)
            return err;
    }
    clscan_chain c;
    if ((err = clscan_chain_begin(&c, queue, nwait, wait, slot ? slot->last_use : NULL, 0)) != CL_SUCCESS)
        return err;
    if (slot) {
        err = offsets_heads(o, &c, slot, keep_lasts);
        j->heads = j->keys = slot->seg_heads;
        j->heads_offset = 0;
        if (!j->dst) {   /* totals alone: the scan goes to the scratch */
            j->dst = slot->seg_scan;
            j->dst_offset = 0;
        }
        if (err == CL_SUCCESS)
            err = scan_commands(plan, j, &c, slot, event != NULL && !o->totals);
    }
    if (err == CL_SUCCESS && o->totals)
        err = offsets_totals(o, &c, slot ? j->dst : NULL, j->dst_offset, slot && keep_lasts ? slot->seg_lasts : NULL,
                             event != NULL);
    clscan_chain_end(&c, err, event, slot && c.out_of_order ? &slot->last_use : NULL);
    return err;
}
