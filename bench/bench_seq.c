/* The timed sequential loops, compiled with the seq flags (see bench_seq.h and bench/local.mk).
 * support/reference.c is compiled again here under other names (its functions are renamed before
 * it is included), so that the benchmark links both builds of the same loops: the support
 * library's as the reference, this one as the timed loop. */
#define sup_reference bench_seq_sup_reference
#define sup_reference_segmented bench_seq_sup_reference_segmented
#define sup_segment_end bench_seq_sup_segment_end
#define sup_comb bench_seq_sup_comb
#define sup_reference_with bench_seq_sup_reference_with
#include "support/reference.c"
#undef sup_reference
#undef sup_reference_segmented
#undef sup_segment_end
#undef sup_comb
#undef sup_reference_with

#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#endif
#include "bench_algos.h"
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
#include "bench_seq.h"

#ifndef BENCH_SEQ_BUILD
#define BENCH_SEQ_BUILD "(unknown flags)"
#endif
const char bench_seq_build[] = BENCH_SEQ_BUILD;

void bench_seq_scan(clscan_op op, clscan_type type, clscan_kind kind, sup_segments how, const void *segs,
                    const void *x, void *y, size_t n)
{
    if (segs)
        bench_seq_sup_reference_segmented(op, type, kind, how, segs, x, y, n);
    else
        bench_seq_sup_reference(op, type, kind, x, y, n);
}

size_t bench_seq_algos(int c, size_t n, const uint32_t *keys, const uint32_t *values, const unsigned char *flags,
                       const uint32_t *offsets, size_t nsegments, uint32_t *out_keys, uint32_t *out_values,
                       uint32_t *tmp)
{
    return alg_sequential(c, n, keys, values, flags, offsets, nsegments, out_keys, out_values, tmp);
}
