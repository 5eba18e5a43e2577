/* The first and the last head of a part, for segmented scans across ranks: two tiny kernels of
 * libclscan_mpi's own, without any operator, built once per context and device and kept until
 * clscan_mpi_cache_clear().  The flags are split into at most CHUNKS chunks of consecutive
 * flags; the first kernel finds the first and last chunks holding a head (32-bit atomic min and
 * max, core OpenCL 1.1), the second, one work-item, the heads inside those two chunks. */
#include "internal.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#define CHUNKS 65536

static const char source[] =
    "__kernel void clscan_mpi_head_chunks(__global const uchar *h, ulong off, ulong n, ulong chunk,\n"
    "                                     __global uint *ends)\n"
    "{\n"
    "    const ulong w = get_global_id(0), b = w * chunk, e = min(b + chunk, n);\n"
    "    for (ulong i = b; i < e; ++i)\n"
    "        if (h[off + i]) { atomic_min(&ends[0], (uint)w); break; }\n"
    "    for (ulong i = e; i > b; --i)\n"
    "        if (h[off + i - 1]) { atomic_max(&ends[1], (uint)w + 1); break; }\n"
    "}\n"
    "__kernel void clscan_mpi_head_ends(__global const uchar *h, ulong off, ulong n, ulong chunk,\n"
    "                                   __global const uint *ends, __global ulong *out)\n"
    "{\n"
    "    ulong first = n, last = 0;\n"
    "    if (ends[1]) {\n"
    "        ulong b = ends[0] * chunk, e = min(b + chunk, n);\n"
    "        for (ulong i = b; i < e; ++i)\n"
    "            if (h[off + i]) { first = i; break; }\n"
    "        b = (ends[1] - 1) * chunk; e = min(b + chunk, n);\n"
    "        for (ulong i = e; i > b; --i)\n"
    "            if (h[off + i - 1]) { last = i; break; }\n"
    "    }\n"
    "    out[0] = first;\n"
    "    out[1] = last;\n"
    "}\n";

/* One built program per context and device. */
typedef struct entry {
    cl_context context;
    cl_device_id device;
    cl_program program;
    cl_kernel chunks, ends;
    struct entry *next;
} entry;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static entry *entries;

static void entry_free(entry *e)
{
    if (e->chunks)
        clReleaseKernel(e->chunks);
    if (e->ends)
        clReleaseKernel(e->ends);
    if (e->program)
        clReleaseProgram(e->program);
    if (e->context)
        clReleaseContext(e->context);
    free(e);
}

/* The entry of queue's context and device, built on first use (with the lock held). */
static cl_int entry_of(const char *fn, cl_command_queue queue, entry **out)
{
    cl_context context;
    cl_device_id device;
    cl_int err = clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof context, &context, NULL);
    if (err == CL_SUCCESS)
        err = clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof device, &device, NULL);
    if (err != CL_SUCCESS)
        return clscan_mpi_fail(err, "%s: the queue's context: %s", fn, clscan_error_string(err));
    for (entry *e = entries; e; e = e->next)
        if (e->context == context && e->device == device)
            return *out = e, CL_SUCCESS;
    entry *e = calloc(1, sizeof *e);
    if (!e)
        return clscan_mpi_fail(CL_OUT_OF_HOST_MEMORY, "%s: no memory for a program", fn);
    const char *text = source;
    e->device = device;
    e->program = clCreateProgramWithSource(context, 1, &text, NULL, &err);
    if (err == CL_SUCCESS)
        err = clBuildProgram(e->program, 1, &device, "", NULL, NULL);
    if (err == CL_SUCCESS)
        e->chunks = clCreateKernel(e->program, "clscan_mpi_head_chunks", &err);
    if (err == CL_SUCCESS)
        e->ends = clCreateKernel(e->program, "clscan_mpi_head_ends", &err);
    if (err == CL_SUCCESS)
        err = clRetainContext(context);
    if (err != CL_SUCCESS) {
        entry_free(e);
        return clscan_mpi_fail(err, "%s: building the head-flag kernels: %s", fn, clscan_error_string(err));
    }
    e->context = context;
    e->next = entries;
    entries = *out = e;
    return CL_SUCCESS;
}

/* Enqueues both kernels over the flags (the lock held: the kernels' arguments are shared). */
static cl_int enqueue(entry *k, cl_command_queue queue, cl_mem heads, cl_ulong off, cl_ulong n, cl_mem ends,
                      cl_mem out, cl_uint nwait, const cl_event *wait, cl_event *done)
{
    const cl_ulong chunk = (n + CHUNKS - 1) / CHUNKS;
    const size_t global = (size_t)((n + chunk - 1) / chunk), one = 1;
    cl_event ev = NULL;
    cl_int err = CL_SUCCESS;
    for (cl_uint i = 0; i < 2 && err == CL_SUCCESS; ++i) {
        cl_kernel kernel = i ? k->ends : k->chunks;
        err = clSetKernelArg(kernel, 0, sizeof heads, &heads);
        if (err == CL_SUCCESS)
            err = clSetKernelArg(kernel, 1, sizeof off, &off);
        if (err == CL_SUCCESS)
            err = clSetKernelArg(kernel, 2, sizeof n, &n);
        if (err == CL_SUCCESS)
            err = clSetKernelArg(kernel, 3, sizeof chunk, &chunk);
        if (err == CL_SUCCESS)
            err = clSetKernelArg(kernel, 4, sizeof ends, &ends);
    }
    if (err == CL_SUCCESS)
        err = clSetKernelArg(k->ends, 5, sizeof out, &out);
    if (err == CL_SUCCESS)
        err = clEnqueueNDRangeKernel(queue, k->chunks, 1, NULL, &global, NULL, nwait, wait, &ev);
    if (err == CL_SUCCESS)
        err = clEnqueueNDRangeKernel(queue, k->ends, 1, NULL, &one, NULL, 1, &ev, done);
    if (ev)
        clReleaseEvent(ev);
    return err;
}

cl_int clscan_mpi_find_heads(const char *fn, cl_command_queue queue, cl_mem heads, size_t heads_offset,
                             size_t count, cl_uint nwait, const cl_event *wait, size_t *first, size_t *last_end)
{
    static const cl_uint init[2] = {UINT32_MAX, 0};
    cl_context context;
    cl_mem ends = NULL, out = NULL;
    cl_event done = NULL;
    cl_ulong result[2];
    cl_int err = clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof context, &context, NULL);
    if (err == CL_SUCCESS)
        ends = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof init, (void *)init, &err);
    if (err == CL_SUCCESS)
        out = clCreateBuffer(context, CL_MEM_READ_WRITE, sizeof result, NULL, &err);
    if (err == CL_SUCCESS) {
        entry *k = NULL;
        pthread_mutex_lock(&lock);
        err = entry_of(fn, queue, &k);
        if (err == CL_SUCCESS)
            err = enqueue(k, queue, heads, heads_offset, count, ends, out, nwait, wait, &done);
        pthread_mutex_unlock(&lock);
    }
    if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof result, result, 1, &done, NULL);
    if (done)
        clReleaseEvent(done);
    if (ends)
        clReleaseMemObject(ends);
    if (out)
        clReleaseMemObject(out);
    if (err != CL_SUCCESS)
        return clscan_mpi_fail(err, "%s: finding the heads: %s", fn, clscan_error_string(err));
    *first = (size_t)result[0];
    *last_end = (size_t)result[1];
    return CL_SUCCESS;
}

CLSCAN_MPI_API void clscan_mpi_cache_clear(void)
{
    pthread_mutex_lock(&lock);
    while (entries) {
        entry *e = entries;
        entries = e->next;
        entry_free(e);
    }
    pthread_mutex_unlock(&lock);
}
