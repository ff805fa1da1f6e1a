#!/bin/sh
# check-prefixes.sh [--root ROOT] [FOLDER...]: every public function of X.c is
# named gr_X or gr_X_..., so a name says which file to open. A file X_Y.c
# without a header of its own is a part of module X (X.c's work split in two)
# and may use gr_X_ as well. The exceptions below are named, each with why.
# FOLDER: the folders to check (default: grader/class). A public function is a
# definition that starts a line with its return type and is not static.
# Prints each misnamed function as file:line and then
# "prefixes: N passed, F failed" (files); exit 1 on any.
ROOT=.
if [ "${1:-}" = "--root" ]; then ROOT=$2; shift 2; fi
cd "$ROOT" || exit 2
[ $# -gt 0 ] || set -- grader/class
# file (relative to its folder)  the other prefixes it may use  (why)
EXCEPTIONS='
course.c gr_parse_time     the time parser handin.c reads hand-in times with too
handin.c gr_id_ok gr_times_   the submitter id rule and --times, read in with the export
similarity_report.c gr_sim_   the similarity module short prefix, in its three files
similarity_set.c gr_sim_
similarity.c gr_sim_
'
status=0
n=0
bad=0
for folder in "$@"; do
    [ -d "$folder" ] || { echo "check-prefixes: no folder $folder" >&2; exit 2; }
    for f in "$folder"/*.c; do
        [ -e "$f" ] || continue
        base=${f##*/}
        stem=${base%.c}
        allowed="gr_${stem}"
        part=${stem%_*}                 # X_Y.c with no X_Y.h: a part of X
        if [ "$part" != "$stem" ] && [ ! -e "$folder/$stem.h" ] &&
           { [ -e "$folder/$part.c" ] || [ -e "$folder/$part.h" ]; }; then
            allowed="$allowed gr_${part}"
        fi
        extra=$(printf '%s\n' "$EXCEPTIONS" | awk -v b="$base" '$1 == b {
            for (i = 2; i <= NF && $i ~ /^gr_/; i++) printf " %s", $i }')
        out=$(awk -v allowed="$allowed" -v extra="$extra" -v file="$f" '
            BEGIN { n = split(allowed, a, " "); m = split(extra, x, " ") }
            /^[A-Za-z_]/ && !/^(static|typedef|extern|struct|enum|union|#)/ && /gr_[a-z0-9_]+\(/ {
                if ($0 ~ /\);[[:space:]]*$/) next               # a declaration
                name = $0; sub(/\(.*/, "", name); sub(/.*[ *]/, "", name)
                if (name !~ /^gr_/) next
                ok = 0
                for (i = 1; i <= n; i++)
                    if (name == a[i] || index(name, a[i] "_") == 1) ok = 1
                for (i = 1; i <= m; i++)
                    if (name == x[i] || (x[i] ~ /_$/ && index(name, x[i]) == 1)) ok = 1
                if (!ok)
                    printf "%s:%d: %s is public in %s but not named gr_%s_...\n", file, NR,
                           name, file, substr(a[1], 4)
            }' "$f")
        n=$((n + 1))
        if [ -n "$out" ]; then
            printf '%s\n' "$out"
            bad=$((bad + 1))
            status=1
        fi
    done
done
echo "prefixes: $((n - bad)) passed, $bad failed"
exit $status
