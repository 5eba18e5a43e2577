/* Argument checks: queues, wait lists, buffer ranges and their overlaps. */
#include "check.h"

#include <stdint.h>

cl_int clscan_check_queue(const char *fn, cl_context context, cl_device_id device, cl_command_queue queue)
{
    cl_context c;
    cl_device_id d;
    if (!queue)
        return clscan_fail(CL_INVALID_COMMAND_QUEUE, "%s: queue is NULL", fn);
    cl_int err = clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof c, &c, NULL);
    if (err == CL_SUCCESS)
        err = clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof d, &d, NULL);
    if (err != CL_SUCCESS)
        return clscan_fail(clscan_query_status(err, CL_INVALID_COMMAND_QUEUE), "%s: the queue's query failed (%s): "
                           "not a valid command queue?", fn, clscan_error_string(err));
    if (c != context)
        return clscan_fail(CL_INVALID_CONTEXT, "%s: the queue belongs to another context", fn);
    if (d != device)
        return clscan_fail(CL_INVALID_DEVICE, "%s: the queue is for another device", fn);
    return CL_SUCCESS;
}

cl_int clscan_check_wait_list(const char *fn, cl_context context, cl_uint n, const cl_event *list)
{
    if ((n > 0) != (list != NULL))
        return clscan_fail(CL_INVALID_EVENT_WAIT_LIST, "%s: %u events in the wait list, but the list is %s", fn, n,
                           list ? "not NULL" : "NULL");
    for (cl_uint i = 0; i < n; ++i) {
        cl_context c;
        const cl_int err = list[i] ? clGetEventInfo(list[i], CL_EVENT_CONTEXT, sizeof c, &c, NULL) : CL_INVALID_EVENT;
        if (err != CL_SUCCESS)
            return clscan_fail(clscan_query_status(err, CL_INVALID_EVENT_WAIT_LIST), "%s: wait list entry %u: %s (not a "
                               "valid event?)", fn, i, clscan_error_string(err));
        if (c != context)
            return clscan_fail(CL_INVALID_CONTEXT, "%s: wait list entry %u belongs to another context", fn, i);
    }
    return CL_SUCCESS;
}

cl_int clscan_check_buffer(const char *fn, cl_context context, cl_mem mem, const char *what, int written,
                           size_t offset, size_t count, size_t esize, clscan_range *range)
{
    cl_context c;
    cl_mem_object_type type;
    cl_mem_flags flags;
    cl_mem parent = NULL;
    size_t size, origin;
    if (!mem)
        return clscan_fail(CL_INVALID_MEM_OBJECT, "%s: %s is NULL", fn, what);
    cl_int err = clGetMemObjectInfo(mem, CL_MEM_CONTEXT, sizeof c, &c, NULL);
    if (err == CL_SUCCESS)
        err = clGetMemObjectInfo(mem, CL_MEM_TYPE, sizeof type, &type, NULL);
    if (err == CL_SUCCESS)
        err = clGetMemObjectInfo(mem, CL_MEM_FLAGS, sizeof flags, &flags, NULL);
    if (err == CL_SUCCESS)
        err = clGetMemObjectInfo(mem, CL_MEM_SIZE, sizeof size, &size, NULL);
    if (err == CL_SUCCESS)
        err = clGetMemObjectInfo(mem, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof parent, &parent, NULL);
    if (err == CL_SUCCESS)
        err = clGetMemObjectInfo(mem, CL_MEM_OFFSET, sizeof origin, &origin, NULL);
    if (err != CL_SUCCESS)
        return clscan_fail(clscan_query_status(err, CL_INVALID_MEM_OBJECT), "%s: %s: the memory object's query "
                           "failed (%s): not a valid memory object?", fn, what, clscan_error_string(err));
    if (type != CL_MEM_OBJECT_BUFFER)
        return clscan_fail(CL_INVALID_MEM_OBJECT, "%s: %s is not a buffer", fn, what);
    if (c != context)
        return clscan_fail(CL_INVALID_CONTEXT, "%s: %s belongs to another context", fn, what);
    if (!written && (flags & CL_MEM_WRITE_ONLY))
        return clscan_fail(CL_INVALID_MEM_OBJECT, "%s: %s was created CL_MEM_WRITE_ONLY", fn, what);
    if (written && (flags & CL_MEM_READ_ONLY))
        return clscan_fail(CL_INVALID_MEM_OBJECT, "%s: %s was created CL_MEM_READ_ONLY", fn, what);
    const size_t elements = size / esize;
    if (offset > elements || count > elements - offset)
        return clscan_fail(CLSCAN_RANGE_OUT_OF_BOUNDS, "%s: %s holds %zu elements of %zu bytes; elements %zu + %zu "
                           "are past its end", fn, what, elements, esize, offset, count);
    range->root = parent ? parent : mem;
    range->begin = origin + offset * esize;
    range->end = range->begin + count * esize;
    return CL_SUCCESS;
}

int clscan_overlap(const clscan_range *a, const clscan_range *b)
{
    if (a->root != b->root || a->begin == a->end || b->begin == b->end || a->end <= b->begin ||
        b->end <= a->begin)
        return 0;
    return a->begin == b->begin && a->end == b->end ? 1 : 2;
}

cl_int clscan_check_disjoint(const char *fn, const clscan_range *a, const char *what_a, const clscan_range *b,
                             const char *what_b)
{
    if (clscan_overlap(a, b))
        return clscan_fail(CL_MEM_COPY_OVERLAP, "%s: %s and %s overlap", fn, what_a, what_b);
    return CL_SUCCESS;
}

cl_int clscan_check_same_or_disjoint(const char *fn, const clscan_range *a, const char *what_a,
                                     const clscan_range *b, const char *what_b)
{
    if (clscan_overlap(a, b) == 2)
        return clscan_fail(CL_MEM_COPY_OVERLAP, "%s: %s and %s overlap without being the same (in place: equal "
                           "offsets)", fn, what_a, what_b);
    return CL_SUCCESS;
}

size_t clscan_pitched_extent(size_t rows, size_t cols, size_t pitch)
{
    if (rows - 1 > (SIZE_MAX - cols) / pitch)
        return SIZE_MAX;
    return (rows - 1) * pitch + cols;
}
