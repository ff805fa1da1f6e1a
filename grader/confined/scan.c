/* scan.c: checks on the compiler's intermediate files (see scan.h). */
#include "confined/scan.h"
#include "base/util.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static int in_words(const char *w, size_t n, const char *const *words)
{
    for (int i = 0; words[i]; i++)
        if (strlen(words[i]) == n && memcmp(words[i], w, n) == 0)
            return 1;
    return 0;
}

static int is_ident(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* ---- the one copy that is checked and compiled ------------------------------------ */

int gr_scan_normalise(char *text, size_t *len)
{
    size_t n = *len, i = 0, o = 0;
    if (n >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0)
        i = 3;                        /* GCC skips a byte-order mark; so does the copy */
    int line = 1;
    for (; i < n; i++) {
        char c = text[i];
        if (c == '\0')
            return line;
        if (c == '\r') {             /* CR LF, and a lone CR, are one newline to GCC */
            if (i + 1 < n && text[i + 1] == '\n')
                continue;
            c = '\n';
        }
        line += c == '\n';
        text[o++] = c;
    }
    text[o] = '\0';
    *len = o;
    return 0;
}

/* ---- the #include lines of the student's text ------------------------------------- */

typedef struct src_char {
    char c;
    int line;          /* 1-based line in the student's file */
} src_char;

typedef struct src_text {
    src_char *v;
    size_t n;
} src_text;

static void push(src_text *t, char c, int line)
{
    t->v[t->n].c = c;
    t->v[t->n].line = line;
    t->n++;
}

/* Translation phases 1 and 2, as the compiler runs them in C11 mode: trigraphs
   (??= is #), then backslash-newline splices (GCC also splices when spaces come
   between the backslash and the newline). */
static src_text phases_1_2(const char *s, size_t len)
{
    src_text t1 = {gr_xmalloc((len + 1) * sizeof(src_char)), 0};
    int line = 1;
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        if (c == '?' && i + 2 < len && s[i + 1] == '?') {
            const char *from = "=()/'<>!-", *to = "#[]\\^{}|~";
            const char *hit = s[i + 2] ? strchr(from, s[i + 2]) : NULL;
            if (hit) {
                push(&t1, to[hit - from], line);
                i += 2;
                continue;
            }
        }
        if (c == '\r') {             /* CR LF is one newline, and a lone CR is one too (GCC) */
            if (i + 1 < len && s[i + 1] == '\n')
                continue;
            c = '\n';
        }
        push(&t1, c, line);
        if (c == '\n')
            line++;
    }
    src_text t2 = {gr_xmalloc((t1.n + 1) * sizeof(src_char)), 0};
    for (size_t i = 0; i < t1.n; i++) {
        if (t1.v[i].c == '\\') {
            size_t j = i + 1;
            while (j < t1.n && (t1.v[j].c == ' ' || t1.v[j].c == '\t' || t1.v[j].c == '\r'))
                j++;
            if (j < t1.n && t1.v[j].c == '\n') {
                i = j;
                continue;
            }
        }
        t2.v[t2.n++] = t1.v[i];
    }
    free(t1.v);
    return t2;
}

/* Phase 3, as far as directives care: comments become one space (a block
   comment's newlines go with it, so a directive continues after it), string
   and character literals are kept whole (a quote or comment marker inside one
   means nothing), and an unterminated literal ends at the end of its line. */
static src_text strip_comments(const src_text *in)
{
    src_text out = {gr_xmalloc((in->n + 1) * sizeof(src_char)), 0};
    size_t i = 0;
    while (i < in->n) {
        char c = in->v[i].c;
        char d = i + 1 < in->n ? in->v[i + 1].c : '\0';
        if (c == '/' && d == '*') {
            int line = in->v[i].line;
            i += 2;
            while (i < in->n && !(in->v[i].c == '*' && i + 1 < in->n && in->v[i + 1].c == '/'))
                i++;
            i = i < in->n ? i + 2 : i;
            push(&out, ' ', line);
        } else if (c == '/' && d == '/') {
            while (i < in->n && in->v[i].c != '\n')
                i++;
            push(&out, ' ', in->v[i < in->n ? i : in->n - 1].line);
        } else if (c == '"' || c == '\'') {
            out.v[out.n++] = in->v[i++];
            while (i < in->n && in->v[i].c != c && in->v[i].c != '\n') {
                if (in->v[i].c == '\\' && i + 1 < in->n && in->v[i + 1].c != '\n')
                    out.v[out.n++] = in->v[i++];
                out.v[out.n++] = in->v[i++];
            }
            if (i < in->n && in->v[i].c == c)
                out.v[out.n++] = in->v[i++];
        } else {
            out.v[out.n++] = in->v[i++];
        }
    }
    return out;
}

static int is_hspace(char c)
{
    return c == ' ' || c == '\t' || c == '\f' || c == '\v' || c == '\r';
}

void gr_scan_directives(const char *src, size_t len, gr_directive_scan *ds)
{
    memset(ds, 0, sizeof *ds);
    src_text t = phases_1_2(src, len);
    src_text u = strip_comments(&t);
    free(t.v);

    size_t i = 0;
    while (i < u.n) {
        size_t eol = i;
        while (eol < u.n && u.v[eol].c != '\n')
            eol++;
        int line = u.v[i].line;
        size_t k = i;
        while (k < eol && is_hspace(u.v[k].c))
            k++;
        int hash = 0;
        if (k < eol && u.v[k].c == '#') {
            hash = 1;
            k++;
        } else if (k + 1 < eol && u.v[k].c == '%' && u.v[k + 1].c == ':') {
            hash = 1;            /* the digraph %: is # */
            k += 2;
        }
        if (hash) {
            line = u.v[k - 1].line;
            while (k < eol && is_hspace(u.v[k].c))
                k++;
            char word[32];
            size_t w = 0;
            while (k < eol && (isalnum((unsigned char)u.v[k].c) || u.v[k].c == '_') && w + 1 < sizeof word)
                word[w++] = u.v[k++].c;
            word[w] = '\0';
            if (w > 0 && isdigit((unsigned char)word[0])) {
                if (!ds->line_directive)
                    ds->line_directive = line;
            } else if (strcmp(word, "line") == 0) {
                if (!ds->line_directive)
                    ds->line_directive = line;
            } else if (strcmp(word, "include") == 0 || strcmp(word, "include_next") == 0 ||
                       strcmp(word, "import") == 0) {
                while (k < eol && is_hspace(u.v[k].c))
                    k++;
                gr_strbuf name = {0};
                int computed = 1;
                if (k < eol && (u.v[k].c == '<' || u.v[k].c == '"')) {
                    char close = u.v[k].c == '<' ? '>' : '"';
                    size_t e = k + 1;
                    while (e < eol && u.v[e].c != close)
                        e++;
                    if (e < eol) {
                        computed = 0;
                        for (size_t q = k + 1; q < e; q++)
                            gr_sb_appendn(&name, &u.v[q].c, 1);
                    }
                }
                if (computed)
                    for (size_t q = k; q < eol && name.len < 80; q++)
                        gr_sb_appendn(&name, &u.v[q].c, 1);
                if ((ds->n_inc & (ds->n_inc - 1)) == 0)   /* 0, 1, 2, 4 ...: double the room */
                    ds->inc = gr_xrealloc(ds->inc, (size_t)(ds->n_inc ? 2 * ds->n_inc : 1) * sizeof *ds->inc);
                ds->inc[ds->n_inc].name = gr_sb_take(&name);
                ds->inc[ds->n_inc].line = line;
                ds->inc[ds->n_inc].computed = computed;
                ds->n_inc++;
            }
        }
        i = eol + 1;
    }
    free(u.v);
}

void gr_scan_directives_free(gr_directive_scan *ds)
{
    for (int i = 0; i < ds->n_inc; i++)
        free(ds->inc[i].name);
    free(ds->inc);
    memset(ds, 0, sizeof *ds);
}
/* ---- the preprocessed text -------------------------------------------------------- */

/* Attributes whose string argument the compiler writes into the assembly (a
   section name, a symbol version, an alias target) or that change how the
   code is generated; lab code needs none of them. */
static const char *const refused_attributes[] = {
    "section", "__section__", "symver", "__symver__", "alias", "__alias__", "weakref",
    "__weakref__", "ifunc", "__ifunc__", "target", "__target__", "target_clones",
    "__target_clones__", "optimize", "__optimize__", "copy", "__copy__", NULL
};

static const char *const asm_words[] = { "asm", "__asm", "__asm__", NULL };

/* Pragmas that only steer warnings or loops; any other changes code generation. */
static const char *const allowed_pragmas[] = {
    "once", "STDC ", "GCC diagnostic ", "GCC unroll ", "GCC ivdep", "GCC poison ",
    "clang diagnostic ", NULL
};

/* The state of the token scan over the student's lines, across lines. */
typedef struct student_scan {
    int attr_pending;      /* saw __attribute__, its "((" comes next */
    int attr_depth;        /* parentheses open inside __attribute__((...)) */
    int std_attr;          /* inside [[ ... ]] */
    char prev;             /* the last punctuation seen, for [[ */
} student_scan;

/* Record the first refused construct: what (a phrase) and its word. */
static void refuse(gr_pp_facts *pf, int line, const char *what, const char *word, size_t n)
{
    if (pf->refused_line)
        return;
    pf->refused_line = line;
    int wl = (int)(n < 64 ? n : 64);
    if (strcmp(what, "attribute") == 0)
        snprintf(pf->refused, sizeof pf->refused, "the %.*s attribute", wl, word);
    else
        snprintf(pf->refused, sizeof pf->refused, "%s%s%.*s%s", what, *what && n ? " (" : "", wl,
                 word, *what && n ? ")" : "");
}

static void scan_ident(student_scan *st, gr_pp_facts *pf, int line, const char *w, size_t n)
{
    if (in_words(w, n, asm_words))
        refuse(pf, line, "inline assembly", w, n);
    else if ((n == 13 && memcmp(w, "__attribute__", 13) == 0) || (n == 11 && memcmp(w, "__attribute", 11) == 0))
        st->attr_pending = 1;
    else if ((st->attr_depth == 2 || st->std_attr) && in_words(w, n, refused_attributes))
        refuse(pf, line, "attribute", w, n);
}

static void scan_punct(student_scan *st, char c)
{
    if (c == '(' && (st->attr_pending || st->attr_depth > 0)) {
        st->attr_depth++;
        st->attr_pending = 0;
    } else if (c == ')' && st->attr_depth > 0) {
        st->attr_depth--;
    } else if (c == '[' && st->prev == '[') {
        st->std_attr = 1;
    } else if (c == ']' && st->prev == ']') {
        st->std_attr = 0;
    }
    if (!isspace((unsigned char)c))
        st->prev = c;
}

/* One line of the student's own code: tokens outside literals. */
static void scan_student_line(student_scan *st, gr_pp_facts *pf, int line, const char *s, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        char c = s[k];
        if (c == '"' || c == '\'') {
            for (k++; k < n && s[k] != c; k++)
                if (s[k] == '\\')
                    k++;
            st->prev = c;
        } else if (is_ident(c) && !isdigit((unsigned char)c)) {
            size_t e = k;
            while (e < n && is_ident(s[e]))
                e++;
            scan_ident(st, pf, line, s + k, e - k);
            st->prev = 'a';
            k = e - 1;
        } else if (isdigit((unsigned char)c)) {
            while (k + 1 < n && (is_ident(s[k + 1]) || s[k + 1] == '.'))
                k++;
            st->prev = '0';
        } else if ((c == '<' || c == ':') && k + 1 < n && s[k + 1] == (c == '<' ? ':' : '>')) {
            scan_punct(st, c == '<' ? '[' : ']');   /* the digraphs <: and :> */
            k++;
        } else {
            scan_punct(st, c);
        }
    }
}

/* 1 when the line s[0..n) begins with prefix. */
static int line_starts(const char *s, size_t n, const char *prefix)
{
    size_t pl = strlen(prefix);
    return n >= pl && memcmp(s, prefix, pl) == 0;
}

static void check_pragma(gr_pp_facts *pf, int line, const char *s, size_t n)
{
    const char *p = s + 7;            /* after "#pragma" */
    while (p < s + n && (*p == ' ' || *p == '\t'))
        p++;
    for (int i = 0; allowed_pragmas[i]; i++)
        if (line_starts(p, (size_t)(s + n - p), allowed_pragmas[i]))
            return;
    refuse(pf, line, "", s, n);
}

/* A file the preprocessor entered: recorded when the student's file entered it,
   and remembered as foreign when it is neither pristine nor a system header. */
static void entered(gr_pp_facts *pf, const char *from, const char *name, const char *source,
                    const char *inc_dir, int line)
{
    if (name[0] == '<')
        return;                       /* <built-in>, <command-line>: not files */
    size_t il = strlen(inc_dir);
    int pristine = strncmp(name, inc_dir, il) == 0 && name[il] == '/';
    int system = starts_with(name, "/usr/") && !strstr(name, "/../");
    if (!pf->foreign && ((!pristine && !system) || strcmp(name, source) == 0))
        pf->foreign = gr_xstrdup(name);
    if (strcmp(from, source) == 0) {
        pf->direct = gr_xrealloc(pf->direct, (size_t)(pf->n_direct + 1) * sizeof *pf->direct);
        pf->direct[pf->n_direct].path = gr_xstrdup(name);
        pf->direct[pf->n_direct].line = line;
        pf->n_direct++;
    }
}

#define PP_DEPTH 200                  /* GCC's own #include nesting limit */

/* Where the preprocessor is: the stack of files it has entered, the line. */
typedef struct pp_where {
    char *files[PP_DEPTH];
    int depth;                        /* files[depth - 1] is the current file */
    int line;
    int student_line;                 /* the last line read in the student's file */
} pp_where;

static const char *current(const pp_where *w)
{
    return w->depth > 0 ? w->files[w->depth - 1] : "";
}

/* A linemarker "# LINE "FILE" FLAGS" as the preprocessor writes them: flag 1
   enters FILE, flag 2 returns to it, none stays in it (or, at the top, moves
   between the main file, <built-in> and <command-line>). Any other (a #line,
   or one a trick put in the output) is refused: after it, the compiler would
   take the student's lines for a header's, or quote another file. */
static void linemarker(gr_pp_facts *pf, pp_where *w, const char *s, size_t n, const char *source,
                       const char *inc_dir)
{
    size_t k = 2, e;
    long ln = 0;
    while (k < n && isdigit((unsigned char)s[k]) && ln < 100000000)
        ln = ln * 10 + (s[k++] - '0');
    if (k + 1 < n && s[k] == ' ' && s[k + 1] == '"')
        k += 2;
    else
        k = n;
    for (e = k; e < n && s[e] != '"'; e++)
        if (s[e] == '\\')
            e++;
    if (k >= n || e >= n) {
        refuse(pf, w->line, "a line marker the grader cannot read", "", 0);
        return;
    }
    char name[4096];
    snprintf(name, sizeof name, "%.*s", (int)(e - k < sizeof name - 1 ? e - k : sizeof name - 1), s + k);
    int flag = 0;
    for (const char *f = s + e + 1; f + 1 < s + n; f++)
        if (f[0] == ' ' && (f[1] == '1' || f[1] == '2') && (f + 2 == s + n || f[2] == ' '))
            flag = flag ? flag : f[1] - '0';
    const char *cur = current(w);
    int top_name = strcmp(name, source) == 0 || strcmp(name, "<built-in>") == 0 ||
                   strcmp(name, "<command-line>") == 0;
    int ok;
    if (flag == 1) {
        ok = w->depth > 0 && w->depth < PP_DEPTH;
        if (ok) {
            entered(pf, cur, name, source, inc_dir, w->line - 1);
            w->files[w->depth++] = gr_xstrdup(name);
        }
    } else if (flag == 2) {
        ok = w->depth > 1 && strcmp(w->files[w->depth - 2], name) == 0;
        if (ok)
            free(w->files[--w->depth]);
    } else if (w->depth <= 1) {
        ok = top_name;
        if (ok && w->depth == 0)
            w->files[w->depth++] = gr_xstrdup(name);
        else if (ok && strcmp(cur, name) != 0) {
            free(w->files[0]);
            w->files[0] = gr_xstrdup(name);
        }
    } else {
        ok = strcmp(cur, name) == 0;
    }
    if (!ok) {
        refuse(pf, w->depth > 1 ? w->student_line : w->line, "a line marker for another file", name,
               strlen(name));
        return;
    }
    w->line = (int)ln;
}

void gr_scan_preprocessed(const char *text, size_t len, const char *source, const char *inc_dir,
                          gr_pp_facts *pf)
{
    memset(pf, 0, sizeof *pf);
    student_scan st;
    memset(&st, 0, sizeof st);
    pp_where w;
    memset(&w, 0, sizeof w);
    for (size_t i = 0; i < len;) {
        const char *s = text + i;
        const char *eol = memchr(s, '\n', len - i);
        size_t n = eol ? (size_t)(eol - s) : len - i;
        int mine = w.depth > 0 && strcmp(current(&w), source) == 0;
        size_t lead = 0;
        while (lead < n && (s[lead] == ' ' || s[lead] == '\t'))
            lead++;
        if (n > 2 && s[0] == '#' && s[1] == ' ' && isdigit((unsigned char)s[2])) {
            linemarker(pf, &w, s, n, source, inc_dir);
        } else {
            if (mine && memchr(s, '\0', n))
                refuse(pf, w.line, "a NUL byte", "", 0);
            else if (mine && line_starts(s, n, "#pragma"))
                check_pragma(pf, w.line, s, n);
            else if (mine && (line_starts(s + lead, n - lead, "#") || line_starts(s + lead, n - lead, "%:")))
                refuse(pf, w.line, "", s, n);   /* #ident and the like reach the assembler */
            else if (mine)
                scan_student_line(&st, pf, w.line, s, n);
            if (mine)
                w.student_line = w.line;
            w.line++;
        }
        i += n + (eol ? 1 : 0);
    }
    for (int d = 0; d < w.depth; d++)
        free(w.files[d]);
}

void gr_scan_preprocessed_free(gr_pp_facts *pf)
{
    for (int i = 0; i < pf->n_direct; i++)
        free(pf->direct[i].path);
    free(pf->direct);
    free(pf->foreign);
    memset(pf, 0, sizeof *pf);
}
