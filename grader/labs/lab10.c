/* lab10.c: what the grader knows about lab 10, heads and what is plotted.
 *
 * Four functions are graded (lab10_calls.h, generated from the manifest, numbers them):
 *   lab_head_weights     per-head softmax weights (B, H, Tq, Tk)
 *   lab_gqa_weights      the same with Hkv shared key heads
 *   lab_head_average     average of weights vs softmax of mean scores, and the gap
 *   lab_extract_head     one head (b, h) as a (Tq, Tk) matrix for a heatmap
 *
 * Dimensions: B batch, H query heads, Hkv key heads, Tq queries, Tk keys, d
 * query/key size; batch slowest, then head. Expected values come from libattn;
 * each misconception recomputes the same call with one known mistake.
 */
#include "base/labmod.h"
#include "lab10_calls.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attn.h"
#include "labsup.h"


/* The ints of a call, named. */
#define I(k) ((int)c->call.ints[k])

/* ---- weights, right and wrong ------------------------------------------------- */

/* Which axis a wrong softmax normalises, or which key head a query head reads. */
typedef enum weight_mode {
    WEIGHT_HEAD_AXIS,     /* softmax over h for each (b, i, j) */
    WEIGHT_QUERY_AXIS,    /* softmax over i for each (b, h, j) */
    WEIGHT_NO_SCALE,      /* q.k without the 1/sqrt(d) */
    WEIGHT_GQA_MOD,       /* kv = h % Hkv */
    WEIGHT_GQA_GROUP      /* kv = h / Hkv */
} weight_mode;

/* The key head query head h reads under mode (right for the axis and scale
   modes); -1 when that head does not exist (the student would read past K). */
static int kv_head(int h, int H, int Hkv, weight_mode mode)
{
    int kv = mode == WEIGHT_GQA_MOD ? h % Hkv
           : mode == WEIGHT_GQA_GROUP ? h / Hkv : attn_gqa_kv_head(h, H, Hkv);
    return kv < Hkv ? kv : -1;
}

/* Softmax of n values spaced stride apart, in place, in double. */
static void softmax_strided(float *x, long n, long stride)
{
    double mx = -HUGE_VAL, sum = 0.0;
    for (long k = 0; k < n; k++) mx = fmax(mx, (double)x[k * stride]);
    for (long k = 0; k < n; k++) sum += exp((double)x[k * stride] - mx);
    for (long k = 0; k < n; k++) x[k * stride] = (float)(exp((double)x[k * stride] - mx) / sum);
}

/* W (B, H, Tq, Tk) as a student holding mode computes it. 0, or -1 when the
   mistake changes nothing here or reads a key head that does not exist. */
static int weights_wrong(float *W, const float *Q, const float *K, int B, int H, int Hkv,
                         int Tq, int Tk, int d, weight_mode mode)
{
    int differs = mode == WEIGHT_HEAD_AXIS ? H > 1 : mode == WEIGHT_QUERY_AXIS ? Tq > 1
                : mode == WEIGHT_NO_SCALE ? d > 1 : 0;
    for (int h = 0; h < H; h++) {
        int kv = kv_head(h, H, Hkv, mode);
        if (kv < 0) return -1;
        differs |= kv != attn_gqa_kv_head(h, H, Hkv);
    }
    if (!differs) return -1;
    long plane = (long)Tq * Tk;
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            const float *q = Q + ((long)b * H + h) * Tq * d;
            const float *k = K + ((long)b * Hkv + kv_head(h, H, Hkv, mode)) * Tk * d;
            float *w = W + ((long)b * H + h) * plane;
            if (mode == WEIGHT_NO_SCALE) attn_dot_scores(w, q, k, 1, Tq, Tk, d);
            else attn_scaled_dot_scores(w, q, k, 1, Tq, Tk, d);
        }
    for (int b = 0; b < B; b++) {
        float *wb = W + (long)b * H * plane;
        if (mode == WEIGHT_HEAD_AXIS)
            for (long n = 0; n < plane; n++) softmax_strided(wb + n, H, plane);
        else if (mode == WEIGHT_QUERY_AXIS)
            for (int h = 0; h < H; h++)
                for (int j = 0; j < Tk; j++) softmax_strided(wb + h * plane + j, Tq, Tk);
        else
            attn_softmax(wb, wb, (long)H * Tq, Tk);
    }
    return 0;
}

/* ---- test generators -------------------------------------------------------- */

/* Q (B, H, Tq, d) and K (B, Hkv, Tk, d) ~ scale N(0, 1), and the W out buffer,
   named and shaped; the ints B H [Hkv] Tq Tk d as the call takes them. */
static void add_qk(gr_case *c, sup_rng *r, int B, int H, int Hkv, int Tq, int Tk, int d,
                   double scale, int gqa)
{
    gr_case_add_f32(c, PROTO_OUT, (long)B * H * Tq * Tk);
    float *Q = gr_case_add_f32(c, PROTO_IN, (long)B * H * Tq * d);
    float *K = gr_case_add_f32(c, PROTO_IN, (long)B * Hkv * Tk * d);
    gr_case_set_names(c, "W", "Q", "K", NULL);
    gr_case_set_shape4(c, 0, B, H, Tq, Tk);
    gr_case_set_shape4(c, 1, B, H, Tq, d);
    gr_case_set_shape4(c, 2, B, Hkv, Tk, d);
    gr_fill_normal(r, Q, (long)B * H * Tq * d, scale);
    gr_fill_normal(r, K, (long)B * Hkv * Tk * d, scale);
    GR_CASE_ADD_INTS(c, B, H);
    if (gqa) gr_case_add_int(c, Hkv);
    GR_CASE_ADD_INTS(c, Tq, Tk, d);
}

/* heads and gqa: sizes {B, H, [Hkv,] Tq, Tk, d}, params {scale: s} (Q and K ~ s
   N(0,1), default 1). A size of 0 (each on its own), gqa with H not a multiple
   of Hkv, or heads with param bad: 1 (d = 0), is a contract-breaking call:
   LAB_BAD_ARG, W untouched. */
static int gen_weights(const gr_case_kind *kind, const gr_rubric_test *t, uint64_t seed,
                       gr_case *c, char *err, size_t errlen)
{
    int gqa = kind->fn == LAB10_GQA_WEIGHTS;
    int B, H, Hkv, Tq, Tk, d;
    if (gr_test_int(t, "B", 2, 0, 64, &B, err, errlen) ||
        gr_test_int(t, "H", 4, 0, 64, &H, err, errlen) ||
        gr_test_int(t, "Hkv", gqa ? 2 : H, 0, 64, &Hkv, err, errlen) ||
        gr_test_int(t, "Tq", 4, 0, 256, &Tq, err, errlen) ||
        gr_test_int(t, "Tk", 6, 0, 256, &Tk, err, errlen) ||
        gr_test_int(t, "d", 8, 0, 256, &d, err, errlen))
        return -1;
    if (!gqa && Hkv != H) {
        snprintf(err, errlen, "test %s: Hkv = %d is for kind gqa; kind heads has one key head "
                 "per query head, so leave Hkv out", t->name, Hkv);
        return -1;
    }
    if (gr_rubric_test_param(t, "bad", 0) != 0) d = 0;
    int zero = B < 1 || H < 1 || Hkv < 1 || Tq < 1 || Tk < 1 || d < 1;
    double scale = gr_rubric_test_param(t, "scale", 1.0);
    sup_rng r;
    sup_rng_seed(&r, seed);
    /* a contract-breaking call still gets buffers, sized as if each 0 were 1 */
#define ONE(x) ((x) > 0 ? (x) : 1)
    int Hk = Hkv > 0 && H % Hkv == 0 ? Hkv : ONE(H);
    add_qk(c, &r, ONE(B), ONE(H), Hk, ONE(Tq), ONE(Tk), ONE(d), scale, gqa);
#undef ONE
    int k = 0;
    c->call.ints[k++] = B;
    c->call.ints[k++] = H;
    if (gqa) c->call.ints[k++] = Hkv;
    c->call.ints[k++] = Tq;
    c->call.ints[k++] = Tk;
    c->call.ints[k++] = d;
    c->call.fn = kind->fn;
    int ok = !zero && H % Hkv == 0;
    const char *why = zero ? "a size is 0, so LAB_BAD_ARG and W untouched"
                           : "H is not a multiple of Hkv, so LAB_BAD_ARG and W untouched";
    if (gqa)
        snprintf(c->describe, sizeof c->describe,
                 "lab_gqa_weights(W, Q, K, B=%d, H=%d, Hkv=%d, Tq=%d, Tk=%d, d=%d): %s", B, H,
                 Hkv, Tq, Tk, d, ok ? "groups of H / Hkv query heads share a key head" : why);
    else
        snprintf(c->describe, sizeof c->describe,
                 "lab_head_weights(W, Q, K, B=%d, H=%d, Tq=%d, Tk=%d, d=%d): Q, K ~ %g N(0,1)%s%s",
                 B, H, Tq, Tk, d, scale, ok ? "" : ": ", ok ? "" : why);
    if (!ok)
        return gr_case_expect_bad_arg(c);
    c->expected_status = LAB_OK;
    attn_head_weights(gr_case_expect(c, 0), c->call.bufs[1].data, c->call.bufs[2].data,
                      B, H, Hkv, Tq, Tk, d);
    return 0;
}

/* The handout's two examples (section 3), one query row each: 2 heads, 3 keys. */
static const float worked_scores[2][2][3] = {
    { { 2, 0, 0 }, { 6, 0, 0 } },   /* head 0: row 0, row 1 */
    { { 0, 0, 2 }, { 0, 0, 0 } },   /* head 1 */
};

/* average: sizes {B, H, Tq, Tk}, params {scale: s} (S ~ s N(0,1), default 2);
   worked: 1 gives the handout's two examples as B = 1, H = 2, Tq = 2, Tk = 3.
   A size of 0 is a contract-breaking call: LAB_BAD_ARG, A, M and gap untouched
   (the buffers are sized as if each 0 were 1). */
static int gen_average(const gr_case_kind *kind, const gr_rubric_test *t, uint64_t seed,
                       gr_case *c, char *err, size_t errlen)
{
    (void)kind;
    int B, H, Tq, Tk;
    int worked = gr_rubric_test_param(t, "worked", 0) != 0;
    if (gr_test_int(t, "B", worked ? 1 : 2, 0, 64, &B, err, errlen) ||
        gr_test_int(t, "H", worked ? 2 : 4, 0, 64, &H, err, errlen) ||
        gr_test_int(t, "Tq", worked ? 2 : 4, 0, 256, &Tq, err, errlen) ||
        gr_test_int(t, "Tk", worked ? 3 : 6, 0, 256, &Tk, err, errlen))
        return -1;
    int zero = B < 1 || H < 1 || Tq < 1 || Tk < 1;
    int nB = B > 0 ? B : 1, nH = H > 0 ? H : 1, nQ = Tq > 0 ? Tq : 1, nK = Tk > 0 ? Tk : 1;
    if (worked && (B != 1 || H != 2 || Tq != 2 || Tk != 3)) {
        snprintf(err, errlen, "test %s: the worked example is B = 1, H = 2, Tq = 2, Tk = 3; "
                 "leave the sizes out", t->name);
        return -1;
    }
    long rows = (long)nB * nQ, n = (long)nB * nH * nQ * nK;
    gr_case_add_f32(c, PROTO_OUT, rows * nK);
    gr_case_add_f32(c, PROTO_OUT, rows * nK);
    gr_case_add_f32(c, PROTO_OUT, rows * 2);
    float *S = gr_case_add_f32(c, PROTO_IN, n);
    gr_case_set_names(c, "A", "M", "gap", "S", NULL);
    gr_case_set_shape(c, 0, nB, nQ, nK);
    gr_case_set_shape(c, 1, nB, nQ, nK);
    gr_case_set_shape(c, 2, nB, nQ, 2);
    gr_case_set_shape4(c, 3, nB, nH, nQ, nK);
    sup_rng r;
    sup_rng_seed(&r, seed);
    if (worked)
        memcpy(S, worked_scores, sizeof worked_scores);
    else
        gr_fill_normal(&r, S, n, gr_rubric_test_param(t, "scale", 2.0));
    GR_CASE_ADD_INTS(c, B, H, Tq, Tk);
    c->call.fn = LAB10_HEAD_AVERAGE;
    if (zero) {
        snprintf(c->describe, sizeof c->describe, "lab_head_average(A, M, gap, S, B=%d, H=%d, "
                 "Tq=%d, Tk=%d): a size is 0, so LAB_BAD_ARG and A, M, gap untouched", B, H, Tq, Tk);
        return gr_case_expect_bad_arg(c);
    }
    c->expected_status = LAB_OK;
    float *W = gr_xmalloc((size_t)n * sizeof *W);
    float *A = gr_case_expect(c, 0), *M = gr_case_expect(c, 1), *gap = gr_case_expect(c, 2);
    attn_softmax(W, S, (long)B * H * Tq, Tk);
    attn_head_mean_weights(A, W, B, H, Tq, Tk);
    attn_softmax_of_mean_scores(M, S, B, H, Tq, Tk);
    float *dH = gr_xmalloc((size_t)rows * 2 * sizeof *dH), *mx = dH + rows;
    attn_weight_gap(mx, dH, A, M, rows, Tk);
    for (long k = 0; k < rows; k++) {
        gap[2 * k] = mx[k];
        gap[2 * k + 1] = dH[k];
    }
    free(dH);
    free(W);
    snprintf(c->describe, sizeof c->describe,
             "lab_head_average(A, M, gap, S, B=%d, H=%d, Tq=%d, Tk=%d): %s", B, H, Tq, Tk,
             worked ? "the handout's two examples (section 3), one row each"
                    : "scores ~ N(0,1) per head");
    return 0;
}

/* extract: sizes {B, H, Tq, Tk, b, h}; W is per-head softmax weights of Q, K ~
   1.5 N(0,1), d = 8 (a picture with structure). (b, h) outside the sizes, or
   Tq or Tk 0, is a contract-breaking call: LAB_BAD_ARG, Wh untouched. */
static int gen_extract(const gr_case_kind *kind, const gr_rubric_test *t, uint64_t seed,
                       gr_case *c, char *err, size_t errlen)
{
    (void)kind;
    enum { d = 8 };
    int B, H, Tq, Tk, b, h;
    if (gr_test_int(t, "B", 2, 1, 64, &B, err, errlen) ||
        gr_test_int(t, "H", 4, 1, 64, &H, err, errlen) ||
        gr_test_int(t, "Tq", 6, 0, 256, &Tq, err, errlen) ||
        gr_test_int(t, "Tk", 8, 0, 256, &Tk, err, errlen) ||
        gr_test_int(t, "b", B - 1, -1, 64, &b, err, errlen) ||
        gr_test_int(t, "h", H / 2, -1, 64, &h, err, errlen))
        return -1;
    int nQ = Tq > 0 ? Tq : 1, nK = Tk > 0 ? Tk : 1;   /* a 0 gets buffers as if it were 1 */
    long plane = (long)nQ * nK;
    gr_case_add_f32(c, PROTO_OUT, plane);
    float *W = gr_case_add_f32(c, PROTO_IN, (long)B * H * plane);
    gr_case_set_names(c, "Wh", "W", NULL);
    gr_case_set_shape2(c, 0, nQ, nK);
    gr_case_set_shape4(c, 1, B, H, nQ, nK);
    float *Q = gr_xmalloc((size_t)B * H * nQ * d * sizeof *Q);
    float *K = gr_xmalloc((size_t)B * H * nK * d * sizeof *K);
    sup_rng r;
    sup_rng_seed(&r, seed);
    gr_fill_normal(&r, Q, (long)B * H * nQ * d, 1.5);
    gr_fill_normal(&r, K, (long)B * H * nK * d, 1.5);
    attn_head_weights(W, Q, K, B, H, H, nQ, nK, d);
    free(Q);
    free(K);
    GR_CASE_ADD_INTS(c, B, H, Tq, Tk, b, h);
    c->call.fn = LAB10_EXTRACT_HEAD;
    int ok = b >= 0 && b < B && h >= 0 && h < H && Tq > 0 && Tk > 0;
    snprintf(c->describe, sizeof c->describe,
             "lab_extract_head(Wh, W, B=%d, H=%d, Tq=%d, Tk=%d, b=%d, h=%d): %s", B, H, Tq, Tk,
             b, h, ok ? "W holds per-head softmax weights" : Tq > 0 && Tk > 0 ? "(b, h) is "
             "outside (B, H), so LAB_BAD_ARG and Wh untouched" : "a size is 0, so LAB_BAD_ARG "
             "and Wh untouched");
    if (!ok)
        return gr_case_expect_bad_arg(c);
    c->expected_status = LAB_OK;
    attn_extract_head(gr_case_expect(c, 0), W, B, H, Tq, Tk, b, h);
    return 0;
}

static int make_case(const gr_rubric_test *t, uint64_t seed, gr_case *c,
                     char *err, size_t errlen)
{
    static const gr_case_kind kinds[] = {
        { "heads", gen_weights, LAB10_HEAD_WEIGHTS, 0 },
        { "gqa", gen_weights, LAB10_GQA_WEIGHTS, 0 },
        { "average", gen_average, 0, 0 },
        { "extract", gen_extract, 0, 0 },
    };
    return gr_make_case_by_kind(kinds, GR_N_KINDS(kinds), 10, t, seed, c,
                                err, errlen);
}

/* ---- misconceptions ------------------------------------------------------------ */

/* Per-head or GQA weights under mode: heads calls for the axis and scale
   mistakes, gqa calls for all of them. */
static int predict_weights(const gr_case *c, void *out[PROTO_MAX_BUFS], weight_mode mode)
{
    if (c->expected_status != LAB_OK)
        return -1;
    int gqa = c->call.fn == LAB10_GQA_WEIGHTS;
    if (!gqa && c->call.fn != LAB10_HEAD_WEIGHTS)
        return -1;
    if (gqa && (mode == WEIGHT_HEAD_AXIS || mode == WEIGHT_QUERY_AXIS))
        return -1;
    if (!gqa && (mode == WEIGHT_GQA_MOD || mode == WEIGHT_GQA_GROUP))
        return -1;
    int B = I(0), H = I(1), Hkv = gqa ? I(2) : H, o = gqa ? 1 : 0;
    float *W = gr_case_alloc_like(c, 0);
    if (weights_wrong(W, c->call.bufs[1].data, c->call.bufs[2].data, B, H, Hkv,
                      I(2 + o), I(3 + o), I(4 + o), mode) != 0) {
        free(W);
        return -1;
    }
    out[0] = W;
    return 0;
}

GR_PREDICT(predict_head_axis, predict_weights, WEIGHT_HEAD_AXIS)
GR_PREDICT(predict_query_axis, predict_weights, WEIGHT_QUERY_AXIS)
GR_PREDICT(predict_no_scale, predict_weights, WEIGHT_NO_SCALE)
GR_PREDICT(predict_gqa_mod, predict_weights, WEIGHT_GQA_MOD)
GR_PREDICT(predict_gqa_group, predict_weights, WEIGHT_GQA_GROUP)

/* Both summaries taken the same way: A and M both the expected M (scores
   averaged) or both the expected A (weights averaged); the gap is then 0. */
static int predict_average(const gr_case *c, void *out[PROTO_MAX_BUFS], int from)
{
    if (c->call.fn != LAB10_HEAD_AVERAGE || c->expected_status != LAB_OK || I(1) < 2)
        return -1;
    long n = (long)c->call.bufs[0].count;
    for (int k = 0; k < 2; k++) {
        out[k] = gr_case_alloc_like(c, k);
        memcpy(out[k], c->expected[from], (size_t)n * sizeof(float));
    }
    out[2] = gr_case_alloc_like(c, 2);  /* zeros: no gap, no entropy difference */
    return 0;
}

GR_PREDICT(predict_avg_scores, predict_average, 1)
GR_PREDICT(predict_avg_weights, predict_average, 0)

/* One head read wrongly: from plane h * B + b (W taken as (H, B, Tq, Tk)), or
   written transposed (Wh[j][i] = W[b][h][i][j]). */
static int predict_extract(const gr_case *c, void *out[PROTO_MAX_BUFS], int transposed)
{
    if (c->call.fn != LAB10_EXTRACT_HEAD || c->expected_status != LAB_OK)
        return -1;
    int B = I(0), H = I(1), Tq = I(2), Tk = I(3), b = I(4), h = I(5);
    long plane = (long)Tq * Tk, at = transposed ? (long)b * H + h : (long)h * B + b;
    if (transposed ? (Tq == 1 || Tk == 1) : at == (long)b * H + h)
        return -1;
    const float *w = (const float *)c->call.bufs[1].data + at * plane;
    float *Wh = out[0] = gr_case_alloc_like(c, 0);
    for (int i = 0; i < Tq; i++)
        for (int j = 0; j < Tk; j++)
            Wh[transposed ? (long)j * Tq + i : (long)i * Tk + j] = w[(long)i * Tk + j];
    return 0;
}

GR_PREDICT(predict_head_swapped, predict_extract, 0)
GR_PREDICT(predict_transposed, predict_extract, 1)

static const gr_misconception misconceptions[] = {
    { "softmax_heads", "softmax over the head axis",
      "Each head normalises its own scores: softmax runs over the keys j of one (b, h, i) row. "
      "Normalising over the heads makes the H weights of one (query, key) pair sum to 1 "
      "instead of each row.",
      { 10, "2" }, predict_head_axis },
    { "softmax_queries", "softmax over the query axis",
      "A row of weights is the distribution one query spreads over the keys; normalising over "
      "the queries i makes each key's column sum to 1 instead.",
      { 10, "2" }, predict_query_axis },
    { "no_scale", "scores not divided by sqrt(d)",
      "Each head's scores are q.k / sqrt(d), d the head size: without it the scores have "
      "variance d and softmax saturates.",
      { 10, "2" }, predict_no_scale },
    { "gqa_mod", "GQA heads grouped round-robin (kv = h % Hkv) where consecutive groups "
      "are asked",
      "Consecutive groups of H / Hkv query heads share a key head: kv = h / (H / Hkv), the "
      "grouping of the GQA paper, FlashAttention and repeat_kv. h % Hkv (K tiled, not "
      "repeat-interleaved) deals heads out round-robin; it agrees only when Hkv = 1 or "
      "Hkv = H.",
      { 10, "4" }, predict_gqa_mod },
    { "gqa_group", "GQA group size taken as Hkv (kv = h / Hkv)",
      "The group size is H / Hkv query heads per key head, so kv = h / (H / Hkv); h / Hkv "
      "divides by the number of key heads instead, right only when H = Hkv^2.",
      { 10, "4" }, predict_gqa_group },
    { "avg_scores", "scores averaged instead of weights",
      "A is the average of the heads' weights, softmax first and then the mean; averaging the "
      "scores first gives softmax of the mean score, M, a different distribution.",
      { 10, "3" }, predict_avg_scores },
    { "avg_weights", "weights averaged instead of scores",
      "M is softmax of the heads' mean score: average the scores, then one softmax. Averaging "
      "the heads' weights gives A instead, a different distribution.",
      { 10, "3" }, predict_avg_weights },
    { "head_swapped", "head and batch axes swapped when extracting",
      "W is (B, H, Tq, Tk): head h of batch entry b is plane b * H + h. Reading plane "
      "h * B + b takes W as (H, B, Tq, Tk) and draws another head.",
      { 10, "5" }, predict_head_swapped },
    { "head_transposed", "extracted head written transposed",
      "Row i of the heatmap is query i and column j key j: Wh[i][j] = W[b][h][i][j]. Writing "
      "Wh[j][i] puts the keys down the side.",
      { 10, "5" }, predict_transposed },
};

/* ---- input window -------------------------------------------------------------- */

static void input_window(const gr_case *c, int buf, long index, gr_strbuf *out)
{
    switch (c->call.fn) {
    case LAB10_HEAD_WEIGHTS:
    case LAB10_GQA_WEIGHTS: {
        int gqa = c->call.fn == LAB10_GQA_WEIGHTS, o = gqa ? 1 : 0;
        int H = I(1), Hkv = gqa ? I(2) : H, Tq = I(2 + o), Tk = I(3 + o), d = I(4 + o);
        long plane = index / ((long)Tq * Tk);
        int b = (int)(plane / H), h = (int)(plane % H), i = (int)(index / Tk % Tq);
        int kv = attn_gqa_kv_head(h, H, Hkv);
        float *s = gr_xmalloc((size_t)Tk * sizeof *s);
        attn_scaled_dot_scores(s, (const float *)c->call.bufs[1].data + (plane * Tq + i) * d,
                               (const float *)c->call.bufs[2].data + ((long)b * Hkv + kv) * Tk * d,
                               1, 1, Tk, d);
        gr_sb_printf(out, "  W[%ld][%d] (first index b * H + h) is row i = %d of head h = %d "
                     "of batch entry b = %d", plane, i, i, h, b);
        if (gqa)
            gr_sb_printf(out, "; it reads key head h / (H / Hkv) = %d / %d = %d", h, H / Hkv, kv);
        gr_sb_printf(out, "\n  its scores q.k / sqrt(%d):", d);
        gr_case_values(out, s, Tk, 'g', 5);
        gr_sb_append(out, "\n");
        free(s);
        break;
    }
    case LAB10_HEAD_AVERAGE: {
        int H = I(1), Tq = I(2), Tk = I(3);
        long row = buf == 2 ? index / 2 : index / Tk;
        int b = (int)(row / Tq), i = (int)(row % Tq);
        for (int h = 0; h < H && h < 4; h++) {
            gr_sb_printf(out, "  S[%d][%d][%d]:", b, h, i);
            gr_case_values(out, (const float *)c->call.bufs[3].data + (((long)b * H + h) * Tq + i) * Tk,
                         Tk, 'g', 5);
            gr_sb_append(out, "\n");
        }
        if (H > 4)
            gr_sb_printf(out, "  ... %d heads in all\n", H);
        break;
    }
    case LAB10_EXTRACT_HEAD: {
        int B = I(0), H = I(1), Tq = I(2), Tk = I(3), b = I(4), h = I(5);
        if (b < 0 || b >= B || h < 0 || h >= H) {  /* no such plane of W to show */
            gr_sb_printf(out, "  (b, h) = (%d, %d) is outside (B, H) = (%d, %d): the call must "
                         "return LAB_BAD_ARG and leave Wh untouched\n", b, h, B, H);
            break;
        }
        long i = index / Tk, j = index % Tk, at = (((long)b * H + h) * Tq + i) * Tk + j;
        gr_sb_printf(out, "  Wh[%ld][%ld] is W[%d][%d][%ld][%ld], element ((%d * %d + %d) * %d + %ld) "
                     "* %d + %ld = %ld of W: ", i, j, b, h, i, j, b, H, h, Tq, i, Tk, j, at);
        gr_case_float(out, ((const float *)c->call.bufs[1].data)[at], 'g', 6);
        gr_sb_append(out, "\n");
        break;
    }
    }
}

const gr_lab_module gr_lab10_module = {
    .number = 10,
    .dir = "lab10-heads",
    .make_case = make_case,
    .misconceptions = misconceptions,
    .n_misconceptions = (int)(sizeof misconceptions / sizeof misconceptions[0]),
    .input_window = input_window,
};
