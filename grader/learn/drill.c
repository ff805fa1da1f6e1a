/* drill.c: loading the question banks of data/drills/ and judging answers
 * (see drill.h).
 *
 * A bank is read with the shared YAML reader (lib/sup_yamlread.h): each
 * mapping is walked against a table of its keys, so an unknown key, a key
 * given twice or a missing one is "path:line:column: ...". After the walk
 * each question is checked as a whole: its kind has what it needs (a choice
 * question an answer among its choices, a numeric one a tolerance and a
 * compute: that libattn agrees with), and it has an explanation and a lesson.
 */
#include "learn/drill.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attn.h"
#include "labmod.h"
#include "sup_yamlread.h"
#include "util.h"

static const char *const kind_names[] = { "choice", "true_false", "short", "numeric" };
#define N_KINDS 4

/* Largest row a compute: op takes; the prompts show rows a person can add up. */
#define MAX_KEYS 64

/* ---- freeing ------------------------------------------------------------------------- */

static void free_list(char **list, int n)
{
    for (int i = 0; i < n; i++)
        free(list[i]);
    free(list);
}

void gr_drill_question_free(gr_drill_question *q)
{
    free(q->id);
    free(q->prompt);
    free_list(q->choices, q->n_choices);
    free(q->answer_text);
    free_list(q->accept, q->n_accept);
    free_list(q->patterns, q->n_patterns);
    free(q->explanation);
    free(q->lesson);
    free(q->section);
    gr_drill_worked_free(q->worked);
    memset(q, 0, sizeof *q);
}

void gr_drill_bank_free(gr_drill_bank *b)
{
    for (int i = 0; i < b->n; i++)
        gr_drill_question_free(&b->q[i]);
    free(b->q);
    free(b->name);
    free(b->title);
    free(b->path);
    memset(b, 0, sizeof *b);
}

void gr_drill_banks_free(gr_drill_bank *banks, int n)
{
    for (int i = 0; i < n; i++)
        gr_drill_bank_free(&banks[i]);
    free(banks);
}

/* ---- compute: the answer of a numeric question, from libattn ------------------------ */

/* A compute: mapping as read: lists of numbers and single numbers, each with
   its count or a flag saying it was given. */
typedef struct compute_args {
    const char *op;
    const yaml_node_t *op_node;
    float scores[MAX_KEYS], scores2[MAX_KEYS], g[MAX_KEYS], qv[MAX_KEYS], kv[MAX_KEYS],
          v[MAX_KEYS];
    int n_scores, n_scores2, n_g, n_q, n_k, n_v;
    unsigned char mask[MAX_KEYS];
    int n_mask;
    float shape[3], index[3];
    int n_shape, n_index;
    double temperature, dk, key, heads, head, sink, rows, cols, count, divisor, p, w, tq, tk,
           query, bottom_right, window, kv_heads;
    int has_temperature, has_dk, has_key, has_heads, has_head, has_sink, has_rows,
        has_cols, has_count, has_divisor, has_p, has_w, has_tq, has_tk, has_query,
        has_bottom_right, has_window, has_kv_heads;
} compute_args;

/* A list of at most MAX_KEYS finite numbers into out[0..*n). */
static int rd_floats(yr_doc *d, const yaml_node_t *v, const char *label, float *out, int *n,
                     int cap)
{
    int m = 0;
    if (yr_get_seq(d, v, label, "[2, 1, -1, 0.5]", &m) != 0)
        return -1;
    if (m == 0 || m > cap)
        return yr_fail_at(d, v, "%s: give 1 to %d numbers, got %d", label, cap, m);
    for (int i = 0; i < m; i++) {
        double x;
        if (yr_get_double(d, yr_item(d, v, i), label, &x) != 0)
            return -1;
        out[i] = (float)x;
    }
    *n = m;
    return 0;
}

#define RD_LIST(name, field, count, cap)                                          \
    static int rd_c_##name(yr_doc *d, const yaml_node_t *v, void *t)              \
    {                                                                              \
        compute_args *a = t;                                                       \
        return rd_floats(d, v, #name, a->field, &a->count, cap);                   \
    }
RD_LIST(scores, scores, n_scores, MAX_KEYS)
RD_LIST(scores2, scores2, n_scores2, MAX_KEYS)
RD_LIST(v, v, n_v, MAX_KEYS)
RD_LIST(g, g, n_g, MAX_KEYS)
RD_LIST(q, qv, n_q, MAX_KEYS)
RD_LIST(k, kv, n_k, MAX_KEYS)
RD_LIST(shape, shape, n_shape, 3)
RD_LIST(index, index, n_index, 3)

#define RD_NUM(name)                                                               \
    static int rd_c_##name(yr_doc *d, const yaml_node_t *v, void *t)              \
    {                                                                              \
        compute_args *a = t;                                                       \
        a->has_##name = 1;                                                         \
        return yr_get_double(d, v, #name, &a->name);                               \
    }
RD_NUM(temperature)
RD_NUM(dk)
RD_NUM(key)
RD_NUM(heads)
RD_NUM(head)
RD_NUM(sink)
RD_NUM(rows)
RD_NUM(cols)
RD_NUM(count)
RD_NUM(divisor)
RD_NUM(p)
RD_NUM(w)
RD_NUM(tq)
RD_NUM(tk)
RD_NUM(query)
RD_NUM(bottom_right)
RD_NUM(window)
RD_NUM(kv_heads)

static int rd_c_mask(yr_doc *d, const yaml_node_t *v, void *t)
{
    compute_args *a = t;
    float m[MAX_KEYS];
    if (rd_floats(d, v, "mask", m, &a->n_mask, MAX_KEYS) != 0)
        return -1;
    for (int i = 0; i < a->n_mask; i++) {
        if (m[i] != 0.0f && m[i] != 1.0f)
            return yr_fail_at(d, yr_item(d, v, i), "mask: each value is 0 (attend) or 1 "
                              "(blocked)");
        a->mask[i] = (unsigned char)(m[i] == 1.0f);
    }
    return 0;
}

static int rd_c_op(yr_doc *d, const yaml_node_t *v, void *t)
{
    compute_args *a = t;
    a->op_node = v;
    return yr_get_string(d, v, "op", YR_NONEMPTY, &a->op);
}

static const yr_field compute_fields[] = {
    {"op", 1, rd_c_op},          {"scores", 0, rd_c_scores}, {"mask", 0, rd_c_mask},
    {"temperature", 0, rd_c_temperature}, {"dk", 0, rd_c_dk}, {"key", 0, rd_c_key},
    {"g", 0, rd_c_g},            {"q", 0, rd_c_q},           {"k", 0, rd_c_k},
    {"heads", 0, rd_c_heads},    {"head", 0, rd_c_head},     {"sink", 0, rd_c_sink},
    {"shape", 0, rd_c_shape},    {"index", 0, rd_c_index},   {"rows", 0, rd_c_rows},
    {"cols", 0, rd_c_cols},      {"count", 0, rd_c_count},   {"divisor", 0, rd_c_divisor},
    {"v", 0, rd_c_v},            {"p", 0, rd_c_p},           {"w", 0, rd_c_w},
    {"tq", 0, rd_c_tq},          {"tk", 0, rd_c_tk},         {"query", 0, rd_c_query},
    {"bottom_right", 0, rd_c_bottom_right}, {"window", 0, rd_c_window},
    {"scores2", 0, rd_c_scores2}, {"kv_heads", 0, rd_c_kv_heads},
};

/* x is a whole number in [lo, hi]. */
static int whole(double x, double lo, double hi)
{
    return x == floor(x) && x >= lo && x <= hi;
}

/* Softmax of the compute's row after its temperature, scale and mask, into w. */
static long compute_weights(float *w, const compute_args *a)
{
    float s[MAX_KEYS];
    memcpy(s, a->scores, (size_t)a->n_scores * sizeof *s);
    if (a->has_dk)
        attn_temperature(s, sqrtf((float)a->dk), a->n_scores);
    if (a->has_temperature)
        attn_temperature(s, (float)a->temperature, a->n_scores);
    if (a->n_mask)
        attn_bool_mask(s, a->mask, 1, 1, a->n_scores);
    return attn_softmax(w, s, 1, a->n_scores);
}

/* The 0-based key the compute names (key: is 1-based), or -1 after an error. */
static int compute_key(yr_doc *d, const yaml_node_t *at, const compute_args *a, int n)
{
    if (!a->has_key || a->key != floor(a->key) || a->key < 1 || a->key > n)
        return yr_fail_at(d, at, "compute: %s needs key: a whole number from 1 to %d", a->op,
                          n);
    return (int)a->key - 1;
}

/* One op of a compute: mapping: its value from the arguments, or -1 after an
   error at node v. */
typedef int (*compute_fn)(yr_doc *d, const yaml_node_t *v, compute_args *a, double *value);

static int op_weight(yr_doc *d, const yaml_node_t *v, compute_args *a, double *value)
{
    float w[MAX_KEYS];
    int n = a->n_scores;
    int k = compute_key(d, v, a, n);
    if (k < 0)
        return -1;
    compute_weights(w, a);
    *value = w[k];
    return 0;
}

static int op_max_weight(yr_doc *d, const yaml_node_t *v, compute_args *a, double *value)
{
    (void)d; (void)v;
    float w[MAX_KEYS];
    int n = a->n_scores;
    compute_weights(w, a);
    *value = 0;
    for (int j = 0; j < n; j++)
        *value = fmax(*value, (double)w[j]);
    return 0;
}

static int op_postmask_sum(yr_doc *d, const yaml_node_t *v, compute_args *a, double *value)
{
    float w[MAX_KEYS];
    int n = a->n_scores;
    /* The bug of lab 5: softmax over every key, then the masked weights zeroed. */
    if (!a->n_mask)
        return yr_fail_at(d, v, "compute: postmask_sum needs mask: [...]");
    attn_softmax(w, a->scores, 1, n);
    *value = 0;
    for (int j = 0; j < n; j++)
        if (!a->mask[j])
            *value += (double)w[j];
    return 0;
}

static int op_entropy(yr_doc *d, const yaml_node_t *v, compute_args *a, double *value)
{
    (void)d; (void)v;
    float w[MAX_KEYS];
    int n = a->n_scores;
    float h;
    compute_weights(w, a);
    attn_entropy_rows(&h, w, 1, n);
    *value = h;
    return 0;
}

static int op_grad(yr_doc *d, const yaml_node_t *v, compute_args *a, double *value)
{
    float w[MAX_KEYS];
    int n = a->n_scores;
    float ds[MAX_KEYS];
    int k = compute_key(d, v, a, n);
    if (k < 0)
        return -1;
    if (a->n_g != n)
        return yr_fail_at(d, v, "compute: grad needs g: one number per score");
    compute_weights(w, a);
    attn_softmax_backward(ds, w, a->g, 1, n);
    *value = ds[k];
    return 0;
}

static int op_lse(yr_doc *d, const yaml_node_t *v, compute_args *a, double *value)
{
    (void)d; (void)v;
    int n = a->n_scores;
    *value = attn_logsumexp(a->scores, n);
    return 0;
}

static int op_sink_sum(yr_doc *d, const yaml_node_t *v, compute_args *a, double *value)
{
    float w[MAX_KEYS];
    int n = a->n_scores;
    float ws;
    if (!a->has_sink)
        return yr_fail_at(d, v, "compute: sink_sum needs sink: a number");
    float sink = (float)a->sink;
    attn_sink_softmax(w, &ws, a->scores, &sink, 1, 1, 1, n);
    *value = 1.0 - (double)ws;
    return 0;
}

static int op_dot(yr_doc *d, const yaml_node_t *v, compute_args *a, double *value)
{
    float s;
    if (a->n_q == 0 || a->n_q != a->n_k)
        return yr_fail_at(d, v, "compute: dot needs q: and k: of the same length");
    attn_dot_scores(&s, a->qv, a->kv, 1, 1, 1, a->n_q);
    *value = a->has_dk ? (double)s / sqrt(a->dk) : (double)s;
    return 0;
}

static int op_alibi_slope(yr_doc *d, const yaml_node_t *v, compute_args *a, double *value)
{
    float slopes[MAX_KEYS];
    if (!a->has_heads || a->heads != floor(a->heads) || a->heads < 1 || a->heads > MAX_KEYS ||
        !a->has_head || a->head != floor(a->head) || a->head < 1 || a->head > a->heads)
        return yr_fail_at(d, v, "compute: alibi_slope needs heads: H (1 to %d) and "
                          "head: 1 to H", MAX_KEYS);
    attn_alibi_slopes(slopes, (int)a->heads);
    *value = slopes[(int)a->head - 1];
    return 0;
}

static int op_flat_index(yr_doc *d, const yaml_node_t *v, compute_args *a, double *value)
{
    if (a->n_shape != 3 || a->n_index != 3)
        return yr_fail_at(d, v, "compute: flat_index needs shape: [B, Tq, Tk] and "
                          "index: [b, i, j]");
    *value = ((double)a->index[0] * (double)a->shape[1] + (double)a->index[1]) *
             (double)a->shape[2] + (double)a->index[2];
    return 0;
}

static int op_mib(yr_doc *d, const yaml_node_t *v, compute_args *a, double *value)
{
    if (!a->has_rows || !a->has_cols || !a->has_count)
        return yr_fail_at(d, v, "compute: mib needs rows:, cols: and count:");
    *value = a->rows * a->cols * a->count * sizeof(float) / (1024.0 * 1024.0);
    return 0;
}

static int op_score_std(yr_doc *d, const yaml_node_t *v, compute_args *a, double *value)
{
    /* q . k of dk unit-variance components has variance dk; divided, its spread shrinks. */
    if (!a->has_dk)
        return yr_fail_at(d, v, "compute: score_std needs dk: (and divisor: when divided)");
    *value = sqrt(a->dk) / (a->has_divisor ? a->divisor : 1.0);
    return 0;
}

static int op_abs_sum(yr_doc *d, const yaml_node_t *v, compute_args *a, double *value)
{
    if (!a->n_v)
        return yr_fail_at(d, v, "compute: abs_sum needs v: [...]");
    *value = 0;
    for (int j = 0; j < a->n_v; j++)
        *value += fabs((double)a->v[j]);
    return 0;
}

static int op_underflow(yr_doc *d, const yaml_node_t *v, compute_args *a, double *value)
{
    (void)d; (void)v; (void)a;
    /* The largest x at which expf(x) rounds to 0, by bisection. */
    double lo = -200.0, hi = 0.0;
    for (int it = 0; it < 100; it++) {
        double mid = 0.5 * (lo + hi);
        if (expf((float)mid) == 0.0f)
            lo = mid;
        else
            hi = mid;
    }
    *value = lo;
    return 0;
}

static int op_grad_bound(yr_doc *d, const yaml_node_t *v, compute_args *a, double *value)
{
    (void)d; (void)v;
    float w[MAX_KEYS];
    int n = a->n_scores;
    compute_weights(w, a);
    double mx = 0;
    for (int j = 0; j < n; j++)
        mx = fmax(mx, (double)w[j]);
    *value = 2.0 * (1.0 - mx);
    return 0;
}

static int op_dropout(yr_doc *d, const yaml_node_t *v, compute_args *a, double *value)
{
    /* Inverted dropout: a kept weight w becomes w / (1 - p). */
    if (!a->has_w || !a->has_p || !(a->p >= 0 && a->p < 1))
        return yr_fail_at(d, v, "compute: dropout needs w: and p: in [0, 1)");
    *value = a->w / (1.0 - a->p);
    return 0;
}

static int op_visible_keys(yr_doc *d, const yaml_node_t *v, compute_args *a, double *value)
{
    float S[MAX_KEYS];
    if (!a->has_tq || !a->has_tk || !whole(a->tq, 1, 8) || !whole(a->tk, 1, 8) ||
        !a->has_query || !whole(a->query, 0, a->tq - 1))
        return yr_fail_at(d, v, "compute: visible_keys needs tq:, tk: (1 to 8) and query: "
                          "(0-based)");
    int tq = (int)a->tq, tk = (int)a->tk;
    memset(S, 0, sizeof S);
    if (a->has_window)
        attn_sliding_window_mask(S, 1, tq, tk, (int)a->window);
    else
        attn_causal_mask_aligned(S, 1, tq, tk, a->has_bottom_right && a->bottom_right != 0);
    *value = 0;
    for (int j = 0; j < tk; j++)
        *value += isinf(S[(int)a->query * tk + j]) ? 0 : 1;
    return 0;
}

static int op_head_mean(yr_doc *d, const yaml_node_t *v, compute_args *a, double *value)
{
    int n = a->n_scores;
    const char *op = a->op;
    /* Two heads over the same keys: the mean of their weights, or the softmax of
       their mean scores, at key. */
    float S2[2 * MAX_KEYS], W2[2 * MAX_KEYS], A[MAX_KEYS];
    int k = compute_key(d, v, a, n);
    if (k < 0)
        return -1;
    if (a->n_scores2 != n)
        return yr_fail_at(d, v, "compute: %s needs scores2: the second head's scores, one "
                          "per key", op);
    memcpy(S2, a->scores, (size_t)n * sizeof *S2);
    memcpy(S2 + n, a->scores2, (size_t)n * sizeof *S2);
    if (!strcmp(op, "head_mean")) {
        attn_softmax(W2, S2, 2, n);
        attn_head_mean_weights(A, W2, 1, 2, 1, n);
    } else {
        attn_softmax_of_mean_scores(A, S2, 1, 2, 1, n);
    }
    *value = A[k];
    return 0;
}

static int op_gqa(yr_doc *d, const yaml_node_t *v, compute_args *a, double *value)
{
    if (!a->has_heads || !a->has_kv_heads || !a->has_head || !whole(a->heads, 1, 1024) ||
        !whole(a->kv_heads, 1, a->heads) || !whole(a->head, 0, a->heads - 1))
        return yr_fail_at(d, v, "compute: gqa needs heads:, kv_heads: and head: (0-based)");
    *value = attn_gqa_kv_head((int)a->head, (int)a->heads, (int)a->kv_heads);
    return 0;
}

/* Every op, with the function that computes it. */
static const struct { const char *name; compute_fn fn; } compute_ops[] = {
    {"weight", op_weight},
    {"max_weight", op_max_weight},
    {"postmask_sum", op_postmask_sum},
    {"entropy", op_entropy},
    {"grad", op_grad},
    {"lse", op_lse},
    {"sink_sum", op_sink_sum},
    {"dot", op_dot},
    {"alibi_slope", op_alibi_slope},
    {"flat_index", op_flat_index},
    {"mib", op_mib},
    {"score_std", op_score_std},
    {"abs_sum", op_abs_sum},
    {"underflow", op_underflow},
    {"grad_bound", op_grad_bound},
    {"dropout", op_dropout},
    {"visible_keys", op_visible_keys},
    {"head_mean", op_head_mean},
    {"mean_scores", op_head_mean},
    {"gqa", op_gqa},
};

/* Evaluate the compute: mapping at node v into *value. */
static int compute_value(yr_doc *d, const yaml_node_t *v, double *value)
{
    compute_args a;
    memset(&a, 0, sizeof a);
    if (yr_walk(d, v, "compute", "compute", compute_fields, YR_N_FIELDS(compute_fields), &a) != 0)
        return -1;
    const char *op = a.op;
    int n = a.n_scores;
    int row_op = !strcmp(op, "weight") || !strcmp(op, "max_weight") || !strcmp(op, "entropy")
                 || !strcmp(op, "postmask_sum") || !strcmp(op, "grad") || !strcmp(op, "lse")
                 || !strcmp(op, "sink_sum");
    if (row_op && n == 0)
        return yr_fail_at(d, v, "compute: %s needs scores: [...]", op);
    if (a.n_mask && a.n_mask != n)
        return yr_fail_at(d, v, "compute: mask has %d values but scores has %d", a.n_mask, n);
    if (a.has_temperature && !(a.temperature > 0))
        return yr_fail_at(d, v, "compute: temperature must be > 0");
    if (a.has_dk && !(a.dk >= 1))
        return yr_fail_at(d, v, "compute: dk must be >= 1");
    for (size_t i = 0; i < sizeof compute_ops / sizeof compute_ops[0]; i++)
        if (!strcmp(op, compute_ops[i].name))
            return compute_ops[i].fn(d, v, &a, value);
    return yr_fail_at(d, a.op_node, "compute: unknown op \"%s\"; the ops are weight, "
                      "max_weight, postmask_sum, entropy, grad, grad_bound, lse, sink_sum, "
                      "dot, score_std, abs_sum, underflow, dropout, alibi_slope, "
                      "visible_keys, head_mean, mean_scores, gqa, flat_index, mib", op);
}

/* ---- one question ------------------------------------------------------------------- */

/* A question as read, before the checks that need all of it. */
typedef struct question_raw {
    gr_drill_question *q;
    const yaml_node_t *map, *kind, *answer, *tolerance, *compute, *choices;
    int has_kind;
} question_raw;

/* Copy a non-empty string value into *out. */
static int rd_text(yr_doc *d, const yaml_node_t *v, const char *label, char **out)
{
    const char *s;
    if (yr_get_string(d, v, label, YR_NONEMPTY, &s) != 0)
        return -1;
    *out = gr_xstrdup(s);
    return 0;
}

/* A list of non-empty strings into a malloc'd array. */
static int rd_text_list(yr_doc *d, const yaml_node_t *v, const char *label, char ***out,
                        int *n)
{
    int m = 0;
    if (yr_get_seq(d, v, label, "[\"...\", \"...\"]", &m) != 0)
        return -1;
    *out = gr_xcalloc((size_t)m + 1, sizeof **out);
    for (int i = 0; i < m; i++) {
        *n = i;         /* calloc'd, so a failure part-way frees cleanly */
        if (rd_text(d, yr_item(d, v, i), label, &(*out)[i]) != 0)
            return -1;
    }
    *n = m;
    return 0;
}

static int rd_q_id(yr_doc *d, const yaml_node_t *v, void *t)
{
    question_raw *r = t;
    if (rd_text(d, v, "id", &r->q->id) != 0)
        return -1;
    for (const char *p = r->q->id; *p; p++)
        if (!(islower((unsigned char)*p) || isdigit((unsigned char)*p) || *p == '-'))
            return yr_fail_at(d, v, "id is a word of lower-case letters, digits and '-' "
                              "(progress is kept by it): %s", r->q->id);
    return 0;
}

static int rd_q_kind(yr_doc *d, const yaml_node_t *v, void *t)
{
    question_raw *r = t;
    const char *s;
    if (yr_get_string(d, v, "kind", YR_NONEMPTY, &s) != 0)
        return -1;
    for (int k = 0; k < N_KINDS; k++)
        if (strcmp(s, kind_names[k]) == 0) {
            r->q->kind = (gr_drill_kind)k;
            r->has_kind = 1;
            return 0;
        }
    const char *near = yr_nearest(s, kind_names, N_KINDS);
    if (near)
        return yr_fail_at(d, v, "unknown kind \"%s\"; did you mean \"%s\"?", s, near);
    return yr_fail_at(d, v, "unknown kind \"%s\"; the kinds are choice, true_false, short "
                      "and numeric", s);
}

static int rd_q_prompt(yr_doc *d, const yaml_node_t *v, void *t)
{
    return rd_text(d, v, "prompt", &((question_raw *)t)->q->prompt);
}

static int rd_q_answer(yr_doc *d, const yaml_node_t *v, void *t)
{
    question_raw *r = t;
    r->answer = v;
    return rd_text(d, v, "answer", &r->q->answer_text);
}

static int rd_q_tolerance(yr_doc *d, const yaml_node_t *v, void *t)
{
    question_raw *r = t;
    r->tolerance = v;
    if (yr_get_double(d, v, "tolerance", &r->q->tolerance) != 0)
        return -1;
    if (!(r->q->tolerance > 0))
        return yr_fail_at(d, v, "tolerance must be > 0 (how far from the answer a right "
                          "answer may be)");
    return 0;
}

static int rd_q_compute(yr_doc *d, const yaml_node_t *v, void *t)
{
    (void)d;
    ((question_raw *)t)->compute = v;
    return 0;                   /* evaluated once the kind and answer are known */
}

static int rd_q_choices(yr_doc *d, const yaml_node_t *v, void *t)
{
    question_raw *r = t;
    r->choices = v;
    if (rd_text_list(d, v, "choices", &r->q->choices, &r->q->n_choices) != 0)
        return -1;
    if (r->q->n_choices < 2 || r->q->n_choices > 26)
        return yr_fail_at(d, v, "choices: give 2 to 26 choices, got %d", r->q->n_choices);
    for (int i = 0; i < r->q->n_choices; i++)
        for (int j = 0; j < i; j++)
            if (strcmp(r->q->choices[i], r->q->choices[j]) == 0)
                return yr_fail_at(d, yr_item(d, v, i), "choices %c and %c are the same text",
                                  'a' + j, 'a' + i);
    return 0;
}

static int rd_q_accept(yr_doc *d, const yaml_node_t *v, void *t)
{
    question_raw *r = t;
    return rd_text_list(d, v, "accept", &r->q->accept, &r->q->n_accept);
}

static int rd_q_patterns(yr_doc *d, const yaml_node_t *v, void *t)
{
    question_raw *r = t;
    if (rd_text_list(d, v, "patterns", &r->q->patterns, &r->q->n_patterns) != 0)
        return -1;
    for (int i = 0; i < r->q->n_patterns; i++) {
        regex_t re;
        int rc = regcomp(&re, r->q->patterns[i], REG_EXTENDED | REG_ICASE | REG_NOSUB);
        if (rc != 0) {
            char msg[128];
            regerror(rc, &re, msg, sizeof msg);
            return yr_fail_at(d, yr_item(d, v, i), "patterns: not a POSIX extended regular "
                              "expression (%s): %s", msg, r->q->patterns[i]);
        }
        regfree(&re);
    }
    return 0;
}

static int rd_q_explanation(yr_doc *d, const yaml_node_t *v, void *t)
{
    return rd_text(d, v, "explanation", &((question_raw *)t)->q->explanation);
}

/* "L2.3": lesson 3 of module M2 in syllabus.md. */
static int rd_q_lesson(yr_doc *d, const yaml_node_t *v, void *t)
{
    question_raw *r = t;
    if (rd_text(d, v, "lesson", &r->q->lesson) != 0)
        return -1;
    int mod = 0, les = 0, used = 0;
    if (sscanf(r->q->lesson, "L%d.%d%n", &mod, &les, &used) != 2 ||
        r->q->lesson[used] != '\0' || mod < 1 || mod > 10 || les < 1)
        return yr_fail_at(d, v, "lesson is a syllabus lesson id like L2.3 (module 1 to 10, "
                          "then the lesson): %s", r->q->lesson);
    return 0;
}

/* "lab 2 §4": section 4 of labs/lab02-*\/README.md. */
static int rd_q_section(yr_doc *d, const yaml_node_t *v, void *t)
{
    question_raw *r = t;
    if (rd_text(d, v, "section", &r->q->section) != 0)
        return -1;
    int lab = 0, sec = 0, used = 0;
    if (sscanf(r->q->section, "lab %d §%d%n", &lab, &sec, &used) != 2 ||
        r->q->section[used] != '\0' || lab < 1 || lab > GR_N_LABS || sec < 1)
        return yr_fail_at(d, v, "section is a handout section like \"lab 2 §4\" (lab 1 to "
                          "%d): %s", GR_N_LABS, r->q->section);
    return 0;
}

static const yr_field question_fields[] = {
    {"id", 1, rd_q_id},
    {"kind", 1, rd_q_kind},
    {"prompt", 1, rd_q_prompt},
    {"answer", 1, rd_q_answer},
    {"tolerance", 0, rd_q_tolerance},
    {"compute", 0, rd_q_compute},
    {"choices", 0, rd_q_choices},
    {"accept", 0, rd_q_accept},
    {"patterns", 0, rd_q_patterns},
    {"explanation", 1, rd_q_explanation},
    {"lesson", 1, rd_q_lesson},
    {"section", 0, rd_q_section},
};

/* The key node of map named name, or NULL (for errors at a field's key). */
static const yaml_node_t *key_node(yr_doc *d, const yaml_node_t *map, const char *name)
{
    return yr_earlier_key(d, map, map->data.mapping.pairs.top, name);
}

/* Fail at key name of r's mapping when the question's kind does not use it. */
static int reject_field(yr_doc *d, const question_raw *r, const char *name, int present)
{
    if (!present)
        return 0;
    const yaml_node_t *k = key_node(d, r->map, name);
    return yr_fail_at(d, k ? k : r->map, "%s is not used by a %s question; remove it", name,
                      kind_names[r->q->kind]);
}

/* The checks that need the whole question: what its kind needs, and nothing else. */
static int check_question(yr_doc *d, question_raw *r, const char *where)
{
    gr_drill_question *q = r->q;
    if (q->kind != GR_DRILL_CHOICE && reject_field(d, r, "choices", r->choices != NULL) != 0)
        return -1;
    if (q->kind != GR_DRILL_SHORT &&
        (reject_field(d, r, "accept", q->accept != NULL) != 0 ||
         reject_field(d, r, "patterns", q->patterns != NULL) != 0))
        return -1;
    if (q->kind != GR_DRILL_NUMERIC &&
        (reject_field(d, r, "tolerance", r->tolerance != NULL) != 0 ||
         reject_field(d, r, "compute", r->compute != NULL) != 0))
        return -1;

    switch (q->kind) {
    case GR_DRILL_CHOICE:
        if (!r->choices)
            return yr_fail_at(d, r->map, "%s is a choice question without choices: add "
                              "choices: [...]", where);
        for (int i = 0; i < q->n_choices; i++)
            if (strcmp(q->answer_text, q->choices[i]) == 0) {
                q->answer = i;
                return 0;
            }
        return yr_fail_at(d, r->answer, "the answer \"%s\" is not among the choices; copy "
                          "the right choice's text exactly", q->answer_text);
    case GR_DRILL_TRUE_FALSE:
        if (strcmp(q->answer_text, "true") != 0 && strcmp(q->answer_text, "false") != 0)
            return yr_fail_at(d, r->answer, "a true_false answer is true or false, got \"%s\"",
                              q->answer_text);
        q->answer = strcmp(q->answer_text, "true") == 0;
        return 0;
    case GR_DRILL_SHORT:
        return 0;
    case GR_DRILL_NUMERIC: {
        if (yr_get_double(d, r->answer, "answer", &q->value) != 0)
            return -1;
        if (!r->tolerance)
            return yr_fail_at(d, r->map, "%s is numeric without a tolerance: add tolerance: "
                              "(e.g. 0.0001)", where);
        if (!r->compute)
            return yr_fail_at(d, r->map, "%s is numeric without compute: say how libattn "
                              "computes its answer (e.g. compute: {op: weight, scores: [2, 1], "
                              "key: 1})", where);
        double want;
        if (compute_value(d, r->compute, &want) != 0)
            return -1;
        if (!(fabs(want - q->value) <= q->tolerance))
            return yr_fail_at(d, r->answer, "the answer %s is not what compute: gives, %.6g "
                              "(within the tolerance %g)", q->answer_text, want, q->tolerance);
        return 0;
    }
    }
    return 0;
}

/* ---- the bank -------------------------------------------------------------------------- */

typedef struct bank_ctx {
    gr_drill_bank *b;
    const char *expect_name;    /* from the file name */
} bank_ctx;

static int rd_bank(yr_doc *d, const yaml_node_t *v, void *t)
{
    gr_drill_bank *b = t;
    bank_ctx *c = d->user;
    if (rd_text(d, v, "bank", &b->name) != 0)
        return -1;
    if (strcmp(b->name, c->expect_name) != 0)
        return yr_fail_at(d, v, "bank is \"%s\" but the file is %s.yaml; the two must agree "
                          "(--bank NAME finds the file)", b->name, c->expect_name);
    return 0;
}

static int rd_title(yr_doc *d, const yaml_node_t *v, void *t)
{
    return rd_text(d, v, "title", &((gr_drill_bank *)t)->title);
}

static int rd_questions(yr_doc *d, const yaml_node_t *v, void *t)
{
    gr_drill_bank *b = t;
    int n = 0;
    if (yr_get_seq(d, v, "questions", "[{id: ..., kind: ..., prompt: ...}]", &n) != 0)
        return -1;
    if (n == 0)
        return yr_fail_at(d, v, "questions is empty; a bank needs at least one question");
    b->q = gr_xcalloc((size_t)n, sizeof *b->q);
    for (int i = 0; i < n; i++) {
        const yaml_node_t *item = yr_item(d, v, i);
        question_raw r = { .q = &b->q[i], .map = item };
        char where[32];
        snprintf(where, sizeof where, "question %d", i + 1);
        b->n = i + 1;           /* calloc'd, so a failure part-way frees cleanly */
        if (!item)
            return yr_fail_at(d, v, "questions: the YAML document is damaged");
        if (yr_walk(d, item, where, where, question_fields, YR_N_FIELDS(question_fields), &r) != 0)
            return -1;
        if (check_question(d, &r, where) != 0)
            return -1;
        r.q->line = (int)yr_pos_of(item).line;
        for (int j = 0; j < i; j++)
            if (strcmp(b->q[j].id, r.q->id) == 0)
                return yr_fail_at(d, item, "two questions have the id %s (the other is on "
                                  "line %d)", r.q->id, b->q[j].line);
    }
    return 0;
}

static const yr_field bank_fields[] = {
    {"bank", 1, rd_bank},
    {"title", 1, rd_title},
    {"questions", 1, rd_questions},
};

/* The bank's name as its file name gives it: "data/drills/masks.yaml" -> "masks". */
static char *name_of_path(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t len = strlen(base);
    if (len > 5 && strcmp(base + len - 5, ".yaml") == 0)
        len -= 5;
    char *s = gr_xmalloc(len + 1);
    memcpy(s, base, len);
    s[len] = '\0';
    return s;
}

int gr_drill_parse(const char *path, const char *text, size_t len, gr_drill_bank *out,
                   char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    char *expect = name_of_path(path);
    bank_ctx c = { out, expect };
    yr_doc d;
    int rc = yr_open(&d, path, text, len, err, errlen);
    d.user = &c;
    if (rc == 0) {
        const yaml_node_t *root = yr_root(&d);
        if (!root) {
            yaml_mark_t start = {0, 0, 0};
            rc = yr_fail_mark(&d, start, "the bank is empty; it needs bank:, title: and "
                              "questions:");
        } else if (yr_expect_end(&d, "a bank is one YAML document; remove this second one")
                   != 0) {
            rc = -1;
        } else {
            rc = yr_walk(&d, root, "the bank", "the bank", bank_fields,
                         YR_N_FIELDS(bank_fields), out);
        }
    }
    yr_close(&d);
    if (rc == 0) {
        out->path = gr_xstrdup(path);
        /* Progress is kept by bank/id, unique across banks. */
        for (int i = 0; i < out->n; i++) {
            char *full = gr_xasprintf("%s/%s", out->name, out->q[i].id);
            free(out->q[i].id);
            out->q[i].id = full;
        }
    } else {
        gr_drill_bank_free(out);
    }
    free(expect);
    return rc;
}

int gr_drill_load(const char *path, gr_drill_bank *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    size_t len;
    char *text = gr_read_file(path, &len);
    if (!text) {
        gr_set_err(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    int rc = gr_drill_parse(path, text, len, out, err, errlen);
    free(text);
    return rc;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int gr_drill_load_dir(const char *dir, gr_drill_bank **banks, int *n, char *err, size_t errlen)
{
    *banks = NULL;
    *n = 0;
    DIR *dp = opendir(dir);
    if (!dp) {
        gr_set_err(err, errlen, "%s: cannot open the banks' folder: %s", dir, strerror(errno));
        return -1;
    }
    char **names = NULL;
    int m = 0;
    for (struct dirent *e; (e = readdir(dp)) != NULL;) {
        size_t len = strlen(e->d_name);
        if (len > 5 && e->d_name[0] != '.' && strcmp(e->d_name + len - 5, ".yaml") == 0) {
            names = gr_xrealloc(names, (size_t)(m + 1) * sizeof *names);
            names[m++] = gr_xstrdup(e->d_name);
        }
    }
    closedir(dp);
    qsort(names, (size_t)m, sizeof *names, cmp_str);
    gr_drill_bank *b = gr_xcalloc((size_t)m + 1, sizeof *b);
    int rc = 0;
    for (int i = 0; i < m && rc == 0; i++) {
        char *path = gr_xasprintf("%s/%s", dir, names[i]);
        rc = gr_drill_load(path, &b[i], err, errlen);
        free(path);
        if (rc == 0)
            *n = i + 1;
    }
    free_list(names, m);
    if (rc != 0) {
        gr_drill_banks_free(b, *n);
        *n = 0;
        return -1;
    }
    if (m == 0) {
        free(b);
        gr_set_err(err, errlen, "%s: no banks (*.yaml) in this folder", dir);
        return -1;
    }
    *banks = b;
    return 0;
}

/* ---- judging an answer --------------------------------------------------------------- */

/* s lower-cased, spaces collapsed, trimmed, and a final '.' dropped, into a
   malloc'd string: "  Over the  KEYS. " -> "over the keys". */
static char *normalise(const char *s)
{
    char *out = gr_xmalloc(strlen(s) + 1);
    size_t k = 0;
    for (; *s; s++) {
        int space = isspace((unsigned char)*s);
        if (space && (k == 0 || out[k - 1] == ' '))
            continue;
        out[k++] = space ? ' ' : (char)tolower((unsigned char)*s);
    }
    while (k > 0 && (out[k - 1] == ' ' || out[k - 1] == '.'))
        k--;
    out[k] = '\0';
    return out;
}

/* A plain decimal number ("0.25", "-1.5e-3", "3"): no hex, no inf or nan. */
static int parse_number(const char *s, double *out)
{
    for (const char *p = s; *p; p++)
        if (!(isdigit((unsigned char)*p) || strchr("+-.eE", *p)))
            return -1;
    char *end;
    errno = 0;
    *out = strtod(s, &end);
    if (end == s || *end != '\0' || errno == ERANGE || !isfinite(*out))
        return -1;
    return 0;
}

static gr_drill_verdict judge_choice(const gr_drill_question *q, const char *a, char *why,
                                     size_t whylen)
{
    int pick = -1;
    size_t len = strlen(a);
    char *end;
    long num = strtol(a, &end, 10);
    if (len == 1 && a[0] >= 'a' && a[0] < 'a' + q->n_choices)
        pick = a[0] - 'a';
    else if (len == 2 && a[1] == ')' && a[0] >= 'a' && a[0] < 'a' + q->n_choices)
        pick = a[0] - 'a';
    else if (end != a && *end == '\0' && num >= 1 && num <= q->n_choices)
        pick = (int)num - 1;
    for (int i = 0; pick < 0 && i < q->n_choices; i++) {
        char *c = normalise(q->choices[i]);
        if (strcmp(c, a) == 0)
            pick = i;
        free(c);
    }
    if (pick < 0) {
        gr_set_err(why, whylen, "give a letter from a to %c (or the choice's number, 1 to %d)",
                   'a' + q->n_choices - 1, q->n_choices);
        return GR_DRILL_MALFORMED;
    }
    return pick == q->answer ? GR_DRILL_RIGHT : GR_DRILL_WRONG;
}

static gr_drill_verdict judge_true_false(const gr_drill_question *q, const char *a, char *why,
                                         size_t whylen)
{
    static const char *const yes[] = { "true", "t", "yes", "y" };
    static const char *const no[] = { "false", "f", "no", "n" };
    for (int i = 0; i < 4; i++) {
        if (strcmp(a, yes[i]) == 0)
            return q->answer == 1 ? GR_DRILL_RIGHT : GR_DRILL_WRONG;
        if (strcmp(a, no[i]) == 0)
            return q->answer == 0 ? GR_DRILL_RIGHT : GR_DRILL_WRONG;
    }
    gr_set_err(why, whylen, "give true or false (t or f)");
    return GR_DRILL_MALFORMED;
}

static gr_drill_verdict judge_short(const gr_drill_question *q, const char *a)
{
    int right = 0;
    char *s = normalise(q->answer_text);
    right = strcmp(s, a) == 0;
    free(s);
    for (int i = 0; !right && i < q->n_accept; i++) {
        s = normalise(q->accept[i]);
        right = strcmp(s, a) == 0;
        free(s);
    }
    for (int i = 0; !right && i < q->n_patterns; i++) {
        regex_t re;
        if (regcomp(&re, q->patterns[i], REG_EXTENDED | REG_ICASE | REG_NOSUB) != 0)
            continue;               /* the loader compiled each one already */
        right = regexec(&re, a, 0, NULL, 0) == 0;
        regfree(&re);
    }
    return right ? GR_DRILL_RIGHT : GR_DRILL_WRONG;
}

gr_drill_verdict gr_drill_judge(const gr_drill_question *q, const char *line, char *why,
                                size_t whylen)
{
    gr_set_err(why, whylen, "%s", "");
    char *a = normalise(line);
    gr_drill_verdict v;
    if (!*a) {
        v = GR_DRILL_BLANK;
    } else if (q->kind == GR_DRILL_CHOICE) {
        v = judge_choice(q, a, why, whylen);
    } else if (q->kind == GR_DRILL_TRUE_FALSE) {
        v = judge_true_false(q, a, why, whylen);
    } else if (q->kind == GR_DRILL_SHORT) {
        v = judge_short(q, a);
    } else {
        double x;
        if (parse_number(a, &x) != 0) {
            gr_set_err(why, whylen, "give a plain decimal number, e.g. 0.25 or -1.5e-3");
            v = GR_DRILL_MALFORMED;
        } else {
            v = fabs(x - q->value) <= q->tolerance ? GR_DRILL_RIGHT : GR_DRILL_WRONG;
        }
    }
    free(a);
    return v;
}
