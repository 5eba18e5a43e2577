/* The compaction's entry points (clscan_compact_enqueue, clscan_compact_indices_enqueue,
 * clscan_compact): the checks of a call, then its commands (compact_steps, compact.c) on the
 * caller's queue, after the previous call on the handle; the selections' entry points (select.c)
 * share those last steps, enqueueing or blocking. */
#include "compact.h"

typedef compact_call call;

static cl_int validate(const char *fn, clscan_compactor *c, cl_command_queue queue, const call *k, cl_uint nwait,
                       const cl_event *wait, int blocking)
{
    cl_int err;
    clscan_range s, f, d, n;
    const int indices = k->mode == COMPACT_INDICES;
    if ((err = clscan_check_queue(fn, c->context, c->device, queue)) != CL_SUCCESS ||
        (err = clscan_check_wait_list(fn, c->context, nwait, wait)) != CL_SUCCESS)
        return err;
    if (k->count > ALGO_MAX_COUNT)
        return clscan_fail(CL_INVALID_BUFFER_SIZE, "%s: count %zu is above the limit 2^32 - 1", fn, k->count);
    if ((err = clscan_check_buffer(fn, c->context, k->flags, "flags", 0, k->flags_offset, k->count, 1, &f)) != CL_SUCCESS)
        return err;
    if (!indices && (err = clscan_check_buffer(fn, c->context, k->src, "src", 0, k->src_offset, k->count,
                                             c->element_size, &s)) != CL_SUCCESS)
        return err;
    if ((err = clscan_check_buffer(fn, c->context, k->dst, indices ? "indices" : "dst", 1, k->dst_offset, k->count,
                                 indices ? sizeof(cl_uint) : c->element_size, &d)) != CL_SUCCESS)
        return err;
    if (!blocking && (err = clscan_check_buffer(fn, c->context, k->kept, "kept", 1, k->kept_offset, 1,
                                              sizeof(cl_ulong), &n)) != CL_SUCCESS)
        return err;
    if ((err = clscan_check_disjoint(fn, &d, indices ? "indices" : "dst", &f, "flags")) != CL_SUCCESS ||
        (!indices && (err = clscan_check_disjoint(fn, &d, "dst", &s, "src")) != CL_SUCCESS))
        return err;
    if (!blocking && ((err = clscan_check_disjoint(fn, &n, "kept", &f, "flags")) != CL_SUCCESS ||
                      (err = clscan_check_disjoint(fn, &n, "kept", &d, indices ? "indices" : "dst")) != CL_SUCCESS ||
                      (!indices && (err = clscan_check_disjoint(fn, &n, "kept", &s, "src")) != CL_SUCCESS)))
        return err;
    return CL_SUCCESS;
}

/* After the checks, with the lock held: the scratch for k's flag source, then k's commands (total:
 * as compact_steps, read before the scatter is enqueued, so that a failure to enqueue the read
 * leaves dst untouched) on queue after the previous call on c. */
cl_int compact_enqueue_locked(clscan_compactor *c, cl_command_queue queue, const compact_call *k, cl_uint nwait,
                              const cl_event *wait, cl_event *event, cl_uint *total)
{
    cl_int err = compact_reserve(c, k->from, k->count);
    if (err != CL_SUCCESS)
        return err;
    clscan_chain ch;
    if ((err = clscan_chain_begin(&ch, queue, nwait, wait, c->last_use, 1)) != CL_SUCCESS)
        return err;
    if (k->count == 0) {
        const cl_ulong zero = 0;
        err = clscan_chain_fill(&ch, k->kept, &zero, sizeof zero, k->kept_offset * sizeof zero, sizeof zero, 1);
    } else {
        err = compact_steps(c, &ch, k, total);
    }
    clscan_chain_end(&ch, err, event, &c->last_use);
    return err;
}

/* The kernels write the total to the handle's own cl_ulong (the next call writes it again); the
 * host reads the scanned counts' total before the scatter is enqueued, then waits. */
cl_int compact_blocking(const char *fn, clscan_compactor *c, cl_command_queue queue, compact_call *k,
                        cl_uint nwait, const cl_event *wait, size_t *kept)
{
    pthread_mutex_lock(&c->lock);
    cl_int err = clscan_scratch_grow(c->context, &c->kept, &c->kept_cap, sizeof(cl_ulong));
    cl_event done = NULL;
    cl_uint total = 0;
    if (err == CL_SUCCESS) {
        k->kept = c->kept;
        k->kept_offset = 0;
        err = compact_enqueue_locked(c, queue, k, nwait, wait, &done, &total);
    }
    if (err == CL_SUCCESS) {
        err = clWaitForEvents(1, &done);
        if (err != CL_SUCCESS)
            clscan_fail(err, "%s: waiting for its commands failed: %s", fn, clscan_error_string(err));
        else
            *kept = total;
    }
    pthread_mutex_unlock(&c->lock);
    if (done)
        clReleaseEvent(done);
    return err;
}

static cl_int compact(const char *fn, clscan_compactor *c, cl_command_queue queue, const call *k, cl_uint nwait,
                      const cl_event *wait, cl_event *event)
{
    if (!c)
        return clscan_fail(CLSCAN_INVALID_HANDLE, "%s: compactor is NULL", fn);
    cl_int err = validate(fn, c, queue, k, nwait, wait, 0);
    if (err != CL_SUCCESS)
        return err;
    pthread_mutex_lock(&c->lock);
    err = compact_enqueue_locked(c, queue, k, nwait, wait, event, NULL);
    pthread_mutex_unlock(&c->lock);
    return err;
}

CLSCAN_API cl_int clscan_compact_enqueue(clscan_compactor *c, cl_command_queue queue,
                                         cl_mem src, size_t src_offset, cl_mem flags, size_t flags_offset,
                                         size_t count, cl_mem dst, size_t dst_offset,
                                         cl_mem kept, size_t kept_offset,
                                         cl_uint nwait, const cl_event *wait, cl_event *event)
{
    static const char fn[] = "clscan_compact_enqueue";
    if (c && !src)   /* the same status as before the checks were shared */
        return clscan_fail(CL_INVALID_MEM_OBJECT, "%s: src is NULL", fn);
    const call k = {COMPACT_ELEMENTS, COMPACT_FROM_FLAGS, src, flags, dst, kept, src_offset, flags_offset,
                    dst_offset, kept_offset, count};
    return compact(fn, c, queue, &k, nwait, wait, event);
}

CLSCAN_API cl_int clscan_compact_indices_enqueue(clscan_compactor *c, cl_command_queue queue,
                                                 cl_mem flags, size_t flags_offset, size_t count,
                                                 cl_mem indices, size_t indices_offset,
                                                 cl_mem kept, size_t kept_offset,
                                                 cl_uint nwait, const cl_event *wait, cl_event *event)
{
    const call k = {COMPACT_INDICES, COMPACT_FROM_FLAGS, NULL, flags, indices, kept, 0, flags_offset, indices_offset,
                    kept_offset, count};
    return compact("clscan_compact_indices_enqueue", c, queue, &k, nwait, wait, event);
}

CLSCAN_API cl_int clscan_compact(clscan_compactor *c, cl_command_queue queue,
                                 cl_mem src, size_t src_offset, cl_mem flags, size_t flags_offset,
                                 size_t count, cl_mem dst, size_t dst_offset, size_t *kept,
                                 cl_uint nwait, const cl_event *wait)
{
    static const char fn[] = "clscan_compact";
    if (!c)
        return clscan_fail(CLSCAN_INVALID_HANDLE, "%s: compactor is NULL", fn);
    if (!kept)
        return clscan_fail(CL_INVALID_VALUE, "%s: kept is NULL", fn);
    if (!src)
        return clscan_fail(CL_INVALID_MEM_OBJECT, "%s: src is NULL", fn);
    call k = {COMPACT_ELEMENTS, COMPACT_FROM_FLAGS, src, flags, dst, NULL, src_offset, flags_offset, dst_offset, 0,
              count};
    cl_int err = validate(fn, c, queue, &k, nwait, wait, 1);
    if (err != CL_SUCCESS)
        return err;
    return compact_blocking(fn, c, queue, &k, nwait, wait, kept);
}
