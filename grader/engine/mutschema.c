/* mutschema.c: many mutants of one solution in one program (see mutschema.h). */
#include "engine/mutschema.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/util.h"

const gr_cfunc *gr_mutschema_home(const gr_cfunc_list *fl, const gr_mutation *m)
{
    for (int i = 0; i < fl->n; i++) {
        const gr_cfunc *f = &fl->f[i];
        if (f->body < m->offset && m->offset + m->len < f->end)
            return f->forwardable ? f : NULL;
    }
    return NULL;
}

/* f's definition with its name followed by suffix, made static, and the
   mutation m applied (NULL: none). */
static void write_copy(gr_strbuf *b, const char *src, const gr_cfunc *f, const char *suffix,
                       const gr_mutation *m)
{
    /* no_icf: copies the optimizer finds identical would become aliases (.set),
       which the assembly check rightly refuses; noinline keeps each copy one
       function, so the schema compiles in time linear in its mutants */
    gr_sb_printf(b, "__attribute__((noinline, no_icf)) %s%.*s%.*s%s",
                 f->is_static ? "" : "static ", (int)(f->name - f->start), src + f->start,
                 (int)f->name_len, src + f->name, suffix);
    size_t from = f->name + f->name_len;
    if (m) {
        gr_sb_appendn(b, src + from, m->offset - from);
        gr_sb_append(b, m->to);
        from = m->offset + m->len;
    }
    gr_sb_appendn(b, src + from, f->end - from);
    gr_sb_append(b, "\n\n");
}

/* f itself as the dispatcher: its own head, a switch on the selector over its
   mutants' copies (the indices k of ms whose home is f), the solution's copy
   by default. */
static void write_dispatch(gr_strbuf *b, const char *src, const gr_cfunc *f,
                           const gr_cfunc_list *fl, const gr_mutation *const *ms, int n)
{
    const char *ret = f->returns_void ? "" : "return ";
    const char *after = f->returns_void ? " return;" : "";
    gr_sb_appendn(b, src + f->start, f->body - f->start);
    gr_sb_append(b, "{\n    switch (attnlab_mutant.id) {\n");
    for (int k = 0; k < n; k++)
        if (gr_mutschema_home(fl, ms[k]) == f)
            gr_sb_printf(b, "    case %d: %s%.*s__mut%d(%s);%s\n", k, ret, (int)f->name_len,
                         src + f->name, k, f->args, after);
    gr_sb_printf(b, "    default: %s%.*s__mut_none(%s);%s\n    }\n}", ret, (int)f->name_len,
                 src + f->name, f->args, after);
}

/* The line of the text in b its next byte starts (1-based). */
static int next_line(const gr_strbuf *b)
{
    int line = 1;
    for (size_t i = 0; i < b->len; i++)
        line += b->s[i] == '\n';
    return line;
}

/* Warnings mutants give: silenced, so that a schema's compiler log holds its
   errors within the excerpt a build keeps (gr_mutschema_broken reads them). A
   warning not listed costs only time: the schema is then halved instead. */
static const char *const quiet[] = {
    "pragmas",                        /* first: a compiler that lacks one below says nothing */
    "parentheses", "empty-body", "sign-compare", "unused-variable", "unused-but-set-variable",
    "unused-value", "unused-label", "unused-parameter", "incompatible-pointer-types",
    "int-conversion", "maybe-uninitialized", "uninitialized", "shadow", "return-type",
    "aggressive-loop-optimizations", "div-by-zero", "overflow", "array-bounds",
    "stringop-overflow", "stringop-overread", "sequence-point", "bool-compare",
    "logical-not-parentheses", "tautological-compare", "int-in-bool-context",
    "misleading-indentation", "implicit-fallthrough", "dangling-else", "restrict", "nonnull",
    "free-nonheap-object", "use-after-free", "bool-operation",
    "switch-unreachable", "unused-result", "type-limits", "logical-op", "duplicated-cond",
    "comment", "format", "address", "dangling-pointer", NULL,
};

char *gr_mutschema_source(const char *src, size_t len, const gr_cfunc_list *fl,
                          const gr_mutation *const *ms, int n, int (*lines)[2])
{
    gr_strbuf b = {0};
    for (int i = 0; quiet[i]; i++)
        gr_sb_printf(&b, "#pragma GCC diagnostic ignored \"-W%s\"\n", quiet[i]);
    gr_sb_printf(&b, "static const volatile struct { char tag[16]; int id; } attnlab_mutant = "
                 "{\"%s\", -1};\n", GR_MUTSCHEMA_TAG);
    size_t at = 0;
    for (int i = 0; i < fl->n; i++) {
        const gr_cfunc *f = &fl->f[i];
        int any = 0;
        for (int k = 0; k < n && !any; k++)
            any = gr_mutschema_home(fl, ms[k]) == f;
        if (!any)
            continue;
        gr_sb_appendn(&b, src + at, f->start - at);
        /* the dispatcher declared first: a recursive copy calls it by name */
        gr_sb_appendn(&b, src + f->start, f->body - f->start);
        gr_sb_append(&b, ";\n");
        char suffix[32];
        for (int k = 0; k < n; k++) {
            if (gr_mutschema_home(fl, ms[k]) != f)
                continue;
            snprintf(suffix, sizeof suffix, "__mut%d", k);
            if (lines)
                lines[k][0] = next_line(&b);
            write_copy(&b, src, f, suffix, ms[k]);
            if (lines)
                lines[k][1] = next_line(&b) - 1;
        }
        write_copy(&b, src, f, "__mut_none", NULL);
        write_dispatch(&b, src, f, fl, ms, n);
        at = f->end;
    }
    gr_sb_appendn(&b, src + at, len - at);
    return gr_sb_take(&b);
}

int gr_mutschema_broken(const char *log, const char *file, int (*lines)[2], int n, int *broken)
{
    size_t fl = strlen(file);
    int found = 0;
    for (const char *p = log; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
        int line, col, used = 0;
        if (strncmp(p, file, fl) != 0 || sscanf(p + fl, ":%d:%d: error:%n", &line, &col, &used) != 2 ||
            used == 0)
            continue;
        for (int k = 0; k < n; k++) {
            if (line >= lines[k][0] && line <= lines[k][1] && !broken[k]) {
                broken[k] = 1;
                found++;
            }
        }
    }
    return found;
}

int gr_mutschema_select(const char *exe, size_t len, int k, const char *path, char *err,
                        size_t errlen)
{
    static const char tag[16] = GR_MUTSCHEMA_TAG;
    const char *hit = memmem(exe, len, tag, sizeof tag);
    if (!hit || hit + sizeof tag + 4 > exe + len ||
        memmem(hit + 1, len - (size_t)(hit + 1 - exe), tag, sizeof tag)) {
        gr_set_err(err, errlen, "mutant schema: the selector's tag is %s in the program",
                   hit ? "there more than once" : "not");
        return -1;
    }
    char *copy = gr_xmalloc(len);
    memcpy(copy, exe, len);
    int32_t v = k;
    memcpy(copy + (hit - exe) + sizeof tag, &v, sizeof v);   /* x86-64 and every target: LE */
    int rc = gr_write_file_atomic(path, copy, len);
    free(copy);
    if (rc != 0 || chmod(path, 0755) != 0) {
        gr_set_err(err, errlen, "%s: cannot write a mutant's program: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}
