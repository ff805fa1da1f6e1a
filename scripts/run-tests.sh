#!/bin/sh
# run-tests.sh MAKE BUILD: everything `make test` runs, in order, then one
# closing line that adds them up: "tests: N passed, N failed".
#   0. layers: no #include climbs from a lower layer to a higher one
#      (scripts/check-layers.sh says the order); paths: no C file but
#      grader/layout.c spells a lab's path (scripts/check-paths.sh)
#   1. every Check suite (libattn, support code, grader modules)
#   2. dev-check: each solution passes its lab's visible tests, each stub fails them cleanly
#   3. attnlab validate: solutions score full marks, stubs zero, mutants diagnosed
#   3b. attnlab mutate: every mechanical mutant of every lab's solution is killed
#      by a test or listed as a reviewed equivalent (make mutation alone)
#   4. fuzz-regress: every seed and regression input of the fuzz targets
#      (grader/fuzz/) runs clean, built with the normal compiler (no clang needed)
#   5. install: libattn staged under BUILD/stage, examples/ built through pkg-config and run
MAKE=${1:-make}
BUILD=${2:-build}
log=$(mktemp); trap 'rm -f "$log" "$log.rc"' EXIT
status=0
start=$(date +%s)

echo "==> layers"
{ sh scripts/check-layers.sh; echo $? > "$log.rc"; } 2>&1 | tee -a "$log"
[ "$(cat "$log.rc")" = 0 ] || status=1
echo "==> lab paths"
{ sh scripts/check-paths.sh; echo $? > "$log.rc"; } 2>&1 | tee -a "$log"
[ "$(cat "$log.rc")" = 0 ] || status=1
echo "==> Check suites"
{ $MAKE -s test-unit; echo $? > "$log.rc"; } 2>&1 | tee -a "$log"
[ "$(cat "$log.rc")" = 0 ] || status=1
echo "==> lab dev-check"
{ sh scripts/dev-check.sh; echo $? > "$log.rc"; } 2>&1 | tee -a "$log"
[ "$(cat "$log.rc")" = 0 ] || status=1
echo "==> attnlab validate"
{ "$BUILD/attnlab" validate; echo $? > "$log.rc"; } 2>&1 | tee -a "$log"
[ "$(cat "$log.rc")" = 0 ] || status=1
echo "==> attnlab mutate"
{ "$BUILD/attnlab" mutate; echo $? > "$log.rc"; } 2>&1 | tee -a "$log"
[ "$(cat "$log.rc")" = 0 ] || status=1
echo "==> fuzz regression inputs"
{ $MAKE -s fuzz-regress; echo $? > "$log.rc"; } 2>&1 | tee -a "$log"
[ "$(cat "$log.rc")" = 0 ] || status=1
echo "==> installed libattn"
{ $MAKE -s test-install; echo $? > "$log.rc"; } 2>&1 | tee -a "$log"
[ "$(cat "$log.rc")" = 0 ] || status=1
rm -f "$log.rc"

# Add up: Check's "NN%: Checks: C, Failures: F, Errors: E" lines, and the
# "name: P passed, F failed" lines of layers, paths, dev-check, validate, fuzz-regress and install.
passed=$(awk '/^[0-9]+%: Checks: / { gsub(/,/, ""); c += $3 - $5 - $7 } /^(layers|paths|dev-check|validate|mutate|fuzz-regress|install): [0-9]+ passed, [0-9]+ failed/ { c += $2 } END { print c + 0 }' "$log")
failed=$(awk '/^[0-9]+%: Checks: / { gsub(/,/, ""); f += $5 + $7 } /^(layers|paths|dev-check|validate|mutate|fuzz-regress|install): [0-9]+ passed, [0-9]+ failed/ { f += $4 } END { print f + 0 }' "$log")
[ "$status" = 0 ] || [ "$failed" != 0 ] || failed=1   # a step failed without a count (e.g. did not build)
echo "all tests ran in $(( $(date +%s) - start )) s"
echo "tests: $passed passed, $failed failed"
exit $status
