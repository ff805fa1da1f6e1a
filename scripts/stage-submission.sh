#!/bin/sh
# stage-submission.sh SUBMISSION LABS WORK: the folder attnlab grade should
# grade for an upload, printed on stdout. The grading fleets' entry points
# (Gradescope's run_autograder, PrairieLearn's run.sh) call it.
#
# An upload comes in one of three layouts:
#   SUBMISSION/lab01-scores/lab01.c ...        the labs/ layout: graded as it is
#   SUBMISSION/labs/lab01-scores/lab01.c ...   the whole course tree: its labs/
#   SUBMISSION/lab01.c SUBMISSION/lab02.c ...  a flat upload (Gradescope, LMS
#                                              downloads, PrairieLearn's file
#                                              editor): each file is copied
#                                              into WORK/labNN-name/ (names from
#                                              the lab folders in LABS)
# A flat file is copied as what it is (cp -PR: a symbolic link stays a link,
# a FIFO a FIFO, a folder a folder),
# so the grader's own check names a link or a device in its verdict; nothing
# here reads a student's file. Exit 0, or 3 when the upload holds no lab file
# at all (the folder printed is then WORK, empty, and every lab's verdict says
# which file is missing).
set -u
if [ $# -ne 3 ]; then
    echo "usage: stage-submission.sh SUBMISSION LABS WORK" >&2
    exit 2
fi
sub=$1 labs=$2 work=$3
if [ ! -d "$sub" ]; then
    echo "stage-submission: the submission folder $sub does not exist" >&2
    exit 2
fi

# A folder whose labNN-name folders hold the labs, as they are.
for dir in "$sub" "$sub/labs"; do
    for d in "$dir"/lab[0-9][0-9]-*; do
        if [ -d "$d" ] && [ ! -L "$d" ]; then
            echo "$dir"
            exit 0
        fi
    done
done

# A flat upload: labNN.c at the top.
mkdir -p "$work" || exit 1
found=0
for lab in "$labs"/lab[0-9][0-9]-*/; do
    name=$(basename "$lab")
    file="${name%%-*}.c"
    if [ -e "$sub/$file" ] || [ -L "$sub/$file" ]; then
        mkdir -p "$work/$name" &&
            cp -PR "$sub/$file" "$work/$name/$file" || exit 1
        found=1
    fi
done
echo "$work"
[ "$found" = 1 ] || exit 3
