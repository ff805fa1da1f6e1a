# includes.awk: resolving a quoted #include as the compiler does (-Ilib
# -Igrader), shared by check-layers.sh and check-cycles.sh (each puts this
# text before its own program). The caller fills known[PATH] with every file.

# a/b/../c -> a/c, ./ dropped
function norm(p,   n, i, k, part, out) {
    n = split(p, part, "/"); k = 0
    for (i = 1; i <= n; i++) {
        if (part[i] == "." || part[i] == "") continue
        if (part[i] == ".." && k > 0 && out[k] != "..") { k--; continue }
        out[++k] = part[i]
    }
    p = ""
    for (i = 1; i <= k; i++) p = p (i > 1 ? "/" : "") out[i]
    return p
}

# The file `#include "inc"` in file f names: beside f first, then grader/,
# then lib/; "" when it is none of the known files (a generated header).
function resolve(f, inc,   dir, target) {
    dir = f; sub(/\/[^\/]*$/, "", dir)
    target = norm(dir "/" inc)
    if (target in known) return target
    if (("grader/" inc) in known) return norm("grader/" inc)
    if (("lib/" inc) in known) return norm("lib/" inc)
    return ""
}
