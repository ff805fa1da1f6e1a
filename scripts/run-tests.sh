#!/bin/sh
# run-tests.sh MAKE BUILD: everything `make test` runs, in order, then what each
# step cost and one closing line that adds them up: "tests: N passed, N failed".
#   layers: no #include climbs from a lower layer to a higher one
#      (scripts/check-layers.sh says the order); paths: no C file but
#      grader/layout.c spells a lab's path (scripts/check-paths.sh)
#   suites: every Check suite (libattn, support code, grader modules)
#   dev-check: each solution passes its lab's visible tests, each stub fails them cleanly
#   validate: solutions score full marks, stubs zero, mutants diagnosed
#   mutate: every mechanical mutant of every lab's solution is killed
#      by a test or listed as a reviewed equivalent (make mutation alone)
#   fuzz-regress: every seed and regression input of the fuzz targets
#      (grader/fuzz/) runs clean, built with the normal compiler (no clang needed)
#   install: libattn staged under BUILD/stage, examples/ built through pkg-config and run
MAKE=${1:-make}
BUILD=${2:-build}
log=$(mktemp); trap 'rm -f "$log" "$log.rc" "$log.t"' EXIT
status=0
start=$(date +%s)
times=""

# step NAME COMMAND...: run one step, its output to the terminal and the log,
# and note its wall time for the closing summary.
# CPU time is the children's user + system time from the shell's `times`, so a
# step's cost can be read on a busy machine too.
cpu_now() {
    times > "$log.t"      # in this shell: a subshell's `times` knows no children
    cpu=$(awk 'NR == 2 { for (i = 1; i <= 2; i++) { split($i, p, "m"); s += p[1] * 60 + p[2] } printf "%d", s }' "$log.t")
}
step() {
    name=$1; shift
    echo "==> $name"
    t0=$(date +%s); cpu_now; c0=$cpu
    { "$@"; echo $? > "$log.rc"; } 2>&1 | tee -a "$log"
    [ "$(cat "$log.rc")" = 0 ] || status=1
    cpu_now
    times="$times${times:+, }$name $(( $(date +%s) - t0 )) s ($(( cpu - c0 )) CPU-s)"
}

step layers sh scripts/check-layers.sh
step paths sh scripts/check-paths.sh
step suites $MAKE -s test-unit
step dev-check sh scripts/dev-check.sh
step validate "$BUILD/attnlab" validate
step mutate "$BUILD/attnlab" mutate
step fuzz-regress $MAKE -s fuzz-regress
step install $MAKE -s test-install
rm -f "$log.rc" "$log.t"

# Add up: Check's "NN%: Checks: C, Failures: F, Errors: E" lines, and the
# "name: P passed, F failed" lines of layers, paths, dev-check, validate, fuzz-regress and install.
passed=$(awk '/^[0-9]+%: Checks: / { gsub(/,/, ""); c += $3 - $5 - $7 } /^(layers|paths|dev-check|validate|mutate|fuzz-regress|install): [0-9]+ passed, [0-9]+ failed/ { c += $2 } END { print c + 0 }' "$log")
failed=$(awk '/^[0-9]+%: Checks: / { gsub(/,/, ""); f += $5 + $7 } /^(layers|paths|dev-check|validate|mutate|fuzz-regress|install): [0-9]+ passed, [0-9]+ failed/ { f += $4 } END { print f + 0 }' "$log")
[ "$status" = 0 ] || [ "$failed" != 0 ] || failed=1   # a step failed without a count (e.g. did not build)
echo "step times: $times"
echo "all tests ran in $(( $(date +%s) - start )) s"
echo "tests: $passed passed, $failed failed"
exit $status
