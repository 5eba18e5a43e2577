/* The sum of every row of a sparse matrix in CSR form, straight from its row_ptr: the rows are
 * the segments of clscan_enqueue_segmented_offsets and the totals its reduce-by-segment (no
 * scan is written: dst NULL).  Rows may be empty, also the last ones (row_ptr[r] = nnz there),
 * and get 0.  The values are multiples of 1/4, so that the float sums are exact and compare
 * with the sequential loop by ==. */
#include <stdint.h>

#include "example_device.h"

#define ROWS 100000
#define EMPTY_LAST 5   /* trailing empty rows */

int main(void)
{
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
    int rc = open_device(&device, &context, &queue);
    if (rc)
        return rc;
    /* row_ptr: rows of 0 ... 20 non-zeros (every seventh empty), the last EMPTY_LAST empty. */
    uint32_t *row_ptr = malloc((ROWS + 1) * sizeof *row_ptr);
    if (!row_ptr)
        return fail("malloc", CL_OUT_OF_HOST_MEMORY);
    row_ptr[0] = 0;
    for (uint32_t r = 0; r < ROWS; r++) {
        const uint32_t len = r >= ROWS - EMPTY_LAST || r % 7 == 3 ? 0 : (r * 2654435761u >> 16) % 21;
        row_ptr[r + 1] = row_ptr[r] + len;
    }
    const size_t nnz = row_ptr[ROWS];
    float *values = malloc(nnz * sizeof *values), *sums = malloc(ROWS * sizeof *sums);
    if (!values || !sums)
        return fail("malloc", CL_OUT_OF_HOST_MEMORY);
    for (size_t k = 0; k < nnz; k++)
        values[k] = (float)((int)(k * 40503u % 97) - 48) / 4;

    cl_int err;
    cl_mem vbuf = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, nnz * sizeof *values, values, &err);
    cl_mem rbuf = vbuf ? clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, (ROWS + 1) * sizeof *row_ptr,
                                        row_ptr, &err) : NULL;
    cl_mem sbuf = rbuf ? clCreateBuffer(context, CL_MEM_WRITE_ONLY, ROWS * sizeof *sums, NULL, &err) : NULL;
    if (!sbuf)
        return fail("clCreateBuffer", err);
    clscan_plan *plan = clscan_plan_create(context, device, CLSCAN_SUM, CLSCAN_FLOAT, CLSCAN_INCLUSIVE, &err);
    if (!plan)
        return fail("clscan_plan_create", err);

    /* Segment r is [row_ptr[r], row_ptr[r + 1]); sums[r] its total. */
    err = clscan_enqueue_segmented_offsets(plan, queue, vbuf, 0, CLSCAN_UINT32, rbuf, 0, ROWS, NULL, 0, nnz,
                                           sbuf, 0, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        return fail("clscan_enqueue_segmented_offsets", err);
    err = clEnqueueReadBuffer(queue, sbuf, CL_TRUE, 0, ROWS * sizeof *sums, sums, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        return fail("clEnqueueReadBuffer", err);

    size_t wrong = 0, empty = 0;
    for (size_t r = 0; r < ROWS; r++) {
        float s = 0;
        for (uint32_t k = row_ptr[r]; k < row_ptr[r + 1]; k++)
            s += values[k];
        wrong += sums[r] != s;
        empty += row_ptr[r] == row_ptr[r + 1];
    }
    printf("csr_row_sum: %d rows (%zu empty, the last %d among them), %zu non-zeros, row sums against the "
           "loop: %s\n", ROWS, empty, EMPTY_LAST, nnz, wrong ? "WRONG" : "correct");
    clscan_plan_release(plan);
    clReleaseMemObject(vbuf), clReleaseMemObject(rbuf), clReleaseMemObject(sbuf);
    free(row_ptr), free(values), free(sums);
    close_device(context, queue);
    return wrong ? 1 : 0;
}
