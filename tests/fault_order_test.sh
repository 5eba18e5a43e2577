#!/bin/sh
# Runs tests/fault_order_test (FAULT_ORDER_TEST) with the fault-injection shim preloaded (the
# libtool module FAULT_SHIM_LA, tests/fault/shim.la); see the comment at the top of
# tests/fault_order_test.c.
prog=${FAULT_ORDER_TEST:-./tests/fault_order_test}
la=${FAULT_SHIM_LA:-./tests/fault/shim.la}
for f in "$prog" "$la"; do
  if test ! -f "$f"; then
    echo "fault_order_test.sh: ERROR: $f is missing (build it with 'make check')" >&2
    exit 99
  fi
done
dlname=$(sed -n "s/^dlname='\(.*\)'\$/\1/p" "$la")
shim=
for objdir in .libs _libs; do
  if test -n "$dlname" && test -f "$(dirname "$la")/$objdir/$dlname"; then
    shim=$(cd "$(dirname "$la")/$objdir" && pwd)/$dlname
  fi
done
if test -z "$shim"; then
  echo "fault_order_test.sh: ERROR: no shared object for $la (dlname '$dlname')" >&2
  exit 99
fi
LD_PRELOAD=$shim
export LD_PRELOAD
exec "$prog"
