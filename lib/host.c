/* clscan_host: a blocking scan of a host array on the default device.  The default device's
 * context, queue and plans are made once and kept until clscan_cache_clear(). */
#include "host.h"

#include <pthread.h>
#include <stdint.h>

static pthread_mutex_t host_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
    clscan_plan *plans[CLSCAN_AFFINE + 1][CLSCAN_DOUBLE + 1][CLSCAN_EXCLUSIVE + 1];
} host;

void clscan_host_clear(void)
{
    pthread_mutex_lock(&host_lock);
    for (int o = 0; o <= CLSCAN_AFFINE; ++o)
        for (int t = 0; t <= CLSCAN_DOUBLE; ++t)
            for (int k = 0; k <= CLSCAN_EXCLUSIVE; ++k) {
                clscan_plan_release(host.plans[o][t][k]);
                host.plans[o][t][k] = NULL;
            }
    if (host.queue)
        clReleaseCommandQueue(host.queue);
    if (host.context)
        clReleaseContext(host.context);
    host.queue = NULL;
    host.context = NULL;
    host.device = NULL;
    pthread_mutex_unlock(&host_lock);
}

/* With host_lock held. */
static cl_int open_default_device(void)
{
    if (host.queue)
        return CL_SUCCESS;
    cl_platform_id platform;
    cl_device_id device;
    cl_int err = clscan_default_device(NULL, &platform, &device);
    if (err != CL_SUCCESS)
        return err;
    const cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)platform, 0};
    cl_context context = clCreateContext(props, 1, &device, NULL, NULL, &err);
    if (err != CL_SUCCESS)
        return clscan_fail(err, "clCreateContext failed: %s", clscan_error_string(err));
    cl_command_queue queue = clCreateCommandQueue(context, device, 0, &err);
    if (err != CL_SUCCESS) {
        clReleaseContext(context);
        return clscan_fail(err, "clCreateCommandQueue failed: %s", clscan_error_string(err));
    }
    host.device = device;
    host.context = context;
    host.queue = queue;
    return CL_SUCCESS;
}

static int ranges_overlap(const void *a, const void *b, size_t bytes)
{
    const uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
    return x != y && x < y + bytes && y < x + bytes;
}

static cl_int scan_on_device(clscan_plan *plan, const void *src, void *dst, size_t bytes, size_t count)
{
    cl_int err;
    cl_mem buffer = clCreateBuffer(host.context, CL_MEM_READ_WRITE, bytes, NULL, &err);
    if (err != CL_SUCCESS)
        return clscan_fail(err, "clscan_host: cannot allocate %zu bytes on the device: %s", bytes,
                           clscan_error_string(err));
    err = clEnqueueWriteBuffer(host.queue, buffer, CL_FALSE, 0, bytes, src, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        clscan_fail(err, "clEnqueueWriteBuffer failed: %s", clscan_error_string(err));
    else
        err = clscan_enqueue(plan, host.queue, buffer, 0, buffer, 0, count, 0, NULL, NULL);
    if (err == CL_SUCCESS) {
        err = clEnqueueReadBuffer(host.queue, buffer, CL_TRUE, 0, bytes, dst, 0, NULL, NULL);
        if (err != CL_SUCCESS)
            clscan_fail(err, "clEnqueueReadBuffer failed: %s", clscan_error_string(err));
    }
    clFinish(host.queue);
    clReleaseMemObject(buffer);
    return err;
}

CLSCAN_API cl_int clscan_host(clscan_op op, clscan_type type, clscan_kind kind,
                              const void *src, void *dst, size_t count)
{
    const size_t element = clscan_op_element_size(op, type);
    if ((unsigned)op > (unsigned)CLSCAN_AFFINE)
        return clscan_fail(CLSCAN_INVALID_OPERATOR, "clscan_host: operator %d is not a clscan_op", (int)op);
    if ((unsigned)type > (unsigned)CLSCAN_DOUBLE)
        return clscan_fail(CLSCAN_INVALID_TYPE, "clscan_host: type %d is not a clscan_type", (int)type);
    if ((unsigned)kind > (unsigned)CLSCAN_EXCLUSIVE)
        return clscan_fail(CLSCAN_INVALID_KIND, "clscan_host: kind %d is not a clscan_kind", (int)kind);
    if (count == 0)
        return CL_SUCCESS;
    if (!src || !dst)
        return clscan_fail(CL_INVALID_HOST_PTR, "clscan_host: %s is NULL", src ? "dst" : "src");
    if (count > SIZE_MAX / element)
        return clscan_fail(CL_INVALID_BUFFER_SIZE, "clscan_host: %zu elements of %zu bytes overflow size_t",
                           count, element);
    const size_t bytes = count * element;
    if (ranges_overlap(src, dst, bytes))
        return clscan_fail(CL_MEM_COPY_OVERLAP, "clscan_host: src and dst overlap without being equal");

    pthread_mutex_lock(&host_lock);
    cl_int err = open_default_device();
    clscan_plan **plan = &host.plans[op][type][kind];
    if (err == CL_SUCCESS && !*plan)
        *plan = clscan_plan_create(host.context, host.device, op, type, kind, &err);
    if (err == CL_SUCCESS)
        err = scan_on_device(*plan, src, dst, bytes, count);
    pthread_mutex_unlock(&host_lock);
    return err == CL_SUCCESS ? err : clscan_fail_in("clscan_host", err);
}
