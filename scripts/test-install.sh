#!/bin/sh
# test-install.sh STAGE PREFIX OUT: check an install staged with
# `make install DESTDIR=STAGE PREFIX=PREFIX`: every file is there, pkg-config
# finds attn.pc, and examples/attend.c builds through pkg-config and runs,
# against the shared library (soname libattn.so.1) and against the static one
# with only libm besides. Ends with "install: N passed, N failed".
set -u
STAGE=$1; PREFIX=$2; OUT=$3
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

echo "install: $passed passed, $failed failed"
[ "$failed" = 0 ]
