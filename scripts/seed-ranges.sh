#!/bin/sh
# seed-ranges.sh NAME [N] [FIRST]: how an experiment's numbers move with the
# seed. Runs `build/attnlab experiment NAME --seed S --format csv` for seeds
# FIRST .. FIRST + N - 1 (default 1 .. 400) and prints, for each x value (d_k
# or pads) and each column, the smallest, the median and the largest value
# over the seeds and their mean. A number the course states about one of these
# experiments and that depends on the seed is stated as the range this prints,
# with the count of seeds. For saturation it adds the mean over the median raw
# gradient at d_k = 512, seed by seed (build/gradmedian).
#
#   scripts/seed-ranges.sh masking            # 400 seeds, about 40 s
#   scripts/seed-ranges.sh entropy 100        # about half a second a seed
#
# Needs build/attnlab (make). Exit 2 on a usage error, 1 if a run fails.
set -eu
name=${1:?usage: scripts/seed-ranges.sh entropy|masking|saturation [N] [FIRST]}
n=${2:-400}
first=${3:-1}
case $n$first in *[!0-9]*) echo "seed-ranges: N and FIRST are whole numbers" >&2; exit 2;; esac
[ "$n" -ge 1 ] || { echo "seed-ranges: N must be at least 1" >&2; exit 2; }
attnlab=${ATTNLAB:-build/attnlab}
[ -x "$attnlab" ] || { echo "seed-ranges: no $attnlab; run make first" >&2; exit 1; }

tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
s=$first
last=$((first + n - 1))
while [ "$s" -le "$last" ]; do
    "$attnlab" experiment "$name" --seed "$s" --format csv >"$tmp.one" ||
        { rm -f "$tmp.one"; echo "seed-ranges: seed $s failed" >&2; exit 1; }
    if [ "$s" -eq "$first" ]; then head -n 1 "$tmp.one" >"$tmp"; fi
    tail -n +2 "$tmp.one" >>"$tmp"
    s=$((s + 1))
done
rm -f "$tmp.one"

echo "$name over seeds $first to $last ($n seeds): min median max (mean)"
# One line per x value and column; values sorted per (x, column) for the median.
awk -F, 'NR == 1 { for (c = 2; c <= NF; c++) col[c] = $c; nc = NF; next }
         { for (c = 2; c <= nc; c++) print $1, c, col[c], $c }' "$tmp" |
    sort -k1,1n -k2,2n -k4,4g |
    awk '{ key = $1 " " $3
           if (key != last) { if (last != "") out(); last = key; k = 0; sum = 0 }
           v[++k] = $4; sum += $4 }
         function out(   med) {
             med = (k % 2) ? v[(k + 1) / 2] : (v[k / 2] + v[k / 2 + 1]) / 2
             printf "%-24s %10.4g %10.4g %10.4g  (%.4g)\n", last, v[1], med, v[k], sum / k }
         END { if (last != "") out() }'

# Lab 8's typical trial: the mean over the median raw gradient, seed by seed
# (the CSV has only the mean). build/gradmedian redraws the same trials.
if [ "$name" = saturation ]; then
    gm=${GRADMEDIAN:-build/gradmedian}
    if [ -x "$gm" ]; then
        "$gm" "$n" "$first" | tail -n 1
    else
        echo "(mean / median of the raw gradient per seed: make build/gradmedian in the course tree)"
    fi
fi
