# heads.gp: one head of lab 10's per-head weights, the answer key's beside the
# student's, so a head read from the wrong plane or written transposed shows.
#
#   gnuplot -c data/plots/heads.gp heads.dat heads.png [NOTE1 NOTE2 HAVE_STUDENT]
#
# heads.dat comes from `attnlab plot heatmap --lab 10`: three Tq x Tk matrices
# (row i = query i, column j = key j), separated by two blank lines: index 0
# the answer key's head, index 1 the student's (NaN where there is none),
# index 2 where they differ (1). HAVE_STUDENT is 1 when index 1 holds numbers.

dat = ARG1
png = ARG2
note1 = ARGC >= 3 ? ARG3 : ""
note2 = ARGC >= 4 ? ARG4 : ""
have_student = ARGC >= 5 ? int(ARG5) : 1

set encoding utf8
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
    set terminal pngcairo size 1400,680 enhanced font "Sans,11"
} else {
    set terminal png truecolor size 1400,680 enhanced
}
set output png

# the size of the head, from the data: the last row and column index + 1
stats dat index 0 matrix using 1 nooutput
Tk = int(STATS_max) + 1
stats dat index 0 matrix using 2 nooutput
Tq = int(STATS_max) + 1

set size ratio -1
set xrange [-0.5:Tk - 0.5]
set yrange [Tq - 0.5:-0.5]       # query 0 at the top, as the matrix is written
set xtics 0, 1, Tk - 1 out nomirror scale 0.5
set ytics 0, 1, Tq - 1 out nomirror scale 0.5
set xlabel "key j"
set ylabel "query i"
set tics font ",9"
unset key
set palette defined (0 "#ffffff", 0.25 "#c6dbef", 0.5 "#6baed6", 0.75 "#2171b5", 1 "#08306b")
set cbrange [0:1]
set cbtics 0.25 font ",9"
set colorbox user origin graph 1.03, graph 0 size graph 0.04, graph 1
set cblabel "weight" font ",9"

set multiplot layout 1, 2 title \
    "One head of per-head weights W (B, H, Tq, Tk): Wh[i][j] = W[b][h][i][j]\n" . \
    "each row is one query's distribution over the keys and sums to 1" \
    font ",14" margins 0.05, 0.91, 0.14, 0.86 spacing 0.12, 0
set label 1 note1 at screen 0.01, screen 0.045 noenhanced font ",9"
set label 2 note2 at screen 0.01, screen 0.015 noenhanced font ",9"

set title "the answer key's head"
plot dat index 0 matrix using 1:2:3 with image, \
     dat index 0 matrix using 1:2:(sprintf("%.2f", $3)):($3 > 0.55 ? 0xffffff : 0x000000) \
         with labels font ",7" tc rgb variable
unset label 1
unset label 2
unset ylabel                     # the same queries as on the left

if (have_student) {
    set title "yours (lab\\_extract\\_head); red x: differs from the answer key"
    plot dat index 1 matrix using 1:2:3 with image, \
         dat index 1 matrix using 1:2:(sprintf("%.2f", $3)):($3 > 0.55 ? 0xffffff : 0x000000) \
             with labels font ",7" tc rgb variable, \
         dat index 2 matrix using 1:2:($3 > 0 ? "x" : "") with labels font ",12:Bold" \
             offset 0, 0.6 tc rgb "#d62728"
} else {
    set title "yours: missing (see the note below)"
    unset colorbox
    set label 3 "no head from your lab\\_extract\\_head" at graph 0.5, graph 0.5 center font ",12"
    plot NaN
}
unset multiplot
