/* Built programs, cached per (context, device, build options, source).  The cache holds a
 * reference to each program, which keeps its context alive until clscan_cache_clear(); holding
 * it also means a cached context's address cannot be reused by a new context, so the key stays
 * unambiguous.  Below it, the on-disk cache of binaries (disk_cache.h) spares a new process the
 * compiler. */
#include "program.h"
#include "disk_cache.h"
#include "source.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct cache_entry {
    cl_context context;
    cl_device_id device;
    char *options;
    char *source;
    cl_program program;
    struct cache_entry *next;
} cache_entry;

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static cache_entry *cache_head;

/* Builds source for device; on failure the compiler's log goes into the error message. */
static cl_int build(const char *fn, cl_context context, cl_device_id device, const char *source,
                    const char *options, cl_program *program)
{
    cl_int err;
    cl_program p = clCreateProgramWithSource(context, 1, &source, NULL, &err);
    if (err != CL_SUCCESS)
        return clscan_fail(err, "%s: clCreateProgramWithSource failed: %s", fn, clscan_error_string(err));
    err = clBuildProgram(p, 1, &device, options, NULL, NULL);
    if (err != CL_SUCCESS) {
        size_t n = 0;
        char *log = NULL;
        if (clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, 0, NULL, &n) == CL_SUCCESS && n)
            log = malloc(n + 1);
        if (log && clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, n, log, NULL) == CL_SUCCESS)
            log[n] = '\0';
        else if (log)
            log[0] = '\0';
        clscan_fail_with_text(err, log ? log : "(no build log)",
                              "%s: clBuildProgram failed (%s) with options \"%s\"; the compiler's log:", fn,
                              clscan_error_string(err), options);
        free(log);
        clReleaseProgram(p);
        return err;
    }
    *program = p;
    return CL_SUCCESS;
}

static char *copy_string(const char *s)
{
    const size_t n = strlen(s) + 1;
    char *c = malloc(n);
    return c ? memcpy(c, s, n) : NULL;
}

/* The program from the disk cache's binary, else built from source (and then stored there). */
static cl_int load_or_build(const char *fn, cl_context context, cl_device_id device, const char *source,
                            const char *options, cl_program *program)
{
    clscan_disk_key *key = clscan_disk_key_make(device, source, options);
    cl_program p = key ? clscan_disk_cache_load(key, context, device, options) : NULL;
    cl_int err = CL_SUCCESS;
    if (!p && (err = build(fn, context, device, source, options, &p)) == CL_SUCCESS && key)
        clscan_disk_cache_store(key, p, device);
    clscan_disk_key_free(key);
    *program = p;
    return err;
}

/* The cached program or a new one (with the cache's lock held: two threads asking for the
 * same program build it once). */
static cl_int cached(const char *fn, cl_context context, cl_device_id device, const char *source, const char *options,
                     cl_program *program)
{
    for (cache_entry *e = cache_head; e; e = e->next) {
        if (e->context == context && e->device == device && strcmp(e->options, options) == 0 &&
            strcmp(e->source, source) == 0) {
            clRetainProgram(e->program);
            *program = e->program;
            return CL_SUCCESS;
        }
    }
    cl_program p = NULL;
    cl_int err = load_or_build(fn, context, device, source, options, &p);
    if (err != CL_SUCCESS)
        return err;
    cache_entry *e = calloc(1, sizeof *e);
    if (e && (e->options = copy_string(options)) && (e->source = copy_string(source))) {
        e->context = context;
        e->device = device;
        e->program = p;
        clRetainProgram(p);
        e->next = cache_head;
        cache_head = e;
    } else if (e) {   /* out of memory for the entry only costs a later rebuild */
        free(e->options);
        free(e);
    }
    *program = p;
    return CL_SUCCESS;
}

cl_int clscan_program_get(const char *fn, cl_context context, cl_device_id device, const clscan_device_info *info,
                          const clscan_dev_options *dev, const char *text, const char *const *files,
                          const char *defines, cl_program *program)
{
    char options[2048];
    const int n = snprintf(options, sizeof options, "%s%s%s%s", info->opencl_c_1_2 ? "-cl-std=CL1.2 " : "",
                           defines, dev->build[0] ? " " : "", dev->build);
    if (n < 0 || (size_t)n >= sizeof options)
        return clscan_fail(CL_INVALID_BUILD_OPTIONS, "%s: the build options are too long", fn);
    char *source = NULL;
    cl_int err = clscan_source_join(fn, dev->kernel_dir, text, files, &source);
    if (err != CL_SUCCESS)
        return err;
    pthread_mutex_lock(&cache_lock);
    err = cached(fn, context, device, source, options, program);
    pthread_mutex_unlock(&cache_lock);
    free(source);
    return err;
}

void clscan_program_cache_clear(void)
{
    pthread_mutex_lock(&cache_lock);
    cache_entry *e = cache_head;
    cache_head = NULL;
    pthread_mutex_unlock(&cache_lock);
    while (e) {
        cache_entry *next = e->next;
        clReleaseProgram(e->program);
        free(e->options);
        free(e->source);
        free(e);
        e = next;
    }
}

/* A work-group's private memory, as the compiler reports it, at most: CPU devices (PoCL) keep a
 * work-group's private memory on one thread's stack. */
#define MAX_GROUP_PRIVATE ((cl_ulong)4 << 20)

cl_int clscan_kernel_create(const char *fn, cl_program program, cl_device_id device, const clscan_device_info *info,
                            const char *name, size_t wg, cl_kernel *kernel)
{
    cl_int err;
    *kernel = clCreateKernel(program, name, &err);
    if (err != CL_SUCCESS) {
        *kernel = NULL;
        return clscan_fail(err, "%s: clCreateKernel(%s) failed: %s", fn, name, clscan_error_string(err));
    }
    size_t kernel_wg = 0;
    cl_ulong kernel_local = 0, kernel_private = 0;
    err = clGetKernelWorkGroupInfo(*kernel, device, CL_KERNEL_WORK_GROUP_SIZE, sizeof kernel_wg, &kernel_wg, NULL);
    if (err == CL_SUCCESS)
        err = clGetKernelWorkGroupInfo(*kernel, device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof kernel_local,
                                       &kernel_local, NULL);
    if (err == CL_SUCCESS)
        err = clGetKernelWorkGroupInfo(*kernel, device, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof kernel_private,
                                       &kernel_private, NULL);
    if (err != CL_SUCCESS)
        err = clscan_fail(err, "%s: clGetKernelWorkGroupInfo(%s) failed: %s", fn, name, clscan_error_string(err));
    else if (kernel_wg < wg)
        err = clscan_fail(CL_INVALID_WORK_GROUP_SIZE, "%s: kernel %s runs at most %zu work-items per work-group on "
                          "%s, not %zu", fn, name, kernel_wg, info->name, wg);
    else if (kernel_local > info->local_mem_size)
        err = clscan_fail(CLSCAN_DEVICE_NOT_SUPPORTED, "%s: kernel %s needs %llu bytes of local memory; %s has %llu",
                          fn, name, (unsigned long long)kernel_local, info->name,
                          (unsigned long long)info->local_mem_size);
    else if (kernel_private * wg > MAX_GROUP_PRIVATE)
        err = clscan_fail(CLSCAN_DEVICE_NOT_SUPPORTED, "%s: kernel %s needs %llu bytes of private memory per "
                          "work-item: too much for %zu work-items on %s", fn, name, (unsigned long long)kernel_private,
                          wg, info->name);
    if (err != CL_SUCCESS) {
        clReleaseKernel(*kernel);
        *kernel = NULL;
    }
    return err;
}
