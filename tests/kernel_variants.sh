#!/bin/sh
# Runs the non-commutative checks (tests/noncomm_test) again on kernel variants the default
# device would not use, through the developer switches (CLSCAN_DEVELOP, doc/hacking.md): the
# GPUs' policy (tiles staged through local memory, one run per work-item, the work-group-wide
# look-back) with each work-group primitive (Hillis-Steele, Blelloch, the two levels NVIDIA's
# warp shuffles use, here in local memory) and with the single pass's 16-byte status words for
# 8-byte values; the CPUs' policy with the work-items' registers and each primitive; then
# tests/custom_test, tests/segmented_test, tests/offsets_test, tests/options_test,
# tests/recurrence_test and tests/accuracy_test on the GPUs' two-level variant, and
# tests/accuracy_test with the 16-byte status words (the compensated float AFFINE's status in its
# value's fourth lane); then the programs in ALGO_TESTS (compaction, bucketing, radix sort) on the
# GPUs' kernels (the block scatter of compaction and the selections on it, the radix sort's
# ranking scatter, clscan_enqueue_axis's columns without lockstep), and tests/transform_test
# (TRANSFORM_TEST) on the GPUs' kernels, and tests/compact_test and tests/bucket_test with the
# spin limit at 1 (the fallbacks of the one-pass compaction and of the onesweep radix passes at
# once), and tests/compact_test and tests/select_test with it on the CPUs' kernels (the fallbacks
# of the compaction's and of reduce-by-key's single passes by one work-item a tile, the latter
# also with the heads counted first), and both with the CPUs' scalar stores of kept elements
# and reduce-by-key's scalar fold where the compiler offers vector compress
# (cl/common/compress.cl).
# Exit 0 only if every variant passes.
prog=${NONCOMM_TEST:-./tests/noncomm_test}
if test ! -x "$prog"; then
  echo "kernel_variants.sh: ERROR: $prog is missing (build it with 'make check')" >&2
  exit 99
fi
unset CK_RUN_SUITE CK_RUN_CASE CK_INCLUDE_TAGS CK_EXCLUDE_TAGS
status=0
run() {
  echo "== kernel variant: CLSCAN_DEVELOP=\"$1\" $2"
  CLSCAN_DEVELOP=$1 "$2"
  rc=$?
  test $rc -eq 0 || status=$rc
}
for variant in "policy=gpu" "policy=gpu;primitive=blelloch" "policy=gpu;primitive=two-level" \
               "policy=gpu;status=wide" "tiles=registers" "tiles=registers;primitive=blelloch" \
               "tiles=registers;primitive=two-level"; do
  run "$variant" "$prog"
done
for other in "$CUSTOM_TEST" "$SEGMENTED_TEST" "$OFFSETS_TEST" "$OPTIONS_TEST" "$RECURRENCE_TEST" \
             "$ACCURACY_TEST"; do
  test -n "$other" || continue
  if test ! -x "$other"; then
    echo "kernel_variants.sh: ERROR: $other is missing" >&2
    exit 99
  fi
  run "policy=gpu;primitive=two-level" "$other"
done
for other in "$ACCURACY_TEST" "$CUSTOM_TEST"; do
  test -n "$other" && run "policy=gpu;status=wide" "$other"
done
# Transforms on the GPUs' kernels: loads and stores through local memory, the parallel look-back.
if test -n "$TRANSFORM_TEST"; then
  if test ! -x "$TRANSFORM_TEST"; then
    echo "kernel_variants.sh: ERROR: $TRANSFORM_TEST is missing" >&2
    exit 99
  fi
  run "policy=gpu" "$TRANSFORM_TEST"
fi
for other in $ALGO_TESTS; do
  if test ! -x "$other"; then
    echo "kernel_variants.sh: ERROR: $other is missing" >&2
    exit 99
  fi
  run "policy=gpu" "$other"
done
# The fallbacks of the one-pass compaction (both), of the onesweep passes and of reduce-by-key's
# single passes on CPUs (a block still silent after the spin limit is counted by the block waiting
# on it), taken at once; reduce-by-key's single pass with the heads counted first, which the
# library takes on CPUs only where the folded pass's scratch would not fit; and the block offsets
# by a scan of the counts, which the suite's sizes would not reach (the count kernel's last block
# scans them up to 1024 blocks); the CPUs' scalar stores of kept elements and reduce-by-key's
# scalar fold of 4-byte integers, which a CPU with vector compress (cl/common/compress.cl, used
# by cl/compact/compress.cl and cl/scan/runs_lanes.cl) would not run.
for other in $ALGO_TESTS; do
  case $other in
    */compact_test) run "policy=gpu;spin_limit=1" "$other"; run "policy=cpu;spin_limit=1" "$other"
                    run "build=-DCLSCAN_NO_COMPRESS" "$other" ;;
    */bucket_test) run "policy=gpu;spin_limit=1" "$other" ;;
    */select_test) run "policy=cpu;spin_limit=1" "$other"; run "policy=cpu;runs_pass=count;spin_limit=1" "$other"
                   run "compact_offsets=scan" "$other"; run "policy=gpu;compact_offsets=scan" "$other"
                   run "build=-DCLSCAN_NO_COMPRESS" "$other" ;;
  esac
done
exit $status
