/* The sequential loops the benchmarks time (the seq column): the same code as the references
 * (support/reference.c's scans, bench_algos.h's alg_sequential), compiled a second time in
 * bench/bench_seq.c with the flags of BENCH_SEQ_CFLAGS (configure: -O3 -march=native where the
 * compiler takes it), placed after CFLAGS, so that the loop a user would write is timed at its
 * best on this host, not at the build's -O2 for any x86-64.  The references that the results are
 * checked against stay the support library's and bench_algos.h's, built like everything else. */
#ifndef CLSCAN_BENCH_SEQ_H
#define CLSCAN_BENCH_SEQ_H

#include <stddef.h>
#include <stdint.h>

#include "clscan.h"
#include "support/reference.h"

/* The compiler command and flags bench_seq.c was built with (for the header of the tables). */
extern const char bench_seq_build[];

/* sup_reference, and sup_reference_segmented when segs is not NULL (how: SUP_HEADS or
 * SUP_KEYS32), built with the seq flags. */
void bench_seq_scan(clscan_op op, clscan_type type, clscan_kind kind, sup_segments how, const void *segs,
                    const void *x, void *y, size_t n);

/* bench_algos.h's alg_sequential (its arguments and result), built with the seq flags. */
size_t bench_seq_algos(int c, size_t n, const uint32_t *keys, const uint32_t *values, const unsigned char *flags,
                       const uint32_t *offsets, size_t nsegments, uint32_t *out_keys, uint32_t *out_values,
                       uint32_t *tmp);

#endif /* CLSCAN_BENCH_SEQ_H */
