#!/bin/sh
# clscan quick start, step one of two (the second is `make check`):
# installs the Debian packages clscan needs (as root; otherwise names them), builds clscan,
# and runs a few demo scans on the default OpenCL device (PoCL's CPU device when there is no GPU).
set -eu
cd "$(dirname "$0")"

# gfortran: for the Fortran module (configure builds it when it finds a Fortran compiler);
# openmpi-bin and libopenmpi-dev: for libclscan_mpi, the distributed scans (built when configure
# finds mpicc, tested with mpiexec).
PACKAGES="pocl-opencl-icd ocl-icd-opencl-dev opencl-c-headers check autoconf automake libtool pkg-config clinfo gfortran
openmpi-bin libopenmpi-dev"

missing=""
if command -v dpkg-query >/dev/null 2>&1; then
    for p in $PACKAGES; do
        dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
    done
fi
if [ -n "$missing" ]; then
    if [ "$(id -u)" -eq 0 ]; then
        echo "quickstart: installing$missing"
        apt-get update
        DEBIAN_FRONTEND=noninteractive apt-get install -y$missing
    else
        echo "quickstart: these Debian packages are missing; install them and run me again:" >&2
        echo "    sudo apt-get install$missing" >&2
        exit 1
    fi
elif ! command -v dpkg-query >/dev/null 2>&1; then
    echo "quickstart: not a Debian system; make sure these (or your system's equivalents) are installed:"
    echo "    $PACKAGES"
fi

mkdir -p m4
autoreconf -i
./configure
make -j"$(nproc 2>/dev/null || echo 2)"

echo
echo "== clscan demo on the default device =="
./tools/clscan --list-devices
./tools/clscan --op sum --type float --exclusive --count 1000000
./tools/clscan --op max --type int32 --count 1000000
./tools/clscan --op last-nonzero --type int64 --count 1000000
./tools/clscan --op affine --type float --count 1000000
echo
echo "quickstart: done. Next: make check"
