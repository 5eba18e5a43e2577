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

static cl_int check_queue(const clscan_plan *plan, cl_command_queue queue)
{
    cl_context context;
    cl_device_id device;
    if (!queue)
        return clscan_fail(CL_INVALID_COMMAND_QUEUE, "clscan_enqueue: queue is NULL");
    if (clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof context, &context, NULL) != CL_SUCCESS ||
        clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof device, &device, NULL) != CL_SUCCESS)
        return clscan_fail(CL_INVALID_COMMAND_QUEUE, "clscan_enqueue: not a valid command queue");
    if (context != plan->context)
        return clscan_fail(CL_INVALID_CONTEXT, "clscan_enqueue: the queue belongs to another context than the plan");
    if (device != plan->device)
        return clscan_fail(CL_INVALID_DEVICE, "clscan_enqueue: the queue is for another device than the plan");
    return CL_SUCCESS;
}

static cl_int check_wait_list(const clscan_plan *plan, cl_uint n, const cl_event *list)
{
    if ((n > 0) != (list != NULL))
        return clscan_fail(CL_INVALID_EVENT_WAIT_LIST, "clscan_enqueue: %u events in the wait list, "
                           "but the list is %s", n, list ? "not NULL" : "NULL");
    for (cl_uint i = 0; i < n; ++i) {
        cl_context context;
        if (!list[i] || clGetEventInfo(list[i], CL_EVENT_CONTEXT, sizeof context, &context, NULL) != CL_SUCCESS)
            return clscan_fail(CL_INVALID_EVENT_WAIT_LIST, "clscan_enqueue: wait list entry %u is not a valid event", i);
        if (context != plan->context)
            return clscan_fail(CL_INVALID_CONTEXT, "clscan_enqueue: wait list entry %u belongs to another context", i);
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

static cl_int check_buffer(const clscan_plan *plan, cl_mem mem, const char *what, int written,
                           size_t offset, size_t count, buffer_place *place)
{
    cl_context context;
    cl_mem_object_type type;
    cl_mem_flags flags;
    cl_mem parent = NULL;
    if (!mem)
        return clscan_fail(CL_INVALID_MEM_OBJECT, "clscan_enqueue: %s is NULL", what);
    if (clGetMemObjectInfo(mem, CL_MEM_CONTEXT, sizeof context, &context, NULL) != CL_SUCCESS ||
        clGetMemObjectInfo(mem, CL_MEM_TYPE, sizeof type, &type, NULL) != CL_SUCCESS ||
        clGetMemObjectInfo(mem, CL_MEM_FLAGS, sizeof flags, &flags, NULL) != CL_SUCCESS ||
        clGetMemObjectInfo(mem, CL_MEM_SIZE, sizeof place->size, &place->size, NULL) != CL_SUCCESS ||
        clGetMemObjectInfo(mem, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof parent, &parent, NULL) != CL_SUCCESS ||
        clGetMemObjectInfo(mem, CL_MEM_OFFSET, sizeof place->offset, &place->offset, NULL) != CL_SUCCESS)
        return clscan_fail(CL_INVALID_MEM_OBJECT, "clscan_enqueue: %s is not a valid memory object", what);
    if (type != CL_MEM_OBJECT_BUFFER)
        return clscan_fail(CL_INVALID_MEM_OBJECT, "clscan_enqueue: %s is not a buffer", what);
    if (context != plan->context)
        return clscan_fail(CL_INVALID_CONTEXT, "clscan_enqueue: %s belongs to another context than the plan", what);
    if (!written && (flags & CL_MEM_WRITE_ONLY))
        return clscan_fail(CL_INVALID_MEM_OBJECT, "clscan_enqueue: %s was created CL_MEM_WRITE_ONLY", what);
    if (written && (flags & CL_MEM_READ_ONLY))
        return clscan_fail(CL_INVALID_MEM_OBJECT, "clscan_enqueue: %s was created CL_MEM_READ_ONLY", what);
    const size_t elements = place->size / plan->element_size;
    if (offset > elements || count > elements - offset)
        return clscan_fail(CLSCAN_RANGE_OUT_OF_BOUNDS, "clscan_enqueue: %s holds %zu elements of %zu "
                           "bytes; elements %zu + %zu are past its end", what, elements,
                           plan->element_size, offset, count);
    place->root = parent ? parent : mem;
    return CL_SUCCESS;
}

/* src == dst at the same place scans in place; any other overlap is refused. */
static cl_int check_overlap(const clscan_plan *plan, const buffer_place *s, size_t src_offset,
                            const buffer_place *d, size_t dst_offset, size_t count)
{
    if (s->root != d->root)
        return CL_SUCCESS;
    const size_t e = plan->element_size, bytes = count * e;
    const size_t a = s->offset + src_offset * e, b = d->offset + dst_offset * e;
    if (a == b || a + bytes <= b || b + bytes <= a)
        return CL_SUCCESS;
    return clscan_fail(CL_MEM_COPY_OVERLAP, "clscan_enqueue: source and destination ranges overlap "
                       "without being the same (scan in place with equal offsets)");
}

/* ---- Scratch memory, one buffer per queue ------------------------------------------------ */

static void release_slot(clscan_scratch *s)
{
    if (s->buffer) clReleaseMemObject(s->buffer);
    if (s->status) clReleaseMemObject(s->status);
    if (s->values) clReleaseMemObject(s->values);
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

static cl_int launch(clscan_plan *plan, chain *c, cl_kernel kernel, size_t tiles, int want_event)
{
    const size_t global = tiles * plan->work_group_size, local = plan->work_group_size;
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

/* One tile: one launch, no scratch. */
static cl_int scan_one_tile(clscan_plan *plan, chain *c, cl_mem src, cl_ulong src_offset, cl_mem dst,
                            cl_ulong dst_offset, cl_ulong count, int want_event)
{
    const cl_ulong none = 0;
    const cl_uint no = 0;
    cl_int err = CL_SUCCESS;
    cl_kernel k = plan->kernels.scan_tiles;
    ARG(k, 0, src); ARG(k, 1, src_offset); ARG(k, 2, dst); ARG(k, 3, dst_offset); ARG(k, 4, count);
    ARG(k, 5, dst); ARG(k, 6, none); ARG(k, 7, no);   /* no carries: any buffer will do */
    return err != CL_SUCCESS ? ARGS_FAILED(err) : launch(plan, c, k, 1, want_event);
}

static cl_int reduce_then_scan(clscan_plan *plan, chain *c, clscan_scratch *slot, cl_mem src,
                               cl_ulong src_offset, cl_mem dst, cl_ulong dst_offset, size_t count,
                               int want_event)
{
    const size_t tile = plan->work_group_size * plan->items;
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
    if (slot->bytes < total * plan->element_size) {
        if ((err = new_buffer(plan, total * plan->element_size, &slot->buffer)) != CL_SUCCESS)
            return err;
        slot->bytes = total * plan->element_size;
    }
    const cl_mem scratch = slot->buffer;
    const cl_uint yes = 1, no = 0;

    /* Up: tile totals of each level into the next. */
    for (int l = 0; l < levels && err == CL_SUCCESS; ++l) {
        const cl_mem in = l == 0 ? src : scratch;
        const cl_ulong in_off = l == 0 ? src_offset : off[l], in_n = n[l], out_off = off[l + 1];
        cl_kernel k = plan->kernels.reduce;
        ARG(k, 0, in); ARG(k, 1, in_off); ARG(k, 2, in_n); ARG(k, 3, scratch); ARG(k, 4, out_off);
        err = err != CL_SUCCESS ? ARGS_FAILED(err) : launch(plan, c, k, n[l + 1], 0);
    }
    /* Down: each level of totals in place, the top one without carries. */
    for (int l = levels; l >= 1 && err == CL_SUCCESS; --l) {
        const cl_ulong o = off[l], nl = n[l], carry_off = l < levels ? off[l + 1] : 0;
        const cl_uint use = l < levels ? yes : no;
        cl_kernel k = plan->kernels.scan_tiles_inclusive;
        ARG(k, 0, scratch); ARG(k, 1, o); ARG(k, 2, nl); ARG(k, 3, scratch); ARG(k, 4, carry_off);
        ARG(k, 5, use);
        err = err != CL_SUCCESS ? ARGS_FAILED(err) : launch(plan, c, k, ceil_div(n[l], tile), 0);
    }
    /* Last: the data, with the carries of level 1. */
    if (err == CL_SUCCESS) {
        const cl_ulong cnt = count, carry_off = off[1];
        cl_kernel k = plan->kernels.scan_tiles;
        ARG(k, 0, src); ARG(k, 1, src_offset); ARG(k, 2, dst); ARG(k, 3, dst_offset); ARG(k, 4, cnt);
        ARG(k, 5, scratch); ARG(k, 6, carry_off); ARG(k, 7, yes);
        err = err != CL_SUCCESS ? ARGS_FAILED(err) : launch(plan, c, k, ceil_div(count, tile), want_event);
    }
    return err;
}

/* Status words are tagged with an epoch of 30 bits; at its end they are cleared again. */
#define EPOCH_LIMIT (1u << 30)

static cl_int single_pass(clscan_plan *plan, chain *c, clscan_scratch *slot, cl_mem src,
                          cl_ulong src_offset, cl_mem dst, cl_ulong dst_offset, size_t count,
                          int want_event)
{
    const size_t tile = plan->work_group_size * plan->items, tiles = ceil_div(count, tile);
    cl_int err = CL_SUCCESS;
    if (tiles >= (size_t)1 << 31)
        return clscan_fail(CL_INVALID_BUFFER_SIZE, "clscan_enqueue: %zu tiles are too many for the "
                           "single-pass scan; use CLSCAN_ALGORITHM_REDUCE_THEN_SCAN", tiles);
    if (slot->tiles < tiles) {
        if ((err = new_buffer(plan, (1 + tiles) * sizeof(cl_uint), &slot->status)) != CL_SUCCESS ||
            (err = new_buffer(plan, 2 * tiles * plan->element_size, &slot->values)) != CL_SUCCESS) {
            slot->tiles = 0;
            return err;
        }
        slot->tiles = tiles;
        slot->epoch = 0;   /* clear below */
    }
    if (slot->epoch == 0 || slot->epoch >= EPOCH_LIMIT) {
        if ((err = zero_fill(c, slot->status, (1 + slot->tiles) * sizeof(cl_uint))) != CL_SUCCESS)
            return err;
        slot->epoch = 1;
        slot->tickets = 0;
    }
    const cl_ulong cnt = count, capacity = slot->tiles;
    const cl_uint base = slot->tickets, epoch = slot->epoch;
    cl_kernel k = plan->kernels.single_pass;
    ARG(k, 0, src); ARG(k, 1, src_offset); ARG(k, 2, dst); ARG(k, 3, dst_offset); ARG(k, 4, cnt);
    ARG(k, 5, slot->status); ARG(k, 6, slot->values); ARG(k, 7, capacity); ARG(k, 8, base);
    ARG(k, 9, epoch);
    err = err != CL_SUCCESS ? ARGS_FAILED(err) : launch(plan, c, k, tiles, want_event);
    if (err == CL_SUCCESS) {
        slot->tickets += (cl_uint)tiles;
        slot->epoch += 1;
    }
    return err;
}

/* Called with the plan's lock held (kernel arguments and scratch are shared state). */
static cl_int enqueue_locked(clscan_plan *plan, cl_command_queue queue, cl_mem src, size_t src_offset,
                             cl_mem dst, size_t dst_offset, size_t count, cl_uint nwait,
                             const cl_event *wait, cl_event *event)
{
    const size_t tile = plan->work_group_size * plan->items;
    cl_command_queue_properties props = 0;
    clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES, sizeof props, &props, NULL);
    chain c = {queue, (props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) != 0, nwait, wait, {0}, 0, NULL};
    cl_int err;

    if (count <= tile) {
        err = scan_one_tile(plan, &c, src, src_offset, dst, dst_offset, count, event != NULL);
    } else {
        clscan_scratch *slot = get_slot(plan, queue);
        if (c.out_of_order && slot->last_use) {
            c.extra[c.nextra++] = slot->last_use;   /* the chain releases it */
            slot->last_use = NULL;
        }
        if (clscan_plan_get_algorithm(plan) == CLSCAN_ALGORITHM_SINGLE_PASS)
            err = single_pass(plan, &c, slot, src, src_offset, dst, dst_offset, count, event != NULL);
        else
            err = reduce_then_scan(plan, &c, slot, src, src_offset, dst, dst_offset, count, event != NULL);
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

CLSCAN_API cl_int clscan_enqueue(clscan_plan *plan, cl_command_queue queue,
                                 cl_mem src, size_t src_offset, cl_mem dst, size_t dst_offset, size_t count,
                                 cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
{
    cl_int err;
    buffer_place s, d;
    if (!plan)
        return clscan_fail(CLSCAN_INVALID_PLAN, "clscan_enqueue: plan is NULL");
    if ((err = check_queue(plan, queue)) != CL_SUCCESS ||
        (err = check_wait_list(plan, num_events_in_wait_list, event_wait_list)) != CL_SUCCESS)
        return err;
    if (count == 0) {
        /* Nothing to scan (and OpenCL has no empty buffers): the event completes after the list. */
        if (!event)
            return CL_SUCCESS;
        err = clEnqueueMarkerWithWaitList(queue, num_events_in_wait_list, event_wait_list, event);
        return err == CL_SUCCESS ? err : clscan_fail(err, "clEnqueueMarkerWithWaitList failed: %s",
                                                     clscan_error_string(err));
    }
    if ((err = check_buffer(plan, src, "src", 0, src_offset, count, &s)) != CL_SUCCESS ||
        (err = check_buffer(plan, dst, "dst", 1, dst_offset, count, &d)) != CL_SUCCESS ||
        (err = check_overlap(plan, &s, src_offset, &d, dst_offset, count)) != CL_SUCCESS)
        return err;

    pthread_mutex_lock(&plan->lock);
    err = enqueue_locked(plan, queue, src, src_offset, dst, dst_offset, count,
                         num_events_in_wait_list, event_wait_list, event);
    pthread_mutex_unlock(&plan->lock);
    return err;
}
