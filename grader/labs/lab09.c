/* lab09.c: what the grader knows about lab 9, masks and denominators in decoding.
 *
 * Four functions are graded (lab09_calls.h, generated from the manifest, numbers them):
 *   lab_causal_mask_aligned    causal mask for Tq != Tk, top-left or bottom-right
 *   lab_sliding_window_mask    bottom-right window of w keys, on SCORES
 *   lab_sink_softmax           one sink logit per head in the DENOMINATOR
 *   lab_postmask_backward      dL/dS through W' = keep * softmax(S)
 *
 * Dimensions: B = batch * heads (heads fastest, h = b % H), H heads, Tq queries,
 * Tk keys; rows x n for the backward pass. Expected values come from libattn;
 * each misconception recomputes the same function with one known mistake.
 */
#include "base/labmod.h"
#include "lab09_calls.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attn.h"
#include "labsup.h"


/* ---- masks, right and wrong ------------------------------------------------------- */

typedef enum mask_mode {
    MASK_RIGHT,
    MASK_TOP_LEFT,      /* last(i) = i whatever the alignment asked */
    MASK_BOTTOM_RIGHT,  /* last(i) = i + Tk - Tq whatever the alignment asked */
    MASK_WIDE,          /* window keeps w + 1 keys: last - w <= j */
    MASK_NARROW         /* window keeps w - 1 keys: last - w + 1 < j */
} mask_mode;

/* S (B, Tq, Tk) masked in place as a student in `mode` does it: causal with the
   alignment bottom_right, and, when window >= 1, a window of that many keys. */
static void mask_ref(float *S, int B, int Tq, int Tk, int bottom_right, int window,
                     mask_mode mode)
{
    if (mode == MASK_TOP_LEFT) bottom_right = 0;
    if (mode == MASK_BOTTOM_RIGHT) bottom_right = 1;
    int lo_shift = mode == MASK_WIDE ? 1 : mode == MASK_NARROW ? -1 : 0;
    for (int b = 0; b < B; b++)
        for (int i = 0; i < Tq; i++) {
            float *s = S + ((long)b * Tq + i) * Tk;
            long last = bottom_right ? (long)i + Tk - Tq : (long)i;
            for (int j = 0; j < Tk; j++)
                if (j > last || (window >= 1 && j <= last - window - lo_shift))
                    s[j] = -INFINITY;
        }
}

/* ---- the sink softmax, right and wrong ------------------------------------------- */

typedef enum sink_mode {
    SINK_RIGHT,
    SINK_NO_MAX,        /* m over the scores only: exp(z - m) overflows for a large sink */
    SINK_IGNORED        /* ... and no sink term in the denominator: rows sum to 1 */
} sink_mode;

/* W and Wsink as a student in `mode` computes them, in double. */
static void sink_ref(float *W, float *Wsink, const float *S, const float *sink,
                     int B, int H, int Tq, int Tk, sink_mode mode)
{
    if (mode == SINK_RIGHT) {
        attn_sink_softmax(W, Wsink, S, sink, B, H, Tq, Tk);
        return;
    }
    for (long r = 0; r < (long)B * Tq; r++) {
        double z = (double)sink[(r / Tq) % H];
        const float *s = S + r * Tk;
        float *w = W + r * Tk;
        double m = -HUGE_VAL;
        for (int j = 0; j < Tk; j++)
            if ((double)s[j] > m) m = (double)s[j];
        if (m == -HUGE_VAL) {
            for (int j = 0; j < Tk; j++) w[j] = 0.0f;
            Wsink[r] = 0.0f;
            continue;
        }
        double denom = mode == SINK_IGNORED ? 0.0 : exp(z - m);
        for (int j = 0; j < Tk; j++) denom += exp((double)s[j] - m);
        for (int j = 0; j < Tk; j++) w[j] = (float)(exp((double)s[j] - m) / denom);
        Wsink[r] = (float)(exp(z - m) / denom);
    }
}

/* ---- the post-mask backward, right and wrong -------------------------------------- */

typedef enum back_mode {
    BACK_RIGHT,
    BACK_ZEROED,        /* the right ds, then cut to 0 at the zeroed keys */
    BACK_RENORM,        /* as if masked before softmax: renormalised weights of the kept keys */
    BACK_UNMASKED       /* g used as it is: the gradient of the un-masked softmax */
} back_mode;

static void backward_ref(float *dS, const float *W, const float *dW, const uint8_t *keep,
                         int rows, int n, back_mode mode)
{
    if (mode == BACK_UNMASKED) {
        attn_softmax_backward(dS, W, dW, rows, n);
        return;
    }
    if (mode == BACK_RENORM) {
        /* w~ = keep * w / sum(keep * w) is softmax over the kept keys: the weights
           a mask on the scores gives. Its backward is lab 8's, with g' = keep * g. */
        for (long r = 0; r < rows; r++) {
            const float *w = W + r * n, *g = dW + r * n;
            const uint8_t *k = keep + r * n;
            double z = 0.0, wg = 0.0;
            for (int j = 0; j < n; j++)
                if (k[j]) z += (double)w[j];
            for (int j = 0; j < n; j++)
                if (k[j] && z > 0.0) wg += (double)w[j] / z * (double)g[j];
            for (int j = 0; j < n; j++)
                dS[r * n + j] = k[j] && z > 0.0
                                ? (float)((double)w[j] / z * ((double)g[j] - wg)) : 0.0f;
        }
        return;
    }
    attn_postmask_backward(dS, W, dW, keep, rows, n);
    if (mode == BACK_ZEROED)
        for (long k = 0; k < (long)rows * n; k++)
            if (!keep[k]) dS[k] = 0.0f;
}

/* ---- test generators -------------------------------------------------------- */

/* S (B, Tq, Tk), scores ~ N(0, 1) per student, for a mask call; 1 when a size
   is below 1, and S then holds 4 drawn values the call must leave untouched. */
static int mask_scores(gr_case *c, sup_rng *r, int B, int Tq, int Tk)
{
    int small = B < 1 || Tq < 1 || Tk < 1;
    if (small)
        gr_scores_add_out(c, r, B, Tq, Tk, 1);
    else
        gr_case_add_scores(c, r, B, Tq, Tk);
    return small;
}

/* causal: sizes {batch, Tq, Tk}; params {bottom_right: 0 or 1; any other value
   must give LAB_BAD_ARG with S untouched}. */
static int gen_causal(const gr_case_kind *kind, const gr_rubric_test *t, uint64_t seed,
                      gr_case *c, char *err, size_t errlen)
{
    (void)kind;
    int B, Tq, Tk, br;
    if (gr_test_int(t, "batch", 1, -4, 64, &B, err, errlen) ||
        gr_test_int(t, "Tq", 3, -4, 512, &Tq, err, errlen) ||
        gr_test_int(t, "Tk", 7, -4, 512, &Tk, err, errlen) ||
        gr_test_int(t, "bottom_right", 1, -1, 2, &br, err, errlen))
        return -1;
    sup_rng r;
    sup_rng_seed(&r, seed);
    int small = mask_scores(c, &r, B, Tq, Tk);
    GR_CASE_ADD_INTS(c, B, Tq, Tk, br);
    c->call.fn = LAB09_CAUSAL_MASK_ALIGNED;
    int ok = (br == 0 || br == 1) && !small;
    snprintf(c->describe, sizeof c->describe,
             "lab_causal_mask_aligned(S, B=%d, Tq=%d, Tk=%d, bottom_right=%d)%s", B, Tq, Tk, br,
             small ? ": a size below 1, so LAB_BAD_ARG and S untouched" :
             !ok ? ": bottom_right must be 0 or 1, so LAB_BAD_ARG and S untouched" :
             br ? ": query i sees keys j <= i + Tk - Tq" : ": query i sees keys j <= i");
    if (!ok)
        return gr_case_expect_bad_arg(c);
    c->expected_status = LAB_OK;
    attn_causal_mask_aligned(gr_case_expect(c, 0), B, Tq, Tk, br);
    return 0;
}

/* window: sizes {batch, Tq, Tk, window}; a window or size below 1 must give
   LAB_BAD_ARG. */
static int gen_window(const gr_case_kind *kind, const gr_rubric_test *t, uint64_t seed,
                      gr_case *c, char *err, size_t errlen)
{
    (void)kind;
    int B, Tq, Tk, w;
    if (gr_test_int(t, "batch", 1, -4, 64, &B, err, errlen) ||
        gr_test_int(t, "Tq", 2, -4, 512, &Tq, err, errlen) ||
        gr_test_int(t, "Tk", 5, -4, 512, &Tk, err, errlen) ||
        gr_test_int(t, "window", 2, -4, 512, &w, err, errlen))
        return -1;
    sup_rng r;
    sup_rng_seed(&r, seed);
    int small = mask_scores(c, &r, B, Tq, Tk);
    GR_CASE_ADD_INTS(c, B, Tq, Tk, w);
    c->call.fn = LAB09_SLIDING_WINDOW_MASK;
    snprintf(c->describe, sizeof c->describe,
             "lab_sliding_window_mask(S, B=%d, Tq=%d, Tk=%d, window=%d)%s", B, Tq, Tk, w,
             small ? ": a size below 1, so LAB_BAD_ARG and S untouched" :
             w < 1 ? ": window < 1, so LAB_BAD_ARG and S untouched"
                   : ": key j visible iff i' - window < j <= i', i' = i + Tk - Tq");
    if (w < 1 || small)
        return gr_case_expect_bad_arg(c);
    c->expected_status = LAB_OK;
    attn_sliding_window_mask(gr_case_expect(c, 0), B, Tq, Tk, w);
    return 0;
}

/* sink: sizes {batch, H, Tq, Tk}; B = batch * H. params:
 *   worked      1: the handout's rows, scores [2, 1, -1, -inf] and all -inf, sink 1.5
 *   sink_shift, sink_scale   sink[h] = shift + scale * N(0,1) (defaults 0, 1.5);
 *               a shift of 1000 overflows exp(z - m) unless m includes the sink
 *   scale       scores scale * N(0,1) (default 2); 100 puts keys far above the
 *               sink and each other, so a max that skips a key overflows exp
 *   mask_frac   the share of -inf scores (default 0.2)
 *   empty_rows  1: every third row fully masked (all mass on the sink)
 *   no_sink     1: head 0's sink is -inf (plain softmax, zero-row policy) */
static int gen_sink(const gr_case_kind *kind, const gr_rubric_test *t, uint64_t seed,
                    gr_case *c, char *err, size_t errlen)
{
    (void)kind;
    int worked = gr_rubric_test_param(t, "worked", 0) != 0;
    int batch, H, Tq, Tk;
    if (gr_test_int(t, "batch", 1, 1, 64, &batch, err, errlen) ||
        gr_test_int(t, "H", 1, 1, 64, &H, err, errlen) ||
        gr_test_int(t, "Tq", 2, 1, 512, &Tq, err, errlen) ||
        gr_test_int(t, "Tk", 4, 1, 512, &Tk, err, errlen))
        return -1;
    if (worked && (batch != 1 || H != 1 || Tq != 2 || Tk != 4)) {
        snprintf(err, errlen, "test %s: the worked rows need batch = 1, H = 1, Tq = 2, Tk = 4",
                 t->name);
        return -1;
    }
    double shift = gr_rubric_test_param(t, "sink_shift", 0.0), scale = gr_rubric_test_param(t, "sink_scale", 1.5);
    double mask_frac = gr_rubric_test_param(t, "mask_frac", 0.2);
    double score_scale = gr_rubric_test_param(t, "scale", 2.0);
    int empty = gr_rubric_test_param(t, "empty_rows", 0) != 0, no_sink = gr_rubric_test_param(t, "no_sink", 0) != 0;
    int B = batch * H;
    long count = (long)B * Tq * Tk;
    gr_case_add_f32(c, PROTO_OUT, count);
    gr_case_add_f32(c, PROTO_OUT, (long)B * Tq);
    float *S = gr_case_add_f32(c, PROTO_IN, count);
    float *sink = gr_case_add_f32(c, PROTO_IN, H);
    gr_case_set_names(c, "W", "Wsink", "S", "sink", NULL);
    gr_case_set_shape(c, 0, B, Tq, Tk);
    gr_case_set_shape2(c, 1, B, Tq);
    gr_case_set_shape(c, 2, B, Tq, Tk);
    sup_rng r;
    sup_rng_seed(&r, seed);
    if (worked) {
        const float rows[8] = { 2, 1, -1, -INFINITY, -INFINITY, -INFINITY, -INFINITY, -INFINITY };
        memcpy(S, rows, sizeof rows);
        sink[0] = 1.5f;
    } else {
        gr_fill_scores(&r, S, count, (float)score_scale, 0.0f, mask_frac);
        for (int h = 0; h < H; h++) sink[h] = (float)(shift + scale * (double)sup_rng_normal(&r));
        if (no_sink) sink[0] = -INFINITY;
        if (empty)
            for (long row = 1; row < (long)B * Tq; row += 3)
                for (int j = 0; j < Tk; j++) S[row * Tk + j] = -INFINITY;
    }
    GR_CASE_ADD_INTS(c, B, H, Tq, Tk);
    c->call.fn = LAB09_SINK_SOFTMAX;
    c->expected_status = LAB_OK;
    attn_sink_softmax(gr_case_expect(c, 0), gr_case_expect(c, 1), S, sink, B, H, Tq, Tk);
    snprintf(c->describe, sizeof c->describe,
             "lab_sink_softmax(W, Wsink, S, sink, B=%d, H=%d, Tq=%d, Tk=%d)%s", B, H, Tq, Tk,
             worked ? ": the handout's rows, scores [2, 1, -1, -inf] and all -inf, sink 1.5" :
             shift >= 100 ? ": sinks near 1000, far above every score" :
             score_scale >= 10 ? ": scores spread widely, keys far above each other and the sink" :
             no_sink ? ": head 0 has no sink (-inf), every third row fully masked" :
             empty ? ": every third row fully masked (all mass on the sink)" :
                     ": scores ~ N(0, 2^2), some -inf");
    return 0;
}

/* sink_bad: sizes {batch, H, Tq, Tk}, B = batch * H (batch alone when H < 1), or
   with param extra 1 one row more, so B % H != 0; each size from -4. A call
   the contract rejects: LAB_BAD_ARG with W and Wsink untouched. Every array
   holds at least 4 drawn values. */
static int gen_sink_bad(const gr_case_kind *kind, const gr_rubric_test *t, uint64_t seed,
                        gr_case *c, char *err, size_t errlen)
{
    (void)kind;
    int batch, H, Tq, Tk, ragged;
    if (gr_test_int(t, "batch", 1, -4, 64, &batch, err, errlen) ||
        gr_test_int(t, "H", 2, -4, 64, &H, err, errlen) ||
        gr_test_int(t, "Tq", 2, -4, 512, &Tq, err, errlen) ||
        gr_test_int(t, "Tk", 4, -4, 512, &Tk, err, errlen) ||
        gr_test_int(t, "extra", 0, 0, 1, &ragged, err, errlen))
        return -1;
    int B = batch * (H > 0 ? H : 1) + ragged;
    if (!ragged && batch >= 1 && H >= 1 && Tq >= 1 && Tk >= 1) {
        snprintf(err, errlen, "a %s test needs a size below 1 or extra: 1", t->kind);
        return -1;
    }
    long nB = B > 0 ? B : 0, nQ = Tq > 0 ? Tq : 0, nK = Tk > 0 ? Tk : 0;
    long n[4] = { nB * nQ * nK, nB * nQ, nB * nQ * nK, H > 0 ? H : 0 };
    sup_rng r;
    sup_rng_seed(&r, seed);
    for (int k = 0; k < 4; k++) {
        float *x = gr_case_add_f32(c, k < 2 ? PROTO_OUT : PROTO_IN, n[k] > 4 ? n[k] : 4);
        if (k >= 2) sup_rng_fill_normal(&r, x, n[k] > 4 ? n[k] : 4);
    }
    gr_case_set_names(c, "W", "Wsink", "S", "sink", NULL);
    GR_CASE_ADD_INTS(c, B, H, Tq, Tk);
    c->call.fn = LAB09_SINK_SOFTMAX;
    snprintf(c->describe, sizeof c->describe, "lab_sink_softmax(W, Wsink, S, sink, B=%d, H=%d, "
             "Tq=%d, Tk=%d): %s, expect LAB_BAD_ARG with W and Wsink untouched", B, H, Tq, Tk,
             ragged ? "B is not a multiple of H" : "a size below 1");
    return gr_case_expect_bad_arg(c);
}

/* postmask_backward: sizes {rows, n}; W = softmax(N(0, 2^2)), keep zeroes about
   a third of the keys after softmax, dW ~ N(0,1) (also at zeroed keys: dL/dW'
   there is whatever the layer above sends). params {worked: 1}: the handout's
   rows. Kind postmask_backward_bad: rows < 1 or n < 1, LAB_BAD_ARG with dS
   untouched (4 drawn values in each array). */
static int gen_backward(const gr_case_kind *kind, const gr_rubric_test *t, uint64_t seed,
                        gr_case *c, char *err, size_t errlen)
{
    int bad = kind->what == GR_VARIANT_BAD, worked, rows, n;
    if (gr_backward_sizes(t, kind->what, &worked, &rows, &n, err, errlen))
        return -1;
    long count = bad ? 4 : (long)rows * n;
    gr_case_add_f32(c, PROTO_OUT, count);
    float *W = gr_case_add_f32(c, PROTO_IN, count);
    float *dW = gr_case_add_f32(c, PROTO_IN, count);
    uint8_t *keep = gr_case_add_u8(c, PROTO_IN, count);
    gr_case_set_names(c, "dS", "W", "dW", "keep", NULL);
    for (int k = 0; k < 4 && !bad; k++) gr_case_set_shape2(c, k, rows, n);
    sup_rng r;
    sup_rng_seed(&r, seed);
    if (worked) {
        /* w = softmax([2, 1, -1, 0.5]) twice; row 0 zeroes key 3, row 1 key 0 */
        const float s[8] = { 2, 1, -1, 0.5f, 2, 1, -1, 0.5f };
        const float g[8] = { 1, 0, 0, 5, 0.5f, -1, 2, 3 };
        const uint8_t k[8] = { 1, 1, 1, 0, 0, 1, 1, 1 };
        attn_softmax(W, s, 2, 4);
        memcpy(dW, g, sizeof g);
        memcpy(keep, k, sizeof k);
    } else {
        gr_fill_weights(&r, W, bad ? 1 : rows, bad ? 4 : n, 2.0);
        sup_rng_fill_normal(&r, dW, count);
        for (long k = 0; k < count; k++) keep[k] = sup_rng_uniform(&r) >= 0.33f;
    }
    GR_CASE_ADD_INTS(c, rows, n);
    c->call.fn = LAB09_POSTMASK_BACKWARD;
    if (bad) {
        snprintf(c->describe, sizeof c->describe, "lab_postmask_backward(dS, W, dW, keep, "
                 "rows=%d, n=%d): sizes break the contract, expect LAB_BAD_ARG with dS untouched",
                 rows, n);
        return gr_case_expect_bad_arg(c);
    }
    c->expected_status = LAB_OK;
    attn_postmask_backward(gr_case_expect(c, 0), W, dW, keep, rows, n);
    snprintf(c->describe, sizeof c->describe,
             "lab_postmask_backward(dS, W, dW, keep, rows=%d, n=%d)%s", rows, n,
             worked ? ": w = softmax([2, 1, -1, 0.5]), one key zeroed per row"
                    : ": W softmax rows, about a third of the keys zeroed after softmax");
    return 0;
}

static int make_case(const gr_rubric_test *t, uint64_t seed, gr_case *c,
                     char *err, size_t errlen)
{
    static const gr_case_kind kinds[] = {
        { "causal", gen_causal, 0, 0 },
        { "window", gen_window, 0, 0 },
        { "sink", gen_sink, 0, 0 },
        { "sink_bad", gen_sink_bad, 0, 0 },
        { "postmask_backward", gen_backward, 0, 0 },
        { "postmask_backward_bad", gen_backward, 0, GR_VARIANT_BAD },
    };
    return gr_make_case_by_kind(kinds, GR_N_KINDS(kinds), 9, t, seed, c,
                                err, errlen);
}

/* ---- misconceptions ------------------------------------------------------------ */

/* The ints of a call, named. */
#define I(k) ((int)c->call.ints[k])

/* A mask call under `mode`; -1 when the mode cannot change this call. */
static int predict_mask(const gr_case *c, void *out[PROTO_MAX_BUFS], mask_mode mode)
{
    if (c->expected_status != LAB_OK)
        return -1;
    int B = I(0), Tq = I(1), Tk = I(2);
    int is_window = c->call.fn == LAB09_SLIDING_WINDOW_MASK;
    if (c->call.fn != LAB09_CAUSAL_MASK_ALIGNED && !is_window)
        return -1;
    int br = is_window ? 1 : I(3), window = is_window ? I(3) : 0;
    /* alignment mistakes show only when Tq != Tk and the other alignment was asked */
    if (mode == MASK_TOP_LEFT && (Tq == Tk || !br)) return -1;
    if (mode == MASK_BOTTOM_RIGHT && (Tq == Tk || br)) return -1;
    if ((mode == MASK_WIDE || mode == MASK_NARROW) && !is_window) return -1;
    out[0] = gr_case_alloc_like(c, 0);  /* starts as the input S */
    mask_ref(out[0], B, Tq, Tk, br, window, mode);
    return 0;
}

GR_PREDICT(predict_top_left, predict_mask, MASK_TOP_LEFT)
GR_PREDICT(predict_bottom_right, predict_mask, MASK_BOTTOM_RIGHT)
GR_PREDICT(predict_window_wide, predict_mask, MASK_WIDE)
GR_PREDICT(predict_window_narrow, predict_mask, MASK_NARROW)

static int predict_sink(const gr_case *c, void *out[PROTO_MAX_BUFS], sink_mode mode)
{
    if (c->call.fn != LAB09_SINK_SOFTMAX || c->expected_status != LAB_OK)
        return -1;
    out[0] = gr_case_alloc_like(c, 0);
    out[1] = gr_case_alloc_like(c, 1);
    sink_ref(out[0], out[1], c->call.bufs[2].data, c->call.bufs[3].data, I(0), I(1), I(2), I(3),
             mode);
    return 0;
}

GR_PREDICT(predict_sink_ignored, predict_sink, SINK_IGNORED)
GR_PREDICT(predict_sink_no_max, predict_sink, SINK_NO_MAX)

static int predict_backward(const gr_case *c, void *out[PROTO_MAX_BUFS], back_mode mode)
{
    if (c->call.fn != LAB09_POSTMASK_BACKWARD || c->expected_status != LAB_OK)
        return -1;
    out[0] = gr_case_alloc_like(c, 0);
    backward_ref(out[0], c->call.bufs[1].data, c->call.bufs[2].data, c->call.bufs[3].data,
                 I(0), I(1), mode);
    return 0;
}

GR_PREDICT(predict_zeroed_grad, predict_backward, BACK_ZEROED)
GR_PREDICT(predict_premask_grad, predict_backward, BACK_RENORM)
GR_PREDICT(predict_unmasked_grad, predict_backward, BACK_UNMASKED)

static const gr_misconception misconceptions[] = {
    { "align_top_left", "causal mask aligned top-left when bottom-right was asked",
      "With a KV cache the Tq new queries are the LAST Tq positions: query i sits at "
      "i' = i + Tk - Tq and sees keys j <= i'. Masking j > i (PyTorch's is_causal) hides "
      "cached keys the query should see.",
      { 9, "3" }, predict_top_left },
    { "align_bottom_right", "causal mask aligned bottom-right when top-left was asked",
      "bottom_right = 0 asks for the top-left rule, key j masked when j > i; shifting by "
      "Tk - Tq lets early queries see later keys (or, with Tq > Tk, empties the first rows).",
      { 9, "3" }, predict_bottom_right },
    { "window_plus_one", "sliding window keeps w + 1 keys where the course's w asks for w",
      "The course's w counts every visible key, the query's own included: i' - w < j <= i', "
      "exactly w keys (Hugging Face's sliding_window counts the same way). j >= i' - w keeps "
      "w + 1, which is the count of Mistral's W and FlashAttention's window_size = (W, 0): "
      "those count only the keys before the query, so their W is the course's w - 1.",
      { 9, "4" }, predict_window_wide },
    { "window_minus_one", "sliding window keeps w - 1 keys",
      "The course's w counts every visible key, the query's own included: i' - w < j <= i', "
      "exactly w keys. Starting the window one key later (or excluding i') keeps only w - 1.",
      { 9, "4" }, predict_window_narrow },
    { "sink_ignored", "sink left out of the denominator (rows renormalised to sum 1)",
      "The sink's exp(z - m) is one more term of the denominator with no value behind it: "
      "the real weights sum to 1 - Wsink, below 1 whenever the sink is finite, on purpose. "
      "Without it each row sums to 1.",
      { 9, "5" }, predict_sink_ignored },
    { "sink_no_max", "sink not included in the max",
      "m must be the max over the scores AND the sink: with m over the scores only, a sink "
      "far above them overflows exp(z - m) (inf / inf = NaN), and a fully masked row has no "
      "finite m although the sink should take all of its mass.",
      { 9, "5" }, predict_sink_no_max },
    { "postmask_grad_zero", "zeroed keys given no gradient (ds cut to 0 where keep is 0)",
      "Zeroing weights after softmax leaves the zeroed key's w_j > 0 inside the softmax, so "
      "it still gets ds_j = -w_j <w, g'>. Only a -inf mask on the scores gives it exactly 0.",
      { 9, "6" }, predict_zeroed_grad },
    { "postmask_grad_premask", "gradient computed as if the mask came before softmax "
      "(renormalised weights)",
      "The forward pass zeroed weights after softmax: W' = keep * softmax(S), not the "
      "softmax of the kept keys. The backward pass goes through the same W: ds_j = w_j "
      "(g'_j - <w, g'>) with the un-renormalised w, and a zeroed key gets -w_j <w, g'>.",
      { 9, "6" }, predict_premask_grad },
    { "postmask_grad_unmasked", "gradient of the un-masked softmax (g not multiplied by keep)",
      "W' = keep * W: the chain rule goes through the zeroing first, g' = keep * g, so the "
      "upstream gradient at a zeroed weight never reaches the softmax.",
      { 9, "6" }, predict_unmasked_grad },
};

/* ---- input window -------------------------------------------------------------- */

static void input_window(const gr_case *c, int buf, long index, gr_strbuf *out)
{
    switch (c->call.fn) {
    case LAB09_CAUSAL_MASK_ALIGNED:
    case LAB09_SLIDING_WINDOW_MASK: {
        int Tq = I(1), Tk = I(2), window = c->call.fn == LAB09_SLIDING_WINDOW_MASK ? I(3) : 0;
        int br = c->call.fn == LAB09_SLIDING_WINDOW_MASK ? 1 : I(3);
        int i = (int)(index / Tk % Tq), j = (int)(index % Tk);
        long last = br ? (long)i + Tk - Tq : i;
        gr_sb_printf(out, "  query i = %d of Tq = %d, key j = %d of Tk = %d: %s, last visible "
                     "key i' = %ld\n", i, Tq, j, Tk, br ? "bottom-right (i' = i + Tk - Tq)" :
                     "top-left (i' = i)", last);
        if (window >= 1)
            gr_sb_printf(out, "  window %d: visible keys %ld < j <= %ld\n", window,
                         last - window, last);
        break;
    }
    case LAB09_SINK_SOFTMAX: {
        int H = I(1), Tk = I(3);
        long row = buf == 1 ? index : index / Tk;
        long b = row / I(2);
        float z = ((const float *)c->call.bufs[3].data)[b % H];
        const float *s = (const float *)c->call.bufs[2].data + row * Tk;
        gr_sb_printf(out, "  row %ld (batch entry %ld, head %ld %% %d = %ld), sink z = ", row, b,
                     b, H, b % H);
        gr_case_float(out, z, 'g', 6);
        gr_sb_printf(out, "\n  S row:");
        gr_case_values(out, s, Tk, 'g', 4);
        double m = (double)z;
        for (int j = 0; j < Tk; j++)
            if ((double)s[j] > m) m = (double)s[j];
        gr_sb_printf(out, "\n  m = max(z, scores) = %.6g\n", m);
        break;
    }
    case LAB09_POSTMASK_BACKWARD: {
        int n = I(1);
        long row = index / n;
        const float *w = (const float *)c->call.bufs[1].data + row * n;
        const float *g = (const float *)c->call.bufs[2].data + row * n;
        const uint8_t *k = (const uint8_t *)c->call.bufs[3].data + row * n;
        double wg = 0.0;
        for (int j = 0; j < n; j++)
            if (k[j]) wg += (double)w[j] * (double)g[j];
        gr_sb_printf(out, "  W[%ld]:", row);
        gr_case_values(out, w, n, 'g', 4);
        gr_sb_printf(out, "\n  dW[%ld]:", row);
        gr_case_values(out, g, n, 'g', 4);
        gr_sb_printf(out, "\n  keep[%ld]:", row);
        for (int j = 0; j < n && j < 8; j++) gr_sb_printf(out, " %d", k[j] ? 1 : 0);
        gr_sb_printf(out, "%s\n  <w, g'> of this row (g' = keep * g) = %.6g; keep[%ld][%ld] = %d\n",
                     n > 8 ? " ..." : "", wg, row, index % n, k[index % n] ? 1 : 0);
        break;
    }
    }
}

const gr_lab_module gr_lab09_module = {
    .number = 9,
    .dir = "lab09-decoding",
    .make_case = make_case,
    .misconceptions = misconceptions,
    .n_misconceptions = (int)(sizeof misconceptions / sizeof misconceptions[0]),
    .input_window = input_window,
};
