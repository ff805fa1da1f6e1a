# histogram.gp: a class's totals, students per band of the maximum (attnlab batch).
#
#   gnuplot -c data/plots/histogram.gp histogram.dat histogram.png [NOTE]
#
# histogram.dat comes from `attnlab batch`: columns 1 band_low, 2 band_high (in
# percent of the maximum total; the last band is 100, full marks), 3 students.
# NOTE is printed under the plot.

dat = ARG1
png = ARG2
note = ARGC >= 3 ? ARG3 : ""

set encoding utf8
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
    set terminal pngcairo size 900,560 enhanced font "Sans,11"
} else {
    set terminal png truecolor size 900,560 enhanced
}
set output png

set title "Class totals: students per band of the maximum" font ",14"
set xlabel "total, percent of the maximum"
set ylabel "students"
set style fill solid 0.8 border lc rgb "#1f4e79"
set boxwidth 0.85 relative
set yrange [0:*]
set grid ytics lc rgb "#dddddd"
set xtics rotate by -30
set bmargin 6
set label 1 note at screen 0.01, screen 0.03 noenhanced font ",9"
unset key

plot dat using 0:3:xtic(($1 == 100) ? "100" : sprintf("%d-%d", $1, $2)) with boxes lc rgb "#1f77b4"
