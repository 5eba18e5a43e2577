#!/bin/sh
# Runs the non-commutative checks (tests/noncomm_test) again on kernel variants the default
# device would not use: the GPUs' code path (tiles staged through local memory, one run per
# work-item; CLSCAN_FORCE_STAGE=1) and the Blelloch work-group primitive
# (-DCLSCAN_WG_SCAN_BLELLOCH), alone and together, and the two-level primitive NVIDIA's warp
# shuffles use, run in local memory (CLSCAN_FORCE_SUBGROUP=1), unstaged and staged, and the
# single pass's 16-byte status words for 8-byte values (CLSCAN_PACKED_WIDE=1), staged; then
# tests/custom_test and tests/segmented_test on the staged two-level variant; then the programs in
# ALGO_TESTS (compaction, bucketing, radix sort) on the GPUs' kernels (CLSCAN_FORCE_STAGE=1:
# compaction through a block list in local memory, the radix sort's ranking scatter).
# Exit 0 only if every variant passes.
prog=${NONCOMM_TEST:-./tests/noncomm_test}
if test ! -x "$prog"; then
  echo "kernel_variants.sh: ERROR: $prog is missing (build it with 'make check')" >&2
  exit 99
fi
unset CK_RUN_SUITE CK_RUN_CASE CK_INCLUDE_TAGS CK_EXCLUDE_TAGS
status=0
for variant in "stage" "blelloch" "stage blelloch" "subgroup" "stage subgroup" "stage wide"; do
  stage=0
  subgroup=0
  wide=0
  opts=
  case $variant in *stage*) stage=1 ;; esac
  case $variant in *subgroup*) subgroup=1 ;; esac
  case $variant in *wide*) wide=1 ;; esac
  case $variant in *blelloch*) opts=-DCLSCAN_WG_SCAN_BLELLOCH ;; esac
  echo "== kernel variant: $variant (CLSCAN_FORCE_STAGE=$stage CLSCAN_FORCE_SUBGROUP=$subgroup CLSCAN_PACKED_WIDE=$wide CLSCAN_BUILD_OPTIONS=$opts)"
  CLSCAN_FORCE_STAGE=$stage CLSCAN_FORCE_SUBGROUP=$subgroup CLSCAN_PACKED_WIDE=$wide CLSCAN_BUILD_OPTIONS=$opts "$prog"
  rc=$?
  test $rc -eq 0 || status=$rc
done
# Custom operators and segmented scans (pairs of a flag and a value) on the GPUs' whole code
# path: staged tiles, the two-level primitive, the work-group-wide look-back.
for other in "$CUSTOM_TEST" "$SEGMENTED_TEST"; do
  test -n "$other" || continue
  if test ! -x "$other"; then
    echo "kernel_variants.sh: ERROR: $other is missing" >&2
    exit 99
  fi
  echo "== kernel variant: stage subgroup for $other"
  CLSCAN_FORCE_STAGE=1 CLSCAN_FORCE_SUBGROUP=1 "$other"
  rc=$?
  test $rc -eq 0 || status=$rc
done
for other in $ALGO_TESTS; do
  if test ! -x "$other"; then
    echo "kernel_variants.sh: ERROR: $other is missing" >&2
    exit 99
  fi
  echo "== kernel variant: stage for $other"
  CLSCAN_FORCE_STAGE=1 "$other"
  rc=$?
  test $rc -eq 0 || status=$rc
done
exit $status
