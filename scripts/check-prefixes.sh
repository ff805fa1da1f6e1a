#!/bin/sh
# check-prefixes.sh [--root ROOT] [FOLDER...]: every public function of X.c is
# named gr_X or gr_X_..., so a name says which file to open. A file X_Y.c
# without a header of its own is a part of module X (X.c's work split in two)
# and may use gr_X_ as well. The exceptions below are named, each with why.
# FOLDER: the folders to check (default: every folder of grader/ but tests/,
# fuzz/ and tools/, which check-layers.sh leaves out too, so a new layer is
# checked the day it appears). A public function is a definition that starts
# a line with its return type and is not static.
# Prints each misnamed function as file:line, each exception that names no
# public function of its file (a renamed or deleted one), and then
# "prefixes: N passed, F failed" (files); exit 1 on any.
ROOT=.
if [ "${1:-}" = "--root" ]; then ROOT=$2; shift 2; fi
cd "$ROOT" || exit 2
if [ $# -eq 0 ]; then
    for d in grader/*/; do
        case $d in grader/tests/|grader/fuzz/|grader/tools/) ;; *) set -- "$@" "${d%/}" ;; esac
    done
fi
# folder/file  the other names it may use (a name ending in _ is a prefix)  (why)
EXCEPTIONS='
base/util.c gr_xmalloc gr_xcalloc gr_xrealloc gr_xstrdup gr_xasprintf gr_sb_
base/util.c gr_read_file gr_read_regular gr_read_regular_at gr_file_kind
base/util.c gr_write_file_atomic gr_now_seconds gr_set_err gr_utf8_decode
    the toolbox of every layer (allocation that never returns NULL, the string
    buffer, files, errors): short names, like the libc calls they wrap, at
    hundreds of call sites
base/cells.c gr_points gr_points1 gr_points_ gr_csv_ gr_tsv_text gr_md_
    the cell writers, each named for what it writes (a points cell, CSV, TSV,
    Markdown)
engine/hmac.c gr_sha256     the bare hash the HMAC is built on, named for the algorithm
engine/seed.c gr_siphash24  the keyed hash the seeds are drawn with, likewise
confined/shown.c gr_capped_ gr_strset_  two small types of shown.h, named for the type
cli/cli.c gr_usage_ gr_vusage_error  the usage errors every command reports with
cli/opts.c gr_opt_      one option (gr_opt_fail names it), beside gr_opts_ for the table
cli/cmd_validate.c gr_validate  validate itself, which batch runs too to prove a changed rubric
labs/case.c gr_make_case_by_kind gr_test_int gr_test_seed gr_draw_seed gr_fill_normal
labs/case.c gr_fill_scores gr_format_ints
labs/inputs.c gr_case_add_scores gr_fill_weights gr_test_rows gr_test_descending
labs/inputs.c gr_backward_sizes gr_experiment_seed gr_scores_
labs/functions.c gr_lab_function_ gr_lab_points gr_misconception_of
    the lab module interface base/labmod.h declares, which every lab module
    (labNN.c) calls: named for what a module asks, not for the file that answers
class/course.c gr_parse_time  the time parser handin.c reads hand-in times with too
class/handin.c gr_id_ok gr_times_  the submitter id rule and --times, read in with the export
class/similarity_report.c gr_sim_  the similarity module short prefix, in its three files
class/similarity_set.c gr_sim_
class/similarity.c gr_sim_
'
status=0
n=0
bad=0
for folder in "$@"; do
    folder=${folder%/}
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
        extra=$(printf '%s\n' "$EXCEPTIONS" | awk -v b="${folder##*/}/$base" '$1 == b {
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
                    if (name == x[i] || (x[i] ~ /_$/ && index(name, x[i]) == 1)) ok = used[i] = 1
                if (!ok)
                    printf "%s:%d: %s is public in %s but not named gr_%s_...\n", file, NR,
                           name, file, substr(a[1], 4)
            }
            END {                                       # an exception outliving its name
                for (i = 1; i <= m; i++)
                    if (!used[i])
                        printf "%s: the exception %s names no public function of it\n", file, x[i]
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
