/* A first-order IIR filter y[i] = a[i] * y[i-1] + b[i] (y[-1] = 0) as one scan: the pairs
 * (a, b) stand for the maps y -> a*y + b, and the inclusive AFFINE scan composes them, so its
 * element i is (A, B) with y[i] = A * y[-1] + B = B.  Checked against the sequential loop
 * (float: the scan rounds in another order, so within a tolerance). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <clscan.h>

#define N 100000

int main(void)
{
    float *pairs = malloc(2 * N * sizeof *pairs), *scanned = malloc(2 * N * sizeof *scanned);
    if (!pairs || !scanned)
        return 1;
    for (int i = 0; i < N; i++) {
        pairs[2 * i] = 0.9f + 0.05f * (float)((i * 7) % 3 - 1);   /* a: the feedback, 0.85 ... 0.95 */
        pairs[2 * i + 1] = (float)((i * 13) % 17 - 8) / 8.0f;       /* b: the input signal */
    }
    cl_int err = clscan_host(CLSCAN_AFFINE, CLSCAN_FLOAT, CLSCAN_INCLUSIVE, pairs, scanned, N);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "clscan_host: %s: %s\n", clscan_error_string(err), clscan_last_error());
        return err == CL_DEVICE_NOT_FOUND ? 77 : 1;
    }
    double y = 0, worst = 0;
    for (int i = 0; i < N; i++) {
        y = pairs[2 * i] * y + pairs[2 * i + 1];   /* the sequential filter */
        worst = fmax(worst, fabs(scanned[2 * i + 1] - y));
    }
    printf("iir_filter: y[%d] = %g (loop %g), largest difference %.2g: %s\n", N - 1, scanned[2 * N - 1], y, worst,
           worst < 1e-3 ? "correct" : "WRONG");
    free(pairs);
    free(scanned);
    clscan_cache_clear();
    return worst < 1e-3 ? 0 : 1;
}
