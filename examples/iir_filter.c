/* A first-order IIR filter, exponential smoothing y[i] = a * y[i-1] + (1 - a) * x[i], over a
 * million samples with clscan_enqueue_recurrence: the constant a is passed as a value, b is
 * turned into y in place, and the filter starts from y0 (its state before the first sample).
 * The recurrence is the inclusive AFFINE scan of the maps y -> a*y + b, but no array of pairs
 * is made: the kernels read b once and write y once.  Checked against the sequential loop
 * (the scan rounds in another order: within a tolerance). */
#include <math.h>

#include "example_device.h"

#define N 1000000

int main(void)
{
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
    int rc = open_device(&device, &context, &queue);
    if (rc)
        return rc;
    const double a = 0.999, y0 = 1.0;   /* a time constant of about 1000 samples */
    double *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
    if (!x || !y)
        return fail("malloc", CL_OUT_OF_HOST_MEMORY);
    for (int i = 0; i < N; i++) {   /* a slow sine and a fast one, the noise to remove */
        x[i] = sin(2e-5 * i) + 0.5 * sin(0.3 * i);
        y[i] = (1 - a) * x[i];      /* b */
    }
    cl_int err;
    cl_mem buf = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, N * sizeof *y, y, &err);
    if (!buf)
        return fail("clCreateBuffer", err);
    clscan_plan *plan = clscan_plan_create(context, device, CLSCAN_AFFINE, CLSCAN_DOUBLE, CLSCAN_INCLUSIVE, &err);
    if (!plan)
        return fail("clscan_plan_create", err);
    clscan_scan_options options = {.init = &y0};
    err = clscan_enqueue_recurrence(plan, queue, NULL, 0, &a, buf, 0, buf, 0, N, &options, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        return fail("clscan_enqueue_recurrence", err);
    if ((err = clEnqueueReadBuffer(queue, buf, CL_TRUE, 0, N * sizeof *y, y, 0, NULL, NULL)) != CL_SUCCESS)
        return fail("clEnqueueReadBuffer", err);

    double state = y0, worst = 0;
    for (int i = 0; i < N; i++) {
        state = a * state + (1 - a) * x[i];   /* the sequential filter */
        worst = fmax(worst, fabs(y[i] - state));
    }
    const int ok = worst < 1e-9;
    printf("iir_filter: y[%d] = %.12f (loop %.12f), largest difference %.2g: %s\n", N - 1, y[N - 1], state, worst,
           ok ? "correct" : "WRONG");
    clscan_plan_release(plan);
    clReleaseMemObject(buf);
    free(x), free(y);
    close_device(context, queue);
    return ok ? 0 : 1;
}
