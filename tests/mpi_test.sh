#!/bin/sh
# tests/mpi_test (the distributed scans of libclscan_mpi) on 1, 2, 3, 4 and 8 ranks, one after
# the other: 1 first, which fills PoCL's kernel cache for the others.  More ranks than cores
# need Open MPI's --oversubscribe (and --allow-run-as-root as root); each rank gets one PoCL
# thread (POCL_MAX_PTHREAD_COUNT in PoCL 3, POCL_CPU_MAX_CU_NUM in later versions), so that 8
# ranks share two cores without 16 busy threads.  Every run prints a summary line in Check's
# format, which .ci/run counts.
set -u
: "${MPI_TEST:?the test program}" "${MPIEXEC:?the MPI launcher}"
POCL_MAX_PTHREAD_COUNT=1
POCL_CPU_MAX_CU_NUM=1
export POCL_MAX_PTHREAD_COUNT POCL_CPU_MAX_CU_NUM

flags=
if "$MPIEXEC" --version 2>&1 | grep -q "Open MPI\|OpenRTE"; then
    flags=--oversubscribe
    if [ "$(id -u)" -eq 0 ]; then
        flags="$flags --allow-run-as-root"
    fi
fi
status=0
for np in ${MPI_TEST_RANKS:-1 2 3 4 8}; do
    start=$(date +%s)
    echo "== mpi_test on $np ranks"
    # shellcheck disable=SC2086 # the launcher's flags
    if ! "$MPIEXEC" $flags -n "$np" "$MPI_TEST"; then
        echo "mpi_test.sh: FAILED on $np ranks"
        status=1
    fi
    echo "== $np ranks: $(( $(date +%s) - start )) s"
done
exit $status
