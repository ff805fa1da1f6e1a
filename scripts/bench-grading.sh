#!/bin/sh
# bench-grading.sh ATTNLAB: what grading costs where people wait (part of make bench).
#   cold: attnlab grade of every solution, one lab at a time, nothing kept from
#         before (ATTNLAB_BUILD_CACHE=off): CPU seconds (user + system, the
#         grader and every tool and test it ran) and wall clock, median of
#         BENCH_GRADE_RUNS (5), and the median of each stage --timing names
#   warm: the same with the build cache holding every lab (a regrade, a status)
#   watch: save to verdict, median of 10 saves of lab 1 (each save new bytes, so
#         each is built: the solution dividing by d, not sqrt(d), with a numbered
#         comment: a wrong answer, so watch goes on)
set -u
ATTNLAB=${1:-build/attnlab}
RUNS=${BENCH_GRADE_RUNS:-5}
T=$(mktemp -d); trap 'kill $watch 2>/dev/null; rm -rf "$T"' EXIT
watch=""

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR) printf "%.2f", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
now() { date +%s.%N; }

# One grade: "wall cpu build tests grader" (seconds) on a line.
grade_once() {
    t0=$(now)
    sh -c '"$1" grade --submission solutions -q --jobs 1 --timing > "$2/timing" 2>&1; times > "$2/times"' sh "$ATTNLAB" "$T"
    t1=$(now)
    cpu=$(awk 'NR == 2 { for (i = 1; i <= 2; i++) { split($i, p, "m"); s += p[1] * 60 + p[2] } printf "%.3f", s }' "$T/times")
    stages=$(awk '$1 == "all" && $2 == "labs" { print $3, $4, $5 }' "$T/timing")
    echo "$(echo "$t1 - $t0" | bc) $cpu $stages"
}

report() {   # report NAME FILE: medians of each column
    printf "%-5s grade of every lab: %s CPU-s, %s s wall (median of %d); build %s s, tests %s s, grader %s s\n" "$1" \
        "$(cut -d' ' -f2 "$2" | median)" "$(cut -d' ' -f1 "$2" | median)" "$RUNS" \
        "$(cut -d' ' -f3 "$2" | median)" "$(cut -d' ' -f4 "$2" | median)" "$(cut -d' ' -f5 "$2" | median)"
}

echo "grading, $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | sed 's/^ //'), $(nproc) cores:"
: > "$T/cold"
for i in $(seq "$RUNS"); do ATTNLAB_BUILD_CACHE=off grade_once >> "$T/cold"; done
report cold "$T/cold"
export ATTNLAB_BUILD_CACHE="$T/cache"
grade_once > /dev/null                    # fills the cache
: > "$T/warm"
for i in $(seq "$RUNS"); do grade_once >> "$T/warm"; done
report warm "$T/warm"

# watch: a wrong lab 1 saved ten times with a new comment each time.
mkdir -p "$T/sub/lab01-scores" "$T/state"
sed 's/sqrt(/(/' solutions/lab01-scores/lab01.c > "$T/wrong.c"
file="$T/sub/lab01-scores/lab01.c"
cp "$T/wrong.c" "$file"
XDG_STATE_HOME="$T/state" "$ATTNLAB" watch --lab 1 --submission "$T/sub" --timeout 300 > "$T/watch" 2>&1 &
watch=$!
verdicts() { grep -c "visible tests fail" "$T/watch"; }
wait_past() {   # wait_past N: until more than N verdicts are shown (30 s at most)
    for _ in $(seq 6000); do [ "$(verdicts)" -gt "$1" ] && return 0; sleep 0.005; done; return 1
}
wait_past 0 || { echo "watch: no first verdict; it printed:"; cat "$T/watch"; exit 1; }
: > "$T/saves"
for i in $(seq 10); do
    sleep 0.3
    n=$(verdicts)
    t0=$(now)
    { cat "$T/wrong.c"; echo "/* save $i */"; } > "$file"
    wait_past "$n" || { echo "watch: no verdict after save $i"; cat "$T/watch"; exit 1; }
    echo "$(now) - $t0" | bc >> "$T/saves"
done
echo "watch: save to verdict $(median < "$T/saves") s (median of 10 saves; each $(tr '\n' ' ' < "$T/saves" | awk '{ for (i = 1; i <= NF; i++) printf "%s%.2f", (i > 1 ? " " : ""), $i }'))"
