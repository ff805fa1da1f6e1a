#!/bin/sh
# check-labs (make check): every lab's visible tests against the student's own
# labs/labNN-name/labNN.c, one line per lab:
#   labNN-name: passed | failing N of M | not started | does not build |
#               breaks the lab's rules (its tests pass, but it calls what the
#               lab does not allow: grade says "forbidden call")
# "not started": the file is still the pristine stub (data/stubs/labNN.c), or
# every failing check says "not implemented". Then one line "check: P of N labs
# pass their visible tests". Exit 0 when every lab passes, 1 otherwise.
cd "$(dirname "$0")/.." || exit 1
log=$(mktemp); trap 'rm -f "$log"' EXIT
passed=0; n=0
for lab in labs/lab[0-9][0-9]-*/; do
    name=$(basename "$lab"); tag=${name%%-*}; n=$((n + 1))
    if cmp -s "data/stubs/$tag.c" "$lab$tag.c"; then
        echo "$name: not started"
        continue
    fi
    if make -s -C "$lab" test >"$log" 2>&1; then
        passed=$((passed + 1)); echo "$name: passed"
        continue
    fi
    # Check's summary: "75%: Checks: 4, Failures: 1, Errors: 0"
    summary=$(grep -E '^[0-9]+%: Checks: ' "$log" | tail -n 1 | tr -d ',')
    if [ -z "$summary" ]; then
        echo "$name: does not build (make -C $lab test shows why)"
        grep -m 3 -E 'error|undefined' "$log" | sed 's/^/    /'
        continue
    fi
    set -- $summary
    failing=$(($5 + $7))
    if [ "$failing" -eq 0 ]; then           # the tests passed; make test's rules step did not
        echo "$name: breaks the lab's rules (make -C $lab test shows which calls)"
        grep -m 2 'is not allowed' "$log" | sed 's/^/    /'
        continue
    fi
    not_impl=$(grep -E ':[FE]:' "$log" | grep -c 'not implemented')
    if [ "$not_impl" -eq "$failing" ]; then
        echo "$name: not started"
    else
        echo "$name: failing $failing of $3"
    fi
done
echo "check: $passed of $n labs pass their visible tests"
[ "$passed" -eq "$n" ]
