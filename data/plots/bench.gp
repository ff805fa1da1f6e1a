# bench.gp: `make bench`'s chart, GFLOP/s against T for each path of attnlab bench.
#
#   gnuplot -c data/plots/bench.gp bench.csv bench.png [TITLE_NOTE]
#
# bench.csv is `attnlab bench --format csv` rows of several runs under one header
# (columns: 1 path, 2 T, 3 d, 4 heads, 5 causal, 6 repeat, 7 median_s, 8 min_s,
# 9 gflops, 10 fraction_of_sgemm, 11 speedup_vs_reference, 12 max_abs_diff,
# 13 peak_mib, 14 threads), every run with the same d, heads and causal. A path missing from
# the file (sgemm and pipeline without OpenBLAS) is simply not drawn.

csv = ARG1
png = ARG2
note = ARGC >= 3 ? ARG3 : ""

set datafile separator ","
set datafile missing NaN    # other paths' rows: skipped without breaking the line
set encoding utf8
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
    set terminal pngcairo size 1000,680 enhanced font "Sans,11" linewidth 1.5
} else {
    set terminal png truecolor size 1000,680 enhanced
}
set output png

set title "attnlab bench: GFLOP/s of each attention path against T\n(one core; sgemm is the limit: just the two products, in OpenBLAS)" font ",14"
set xlabel "T, queries = keys (log_2 scale)"
set ylabel "GFLOP/s (4·heads·T²·d per run, halved for causal)"
set logscale x 2
set logscale y 10
set format x "%g"
set grid xtics ytics mytics lc rgb "#dddddd"
set key outside right top vertical Left reverse
set bmargin 5
set label 1 note at screen 0.01, screen 0.02 noenhanced font ",9"

paths = "sgemm fused pipeline online reference"
colors = "#000000 #d62728 #1f77b4 #2ca02c #9467bd"
# rows of one path: column 9 where column 1 is that path, otherwise skipped
plot for [k = 1:words(paths)] csv skip 1 \
     using 2:(strcol(1) eq word(paths, k) ? $9 : NaN) \
     with linespoints lw 2 pt 7 ps 1.2 lc rgb word(colors, k) title word(paths, k)
