#!/bin/sh
# step.sh NAME COMMAND...: run one step of make test, then say what it cost:
#   "step NAME: W s, C CPU-s" (wall clock, and the CPU time of everything it
#   ran, from the shell's own `times`, so a busy machine does not blur it)
# and, when it failed, "step NAME: FAILED (exit N)". Exits with the step's status.
name=$1; shift
t0=$(date +%s)
"$@"
rc=$?
tf=$(mktemp)
times > "$tf"          # in this shell, not a subshell: it counts the step's processes
cpu=$(awk 'NR == 2 { for (i = 1; i <= 2; i++) { split($i, p, "m"); s += p[1] * 60 + p[2] } printf "%d", s + 0.5 }' "$tf")
rm -f "$tf"
echo "step $name: $(( $(date +%s) - t0 )) s, $cpu CPU-s"
[ "$rc" = 0 ] || echo "step $name: FAILED (exit $rc)"
exit $rc
