/* mutgen.c: the mutation operators of `attnlab mutate` (see mutgen.h).
 *
 * The tokens (mtok.h: code told from comments, strings and preprocessor
 * lines, a binary operator from a unary one or a pointer declarator, and a
 * guess at each operand's type); then one pass per operator over them. A mutant
 * that does not compile (an operator applied where the tokenizer guessed
 * wrong) costs one build and is counted apart, never as a survivor. */
#include "engine/mutgen.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/mtok.h"
#include "base/util.h"

/* Short names for the tokenizer's predicates (mtok.h), read on every line below. */
typedef gr_mtoks toks;
typedef gr_mtok tok;
enum { T_ID = GR_MTOK_ID, T_NUM = GR_MTOK_NUM, T_PUNCT = GR_MTOK_PUNCT };

static int is(const toks *ts, int i, const char *text)
{
    return gr_mtok_is(ts, i, text);
}

static int is_any(const toks *ts, int i, const char *const *words)
{
    return gr_mtok_is_any(ts, i, words);
}

static int is_type_word(const toks *ts, int i)
{
    return gr_mtok_is_type_word(ts, i);
}

static int ends_operand(const toks *ts, int i)
{
    return gr_mtok_ends_operand(ts, i);
}

static int closing(const toks *ts, int i)
{
    return gr_mtok_closing(ts, i);
}

/* ---- building the list ------------------------------------------------------------ */

typedef struct gen {
    const toks *ts;
    const char *src;
    size_t len;
    gr_mutation_list *out;
} gen;

static char *line_text(const char *src, size_t len, size_t off)
{
    size_t a = off, b = off;
    while (a > 0 && src[a - 1] != '\n')
        a--;
    while (b < len && src[b] != '\n')
        b++;
    while (a < b && isspace((unsigned char)src[a]))
        a++;
    while (b > a && isspace((unsigned char)src[b - 1]))
        b--;
    char *s = gr_xmalloc(b - a + 1);
    memcpy(s, src + a, b - a);
    s[b - a] = '\0';
    return s;
}

/* Add a mutant replacing src[off, off + n) by to, named at the line of tok `at`. */
static void add(gen *g, int at, size_t off, size_t n, const char *to, const char *what)
{
    gr_mutation_list *l = g->out;
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 64;
        l->m = gr_xrealloc(l->m, (size_t)l->cap * sizeof *l->m);
    }
    const tok *t = &g->ts->t[at];
    gr_mutation *m = &l->m[l->n++];
    m->offset = off;
    m->len = n;
    m->to = gr_xstrdup(to);
    m->line = t->line;
    m->line_text = line_text(g->src, g->len, t->off);
    m->what = gr_xstrdup(what);
}

/* Replace token i's text by to. */
static void add_tok(gen *g, int i, const char *to, const char *op)
{
    const tok *t = &g->ts->t[i];
    char *what = gr_xasprintf("%s: %.*s -> %s", op, (int)t->len, g->src + t->off, to);
    add(g, i, t->off, t->len, to, what);
    free(what);
}

static void op_relational(gen *g, int i)
{
    static const char *const map[][4] = {
        {"<", "<=", ">=", "!="}, {"<=", "<", ">", NULL}, {">", ">=", "<=", "!="},
        {">=", ">", "<", NULL}, {"==", "!=", NULL, NULL}, {"!=", "==", NULL, NULL},
    };
    for (size_t k = 0; k < sizeof map / sizeof *map; k++)
        if (is(g->ts, i, map[k][0]))
            for (int r = 1; r < 4 && map[k][r]; r++)
                add_tok(g, i, map[k][r], "relational");
    if (is(g->ts, i, "&&"))
        add_tok(g, i, "||", "logical");
    if (is(g->ts, i, "||"))
        add_tok(g, i, "&&", "logical");
}

/* Can the arithmetic operator at i become ops[to] and still compile? + and -
   always; * and / not on a pointer; % on integers only. The operands are
   what the new operator would take: the * / % chains on either side, or for
   an assignment its whole target and value. */
static int arith_fits(const gen *g, int i, int to, int assign)
{
    if (to < 2)
        return 1;
    int a, b;
    gr_mtok_operands(g->ts, i, !assign, &a, &b);
    int cls = gr_mtok_class(g->ts, a, b);
    return !(cls & GR_MTOK_PTR) && (to < 4 || !(cls & GR_MTOK_REAL));
}

/* Each arithmetic operator to each other one, + - * / % and their
   assignments alike. */
static void op_arithmetic(gen *g, int i)
{
    static const char *const ops[2][5] = {
        {"+", "-", "*", "/", "%"}, {"+=", "-=", "*=", "/=", "%="},
    };
    for (int assign = 0; assign < 2; assign++)
        for (int from = 0; from < 5; from++) {
            if (!is(g->ts, i, ops[assign][from]))
                continue;
            if (!assign && !ends_operand(g->ts, i - 1))
                return;     /* unary minus, a dereference, a pointer declarator */
            for (int to = 0; to < 5; to++)
                if (to != from && arith_fits(g, i, to, assign))
                    add_tok(g, i, ops[assign][to], "arithmetic");
        }
}

/* Replace constant token i by to (named name), unless an earlier one of its
   mutants already did: tried holds them, n of them. */
static void add_constant(gen *g, int i, const char *to, const char *name, char tried[][80], int *n)
{
    for (int k = 0; k < *n; k++)
        if (strcmp(tried[k], to) == 0)
            return;
    snprintf(tried[(*n)++], 80, "%s", to);
    const tok *t = &g->ts->t[i];
    char *what = gr_xasprintf("constant: %.*s -> %s", (int)t->len, g->src + t->off, name);
    add(g, i, t->off, t->len, to, what);
    free(what);
}

/* A real as C text with the constant's suffix (name), and as it replaces a
   token (to: in parentheses when negative, so "- x" never becomes "--"). */
static void real_text(char to[80], char name[80], double x, const char *suffix)
{
    char num[64];
    snprintf(num, sizeof num, "%.9g", x);
    if (!strpbrk(num, ".en"))
        strcat(num, ".0");
    snprintf(name, 80, "%s%s", num, suffix);
    snprintf(to, 80, x < 0 ? "(%s)" : "%s", name);
}

/* An integer n to n + 1, n - 1 and 0; a real x to 0, 2x, x + 1 and x - 1
   (0 to 1 and -1); a replacement that repeats another is made once. */
static void op_constant(gen *g, int i)
{
    const tok *t = &g->ts->t[i];
    char text[64], to[80], name[80], tried[4][80];
    int n = 0;
    if (t->len >= sizeof text)
        return;
    memcpy(text, g->src + t->off, t->len);
    text[t->len] = '\0';
    int hex = text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
    char *end;
    if (!hex && strpbrk(text, ".eE") != NULL) {
        double x = strtod(text, &end);
        double cand[4] = {0, 2 * x, x + 1, x - 1}, zero[2] = {1, -1};
        const double *c = x != 0 ? cand : zero;
        for (int k = 0; k < (x != 0 ? 4 : 2); k++) {
            real_text(to, name, c[k], end);
            if (c[k] != x)
                add_constant(g, i, to, name, tried, &n);
        }
        return;
    }
    unsigned long long v = strtoull(text, &end, 0);
    snprintf(to, sizeof to, "%llu%s", v + 1, end);
    add_constant(g, i, to, to, tried, &n);
    if (v == 0) {
        snprintf(to, sizeof to, "(-1%s)", end);
        snprintf(name, sizeof name, "-1%s", end);
    } else {
        snprintf(to, sizeof to, "%llu%s", v - 1, end);
        snprintf(name, sizeof name, "%s", to);
    }
    add_constant(g, i, to, name, tried, &n);
    snprintf(to, sizeof to, "0%s", end);
    if (v != 0)
        add_constant(g, i, to, to, tried, &n);
}

static void op_infinity(gen *g, int i)
{
    if (!is(g->ts, i, "INFINITY"))
        return;
    if (is(g->ts, i - 1, "-") && !ends_operand(g->ts, i - 2)) {
        const tok *m = &g->ts->t[i - 1], *t = &g->ts->t[i];
        size_t n = t->off + t->len - m->off;
        add(g, i, m->off, n, "INFINITY", "infinity: -INFINITY -> INFINITY");
        add(g, i, m->off, n, "0.0f", "infinity: -INFINITY -> 0.0f");
    } else {
        add_tok(g, i, "0.0f", "infinity");
    }
}

/* The top-level arguments of the call whose "(" is token open: first and last
   token of each, at most 16. Returns their count, -1 when there are too many. */
static int call_args(const toks *ts, int open, int first[16], int last[16])
{
    int close = closing(ts, open), n = 0;
    if (close < 0 || close == open + 1)
        return close < 0 ? -1 : 0;
    int start = open + 1;
    for (int k = open + 1; k <= close; k++) {
        if (is(ts, k, "(") || is(ts, k, "[") || is(ts, k, "{")) {
            k = closing(ts, k);
            if (k < 0)
                return -1;
            continue;
        }
        if (is(ts, k, ",") || k == close) {
            if (n == 16)
                return -1;
            first[n] = start;
            last[n++] = k - 1;
            start = k + 1;
        }
    }
    return n;
}

static void op_math(gen *g, int i, int nargs)
{
    static const char *const identity[] = {
        "expf", "exp", "sqrtf", "sqrt", "logf", "log", "fabsf", "fabs", NULL,
    };
    static const char *const swap[][2] = {
        {"fmaxf", "fminf"}, {"fminf", "fmaxf"}, {"fmax", "fmin"}, {"fmin", "fmax"},
    };
    if (nargs == 1 && is_any(g->ts, i, identity)) {
        const tok *t = &g->ts->t[i];
        char *what = gr_xasprintf("math: %.*s(x) -> (x)", (int)t->len, g->src + t->off);
        add(g, i, t->off, t->len, "", what);
        free(what);
    }
    for (size_t k = 0; k < sizeof swap / sizeof *swap; k++)
        if (is(g->ts, i, swap[k][0]))
            add_tok(g, i, swap[k][1], "math");
}

/* Swap arguments x and y (x < y) of a call, given each one's first and last token. */
static void swap_args(gen *g, const int *first, const int *last, int x, int y)
{
    const toks *ts = g->ts;
    size_t a0 = ts->t[first[x]].off, a1 = ts->t[last[x]].off + ts->t[last[x]].len;
    size_t b0 = ts->t[first[y]].off, b1 = ts->t[last[y]].off + ts->t[last[y]].len;
    if (a1 - a0 == b1 - b0 && memcmp(g->src + a0, g->src + b0, a1 - a0) == 0)
        return;
    char *to = gr_xasprintf("%.*s%.*s%.*s", (int)(b1 - b0), g->src + b0,
                            (int)(b0 - a1), g->src + a1, (int)(a1 - a0), g->src + a0);
    char *what = gr_xasprintf("swap: %.*s, %.*s", (int)(a1 - a0), g->src + a0,
                              (int)(b1 - b0), g->src + b0);
    add(g, first[x], a0, b1 - a0, to, what);
    free(to);
    free(what);
}

/* Neighbouring arguments swapped whatever they are, and any two further
   apart that look the same type (integers, reals, pointers to reals ...). */
static void op_call(gen *g, int i)
{
    const toks *ts = g->ts;
    if (ts->t[i].kind != T_ID || !is(ts, i + 1, "(") || gr_mtok_is_keyword(ts, i) ||
        is_type_word(ts, i))
        return;
    int first[16], last[16], cls[16];
    int n = call_args(ts, i + 1, first, last);
    if (n < 0)
        return;
    op_math(g, i, n);
    for (int a = 0; a < n; a++)
        cls[a] = gr_mtok_class(ts, first[a], last[a]);
    for (int a = 0; a + 1 < n; a++)
        for (int b = a + 1; b < n; b++)
            if (b == a + 1 || cls[a] == cls[b])
                swap_args(g, first, last, a, b);
}

/* The token of the for loop at i that ends its init (which = 0) or its
   condition (which = 1): a ';' at the loop's own level; -1 when none. */
static int for_semicolon(const toks *ts, int i, int which)
{
    int close = closing(ts, i + 1), semi = 0;
    for (int k = i + 2; k < close; k++) {
        if (is(ts, k, "(")) {
            k = closing(ts, k);
            continue;
        }
        if (is(ts, k, ";") && semi++ == which)
            return k;
    }
    return -1;
}

/* for (init; cond; step): the limit off by one both ways (cond - 1, cond + 1)
   and so is the start, where init assigns a value that is not a lone
   constant (the constant operator moves that one already). */
static void op_loop_bound(gen *g, int i)
{
    const toks *ts = g->ts;
    if (!is(ts, i, "for") || !is(ts, i + 1, "("))
        return;
    int s1 = for_semicolon(ts, i, 0), s2 = for_semicolon(ts, i, 1);
    int eq = s1 - 1;
    while (eq > i + 1 && !is(ts, eq, "="))
        eq--;
    if (s1 > 0 && is(ts, eq, "=") && !(s1 == eq + 2 && ts->t[eq + 1].kind == T_NUM)) {
        add(g, i, ts->t[s1].off, 0, " + 1", "loop bound: start + 1");
        add(g, i, ts->t[s1].off, 0, " - 1", "loop bound: start - 1");
    }
    if (s2 > 0 && !is(ts, s2 - 1, ";")) {
        add(g, i, ts->t[s2].off, 0, " - 1", "loop bound: condition - 1");
        add(g, i, ts->t[s2].off, 0, " + 1", "loop bound: condition + 1");
    }
}

/* Delete the expression statement starting at token i, if it is one. */
static void op_delete(gen *g, int i, const unsigned char *stmt_start)
{
    static const char *const not_expr[] = {
        "return", "if", "for", "while", "do", "switch", "case", "default", "else", "goto",
        "{", "}", ";", NULL,
    };
    const toks *ts = g->ts;
    if (!stmt_start[i] || is_any(ts, i, not_expr) || is_type_word(ts, i))
        return;
    if (ts->t[i].kind == T_ID && i + 1 < ts->n && ts->t[i + 1].kind == T_ID)
        return;     /* a declaration with a type name of its own */
    for (int k = i; k < ts->n; k++) {
        if (is(ts, k, "(") || is(ts, k, "[")) {
            if ((k = closing(ts, k)) < 0)
                return;
            continue;
        }
        if (is(ts, k, "{") || is(ts, k, "}"))
            return;
        if (is(ts, k, ";")) {
            size_t off = ts->t[i].off;
            add(g, i, off, ts->t[k].off + 1 - off, ";", "delete: statement");
            return;
        }
    }
}

/* Mark which tokens start a statement: after ; { } or else, or after the ")"
   of an if, while or for header. */
static unsigned char *statement_starts(const toks *ts)
{
    unsigned char *s = gr_xcalloc((size_t)ts->n + 1, 1);
    int paren = 0;
    for (int i = 0; i < ts->n; i++) {
        if (is(ts, i, "("))
            paren++;
        else if (is(ts, i, ")"))
            paren--;
        if (ts->t[i].depth < 1 && !is(ts, i, "{"))
            continue;
        if (paren == 0 && (is(ts, i, ";") || is(ts, i, "{") || is(ts, i, "}") || is(ts, i, "else")))
            s[i + 1] = 1;
        if ((is(ts, i, "if") || is(ts, i, "while") || is(ts, i, "for")) && is(ts, i + 1, "(")) {
            int c = closing(ts, i + 1);
            if (c > 0)
                s[c + 1] = 1;
        }
    }
    return s;
}

/* Name repeats on one line "#2", "#3"... so every name is unique. */
static void number_repeats(gr_mutation_list *l, int from)
{
    int *k = gr_xcalloc((size_t)(l->n - from) + 1, sizeof *k);
    for (int i = from; i < l->n; i++) {
        k[i - from] = 1;
        for (int j = from; j < i; j++)
            if (l->m[j].line == l->m[i].line && strcmp(l->m[j].what, l->m[i].what) == 0)
                k[i - from]++;
    }
    for (int i = from; i < l->n; i++) {
        if (k[i - from] > 1) {
            char *w = gr_xasprintf("%s #%d", l->m[i].what, k[i - from]);
            free(l->m[i].what);
            l->m[i].what = w;
        }
    }
    free(k);
}

void gr_mutgen(const char *src, size_t len, gr_mutation_list *out)
{
    toks ts;
    gr_mtok_tokenize(src, len, &ts);
    gr_mtok_types(&ts);
    unsigned char *starts = statement_starts(&ts);
    gen g = {&ts, src, len, out};
    int from = out->n;
    for (int i = 0; i < ts.n; i++) {
        if (ts.t[i].depth < 1)
            continue;   /* declarations at file scope and function headers */
        op_delete(&g, i, starts);
        op_loop_bound(&g, i);
        if (ts.t[i].kind == T_PUNCT) {
            op_relational(&g, i);
            op_arithmetic(&g, i);
        } else if (ts.t[i].kind == T_NUM) {
            op_constant(&g, i);
        } else {
            op_infinity(&g, i);
            op_call(&g, i);
        }
    }
    number_repeats(out, from);
    free(starts);
    gr_mtok_free(&ts);
}

char *gr_mutgen_apply(const char *src, size_t len, const gr_mutation *m)
{
    size_t tl = strlen(m->to), n = len - m->len + tl;
    char *s = gr_xmalloc(n + 1);
    memcpy(s, src, m->offset);
    memcpy(s + m->offset, m->to, tl);
    memcpy(s + m->offset + tl, src + m->offset + m->len, len - m->offset - m->len);
    s[n] = '\0';
    return s;
}

void gr_mutgen_list_free(gr_mutation_list *l)
{
    for (int i = 0; i < l->n; i++) {
        free(l->m[i].to);
        free(l->m[i].line_text);
        free(l->m[i].what);
    }
    free(l->m);
    memset(l, 0, sizeof *l);
}

/* ---- function definitions at file scope (for the mutant schema) --------------------- */

/* The name of the parameter tokens [a, b) declare: the identifier inside
   "(*name)" for a function pointer, else the last one outside brackets; -1
   for none ("void", "...", an unnamed parameter). */
static int param_name(const toks *ts, int a, int b)
{
    if (b - a == 1 && (is(ts, a, "void") || is(ts, a, "...")))
        return -1;
    for (int k = a; k + 2 < b; k++)
        if (is(ts, k, "(") && is(ts, k + 1, "*") && ts->t[k + 2].kind == T_ID)
            return k + 2;
    int name = -1, brackets = 0;
    for (int k = a; k < b; k++) {
        if (is(ts, k, "["))
            brackets++;
        else if (is(ts, k, "]"))
            brackets--;
        else if (!brackets && ts->t[k].kind == T_ID && !is_type_word(ts, k))
            name = k;
    }
    return name;
}

/* Fill f's args from the parameter list between the parentheses at open and close. */
static void function_args(const toks *ts, int open, int close, gr_cfunc *f)
{
    gr_strbuf b = {0};
    f->forwardable = 1;
    int a = open + 1, level = 0, n = 0;
    for (int k = open + 1; k <= close; k++) {
        if (is(ts, k, "(") || is(ts, k, "["))
            level++;
        else if (k < close && (is(ts, k, ")") || is(ts, k, "]")))
            level--;
        if (k < close && !(level == 0 && is(ts, k, ",")))
            continue;
        int name = a < k ? param_name(ts, a, k) : -1;
        if (is(ts, a, "...") || (name < 0 && !(k - a == 1 && is(ts, a, "void"))))
            f->forwardable = 0;
        else if (name >= 0)
            gr_sb_printf(&b, "%s%.*s", n++ ? ", " : "", (int)ts->t[name].len,
                         ts->src + ts->t[name].off);
        a = k + 1;
    }
    f->args = b.s ? gr_sb_take(&b) : gr_xstrdup("");
}

void gr_mutgen_functions(const char *src, size_t len, gr_cfunc_list *out)
{
    toks ts;
    gr_mtok_tokenize(src, len, &ts);
    int decl = 0;                         /* the first token after the last ';' or '}' */
    for (int i = 0; i < ts.n; i++) {
        if (ts.t[i].depth > 0)
            continue;
        if (is(&ts, i, ";")) {
            decl = i + 1;
            continue;
        }
        if (!is(&ts, i, "{") || !is(&ts, i - 1, ")"))
            continue;                     /* the tokens inside braces have depth > 0 */
        int close = closing(&ts, i), open = -1;
        for (int k = i - 1, level = 0; k >= decl && open < 0; k--) {
            level += is(&ts, k, ")") - is(&ts, k, "(");
            if (level == 0)
                open = k;
        }
        if (close < 0 || open <= decl || ts.t[open - 1].kind != T_ID)
            break;                        /* not a definition this tokenizer can read */
        out->f = gr_xrealloc(out->f, (size_t)(out->n + 1) * sizeof *out->f);
        gr_cfunc *f = &out->f[out->n++];
        *f = (gr_cfunc){.start = ts.t[decl].off, .name = ts.t[open - 1].off,
                        .name_len = ts.t[open - 1].len, .body = ts.t[i].off,
                        .end = ts.t[close].off + 1};
        f->returns_void = is(&ts, open - 2, "void");
        for (int k = decl; k < open - 1; k++)
            f->is_static |= is(&ts, k, "static");
        function_args(&ts, open, closing(&ts, open), f);
        i = close;
        decl = close + 1;
    }
    gr_mtok_free(&ts);
}

void gr_mutgen_functions_free(gr_cfunc_list *l)
{
    for (int i = 0; i < l->n; i++)
        free(l->f[i].args);
    free(l->f);
    memset(l, 0, sizeof *l);
}
