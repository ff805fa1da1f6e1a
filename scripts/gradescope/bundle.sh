#!/bin/sh
# bundle.sh OUT [LABS]: Gradescope's autograder zip, OUT/autograder.zip
# (make gradescope). Upload it as the assignment's autograder
# (https://gradescope-autograders.readthedocs.io/en/latest/specs/):
#
#   setup.sh         installs the Debian packages and builds attnlab
#   run_autograder   grades /autograder/submission into results/results.json
#   secret           the instructor's secret: every student's inputs come from it
#   graded-labs      which labs the assignment grades: all, N or a list like 1,3
#   Makefile grader/ lib/ labs/ data/rubrics/ scripts/   what attnlab builds from
#
# Solutions, mutants and tests of the grader itself stay out. The secret is
# ATTNLAB_SECRET when set; otherwise one is generated on the first build, kept
# in OUT/secret (mode 600) and printed once; later builds reuse it, so a
# rebuilt bundle regrades to the same inputs. OUT/secret is always the
# bundle's: ATTNLAB_SECRET replaces one kept from an earlier build.
set -eu
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "usage: bundle.sh OUT [LABS]" >&2
    exit 2
fi
out=$1 labs=${2:-all}
root=$(cd "$(dirname "$0")/../.." && pwd)
case $labs in
    all|[0-9]|[0-9][0-9]|[0-9]*,*[0-9]) ;;
    *) echo "attnlab gradescope: LAB takes all, a lab number or a list like 1,3 (got '$labs')" >&2
       exit 2 ;;
esac
if ! command -v zip >/dev/null 2>&1; then
    echo "attnlab gradescope: zip is missing; install it: apt-get install zip" >&2
    exit 1
fi
mkdir -p "$out"

# The secret: given, kept from an earlier build, or new (printed this once).
if [ -n "${ATTNLAB_SECRET:-}" ]; then
    if [ "$ATTNLAB_SECRET" = attnlab-practice ]; then
        echo "attnlab gradescope: ATTNLAB_SECRET is the public practice secret; give the course's own" >&2
        exit 2
    fi
    secret=$ATTNLAB_SECRET
    # OUT/secret is always the bundle's: a kept one from an earlier build
    # would otherwise regrade to other inputs than the fleet's
    if [ ! -s "$out/secret" ] || [ "$(cat "$out/secret")" != "$secret" ]; then
        [ -s "$out/secret" ] && echo "attnlab gradescope: $out/secret replaced by ATTNLAB_SECRET"
        (umask 077 && printf '%s\n' "$secret" > "$out/secret")
    fi
elif [ -s "$out/secret" ]; then
    secret=$(cat "$out/secret")
    echo "attnlab gradescope: using the secret generated earlier ($out/secret)"
else
    secret=$(head -c 32 /dev/urandom | base64 | tr -d '\n')
    (umask 077 && printf '%s\n' "$secret" > "$out/secret")
    echo "attnlab gradescope: generated the course's grading secret; keep it (regrades and"
    echo "  attnlab grade need it to reproduce students' inputs). Shown this once:"
    echo "  ATTNLAB_SECRET='$secret'"
    echo "  (also kept in $out/secret)"
fi

stage=$out/autograder
rm -rf "$stage" "$out/autograder.zip"
mkdir -p "$stage"
(cd "$root" && tar -cf - --exclude=grader/tests --exclude=grader/fuzz --exclude=lib/tests \
    Makefile grader lib labs data/rubrics scripts/install-deps.sh scripts/stage-submission.sh) |
    (cd "$stage" && tar -xf -)
cp "$root/scripts/gradescope/setup.sh" "$root/scripts/gradescope/run_autograder" "$stage/"
chmod 755 "$stage/setup.sh" "$stage/run_autograder"
(umask 077 && printf '%s\n' "$secret" > "$stage/secret")
printf '%s\n' "$labs" > "$stage/graded-labs"
# Zip the files, not the folder: Gradescope wants setup.sh at the archive's root.
(cd "$stage" && zip -qr -X ../autograder.zip .)
echo "attnlab gradescope: $out/autograder.zip (labs: $labs)"
