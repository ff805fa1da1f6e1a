#!/bin/sh
# bench.sh ATTNLAB OUTDIR: the standard `make bench` set. attnlab bench at
# T = 256 ... 4096, d = 64 and d = 128, one head, causal and not, one CSV per
# (d, causal) in OUTDIR (bench-d64.csv, bench-d64-causal.csv, ...), each drawn
# by data/plots/bench.gp as a PNG. Prints every table as it goes, then the fused
# path's share of the sgemm limit for every run, the figure the fast path is
# held to (70% or more). Timed runs per path: 21 up to T = 1024, where a run
# takes milliseconds and one burst of other work would move a median of few,
# and 7 above (the reference takes seconds there); BENCH_REPEAT sets one count
# for all. BENCH_T sets the sequence lengths, BENCH_D the sizes. Exit 1 when a
# run fails.
set -u
ATTNLAB=${1:-build/attnlab}
OUT=${2:-build/bench}
REPEAT=${BENCH_REPEAT:-}
TS=${BENCH_T:-256 512 1024 2048 4096}
DS=${BENCH_D:-64 128}
mkdir -p "$OUT" || exit 1
status=0
cpu=$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2)
for d in $DS; do
    for causal in "" --causal; do
        name=bench-d$d${causal:+-causal}
        csv="$OUT/$name.csv"
        : > "$csv"
        for T in $TS; do
            rep=${REPEAT:-$([ "$T" -le 1024 ] && echo 21 || echo 7)}
            echo "attnlab bench --T $T --d $d $causal --repeat $rep" >&2
            rows=$("$ATTNLAB" bench --T "$T" --d "$d" $causal --repeat "$rep" --format csv) ||
                { status=1; continue; }
            if [ -s "$csv" ]; then echo "$rows" | tail -n +2 >> "$csv"; else echo "$rows" > "$csv"; fi
        done
        column -s, -t < "$csv" 2>/dev/null || cat "$csv"
        if command -v gnuplot >/dev/null 2>&1; then
            gnuplot -c data/plots/bench.gp "$csv" "$OUT/$name.png" \
                "d $d, 1 head${causal:+, causal}; $cpu" && echo "wrote $OUT/$name.png" || status=1
        else
            echo "bench.sh: no gnuplot, so no chart; install it with: apt-get install gnuplot-nox" >&2
        fi
    done
done

# The fused path against the limit, one line per run (needs the sgemm rows).
echo
echo "fused path, share of one-core sgemm (median GFLOP/s over median GFLOP/s):"
for csv in "$OUT"/bench-d*.csv; do
    awk -F, '$1 == "fused" && $10 != "" {
        printf "  T %5d  d %3d  %-9s %5.1f GFLOP/s  %3.0f%% of sgemm%s\n", $2, $3,
               ($5 == 1 ? "causal" : "full"), $9, 100 * $10, (100 * $10 >= 70 ? "" : "  (under 70%)")
    }' "$csv"
done
exit $status
