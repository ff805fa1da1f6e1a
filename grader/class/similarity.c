/* similarity.c: tokenizer, winnowing, pairs and regions (see similarity.h). */
#include "class/similarity.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* ---- the tokenizer ------------------------------------------------------------------ */

/* Multi-character punctuators, longest first so the first prefix that matches
   is the longest; code 256 + index. */
static const char *const punct[] = {
    ">>=", "<<=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
    "*=", "/=", "%=", "+=", "-=", "&=", "^=", "|=", "##",
};
#define N_PUNCT ((int)(sizeof punct / sizeof punct[0]))

/* C11's keywords keep their identity (code 512 + index): they are the
   structure of the code, where identifiers are only names. */
static const char *const keywords[] = {
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double",
    "else", "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long",
    "register", "restrict", "return", "short", "signed", "sizeof", "static", "struct",
    "switch", "typedef", "union", "unsigned", "void", "volatile", "while", "_Alignas",
    "_Alignof", "_Atomic", "_Bool", "_Complex", "_Generic", "_Imaginary", "_Noreturn",
    "_Static_assert", "_Thread_local",
};
#define N_KEYWORDS ((int)(sizeof keywords / sizeof keywords[0]))

static int is_ident_start(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int is_ident_char(int c)
{
    return is_ident_start(c) || (c >= '0' && c <= '9');
}

static int is_digit(int c)
{
    return c >= '0' && c <= '9';
}

/* The code of the identifier or keyword s[0..n). */
static uint32_t word_code(const char *s, size_t n)
{
    for (int i = 0; i < N_KEYWORDS; i++)
        if (strlen(keywords[i]) == n && memcmp(keywords[i], s, n) == 0)
            return 512u + (uint32_t)i;
    return GR_SIM_ID;
}

/* A tokenizer's position: where it is and on which line. */
typedef struct lexer {
    const char *s;
    size_t i, len;
    int line;
} lexer;

static int peek(const lexer *lx, size_t ahead)
{
    return lx->i + ahead < lx->len ? (unsigned char)lx->s[lx->i + ahead] : -1;
}

/* Step over one character, counting lines. */
static void advance(lexer *lx)
{
    if (lx->s[lx->i] == '\n')
        lx->line++;
    lx->i++;
}

/* Skip whitespace, line splices (backslash-newline) and comments. */
static void skip_space(lexer *lx)
{
    while (lx->i < lx->len) {
        int c = peek(lx, 0);
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
            advance(lx);
        } else if (c == '\\' && (peek(lx, 1) == '\n' ||
                                 (peek(lx, 1) == '\r' && peek(lx, 2) == '\n'))) {
            advance(lx);
        } else if (c == '/' && peek(lx, 1) == '/') {
            while (lx->i < lx->len && peek(lx, 0) != '\n')
                advance(lx);
        } else if (c == '/' && peek(lx, 1) == '*') {
            advance(lx);
            advance(lx);
            while (lx->i < lx->len && !(peek(lx, 0) == '*' && peek(lx, 1) == '/'))
                advance(lx);
            if (lx->i < lx->len) {       /* an unterminated comment runs to the end */
                advance(lx);
                advance(lx);
            }
        } else {
            return;
        }
    }
}

/* Skip a quoted literal opened by quote at the current position, escapes
   included; it ends at its closing quote or, unterminated, at the line's end. */
static void skip_quoted(lexer *lx, int quote)
{
    advance(lx);
    while (lx->i < lx->len) {
        int c = peek(lx, 0);
        if (c == '\\' && lx->i + 1 < lx->len) {
            advance(lx);
            advance(lx);
        } else if (c == quote) {
            advance(lx);
            return;
        } else if (c == '\n') {
            return;
        } else {
            advance(lx);
        }
    }
}

/* A preprocessing number: a digit (or . digit), then digits, letters, _, .,
   and a sign right after e, E, p or P. */
static void skip_number(lexer *lx)
{
    int prev = 0;
    while (lx->i < lx->len) {
        int c = peek(lx, 0);
        if (is_ident_char(c) || c == '.' ||
            ((c == '+' || c == '-') && (prev == 'e' || prev == 'E' || prev == 'p' || prev == 'P'))) {
            prev = c;
            advance(lx);
        } else {
            return;
        }
    }
}

/* The next token's code, the lexer moved past it. Call only with a token left. */
static uint32_t next_token(lexer *lx)
{
    int c = peek(lx, 0);
    const char *at = lx->s + lx->i;
    if (is_ident_start(c)) {
        size_t n = 0;
        while (is_ident_char(peek(lx, n)))
            n++;
        /* an encoding prefix makes the word part of a literal: L"..." u8'x' */
        int q = peek(lx, n);
        if ((q == '"' || q == '\'') && ((n == 1 && (c == 'L' || c == 'u' || c == 'U')) ||
                                        (n == 2 && at[0] == 'u' && at[1] == '8'))) {
            lx->i += n;
            skip_quoted(lx, q);
            return q == '"' ? GR_SIM_STR : GR_SIM_CHR;
        }
        lx->i += n;
        return word_code(at, n);
    }
    if (is_digit(c) || (c == '.' && is_digit(peek(lx, 1)))) {
        skip_number(lx);
        return GR_SIM_NUM;
    }
    if (c == '"' || c == '\'') {
        skip_quoted(lx, c);
        return c == '"' ? GR_SIM_STR : GR_SIM_CHR;
    }
    for (int p = 0; p < N_PUNCT; p++) {
        size_t n = strlen(punct[p]);
        if (lx->i + n <= lx->len && memcmp(at, punct[p], n) == 0) {
            lx->i += n;
            return 256u + (uint32_t)p;
        }
    }
    advance(lx);
    return (uint32_t)c;                  /* one character: ( ) { } ; + and any other byte */
}

void gr_sim_tokenize(gr_sim_tokens *out, const char *text, size_t len)
{
    lexer lx = { .s = text, .i = 0, .len = len, .line = 1 };
    long cap = 64;
    out->code = gr_xmalloc((size_t)cap * sizeof *out->code);
    out->line = gr_xmalloc((size_t)cap * sizeof *out->line);
    out->n = 0;
    for (;;) {
        skip_space(&lx);
        if (lx.i >= lx.len)
            break;
        if (out->n == cap) {
            cap *= 2;
            out->code = gr_xrealloc(out->code, (size_t)cap * sizeof *out->code);
            out->line = gr_xrealloc(out->line, (size_t)cap * sizeof *out->line);
        }
        out->line[out->n] = lx.line;
        out->code[out->n] = next_token(&lx);
        out->n++;
    }
}

void gr_sim_tokens_free(gr_sim_tokens *t)
{
    free(t->code);
    free(t->line);
    memset(t, 0, sizeof *t);
}

/* ---- fingerprints ------------------------------------------------------------------- */

/* splitmix64's finaliser: every input bit reaches every output bit, so the
   minimum of a window is a fair sample of the window's k-grams. */
static uint64_t mix64(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

long gr_sim_kgram_hashes(uint64_t *h, const uint32_t *code, long n, int k)
{
    if (n < k)
        return 0;
    for (long i = 0; i + k <= n; i++) {
        uint64_t x = 0x9e3779b97f4a7c15ULL;      /* FNV-style chain over the k codes */
        for (int j = 0; j < k; j++)
            x = (x ^ code[i + j]) * 0x100000001b3ULL;
        h[i] = mix64(x);
    }
    return n - k + 1;
}

long gr_sim_winnow(gr_sim_fp *fp, const uint64_t *h, long n, int w)
{
    long nf = 0, last = -1;
    if (n <= 0)
        return 0;
    long windows = n >= w ? n - w + 1 : 1;   /* a short file is one window */
    long width = n >= w ? w : n;
    for (long s = 0; s < windows; s++) {
        long best = s;
        for (long i = s + 1; i < s + width; i++)
            if (h[i] <= h[best])             /* <=: the rightmost minimum on a tie */
                best = i;
        if (best != last) {
            fp[nf].hash = h[best];
            fp[nf].pos = best;
            nf++;
            last = best;
        }
    }
    return nf;
}

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

void gr_sim_base_add(gr_sim_base *b, const char *text, size_t len, int k)
{
    gr_sim_tokens t;
    gr_sim_tokenize(&t, text, len);
    long room = t.n >= k ? t.n - k + 1 : 0;
    b->hash = gr_xrealloc(b->hash, (size_t)(b->n + room + 1) * sizeof *b->hash);
    b->n += gr_sim_kgram_hashes(b->hash + b->n, t.code, t.n, k);
    gr_sim_tokens_free(&t);
    qsort(b->hash, (size_t)b->n, sizeof *b->hash, cmp_u64);
    long u = 0;
    for (long i = 0; i < b->n; i++)
        if (u == 0 || b->hash[i] != b->hash[u - 1])
            b->hash[u++] = b->hash[i];
    b->n = u;
}

int gr_sim_base_has(const gr_sim_base *b, uint64_t hash)
{
    return b->n > 0 && bsearch(&hash, b->hash, (size_t)b->n, sizeof *b->hash, cmp_u64) != NULL;
}

void gr_sim_base_free(gr_sim_base *b)
{
    free(b->hash);
    b->hash = NULL;
    b->n = 0;
}

/* ---- documents ------------------------------------------------------------------------ */

static int cmp_fp(const void *x, const void *y)
{
    const gr_sim_fp *a = x, *b = y;
    if (a->hash != b->hash)
        return (a->hash > b->hash) - (a->hash < b->hash);
    return (a->pos > b->pos) - (a->pos < b->pos);
}

/* Offsets of the lines of d->text, for showing regions. */
static void index_lines(gr_sim_doc *d)
{
    int cap = 64;
    d->line_start = gr_xmalloc((size_t)cap * sizeof *d->line_start);
    d->n_lines = 0;
    for (size_t i = 0; i <= d->len; i++) {
        if (i == d->len && i > 0 && d->text[i - 1] == '\n')
            break;                           /* no empty line after the last newline */
        if (i == 0 || d->text[i - 1] == '\n') {
            if (d->n_lines == cap) {
                cap *= 2;
                d->line_start = gr_xrealloc(d->line_start, (size_t)cap * sizeof *d->line_start);
            }
            d->line_start[d->n_lines++] = (long)i;
        }
    }
}

void gr_sim_doc_init(gr_sim_doc *d, char *student, char *path, char *text, size_t len,
                     const gr_sim_base *base, int k, int w)
{
    memset(d, 0, sizeof *d);
    d->student = student;
    d->path = path;
    d->text = text;
    d->len = len;
    index_lines(d);
    gr_sim_tokenize(&d->tok, text, len);

    long n = d->tok.n;
    uint64_t *h = gr_xmalloc((size_t)(n + 1) * sizeof *h);
    long nh = gr_sim_kgram_hashes(h, d->tok.code, n, k);

    /* Mark the tokens of every k-gram the stub or header also has: no match
       starts from them or grows into them. */
    d->in_base = gr_xcalloc((size_t)n + 1, 1);
    for (long i = 0; i < nh; i++)
        if (gr_sim_base_has(base, h[i]))
            memset(d->in_base + i, 1, (size_t)k);

    /* A fingerprint counts only when none of its k tokens is the base's: one
       that straddles a signature and the first token of a body says nothing
       about the body. before[i] = base tokens among the first i. */
    long *before = gr_xmalloc((size_t)(n + 1) * sizeof *before);
    before[0] = 0;
    for (long i = 0; i < n; i++)
        before[i + 1] = before[i] + d->in_base[i];
    d->fp = gr_xmalloc((size_t)(nh + 1) * sizeof *d->fp);
    long nf = gr_sim_winnow(d->fp, h, nh, w), kept = 0;
    for (long i = 0; i < nf; i++)
        if (before[d->fp[i].pos + k] == before[d->fp[i].pos])
            d->fp[kept++] = d->fp[i];
    free(before);
    d->n_fp = kept;
    qsort(d->fp, (size_t)kept, sizeof *d->fp, cmp_fp);
    for (long i = 0; i < kept; i++)
        if (i == 0 || d->fp[i].hash != d->fp[i - 1].hash)
            d->n_distinct++;
    free(h);
}

void gr_sim_doc_free(gr_sim_doc *d)
{
    for (int i = 0; i < d->n_same; i++)
        free(d->same[i]);
    free(d->same);
    free(d->student);
    free(d->path);
    free(d->text);
    free(d->line_start);
    gr_sim_tokens_free(&d->tok);
    free(d->in_base);
    free(d->fp);
    memset(d, 0, sizeof *d);
}

int gr_sim_doc_students(const gr_sim_doc *d)
{
    return 1 + d->n_same;
}

const char *gr_sim_doc_line(const gr_sim_doc *d, int line, size_t *len)
{
    if (line < 1 || line > d->n_lines) {
        *len = 0;
        return "";
    }
    const char *s = d->text + d->line_start[line - 1];
    const char *end = line < d->n_lines ? d->text + d->line_start[line] : d->text + d->len;
    if (end > s && end[-1] == '\n')
        end--;
    if (end > s && end[-1] == '\r')
        end--;
    *len = (size_t)(end - s);
    return s;
}

/* ---- pairs ------------------------------------------------------------------------------- */

/* The end of the run of fingerprints with fp[i]'s hash. */
static long run_end(const gr_sim_fp *fp, long n, long i)
{
    long j = i + 1;
    while (j < n && fp[j].hash == fp[i].hash)
        j++;
    return j;
}

long gr_sim_shared(const gr_sim_doc *a, const gr_sim_doc *b)
{
    long i = 0, j = 0, shared = 0;
    while (i < a->n_fp && j < b->n_fp) {
        uint64_t x = a->fp[i].hash, y = b->fp[j].hash;
        if (x < y) {
            i = run_end(a->fp, a->n_fp, i);
        } else if (y < x) {
            j = run_end(b->fp, b->n_fp, j);
        } else {
            shared++;
            i = run_end(a->fp, a->n_fp, i);
            j = run_end(b->fp, b->n_fp, j);
        }
    }
    return shared;
}

long gr_sim_discount_common(gr_sim_doc *docs, int n, int max_files)
{
    if (max_files <= 0)
        return 0;
    /* every doc's distinct hashes, sorted: a run longer than max_files is common */
    long total = 0;
    for (int i = 0; i < n; i++)
        total += docs[i].n_distinct;
    uint64_t *all = gr_xmalloc((size_t)(total + 1) * sizeof *all);
    long m = 0, n_common = 0;
    for (int i = 0; i < n; i++)
        for (long f = 0; f < docs[i].n_fp; f = run_end(docs[i].fp, docs[i].n_fp, f))
            all[m++] = docs[i].fp[f].hash;
    qsort(all, (size_t)m, sizeof *all, cmp_u64);
    for (long i = 0, j; i < m; i = j) {
        for (j = i + 1; j < m && all[j] == all[i]; j++)
            ;
        if (j - i > max_files)
            all[n_common++] = all[i];        /* in place: n_common <= i */
    }
    const gr_sim_base common = {all, n_common};   /* sorted and distinct, as a base is */
    for (int i = 0; n_common && i < n; i++) {
        gr_sim_doc *d = &docs[i];
        long kept = 0;
        d->n_distinct = 0;
        for (long f = 0; f < d->n_fp; f++) {
            if (gr_sim_base_has(&common, d->fp[f].hash))
                continue;
            d->n_distinct += kept == 0 || d->fp[kept - 1].hash != d->fp[f].hash;
            d->fp[kept++] = d->fp[f];
        }
        d->n_fp = kept;
    }
    free(all);
    return n_common;
}

static int cmp_pair(const void *x, const void *y)
{
    const gr_sim_pair *p = x, *q = y;
    if (p->jaccard != q->jaccard)
        return p->jaccard > q->jaccard ? -1 : 1;
    if (p->shared != q->shared)
        return p->shared > q->shared ? -1 : 1;
    if (p->a != q->a)
        return p->a - q->a;
    return p->b - q->b;
}

long gr_sim_rank_pairs(gr_sim_pair **pairs, const gr_sim_doc *docs, int n)
{
    long np = 0, cap = 0;
    *pairs = NULL;
    for (int a = 0; a < n; a++) {
        for (int b = a + 1; b < n; b++) {
            long s = gr_sim_shared(&docs[a], &docs[b]);
            if (s == 0)
                continue;
            if (np == cap) {
                cap = cap ? 2 * cap : 64;
                *pairs = gr_xrealloc(*pairs, (size_t)cap * sizeof **pairs);
            }
            gr_sim_pair *p = &(*pairs)[np++];
            p->a = a;
            p->b = b;
            p->shared = s;
            p->jaccard = (double)s / (double)(docs[a].n_distinct + docs[b].n_distinct - s);
        }
    }
    if (np > 1)
        qsort(*pairs, (size_t)np, sizeof **pairs, cmp_pair);
    return np;
}

/* ---- regions ------------------------------------------------------------------------------- */

/* At most this many occurrences of one hash in each file seed regions: a
   k-gram repeated more often is an idiom, and the pairs would grow as its square. */
#define MAX_SEEDS_PER_HASH 8

/* 1 when a's token pa is already inside a region on the diagonal pa - pb. */
static int covered(const gr_sim_region *r, int n, long pa, long pb)
{
    for (int i = 0; i < n; i++)
        if (r[i].a0 - r[i].b0 == pa - pb && pa >= r[i].a0 && pa < r[i].a1)
            return 1;
    return 0;
}

/* Grow the match of k tokens at (pa, pb) both ways while the streams agree
   and neither side is the base's text. 0 and *r, or -1 when the k tokens
   themselves differ (a hash collision). */
static int grow(gr_sim_region *r, const gr_sim_doc *a, const gr_sim_doc *b, long pa, long pb,
                int k)
{
    const uint32_t *ca = a->tok.code, *cb = b->tok.code;
    if (pa + k > a->tok.n || pb + k > b->tok.n ||
        memcmp(ca + pa, cb + pb, (size_t)k * sizeof *ca) != 0)
        return -1;
    long a0 = pa, b0 = pb, a1 = pa + k, b1 = pb + k;
    while (a0 > 0 && b0 > 0 && ca[a0 - 1] == cb[b0 - 1] && !a->in_base[a0 - 1] &&
           !b->in_base[b0 - 1]) {
        a0--;
        b0--;
    }
    while (a1 < a->tok.n && b1 < b->tok.n && ca[a1] == cb[b1] && !a->in_base[a1] &&
           !b->in_base[b1]) {
        a1++;
        b1++;
    }
    *r = (gr_sim_region){ a0, a1, b0, b1 };
    return 0;
}

static int cmp_region_len(const void *x, const void *y)
{
    const gr_sim_region *p = x, *q = y;
    long lp = p->a1 - p->a0, lq = q->a1 - q->a0;
    if (lp != lq)
        return lp > lq ? -1 : 1;
    return (p->a0 > q->a0) - (p->a0 < q->a0);
}

static int cmp_region_pos(const void *x, const void *y)
{
    const gr_sim_region *p = x, *q = y;
    return (p->a0 > q->a0) - (p->a0 < q->a0);
}

static int overlaps(long x0, long x1, long y0, long y1)
{
    return x0 < y1 && y0 < x1;
}

int gr_sim_regions(gr_sim_region **regions, const gr_sim_doc *a, const gr_sim_doc *b, int k)
{
    gr_sim_region *r = NULL;
    int n = 0, cap = 0;
    long i = 0, j = 0;
    while (i < a->n_fp && j < b->n_fp) {
        uint64_t x = a->fp[i].hash, y = b->fp[j].hash;
        long ie = run_end(a->fp, a->n_fp, i), je = run_end(b->fp, b->n_fp, j);
        if (x == y) {
            for (long p = i; p < ie && p < i + MAX_SEEDS_PER_HASH; p++) {
                for (long q = j; q < je && q < j + MAX_SEEDS_PER_HASH; q++) {
                    if (covered(r, n, a->fp[p].pos, b->fp[q].pos))
                        continue;
                    gr_sim_region g;
                    if (grow(&g, a, b, a->fp[p].pos, b->fp[q].pos, k) != 0)
                        continue;
                    if (n == cap) {
                        cap = cap ? 2 * cap : 16;
                        r = gr_xrealloc(r, (size_t)cap * sizeof *r);
                    }
                    r[n++] = g;
                }
            }
        }
        if (x <= y)
            i = ie;
        if (y <= x)
            j = je;
    }

    /* Longest first, keep a region only where it overlaps none kept in either
       file: one copied block shows once, not once per seed or per repeat. */
    if (n > 1)
        qsort(r, (size_t)n, sizeof *r, cmp_region_len);
    int kept = 0;
    for (int s = 0; s < n; s++) {
        int clash = 0;
        for (int t = 0; t < kept && !clash; t++)
            clash = overlaps(r[s].a0, r[s].a1, r[t].a0, r[t].a1) ||
                    overlaps(r[s].b0, r[s].b1, r[t].b0, r[t].b1);
        if (!clash)
            r[kept++] = r[s];
    }
    if (kept > 1)
        qsort(r, (size_t)kept, sizeof *r, cmp_region_pos);
    if (kept == 0) {
        free(r);
        r = NULL;
    }
    *regions = r;
    return kept;
}

int gr_sim_region_lines(const gr_sim_region *r, int n, const gr_sim_doc *d, int side)
{
    unsigned char *seen = gr_xcalloc((size_t)d->n_lines + 2, 1);
    int count = 0;
    for (int i = 0; i < n; i++) {
        long t0 = side ? r[i].b0 : r[i].a0, t1 = side ? r[i].b1 : r[i].a1;
        for (int l = d->tok.line[t0]; l <= d->tok.line[t1 - 1] && l <= d->n_lines; l++)
            if (!seen[l]) {
                seen[l] = 1;
                count++;
            }
    }
    free(seen);
    return count;
}
