#!/bin/sh
# test-install.sh STAGE PREFIX BUILD [MAKE]: check an install staged with
# `make install DESTDIR=STAGE PREFIX=PREFIX`: every file is there, pkg-config
# finds attn.pc, and examples/attend.c builds through pkg-config and runs,
# against the shared library (soname libattn.so.1) and against the static one
# with only libm besides (built in BUILD/examples). Then the staged attnlab, copied out of the tree,
# grades from a folder with no source tree above it, and `MAKE uninstall`
# takes back all it installed and nothing else.
# Ends with "install: N passed, N failed".
set -u
STAGE=$1; PREFIX=$2; BUILD=$3; MAKE=${4:-make}
OUT=$BUILD/examples
root="$STAGE$PREFIX"
mkdir -p "$OUT"
passed=0; failed=0
ok()   { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "test-install: $*" >&2; }

for f in include/attn.h lib/libattn.a lib/libattn.so lib/libattn.so.1 lib/pkgconfig/attn.pc \
         bin/attnlab share/man/man1/attnlab.1; do
    [ -e "$root/$f" ] && ok || fail "$PREFIX/$f was not installed"
done
soname=$(objdump -p "$root/lib/libattn.so" 2>/dev/null | awk '$1 == "SONAME" { print $2 }')
[ "$soname" = libattn.so.1 ] && ok || fail "libattn.so's soname is '$soname', expected libattn.so.1"
needed=$(objdump -p "$root/lib/libattn.so" 2>/dev/null | awk '$1 == "NEEDED" { print $2 }' | sort | tr '\n' ' ')
case "$needed" in
    "libc.so.6 libm.so.6 "|"libc.so.6 "|"libm.so.6 libc.so.6 ") ok ;;
    *) fail "libattn.so needs '$needed'; it must need only libm and libc" ;;
esac

# pkg-config sees the staged tree as if it were installed at PREFIX.
export PKG_CONFIG_PATH="$root/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$STAGE"
if cflags=$(pkg-config --cflags attn) && libs=$(pkg-config --libs attn); then ok
else fail "pkg-config does not find attn.pc in $root/lib/pkgconfig"; fi

if ${CC:-cc} -std=c11 -Wall -Wextra -Werror $cflags -o "$OUT/attend" examples/attend.c $libs -lm &&
   LD_LIBRARY_PATH="$root/lib" "$OUT/attend" 300; then ok
else fail "examples/attend.c against the shared libattn failed"; fi
if LD_LIBRARY_PATH="$root/lib" ldd "$OUT/attend" | grep -q "$root/lib/libattn.so.1"; then ok
else fail "attend does not load the staged libattn.so.1"; fi

static_libs=$(pkg-config --static --libs attn | sed 's/-lattn/-l:libattn.a/')
if ${CC:-cc} -std=c11 -Wall -Wextra -Werror $cflags -o "$OUT/attend-static" examples/attend.c \
        $static_libs && "$OUT/attend-static" 64; then ok
else fail "examples/attend.c against the static libattn (with libm only) failed"; fi

# ---- attnlab installed, away from any source tree ----------------------------
# The stage lies under build/, inside the tree, so the check runs on a copy of
# it in a fresh temporary folder with no data/rubrics above it and ATTNLAB_ROOT
# unset: all attnlab reads is the copy's share/attnlab and lib/attnlab.
unset ATTNLAB_ROOT
tmp=$(mktemp -d) || { echo "test-install: mktemp -d failed" >&2; exit 1; }
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"   # as an install is: every user, and user nobody, can read it
cp -R "$STAGE" "$tmp/stage" && cp -R solutions "$tmp/submission" && mkdir "$tmp/here" &&
    chmod -R a+rX "$tmp" || { echo "test-install: cannot copy into $tmp" >&2; exit 1; }
inst="$tmp/stage$PREFIX"
attnlab="$inst/bin/attnlab"
above=$(cd "$tmp" && while :; do [ ! -d data/rubrics ] || { pwd; break; }; [ "$(pwd)" != / ] || break; cd ..; done)
[ -z "$above" ] && ok || fail "$tmp lies inside a tree ($above holds data/rubrics): set TMPDIR elsewhere"

for f in lib/attnlab/child/child_main.o share/attnlab/data/rubrics/lab01.yaml \
         share/attnlab/data/stubs/lab01.c share/attnlab/labs/lab01-scores/lab01.h \
         share/attnlab/lib/labsup.h share/attnlab/data/plots/entropy.gp share/attnlab/data/drills/softmax.yaml; do
    [ -e "$inst/$f" ] && ok || fail "$PREFIX/$f was not installed"
done
bad=$(find "$root/lib/attnlab" "$root/share/attnlab" \( -type f ! -perm -444 \) -o \( -type d ! -perm -555 \))
[ -z "$bad" ] && ok || fail "installed, not readable by every user of the machine: $bad"

if (cd "$tmp/here" && "$attnlab" grade --lab 1,2 --submission "$tmp/submission" --json results.json \
        --quiet >"$tmp/grade.out" 2>&1); then ok
else fail "the installed attnlab grade failed: $(cat "$tmp/grade.out")"; fi
json="$tmp/here/results.json"
score=$(sed -n 's/^  "score": \([0-9.]*\),$/\1/p' "$json" 2>/dev/null)
max=$(sed -n 's/^  "max_score": \([0-9.]*\),$/\1/p' "$json" 2>/dev/null)
[ -n "$score" ] && [ "$score" = "$max" ] && [ "$max" != 0 ] && ok ||
    fail "the solutions of labs 1 and 2 scored '$score' of '$max' in $json"

# The grade above read the copy: without its lab 1 rubric, lab 1 cannot be graded.
mv "$inst/share/attnlab/data/rubrics/lab01.yaml" "$tmp/lab01.yaml"
(cd "$tmp/here" && "$attnlab" grade --lab 1 --submission "$tmp/submission" --quiet >"$tmp/grade.out" 2>&1)
rc=$?
grep -q "$inst/share/attnlab/data/rubrics/lab01.yaml" "$tmp/grade.out" && [ $rc = 2 ] && ok ||
    fail "without its rubric, the installed attnlab graded lab 1 anyway (exit $rc): $(cat "$tmp/grade.out")"
mv "$tmp/lab01.yaml" "$inst/share/attnlab/data/rubrics/lab01.yaml"

# No labs/ in the current folder and no --submission: one line, exit 2.
(cd "$tmp/here" && "$attnlab" grade --lab 1 >"$tmp/grade.out" 2>&1)
rc=$?
[ $rc = 2 ] && [ "$(wc -l <"$tmp/grade.out")" -eq 1 ] && grep -q -- "--submission DIR" "$tmp/grade.out" && ok ||
    fail "grade with no submission and no labs/ here: exit $rc, $(cat "$tmp/grade.out")"

# doctor says from the install what it says from the build; explain's worked row.
want=$("$BUILD/attnlab" doctor 2>&1; echo "exit $?")
got=$(cd "$tmp/here" && "$attnlab" doctor 2>&1; echo "exit $?")
[ "$got" = "$want" ] && ok || fail "the installed attnlab doctor says otherwise than the built one: $got"
weights=$(cd "$tmp/here" && "$attnlab" explain --scores "2 1 -1 0.5" --mask "0 0 0 1" |
          awk '$1 ~ /^[0-3]$/ && NF >= 6 { printf "%s ", $6 }')
[ "$weights" = "0.7054 0.2595 0.0351 0.0000 " ] && ok ||
    fail "the installed attnlab explain gave the weights '$weights', expected 0.7054 0.2595 0.0351 0.0000"

# uninstall takes back what install put there, and nothing else.
mkdir -p "$inst/share/doc" && touch "$inst/share/doc/not-attnlab"
if $MAKE -s uninstall DESTDIR="$tmp/stage" PREFIX="$PREFIX" >"$tmp/uninstall.out" 2>&1; then ok
else fail "make uninstall failed: $(cat "$tmp/uninstall.out")"; fi
left=$(cd "$inst" && find . ! -type d ! -path ./share/doc/not-attnlab)
[ -z "$left" ] && ok || fail "make uninstall left" $left
[ ! -e "$inst/share/attnlab" ] && [ ! -e "$inst/lib/attnlab" ] && ok ||
    fail "make uninstall left share/attnlab or lib/attnlab"
[ -e "$inst/share/doc/not-attnlab" ] && ok || fail "make uninstall removed a file it did not install"

echo "install: $passed passed, $failed failed"
[ "$failed" = 0 ]
