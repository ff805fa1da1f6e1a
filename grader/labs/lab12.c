/* lab12.c: what the grader knows about lab 12, the whole layer, projections,
 * heads, W_O and cross-attention.
 *
 * Test kinds (the rubric's `kind`), each a call of one student function:
 *   split_heads      lab_split_heads on X ~ N(0, 1)
 *   self_attention   lab_self_attention, X ~ N(0, scale^2), W ~ N(0, 1/d_model)
 *   cross_attention  lab_cross_attention, Y and S as X, the source right-padded
 *                    to a length drawn in [1, Tk] (empty: the last entry keeps
 *                    none; bytes: kept bytes drawn in 1..255; opposite: identity
 *                    projections and Y = -opposite S, every score far below 0)
 * worked: 1 gives the handout's worked examples (sections 4 and 5). Sizes the
 * contract rejects are written in the rubric as they are: the expected status
 * is LAB_BAD_ARG exactly when libattn refuses them. A rubric test with params
 * {seed: N} draws the same inputs for every student. Expected outputs come from
 * libattn (attn_split_heads, attn_mha); the misconceptions recompute with the
 * mistake, in double as libattn does.
 */
#include "base/labmod.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attn.h"
#include "labsup.h"
#include "lab12_calls.h"

#define I(k) ((int)c->call.ints[k])

/* What a misconception gets wrong; RIGHT is the contract. */
typedef enum layer_mode {
    RIGHT,
    SPLIT_AXIS,      /* head h owns features j*H + h: the head index varying fastest */
    CONCAT_FLAT,     /* (H, T, dh) reshaped to (T, H*dh) without moving the head axis */
    NO_WO,           /* the concat returned, W_O never applied */
    CROSS_CAUSAL,    /* cross-attention masked causally, key j > query i blocked */
    Q_FROM_SOURCE,   /* queries projected from the encoder's S, not the decoder's Y */
    SCALE_DMODEL,    /* scores over sqrt(d_model), not sqrt(dh) */
} layer_mode;

/* ---- the layer, with a mistake or without --------------------------------------- */

static int feat(int h, int j, int H, int dh, layer_mode m)
{
    return m == SPLIT_AXIS ? j * H + h : h * dh + j;
}

static void project(double *P, const float *X, const float *W, int rows, int d)
{
    for (long r = 0; r < rows; r++)
        for (int o = 0; o < d; o++) {
            double s = 0;
            for (int i = 0; i < d; i++)
                s += (double)X[r * d + i] * (double)W[(long)i * d + o];
            P[r * d + o] = s;
        }
}

/* Head h's weights of query row i (q at its head's features) into w. */
static void weights(double *w, const double *q, const double *K, const uint8_t *keep, int i,
                    int Tk, int d, int H, int h, int causal, layer_mode m)
{
    double mx = -(double)INFINITY, sum = 0, scale = sqrt((double)(m == SCALE_DMODEL ? d : d / H));
    for (int j = 0; j < Tk; j++) {
        double s = 0;
        for (int c = 0; c < d / H; c++)
            s += q[feat(h, c, H, d / H, m)] * K[(long)j * d + feat(h, c, H, d / H, m)];
        w[j] = (causal && j > i) || (keep && !keep[j]) ? -(double)INFINITY : s / scale;
        mx = fmax(mx, w[j]);
    }
    for (int j = 0; j < Tk; j++)
        sum += (w[j] = isinf(mx) ? 0 : exp(w[j] - mx));
    for (int j = 0; j < Tk; j++)
        w[j] = sum > 0 ? w[j] / sum : 0;
}

/* One batch entry: O (Tq, d) and A (per head or mean) with mistake m. */
static void entry(float *O, float *A, const float *Xq, const float *Xkv, const float *W,
                  const uint8_t *keep, int Tq, int Tk, int d, int H, int causal, int average,
                  layer_mode m)
{
    long dd = (long)d * d;
    double *Q = gr_xmalloc(((size_t)Tq * d * 2 + (size_t)Tk * (d * 2 + 1)) * sizeof *Q);
    double *C = Q + (long)Tq * d, *K = C + (long)Tq * d, *V = K + (long)Tk * d, *w = V + (long)Tk * d;
    for (int i = 0; i < Tq; i++)       /* the encoder's row i (its last past Tk) */
        project(Q + (long)i * d, m == Q_FROM_SOURCE ? Xkv + (long)(i < Tk ? i : Tk - 1) * d
                                                     : Xq + (long)i * d, W, 1, d);
    project(K, Xkv, W + dd, Tk, d);
    project(V, Xkv, W + 2 * dd, Tk, d);
    memset(C, 0, (size_t)Tq * d * sizeof *C);
    for (long k = 0; average && k < (long)Tq * Tk; k++)
        A[k] = 0;
    for (int h = 0; h < H; h++)
        for (int i = 0; i < Tq; i++) {
            weights(w, Q + (long)i * d, K, keep, i, Tk, d, H, h, causal, m);
            for (int j = 0; j < Tk; j++) {
                for (int c = 0; c < d / H; c++) {
                    long at = m == CONCAT_FLAT ? ((long)h * Tq + i) * (d / H) + c
                                               : (long)i * d + feat(h, c, H, d / H, m);
                    C[at] += w[j] * V[(long)j * d + feat(h, c, H, d / H, m)];
                }
                if (average)
                    A[(long)i * Tk + j] = (float)((double)A[(long)i * Tk + j] + w[j] / H);
                else
                    A[((long)h * Tq + i) * Tk + j] = (float)w[j];
            }
        }
    for (long r = 0; r < (long)Tq * d; r++) {
        double s = 0;
        for (int k = 0; k < d && m != NO_WO; k++)
            s += C[(r / d) * d + k] * (double)W[3 * dd + (long)k * d + r % d];
        O[r] = (float)(m == NO_WO ? C[r] : s);
    }
    free(Q);
}

/* ---- inputs ------------------------------------------------------------------------ */

/* Sizes named in the rubric, each in [lo, 1 << 16]; -1 with err. */
static int sizes(const gr_rubric_test *t, int n, const char *const *names, const int *dflt,
                 const int *lo, int *out, char *err, size_t errlen)
{
    for (int i = 0; i < n; i++)
        if (gr_test_int(t, names[i], dflt[i], lo[i], 1 << 16, &out[i], err, errlen) != 0)
            return -1;
    return 0;
}

static int too_big(const gr_rubric_test *t, long count, char *err, size_t errlen)
{
    if (count <= GR_MAX_ELEMS)
        return 0;
    snprintf(err, errlen, "test %s: sizes too large (at most %ld elements an array)", t->name,
             GR_MAX_ELEMS);
    return 1;
}

static long nonneg(long n)
{
    return n > 0 ? n : 0;
}

/* The handout's worked weights: W_Q = W_K = W_V = I, W_O adds head 1 to head 0. */
static void worked_w(float *W)
{
    for (int k = 0; k < 4; k++)
        for (int i = 0; i < 4; i++)
            W[k * 16 + i * 4 + i] = 1;
    W[48 + 2 * 4 + 0] = W[48 + 3 * 4 + 1] = 1;
}

/* A is sent holding -1, a weight never is: with average 1 its tail past the
   heads' mean must come back as it went. */
static void fill_minus_one(float *A, long n)
{
    for (long k = 0; k < n; k++)
        A[k] = -1;
}

/* ---- lab_split_heads ---------------------------------------------------------------- */

static int gen_split(const gr_case_kind *kind, const gr_rubric_test *t, uint64_t seed,
                     gr_case *c, char *err, size_t errlen)
{
    static const char *const names[] = {"B", "T", "H", "dh"};
    static const int dflt[] = {2, 3, 2, 3}, lo[] = {-1, -1, 0, 0};
    int s[4];
    (void)kind;
    if (sizes(t, 4, names, dflt, lo, s, err, errlen) != 0 ||
        too_big(t, nonneg(s[0]) * nonneg(s[1]) * s[2] * s[3], err, errlen))
        return -1;
    int B = s[0], T = s[1], H = s[2], dh = s[3];
    long n = nonneg(B) * nonneg(T) * H * dh;
    sup_rng r;
    sup_rng_seed(&r, seed);
    c->call.fn = LAB12_SPLIT_HEADS;
    gr_case_add_f32(c, PROTO_OUT, n);
    float *X = gr_case_add_f32(c, PROTO_IN, n);
    gr_fill_normal(&r, X, n, 1.0);
    gr_case_set_names(c, "Xh", "X", NULL);
    gr_case_set_shape4(c, 0, (int)nonneg(B), H, (int)nonneg(T), dh);
    gr_case_set_shape(c, 1, (int)nonneg(B), (int)nonneg(T), H * dh);
    GR_CASE_ADD_INTS(c, B, T, H, dh);
    snprintf(c->describe, sizeof c->describe, "lab_split_heads(Xh, X, B=%d, T=%d, H=%d, dh=%d)",
             B, T, H, dh);
    c->expected_status = LAB_OK;
    float *want = gr_case_expect(c, 0);
    if (attn_split_heads(want, X, B, T, H, dh) == 0)
        return 0;
    free(want);
    c->expected[0] = NULL;
    return gr_case_expect_bad_arg(c);      /* the sizes the contract rejects */
}

/* ---- lab_self_attention and lab_cross_attention -------------------------------------- */

/* The source's keep bytes: batch entry b keeps its first len_b tokens, len_b
   drawn in [2, Tk] (one kept token takes every weight, whatever the scores:
   no mistake would show); empty: the last keeps none; bytes: kept bytes
   1..255. */
static void fill_keep(sup_rng *r, uint8_t *keep, int B, int Tk, const gr_rubric_test *t)
{
    int empty = gr_rubric_test_param(t, "empty", 0) != 0, bytes = gr_rubric_test_param(t, "bytes", 0) != 0;
    for (int b = 0; b < B; b++) {
        int len = Tk < 2 ? Tk : 2 + (int)(sup_rng_u64(r) % (uint64_t)(Tk - 1));
        if (b == B - 1 && empty)
            len = 0;
        for (int j = 0; j < Tk; j++)
            keep[(long)b * Tk + j] = j >= len ? 0 : bytes ? (uint8_t)(1 + sup_rng_u64(r) % 255) : 1;
    }
}

/* Inputs of either layer call: Xq (B, Tq, d), for cross also S (B, Tk, d), W. */
static void fill_layer(sup_rng *r, float *Xq, float *S, float *W, long nq, long nk, int d,
                       const gr_rubric_test *t, int worked)
{
    static const float X2[8] = {1, 0, 0, 2, 0, 1, 2, 0}, Y1[4] = {1, 0, 0, 1},
                       S3[12] = {1, 0, 0, 2, 0, 1, 2, 0, 5, 5, 5, 5};
    if (worked) {                      /* the handout's sizes, checked by the caller */
        memcpy(Xq, S ? Y1 : X2, (S ? 4 : 8) * sizeof *Xq);
        if (S)
            memcpy(S, S3, sizeof S3);
        worked_w(W);
        return;
    }
    double scale = gr_rubric_test_param(t, "scale", 1.0), opp = gr_rubric_test_param(t, "opposite", 0);
    gr_fill_normal(r, Xq, nq, scale);
    if (S)
        gr_fill_normal(r, S, nk, scale);
    gr_fill_normal(r, W, 4L * d * d, d > 0 ? 1.0 / sqrt((double)d) : 1.0);
    if (opp == 0 || !S || nk == 0)
        return;
    memset(W, 0, 4L * d * d * sizeof *W);  /* identities: each query's score with its own */
    for (int k = 0; k < 4 * d; k++)        /* source row is -opp |s|^2 / sqrt(dh), far below 0 */
        W[(long)k * d + k % d] = 1;
    for (long k = 0; k < nq; k++)
        Xq[k] = (float)(-opp * (double)S[k % nk]);
}

/* Expected outputs from attn_mha, or LAB_BAD_ARG where it refuses the call. */
static int expect_layer(gr_case *c, const float *Xq, const float *Xkv, const float *W,
                        const uint8_t *keep, int B, int Tq, int Tk, int d, int H, int causal,
                        int average)
{
    c->expected_status = LAB_OK;
    float *O = gr_case_expect(c, 0), *A = gr_case_expect(c, 1);
    if (attn_mha(O, A, Xq, Xkv, W, keep, B, Tq, Tk, d, H, causal, average) == 0)
        return 0;
    for (int b = 0; b < 2; b++) {
        free(c->expected[b]);
        c->expected[b] = NULL;
    }
    return gr_case_expect_bad_arg(c);
}

static int gen_self(const gr_case_kind *kind, const gr_rubric_test *t, uint64_t seed,
                    gr_case *c, char *err, size_t errlen)
{
    static const char *const names[] = {"B", "T", "d_model", "H", "causal", "average"};
    static const int dflt[] = {2, 5, 8, 2, 0, 0}, lo[] = {-1, -1, 0, 0, 0, 0};
    int s[6], worked = gr_rubric_test_param(t, "worked", 0) != 0;
    (void)kind;
    if (sizes(t, 6, names, dflt, lo, s, err, errlen) != 0 ||
        too_big(t, nonneg(s[0]) * s[3] * nonneg(s[1]) * nonneg(s[1]) + 4L * s[2] * s[2], err, errlen))
        return -1;
    int B = s[0], T = s[1], d = s[2], H = s[3], causal = s[4], average = s[5];
    if (worked && (B != 1 || T != 2 || d != 4 || H != 2)) {
        snprintf(err, errlen, "test %s: worked: 1 needs B 1, T 2, d_model 4, H 2", t->name);
        return -1;
    }
    long n = nonneg(B) * nonneg(T) * d;
    sup_rng r;
    sup_rng_seed(&r, seed);
    c->call.fn = LAB12_SELF_ATTENTION;
    gr_case_add_f32(c, PROTO_OUT, n);
    fill_minus_one(gr_case_add_f32(c, PROTO_INOUT, nonneg(B) * H * nonneg(T) * nonneg(T)),
                   nonneg(B) * H * nonneg(T) * nonneg(T));
    float *X = gr_case_add_f32(c, PROTO_IN, n), *W = gr_case_add_f32(c, PROTO_IN, 4L * d * d);
    fill_layer(&r, X, NULL, W, n, 0, d, t, worked);
    gr_case_set_names(c, "O", "A", "X", "W", NULL);
    gr_case_set_shape(c, 0, (int)nonneg(B), (int)nonneg(T), d);
    gr_case_set_shape4(c, 1, (int)nonneg(B), average ? 1 : H, (int)nonneg(T), (int)nonneg(T));
    gr_case_set_shape(c, 2, (int)nonneg(B), (int)nonneg(T), d);
    gr_case_set_shape(c, 3, 4, d, d);
    GR_CASE_ADD_INTS(c, B, T, d, H, causal, average);
    snprintf(c->describe, sizeof c->describe, "lab_self_attention(O, A, X, W, B=%d, T=%d, "
             "d_model=%d, H=%d, causal=%d, average=%d)%s", B, T, d, H, causal, average,
             worked ? ": the handout's worked example" : "");
    return expect_layer(c, X, X, W, NULL, B, T, T, d, H, causal, average);
}

static int gen_cross(const gr_case_kind *kind, const gr_rubric_test *t, uint64_t seed,
                     gr_case *c, char *err, size_t errlen)
{
    static const char *const names[] = {"B", "Tq", "Tk", "d_model", "H", "average"};
    static const int dflt[] = {2, 3, 5, 8, 2, 0}, lo[] = {-1, -1, -1, 0, 0, 0};
    int s[6], worked = gr_rubric_test_param(t, "worked", 0) != 0;
    (void)kind;
    if (sizes(t, 6, names, dflt, lo, s, err, errlen) != 0 ||
        too_big(t, nonneg(s[0]) * s[4] * nonneg(s[1]) * nonneg(s[2]) + 4L * s[3] * s[3], err, errlen))
        return -1;
    int B = s[0], Tq = s[1], Tk = s[2], d = s[3], H = s[4], average = s[5];
    if (worked && (B != 1 || Tq != 1 || Tk != 3 || d != 4 || H != 2)) {
        snprintf(err, errlen, "test %s: worked: 1 needs B 1, Tq 1, Tk 3, d_model 4, H 2", t->name);
        return -1;
    }
    long nq = nonneg(B) * nonneg(Tq) * d, nk = nonneg(B) * nonneg(Tk) * d;
    sup_rng r;
    sup_rng_seed(&r, seed);
    c->call.fn = LAB12_CROSS_ATTENTION;
    gr_case_add_f32(c, PROTO_OUT, nq);
    fill_minus_one(gr_case_add_f32(c, PROTO_INOUT, nonneg(B) * H * nonneg(Tq) * nonneg(Tk)),
                   nonneg(B) * H * nonneg(Tq) * nonneg(Tk));
    float *Y = gr_case_add_f32(c, PROTO_IN, nq), *S = gr_case_add_f32(c, PROTO_IN, nk);
    float *W = gr_case_add_f32(c, PROTO_IN, 4L * d * d);
    uint8_t *keep = gr_case_add_u8(c, PROTO_IN, nonneg(B) * nonneg(Tk));
    fill_layer(&r, Y, S, W, nq, nk, d, t, worked);
    fill_keep(&r, keep, (int)nonneg(B), (int)nonneg(Tk), t);
    if (worked)                        /* the third source token is padding */
        memcpy(keep, (const uint8_t[3]){1, 1, 0}, 3);
    gr_case_set_names(c, "O", "A", "Y", "S", "W", "keep", NULL);
    gr_case_set_shape(c, 0, (int)nonneg(B), (int)nonneg(Tq), d);
    gr_case_set_shape4(c, 1, (int)nonneg(B), average ? 1 : H, (int)nonneg(Tq), (int)nonneg(Tk));
    gr_case_set_shape(c, 2, (int)nonneg(B), (int)nonneg(Tq), d);
    gr_case_set_shape(c, 3, (int)nonneg(B), (int)nonneg(Tk), d);
    gr_case_set_shape(c, 4, 4, d, d);
    gr_case_set_shape2(c, 5, (int)nonneg(B), (int)nonneg(Tk));
    GR_CASE_ADD_INTS(c, B, Tq, Tk, d, H, average);
    snprintf(c->describe, sizeof c->describe, "lab_cross_attention(O, A, Y, S, W, keep, B=%d, "
             "Tq=%d, Tk=%d, d_model=%d, H=%d, average=%d)%s", B, Tq, Tk, d, H, average,
             worked ? ": the handout's worked example" : "");
    return expect_layer(c, Y, S, W, keep, B, Tq, Tk, d, H, 0, average);
}

/* ---- misconceptions ------------------------------------------------------------------- */

/* c's layer call (self or cross) with mistake m into out[0..1]. */
static void layer_case(const gr_case *c, void *out[PROTO_MAX_BUFS], layer_mode m)
{
    int cross = c->call.fn == LAB12_CROSS_ATTENTION, B = I(0), Tq = I(1), Tk = cross ? I(2) : Tq;
    int d = I(cross ? 3 : 2), H = I(cross ? 4 : 3), causal = cross ? m == CROSS_CAUSAL : I(4);
    int average = I(5);
    const float *Xq = c->call.bufs[2].data, *Xkv = c->call.bufs[cross ? 3 : 2].data;
    const float *W = c->call.bufs[cross ? 4 : 3].data;
    const uint8_t *keep = cross ? c->call.bufs[5].data : NULL;
    float *O = out[0] = gr_case_alloc_like(c, 0), *A = out[1] = gr_case_alloc_like(c, 1);
    for (int b = 0; b < B; b++)
        entry(O + (long)b * Tq * d, A + (long)b * (average ? 1 : H) * Tq * Tk,
              Xq + (long)b * Tq * d, Xkv + (long)b * Tk * d, W, keep ? keep + (long)b * Tk : NULL,
              Tq, Tk, d, H, causal, average, m);
}

static int predict(const gr_case *c, void *out[PROTO_MAX_BUFS], layer_mode m)
{
    if (c->expected_status != LAB_OK || I(0) < 1 || I(1) < 1)
        return -1;
    if (c->call.fn == LAB12_SPLIT_HEADS) {
        int B = I(0), T = I(1), H = I(2), dh = I(3);
        if (m != SPLIT_AXIS || H < 2 || dh < 2)
            return -1;
        float *Xh = out[0] = gr_case_alloc_like(c, 0);
        const float *X = c->call.bufs[1].data;
        for (long bt = 0; bt < (long)B * T; bt++)
            for (int h = 0; h < H; h++)
                for (int j = 0; j < dh; j++)
                    Xh[(((bt / T) * H + h) * T + bt % T) * dh + j] = X[bt * H * dh + j * H + h];
        return 0;
    }
    int cross = c->call.fn == LAB12_CROSS_ATTENTION, H = I(cross ? 4 : 3);
    if ((m == CROSS_CAUSAL || m == Q_FROM_SOURCE) && (!cross || I(2) < 1))
        return -1;
    if ((m == SPLIT_AXIS || m == SCALE_DMODEL || m == CONCAT_FLAT) && H < 2)
        return -1;
    if (m == CONCAT_FLAT && I(1) < 2)
        return -1;                     /* one query: the flat reshape is the concat */
    layer_case(c, out, m);
    return 0;
}

GR_PREDICT(predict_split_axis, predict, SPLIT_AXIS)
GR_PREDICT(predict_concat_flat, predict, CONCAT_FLAT)
GR_PREDICT(predict_no_wo, predict, NO_WO)
GR_PREDICT(predict_cross_causal, predict, CROSS_CAUSAL)
GR_PREDICT(predict_q_from_source, predict, Q_FROM_SOURCE)
GR_PREDICT(predict_scale_dmodel, predict, SCALE_DMODEL)

static const gr_misconception misconceptions[] = {
    {"split_axis", "heads split along the wrong axis",
     "head h takes features h, H + h, 2H + h, ... (the head index varying fastest, a "
     "view(B, T, dh, H)) instead of its own block h*dh .. h*dh + dh - 1 (view(B, T, H, dh)): "
     "every head then mixes features the projections meant for others.", {12, "3"},
     predict_split_axis},
    {"concat_flat", "the heads concatenated in the wrong order",
     "the heads' outputs (H, T, dh) are read as (T, H*dh) without moving the head axis back "
     "(a reshape without the transpose): row t of the concat holds head 0's rows, not token "
     "t's heads side by side.", {12, "4"}, predict_concat_flat},
    {"no_wo", "W_O forgotten",
     "the concatenated heads are returned as the output; the layer ends with W_O, which mixes "
     "the heads (a head alone writes only its dh features).", {12, "4"}, predict_no_wo},
    {"cross_causal", "cross-attention masked causally",
     "query i sees only source tokens 0..i; the causal mask belongs to the decoder's "
     "self-attention: every target token may read the whole source (its padding aside).",
     {12, "5"}, predict_cross_causal},
    {"q_from_source", "queries taken from the encoder",
     "the queries are projected from the encoder's output S; in cross-attention the queries "
     "come from the decoder (Y) and only the keys and values from the source.", {12, "5"},
     predict_q_from_source},
    {"scale_dmodel", "scores scaled by sqrt(d_model)",
     "each head's scores are divided by sqrt(d_model); a head's dot product has dh = d_model "
     "/ H terms, so the scale is 1/sqrt(dh): the weights come out too flat.", {12, "2"},
     predict_scale_dmodel},
};

static int make_case(const gr_rubric_test *t, uint64_t seed, gr_case *c, char *err, size_t errlen)
{
    static const gr_case_kind kinds[] = {
        {"split_heads", gen_split, LAB12_SPLIT_HEADS, GR_VARIANT_RANDOM},
        {"self_attention", gen_self, LAB12_SELF_ATTENTION, GR_VARIANT_RANDOM},
        {"cross_attention", gen_cross, LAB12_CROSS_ATTENTION, GR_VARIANT_RANDOM},
    };
    return gr_make_case_by_kind(kinds, GR_N_KINDS(kinds), 12, t, seed, c, err, errlen);
}

const gr_lab_module gr_lab12_module = {
    .number = 12,
    .dir = "lab12-layer",
    .make_case = make_case,
    .misconceptions = misconceptions,
    .n_misconceptions = GR_N_KINDS(misconceptions),
    .input_window = NULL,
};
