/* The fault-injection shim of tests/fault_test (shim.h says what it does and why).  Loaded with
 * LD_PRELOAD, it takes the place of the OpenCL entry points libclscan calls and of malloc,
 * calloc, realloc and free for the whole process; each wrapper looks at its own return address
 * to tell the library's calls from everyone else's, and forwards to the real function (the
 * next definition, dlsym(RTLD_NEXT); the C library's __libc_* allocator) unless it is the
 * library's call chosen to fail.
 *
 * Only the library's failable calls take the lock; free takes it only while the library has
 * live blocks.  The tables are static: the allocator wrappers cannot allocate. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#include "shim.h"

/* glibc's allocator under its internal names, so that the wrappers need no dlsym. */
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t size);
extern void __libc_free(void *p);

#define EXPORT __attribute__((visibility("default")))
#define CALLER __builtin_return_address(0)

/* ---- Which calls are the library's ---------------------------------------------------------- */

/* libclscan.so's executable segments: [lib_lo, lib_hi). */
static uintptr_t lib_lo, lib_hi;

static int find_library(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    (void)data;
    const char *name = info->dlpi_name ? info->dlpi_name : "";
    const char *base = strrchr(name, '/');
    base = base ? base + 1 : name;
    if (strncmp(base, "libclscan.so", strlen("libclscan.so")) != 0)
        return 0;
    uintptr_t lo = UINTPTR_MAX, hi = 0;
    for (int i = 0; i < info->dlpi_phnum; ++i) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
            continue;
        const uintptr_t a = (uintptr_t)info->dlpi_addr + (uintptr_t)ph->p_vaddr;
        if (a < lo)
            lo = a;
        if (a + ph->p_memsz > hi)
            hi = a + ph->p_memsz;
    }
    if (hi > lo) {
        lib_lo = lo;
        lib_hi = hi;
    }
    return 1;
}

__attribute__((constructor)) static void attach(void)
{
    dl_iterate_phdr(find_library, NULL);
}

static inline int from_library(const void *ret)
{
    return (uintptr_t)ret - lib_lo < lib_hi - lib_lo;
}

/* ---- Counting and failing ------------------------------------------------------------------- */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static const char *armed_name;   /* NULL: any failable call */
static long armed_nth, armed_count;
static const char *fired_name;
static long failable_calls, all_calls;

/* A failable call: counted if the library's; true if it is the one to fail. */
static int fail_here(const void *ret, const char *name)
{
    if (!from_library(ret))
        return 0;
    int fail = 0;
    pthread_mutex_lock(&lock);
    ++failable_calls;
    ++all_calls;
    if (!armed_name || strcmp(armed_name, name) == 0) {
        ++armed_count;
        if (armed_nth > 0 && armed_count == armed_nth && !fired_name) {
            fired_name = name;
            fail = 1;
        }
    }
    pthread_mutex_unlock(&lock);
    return fail;
}

/* ---- Books: objects ------------------------------------------------------------------------- */

enum kind { K_CONTEXT, K_QUEUE, K_MEM, K_PROGRAM, K_KERNEL, K_EVENT };
static const char *const kind_names[] = {"context", "command queue", "memory object", "program", "kernel",
                                         "event"};

#define TABLE_BITS 16
#define TABLE_SIZE ((size_t)1 << TABLE_BITS)

typedef struct object {
    const void *handle;   /* NULL: a free slot */
    int kind;
    long net;             /* the library's references */
    unsigned run;         /* the run that last changed it */
    long delta;           /* the change of net during that run */
} object;

typedef struct block {
    const void *p;        /* NULL: a free slot */
    size_t size;
    unsigned run;         /* the run that allocated it */
} block;

static object objects[TABLE_SIZE];
static block blocks[TABLE_SIZE];
static size_t nobjects, nblocks;
static atomic_size_t live_blocks;   /* nblocks, read without the lock by free */
static int overflow;                /* a table was full: the books are incomplete */
static unsigned current_run;

static size_t slot_of(const void *p)
{
    return (size_t)(((uint64_t)(uintptr_t)p >> 4) * 0x9e3779b97f4a7c15u >> (64 - TABLE_BITS));
}

/* Linear probing with backward-shift deletion, over either table: the key is the first member. */
#define FIND(table, key, i)                                                                          \
    do {                                                                                             \
        i = slot_of(key);                                                                            \
        while ((table)[i].KEY && (table)[i].KEY != (key))                                            \
            i = (i + 1) & (TABLE_SIZE - 1);                                                          \
    } while (0)

#define REMOVE(table, i)                                                                             \
    do {                                                                                             \
        size_t hole_ = i, j_ = i;                                                                    \
        for (;;) {                                                                                   \
            j_ = (j_ + 1) & (TABLE_SIZE - 1);                                                        \
            if (!(table)[j_].KEY)                                                                    \
                break;                                                                               \
            const size_t home_ = slot_of((table)[j_].KEY);                                          \
            /* the entry at j_ may move to the hole if its home is not within (hole_, j_] */        \
            if (((j_ - home_) & (TABLE_SIZE - 1)) >= ((j_ - hole_) & (TABLE_SIZE - 1))) {            \
                (table)[hole_] = (table)[j_];                                                        \
                hole_ = j_;                                                                          \
            }                                                                                        \
        }                                                                                            \
        memset(&(table)[hole_], 0, sizeof (table)[hole_]);                                           \
    } while (0)

/* With the lock held. */
static void book(const void *handle, int kind, long d)
{
    if (!handle)
        return;
    size_t i;
#define KEY handle
    FIND(objects, handle, i);
    if (!objects[i].handle) {
        if (nobjects + 1 >= TABLE_SIZE / 2) {
            overflow = 1;
            return;
        }
        objects[i] = (object){.handle = handle, .kind = kind, .run = current_run};
        ++nobjects;
    }
    object *o = &objects[i];
    if (o->run != current_run) {
        o->run = current_run;
        o->delta = 0;
    }
    o->kind = kind;
    o->net += d;
    o->delta += d;
    if (o->net == 0 && o->delta == 0) {
        REMOVE(objects, i);
        --nobjects;
    }
#undef KEY
}

static void book_call(const void *ret, const void *handle, int kind, long d)
{
    if (!from_library(ret))
        return;
    pthread_mutex_lock(&lock);
    ++all_calls;
    book(handle, kind, d);
    pthread_mutex_unlock(&lock);
}

/* ---- Books: heap blocks --------------------------------------------------------------------- */

#define KEY p
static void block_add(const void *p, size_t size)
{
    pthread_mutex_lock(&lock);
    size_t i;
    FIND(blocks, p, i);
    if (!blocks[i].p) {
        if (nblocks + 1 >= TABLE_SIZE / 2) {
            overflow = 1;
            pthread_mutex_unlock(&lock);
            return;
        }
        ++nblocks;
        atomic_store(&live_blocks, nblocks);
    }
    blocks[i] = (block){.p = p, .size = size, .run = current_run};
    pthread_mutex_unlock(&lock);
}

/* Forgets p if it is the library's; true if it was. */
static int block_remove(const void *p)
{
    if (!p || atomic_load_explicit(&live_blocks, memory_order_relaxed) == 0)
        return 0;
    pthread_mutex_lock(&lock);
    size_t i;
    FIND(blocks, p, i);
    const int found = blocks[i].p != NULL;
    if (found) {
        REMOVE(blocks, i);
        --nblocks;
        atomic_store(&live_blocks, nblocks);
    }
    pthread_mutex_unlock(&lock);
    return found;
}
#undef KEY

/* ---- The allocator -------------------------------------------------------------------------- */

EXPORT void *malloc(size_t size)
{
    const void *ret = CALLER;
    if (fail_here(ret, "malloc")) {
        errno = ENOMEM;
        return NULL;
    }
    void *p = __libc_malloc(size);
    if (p && from_library(ret))
        block_add(p, size);
    return p;
}

EXPORT void *calloc(size_t n, size_t size)
{
    const void *ret = CALLER;
    if (fail_here(ret, "calloc")) {
        errno = ENOMEM;
        return NULL;
    }
    void *p = __libc_calloc(n, size);
    if (p && from_library(ret))
        block_add(p, n * size);
    return p;
}

EXPORT void *realloc(void *old, size_t size)
{
    const void *ret = CALLER;
    if (fail_here(ret, "realloc")) {
        errno = ENOMEM;
        return NULL;   /* the old block stays as it was */
    }
    void *p = __libc_realloc(old, size);
    if (!p && size && old)
        return NULL;   /* a real failure: the old block stays */
    const int was_library = block_remove(old);
    if (p && (was_library || from_library(ret)))
        block_add(p, size);
    return p;
}

EXPORT void free(void *p)
{
    if (p && from_library(CALLER)) {
        pthread_mutex_lock(&lock);
        ++all_calls;
        pthread_mutex_unlock(&lock);
    }
    block_remove(p);   /* whoever frees a library block, it is no longer live */
    __libc_free(p);
}

/* ---- OpenCL --------------------------------------------------------------------------------- */

/* The real fn (the next definition after the shim's), looked up on first use. */
#define REAL(fn)                                                                                     \
    static __typeof__(&fn) real_;                                                                    \
    if (!real_)                                                                                      \
        real_ = (__typeof__(&fn))dlsym(RTLD_NEXT, #fn)

/* A failable function that returns a status. */
#define STATUS_CALL(fn, failure, params, args)                                                       \
    EXPORT CL_API_ENTRY cl_int CL_API_CALL fn params                                                 \
    {                                                                                                \
        if (fail_here(CALLER, #fn))                                                                  \
            return failure;                                                                          \
        REAL(fn);                                                                                    \
        return real_ args;                                                                           \
    }

/* A failable clCreate*: NULL and *errcode_ret on failure; the library's creations booked. */
#define CREATE_CALL(type, fn, kind, failure, params, args)                                          \
    EXPORT CL_API_ENTRY type CL_API_CALL fn params                                                   \
    {                                                                                                \
        const void *ret = CALLER;                                                                    \
        if (fail_here(ret, #fn)) {                                                                   \
            if (errcode_ret)                                                                         \
                *errcode_ret = failure;                                                              \
            return NULL;                                                                             \
        }                                                                                            \
        REAL(fn);                                                                                    \
        type object = real_ args;                                                                    \
        if (object && from_library(ret)) {                                                           \
            pthread_mutex_lock(&lock);                                                               \
            book(object, kind, +1);                                                                  \
            pthread_mutex_unlock(&lock);                                                             \
        }                                                                                            \
        return object;                                                                               \
    }

/* A failable clEnqueue* whose last parameter is the event it may return (booked). */
#define ENQUEUE_CALL(fn, params, args)                                                               \
    EXPORT CL_API_ENTRY cl_int CL_API_CALL fn params                                                 \
    {                                                                                                \
        const void *ret = CALLER;                                                                    \
        if (fail_here(ret, #fn))                                                                     \
            return CL_OUT_OF_RESOURCES;                                                              \
        REAL(fn);                                                                                    \
        const cl_int err = real_ args;                                                               \
        if (err == CL_SUCCESS && event && from_library(ret)) {                                       \
            pthread_mutex_lock(&lock);                                                               \
            book(*event, K_EVENT, +1);                                                               \
            pthread_mutex_unlock(&lock);                                                             \
        }                                                                                            \
        return err;                                                                                  \
    }

/* clRetain* and clRelease*: never failed, booked. */
#define REFERENCE_CALL(fn, type, kind, d)                                                           \
    EXPORT CL_API_ENTRY cl_int CL_API_CALL fn(type object)                                           \
    {                                                                                                \
        book_call(CALLER, object, kind, d);                                                          \
        REAL(fn);                                                                                    \
        return real_(object);                                                                        \
    }

/* Every wrapped entry point is named WRAP(name) in a comment here, which tests/fault_test.sh
 * compares with the entry points lib/ calls. */

/* WRAP(clGetPlatformIDs) WRAP(clGetPlatformInfo) WRAP(clGetDeviceIDs) WRAP(clGetDeviceInfo) */
STATUS_CALL(clGetPlatformIDs, CL_OUT_OF_HOST_MEMORY,
            (cl_uint num_entries, cl_platform_id *platforms, cl_uint *num_platforms),
            (num_entries, platforms, num_platforms))
STATUS_CALL(clGetPlatformInfo, CL_OUT_OF_HOST_MEMORY,
            (cl_platform_id platform, cl_platform_info name, size_t size, void *value, size_t *size_ret),
            (platform, name, size, value, size_ret))
STATUS_CALL(clGetDeviceIDs, CL_OUT_OF_HOST_MEMORY,
            (cl_platform_id platform, cl_device_type type, cl_uint num_entries, cl_device_id *devices,
             cl_uint *num_devices),
            (platform, type, num_entries, devices, num_devices))
STATUS_CALL(clGetDeviceInfo, CL_OUT_OF_HOST_MEMORY,
            (cl_device_id device, cl_device_info name, size_t size, void *value, size_t *size_ret),
            (device, name, size, value, size_ret))

/* WRAP(clGetContextInfo) WRAP(clGetCommandQueueInfo) WRAP(clGetMemObjectInfo) WRAP(clGetEventInfo)
 * WRAP(clGetKernelWorkGroupInfo) WRAP(clGetProgramBuildInfo) WRAP(clGetProgramInfo) */
STATUS_CALL(clGetContextInfo, CL_OUT_OF_HOST_MEMORY,
            (cl_context context, cl_context_info name, size_t size, void *value, size_t *size_ret),
            (context, name, size, value, size_ret))
STATUS_CALL(clGetCommandQueueInfo, CL_OUT_OF_HOST_MEMORY,
            (cl_command_queue queue, cl_command_queue_info name, size_t size, void *value, size_t *size_ret),
            (queue, name, size, value, size_ret))
STATUS_CALL(clGetMemObjectInfo, CL_OUT_OF_HOST_MEMORY,
            (cl_mem mem, cl_mem_info name, size_t size, void *value, size_t *size_ret),
            (mem, name, size, value, size_ret))
STATUS_CALL(clGetEventInfo, CL_OUT_OF_HOST_MEMORY,
            (cl_event event, cl_event_info name, size_t size, void *value, size_t *size_ret),
            (event, name, size, value, size_ret))
STATUS_CALL(clGetKernelWorkGroupInfo, CL_OUT_OF_HOST_MEMORY,
            (cl_kernel kernel, cl_device_id device, cl_kernel_work_group_info name, size_t size, void *value,
             size_t *size_ret),
            (kernel, device, name, size, value, size_ret))
STATUS_CALL(clGetProgramBuildInfo, CL_OUT_OF_HOST_MEMORY,
            (cl_program program, cl_device_id device, cl_program_build_info name, size_t size, void *value,
             size_t *size_ret),
            (program, device, name, size, value, size_ret))
STATUS_CALL(clGetProgramInfo, CL_OUT_OF_HOST_MEMORY,
            (cl_program program, cl_program_info name, size_t size, void *value, size_t *size_ret),
            (program, name, size, value, size_ret))

/* WRAP(clCreateContext) WRAP(clCreateCommandQueue) WRAP(clCreateBuffer) WRAP(clCreateProgramWithSource)
 * WRAP(clCreateProgramWithBinary) WRAP(clCreateKernel) WRAP(clBuildProgram) WRAP(clSetKernelArg) */
CREATE_CALL(cl_context, clCreateContext, K_CONTEXT, CL_OUT_OF_HOST_MEMORY,
            (const cl_context_properties *properties, cl_uint num_devices, const cl_device_id *devices,
             void(CL_CALLBACK *notify)(const char *, const void *, size_t, void *), void *user_data,
             cl_int *errcode_ret),
            (properties, num_devices, devices, notify, user_data, errcode_ret))
CREATE_CALL(cl_command_queue, clCreateCommandQueue, K_QUEUE, CL_OUT_OF_HOST_MEMORY,
            (cl_context context, cl_device_id device, cl_command_queue_properties properties,
             cl_int *errcode_ret),
            (context, device, properties, errcode_ret))
CREATE_CALL(cl_mem, clCreateBuffer, K_MEM, CL_MEM_OBJECT_ALLOCATION_FAILURE,
            (cl_context context, cl_mem_flags flags, size_t size, void *host_ptr, cl_int *errcode_ret),
            (context, flags, size, host_ptr, errcode_ret))
CREATE_CALL(cl_program, clCreateProgramWithSource, K_PROGRAM, CL_OUT_OF_HOST_MEMORY,
            (cl_context context, cl_uint count, const char **strings, const size_t *lengths, cl_int *errcode_ret),
            (context, count, strings, lengths, errcode_ret))
CREATE_CALL(cl_program, clCreateProgramWithBinary, K_PROGRAM, CL_OUT_OF_HOST_MEMORY,
            (cl_context context, cl_uint num_devices, const cl_device_id *devices, const size_t *lengths,
             const unsigned char **binaries, cl_int *binary_status, cl_int *errcode_ret),
            (context, num_devices, devices, lengths, binaries, binary_status, errcode_ret))
CREATE_CALL(cl_kernel, clCreateKernel, K_KERNEL, CL_OUT_OF_HOST_MEMORY,
            (cl_program program, const char *name, cl_int *errcode_ret), (program, name, errcode_ret))
/* A failed build is one the compiler ran: forwarded, then CL_BUILD_PROGRAM_FAILURE, so that the
 * library's way through the build log is taken too. */
EXPORT CL_API_ENTRY cl_int CL_API_CALL clBuildProgram(cl_program program, cl_uint num_devices,
                                                      const cl_device_id *devices, const char *options,
                                                      void(CL_CALLBACK *notify)(cl_program, void *),
                                                      void *user_data)
{
    const int fail = fail_here(CALLER, "clBuildProgram");
    REAL(clBuildProgram);
    const cl_int err = real_(program, num_devices, devices, options, notify, user_data);
    return fail ? CL_BUILD_PROGRAM_FAILURE : err;
}
STATUS_CALL(clSetKernelArg, CL_OUT_OF_HOST_MEMORY,
            (cl_kernel kernel, cl_uint index, size_t size, const void *value), (kernel, index, size, value))

/* WRAP(clEnqueueNDRangeKernel) WRAP(clEnqueueFillBuffer) WRAP(clEnqueueCopyBuffer)
 * WRAP(clEnqueueMarkerWithWaitList) WRAP(clEnqueueReadBuffer) WRAP(clEnqueueWriteBuffer) WRAP(clFinish)
 * WRAP(clWaitForEvents) */
ENQUEUE_CALL(clEnqueueNDRangeKernel,
             (cl_command_queue queue, cl_kernel kernel, cl_uint dims, const size_t *offset, const size_t *global,
              const size_t *local, cl_uint nwait, const cl_event *wait, cl_event *event),
             (queue, kernel, dims, offset, global, local, nwait, wait, event))
ENQUEUE_CALL(clEnqueueFillBuffer,
             (cl_command_queue queue, cl_mem buffer, const void *pattern, size_t pattern_size, size_t offset,
              size_t size, cl_uint nwait, const cl_event *wait, cl_event *event),
             (queue, buffer, pattern, pattern_size, offset, size, nwait, wait, event))
ENQUEUE_CALL(clEnqueueCopyBuffer,
             (cl_command_queue queue, cl_mem src, cl_mem dst, size_t src_offset, size_t dst_offset, size_t size,
              cl_uint nwait, const cl_event *wait, cl_event *event),
             (queue, src, dst, src_offset, dst_offset, size, nwait, wait, event))
ENQUEUE_CALL(clEnqueueMarkerWithWaitList,
             (cl_command_queue queue, cl_uint nwait, const cl_event *wait, cl_event *event),
             (queue, nwait, wait, event))
ENQUEUE_CALL(clEnqueueReadBuffer,
             (cl_command_queue queue, cl_mem buffer, cl_bool blocking, size_t offset, size_t size, void *ptr,
              cl_uint nwait, const cl_event *wait, cl_event *event),
             (queue, buffer, blocking, offset, size, ptr, nwait, wait, event))
ENQUEUE_CALL(clEnqueueWriteBuffer,
             (cl_command_queue queue, cl_mem buffer, cl_bool blocking, size_t offset, size_t size, const void *ptr,
              cl_uint nwait, const cl_event *wait, cl_event *event),
             (queue, buffer, blocking, offset, size, ptr, nwait, wait, event))
/* WRAP(clEnqueueMapBuffer) WRAP(clEnqueueUnmapMemObject) */
EXPORT CL_API_ENTRY void *CL_API_CALL clEnqueueMapBuffer(cl_command_queue queue, cl_mem buffer, cl_bool blocking,
                                                        cl_map_flags flags, size_t offset, size_t size,
                                                        cl_uint nwait, const cl_event *wait, cl_event *event,
                                                        cl_int *errcode_ret)
{
    const void *ret = CALLER;
    if (fail_here(ret, "clEnqueueMapBuffer")) {
        if (errcode_ret)
            *errcode_ret = CL_MAP_FAILURE;
        return NULL;
    }
    REAL(clEnqueueMapBuffer);
    void *p = real_(queue, buffer, blocking, flags, offset, size, nwait, wait, event, errcode_ret);
    if (p && event && from_library(ret)) {
        pthread_mutex_lock(&lock);
        book(*event, K_EVENT, +1);
        pthread_mutex_unlock(&lock);
    }
    return p;
}
ENQUEUE_CALL(clEnqueueUnmapMemObject,
             (cl_command_queue queue, cl_mem memobj, void *mapped, cl_uint nwait, const cl_event *wait,
              cl_event *event),
             (queue, memobj, mapped, nwait, wait, event))
STATUS_CALL(clFinish, CL_OUT_OF_RESOURCES, (cl_command_queue queue), (queue))
STATUS_CALL(clWaitForEvents, CL_OUT_OF_RESOURCES, (cl_uint n, const cl_event *events), (n, events))

/* WRAP(clRetainContext) WRAP(clReleaseContext) WRAP(clRetainCommandQueue) WRAP(clReleaseCommandQueue)
 * WRAP(clRetainMemObject) WRAP(clReleaseMemObject) WRAP(clRetainProgram) WRAP(clReleaseProgram)
 * WRAP(clRetainKernel) WRAP(clReleaseKernel) WRAP(clRetainEvent) WRAP(clReleaseEvent) */
REFERENCE_CALL(clRetainContext, cl_context, K_CONTEXT, +1)
REFERENCE_CALL(clReleaseContext, cl_context, K_CONTEXT, -1)
REFERENCE_CALL(clRetainCommandQueue, cl_command_queue, K_QUEUE, +1)
REFERENCE_CALL(clReleaseCommandQueue, cl_command_queue, K_QUEUE, -1)
REFERENCE_CALL(clRetainMemObject, cl_mem, K_MEM, +1)
REFERENCE_CALL(clReleaseMemObject, cl_mem, K_MEM, -1)
REFERENCE_CALL(clRetainProgram, cl_program, K_PROGRAM, +1)
REFERENCE_CALL(clReleaseProgram, cl_program, K_PROGRAM, -1)
REFERENCE_CALL(clRetainKernel, cl_kernel, K_KERNEL, +1)
REFERENCE_CALL(clReleaseKernel, cl_kernel, K_KERNEL, -1)
REFERENCE_CALL(clRetainEvent, cl_event, K_EVENT, +1)
REFERENCE_CALL(clReleaseEvent, cl_event, K_EVENT, -1)

/* ---- The driver's interface ----------------------------------------------------------------- */

static int api_attached(void)
{
    return lib_hi > lib_lo;
}

static void api_arm(const char *name, long nth)
{
    pthread_mutex_lock(&lock);
    armed_name = name;
    armed_nth = nth;
    armed_count = 0;
    fired_name = NULL;
    pthread_mutex_unlock(&lock);
}

static long api_counted(void)
{
    pthread_mutex_lock(&lock);
    const long n = armed_count;
    pthread_mutex_unlock(&lock);
    return n;
}

static const char *api_fired(void)
{
    pthread_mutex_lock(&lock);
    const char *name = fired_name;
    pthread_mutex_unlock(&lock);
    return name;
}

static long api_total_failable(void)
{
    pthread_mutex_lock(&lock);
    const long n = failable_calls;
    pthread_mutex_unlock(&lock);
    return n;
}

static long api_total_calls(void)
{
    pthread_mutex_lock(&lock);
    const long n = all_calls;
    pthread_mutex_unlock(&lock);
    return n;
}

static void api_run_begin(void)
{
    pthread_mutex_lock(&lock);
    ++current_run;
    pthread_mutex_unlock(&lock);
}

/* Appends a line to buf (as much as fits). */
static void say(char *buf, size_t size, size_t *used, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void say(char *buf, size_t size, size_t *used, const char *fmt, ...)
{
    if (!buf || *used + 1 >= size)
        return;
    va_list ap;
    va_start(ap, fmt);
    const int n = vsnprintf(buf + *used, size - *used, fmt, ap);
    va_end(ap);
    if (n > 0)
        *used += (size_t)n < size - *used ? (size_t)n : size - *used - 1;
}

/* The problems among the objects and blocks (this run's only, or all); forgets settled objects. */
static int check(char *buf, size_t size, int all)
{
    size_t used = 0;
    int problems = 0;
    if (buf && size)
        buf[0] = '\0';
    pthread_mutex_lock(&lock);
    if (overflow) {
        say(buf, size, &used, "    the shim's tables overflowed: the books are incomplete\n");
        ++problems;
    }
    for (size_t i = 0; i < TABLE_SIZE; ++i) {
        const object *o = &objects[i];
        if (!o->handle)
            continue;
        const int touched = o->run == current_run;
        if (o->net < 0 || (all && o->net != 0) || (!all && touched && o->delta != 0)) {
            say(buf, size, &used, "    %s %p: the library holds %+ld reference(s)%s (%+ld in this run)\n",
                kind_names[o->kind], o->handle, o->net, o->net < 0 ? ", released more than it took" : "",
                touched ? o->delta : 0);
            ++problems;
        }
    }
    for (size_t i = 0; i < TABLE_SIZE; ++i) {
        const block *b = &blocks[i];
        if (b->p && (all || b->run == current_run)) {
            say(buf, size, &used, "    heap block %p of %zu bytes allocated by the library was not freed\n", b->p,
                b->size);
            ++problems;
        }
    }
    /* Settled objects need no entry (a new object may take the address). */
    for (size_t i = 0; i < TABLE_SIZE;) {
#define KEY handle
        if (objects[i].handle && objects[i].net == 0) {
            REMOVE(objects, i);
            --nobjects;
            continue;   /* slot i holds another entry now (or none) */
        }
#undef KEY
        ++i;
    }
    pthread_mutex_unlock(&lock);
    return problems;
}

static int api_run_check(char *buf, size_t size)
{
    return check(buf, size, 0);
}

static int api_all_check(char *buf, size_t size)
{
    return check(buf, size, 1);
}

static void api_adopt(const void *object)
{
    if (!object)
        return;
    pthread_mutex_lock(&lock);
    size_t i;
#define KEY handle
    FIND(objects, object, i);
#undef KEY
    if (objects[i].handle)
        book(object, objects[i].kind, -1);
    pthread_mutex_unlock(&lock);
}

static const fault_shim_api api = {
    FAULT_SHIM_VERSION, api_attached,  api_arm,       api_counted,   api_fired,  api_total_failable,
    api_total_calls,    api_run_begin, api_run_check, api_all_check, api_adopt,
};

EXPORT const fault_shim_api *fault_shim_get(void)
{
    return &api;
}
