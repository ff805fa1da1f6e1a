/* lab08.c: what the grader knows about lab 8, the gradient through softmax.
 *
 * Two functions are graded (lab08_calls.h, generated from the manifest, numbers the calls):
 *   lab_softmax_backward      ds = w * (g - <w, g>), row by row; also called in
 *                             place (dS the same array as dW), as the contract allows
 *   lab_gradient_experiment   mean ||ds|| for raw and scaled scores as d_k grows
 *
 * Dimensions: rows x n for the backward pass; in the experiment T keys of size
 * d. Expected values come from libattn. The backward misconceptions also
 * predict the experiment, which the contract builds on the same formula.
 */
#include "base/labmod.h"
#include "lab08_calls.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attn.h"
#include "labsup.h"


/* ---- softmax backward, right and wrong ------------------------------------------ */

typedef enum back_mode {
    BACK_RIGHT,
    BACK_NO_WG,         /* ds = w * g: the <w, g> term forgotten */
    BACK_DIAG_ONLY,     /* ds = w (1 - w) g: only the Jacobian's diagonal */
    BACK_NO_W_FACTOR,   /* ds = g - <w, g>: the factor w forgotten */
    BACK_JACOBIAN_ROWS  /* ds_j = sum_k w_j (1[j=k] - w_k) g_k, written into g as it
                           goes: right apart, wrong in place */
} back_mode;

/* dS from W and dW (rows x n) as a student in `mode` computes it. dS may equal
   dW, and for BACK_JACOBIAN_ROWS that aliasing is the point. */
static void backward_ref(float *dS, const float *W, const float *dW, long rows, int n,
                         back_mode mode)
{
    if (mode == BACK_RIGHT) {
        attn_softmax_backward(dS, W, dW, rows, n);
        return;
    }
    for (long r = 0; r < rows; r++) {
        const float *w = W + r * n, *g = dW + r * n;
        float *ds = dS + r * n;
        if (mode == BACK_JACOBIAN_ROWS) {
            for (int j = 0; j < n; j++) {
                float acc = 0.0f;
                for (int k = 0; k < n; k++)
                    acc += w[j] * ((j == k ? 1.0f : 0.0f) - w[k]) * g[k];
                ds[j] = acc;  /* in place, g[j] is gone for the rows after it */
            }
            continue;
        }
        double wg = 0.0;
        for (int j = 0; j < n; j++) wg += (double)w[j] * (double)g[j];
        for (int j = 0; j < n; j++) {
            double v;
            switch (mode) {
            case BACK_NO_WG:       v = (double)w[j] * (double)g[j]; break;
            case BACK_DIAG_ONLY:   v = (double)w[j] * (1.0 - (double)w[j]) * (double)g[j]; break;
            case BACK_NO_W_FACTOR: v = (double)g[j] - wg; break;
            default:               v = 0.0; break;
            }
            ds[j] = (float)v;
        }
    }
}

/* ---- the experiment, right and wrong ------------------------------------------------ */

typedef enum exp_mode {
    EXP_RIGHT,
    EXP_INV_D,          /* scaled scores divided by d instead of sqrt(d) */
    EXP_RESEED          /* the generator reseeded for every d_k */
} exp_mode;

/* The contract's procedure, with the student's backward (bm) and experiment (em)
   mistakes: for each d, trials of q (d), K (T*d), g (T) drawn in that order from
   one generator; the mean L2 norm of ds for raw and for scaled scores. */
static void experiment_ref(float *g_raw, float *g_scaled, const int32_t *dks, int n_dk,
                           int T, int trials, uint64_t seed, back_mode bm, exp_mode em)
{
    int d_max = 1;
    for (int m = 0; m < n_dk; m++)
        if (dks[m] > d_max) d_max = dks[m];
    float *q = gr_xmalloc((size_t)d_max * sizeof *q);
    float *K = gr_xmalloc((size_t)T * d_max * sizeof *K);
    float *g = gr_xmalloc((size_t)T * sizeof *g);
    float *s = gr_xmalloc((size_t)T * sizeof *s);
    float *ds = gr_xmalloc((size_t)T * sizeof *ds);
    sup_rng r;
    sup_rng_seed(&r, seed);
    for (int m = 0; m < n_dk; m++) {
        int d = dks[m];
        if (em == EXP_RESEED)
            sup_rng_seed(&r, seed);
        double sum[2] = { 0.0, 0.0 };
        for (int trial = 0; trial < trials; trial++) {
            sup_rng_fill_normal(&r, q, d);
            sup_rng_fill_normal(&r, K, (long)T * d);
            sup_rng_fill_normal(&r, g, T);
            for (int kind = 0; kind < 2; kind++) {
                /* raw q.k (kind 0) or scaled q.k / sqrt(d) (kind 1) */
                attn_dot_scores(s, q, K, 1, 1, T, d);
                if (kind == 1) {
                    double div = em == EXP_INV_D ? (double)d : sqrt((double)d);
                    for (int j = 0; j < T; j++) s[j] = (float)((double)s[j] / div);
                }
                attn_softmax(s, s, 1, T);
                backward_ref(ds, s, g, 1, T, bm);
                double sq = 0.0;
                for (int j = 0; j < T; j++) sq += (double)ds[j] * (double)ds[j];
                sum[kind] += sqrt(sq);
            }
        }
        g_raw[m] = (float)(sum[0] / trials);
        g_scaled[m] = (float)(sum[1] / trials);
    }
    free(q); free(K); free(g); free(s); free(ds);
}

/* ---- test generators -------------------------------------------------------- */

/* backward: sizes {rows, n}; kind backward_bad: rows < 1 or n < 1, LAB_BAD_ARG
 * with dS untouched (4 drawn values in each array); params:
 *   worked   1: W = the worked row's weights [0.7054, 0.2595, 0.0351, 0] twice,
 *            with g = [1, 0, 0, 0] and [0.5, -1, 2, 3]
 *   scale    W = softmax(scale * N(0,1)); 30 is nearly one-hot (saturated)
 *   masked   1: about a third of the scores -inf before softmax (weights exactly 0)
 *   inplace  1: call with dS == dW (LAB08_SOFTMAX_BACKWARD_INPLACE) */
static int gen_backward(const gr_case_kind *kind, const gr_rubric_test *t, uint64_t seed,
                        gr_case *c, char *err, size_t errlen)
{
    int bad = kind->what == GR_VARIANT_BAD, worked, rows, n;
    if (gr_backward_sizes(t, kind->what, &worked, &rows, &n, err, errlen))
        return -1;
    double scale = gr_rubric_test_param(t, "scale", 2.0);
    int masked = gr_rubric_test_param(t, "masked", 0) != 0;
    int inplace = gr_rubric_test_param(t, "inplace", 0) != 0;
    long count = bad ? 4 : (long)rows * n;
    float *W, *dW;
    int gbuf;
    if (inplace) {
        W = gr_case_add_f32(c, PROTO_IN, count);
        dW = gr_case_add_f32(c, PROTO_INOUT, count);
        gbuf = 1;
        gr_case_set_names(c, "W", "dS (= dW)", NULL);
    } else {
        gr_case_add_f32(c, PROTO_OUT, count);
        W = gr_case_add_f32(c, PROTO_IN, count);
        dW = gr_case_add_f32(c, PROTO_IN, count);
        gbuf = 0;
        gr_case_set_names(c, "dS", "W", "dW", NULL);
    }
    for (int i = 0; i < c->call.n_bufs && !bad; i++) gr_case_set_shape2(c, i, rows, n);

    sup_rng r;
    sup_rng_seed(&r, seed);
    if (worked) {
        /* The worked row: scores [2, 1, -1, -inf] (key 3 is padding). */
        const float s[8] = { 2.0f, 1.0f, -1.0f, -INFINITY, 2.0f, 1.0f, -1.0f, -INFINITY };
        const float g[8] = { 1.0f, 0.0f, 0.0f, 0.0f, 0.5f, -1.0f, 2.0f, 3.0f };
        attn_softmax(W, s, 2, 4);
        memcpy(dW, g, sizeof g);
    } else if (bad) {
        gr_fill_weights(&r, W, 1, 4, scale);
        sup_rng_fill_normal(&r, dW, count);
    } else {
        gr_fill_normal(&r, W, count, scale);
        if (masked)
            for (long k = 0; k < count; k++)
                if (k % n != 0 && sup_rng_uniform(&r) < 0.33f) W[k] = -INFINITY;
        attn_softmax(W, W, rows, n);
        sup_rng_fill_normal(&r, dW, count);
    }
    GR_CASE_ADD_INTS(c, rows, n);
    c->call.fn = inplace ? LAB08_SOFTMAX_BACKWARD_INPLACE : LAB08_SOFTMAX_BACKWARD;
    if (bad) {
        snprintf(c->describe, sizeof c->describe, "lab_softmax_backward(%s, rows=%d, n=%d): "
                 "sizes break the contract, expect LAB_BAD_ARG with dS untouched",
                 inplace ? "dW, W, dW" : "dS, W, dW", rows, n);
        return gr_case_expect_bad_arg(c);
    }
    c->expected_status = LAB_OK;
    float *want = gr_case_expect(c, gbuf);
    attn_softmax_backward(want, W, dW, rows, n);
    snprintf(c->describe, sizeof c->describe,
             "lab_softmax_backward(%s, rows=%d, n=%d)%s", inplace ? "dW, W, dW" : "dS, W, dW",
             rows, n,
             worked ? ": the worked row's weights [0.7054, 0.2595, 0.0351, 0]" :
             inplace ? ": in place, dS is the same array as dW" :
             masked ? ": W from masked scores (weights exactly 0)" :
             scale >= 10 ? ": W nearly one-hot (saturated)" : ": W softmax rows, dW ~ N(0,1)");
    return 0;
}

/* experiment: sizes {n_dk, T, trials, dk_min}; dks[m] = dk_min * 2^m, or with
   param odd 1 each moved up by a random amount below it (not powers of two);
   param bad 1 makes the last d_k 0, and an n_dk, T or trials below 1 breaks the
   contract too (LAB_BAD_ARG, outputs untouched; with no d_k the arrays still
   hold 4). The seed is the student's own unless param seed fixes it. */
static int gen_experiment(const gr_case_kind *kind, const gr_rubric_test *t, uint64_t seed,
                          gr_case *c, char *err, size_t errlen)
{
    (void)kind;
    int n_dk, T, trials, dk_min;
    if (gr_test_int(t, "n_dk", 3, -4, 16, &n_dk, err, errlen) ||
        gr_test_int(t, "T", 16, -4, 1024, &T, err, errlen) ||
        gr_test_int(t, "trials", 20, -4, 2000, &trials, err, errlen) ||
        gr_test_int(t, "dk_min", 8, 1, 4096, &dk_min, err, errlen))
        return -1;
    int nb = n_dk > 0 ? n_dk : 4;   /* the arrays' length */
    if ((long)dk_min << (nb - 1) > 4096) {
        snprintf(err, errlen, "test %s: dk_min * 2^(n_dk - 1) = %ld is over 4096; use fewer "
                 "or smaller d_k", t->name, (long)dk_min << (nb - 1));
        return -1;
    }
    int odd = gr_rubric_test_param(t, "odd", 0) != 0;
    int bad = gr_rubric_test_param(t, "bad", 0) != 0, small = n_dk < 1 || T < 1 || trials < 1;
    gr_case_add_f32(c, PROTO_OUT, nb);
    gr_case_add_f32(c, PROTO_OUT, nb);
    int32_t *dks = gr_case_add_i32(c, PROTO_IN, nb);
    gr_case_set_names(c, "g_raw", "g_scaled", "dks", NULL);
    sup_rng r;
    sup_rng_seed(&r, seed);
    uint64_t exp_seed = gr_experiment_seed(t, &r);
    for (int m = 0; m < nb; m++) {
        int d = dk_min << m;
        dks[m] = odd ? d + (int)(sup_rng_u64(&r) % (uint64_t)d) : d;
    }
    if (bad) dks[nb - 1] = 0;
    gr_test_descending(t, dks, nb);   /* the largest first: no list is sorted */
    GR_CASE_ADD_INTS(c, n_dk, T, trials, (int64_t)exp_seed);
    c->call.fn = LAB08_GRADIENT_EXPERIMENT;
    char list[96];
    gr_format_ints(list, sizeof list, dks, nb, 16);
    snprintf(c->describe, sizeof c->describe,
             "lab_gradient_experiment(dks=%s, n_dk=%d, T=%d, trials=%d, seed=%llu)%s",
             list, n_dk, T, trials, (unsigned long long)exp_seed,
             bad ? ": a d_k of 0 must give LAB_BAD_ARG, outputs untouched" :
             small ? ": sizes break the contract, expect LAB_BAD_ARG with outputs untouched" :
             T == 1 ? ": one key, whose weight is 1 and gradient 0 whatever its score" : "");
    if (bad || small)
        return gr_case_expect_bad_arg(c);
    c->expected_status = LAB_OK;
    experiment_ref(gr_case_expect(c, 0), gr_case_expect(c, 1), dks, n_dk, T, trials, exp_seed,
                   BACK_RIGHT, EXP_RIGHT);
    return 0;
}

static int make_case(const gr_rubric_test *t, uint64_t seed, gr_case *c,
                     char *err, size_t errlen)
{
    static const gr_case_kind kinds[] = {
        { "backward", gen_backward, 0, 0 },
        { "backward_bad", gen_backward, 0, GR_VARIANT_BAD },
        { "experiment", gen_experiment, 0, 0 },
    };
    return gr_make_case_by_kind(kinds, GR_N_KINDS(kinds), 8, t, seed, c,
                                err, errlen);
}

/* ---- misconceptions ------------------------------------------------------------ */

#define I(k) ((int)c->call.ints[k])

/* Predict a backward call (either form) or the experiment under (bm, em). */
static int predict_with(const gr_case *c, void *out[PROTO_MAX_BUFS], back_mode bm, exp_mode em)
{
    if (c->expected_status != LAB_OK)
        return -1;
    switch (c->call.fn) {
    case LAB08_SOFTMAX_BACKWARD:
        if (em != EXP_RIGHT || bm == BACK_JACOBIAN_ROWS)
            return -1;  /* the Jacobian-row form is right when dS and dW differ */
        out[0] = gr_case_alloc_like(c, 0);
        backward_ref(out[0], c->call.bufs[1].data, c->call.bufs[2].data, I(0), I(1), bm);
        return 0;
    case LAB08_SOFTMAX_BACKWARD_INPLACE:
        if (em != EXP_RIGHT)
            return -1;
        out[1] = gr_case_alloc_like(c, 1);  /* starts as dW: computed in place */
        backward_ref(out[1], c->call.bufs[0].data, out[1], I(0), I(1), bm);
        return 0;
    case LAB08_GRADIENT_EXPERIMENT:
        if (bm == BACK_JACOBIAN_ROWS || (em == EXP_RESEED && I(0) < 2))
            return -1;  /* (with one d_k, reseeding changes nothing) */
        out[0] = gr_case_alloc_like(c, 0);
        out[1] = gr_case_alloc_like(c, 1);
        experiment_ref(out[0], out[1], c->call.bufs[2].data, I(0), I(1), I(2),
                       (uint64_t)c->call.ints[3], bm, em);
        return 0;
    }
    return -1;
}

GR_PREDICT(predict_no_wg, predict_with, BACK_NO_WG, EXP_RIGHT)
GR_PREDICT(predict_diag_only, predict_with, BACK_DIAG_ONLY, EXP_RIGHT)
GR_PREDICT(predict_no_w_factor, predict_with, BACK_NO_W_FACTOR, EXP_RIGHT)
GR_PREDICT(predict_inplace, predict_with, BACK_JACOBIAN_ROWS, EXP_RIGHT)
GR_PREDICT(predict_inv_d, predict_with, BACK_RIGHT, EXP_INV_D)
GR_PREDICT(predict_reseed, predict_with, BACK_RIGHT, EXP_RESEED)

static const gr_misconception misconceptions[] = {
    { "no_wg_term", "softmax backward without the <w, g> term",
      "Every weight depends on every score through the softmax sum, so ds_j = w_j (g_j - <w, g>): "
      "w * g alone leaves out how raising s_j lowers all the other weights, and rows no longer "
      "sum to 0.",
      { 8, "2" }, predict_no_wg },
    { "diag_only", "diagonal-only Jacobian w (1 - w) g",
      "dw_j/ds_k = w_j (1[j = k] - w_k) has off-diagonal terms -w_j w_k too; keeping only the "
      "diagonal w_j (1 - w_j) drops what the other keys' gradients contribute.",
      { 8, "2" }, predict_diag_only },
    { "no_w_factor", "softmax backward without the factor w (ds = g - <w, g>)",
      "The gradient is each key's own weight times how far its upstream gradient is above "
      "the weighted average; without the factor w_j a masked key (w_j = 0) gets a gradient.",
      { 8, "2" }, predict_no_w_factor },
    { "inplace_overwrite", "an in-place backward that overwrote dW before reading all of it",
      "dS may be the same array as dW: compute <w, g> from the whole row first, then write. "
      "Building each ds_j from the row of g as you overwrite it reads gradients already replaced.",
      { 8, "2" }, predict_inplace },
    { "inv_dk", "scores scaled by 1/d_k instead of 1/sqrt(d_k)",
      "q.k has variance d_k, so dividing by its standard deviation sqrt(d_k) keeps scores near "
      "unit variance; 1/d_k flattens the weights and inflates the scaled gradients.",
      { 8, "4" }, predict_inv_d },
    { "reseed", "RNG reseeded per d_k",
      "Seed the generator once, before the loop over d_k: every d_k continues the same stream, "
      "so reseeding draws the first trials again and changes every d_k after the first.",
      { 8, "4" }, predict_reseed },
};

/* ---- input window -------------------------------------------------------------- */

static void input_window(const gr_case *c, int buf, long index, gr_strbuf *out)
{
    (void)buf;
    if (c->call.fn == LAB08_GRADIENT_EXPERIMENT) {
        const int32_t *dks = c->call.bufs[2].data;
        gr_sb_printf(out, "  d_k = dks[%ld] = %d: T = %d keys, %d trials, seed %llu\n", index,
                     (int)dks[index], I(1), I(2), (unsigned long long)c->call.ints[3]);
        return;
    }
    int inplace = c->call.fn == LAB08_SOFTMAX_BACKWARD_INPLACE, n = I(1);
    const float *W = c->call.bufs[inplace ? 0 : 1].data;
    const float *g = c->call.bufs[inplace ? 1 : 2].data;
    long row = index / n;
    const char *label[2] = { "W", "dW" };
    const float *src[2] = { W + row * n, g + row * n };
    double wg = 0.0;
    for (int j = 0; j < n; j++) wg += (double)src[0][j] * (double)src[1][j];
    for (int q = 0; q < 2; q++) {
        gr_sb_printf(out, "  %s[%ld]:", label[q], row);
        gr_case_values(out, src[q], n, 'g', 4);
        gr_sb_append(out, "\n");
    }
    gr_sb_printf(out, "  <w, g> of this row = %.6g%s\n", wg,
                 inplace ? " (read it before writing: dS is dW)" : "");
}

const gr_lab_module gr_lab08_module = {
    .number = 8,
    .dir = "lab08-gradients",
    .make_case = make_case,
    .misconceptions = misconceptions,
    .n_misconceptions = (int)(sizeof misconceptions / sizeof misconceptions[0]),
    .input_window = input_window,
};
