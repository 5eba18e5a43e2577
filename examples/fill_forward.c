/* Fill-forward of missing samples: a sensor's series where 0 marks a missing sample; the
 * inclusive LAST_NONZERO scan replaces each one by the last sample before it.  Checked
 * against the sequential loop (exact). */
#include <stdio.h>
#include <stdlib.h>

#include <clscan.h>

#define N 1000000

int main(void)
{
    float *samples = malloc(N * sizeof *samples), *filled = malloc(N * sizeof *filled);
    if (!samples || !filled)
        return 1;
    for (int i = 0; i < N; i++)   /* about 40% missing, in runs */
        samples[i] = (i / 5) % 5 < 2 ? 0.0f : 20.0f + (float)(i % 1000) / 100.0f;
    cl_int err = clscan_host(CLSCAN_LAST_NONZERO, CLSCAN_FLOAT, CLSCAN_INCLUSIVE, samples, filled, N);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "clscan_host: %s: %s\n", clscan_error_string(err), clscan_last_error());
        return err == CL_DEVICE_NOT_FOUND ? 77 : 1;
    }
    int wrong = 0;
    float last = 0.0f;   /* before the first sample: still missing (0) */
    for (int i = 0; i < N; i++) {
        if (samples[i] != 0.0f)
            last = samples[i];
        wrong += filled[i] != last;
    }
    printf("fill_forward: %d samples, %d wrong: %s\n", N, wrong, wrong ? "WRONG" : "correct");
    free(samples);
    free(filled);
    clscan_cache_clear();
    return wrong != 0;
}
