/* Scratch memory: buffers that grow to the largest call so far (plans and handles alike), and
 * the plans' slots, one per queue (see plan.h), least recently used slots evicted.  Releasing a
 * buffer is safe while kernels still use it: OpenCL frees it after they finish. */
#include "plan.h"

#include <string.h>

static void release_slot(clscan_scratch *s)
{
    cl_mem *buffers[] = {&s->totals, &s->flags, &s->status, &s->values, &s->seg_heads, &s->seg_scan, &s->seg_lasts,
                         &s->runs_keys, &s->runs_values};
    for (size_t i = 0; i < sizeof buffers / sizeof *buffers; ++i)
        if (*buffers[i])
            clReleaseMemObject(*buffers[i]);
    if (s->last_use)
        clReleaseEvent(s->last_use);
    if (s->queue)
        clReleaseCommandQueue(s->queue);
    memset(s, 0, sizeof *s);
}

void clscan_scratch_release(clscan_plan *plan)
{
    for (int i = 0; i < CLSCAN_MAX_SCRATCH; ++i)
        release_slot(&plan->scratch[i]);
}

clscan_scratch *clscan_scratch_slot(clscan_plan *plan, cl_command_queue queue)
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

cl_int clscan_scratch_grow(cl_context context, cl_mem *buffer, size_t *capacity, size_t bytes)
{
    if (*buffer && *capacity >= bytes)
        return CL_SUCCESS;
    cl_int err;
    cl_mem b = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes ? bytes : 1, NULL, &err);
    if (err != CL_SUCCESS)
        return clscan_fail(err, "cannot allocate %zu bytes of scratch memory: %s", bytes, clscan_error_string(err));
    if (*buffer)
        clReleaseMemObject(*buffer);
    *buffer = b;
    *capacity = bytes;
    return CL_SUCCESS;
}
