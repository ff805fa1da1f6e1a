# entropy.gp: lab 4's experiment, the answer key's entropies beside yours.
#
#   gnuplot -c data/plots/entropy.gp entropy.dat entropy.png [NOTE1 NOTE2 HAVE_STUDENT]
#
# entropy.dat comes from `attnlab plot entropy`: columns 1 d_k, 2 H_raw,
# 3 H_scaled, 4 pred_raw, 5 pred_scaled (reference and predictions), then
# 6 H_raw_student, 7 H_scaled_student (NaN when there are none). NOTE1 and NOTE2
# are printed under the plot; HAVE_STUDENT 0 leaves the student's curves out.

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

set title "Entropy of the weights vs d_k: raw scores collapse toward one-hot,\nscaled scores stay near ln T - 1/2 for every d_k" font ",14"
set xlabel "d_k, the query/key size (log_2 scale)"
set ylabel "mean entropy of one row of weights (nats)"
set logscale x 2
set format x "%g"
set xrange [*:*] noextend
set offsets graph 0.04, graph 0.04, 0, 0
set yrange [0:*]
set grid xtics ytics lc rgb "#dddddd"
set key inside right center vertical Left reverse opaque box lc rgb "#bbbbbb" spacing 1.3 width -1
set bmargin 7
set label 1 note1 at screen 0.01, screen 0.055 noenhanced font ",9"
set label 2 note2 at screen 0.01, screen 0.02 noenhanced font ",9"

raw = "#d62728"
scaled = "#1f77b4"

# The raw prediction is a limit for large d_k (lab 4 handout, section 4): the
# measured curve lies above it and closes in, and the plot says so.
set label 3 "raw: c(T)/√d_k is the large-d_k limit; the measured curve\napproaches it from above (a term of order 1/d_k)" \
    at graph 0.98, graph 0.17 right front font ",9" textcolor rgb raw

# ln T, the entropy of uniform weights, is pred_scaled + 1/2
ref_plot = "dat using 1:($5 + 0.5) with lines dt 3 lc rgb '#777777' title 'ln T: uniform weights', " . \
           "dat using 1:5 with lines dt 2 lw 1.5 lc rgb scaled title 'ln T - 1/2: analytic, scaled', " . \
           "dat using 1:4 with linespoints dt 2 pt 2 ps 1.5 lw 1.5 lc rgb raw title 'c(T)/√d_k: large-d_k limit, raw', " . \
           "dat using 1:3 with linespoints pt 7 ps 1.0 lw 2 lc rgb scaled title 'answer key: scaled q·k/√d_k', " . \
           "dat using 1:2 with linespoints pt 7 ps 1.0 lw 2 lc rgb raw title 'answer key: raw q·k'"
yours_plot = ", dat using 1:7 with points pt 6 ps 2.4 lw 2 lc rgb scaled title 'yours: scaled', " . \
             "dat using 1:6 with points pt 4 ps 2.4 lw 2 lc rgb raw title 'yours: raw'"

if (have_student) {
    plot @ref_plot @yours_plot
} else {
    plot @ref_plot
}
