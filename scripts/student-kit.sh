#!/bin/sh
# student-kit.sh BUILD OUT: the kit a course hands its students
# (make student-kit), OUT/attnlab-kit.tar.gz, unpacking to attnlab-kit/:
#
#   labs/            every lab: handout, contract header, stub, visible tests, Makefile
#   lib/             the support code students may use (labsup.h, sup_rng.c, sup_tensor.c,
#                    sup_predict.c)
#   data/rubrics/    each lab's rubric cut down to its visible tests
#   data/plots/      the gnuplot scripts of attnlab plot
#   doc/conventions.md   what each library means by a window, a mask, ALiBi (the handouts link it)
#   scripts/         check-labs.sh, and seed-ranges.sh (an experiment over many seeds)
#   build/attnlab    attnlab built in BUILD, with its child objects in build/grader/child/
#                    (the course tree's paths, so every command the handouts give
#                    works here too): it grades what the rubrics hold, the visible tests
#   syllabus.md, labs/*/README.md   rendered for the kit (render_for_kit below)
#   README.md, Makefile (make, make check, make test, make grade, make plots)
#
# No solutions, no mutants, no hidden or after-the-due-date test, no libattn
# source (the answer key is linked into build/attnlab, which needs it to compute
# expected values), and no reference code in the visible tests: where they need
# answers on random inputs they read them as data (labs/*/expected_labNN.h,
# made by make kit-data; test_student_kit checks every shipped C file). The kit is checked before it is packed: a file that must
# not ship, or a rubric whose cut lost a visible test, stops the build.
set -eu
if [ $# -ne 2 ]; then
    echo "usage: student-kit.sh BUILD OUT" >&2
    exit 2
fi
build=$1 out=$2
root=$(cd "$(dirname "$0")/.." && pwd)
if [ ! -x "$build/attnlab" ] || [ ! -d "$build/grader/child" ]; then
    echo "attnlab student-kit: $build/attnlab or its child objects are missing; run make first" >&2
    exit 1
fi
kit=$out/attnlab-kit
rm -rf "$kit" "$out/attnlab-kit.tar.gz"
mkdir -p "$kit/lib" "$kit/data/rubrics" "$kit/build/grader"

(cd "$root" && tar -cf - labs syllabus.md doc/conventions.md data/plots data/stubs data/drills \
    scripts/check-labs.sh scripts/seed-ranges.sh \
    lib/labsup.h lib/sup_rng.c lib/sup_tensor.c lib/sup_predict.c lib/sup_internal.h) | (cd "$kit" && tar -xf -)
# Each lab's file is its pristine stub, whatever the tree's labs/ copy now holds.
for stub in "$kit"/data/stubs/lab[0-9][0-9].c; do
    tag=$(basename "$stub" .c)
    cp "$stub" "$kit"/labs/"$tag"-*/"$tag.c"
done
cp "$build/attnlab" "$kit/build/attnlab"
# no debugging sections: they hold the instructor's build paths, and two thirds
# of the file
strip --strip-debug "$kit/build/attnlab"
cp -R "$build/grader/child" "$kit/build/grader/child"

# The course's documents, rendered for the kit: a line holding <!-- tree-only -->,
# or the lines between <!-- tree-only begin --> and <!-- tree-only end -->, say
# what is true in the course's tree only (hidden tests, instructor tools) and
# are dropped; a line <!-- kit: TEXT --> (invisible in the tree) becomes TEXT.
render_for_kit() {
    awk '
        /<!-- tree-only begin -->/ { skip = 1; next }
        /<!-- tree-only end -->/   { skip = 0; next }
        skip || /<!-- tree-only -->/ { next }
        /^[ \t]*<!-- kit: .* -->[ \t]*$/ { sub(/<!-- kit: /, ""); sub(/ -->[ \t]*$/, "") }
        { print }' "$1" > "$1.kit" && mv "$1.kit" "$1"
}
for doc in "$kit"/syllabus.md "$kit"/labs/*/README.md; do
    render_for_kit "$doc"
done

# What build/attnlab was built on and needs at run time, read off the program
# itself (ldd, dpkg -S), so the kit's README cannot name another machine.
system=$( (. /etc/os-release 2>/dev/null && printf '%s' "${PRETTY_NAME:-}") || true)
system="${system:-$(uname -s)} on $(uname -m), $(ldd --version 2>/dev/null | head -n 1 | sed 's/.* //;s/^/glibc /')"
runtime=$(ldd "$build/attnlab" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }' | while read -r so; do
              { dpkg -S "$so" || dpkg -S "$(readlink -f "$so")"; } 2>/dev/null | sed -n '1s/:.*//p'
          done | sort -u | tr '\n' ' ' | sed 's/ $//')
runtime=${runtime:-libc6 libyaml-0-2 libseccomp2 libjansson4}

# A rubric's tests list, visible items only: an item runs from its "  - name:"
# line to the next item or the end of the list; comment lines inside the list
# (section notes that may describe hidden tests) are dropped.
for rubric in "$root"/data/rubrics/lab[0-9][0-9].yaml; do
    cut=$kit/data/rubrics/$(basename "$rubric")
    awk '
        function flush() { if (item != "" && keep) printf "%s", item; item = "" }
        !in_tests { print; if ($0 ~ /^tests:/) in_tests = 1; next }
        /^  - /   { flush(); item = $0 "\n"; keep = 1; next }
        /^[ \t]*#/ || /^[ \t]*$/ { next }
        /^    /   { item = item $0 "\n"
                    if ($0 ~ /^    visibility:/ && $0 !~ /^    visibility:[ \t]*visible[ \t]*(#.*)?$/) keep = 0
                    next }
                  { flush(); in_tests = 0; print }
        END       { flush() }' "$rubric" > "$cut"
    want=$(grep -c '^    visibility: *visible *\(#.*\)\?$' "$rubric" || true)
    got=$(sed -n '/^tests:/,$p' "$cut" | grep -c '^  - name:' || true)
    if [ "$want" != "$got" ] || grep -Eq 'visibility: *(hidden|after_)' "$cut"; then
        echo "attnlab student-kit: cutting $rubric kept $got tests, it has $want visible" >&2
        exit 1
    fi
done

cat > "$kit/Makefile" <<'EOF'
# The student kit of attnlab: the course tree's targets, for your labs.
#   make          attnlab is built already (build/attnlab): says what to run
#   make check    every lab's visible tests, one line per lab (make test: the same)
#   make -C labs/lab01-scores test   one lab's visible tests
#   make grade    grade your labs as the course's grader does, on the visible tests
#   make plots    your experiments beside the answer key's, in build/plots
.PHONY: all check test grade plots
all:
	@echo "build/attnlab is built. make check: your labs' visible tests; make grade: the grader's verdicts."
check test:
	@sh scripts/check-labs.sh || true
grade:
	@build/attnlab grade --lab all --submission labs
plots:
	@st=0; for p in entropy masking saturation heatmap; do \
	    build/attnlab plot $$p --out build/plots || st=1; \
	done; \
	build/attnlab plot heatmap --lab 10 --out build/plots || st=1; exit $$st
EOF

{
    printf '# attnlab: the student kit\n\n'
    printf 'Ten labs that teach one idea: attention scores are not attention weights. Start\n'
    printf 'with [syllabus.md](syllabus.md), then `labs/lab01-scores/README.md`.\n\n'
    printf '`build/attnlab` was built on %s; it runs on a Linux\n' "$system"
    printf 'with the same processor and that C library or a newer one, with these packages:\n'
    printf '`%s`. To build and test your labs you need a C compiler, make and the\n' "$runtime"
    printf "course's packages:\n"
} > "$kit/README.md"
cat >> "$kit/README.md" <<'EOF'

```sh
sudo apt-get install build-essential pkg-config check libyaml-dev libseccomp-dev libjansson-dev gnuplot-nox
```

```sh
make -C labs/lab01-scores test   # one lab's visible tests, while you work
make check                       # every lab's visible tests, one line per lab
make grade                       # build/attnlab grades your labs in a sandbox
build/attnlab explain --scores "2 1 -1 0.5" --mask "0 0 0 1"   # the worked row
```

`build/attnlab` grades the visible tests of each lab (`data/rubrics/`), with the
same verdicts and feedback as the course's grader. The course grades more tests
than these, with inputs of your own: passing every visible test is a good sign,
not a promise. The visible tests carry only part of each lab's points, and
every points line here says how much: "V of P points visible; H in hidden
tests, not run here" (this kit tests V of the lab's P points).
EOF

# Nothing that must not ship: solutions, mutants, libattn's source, hidden tests.
bad=$(cd "$kit" && find . \( -path './solutions*' -o -path '*mutants*' -o -name 'attn*.c' \
      -o -name 'attn*.h' -o -name '*.pc.in' \) -print | head -n 5)
if [ -n "$bad" ]; then
    echo "attnlab student-kit: these must not ship: $bad" >&2
    exit 1
fi
tar -C "$out" -czf "$out/attnlab-kit.tar.gz" attnlab-kit
echo "attnlab student-kit: $out/attnlab-kit.tar.gz"
