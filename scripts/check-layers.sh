#!/bin/sh
# check-layers.sh [ROOT]: no #include climbs from a lower layer of the grader
# to a higher one. The layers, lowest first (a file may include its own layer
# and any below it):
#   0 lib        lib/ (libattn, the support code) and the course's contract
#                headers (labs/<dir>/labNN.h)
#   1 base       grader/base/: what every layer shares (util, stop, status,
#                protocol, rubric, result, cells, pool, labmod.h, layout: every
#                lab path), and what labgen generates from the manifests into
#                build/gen/ (labs_gen.h, labNN_calls.h): an include found nowhere
#                in the tree
#   2 child      grader/child/: the test child, built apart;
#                it includes lib, protocol.h and the contract headers only
#   3 confined   grader/confined/: the confined toolchain and the sandbox
#   4 engine     grader/engine/ and grader/labs/: the grading loop,
#                judging, intake, rules, mutants, the lab modules
#   5 report     grader/report/ and grader/learn/ (they never include each other)
#   6 class      grader/class/ (batch, gradebook, class report)
#   7 cli        grader/cli/: main and one file per command
# grader/tests/, grader/fuzz/, grader/tools/ and lib/tests/ sit on top and are
# not checked. Each include is resolved as the compiler does (-Ilib -Igrader):
# beside the file first, then grader/, then lib/. Prints each climbing include
# as file:line, then "layers: N passed, F failed" (files); exit 1 on any.
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=${1:-.}
cd "$ROOT" || exit 2
files=$(find lib grader -name '*.[ch]' ! -path 'lib/tests/*' ! -path 'grader/tests/*' \
             ! -path 'grader/fuzz/*' ! -path 'grader/tools/*' 2>/dev/null | LC_ALL=C sort)
[ -n "$files" ] || { echo "check-layers: no lib/ or grader/ sources under $ROOT" >&2; exit 2; }
# Every file and the folders an include may resolve to, for the awk below.
{ for f in $files; do echo "F $f"; done
  grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' $files /dev/null; } |
awk "$(cat "$HERE/includes.awk")"'
function layer(f) {                      # a folder has one rank
    if (f ~ /^lib\// || f ~ /^labs\/[^\/]+\/lab[0-9]+\.h$/) return 0
    if (f ~ /^build\/gen\// || f ~ /^grader\/base\//) return 1
    if (f ~ /^grader\/child\//) return 2
    if (f ~ /^grader\/confined\//) return 3
    if (f ~ /^grader\/(engine|labs)\//) return 4
    if (f ~ /^grader\/(report|learn)\//) return 5
    if (f ~ /^grader\/class\//) return 6
    if (f ~ /^grader\/cli\//) return 7
    if (f ~ /^grader\/[^\/]+$/) return 99  # nothing lives on the top of grader/
    return -1                              # outside the layers (a system header, tests)
}
BEGIN { split("lib base child confined engine report/learn class cli", name, " ") }
$1 == "F" {
    known[$2] = 1
    if (layer($2) == 99) {
        printf "%s: sits on grader/\x27s top; a source belongs in its layer\x27s folder (base/, engine/, ...)\n", $2
        bad[$2] = 1
    }
    next
}
{
    f = $0; sub(/:.*/, "", f)
    rest = substr($0, length(f) + 2); ln = rest; sub(/:.*/, "", ln)
    inc = rest; sub(/^[^"]*"/, "", inc); sub(/".*/, "", inc)
    target = resolve(f, inc)
    if (target == "") target = "build/gen/" inc
    from = layer(f); to = layer(target)
    if (from < 0 || to < 0 || to < from) next
    if (to == from) {                      # report/ and learn/ share a rank, not each other
        if (from != 5 || substr(f, 1, 12) == substr(target, 1, 12)) next
        printf "%s:%s: #include \"%s\" reaches sideways from %s to %s\n", f, ln, inc,
               substr(f, 8, 5) == "learn" ? "learn/" : "report/", target
    } else {
        printf "%s:%s: #include \"%s\" climbs from the %s layer up to the %s layer (%s)\n",
               f, ln, inc, name[from + 1], name[to + 1], target
    }
    bad[f] = 1
}
END {
    nbad = 0; n = 0
    for (f in known) { n++; if (f in bad) nbad++ }
    printf "layers: %d passed, %d failed\n", n - nbad, nbad
    exit nbad > 0
}'
