/* mutgen.c: the mutation operators of `attnlab mutate` (see mutgen.h).
 *
 * A small C tokenizer, enough to tell code from comments, strings and
 * preprocessor lines, and to tell a binary operator from a unary one or a
 * pointer declarator; then one pass per operator over the tokens. A mutant
 * that does not compile (an operator applied where the tokenizer guessed
 * wrong) costs one build and is counted apart, never as a survivor. */
#include "mutgen.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

enum { T_ID, T_NUM, T_PUNCT };

typedef struct tok {
    int kind;
    size_t off, len;
    int line;
    int depth;              /* brace depth before the token */
} tok;

typedef struct toks {
    tok *t;
    int n, cap;
    const char *src;
} toks;

static void tok_push(toks *ts, int kind, size_t off, size_t len, int line, int depth)
{
    if (ts->n == ts->cap) {
        ts->cap = ts->cap ? 2 * ts->cap : 256;
        ts->t = gr_xrealloc(ts->t, (size_t)ts->cap * sizeof *ts->t);
    }
    ts->t[ts->n++] = (tok){kind, off, len, line, depth};
}

static const char *const puncts[] = {
    "<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
    "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "##",
};

/* Skip a quoted literal starting at s[i] (its quote); the index after it. */
static size_t skip_quoted(const char *s, size_t i, size_t len, int *line)
{
    char q = s[i++];
    while (i < len && s[i] != q && s[i] != '\n') {
        if (s[i] == '\\' && i + 1 < len)
            i++;
        i++;
    }
    (void)line;
    return i < len ? i + 1 : i;
}

static void tokenize(const char *s, size_t len, toks *ts)
{
    int line = 1, depth = 0, at_line_start = 1;
    size_t i = 0;
    ts->src = s;
    while (i < len) {
        char c = s[i];
        if (c == '\n') {
            line++, i++, at_line_start = 1;
            continue;
        }
        if (isspace((unsigned char)c)) {
            i++;
            continue;
        }
        if (c == '#' && at_line_start) {    /* a preprocessor line, with continuations */
            while (i < len && s[i] != '\n') {
                if (s[i] == '\\' && i + 1 < len && s[i + 1] == '\n')
                    line++, i++;
                i++;
            }
            continue;
        }
        at_line_start = 0;
        if (c == '/' && i + 1 < len && s[i + 1] == '/') {
            while (i < len && s[i] != '\n')
                i++;
            continue;
        }
        if (c == '/' && i + 1 < len && s[i + 1] == '*') {
            for (i += 2; i < len && !(s[i] == '*' && i + 1 < len && s[i + 1] == '/'); i++)
                if (s[i] == '\n')
                    line++;
            i = i + 2 < len ? i + 2 : len;
            continue;
        }
        if (c == '"' || c == '\'') {
            i = skip_quoted(s, i, len, &line);
            continue;
        }
        size_t start = i;
        if (isalpha((unsigned char)c) || c == '_') {
            while (i < len && (isalnum((unsigned char)s[i]) || s[i] == '_'))
                i++;
            tok_push(ts, T_ID, start, i - start, line, depth);
            continue;
        }
        if (isdigit((unsigned char)c) || (c == '.' && i + 1 < len && isdigit((unsigned char)s[i + 1]))) {
            while (i < len && (isalnum((unsigned char)s[i]) || s[i] == '.' || s[i] == '_' ||
                               ((s[i] == '+' || s[i] == '-') && strchr("eEpP", s[i - 1]))))
                i++;
            tok_push(ts, T_NUM, start, i - start, line, depth);
            continue;
        }
        size_t plen = 1;
        for (size_t k = 0; k < sizeof puncts / sizeof *puncts; k++) {
            size_t l = strlen(puncts[k]);
            if (l > plen && i + l <= len && memcmp(s + i, puncts[k], l) == 0)
                plen = l;
        }
        tok_push(ts, T_PUNCT, start, plen, line, depth);
        if (c == '{')
            depth++;
        else if (c == '}' && depth > 0)
            depth--;
        i += plen;
    }
}

/* ---- token predicates ---------------------------------------------------------- */

static int is(const toks *ts, int i, const char *text)
{
    if (i < 0 || i >= ts->n)
        return 0;
    size_t l = strlen(text);
    return ts->t[i].len == l && memcmp(ts->src + ts->t[i].off, text, l) == 0;
}

static int is_any(const toks *ts, int i, const char *const *words)
{
    for (; *words; words++)
        if (is(ts, i, *words))
            return 1;
    return 0;
}

static const char *const type_words[] = {
    "void", "char", "short", "int", "long", "float", "double", "signed", "unsigned",
    "const", "volatile", "static", "struct", "enum", "union", "register", "typedef",
    "inline", "restrict", "_Bool", NULL,
};
static const char *const keywords[] = {
    "return", "sizeof", "case", "if", "while", "for", "else", "do", "switch", "goto",
    "default", "break", "continue", NULL,
};

static int is_type_word(const toks *ts, int i)
{
    if (i < 0 || i >= ts->n || ts->t[i].kind != T_ID)
        return 0;
    const tok *t = &ts->t[i];
    return is_any(ts, i, type_words) ||
           (t->len > 2 && memcmp(ts->src + t->off + t->len - 2, "_t", 2) == 0);
}

/* Does token i end an operand (so an operator after it is binary)? */
static int ends_operand(const toks *ts, int i)
{
    if (i < 0)
        return 0;
    const tok *t = &ts->t[i];
    if (t->kind == T_NUM)
        return 1;
    if (t->kind == T_ID)
        return !is_type_word(ts, i) && !is_any(ts, i, keywords);
    return is(ts, i, ")") || is(ts, i, "]");
}

/* The index of the token closing the bracket opened at i, or -1. */
static int closing(const toks *ts, int i)
{
    int level = 0;
    for (int k = i; k < ts->n; k++) {
        if (is(ts, k, "(") || is(ts, k, "[") || is(ts, k, "{"))
            level++;
        else if (is(ts, k, ")") || is(ts, k, "]") || is(ts, k, "}"))
            if (--level == 0)
                return k;
    }
    return -1;
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
    static const char *const map[][3] = {
        {"<", "<=", ">="}, {"<=", "<", ">"}, {">", ">=", "<="}, {">=", ">", "<"},
        {"==", "!=", NULL}, {"!=", "==", NULL},
    };
    for (size_t k = 0; k < sizeof map / sizeof *map; k++)
        if (is(g->ts, i, map[k][0]))
            for (int r = 1; r < 3 && map[k][r]; r++)
                add_tok(g, i, map[k][r], "relational");
    if (is(g->ts, i, "&&"))
        add_tok(g, i, "||", "logical");
    if (is(g->ts, i, "||"))
        add_tok(g, i, "&&", "logical");
}

static void op_arithmetic(gen *g, int i)
{
    static const char *const map[][2] = {
        {"+", "-"}, {"-", "+"}, {"*", "/"}, {"/", "*"},
        {"+=", "-="}, {"-=", "+="}, {"*=", "/="}, {"/=", "*="},
    };
    for (size_t k = 0; k < sizeof map / sizeof *map; k++) {
        if (!is(g->ts, i, map[k][0]))
            continue;
        if (strlen(map[k][0]) == 1 && !ends_operand(g->ts, i - 1))
            return;     /* unary minus, a dereference, a pointer declarator */
        add_tok(g, i, map[k][1], "arithmetic");
    }
}

static void op_constant(gen *g, int i)
{
    const tok *t = &g->ts->t[i];
    char text[64];
    if (t->len >= sizeof text)
        return;
    memcpy(text, g->src + t->off, t->len);
    text[t->len] = '\0';
    int hex = text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
    int real = !hex && strpbrk(text, ".eE") != NULL;
    char *end, to[80];
    if (real) {
        double x = strtod(text, &end);
        const char *suffix = end;
        if (x != 0) {
            snprintf(to, sizeof to, "0.0%s", suffix);
            add_tok(g, i, to, "constant");
            snprintf(to, sizeof to, "%.9g", 2 * x);
            if (!strpbrk(to, ".en"))
                strcat(to, ".0");
            strcat(to, suffix);
        } else {
            snprintf(to, sizeof to, "1.0%s", suffix);
        }
        add_tok(g, i, to, "constant");
        return;
    }
    unsigned long long n = strtoull(text, &end, 0);
    snprintf(to, sizeof to, "%llu%s", n + 1, end);
    add_tok(g, i, to, "constant");
    if (n != 0) {
        snprintf(to, sizeof to, "0%s", end);
        add_tok(g, i, to, "constant");
    }
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

static void op_call(gen *g, int i)
{
    const toks *ts = g->ts;
    if (ts->t[i].kind != T_ID || !is(ts, i + 1, "(") || is_any(ts, i, keywords) ||
        is_type_word(ts, i))
        return;
    int first[16], last[16];
    int n = call_args(ts, i + 1, first, last);
    if (n < 0)
        return;
    op_math(g, i, n);
    for (int a = 0; a + 1 < n; a++) {
        size_t a0 = ts->t[first[a]].off, a1 = ts->t[last[a]].off + ts->t[last[a]].len;
        size_t b0 = ts->t[first[a + 1]].off, b1 = ts->t[last[a + 1]].off + ts->t[last[a + 1]].len;
        if (a1 - a0 == b1 - b0 && memcmp(g->src + a0, g->src + b0, a1 - a0) == 0)
            continue;
        char *to = gr_xasprintf("%.*s%.*s%.*s", (int)(b1 - b0), g->src + b0,
                                (int)(b0 - a1), g->src + a1, (int)(a1 - a0), g->src + a0);
        char *what = gr_xasprintf("swap: %.*s, %.*s", (int)(a1 - a0), g->src + a0,
                                  (int)(b1 - b0), g->src + b0);
        add(g, first[a], a0, b1 - a0, to, what);
        free(to);
        free(what);
    }
}

/* for (init; cond; step): cond - 1. */
static void op_loop_bound(gen *g, int i)
{
    const toks *ts = g->ts;
    if (!is(ts, i, "for") || !is(ts, i + 1, "("))
        return;
    int close = closing(ts, i + 1), semi = 0;
    for (int k = i + 2; k < close; k++) {
        if (is(ts, k, "(")) {
            k = closing(ts, k);
            continue;
        }
        if (is(ts, k, ";") && ++semi == 2) {
            if (is(ts, k - 1, ";"))
                return;     /* no condition */
            add(g, i, ts->t[k].off, 0, " - 1", "loop bound: condition - 1");
            return;
        }
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
    toks ts = {0};
    tokenize(src, len, &ts);
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
    free(ts.t);
}

char *gr_mutation_apply(const char *src, size_t len, const gr_mutation *m)
{
    size_t tl = strlen(m->to), n = len - m->len + tl;
    char *s = gr_xmalloc(n + 1);
    memcpy(s, src, m->offset);
    memcpy(s + m->offset, m->to, tl);
    memcpy(s + m->offset + tl, src + m->offset + m->len, len - m->offset - m->len);
    s[n] = '\0';
    return s;
}

void gr_mutation_list_free(gr_mutation_list *l)
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
    toks ts = {0};
    tokenize(src, len, &ts);
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
    free(ts.t);
}

void gr_mutgen_functions_free(gr_cfunc_list *l)
{
    for (int i = 0; i < l->n; i++)
        free(l->f[i].args);
    free(l->f);
    memset(l, 0, sizeof *l);
}
