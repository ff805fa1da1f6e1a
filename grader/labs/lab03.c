/* lab03.c: what the grader knows about lab 3, learned scores.
 *
 * Dimensions: B batch, Tq queries, Tk keys, dq query size, dk key size,
 * h hidden size of the additive scorer.
 *   Q is (B, Tq, dq), K is (B, Tk, dk), S is (B, Tq, Tk)
 *   general:  W is (dq, dk)
 *   additive: Wq is (h, dq), Wk is (h, dk), v is (h)
 *
 * Test kinds (the rubric's `kind`), each a call of one student function:
 *   general_worked, additive_worked   the handout's worked examples (sections 3, 4)
 *   general, additive     Q, K ~ N(0, scale^2); W, Wq, Wk ~ N(0, wscale^2 / fan_in)
 *                         (the usual initialisation), v ~ N(0, 1)
 *   general_bad, additive_bad     a negative size or dq, dk, h < 1: LAB_BAD_ARG,
 *                         S untouched
 *   general_empty, additive_empty a zero B, Tq or Tk: LAB_OK, S untouched
 * Expected values come from libattn (attn_general_scores, attn_additive_scores).
 */
#include "base/labmod.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attn.h"
#include "labsup.h"
#include "lab03_calls.h"

/* Buffer positions, in the contract's argument order. */
enum { BUF_S = 0, BUF_Q = 1 };
enum { GEN_W = 2, GEN_K = 3 };                      /* general: S, Q, W, K */
enum { ADD_K = 2, ADD_WQ = 3, ADD_WK = 4, ADD_V = 5 };  /* additive: S, Q, K, Wq, Wk, v */

/* The sizes of a case, read back from its ints. */
typedef struct dims {
    int B, Tq, Tk, dq, dk, h;   /* h is 0 for the general scorer */
} dims;

static dims case_dims(const gr_case *c)
{
    const int64_t *n = c->call.ints;
    dims m = { (int)n[0], (int)n[1], (int)n[2], (int)n[3], (int)n[4],
               c->call.fn == LAB03_ADDITIVE_SCORES ? (int)n[5] : 0 };
    return m;
}

static const float *buf(const gr_case *c, int i)
{
    return c->call.bufs[i].data;
}

/* The same buffer, writable, while a case is being built. */
static float *mbuf(gr_case *c, int i)
{
    return c->call.bufs[i].data;
}

/* ---- the reference and its variants ----------------------------------------- */

/* How a variant departs from the contract. */
typedef struct variant {
    int general;        /* shows in lab_general_scores calls only */
    int additive;       /* shows in lab_additive_scores calls only */
    int w_transposed;   /* W read as (dk, dq); Wq, Wk read as (dq, h), (dk, h) */
    int k_batch0;       /* every batch element uses the keys of element 0 */
    int no_tanh;        /* additive: v . (Wq q + Wk k) */
    int v_inside;       /* additive: tanh(v . (Wq q + Wk k)) */
} variant;

/* One score q . k under variant v, in double: q has dq values, k dk. */
typedef double (*pair_score)(const gr_case *c, const dims *m, const variant *v, const float *q,
                             const float *k);

/* The general score q^T W k. */
static double general_score(const gr_case *c, const dims *m, const variant *v, const float *q,
                            const float *k)
{
    const float *W = buf(c, GEN_W);
    double sum = 0.0;
    for (int a = 0; a < m->dq; a++)
        for (int x = 0; x < m->dk; x++) {
            float w = v->w_transposed ? W[(long)x * m->dq + a] : W[(long)a * m->dk + x];
            sum += (double)q[a] * (double)w * (double)k[x];
        }
    return sum;
}

/* (M x)[u] for u < h, with M (h, d) row-major, or read as (d, h) when transposed. */
static double project(const float *M, const float *x, int u, int h, int d, int transposed)
{
    double sum = 0.0;
    for (int a = 0; a < d; a++)
        sum += (double)(transposed ? M[(long)a * h + u] : M[(long)u * d + a]) * (double)x[a];
    return sum;
}

/* The additive score sum_u v[u] tanh((Wq q)[u] + (Wk k)[u]). */
static double additive_score(const gr_case *c, const dims *m, const variant *v, const float *q,
                             const float *k)
{
    const float *Wq = buf(c, ADD_WQ), *Wk = buf(c, ADD_WK), *vv = buf(c, ADD_V);
    double sum = 0.0;
    for (int u = 0; u < m->h; u++) {
        double pre = project(Wq, q, u, m->h, m->dq, v->w_transposed) +
                     project(Wk, k, u, m->h, m->dk, v->w_transposed);
        sum += (double)vv[u] * (v->no_tanh || v->v_inside ? pre : tanh(pre));
    }
    return v->v_inside ? tanh(sum) : sum;
}

/* S (B, Tq, Tk) under variant v: score of query i and key j of batch element b
   (or of element 0 for the keys, k_batch0), rounded once to float. */
static void scores_variant(float *S, const gr_case *c, const variant *v, pair_score score)
{
    dims m = case_dims(c);
    const float *Q = buf(c, BUF_Q);
    const float *K = buf(c, c->call.fn == LAB03_GENERAL_SCORES ? GEN_K : ADD_K);
    for (int b = 0; b < m.B; b++)
        for (int i = 0; i < m.Tq; i++)
            for (int j = 0; j < m.Tk; j++) {
                const float *q = Q + ((long)b * m.Tq + i) * m.dq;
                const float *k = K + ((long)(v->k_batch0 ? 0 : b) * m.Tk + j) * m.dk;
                S[((long)b * m.Tq + i) * m.Tk + j] = (float)score(c, &m, v, q, k);
            }
}

/* True when the case is a normal call whose S a mistake could change. */
static int computes(const gr_case *c)
{
    dims m = case_dims(c);
    return c->expected_status == LAB_OK && m.B > 0 && m.Tq > 0 && m.Tk > 0;
}

static int predict_variant(const gr_case *c, void *out[PROTO_MAX_BUFS], variant v)
{
    if ((v.general && c->call.fn != LAB03_GENERAL_SCORES) ||
        (v.additive && c->call.fn != LAB03_ADDITIVE_SCORES) || !computes(c))
        return -1;
    if (v.k_batch0 && case_dims(c).B < 2)  /* one batch element: batch 0 is right */
        return -1;
    float *S = gr_case_alloc_like(c, BUF_S);
    scores_variant(S, c, &v, c->call.fn == LAB03_GENERAL_SCORES ? general_score : additive_score);
    out[BUF_S] = S;
    return 0;
}

/* ---- misconceptions ----------------------------------------------------------- */

GR_PREDICT(predict_general_w_t, predict_variant, (variant){ .general = 1, .w_transposed = 1 })
GR_PREDICT(predict_no_tanh, predict_variant, (variant){ .additive = 1, .no_tanh = 1 })
GR_PREDICT(predict_v_inside, predict_variant, (variant){ .additive = 1, .v_inside = 1 })
GR_PREDICT(predict_additive_w_t, predict_variant, (variant){ .additive = 1, .w_transposed = 1 })
GR_PREDICT(predict_k_no_batch, predict_variant, (variant){ .k_batch0 = 1 })

static const gr_misconception misconceptions[] = {
    { "general_w_transposed", "W read transposed",
      "W was read as W[c*dq + a], a (dk, dq) matrix. W is (dq, dk) row-major: W[a][c] is "
      "W[a*dk + c], row a for query component a, column c for key component c.",
      { 3, "3" }, predict_general_w_t },
    { "additive_no_tanh", "tanh left out",
      "The scores were v . (Wq q + Wk k) without the tanh. That is linear in q and k, and "
      "no longer bounded by sum |v[u]|: each hidden unit must pass through tanh before v "
      "reads it out.",
      { 3, "4" }, predict_no_tanh },
    { "additive_v_inside", "v applied inside the tanh",
      "The scores were tanh(v . (Wq q + Wk k)): v mixed the hidden units before the tanh. "
      "Each hidden unit gets its own tanh, and v weighs the results: sum_u v[u] tanh(...).",
      { 3, "4" }, predict_v_inside },
    { "additive_w_transposed", "Wq and Wk read transposed",
      "Wq and Wk were read as (dq, h) and (dk, h). They are (h, dq) and (h, dk) row-major: "
      "(Wq q)[u] = sum_a Wq[u*dq + a] * q[a].",
      { 3, "4" }, predict_additive_w_t },
    { "k_no_batch", "keys of the wrong batch element (always batch 0)",
      "Every batch element used the keys of batch element 0: the batch offset b*Tk*dk of K "
      "is missing. The parameters are shared by the batch; the keys are not.",
      { 3, "2" }, predict_k_no_batch },
};

/* ---- building cases --------------------------------------------------------------- */

/* scale * N(0, 1) with the scale rounded to float first, as lab 3 has always drawn. */
static void fill_normal(sup_rng *r, float *x, long n, double scale)
{
    gr_fill_normal(r, x, n, (double)(float)scale);
}

static long pos(long x)
{
    return x > 0 ? x : 0;
}

/* Add the buffers and ints of a call with sizes m. S is OUT for a normal call,
   or INOUT with random contents (at least 4 values) that must come back
   untouched. Every IN buffer holds at least one value. */
static void add_call(gr_case *c, uint32_t fn, dims m, int s_untouched, sup_rng *r)
{
    c->call.fn = fn;
    long nQ = pos(m.B) * pos(m.Tq) * pos(m.dq), nK = pos(m.B) * pos(m.Tk) * pos(m.dk);
    gr_scores_add_out(c, r, m.B, m.Tq, m.Tk, s_untouched);
    gr_case_add_f32(c, PROTO_IN, nQ > 0 ? nQ : 1);
    gr_case_set_name(c, BUF_Q, "Q");
    if (fn == LAB03_GENERAL_SCORES) {
        long nW = pos(m.dq) * pos(m.dk);
        gr_case_add_f32(c, PROTO_IN, nW > 0 ? nW : 1);
        gr_case_add_f32(c, PROTO_IN, nK > 0 ? nK : 1);
        gr_case_set_name(c, GEN_W, "W");
        gr_case_set_name(c, GEN_K, "K");
    } else {
        long nWq = pos(m.h) * pos(m.dq), nWk = pos(m.h) * pos(m.dk);
        gr_case_add_f32(c, PROTO_IN, nK > 0 ? nK : 1);
        gr_case_add_f32(c, PROTO_IN, nWq > 0 ? nWq : 1);
        gr_case_add_f32(c, PROTO_IN, nWk > 0 ? nWk : 1);
        gr_case_add_f32(c, PROTO_IN, m.h > 0 ? m.h : 1);
        gr_case_set_name(c, ADD_K, "K");
        gr_case_set_name(c, ADD_WQ, "Wq");
        gr_case_set_name(c, ADD_WK, "Wk");
        gr_case_set_name(c, ADD_V, "v");
    }
    GR_CASE_ADD_INTS(c, m.B, m.Tq, m.Tk, m.dq, m.dk);
    if (fn == LAB03_ADDITIVE_SCORES)
        gr_case_add_int(c, m.h);
}

static void expect_scores(gr_case *c)
{
    dims m = case_dims(c);
    float *S = gr_case_expect(c, BUF_S);
    if (c->call.fn == LAB03_GENERAL_SCORES)
        attn_general_scores(S, buf(c, BUF_Q), buf(c, GEN_W), buf(c, GEN_K),
                            m.B, m.Tq, m.Tk, m.dq, m.dk);
    else
        attn_additive_scores(S, buf(c, BUF_Q), buf(c, ADD_K), buf(c, ADD_WQ), buf(c, ADD_WK),
                             buf(c, ADD_V), m.B, m.Tq, m.Tk, m.dq, m.dk, m.h);
    c->expected_status = LAB_OK;
}

static void set(gr_case *c, int i, const float *x, size_t bytes)
{
    memcpy(c->call.bufs[i].data, x, bytes);
}

/* The handout's worked examples.
   Section 3 (B = 1, Tq = 2, Tk = 2, dq = 2, dk = 3): W = [1 0 2; 0 1 -1],
     q0 = [1, 2] -> q0^T W = [1, 2, 0]; q1 = [0, 1] -> [0, 1, -1];
     k0 = [1, 1, 1], k1 = [2, 0, 1]: S = [3 2; 0 -1].
   Section 4 (B = 1, Tq = 2, Tk = 2, dq = dk = 1, h = 2): Wq = [[1], [0]],
     Wk = [[0], [1]], v = [1, -1], so score = tanh(q) - tanh(k);
     q = 0.5, -2 and k = 1, 0: S = [0.462117 - 0.761594, 0.462117 - 0;
                                    -0.964028 - 0.761594, -0.964028 - 0]
                                 = [-0.299477 0.462117; -1.725622 -0.964028]. */
static void make_worked(gr_case *c, uint32_t fn, sup_rng *r)
{
    if (fn == LAB03_GENERAL_SCORES) {
        static const float Q[] = {1, 2, 0, 1}, W[] = {1, 0, 2, 0, 1, -1}, K[] = {1, 1, 1, 2, 0, 1};
        add_call(c, fn, (dims){1, 2, 2, 2, 3, 0}, 0, r);
        set(c, BUF_Q, Q, sizeof Q);
        set(c, GEN_W, W, sizeof W);
        set(c, GEN_K, K, sizeof K);
        snprintf(c->describe, sizeof c->describe, "lab_general_scores(S, Q, W, K, B=1, Tq=2, Tk=2, "
                 "dq=2, dk=3), the worked example of the handout, section 3");
    } else {
        static const float Q[] = {0.5f, -2}, K[] = {1, 0}, Wq[] = {1, 0}, Wk[] = {0, 1}, v[] = {1, -1};
        add_call(c, fn, (dims){1, 2, 2, 1, 1, 2}, 0, r);
        set(c, BUF_Q, Q, sizeof Q);
        set(c, ADD_K, K, sizeof K);
        set(c, ADD_WQ, Wq, sizeof Wq);
        set(c, ADD_WK, Wk, sizeof Wk);
        set(c, ADD_V, v, sizeof v);
        snprintf(c->describe, sizeof c->describe, "lab_additive_scores(S, Q, K, Wq, Wk, v, B=1, Tq=2, "
                 "Tk=2, dq=1, dk=1, h=2), the worked example of the handout, section 4");
    }
    expect_scores(c);
}

/* Every kind of lab 3: a call of kind->fn, the variant kind->what. */
static int gen_scores(const gr_case_kind *kind, const gr_rubric_test *t, uint64_t seed,
                      gr_case *c, char *err, size_t errlen)
{
    uint32_t fn = kind->fn;
    gr_case_variant what = kind->what;
    int additive = fn == LAB03_ADDITIVE_SCORES;
    sup_rng r;
    sup_rng_seed(&r, seed);
    if (what == GR_VARIANT_WORKED) {
        make_worked(c, fn, &r);
        return 0;
    }

    dims m = {0};
    int lo = what == GR_VARIANT_BAD ? -4 : what == GR_VARIANT_EMPTY ? 0 : 1, dlo = what == GR_VARIANT_BAD ? -4 : 1;
    if (gr_test_int(t, "B", 2, lo, 64, &m.B, err, errlen) ||
        gr_test_int(t, "Tq", 3, lo, 1024, &m.Tq, err, errlen) ||
        gr_test_int(t, "Tk", 4, lo, 1024, &m.Tk, err, errlen) ||
        gr_test_int(t, "dq", 4, dlo, 512, &m.dq, err, errlen) ||
        gr_test_int(t, "dk", 4, dlo, 512, &m.dk, err, errlen) ||
        (additive && gr_test_int(t, "h", 8, dlo, 512, &m.h, err, errlen)))
        return -1;
    int bad = m.B < 0 || m.Tq < 0 || m.Tk < 0 || m.dq < 1 || m.dk < 1 || (additive && m.h < 1);
    if (gr_scores_variant_fits(t, what, bad, additive ? "a negative size or dq, dk, h below 1"
                                                      : "a negative size or dq, dk below 1",
                               m.B, m.Tq, m.Tk, err, errlen))
        return -1;
    if (pos(m.B) * pos(m.Tq) * pos(m.Tk) > GR_MAX_ELEMS ||
        pos(m.B) * (pos(m.Tq) * pos(m.dq) + pos(m.Tk) * pos(m.dk)) > GR_MAX_ELEMS) {
        snprintf(err, errlen, "sizes too large for one test (at most %ld scores and inputs)", GR_MAX_ELEMS);
        return -1;
    }
    double scale = gr_rubric_test_param(t, "scale", 1.0), wscale = gr_rubric_test_param(t, "wscale", 1.0);
    if (!(scale > 0) || !(wscale > 0)) {
        snprintf(err, errlen, "scale and wscale must be > 0 (got %g, %g)", scale, wscale);
        return -1;
    }

    add_call(c, fn, m, what != GR_VARIANT_RANDOM, &r);
    long nQ = (long)c->call.bufs[BUF_Q].count;
    fill_normal(&r, mbuf(c, BUF_Q), nQ, scale);
    double fan_q = m.dq > 0 ? 1.0 / sqrt((double)m.dq) : 1.0, fan_k = m.dk > 0 ? 1.0 / sqrt((double)m.dk) : 1.0;
    if (!additive) {
        /* q^T W k with W ~ N(0, 1/dq): q^T W is then about unit size per component */
        fill_normal(&r, mbuf(c, GEN_W), (long)c->call.bufs[GEN_W].count, wscale * fan_q);
        fill_normal(&r, mbuf(c, GEN_K), (long)c->call.bufs[GEN_K].count, scale);
    } else {
        fill_normal(&r, mbuf(c, ADD_K), (long)c->call.bufs[ADD_K].count, scale);
        fill_normal(&r, mbuf(c, ADD_WQ), (long)c->call.bufs[ADD_WQ].count, wscale * fan_q);
        fill_normal(&r, mbuf(c, ADD_WK), (long)c->call.bufs[ADD_WK].count, wscale * fan_k);
        fill_normal(&r, mbuf(c, ADD_V), (long)c->call.bufs[ADD_V].count, 1.0);
    }
    const char *name = additive ? "lab_additive_scores(S, Q, K, Wq, Wk, v" : "lab_general_scores(S, Q, W, K";
    char sizes[96];
    if (additive)
        snprintf(sizes, sizeof sizes, "B=%d, Tq=%d, Tk=%d, dq=%d, dk=%d, h=%d", m.B, m.Tq, m.Tk, m.dq, m.dk, m.h);
    else
        snprintf(sizes, sizeof sizes, "B=%d, Tq=%d, Tk=%d, dq=%d, dk=%d", m.B, m.Tq, m.Tk, m.dq, m.dk);
    if (what == GR_VARIANT_RANDOM) {
        snprintf(c->describe, sizeof c->describe, "%s, %s), Q and K ~ N(0, %g^2), weights ~ N(0, %g^2/fan_in)",
                 name, sizes, scale, wscale);
        expect_scores(c);
    } else {
        const char *why = gr_scores_expect_nothing(c, what); /* S comes back as sent */
        snprintf(c->describe, sizeof c->describe, "%s, %s): %s", name, sizes, why);
    }
    return 0;
}

static int make_case(const gr_rubric_test *t, uint64_t seed, gr_case *c,
                     char *err, size_t errlen)
{
    static const gr_case_kind kinds[] = {
        { "general_worked", gen_scores, LAB03_GENERAL_SCORES, GR_VARIANT_WORKED },
        { "additive_worked", gen_scores, LAB03_ADDITIVE_SCORES, GR_VARIANT_WORKED },
        { "general", gen_scores, LAB03_GENERAL_SCORES, GR_VARIANT_RANDOM },
        { "additive", gen_scores, LAB03_ADDITIVE_SCORES, GR_VARIANT_RANDOM },
        { "general_bad", gen_scores, LAB03_GENERAL_SCORES, GR_VARIANT_BAD },
        { "additive_bad", gen_scores, LAB03_ADDITIVE_SCORES, GR_VARIANT_BAD },
        { "general_empty", gen_scores, LAB03_GENERAL_SCORES, GR_VARIANT_EMPTY },
        { "additive_empty", gen_scores, LAB03_ADDITIVE_SCORES, GR_VARIANT_EMPTY },
    };
    return gr_make_case_by_kind(kinds, GR_N_KINDS(kinds), 3, t, seed, c,
                                err, errlen);
}

/* ---- input window -------------------------------------------------------------------- */

static void input_window(const gr_case *c, int b_, long index, gr_strbuf *out)
{
    dims m = case_dims(c);
    if (b_ != BUF_S || !computes(c) || index >= (long)m.B * m.Tq * m.Tk)
        return;
    const float *K = buf(c, c->call.fn == LAB03_GENERAL_SCORES ? GEN_K : ADD_K);
    gr_case_qk_rows(out, buf(c, BUF_Q), K, index, m.Tq, m.Tk, m.dq, m.dk);
    if (c->call.fn == LAB03_GENERAL_SCORES) {
        gr_sb_printf(out, "  W is (dq, dk) = (%d, %d); W row 0 = ", m.dq, m.dk);
        gr_case_floats(out, buf(c, GEN_W), m.dk);
    } else {
        gr_sb_printf(out, "  Wq is (h, dq) = (%d, %d), Wk is (h, dk) = (%d, %d); v = ", m.h, m.dq, m.h, m.dk);
        gr_case_floats(out, buf(c, ADD_V), m.h);
    }
    gr_sb_append(out, "\n");
}

const gr_lab_module gr_lab03_module = {
    .number = 3,
    .dir = "lab03-learned",
    .make_case = make_case,
    .misconceptions = misconceptions,
    .n_misconceptions = (int)(sizeof misconceptions / sizeof misconceptions[0]),
    .input_window = input_window,
};
