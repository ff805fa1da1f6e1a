#!/bin/sh
# dev-check: every solution passes its lab's visible tests, and every pristine
# stub fails them cleanly (says "not implemented", never crashes or times out).
# The stubs checked are data/stubs/labNN.c, never labs/labNN-name/labNN.c: that
# copy is the student's file, and once a student writes real code there this
# check must still pass. Both build under build/ (build/stubs/<lab> for the
# stubs), so the student's own test build is never reused or overwritten.
# Prints "dev-check: N passed, N failed" and exits non-zero on any failure.
#   dev-check.sh                    every lab
#   dev-check.sh lab01-scores ...   only those labs
cd "$(dirname "$0")/.." || exit 1
labs=""
for name in "$@"; do labs="$labs labs/$name/"; done
[ -n "$labs" ] || labs=$(echo labs/lab[0-9][0-9]-*/)
pass=0; fail=0
log=$(mktemp); trap 'rm -f "$log"' EXIT
for lab in $labs; do
    name=$(basename "$lab")
    tag=${name%%-*}
    stub="data/stubs/$tag.c"
    if make -s -C "solutions/$name" test >"$log" 2>&1; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1)); echo "dev-check: solutions/$name does not pass its tests:"; tail -n 20 "$log"
    fi
    if [ ! -f "$stub" ]; then
        fail=$((fail + 1)); echo "dev-check: $stub, the pristine stub of labs/$name, is missing"
    elif make -s -C "labs/$name" test SRC_DIR=../../data/stubs OUT=../../build/stubs/$name >"$log" 2>&1; then
        fail=$((fail + 1)); echo "dev-check: the stub $stub passes the tests of labs/$name (they cannot fail?)"
    elif ! grep -q "not implemented" "$log"; then
        fail=$((fail + 1)); echo "dev-check: the stub $stub fails without saying 'not implemented':"; tail -n 20 "$log"
    elif grep -Eq "Received signal|timeout|Timeout" "$log"; then
        fail=$((fail + 1)); echo "dev-check: the stub $stub crashes or hangs its tests:"; grep -E "signal|imeout" "$log" | head -5
    else
        pass=$((pass + 1))
    fi
done
echo "dev-check: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
