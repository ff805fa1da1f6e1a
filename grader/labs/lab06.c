/* lab06.c: what the grader knows about lab 6, position biases and dropout.
 *
 * Six functions are graded (lab06_calls.h, generated from the manifest, numbers them):
 *   lab_alibi_slopes, lab_alibi_bias        ALiBi, added to SCORES
 *   lab_t5_bucket, lab_relpos_bias          T5 relative-position buckets, on SCORES
 *   lab_dropout                             inverted dropout on WEIGHTS
 *   lab_attention_output                    O = W V
 *
 * Dimensions: B = batch * heads (heads fastest, h = b % H), H heads, Tq queries,
 * Tk keys, dv value size. Expected values come from libattn; each misconception
 * recomputes the same function with one known mistake.
 */
#include "base/labmod.h"
#include "lab06_calls.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attn.h"
#include "labsup.h"


static int is_pow2(int n)
{
    return n > 0 && (n & (n - 1)) == 0;
}

/* ---- ALiBi slopes, right and wrong --------------------------------------------- */

typedef enum slope_mode {
    SLOPE_RIGHT,
    SLOPE_FROM_H0,     /* 2^(-8h/n) for h = 0..n-1: the first head gets slope 1 */
    SLOPE_ANY_H        /* 2^(-8(h+1)/H) for every H, power of two or not */
} slope_mode;

/* The slope of head k of n heads under the power-of-two rule, with the
   off-by-one of SLOPE_FROM_H0 when asked. exp(x log 2) as the handout says. */
static double pow2_slope(int k, int n, slope_mode mode)
{
    int e = mode == SLOPE_FROM_H0 ? k : k + 1;
    return exp(-8.0 * e / n * log(2.0));
}

static void slopes_ref(float *m, int H, slope_mode mode)
{
    if (mode == SLOPE_RIGHT) {
        attn_alibi_slopes(m, H);
        return;
    }
    if (mode == SLOPE_ANY_H) {
        for (int h = 0; h < H; h++) m[h] = (float)pow2_slope(h, H, mode);
        return;
    }
    /* SLOPE_FROM_H0 keeps the interleaved rule, with the shifted exponent */
    int P = 1;
    while (P * 2 <= H) P *= 2;
    for (int h = 0; h < P; h++) m[h] = (float)pow2_slope(h, P, mode);
    for (int t = 0; t < H - P; t++) m[P + t] = (float)pow2_slope(2 * t, 2 * P, mode);
}

/* How lab_alibi_bias (and lab_relpos_bias for heads) can go wrong. */
typedef enum bias_mode {
    BIAS_RIGHT,
    BIAS_SIGN,          /* m (i - j): distant past keys get a bonus */
    BIAS_ABS,           /* -m |j - i|: symmetric, keys ahead penalised too */
    BIAS_HEADS_SLOWEST  /* h = b / batch: heads taken as the slow index */
} bias_mode;

/* Which head batch entry b belongs to, right (b % H) or with heads slowest. */
static int head_of(int b, int B, int H, bias_mode mode)
{
    return mode == BIAS_HEADS_SLOWEST ? b / (B / H) : b % H;
}

static void alibi_ref(float *S, int B, int H, int Tq, int Tk, slope_mode sm, bias_mode bm)
{
    if (sm == SLOPE_RIGHT && bm == BIAS_RIGHT) {
        attn_alibi_bias(S, B, H, Tq, Tk);
        return;
    }
    float *m = gr_xmalloc((size_t)H * sizeof *m);
    slopes_ref(m, H, sm);
    for (int b = 0; b < B; b++) {
        float mh = m[head_of(b, B, H, bm)];
        for (int i = 0; i < Tq; i++)
            for (int j = 0; j < Tk; j++) {
                float dist = (float)(j - i);
                if (bm == BIAS_SIGN) dist = (float)(i - j);
                if (bm == BIAS_ABS) dist = -fabsf(dist);
                S[((long)b * Tq + i) * Tk + j] += mh * dist;
            }
    }
    free(m);
}

/* ---- T5 buckets, right and wrong ----------------------------------------------- */

typedef enum bucket_mode {
    BUCKET_RIGHT,
    BUCKET_SIGN,        /* rel taken as query - key */
    BUCKET_DOUBLE,      /* the log evaluated in double */
    BUCKET_INT_DIV,     /* n / max_exact in integer arithmetic inside the log */
    BUCKET_NO_CLAMP     /* the log bucket not clamped to nb - 1 */
} bucket_mode;

/* True when the contract accepts these bucket settings. */
static int bucket_settings_ok(int bidirectional, int num_buckets, int max_distance)
{
    int nb = bidirectional ? num_buckets / 2 : num_buckets;
    return nb >= 2 && max_distance > nb / 2;
}

static int bucket_ref(int rel, int bidirectional, int num_buckets, int max_distance,
                      bucket_mode mode)
{
    if (mode == BUCKET_RIGHT)
        return attn_t5_bucket(rel, bidirectional, num_buckets, max_distance);
    if (mode == BUCKET_SIGN)
        return attn_t5_bucket(-rel, bidirectional, num_buckets, max_distance);
    int nb = num_buckets, base = 0;
    long n;
    if (bidirectional) {
        nb = num_buckets / 2;
        if (rel > 0) base = nb;
        n = rel < 0 ? -(long)rel : rel;
    } else {
        n = rel < 0 ? -(long)rel : 0;
    }
    int max_exact = nb / 2;
    if (n < max_exact) return base + (int)n;
    int large;
    if (mode == BUCKET_DOUBLE) {
        double ratio = log((double)n / max_exact) / log((double)max_distance / max_exact);
        large = max_exact + (int)(ratio * (nb - max_exact));
    } else {
        float q = mode == BUCKET_INT_DIV ? (float)(n / max_exact) : (float)n / (float)max_exact;
        float ratio = logf(q) / (float)log((double)max_distance / max_exact);
        large = max_exact + (int)(ratio * (float)(nb - max_exact));
    }
    if (mode != BUCKET_NO_CLAMP && large > nb - 1) large = nb - 1;
    return base + large;
}

static void relpos_ref(float *S, const float *table, int B, int H, int Tq, int Tk,
                       int bidirectional, int num_buckets, int max_distance,
                       bucket_mode km, bias_mode bm)
{
    if (km == BUCKET_RIGHT && bm == BIAS_RIGHT) {
        attn_relpos_bias(S, table, B, H, Tq, Tk, bidirectional, num_buckets, max_distance);
        return;
    }
    for (int b = 0; b < B; b++) {
        const float *row = table + (long)head_of(b, B, H, bm) * num_buckets;
        for (int i = 0; i < Tq; i++)
            for (int j = 0; j < Tk; j++)
                S[((long)b * Tq + i) * Tk + j] +=
                    row[bucket_ref(j - i, bidirectional, num_buckets, max_distance, km)];
    }
}

/* ---- dropout, right and wrong ---------------------------------------------------- */

typedef enum drop_mode {
    DROP_RIGHT,
    DROP_NO_RESCALE,    /* survivors kept as they are */
    DROP_TIMES_KEEP,    /* survivors multiplied by (1 - p) */
    DROP_KEEP_PROB      /* p read as the keep probability: keep when u < p, / p */
} drop_mode;

static void dropout_ref(float *W, float p, uint64_t seed, long n, drop_mode mode)
{
    if (mode == DROP_RIGHT) {
        attn_dropout(W, p, seed, n);
        return;
    }
    sup_rng r;
    sup_rng_seed(&r, seed);
    for (long k = 0; k < n; k++) {
        float u = sup_rng_uniform(&r);
        switch (mode) {
        case DROP_NO_RESCALE: W[k] = u < p ? 0.0f : W[k]; break;
        case DROP_TIMES_KEEP: W[k] = u < p ? 0.0f : W[k] * (1.0f - p); break;
        case DROP_KEEP_PROB:  W[k] = u < p ? W[k] / p : 0.0f; break;
        case DROP_RIGHT:      break;
        }
    }
}

/* O = W V, or with W read transposed (W[b][j][i]) when transposed. */
static void output_ref(float *O, const float *W, const float *V, int B, int Tq, int Tk,
                       int dv, int transposed)
{
    if (!transposed) {
        attn_output(O, W, V, B, Tq, Tk, dv);
        return;
    }
    for (int b = 0; b < B; b++)
        for (int i = 0; i < Tq; i++)
            for (int c = 0; c < dv; c++) {
                double acc = 0.0;
                for (int j = 0; j < Tk; j++)
                    acc += (double)W[((long)b * Tq + j) * Tk + i] * (double)V[((long)b * Tk + j) * dv + c];
                O[((long)b * Tq + i) * dv + c] = (float)acc;
            }
}

/* ---- test generators -------------------------------------------------------- */

/* slopes: sizes {H} fixed, or {H_min, H_max} drawn per student (param nonpow2: 1
   skips powers of two so the interleaved rule is exercised). H = 0 is the
   contract-breaking call: LAB_BAD_ARG, slopes untouched. */
static int gen_slopes(const gr_case_kind *kind, const gr_rubric_test *t, uint64_t seed,
                      gr_case *c, char *err, size_t errlen)
{
    (void)kind;
    int H, lo, hi;
    sup_rng r;
    sup_rng_seed(&r, seed);
    if (gr_rubric_test_param(t, "H", -1) >= 0) {
        if (gr_test_int(t, "H", 8, 0, 4096, &H, err, errlen)) return -1;
    } else {
        if (gr_test_int(t, "H_min", 1, 1, 4096, &lo, err, errlen) ||
            gr_test_int(t, "H_max", 64, lo, 4096, &hi, err, errlen))
            return -1;
        int nonpow2 = gr_rubric_test_param(t, "nonpow2", 0) != 0;
        int tries = 0;
        do {
            H = lo + (int)(sup_rng_u64(&r) % (uint64_t)(hi - lo + 1));
        } while (nonpow2 && is_pow2(H) && ++tries < 1000);
        if (nonpow2 && is_pow2(H)) {
            snprintf(err, errlen, "test %s: H_min..H_max holds no H that is not a power of two; "
                     "widen the range", t->name);
            return -1;
        }
    }
    gr_case_add_f32(c, PROTO_OUT, H > 0 ? H : 1);
    gr_case_set_name(c, 0, "slopes");
    gr_case_add_int(c, H);
    c->call.fn = LAB06_ALIBI_SLOPES;
    if (H == 0) {
        snprintf(c->describe, sizeof c->describe,
                 "lab_alibi_slopes(slopes, H=0): H < 1 must give LAB_BAD_ARG, slopes untouched");
        return gr_case_expect_bad_arg(c);
    }
    c->expected_status = LAB_OK;
    attn_alibi_slopes(gr_case_expect(c, 0), H);
    int P = 1;
    while (P * 2 <= H) P *= 2;
    if (P == H)
        snprintf(c->describe, sizeof c->describe,
                 "lab_alibi_slopes(slopes, H=%d): a power of two, 2^(-8(h+1)/%d)", H, H);
    else
        snprintf(c->describe, sizeof c->describe,
                 "lab_alibi_slopes(slopes, H=%d): not a power of two, P = %d then %d interleaved "
                 "slopes of %d heads", H, P, H - P, 2 * P);
    return 0;
}

/* alibi_bias: sizes {batch, H, Tq, Tk}; B = batch * H (batch when H = 0).
   params: causal 1 puts -inf above the diagonal (it must stay -inf); bad 1
   passes B = batch*H + 1, not a multiple of H. Either, or a size of 0, is a
   LAB_BAD_ARG case with S untouched (S keeps four scores when it would be
   empty). */
static int gen_alibi(const gr_case_kind *kind, const gr_rubric_test *t, uint64_t seed,
                     gr_case *c, char *err, size_t errlen)
{
    (void)kind;
    int batch, H, Tq, Tk;
    if (gr_test_int(t, "batch", 2, 0, 64, &batch, err, errlen) ||
        gr_test_int(t, "H", 4, 0, 64, &H, err, errlen) ||
        gr_test_int(t, "Tq", 5, 0, 512, &Tq, err, errlen) ||
        gr_test_int(t, "Tk", 5, 0, 512, &Tk, err, errlen))
        return -1;
    int causal = gr_rubric_test_param(t, "causal", 0) != 0, bad = gr_rubric_test_param(t, "bad", 0) != 0;
    int B = batch * (H > 0 ? H : 1) + (bad ? 1 : 0);
    int empty = B < 1 || H < 1 || Tq < 1 || Tk < 1;
    bad = bad || empty;
    sup_rng r;
    sup_rng_seed(&r, seed);
    float *S = empty ? gr_case_add_scores(c, &r, 1, 1, 4) : gr_case_add_scores(c, &r, B, Tq, Tk);
    if (causal && !empty)
        attn_causal_mask(S, B, Tq, Tk);
    GR_CASE_ADD_INTS(c, B, H, Tq, Tk);
    c->call.fn = LAB06_ALIBI_BIAS;
    snprintf(c->describe, sizeof c->describe,
             "lab_alibi_bias(S, B=%d, H=%d, Tq=%d, Tk=%d): scores ~ N(0,1)%s%s", B, H, Tq, Tk,
             causal ? ", -inf above the diagonal (causal)" : "",
             empty ? ": a size of 0, so LAB_BAD_ARG and S untouched" :
             bad ? ": B is not a multiple of H, so LAB_BAD_ARG and S untouched" : "");
    if (bad)
        return gr_case_expect_bad_arg(c);
    c->expected_status = LAB_OK;
    attn_alibi_bias(gr_case_expect(c, 0), B, H, Tq, Tk);
    return 0;
}

/* t5_bucket: sizes {bidirectional, num_buckets, max_distance, range, extra}.
   rel holds every value in [-range, range] (shuffled, so every boundary where
   float and double disagree is in), then `extra` random far values and the two
   extremes INT_MIN + 1 and INT_MAX. params: worked 1 gives the handout's rows;
   n 0 or -1 passes that n with four rel values (0: LAB_OK with nothing written,
   -1: LAB_BAD_ARG). Settings the contract rejects make a LAB_BAD_ARG case. */
static int gen_t5(const gr_case_kind *kind, const gr_rubric_test *t, uint64_t seed,
                  gr_case *c, char *err, size_t errlen)
{
    (void)kind;
    int bidir, nbk, maxd, range, extra;
    if (gr_test_int(t, "bidirectional", 1, 0, 1, &bidir, err, errlen) ||
        gr_test_int(t, "num_buckets", 32, 1, 4096, &nbk, err, errlen) ||
        gr_test_int(t, "max_distance", 128, 1, 1 << 20, &maxd, err, errlen) ||
        gr_test_int(t, "range", 2 * maxd, 0, 100000, &range, err, errlen) ||
        gr_test_int(t, "extra", 16, 0, 100000, &extra, err, errlen))
        return -1;
    int worked = gr_rubric_test_param(t, "worked", 0) != 0;
    double n_call = gr_rubric_test_param(t, "n", 1.0);
    int empty = n_call < 1.0;
    static const int worked_rel[] = { -3, 3, -20, -127, -1000, 0, 1, -8, 8, 16 };
    int nw = (int)(sizeof worked_rel / sizeof worked_rel[0]);
    int n = worked ? nw : empty ? 4 : 2 * range + 1 + extra + 2;
    gr_case_add_i32(c, PROTO_OUT, n);                               /* bucket */
    int32_t *rel = gr_case_add_i32(c, PROTO_IN, n);
    gr_case_set_names(c, "bucket", "rel", NULL);
    sup_rng r;
    sup_rng_seed(&r, seed);
    if (worked) {
        for (int k = 0; k < n; k++) rel[k] = worked_rel[k];
    } else if (empty) {  /* values the call must not read */
        for (int k = 0; k < n; k++) rel[k] = (int32_t)(sup_rng_u64(&r) % 41) - 20;
    } else {
        int k = 0;
        for (int v = -range; v <= range; v++) rel[k++] = v;
        for (int e = 0; e < extra; e++) {
            /* far distances, both sides: up to 64 times max_distance */
            long span = 64L * maxd;
            rel[k++] = (int32_t)((long)(sup_rng_u64(&r) % (uint64_t)(2 * span + 1)) - span);
        }
        rel[k++] = INT_MIN + 1;
        rel[k++] = INT_MAX;
        for (int q = n - 1; q > 0; q--) {  /* Fisher-Yates: each student their own order */
            int p = (int)(sup_rng_u64(&r) % (uint64_t)(q + 1));
            int32_t tmp = rel[q]; rel[q] = rel[p]; rel[p] = tmp;
        }
    }
    int ok = bucket_settings_ok(bidir, nbk, maxd);
    if (empty && ok) {
        int nc = n_call < 0.0 ? -1 : 0;
        GR_CASE_ADD_INTS(c, nc, bidir, nbk, maxd);
        c->call.fn = LAB06_T5_BUCKET;
        snprintf(c->describe, sizeof c->describe, "lab_t5_bucket(bucket, rel, n=%d, bidirectional=%d, "
                 "num_buckets=%d, max_distance=%d): %s", nc, bidir, nbk, maxd,
                 nc < 0 ? "n < 0, so LAB_BAD_ARG and bucket untouched"
                        : "no rel to bucket, so LAB_OK and bucket untouched");
        c->expected_status = nc < 0 ? LAB_BAD_ARG : LAB_OK;
        gr_case_expect_untouched(c);
        return 0;
    }
    GR_CASE_ADD_INTS(c, n, bidir, nbk, maxd);
    c->call.fn = LAB06_T5_BUCKET;
    snprintf(c->describe, sizeof c->describe,
             "lab_t5_bucket(bucket, rel, n=%d, bidirectional=%d, num_buckets=%d, max_distance=%d)%s",
             n, bidir, nbk, maxd,
             worked ? ": the handout's worked rows" :
             ok ? ": every rel in [-range, range], far ones and INT_MIN + 1, INT_MAX" :
             (bidir ? nbk / 2 : nbk) < 2 ? ": fewer than 2 buckets per direction, so LAB_BAD_ARG "
                                           "and bucket untouched" :
                  ": max_distance <= max_exact, so LAB_BAD_ARG and bucket untouched");
    if (!ok)
        return gr_case_expect_bad_arg(c);
    c->expected_status = LAB_OK;
    int32_t *want = gr_case_expect(c, 0);
    for (int k = 0; k < n; k++) want[k] = attn_t5_bucket(rel[k], bidir, nbk, maxd);
    return 0;
}

/* relpos_bias: sizes {batch, H, Tq, Tk, bidirectional, num_buckets, max_distance};
   B = batch * H (batch when H = 0); table ~ N(0,1) per student, S ~ N(0,1). A
   size of 0 is a LAB_BAD_ARG case, S untouched (four scores, one table row). */
static int gen_relpos(const gr_case_kind *kind, const gr_rubric_test *t, uint64_t seed,
                      gr_case *c, char *err, size_t errlen)
{
    (void)kind;
    int batch, H, Tq, Tk, bidir, nbk, maxd;
    if (gr_test_int(t, "batch", 1, 0, 64, &batch, err, errlen) ||
        gr_test_int(t, "H", 2, 0, 64, &H, err, errlen) ||
        gr_test_int(t, "Tq", 4, 0, 512, &Tq, err, errlen) ||
        gr_test_int(t, "Tk", 6, 0, 512, &Tk, err, errlen) ||
        gr_test_int(t, "bidirectional", 1, 0, 1, &bidir, err, errlen) ||
        gr_test_int(t, "num_buckets", 8, 1, 4096, &nbk, err, errlen) ||
        gr_test_int(t, "max_distance", 16, 1, 1 << 20, &maxd, err, errlen))
        return -1;
    if (!bucket_settings_ok(bidir, nbk, maxd)) {
        snprintf(err, errlen, "test %s: num_buckets = %d, max_distance = %d leave no log range; "
                 "use max_distance > num_buckets / %d", t->name, nbk, maxd, bidir ? 4 : 2);
        return -1;
    }
    int B = batch * (H > 0 ? H : 1);
    int empty = B < 1 || H < 1 || Tq < 1 || Tk < 1;
    sup_rng r;
    sup_rng_seed(&r, seed);
    if (empty)
        gr_case_add_scores(c, &r, 1, 1, 4);
    else
        gr_case_add_scores(c, &r, B, Tq, Tk);
    long nt = (long)(H > 0 ? H : 1) * nbk;
    float *table = gr_case_add_f32(c, PROTO_IN, nt);
    gr_case_set_name(c, 1, "table");
    gr_case_set_shape2(c, 1, H > 0 ? H : 1, nbk);
    sup_rng_fill_normal(&r, table, nt);
    GR_CASE_ADD_INTS(c, B, H, Tq, Tk, bidir, nbk, maxd);
    c->call.fn = LAB06_RELPOS_BIAS;
    snprintf(c->describe, sizeof c->describe,
             "lab_relpos_bias(S, table, B=%d, H=%d, Tq=%d, Tk=%d, bidirectional=%d, "
             "num_buckets=%d, max_distance=%d)%s", B, H, Tq, Tk, bidir, nbk, maxd,
             empty ? ": a size of 0, so LAB_BAD_ARG and S untouched" : "");
    if (empty)
        return gr_case_expect_bad_arg(c);
    c->expected_status = LAB_OK;
    attn_relpos_bias(gr_case_expect(c, 0), table, B, H, Tq, Tk, bidir, nbk, maxd);
    return 0;
}

/* dropout: sizes {rows, n} (W is rows softmax rows of n), params {p}. The
   student's seed is drawn per student. p outside [0, 1) must give LAB_BAD_ARG
   with W untouched. */
/* dropout: sizes {rows, n}, the call's n is rows * n; rows 0 passes n = 0
   (LAB_OK, W untouched) and rows -1 a negative n (LAB_BAD_ARG); W then holds
   one row. params: p; p_tie 1 sets p to the first draw u of the dropout seed,
   so weight 0 has u == p exactly and must be kept (dropped only when u < p). */
static int gen_dropout(const gr_case_kind *kind, const gr_rubric_test *t, uint64_t seed,
                       gr_case *c, char *err, size_t errlen)
{
    (void)kind;
    int rows, n;
    if (gr_test_int(t, "rows", 4, -1, 4096, &rows, err, errlen) ||
        gr_test_int(t, "n", 4, 1, 4096, &n, err, errlen))
        return -1;
    double p = gr_rubric_test_param(t, "p", 0.25);
    int tie = gr_rubric_test_param(t, "p_tie", 0) != 0;
    long count = (long)rows * n;
    int wrows = rows < 1 ? 1 : rows;
    float *W = gr_case_add_f32(c, PROTO_INOUT, (long)wrows * n);
    gr_case_set_name(c, 0, "W");
    gr_case_set_shape2(c, 0, wrows, n);
    sup_rng r;
    sup_rng_seed(&r, seed);
    gr_fill_weights(&r, W, wrows, n, 2.0);  /* scores ~ 2 N(0,1) */
    uint64_t drop_seed = gr_draw_seed(&r);
    if (tie) {
        sup_rng first;
        sup_rng_seed(&first, drop_seed);
        p = (double)sup_rng_uniform(&first);
    }
    float pf = (float)p;  /* the contract's p is a float: the stub narrows it */
    GR_CASE_ADD_INTS(c, (int64_t)drop_seed, count);
    gr_case_add_real(c, p);
    c->call.fn = LAB06_DROPOUT;
    int ok = pf >= 0.0f && pf < 1.0f && count >= 0;
    snprintf(c->describe, sizeof c->describe,
             "lab_dropout(W, p=%.9g, seed=%llu, n=%ld): W is %d softmax rows of %d%s", p,
             (unsigned long long)drop_seed, count, wrows, n,
             count < 0 ? ": n < 0 must give LAB_BAD_ARG, W untouched" :
             count == 0 ? ": n = 0, nothing to drop: LAB_OK, W untouched" :
             tie ? ": p is the first draw u exactly, so weight 0 stays (dropped only when u < p)" :
             ok ? "" : ": p outside [0, 1) must give LAB_BAD_ARG, W untouched");
    if (!ok)
        return gr_case_expect_bad_arg(c);
    if (count == 0) {
        c->expected_status = LAB_OK;
        gr_case_expect_untouched(c);
        return 0;
    }
    c->expected_status = LAB_OK;
    attn_dropout(gr_case_expect(c, 0), pf, drop_seed, count);
    return 0;
}

/* output: sizes {B, Tq, Tk, dv}; params {dropout: p} applies inverted dropout
   to W first, so rows no longer sum to 1. */
/* A size of 0: LAB_BAD_ARG with O untouched; each buffer holds four values. */
static int gen_output_bad(gr_case *c, uint64_t seed, int B, int Tq, int Tk, int dv)
{
    gr_case_add_f32(c, PROTO_OUT, 4);
    float *W = gr_case_add_f32(c, PROTO_IN, 4);
    float *V = gr_case_add_f32(c, PROTO_IN, 4);
    gr_case_set_names(c, "O", "W", "V", NULL);
    sup_rng r;
    sup_rng_seed(&r, seed);
    sup_rng_fill_normal(&r, W, 4);
    sup_rng_fill_normal(&r, V, 4);
    GR_CASE_ADD_INTS(c, B, Tq, Tk, dv);
    c->call.fn = LAB06_ATTENTION_OUTPUT;
    snprintf(c->describe, sizeof c->describe, "lab_attention_output(O, W, V, B=%d, Tq=%d, "
             "Tk=%d, dv=%d): a size of 0, so LAB_BAD_ARG and O untouched", B, Tq, Tk, dv);
    return gr_case_expect_bad_arg(c);
}

static int gen_output(const gr_case_kind *kind, const gr_rubric_test *t, uint64_t seed,
                      gr_case *c, char *err, size_t errlen)
{
    (void)kind;
    int B, Tq, Tk, dv;
    if (gr_test_int(t, "B", 2, 0, 64, &B, err, errlen) ||
        gr_test_int(t, "Tq", 4, 0, 512, &Tq, err, errlen) ||
        gr_test_int(t, "Tk", 4, 0, 512, &Tk, err, errlen) ||
        gr_test_int(t, "dv", 5, 0, 512, &dv, err, errlen))
        return -1;
    double p = gr_rubric_test_param(t, "dropout", 0.0);
    if (B < 1 || Tq < 1 || Tk < 1 || dv < 1)
        return gen_output_bad(c, seed, B, Tq, Tk, dv);
    gr_case_add_f32(c, PROTO_OUT, (long)B * Tq * dv);
    float *W = gr_case_add_f32(c, PROTO_IN, (long)B * Tq * Tk);
    float *V = gr_case_add_f32(c, PROTO_IN, (long)B * Tk * dv);
    gr_case_set_names(c, "O", "W", "V", NULL);
    gr_case_set_shape(c, 0, B, Tq, dv);
    gr_case_set_shape(c, 1, B, Tq, Tk);
    gr_case_set_shape(c, 2, B, Tk, dv);
    sup_rng r;
    sup_rng_seed(&r, seed);
    gr_fill_weights(&r, W, (long)B * Tq, Tk, 2.0);
    sup_rng_fill_normal(&r, V, (long)B * Tk * dv);
    if (p > 0.0)
        attn_dropout(W, (float)p, sup_rng_u64(&r), (long)B * Tq * Tk);
    GR_CASE_ADD_INTS(c, B, Tq, Tk, dv);
    c->call.fn = LAB06_ATTENTION_OUTPUT;
    c->expected_status = LAB_OK;
    attn_output(gr_case_expect(c, 0), W, V, B, Tq, Tk, dv);
    if (p > 0.0)
        snprintf(c->describe, sizeof c->describe,
                 "lab_attention_output(O, W, V, B=%d, Tq=%d, Tk=%d, dv=%d): W after dropout "
                 "p = %g (rows no longer sum to 1)", B, Tq, Tk, dv, p);
    else
        snprintf(c->describe, sizeof c->describe,
                 "lab_attention_output(O, W, V, B=%d, Tq=%d, Tk=%d, dv=%d): W softmax rows",
                 B, Tq, Tk, dv);
    return 0;
}

static int make_case(const gr_rubric_test *t, uint64_t seed, gr_case *c,
                     char *err, size_t errlen)
{
    static const gr_case_kind kinds[] = {
        { "slopes", gen_slopes, 0, 0 },
        { "alibi", gen_alibi, 0, 0 },
        { "t5_bucket", gen_t5, 0, 0 },
        { "relpos", gen_relpos, 0, 0 },
        { "dropout", gen_dropout, 0, 0 },
        { "output", gen_output, 0, 0 },
    };
    return gr_make_case_by_kind(kinds, GR_N_KINDS(kinds), 6, t, seed, c,
                                err, errlen);
}

/* ---- misconceptions ------------------------------------------------------------ */

/* The ints of a call, named. */
#define I(k) ((int)c->call.ints[k])

/* ALiBi under a wrong slope rule or bias: slopes calls for the slope rules, bias
   calls for both, relpos calls for the head index. */
static int predict_alibi(const gr_case *c, void *out[PROTO_MAX_BUFS], slope_mode sm, bias_mode bm)
{
    if (c->expected_status != LAB_OK)
        return -1;
    if (c->call.fn == LAB06_ALIBI_SLOPES && bm == BIAS_RIGHT) {
        int H = I(0);
        if (sm == SLOPE_ANY_H && is_pow2(H)) return -1;
        out[0] = gr_case_alloc_like(c, 0);
        slopes_ref(out[0], H, sm);
        return 0;
    }
    if (c->call.fn == LAB06_ALIBI_BIAS) {
        int B = I(0), H = I(1), Tq = I(2), Tk = I(3);
        if (sm == SLOPE_ANY_H && is_pow2(H)) return -1;
        if (bm == BIAS_HEADS_SLOWEST && (H < 2 || B / H < 2)) return -1;
        out[0] = gr_case_alloc_like(c, 0);
        alibi_ref(out[0], B, H, Tq, Tk, sm, bm);
        return 0;
    }
    if (c->call.fn == LAB06_RELPOS_BIAS && bm == BIAS_HEADS_SLOWEST && sm == SLOPE_RIGHT) {
        int B = I(0), H = I(1);
        if (H < 2 || B / H < 2) return -1;
        out[0] = gr_case_alloc_like(c, 0);
        relpos_ref(out[0], c->call.bufs[1].data, B, H, I(2), I(3), I(4), I(5), I(6),
                   BUCKET_RIGHT, bm);
        return 0;
    }
    return -1;
}

GR_PREDICT(predict_slope_h0, predict_alibi, SLOPE_FROM_H0, BIAS_RIGHT)
GR_PREDICT(predict_slope_any_h, predict_alibi, SLOPE_ANY_H, BIAS_RIGHT)
GR_PREDICT(predict_alibi_sign, predict_alibi, SLOPE_RIGHT, BIAS_SIGN)
GR_PREDICT(predict_alibi_abs, predict_alibi, SLOPE_RIGHT, BIAS_ABS)
GR_PREDICT(predict_heads_slowest, predict_alibi, SLOPE_RIGHT, BIAS_HEADS_SLOWEST)

/* T5 buckets under a wrong rule: bucket and relpos calls. BUCKET_NO_CLAMP only
   for lab_t5_bucket: in lab_relpos_bias an unclamped bucket reads past the table. */
static int predict_bucket(const gr_case *c, void *out[PROTO_MAX_BUFS], bucket_mode km)
{
    if (c->expected_status != LAB_OK)
        return -1;
    if (c->call.fn == LAB06_T5_BUCKET) {
        int n = I(0);
        if (n < 1) return -1;  /* nothing to bucket: no mistake shows */
        const int32_t *rel = c->call.bufs[1].data;
        int32_t *b = out[0] = gr_case_alloc_like(c, 0);
        for (int k = 0; k < n; k++) b[k] = bucket_ref(rel[k], I(1), I(2), I(3), km);
        return 0;
    }
    if (c->call.fn == LAB06_RELPOS_BIAS && km != BUCKET_NO_CLAMP) {
        out[0] = gr_case_alloc_like(c, 0);
        relpos_ref(out[0], c->call.bufs[1].data, I(0), I(1), I(2), I(3), I(4), I(5), I(6),
                   km, BIAS_RIGHT);
        return 0;
    }
    return -1;
}

GR_PREDICT(predict_t5_sign, predict_bucket, BUCKET_SIGN)
GR_PREDICT(predict_t5_double, predict_bucket, BUCKET_DOUBLE)
GR_PREDICT(predict_t5_int_div, predict_bucket, BUCKET_INT_DIV)
GR_PREDICT(predict_t5_no_clamp, predict_bucket, BUCKET_NO_CLAMP)

static int predict_drop(const gr_case *c, void *out[PROTO_MAX_BUFS], drop_mode mode)
{
    if (c->call.fn != LAB06_DROPOUT || c->expected_status != LAB_OK)
        return -1;
    float *W = out[0] = gr_case_alloc_like(c, 0);  /* starts as the input W */
    dropout_ref(W, (float)c->call.reals[0], (uint64_t)c->call.ints[0], (long)c->call.ints[1], mode);
    return 0;
}

GR_PREDICT(predict_drop_no_rescale, predict_drop, DROP_NO_RESCALE)
GR_PREDICT(predict_drop_times_keep, predict_drop, DROP_TIMES_KEEP)
GR_PREDICT(predict_drop_keep_prob, predict_drop, DROP_KEEP_PROB)

static int predict_w_transposed(const gr_case *c, void *out[PROTO_MAX_BUFS])
{
    if (c->call.fn != LAB06_ATTENTION_OUTPUT || c->expected_status != LAB_OK || I(1) != I(2))
        return -1;  /* W read as (Tk, Tq) only fits in memory when Tq == Tk */
    out[0] = gr_case_alloc_like(c, 0);
    output_ref(out[0], c->call.bufs[1].data, c->call.bufs[2].data, I(0), I(1), I(2), I(3), 1);
    return 0;
}

static const gr_misconception misconceptions[] = {
    { "alibi_h0", "ALiBi slopes 2^(-8h/H): off by one head",
      "The exponent counts heads from 1: slopes[h] = 2^(-8(h+1)/H), so H = 8 gives 1/2 ... "
      "1/256. Counting from h = 0 gives the first head slope 1 and drops the smallest slope.",
      { 6, "3" }, predict_slope_h0 },
    { "alibi_any_h", "ALiBi power-of-two formula used for any H",
      "2^(-8(h+1)/H) is the rule only when H is a power of two; otherwise take the P slopes "
      "of the largest power of two P <= H, then every other slope of 2P heads.",
      { 6, "3" }, predict_slope_any_h },
    { "alibi_sign", "ALiBi bias with the sign flipped",
      "The bias is m_h * (j - i): keys behind the query (j < i) lose m_h per step. "
      "m_h * (i - j) rewards distant past keys instead of penalising them.",
      { 6, "3" }, predict_alibi_sign },
    { "alibi_abs", "ALiBi distance taken as -|j - i|",
      "The bias is m_h * (j - i), which is -m_h |j - i| only for keys behind the query; "
      "keys ahead (j > i) get a bonus, not a penalty (a causal mask removes them anyway).",
      { 6, "3" }, predict_alibi_abs },
    { "heads_slowest", "head index taken as b / batch instead of b % H",
      "B counts batch * heads with heads fastest: entry b belongs to head b % H. "
      "Taking b / batch assumes heads are the slow index and gives entries the wrong head's bias.",
      { 6, "2" }, predict_heads_slowest },
    { "t5_sign", "relative position taken as query minus key",
      "rel is the key's position minus the query's, j - i. Using i - j swaps the buckets of "
      "keys ahead and behind (and, one-directional, buckets the future instead of the past).",
      { 6, "4" }, predict_t5_sign },
    { "t5_double", "T5 bucket log evaluated in double",
      "The contract fixes float32 arithmetic, as T5's code does: where the log expression is "
      "a whole number, double rounding truncates to a different bucket than float.",
      { 6, "4" }, predict_t5_double },
    { "t5_int_div", "integer division in the bucket formula",
      "n / max_exact with two ints truncates before the log: convert to float first, "
      "(float)n / (float)max_exact, so distances between multiples get their own buckets.",
      { 6, "4" }, predict_t5_int_div },
    { "t5_no_clamp", "far buckets not clamped to the last one",
      "Distances beyond max_distance all share the last bucket, nb - 1; without the min() "
      "they run past it (and past the bias table).",
      { 6, "4" }, predict_t5_no_clamp },
    { "dropout_no_rescale", "dropout without the 1/(1-p) rescaling",
      "Inverted dropout divides every surviving weight by 1 - p, so the expected weight, and "
      "the expected output, stay what they were without dropout.",
      { 6, "5" }, predict_drop_no_rescale },
    { "dropout_times_keep", "dropout survivors multiplied by (1 - p) instead of divided",
      "Survivors are divided by the keep probability 1 - p; multiplying shrinks the expected "
      "weight to (1 - p)^2 w instead of keeping it at w.",
      { 6, "5" }, predict_drop_times_keep },
    { "dropout_keep_prob", "dropout p taken as the keep probability",
      "p is the probability of DROPPING a weight: drop when u < p, keep and divide by 1 - p "
      "otherwise. Some older APIs took keep_prob; this contract does not.",
      { 6, "5" }, predict_drop_keep_prob },
    { "w_transposed", "weights read transposed in O = W V",
      "Row i of O mixes the value rows with row i of W: O[b][i][c] = sum_j W[b][i][j] V[b][j][c]. "
      "Reading W[b][j][i] mixes with a column of W, which is not a weight row.",
      { 6, "5" }, predict_w_transposed },
};

/* ---- input window -------------------------------------------------------------- */

static void input_window(const gr_case *c, int buf, long index, gr_strbuf *out)
{
    (void)buf;
    switch (c->call.fn) {
    case LAB06_ALIBI_SLOPES: {
        int H = I(0), P = 1;
        while (P * 2 <= H) P *= 2;
        if (index < P)
            gr_sb_printf(out, "  head %ld of H = %d: P = %d, so slope 2^(-8*%ld/%d)\n",
                         index, H, P, index + 1, P);
        else
            gr_sb_printf(out, "  head %ld of H = %d: past P = %d, so slope #%ld of %d heads, "
                         "2^(-8*%ld/%d)\n", index, H, P, 2 * (index - P), 2 * P,
                         2 * (index - P) + 1, 2 * P);
        break;
    }
    case LAB06_ALIBI_BIAS:
    case LAB06_RELPOS_BIAS: {
        int H = I(1), Tq = I(2), Tk = I(3);
        if (I(0) < 1 || H < 1 || Tq < 1 || Tk < 1) {  /* refused: nothing to divide by */
            gr_sb_printf(out, "  a size of 0 (B = %d, H = %d, Tq = %d, Tk = %d): the call must "
                         "return LAB_BAD_ARG and leave S untouched\n", I(0), H, Tq, Tk);
            break;
        }
        long b = index / ((long)Tq * Tk);
        int i = (int)(index / Tk % Tq), j = (int)(index % Tk);
        gr_sb_printf(out, "  S[%ld][%d][%d] was ", b, i, j);
        gr_case_float(out, ((const float *)c->call.bufs[0].data)[index], 'g', 6);
        gr_sb_printf(out, " before the bias; head h = %ld %% %d = %ld, j - i = %d\n",
                     b, H, b % H, j - i);
        if (c->call.fn == LAB06_RELPOS_BIAS) {
            int bk = attn_t5_bucket(j - i, I(4), I(5), I(6));
            gr_sb_printf(out, "  bucket(%d) = %d; table[%ld][%d] = ", j - i, bk, b % H, bk);
            gr_case_float(out, ((const float *)c->call.bufs[1].data)[(b % H) * I(5) + bk], 'g', 6);
            gr_sb_append(out, "\n");
        }
        break;
    }
    case LAB06_T5_BUCKET: {
        int bidir = I(1), nbk = I(2), maxd = I(3);
        int nb = bidir ? nbk / 2 : nbk;
        gr_sb_printf(out, "  rel[%ld] = %d; bidirectional = %d, num_buckets = %d, max_distance = %d "
                     "(nb = %d, max_exact = %d)\n", index,
                     (int)((const int32_t *)c->call.bufs[1].data)[index], bidir, nbk, maxd,
                     nb, nb / 2);
        break;
    }
    case LAB06_DROPOUT: {
        sup_rng r;
        sup_rng_seed(&r, (uint64_t)c->call.ints[0]);
        float u = 0.0f;
        for (long k = 0; k <= index; k++) u = sup_rng_uniform(&r);
        float p = (float)c->call.reals[0];
        int n = c->shape[0][2] > 0 ? c->shape[0][2] : 1;
        gr_sb_printf(out, "  W[0][%ld][%ld] was ", index / n, index % n);
        gr_case_float(out, ((const float *)c->call.bufs[0].data)[index], 'g', 6);
        gr_sb_printf(out, " before dropout; it is element %ld, so it gets uniform draw #%ld "
                     "of the seed: u = %.6f, %s (p = %g)\n", index, index, (double)u,
                     u < p ? "u < p: dropped" : "u >= p: kept, divided by 1 - p", (double)p);
        break;
    }
    case LAB06_ATTENTION_OUTPUT: {
        int Tq = I(1), Tk = I(2), dv = I(3);
        if (I(0) < 1 || Tq < 1 || Tk < 1 || dv < 1) {  /* refused: nothing to divide by */
            gr_sb_printf(out, "  a size of 0 (B = %d, Tq = %d, Tk = %d, dv = %d): the call must "
                         "return LAB_BAD_ARG and leave O untouched\n", I(0), Tq, Tk, dv);
            break;
        }
        long row = index / dv;
        const float *w = (const float *)c->call.bufs[1].data + row * Tk;
        gr_sb_printf(out, "  W[%ld][%ld]:", row / Tq, row % Tq);
        gr_case_values(out, w, Tk, 'g', 6);
        gr_sb_printf(out, Tk > 8 ? " (Tk = %d)\n" : "\n", Tk);
        break;
    }
    }
}

const gr_lab_module gr_lab06_module = {
    .number = 6,
    .dir = "lab06-biases",
    .make_case = make_case,
    .misconceptions = misconceptions,
    .n_misconceptions = (int)(sizeof misconceptions / sizeof misconceptions[0]),
    .input_window = input_window,
};
