/* Chains of commands with events (see chain.h). */
#include "chain.h"

#include <stdlib.h>
#include <string.h>

cl_int clscan_chain_begin(clscan_chain *c, cl_command_queue queue, cl_uint nwait, const cl_event *wait,
                          cl_event previous_use, int always_events)
{
    memset(c, 0, sizeof *c);
    cl_command_queue_properties props = 0;
    cl_int err = clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES, sizeof props, &props, NULL);
    if (err != CL_SUCCESS)
        return clscan_fail(err, "clGetCommandQueueInfo(CL_QUEUE_PROPERTIES) failed: %s", clscan_error_string(err));
    c->queue = queue;
    c->out_of_order = (props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) != 0;
    c->events = always_events || c->out_of_order;
    c->caller = wait;
    c->ncaller = nwait;
    c->previous_use = previous_use;
    return CL_SUCCESS;
}

cl_int clscan_chain_wait_list(clscan_chain *c, cl_event stack[CLSCAN_CHAIN_STACK], cl_event **heap,
                              const cl_event **list, cl_uint *n)
{
    *heap = NULL;
    cl_event own = !c->started ? c->previous_use : c->out_of_order ? c->last : NULL;
    const cl_uint ncaller = c->started ? 0 : c->ncaller;
    *n = ncaller + (own != NULL);
    if (*n == ncaller) {   /* the caller's list as it is (or none) */
        *list = ncaller ? c->caller : NULL;
        return CL_SUCCESS;
    }
    cl_event *l = *n <= CLSCAN_CHAIN_STACK ? stack : (*heap = malloc(*n * sizeof **heap));
    if (!l)
        return clscan_fail(CL_OUT_OF_HOST_MEMORY, "out of host memory for a wait list");
    for (cl_uint i = 0; i < ncaller; ++i)
        l[i] = c->caller[i];
    l[ncaller] = own;
    *list = l;
    return CL_SUCCESS;
}

int clscan_chain_wants_event(const clscan_chain *c, int want)
{
    return c->events || want;
}

void clscan_chain_advance(clscan_chain *c, cl_event ev)
{
    c->started = 1;
    if (c->last)
        clReleaseEvent(c->last);
    c->last = ev;
}

/* The three kinds of command through one path: the wait list, the command, the advance. */
enum command { LAUNCH, FILL, COPY, READ, MARKER };
typedef struct command_args {
    cl_kernel kernel;
    size_t global, local;
    cl_mem a, b;
    const void *pattern;
    void *host;
    size_t pattern_size, offset_a, offset_b, bytes;
} command_args;

static cl_int command(clscan_chain *c, enum command what, const command_args *a, int want_event)
{
    static const char *const names[] = {"clEnqueueNDRangeKernel", "clEnqueueFillBuffer", "clEnqueueCopyBuffer",
                                        "clEnqueueReadBuffer", "clEnqueueMarkerWithWaitList"};
    cl_event stack[CLSCAN_CHAIN_STACK], *heap, ev = NULL;
    const cl_event *list;
    cl_uint n;
    cl_int err = clscan_chain_wait_list(c, stack, &heap, &list, &n);
    if (err != CL_SUCCESS)
        return err;
    cl_event *out = clscan_chain_wants_event(c, want_event) ? &ev : NULL;
    switch (what) {
    case LAUNCH:
        err = clEnqueueNDRangeKernel(c->queue, a->kernel, 1, NULL, &a->global, &a->local, n, list, out);
        break;
    case FILL:
        err = clEnqueueFillBuffer(c->queue, a->a, a->pattern, a->pattern_size, a->offset_a, a->bytes, n, list, out);
        break;
    case COPY:
        err = clEnqueueCopyBuffer(c->queue, a->a, a->b, a->offset_a, a->offset_b, a->bytes, n, list, out);
        break;
    case READ:
        err = clEnqueueReadBuffer(c->queue, a->a, CL_FALSE, a->offset_a, a->bytes, a->host, n, list, out);
        break;
    case MARKER:
        err = clEnqueueMarkerWithWaitList(c->queue, n, list, &ev);
        break;
    }
    free(heap);
    if (err != CL_SUCCESS)
        return clscan_fail(err, "%s failed: %s", names[what], clscan_error_string(err));
    clscan_chain_advance(c, ev);
    return CL_SUCCESS;
}

cl_int clscan_chain_launch(clscan_chain *c, cl_kernel kernel, size_t groups, size_t wg, int want_event)
{
    const command_args a = {.kernel = kernel, .global = groups * wg, .local = wg};
    return command(c, LAUNCH, &a, want_event);
}

cl_int clscan_chain_fill(clscan_chain *c, cl_mem buffer, const void *pattern, size_t pattern_size, size_t offset,
                         size_t bytes, int want_event)
{
    const command_args a = {.a = buffer, .pattern = pattern, .pattern_size = pattern_size, .offset_a = offset,
                            .bytes = bytes};
    return command(c, FILL, &a, want_event);
}

cl_int clscan_chain_copy(clscan_chain *c, cl_mem src, size_t src_offset, cl_mem dst, size_t dst_offset,
                         size_t bytes, int want_event)
{
    const command_args a = {.a = src, .b = dst, .offset_a = src_offset, .offset_b = dst_offset, .bytes = bytes};
    return command(c, COPY, &a, want_event);
}

cl_int clscan_chain_read(clscan_chain *c, cl_mem buffer, size_t offset, size_t bytes, void *host, int want_event)
{
    const command_args a = {.a = buffer, .offset_a = offset, .bytes = bytes, .host = host};
    return command(c, READ, &a, want_event);
}

cl_int clscan_chain_marker(clscan_chain *c)
{
    const command_args a = {0};
    return command(c, MARKER, &a, 1);
}

void clscan_chain_end(clscan_chain *c, cl_int err, cl_event *event, cl_event *last_use)
{
    if (c->last && last_use) {
        if (*last_use)
            clReleaseEvent(*last_use);
        clRetainEvent(c->last);
        *last_use = c->last;
    }
    if (err == CL_SUCCESS && event) {
        *event = c->last;
        c->last = NULL;
    }
    if (c->last)
        clReleaseEvent(c->last);
    c->last = NULL;
}
