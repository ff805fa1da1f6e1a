#!/bin/sh
# stage-submission.sh SUBMISSION LABS WORK: the folder attnlab grade should
# grade for an upload, printed on stdout. The grading fleets' entry points
# (Gradescope's run_autograder, PrairieLearn's run.sh) call it.
#
# attnlab grade finds each lab's file itself, in every layout an upload comes
# in (attnlab(1), SUBMISSIONS): lab folders (lab01-scores/lab01.c), a flat
# upload (lab01.c ...), the whole course tree, a zip's wrapping folder
# (attnlab-main/labs/...), names in any case. So the folder printed is always
# SUBMISSION itself, and the paths in every report are relative to it. Nothing
# here reads a student's file. Exit 0, or 3 when the upload holds no file named
# like a lab file at all (labNN.c in any case, up to 9 folders down): every
# lab's verdict then says which file is missing, and PrairieLearn does not
# count the attempt. LABS and WORK are kept for the callers' sake.
set -u
if [ $# -ne 3 ]; then
    echo "usage: stage-submission.sh SUBMISSION LABS WORK" >&2
    exit 2
fi
sub=$1
if [ ! -d "$sub" ]; then
    echo "stage-submission: the submission folder $sub does not exist" >&2
    exit 2
fi
echo "$sub"
# find does not follow links; -quit stops at the first match
found=$(find "$sub" -maxdepth 10 -iname 'lab[0-9][0-9].c' -print -quit 2>/dev/null)
[ -n "$found" ] || exit 3
