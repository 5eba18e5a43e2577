/* A parallel allocator: work item i asks for size[i] bytes of one shared arena; the exclusive
 * SUM of the sizes is each item's offset, and the last offset plus the last size is the arena's
 * size.  The scan runs on device buffers (a plan, reusable), so a pipeline can go on without
 * the host.  Checked against the sequential loop. */
#include "example_device.h"

#define N 1000000

int main(void)
{
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
    int status = open_device(&device, &context, &queue);
    if (status)
        return status;

    cl_uint *size = malloc(N * sizeof *size), *offset = malloc(N * sizeof *offset);
    if (!size || !offset)
        return fail("malloc", CL_OUT_OF_HOST_MEMORY);
    for (int i = 0; i < N; i++)   /* requests of 0 ... 96 bytes, multiples of 16 */
        size[i] = 16u * (cl_uint)((i * 2654435761u) >> 29);

    cl_int err;
    cl_mem sizes = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * sizeof *size, size, &err);
    cl_mem offsets = clCreateBuffer(context, CL_MEM_READ_WRITE, N * sizeof *offset, NULL, &err);
    if (!sizes || !offsets)
        return fail("clCreateBuffer", err);
    clscan_plan *plan = clscan_plan_create(context, device, CLSCAN_SUM, CLSCAN_UINT32, CLSCAN_EXCLUSIVE, &err);
    if (!plan)
        return fail("clscan_plan_create", err);
    cl_event done;
    err = clscan_enqueue(plan, queue, sizes, 0, offsets, 0, N, 0, NULL, &done);
    if (err != CL_SUCCESS)
        return fail("clscan_enqueue", err);
    err = clEnqueueReadBuffer(queue, offsets, CL_TRUE, 0, N * sizeof *offset, offset, 1, &done, NULL);
    if (err != CL_SUCCESS)
        return fail("clEnqueueReadBuffer", err);
    clReleaseEvent(done);

    int wrong = 0;
    cl_uint next = 0;   /* the sequential allocator */
    for (int i = 0; i < N; i++) {
        wrong += offset[i] != next;
        next += size[i];
    }
    const cl_uint arena = offset[N - 1] + size[N - 1];
    wrong += arena != next;
    printf("parallel_alloc: %d requests, arena of %u bytes: %s\n", N, arena, wrong ? "WRONG" : "correct");

    clscan_plan_release(plan);
    clReleaseMemObject(sizes);
    clReleaseMemObject(offsets);
    close_device(context, queue);
    free(size);
    free(offset);
    return wrong != 0;
}
