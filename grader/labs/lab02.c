/* lab02.c: what the grader knows about lab 2, masks and softmax.
 *
 * Dimensions: B batch, Tq queries, Tk keys; scores S are (B, Tq, Tk) row-major.
 * Softmax sees them as rows = B*Tq rows of n = Tk scores.
 *
 * Test kinds (the rubric's `kind`), each a call of one student function:
 *   softmax_worked      the handout's worked row, plain and with key 3 padded
 *   softmax             random rows; params: scale (score spread, default 1),
 *                       shift (added to even rows, subtracted from odd rows:
 *                       1e4 overflows exp without the max subtraction),
 *                       mask_frac (share of -inf scores), masked_rows (rows
 *                       made all -inf)
 *   softmax_inplace     the same, called with W == S
 *   softmax_nocount     the same, called with n_masked_rows = NULL
 *   softmax_bad         rows < 0 or n < 1: LAB_BAD_ARG, W and the count untouched
 *   causal, padding, bool   a mask on random scores (mask_frac pre-masked);
 *                       padding draws lengths in [0, Tk] with a 0 and a Tk among
 *                       them when B allows; bool draws M with density (default
 *                       0.3) and params {bytes: 1} for blocking bytes other than 1
 *                       (any size may be 0: LAB_OK, S untouched)
 *   causal_bad, padding_bad, bool_bad   LAB_BAD_ARG with S untouched: a negative
 *                       size, or for padding {bad: 1} a length Tk + 1, {bad: -1}
 *                       a length -1 (in the last batch element; 2 and -2: the first)
 *   temperature         random scores (mask_frac pre-masked) divided by tau;
 *                       {worked: 1} uses the worked row
 *   temperature_bad     tau (param) <= 0, or {tau_special: 1} +inf, {tau_special: 2}
 *                       NaN: LAB_BAD_ARG, S untouched
 * Expected values come from libattn (attn_softmax and the attn_*_mask functions).
 */
#include "base/labmod.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attn.h"
#include "labsup.h"
#include "lab02_calls.h"

#define NEG_LARGE (-1e9f)   /* the large negative constant students use instead of -inf */

/* Append "label: v v v" for x[0..n), at most 8 values around column `at`. */
static void append_row(gr_strbuf *out, const char *label, const float *x, long n, long at)
{
    long lo = 0, hi = n;
    if (n > 8) {
        lo = at - 3 < 0 ? 0 : at - 3;
        hi = lo + 8 > n ? n : lo + 8;
        lo = hi - 8;
    }
    gr_sb_printf(out, "  %s", label);
    if (lo > 0 || hi < n)
        gr_sb_printf(out, " (columns %ld to %ld of %ld)", lo, hi - 1, n);
    gr_sb_append(out, ":");
    gr_case_values(out, x + lo, hi - lo, 'f', 4);
    gr_sb_append(out, "\n");
}

/* ---- softmax calls: where their buffers are --------------------------------- */

typedef struct sm_view {
    int rows, n;
    const float *S;   /* the scores sent */
    int wbuf;         /* buffer of the weights */
    int cbuf;         /* buffer of the count, or -1 */
} sm_view;

static int is_softmax(const gr_case *c)
{
    return c->call.fn == LAB02_SOFTMAX || c->call.fn == LAB02_SOFTMAX_INPLACE ||
           c->call.fn == LAB02_SOFTMAX_NOCOUNT;
}

static sm_view softmax_view(const gr_case *c)
{
    sm_view v = { (int)c->call.ints[0], (int)c->call.ints[1], NULL, 0, -1 };
    if (c->call.fn == LAB02_SOFTMAX_INPLACE) {
        v.S = c->call.bufs[0].data;
        v.cbuf = 1;
    } else {
        v.S = c->call.bufs[1].data;
        v.cbuf = c->call.fn == LAB02_SOFTMAX ? 2 : -1;
    }
    return v;
}

static int row_fully_masked(const float *s, int n)
{
    for (int j = 0; j < n; j++)
        if (s[j] != -INFINITY)
            return 0;
    return 1;
}

static int row_partly_masked(const float *s, int n)
{
    int masked = 0;
    for (int j = 0; j < n; j++)
        masked += s[j] == -INFINITY;
    return masked > 0 && masked < n;
}

/* How many rows of a softmax call's scores pass test. */
static int count_rows(const sm_view *sv, int (*test)(const float *s, int n))
{
    int k = 0;
    for (int r = 0; r < sv->rows; r++)
        k += test(sv->S + (long)r * sv->n, sv->n);
    return k;
}

/* The ways a softmax can be computed, right and wrong. */
typedef enum sm_variant {
    SM_RIGHT,       /* the contract (libattn) */
    SM_NO_MAX,      /* exp(s) / sum exp(s) in float, without subtracting the max */
    SM_MAX_ZERO,    /* the max's running value started at 0: max(0, row max) */
    SM_COLUMNS,     /* normalised down each column (the query axis) */
    SM_NAN_ROWS,    /* a fully masked row becomes NaN and is not counted */
    SM_COUNT_ANY    /* right weights, but counts rows with any masked key */
} sm_variant;

/* Weights of the case's scores under variant v into W (rows x n); returns the
   count the variant reports. */
static int32_t softmax_variant(float *W, const sm_view *sv, sm_variant v)
{
    int rows = sv->rows, n = sv->n;
    const float *S = sv->S;
    int32_t count = (int32_t)attn_softmax(W, S, rows, n);
    switch (v) {
    case SM_RIGHT:
        break;
    case SM_NO_MAX:
        /* A naive student: exp of the raw score, summed in float. A row near
           1e4 overflows to inf / inf = NaN; a row near -1e4 underflows to
           0 / 0 = NaN. Fully masked rows keep the course's policy (zeros). */
        for (int r = 0; r < rows; r++) {
            const float *s = S + (long)r * n;
            float *w = W + (long)r * n;
            if (row_fully_masked(s, n))
                continue; /* attn_softmax already wrote zeros */
            float sum = 0.0f;
            for (int j = 0; j < n; j++)
                sum += expf(s[j]);
            for (int j = 0; j < n; j++)
                w[j] = expf(s[j]) / sum;
        }
        break;
    case SM_MAX_ZERO:
        /* The solution's passes with the max started at 0 (fully masked rows
           found apart, as the course says): a row whose scores are all below
           about -104 underflows to 0 / 0 = NaN. */
        for (int r = 0; r < rows; r++) {
            const float *s = S + (long)r * n;
            float *w = W + (long)r * n, m = 0.0f;
            if (row_fully_masked(s, n))
                continue;
            double sum = 0.0;
            for (int j = 0; j < n; j++)
                m = s[j] > m ? s[j] : m;
            for (int j = 0; j < n; j++)
                sum += (double)(w[j] = expf(s[j] - m));
            for (int j = 0; j < n; j++)
                w[j] = (float)((double)w[j] / sum);
        }
        break;
    case SM_COLUMNS:
        for (int j = 0; j < n; j++) {
            float m = -INFINITY;
            for (int r = 0; r < rows; r++)
                m = fmaxf(m, S[(long)r * n + j]);
            double sum = 0.0;
            for (int r = 0; r < rows && m != -INFINITY; r++)
                sum += exp((double)S[(long)r * n + j] - (double)m);
            for (int r = 0; r < rows; r++)
                W[(long)r * n + j] = m == -INFINITY
                    ? 0.0f : (float)(exp((double)S[(long)r * n + j] - (double)m) / sum);
        }
        break;
    case SM_NAN_ROWS:
        for (int r = 0; r < rows; r++)
            if (row_fully_masked(S + (long)r * n, n))
                for (int j = 0; j < n; j++)
                    W[(long)r * n + j] = NAN;
        count = 0;
        break;
    case SM_COUNT_ANY:
        count = 0;
        for (int r = 0; r < rows; r++) {
            const float *s = S + (long)r * n;
            count += row_fully_masked(s, n) || row_partly_masked(s, n);
        }
        break;
    }
    return count;
}

/* No max subtraction and a max started at 0 give the same weights where no
   score is above 0: which one the student made cannot be told there, so
   neither is named. 1 when W (variant v) is what the other gives. */
static int same_as_twin(const gr_case *c, const sm_view *sv, const float *W, sm_variant v)
{
    float *twin = gr_case_alloc_like(c, sv->wbuf);
    softmax_variant(twin, sv, v == SM_NO_MAX ? SM_MAX_ZERO : SM_NO_MAX);
    int same = memcmp(W, twin, c->call.bufs[sv->wbuf].count * sizeof *W) == 0;
    free(twin);
    return same;
}

static int predict_softmax(const gr_case *c, void *out[PROTO_MAX_BUFS], sm_variant v)
{
    if (!is_softmax(c) || c->expected_status != LAB_OK)
        return -1;
    sm_view sv = softmax_view(c);
    if (sv.rows == 0)
        return -1;      /* no rows: no mistake of a row's shows */
    /* NaN rows show only where a row is fully masked, a miscount only where one is
       partly masked and the call counts */
    if (v == SM_NAN_ROWS && !count_rows(&sv, row_fully_masked))
        return -1;
    if (v == SM_COUNT_ANY && (sv.cbuf < 0 || !count_rows(&sv, row_partly_masked)))
        return -1;
    float *W = gr_case_alloc_like(c, sv.wbuf);
    int32_t count = softmax_variant(W, &sv, v);
    if ((v == SM_NO_MAX || v == SM_MAX_ZERO) && same_as_twin(c, &sv, W, v)) {
        free(W);
        return -1;
    }
    out[sv.wbuf] = W;
    if (sv.cbuf >= 0) {
        int32_t *cnt = gr_case_alloc_like(c, sv.cbuf);
        *cnt = count;
        out[sv.cbuf] = cnt;
    }
    return 0;
}

GR_PREDICT(predict_no_max_sub, predict_softmax, SM_NO_MAX)
GR_PREDICT(predict_max_zero, predict_softmax, SM_MAX_ZERO)
GR_PREDICT(predict_query_axis, predict_softmax, SM_COLUMNS)
GR_PREDICT(predict_masked_row_nan, predict_softmax, SM_NAN_ROWS)
GR_PREDICT(predict_count_any, predict_softmax, SM_COUNT_ANY)

/* ---- mask calls ------------------------------------------------------------- */

static int is_mask(const gr_case *c)
{
    return c->call.fn == LAB02_CAUSAL_MASK || c->call.fn == LAB02_PADDING_MASK ||
           c->call.fn == LAB02_BOOL_MASK;
}

/* Which (b, i, j) a mask call blocks: `rule` 0 is the contract; the causal
   mistakes are 1 (j >= i, the diagonal too) and 2 (j < i, the past instead of
   the future); the padding mistake 1 masks query rows i >= lengths[b]; the bool
   mistakes 1 (M == 0 blocks) and 2 (only M == 1 blocks). */
static int blocked(const gr_case *c, int rule, int b, int i, int j)
{
    int Tq = (int)c->call.ints[1], Tk = (int)c->call.ints[2];
    switch (c->call.fn) {
    case LAB02_CAUSAL_MASK:
        return rule == 1 ? j >= i : rule == 2 ? j < i : j > i;
    case LAB02_PADDING_MASK: {
        int len = ((const int32_t *)c->call.bufs[1].data)[b];
        return rule == 1 ? i >= len : j >= len;
    }
    case LAB02_BOOL_MASK: {
        uint8_t m = ((const uint8_t *)c->call.bufs[1].data)[((long)b * Tq + i) * Tk + j];
        return rule == 1 ? m == 0 : rule == 2 ? m == 1 : m != 0;
    }
    }
    return 0;
}

/* The case's scores with every position `rule` blocks set to fill, for a call of
   mask function `only` (-1: any of them). */
static int predict_mask(const gr_case *c, void *out[PROTO_MAX_BUFS], int only, int rule,
                        float fill)
{
    if (!is_mask(c) || (only >= 0 && c->call.fn != (uint32_t)only) || c->expected_status != LAB_OK)
        return -1;
    int B = (int)c->call.ints[0], Tq = (int)c->call.ints[1], Tk = (int)c->call.ints[2];
    float *S = gr_case_alloc_like(c, 0); /* starts as the scores sent */
    for (int b = 0; b < B; b++)
        for (int i = 0; i < Tq; i++)
            for (int j = 0; j < Tk; j++)
                if (blocked(c, rule, b, i, j))
                    S[((long)b * Tq + i) * Tk + j] = fill;
    out[0] = S;
    return 0;
}

GR_PREDICT(predict_neg_large, predict_mask, -1, 0, NEG_LARGE)
GR_PREDICT(predict_mask_zero, predict_mask, -1, 0, 0.0f)
GR_PREDICT(predict_causal_diag, predict_mask, LAB02_CAUSAL_MASK, 1, -INFINITY)
GR_PREDICT(predict_causal_past, predict_mask, LAB02_CAUSAL_MASK, 2, -INFINITY)
GR_PREDICT(predict_padding_rows, predict_mask, LAB02_PADDING_MASK, 1, -INFINITY)
GR_PREDICT(predict_bool_inverted, predict_mask, LAB02_BOOL_MASK, 1, -INFINITY)

static int predict_bool_eq_one(const gr_case *c, void *out[PROTO_MAX_BUFS])
{
    if (c->call.fn != LAB02_BOOL_MASK)
        return -1;
    const proto_buf *M = &c->call.bufs[1];
    int other = 0;
    for (uint64_t k = 0; k < M->count && !other; k++)
        other = ((const uint8_t *)M->data)[k] > 1;
    return other ? predict_mask(c, out, LAB02_BOOL_MASK, 2, -INFINITY) : -1;
}

static int predict_temp_multiply(const gr_case *c, void *out[PROTO_MAX_BUFS])
{
    if (c->call.fn != LAB02_TEMPERATURE || c->expected_status != LAB_OK)
        return -1;
    float tau = (float)c->call.reals[0];
    float *S = gr_case_alloc_like(c, 0);
    for (uint64_t k = 0; k < c->call.bufs[0].count; k++)
        S[k] = S[k] * tau;
    out[0] = S;
    return 0;
}

static const gr_misconception misconceptions[] = {
    { "no_max_sub", "no max subtraction",
      "The softmax took exp of the raw scores. exp overflows float above 88, so a row of "
      "scores near 1e4 becomes inf / inf = NaN (and a row near -1e4 becomes 0 / 0). "
      "Subtract the row max first: it changes nothing mathematically.",
      { 2, "3" }, predict_no_max_sub },
    { "max_from_zero", "running max started at 0 instead of -inf",
      "The row max started at 0. A row whose scores are all below 0 never moves it, so "
      "each weight is exp(s - 0) over their sum: below about -104 every exponential "
      "underflows to 0 and the row is 0 / 0 = NaN. Start the max at -INFINITY, the max of "
      "no score yet, so the first score sets it.",
      { 2, "3" }, predict_max_zero },
    { "softmax_query_axis", "softmax over the wrong axis (the query axis)",
      "Each column was normalised instead of each row, so columns sum to 1 and rows do not. "
      "Softmax runs over the keys of one query: along a row of n scores.",
      { 2, "2" }, predict_query_axis },
    { "masked_row_nan", "fully masked row gives NaN",
      "A row whose scores are all -inf came out as NaN (exp(-inf - -inf) = exp(NaN)) and was "
      "not counted. The course's policy is a row of zeros, counted into *n_masked_rows.",
      { 2, "5" }, predict_masked_row_nan },
    { "count_any_masked", "counted rows with any masked key",
      "*n_masked_rows counted every row containing a -inf. It counts only fully masked rows, "
      "those whose scores are all -inf and whose weights are all 0.",
      { 2, "5" }, predict_count_any },
    { "neg_large", "masked with a large negative constant instead of -inf",
      "Masked scores were set to -1e9. That usually underflows to a 0 weight, but a fully "
      "masked row then gets -1e9 everywhere and softmax spreads it uniformly, 1/Tk per key, "
      "instead of zeros. Use -INFINITY.",
      { 2, "4" }, predict_neg_large },
    { "mask_zero", "masked score set to 0 instead of -inf",
      "Masked scores were set to 0. Zero is an ordinary score: the masked key still gets a "
      "positive weight after softmax. A masked score is -INFINITY.",
      { 2, "4" }, predict_mask_zero },
    { "causal_diag", "causal mask off by one (hides the diagonal)",
      "Keys j >= i were masked, so query i cannot see itself (and row 0 is fully masked). "
      "Query i may look at keys 0 .. i: mask only j > i.",
      { 2, "4" }, predict_causal_diag },
    { "causal_past", "causal mask on the wrong side (hides the past)",
      "Keys j < i were masked: the lower triangle instead of the upper one. A causal query "
      "may not see the future, the keys j > i.",
      { 2, "4" }, predict_causal_past },
    { "padding_query_axis", "padding mask applied to queries instead of keys",
      "Whole rows i >= lengths[b] were masked. Padding removes keys: every query of batch "
      "element b loses the columns j >= lengths[b].",
      { 2, "4" }, predict_padding_rows },
    { "bool_inverted", "boolean mask read the wrong way round",
      "Scores where M is 0 were masked. In this course 1 (any nonzero byte) means blocked "
      "and 0 means allowed (the opposite of some libraries' attention_mask).",
      { 2, "4" }, predict_bool_inverted },
    { "bool_eq_one", "only M == 1 counted as blocked",
      "The mask tested M == 1, so bytes like 2 or 255 were let through. Any nonzero byte "
      "blocks: test M != 0.",
      { 2, "4" }, predict_bool_eq_one },
    { "temp_multiply", "temperature multiplied instead of divided",
      "The scores were multiplied by tau. Temperature divides them: tau > 1 flattens the "
      "weights, tau < 1 sharpens them.",
      { 2, "6" }, predict_temp_multiply },
};

/* ---- building cases ---------------------------------------------------------- */

static const float worked_row[4] = {2.0f, 1.0f, -1.0f, 0.5f};

typedef struct score_params {
    double scale, shift, mask_frac;
    int masked_rows;
} score_params;

static int read_score_params(const gr_rubric_test *t, score_params *p, int max_rows,
                             char *err, size_t errlen)
{
    p->scale = gr_rubric_test_param(t, "scale", 1.0);
    p->shift = gr_rubric_test_param(t, "shift", 0.0);
    p->mask_frac = gr_rubric_test_param(t, "mask_frac", 0.0);
    if (!(p->scale > 0) || !(p->mask_frac >= 0 && p->mask_frac < 1) || fabs(p->shift) > 1e6) {
        snprintf(err, errlen, "params need scale > 0, 0 <= mask_frac < 1 and |shift| <= 1e6 "
                 "(got scale %g, mask_frac %g, shift %g)", p->scale, p->mask_frac, p->shift);
        return -1;
    }
    return gr_test_int(t, "masked_rows", 0, 0, max_rows, &p->masked_rows, err, errlen);
}

/* Random softmax input: rows x n scores, even rows shifted by +shift and odd
   rows by -shift, then masked_rows distinct rows made all -inf. */
static void fill_softmax_scores(sup_rng *r, float *S, int rows, int n, const score_params *p)
{
    for (int i = 0; i < rows; i++)
        gr_fill_scores(r, S + (long)i * n, n, (float)p->scale,
                    (float)(i % 2 ? -p->shift : p->shift), p->mask_frac);
    for (int k = 0; k < p->masked_rows; k++) {
        int i;
        do {
            i = (int)(sup_rng_uniform(r) * (float)rows);
        } while (i >= rows || row_fully_masked(S + (long)i * n, n));
        for (int j = 0; j < n; j++)
            S[(long)i * n + j] = -INFINITY;
    }
}

/* The expected weights and count of a softmax case (status LAB_OK). */
static void expect_softmax(gr_case *c)
{
    sm_view sv = softmax_view(c);
    float *W = gr_case_expect(c, sv.wbuf);
    int32_t count = (int32_t)attn_softmax(W, sv.S, sv.rows, sv.n);
    if (sv.cbuf >= 0)
        *(int32_t *)gr_case_expect(c, sv.cbuf) = count;
    c->expected_status = LAB_OK;
}

/* Add the buffers of a softmax call with rows x n scores; returns the scores. */
static float *add_softmax_call(gr_case *c, uint32_t fn, int rows, int n)
{
    long count = (long)(rows > 0 ? rows : 0) * (n > 0 ? n : 0);
    if (count < 1)
        count = 1; /* a rejected call still gets one element, which must stay untouched */
    c->call.fn = fn;
    float *S;
    if (fn == LAB02_SOFTMAX_INPLACE) {
        S = gr_case_add_f32(c, PROTO_INOUT, count);
        gr_case_set_name(c, 0, "W (== S)");
    } else {
        gr_case_add_f32(c, PROTO_OUT, count);
        S = gr_case_add_f32(c, PROTO_IN, count);
        gr_case_set_name(c, 0, "W");
        gr_case_set_name(c, 1, "S");
        gr_case_set_shape2(c, 1, rows, n);
    }
    if (rows > 0 && n > 0)
        gr_case_set_shape2(c, 0, rows, n);
    if (fn != LAB02_SOFTMAX_NOCOUNT) {
        int cb = c->call.n_bufs;
        gr_case_add_i32(c, PROTO_OUT, 1);
        gr_case_set_name(c, cb, "*n_masked_rows");
    }
    gr_case_add_int(c, rows);
    gr_case_add_int(c, n);
    return S;
}

static const char *softmax_how(uint32_t fn)
{
    return fn == LAB02_SOFTMAX_INPLACE ? "W == S, in place"
         : fn == LAB02_SOFTMAX_NOCOUNT ? "n_masked_rows = NULL" : "W separate from S";
}

static int make_softmax(const gr_rubric_test *t, uint32_t fn, gr_case_variant what, sup_rng *r,
                        gr_case *c, char *err, size_t errlen)
{
    int rows, n;
    if (what == GR_VARIANT_WORKED) {
        /* The handout's worked row (sections 2 and 4): plain, then with key 3
           as padding: [2, 1, -1, 0.5] -> [0.6095 0.2242 0.0303 0.1360] and
           [2, 1, -1, -inf] -> exp(s - 2) = [1 .367879 .049787 0] / 1.417667
           = [0.7054 0.2595 0.0351 0]. */
        rows = 2, n = 4;
        float *S = add_softmax_call(c, fn, rows, n);
        memcpy(S, worked_row, sizeof worked_row);
        memcpy(S + 4, worked_row, sizeof worked_row);
        S[7] = -INFINITY;
        snprintf(c->describe, sizeof c->describe,
                 "lab_softmax(W, S, rows=2, n=4, %s), the handout's worked row "
                 "[2, 1, -1, 0.5], then with key 3 (the last, counting from 0) masked", softmax_how(fn));
        expect_softmax(c);
        return 0;
    }
    if (gr_test_rows(t, what, &rows, &n, err, errlen))
        return -1;
    if (what == GR_VARIANT_BAD) {
        float *S = add_softmax_call(c, fn, rows, n);
        gr_fill_scores(r, S, (long)c->call.bufs[fn == LAB02_SOFTMAX_INPLACE ? 0 : 1].count, 1.0f, 0.0f, 0.0);
        snprintf(c->describe, sizeof c->describe, "lab_softmax(W, S, rows=%d, n=%d, %s): "
                 "sizes break the contract, expect LAB_BAD_ARG with W and *n_masked_rows untouched",
                 rows, n, softmax_how(fn));
        return gr_case_expect_bad_arg(c); /* W and the count as the child starts them */
    }
    score_params p;
    if (read_score_params(t, &p, rows, err, errlen))
        return -1;
    float *S = add_softmax_call(c, fn, rows, n);
    fill_softmax_scores(r, S, rows, n, &p);
    if (rows == 0)
        gr_fill_normal(r, S, 1, 1.0);   /* the one element sent, drawn as any input is */
    int len = snprintf(c->describe, sizeof c->describe, "lab_softmax(W, S, rows=%d, n=%d, %s), "
                       "scores ~ N(0, %g^2)", rows, n, softmax_how(fn), p.scale);
    if (p.shift != 0)
        len += snprintf(c->describe + len, sizeof c->describe - (size_t)len,
                        ", rows shifted by +-%g (even +, odd -)", p.shift);
    if (p.mask_frac > 0)
        len += snprintf(c->describe + len, sizeof c->describe - (size_t)len,
                        ", %g of scores -inf", p.mask_frac);
    if (p.masked_rows > 0)
        snprintf(c->describe + len, sizeof c->describe - (size_t)len,
                 ", %d rows fully masked", p.masked_rows);
    expect_softmax(c);
    if (rows == 0 && fn != LAB02_SOFTMAX_INPLACE)   /* no rows: W's one element stays as sent */
        ((float *)c->expected[0])[0] = proto_out_fill(0);
    return 0;
}

static const char *mask_name(uint32_t fn)
{
    return fn == LAB02_CAUSAL_MASK ? "lab_causal_mask"
         : fn == LAB02_PADDING_MASK ? "lab_padding_mask" : "lab_bool_mask";
}

/* Lengths of 0 and Tk give the same mask on either axis (every key, or none),
   so padding applied to query rows instead of keys shows only where some
   length is in [1, Tk - 1]. When the draw has none (about 1 in 125 students
   for B = 5, Tk = 9), one is set: beside the forced 0 and Tk when B >= 3, so
   every student's inputs catch the mistake. A draw that has one is left as it
   is, and nothing is drawn after the lengths. */
static void make_one_partial(sup_rng *r, int32_t *len, int B, int Tk)
{
    if (B < 1 || Tk < 2)
        return;
    for (int b = 0; b < B; b++)
        if (len[b] >= 1 && len[b] < Tk)
            return;
    int z = -1;                   /* the forced 0, when B >= 3 */
    for (int b = 0; B >= 3 && b < B && z < 0; b++)
        if (len[b] == 0 && len[(b + 1) % B] == Tk)
            z = b;
    int at = z >= 0 ? (z + 2) % B : (int)(sup_rng_u64(r) % (uint64_t)B);
    len[at] = 1 + (int32_t)(sup_rng_u64(r) % (uint64_t)(Tk - 1));
}

/* Lengths in [0, Tk] for the padding mask, a 0 (a fully masked batch element)
   and a Tk (no padding) among them when B allows, in random places, and one in
   [1, Tk - 1] (make_one_partial); with bad,
   the last one out of range. Their list goes to extra for the description. */
static void add_lengths(gr_case *c, sup_rng *r, int B, int Tk, int bad, char *extra, size_t n)
{
    int32_t *len = gr_case_add_i32(c, PROTO_IN, B > 0 ? B : 0);
    gr_case_set_name(c, 1, "lengths");
    for (int b = 0; b < B; b++)
        len[b] = (int32_t)(sup_rng_uniform(r) * (float)(Tk + 1));
    if (B >= 3) {
        int z = (int)(sup_rng_uniform(r) * (float)B) % B;
        len[z] = 0;
        len[(z + 1) % B] = Tk;
    }
    for (int b = 0; b < B; b++)
        if (len[b] > Tk) len[b] = Tk;
    make_one_partial(r, len, B, Tk);
    if (bad) /* last (bad 1, -1), so a lazy check has already written; or first (2, -2) */
        len[bad == 2 || bad == -2 ? 0 : B - 1] = bad > 0 ? Tk + 1 : -1;
    int at = snprintf(extra, n, ", lengths [");
    for (int b = 0; b < B && at < (int)n - 16; b++)
        at += snprintf(extra + at, n - (size_t)at, "%s%d", b ? " " : "", (int)len[b]);
    snprintf(extra + at, n - (size_t)at, "%s]", B > 12 ? " ..." : "");
}

/* A boolean mask M of the scores' size, the rubric's density blocked (with
   bytes 2..255 when asked: any nonzero byte blocks). 0, or -1 with err. */
static int add_bool_mask(const gr_rubric_test *t, gr_case *c, sup_rng *r, long nS, char *extra,
                         size_t n, char *err, size_t errlen)
{
    double density = gr_rubric_test_param(t, "density", 0.3);
    int bytes = gr_rubric_test_param(t, "bytes", 0.0) != 0.0;
    if (!(density >= 0 && density <= 1)) {
        snprintf(err, errlen, "density must be in [0, 1] (got %g)", density);
        return -1;
    }
    uint8_t *M = gr_case_add_u8(c, PROTO_IN, nS > 0 ? nS : 4);
    gr_case_set_name(c, 1, "M");
    for (long k = 0; k < (long)c->call.bufs[1].count; k++) {
        int block = (double)sup_rng_uniform(r) < density;
        M[k] = !block ? 0 : bytes ? (uint8_t)(2 + (int)(sup_rng_uniform(r) * 254.0f)) : 1;
    }
    snprintf(extra, n, ", M %g blocked%s", density, bytes ? " with bytes 2..255" : "");
    return 0;
}

static int make_mask(const gr_rubric_test *t, uint32_t fn, gr_case_variant what, sup_rng *r,
                     gr_case *c, char *err, size_t errlen)
{
    /* zero sizes are the contract's (nothing to do); a bad test may make any size negative */
    int B, Tq, Tk, bad = 0, lo = what == GR_VARIANT_BAD ? -4 : 0;
    if (gr_test_int(t, "B", 2, lo, 256, &B, err, errlen) ||
        gr_test_int(t, "Tq", 4, lo, 1024, &Tq, err, errlen) ||
        gr_test_int(t, "Tk", 4, lo, 1024, &Tk, err, errlen))
        return -1;
    if ((long)B * Tq * Tk > GR_MAX_ELEMS) {
        snprintf(err, errlen, "B * Tq * Tk must be at most %ld", GR_MAX_ELEMS);
        return -1;
    }
    if (what == GR_VARIANT_BAD) {
        if (fn == LAB02_PADDING_MASK && !(B < 0 || Tq < 0 || Tk < 0)) {
            if (gr_test_int(t, "bad", 1, -2, 2, &bad, err, errlen) || bad == 0) {
                snprintf(err, errlen, "a padding_bad test needs a negative size, or bad: 1 (the "
                         "last length Tk + 1), -1 (the last length -1), 2 or -2 (the first)");
                return -1;
            }
        } else if (!(B < 0 || Tq < 0 || Tk < 0)) {
            snprintf(err, errlen, "a %s test needs a negative size", t->kind);
            return -1;
        }
    }
    score_params p;
    if (read_score_params(t, &p, 0, err, errlen))
        return -1;

    c->call.fn = fn;
    long nS = (long)(B > 0 ? B : 0) * (Tq > 0 ? Tq : 0) * (Tk > 0 ? Tk : 0);
    float *S = gr_case_add_f32(c, PROTO_INOUT, nS > 0 ? nS : 4);
    gr_fill_scores(r, S, (long)c->call.bufs[0].count, (float)p.scale, (float)p.shift, p.mask_frac);
    gr_case_set_name(c, 0, "S");
    if (nS > 0)
        gr_case_set_shape(c, 0, B, Tq, Tk);

    char extra[96] = "";
    if (fn == LAB02_PADDING_MASK)
        add_lengths(c, r, B, Tk, bad, extra, sizeof extra);
    else if (fn == LAB02_BOOL_MASK && add_bool_mask(t, c, r, nS, extra, sizeof extra, err, errlen))
        return -1;
    GR_CASE_ADD_INTS(c, B, Tq, Tk);

    float *want = gr_case_expect(c, 0); /* starts as the scores sent */
    if (what == GR_VARIANT_BAD) {
        c->expected_status = LAB_BAD_ARG;
        snprintf(c->describe, sizeof c->describe, "%s(S, ..., B=%d, Tq=%d, Tk=%d)%s: "
                 "expect LAB_BAD_ARG and S untouched", mask_name(fn), B, Tq, Tk, extra);
        return 0;
    }
    if (fn == LAB02_CAUSAL_MASK)
        attn_causal_mask(want, B, Tq, Tk);
    else if (fn == LAB02_PADDING_MASK)
        attn_padding_mask(want, c->call.bufs[1].data, B, Tq, Tk);
    else
        attn_bool_mask(want, c->call.bufs[1].data, B, Tq, Tk);
    c->expected_status = LAB_OK;
    snprintf(c->describe, sizeof c->describe, "%s(S, ..., B=%d, Tq=%d, Tk=%d)%s, scores ~ N(0, 1)%s",
             mask_name(fn), B, Tq, Tk, extra, p.mask_frac > 0 ? ", some already -inf" : "");
    return 0;
}

static int make_temperature(const gr_rubric_test *t, gr_case_variant what, sup_rng *r,
                            gr_case *c, char *err, size_t errlen)
{
    int n, worked = gr_rubric_test_param(t, "worked", 0.0) != 0.0;
    if (gr_test_int(t, "n", worked ? 4 : 16, what == GR_VARIANT_BAD ? -4 : 0, 1 << 22, &n, err, errlen))
        return -1;
    double tau = gr_rubric_test_param(t, "tau", 2.0);
    int special;
    if (gr_test_int(t, "tau_special", 0, 0, 2, &special, err, errlen))
        return -1;
    if (special)
        tau = special == 1 ? (double)INFINITY : (double)NAN;
    float tau_f = (float)tau;
    int bad = !(tau_f > 0.0f) || isinf(tau_f) || n < 0;
    if (bad != (what == GR_VARIANT_BAD)) {
        snprintf(err, errlen, "%s: tau %g with n %d is %s the contract", t->kind, tau, n,
                 bad ? "against" : "within");
        return -1;
    }
    if (worked && n != 4) {
        snprintf(err, errlen, "the worked temperature test has n = 4");
        return -1;
    }
    score_params p;
    if (read_score_params(t, &p, 0, err, errlen))
        return -1;
    c->call.fn = LAB02_TEMPERATURE;
    float *S = gr_case_add_f32(c, PROTO_INOUT, n > 0 ? n : 4);
    gr_case_set_name(c, 0, "S");
    if (worked)
        memcpy(S, worked_row, sizeof worked_row);
    else
        gr_fill_scores(r, S, (long)c->call.bufs[0].count, (float)p.scale, (float)p.shift, p.mask_frac);
    gr_case_add_int(c, n);
    gr_case_add_real(c, tau);
    float *want = gr_case_expect(c, 0);
    c->expected_status = bad ? LAB_BAD_ARG : LAB_OK;
    if (!bad)
        for (int k = 0; k < n; k++)
            want[k] = want[k] / tau_f; /* -inf / tau stays -inf */
    snprintf(c->describe, sizeof c->describe, "lab_temperature(S, tau=%g, n=%d)%s%s", (double)tau_f, n,
             worked ? ", S = the worked row [2 1 -1 0.5]" : p.mask_frac > 0 ? ", some scores -inf" : "",
             bad ? ": expect LAB_BAD_ARG and S untouched" : "");
    return 0;
}

/* Every kind of lab 2: a call of kind->fn, the variant kind->what. */
static int gen_call(const gr_case_kind *kind, const gr_rubric_test *t, uint64_t seed,
                    gr_case *c, char *err, size_t errlen)
{
    uint32_t fn = kind->fn;
    sup_rng r;
    sup_rng_seed(&r, seed);
    switch (fn) {
    case LAB02_SOFTMAX:
    case LAB02_SOFTMAX_INPLACE:
    case LAB02_SOFTMAX_NOCOUNT:
        return make_softmax(t, fn, kind->what, &r, c, err, errlen);
    case LAB02_TEMPERATURE:
        return make_temperature(t, kind->what, &r, c, err, errlen);
    default:
        return make_mask(t, fn, kind->what, &r, c, err, errlen);
    }
}

static int make_case(const gr_rubric_test *t, uint64_t seed, gr_case *c,
                     char *err, size_t errlen)
{
    static const gr_case_kind kinds[] = {
        { "softmax_worked", gen_call, LAB02_SOFTMAX, GR_VARIANT_WORKED },
        { "softmax", gen_call, LAB02_SOFTMAX, GR_VARIANT_RANDOM },
        { "softmax_inplace", gen_call, LAB02_SOFTMAX_INPLACE, GR_VARIANT_RANDOM },
        { "softmax_nocount", gen_call, LAB02_SOFTMAX_NOCOUNT, GR_VARIANT_RANDOM },
        { "softmax_bad", gen_call, LAB02_SOFTMAX, GR_VARIANT_BAD },
        { "causal", gen_call, LAB02_CAUSAL_MASK, GR_VARIANT_RANDOM },
        { "causal_bad", gen_call, LAB02_CAUSAL_MASK, GR_VARIANT_BAD },
        { "padding", gen_call, LAB02_PADDING_MASK, GR_VARIANT_RANDOM },
        { "padding_bad", gen_call, LAB02_PADDING_MASK, GR_VARIANT_BAD },
        { "bool", gen_call, LAB02_BOOL_MASK, GR_VARIANT_RANDOM },
        { "bool_bad", gen_call, LAB02_BOOL_MASK, GR_VARIANT_BAD },
        { "temperature", gen_call, LAB02_TEMPERATURE, GR_VARIANT_RANDOM },
        { "temperature_bad", gen_call, LAB02_TEMPERATURE, GR_VARIANT_BAD },
    };
    return gr_make_case_by_kind(kinds, GR_N_KINDS(kinds), 2, t, seed, c,
                                err, errlen);
}

/* ---- input window -------------------------------------------------------------- */

static void input_window(const gr_case *c, int buf, long index, gr_strbuf *out)
{
    if (is_softmax(c)) {
        sm_view sv = softmax_view(c);
        if (sv.rows < 1 || sv.n < 1)
            return;
        if (buf == sv.cbuf) {
            gr_sb_printf(out, "  %d of the %d rows have every score -inf\n",
                         count_rows(&sv, row_fully_masked), sv.rows);
            return;
        }
        long r = index / sv.n, j = index % sv.n;
        char label[48];
        snprintf(label, sizeof label, "scores row [%ld]", r);
        append_row(out, label, sv.S + r * sv.n, sv.n, j);
        return;
    }
    int B = (int)c->call.ints[0];
    if (c->call.fn == LAB02_TEMPERATURE) {
        const float *S = c->call.bufs[0].data;
        gr_sb_printf(out, "  S[%ld] sent: ", index);
        gr_case_float(out, S[index], 'f', 4);
        gr_sb_printf(out, ", tau = %g, so S[%ld] / tau = ", (double)(float)c->call.reals[0], index);
        gr_case_float(out, S[index] / (float)c->call.reals[0], 'f', 4);
        gr_sb_append(out, "\n");
        return;
    }
    int Tq = (int)c->call.ints[1], Tk = (int)c->call.ints[2];
    if (B < 1 || Tq < 1 || Tk < 1)
        return;
    long b = index / ((long)Tq * Tk), i = index / Tk % Tq, j = index % Tk;
    const float *S = c->call.bufs[0].data;
    char label[64];
    snprintf(label, sizeof label, "scores sent, S[%ld][%ld]", b, i);
    append_row(out, label, S + (b * Tq + i) * Tk, Tk, j);
    if (c->call.fn == LAB02_CAUSAL_MASK) {
        gr_sb_printf(out, "  query i = %ld, key j = %ld: %s\n", i, j,
                     j > i ? "j > i, a future key, masked" : "j <= i, allowed, left as it was");
    } else if (c->call.fn == LAB02_PADDING_MASK) {
        int len = ((const int32_t *)c->call.bufs[1].data)[b];
        gr_sb_printf(out, "  lengths[%ld] = %d, key j = %ld: %s\n", b, len, j,
                     j >= len ? "padding, masked" : "a real key, left as it was");
    } else {
        const uint8_t *M = c->call.bufs[1].data;
        gr_sb_printf(out, "  M[%ld][%ld] (1 = blocked):", b, i);
        long lo = Tk > 8 ? (j - 3 < 0 ? 0 : j - 3) : 0, hi = lo + 8 > Tk ? Tk : lo + 8;
        for (long x = lo; x < hi; x++)
            gr_sb_printf(out, " %u", (unsigned)M[(b * Tq + i) * Tk + x]);
        gr_sb_append(out, "\n");
    }
}

const gr_lab_module gr_lab02_module = {
    .number = 2,
    .dir = "lab02-softmax",
    .make_case = make_case,
    .misconceptions = misconceptions,
    .n_misconceptions = (int)(sizeof misconceptions / sizeof misconceptions[0]),
    .input_window = input_window,
};
