# heatmap.gp: one attention example, its scores next to its weights, so the
# masked scores (-inf) are seen to become weights of exactly 0.
#
#   gnuplot -c data/plots/heatmap.gp heatmap.dat heatmap.png [NOTE1 NOTE2]
#
# heatmap.dat comes from `attnlab plot heatmap`: three T x T matrices (row i =
# query i, column j = key j), separated by two blank lines: index 0 the scores
# softmax sees (-inf where masked), index 1 the weights, index 2 the mask
# (1 = masked). NOTE1 and NOTE2 are printed under the plots.

dat = ARG1
png = ARG2
note1 = ARGC >= 3 ? ARG3 : ""
note2 = ARGC >= 4 ? ARG4 : ""

set encoding utf8
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
    set terminal pngcairo size 1400,720 enhanced font "Sans,11"
} else {
    set terminal png truecolor size 1400,720 enhanced
}
set output png

# the size of the example, from the data: the last column index + 1
stats dat index 1 matrix using 1 nooutput
T = int(STATS_max) + 1

set size ratio -1
set xrange [-0.5:T - 0.5]
set yrange [T - 0.5:-0.5]        # query 0 at the top, as the matrix is written
set xtics 0, 1, T - 1 out nomirror scale 0.5
set ytics 0, 1, T - 1 out nomirror scale 0.5
set xlabel "key j"
set ylabel "query i"
set tics font ",9"
unset key

set multiplot layout 1, 2 title \
    "Scores are any real number; weights are what softmax makes of each row\n" . \
    "masked scores are -inf, and softmax gives them a weight of exactly 0; each row of weights sums to 1" \
    font ",14" margins 0.05, 0.95, 0.14, 0.86 spacing 0.1, 0
set label 1 note1 at screen 0.01, screen 0.045 noenhanced font ",9"
set label 2 note2 at screen 0.01, screen 0.015 noenhanced font ",9"

# left: the scores softmax sees; a masked cell is left grey and labelled -inf
set title "scores q_i·k_j / √d after the causal and padding masks"
set object 1 rectangle from graph 0, 0 to graph 1, 1 behind fillcolor rgb "#9a9a9a" fillstyle solid 1.0 noborder
set palette defined (-3 "#2166ac", -1.5 "#92c5de", 0 "#f7f7f7", 1.5 "#f4a582", 3 "#b2182b")
set cbrange [-3:3]
set cbtics 1 font ",9"
set colorbox user origin graph 1.03, graph 0 size graph 0.04, graph 1
set cblabel "score (colours clipped at ±3)" font ",9"
plot dat index 0 matrix using 1:2:($3 < -1e30 ? NaN : $3) with image pixels, \
     dat index 0 matrix using 1:2:($3 < -1e30 ? "" : sprintf("%.1f", $3)) with labels font ",8", \
     dat index 2 matrix using 1:2:($3 > 0 ? "-inf" : "") with labels font ",8" tc rgb "white"
unset label 1
unset label 2
unset object 1

# right: the weights
set title "weights = softmax of each row (masked: exactly 0)"
set palette defined (0 "#ffffff", 0.25 "#c6dbef", 0.5 "#6baed6", 0.75 "#2171b5", 1 "#08306b")
set cbrange [0:1]
set cbtics 0.25
set cblabel "weight" font ",9"
plot dat index 1 matrix using 1:2:3 with image, \
     dat index 1 matrix using 1:2:($3 == 0 ? "" : $3 < 0.01 ? "<.01" : sprintf("%.2f", $3)):($3 > 0.55 ? 0xffffff : 0x000000) \
         with labels font ",8" tc rgb variable, \
     dat index 2 matrix using 1:2:($3 > 0 ? "0" : "") with labels font ",9:Bold" tc rgb "#d62728"
unset multiplot
