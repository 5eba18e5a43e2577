#!/bin/sh
# Runs tests/fault_test (FAULT_TEST) with the fault-injection shim (FAULT_SHIM_LA, the libtool
# module tests/fault/shim.la) preloaded; see the comment at the top of tests/fault_test.c.  First
# makes sure that the shim wraps every OpenCL entry point and allocation function that the
# library's sources (CLSCAN_SRCDIR/lib) call: a call the shim does not see is never failed.
prog=${FAULT_TEST:-./tests/fault_test}
la=${FAULT_SHIM_LA:-./tests/fault/shim.la}
src=${CLSCAN_SRCDIR:-.}
for f in "$prog" "$la" "$src/tests/fault/shim.c"; do
  if test ! -f "$f"; then
    echo "fault_test.sh: ERROR: $f is missing (build it with 'make check')" >&2
    exit 99
  fi
done

missing=
for fn in $(cat "$src"/lib/*.c "$src"/lib/*.h | grep -oE '\bcl[A-Z][A-Za-z0-9]+\(' | tr -d '(' | sort -u); do
  grep -q "WRAP($fn)" "$src/tests/fault/shim.c" || missing="$missing $fn"
done
for fn in strdup strndup aligned_alloc posix_memalign memalign valloc reallocarray; do
  if grep -qE "\b$fn\(" "$src"/lib/*.c "$src"/lib/*.h; then missing="$missing $fn"; fi
done
if test -n "$missing"; then
  echo "fault_test.sh: FAIL: lib/ calls$missing, which tests/fault/shim.c does not wrap" >&2
  exit 1
fi

# The shared object the libtool module names (dlname) in its object directory.
dlname=$(sed -n "s/^dlname='\(.*\)'\$/\1/p" "$la")
shim=
for objdir in .libs _libs; do
  if test -n "$dlname" && test -f "$(dirname "$la")/$objdir/$dlname"; then
    shim=$(cd "$(dirname "$la")/$objdir" && pwd)/$dlname
  fi
done
if test -z "$shim"; then
  echo "fault_test.sh: ERROR: no shared object for $la (dlname '$dlname')" >&2
  exit 99
fi
LD_PRELOAD=$shim
export LD_PRELOAD
exec "$prog"
