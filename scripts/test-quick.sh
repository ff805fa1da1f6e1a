#!/bin/sh
# test-quick.sh MAKE BUILD: the checks a change reaches, for the minutes
# between two edits (make test-quick); make test still runs everything.
#   layers, paths, cycles and prefixes, always (seconds)
#   the Check suites the changed files reach: a changed suite itself, and each
#     suite that includes a changed module's header or calls its functions
#     (grader/engine/mutgen.c or .h: '#include "engine/mutgen.h"' or gr_mutgen_; lib/attn_*.c
#     are attn.h's, lib/sup_*.c labsup.h's; a rubric: the suites naming labNN;
#     lib/tests/check_main.c: every suite)
#   dev-check of each lab whose files changed (labs/, solutions/, data/stubs/,
#     data/rubrics/, grader/labs/)
#   never mutate or validate: make test runs validate, make mutation (CI) mutate
# Changed: what differs from git's HEAD, untracked files included, or from
# TEST_QUICK_BASE (TEST_QUICK_BASE=main: everything this branch changed).
MAKE=${1:-make}
BUILD=${2:-build}
# JOBS steps at a time when set; else, under make, the calling make's job
# slots (a -j of our own would reset them, with a warning), else one per core.
J=""
case "${JOBS:-} $MAKEFLAGS " in
    " "*jobserver*) JOBS=$(nproc 2>/dev/null || echo 2) ;;
    *) JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}; J="-j$JOBS" ;;
esac
base=${TEST_QUICK_BASE:-HEAD}
changed=$( { git diff --name-only "$base" --; git ls-files --others --exclude-standard; } 2>/dev/null | sort -u)
if [ -z "$changed" ]; then
    echo "test-quick: nothing differs from $base; make test runs everything"
fi
suites="" labs=""
add_suite() { case " $suites " in *" $1 "*) ;; *) suites="$suites $1" ;; esac; }
add_lab() { case " $labs " in *" $1 "*) ;; *) labs="$labs $1" ;; esac; }
tests=$(ls lib/tests/test_*.c grader/tests/test_*.c)
for f in $changed; do
    name=$(basename "$f"); mod=${name%.*}
    case "$f" in
        lib/tests/test_*.c|grader/tests/test_*.c) add_suite "$BUILD/${f%.c}"; continue ;;
        lib/attn_*) mod=attn ;;
        lib/sup_*) mod=labsup ;;
    esac
    num=$(echo "$f" | sed -n 's/.*lab\([0-9][0-9]\).*/\1/p')
    case "$f" in
        labs/*|solutions/*|data/stubs/*|data/rubrics/*|grader/labs/lab*)
            [ -n "$num" ] && for d in labs/lab"$num"-*/; do [ -d "$d" ] && add_lab "$(basename "$d")"; done ;;
    esac
    case "$f" in
        lib/tests/check_main.c) pat='START_TEST' ;;              # every suite's main
        *.yaml) pat="\\b$mod\\b" ;;                          # a rubric or data file: its name
        *.c|*.h) pat="#include \"([a-z_]+/)?$mod\\.h\"|\\bgr_${mod}_" ;;  # its header or prefix
        *) continue ;;
    esac
    for t in $(grep -lE -- "$pat" $tests 2>/dev/null); do add_suite "$BUILD/${t%.c}"; done
done
n_suites=$(echo $suites | wc -w)
say="$(echo "$changed" | grep -c .) changed files since $base reach $n_suites suites"
[ -n "$labs" ] && say="$say and the dev-check of$labs"
echo "test-quick: $say"
for check in layers paths cycles prefixes; do
    out=$(sh scripts/check-$check.sh) || { echo "$out"; exit 1; }
    echo "$out" | tail -n 1
done
[ -n "$suites$labs" ] || exit 0
$MAKE -s $J $suites || exit 1
targets="$suites"
[ -n "$labs" ] && targets="$targets dev-check-labs"
CK_TIMEOUT_MULTIPLIER="${CK_TIMEOUT_MULTIPLIER:-3}" \
    $MAKE -s $J -O -k -f scripts/steps.mk BUILD="$BUILD" LABS="$labs" $targets
