#!/bin/sh
# fuzz.sh: run the grader's fuzz targets (grader/fuzz/fuzz_NAME.c).
#
#   fuzz.sh run DIR SECONDS NAME...   libFuzzer builds in DIR, SECONDS each, one
#                                     after the other; prints executions per target
#   fuzz.sh regress DIR NAME...       driver builds in DIR over every saved input;
#                                     closing line "fuzz-regress: N passed, N failed"
#
# libFuzzer keeps what it finds in DIR/corpus/NAME (new inputs) and
# DIR/artifacts/NAME/ (crashes, leaks, hangs, with the input that caused them);
# the seeds in grader/fuzz/corpus/NAME are only read. Exits 1 if a target
# failed, so a finding fails the make.
set -u
mode=$1 dir=$2
shift 2
src=grader/fuzz
status=0

# Saved inputs of target $1: its seeds, and its regression inputs if any.
inputs() {
    echo "$src/corpus/$1"
    [ -d "$src/regress/$1" ] && echo "$src/regress/$1"
    return 0
}

if [ "$mode" = regress ]; then
    log=$(mktemp); trap 'rm -f "$log"' EXIT
    # Leaks count as failures here (run-suites.sh turns them off for libcheck only).
    export ASAN_OPTIONS="${FUZZ_ASAN_OPTIONS:-detect_leaks=1}"
    for t in "$@"; do
        # shellcheck disable=SC2046  # one argument per folder
        "$dir/fuzz_$t" $(inputs "$t") 2>&1 | tee -a "$log"
    done
    passed=$(awk '/^fuzz_[a-z]+: [0-9]+ passed, [0-9]+ failed$/ { c += $2 } END { print c + 0 }' "$log")
    failed=$(awk '/^fuzz_[a-z]+: [0-9]+ passed, [0-9]+ failed$/ { c += $4 } END { print c + 0 }' "$log")
    # a target that did not print its count did not run to the end
    ran=$(grep -c '^fuzz_[a-z]*: [0-9]* passed, [0-9]* failed$' "$log")
    [ "$ran" = $# ] || failed=$((failed + $# - ran))
    echo "fuzz-regress: $passed passed, $failed failed"
    [ "$failed" = 0 ]
    exit
fi

[ "$mode" = run ] || { echo "usage: fuzz.sh run DIR SECONDS NAME... | regress DIR NAME..." >&2; exit 2; }
seconds=$1
shift
case $seconds in
    ''|*[!0-9]*|0) echo "fuzz: FUZZ_SECONDS must be a whole number of seconds >= 1, got '$seconds'" >&2
                   exit 2 ;;
esac
# fuzz_tensor writes each input to a file: keep that in memory when we can, in a
# folder of our own that goes at the end even when a crash skipped the target's cleanup.
shm=/tmp
[ -d /dev/shm ] && [ -w /dev/shm ] && shm=/dev/shm
TMPDIR=$(mktemp -d "$shm/attnlab-fuzz.XXXXXX") || exit 1
export TMPDIR
trap 'rm -rf "$TMPDIR"' EXIT
for t in "$@"; do
    case $t in
        rubric|tensor) dict=$src/yaml.dict ;;
        *)             dict=$src/$t.dict ;;
    esac
    mkdir -p "$dir/corpus/$t" "$dir/artifacts/$t"
    log=$dir/fuzz_$t.log
    echo "==> fuzz_$t for $seconds s (log: $log)"
    # shellcheck disable=SC2046  # one argument per folder
    "$dir/fuzz_$t" -max_total_time="$seconds" -timeout=10 -print_final_stats=1 \
        -dict="$dict" -artifact_prefix="$dir/artifacts/$t/" \
        "$dir/corpus/$t" $(inputs "$t") >"$log" 2>&1
    rc=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    secs=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log")
    corpus=$(find "$dir/corpus/$t" -type f | wc -l)
    if [ -n "$secs" ]; then
        echo "fuzz_$t: ${runs:-0} executions in $secs s ($(( ${runs:-0} / (secs > 0 ? secs : 1) ))/s)," \
             "$corpus inputs in $dir/corpus/$t"
    else
        echo "fuzz_$t: stopped after ${runs:-0} executions, $corpus inputs in $dir/corpus/$t"
    fi
    if [ "$rc" != 0 ]; then
        status=1
        grep -E '^(==[0-9]+==ERROR|SUMMARY|.*fuzz check failed|artifact_prefix|Test unit written)' "$log"
        echo "fuzz_$t: FAILED (exit $rc); the input is in $dir/artifacts/$t/, the full report in $log"
    fi
done
exit $status
