/* A uniform spatial grid built with bucketing: the cell of each particle is its key, and
 * clscan_bucket_enqueue groups the particles by cell (each cell's particles contiguous, in
 * their original order) with the start of every cell.  A neighbour query then visits only the
 * 3 x 3 cells around a point.  Checked against a brute-force search over all particles. */
#include "example_device.h"

#define N 100000
#define G 64                      /* G x G cells over the unit square */
#define RADIUS (1.0f / G)         /* at most one cell away */

typedef struct { cl_float x, y; } point;

static cl_uint cell_of(point p)
{
    const int cx = (int)(p.x * G), cy = (int)(p.y * G);
    return (cl_uint)((cy < G ? cy : G - 1) * G + (cx < G ? cx : G - 1));
}

int main(void)
{
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
    int status = open_device(&device, &context, &queue);
    if (status)
        return status;

    point *pts = malloc(N * sizeof *pts), *sorted = malloc(N * sizeof *sorted);
    cl_uint *cell = malloc(N * sizeof *cell), *start = malloc((G * G + 1) * sizeof *start);
    if (!pts || !sorted || !cell || !start)
        return fail("malloc", CL_OUT_OF_HOST_MEMORY);
    unsigned r = 777;
    for (int i = 0; i < N; i++) {
        r = r * 1103515245u + 12345u;
        pts[i].x = (float)(r >> 8) / 16777216.0f;
        r = r * 1103515245u + 12345u;
        pts[i].y = (float)(r >> 8) / 16777216.0f;
        cell[i] = cell_of(pts[i]);
    }

    cl_int err;
    cl_mem keys = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * sizeof *cell, cell, &err);
    cl_mem values = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * sizeof *pts, pts, &err);
    cl_mem grouped = clCreateBuffer(context, CL_MEM_READ_WRITE, N * sizeof *pts, NULL, &err);
    cl_mem offsets = clCreateBuffer(context, CL_MEM_READ_WRITE, (G * G + 1) * sizeof *start, NULL, &err);
    if (!keys || !values || !grouped || !offsets)
        return fail("clCreateBuffer", err);

    /* G*G buckets, the points as 8-byte values; no keys out, no permutation */
    clscan_bucketer *bucketer = clscan_bucketer_create(context, device, G * G, sizeof(point), &err);
    if (!bucketer)
        return fail("clscan_bucketer_create", err);
    cl_event done;
    err = clscan_bucket_enqueue(bucketer, queue, keys, 0, values, 0, N, NULL, 0, grouped, 0, offsets, 0, NULL, 0,
                                0, NULL, &done);
    if (err != CL_SUCCESS)
        return fail("clscan_bucket_enqueue", err);
    err = clEnqueueReadBuffer(queue, grouped, CL_TRUE, 0, N * sizeof *pts, sorted, 1, &done, NULL);
    if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(queue, offsets, CL_TRUE, 0, (G * G + 1) * sizeof *start, start, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        return fail("clEnqueueReadBuffer", err);
    clReleaseEvent(done);

    /* Neighbours of some query points: grid (3 x 3 cells) against brute force */
    int wrong = 0, found = 0;
    for (int q = 0; q < 200; q++) {
        const point c = pts[q * (N / 200)];
        const int cx = (int)cell_of(c) % G, cy = (int)cell_of(c) / G;
        int grid = 0, brute = 0;
        for (int y = cy - 1; y <= cy + 1; y++)
            for (int x = cx - 1; x <= cx + 1; x++) {
                if (x < 0 || y < 0 || x >= G || y >= G)
                    continue;
                for (cl_uint j = start[y * G + x]; j < start[y * G + x + 1]; j++) {
                    const float dx = sorted[j].x - c.x, dy = sorted[j].y - c.y;
                    grid += dx * dx + dy * dy <= RADIUS * RADIUS;
                }
            }
        for (int j = 0; j < N; j++) {
            const float dx = pts[j].x - c.x, dy = pts[j].y - c.y;
            brute += dx * dx + dy * dy <= RADIUS * RADIUS;
        }
        wrong += grid != brute;
        found += grid;
    }
    wrong += start[G * G] != N;
    printf("spatial_grid: %d x %d cells, %d neighbours found for 200 queries: %s\n", G, G, found,
           wrong ? "WRONG" : "correct");

    clscan_bucketer_release(bucketer);
    clReleaseMemObject(keys);
    clReleaseMemObject(values);
    clReleaseMemObject(grouped);
    clReleaseMemObject(offsets);
    close_device(context, queue);
    free(pts);
    free(sorted);
    free(cell);
    free(start);
    return wrong != 0;
}
