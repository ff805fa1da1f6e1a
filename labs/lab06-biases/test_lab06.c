/* test_lab06.c: the visible tests of lab 6. Run them with
 *     make -C labs/lab06-biases test
 * Each test states where its expected numbers come from, so you can add your own
 * cases the same way (copy a START_TEST block and register it at the bottom).
 * The checks (EXPECT_OK, EXPECT_STATUS, EXPECT_CLOSE, lc_poison, ...) are the
 * same in every lab; labs/labcheck.h describes each one.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "lab06.h"
#include "labcheck.h"

/* ---- lab_alibi_slopes ---------------------------------------------------------- */

START_TEST(test_slopes_power_of_two)
{
    /* H = 8: 2^(-8 (h + 1) / 8) = 2^-(h + 1) = 1/2, 1/4, ..., 1/256.
       H = 4: 2^(-2 (h + 1)) = 1/4, 1/16, 1/64, 1/256. */
    float s8[8], s4[4];
    lc_poison(s8, 8);
    EXPECT_OK("lab_alibi_slopes", lab_alibi_slopes(s8, 8));
    const float want8[8] = { 0.5f, 0.25f, 0.125f, 0.0625f,
                             0.03125f, 0.015625f, 0.0078125f, 0.00390625f };
    EXPECT_CLOSE("slopes (H = 8)", want8, s8, 8, 1e-7f);
    EXPECT_OK("lab_alibi_slopes", lab_alibi_slopes(s4, 4));
    const float want4[4] = { 0.25f, 0.0625f, 0.015625f, 0.00390625f };
    EXPECT_CLOSE("slopes (H = 4)", want4, s4, 4, 1e-7f);
}
END_TEST

START_TEST(test_slopes_interleaved)
{
    /* H = 6 is not a power of two: P = 4.
         the 4 slopes of 4 heads:         1/4, 1/16, 1/64, 1/256
         slopes of 8 heads at 0 and 2:    2^-1 = 1/2, 2^-3 = 1/8
       H = 3: P = 2: 2^-4, 2^-8, then the slope of 4 heads at 0: 2^-2. */
    float s6[6], s3[3];
    lc_poison(s6, 6);
    EXPECT_OK("lab_alibi_slopes", lab_alibi_slopes(s6, 6));
    const float want6[6] = { 0.25f, 0.0625f, 0.015625f, 0.00390625f, 0.5f, 0.125f };
    EXPECT_CLOSE("slopes (H = 6)", want6, s6, 6, 1e-7f);
    EXPECT_OK("lab_alibi_slopes", lab_alibi_slopes(s3, 3));
    const float want3[3] = { 0.0625f, 0.00390625f, 0.25f };
    EXPECT_CLOSE("slopes (H = 3)", want3, s3, 3, 1e-7f);
    EXPECT_STATUS("lab_alibi_slopes (H = 0)", LAB_BAD_ARG, lab_alibi_slopes(s3, 0));
}
END_TEST

/* ---- lab_alibi_bias ------------------------------------------------------------- */

START_TEST(test_alibi_bias_heads_fastest)
{
    /* H = 2 heads, slopes 1/16 and 1/256; B = 4 = 2 sequences x 2 heads, so
       entries b = 0, 2 use head 0 and b = 1, 3 use head 1 (h = b % H).
       Scores start at 1; Tq = Tk = 3, bias m * (j - i):
         head 0: row 0 [0, 1, 2]/16, row 1 [-1, 0, 1]/16, row 2 [-2, -1, 0]/16
       A -inf score (a masked key) stays -inf. */
    enum { B = 4, T = 3 };
    float S[B * T * T];
    for (int k = 0; k < B * T * T; k++) S[k] = 1.0f;
    S[2 * T * T + 0 * T + 2] = -INFINITY;  /* b = 2, i = 0, j = 2 */
    EXPECT_OK("lab_alibi_bias", lab_alibi_bias(S, B, 2, T, T));
    float want[B * T * T];
    const float m[2] = { 1.0f / 16, 1.0f / 256 };
    for (int b = 0; b < B; b++)
        for (int i = 0; i < T; i++)
            for (int j = 0; j < T; j++)
                want[(b * T + i) * T + j] = 1.0f + m[b % 2] * (float)(j - i);
    want[2 * T * T + 0 * T + 2] = -INFINITY;
    EXPECT_CLOSE_WITH("S", want, S, B * T * T, 1e-6f, LC_ABS | LC_INF);
}
END_TEST

START_TEST(test_alibi_bias_rectangular_and_bad_args)
{
    /* Tq = 1 query, Tk = 4 keys, H = 1 (slope 1/256): the query is at position 0,
       so the bias is (j - 0)/256 = [0, 1, 2, 3]/256.
       B = 3 with H = 2 is not batch * heads: LAB_BAD_ARG and S untouched. */
    float S[4] = { 0, 0, 0, 0 };
    EXPECT_OK("lab_alibi_bias", lab_alibi_bias(S, 1, 1, 1, 4));
    const float want[4] = { 0.0f, 1.0f / 256, 2.0f / 256, 3.0f / 256 };
    EXPECT_CLOSE("S", want, S, 4, 1e-7f);
    float S3[3 * 1 * 4];
    lc_poison(S3, 12);
    EXPECT_STATUS("lab_alibi_bias (B = 3 is not a multiple of H = 2)", LAB_BAD_ARG,
                  lab_alibi_bias(S3, 3, 2, 1, 4));
    ck_assert_msg(S3[0] == LC_POISON, "lab_alibi_bias changed S although it returned LAB_BAD_ARG");
}
END_TEST

/* ---- lab_t5_bucket --------------------------------------------------------------- */

START_TEST(test_t5_bucket_bidirectional)
{
    /* T5's encoder setting: bidirectional, 32 buckets, max_distance 128.
       nb = 16 per side, max_exact = 8; keys ahead (rel > 0) add 16.
         rel   0, -3, -7: n < 8, bucket n                   -> 0, 3, 7
         rel  +3:         16 + 3                            -> 19
         rel  -8:         8 + (int)(log(8/8)/log(16) * 8)   = 8 + 0        -> 8
         rel -20:         8 + (int)(log(2.5)/log(16) * 8)   = 8 + (int)2.64 -> 10
         rel -127:        8 + (int)(log(15.875)/log(16)*8) = 8 + (int)7.98 -> 15
         rel -1000:       8 + (int)(log(125)/log(16)*8) = 8 + 13, clamped to 15
         rel +1000:       16 + 15                           -> 31 */
    const int rel[10] = { 0, -3, -7, 3, -8, -20, -127, -1000, 1000, 8 };
    const int want[10] = { 0, 3, 7, 19, 8, 10, 15, 15, 31, 24 };
    int got[10];
    memset(got, 0x5a, sizeof got);
    EXPECT_OK("lab_t5_bucket", lab_t5_bucket(got, rel, 10, 1, 32, 128));
    for (int k = 0; k < 10; k++)
        ck_assert_msg(got[k] == want[k], "bucket of rel %d (bidirectional, 32, 128): "
                      "expected %d, got %d", rel[k], want[k], got[k]);
}
END_TEST

START_TEST(test_t5_bucket_causal)
{
    /* T5's decoder setting: unidirectional, 32 buckets, max_distance 128.
       nb = 32, max_exact = 16; keys ahead (rel > 0) all go to bucket 0.
         rel +5, 0:  n = 0                                  -> 0, 0
         rel -5, -15:                                       -> 5, 15
         rel -16:    16 + (int)(log(1)/log(8) * 16)         -> 16
         rel -40:    16 + (int)(log(2.5)/log(8) * 16) = 16 + (int)7.05 -> 23
         rel -200:   16 + (int)(log(12.5)/log(8)*16) = 16 + 19, clamped -> 31 */
    const int rel[7] = { 5, 0, -5, -15, -16, -40, -200 };
    const int want[7] = { 0, 0, 5, 15, 16, 23, 31 };
    int got[7];
    memset(got, 0x5a, sizeof got);
    EXPECT_OK("lab_t5_bucket", lab_t5_bucket(got, rel, 7, 0, 32, 128));
    for (int k = 0; k < 7; k++)
        ck_assert_msg(got[k] == want[k], "bucket of rel %d (unidirectional, 32, 128): "
                      "expected %d, got %d", rel[k], want[k], got[k]);
}
END_TEST

START_TEST(test_t5_bucket_boundary)
{
    /* Where the logarithmic expression is a whole number, rounding decides the
       bucket. Unidirectional, 9 buckets, max_distance 128: nb = 9, max_exact = 4.
         rel -16: 4 + (int)(log(16/4) / log(128/4) * 5) = 4 + (int)(2/5 * 5) = 4 + 2 = 6
       The contract's float32 evaluation gives exactly 2.0 here, so bucket 6; the
       same formula in double gives 1.9999999999999998 and truncates to bucket 5.
       (README.md, section 4.) */
    const int rel[2] = { -16, -8 };
    int got[2];
    memset(got, 0x5a, sizeof got);
    EXPECT_OK("lab_t5_bucket", lab_t5_bucket(got, rel, 2, 0, 9, 128));
    ck_assert_msg(got[0] == 6, "bucket of rel -16 (unidirectional, 9, 128): expected 6, got %d%s",
                  got[0], got[0] == 5 ? " (evaluate the logarithm in float32, as the contract writes it)" : "");
    /* rel -8: 4 + (int)(log(2) / log(32) * 5) = 4 + (int)(1/5 * 5) = 5 */
    ck_assert_msg(got[1] == 5, "bucket of rel -8 (unidirectional, 9, 128): expected 5, got %d",
                  got[1]);
}
END_TEST

START_TEST(test_t5_bucket_bad_args)
{
    /* bidirectional with 2 buckets leaves nb = 1 per side: no exact bucket.
       max_distance 8 <= max_exact 8 leaves no logarithmic range. */
    const int rel[1] = { -3 };
    int got[1] = { 77 };
    EXPECT_STATUS("lab_t5_bucket (bidirectional, num_buckets = 2)", LAB_BAD_ARG,
                  lab_t5_bucket(got, rel, 1, 1, 2, 128));
    EXPECT_STATUS("lab_t5_bucket (max_distance = 8 <= max_exact = 8)", LAB_BAD_ARG,
                  lab_t5_bucket(got, rel, 1, 1, 32, 8));
    EXPECT_STATUS("lab_t5_bucket (n = -1)", LAB_BAD_ARG,
                  lab_t5_bucket(got, rel, -1, 1, 32, 128));
    ck_assert_msg(got[0] == 77, "lab_t5_bucket wrote bucket although it returned LAB_BAD_ARG");
}
END_TEST

/* ---- lab_relpos_bias --------------------------------------------------------------- */

START_TEST(test_relpos_bias_small)
{
    /* bidirectional, 8 buckets, max_distance 4: nb = 4, max_exact = 2.
       Tq = 2, Tk = 3, so rel = j - i is
         row 0: 0, 1, 2  -> buckets 0, 4 + 1 = 5, 4 + (2 + (int)(log(1)/log(2)*2)) = 6
         row 1: -1, 0, 1 -> buckets 1, 0, 5
       table[h][k] = 10 h + k, H = 2, B = 2 (b = 1 is head 1). Scores start at 0.5:
         b = 0: [0.5, 5.5, 6.5], [1.5, 0.5, 5.5]
         b = 1: every entry + 10 */
    enum { B = 2, Tq = 2, Tk = 3, NB = 8 };
    float table[2 * NB];
    for (int h = 0; h < 2; h++)
        for (int k = 0; k < NB; k++) table[h * NB + k] = (float)(10 * h + k);
    float S[B * Tq * Tk];
    for (int k = 0; k < B * Tq * Tk; k++) S[k] = 0.5f;
    EXPECT_OK("lab_relpos_bias", lab_relpos_bias(S, table, B, 2, Tq, Tk, 1, NB, 4));
    const float want[B * Tq * Tk] = { 0.5f, 5.5f, 6.5f,  1.5f, 0.5f, 5.5f,
                                      10.5f, 15.5f, 16.5f,  11.5f, 10.5f, 15.5f };
    EXPECT_CLOSE("S", want, S, B * Tq * Tk, 1e-6f);
}
END_TEST

START_TEST(test_relpos_bias_matches_buckets)
{
    /* Property: for any i, j, the added bias is table[h][bucket(j - i)] with the
       buckets of lab_t5_bucket. T5 decoder setting, H = 3, T = 40. */
    enum { H = 3, T = 40, NB = 32 };
    float table[H * NB];
    sup_rng r;
    sup_rng_seed(&r, 11);
    sup_rng_fill_normal(&r, table, H * NB);
    float *S = calloc((size_t)H * T * T, sizeof(float));
    float *want = calloc((size_t)H * T * T, sizeof(float));
    int rel[2 * T - 1], bucket[2 * T - 1];
    for (int k = 0; k < 2 * T - 1; k++) rel[k] = k - (T - 1);  /* -39 .. 39 */
    EXPECT_OK("lab_t5_bucket", lab_t5_bucket(bucket, rel, 2 * T - 1, 0, NB, 128));
    EXPECT_OK("lab_relpos_bias", lab_relpos_bias(S, table, H, H, T, T, 0, NB, 128));
    for (int h = 0; h < H; h++)
        for (int i = 0; i < T; i++)
            for (int j = 0; j < T; j++)
                want[(h * T + i) * T + j] = table[h * NB + bucket[j - i + T - 1]];
    EXPECT_CLOSE("S", want, S, (long)H * T * T, 1e-6f);
    free(S);
    free(want);
}
END_TEST

/* ---- lab_dropout ------------------------------------------------------------------ */

START_TEST(test_dropout_follows_the_draws)
{
    /* p = 0.5, seed 5. W is 0.25 except every 4th weight, which is 0 (a masked
       key). Element k is dropped (0) when its uniform u_k < 0.5, else it becomes
       0.25 / (1 - 0.5) = 0.5; a zero weight stays 0 either way but still uses
       its uniform, so the elements after it see the same draws as in the answer
       key. The test redraws the uniforms to know which are dropped. */
    enum { N = 16 };
    float W[N], want[N];
    sup_rng r;
    sup_rng_seed(&r, 5);
    for (int k = 0; k < N; k++) {
        W[k] = (k % 4 == 3) ? 0.0f : 0.25f;
        float u = sup_rng_uniform(&r);
        want[k] = (u < 0.5f || W[k] == 0.0f) ? 0.0f : 0.5f;
    }
    EXPECT_OK("lab_dropout", lab_dropout(W, 0.5f, 5, N));
    EXPECT_CLOSE("W", want, W, N, 1e-7f);
}
END_TEST

START_TEST(test_dropout_keeps_the_expectation)
{
    /* Inverted dropout: E[W'] = p * 0 + (1 - p) * W / (1 - p) = W. With p = 0.3
       over 100000 weights equal to 1, about 30% are 0, the rest 1/0.7 = 1.428571,
       and the mean stays near 1 (its standard deviation is
       sqrt((1/0.7 - 1) / 100000) = 0.002, so 0.01 is five of them). */
    enum { N = 100000 };
    float *W = malloc(N * sizeof(float));
    for (int k = 0; k < N; k++) W[k] = 1.0f;
    EXPECT_OK("lab_dropout", lab_dropout(W, 0.3f, 123, N));
    double mean = 0.0;
    long zeros = 0;
    for (int k = 0; k < N; k++) {
        mean += (double)W[k];
        if (W[k] == 0.0f) zeros++;
        else ck_assert_msg(fabsf(W[k] - 1.0f / 0.7f) < 1e-6f,
                           "W[%d] = %g: a kept weight must be W / (1 - p) = 1.428571",
                           k, (double)W[k]);
    }
    mean /= N;
    ck_assert_msg(fabs(mean - 1.0) < 0.01, "mean weight after dropout %.4f: inverted "
                  "scaling must keep it near 1 (did you forget the 1/(1-p)?)", mean);
    ck_assert_msg(labs(zeros - 30000) < 1000, "%ld of %d weights dropped; with p = 0.3 "
                  "about 30000 should be", zeros, N);
    free(W);
}
END_TEST

START_TEST(test_dropout_p_zero_and_bad_p)
{
    /* p = 0 is evaluation mode: nothing changes. p outside [0, 1) is an error and
       W stays as it was. */
    float W[4] = { 0.1f, 0.2f, 0.3f, 0.4f };
    const float same[4] = { 0.1f, 0.2f, 0.3f, 0.4f };
    EXPECT_OK("lab_dropout", lab_dropout(W, 0.0f, 9, 4));
    EXPECT_CLOSE("W after p = 0", same, W, 4, 0.0f);
    EXPECT_STATUS("lab_dropout (p = 1)", LAB_BAD_ARG, lab_dropout(W, 1.0f, 9, 4));
    EXPECT_STATUS("lab_dropout (p = -0.1)", LAB_BAD_ARG, lab_dropout(W, -0.1f, 9, 4));
    EXPECT_STATUS("lab_dropout (p = NaN)", LAB_BAD_ARG, lab_dropout(W, NAN, 9, 4));
    EXPECT_CLOSE("W after a rejected p", same, W, 4, 0.0f);
}
END_TEST

/* ---- lab_attention_output ------------------------------------------------------------ */

START_TEST(test_output_worked_row)
{
    /* The worked row's weights [0.7054, 0.2595, 0.0351, 0] mix 4 value rows:
         O = 0.7054 (1, 0) + 0.2595 (0, 1) + 0.0351 (1, 1) + 0 (100, 100)
           = (0.7054 + 0.0351, 0.2595 + 0.0351) = (0.7405, 0.2946)
       The padded key's value (100, 100) has no effect: its weight is 0. */
    const float W[4] = { 0.7054f, 0.2595f, 0.0351f, 0.0f };
    const float V[4 * 2] = { 1, 0,  0, 1,  1, 1,  100, 100 };
    float O[2];
    lc_poison(O, 2);
    EXPECT_OK("lab_attention_output", lab_attention_output(O, W, V, 1, 1, 4, 2));
    const float want[2] = { 0.7405f, 0.2946f };
    EXPECT_CLOSE("O", want, O, 2, 1e-5f);
}
END_TEST

START_TEST(test_output_batches)
{
    /* B = 2, Tq = 2, Tk = 2, dv = 1; each batch entry has its own values.
       b = 0: V = [4, 8]:  rows [0.75, 0.25] -> 5,  [0, 1] -> 8
       b = 1: V = [-2, 2]: rows [0.5, 0.5] -> 0,    [2, 0] -> -4 (after dropout a
       weight can exceed 1, and the output leaves V's range) */
    const float W[8] = { 0.75f, 0.25f, 0, 1,   0.5f, 0.5f, 2, 0 };
    const float V[4] = { 4, 8,  -2, 2 };
    float O[4];
    lc_poison(O, 4);
    EXPECT_OK("lab_attention_output", lab_attention_output(O, W, V, 2, 2, 2, 1));
    const float want[4] = { 5, 8, 0, -4 };
    EXPECT_CLOSE("O", want, O, 4, 1e-6f);
}
END_TEST

START_TEST(test_output_convex_combination)
{
    /* Property: with softmax weights (positive, rows summing to 1) each output
       component lies between the smallest and largest value in its column. */
    enum { Tq = 5, Tk = 7, dv = 3 };
    float W[Tq * Tk], V[Tk * dv], O[Tq * dv];
    sup_rng r;
    sup_rng_seed(&r, 3);
    sup_rng_fill_normal(&r, V, Tk * dv);
    for (int i = 0; i < Tq; i++) {
        float sum = 0.0f;
        for (int j = 0; j < Tk; j++) sum += W[i * Tk + j] = 0.05f + sup_rng_uniform(&r);
        for (int j = 0; j < Tk; j++) W[i * Tk + j] /= sum;
    }
    EXPECT_OK("lab_attention_output", lab_attention_output(O, W, V, 1, Tq, Tk, dv));
    for (int c = 0; c < dv; c++) {
        float lo = V[c], hi = V[c];
        for (int j = 1; j < Tk; j++) {
            lo = fminf(lo, V[j * dv + c]);
            hi = fmaxf(hi, V[j * dv + c]);
        }
        for (int i = 0; i < Tq; i++)
            ck_assert_msg(O[i * dv + c] >= lo - 1e-6f && O[i * dv + c] <= hi + 1e-6f,
                          "O[%d][%d] = %g is outside [%g, %g], the range of V's column %d: "
                          "a convex combination cannot leave it", i, c,
                          (double)O[i * dv + c], (double)lo, (double)hi, c);
    }
}
END_TEST

static Suite *lab06_suite(void)
{
    Suite *s = suite_create("lab06");
    TCase *alibi = tcase_create("alibi");
    tcase_add_test(alibi, test_slopes_power_of_two);
    tcase_add_test(alibi, test_slopes_interleaved);
    tcase_add_test(alibi, test_alibi_bias_heads_fastest);
    tcase_add_test(alibi, test_alibi_bias_rectangular_and_bad_args);
    suite_add_tcase(s, alibi);
    TCase *relpos = tcase_create("relpos");
    tcase_add_test(relpos, test_t5_bucket_bidirectional);
    tcase_add_test(relpos, test_t5_bucket_causal);
    tcase_add_test(relpos, test_t5_bucket_boundary);
    tcase_add_test(relpos, test_t5_bucket_bad_args);
    tcase_add_test(relpos, test_relpos_bias_small);
    tcase_add_test(relpos, test_relpos_bias_matches_buckets);
    suite_add_tcase(s, relpos);
    TCase *dropout = tcase_create("dropout");
    tcase_add_test(dropout, test_dropout_follows_the_draws);
    tcase_add_test(dropout, test_dropout_keeps_the_expectation);
    tcase_add_test(dropout, test_dropout_p_zero_and_bad_p);
    suite_add_tcase(s, dropout);
    TCase *output = tcase_create("output");
    tcase_add_test(output, test_output_worked_row);
    tcase_add_test(output, test_output_batches);
    tcase_add_test(output, test_output_convex_combination);
    suite_add_tcase(s, output);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(lab06_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
