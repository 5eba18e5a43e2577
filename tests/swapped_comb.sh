#!/bin/sh
# Proves that the test suite catches swapped combine arguments: runs the non-commutative checks
# (tests/noncomm_test) with the kernels built with tests/hooks/swapped/scan/combine.cl in place
# of cl/scan/combine.cl (through CLSCAN_KERNEL_DIR), which makes every comb(a, b) compute
# comb(b, a).  Listed in XFAIL_TESTS: this script must FAIL (exit 1), and it
# does so only when the checks themselves report wrong values.
#   exit 1   the checks failed on wrong values: the expected outcome (XFAIL)
#   exit 0   the checks passed with swapped arguments: the suite is blind (XPASS, a failure)
#   exit 99  a setup problem (the program is missing, no device, a plan could not be created,
#            a crash): a hard ERROR, never mistaken for the expected failure
#   exit 77  never: without a device this proof cannot be made, which is an ERROR

prog=${NONCOMM_TEST:-./tests/noncomm_test}
if test ! -f "$prog" || test ! -x "$prog"; then
  echo "swapped_comb.sh: ERROR: $prog is missing (build it with 'make check')" >&2
  exit 99
fi

# Run every check (no suite or case selection from the caller's environment), without forking.
unset CK_RUN_SUITE CK_RUN_CASE CK_INCLUDE_TAGS CK_EXCLUDE_TAGS CK_FORK
CK_VERBOSITY=normal
export CK_VERBOSITY

log=${TMPDIR:-/tmp}/swapped_comb.$$.log
trap 'rm -f "$log"' EXIT
srcdir=${CLSCAN_SRCDIR:-.}
if test ! -f "$srcdir/tests/hooks/swapped/scan/combine.cl"; then
  echo "swapped_comb.sh: ERROR: $srcdir/tests/hooks/swapped/scan/combine.cl is missing (set CLSCAN_SRCDIR)" >&2
  exit 99
fi
CLSCAN_KERNEL_DIR="$srcdir/tests/hooks/swapped:$srcdir/cl" "$prog" >"$log" 2>&1
rc=$?
cat "$log"

case $rc in
  0)
    echo "swapped_comb.sh: the non-commutative checks PASSED with swapped combine arguments:" \
         "the test suite cannot tell comb(a, b) from comb(b, a)" >&2
    exit 0 ;;
  1)
    # Check's summary line: "NN%: Checks: C, Failures: F, Errors: E".
    summary=$(grep -E '^[0-9]+%: Checks: [0-9]+, Failures: [0-9]+, Errors: [0-9]+' "$log" | tail -n 1)
    failures=$(echo "$summary" | sed -n 's/.*Failures: \([0-9]*\),.*/\1/p')
    errors=$(echo "$summary" | sed -n 's/.*Errors: \([0-9]*\).*/\1/p')
    if test -z "$summary" || test "${failures:-0}" -eq 0 || test "${errors:-1}" -ne 0; then
      echo "swapped_comb.sh: ERROR: exit status 1 without the expected check failures" \
           "(summary: '${summary}')" >&2
      exit 99
    fi
    # Every failed case (a line "FAILED: ..." from tests/testutil.c) must be a wrong value.
    if ! grep -q '^FAILED: .*wrong result: first difference at index' "$log"; then
      echo "swapped_comb.sh: ERROR: the checks failed, but not on wrong values" >&2
      exit 99
    fi
    # So must every failed test (Check's lines "file:line:F:case:test:iteration: message").
    if grep -E '^FAILED: |:[FE]:[^:]*:[^:]*:[0-9]+: ' "$log" |
         grep -v 'wrong result: first difference at index' >/dev/null; then
      echo "swapped_comb.sh: ERROR: some checks failed for another reason than a wrong value" >&2
      exit 99
    fi
    echo "swapped_comb.sh: as expected, $failures of the non-commutative checks failed with" \
         "swapped combine arguments"
    exit 1 ;;
  77)
    echo "swapped_comb.sh: ERROR: no OpenCL device: the swapped-argument proof cannot run" >&2
    exit 99 ;;
  *)
    echo "swapped_comb.sh: ERROR: $prog exited with status $rc (a setup error or a crash)" >&2
    exit 99 ;;
esac
