/* The examples' shared start: the default device (CLSCAN_DEVICE, else the first GPU, else the
 * first device), a context and an in-order queue. */
#ifndef EXAMPLE_DEVICE_H
#define EXAMPLE_DEVICE_H

#include <stdio.h>
#include <stdlib.h>

#include <clscan.h>

/* Prints what failed and returns 1 (the examples' exit status for a failure). */
static int fail(const char *what, cl_int err)
{
    fprintf(stderr, "%s: %s (%d): %s\n", what, clscan_error_string(err), (int)err, clscan_last_error());
    return 1;
}

/* 0 on success; 77 without any OpenCL device ('make check' counts that as skipped). */
static int open_device(cl_device_id *device, cl_context *context, cl_command_queue *queue)
{
    cl_platform_id platform;
    cl_int err = clscan_default_device(NULL, &platform, device);
    if (err != CL_SUCCESS) {
        fail("clscan_default_device", err);
        return 77;
    }
    const cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)platform, 0};
    *context = clCreateContext(props, 1, device, NULL, NULL, &err);
    if (!*context)
        return fail("clCreateContext", err);
    *queue = clCreateCommandQueue(*context, *device, 0, &err);
    if (!*queue)
        return fail("clCreateCommandQueue", err);
    return 0;
}

static void close_device(cl_context context, cl_command_queue queue)
{
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    clscan_cache_clear();   /* the program cache holds the context */
}

#endif
