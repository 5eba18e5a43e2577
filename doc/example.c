/* clscan example: the running sum of a million integers on the
 * default OpenCL device, checked against the sequential sum.
 *
 *   cc example.c $(pkg-config --cflags --libs clscan) -o example
 *   ./example          (exit status 0 when the result is right) */
#include <stdio.h>
#include <stdlib.h>

#include <clscan.h>

#define N 1000000

static int fail(const char *what, cl_int err)
{
    fprintf(stderr, "%s: %s (%d): %s\n", what,
            clscan_error_string(err), (int)err, clscan_last_error());
    return 1;
}

int main(void)
{
    /* $CLSCAN_DEVICE if set, else the first GPU, else the first one */
    cl_platform_id platform;
    cl_device_id device;
    cl_int err = clscan_default_device(NULL, &platform, &device);
    if (err != CL_SUCCESS)
        return fail("clscan_default_device", err);
    const cl_context_properties props[] = {
        CL_CONTEXT_PLATFORM, (cl_context_properties)platform, 0 };
    cl_context context =
        clCreateContext(props, 1, &device, NULL, NULL, &err);
    if (!context)
        return fail("clCreateContext", err);
    cl_command_queue queue =
        clCreateCommandQueue(context, device, 0, &err);
    if (!queue)
        return fail("clCreateCommandQueue", err);

    /* The plan: inclusive sum of int32 (builds the kernels once) */
    clscan_plan *plan = clscan_plan_create(context, device, CLSCAN_SUM,
                                           CLSCAN_INT32,
                                           CLSCAN_INCLUSIVE, &err);
    if (!plan)
        return fail("clscan_plan_create", err);

    /* The input x[i] = i % 10 - 4, and the buffers */
    cl_int *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
    if (!x || !y)
        return fail("malloc", CL_OUT_OF_HOST_MEMORY);
    for (int i = 0; i < N; i++)
        x[i] = i % 10 - 4;
    cl_mem src = clCreateBuffer(context,
                                CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                N * sizeof *x, x, &err);
    if (!src)
        return fail("clCreateBuffer", err);
    cl_mem dst = clCreateBuffer(context, CL_MEM_WRITE_ONLY,
                                N * sizeof *y, NULL, &err);
    if (!dst)
        return fail("clCreateBuffer", err);

    /* y[i] = x[0] + ... + x[i]; offsets and counts are in elements */
    cl_event done;
    err = clscan_enqueue(plan, queue, src, 0, dst, 0, N,
                         0, NULL, &done);
    if (err != CL_SUCCESS)
        return fail("clscan_enqueue", err);
    err = clEnqueueReadBuffer(queue, dst, CL_TRUE, 0, N * sizeof *y, y,
                              1, &done, NULL);
    if (err != CL_SUCCESS)
        return fail("clEnqueueReadBuffer", err);

    int wrong = 0;
    cl_int sum = 0;
    for (int i = 0; i < N; i++) {
        sum += x[i];
        wrong += y[i] != sum;
    }
    printf("y[%d] = %d: %s\n", N - 1, (int)y[N - 1],
           wrong ? "WRONG" : "correct");

    clReleaseEvent(done);
    clReleaseMemObject(src);
    clReleaseMemObject(dst);
    clscan_plan_release(plan);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    clscan_cache_clear(); /* the program cache holds the context */
    free(x);
    free(y);
    return wrong != 0;
}
