/* Particles that left the box [0, 1)^3 are removed with stream compaction: a flag per particle
 * (1: still inside), then clscan_compact keeps the flagged particles in their order and
 * returns how many.  Checked against the sequential loop. */
#include <string.h>

#include "example_device.h"

#define N 200000

typedef struct particle {
    cl_float x, y, z, mass;   /* 16 bytes: any element size works */
} particle;

int main(void)
{
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
    int status = open_device(&device, &context, &queue);
    if (status)
        return status;

    particle *p = malloc(N * sizeof *p), *kept = malloc(N * sizeof *kept);
    cl_uchar *inside = malloc(N);
    if (!p || !kept || !inside)
        return fail("malloc", CL_OUT_OF_HOST_MEMORY);
    unsigned r = 12345;
    for (int i = 0; i < N; i++) {   /* positions in [-0.1, 1.1) */
        float c[3];
        for (int k = 0; k < 3; k++) {
            r = r * 1103515245u + 12345u;
            c[k] = -0.1f + 1.2f * (float)(r >> 8) / 16777216.0f;
        }
        p[i] = (particle){c[0], c[1], c[2], 1.0f + (float)(i % 10)};
        inside[i] = c[0] >= 0 && c[0] < 1 && c[1] >= 0 && c[1] < 1 && c[2] >= 0 && c[2] < 1;
    }

    cl_int err;
    cl_mem src = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * sizeof *p, p, &err);
    cl_mem flags = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N, inside, &err);
    cl_mem dst = clCreateBuffer(context, CL_MEM_READ_WRITE, N * sizeof *p, NULL, &err);
    if (!src || !flags || !dst)
        return fail("clCreateBuffer", err);

    /* A compactor for 16-byte elements (kernels built once, reused by every call) */
    clscan_compactor *compactor = clscan_compactor_create(context, device, sizeof(particle), &err);
    if (!compactor)
        return fail("clscan_compactor_create", err);
    size_t n_kept = 0;
    err = clscan_compact(compactor, queue, src, 0, flags, 0, N, dst, 0, &n_kept, 0, NULL);
    if (err != CL_SUCCESS)
        return fail("clscan_compact", err);
    err = clEnqueueReadBuffer(queue, dst, CL_TRUE, 0, n_kept * sizeof *p, kept, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        return fail("clEnqueueReadBuffer", err);

    size_t m = 0, wrong = 0;
    for (int i = 0; i < N; i++)
        if (inside[i])
            wrong += m >= n_kept || memcmp(&kept[m++], &p[i], sizeof *p) != 0;
    wrong += m != n_kept;
    printf("particles_compact: %zu of %d particles inside the box: %s\n", n_kept, N, wrong ? "WRONG" : "correct");

    clscan_compactor_release(compactor);
    clReleaseMemObject(src);
    clReleaseMemObject(flags);
    clReleaseMemObject(dst);
    close_device(context, queue);
    free(p);
    free(kept);
    free(inside);
    return wrong != 0;
}
