/* lab07.c: what the grader knows about lab 7, online softmax.
 *
 * Two functions are graded (lab07_calls.h, generated from the manifest, numbers them):
 *   lab_online_logsumexp   streaming log-sum-exp, tile by tile (the warm-up)
 *   lab_online_attention   scaled dot-product self-attention by online softmax,
 *                          graded at T = 4096 under a 1 MiB heap limit, where a
 *                          T x T matrix (64 MiB) cannot fit
 *
 * Dimensions: B batch, T sequence length (Tq = Tk = T), d query/key size, dv
 * value size, tile keys per step; rows x n for the log-sum-exp warm-up.
 * Expected values come from libattn. The misconceptions replay the student's
 * streaming loop in float, one step done wrong, so their overflow and NaN
 * behaviour is the student's own.
 */
#include "base/labmod.h"
#include "lab07_calls.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attn.h"
#include "labsup.h"


/* ---- the streaming loop, right and wrong ------------------------------------------ */

/* What a student's streaming loop gets wrong (STREAM_RIGHT: nothing). */
typedef enum stream_mode {
    STREAM_RIGHT,
    STREAM_NO_RESCALE,      /* l and a never multiplied by exp(m - m') */
    STREAM_NO_RESCALE_ACC,  /* l rescaled, the output accumulator a not */
    STREAM_NO_MAX,          /* plain exp(s): no running max at all */
    STREAM_MAX_ZERO,        /* the running max starts at 0, not -inf */
    STREAM_MASKED_TILE_NAN, /* a leading all -inf tile: exp(-inf - -inf) = NaN */
    STREAM_LSE_NO_M         /* lse = log(l), the max never added back */
} stream_mode;

/* One row of log-sum-exp, streamed tile by tile in float as the student's code
   runs (the reference solution's order of operations), with `mode`'s mistake. */
static float lse_row(const float *s, int n, int tile, stream_mode mode)
{
    float m = mode == STREAM_MAX_ZERO ? 0.0f : -INFINITY, l = 0.0f;
    if (mode == STREAM_NO_MAX) {
        for (int j = 0; j < n; j++) l += expf(s[j]);
        return logf(l);  /* overflows to inf above ~88, underflows to -inf below ~-103 */
    }
    for (int j0 = 0; j0 < n; j0 += tile) {
        int nt = n - j0 < tile ? n - j0 : tile;
        float tile_max = -INFINITY;
        for (int t = 0; t < nt; t++)
            if (s[j0 + t] > tile_max) tile_max = s[j0 + t];
        if (tile_max == -INFINITY && mode != STREAM_MASKED_TILE_NAN)
            continue;
        float m_new = tile_max > m ? tile_max : m;
        if (mode != STREAM_NO_RESCALE)
            l *= expf(m - m_new);
        for (int t = 0; t < nt; t++) l += expf(s[j0 + t] - m_new);
        m = m_new;
    }
    if (m == -INFINITY)
        return -INFINITY;
    return mode == STREAM_LSE_NO_M ? logf(l) : m + logf(l);
}

/* How the student's attention scores go wrong. */
typedef enum score_mode {
    SCORE_RIGHT,
    SCORE_UNSCALED,        /* q.k, no 1/sqrt(d) */
    SCORE_INV_D,           /* q.k / d */
    SCORE_CAUSAL_DIAG      /* causal mask also hides the diagonal: keys 0..i-1 */
} score_mode;

/* Online attention in float, the student's loop with one mistake. */
static void attention_sim(float *O, const float *Q, const float *K, const float *V,
                          int B, int T, int d, int dv, int tile, int causal,
                          stream_mode sm, score_mode cm)
{
    int tile_len = tile < T ? tile : T;
    float *s = gr_xmalloc((size_t)tile_len * sizeof *s);
    float *acc = gr_xmalloc((size_t)dv * sizeof *acc);
    float scale = cm == SCORE_UNSCALED ? 1.0f
                : cm == SCORE_INV_D    ? 1.0f / (float)d
                                       : 1.0f / sqrtf((float)d);
    for (int b = 0; b < B; b++)
        for (int i = 0; i < T; i++) {
            const float *q = Q + ((long)b * T + i) * d;
            float *o = O + ((long)b * T + i) * dv;
            int nkeys = causal ? (cm == SCORE_CAUSAL_DIAG ? i : i + 1) : T;
            float m = sm == STREAM_MAX_ZERO ? 0.0f : -INFINITY, l = 0.0f;
            for (int c = 0; c < dv; c++) acc[c] = 0.0f;
            for (int j0 = 0; j0 < nkeys; j0 += tile_len) {
                int nt = nkeys - j0 < tile_len ? nkeys - j0 : tile_len;
                float tile_max = -INFINITY;
                for (int t = 0; t < nt; t++) {
                    const float *k = K + ((long)b * T + j0 + t) * d;
                    float dot = 0.0f;
                    for (int c = 0; c < d; c++) dot += q[c] * k[c];
                    s[t] = dot * scale;
                    if (s[t] > tile_max) tile_max = s[t];
                }
                float m_new = sm == STREAM_NO_MAX ? 0.0f : (tile_max > m ? tile_max : m);
                float alpha = expf(m - m_new);
                if (sm == STREAM_NO_MAX || sm == STREAM_NO_RESCALE) alpha = 1.0f;
                l *= alpha;
                if (sm != STREAM_NO_RESCALE_ACC)
                    for (int c = 0; c < dv; c++) acc[c] *= alpha;
                for (int t = 0; t < nt; t++) {
                    float p = expf(s[t] - m_new);
                    const float *v = V + ((long)b * T + j0 + t) * dv;
                    l += p;
                    for (int c = 0; c < dv; c++) acc[c] += p * v[c];
                }
                m = m_new;
            }
            /* a row with no key (row 0 under SCORE_CAUSAL_DIAG) is 0/0 = NaN */
            for (int c = 0; c < dv; c++) o[c] = acc[c] / l;
        }
    free(s);
    free(acc);
}

/* ---- test generators -------------------------------------------------------- */

/* logsumexp: sizes {rows, n, tile}; params:
 *   scale       scores are scale * N(0,1); 1e4 makes exp overflow without a max
 *   masked      1: about a quarter of the entries -inf, one row fully masked, and
 *               one row whose first tile is all -inf before finite scores
 *   worked      1: rows [2, 1, -1, 0.5], [2, 1, -1, -inf], [-inf x 4], tile 2
 *   row_max     (0 or below) each row shifted so its max is exactly this: 0 catches a guard
 *               that takes a max of 0 for "no finite score", -200 puts every
 *               score below -104, where exp underflows unless the running max
 *               starts at -inf
 *   low_rows    1: odd rows only shifted so their max is -200 (row_max's low
 *               rows beside rows as drawn: with scale 1e4 the even rows
 *               overflow exp without a max, so a running max started at 0,
 *               wrong on the low rows only, is told from no max at all)
 * rows, n or tile < 1 makes a LAB_BAD_ARG case (lse untouched; each buffer
 * keeps at least four elements so a call with no elements still has its own). */
/* Shift each row so its max is exactly `top` (rows of -inf stay as they are). */
static void shift_rows_max(float *S, int rows, int n, float top)
{
    for (int r = 0; r < rows; r++) {
        float *s = S + (long)r * n, mx = -INFINITY;
        for (int j = 0; j < n; j++) if (s[j] > mx) mx = s[j];
        if (mx == -INFINITY) continue;
        for (int j = 0; j < n; j++) s[j] = s[j] == mx ? top : s[j] - mx + top;
    }
}

static int gen_lse(const gr_case_kind *kind, const gr_rubric_test *t, uint64_t seed,
                   gr_case *c, char *err, size_t errlen)
{
    (void)kind;
    int worked = gr_rubric_test_param(t, "worked", 0) != 0;
    int rows, n, tile;
    if (gr_test_int(t, "rows", worked ? 3 : 4, 0, 4096, &rows, err, errlen) ||
        gr_test_int(t, "n", worked ? 4 : 16, 0, 1 << 16, &n, err, errlen) ||
        gr_test_int(t, "tile", worked ? 2 : 4, 0, 1 << 16, &tile, err, errlen))
        return -1;
    double scale = gr_rubric_test_param(t, "scale", 3.0);
    int masked = gr_rubric_test_param(t, "masked", 0) != 0;
    if (worked && (rows != 3 || n != 4)) {
        snprintf(err, errlen, "test %s: the worked rows need rows = 3, n = 4", t->name);
        return -1;
    }
    if (masked && (rows < 3 || n <= tile)) {
        snprintf(err, errlen, "test %s: masked = 1 needs rows >= 3 and n > tile, so a row can "
                 "start with a fully masked tile", t->name);
        return -1;
    }
    int bad = rows < 1 || n < 1 || tile < 1;
    if (bad && (worked || masked)) {
        snprintf(err, errlen, "test %s: a size below 1 goes without worked or masked", t->name);
        return -1;
    }
    long nS = bad && (long)rows * n < 4 ? 4 : (long)rows * n;
    gr_case_add_f32(c, PROTO_OUT, bad && rows < 4 ? 4 : rows);
    float *S = gr_case_add_f32(c, PROTO_IN, nS);
    gr_case_set_names(c, "lse", "S", NULL);
    gr_case_set_shape2(c, 1, rows, n);
    sup_rng r;
    sup_rng_seed(&r, seed);
    if (worked) {
        /* lse [2, 1, -1, 0.5]  = ln(7.389056 + 2.718282 + 0.367879 + 1.648721)
                                = ln 12.123939 = 2.495182
           lse [2, 1, -1, -inf] = ln 10.475217 = 2.349012   (a masked score adds 0)
           lse [-inf x 4]       = ln 0 = -inf               (never NaN) */
        const float rowsv[12] = { 2.0f, 1.0f, -1.0f, 0.5f, 2.0f, 1.0f, -1.0f, -INFINITY,
                                  -INFINITY, -INFINITY, -INFINITY, -INFINITY };
        memcpy(S, rowsv, sizeof rowsv);
    } else {
        gr_fill_normal(&r, S, nS, scale);
        if (masked) {
            for (long k = 0; k < (long)rows * n; k++)
                if (sup_rng_uniform(&r) < 0.25f) S[k] = -INFINITY;
            int full = (int)(sup_rng_u64(&r) % (uint64_t)rows);
            int lead = (full + 1 + (int)(sup_rng_u64(&r) % (uint64_t)(rows - 1))) % rows;
            for (int j = 0; j < n; j++) S[(long)full * n + j] = -INFINITY;
            /* first tile all -inf, then at least one finite score */
            for (int j = 0; j < tile; j++) S[(long)lead * n + j] = -INFINITY;
            S[(long)lead * n + tile] = (float)(scale * (double)sup_rng_normal(&r));
        }
        if (!bad && gr_rubric_test_param(t, "row_max", 1.0) <= 0.0)
            shift_rows_max(S, rows, n, (float)gr_rubric_test_param(t, "row_max", 0.0));
        for (int row = 1; !bad && gr_rubric_test_param(t, "low_rows", 0) != 0 && row < rows;
             row += 2)
            shift_rows_max(S + (long)row * n, 1, n, -200.0f);
    }
    GR_CASE_ADD_INTS(c, rows, n, tile);
    c->call.fn = LAB07_ONLINE_LOGSUMEXP;
    snprintf(c->describe, sizeof c->describe,
             "lab_online_logsumexp(lse, S, rows=%d, n=%d, tile=%d)%s", rows, n, tile,
             worked ? ": [2, 1, -1, 0.5], [2, 1, -1, -inf], a fully masked row" :
             bad ? ": a size < 1 must give LAB_BAD_ARG, lse untouched" :
             masked ? ": -inf scores, a fully masked row, a row starting with a masked tile" :
             gr_rubric_test_param(t, "low_rows", 0) != 0 ? ": odd rows all below -104 (each "
             "row's max -200), even rows of magnitude ~1e4" :
             scale >= 100 ? ": scores of magnitude ~1e4, exp overflows without the max" :
             gr_rubric_test_param(t, "row_max", 1.0) <= 0.0 ? ": each row's max set to row_max" : "");
    if (bad)
        return gr_case_expect_bad_arg(c);
    c->expected_status = LAB_OK;
    attn_logsumexp_rows(gr_case_expect(c, 0), S, rows, n);
    return 0;
}

/* attention: sizes {B, T, d, dv, tile, causal}; params {q_scale}: Q is
   q_scale * N(0,1) (200 gives scores of a few hundred, where exp overflows
   unless the max is subtracted); {low: 1}: the last column of Q is 20 and of K
   -20, so every score of a row drops by 400/sqrt(d) (d <= 8: below -140, where
   exp underflows unless the running max starts at -inf) and softmax, hence O,
   is that of the other columns; {low_rows: 1}: odd query rows are (0, .., 0, 20)
   and K's last column -20, so each of their scores is -400/sqrt(d) (below -104
   for d <= 8) while the even rows keep q_scale's (in the hundreds at 200: exp
   overflows there without a max, so a running max started at 0, wrong on the
   odd rows only, is told from no max at all). A size < 1 makes a LAB_BAD_ARG
   case (each buffer keeps at least four elements). */
static int gen_attention(const gr_case_kind *kind, const gr_rubric_test *t, uint64_t seed,
                         gr_case *c, char *err, size_t errlen)
{
    (void)kind;
    int B, T, d, dv, tile, causal;
    if (gr_test_int(t, "B", 1, 0, 64, &B, err, errlen) ||
        gr_test_int(t, "T", 8, 0, 8192, &T, err, errlen) ||
        gr_test_int(t, "d", 4, 0, 512, &d, err, errlen) ||
        gr_test_int(t, "dv", 4, 0, 512, &dv, err, errlen) ||
        gr_test_int(t, "tile", 4, 0, 8192, &tile, err, errlen) ||
        gr_test_int(t, "causal", 0, 0, 1, &causal, err, errlen))
        return -1;
    double q_scale = gr_rubric_test_param(t, "q_scale", 1.0);
    int bad = B < 1 || T < 1 || d < 1 || dv < 1 || tile < 1;
    int low = gr_rubric_test_param(t, "low", 0) != 0;
    int low_rows = gr_rubric_test_param(t, "low_rows", 0) != 0;
    if ((low || low_rows) && (bad || d < 2 || d > 8)) {
        snprintf(err, errlen, "test %s: low = 1 or low_rows = 1 needs 2 <= d <= 8 and sizes "
                 "of at least 1", t->name);
        return -1;
    }
    long nQ = bad && (long)B * T * d < 4 ? 4 : (long)B * T * d;
    long nV = bad && (long)B * T * dv < 4 ? 4 : (long)B * T * dv;
    gr_case_add_f32(c, PROTO_OUT, nV);
    float *Q = gr_case_add_f32(c, PROTO_IN, nQ);
    float *K = gr_case_add_f32(c, PROTO_IN, nQ);
    float *V = gr_case_add_f32(c, PROTO_IN, nV);
    gr_case_set_names(c, "O", "Q", "K", "V", NULL);
    const int cols[4] = { dv, d, d, dv };
    for (int i = 0; i < 4; i++) gr_case_set_shape(c, i, B, T, cols[i]);
    sup_rng r;
    sup_rng_seed(&r, seed);
    gr_fill_normal(&r, Q, nQ, q_scale);
    sup_rng_fill_normal(&r, K, nQ);
    sup_rng_fill_normal(&r, V, nV);
    for (long row = 0; low && row < (long)B * T; row++) {
        Q[row * d + d - 1] = 20.0f;
        K[row * d + d - 1] = -20.0f;
    }
    /* Scores in the hundreds make nearly every softmax row one-hot, where a
       wrong scale (none, 1/d) gives the same output for most draws. The last
       query of batch 0, which sees every key, stays at scale 1: its weights are
       spread, so every student's inputs show a scaling mistake. */
    if (q_scale > 1.0)
        gr_fill_normal(&r, Q + (long)(T - 1) * d, d, 1.0);
    for (long row = 0; low_rows && row < (long)B * T; row++) {
        K[row * d + d - 1] = -20.0f;
        for (int c2 = 0; row % 2 && c2 < d; c2++)
            Q[row * d + c2] = c2 == d - 1 ? 20.0f : 0.0f;
    }
    GR_CASE_ADD_INTS(c, B, T, d, dv, tile, causal);
    c->call.fn = LAB07_ONLINE_ATTENTION;
    snprintf(c->describe, sizeof c->describe,
             "lab_online_attention(O, Q, K, V, B=%d, T=%d, d=%d, dv=%d, tile=%d, causal=%d)%s%s",
             B, T, d, dv, tile, causal,
             T >= 1024 ? ": a T x T float matrix would be " : "",
             bad ? ": a size < 1 must give LAB_BAD_ARG, O untouched" :
             low ? ", every score below -104 (Q's last column 20, K's -20)" :
             low_rows ? ", odd query rows' scores all -400/sqrt(d), even rows' in the hundreds" :
             q_scale > 1.0 ? ", Q scaled so scores reach the hundreds (its last row of batch 0 "
                             "left at scale 1)" :
             q_scale != 1.0 ? ", Q scaled" : "");
    if (T >= 1024) {
        size_t at = strlen(c->describe);
        snprintf(c->describe + at, sizeof c->describe - at, "%ld MiB, over the heap limit",
                 (long)T * T * 4 / (1024 * 1024));
    }
    if (bad)
        return gr_case_expect_bad_arg(c);
    c->expected_status = LAB_OK;
    float *O = gr_case_expect(c, 0);
    /* The reference path streams with the student's tile; at T in the thousands
       the fast path (same contract, tested against it in libattn) saves the
       grader a second per student. */
    if (T >= 1024)
        attn_fused_attention(O, Q, K, V, B, T, T, d, dv, causal, NULL);
    else
        attn_online_attention(O, Q, K, V, B, T, T, d, dv, tile, causal, NULL);
    return 0;
}

static int make_case(const gr_rubric_test *t, uint64_t seed, gr_case *c,
                     char *err, size_t errlen)
{
    static const gr_case_kind kinds[] = {
        { "logsumexp", gen_lse, 0, 0 },
        { "attention", gen_attention, 0, 0 },
    };
    return gr_make_case_by_kind(kinds, GR_N_KINDS(kinds), 7, t, seed, c,
                                err, errlen);
}

/* ---- misconceptions ------------------------------------------------------------ */

#define I(k) ((int)c->call.ints[k])

/* 1 when some row of the lse case has a -inf tile before its first finite score
   (the only place exp(-inf - -inf) can appear). */
static int has_leading_masked_tile(const gr_case *c)
{
    const float *S = c->call.bufs[1].data;
    int rows = I(0), n = I(1), tile = I(2);
    for (int r = 0; r < rows; r++) {
        const float *s = S + (long)r * n;
        int j = 0;
        while (j < n && s[j] == -INFINITY) j++;
        if (j < n && j >= tile) return 1;
    }
    return 0;
}

static int predict_with(const gr_case *c, void *out[PROTO_MAX_BUFS], stream_mode sm,
                        score_mode cm);

/* No max at all and a running max started at 0 give the same output where no
   score is above 0 (m stays 0 either way): on such a case neither is named,
   since which one the student made cannot be told (-1); else predict_with. */
static int predict_apart(const gr_case *c, void *out[PROTO_MAX_BUFS], stream_mode sm)
{
    void *twin[PROTO_MAX_BUFS] = {0};
    stream_mode other = sm == STREAM_NO_MAX ? STREAM_MAX_ZERO : STREAM_NO_MAX;
    if (predict_with(c, out, sm, SCORE_RIGHT) != 0)
        return -1;
    int same = predict_with(c, twin, other, SCORE_RIGHT) == 0 &&
               memcmp(out[0], twin[0], c->call.bufs[0].count * sizeof(float)) == 0;
    free(twin[0]);
    if (same) {
        free(out[0]);
        out[0] = NULL;
    }
    return same ? -1 : 0;
}

/* Predict either function under a streaming mistake and a score mistake. */
static int predict_with(const gr_case *c, void *out[PROTO_MAX_BUFS], stream_mode sm,
                        score_mode cm)
{
    if (c->expected_status != LAB_OK)
        return -1;
    if (c->call.fn == LAB07_ONLINE_LOGSUMEXP) {
        if (cm != SCORE_RIGHT || sm == STREAM_NO_RESCALE_ACC)
            return -1;
        int rows = I(0), n = I(1), tile = I(2);
        if (sm == STREAM_NO_RESCALE && tile >= n) return -1;  /* one tile: nothing to rescale */
        if (sm == STREAM_MASKED_TILE_NAN && !has_leading_masked_tile(c)) return -1;
        const float *S = c->call.bufs[1].data;
        float *lse = out[0] = gr_case_alloc_like(c, 0);
        for (int r = 0; r < rows; r++) lse[r] = lse_row(S + (long)r * n, n, tile, sm);
        return 0;
    }
    if (c->call.fn == LAB07_ONLINE_ATTENTION) {
        if (sm == STREAM_MASKED_TILE_NAN || sm == STREAM_LSE_NO_M)
            return -1;
        int B = I(0), T = I(1), d = I(2), dv = I(3), tile = I(4), causal = I(5);
        if ((sm == STREAM_NO_RESCALE || sm == STREAM_NO_RESCALE_ACC) && tile >= T) return -1;
        if (cm == SCORE_CAUSAL_DIAG && !causal) return -1;
        if (cm == SCORE_INV_D && d == 1) return -1;
        out[0] = gr_case_alloc_like(c, 0);
        attention_sim(out[0], c->call.bufs[1].data, c->call.bufs[2].data, c->call.bufs[3].data,
                      B, T, d, dv, tile, causal, sm, cm);
        return 0;
    }
    return -1;
}

GR_PREDICT(predict_no_rescale, predict_with, STREAM_NO_RESCALE, SCORE_RIGHT)
GR_PREDICT(predict_no_rescale_acc, predict_with, STREAM_NO_RESCALE_ACC, SCORE_RIGHT)
GR_PREDICT(predict_no_max, predict_apart, STREAM_NO_MAX)
GR_PREDICT(predict_max_zero, predict_apart, STREAM_MAX_ZERO)
GR_PREDICT(predict_masked_tile, predict_with, STREAM_MASKED_TILE_NAN, SCORE_RIGHT)
GR_PREDICT(predict_lse_no_m, predict_with, STREAM_LSE_NO_M, SCORE_RIGHT)
GR_PREDICT(predict_unscaled, predict_with, STREAM_RIGHT, SCORE_UNSCALED)
GR_PREDICT(predict_inv_d, predict_with, STREAM_RIGHT, SCORE_INV_D)
GR_PREDICT(predict_causal_diag, predict_with, STREAM_RIGHT, SCORE_CAUSAL_DIAG)

static const gr_misconception misconceptions[] = {
    { "no_rescale", "online softmax without rescaling the accumulator",
      "When a tile raises the running max from m to m', everything summed so far was "
      "relative to the old max: multiply the running sum (and the output accumulator) by "
      "exp(m - m') before adding the new tile.",
      { 7, "3" }, predict_no_rescale },
    { "no_rescale_acc", "running sum rescaled but not the output accumulator",
      "The output accumulator a = sum exp(s - m) v is relative to the running max too: "
      "when the max moves, a needs the same factor exp(m - m') as l, or early keys keep "
      "too much weight.",
      { 7, "4" }, predict_no_rescale_acc },
    { "no_max", "no max subtraction",
      "exp of a score above about 88 overflows float to inf (and inf / inf is NaN); below "
      "about -103 it underflows to 0. Subtracting the running max keeps every exp in (0, 1].",
      { 7, "3" }, predict_no_max },
    { "max_from_zero", "running max started at 0 instead of -inf",
      "The running max m started at 0. In a row whose scores are all below 0 it never "
      "moves, so each tile adds exp(s - 0): below about -104 every one underflows to 0, "
      "and the log-sum-exp is -inf (0 / 0 = NaN in attention). m starts at -inf, the max "
      "of no score yet, so the first tile sets it.",
      { 7, "3" }, predict_max_zero },
    { "masked_tile_nan", "a fully masked first tile not skipped (exp(-inf - (-inf)) = NaN)",
      "While the running max is still -inf, a tile of -inf scores must be skipped: "
      "-inf - (-inf) is NaN, and one NaN poisons the whole row.",
      { 7, "3" }, predict_masked_tile },
    { "lse_no_m", "log-sum-exp without the max added back",
      "l holds sum exp(s - m), so log(sum exp(s)) = m + log(l); log(l) alone is off by "
      "the row max.",
      { 7, "3" }, predict_lse_no_m },
    { "unscaled", "scores not divided by sqrt(d)",
      "Attention scores are scaled dot products, q.k / sqrt(d): raw dot products have "
      "variance d and push softmax toward one-hot.",
      { 7, "4" }, predict_unscaled },
    { "inv_d", "scores divided by d instead of sqrt(d)",
      "A dot product of d unit-variance terms has standard deviation sqrt(d), so the scale "
      "is 1/sqrt(d); 1/d shrinks the scores too far and flattens the weights.",
      { 7, "4" }, predict_inv_d },
    { "causal_off_by_one", "causal mask off by one (the diagonal masked)",
      "A query may attend to itself: causal attention keeps keys j <= i. Masking j >= i "
      "leaves query 0 with no key at all (0/0 = NaN).",
      { 7, "4" }, predict_causal_diag },
};

/* ---- input window -------------------------------------------------------------- */

static void input_window(const gr_case *c, int buf, long index, gr_strbuf *out)
{
    (void)buf;
    if (c->call.fn == LAB07_ONLINE_LOGSUMEXP) {
        int n = I(1), tile = I(2);
        const float *s = (const float *)c->call.bufs[1].data + index * n;
        gr_sb_printf(out, "  S[%ld]:", index);
        gr_case_values(out, s, n, 'g', 4);
        gr_sb_printf(out, " (n = %d, tile = %d)\n", n, tile);
        float mx = -INFINITY;
        int masked = 0, first = -1;
        for (int j = 0; j < n; j++) {
            if (s[j] > mx) mx = s[j];
            if (s[j] == -INFINITY) masked++;
            else if (first < 0) first = j;
        }
        gr_sb_append(out, "  row max ");
        gr_case_float(out, mx, 'g', 4);
        if (masked == n)
            gr_sb_append(out, "; every score is -inf (fully masked)\n");
        else if (masked == 0)
            gr_sb_append(out, "; no score is -inf\n");
        else
            gr_sb_printf(out, "; %d of %d scores are -inf, the first finite one at j = %d\n",
                         masked, n, first);
        return;
    }
    if (c->call.fn == LAB07_ONLINE_ATTENTION) {
        int T = I(1), d = I(2), dv = I(3), tile = I(4), causal = I(5);
        if (I(0) < 1 || T < 1 || d < 1 || dv < 1 || tile < 1) {  /* the call is refused */
            gr_sb_printf(out, "  a size below 1 (B = %d, T = %d, d = %d, dv = %d, tile = %d): "
                         "the call must return LAB_BAD_ARG and leave O untouched\n",
                         I(0), T, d, dv, tile);
            return;
        }
        long row = index / dv;
        int b = (int)(row / T), i = (int)(row % T);
        const float *Q = c->call.bufs[1].data, *K = c->call.bufs[2].data;
        int nkeys = causal ? i + 1 : T;
        float lo = INFINITY, hi = -INFINITY;
        int at = 0;
        for (int j = 0; j < nkeys; j++) {
            double dot = 0.0;
            for (int k = 0; k < d; k++)
                dot += (double)Q[((long)b * T + i) * d + k] * (double)K[((long)b * T + j) * d + k];
            float s = (float)(dot / sqrt((double)d));
            if (s > hi) { hi = s; at = j; }
            if (s < lo) lo = s;
        }
        gr_sb_printf(out, "  query (b = %d, i = %d) sees keys 0..%d (%s), %d tiles of %d\n",
                     b, i, nkeys - 1, causal ? "causal" : "no mask", (nkeys + tile - 1) / tile, tile);
        gr_sb_append(out, "  its scores q.k/sqrt(d) run from ");
        gr_case_float(out, lo, 'g', 4);
        gr_sb_append(out, " to ");
        gr_case_float(out, hi, 'g', 4);
        gr_sb_printf(out, " (the max at key %d)\n", at);
    }
}

const gr_lab_module gr_lab07_module = {
    .number = 7,
    .dir = "lab07-online",
    .make_case = make_case,
    .misconceptions = misconceptions,
    .n_misconceptions = (int)(sizeof misconceptions / sizeof misconceptions[0]),
    .input_window = input_window,
};
