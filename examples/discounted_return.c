/* Discounted returns of a reinforcement-learning trajectory, a backward recurrence:
 *   G[t] = r[t] + gamma * (1 - done[t]) * G[t+1],  G[T] = the value estimate after the last step
 * with clscan_enqueue_recurrence and options.reverse: a[t] = gamma, or 0 where an episode ends
 * (so no return flows back across episodes), b = the rewards, y = the returns.  Checked against
 * the sequential backward loop (within a tolerance: another order of rounding). */
#include <math.h>

#include "example_device.h"

#define T 200000

int main(void)
{
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
    int rc = open_device(&device, &context, &queue);
    if (rc)
        return rc;
    const float gamma = 0.99f, bootstrap = 5.0f;   /* the value estimate after step T - 1 */
    float *a = malloc(T * sizeof *a), *r = malloc(T * sizeof *r), *g = malloc(T * sizeof *g);
    if (!a || !r || !g)
        return fail("malloc", CL_OUT_OF_HOST_MEMORY);
    for (int t = 0; t < T; t++) {
        const int done = (t * 7919) % 1000 == 999;           /* an episode ends every ~1000 steps */
        a[t] = done ? 0.0f : gamma;
        r[t] = (float)((t * 31) % 11) / 10.0f - 0.3f;       /* rewards in [-0.3, 0.7] */
    }
    cl_int err;
    cl_mem abuf = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, T * sizeof *a, a, &err);
    cl_mem rbuf = abuf ? clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, T * sizeof *r, r, &err)
                       : NULL;
    cl_mem gbuf = rbuf ? clCreateBuffer(context, CL_MEM_WRITE_ONLY, T * sizeof *g, NULL, &err) : NULL;
    if (!gbuf)
        return fail("clCreateBuffer", err);
    clscan_plan *plan = clscan_plan_create(context, device, CLSCAN_AFFINE, CLSCAN_FLOAT, CLSCAN_INCLUSIVE, &err);
    if (!plan)
        return fail("clscan_plan_create", err);
    clscan_scan_options options = {.init = &bootstrap, .reverse = 1};
    err = clscan_enqueue_recurrence(plan, queue, abuf, 0, NULL, rbuf, 0, gbuf, 0, T, &options, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        return fail("clscan_enqueue_recurrence", err);
    if ((err = clEnqueueReadBuffer(queue, gbuf, CL_TRUE, 0, T * sizeof *g, g, 0, NULL, NULL)) != CL_SUCCESS)
        return fail("clEnqueueReadBuffer", err);

    double ret = bootstrap, worst = 0;
    for (int t = T - 1; t >= 0; t--) {   /* the sequential backward loop */
        ret = r[t] + a[t] * ret;
        worst = fmax(worst, fabs(g[t] - ret) / (1 + fabs(ret)));
    }
    const int ok = worst < 1e-5;
    printf("discounted_return: G[0] = %.5f (loop %.5f), largest relative difference %.2g: %s\n", g[0], ret, worst,
           ok ? "correct" : "WRONG");
    clscan_plan_release(plan);
    clReleaseMemObject(abuf), clReleaseMemObject(rbuf), clReleaseMemObject(gbuf);
    free(a), free(r), free(g);
    close_device(context, queue);
    return ok ? 0 : 1;
}
