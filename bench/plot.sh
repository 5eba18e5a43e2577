#!/bin/sh
# plot.sh: GB/s against the element count, one PNG per case, from clscan-bench's CSV.
#   bench/plot.sh RESULTS.csv [OUTPUT_PREFIX]     writes OUTPUT_PREFIX-CASE.png
# (the prefix defaults to RESULTS without .csv).  Lines: clscan, the copy floor, the sequential
# host loop, and the peers present in the CSV; a peer's wrong results are left out and its key
# says so.  Needs gnuplot (Debian: gnuplot-nox).
set -eu
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "usage: $0 RESULTS.csv [OUTPUT_PREFIX]" >&2
    exit 2
fi
csv=$1
prefix=${2:-${csv%.csv}}
command -v gnuplot >/dev/null 2>&1 || { echo "plot.sh: gnuplot not found" >&2; exit 1; }
[ -r "$csv" ] || { echo "plot.sh: cannot read $csv" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

device=$(sed -n 's/^# device: \(.*\) (.*/\1/p' "$csv" | head -n 1)
[ -n "$device" ] || device="unknown device"

# One data file per case: count clscan copy seq boost cub (GB/s, NaN where absent), and per case
# the peers that have points and those with wrong results.
awk -F, -v dir="$tmp" '
function v(name) { return (name in col && $col[name] != "") ? $col[name] : "NaN" }
/^#/ { next }
!hdr { for (i = 1; i <= NF; i++) col[$i] = i; hdr = 1; next }
$col["status"] != "ok" { next }
{
    c = $1
    if (!(c in seen)) { seen[c] = 1; print c > (dir "/cases") }
    print $col["count"], v("scan_gbs"), v("copy_gbs"), v("seq_gbs"), v("boost_gbs"), v("cub_gbs") > (dir "/" c ".dat")
    if (v("boost_gbs") != "NaN") has[c, "boost"] = 1
    if (v("cub_gbs") != "NaN") has[c, "cub"] = 1
    if (v("boost_ok") == "no") bad[c, "boost"] = 1
    if (v("cub_ok") == "no") bad[c, "cub"] = 1
}
END {
    for (c in seen) {
        f = dir "/" c ".peers"
        printf "" > f
        if (has[c, "boost"] || bad[c, "boost"]) print "boost", 5, (bad[c, "boost"] ? 1 : 0) >> f
        if (has[c, "cub"] || bad[c, "cub"]) print "cub", 6, (bad[c, "cub"] ? 1 : 0) >> f
        close(f)
    }
}' "$csv"
[ -s "$tmp/cases" ] || { echo "plot.sh: no measured rows in $csv" >&2; exit 1; }

if gnuplot -e 'set terminal pngcairo' >/dev/null 2>&1; then
    term='pngcairo size 900,600 font ",10"'
else
    term='png size 900,600'
fi

while read -r case; do
    out="$prefix-$case.png"
    plot="'$tmp/$case.dat' using 1:2 with linespoints lw 2 title 'clscan'"
    plot="$plot, '' using 1:3 with linespoints dt 2 title 'copy floor (clEnqueueCopyBuffer)'"
    plot="$plot, '' using 1:4 with linespoints dt 3 title 'sequential loop (host)'"
    while read -r peer column wrong; do
        case $peer in boost) label='Boost.Compute' ;; *) label='CUB' ;; esac
        [ "$wrong" = 1 ] && label="$label (WRONG results left out)"
        plot="$plot, '' using 1:$column with linespoints title '$label'"
    done < "$tmp/$case.peers"
    gnuplot <<GP
set terminal $term
set output '$out'
set title '$case on $device'
set logscale x 2
set format x '2^{%L}'
set xlabel 'elements'
set ylabel 'GB/s (2 x bytes / median time)'
set key top left
set grid
plot $plot
GP
    echo "$out"
done < "$tmp/cases"
