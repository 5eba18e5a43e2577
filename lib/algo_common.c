/* Shared by compaction, bucketing and radix sort: argument checks, command chains, program
 * builds, scratch buffers and the scan of block counts. */
#include "algo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- Argument checks ---------------------------------------------------------------------- */

cl_int algo_check_create(const char *fn, cl_context context, cl_device_id device, clscan_device_info *info)
{
    if (!context)
        return clscan_fail(CL_INVALID_CONTEXT, "%s: context is NULL", fn);
    if (!device)
        return clscan_fail(CL_INVALID_DEVICE, "%s: device is NULL", fn);
    size_t bytes = 0;
    cl_int err = clGetContextInfo(context, CL_CONTEXT_DEVICES, 0, NULL, &bytes);
    if (err != CL_SUCCESS)
        return clscan_fail(CL_INVALID_CONTEXT, "%s: not a valid OpenCL context (%s)", fn, clscan_error_string(err));
    cl_device_id *devices = malloc(bytes ? bytes : 1);
    if (!devices)
        return clscan_fail(CL_OUT_OF_HOST_MEMORY, "out of host memory");
    err = clGetContextInfo(context, CL_CONTEXT_DEVICES, bytes, devices, NULL);
    int found = 0;
    for (size_t i = 0; err == CL_SUCCESS && i < bytes / sizeof *devices; ++i)
        found |= devices[i] == device;
    free(devices);
    if (err != CL_SUCCESS)
        return clscan_fail(CL_INVALID_CONTEXT, "%s: clGetContextInfo failed: %s", fn, clscan_error_string(err));
    if (!found)
        return clscan_fail(CL_INVALID_DEVICE, "%s: the device is not in the context", fn);
    return clscan_query_device(device, info);
}

cl_int algo_check_queue(const char *fn, cl_context context, cl_device_id device, cl_command_queue queue)
{
    cl_context c;
    cl_device_id d;
    if (!queue)
        return clscan_fail(CL_INVALID_COMMAND_QUEUE, "%s: queue is NULL", fn);
    if (clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof c, &c, NULL) != CL_SUCCESS ||
        clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof d, &d, NULL) != CL_SUCCESS)
        return clscan_fail(CL_INVALID_COMMAND_QUEUE, "%s: not a valid command queue", fn);
    if (c != context)
        return clscan_fail(CL_INVALID_CONTEXT, "%s: the queue belongs to another context", fn);
    if (d != device)
        return clscan_fail(CL_INVALID_DEVICE, "%s: the queue is for another device", fn);
    return CL_SUCCESS;
}

cl_int algo_check_wait_list(const char *fn, cl_context context, cl_uint n, const cl_event *list)
{
    if ((n > 0) != (list != NULL))
        return clscan_fail(CL_INVALID_EVENT_WAIT_LIST, "%s: %u events in the wait list, but the list is %s",
                           fn, n, list ? "not NULL" : "NULL");
    for (cl_uint i = 0; i < n; ++i) {
        cl_context c;
        if (!list[i] || clGetEventInfo(list[i], CL_EVENT_CONTEXT, sizeof c, &c, NULL) != CL_SUCCESS)
            return clscan_fail(CL_INVALID_EVENT_WAIT_LIST, "%s: wait list entry %u is not a valid event", fn, i);
        if (c != context)
            return clscan_fail(CL_INVALID_CONTEXT, "%s: wait list entry %u belongs to another context", fn, i);
    }
    return CL_SUCCESS;
}

cl_int algo_check_buffer(const char *fn, cl_context context, cl_mem mem, const char *what, int written,
                         size_t offset, size_t count, size_t esize, algo_range *range)
{
    cl_context c;
    cl_mem_object_type type;
    cl_mem_flags flags;
    cl_mem parent = NULL;
    size_t size, origin;
    if (!mem)
        return clscan_fail(CL_INVALID_MEM_OBJECT, "%s: %s is NULL", fn, what);
    if (clGetMemObjectInfo(mem, CL_MEM_CONTEXT, sizeof c, &c, NULL) != CL_SUCCESS ||
        clGetMemObjectInfo(mem, CL_MEM_TYPE, sizeof type, &type, NULL) != CL_SUCCESS ||
        clGetMemObjectInfo(mem, CL_MEM_FLAGS, sizeof flags, &flags, NULL) != CL_SUCCESS ||
        clGetMemObjectInfo(mem, CL_MEM_SIZE, sizeof size, &size, NULL) != CL_SUCCESS ||
        clGetMemObjectInfo(mem, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof parent, &parent, NULL) != CL_SUCCESS ||
        clGetMemObjectInfo(mem, CL_MEM_OFFSET, sizeof origin, &origin, NULL) != CL_SUCCESS)
        return clscan_fail(CL_INVALID_MEM_OBJECT, "%s: %s is not a valid memory object", fn, what);
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
        return clscan_fail(CLSCAN_RANGE_OUT_OF_BOUNDS, "%s: %s holds %zu elements of %zu bytes; elements "
                           "%zu + %zu are past its end", fn, what, elements, esize, offset, count);
    range->root = parent ? parent : mem;
    range->begin = origin + offset * esize;
    range->end = range->begin + count * esize;
    return CL_SUCCESS;
}

int algo_overlap(const algo_range *a, const algo_range *b)
{
    if (a->root != b->root || a->begin == a->end || b->begin == b->end || a->end <= b->begin ||
        b->end <= a->begin)
        return 0;
    return a->begin == b->begin && a->end == b->end ? 1 : 2;
}

cl_int algo_check_disjoint(const char *fn, const algo_range *a, const char *what_a, const algo_range *b,
                           const char *what_b)
{
    if (algo_overlap(a, b))
        return clscan_fail(CL_MEM_COPY_OVERLAP, "%s: %s and %s overlap", fn, what_a, what_b);
    return CL_SUCCESS;
}

/* ---- Command chains ----------------------------------------------------------------------- */

cl_int algo_chain_begin(algo_chain *c, cl_command_queue queue, cl_uint nwait, const cl_event *wait,
                        cl_event previous_use)
{
    memset(c, 0, sizeof *c);
    c->queue = queue;
    c->nwait = nwait + (previous_use != NULL);
    if (c->nwait == 0)
        return CL_SUCCESS;
    c->first_list = malloc(c->nwait * sizeof *c->first_list);
    if (!c->first_list)
        return clscan_fail(CL_OUT_OF_HOST_MEMORY, "out of host memory");
    for (cl_uint i = 0; i < nwait; ++i)
        c->first_list[i] = wait[i];
    if (previous_use)
        c->first_list[nwait] = previous_use;
    c->wait = c->first_list;
    return CL_SUCCESS;
}

/* After a command with event ev: the next one waits on ev alone. */
static void advance(algo_chain *c, cl_event ev)
{
    if (c->last)
        clReleaseEvent(c->last);
    c->last = ev;
    c->wait = &c->last;
    c->nwait = 1;
}

cl_int algo_launch(algo_chain *c, cl_kernel kernel, size_t groups, size_t wg)
{
    const size_t global = groups * wg;
    cl_event ev;
    cl_int err = clEnqueueNDRangeKernel(c->queue, kernel, 1, NULL, &global, &wg, c->nwait,
                                        c->nwait ? c->wait : NULL, &ev);
    if (err != CL_SUCCESS)
        return clscan_fail(err, "clEnqueueNDRangeKernel failed: %s", clscan_error_string(err));
    advance(c, ev);
    return CL_SUCCESS;
}

cl_int algo_fill(algo_chain *c, cl_mem buffer, const void *pattern, size_t pattern_size, size_t offset,
                 size_t bytes)
{
    cl_event ev;
    cl_int err = clEnqueueFillBuffer(c->queue, buffer, pattern, pattern_size, offset, bytes, c->nwait,
                                     c->nwait ? c->wait : NULL, &ev);
    if (err != CL_SUCCESS)
        return clscan_fail(err, "clEnqueueFillBuffer failed: %s", clscan_error_string(err));
    advance(c, ev);
    return CL_SUCCESS;
}

cl_int algo_copy(algo_chain *c, cl_mem src, size_t src_offset, cl_mem dst, size_t dst_offset, size_t bytes)
{
    cl_event ev;
    cl_int err = clEnqueueCopyBuffer(c->queue, src, dst, src_offset, dst_offset, bytes, c->nwait,
                                     c->nwait ? c->wait : NULL, &ev);
    if (err != CL_SUCCESS)
        return clscan_fail(err, "clEnqueueCopyBuffer failed: %s", clscan_error_string(err));
    advance(c, ev);
    return CL_SUCCESS;
}

cl_int algo_scan(algo_chain *c, clscan_plan *plan, cl_mem buffer, size_t count)
{
    cl_event ev;
    cl_int err = clscan_enqueue(plan, c->queue, buffer, 0, buffer, 0, count, c->nwait,
                                c->nwait ? c->wait : NULL, &ev);
    if (err != CL_SUCCESS)
        return err;   /* clscan_enqueue recorded the message */
    advance(c, ev);
    return CL_SUCCESS;
}

cl_int algo_marker(algo_chain *c)
{
    cl_event ev;
    cl_int err = clEnqueueMarkerWithWaitList(c->queue, c->nwait, c->nwait ? c->wait : NULL, &ev);
    if (err != CL_SUCCESS)
        return clscan_fail(err, "clEnqueueMarkerWithWaitList failed: %s", clscan_error_string(err));
    advance(c, ev);
    return CL_SUCCESS;
}

void algo_chain_end(algo_chain *c, cl_int err, cl_event *event, cl_event *last_use)
{
    free(c->first_list);
    c->first_list = NULL;
    if (err == CL_SUCCESS && c->last) {
        if (*last_use)
            clReleaseEvent(*last_use);
        clRetainEvent(c->last);
        *last_use = c->last;
        if (event) {
            *event = c->last;
            c->last = NULL;
        }
    }
    if (c->last)
        clReleaseEvent(c->last);
    c->last = NULL;
}

/* ---- Programs, kernels, scratch ----------------------------------------------------------- */

int algo_gpu_style(const clscan_device_info *info)
{
    const char *force = getenv("CLSCAN_FORCE_STAGE");
    if (force && (*force == '0' || *force == '1'))
        return *force == '1';
    return !(info->type & CL_DEVICE_TYPE_CPU);
}

cl_int algo_build(cl_context context, cl_device_id device, const clscan_device_info *info, const char *file,
                  const char *embedded, const char *defines, cl_program *program)
{
    char *source = NULL;
    cl_int err = clscan_algo_source(file, embedded, &source);
    if (err != CL_SUCCESS)
        return err;
    const char *extra = getenv("CLSCAN_BUILD_OPTIONS");
    char options[1024];
    const int n = snprintf(options, sizeof options, "%s%s%s%s", info->opencl_c_1_2 ? "-cl-std=CL1.2 " : "",
                           defines, extra ? " " : "", extra ? extra : "");
    if (n < 0 || (size_t)n >= sizeof options)
        err = clscan_fail(CL_INVALID_BUILD_OPTIONS, "CLSCAN_BUILD_OPTIONS is too long");
    else
        err = clscan_program_get(context, device, source, options, program);
    free(source);
    return err;
}

cl_int algo_kernel(cl_program program, cl_device_id device, const char *name, size_t wg, cl_kernel *kernel)
{
    cl_int err;
    *kernel = clCreateKernel(program, name, &err);
    if (err != CL_SUCCESS) {
        *kernel = NULL;
        return clscan_fail(err, "clCreateKernel(%s) failed: %s", name, clscan_error_string(err));
    }
    size_t kernel_wg = 0;
    err = clGetKernelWorkGroupInfo(*kernel, device, CL_KERNEL_WORK_GROUP_SIZE, sizeof kernel_wg, &kernel_wg, NULL);
    if (err != CL_SUCCESS)
        return clscan_fail(err, "clGetKernelWorkGroupInfo(%s) failed: %s", name, clscan_error_string(err));
    if (kernel_wg < wg)
        return clscan_fail(CL_INVALID_WORK_GROUP_SIZE, "kernel %s runs at most %zu work-items per work-group, "
                           "not %zu", name, kernel_wg, wg);
    return CL_SUCCESS;
}

cl_int algo_grow(const char *fn, cl_context context, cl_mem *buffer, size_t *capacity, size_t bytes)
{
    if (*buffer && *capacity >= bytes)
        return CL_SUCCESS;
    cl_int err;
    cl_mem b = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes ? bytes : 1, NULL, &err);
    if (err != CL_SUCCESS)
        return clscan_fail(err, "%s: cannot allocate %zu bytes of scratch memory: %s", fn, bytes,
                           clscan_error_string(err));
    /* Commands still using the old buffer keep it alive until they finish. */
    if (*buffer)
        clReleaseMemObject(*buffer);
    *buffer = b;
    *capacity = bytes;
    return CL_SUCCESS;
}

clscan_plan *algo_count_plan(cl_context context, cl_device_id device, cl_int *err)
{
    return clscan_plan_create(context, device, CLSCAN_SUM, CLSCAN_UINT32, CLSCAN_EXCLUSIVE, err);
}
