#!/bin/sh
# 'make fuzz': builds the fuzz targets of tests/fuzz/ with clang (-fsanitize=fuzzer,address,
# undefined; everything else in the tree with -fsanitize=fuzzer-no-link for coverage) in the
# build tree $SANITIZE_DIR/fuzz, from the copy of the distribution in $SANITIZE_DIR/src, and
# runs each of FUZZ_TARGETS for FUZZ_SECONDS from its seed corpus ($FUZZ_SEEDS/NAME).  New
# inputs go to $SANITIZE_DIR/fuzz/corpus/NAME (kept between runs), crashes to
# $SANITIZE_DIR/fuzz/crashes/NAME-*.  Prints, per target, the executions, their rate, the
# coverage (libFuzzer's "cov", edges, and "ft", features) and the corpus size.  Set by the
# rule in tests/fuzz/local.mk: SANITIZE_DIR FUZZ_CC FUZZ_SECONDS FUZZ_TARGETS FUZZ_ARGS
# SANITIZE_JOBS SUPPRESSIONS FUZZ_SEEDS MAKE.  Exit status 1 if any target crashed, leaked,
# timed out or broke an invariant.
set -eu

: "${SANITIZE_DIR:?}" "${SUPPRESSIONS:?}" "${FUZZ_SEEDS:?}"
FUZZ_CC=${FUZZ_CC:-clang}
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
FUZZ_TARGETS=${FUZZ_TARGETS:-options input device_spec custom environment}
FUZZ_ARGS=${FUZZ_ARGS:-}
SANITIZE_JOBS=${SANITIZE_JOBS:-2}
MAKE=${MAKE:-make}
src=$SANITIZE_DIR/src
tree=$SANITIZE_DIR/fuzz

if ! command -v "$FUZZ_CC" >/dev/null 2>&1; then
    echo "fuzz: $FUZZ_CC not found (Debian: clang libclang-rt-14-dev)" >&2
    exit 1
fi

ASAN_OPTIONS="detect_leaks=1:halt_on_error=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
LSAN_OPTIONS="suppressions=$SUPPRESSIONS/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
export ASAN_OPTIONS LSAN_OPTIONS UBSAN_OPTIONS

# Static (the targets call the library's internal functions); without --enable-werror, as in
# tests/check-sanitize.sh.
mkdir -p "$tree"
if test ! -f "$tree/Makefile" || test "$src/configure" -nt "$tree/config.status"; then
    echo "fuzz: configure the fuzz tree ($tree)"
    (cd "$tree" && "$src/configure" CC="$FUZZ_CC" --disable-shared \
        CFLAGS="-g -O1 -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" \
        >configure.out 2>&1) || { tail -n 30 "$tree/configure.out"; exit 1; }
fi
programs=
for t in $FUZZ_TARGETS; do
    programs="$programs tests/fuzz/fuzz_$t"
done
start=$(date +%s)
# shellcheck disable=SC2086 # $programs is a list of words
$MAKE -C "$tree" -j"$SANITIZE_JOBS" $programs >"$tree/build.out" 2>&1 || { tail -n 40 "$tree/build.out"; exit 1; }
echo "fuzz: built $FUZZ_TARGETS in $(( $(date +%s) - start )) s"

status=0
mkdir -p "$tree/crashes"
for t in $FUZZ_TARGETS; do
    mkdir -p "$tree/corpus/$t"
    log=$tree/fuzz_$t.log
    start=$(date +%s)
    # One process, FUZZ_SECONDS of fuzzing; -timeout: an input running 10 s is a hang.
    # shellcheck disable=SC2086 # FUZZ_ARGS is a list of flags
    if "$tree/tests/fuzz/fuzz_$t" -max_total_time="$FUZZ_SECONDS" -timeout=10 -print_final_stats=1 \
            -artifact_prefix="$tree/crashes/$t-" $FUZZ_ARGS "$tree/corpus/$t" "$FUZZ_SEEDS/$t" >"$log" 2>&1; then
        result=ok
    else
        result=FAILED
        status=1
    fi
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
    cov=$(grep -E '^#[0-9]+' "$log" | tail -n 1 | sed -n 's/.*cov: \([0-9]*\).*ft: \([0-9]*\).*corp: \([0-9]*\).*/cov \1, ft \2, corpus \3/p')
    echo "fuzz: $t: $result: ${runs:-?} executions in $(( $(date +%s) - start )) s (${rate:-?}/s), ${cov:-no coverage line}"
    if test $result = FAILED; then
        grep -E '^(==[0-9]+==ERROR|SUMMARY|.*invariant broken|.*runtime error|artifact_prefix|Test unit written)' "$log" |
            head -n 20
        echo "fuzz: $t: the log is $log"
    fi
done
if test $status -ne 0; then
    echo "fuzz: FAILED: the inputs are in $tree/crashes; once fixed, copy each to tests/fuzz/regressions/NAME/"
fi
exit $status
