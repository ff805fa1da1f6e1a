/* lab01.c: what the grader knows about lab 1, attention scores.
 *
 * Dimensions: B batch, Tq queries, Tk keys, d the query/key size.
 * Q is (B, Tq, d), K is (B, Tk, d), S is (B, Tq, Tk), all row-major.
 *
 * Test kinds (the rubric's `kind`), each a call of one student function:
 *   dot_worked, scaled_worked   the handout's worked examples (sections 2 and 3)
 *   dot, scaled_dot             Q, K drawn from N(0, scale^2), or small integers
 *                               in [-3, 3] with params {integers: 1}
 *   dot_bad, scaled_bad         sizes that break the contract (d < 1 or a
 *                               negative size): LAB_BAD_ARG, S left untouched
 *   dot_empty, scaled_empty     a zero B, Tq or Tk: LAB_OK, nothing written
 * Expected values come from libattn (attn_dot_scores, attn_scaled_dot_scores).
 */
#include "base/labmod.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attn.h"
#include "labsup.h"
#include "lab01_calls.h"

/* Buffer positions in every lab 1 call: the contract's argument order. */
enum { BUF_S = 0, BUF_Q = 1, BUF_K = 2 };

/* The sizes of a case, read back from its ints (B, Tq, Tk, d). */
typedef struct dims {
    int B, Tq, Tk, d;
} dims;

static dims case_dims(const gr_case *c)
{
    dims m = { (int)c->call.ints[0], (int)c->call.ints[1], (int)c->call.ints[2],
               (int)c->call.ints[3] };
    return m;
}

/* ---- the reference and its variants ------------------------------------- */

/* S = scale * (Q . K) for the case's inputs, with K's batch element b taken from
   K + koff(b): the correct layout uses b*Tk*d. Accumulates in double, like
   libattn, and rounds once. Writes into S laid out as (B, Tq, Tk), or as
   (B, Tk, Tq) when transposed. */
static void scores_variant(float *S, const gr_case *c, double scale, int transposed,
                           long (*koff)(dims m, int b))
{
    dims m = case_dims(c);
    const float *Q = c->call.bufs[BUF_Q].data, *K = c->call.bufs[BUF_K].data;
    for (int b = 0; b < m.B; b++)
        for (int i = 0; i < m.Tq; i++)
            for (int j = 0; j < m.Tk; j++) {
                const float *q = Q + ((long)b * m.Tq + i) * m.d;
                const float *k = K + koff(m, b) + (long)j * m.d;
                double sum = 0.0;
                for (int x = 0; x < m.d; x++)
                    sum += (double)q[x] * (double)k[x];
                long at = transposed ? ((long)b * m.Tk + j) * m.Tq + i
                                     : ((long)b * m.Tq + i) * m.Tk + j;
                S[at] = (float)(sum * scale);
            }
}

static long koff_right(dims m, int b) { return (long)b * m.Tk * m.d; }
static long koff_batch0(dims m, int b) { (void)m; (void)b; return 0; }
static long koff_tq(dims m, int b) { return (long)b * m.Tq * m.d; }

/* The scale the contract asks of the case's function: 1, or 1/sqrt(d). */
static double right_scale(const gr_case *c)
{
    return c->call.fn == LAB01_SCALED_DOT_SCORES ? 1.0 / sqrt((double)case_dims(c).d) : 1.0;
}

/* True when the case is a normal call whose S a misconception could change. */
static int computes(const gr_case *c)
{
    dims m = case_dims(c);
    return c->expected_status == LAB_OK && m.B > 0 && m.Tq > 0 && m.Tk > 0;
}

/* Fill out[BUF_S] with a variant of the scores, or return -1 (not applicable). */
static int predict_variant(const gr_case *c, void *out[PROTO_MAX_BUFS], double scale,
                           int transposed, long (*koff)(dims m, int b))
{
    if (!computes(c))
        return -1;
    float *S = gr_case_alloc_like(c, BUF_S);
    scores_variant(S, c, scale, transposed, koff);
    out[BUF_S] = S;
    return 0;
}

/* ---- misconceptions ------------------------------------------------------- */

static int scaled_only(const gr_case *c)
{
    return c->call.fn == LAB01_SCALED_DOT_SCORES && case_dims(c).d > 1;
}

static int predict_no_scale(const gr_case *c, void *out[PROTO_MAX_BUFS])
{
    if (!scaled_only(c))
        return -1;
    return predict_variant(c, out, 1.0, 0, koff_right);
}

static int predict_inv_dk(const gr_case *c, void *out[PROTO_MAX_BUFS])
{
    if (!scaled_only(c))
        return -1;
    return predict_variant(c, out, 1.0 / case_dims(c).d, 0, koff_right);
}

static int predict_mul_sqrt_dk(const gr_case *c, void *out[PROTO_MAX_BUFS])
{
    if (!scaled_only(c))
        return -1;
    return predict_variant(c, out, sqrt((double)case_dims(c).d), 0, koff_right);
}

static int predict_dot_scaled(const gr_case *c, void *out[PROTO_MAX_BUFS])
{
    if (c->call.fn != LAB01_DOT_SCORES || case_dims(c).d < 2)
        return -1;
    return predict_variant(c, out, 1.0 / sqrt((double)case_dims(c).d), 0, koff_right);
}

static int predict_transposed(const gr_case *c, void *out[PROTO_MAX_BUFS])
{
    dims m = case_dims(c);
    if (m.Tq < 2 || m.Tk < 2) /* then both layouts are the same flat array */
        return -1;
    return predict_variant(c, out, right_scale(c), 1, koff_right);
}

static int predict_k_no_batch(const gr_case *c, void *out[PROTO_MAX_BUFS])
{
    if (case_dims(c).B < 2)
        return -1;
    return predict_variant(c, out, right_scale(c), 0, koff_batch0);
}

static int predict_k_stride_tq(const gr_case *c, void *out[PROTO_MAX_BUFS])
{
    dims m = case_dims(c);
    /* With Tq > Tk the last batch element would read past the end of K: the
       student's code crashes or reads garbage, nothing to predict. With Tq == Tk
       the mistake changes nothing. */
    if (m.B < 2 || m.Tq >= m.Tk)
        return -1;
    return predict_variant(c, out, right_scale(c), 0, koff_tq);
}

static const gr_misconception misconceptions[] = {
    { "no_scale", "scaled scores without the 1/sqrt(d) scaling",
      "lab_scaled_dot_scores returned the raw dot products. Unscaled scores have variance d, "
      "so for large d softmax saturates toward one-hot weights and its gradients vanish.",
      { 1, "3" }, predict_no_scale },
    { "inv_dk", "divided by d instead of sqrt(d)",
      "The scores were divided by d. A dot product of d unit-variance terms has standard "
      "deviation sqrt(d); dividing by d leaves variance 1/d, so the weights flatten toward "
      "uniform as d grows.",
      { 1, "3" }, predict_inv_dk },
    { "mul_sqrt_dk", "multiplied by sqrt(d) instead of dividing",
      "The dot products were multiplied by sqrt(d). That makes the variance d^2 instead of 1, "
      "the opposite of what the scaling is for.",
      { 1, "3" }, predict_mul_sqrt_dk },
    { "dot_scaled", "plain dot scores divided by sqrt(d)",
      "lab_dot_scores already divided by sqrt(d). The plain dot score is the raw q . k; the "
      "scaling belongs to lab_scaled_dot_scores only.",
      { 1, "2" }, predict_dot_scaled },
    { "transposed", "scores written as (Tk, Tq) instead of (Tq, Tk)",
      "S[b][i][j] was stored at S[(b*Tk + j)*Tq + i]. A row of S holds one query against "
      "every key, so the key index j is the fastest: S[(b*Tq + i)*Tk + j].",
      { 1, "2" }, predict_transposed },
    { "k_no_batch", "keys of the wrong batch element (always batch 0)",
      "Every batch element used the keys of batch element 0: the batch offset b*Tk*d of K "
      "is missing. Queries of batch b must meet the keys of batch b.",
      { 1, "2" }, predict_k_no_batch },
    { "k_stride_tq", "keys of the wrong batch element (K offset uses Tq)",
      "The keys of batch element b were taken from K + b*Tq*d. K is (B, Tk, d), so its "
      "batch stride is Tk*d; the mistake only shows when Tq != Tk.",
      { 1, "2" }, predict_k_stride_tq },
};

/* ---- building cases -------------------------------------------------------- */

/* Fill n inputs: N(0, scale^2), or whole numbers in [-3, 3] (exact in float, so
   a student can check the arithmetic by hand). */
static void fill_inputs(sup_rng *r, float *x, long n, float scale, int integers)
{
    if (!integers) {
        gr_fill_normal(r, x, n, (double)scale);
        return;
    }
    for (long k = 0; k < n; k++)
        x[k] = (float)((int)(sup_rng_uniform(r) * 7.0f) - 3);
}

static const char *fn_name(uint32_t fn)
{
    return fn == LAB01_SCALED_DOT_SCORES ? "lab_scaled_dot_scores" : "lab_dot_scores";
}

/* Add the buffers and ints of a call with sizes m, inputs left for the caller.
   S is OUT for a normal call; for a call that must write nothing it is INOUT
   with random contents (at least 4 values) that must come back untouched. */
static void add_call(gr_case *c, uint32_t fn, dims m, int s_untouched, sup_rng *r)
{
    c->call.fn = fn;
    long nQ = (long)(m.B > 0 ? m.B : 0) * (m.Tq > 0 ? m.Tq : 0) * (m.d > 0 ? m.d : 0);
    long nK = (long)(m.B > 0 ? m.B : 0) * (m.Tk > 0 ? m.Tk : 0) * (m.d > 0 ? m.d : 0);
    gr_scores_add_out(c, r, m.B, m.Tq, m.Tk, s_untouched);
    /* IN buffers hold at least one value so no mapping is empty. */
    gr_case_add_f32(c, PROTO_IN, nQ > 0 ? nQ : 1);
    gr_case_add_f32(c, PROTO_IN, nK > 0 ? nK : 1);
    gr_case_set_name(c, BUF_Q, "Q");
    gr_case_set_name(c, BUF_K, "K");
    if (!s_untouched) {
        gr_case_set_shape(c, BUF_Q, m.B, m.Tq, m.d);
        gr_case_set_shape(c, BUF_K, m.B, m.Tk, m.d);
    }
    GR_CASE_ADD_INTS(c, m.B, m.Tq, m.Tk, m.d);
}

/* Compute the expected S with libattn. */
static void expect_scores(gr_case *c)
{
    dims m = case_dims(c);
    float *S = gr_case_expect(c, BUF_S);
    const float *Q = c->call.bufs[BUF_Q].data, *K = c->call.bufs[BUF_K].data;
    if (c->call.fn == LAB01_SCALED_DOT_SCORES)
        attn_scaled_dot_scores(S, Q, K, m.B, m.Tq, m.Tk, m.d);
    else
        attn_dot_scores(S, Q, K, m.B, m.Tq, m.Tk, m.d);
    c->expected_status = LAB_OK;
}

/* The handout's worked examples. Section 2 (B = 1, Tq = 2, Tk = 3, d = 2):
     q0 = [1, 2], q1 = [0, -1]; k0 = [3, 1], k1 = [-1, 2], k2 = [0.5, 0.5]
     S = [5, 3, 1.5; -1, -2, -0.5].
   Section 3 (B = 1, Tq = 1, Tk = 3, d = 4): q = [1, 1, 1, 1] against
     k0 = [1, 1, 1, 1], k1 = [1, -1, 1, -1], k2 = [2, 0, 0, 0]:
     dot [4, 0, 2], scaled [4/2, 0/2, 2/2] = [2, 0, 1]. */
static void make_worked(gr_case *c, uint32_t fn, sup_rng *r)
{
    static const float Q2[] = {1, 2, 0, -1};
    static const float K2[] = {3, 1, -1, 2, 0.5f, 0.5f};
    static const float Q3[] = {1, 1, 1, 1};
    static const float K3[] = {1, 1, 1, 1, 1, -1, 1, -1, 2, 0, 0, 0};
    int sec3 = fn == LAB01_SCALED_DOT_SCORES;
    dims m = sec3 ? (dims){1, 1, 3, 4} : (dims){1, 2, 3, 2};
    add_call(c, fn, m, 0, r);
    memcpy(c->call.bufs[BUF_Q].data, sec3 ? Q3 : Q2, sec3 ? sizeof Q3 : sizeof Q2);
    memcpy(c->call.bufs[BUF_K].data, sec3 ? K3 : K2, sec3 ? sizeof K3 : sizeof K2);
    snprintf(c->describe, sizeof c->describe,
             "%s(S, Q, K, B=%d, Tq=%d, Tk=%d, d=%d), the worked example of the handout, section %d",
             fn_name(fn), m.B, m.Tq, m.Tk, m.d, sec3 ? 3 : 2);
    expect_scores(c);
}

/* Every kind of lab 1: a call of kind->fn, the variant kind->what. */
static int gen_scores(const gr_case_kind *kind, const gr_rubric_test *t, uint64_t seed,
                      gr_case *c, char *err, size_t errlen)
{
    uint32_t fn = kind->fn;
    gr_case_variant what = kind->what;
    sup_rng r;
    sup_rng_seed(&r, seed);
    if (what == GR_VARIANT_WORKED) {
        make_worked(c, fn, &r);
        return 0;
    }

    /* Sizes: a bad call may use negative sizes and d = 0; the others must be
       sane, and big enough to be worth running but small enough for a child. */
    dims m;
    int lo = what == GR_VARIANT_BAD ? -8 : what == GR_VARIANT_EMPTY ? 0 : 1;
    if (gr_test_int(t, "B", 2, lo, 64, &m.B, err, errlen) ||
        gr_test_int(t, "Tq", 3, lo, 1024, &m.Tq, err, errlen) ||
        gr_test_int(t, "Tk", 4, lo, 1024, &m.Tk, err, errlen) ||
        gr_test_int(t, "d", 4, what == GR_VARIANT_BAD ? -8 : 1, 1024, &m.d, err, errlen))
        return -1;
    int bad = m.B < 0 || m.Tq < 0 || m.Tk < 0 || m.d < 1;
    if (gr_scores_variant_fits(t, what, bad, "a negative size or d < 1", m.B, m.Tq, m.Tk,
                               err, errlen))
        return -1;
    if ((long)m.B * m.Tq * m.Tk > GR_MAX_ELEMS || (long)m.B * (m.Tq + m.Tk) * m.d > GR_MAX_ELEMS) {
        snprintf(err, errlen, "sizes too large for one test (at most 4M scores and 4M inputs)");
        return -1;
    }
    double scale = gr_rubric_test_param(t, "scale", 1.0);
    int integers = gr_rubric_test_param(t, "integers", 0.0) != 0.0;
    if (!(scale > 0)) {
        snprintf(err, errlen, "scale must be > 0 (got %g)", scale);
        return -1;
    }

    add_call(c, fn, m, what != GR_VARIANT_RANDOM, &r);
    fill_inputs(&r, c->call.bufs[BUF_Q].data, (long)c->call.bufs[BUF_Q].count, (float)scale, integers);
    fill_inputs(&r, c->call.bufs[BUF_K].data, (long)c->call.bufs[BUF_K].count, (float)scale, integers);
    if (what == GR_VARIANT_RANDOM) {
        snprintf(c->describe, sizeof c->describe, "%s(S, Q, K, B=%d, Tq=%d, Tk=%d, d=%d), Q and K %s",
                 fn_name(fn), m.B, m.Tq, m.Tk, m.d,
                 integers ? "whole numbers in [-3, 3]" : scale == 1.0 ? "~ N(0, 1)" : "~ N(0, scale^2)");
        if (!integers && scale != 1.0) {
            size_t len = strlen(c->describe);
            snprintf(c->describe + len, sizeof c->describe - len, ", scale %g", scale);
        }
        expect_scores(c);
    } else {
        /* The call must write nothing: S comes back exactly as sent. */
        const char *why = gr_scores_expect_nothing(c, what);
        snprintf(c->describe, sizeof c->describe, "%s(S, Q, K, B=%d, Tq=%d, Tk=%d, d=%d): %s",
                 fn_name(fn), m.B, m.Tq, m.Tk, m.d, why);
    }
    return 0;
}

static int make_case(const gr_rubric_test *t, uint64_t seed, gr_case *c,
                     char *err, size_t errlen)
{
    static const gr_case_kind kinds[] = {
        { "dot_worked", gen_scores, LAB01_DOT_SCORES, GR_VARIANT_WORKED },
        { "scaled_worked", gen_scores, LAB01_SCALED_DOT_SCORES, GR_VARIANT_WORKED },
        { "dot", gen_scores, LAB01_DOT_SCORES, GR_VARIANT_RANDOM },
        { "scaled_dot", gen_scores, LAB01_SCALED_DOT_SCORES, GR_VARIANT_RANDOM },
        { "dot_bad", gen_scores, LAB01_DOT_SCORES, GR_VARIANT_BAD },
        { "scaled_bad", gen_scores, LAB01_SCALED_DOT_SCORES, GR_VARIANT_BAD },
        { "dot_empty", gen_scores, LAB01_DOT_SCORES, GR_VARIANT_EMPTY },
        { "scaled_empty", gen_scores, LAB01_SCALED_DOT_SCORES, GR_VARIANT_EMPTY },
    };
    return gr_make_case_by_kind(kinds, GR_N_KINDS(kinds), 1, t, seed, c,
                                err, errlen);
}

/* ---- input window ------------------------------------------------------------ */

/* For S[b][i][j]: the query row and the key row whose dot product it is. */
static void input_window(const gr_case *c, int buf, long index, gr_strbuf *out)
{
    dims m = case_dims(c);
    if (buf != BUF_S || m.B < 1 || m.Tq < 1 || m.Tk < 1 || m.d < 1 ||
        index >= (long)m.B * m.Tq * m.Tk)
        return;
    gr_case_qk_rows(out, c->call.bufs[BUF_Q].data, c->call.bufs[BUF_K].data, index,
                    m.Tq, m.Tk, m.d, m.d);
    gr_sb_printf(out, "  d = %d%s\n", m.d,
                 c->call.fn == LAB01_SCALED_DOT_SCORES ? ", so the dot product is divided by sqrt(d)" : "");
}

const gr_lab_module gr_lab01_module = {
    .number = 1,
    .dir = "lab01-scores",
    .make_case = make_case,
    .misconceptions = misconceptions,
    .n_misconceptions = (int)(sizeof misconceptions / sizeof misconceptions[0]),
    .input_window = input_window,
};
