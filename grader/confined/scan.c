/* scan.c: checks on the compiler's intermediate files (see scan.h). */
#include "confined/scan.h"
#include "util.h"

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
                ds->inc = gr_xrealloc(ds->inc, (size_t)(ds->n_inc + 1) * sizeof *ds->inc);
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

void gr_directive_scan_free(gr_directive_scan *ds)
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
        snprintf(pf->refused, sizeof pf->refused, "%s%s%.*s%s", what, *what ? " (" : "", wl, word,
                 *what ? ")" : "");
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
        } else {
            scan_punct(st, c);
        }
    }
}

static void check_pragma(gr_pp_facts *pf, int line, const char *s, size_t n)
{
    const char *p = s + 7;            /* after "#pragma" */
    while (p < s + n && (*p == ' ' || *p == '\t'))
        p++;
    for (int i = 0; allowed_pragmas[i]; i++)
        if (starts_with(p, allowed_pragmas[i]))
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

/* A linemarker "# LINE "FILE" FLAGS": update the current file and line. */
static void linemarker(gr_pp_facts *pf, const char *s, size_t n, char *cur, size_t curlen,
                       int *line, const char *source, const char *inc_dir)
{
    char *end;
    long ln = strtol(s + 2, &end, 10);
    const char *q = end;
    while (*q == ' ')
        q++;
    if (*q != '"')
        return;
    const char *nameend = q + 1;
    while (nameend < s + n && *nameend != '"')
        nameend++;
    char name[4096];
    snprintf(name, sizeof name, "%.*s", (int)(nameend - (q + 1)), q + 1);
    int entering = 0;
    for (const char *f = nameend + 1; f < s + n; f++)
        if (f[0] == '1' && f[-1] == ' ' && (f + 1 == s + n || f[1] == ' '))
            entering = 1;
    if (entering)
        entered(pf, cur, name, source, inc_dir, *line - 1);
    snprintf(cur, curlen, "%s", name);
    *line = (int)ln;
}

void gr_scan_preprocessed(const char *text, const char *source, const char *inc_dir,
                          gr_pp_facts *pf)
{
    memset(pf, 0, sizeof *pf);
    student_scan st;
    memset(&st, 0, sizeof st);
    char cur[4096] = "";
    int line = 0;
    for (const char *s = text; *s;) {
        const char *eol = strchr(s, '\n');
        size_t n = eol ? (size_t)(eol - s) : strlen(s);
        int mine = strcmp(cur, source) == 0;
        if (n > 2 && s[0] == '#' && s[1] == ' ' && isdigit((unsigned char)s[2])) {
            linemarker(pf, s, n, cur, sizeof cur, &line, source, inc_dir);
        } else {
            if (mine && n >= 7 && starts_with(s, "#pragma"))
                check_pragma(pf, line, s, n);
            else if (mine && n > 0 && s[0] == '#')  /* #ident and the like reach the assembler */
                refuse(pf, line, "", s, n);
            else if (mine)
                scan_student_line(&st, pf, line, s, n);
            line++;
        }
        s += n + (eol ? 1 : 0);
    }
}

void gr_pp_facts_free(gr_pp_facts *pf)
{
    for (int i = 0; i < pf->n_direct; i++)
        free(pf->direct[i].path);
    free(pf->direct);
    free(pf->foreign);
    memset(pf, 0, sizeof *pf);
}

/* ---- the assembly ------------------------------------------------------------------- */

/* Directives GCC and Clang emit for plain C at -O2; anything else (.incbin,
   .include, .macro, .rept, .if, .symver, .org ...) came from somewhere else. */
static const char *const allowed_directives[] = {
    ".file", ".text", ".data", ".bss", ".section", ".pushsection", ".popsection", ".previous",
    ".globl", ".global", ".local", ".comm", ".lcomm", ".type", ".size", ".align", ".p2align",
    ".balign", ".long", ".quad", ".byte", ".short", ".value", ".word", ".hword", ".int",
    ".2byte", ".4byte", ".8byte", ".octa", ".zero", ".skip", ".space", ".string", ".ascii",
    ".asciz", ".ident", ".weak", ".hidden", ".protected", ".internal", ".uleb128", ".sleb128",
    ".float", ".single", ".double", ".loc", ".addrsig", ".addrsig_sym", NULL
};

/* Sections plain C code and data live in (and what the assembler adds). */
static const char *const section_prefixes[] = {
    ".text", ".data", ".bss", ".rodata", ".tdata", ".tbss", ".init_array", ".fini_array",
    ".rela.text", ".rela.data", ".rela.rodata", ".rela.init_array", ".rela.fini_array",
    ".rela.tdata", ".rela.eh_frame", ".eh_frame", NULL
};
static const char *const section_names[] = {
    "", ".note.GNU-stack", ".note.gnu.property", ".comment", ".symtab", ".strtab",
    ".shstrtab", ".llvm_addrsig", ".group", NULL
};

int gr_section_allowed(const char *name)
{
    for (int i = 0; section_names[i]; i++)
        if (strcmp(name, section_names[i]) == 0)
            return 1;
    for (int i = 0; section_prefixes[i]; i++) {
        size_t n = strlen(section_prefixes[i]);
        if (strncmp(name, section_prefixes[i], n) == 0 && (name[n] == '\0' || name[n] == '.'))
            return 1;
    }
    return 0;
}

/* One statement (no comment, no newline, no ';'): labels, then an instruction
   or a directive. 0 when allowed, else -1 with why. */
static int check_statement(const char *s, size_t n, char *why, size_t whylen)
{
    size_t k = 0;
    for (;;) {                        /* labels: name: */
        while (k < n && isspace((unsigned char)s[k]))
            k++;
        size_t e = k;
        while (e < n && (is_ident(s[e]) || s[e] == '.' || s[e] == '$'))
            e++;
        if (e > k && e < n && s[e] == ':') {
            k = e + 1;
            continue;
        }
        break;
    }
    if (k >= n || s[k] != '.')
        return 0;                     /* empty, or an instruction */
    size_t e = k + 1;
    while (e < n && (is_ident(s[e]) || s[e] == '.'))
        e++;
    const char *d = s + k;
    size_t dl = e - k;
    if (dl > 5 && memcmp(d, ".cfi_", 5) == 0)
        return 0;
    if (!in_words(d, dl, allowed_directives)) {
        snprintf(why, whylen, "the assembler directive %.*s", (int)(dl < 40 ? dl : 40), d);
        return -1;
    }
    if ((dl == 8 && memcmp(d, ".section", 8) == 0) || (dl == 12 && memcmp(d, ".pushsection", 12) == 0)) {
        while (e < n && isspace((unsigned char)s[e]))
            e++;
        char name[128];
        size_t m = 0;
        while (e < n && s[e] != ',' && !isspace((unsigned char)s[e]) && m + 1 < sizeof name)
            name[m++] = s[e++];
        name[m] = '\0';
        if (!gr_section_allowed(name)) {
            snprintf(why, whylen, "a section named %s", name);
            return -1;
        }
    }
    return 0;
}

int gr_scan_assembly(const char *text, char *why, size_t whylen)
{
    int line = 1;
    const char *stmt = text;
    for (const char *p = text;; p++) {
        char c = *p;
        if (c == '"') {               /* a string: nothing inside it ends a statement */
            for (p++; *p && *p != '"' && *p != '\n'; p++)
                if (*p == '\\' && p[1])
                    p++;
            if (*p != '"') {
                snprintf(why, whylen, "an unterminated string");
                return line;
            }
            continue;
        }
        if (c == '/' && p[1] == '*') {
            snprintf(why, whylen, "a /* comment */ (compilers do not write them)");
            return line;
        }
        if (c == '#' || c == '\n' || c == ';' || c == '\0') {
            if (check_statement(stmt, (size_t)(p - stmt), why, whylen) != 0)
                return line;
            if (c == '#')             /* a comment runs to the end of the line */
                while (*p && *p != '\n')
                    p++;
            if (*p == '\0')
                return 0;
            if (*p == '\n')
                line++;
            stmt = p + 1;
        }
    }
}
