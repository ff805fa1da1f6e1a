# masking.gp: lab 5's experiment, masking the weights after softmax, the answer
# key's numbers beside yours.
#
#   gnuplot -c data/plots/masking.gp masking.dat masking.png [NOTE1 NOTE2 HAVE_STUDENT]
#
# masking.dat comes from `attnlab plot masking`: columns 1 pads, 2 rowsum,
# 3 rowsum_predicted, 4 drift, 5 drift_predicted (reference, and predictions
# from the score distribution), then 6 rowsum_student, 7 drift_student (NaN
# when there are none). NOTE1 and NOTE2
# are printed under the plots; HAVE_STUDENT 0 leaves the student's points out.

dat = ARG1
png = ARG2
note1 = ARGC >= 3 ? ARG3 : ""
note2 = ARGC >= 4 ? ARG4 : ""
have_student = ARGC >= 5 ? (ARG5 eq "1") : 1

set encoding utf8
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
    set terminal pngcairo size 1200,640 enhanced font "Sans,11" linewidth 1.5
} else {
    set terminal png truecolor size 1200,640 enhanced
}
set output png

key_colour = "#1f77b4"
pre_colour = "#2ca02c"
# Pad counts double (0, 1, 2, 4, ... 64): on a linear axis the small ones,
# where the row sum falls fastest, squeeze into the left edge. The axis is
# logarithmic in p + 1 (p = 0 has no logarithm), with the ticks labelled p.
set xlabel "pad keys added to the batch entry, p (log scale of p + 1)"
set logscale x 2
set xrange [*:*] noextend
set offsets graph 0.03, graph 0.03, 0, 0
set grid xtics ytics lc rgb "#dddddd"
set key spacing 1.3 Left reverse opaque box lc rgb "#bbbbbb"

set multiplot layout 1, 2 title \
    "Masking the weights after softmax: rows lose mass and the output drifts as padding grows\n(masking the scores before softmax keeps the row sum at 1 and the drift at 0)" \
    font ",14" margins 0.07, 0.98, 0.2, 0.84 spacing 0.08, 0
set label 1 note1 at screen 0.01, screen 0.055 noenhanced font ",9"
set label 2 note2 at screen 0.01, screen 0.02 noenhanced font ",9"

# left: what is left of each row's weights
set title "row sum of the weights that remain (mean over queries)"
set ylabel "post-mask row sum"
set yrange [0:1.1]
set key left bottom
yours = have_student ? ", dat using ($1 + 1):6 with points pt 6 ps 2.4 lw 2 lc rgb key_colour title 'yours'" : ""
plot 1 with lines dt 2 lw 1.5 lc rgb pre_colour title 'mask the scores: always 1', \
     dat using ($1 + 1):3 with lines lw 7 lc rgb '#c8c8c8' title 'predicted from the score distribution, lab 5 §3', \
     dat using ($1 + 1):2:xticlabels(1) with linespoints pt 7 ps 1.0 lw 2 lc rgb key_colour title 'answer key: mask the weights' \
     @yours
unset label 1
unset label 2

# right: how far the output moved
set title "output drift, max |O_{post} - O_{pre}|"
set ylabel "drift"
set yrange [-0.04:*]
set key left top
yours = have_student ? ", dat using ($1 + 1):7 with points pt 6 ps 2.4 lw 2 lc rgb '#d62728' title 'yours'" : ""
plot 0 with lines dt 2 lw 1.5 lc rgb pre_colour title 'mask the scores: no drift', \
     dat using ($1 + 1):5 with lines lw 7 lc rgb '#c8c8c8' title 'predicted from the score distribution, lab 5 §3', \
     dat using ($1 + 1):4:xticlabels(1) with linespoints pt 7 ps 1.0 lw 2 lc rgb '#d62728' title 'answer key: mask the weights' \
     @yours
unset multiplot
