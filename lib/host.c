/* clscan_host and clscan_host_with: blocking scans of host arrays.  Each device asked for (the
 * default one, or one named by a spec) gets a context, a queue and plans, made once and kept
 * until clscan_cache_clear().  On devices that share the host's memory (CPUs: the device
 * reports CL_DEVICE_HOST_UNIFIED_MEMORY) the buffers are made over the caller's arrays
 * (CL_MEM_USE_HOST_PTR) and dst is mapped back: nothing is copied.  Elsewhere src is written to
 * a device buffer, scanned in place and read back. */
#include "host.h"
#include "environment.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Devices kept at once; beyond that the least recently used one is closed. */
#define HOST_DEVICES 8

typedef struct host_device {
    int open;
    char *spec;                  /* what it was opened for; NULL: the default device */
    unsigned long last_use;
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
    int zero_copy;               /* buffers over the caller's arrays */
    cl_ulong max_alloc;          /* CL_DEVICE_MAX_MEM_ALLOC_SIZE */
    clscan_plan *plans[CLSCAN_AFFINE + 1][CLSCAN_DOUBLE + 1][CLSCAN_EXCLUSIVE + 1];
} host_device;

static pthread_mutex_t host_lock = PTHREAD_MUTEX_INITIALIZER;
static host_device devices[HOST_DEVICES];
static unsigned long uses;

static void close_device(host_device *d)
{
    for (int o = 0; o <= CLSCAN_AFFINE; ++o)
        for (int t = 0; t <= CLSCAN_DOUBLE; ++t)
            for (int k = 0; k <= CLSCAN_EXCLUSIVE; ++k)
                clscan_plan_release(d->plans[o][t][k]);
    if (d->queue)
        clReleaseCommandQueue(d->queue);
    if (d->context)
        clReleaseContext(d->context);
    free(d->spec);
    memset(d, 0, sizeof *d);
}

void clscan_host_clear(void)
{
    pthread_mutex_lock(&host_lock);
    for (int i = 0; i < HOST_DEVICES; ++i)
        if (devices[i].open)
            close_device(&devices[i]);
    pthread_mutex_unlock(&host_lock);
}

static int same_spec(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

/* With host_lock held: the device for spec, opened on first use (fn names the caller). */
static cl_int open_device(const char *fn, const char *spec, host_device **out)
{
    host_device *d = NULL;
    for (int i = 0; i < HOST_DEVICES && !d; ++i)
        if (devices[i].open && same_spec(devices[i].spec, spec))
            d = &devices[i];
    if (d) {
        d->last_use = ++uses;
        *out = d;
        return CL_SUCCESS;
    }
    clscan_dev_options dev;
    cl_platform_id platform;
    cl_device_id device;
    cl_int err = clscan_env_dev_options(fn, &dev);
    if (err == CL_SUCCESS)
        err = clscan_default_device(spec, &platform, &device);
    if (err != CL_SUCCESS)
        return err;
    for (int i = 0; i < HOST_DEVICES; ++i)   /* a free entry, else the least recently used */
        if (!d || !devices[i].open || (d->open && devices[i].last_use < d->last_use))
            d = &devices[i];
    if (d->open)
        close_device(d);
    if (spec) {
        const size_t n = strlen(spec) + 1;
        if (!(d->spec = malloc(n)))
            return clscan_fail(CL_OUT_OF_HOST_MEMORY, "%s: out of host memory", fn);
        memcpy(d->spec, spec, n);
    }
    cl_bool unified = CL_FALSE;
    if (clGetDeviceInfo(device, CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof unified, &unified, NULL) != CL_SUCCESS)
        unified = CL_FALSE;
    d->zero_copy = unified == CL_TRUE && !dev.host_copy;
    if (clGetDeviceInfo(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof d->max_alloc, &d->max_alloc, NULL) != CL_SUCCESS)
        d->max_alloc = 0;
    const cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)platform, 0};
    d->context = clCreateContext(props, 1, &device, NULL, NULL, &err);
    if (err == CL_SUCCESS)
        d->queue = clCreateCommandQueue(d->context, device, 0, &err);
    if (err != CL_SUCCESS) {
        close_device(d);
        return clscan_fail(err, "%s: creating a context and a queue failed: %s", fn, clscan_error_string(err));
    }
    d->open = 1;
    d->device = device;
    d->last_use = ++uses;
    *out = d;
    return CL_SUCCESS;
}

static int ranges_overlap(const void *a, size_t a_bytes, const void *b, size_t b_bytes)
{
    const uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
    return x < y + b_bytes && y < x + a_bytes;
}

/* One call's arrays and options. */
typedef struct host_call {
    const char *fn;
    const void *src;
    void *dst;                   /* NULL: a reduction (total_out given) */
    size_t count, bytes, element;
    clscan_scan_options options; /* init and reverse; total set below */
    void *total_out;
} host_call;

static cl_int buffer_over(const host_call *c, const host_device *d, cl_mem_flags flags, size_t bytes, void *host,
                          cl_mem *out)
{
    cl_int err;
    *out = clCreateBuffer(d->context, flags, bytes, host, &err);
    if (err != CL_SUCCESS)
        return clscan_fail(err, "%s: cannot make a buffer of %zu bytes: %s", c->fn, bytes, clscan_error_string(err));
    return CL_SUCCESS;
}

/* Makes the source and destination buffers: over the arrays (zero copy) or on the device with
 * src written to it.  A count of 0 (only a total) gets a placeholder of one element. */
static cl_int make_buffers(const host_call *c, const host_device *d, cl_mem *in, cl_mem *out)
{
    const size_t bytes = c->count ? c->bytes : c->element;
    const int in_place = c->src == c->dst;
    cl_int err;
    if (d->zero_copy && c->count) {
        err = buffer_over(c, d, CL_MEM_USE_HOST_PTR | (in_place ? CL_MEM_READ_WRITE : CL_MEM_READ_ONLY), bytes,
                          (void *)c->src, in);
        if (err == CL_SUCCESS && c->dst && !in_place)
            err = buffer_over(c, d, CL_MEM_USE_HOST_PTR | CL_MEM_READ_WRITE, bytes, c->dst, out);
        else
            *out = c->dst ? *in : NULL;
        return err;
    }
    /* Copies: one device buffer, scanned in place. */
    err = buffer_over(c, d, CL_MEM_READ_WRITE, bytes, NULL, in);
    if (err == CL_SUCCESS && c->count &&
        (err = clEnqueueWriteBuffer(d->queue, *in, CL_FALSE, 0, bytes, c->src, 0, NULL, NULL)) != CL_SUCCESS)
        clscan_fail(err, "%s: clEnqueueWriteBuffer failed: %s", c->fn, clscan_error_string(err));
    *out = c->dst ? *in : NULL;
    return err;
}

/* Brings dst's scanned elements to the host: unmapping a map of a buffer over dst, or a read. */
static cl_int fetch(const host_call *c, const host_device *d, cl_mem out)
{
    cl_int err;
    if (!d->zero_copy) {
        err = clEnqueueReadBuffer(d->queue, out, CL_TRUE, 0, c->bytes, c->dst, 0, NULL, NULL);
        return err == CL_SUCCESS ? err : clscan_fail(err, "%s: clEnqueueReadBuffer failed: %s", c->fn,
                                                     clscan_error_string(err));
    }
    void *p = clEnqueueMapBuffer(d->queue, out, CL_TRUE, CL_MAP_READ, 0, c->bytes, 0, NULL, NULL, &err);
    if (err != CL_SUCCESS)
        return clscan_fail(err, "%s: clEnqueueMapBuffer failed: %s", c->fn, clscan_error_string(err));
    if (p != c->dst)   /* the implementation kept a copy of its own (OpenCL allows it) */
        memcpy(c->dst, p, c->bytes);
    err = clEnqueueUnmapMemObject(d->queue, out, p, 0, NULL, NULL);
    return err == CL_SUCCESS ? err : clscan_fail(err, "%s: clEnqueueUnmapMemObject failed: %s", c->fn,
                                                 clscan_error_string(err));
}

static cl_int run(const host_call *c, const host_device *d, clscan_plan *plan)
{
    cl_mem in = NULL, out = NULL, total = NULL;
    clscan_scan_options o = c->options;
    cl_int err = make_buffers(c, d, &in, &out);
    if (err == CL_SUCCESS && c->total_out &&
        (err = buffer_over(c, d, CL_MEM_READ_WRITE, c->element, NULL, &total)) == CL_SUCCESS)
        o.total = total;
    if (err == CL_SUCCESS)
        err = clscan_enqueue_with(plan, d->queue, in, 0, out, 0, c->count, &o, 0, NULL, NULL);
    if (err == CL_SUCCESS && out)
        err = fetch(c, d, out);
    if (err == CL_SUCCESS && total &&
        (err = clEnqueueReadBuffer(d->queue, total, CL_TRUE, 0, c->element, c->total_out, 0, NULL, NULL)))
        clscan_fail(err, "%s: clEnqueueReadBuffer failed: %s", c->fn, clscan_error_string(err));
    clFinish(d->queue);
    if (out && out != in)
        clReleaseMemObject(out);
    if (in)
        clReleaseMemObject(in);
    if (total)
        clReleaseMemObject(total);
    return err;
}

static cl_int host_scan(const char *fn, const char *device_spec, clscan_op op, clscan_type type, clscan_kind kind,
                        const void *src, void *dst, size_t count, const void *init, void *total_out, int reverse)
{
    const size_t element = clscan_op_element_size(op, type);
    if ((unsigned)op > (unsigned)CLSCAN_AFFINE)
        return clscan_fail(CLSCAN_INVALID_OPERATOR, "%s: operator %d is not a clscan_op", fn, (int)op);
    if ((unsigned)type > (unsigned)CLSCAN_DOUBLE)
        return clscan_fail(CLSCAN_INVALID_TYPE, "%s: type %d is not a type of the scans", fn, (int)type);
    if ((unsigned)kind > (unsigned)CLSCAN_EXCLUSIVE)
        return clscan_fail(CLSCAN_INVALID_KIND, "%s: kind %d is not a clscan_kind", fn, (int)kind);
    if (count == 0 && !total_out)
        return CL_SUCCESS;
    if (count && (!src || (!dst && !total_out)))
        return clscan_fail(CL_INVALID_HOST_PTR, "%s: %s is NULL", fn, src ? "dst" : "src");
    if (count > SIZE_MAX / element)
        return clscan_fail(CL_INVALID_BUFFER_SIZE, "%s: %zu elements of %zu bytes overflow size_t", fn, count,
                           element);
    const size_t bytes = count * element;
    if (dst && src != dst && ranges_overlap(src, bytes, dst, bytes))
        return clscan_fail(CL_MEM_COPY_OVERLAP, "%s: src and dst overlap without being equal", fn);
    const int total_in_src = total_out && src && ranges_overlap(total_out, element, src, bytes);
    if (total_in_src || (total_out && dst && ranges_overlap(total_out, element, dst, bytes)))
        return clscan_fail(CL_MEM_COPY_OVERLAP, "%s: total_out overlaps %s", fn, total_in_src ? "src" : "dst");
    host_call c = {.fn = fn, .src = src, .dst = count ? dst : NULL, .count = count, .bytes = bytes,
                   .element = element, .options = {.init = init, .reverse = reverse}, .total_out = total_out};

    pthread_mutex_lock(&host_lock);
    host_device *d = NULL;
    cl_int err = open_device(fn, device_spec, &d);
    clscan_plan **plan = d ? &d->plans[op][type][kind] : NULL;
    /* Checked here: a driver that allocates more (NVIDIA's) would read or write past the arrays
     * of a caller whose count is wrong. */
    if (err == CL_SUCCESS && d->max_alloc && bytes > d->max_alloc)
        err = clscan_fail(CL_INVALID_BUFFER_SIZE, "%s: %zu bytes are more than the device allocates in one buffer "
                          "(%llu)", fn, bytes, (unsigned long long)d->max_alloc);
    if (err == CL_SUCCESS && !*plan)
        *plan = clscan_plan_create(d->context, d->device, op, type, kind, &err);
    if (err == CL_SUCCESS)
        err = run(&c, d, *plan);
    pthread_mutex_unlock(&host_lock);
    return err == CL_SUCCESS ? err : clscan_fail_in(fn, err);
}

CLSCAN_API cl_int clscan_host(clscan_op op, clscan_type type, clscan_kind kind, const void *src, void *dst,
                              size_t count)
{
    return host_scan("clscan_host", NULL, op, type, kind, src, dst, count, NULL, NULL, 0);
}

CLSCAN_API cl_int clscan_host_with(const char *device_spec, clscan_op op, clscan_type type, clscan_kind kind,
                                   const void *src, void *dst, size_t count, const void *init, void *total_out,
                                   int reverse)
{
    return host_scan("clscan_host_with", device_spec, op, type, kind, src, dst, count, init, total_out, reverse);
}
