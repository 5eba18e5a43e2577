/* A long signal scanned in chunks, as a code that streams its data would: each chunk's scan
 * starts from the total of the chunks before it, which the previous call left in a device
 * buffer (options.carry_in / options.total), so the chunks chain on the device without a
 * round trip through the host.  The signal is a count per time step (int64); the running count
 * is checked exactly against the sequential loop, and the last total against the sum. */
#include <stdint.h>
#include <string.h>

#include "example_device.h"

#define N (1 << 20)
#define CHUNK 100000   /* the chunks' size need not divide N */

int main(void)
{
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
    int rc = open_device(&device, &context, &queue);
    if (rc)
        return rc;
    int64_t *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
    if (!x || !y)
        return fail("malloc", CL_OUT_OF_HOST_MEMORY);
    for (int i = 0; i < N; i++)
        x[i] = (int64_t)i * 7919 % 13 - 3;   /* arrivals minus departures */
    cl_int err;
    cl_mem src = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * sizeof *x, x, &err);
    cl_mem dst = src ? clCreateBuffer(context, CL_MEM_WRITE_ONLY, N * sizeof *y, NULL, &err) : NULL;
    cl_mem state = dst ? clCreateBuffer(context, CL_MEM_READ_WRITE, 2 * sizeof(int64_t), NULL, &err) : NULL;
    if (!state)
        return fail("clCreateBuffer", err);
    clscan_plan *plan = clscan_plan_create(context, device, CLSCAN_SUM, CLSCAN_INT64, CLSCAN_INCLUSIVE, &err);
    if (!plan)
        return fail("clscan_plan_create", err);

    /* Chunk k reads its carry from state[(k + 1) % 2] (the total of chunk k - 1; none for the
     * first) and writes its total to state[k % 2]: the in-order queue orders the calls. */
    const int64_t start = 1000;   /* the count before the first step */
    for (size_t k = 0, first = 0; first < N; k++, first += CHUNK) {
        const size_t count = N - first < CHUNK ? N - first : CHUNK;
        clscan_scan_options options;
        memset(&options, 0, sizeof options);
        if (k == 0) {
            options.init = &start;
        } else {
            options.carry_in = state;
            options.carry_in_offset = (k + 1) % 2;
        }
        options.total = state;
        options.total_offset = k % 2;
        err = clscan_enqueue_with(plan, queue, src, first, dst, first, count, &options, 0, NULL, NULL);
        if (err != CL_SUCCESS)
            return fail("clscan_enqueue_with", err);
    }
    int64_t total[2];
    const size_t last = (N + CHUNK - 1) / CHUNK - 1;
    err = clEnqueueReadBuffer(queue, dst, CL_TRUE, 0, N * sizeof *y, y, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(queue, state, CL_TRUE, 0, sizeof total, total, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        return fail("clEnqueueReadBuffer", err);

    int64_t count = start;
    size_t wrong = 0;
    for (int i = 0; i < N; i++) {
        count += x[i];
        wrong += y[i] != count;
    }
    wrong += total[last % 2] != count;
    printf("chunked_scan: %d steps in chunks of %d, final count %lld (loop %lld): %s\n", N, CHUNK,
           (long long)total[last % 2], (long long)count, wrong ? "WRONG" : "correct");
    clscan_plan_release(plan);
    clReleaseMemObject(src), clReleaseMemObject(dst), clReleaseMemObject(state);
    free(x), free(y);
    close_device(context, queue);
    return wrong ? 1 : 0;
}
