/* Built programs, cached per (context, device, build options, source): a second plan with the
 * same operator, type, kind and tuning on the same device takes the program built for the
 * first.  The cache holds a reference to each program, which keeps its context alive until
 * clscan_cache_clear(); holding it also means a cached context's address cannot be reused by a
 * new context, so the key stays unambiguous. */
#include "internal.h"

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
static cl_int build(cl_context context, cl_device_id device, const char *source,
                    const char *options, cl_program *program)
{
    cl_int err;
    cl_program p = clCreateProgramWithSource(context, 1, &source, NULL, &err);
    if (err != CL_SUCCESS)
        return clscan_fail(err, "clCreateProgramWithSource failed: %s", clscan_error_string(err));
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
                              "clBuildProgram failed (%s) with options \"%s\"; the compiler's log:",
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

cl_int clscan_program_get(cl_context context, cl_device_id device, const char *source,
                          const char *options, cl_program *program)
{
    pthread_mutex_lock(&cache_lock);
    for (cache_entry *e = cache_head; e; e = e->next) {
        if (e->context == context && e->device == device && strcmp(e->options, options) == 0 &&
            strcmp(e->source, source) == 0) {
            clRetainProgram(e->program);
            *program = e->program;
            pthread_mutex_unlock(&cache_lock);
            return CL_SUCCESS;
        }
    }
    /* Built under the lock: two threads asking for the same program build it once. */
    cl_program p = NULL;
    cl_int err = build(context, device, source, options, &p);
    if (err == CL_SUCCESS) {
        cache_entry *e = calloc(1, sizeof *e);
        if (e && (e->options = copy_string(options)) && (e->source = copy_string(source))) {
            e->context = context;
            e->device = device;
            e->program = p;
            clRetainProgram(p);
            e->next = cache_head;
            cache_head = e;
        } else if (e) {
            free(e->options);
            free(e);
        }
        /* Out of memory for the entry only costs a later rebuild. */
        *program = p;
    }
    pthread_mutex_unlock(&cache_lock);
    return err;
}

CLSCAN_API void clscan_cache_clear(void)
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
    clscan_host_clear();
}
