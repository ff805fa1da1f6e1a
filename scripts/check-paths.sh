#!/bin/sh
# check-paths.sh [ROOT]: no C file of the program but grader/base/layout.c spells a
# lab's path; every other file asks layout.h. A string literal (comments and
# #include lines aside) is refused when it composes or names one:
#   a lab folder of the course under a root "%s/data/rubrics", "%s/labs", "%s/solutions" ...
#   a lab folder under labs/ or solutions/  "labs/%s", "solutions/%s/..."
#   a lab's file by its number              "lab%02d.c", ".h", ".yaml", "lab%02d/", "expected_lab%02d"
#   a course file by name                   "data/rubrics/lab02.yaml", "data/stubs/lab%02d.c"
#   a lab folder by name                    "labs/lab04-entropy/..."
# Prose that names a layout in general ("labs/labNN-name/README.md",
# "data/stubs/") stays allowed, for help texts. Files checked: lib/ and
# grader/, but the tests, fuzz targets and build tools (grader/tests, fuzz,
# tools: kitdata is built from the support code alone, without the lab table).
# Prints file:line for each, then "paths: N passed, F failed" (files);
# exit 1 on any.
ROOT=${1:-.}
cd "$ROOT" || exit 2
files=$(find lib grader -name '*.[ch]' ! -path 'lib/tests/*' ! -path 'grader/tests/*' \
             ! -path 'grader/fuzz/*' ! -path 'grader/tools/*' \
             ! -path 'grader/base/layout.c' 2>/dev/null | LC_ALL=C sort)
[ -n "$files" ] || { echo "check-paths: no lib/ or grader/ sources under $ROOT" >&2; exit 2; }
awk '
FNR == 1 { n++; incomment = 0 }
{
    line = $0
    # comments: the rest of a block comment, whole ones on the line, a // tail
    if (incomment) { if (sub(/^.*\*\//, "", line)) incomment = 0; else next }
    gsub(/\/\*([^*]|\*+[^*\/])*\*+\//, "", line)
    if (sub(/\/\*.*$/, "", line)) incomment = 1
    if (line ~ /^[ \t]*#[ \t]*include/) next
    rest = line; hit = ""
    while (match(rest, /"([^"\\]|\\.)*"/)) {
        lit = substr(rest, RSTART + 1, RLENGTH - 2)
        rest = substr(rest, RSTART + RLENGTH)
        if (lit ~ /%s\/(data\/(rubrics|stubs|mutants)|labs|solutions)(\/|$)/ ||
            lit ~ /(^|[^a-z_])(labs|solutions)\/%s/ ||
            lit ~ /lab%0?2d(\.(c|h|yaml)|\/)/ || lit ~ /expected_lab%/ ||
            lit ~ /data\/(rubrics|stubs|mutants)\/lab[0-9%]/ ||
            lit ~ /labs\/lab[0-9][0-9]-/) { hit = lit; break }
    }
    if (hit != "") {
        printf "%s:%d: \"%s\" spells a lab path: ask layout.h (grader/base/layout.c) for it\n",
               FILENAME, FNR, hit
        bad[FILENAME] = 1
    }
}
END {
    nbad = 0
    for (f in bad) nbad++
    printf "paths: %d passed, %d failed\n", n - nbad, nbad
    exit nbad > 0
}' $files
