#!/bin/sh
# run-tests.sh MAKE BUILD: everything `make test` runs, then what each step
# cost and one closing line that adds them up: "tests: N passed, N failed".
#   layers: no #include climbs from a lower layer to a higher one
#      (scripts/check-layers.sh says the order); paths: no C file but
#      grader/base/layout.c spells a lab's path (scripts/check-paths.sh)
#   cycles: no circle of #includes inside a folder (scripts/check-cycles.sh)
#   prefixes: each public function of grader/F/X.c named gr_X_ (scripts/check-prefixes.sh)
# then, as many at a time as there are cores (scripts/steps.mk):
#   every Check suite (libattn, support code, grader modules), one step each
#   dev-check: each solution passes its lab's visible tests, each stub fails them cleanly
#   validate: solutions score full marks, stubs zero, mutants diagnosed
#   fuzz-regress: every seed and regression input of the fuzz targets
#      (grader/fuzz/) runs clean, built with the normal compiler (no clang needed)
#   install: libattn staged under BUILD/stage, examples/ built through pkg-config and run
# Not mutation: every mechanical mutant of every solution (about 4,000, four
# CPU-minutes) is make mutation, which CI runs after make test (.ci/run).
MAKE=${1:-make}
BUILD=${2:-build}
# JOBS steps at a time when set; else, under make, the calling make's job
# slots (a -j of our own would reset them, with a warning), else one per core.
J=""
case "${JOBS:-} $MAKEFLAGS " in
    " "*jobserver*) JOBS=$(nproc 2>/dev/null || echo 2) ;;
    *) JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}; J="-j$JOBS" ;;
esac
log=$(mktemp); trap 'rm -f "$log"' EXIT
status=0
start=$(date +%s)
# Check's time limits guard against hangs; with every core busy a suite gets
# a share of one, so its limits stretch (a hang still fails, later).
export CK_TIMEOUT_MULTIPLIER="${CK_TIMEOUT_MULTIPLIER:-3}"

echo "==> layers and lab paths"
for check in layers paths cycles prefixes; do
    sh scripts/step.sh "$check" sh "scripts/check-$check.sh" 2>&1 | tee -a "$log"
done
echo "==> building the tests ($JOBS at a time)"
t0=$(date +%s)
$MAKE -s $J test-bins || status=1
echo "step build-tests: $(( $(date +%s) - t0 )) s" | tee -a "$log"
echo "==> suites, dev-check, validate, fuzz-regress, install ($JOBS at a time)"
$MAKE -s $J -O -k -f scripts/steps.mk BUILD="$BUILD" 2>&1 | tee -a "$log"
grep -q "^step .*: FAILED" "$log" && status=1

# Add up: Check's "NN%: Checks: C, Failures: F, Errors: E" lines, and the
# "name: P passed, F failed" lines of layers, paths, dev-check, validate,
# fuzz-regress and install.
sums=$(awk '
/^[0-9]+%: Checks: / { gsub(/,/, ""); c += $3 - $5 - $7; f += $5 + $7 }
/^(layers|paths|cycles|prefixes|dev-check|validate|fuzz-regress|install): [0-9]+ passed, [0-9]+ failed/ { c += $2; f += $4 }
END { print c + 0, f + 0 }' "$log")
passed=${sums% *}; failed=${sums#* }
[ "$status" = 0 ] || [ "$failed" != 0 ] || failed=1   # a step failed without a count (e.g. did not build)
[ "$failed" = 0 ] || status=1                          # a count of failures fails the run
echo
# What each step cost: the named steps alone, the suites added up, the five longest suites.
awk '
/^step [^ ]+: [0-9]+ s/ {
    name = $2; sub(/:$/, "", name)
    if (name ~ /^test_/) { sw += $3; sc += $5; n++; t[name] = $3 } else named = named sprintf("%s %s s%s, ", name, $3, NF >= 6 ? " (" $5 " CPU-s)" : "")
}
END {
    printf "step times: %ssuites %d s (%d CPU-s, %d suites); longest suites:", named, sw, sc, n
    for (k = 0; k < 5; k++) { best = ""; for (s in t) if (best == "" || t[s] > t[best]) best = s; if (best == "") break; printf " %s %d s", best, t[best]; delete t[best] }
    print ""
}' "$log"
grep "^step .*: FAILED" "$log"
echo "all tests ran in $(( $(date +%s) - start )) s on $JOBS cores"
echo "tests: $passed passed, $failed failed"
exit $status
