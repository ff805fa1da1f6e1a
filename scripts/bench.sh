#!/bin/sh
# bench.sh ATTNLAB OUTDIR: the standard `make bench` set. attnlab bench at
# T = 256 ... 4096, d = 64, one head, causal and not, into OUTDIR/bench.csv
# (and bench-causal.csv), each drawn by data/plots/bench.gp as a PNG.
# Prints every table row as it goes. Exit 1 when a run fails.
set -u
ATTNLAB=${1:-build/attnlab}
OUT=${2:-build/bench}
REPEAT=${BENCH_REPEAT:-3}
mkdir -p "$OUT" || exit 1
status=0
for causal in "" --causal; do
    name=bench${causal:+-causal}
    csv="$OUT/$name.csv"
    : > "$csv"
    for T in 256 512 1024 2048 4096; do
        echo "attnlab bench --T $T --d 64 $causal --repeat $REPEAT" >&2
        rows=$("$ATTNLAB" bench --T "$T" --d 64 $causal --repeat "$REPEAT" --format csv) || { status=1; continue; }
        if [ -s "$csv" ]; then echo "$rows" | tail -n +2 >> "$csv"; else echo "$rows" > "$csv"; fi
    done
    column -s, -t < "$csv" 2>/dev/null || cat "$csv"
    if command -v gnuplot >/dev/null 2>&1; then
        gnuplot -c data/plots/bench.gp "$csv" "$OUT/$name.png" \
            "d 64, 1 head${causal:+, causal}; $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2)" \
            && echo "wrote $OUT/$name.png" || status=1
    else
        echo "bench.sh: no gnuplot, so no chart; install it with: apt-get install gnuplot-nox" >&2
    fi
done
exit $status
