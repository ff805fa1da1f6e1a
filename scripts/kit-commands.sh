#!/bin/sh
# kit-commands.sh KIT: every command the kit's documents tell a student to type
# exists in the kit. The commands are each `make ...` and `build/attnlab ...`
# in a code span, an indented code line or a fenced block of README.md,
# syllabus.md and labs/*/README.md (a placeholder labNN-name is lab01-scores).
# A make target is checked with make -n, from the top folder or, for a
# handout's own `make test` or `make run`, from its lab's folder; an attnlab
# command with `build/attnlab COMMAND --help`. Prints each one that does not
# exist there, then "kit commands: N checked, F missing"; exit 1 when F > 0.
# test_student_kit runs it on the unpacked kit as an unprivileged user.
set -u
kit=${1:?usage: kit-commands.sh KIT}
cd "$kit" || exit 2
found=$(mktemp) || exit 2
trap 'rm -f "$found"' EXIT

# The commands of one document, one per line: code spans, then code lines.
commands_of() {
    { grep -o '`[^`]*`' "$1" | tr -d '`'
      grep -E '^(    |	)' "$1"
      sed -n '/^```/,/^```/p' "$1"
    } | sed 's/^[ 	]*//; s/[ 	]#.*//; s/   *[^ ].*//; s/[>|].*//; s/[ 	]*$//; s/labNN-name/lab01-scores/g' |
        grep -E '^(make|build/attnlab)( |$)' | sort -u
}

# 0 when the make command line $2 (in document $1) names targets that exist.
make_exists() {
    doc=$1
    eval "set -- $2"            # the line's own quoting: ARGS="--T 256" is one word
    shift
    dir="" targets=""
    while [ $# -gt 0 ]; do
        case $1 in
            -C) dir=$2; shift ;;
            -*|*=*) ;;
            *) targets="$targets $1" ;;
        esac
        shift
    done
    here=.
    [ -n "$dir" ] && here=$dir
    # shellcheck disable=SC2086  # one argument per target
    make -n -C "$here" $targets >/dev/null 2>&1 && return 0
    # a handout's "make test (here)": the lab's own folder
    [ -z "$dir" ] && case $doc in labs/*) make -n -C "$(dirname "$doc")" $targets >/dev/null 2>&1 ;; *) false ;; esac
}

for doc in README.md syllabus.md labs/*/README.md; do
    commands_of "$doc" | while IFS= read -r cmd; do
        case $cmd in
            make*) make_exists "$doc" "$cmd" ;;
            *)     set -- $cmd
                   case ${2:-} in
                       ''|-*) build/attnlab --help >/dev/null 2>&1 ;;
                       *)     build/attnlab "$2" --help >/dev/null 2>&1 ;;
                   esac ;;
        esac
        if [ $? -eq 0 ]; then echo ok >> "$found"; else echo "missing ($doc): $cmd"; echo bad >> "$found"; fi
    done
done
n=$(wc -l < "$found")
f=$(grep -c bad "$found")
echo "kit commands: $n checked, $f missing"
[ "$f" -eq 0 ]
