/* drill_compute.c: the compute: mapping of a numeric drill question, evaluated
 * with libattn, so a bank's answer is checked against the answer key rather
 * than typed by hand (see drill.h for the ops).
 */
#include "learn/drill_int.h"

#include <math.h>
#include <string.h>

#include "attn.h"

/* Largest row a compute: op takes; the prompts show rows a person can add up. */
#define MAX_KEYS 64


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

/* The key the compute names (key: counts from 0, like the code and the
   prompts), or -1 after an error. */
static int compute_key(yr_doc *d, const yaml_node_t *at, const compute_args *a, int n)
{
    if (!a->has_key || !whole(a->key, 0, n - 1))
        return yr_fail_at(d, at, "compute: %s needs key: a whole number from 0 to %d "
                          "(keys count from 0)", a->op, n - 1);
    return (int)a->key;
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
        !a->has_head || !whole(a->head, 0, a->heads - 1))
        return yr_fail_at(d, v, "compute: alibi_slope needs heads: H (1 to %d) and "
                          "head: 0 to H - 1 (heads count from 0)", MAX_KEYS);
    attn_alibi_slopes(slopes, (int)a->heads);
    *value = slopes[(int)a->head];
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

int gr_drill_compute(yr_doc *d, const yaml_node_t *v, double *value)
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
