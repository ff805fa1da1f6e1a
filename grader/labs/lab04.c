/* lab04.c: what the grader knows about lab 4, the entropy experiment.
 *
 * Dimensions: T keys per query, d = d_k the query/key size; weights W are
 * (rows, n) row-major.
 *
 * Test kinds (the rubric's `kind`), each a call of one student function:
 *   entropy_worked    fixed rows: uniform (log 4), one-hot (0), the handout's
 *                     worked weights, a fully masked row (0)
 *   entropy           rows of softmax weights of N(0, scale^2) scores; params
 *                     mask_frac (share of masked keys, weight exactly 0) and
 *                     masked_rows (rows of all zeros)
 *   entropy_bad       rows < 0 or n < 1: LAB_BAD_ARG, H untouched
 *   experiment        sizes dk_min, dk_max (dks = dk_min, 2 dk_min, ... up to
 *                     dk_max; params {descending: 1} reverses them), T, trials;
 *                     params {seed: S} fixes the seed (the
 *                     course's `make run` uses 1), otherwise it is the student's
 *   experiment_bad    params {bad: 1} T = 0, 2 trials = 0, 3 a d_k of 0, 4 n_dk = 0:
 *                     LAB_BAD_ARG, outputs untouched
 * Expected values come from libattn (attn_dot_scores, attn_scaled_dot_scores,
 * attn_softmax, attn_entropy_rows) driven by the support generator exactly as
 * lab04.h orders the draws.
 */
#include "base/labmod.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attn.h"
#include "labsup.h"
#include "lab04_calls.h"

#define MAX_DKS 16

/* Buffer positions. row entropy: H, W.  experiment: H_raw, H_scaled, dks. */
enum { ENT_H = 0, ENT_W = 1 };
enum { EXP_RAW = 0, EXP_SCALED = 1, EXP_DKS = 2 };

/* ---- how entropy can be computed, right and wrong ------------------------------ */

/* The mistakes a prediction reproduces; all zero is the contract. */
typedef struct variant {
    int log2;          /* entropy in bits: log2 instead of log */
    int no_minus;      /* + sum w log w, the sign forgotten */
    int zero_nan;      /* 0 * log 0 computed as it stands: NaN */
    int no_max;        /* experiment: softmax without the max subtraction */
    int inv_dk;        /* experiment: scaled scores divided by d, not sqrt(d) */
    int draw_order;    /* experiment: K drawn before q */
    int reseed;        /* experiment: generator reseeded for every d */
    int sum_only;      /* experiment: the sum over trials, not the mean */
} variant;

/* Entropy of one row of n weights under variant v, in double. The contract's
   row (all flags 0) is attn_entropy_rows. */
static double entropy_variant(const float *w, int n, const variant *v)
{
    double sum = 0.0;
    for (int j = 0; j < n; j++) {
        /* The contract skips zero weights. A student's test "w > 0" also skips
           the NaN weights of an overflowed softmax; with zero_nan nothing is
           skipped and 0 * log 0 = 0 * -inf = NaN. */
        if (!(w[j] > 0.0f) && !v->zero_nan)
            continue;
        sum += (double)w[j] * log((double)w[j]);
    }
    double h = v->no_minus ? sum : -sum;
    return v->log2 ? h / log(2.0) : h;
}

/* Softmax of one row of T scores: the contract's (libattn), or one without the
   max subtraction: expf of each raw score (inf above 88.7), summed in double,
   so a row with an overflowed score becomes NaN there (inf / inf) and 0
   elsewhere (finite / inf). */
static void softmax_variant(float *w, const float *s, int T, const variant *v)
{
    if (!v->no_max) {
        attn_softmax(w, s, 1, T);
        return;
    }
    double sum = 0.0;
    for (int j = 0; j < T; j++)
        sum += (double)expf(s[j]);
    for (int j = 0; j < T; j++)
        w[j] = (float)((double)expf(s[j]) / sum);
}

/* ---- the experiment's scores, drawn once ------------------------------------------ */

/* Every trial's raw scores q . k_j and scaled scores q . k_j / sqrt(d), for every
   d of one experiment, in the order drawn: trial t of dks[m] is row
   (m * trials + t), T scores. Drawing the T*d normals of each trial costs far
   more than everything after it, and the expected values and most predictions
   share the same draws, so the last few runs are kept per thread (a grader
   running several grading threads never shares one). */
typedef struct draws {
    int valid;
    uint64_t seed;
    int T, trials, n_dk, draw_order, reseed;
    int32_t dks[MAX_DKS];
    float *raw, *scaled;   /* (n_dk * trials, T) each */
} draws;

static _Thread_local draws cache[3]; /* the contract's draws, K before q, reseeded */

static const draws *get_draws(const int32_t *dks, int n_dk, int T, int trials, uint64_t seed,
                              int draw_order, int reseed)
{
    draws *dr = &cache[draw_order ? 1 : reseed ? 2 : 0];
    if (dr->valid && dr->seed == seed && dr->T == T && dr->trials == trials && dr->n_dk == n_dk &&
        dr->draw_order == draw_order && dr->reseed == reseed &&
        memcmp(dr->dks, dks, (size_t)n_dk * sizeof dks[0]) == 0)
        return dr;
    free(dr->raw);
    free(dr->scaled);
    *dr = (draws){ 1, seed, T, trials, n_dk, draw_order, reseed, {0}, NULL, NULL };
    memcpy(dr->dks, dks, (size_t)n_dk * sizeof dks[0]);
    dr->raw = gr_xmalloc((size_t)n_dk * trials * T * sizeof *dr->raw);
    dr->scaled = gr_xmalloc((size_t)n_dk * trials * T * sizeof *dr->scaled);

    int dmax = 1;
    for (int m = 0; m < n_dk; m++)
        if (dks[m] > dmax) dmax = dks[m];
    float *q = gr_xmalloc((size_t)dmax * sizeof *q);
    float *K = gr_xmalloc((size_t)T * dmax * sizeof *K);
    sup_rng rng;
    sup_rng_seed(&rng, seed);
    for (int m = 0; m < n_dk; m++) {
        int d = dks[m];
        if (reseed)
            sup_rng_seed(&rng, seed);
        for (int t = 0; t < trials; t++) {
            if (draw_order) {
                sup_rng_fill_normal(&rng, K, (long)T * d);
                sup_rng_fill_normal(&rng, q, d);
            } else {
                sup_rng_fill_normal(&rng, q, d);           /* the query: d normals */
                sup_rng_fill_normal(&rng, K, (long)T * d); /* the keys: (T, d) */
            }
            /* one query row against T keys: raw scores, and scaled ones */
            long row = ((long)m * trials + t) * T;
            attn_dot_scores(dr->raw + row, q, K, 1, 1, T, d);
            attn_scaled_dot_scores(dr->scaled + row, q, K, 1, 1, T, d);
        }
    }
    free(q);
    free(K);
    return dr;
}

/* The experiment of lab04.h under variant v: H_raw and H_scaled (n_dk each). */
static void experiment_variant(float *H_raw, float *H_scaled, const int32_t *dks, int n_dk,
                               int T, int trials, uint64_t seed, const variant *v)
{
    const draws *dr = get_draws(dks, n_dk, T, trials, seed, v->draw_order, v->reseed);
    float *s2 = gr_xmalloc((size_t)T * sizeof *s2), *w = gr_xmalloc((size_t)T * sizeof *w);
    int right = !v->log2 && !v->no_minus && !v->zero_nan && !v->no_max;
    for (int m = 0; m < n_dk; m++) {
        double sum_raw = 0.0, sum_scaled = 0.0;
        for (int t = 0; t < trials; t++) {
            const float *s = dr->raw + ((long)m * trials + t) * T;
            const float *scaled = dr->scaled + ((long)m * trials + t) * T;
            if (v->inv_dk) { /* q . k / d instead of / sqrt(d) */
                for (int j = 0; j < T; j++)
                    s2[j] = (float)((double)s[j] / dks[m]);
                scaled = s2;
            }
            float h;
            softmax_variant(w, s, T, v);
            if (right) attn_entropy_rows(&h, w, 1, T); else h = (float)entropy_variant(w, T, v);
            sum_raw += (double)h;
            softmax_variant(w, scaled, T, v);
            if (right) attn_entropy_rows(&h, w, 1, T); else h = (float)entropy_variant(w, T, v);
            sum_scaled += (double)h;
        }
        H_raw[m] = (float)(v->sum_only ? sum_raw : sum_raw / trials);
        H_scaled[m] = (float)(v->sum_only ? sum_scaled : sum_scaled / trials);
    }
    free(s2);
    free(w);
}

/* ---- reading a case back ----------------------------------------------------------- */

typedef struct exp_args {
    const int32_t *dks;
    int n_dk, T, trials;
    uint64_t seed;
} exp_args;

static exp_args exp_view(const gr_case *c)
{
    exp_args a = { c->call.bufs[EXP_DKS].data, (int)c->call.ints[0], (int)c->call.ints[1],
                   (int)c->call.ints[2], (uint64_t)c->call.ints[3] };
    return a;
}

/* ---- misconceptions ------------------------------------------------------------------ */

/* Any weight exactly 0 in the rows of a row-entropy case? */
static int has_zero_weight(const gr_case *c)
{
    const proto_buf *W = &c->call.bufs[ENT_W];
    for (uint64_t k = 0; k < W->count; k++)
        if (((const float *)W->data)[k] == 0.0f)
            return 1;
    return 0;
}

/* Predict both functions' outputs under variant v; the experiment-only
   mistakes do not apply to lab_row_entropy. */
static int predict_variant(const gr_case *c, void *out[PROTO_MAX_BUFS], variant v)
{
    if (c->expected_status != LAB_OK)
        return -1;
    if (c->call.fn == LAB04_ROW_ENTROPY) {
        if (v.no_max || v.inv_dk || v.draw_order || v.reseed || v.sum_only)
            return -1;
        if (v.zero_nan && !has_zero_weight(c))
            return -1;
        int rows = (int)c->call.ints[0], n = (int)c->call.ints[1];
        const float *W = c->call.bufs[ENT_W].data;
        float *H = gr_case_alloc_like(c, ENT_H);
        for (int r = 0; r < rows; r++)
            H[r] = (float)entropy_variant(W + (long)r * n, n, &v);
        out[ENT_H] = H;
        return 0;
    }
    exp_args a = exp_view(c);
    if (v.sum_only && a.trials < 2)
        return -1;
    if (v.reseed && a.n_dk < 2)
        return -1;
    float *Hr = gr_case_alloc_like(c, EXP_RAW), *Hs = gr_case_alloc_like(c, EXP_SCALED);
    experiment_variant(Hr, Hs, a.dks, a.n_dk, a.T, a.trials, a.seed, &v);
    out[EXP_RAW] = Hr;
    out[EXP_SCALED] = Hs;
    return 0;
}

GR_PREDICT(predict_log2, predict_variant, (variant){ .log2 = 1 })
GR_PREDICT(predict_no_minus, predict_variant, (variant){ .no_minus = 1 })
GR_PREDICT(predict_zero_nan, predict_variant, (variant){ .zero_nan = 1 })
GR_PREDICT(predict_no_max, predict_variant, (variant){ .no_max = 1 })
GR_PREDICT(predict_inv_dk, predict_variant, (variant){ .inv_dk = 1 })
GR_PREDICT(predict_draw_order, predict_variant, (variant){ .draw_order = 1 })
GR_PREDICT(predict_reseed, predict_variant, (variant){ .reseed = 1 })
GR_PREDICT(predict_sum_only, predict_variant, (variant){ .sum_only = 1 })

static const gr_misconception misconceptions[] = {
    { "entropy_log2", "entropy in bits (log2) instead of nats",
      "The entropy used log base 2. The course measures entropy in nats, with the natural "
      "log: a uniform row of n weights has entropy log n (log(64) = 4.16), and the analytic "
      "curve log T - 1/2 is in nats too.",
      { 4, "2" }, predict_log2 },
    { "entropy_no_minus", "entropy without the minus sign",
      "The entropy came out as + sum w log w, which is never positive. Each log w of a weight "
      "in (0, 1] is <= 0, so H = - sum w log w is >= 0.",
      { 4, "2" }, predict_no_minus },
    { "entropy_zero_nan", "0 * log 0 gives NaN",
      "A weight of exactly 0 (a masked key, or an underflowed one) was put through w * log w = "
      "0 * -inf = NaN. Its limit is 0: skip zero weights.",
      { 4, "2" }, predict_zero_nan },
    { "no_max_sub", "softmax without max subtraction",
      "The experiment's softmax took exp of the raw scores. At large d_k raw scores pass 88, "
      "expf overflows to inf and the row's weights become NaN and 0. Subtract the row max first.",
      { 4, "3" }, predict_no_max },
    { "inv_dk", "scaled scores divided by d instead of sqrt(d)",
      "H_scaled used q . k / d. The raw scores have variance d, so dividing by sqrt(d) brings "
      "them to variance 1 and keeps the entropy near log T - 1/2; dividing by d flattens the "
      "weights toward uniform (entropy toward log T) as d grows.",
      { 1, "3" }, predict_inv_dk },
    { "draw_order", "K drawn before q",
      "The keys were drawn before the query. The procedure in lab04.h fixes the order (q "
      "first, then K, every trial) so that a seed fixes every number; another order gives "
      "different, ungradable numbers.",
      { 4, "3" }, predict_draw_order },
    { "reseed_each_dk", "generator reseeded for every d_k",
      "The generator was seeded again for each d_k. It is seeded once: the draws for dks[1] "
      "continue where those for dks[0] stopped.",
      { 4, "3" }, predict_reseed },
    { "sum_not_mean", "sum over trials instead of the mean",
      "H_raw and H_scaled held the sums of the trials' entropies. Divide by trials: each is "
      "a mean, comparable with log T - 1/2 whatever the number of trials.",
      { 4, "3" }, predict_sum_only },
};

/* ---- building cases -------------------------------------------------------------------- */

static int make_row_entropy(const gr_rubric_test *t, gr_case_variant what, sup_rng *r, gr_case *c,
                            char *err, size_t errlen)
{
    int rows, n, masked_rows = 0;
    c->call.fn = LAB04_ROW_ENTROPY;
    if (what == GR_VARIANT_WORKED) {
        /* uniform: log 4 = 1.386294; one-hot: 0; the handout's worked weights
           [0.7054 0.2595 0.0351 0]: -(0.7054 ln 0.7054 + 0.2595 ln 0.2595
           + 0.0351 ln 0.0351) = 0.2462 + 0.3501 + 0.1176 = 0.7138 (the 0 adds
           nothing); all zeros: 0 */
        static const float W[16] = {0.25f, 0.25f, 0.25f, 0.25f,  0, 1, 0, 0,
                                    0.7054f, 0.2595f, 0.0351f, 0,  0, 0, 0, 0};
        rows = 4, n = 4;
        gr_case_add_f32(c, PROTO_OUT, rows);
        memcpy(gr_case_add_f32(c, PROTO_IN, rows * n), W, sizeof W);
        snprintf(c->describe, sizeof c->describe, "lab_row_entropy(H, W, rows=4, n=4), rows: uniform, "
                 "one-hot, the worked weights [0.7054 0.2595 0.0351 0], a fully masked row of zeros");
    } else if (what == GR_VARIANT_BAD) {
        if (gr_test_rows(t, what, &rows, &n, err, errlen))
            return -1;
        gr_case_add_f32(c, PROTO_OUT, rows > 0 ? rows : 1);
        long nW = (long)(rows > 0 ? rows : 1) * (n > 0 ? n : 1);
        float *W = gr_case_add_f32(c, PROTO_IN, nW);
        sup_rng_fill_uniform(r, W, nW, 0.0f, 1.0f); /* never read: the call is rejected */
        snprintf(c->describe, sizeof c->describe, "lab_row_entropy(H, W, rows=%d, n=%d): sizes break "
                 "the contract, expect LAB_BAD_ARG and H untouched", rows, n);
    } else {
        if (gr_test_rows(t, what, &rows, &n, err, errlen))
            return -1;
        double scale = gr_rubric_test_param(t, "scale", 1.0), mask_frac = gr_rubric_test_param(t, "mask_frac", 0.0);
        if (gr_test_int(t, "masked_rows", 0, 0, rows, &masked_rows, err, errlen))
            return -1;
        if (!(scale > 0) || !(mask_frac >= 0 && mask_frac < 1)) {
            snprintf(err, errlen, "params need scale > 0 and 0 <= mask_frac < 1 (got %g, %g)", scale, mask_frac);
            return -1;
        }
        gr_case_add_f32(c, PROTO_OUT, rows);
        float *W = gr_case_add_f32(c, PROTO_IN, (long)rows * n);
        /* weights = softmax of random scores, masked keys at -inf (weight 0),
           the first masked_rows rows fully masked (all zeros) */
        gr_fill_scores(r, W, (long)rows * n, (float)scale, 0.0f, mask_frac);
        for (int i = 0; i < masked_rows; i++)
            for (int j = 0; j < n; j++)
                W[(long)i * n + j] = -INFINITY;
        attn_softmax(W, W, rows, n);
        snprintf(c->describe, sizeof c->describe, "lab_row_entropy(H, W, rows=%d, n=%d), W = softmax "
                 "of N(0, %g^2) scores%s%s", rows, n, scale, mask_frac > 0 ? ", some keys masked (weight 0)" : "",
                 masked_rows > 0 ? ", some rows all zeros" : "");
    }
    gr_case_set_name(c, ENT_H, "H");
    gr_case_set_name(c, ENT_W, "W");
    if (rows > 0 && n > 0)
        gr_case_set_shape(c, ENT_W, 1, rows, n);
    GR_CASE_ADD_INTS(c, rows, n);
    if (what == GR_VARIANT_BAD)
        return gr_case_expect_bad_arg(c);
    attn_entropy_rows(gr_case_expect(c, ENT_H), c->call.bufs[ENT_W].data, rows, n);
    c->expected_status = LAB_OK;
    return 0;
}

static int make_experiment(const gr_rubric_test *t, gr_case_variant what, sup_rng *r, gr_case *c,
                           char *err, size_t errlen)
{
    int dk_min, dk_max, T, trials, bad = 0;
    if (gr_test_int(t, "dk_min", 8, 1, 4096, &dk_min, err, errlen) ||
        gr_test_int(t, "dk_max", 512, 1, 4096, &dk_max, err, errlen) ||
        gr_test_int(t, "T", 64, 1, 4096, &T, err, errlen) ||
        gr_test_int(t, "trials", 200, 1, 100000, &trials, err, errlen))
        return -1;
    if (what == GR_VARIANT_BAD && (gr_test_int(t, "bad", 1, 1, 4, &bad, err, errlen)))
        return -1;
    int32_t dks[MAX_DKS];
    int n_dk = 0;
    for (long d = dk_min; d <= dk_max && n_dk < MAX_DKS; d *= 2)
        dks[n_dk++] = (int32_t)d;
    if (n_dk < 1) {
        snprintf(err, errlen, "dk_min must be <= dk_max (got %d, %d)", dk_min, dk_max);
        return -1;
    }
    gr_test_descending(t, dks, n_dk);   /* the largest first: no list is sorted */
    /* the child's work: trials * T * sum(dks) multiply-adds, twice softmax */
    double work = 0;
    for (int m = 0; m < n_dk; m++)
        work += (double)trials * T * dks[m];
    if (work > 2e8 || (long)T * dks[n_dk - 1] > GR_MAX_ELEMS) {
        snprintf(err, errlen, "the experiment is too big for one test (trials * T * sum of d_k "
                 "= %.3g, at most 2e8)", work);
        return -1;
    }
    double seed_param = gr_rubric_test_param(t, "seed", -1.0);
    uint64_t seed = seed_param >= 0 ? (uint64_t)seed_param : sup_rng_u64(r);

    switch (bad) {
    case 1: T = 0; break;
    case 2: trials = 0; break;
    case 3: dks[n_dk - 1] = 0; break;
    case 4: n_dk = 0; break;
    }
    c->call.fn = LAB04_ENTROPY_EXPERIMENT;
    long nout = n_dk > 0 ? n_dk : 1;
    gr_case_add_f32(c, PROTO_OUT, nout);
    gr_case_add_f32(c, PROTO_OUT, nout);
    memcpy(gr_case_add_i32(c, PROTO_IN, nout), dks, (size_t)nout * sizeof dks[0]);
    gr_case_set_name(c, EXP_RAW, "H_raw");
    gr_case_set_name(c, EXP_SCALED, "H_scaled");
    gr_case_set_name(c, EXP_DKS, "dks");
    GR_CASE_ADD_INTS(c, n_dk, T, trials, (int64_t)seed);

    int len = snprintf(c->describe, sizeof c->describe, "lab_entropy_experiment(H_raw, H_scaled, dks=[");
    for (int m = 0; m < (n_dk > 0 ? n_dk : 1); m++)
        len += snprintf(c->describe + len, sizeof c->describe - (size_t)len, "%s%d", m ? " " : "", (int)dks[m]);
    snprintf(c->describe + len, sizeof c->describe - (size_t)len,
             "], n_dk=%d, T=%d, trials=%d, seed=%llu)%s", n_dk, T, trials, (unsigned long long)seed,
             bad ? ": arguments break the contract, expect LAB_BAD_ARG and the outputs untouched" : "");

    if (bad)
        return gr_case_expect_bad_arg(c);
    experiment_variant(gr_case_expect(c, EXP_RAW), gr_case_expect(c, EXP_SCALED),
                       c->call.bufs[EXP_DKS].data, n_dk, T, trials, seed, &(variant){0});
    c->expected_status = LAB_OK;
    return 0;
}

/* Every kind of lab 4: a call of kind->fn, the variant kind->what. */
static int gen_call(const gr_case_kind *kind, const gr_rubric_test *t, uint64_t seed,
                    gr_case *c, char *err, size_t errlen)
{
    sup_rng r;
    sup_rng_seed(&r, seed);
    if (kind->fn == LAB04_ENTROPY_EXPERIMENT)
        return make_experiment(t, kind->what, &r, c, err, errlen);
    return make_row_entropy(t, kind->what, &r, c, err, errlen);
}

static int make_case(const gr_rubric_test *t, uint64_t seed, gr_case *c,
                     char *err, size_t errlen)
{
    static const gr_case_kind kinds[] = {
        { "entropy_worked", gen_call, LAB04_ROW_ENTROPY, GR_VARIANT_WORKED },
        { "entropy", gen_call, LAB04_ROW_ENTROPY, GR_VARIANT_RANDOM },
        { "entropy_bad", gen_call, LAB04_ROW_ENTROPY, GR_VARIANT_BAD },
        { "experiment", gen_call, LAB04_ENTROPY_EXPERIMENT, GR_VARIANT_RANDOM },
        { "experiment_bad", gen_call, LAB04_ENTROPY_EXPERIMENT, GR_VARIANT_BAD },
    };
    return gr_make_case_by_kind(kinds, GR_N_KINDS(kinds), 4, t, seed, c,
                                err, errlen);
}

/* ---- input window ----------------------------------------------------------------------- */

static void input_window(const gr_case *c, int buf, long index, gr_strbuf *out)
{
    if (c->expected_status != LAB_OK)
        return;
    if (c->call.fn == LAB04_ROW_ENTROPY) {
        int n = (int)c->call.ints[1];
        const float *w = (const float *)c->call.bufs[ENT_W].data + index * n;
        double sum = 0;
        int zeros = 0;
        for (int j = 0; j < n; j++) {
            sum += (double)w[j];
            zeros += w[j] == 0.0f;
        }
        gr_sb_printf(out, "  W row [%ld]:", index);
        gr_case_values(out, w, n, 'f', 4);
        gr_sb_printf(out, "\n  row sum %.4f, %d weights exactly 0; log n = %.4f is the largest entropy\n",
                     sum, zeros, log((double)n));
        return;
    }
    exp_args a = exp_view(c);
    if (index >= a.n_dk)
        return;
    int d = a.dks[index];
    gr_sb_printf(out, "  d = dks[%ld] = %d, T = %d, trials = %d, seed = %llu\n", index, d, a.T,
                 a.trials, (unsigned long long)a.seed);
    if (buf == EXP_RAW)
        gr_sb_printf(out, "  raw scores have variance d = %d: the small-variance curve log T - d/2 "
                     "= %.3f (clipped at 0) is only a guide here\n",
                     d, fmax(0.0, log((double)a.T) - d / 2.0));
    else
        gr_sb_printf(out, "  scaled scores have variance 1: expect about log T - 1/2 = %.3f\n",
                     log((double)a.T) - 0.5);
}

const gr_lab_module gr_lab04_module = {
    .number = 4,
    .dir = "lab04-entropy",
    .make_case = make_case,
    .misconceptions = misconceptions,
    .n_misconceptions = (int)(sizeof misconceptions / sizeof misconceptions[0]),
    .input_window = input_window,
};
