#!/bin/sh
# The MPI examples (MPI_EXAMPLES) on 2 and 3 ranks, each rank with one PoCL thread (as
# tests/mpi_test.sh): each checks its result against a sequential computation.
set -u
: "${MPI_EXAMPLES:?the example programs}" "${MPIEXEC:?the MPI launcher}"
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
for example in $MPI_EXAMPLES; do
    for np in 2 3; do
        # shellcheck disable=SC2086 # the launcher's flags
        "$MPIEXEC" $flags -n "$np" "$example" || { echo "mpi_examples.sh: $example FAILED on $np ranks"; status=1; }
    done
done
exit $status
