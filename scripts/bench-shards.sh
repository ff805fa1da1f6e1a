#!/bin/sh
# bench-shards.sh [ATTNLAB] [STUDENTS] [SHARDS]: the time to grade a class in
# one batch against the same class in SHARDS shards (batch --shard K/N) then
# merged, on this machine. The class (100 by default) is made in a temporary
# folder from the course's own files, a quarter each: solutions in the labs/
# layout, solutions flat, lab 1 with its scale mistake (no 1/sqrt(d)), and the
# untouched stubs. Three runs: one batch (--jobs BENCH_JOBS, default 2); the
# shards two at a time, each --jobs 1, then attnlab merge; all the shards at
# once, each --jobs 1, then merge. Each merged gradebook.csv must be the
# single run's byte for byte (exit 1 otherwise). BENCH_LABS picks the labs
# (default 1,5; all for every lab). Prints seconds of wall time per step.
set -eu
ATTNLAB=${1:-build/attnlab}
N=${2:-100}
S=${3:-4}
LABS=${BENCH_LABS:-1,5}
JOBS=${BENCH_JOBS:-2}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
W=$(mktemp -d /tmp/attnlab-bench-shards-XXXXXX)
trap 'rm -rf "$W"' EXIT
case $ATTNLAB in /*) ;; *) ATTNLAB=$(pwd)/$ATTNLAB ;; esac

# the class
i=1
while [ "$i" -le "$N" ]; do
    d="$W/sub/$(printf 's%03d' "$i")"
    mkdir -p "$d"
    for lab in "$ROOT"/solutions/lab*-*/; do
        name=$(basename "$lab")
        nn=$(echo "$name" | cut -c4-5)
        case $((i % 4)) in
        0|2) mkdir -p "$d/$name" && cp "$lab/lab$nn.c" "$d/$name/" ;;
        1) cp "$lab/lab$nn.c" "$d/lab$nn.c" ;;
        3) mkdir -p "$d/$name" && cp "$ROOT/data/stubs/lab$nn.c" "$d/$name/lab$nn.c" ;;
        esac
    done
    if [ $((i % 4)) -eq 2 ]; then
        sed 's|1.0 / sqrt((double)d));|1.0);|' "$ROOT/solutions/lab01-scores/lab01.c" \
            > "$d/lab01-scores/lab01.c"
    fi
    i=$((i + 1))
done

now() { date +%s.%N; }
secs() { echo "$1 $2" | awk '{printf "%.1f", $2 - $1}'; }
# CPU seconds (user + system) of every process waited for between two marks
# (times runs in this shell: in a $(...) it would see a subshell's children)
cpu_mark() { times > "$W/$1"; }
cpu_of() { awk 'NR == 2 { gsub(/[ms]/, " "); print $1 * 60 + $2 + $3 * 60 + $4 }' "$W/$1"; }
cpu_since() { echo "$(cpu_of "$1") $(cpu_of now)" | awk '{printf "%.1f", $2 - $1}'; }
run_batch() {   # OUT [--shard K/N] [--jobs J]
    out=$1; shift
    "$ATTNLAB" batch "$W/sub" --out "$out" --lab "$LABS" -q "$@" > /dev/null
}

echo "attnlab batch of $N students (labs $LABS) on $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg)"
t0=$(now)
cpu_mark c0
run_batch "$W/one" --jobs "$JOBS"
t1=$(now)
cpu_mark now
echo "one batch, --jobs $JOBS:                $(secs "$t0" "$t1") s (CPU $(cpu_since c0) s)"

status=0
for at_once in 2 "$S"; do
    t0=$(now)
    cpu_mark c0
    seq 1 "$S" | xargs -P "$at_once" -I K "$ATTNLAB" batch "$W/sub" --out "$W/p$at_once-K" \
        --lab "$LABS" -q --jobs 1 --shard "K/$S" > /dev/null
    t1=$(now)
    "$ATTNLAB" merge "$W"/p"$at_once"-* --out "$W/merged$at_once" -q
    t2=$(now)
    cpu_mark now
    echo "$S shards, $at_once at a time, --jobs 1: $(secs "$t0" "$t1") s, merge $(secs "$t1" "$t2") s," \
         "total $(secs "$t0" "$t2") s (CPU $(cpu_since c0) s)"
    if cmp -s "$W/one/gradebook.csv" "$W/merged$at_once/gradebook.csv"; then
        echo "  merged gradebook.csv is the single run's, byte for byte"
    else
        echo "  merged gradebook.csv DIFFERS from the single run's" >&2
        status=1
    fi
done
exit $status
