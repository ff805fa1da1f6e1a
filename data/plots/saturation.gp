# saturation.gp: lab 8's experiment, the gradient through softmax as d_k grows,
# the answer key's numbers beside yours.
#
#   gnuplot -c data/plots/saturation.gp saturation.dat saturation.png [NOTE1 NOTE2 HAVE_STUDENT]
#
# saturation.dat comes from `attnlab plot saturation`: columns 1 d_k, 2 g_raw,
# 3 g_scaled, 4 ratio, 5 uniform (1/sqrt(T)), then 6 g_raw_student,
# 7 g_scaled_student (NaN when there are none). NOTE1 and NOTE2 are printed
# under the plot; HAVE_STUDENT 0 leaves the student's points out.

dat = ARG1
png = ARG2
note1 = ARGC >= 3 ? ARG3 : ""
note2 = ARGC >= 4 ? ARG4 : ""
have_student = ARGC >= 5 ? (ARG5 eq "1") : 1

set encoding utf8
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
    set terminal pngcairo size 1000,720 enhanced font "Sans,11" linewidth 1.5
} else {
    set terminal png truecolor size 1000,720 enhanced
}
set output png

# Raw rows first sharpen, which makes the gradient larger than a scaled row's
# at small d_k (d_k = 8, 16), and only then saturate: the title says both.
set title "Gradient through softmax vs d_k: with raw scores it is larger at small d_k (sharp rows,\nnot yet saturated), then falls as rows saturate; scaled scores keep it the same for every d_k" font ",13"
set xlabel "d_k, the query/key size (log_2 scale)"
set ylabel "mean ||ds||, ds = w ⊙ (g - <w, g>)"
set logscale x 2
set format x "%g"
set xrange [*:*] noextend
set offsets graph 0.04, graph 0.04, 0, 0
set yrange [0:*]
set grid xtics ytics lc rgb "#dddddd"
set key inside left bottom vertical Left reverse opaque box lc rgb "#bbbbbb" spacing 1.3 width -1
set bmargin 7
set label 1 note1 at screen 0.01, screen 0.055 noenhanced font ",9"
set label 2 note2 at screen 0.01, screen 0.02 noenhanced font ",9"

raw = "#d62728"
scaled = "#1f77b4"

ref_plot = "dat using 1:5 with lines dt 3 lw 1.5 lc rgb '#777777' title 'a uniform row: 1/√T (one-hot: 0)', " . \
           "dat using 1:3 with linespoints pt 7 ps 1.0 lw 2 lc rgb scaled title 'answer key: scaled q·k/√d_k', " . \
           "dat using 1:2 with linespoints pt 7 ps 1.0 lw 2 lc rgb raw title 'answer key: raw q·k'"
yours_plot = ", dat using 1:7 with points pt 6 ps 2.4 lw 2 lc rgb scaled title 'yours: scaled', " . \
             "dat using 1:6 with points pt 4 ps 2.4 lw 2 lc rgb raw title 'yours: raw'"

if (have_student) {
    plot @ref_plot @yours_plot
} else {
    plot @ref_plot
}
