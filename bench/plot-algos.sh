#!/bin/sh
# plot-algos.sh: time per key against the count, one PNG per case, from clscan-bench-algos' CSV.
#   bench/plot-algos.sh RESULTS.csv [OUTPUT_PREFIX]     writes OUTPUT_PREFIX-CASE.png
# (the prefix defaults to RESULTS without .csv).  Lines: clscan, the copy floor, the sequential
# host loop, and the peers with right results in the CSV.  Needs gnuplot.
set -eu
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "usage: $0 RESULTS.csv [OUTPUT_PREFIX]" >&2
    exit 2
fi
csv=$1
prefix=${2:-${csv%.csv}}
command -v gnuplot >/dev/null 2>&1 || { echo "plot-algos.sh: gnuplot not found" >&2; exit 1; }
[ -r "$csv" ] || { echo "plot-algos.sh: cannot read $csv" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
device=$(sed -n 's/^# device: \([^;]*\);.*/\1/p' "$csv" | head -n 1)

# Per case: count, then ns per key of clscan, copy, seq, boost, cub (NaN where absent or wrong).
awk -F, -v dir="$tmp" '
function ns(ms) { return (ms == "" || ms == "WRONG") ? "NaN" : ms * 1e6 / $2 }
/^#/ || $1 == "case" { next }
$3 != "ok" { next }
{
    if (!($1 in seen)) { seen[$1] = 1; print $1 > (dir "/cases") }
    print $2, ns($4), ns($6), ns($7), ns($9), ns($10) > (dir "/" $1 ".dat")
}' "$csv"
[ -s "$tmp/cases" ] || { echo "plot-algos.sh: no measured rows in $csv" >&2; exit 1; }
while read -r c; do
    gnuplot <<GP
set terminal pngcairo size 800,500
set output "$prefix-$c.png"
set title "$c on $device"
set logscale x 2
set logscale y 10
set format x "2^{%L}"
set xlabel "keys (elements)"
set ylabel "ns per key (lower is better)"
set key top right
set grid
plot "$tmp/$c.dat" using 1:2 with linespoints lw 2 title "clscan", \
     "" using 1:3 with lines dt 2 title "copy (floor)", \
     "" using 1:4 with linespoints title "sequential loop", \
     "" using 1:5 with linespoints title "Boost.Compute", \
     "" using 1:6 with linespoints title "CUB"
GP
done < "$tmp/cases"
