#!/bin/sh
# check-cycles.sh [--graph] [ROOT]: no circle of #includes inside a folder of
# lib/ or grader/. A module is a file's name without .c or .h (batch.c and
# batch.h are the module batch, and a private header X_int.h or X_parts.h,
# which X's files share, is part of X); module A uses module B when A.c or A.h
# includes B.h from the same folder. A circle (A uses B, B uses ... A) means
# neither can be read, built or tested without the other: a folder's modules
# must form layers of their own. Includes are resolved as the compiler does
# (-Ilib -Igrader): beside the file first, then grader/, then lib/.
# Prints each circle as "folder: a -> b -> a" and then
# "cycles: N passed, F failed" (folders); exit 1 on any circle.
# --graph: for each folder, its files, includes between its modules and
# modules on a circle, for measuring (exit 0).
graph=0
[ "${1:-}" = "--graph" ] && { graph=1; shift; }
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=${1:-.}
cd "$ROOT" || exit 2
files=$(find lib grader -name '*.[ch]' 2>/dev/null | LC_ALL=C sort)
[ -n "$files" ] || { echo "check-cycles: no lib/ or grader/ sources under $ROOT" >&2; exit 2; }
{ for f in $files; do echo "F $f"; done
  grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' $files /dev/null; } |
awk -v graph=$graph "$(cat "$HERE/includes.awk")"'
function dirof(f,   d) { d = f; sub(/\/[^\/]*$/, "", d); return d }
function modof(f,   m) {                   # X_int.h, X_parts.h: the private header of X
    m = f; sub(/^.*\//, "", m); sub(/(_int|_parts)\.h$/, ".h", m); sub(/\.[ch]$/, "", m)
    return dirof(f) "/" m
}
function short(m) { sub(/^.*\//, "", m); return m }
# The shortest path from a back to a through the uses of its folder, as "a -> b -> a".
function circle(a,   q, head, tail, seen, par, u, k, v, path) {
    head = 1; tail = 0; q[++tail] = a
    while (head <= tail) {
        u = q[head++]
        for (k = 1; k <= nout[u]; k++) {
            v = out[u, k]
            if (v == a) {
                path = short(a)
                for (; u != a; u = par[u]) path = short(u) " -> " path
                return short(a) " -> " path
            }
            if (!(v in seen)) { seen[v] = 1; par[v] = u; q[++tail] = v }
        }
    }
    return ""
}
$1 == "F" { known[$2] = 1; d = dirof($2); if (!(d in nfiles)) dirs[++ndirs] = d; nfiles[d]++
            m = modof($2); if (!(m in ismod)) { ismod[m] = 1; mods[d] = mods[d] " " m }; next }
{
    f = $0; sub(/:.*/, "", f)
    inc = $0; sub(/^[^"]*"/, "", inc); sub(/".*/, "", inc)
    target = resolve(f, inc)
    if (target == "") next
    if (dirof(target) != dirof(f)) next
    a = modof(f); b = modof(target)
    ninc[dirof(f)]++
    if (a == b || ((a, b) in edge)) next
    edge[a, b] = 1; out[a, ++nout[a]] = b; nuse[dirof(f)]++
}
END {
    nbad = 0
    for (i = 1; i <= ndirs; i++) {
        d = dirs[i]; n = split(mods[d], ms, " "); oncircle = 0; said = ""
        for (j = 1; j <= n; j++) {
            c = circle(ms[j])
            if (c == "") continue
            oncircle++
            if (!graph && !((d "/" short(ms[j])) in covered)) {
                # one line per circle: its other members are not said again
                printf "%s: #include circle %s\n", d, c
                k = split(c, parts, " -> ")
                for (x = 1; x <= k; x++) covered[d "/" parts[x]] = 1
            }
            said = said " " short(ms[j])
        }
        if (oncircle) nbad++
        if (graph)
            printf "%s: %d files, %d modules, %d includes inside (%d module uses), %d modules on a circle%s\n",
                   d, nfiles[d], n, ninc[d] + 0, nuse[d] + 0, oncircle, said == "" ? "" : ":" said
    }
    if (graph) exit 0
    printf "cycles: %d passed, %d failed\n", ndirs - nbad, nbad
    exit nbad > 0
}'
