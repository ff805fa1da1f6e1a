#!/bin/sh
# Run each Check suite given as an argument; print one closing line
# "suites: N passed, N failed" and exit non-zero if any failed.
pass=0; fail=0; failed=""
# libcheck leaks in fork mode (its own allocations in the forked test
# children), so LeakSanitizer is told not to report leaks.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}"
for t in "$@"; do
    if "$t"; then pass=$((pass + 1)); else fail=$((fail + 1)); failed="$failed ${t##*/}"; fi
done
[ -n "$failed" ] && echo "failed suites:$failed"
echo "suites: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
