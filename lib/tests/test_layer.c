/* test_layer.c: lab 12's answer key, the whole layer. Hand-computed values
 * (lab 12's worked examples: d_model 4, two heads of 2, identity projections,
 * W_O adding head 1 to head 0; e^(1/sqrt 2) = 2.028115, e^(4/sqrt 2) =
 * 16.918829, e^(2/sqrt 2) = 4.113250), then properties: one head with
 * identity projections is lab 1's scaled dot-product attention; permuting the
 * heads together with W_O's blocks changes nothing; a padded key's value
 * never reaches the output.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "attn.h"
#include "expect.h"
#include "labsup.h"

Suite *test_suite(void);

#define P0 0.6697615493f      /* 1 / (1 + e^(-1/sqrt 2)) */
#define R0 0.9441927808f      /* 1 / (1 + e^(-4/sqrt 2)) */
#define S0 0.8044296825f      /* 1 / (1 + e^(-2/sqrt 2)) */

static void expect_rows(const char *what, const float *got, const float *want, long n, double tol)
{
    for (long i = 0; i < n; i++)
        expect_near(what, i, got[i], want[i], tol);
}

/* The worked examples' W: W_Q = W_K = W_V = I, W_O = (C0 + C2, C1 + C3, C2, C3). */
static void worked_w(float *W)
{
    memset(W, 0, 64 * sizeof *W);
    for (int k = 0; k < 4; k++)
        for (int i = 0; i < 4; i++)
            W[k * 16 + i * 4 + i] = 1;
    W[48 + 2 * 4 + 0] = W[48 + 3 * 4 + 1] = 1;
}

START_TEST(split_and_merge_by_hand)
{
    /* one token of 6 features, 3 heads of 2: head h owns features 2h, 2h+1 */
    const float X[12] = {0, 1, 2, 3, 4, 5, 10, 11, 12, 13, 14, 15};
    float Xh[12], back[12];
    ck_assert_int_eq(attn_split_heads(Xh, X, 1, 2, 3, 2), 0);
    const float want[12] = {0, 1, 10, 11, 2, 3, 12, 13, 4, 5, 14, 15};
    expect_rows("Xh", Xh, want, 12, 0);
    ck_assert_int_eq(attn_merge_heads(back, Xh, 1, 2, 3, 2), 0);
    expect_rows("merged", back, X, 12, 0);
    ck_assert_int_eq(attn_split_heads(Xh, X, 1, 2, 0, 2), -1);
    ck_assert_int_eq(attn_split_heads(Xh, X, -1, 2, 3, 2), -1);
}
END_TEST

START_TEST(self_attention_by_hand)
{
    /* X = (1, 0, 0, 2), (0, 1, 2, 0): head 0 sees (1, 0), (0, 1), scores 1/sqrt 2 and 0;
       head 1 sees (0, 2), (2, 0), scores 4/sqrt 2 and 0 */
    const float X[8] = {1, 0, 0, 2, 0, 1, 2, 0};
    float W[64], O[8], A[8];
    worked_w(W);
    ck_assert_int_eq(attn_mha(O, A, X, X, W, NULL, 1, 2, 2, 4, 2, 0, 0), 0);
    const float Aw[8] = {P0, 1 - P0, 1 - P0, P0, R0, 1 - R0, 1 - R0, R0};
    expect_rows("A", A, Aw, 8, 1e-6);
    /* head 0's output row 0: (P0, 1 - P0); head 1's: (2 (1 - R0), 2 R0) */
    const float Ow[8] = {P0 + 2 * (1 - R0), 1 - P0 + 2 * R0, 2 * (1 - R0), 2 * R0,
                         1 - P0 + 2 * R0, P0 + 2 * (1 - R0), 2 * R0, 2 * (1 - R0)};
    expect_rows("O", O, Ow, 8, 1e-6);
    /* the heads' mean, as nn.MultiheadAttention returns by default */
    float M[4] = {0};
    ck_assert_int_eq(attn_mha(O, M, X, X, W, NULL, 1, 2, 2, 4, 2, 0, 1), 0);
    const float Mw[4] = {(P0 + R0) / 2, (2 - P0 - R0) / 2, (2 - P0 - R0) / 2, (P0 + R0) / 2};
    expect_rows("A (mean)", M, Mw, 4, 1e-6);
    /* causal: row 0 sees token 0 alone, so its output is token 0's value through W_O */
    ck_assert_int_eq(attn_mha(O, A, X, X, W, NULL, 1, 2, 2, 4, 2, 1, 0), 0);
    const float O0[4] = {1, 2, 0, 2};
    expect_rows("O causal row 0", O, O0, 4, 1e-6);
    expect_near("A causal", 1, A[1], 0, 0);
    /* refused: H not dividing d_model, causal 2, average 2 */
    ck_assert_int_eq(attn_mha(O, A, X, X, W, NULL, 1, 2, 2, 4, 3, 0, 0), -1);
    ck_assert_int_eq(attn_mha(O, A, X, X, W, NULL, 1, 2, 2, 4, 2, 2, 0), -1);
    ck_assert_int_eq(attn_mha(O, A, X, X, W, NULL, 1, 2, 2, 4, 2, 0, 2), -1);
}
END_TEST

START_TEST(cross_attention_by_hand)
{
    /* one decoder query (1, 0, 0, 1) against three source tokens, the third padding
       (its 5s must never show): head 0 scores 1/sqrt 2, 0; head 1 2/sqrt 2, 0 */
    const float Y[4] = {1, 0, 0, 1};
    const float S[12] = {1, 0, 0, 2, 0, 1, 2, 0, 5, 5, 5, 5};
    const unsigned char keep[3] = {1, 1, 0};
    float W[64], O[4], A[6];
    worked_w(W);
    ck_assert_int_eq(attn_mha(O, A, Y, S, W, keep, 1, 1, 3, 4, 2, 0, 0), 0);
    const float Aw[6] = {P0, 1 - P0, 0, S0, 1 - S0, 0};
    expect_rows("A", A, Aw, 6, 1e-6);
    const float Ow[4] = {P0 + 2 * (1 - S0), 1 - P0 + 2 * S0, 2 * (1 - S0), 2 * S0};
    expect_rows("O", O, Ow, 4, 1e-6);
    /* a source with no token kept: weights 0, output 0 */
    const unsigned char none[3] = {0, 0, 0};
    ck_assert_int_eq(attn_mha(O, A, Y, S, W, none, 1, 1, 3, 4, 2, 0, 0), 0);
    const float zero[6] = {0};
    expect_rows("A (no source)", A, zero, 6, 0);
    expect_rows("O (no source)", O, zero, 4, 0);
}
END_TEST

/* Inputs of n normal draws from seed. */
static float *draws(uint64_t seed, long n, double scale)
{
    sup_rng r;
    float *x = malloc((size_t)n * sizeof *x);
    sup_rng_seed(&r, seed);
    for (long i = 0; i < n; i++)
        x[i] = (float)(scale * sup_rng_normal(&r));
    return x;
}

START_TEST(one_head_identity_is_lab1_attention)
{
    /* H = 1, W all identities: O = softmax(X X^T / sqrt d) X, attn_forward's scaled dot */
    enum { B = 2, T = 5, D = 6 };
    float *X = draws(3, B * T * D, 1.0), W[4 * D * D] = {0}, O[B * T * D], R[B * T * D];
    for (int k = 0; k < 4; k++)
        for (int i = 0; i < D; i++)
            W[k * D * D + i * D + i] = 1;
    attn_config cfg = {.scaled = 1, .causal = 1};
    for (int causal = 0; causal < 2; causal++) {
        cfg.causal = causal;
        ck_assert_int_eq(attn_mha(O, NULL, X, X, W, NULL, B, T, T, D, 1, causal, 0), 0);
        ck_assert_int_eq(attn_forward(R, NULL, X, X, X, B, T, T, D, D, &cfg), 0);
        expect_rows("O vs attn_forward", O, R, B * T * D, 1e-5);
    }
    free(X);
}
END_TEST

START_TEST(heads_permuted_with_their_blocks)
{
    /* heads (0, 1, 2) -> (2, 0, 1): W_Q, W_K, W_V's column blocks and W_O's row
       blocks moved together give the same O, and A's heads moved alike */
    enum { B = 2, Tq = 3, Tk = 4, D = 6, H = 3, DH = 2 };
    static const int perm[H] = {2, 0, 1};
    float *Y = draws(5, B * Tq * D, 1.0), *S = draws(6, B * Tk * D, 1.0);
    float *W = draws(7, 4 * D * D, 0.5), P[4 * D * D];
    for (int k = 0; k < 4; k++)
        for (int i = 0; i < D; i++)
            for (int o = 0; o < D; o++) {
                int from = perm[(k < 3 ? o : i) / DH] * DH + (k < 3 ? o : i) % DH;
                P[k * D * D + i * D + o] = k < 3 ? W[k * D * D + i * D + from]
                                                 : W[k * D * D + from * D + o];
            }
    const unsigned char keep[B * Tk] = {1, 1, 0, 1, 1, 1, 1, 1};
    float O1[B * Tq * D], O2[B * Tq * D], A1[B * H * Tq * Tk], A2[B * H * Tq * Tk];
    ck_assert_int_eq(attn_mha(O1, A1, Y, S, W, keep, B, Tq, Tk, D, H, 0, 0), 0);
    ck_assert_int_eq(attn_mha(O2, A2, Y, S, P, keep, B, Tq, Tk, D, H, 0, 0), 0);
    expect_rows("O permuted", O2, O1, B * Tq * D, 1e-5);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            expect_rows("A permuted", A2 + (b * H + h) * Tq * Tk,
                        A1 + (b * H + perm[h]) * Tq * Tk, Tq * Tk, 1e-6);
    free(Y);
    free(S);
    free(W);
}
END_TEST

START_TEST(padded_values_never_reach_the_output)
{
    /* a padded source row changed to 1e6 everywhere leaves O and A as they were */
    enum { Tq = 2, Tk = 3, D = 4 };
    float *Y = draws(8, Tq * D, 1.0), *S = draws(9, Tk * D, 1.0), *W = draws(10, 4 * D * D, 0.5);
    const unsigned char keep[Tk] = {1, 0, 1};
    float O1[Tq * D], O2[Tq * D], A1[Tq * Tk], A2[Tq * Tk];
    ck_assert_int_eq(attn_mha(O1, A1, Y, S, W, keep, 1, Tq, Tk, D, 2, 0, 1), 0);
    for (int c = 0; c < D; c++)
        S[D + c] = 1e6f;
    ck_assert_int_eq(attn_mha(O2, A2, Y, S, W, keep, 1, Tq, Tk, D, 2, 0, 1), 0);
    expect_rows("O", O2, O1, Tq * D, 0);
    expect_rows("A", A2, A1, Tq * Tk, 0);
    free(Y);
    free(S);
    free(W);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("layer");
    TCase *tc = tcase_create("layer");
    tcase_add_test(tc, split_and_merge_by_hand);
    tcase_add_test(tc, self_attention_by_hand);
    tcase_add_test(tc, cross_attention_by_hand);
    tcase_add_test(tc, one_head_identity_is_lab1_attention);
    tcase_add_test(tc, heads_permuted_with_their_blocks);
    tcase_add_test(tc, padded_values_never_reach_the_output);
    suite_add_tcase(s, tc);
    return s;
}
