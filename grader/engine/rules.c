/* rules.c: a lab's rules text from its rubric, and the blocks that hold it
 * (see rules.h). */
#include "base/layout.h"
#include "engine/rules.h"
#include "base/labmod.h"
#include "base/result.h"
#include "base/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RULES_WIDTH 72          /* a line of text; the stub adds " * " and stays under 80 */
#define RULES_MAX_BYTES ((size_t)1 << 20)   /* a stub or a handout is a few dozen KiB */

/* ---- the text ---------------------------------------------------------------------- */

/* The groups the text lists functions in, in this order. */
enum { GROUP_MATH, GROUP_MEMORY, GROUP_OUTPUT, GROUP_SUPPORT, N_GROUPS };
static const char *const group_names[N_GROUPS] = {
    "math", "memory", "output", "support code (labsup.h)"
};

static const char *const memory_names[] = {
    "malloc", "calloc", "realloc", "free", "aligned_alloc", "memset", "memcpy", "memmove",
    "memcmp", NULL
};
static const char *const output_names[] = {
    "printf", "puts", "putchar", "fprintf", "fputs", "fputc", "putc", "fwrite", "sprintf",
    "snprintf", NULL
};
/* math.h functions by their double name, every one of C11 and glibc's sincos
   and exp10 (GCC turns sinf(x) and cosf(x) of one x into a call of sincosf, so
   a lab that allows both allows it too); the float (f) and long double (l)
   variants count too. A lab's rubric allows any of them without an edit here. */
static const char *const math_names[] = {
    "exp", "exp2", "expm1", "exp10", "log", "log2", "log10", "log1p", "logb", "ilogb", "sqrt",
    "cbrt", "pow", "hypot", "fabs", "fmax", "fmin", "fdim", "fma", "fmod", "remainder",
    "remquo", "floor", "ceil", "round", "trunc", "lround", "llround", "nearbyint", "rint",
    "lrint", "llrint", "sin", "cos", "tan", "sincos", "asin", "acos", "atan", "atan2", "sinh",
    "cosh", "tanh", "asinh", "acosh", "atanh", "erf", "erfc", "tgamma", "lgamma", "ldexp",
    "frexp", "modf", "scalbn", "scalbln", "nextafter", "nexttoward", "copysign", "nan", NULL
};

static int name_in(const char *name, const char *const *list)
{
    for (int i = 0; list[i]; i++)
        if (strcmp(name, list[i]) == 0)
            return 1;
    return 0;
}

static int is_math(const char *name)
{
    if (name_in(name, math_names))
        return 1;
    size_t n = strlen(name);
    char base[64];
    if (n < 2 || n >= sizeof base || (name[n - 1] != 'f' && name[n - 1] != 'l'))
        return 0;
    memcpy(base, name, n - 1);
    base[n - 1] = '\0';
    return name_in(base, math_names);
}

/* The group of an allowed symbol, or -1 when it belongs to none. */
static int group_of(const char *sym)
{
    if (strncmp(sym, "sup_", 4) == 0)
        return GROUP_SUPPORT;
    if (name_in(sym, memory_names))
        return GROUP_MEMORY;
    if (name_in(sym, output_names))
        return GROUP_OUTPUT;
    return is_math(sym) ? GROUP_MATH : -1;
}

/* A space wrap_text never breaks a line at (inside a verdict's name). */
#define NBSP '\x01'

/* text after first, wrapped at spaces so no line passes RULES_WIDTH (a longer
   word stands alone), continuation lines indented by indent. */
static void wrap_text(gr_strbuf *b, const char *first, const char *text, const char *indent)
{
    size_t col = strlen(first);
    gr_sb_append(b, first);
    int at_start = 1;
    for (const char *s = text; *s;) {
        while (*s == ' ')
            s++;
        size_t n = strcspn(s, " ");
        if (n == 0)
            break;
        if (!at_start && col + 1 + n > RULES_WIDTH) {
            gr_sb_printf(b, "\n%s", indent);
            col = strlen(indent);
        } else if (!at_start) {
            gr_sb_append(b, " ");
            col++;
        }
        for (size_t k = 0; k < n; k++)
            gr_sb_appendn(b, s[k] == NBSP ? " " : s + k, 1);
        col += n;
        at_start = 0;
        s += n;
    }
    gr_sb_append(b, "\n");
}

/* The words joined by ", " and ended by ".", wrapped as wrap_text does. */
static void wrap_list(gr_strbuf *b, const char *first, const char *const *words, int n,
                      const char *indent)
{
    gr_strbuf s = {0};
    for (int i = 0; i < n; i++)
        gr_sb_printf(&s, "%s%s", i ? ", " : "", words[i]);
    gr_sb_append(&s, ".");
    char *text = gr_sb_take(&s);
    wrap_text(b, first, text, indent);
    free(text);
}

/* A time as a person reads it: "2 s", "1.5 s", "250 ms". */
static char *time_text(long ms)
{
    if (ms % 1000 == 0)
        return gr_xasprintf("%ld s", ms / 1000);
    if (ms >= 1000 && ms % 100 == 0)
        return gr_xasprintf("%.1f s", (double)ms / 1000.0);
    return gr_xasprintf("%ld ms", ms);
}

/* A size in bytes as "64 MiB", "512 KiB" or "100 bytes". */
static char *size_text(long bytes)
{
    if (bytes >= 1L << 20 && bytes % (1L << 20) == 0)
        return gr_xasprintf("%ld MiB", bytes >> 20);
    if (bytes >= 1L << 10 && bytes % (1L << 10) == 0)
        return gr_xasprintf("%ld KiB", bytes >> 10);
    return gr_xasprintf("%ld bytes", bytes);
}

/* Which limit a line states. */
typedef enum { LIMIT_TIME, LIMIT_MEMORY, LIMIT_OUTPUT } limit_kind;

static long limit_of(const gr_limits *l, limit_kind k)
{
    return k == LIMIT_TIME ? l->time_ms : k == LIMIT_MEMORY ? l->memory_bytes : l->output_bytes;
}

static char *limit_text(long v, limit_kind k)
{
    return k == LIMIT_TIME ? time_text(v) : size_text(v);
}

/* "- Time limit: 2 s per test; 20 s for attention_memory_4096." and its kin:
   the lab's default, then each value a test overrides it with and its tests. */
static void limit_line(gr_strbuf *b, const gr_rubric *r, limit_kind k)
{
    static const char *const what[] = {
        "Time limit", "Memory limit", "Output limit"
    };
    static const char *const per[] = {
        "per test", "of heap per test", "of printed output per test"
    };
    gr_strbuf s = {0};
    long dflt = limit_of(&r->limits, k);
    char *v = limit_text(dflt, k);
    gr_sb_printf(&s, "%s %s", v, per[k]);
    free(v);
    /* each distinct override once, with every test that has it, in rubric order */
    for (int i = 0; i < r->n_tests; i++) {
        long x = limit_of(&r->tests[i].limits, k);
        int first = x != dflt;
        for (int j = 0; j < i && first; j++)
            first = limit_of(&r->tests[j].limits, k) != x;
        if (!first)
            continue;
        v = limit_text(x, k);
        gr_sb_printf(&s, "; %s for", v);
        free(v);
        const char *sep = " ";
        for (int j = i; j < r->n_tests; j++) {
            if (limit_of(&r->tests[j].limits, k) == x) {
                gr_sb_printf(&s, "%s%s", sep, r->tests[j].name);
                sep = ", ";
            }
        }
    }
    gr_sb_append(&s, ".");
    char *first = gr_xasprintf("- %s: ", what[k]);
    char *text = gr_sb_take(&s);
    wrap_text(b, first, text, "  ");
    free(text);
    free(first);
}

char *gr_rules_text(const gr_rubric *r, const char *contract, char *err, size_t errlen)
{
    /* headers: the contract and labsup.h always, then the rubric's others */
    const char **hdr = gr_xmalloc((size_t)(r->n_headers + 2) * sizeof *hdr);
    int nh = 0;
    hdr[nh++] = contract;
    hdr[nh++] = "labsup.h";
    for (int i = 0; i < r->n_headers; i++)
        if (strcmp(r->allowed_headers[i], contract) != 0 &&
            strcmp(r->allowed_headers[i], "labsup.h") != 0)
            hdr[nh++] = r->allowed_headers[i];

    const char **sym[N_GROUPS];
    int ns[N_GROUPS] = {0};
    for (int g = 0; g < N_GROUPS; g++)
        sym[g] = gr_xmalloc((size_t)(r->n_symbols + 1) * sizeof *sym[g]);
    char *text = NULL;
    for (int i = 0; i < r->n_symbols; i++) {
        int g = group_of(r->allowed_symbols[i]);
        if (g < 0) {
            gr_set_err(err, errlen, "%s: allowed_symbols lists '%s', which is no function of "
                       "math.h (C11, or glibc's sincos and exp10), no memory or output function "
                       "and no support code (sup_): remove it from the rubric, or, for a "
                       "library function a lab really needs, add it to a group of grader/engine/rules.c",
                       r->path ? r->path : "rubric", r->allowed_symbols[i]);
            goto out;
        }
        sym[g][ns[g]++] = r->allowed_symbols[i];
    }

    gr_strbuf b = {0};
    wrap_list(&b, "- Allowed headers: ", hdr, nh, "  ");
    gr_sb_append(&b, "- Allowed library functions:\n");
    for (int g = 0; g < N_GROUPS; g++) {
        char *first = gr_xasprintf("  - %s: ", group_names[g]);
        if (ns[g] == 0)
            gr_sb_printf(&b, "%snone.\n", first);
        else
            wrap_list(&b, first, sym[g], ns[g], "    ");
        free(first);
    }
    int has_math_h = 0;
    for (int i = 0; i < nh; i++)
        has_math_h |= strcmp(hdr[i], "math.h") == 0;
    if (has_math_h)
        wrap_text(&b, "- ", "INFINITY, NAN, isinf, isnan and isfinite are macros of math.h, "
                 "not calls: use them freely.", "  ");
    limit_line(&b, r, LIMIT_TIME);
    limit_line(&b, r, LIMIT_MEMORY);
    limit_line(&b, r, LIMIT_OUTPUT);
    char *v[4];
    const gr_verdict said[4] = {GR_FORBIDDEN_CALL, GR_TIMED_OUT, GR_OUT_OF_MEMORY, GR_OUTPUT_LIMIT};
    for (int i = 0; i < 4; i++) {
        v[i] = gr_xstrdup(gr_result_verdict_name(said[i]));
        for (char *p = v[i]; *p; p++)
            *p = *p == ' ' ? NBSP : *p;
    }
    char *otherwise = gr_xasprintf(
        "Otherwise: a header or a function not listed here gives every test of the lab "
        "\"%s\" and 0 points; a test over a limit ends \"%s\", \"%s\" or \"%s\" "
        "and scores 0.", v[0], v[1], v[2], v[3]);
    for (int i = 0; i < 4; i++)
        free(v[i]);
    wrap_text(&b, "- ", otherwise, "  ");
    free(otherwise);
    text = gr_sb_take(&b);
out:
    for (int g = 0; g < N_GROUPS; g++)
        free(sym[g]);
    free(hdr);
    return text;
}

/* ---- the blocks ---------------------------------------------------------------------- */

/* A file split into lines (the newlines replaced by NULs). */
typedef struct lines {
    char *buf;
    char **at;
    int n;
    int final_newline;          /* the file ended with '\n' */
} lines;

static void lines_split(lines *l, char *buf, size_t len)
{
    l->buf = buf;
    l->n = 0;
    l->at = gr_xmalloc((len + 1) * sizeof *l->at);
    l->final_newline = len > 0 && buf[len - 1] == '\n';
    char *s = buf, *end = buf + len;
    while (s < end) {
        l->at[l->n++] = s;
        char *nl = memchr(s, '\n', (size_t)(end - s));
        if (!nl)
            break;
        *nl = '\0';
        s = nl + 1;
    }
}

static void lines_free(lines *l)
{
    free(l->at);
    free(l->buf);
}

/* Where a file's block is: the marker lines' indexes and the prefix its text
   lines carry. */
typedef struct block {
    int begin, end;             /* the BEGIN and END marker lines (0-based) */
    char *prefix;               /* " * " in a C file, "" in a handout */
} block;

static int is_c_file(const char *path)
{
    size_t n = strlen(path);
    return n >= 2 && strcmp(path + n - 2, ".c") == 0;
}

/* The marker lines of a file of this kind. */
static char *begin_marker(const char *path, const char *prefix, const char *rubric_name)
{
    return is_c_file(path)
        ? gr_xasprintf("%sBEGIN RULES (generated from %s by attnlab rules)", prefix, rubric_name)
        : gr_xasprintf("<!-- BEGIN RULES (generated from %s by attnlab rules) -->", rubric_name);
}

static char *end_marker(const char *path, const char *prefix)
{
    return is_c_file(path) ? gr_xasprintf("%sEND RULES", prefix) : gr_xstrdup("<!-- END RULES -->");
}

/* Find the block of l; 0, or -1 with why ("file:line: ..."). */
static int find_block(const char *path, const lines *l, const char *rubric_name, block *bk,
                      char *why, size_t whylen)
{
    memset(bk, 0, sizeof bk[0]);
    bk->begin = bk->end = -1;
    for (int i = 0; i < l->n && bk->begin < 0; i++)
        if (strstr(l->at[i], "BEGIN RULES"))
            bk->begin = i;
    if (bk->begin < 0) {
        gr_set_err(why, whylen, "%s: no rules block; put the lines '%sBEGIN RULES (generated "
                   "from %s by attnlab rules)%s' and '%sEND RULES%s' where the rules go, then "
                   "run 'attnlab rules --write'", path, is_c_file(path) ? " * " : "<!-- ",
                   rubric_name, is_c_file(path) ? "" : " -->", is_c_file(path) ? " * " : "<!-- ",
                   is_c_file(path) ? "" : " -->");
        return -1;
    }
    const char *line = l->at[bk->begin];
    bk->prefix = is_c_file(path) ? gr_xasprintf("%.*s", (int)(strstr(line, "BEGIN RULES") - line), line)
                                 : gr_xstrdup("");
    char *want = begin_marker(path, bk->prefix, rubric_name);
    int ok = strcmp(line, want) == 0;
    free(want);
    if (!ok) {
        gr_set_err(why, whylen, "%s:%d: the rules block's first line is '%s'; it must say "
                   "'BEGIN RULES (generated from %s by attnlab rules)'", path, bk->begin + 1,
                   line, rubric_name);
        return -1;
    }
    char *end = end_marker(path, bk->prefix);
    for (int i = bk->begin + 1; i < l->n && bk->end < 0; i++)
        if (strcmp(l->at[i], end) == 0)
            bk->end = i;
    free(end);
    if (bk->end < 0) {
        gr_set_err(why, whylen, "%s:%d: the rules block has no end line '%sEND RULES%s'", path,
                   bk->begin + 1, is_c_file(path) ? bk->prefix : "<!-- ",
                   is_c_file(path) ? "" : " -->");
        return -1;
    }
    return 0;
}

/* text's lines as the block holds them: prefix + line, trailing blanks dropped. */
static char **block_lines(const char *text, const char *prefix, int *n)
{
    int cap = 1;
    for (const char *s = text; *s; s++)
        cap += *s == '\n';
    char **out = gr_xmalloc((size_t)cap * sizeof *out);
    *n = 0;
    const char *s = text;
    while (*s) {
        size_t len = strcspn(s, "\n");
        char *line = gr_xasprintf("%s%.*s", prefix, (int)len, s);
        size_t k = strlen(line);
        while (k > 0 && line[k - 1] == ' ')
            line[--k] = '\0';
        out[(*n)++] = line;
        s += len + (s[len] == '\n');
    }
    return out;
}

static void free_lines(char **v, int n)
{
    for (int i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

/* Read path into l; 0, or -1 with err. */
static int read_lines(const char *path, lines *l, char *err, size_t errlen)
{
    char *text = NULL, why[128];
    size_t len;
    int rc = gr_read_regular(path, RULES_MAX_BYTES, &text, &len, why, sizeof why);
    if (rc != 0) {
        gr_set_err(err, errlen, "cannot read %s: %s", path, rc > 0 ? why : strerror(errno));
        return -1;
    }
    lines_split(l, text, len);
    return 0;
}

int gr_rules_check_file(const char *path, const char *rubric_name, const char *text,
                        char *diff, size_t difflen, char *err, size_t errlen)
{
    lines l;
    if (read_lines(path, &l, err, errlen) != 0)
        return -1;
    block bk;
    int rc = 1;
    if (find_block(path, &l, rubric_name, &bk, diff, difflen) != 0)
        goto out;
    int n;
    char **want = block_lines(text, bk.prefix, &n);
    int have = bk.end - bk.begin - 1;
    rc = 0;
    for (int i = 0; i < n || i < have; i++) {
        const char *h = i < have ? l.at[bk.begin + 1 + i] : NULL;
        const char *w = i < n ? want[i] : NULL;
        if (h && w && strcmp(h, w) == 0)
            continue;
        gr_set_err(diff, difflen, "%s:%d: the rules block differs from %s: the file has %s%s%s, "
                   "the rubric gives %s%s%s. The block is generated: edit the rubric, not the "
                   "block, then run 'attnlab rules --write'", path,
                   bk.begin + 2 + i, rubric_name, h ? "'" : "", h ? h : "no more lines",
                   h ? "'" : "", w ? "'" : "", w ? w : "no more lines", w ? "'" : "");
        rc = 1;
        break;
    }
    free_lines(want, n);
out:
    free(bk.prefix);
    lines_free(&l);
    return rc;
}

int gr_rules_write_file(const char *path, const char *rubric_name, const char *text,
                        int *changed, char *err, size_t errlen)
{
    *changed = 0;
    lines l;
    if (read_lines(path, &l, err, errlen) != 0)
        return -1;
    block bk;
    int rc = -1;
    if (find_block(path, &l, rubric_name, &bk, err, errlen) != 0)
        goto out;
    int n;
    char **want = block_lines(text, bk.prefix, &n);
    gr_strbuf b = {0};
    for (int i = 0; i <= bk.begin; i++)
        gr_sb_printf(&b, "%s\n", l.at[i]);
    for (int i = 0; i < n; i++)
        gr_sb_printf(&b, "%s\n", want[i]);
    for (int i = bk.end; i < l.n; i++)
        gr_sb_printf(&b, "%s%s", l.at[i], i + 1 < l.n || l.final_newline ? "\n" : "");
    free_lines(want, n);
    char *now = gr_sb_take(&b);
    size_t was_len;
    char *was = gr_read_file(path, &was_len);
    *changed = !was || strcmp(was, now) != 0;
    free(was);
    rc = 0;
    if (*changed && gr_write_file_atomic(path, now, strlen(now)) != 0) {
        gr_set_err(err, errlen, "cannot write %s: %s", path, strerror(errno));
        rc = -1;
    }
    free(now);
out:
    free(bk.prefix);
    lines_free(&l);
    return rc;
}

/* ---- a lab's blocks ---------------------------------------------------------------- */

char *gr_rules_for_lab(const char *root, int lab, char **rubric_name, char *files[2],
                       char *err, size_t errlen)
{
    char *name = gr_layout_rubric(NULL, lab);
    char *path = gr_layout_rubric(root, lab);
    gr_rubric r;
    char *text = NULL;
    if (gr_rubric_load(path, &r, err, errlen) == 0) {
        char *contract = gr_layout_name(lab, ".h");
        text = gr_rules_text(&r, contract, err, errlen);
        free(contract);
        gr_rubric_free(&r);
    }
    free(path);
    if (!text) {
        free(name);
        return NULL;
    }
    files[0] = gr_layout_stub(root, lab);
    files[1] = gr_layout_handout(root, lab);
    *rubric_name = name;
    return text;
}

int gr_rules_check_lab(const char *root, int lab, char *diff, size_t difflen, char *err,
                       size_t errlen)
{
    char *rubric_name, *files[2];
    char *text = gr_rules_for_lab(root, lab, &rubric_name, files, err, errlen);
    if (!text)
        return -1;
    int rc = 0;
    for (int i = 0; i < 2 && rc == 0; i++)
        rc = gr_rules_check_file(files[i], rubric_name, text, diff, difflen, err, errlen);
    free(files[0]);
    free(files[1]);
    free(rubric_name);
    free(text);
    return rc;
}
