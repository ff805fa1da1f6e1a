/* mtok.c: the tokenizer, token predicates and operand types of `attnlab
 * mutate`'s operators (see mtok.h). */
#include "engine/mtok.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

static void tok_push(gr_mtoks *ts, int kind, size_t off, size_t len, int line, int depth)
{
    if (ts->n == ts->cap) {
        ts->cap = ts->cap ? 2 * ts->cap : 256;
        ts->t = gr_xrealloc(ts->t, (size_t)ts->cap * sizeof *ts->t);
    }
    ts->t[ts->n++] = (gr_mtok){kind, off, len, line, depth};
}

static const char *const puncts[] = {
    "<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
    "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "##",
};

/* Skip a quoted literal starting at s[i] (its quote); the index after it. */
static size_t skip_quoted(const char *s, size_t i, size_t len)
{
    char q = s[i++];
    while (i < len && s[i] != q && s[i] != '\n') {
        if (s[i] == '\\' && i + 1 < len)
            i++;
        i++;
    }
    return i < len ? i + 1 : i;
}

/* Skip what is no token at s[i] (space, a comment, a preprocessor line, a
   quoted literal); the index after it, or i when a token starts there. */
static size_t skip_blank(const char *s, size_t i, size_t len, int *line, int *at_line_start)
{
    char c = s[i];
    if (c == '\n') {
        ++*line, *at_line_start = 1;
        return i + 1;
    }
    if (isspace((unsigned char)c))
        return i + 1;
    if (c == '#' && *at_line_start) {   /* a preprocessor line, with continuations */
        while (i < len && s[i] != '\n') {
            if (s[i] == '\\' && i + 1 < len && s[i + 1] == '\n')
                ++*line, i++;
            i++;
        }
        return i;
    }
    *at_line_start = 0;
    if (c == '/' && i + 1 < len && s[i + 1] == '/') {
        while (i < len && s[i] != '\n')
            i++;
        return i;
    }
    if (c == '/' && i + 1 < len && s[i + 1] == '*') {
        for (i += 2; i < len && !(s[i] == '*' && i + 1 < len && s[i + 1] == '/'); i++)
            if (s[i] == '\n')
                ++*line;
        return i + 2 < len ? i + 2 : len;
    }
    if (c == '"' || c == '\'')
        return skip_quoted(s, i, len);
    return i;
}

/* The length of the token at s[i] and its kind. */
static size_t token_at(const char *s, size_t i, size_t len, int *kind)
{
    size_t e = i;
    char c = s[i];
    if (isalpha((unsigned char)c) || c == '_') {
        while (e < len && (isalnum((unsigned char)s[e]) || s[e] == '_'))
            e++;
        *kind = GR_MTOK_ID;
        return e - i;
    }
    if (isdigit((unsigned char)c) || (c == '.' && i + 1 < len && isdigit((unsigned char)s[i + 1]))) {
        while (e < len && (isalnum((unsigned char)s[e]) || s[e] == '.' || s[e] == '_' ||
                           ((s[e] == '+' || s[e] == '-') && strchr("eEpP", s[e - 1]))))
            e++;
        *kind = GR_MTOK_NUM;
        return e - i;
    }
    size_t plen = 1;
    for (size_t k = 0; k < sizeof puncts / sizeof *puncts; k++) {
        size_t l = strlen(puncts[k]);
        if (l > plen && i + l <= len && memcmp(s + i, puncts[k], l) == 0)
            plen = l;
    }
    *kind = GR_MTOK_PUNCT;
    return plen;
}

void gr_mtok_tokenize(const char *s, size_t len, gr_mtoks *ts)
{
    int line = 1, depth = 0, at_line_start = 1;
    size_t i = 0;
    memset(ts, 0, sizeof *ts);
    ts->src = s;
    while (i < len) {
        size_t j = skip_blank(s, i, len, &line, &at_line_start);
        if (j != i) {
            i = j;
            continue;
        }
        int kind;
        size_t n = token_at(s, i, len, &kind);
        tok_push(ts, kind, i, n, line, depth);
        if (s[i] == '{')
            depth++;
        else if (s[i] == '}' && depth > 0)
            depth--;
        i += n;
    }
}

void gr_mtok_free(gr_mtoks *ts)
{
    free(ts->t);
    free(ts->d);
    memset(ts, 0, sizeof *ts);
}

/* ---- token predicates ---------------------------------------------------------- */

int gr_mtok_is(const gr_mtoks *ts, int i, const char *text)
{
    if (i < 0 || i >= ts->n)
        return 0;
    size_t l = strlen(text);
    return ts->t[i].len == l && memcmp(ts->src + ts->t[i].off, text, l) == 0;
}

int gr_mtok_is_any(const gr_mtoks *ts, int i, const char *const *words)
{
    for (; *words; words++)
        if (gr_mtok_is(ts, i, *words))
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

int gr_mtok_is_type_word(const gr_mtoks *ts, int i)
{
    if (i < 0 || i >= ts->n || ts->t[i].kind != GR_MTOK_ID)
        return 0;
    const gr_mtok *t = &ts->t[i];
    return gr_mtok_is_any(ts, i, type_words) ||
           (t->len > 2 && memcmp(ts->src + t->off + t->len - 2, "_t", 2) == 0);
}

int gr_mtok_is_keyword(const gr_mtoks *ts, int i)
{
    return gr_mtok_is_any(ts, i, keywords);
}

int gr_mtok_ends_operand(const gr_mtoks *ts, int i)
{
    if (i < 0)
        return 0;
    const gr_mtok *t = &ts->t[i];
    if (t->kind == GR_MTOK_NUM)
        return 1;
    if (t->kind == GR_MTOK_ID)
        return !gr_mtok_is_type_word(ts, i) && !gr_mtok_is_keyword(ts, i);
    return gr_mtok_is(ts, i, ")") || gr_mtok_is(ts, i, "]");
}

static int opens(const gr_mtoks *ts, int k)
{
    return gr_mtok_is(ts, k, "(") || gr_mtok_is(ts, k, "[") || gr_mtok_is(ts, k, "{");
}

static int closes(const gr_mtoks *ts, int k)
{
    return gr_mtok_is(ts, k, ")") || gr_mtok_is(ts, k, "]") || gr_mtok_is(ts, k, "}");
}

int gr_mtok_closing(const gr_mtoks *ts, int i)
{
    int level = 0;
    for (int k = i; k < ts->n; k++) {
        if (opens(ts, k))
            level++;
        else if (closes(ts, k) && --level == 0)
            return k;
    }
    return -1;
}

/* The token opening the bracket closed at i, or -1. */
static int opening(const gr_mtoks *ts, int i)
{
    int level = 0;
    for (int k = i; k >= 0; k--) {
        if (closes(ts, k))
            level++;
        else if (opens(ts, k) && --level == 0)
            return k;
    }
    return -1;
}

/* ---- what an operand can hold --------------------------------------------------- */

static void decl_push(gr_mtoks *ts, int name, int real, int ptr, int func)
{
    if ((ts->nd & 63) == 0)
        ts->d = gr_xrealloc(ts->d, ((size_t)ts->nd + 64) * sizeof *ts->d);
    ts->d[ts->nd++] = (gr_mtok_decl){ts->t[name].off, ts->t[name].len, (unsigned char)real,
                                     (unsigned char)ptr, (unsigned char)func};
}

/* The declarators after the specifiers ending before token k (real: they
   named float or double): "*p, x[4], f(...)"; stops at a cast's ")", at a
   parameter list's next type and at a function's body. */
static void read_declarators(gr_mtoks *ts, int k, int real)
{
    for (;;) {
        int ptr = 0;
        for (; gr_mtok_is(ts, k, "*") || gr_mtok_is(ts, k, "const") ||
               gr_mtok_is(ts, k, "restrict"); k++)
            ptr |= gr_mtok_is(ts, k, "*");
        if (k >= ts->n || ts->t[k].kind != GR_MTOK_ID || gr_mtok_is_keyword(ts, k))
            return;
        int name = k++;
        decl_push(ts, name, real, ptr || gr_mtok_is(ts, k, "["), gr_mtok_is(ts, k, "("));
        while (k < ts->n && !gr_mtok_is(ts, k, ",") && !gr_mtok_is(ts, k, ";") &&
               !gr_mtok_is(ts, k, "{") && !closes(ts, k)) {
            int c = opens(ts, k) ? gr_mtok_closing(ts, k) : k;
            if (c < 0)
                return;
            k = c + 1;
        }
        if (!gr_mtok_is(ts, k, ",") || gr_mtok_is_type_word(ts, k + 1))
            return;
        k++;
    }
}

void gr_mtok_types(gr_mtoks *ts)
{
    for (int i = 0; i < ts->n; i++) {
        if (!gr_mtok_is_type_word(ts, i) || gr_mtok_is_type_word(ts, i - 1) ||
            gr_mtok_is(ts, i, "typedef"))
            continue;
        int real = 0, k = i;
        for (; gr_mtok_is_type_word(ts, k); k++)
            real |= gr_mtok_is(ts, k, "float") || gr_mtok_is(ts, k, "double");
        read_declarators(ts, k, real);
        i = k - 1;
    }
}

enum { DECL_FUNC = 8 };    /* lookup's bit for a function, beside the classes */

/* Every declaration of token i's name, merged: GR_MTOK_REAL, GR_MTOK_PTR and
   DECL_FUNC. */
static int lookup(const gr_mtoks *ts, int i)
{
    int m = 0;
    const gr_mtok *t = &ts->t[i];
    for (int k = 0; k < ts->nd; k++)
        if (ts->d[k].len == t->len && memcmp(ts->src + ts->d[k].off, ts->src + t->off, t->len) == 0)
            m |= (ts->d[k].real ? GR_MTOK_REAL : 0) | (ts->d[k].ptr ? GR_MTOK_PTR : 0) |
                 (ts->d[k].func ? DECL_FUNC : 0);
    return m;
}

static const char *const real_names[] = {
    "INFINITY", "NAN", "HUGE_VAL", "HUGE_VALF", "FLT_MAX", "FLT_MIN", "FLT_EPSILON",
    "DBL_MAX", "DBL_MIN", "DBL_EPSILON", "M_PI", "M_E", "M_LN2", "M_SQRT2",
    "expf", "exp", "sqrtf", "sqrt", "logf", "log", "fabsf", "fabs", "fmaxf", "fmax",
    "fminf", "fmin", "powf", "pow", "tanhf", "tanh", "floorf", "floor", "ceilf", "ceil",
    "roundf", "round", "log1pf", "log1p", "expm1f", "expm1", "log2f", "log2", "exp2f",
    "exp2", "fmodf", "fmod", "float", "double", NULL,
};

static int is_real_literal(const gr_mtoks *ts, int i)
{
    const gr_mtok *t = &ts->t[i];
    const char *s = ts->src + t->off;
    int hex = t->len > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    for (size_t k = 0; k < t->len; k++)
        if (s[k] == '.' || (hex ? s[k] == 'p' || s[k] == 'P' : s[k] == 'e' || s[k] == 'E'))
            return 1;
    return 0;
}

/* The class of the name at token i as it is used there (indexed, called,
   dereferenced or bare); *skip_to the last token read. */
static int name_class(const gr_mtoks *ts, int i, int *skip_to)
{
    if (gr_mtok_is_any(ts, i, real_names))
        return GR_MTOK_REAL;
    int m = lookup(ts, i);
    if (gr_mtok_is(ts, i + 1, "(")) {   /* a call: what it returns */
        int c = gr_mtok_closing(ts, i + 1);
        *skip_to = c < 0 ? i : c;
        m = (m & DECL_FUNC) ? m : 0;     /* an undeclared function: an integer, a guess */
    }
    int deref = gr_mtok_is(ts, i + 1, "[") ||
                (gr_mtok_is(ts, i - 1, "*") && !gr_mtok_ends_operand(ts, i - 2));
    if ((m & GR_MTOK_PTR) && !deref)
        return GR_MTOK_PTR | ((m & GR_MTOK_REAL) ? GR_MTOK_PTR_REAL : 0);
    return m & GR_MTOK_REAL;
}

int gr_mtok_class(const gr_mtoks *ts, int a, int b)
{
    int cls = 0;
    for (int k = a; k <= b && k < ts->n; k++) {
        int skip = k;
        if (gr_mtok_is(ts, k, "[")) {
            skip = gr_mtok_closing(ts, k);          /* an index: an integer whatever it is */
        } else if (gr_mtok_is(ts, k, "sizeof")) {
            skip = gr_mtok_is(ts, k + 1, "(") ? gr_mtok_closing(ts, k + 1) : k + 1;
        } else if (ts->t[k].kind == GR_MTOK_NUM) {
            cls |= is_real_literal(ts, k) ? GR_MTOK_REAL : 0;
        } else if (ts->t[k].kind == GR_MTOK_ID && !gr_mtok_is_keyword(ts, k)) {
            cls |= name_class(ts, k, &skip);
        }
        if (skip > k)
            k = skip;
    }
    return cls;
}

static const char *const stops[] = {
    ";", ",", "=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", "?", ":",
    "&&", "||", "<", ">", "<=", ">=", "==", "!=", "&", "|", "^", "<<", ">>", "return",
    "case", NULL,
};

/* Does token k end an operand chain (see gr_mtok_operands)? */
static int chain_stop(const gr_mtoks *ts, int k, int mul)
{
    if (k < 0 || k >= ts->n || opens(ts, k) || closes(ts, k) || gr_mtok_is_any(ts, k, stops))
        return 1;
    return mul && (gr_mtok_is(ts, k, "+") || gr_mtok_is(ts, k, "-")) &&
           gr_mtok_ends_operand(ts, k - 1);
}

void gr_mtok_operands(const gr_mtoks *ts, int i, int mul, int *a, int *b)
{
    int k = i - 1;
    for (;;) {
        if ((gr_mtok_is(ts, k, ")") || gr_mtok_is(ts, k, "]")) && opening(ts, k) >= 0)
            k = opening(ts, k) - 1;
        else if (chain_stop(ts, k, mul))
            break;
        else
            k--;
    }
    *a = k + 1;
    for (k = i + 1;;) {
        if ((gr_mtok_is(ts, k, "(") || gr_mtok_is(ts, k, "[")) && gr_mtok_closing(ts, k) >= 0)
            k = gr_mtok_closing(ts, k) + 1;
        else if (chain_stop(ts, k, mul))
            break;
        else
            k++;
    }
    *b = k - 1;
}
