/* clscan_enqueue: argument checks, then the scan as kernels on the caller's queue.
 *
 * count <= one tile: one launch of clscan_scan_tiles.  Larger arrays, by the plan's algorithm:
 * - single pass: one launch of clscan_scan_single_pass (decoupled look-back, see the kernel);
 * - reduce-then-scan: with n[0] = count and n[l+1] = ceil(n[l] / tile) tile totals at level
 *   l+1 (in the queue's scratch buffer):
 *     clscan_reduce            level 0 (src) -> level 1 -> level 2 ... up to one tile;
 *     clscan_scan_tiles_incl.  the top level in place, then each lower level of totals in place
 *                              with its carries from the level above;
 *     clscan_scan_tiles        src -> dst with carries from level 1, of the plan's kind.
 * A carry is applied as comb(carry, x), so the order of comb's arguments holds across tiles
 * and levels.  Only the last kernel writes dst: a failure before it leaves dst untouched. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

#define MAX_LEVELS 66

/* ---- Argument checks ------------------------------------------------------------------- */

static cl_int check_queue(const char *fn, const clscan_plan *plan, cl_command_queue queue)
{
    cl_context context;
    cl_device_id device;
    if (!queue)
        return clscan_fail(CL_INVALID_COMMAND_QUEUE, "%s: queue is NULL", fn);
    if (clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof context, &context, NULL) != CL_SUCCESS ||
        clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof device, &device, NULL) != CL_SUCCESS)
        return clscan_fail(CL_INVALID_COMMAND_QUEUE, "%s: not a valid command queue", fn);
    if (context != plan->context)
        return clscan_fail(CL_INVALID_CONTEXT, "%s: the queue belongs to another context than the plan", fn);
    if (device != plan->device)
        return clscan_fail(CL_INVALID_DEVICE, "%s: the queue is for another device than the plan", fn);
    return CL_SUCCESS;
}

static cl_int check_wait_list(const char *fn, const clscan_plan *plan, cl_uint n, const cl_event *list)
{
    if ((n > 0) != (list != NULL))
        return clscan_fail(CL_INVALID_EVENT_WAIT_LIST, "%s: %u events in the wait list, "
                           "but the list is %s", fn, n, list ? "not NULL" : "NULL");
    for (cl_uint i = 0; i < n; ++i) {
        cl_context context;
        if (!list[i] || clGetEventInfo(list[i], CL_EVENT_CONTEXT, sizeof context, &context, NULL) != CL_SUCCESS)
            return clscan_fail(CL_INVALID_EVENT_WAIT_LIST, "%s: wait list entry %u is not a valid event", fn, i);
        if (context != plan->context)
            return clscan_fail(CL_INVALID_CONTEXT, "%s: wait list entry %u belongs to another context", fn, i);
    }
    return CL_SUCCESS;
}

/* A buffer's place in memory: the buffer it is carved from (itself unless a sub-buffer), the
 * byte offset there, and its size. */
typedef struct buffer_place {
    cl_mem root;
    size_t offset;
    size_t size;
} buffer_place;

/* mem holds elements of elem bytes; offset and count are in elements. */
static cl_int check_buffer(const char *fn, const clscan_plan *plan, cl_mem mem, const char *what,
                           size_t elem, int written, size_t offset, size_t count, buffer_place *place)
{
    cl_context context;
    cl_mem_object_type type;
    cl_mem_flags flags;
    cl_mem parent = NULL;
    if (!mem)
        return clscan_fail(CL_INVALID_MEM_OBJECT, "%s: %s is NULL", fn, what);
    if (clGetMemObjectInfo(mem, CL_MEM_CONTEXT, sizeof context, &context, NULL) != CL_SUCCESS ||
        clGetMemObjectInfo(mem, CL_MEM_TYPE, sizeof type, &type, NULL) != CL_SUCCESS ||
        clGetMemObjectInfo(mem, CL_MEM_FLAGS, sizeof flags, &flags, NULL) != CL_SUCCESS ||
        clGetMemObjectInfo(mem, CL_MEM_SIZE, sizeof place->size, &place->size, NULL) != CL_SUCCESS ||
        clGetMemObjectInfo(mem, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof parent, &parent, NULL) != CL_SUCCESS ||
        clGetMemObjectInfo(mem, CL_MEM_OFFSET, sizeof place->offset, &place->offset, NULL) != CL_SUCCESS)
        return clscan_fail(CL_INVALID_MEM_OBJECT, "%s: %s is not a valid memory object", fn, what);
    if (type != CL_MEM_OBJECT_BUFFER)
        return clscan_fail(CL_INVALID_MEM_OBJECT, "%s: %s is not a buffer", fn, what);
    if (context != plan->context)
        return clscan_fail(CL_INVALID_CONTEXT, "%s: %s belongs to another context than the plan", fn, what);
    if (!written && (flags & CL_MEM_WRITE_ONLY))
        return clscan_fail(CL_INVALID_MEM_OBJECT, "%s: %s was created CL_MEM_WRITE_ONLY", fn, what);
    if (written && (flags & CL_MEM_READ_ONLY))
        return clscan_fail(CL_INVALID_MEM_OBJECT, "%s: %s was created CL_MEM_READ_ONLY", fn, what);
    const size_t elements = place->size / elem;
    if (offset > elements || count > elements - offset)
        return clscan_fail(CLSCAN_RANGE_OUT_OF_BOUNDS, "%s: %s holds %zu elements of %zu "
                           "bytes; elements %zu + %zu are past its end", fn, what, elements,
                           elem, offset, count);
    place->root = parent ? parent : mem;
    return CL_SUCCESS;
}

/* src == dst at the same place scans in place; any other overlap is refused. */
static cl_int check_overlap(const char *fn, const clscan_plan *plan, const buffer_place *s, size_t src_offset,
                            const buffer_place *d, size_t dst_offset, size_t count)
{
    if (s->root != d->root)
        return CL_SUCCESS;
    const size_t e = plan->element_size, bytes = count * e;
    const size_t a = s->offset + src_offset * e, b = d->offset + dst_offset * e;
    if (a == b || a + bytes <= b || b + bytes <= a)
        return CL_SUCCESS;
    return clscan_fail(CL_MEM_COPY_OVERLAP, "%s: source and destination ranges overlap "
                       "without being the same (scan in place with equal offsets)", fn);
}

/* Heads or keys must not share memory with dst: they are read while dst is written. */
static cl_int check_apart(const char *fn, const char *what, const buffer_place *r, size_t r_begin,
                          size_t r_bytes, const buffer_place *d, size_t d_begin, size_t d_bytes)
{
    if (r->root != d->root)
        return CL_SUCCESS;
    const size_t a = r->offset + r_begin, b = d->offset + d_begin;
    if (a + r_bytes <= b || b + d_bytes <= a)
        return CL_SUCCESS;
    return clscan_fail(CL_MEM_COPY_OVERLAP, "%s: the ranges of %s and dst overlap", fn, what);
}

/* ---- Scratch memory, one buffer per queue ------------------------------------------------ */

static void release_slot(clscan_scratch *s)
{
    if (s->buffer) clReleaseMemObject(s->buffer);
    if (s->status) clReleaseMemObject(s->status);
    if (s->values) clReleaseMemObject(s->values);
    if (s->flags) clReleaseMemObject(s->flags);
    if (s->last_use) clReleaseEvent(s->last_use);
    if (s->queue) clReleaseCommandQueue(s->queue);
    memset(s, 0, sizeof *s);
}

void clscan_release_scratch(clscan_plan *plan)
{
    for (int i = 0; i < CLSCAN_MAX_SCRATCH; ++i)
        release_slot(&plan->scratch[i]);
}

/* The queue's scratch slot; called with the plan's lock held.  Releasing a buffer is safe while
 * kernels still use it: OpenCL frees it after they finish. */
static clscan_scratch *get_slot(clscan_plan *plan, cl_command_queue queue)
{
    clscan_scratch *slot = NULL, *oldest = &plan->scratch[0];
    for (int i = 0; i < CLSCAN_MAX_SCRATCH && !slot; ++i) {
        if (plan->scratch[i].queue == queue)
            slot = &plan->scratch[i];
        else if (plan->scratch[i].stamp < oldest->stamp)
            oldest = &plan->scratch[i];
    }
    if (!slot) {
        slot = oldest;
        release_slot(slot);
        clRetainCommandQueue(queue);
        slot->queue = queue;
    }
    slot->stamp = ++plan->clock;
    return slot;
}

static cl_int new_buffer(clscan_plan *plan, size_t bytes, cl_mem *buffer)
{
    cl_int err;
    cl_mem b = clCreateBuffer(plan->context, CL_MEM_READ_WRITE, bytes, NULL, &err);
    if (err != CL_SUCCESS)
        return clscan_fail(err, "clscan_enqueue: cannot allocate %zu bytes of scratch memory: %s",
                           bytes, clscan_error_string(err));
    if (*buffer)
        clReleaseMemObject(*buffer);
    *buffer = b;
    return CL_SUCCESS;
}

/* ---- Launching ------------------------------------------------------------------------- */

/* Kernels are chained with events only on out-of-order queues; an in-order queue orders them. */
typedef struct chain {
    cl_command_queue queue;
    int out_of_order;
    cl_uint nwait;
    const cl_event *wait;
    cl_event extra[2];      /* our own events to wait on (released after use) */
    cl_uint nextra;
    cl_event last;          /* the event of the last launch, when the caller or chain needs it */
} chain;

/* The wait list of the next command: the caller's list for the first one, then our own events
 * (the scratch's last use, the command before). *heap is set when the list was allocated. */
static cl_int chain_wait_list(chain *c, cl_event *buf, cl_uint cap, cl_event **list, cl_uint *n,
                              cl_event **heap)
{
    *heap = NULL;
    *list = NULL;
    *n = c->nwait + c->nextra;
    if (*n == 0)
        return CL_SUCCESS;
    *list = *n <= cap ? buf : (*heap = malloc(*n * sizeof **heap));
    if (!*list)
        return clscan_fail(CL_OUT_OF_HOST_MEMORY, "out of host memory");
    for (cl_uint i = 0; i < c->nwait; ++i)
        (*list)[i] = c->wait[i];
    for (cl_uint i = 0; i < c->nextra; ++i)
        (*list)[c->nwait + i] = c->extra[i];
    return CL_SUCCESS;
}

/* After a command was enqueued with event ev (NULL if none was asked for). */
static void chain_advance(chain *c, cl_event ev)
{
    for (cl_uint i = 0; i < c->nextra; ++i)
        clReleaseEvent(c->extra[i]);
    c->nextra = 0;
    c->nwait = 0;
    c->wait = NULL;
    if (c->last)
        clReleaseEvent(c->last);
    c->last = ev;
    if (ev && c->out_of_order) {
        clRetainEvent(ev);
        c->extra[c->nextra++] = ev;
    }
}

static cl_int launch(chain *c, cl_kernel kernel, size_t wg, size_t tiles, int want_event)
{
    const size_t global = tiles * wg, local = wg;
    cl_event buf[64], *wait, *heap, ev = NULL;
    cl_uint nwait;
    cl_int err = chain_wait_list(c, buf, 64, &wait, &nwait, &heap);
    if (err != CL_SUCCESS)
        return err;
    err = clEnqueueNDRangeKernel(c->queue, kernel, 1, NULL, &global, &local, nwait, wait,
                                 (want_event || c->out_of_order) ? &ev : NULL);
    free(heap);
    if (err != CL_SUCCESS)
        return clscan_fail(err, "clEnqueueNDRangeKernel failed: %s", clscan_error_string(err));
    chain_advance(c, ev);
    return CL_SUCCESS;
}

/* Zeroes a buffer in the chain (fresh single-pass status words). */
static cl_int zero_fill(chain *c, cl_mem buffer, size_t bytes)
{
    const cl_uint zero = 0;
    cl_event buf[64], *wait, *heap, ev = NULL;
    cl_uint nwait;
    cl_int err = chain_wait_list(c, buf, 64, &wait, &nwait, &heap);
    if (err != CL_SUCCESS)
        return err;
    err = clEnqueueFillBuffer(c->queue, buffer, &zero, sizeof zero, 0, bytes, nwait, wait,
                              c->out_of_order ? &ev : NULL);
    free(heap);
    if (err != CL_SUCCESS)
        return clscan_fail(err, "clEnqueueFillBuffer failed: %s", clscan_error_string(err));
    chain_advance(c, ev);
    return CL_SUCCESS;
}

static size_t ceil_div(size_t a, size_t b) { return a / b + (a % b != 0); }

#define ARG(k, i, v) (err == CL_SUCCESS ? (err = clSetKernelArg((k), (i), sizeof(v), &(v))) : err)
#define ARGS_FAILED(err) clscan_fail((err), "clSetKernelArg failed: %s", clscan_error_string(err))

/* What a scan launches: the plain program, or a segmented one with where its heads come from. */
typedef struct scan_job {
    const clscan_kernels *k;         /* the data's kernels */
    const clscan_kernels *levels;    /* the levels of tile totals' (segmented: the heads program) */
    size_t wg, tile;
    size_t total_bytes;      /* bytes per tile total in reduce-then-scan scratch (a value) */
    size_t pair_bytes;       /* bytes per tile value of the single pass (segmented: a pair) */
    int segmented;
    /* Segmented: heads (uchar) at heads_offset, or keys at keys_offset (the program decides;
     * the other buffer is only a placeholder). */
    cl_mem heads, keys;
    cl_ulong heads_offset, keys_offset;
} scan_job;

/* Sets a segmented kernel's source arguments from index i: heads, keys and their offsets. */
static cl_int seg_args(const scan_job *j, cl_kernel k, cl_uint i, cl_mem heads, cl_ulong heads_offset,
                       cl_mem keys, cl_ulong keys_offset)
{
    cl_int err = CL_SUCCESS;
    if (!j->segmented)
        return err;
    ARG(k, i, heads); ARG(k, i + 1, heads_offset); ARG(k, i + 2, keys); ARG(k, i + 3, keys_offset);
    return err;
}

/* The data's own source arguments (level 0). */
static cl_int data_args(const scan_job *j, cl_kernel k, cl_uint i)
{
    return seg_args(j, k, i, j->heads, j->heads_offset, j->keys, j->keys_offset);
}

/* One tile: one launch, no scratch. */
static cl_int scan_one_tile(const scan_job *j, chain *c, cl_mem src, cl_ulong src_offset, cl_mem dst,
                            cl_ulong dst_offset, cl_ulong count, int want_event)
{
    const cl_ulong none = 0;
    const cl_uint no = 0;
    cl_int err = CL_SUCCESS;
    cl_kernel k = j->k->scan_tiles;
    ARG(k, 0, src); ARG(k, 1, src_offset); ARG(k, 2, dst); ARG(k, 3, dst_offset); ARG(k, 4, count);
    ARG(k, 5, dst); ARG(k, 6, none); ARG(k, 7, no);   /* no carries: any buffer will do */
    if (err == CL_SUCCESS)
        err = data_args(j, k, 8);
    return err != CL_SUCCESS ? ARGS_FAILED(err) : launch(c, k, j->wg, 1, want_event);
}

static cl_int reduce_then_scan(clscan_plan *plan, const scan_job *j, chain *c, clscan_scratch *slot,
                               cl_mem src, cl_ulong src_offset, cl_mem dst, cl_ulong dst_offset,
                               size_t count, int want_event)
{
    const size_t tile = j->tile;
    /* Sizes and scratch offsets (in elements) of the levels of tile totals. */
    size_t n[MAX_LEVELS], off[MAX_LEVELS], total = 0;
    int levels = 0;   /* levels of totals above the data */
    n[0] = count;
    while (n[levels] > tile) {   /* tile >= 2: at most log2(count) levels */
        n[levels + 1] = ceil_div(n[levels], tile);
        off[levels + 1] = total;
        total += n[levels + 1];
        ++levels;
    }
    cl_int err = CL_SUCCESS;
    if (slot->bytes < total * j->total_bytes) {
        if ((err = new_buffer(plan, total * j->total_bytes, &slot->buffer)) != CL_SUCCESS)
            return err;
        slot->bytes = total * j->total_bytes;
    }
    if (j->segmented && slot->flags_bytes < total) {
        if ((err = new_buffer(plan, total, &slot->flags)) != CL_SUCCESS)
            return err;
        slot->flags_bytes = total;
    }
    const cl_mem scratch = slot->buffer, flags = j->segmented ? slot->flags : slot->buffer;
    const cl_uint yes = 1, no = 0;

    /* Up: tile totals of each level into the next (segmented: with the flags of the tiles). */
    for (int l = 0; l < levels && err == CL_SUCCESS; ++l) {
        const cl_mem in = l == 0 ? src : scratch;
        const cl_ulong in_off = l == 0 ? src_offset : off[l], in_n = n[l], out_off = off[l + 1];
        cl_kernel k = l == 0 ? j->k->reduce : j->levels->reduce;
        ARG(k, 0, in); ARG(k, 1, in_off); ARG(k, 2, in_n); ARG(k, 3, scratch); ARG(k, 4, out_off);
        if (err == CL_SUCCESS)
            err = l == 0 ? data_args(j, k, 5) : seg_args(j, k, 5, flags, in_off, flags, 0);
        if (j->segmented)
            ARG(k, 9, flags);
        err = err != CL_SUCCESS ? ARGS_FAILED(err) : launch(c, k, j->wg, n[l + 1], 0);
    }
    /* Down: each level of totals in place, the top one without carries. */
    for (int l = levels; l >= 1 && err == CL_SUCCESS; --l) {
        const cl_ulong o = off[l], nl = n[l], carry_off = l < levels ? off[l + 1] : 0;
        const cl_uint use = l < levels ? yes : no;
        cl_kernel k = j->levels->scan_tiles_inclusive;
        ARG(k, 0, scratch); ARG(k, 1, o); ARG(k, 2, nl); ARG(k, 3, scratch); ARG(k, 4, carry_off);
        ARG(k, 5, use);
        if (err == CL_SUCCESS)
            err = seg_args(j, k, 6, flags, o, flags, 0);
        err = err != CL_SUCCESS ? ARGS_FAILED(err) : launch(c, k, j->wg, ceil_div(n[l], tile), 0);
    }
    /* Last: the data, with the carries of level 1. */
    if (err == CL_SUCCESS) {
        const cl_ulong cnt = count, carry_off = off[1];
        cl_kernel k = j->k->scan_tiles;
        ARG(k, 0, src); ARG(k, 1, src_offset); ARG(k, 2, dst); ARG(k, 3, dst_offset); ARG(k, 4, cnt);
        ARG(k, 5, scratch); ARG(k, 6, carry_off); ARG(k, 7, yes);
        if (err == CL_SUCCESS)
            err = data_args(j, k, 8);
        err = err != CL_SUCCESS ? ARGS_FAILED(err) : launch(c, k, j->wg, ceil_div(count, tile), want_event);
    }
    return err;
}

/* Status words are tagged with an epoch of 30 bits; at its end they are cleared again. */
#define EPOCH_LIMIT (1u << 30)
/* Room per tile for the largest status layout (16-byte packed words), and for the ticket
 * counter in front of them. */
#define STATUS_BYTES 16

static cl_int single_pass(clscan_plan *plan, const scan_job *j, chain *c, clscan_scratch *slot,
                          cl_mem src, cl_ulong src_offset, cl_mem dst, cl_ulong dst_offset,
                          size_t count, int want_event)
{
    const size_t tile = j->tile, tiles = ceil_div(count, tile);
    cl_int err = CL_SUCCESS;
    if (tiles >= (size_t)1 << 31)
        return clscan_fail(CL_INVALID_BUFFER_SIZE, "clscan_enqueue: %zu tiles are too many for the "
                           "single-pass scan; use CLSCAN_ALGORITHM_REDUCE_THEN_SCAN", tiles);
    /* Status words: 16 bytes per tile (and the ticket counter), for every layout. */
    const int packed = j->segmented ? 0 : clscan_plan_packed_status(plan);
    if (slot->tiles < tiles) {
        if ((err = new_buffer(plan, (1 + tiles) * STATUS_BYTES, &slot->status)) != CL_SUCCESS) {
            slot->tiles = 0;
            return err;
        }
        slot->tiles = tiles;
        slot->epoch = 0;   /* clear below */
    }
    /* Values for every tile the status words have room for. */
    if (slot->values_bytes < 2 * slot->tiles * j->pair_bytes) {
        if ((err = new_buffer(plan, 2 * slot->tiles * j->pair_bytes, &slot->values)) != CL_SUCCESS) {
            slot->values_bytes = 0;
            return err;
        }
        slot->values_bytes = 2 * slot->tiles * j->pair_bytes;
    }
    /* Cleared at the first scan, at the end of the epochs, and when the layout changes (the
     * other layout's words could hold anything where this one's status words are). */
    if (slot->epoch == 0 || slot->epoch >= EPOCH_LIMIT || slot->packed != packed) {
        if ((err = zero_fill(c, slot->status, (1 + slot->tiles) * STATUS_BYTES)) != CL_SUCCESS)
            return err;
        slot->epoch = 1;
        slot->tickets = 0;
        slot->packed = packed;
    }
    const cl_ulong cnt = count, capacity = slot->tiles;
    const cl_uint base = slot->tickets, epoch = slot->epoch;
    cl_kernel k = j->k->single_pass;
    ARG(k, 0, src); ARG(k, 1, src_offset); ARG(k, 2, dst); ARG(k, 3, dst_offset); ARG(k, 4, cnt);
    ARG(k, 5, slot->status); ARG(k, 6, slot->values); ARG(k, 7, capacity); ARG(k, 8, base);
    ARG(k, 9, epoch);
    if (err == CL_SUCCESS)
        err = data_args(j, k, 10);
    err = err != CL_SUCCESS ? ARGS_FAILED(err) : launch(c, k, j->wg, tiles, want_event);
    if (err == CL_SUCCESS) {
        slot->tickets += (cl_uint)tiles;
        slot->epoch += 1;
    }
    return err;
}

/* Called with the plan's lock held (kernel arguments and scratch are shared state). */
static cl_int enqueue_locked(clscan_plan *plan, const scan_job *j, cl_command_queue queue, cl_mem src,
                             size_t src_offset, cl_mem dst, size_t dst_offset, size_t count,
                             cl_uint nwait, const cl_event *wait, cl_event *event)
{
    cl_command_queue_properties props = 0;
    clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES, sizeof props, &props, NULL);
    chain c = {queue, (props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) != 0, nwait, wait, {0}, 0, NULL};
    cl_int err;

    if (count <= j->tile) {
        err = scan_one_tile(j, &c, src, src_offset, dst, dst_offset, count, event != NULL);
    } else {
        clscan_scratch *slot = get_slot(plan, queue);
        if (c.out_of_order && slot->last_use) {
            c.extra[c.nextra++] = slot->last_use;   /* the chain releases it */
            slot->last_use = NULL;
        }
        if (clscan_plan_algorithm_for(plan, j->segmented) == CLSCAN_ALGORITHM_SINGLE_PASS)
            err = single_pass(plan, j, &c, slot, src, src_offset, dst, dst_offset, count, event != NULL);
        else
            err = reduce_then_scan(plan, j, &c, slot, src, src_offset, dst, dst_offset, count, event != NULL);
        /* On an out-of-order queue the next scan must not touch the scratch before this one is
         * done. */
        if (err == CL_SUCCESS && c.out_of_order && c.last) {
            clRetainEvent(c.last);
            slot->last_use = c.last;
        }
    }
    for (cl_uint i = 0; i < c.nextra; ++i)
        clReleaseEvent(c.extra[i]);
    if (err == CL_SUCCESS && event)
        *event = c.last;
    else if (c.last)
        clReleaseEvent(c.last);
    return err;
}

/* The checks every scan starts with; *done when count is 0 (then *event, if asked for, is a
 * marker after the wait list). */
static cl_int check_common(const char *fn, clscan_plan *plan, cl_command_queue queue, size_t count,
                           cl_uint nwait, const cl_event *wait, cl_event *event, int *done)
{
    cl_int err;
    *done = 0;
    if (!plan)
        return clscan_fail(CLSCAN_INVALID_PLAN, "%s: plan is NULL", fn);
    if ((err = check_queue(fn, plan, queue)) != CL_SUCCESS ||
        (err = check_wait_list(fn, plan, nwait, wait)) != CL_SUCCESS)
        return err;
    if (count == 0) {
        /* Nothing to scan (and OpenCL has no empty buffers): the event completes after the list. */
        *done = 1;
        if (!event)
            return CL_SUCCESS;
        err = clEnqueueMarkerWithWaitList(queue, nwait, wait, event);
        return err == CL_SUCCESS ? err : clscan_fail(err, "clEnqueueMarkerWithWaitList failed: %s",
                                                     clscan_error_string(err));
    }
    return CL_SUCCESS;
}

CLSCAN_API cl_int clscan_enqueue(clscan_plan *plan, cl_command_queue queue,
                                 cl_mem src, size_t src_offset, cl_mem dst, size_t dst_offset, size_t count,
                                 cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
{
    static const char fn[] = "clscan_enqueue";
    cl_int err;
    int done;
    buffer_place s, d;
    if ((err = check_common(fn, plan, queue, count, num_events_in_wait_list, event_wait_list, event,
                            &done)) != CL_SUCCESS || done)
        return err;
    if ((err = check_buffer(fn, plan, src, "src", plan->element_size, 0, src_offset, count, &s)) != CL_SUCCESS ||
        (err = check_buffer(fn, plan, dst, "dst", plan->element_size, 1, dst_offset, count, &d)) != CL_SUCCESS ||
        (err = check_overlap(fn, plan, &s, src_offset, &d, dst_offset, count)) != CL_SUCCESS)
        return err;

    pthread_mutex_lock(&plan->lock);
    const scan_job j = {&plan->kernels, &plan->kernels, plan->work_group_size,
                        plan->work_group_size * plan->items, plan->element_size, plan->element_size, 0,
                        NULL, NULL, 0, 0};
    err = enqueue_locked(plan, &j, queue, src, src_offset, dst, dst_offset, count,
                         num_events_in_wait_list, event_wait_list, event);
    pthread_mutex_unlock(&plan->lock);
    return err;
}

/* Segmented scans and scans by key: the data through the segmented program `which`, the levels
 * of tile totals through the heads program (the same one for segmented scans). */
static cl_int enqueue_segmented(clscan_plan *plan, int which, cl_command_queue queue,
                                cl_mem src, size_t src_offset, cl_mem heads, size_t heads_offset,
                                cl_mem keys, size_t keys_offset, cl_mem dst, size_t dst_offset,
                                size_t count, cl_uint nwait, const cl_event *wait, cl_event *event)
{
    pthread_mutex_lock(&plan->lock);
    const clscan_segmented_kernels *data, *levels;
    cl_int err = clscan_segmented_get(plan, which, &data);
    if (err == CL_SUCCESS)
        err = clscan_segmented_get(plan, CLSCAN_SEG_HEADS, &levels);
    if (err == CL_SUCCESS) {
        const scan_job j = {&data->kernels, &levels->kernels, data->wg,
                            data->wg * data->items, plan->element_size, plan->pair_bound, 1,
                            heads, keys, heads_offset, keys_offset};
        err = enqueue_locked(plan, &j, queue, src, src_offset, dst, dst_offset, count, nwait, wait, event);
    }
    pthread_mutex_unlock(&plan->lock);
    return err;
}

CLSCAN_API cl_int clscan_enqueue_segmented(clscan_plan *plan, cl_command_queue queue,
                                           cl_mem src, size_t src_offset, cl_mem heads, size_t heads_offset,
                                           cl_mem dst, size_t dst_offset, size_t count,
                                           cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                           cl_event *event)
{
    static const char fn[] = "clscan_enqueue_segmented";
    cl_int err;
    int done;
    buffer_place s, h, d;
    if ((err = check_common(fn, plan, queue, count, num_events_in_wait_list, event_wait_list, event,
                            &done)) != CL_SUCCESS || done)
        return err;
    const size_t e = plan->element_size;
    if ((err = check_buffer(fn, plan, src, "src", e, 0, src_offset, count, &s)) != CL_SUCCESS ||
        (err = check_buffer(fn, plan, heads, "heads", 1, 0, heads_offset, count, &h)) != CL_SUCCESS ||
        (err = check_buffer(fn, plan, dst, "dst", e, 1, dst_offset, count, &d)) != CL_SUCCESS ||
        (err = check_overlap(fn, plan, &s, src_offset, &d, dst_offset, count)) != CL_SUCCESS ||
        (err = check_apart(fn, "heads", &h, heads_offset, count, &d, dst_offset * e, count * e)) != CL_SUCCESS)
        return err;
    /* keys: unused, any buffer will do. */
    return enqueue_segmented(plan, CLSCAN_SEG_HEADS, queue, src, src_offset, heads, heads_offset,
                             heads, 0, dst, dst_offset, count, num_events_in_wait_list,
                             event_wait_list, event);
}

CLSCAN_API cl_int clscan_enqueue_by_key(clscan_plan *plan, cl_command_queue queue, clscan_type key_type,
                                        cl_mem keys, size_t keys_offset, cl_mem src, size_t src_offset,
                                        cl_mem dst, size_t dst_offset, size_t count,
                                        cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                        cl_event *event)
{
    static const char fn[] = "clscan_enqueue_by_key";
    cl_int err;
    int done;
    buffer_place s, k, d;
    if (plan && key_type != CLSCAN_INT32 && key_type != CLSCAN_UINT32 && key_type != CLSCAN_INT64 &&
        key_type != CLSCAN_UINT64)
        return clscan_fail(CLSCAN_INVALID_TYPE, "%s: key_type %d is not an integer clscan_type", fn,
                           (int)key_type);
    if ((err = check_common(fn, plan, queue, count, num_events_in_wait_list, event_wait_list, event,
                            &done)) != CL_SUCCESS || done)
        return err;
    const size_t e = plan->element_size;
    const int wide = key_type == CLSCAN_INT64 || key_type == CLSCAN_UINT64;
    const size_t ke = wide ? 8 : 4;
    if ((err = check_buffer(fn, plan, src, "src", e, 0, src_offset, count, &s)) != CL_SUCCESS ||
        (err = check_buffer(fn, plan, keys, "keys", ke, 0, keys_offset, count, &k)) != CL_SUCCESS ||
        (err = check_buffer(fn, plan, dst, "dst", e, 1, dst_offset, count, &d)) != CL_SUCCESS ||
        (err = check_overlap(fn, plan, &s, src_offset, &d, dst_offset, count)) != CL_SUCCESS ||
        (err = check_apart(fn, "keys", &k, keys_offset * ke, count * ke, &d, dst_offset * e, count * e)) != CL_SUCCESS)
        return err;
    /* heads: unused, any buffer will do. */
    return enqueue_segmented(plan, wide ? CLSCAN_SEG_KEYS_64 : CLSCAN_SEG_KEYS_32, queue, src, src_offset,
                             keys, 0, keys, keys_offset, dst, dst_offset, count,
                             num_events_in_wait_list, event_wait_list, event);
}
