/* test_softmax.c: scores -> weights, and the functions that read weight rows
 * (log-sum-exp, entropy, softmax backward).
 */
#include <check.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "attn.h"
#include "labsup.h"
#include "expect.h"

Suite *test_suite(void);

static double row_sum(const float *w, int n)
{
    double sum = 0.0;
    for (int j = 0; j < n; j++) sum += (double)w[j];
    return sum;
}

/* ------------------------------------------------------------------ */
/* Softmax                                                              */
/* ------------------------------------------------------------------ */

START_TEST(worked_row)
{
    /* The course's worked row: scores [2, 1, -1, 0.5], key 4 is padding.
       exp(2) = 7.389056, exp(1) = 2.718282, exp(-1) = 0.367879, exp(-inf) = 0;
       sum = 10.475217 -> weights [0.705385, 0.259496, 0.035119, 0]:
       [0.7054, 0.2595, 0.0351, 0.0000] to 4 decimals, summing to 1.
       The score -1 is not "negative attention": its weight is small and positive. */
    float S[4] = {2, 1, -1, 0.5f}, W[4];
    const int lengths[1] = {3};
    attn_padding_mask(S, lengths, 1, 1, 4);
    ck_assert_int_eq(attn_softmax(W, S, 1, 4), 0);
    const double want[4] = {0.7054, 0.2595, 0.0351, 0.0};
    for (int j = 0; j < 4; j++) expect_near("W", j, (double)W[j], want[j], 5e-5);
    expect(W[3] == 0.0f, "the padded key's weight is %g, expected exactly 0", (double)W[3]);
    ck_assert(W[2] > 0.0f);
    expect_near("sum of W", 0, row_sum(W, 4), 1.0, 1e-6);
    /* and to full float precision */
    expect_near("W", 0, (double)W[0], 0.7053845127, 1e-7);
    expect_near("W", 1, (double)W[1], 0.2594964603, 1e-7);
    expect_near("W", 2, (double)W[2], 0.0351190270, 1e-8);
}
END_TEST

START_TEST(hand_computed_rows)
{
    /* [0, 0]      -> [1/2, 1/2]
       [ln 3, 0]   -> [3/4, 1/4]          (exp(ln 3) = 3, 3 / (3 + 1))
       [0, ln 2, ln 5] -> [1/8, 2/8, 5/8] (1 + 2 + 5 = 8)
       [7]         -> [1]                 (a row of one key) */
    float S[] = {0, 0, logf(3), 0, 0, logf(2), logf(5), 7};
    float W[8];
    attn_softmax(W, S, 1, 2);
    attn_softmax(W + 2, S + 2, 1, 2);
    attn_softmax(W + 4, S + 4, 1, 3);
    attn_softmax(W + 7, S + 7, 1, 1);
    const double want[8] = {0.5, 0.5, 0.75, 0.25, 0.125, 0.25, 0.625, 1.0};
    for (int j = 0; j < 8; j++) expect_near("W", j, (double)W[j], want[j], 1e-7);
}
END_TEST

START_TEST(rows_sum_to_one)
{
    /* 1000 random rows of 1..300 keys, scores up to +-50, some masked. */
    sup_rng rng;
    sup_rng_seed(&rng, 11);
    float S[300], W[300];
    for (int r = 0; r < 1000; r++) {
        int n = 1 + (int)(sup_rng_uniform(&rng) * 300.0f);
        sup_rng_fill_uniform(&rng, S, n, -50.0f, 50.0f);
        for (int j = 1; j < n; j++)
            if (sup_rng_uniform(&rng) < 0.2f) S[j] = -INFINITY;
        attn_softmax(W, S, 1, n);
        expect_near("row sum", r, row_sum(W, n), 1.0, 1e-6);
    }
}
END_TEST

START_TEST(masked_weights_exactly_zero)
{
    /* Causal mask on a 5x5 block: every masked weight is exactly 0.0f and every
       unmasked one (finite score) is > 0, however negative its score. */
    enum { T = 5 };
    float S[T * T];
    for (int n = 0; n < T * T; n++) S[n] = (float)(n % 7) - 3.0f;   /* -3..3 */
    S[T * 4 + 0] = -80.0f;                 /* very negative, still finite */
    attn_causal_mask(S, 1, T, T);
    attn_softmax(S, S, T, T);
    for (int i = 0; i < T; i++)
        for (int j = 0; j < T; j++) {
            float w = S[i * T + j];
            if (j > i) expect(w == 0.0f, "masked W[%d][%d] = %g, expected exactly 0", i, j, (double)w);
            else expect(w > 0.0f, "W[%d][%d] = %g, expected > 0 (finite score)", i, j, (double)w);
        }
}
END_TEST

START_TEST(shift_invariance)
{
    /* softmax(s + c) = softmax(s): the factor exp(c) cancels. Scores are
       multiples of 1/8 and c = 1024, so s + c is exact in float. */
    float S[16], Sc[16], W[16], Wc[16];
    for (int j = 0; j < 16; j++) {
        S[j] = (float)((j * 37) % 23 - 11) / 8.0f;
        Sc[j] = S[j] + 1024.0f;
    }
    attn_softmax(W, S, 2, 8);
    attn_softmax(Wc, Sc, 2, 8);
    for (int j = 0; j < 16; j++) expect_near("W(s + 1024)", j, (double)Wc[j], (double)W[j], 1e-7 * (double)W[j]);
}
END_TEST

START_TEST(in_place_equals_out_of_place)
{
    float S[12], W[12];
    for (int j = 0; j < 12; j++) S[j] = (float)j * 0.3f - 2.0f;
    S[5] = -INFINITY;
    attn_softmax(W, S, 3, 4);
    attn_softmax(S, S, 3, 4);
    for (int j = 0; j < 12; j++) expect_near("W", j, (double)S[j], (double)W[j], 0.0);
}
END_TEST

START_TEST(fully_masked_rows_zero_and_counted)
{
    /* Rows 0 and 2 of 3 are fully masked: all-zero weights (never NaN), and the
       return value counts them. Row 1 is normal: [ln 3, 0] -> [0.75, 0.25]. */
    float S[6] = {-INFINITY, -INFINITY, logf(3), 0, -INFINITY, -INFINITY}, W[6];
    ck_assert_int_eq(attn_softmax(W, S, 3, 2), 2);
    const double want[6] = {0, 0, 0.75, 0.25, 0, 0};
    for (int j = 0; j < 6; j++) expect_near("W", j, (double)W[j], want[j], 1e-7);
}
END_TEST

START_TEST(nan_propagates_to_its_row)
{
    /* Rows [1, NaN], [0, 0], [NaN, 2]: rows 0 and 2 become NaN, row 1 is
       [1/2, 1/2]. A NaN next to -inf ([-inf, NaN]) is NaN too, not a fully
       masked row, and is not counted. */
    float S[6] = {1, NAN, 0, 0, NAN, 2}, W[6];
    float S2[2] = {-INFINITY, NAN}, W2[2];
    ck_assert_int_eq(attn_softmax(W, S, 3, 2), 0);
    ck_assert(isnan(W[0]) && isnan(W[1]));
    expect_near("W", 2, (double)W[2], 0.5, 0.0);
    expect_near("W", 3, (double)W[3], 0.5, 0.0);
    ck_assert(isnan(W[4]) && isnan(W[5]));
    ck_assert_int_eq(attn_softmax(W2, S2, 1, 2), 0);
    ck_assert(isnan(W2[0]) && isnan(W2[1]));
}
END_TEST

START_TEST(large_scores_do_not_overflow)
{
    /* exp(1e4) overflows even double; after subtracting the max it is exp(0).
       [1e4, 1e4 - ln 3] would give [3/4, 1/4], but 1e4 - ln 3 = 9998.9013877
       rounds to 9998.9013672 in float (spacing 2^-10 there), so the expected
       weights are 1 / (1 + e) and e / (1 + e) with e = exp(S[1] - 1e4). */
    float S[2] = {1e4f, 1e4f - logf(3.0f)}, W[2];
    attn_softmax(W, S, 1, 2);
    double e = exp((double)S[1] - 1e4);
    expect_near("W", 0, (double)W[0], 1.0 / (1.0 + e), 1e-7);
    expect_near("W", 1, (double)W[1], e / (1.0 + e), 1e-7);
}
END_TEST

START_TEST(accuracy_against_long_double)
{
    /* Policy: against a long double reference on 100000 random rows
       (n from 1 to 128, scores uniform in +-scale with scale from 0.1 to 1e4,
       so rows run from nearly uniform to one-hot, with some masked keys),
       every weight whose reference is a normal float (>= FLT_MIN) must be
       within a relative error of 1e-6; below FLT_MIN float has no relative
       precision left (subnormals, then 0), so those must be within FLT_MIN
       absolutely. The reference is computed another way than the library:
       w_j = exp(s_j - lse) with lse = max + log(sum_k exp(s_k - max)), all in
       long double. */
    static const int NS[] = {1, 2, 3, 5, 8, 16, 33, 64, 128};
    static const float SCALES[] = {0.1f, 1.0f, 10.0f, 100.0f, 1e3f, 1e4f};
    const long ROWS = 100000;
    sup_rng rng;
    sup_rng_seed(&rng, 2025);
    float S[128], W[128];
    double max_rel = 0.0, max_abs_small = 0.0;
    long checked = 0, small = 0;
    for (long r = 0; r < ROWS; r++) {
        int n = NS[r % 9];
        float scale = SCALES[(r / 9) % 6];
        sup_rng_fill_uniform(&rng, S, n, -scale, scale);
        if (r % 5 == 0 && n > 1) S[r % n] = -INFINITY;   /* a masked key */
        attn_softmax(W, S, 1, n);

        long double m = -HUGE_VALL;
        for (int j = 0; j < n; j++) if ((long double)S[j] > m) m = (long double)S[j];
        long double sum = 0.0L;
        for (int j = 0; j < n; j++) sum += expl((long double)S[j] - m);
        long double lse = m + logl(sum);
        for (int j = 0; j < n; j++) {
            double ref = (double)expl((long double)S[j] - lse);
            double got = (double)W[j];
            if (ref >= (double)FLT_MIN) {
                double rel = fabs(got - ref) / ref;
                if (rel > max_rel) max_rel = rel;
                expect(rel <= 1e-6, "row %ld (n %d, scale %g), W[%d] = %.9g, reference %.12g, relative error %.3g",
                              r, n, (double)scale, j, got, ref, rel);
                checked++;
            } else {
                double err = fabs(got - ref);
                if (err > max_abs_small) max_abs_small = err;
                expect(err <= (double)FLT_MIN, "row %ld, W[%d] = %.9g, reference %.9g below FLT_MIN",
                              r, j, got, ref);
                small++;
            }
        }
    }
    printf("softmax vs long double: max relative error %.3g over %ld normal weights; "
           "max absolute error %.3g over %ld weights below FLT_MIN\n",
           max_rel, checked, max_abs_small, small);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Log-sum-exp                                                          */
/* ------------------------------------------------------------------ */

START_TEST(logsumexp_hand_computed)
{
    /* [0, ln 3]     -> ln(1 + 3) = ln 4 = 1.386294361
       [1000, 1000]  -> 1000 + ln 2 = 1000.693147 (exp(1000) would overflow)
       [-inf, 0]     -> ln(0 + 1) = 0
       [-inf, -inf]  -> -inf (fully masked) */
    float a[2] = {0, logf(3)}, b[2] = {1000, 1000}, c[2] = {-INFINITY, 0};
    float m[2] = {-INFINITY, -INFINITY};
    expect_near("lse [0, ln 3]", 0, (double)attn_logsumexp(a, 2), 1.3862943611, 1e-6);
    expect_near("lse [1000, 1000]", 0, (double)attn_logsumexp(b, 2), 1000.6931472, 1e-4);
    expect_near("lse [-inf, 0]", 0, (double)attn_logsumexp(c, 2), 0.0, 0.0);
    float lm = attn_logsumexp(m, 2);
    expect(isinf(lm) && lm < 0.0f, "lse of a fully masked row = %g, expected -inf", (double)lm);
}
END_TEST

START_TEST(logsumexp_rows_give_log_weights)
{
    /* log w_j = s_j - lse: softmax and log-sum-exp agree row by row. */
    float S[3 * 5], W[3 * 5], lse[3];
    sup_rng rng;
    sup_rng_seed(&rng, 4);
    sup_rng_fill_uniform(&rng, S, 15, -5.0f, 5.0f);
    attn_softmax(W, S, 3, 5);
    attn_logsumexp_rows(lse, S, 3, 5);
    for (int r = 0; r < 3; r++)
        for (int j = 0; j < 5; j++) {
            double w = exp((double)S[r * 5 + j] - (double)lse[r]);
            expect_near("exp(s - lse)", r * 5 + j, w, (double)W[r * 5 + j], 1e-6 * w);
        }
}
END_TEST

/* ------------------------------------------------------------------ */
/* Entropy                                                              */
/* ------------------------------------------------------------------ */

START_TEST(entropy_uniform_is_log_n)
{
    /* w_j = 1/n: H = -n (1/n) ln(1/n) = ln n. n = 1, 4, 1000. */
    static float W[1000];
    static const int NS[] = {1, 4, 1000};
    for (int k = 0; k < 3; k++) {
        int n = NS[k];
        for (int j = 0; j < n; j++) W[j] = 1.0f / (float)n;
        float H;
        attn_entropy_rows(&H, W, 1, n);
        expect_near("H(uniform)", n, (double)H, log((double)n), 1e-6);
    }
}
END_TEST

START_TEST(entropy_hand_computed)
{
    /* one-hot [0, 1, 0]          -> 0 (0 log 0 = 0, 1 log 1 = 0)
       [0.5, 0.5, 0, 0]           -> ln 2 = 0.693147181
       worked row [0.705385, 0.259496, 0.035119, 0], -w ln w per key:
         0.705385 * 0.349012 + 0.259496 * 1.349012 + 0.035119 * 3.349012 + 0
         = 0.246188 + 0.350064 + 0.117614 = 0.713866 */
    float W[11] = {0, 1, 0, 0.5f, 0.5f, 0, 0, 0.7053845127f, 0.2594964603f, 0.0351190270f, 0};
    float H[3];
    attn_entropy_rows(H, W, 1, 3);
    attn_entropy_rows(H + 1, W + 3, 1, 4);
    attn_entropy_rows(H + 2, W + 7, 1, 4);
    expect_near("H(one-hot)", 0, (double)H[0], 0.0, 0.0);
    expect_near("H([1/2, 1/2, 0, 0])", 0, (double)H[1], 0.6931471806, 1e-7);
    expect_near("H(worked row)", 0, (double)H[2], 0.7138657580, 1e-6);
}
END_TEST

START_TEST(entropy_nan_propagates)
{
    float W[2] = {NAN, 0.5f}, H;
    attn_entropy_rows(&H, W, 1, 2);
    ck_assert(isnan(H));
}
END_TEST

/* ------------------------------------------------------------------ */
/* Softmax backward                                                     */
/* ------------------------------------------------------------------ */

START_TEST(backward_hand_computed)
{
    /* w = [1/2, 1/2], g = [1, 0]: <w, g> = 1/2;
       ds = [1/2 (1 - 1/2), 1/2 (0 - 1/2)] = [0.25, -0.25].
       w = [0.75, 0.25, 0], g = [2, -2, 5]: <w, g> = 1.5 - 0.5 + 0 = 1;
       ds = [0.75 * 1, 0.25 * -3, 0 * 4] = [0.75, -0.75, 0]: a masked key
       (w = 0) gets no gradient. */
    float W[5] = {0.5f, 0.5f, 0.75f, 0.25f, 0}, G[5] = {1, 0, 2, -2, 5}, dS[5];
    attn_softmax_backward(dS, W, G, 1, 2);
    attn_softmax_backward(dS + 2, W + 2, G + 2, 1, 3);
    const double want[5] = {0.25, -0.25, 0.75, -0.75, 0};
    for (int j = 0; j < 5; j++) expect_near("dS", j, (double)dS[j], want[j], 0.0);
}
END_TEST

/* f(s) = sum_j g_j softmax(s)_j, in double, for the finite-difference check. */
static double loss_of_scores(const double *s, const float *g, int n)
{
    double m = s[0], sum = 0.0, f = 0.0;
    for (int j = 1; j < n; j++) if (s[j] > m) m = s[j];
    for (int j = 0; j < n; j++) sum += exp(s[j] - m);
    for (int j = 0; j < n; j++) f += (double)g[j] * exp(s[j] - m) / sum;
    return f;
}

START_TEST(backward_matches_finite_differences)
{
    /* dL/ds_k by central differences in double, (f(s + h e_k) - f(s - h e_k)) / 2h
       with h = 1e-5 (truncation ~h^2, rounding ~1e-16/h: both near 1e-10),
       against attn_softmax_backward on float weights (relative error ~1e-7). */
    static const int NS[] = {2, 5, 16, 64};
    sup_rng rng;
    sup_rng_seed(&rng, 8);
    for (int k = 0; k < 4; k++) {
        int n = NS[k];
        float S[64], W[64], G[64], dS[64];
        double s[64];
        sup_rng_fill_uniform(&rng, S, n, -3.0f, 3.0f);
        sup_rng_fill_normal(&rng, G, n);
        attn_softmax(W, S, 1, n);
        attn_softmax_backward(dS, W, G, 1, n);
        for (int j = 0; j < n; j++) s[j] = (double)S[j];
        const double h = 1e-5;
        for (int j = 0; j < n; j++) {
            s[j] += h;
            double fp = loss_of_scores(s, G, n);
            s[j] -= 2 * h;
            double fm = loss_of_scores(s, G, n);
            s[j] += h;
            double fd = (fp - fm) / (2 * h);
            expect_near("dS vs finite difference", j, (double)dS[j], fd, 1e-6 + 1e-5 * fabs(fd));
        }
    }
}
END_TEST

START_TEST(backward_bound_and_zero_sum)
{
    /* |ds_j| <= 2 (1 - max w) max|g|, so a saturated row passes almost no
       gradient; and sum_j ds_j = <w, g> - <w, g> sum_j w_j = 0 (softmax ignores a
       constant shift, so its gradient has no component along one). Rows go from
       flat (scale 1) to one-hot (scale 100). The slack 2.4e-7 max|g| covers the
       rounding of the float weights, whose sum is 1 only to about 1e-7. */
    static const float SCALES[] = {1.0f, 5.0f, 20.0f, 100.0f};
    sup_rng rng;
    sup_rng_seed(&rng, 9);
    for (int k = 0; k < 4; k++)
        for (int rep = 0; rep < 50; rep++) {
            enum { N = 32 };
            float S[N], W[N], G[N], dS[N];
            sup_rng_fill_normal(&rng, S, N);
            for (int j = 0; j < N; j++) S[j] *= SCALES[k];
            sup_rng_fill_normal(&rng, G, N);
            attn_softmax(W, S, 1, N);
            attn_softmax_backward(dS, W, G, 1, N);
            double wmax = 0.0, gmax = 0.0, dsum = 0.0;
            for (int j = 0; j < N; j++) {
                if ((double)W[j] > wmax) wmax = (double)W[j];
                if (fabs((double)G[j]) > gmax) gmax = fabs((double)G[j]);
                dsum += (double)dS[j];
            }
            double bound = 2.0 * (1.0 - wmax) * gmax + 2.4e-7 * gmax;
            for (int j = 0; j < N; j++)
                expect(fabs((double)dS[j]) <= bound,
                              "scale %g: |dS[%d]| = %.3g > 2 (1 - max w) max|g| = %.3g",
                              (double)SCALES[k], j, fabs((double)dS[j]), bound);
            expect_near("sum of dS", rep, dsum, 0.0, 1e-6 * gmax);
        }
}
END_TEST

START_TEST(backward_in_place)
{
    /* dS may be the same memory as dW. */
    float W[6] = {0.2f, 0.3f, 0.5f, 1, 0, 0}, G[6] = {1, -2, 3, 4, 5, 6}, dS[6];
    attn_softmax_backward(dS, W, G, 2, 3);
    attn_softmax_backward(G, W, G, 2, 3);
    for (int j = 0; j < 6; j++) expect_near("dS", j, (double)G[j], (double)dS[j], 0.0);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("attn_softmax");
    TCase *sm = tcase_create("softmax");
    tcase_set_timeout(sm, 60);
    tcase_add_test(sm, worked_row);
    tcase_add_test(sm, hand_computed_rows);
    tcase_add_test(sm, rows_sum_to_one);
    tcase_add_test(sm, masked_weights_exactly_zero);
    tcase_add_test(sm, shift_invariance);
    tcase_add_test(sm, in_place_equals_out_of_place);
    tcase_add_test(sm, fully_masked_rows_zero_and_counted);
    tcase_add_test(sm, nan_propagates_to_its_row);
    tcase_add_test(sm, large_scores_do_not_overflow);
    tcase_add_test(sm, accuracy_against_long_double);
    suite_add_tcase(s, sm);

    TCase *lse = tcase_create("log-sum-exp and entropy");
    tcase_add_test(lse, logsumexp_hand_computed);
    tcase_add_test(lse, logsumexp_rows_give_log_weights);
    tcase_add_test(lse, entropy_uniform_is_log_n);
    tcase_add_test(lse, entropy_hand_computed);
    tcase_add_test(lse, entropy_nan_propagates);
    suite_add_tcase(s, lse);

    TCase *bw = tcase_create("softmax backward");
    tcase_add_test(bw, backward_hand_computed);
    tcase_add_test(bw, backward_matches_finite_differences);
    tcase_add_test(bw, backward_bound_and_zero_sum);
    tcase_add_test(bw, backward_in_place);
    suite_add_tcase(s, bw);
    return s;
}
