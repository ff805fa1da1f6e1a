#!/bin/sh
# run.sh: PrairieLearn's external-grader entry point for attnlab
# (https://docs.prairielearn.com/externalGrading/). It grades the files in
# /grade/student and writes /grade/results/results.json in PrairieLearn's
# format: gradable, score in [0, 1], tests with points and max_points, output.
#
# In a question's info.json:
#   "externalGradingOptions": { "enabled": true, "image": "<your attnlab image>",
#     "entrypoint": "/opt/attnlab/share/attnlab/scripts/prairielearn/run.sh",
#     "timeout": 120, "environment": { "ATTNLAB_LABS": "2" } }
# The image is scripts/prairielearn/Dockerfile built from the course's tree
# (an installed attnlab: no answer-key source, no solutions, no mutants);
# the secret never goes into an image (images are often public): put it in
# serverFilesCourse/attnlab/secret (listed in "serverFilesCourse") or in
# "environment" as ATTNLAB_SECRET. Without either, the public practice secret
# is used and the results are marked practice_secret.
#
#   the upload    lab01.c ... (a flat upload, as the file editor and upload
#                 elements give it) or lab folders (scripts/stage-submission.sh)
#   the labs      ATTNLAB_LABS: all (default), N or a list like 1,3
#   the student   ATTNLAB_STUDENT when set, else "variant-<variant_seed>" from
#                 /grade/data/data.json: PrairieLearn does not tell the grader
#                 who submitted, and each variant gets its own inputs
#   compile errors  ATTNLAB_COMPILE_ERRORS: not-gradable (default): a lab that
#                 does not compile gives "gradable": false with the compiler's
#                 message, so the attempt is not counted; graded: it scores 0
#
# ATTNLAB_GRADE_ROOT replaces /grade, ATTNLAB_HOME the attnlab tree or installed
# PREFIX/share/attnlab (default: the one this script is in), ATTNLAB_BIN the
# program (default: HOME/build/attnlab in a tree, PREFIX/bin/attnlab when
# installed). An upload without any lab file is not gradable (the attempt is not
# counted); what a student's code does is a verdict; only the grader's own
# failure exits non-zero without results.
set -u
root=${ATTNLAB_GRADE_ROOT:-/grade}
home=${ATTNLAB_HOME:-$(cd "$(dirname "$0")/../.." && pwd)}
results=$root/results/results.json
mkdir -p "$root/results" || exit 1
if [ -n "${ATTNLAB_BIN:-}" ]; then
    attnlab=$ATTNLAB_BIN
elif [ -x "$home/build/attnlab" ]; then
    attnlab=$home/build/attnlab          # a source tree
else
    attnlab=$home/../../bin/attnlab      # installed: PREFIX/share/attnlab
fi
case ${ATTNLAB_COMPILE_ERRORS:-not-gradable} in
    not-gradable|graded) ;;
    *) echo "run.sh: ATTNLAB_COMPILE_ERRORS must be not-gradable or graded" >&2; exit 1 ;;
esac

if [ -z "${ATTNLAB_SECRET:-}" ] && [ -f "$root/serverFilesCourse/attnlab/secret" ]; then
    ATTNLAB_SECRET=$(cat "$root/serverFilesCourse/attnlab/secret")
fi
export ATTNLAB_SECRET="${ATTNLAB_SECRET:-}"

student=${ATTNLAB_STUDENT:-}
if [ -z "$student" ] && [ -f "$root/data/data.json" ] && command -v jq >/dev/null 2>&1; then
    seed=$(jq -r '.variant_seed // empty | tostring' "$root/data/data.json" 2>/dev/null) || seed=""
    [ -n "$seed" ] && student="variant-$seed"
fi
[ -n "$student" ] || student=prairielearn

work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
sub=$(sh "$home/scripts/stage-submission.sh" "$root/student" "$home/labs" "$work/upload")
case $? in
    0) ;;
    3) # nothing to grade: PrairieLearn does not count the attempt
       printf '%s\n' '{' '  "gradable": false,' \
           '  "format_errors": ["No lab file was submitted: upload the lab'"'"'s source file (lab01.c, lab02.c, ...) by its own name."]' \
           '}' > "$results.tmp" && mv "$results.tmp" "$results"
       exit ;;
    *) exit 1 ;;
esac

# stdout, the terminal report, names hidden tests: PrairieLearn may show it.
"$attnlab" grade --lab "${ATTNLAB_LABS:-all}" --submission "$sub" \
    --student "$student" --prairielearn "$results" \
    --prairielearn-compile-errors "${ATTNLAB_COMPILE_ERRORS:-not-gradable}" --quiet >/dev/null
