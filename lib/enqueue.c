/* clscan_enqueue: argument checks, then the multi-block scan (reduce-then-scan) as a sequence of
 * kernels on the caller's queue.
 *
 * For count <= tile, one launch of clscan_scan_tiles.  Otherwise, with n[0] = count and
 * n[l+1] = ceil(n[l] / tile) tile totals at level l+1 (kept in the queue's scratch buffer):
 *   clscan_reduce            level 0 (src) -> level 1, level 1 -> level 2, ... up to a level
 *                            that fits one tile;
 *   clscan_scan_tiles_incl.  the top level in place, then each lower level of totals in place
 *                            with its carries from the level above;
 *   clscan_scan_tiles        src -> dst with carries from level 1, of the plan's kind.
 * A carry is applied as comb(carry, x), so the order of comb's arguments holds across tiles
 * and levels.  Only the last kernel writes dst: a failure before it leaves dst untouched. */
#include "internal.h"

#include <string.h>

#define MAX_LEVELS 64

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
    if (s->last_use) clReleaseEvent(s->last_use);
    if (s->queue) clReleaseCommandQueue(s->queue);
    memset(s, 0, sizeof *s);
}

void clscan_release_scratch(clscan_plan *plan)
{
    for (int i = 0; i < CLSCAN_MAX_SCRATCH; ++i)
        release_slot(&plan->scratch[i]);
}

/* The queue's scratch with at least `bytes`; called with the plan's lock held.  Releasing a
 * buffer is safe while kernels still use it: OpenCL frees it after they finish. */
static cl_int get_scratch(clscan_plan *plan, cl_command_queue queue, size_t bytes, clscan_scratch **out)
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
    if (slot->bytes < bytes) {
        cl_int err;
        cl_mem buffer = clCreateBuffer(plan->context, CL_MEM_READ_WRITE, bytes, NULL, &err);
        if (err != CL_SUCCESS)
            return clscan_fail(err, "clscan_enqueue: cannot allocate %zu bytes of scratch memory: %s",
                               bytes, clscan_error_string(err));
        if (slot->buffer)
            clReleaseMemObject(slot->buffer);
        slot->buffer = buffer;
        slot->bytes = bytes;
    }
    *out = slot;
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

static cl_int launch(clscan_plan *plan, chain *c, cl_kernel kernel, size_t tiles, int want_event)
{
    const size_t global = tiles * plan->work_group_size, local = plan->work_group_size;
    /* The first launch waits on the caller's list (and the scratch's last use); later ones on
     * the launch before them. */
    cl_event wait_buf[64], *wait = NULL;
    cl_uint nwait = 0;
    cl_event *heap = NULL;
    if (c->nwait + c->nextra > 0) {
        nwait = c->nwait + c->nextra;
        wait = nwait <= 64 ? wait_buf : (heap = malloc(nwait * sizeof *heap));
        if (!wait)
            return clscan_fail(CL_OUT_OF_HOST_MEMORY, "out of host memory");
        for (cl_uint i = 0; i < c->nwait; ++i)
            wait[i] = c->wait[i];
        for (cl_uint i = 0; i < c->nextra; ++i)
            wait[c->nwait + i] = c->extra[i];
    }
    cl_event ev = NULL;
    cl_int err = clEnqueueNDRangeKernel(c->queue, kernel, 1, NULL, &global, &local, nwait, wait,
                                        (want_event || c->out_of_order) ? &ev : NULL);
    free(heap);
    if (err != CL_SUCCESS)
        return clscan_fail(err, "clEnqueueNDRangeKernel failed: %s", clscan_error_string(err));
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
    return CL_SUCCESS;
}

static size_t ceil_div(size_t a, size_t b) { return a / b + (a % b != 0); }

#define ARG(k, i, v) (err == CL_SUCCESS ? (err = clSetKernelArg((k), (i), sizeof(v), &(v))) : err)

/* Called with the plan's lock held (kernel arguments are shared state). */
static cl_int enqueue_locked(clscan_plan *plan, cl_command_queue queue, cl_mem src, size_t src_offset,
                             cl_mem dst, size_t dst_offset, size_t count, cl_uint nwait,
                             const cl_event *wait, cl_event *event)
{
    const size_t tile = plan->work_group_size * plan->items;
    cl_command_queue_properties props = 0;
    clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES, sizeof props, &props, NULL);
    chain c = {queue, (props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) != 0, nwait, wait, {0}, 0, NULL};
    cl_int err = CL_SUCCESS;

    /* Sizes and scratch offsets (in elements) of the levels of tile totals. */
    size_t n[MAX_LEVELS], off[MAX_LEVELS], total = 0;
    int levels = 0;   /* levels of totals above the data */
    n[0] = count;
    while (n[levels] > tile) {
        n[levels + 1] = ceil_div(n[levels], tile);
        off[levels + 1] = total;
        total += n[levels + 1];
        ++levels;
    }

    cl_mem scratch = NULL;
    if (levels > 0) {
        clscan_scratch *slot = NULL;
        if ((err = get_scratch(plan, queue, total * plan->element_size, &slot)) != CL_SUCCESS)
            return err;
        scratch = slot->buffer;
        if (c.out_of_order && slot->last_use) {
            c.extra[c.nextra++] = slot->last_use;   /* ownership moves to the chain */
            slot->last_use = NULL;
        }
    }
    const cl_uint yes = 1, no = 0;

    /* Up: tile totals of each level into the next. */
    for (int l = 0; l < levels && err == CL_SUCCESS; ++l) {
        const cl_mem in = l == 0 ? src : scratch;
        const cl_ulong in_off = l == 0 ? src_offset : off[l], in_n = n[l], out_off = off[l + 1];
        ARG(plan->reduce, 0, in);
        ARG(plan->reduce, 1, in_off);
        ARG(plan->reduce, 2, in_n);
        ARG(plan->reduce, 3, scratch);
        ARG(plan->reduce, 4, out_off);
        if (err == CL_SUCCESS)
            err = launch(plan, &c, plan->reduce, n[l + 1], 0);
        else
            clscan_fail(err, "clSetKernelArg failed: %s", clscan_error_string(err));
    }
    /* Down: scan each level of totals in place, the top one without carries. */
    for (int l = levels; l >= 1 && err == CL_SUCCESS; --l) {
        const cl_ulong o = off[l], nl = n[l], carry_off = l < levels ? off[l + 1] : 0;
        const cl_uint *use = l < levels ? &yes : &no;
        ARG(plan->scan_tiles_inclusive, 0, scratch);
        ARG(plan->scan_tiles_inclusive, 1, o);
        ARG(plan->scan_tiles_inclusive, 2, nl);
        ARG(plan->scan_tiles_inclusive, 3, scratch);
        ARG(plan->scan_tiles_inclusive, 4, carry_off);
        ARG(plan->scan_tiles_inclusive, 5, *use);
        if (err == CL_SUCCESS)
            err = launch(plan, &c, plan->scan_tiles_inclusive, ceil_div(n[l], tile), 0);
        else
            clscan_fail(err, "clSetKernelArg failed: %s", clscan_error_string(err));
    }
    /* Last: the data, with the carries of level 1. */
    if (err == CL_SUCCESS) {
        const cl_ulong so = src_offset, d_o = dst_offset, cnt = count, carry_off = levels ? off[1] : 0;
        const cl_mem carries = levels ? scratch : dst;   /* unused without levels */
        const cl_uint *use = levels ? &yes : &no;
        ARG(plan->scan_tiles, 0, src);
        ARG(plan->scan_tiles, 1, so);
        ARG(plan->scan_tiles, 2, dst);
        ARG(plan->scan_tiles, 3, d_o);
        ARG(plan->scan_tiles, 4, cnt);
        ARG(plan->scan_tiles, 5, carries);
        ARG(plan->scan_tiles, 6, carry_off);
        ARG(plan->scan_tiles, 7, *use);
        if (err == CL_SUCCESS)
            err = launch(plan, &c, plan->scan_tiles, ceil_div(count, tile), event != NULL);
        else
            clscan_fail(err, "clSetKernelArg failed: %s", clscan_error_string(err));
    }
    for (cl_uint i = 0; i < c.nextra; ++i)
        clReleaseEvent(c.extra[i]);
    if (err == CL_SUCCESS && levels > 0 && c.out_of_order && c.last) {
        /* The next scan on this queue must not overwrite the scratch before this one is done. */
        for (int i = 0; i < CLSCAN_MAX_SCRATCH; ++i)
            if (plan->scratch[i].queue == queue) {
                clRetainEvent(c.last);
                plan->scratch[i].last_use = c.last;
            }
    }
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
