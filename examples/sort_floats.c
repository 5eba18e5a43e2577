/* A sort of float keys with payloads: the sorter orders floats in IEEE total order (-NaN <
 * -inf < ... < -0.0 < +0.0 < ... < +inf < +NaN) and is stable, so equal keys keep their
 * payloads' order.  Checked against a stable sort on the host. */
#include <math.h>
#include <string.h>

#include "example_device.h"

#define N 500000

typedef struct item { cl_float key; cl_uint payload; } item;

/* The host's order: the same total order, then the input position (stable). */
static int by_key(const void *a, const void *b)
{
    const item *p = a, *q = b;
    cl_uint x, y;
    memcpy(&x, &p->key, 4);
    memcpy(&y, &q->key, 4);
    x = (x >> 31) ? ~x : x | 0x80000000u;   /* IEEE total order as an unsigned integer */
    y = (y >> 31) ? ~y : y | 0x80000000u;
    if (x != y)
        return x < y ? -1 : 1;
    return (p->payload > q->payload) - (p->payload < q->payload);
}

int main(void)
{
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
    int status = open_device(&device, &context, &queue);
    if (status)
        return status;

    cl_float *key = malloc(N * sizeof *key);
    cl_uint *payload = malloc(N * sizeof *payload);
    item *expect = malloc(N * sizeof *expect);
    if (!key || !payload || !expect)
        return fail("malloc", CL_OUT_OF_HOST_MEMORY);
    unsigned r = 4242;
    for (int i = 0; i < N; i++) {   /* many duplicates, and a few infinities, zeros and NaNs */
        r = r * 1103515245u + 12345u;
        key[i] = (float)((int)(r >> 20) - 2048) / 16.0f;
        if (i % 1000 == 0)
            key[i] = i % 3000 == 0 ? -0.0f : i % 2000 == 0 ? INFINITY : NAN;
        payload[i] = (cl_uint)i;
        expect[i] = (item){key[i], payload[i]};
    }
    qsort(expect, N, sizeof *expect, by_key);

    cl_int err;
    cl_mem keys = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, N * sizeof *key, key, &err);
    cl_mem values = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, N * 4, payload, &err);
    if (!keys || !values)
        return fail("clCreateBuffer", err);
    clscan_sorter *sorter = clscan_sorter_create(context, device, CLSCAN_FLOAT, sizeof(cl_uint), &err);
    if (!sorter)
        return fail("clscan_sorter_create", err);
    /* In place: keys_out == keys_in, values_out == values_in */
    err = clscan_sort_enqueue(sorter, queue, keys, 0, keys, 0, values, 0, values, 0, N, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        return fail("clscan_sort_enqueue", err);
    err = clEnqueueReadBuffer(queue, keys, CL_TRUE, 0, N * sizeof *key, key, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(queue, values, CL_TRUE, 0, N * 4, payload, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        return fail("clEnqueueReadBuffer", err);

    int wrong = 0;
    for (int i = 0; i < N; i++)
        wrong += memcmp(&key[i], &expect[i].key, 4) != 0 || payload[i] != expect[i].payload;
    printf("sort_floats: %d keys, first %g, last %g: %s\n", N, key[0], key[N - 1], wrong ? "WRONG" : "correct");

    clscan_sorter_release(sorter);
    clReleaseMemObject(keys);
    clReleaseMemObject(values);
    close_device(context, queue);
    free(key);
    free(payload);
    free(expect);
    return wrong != 0;
}
