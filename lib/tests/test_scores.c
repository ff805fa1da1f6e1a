/* test_scores.c: the four scoring functions against hand-computed values and
 * the properties the course states (scaled = dot / sqrt(d), variance d vs 1).
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "attn.h"
#include "labsup.h"
#include "expect.h"

Suite *test_suite(void);

static float *normals(long n, uint64_t seed)
{
    float *x = malloc((size_t)n * sizeof *x);
    ck_assert_ptr_nonnull(x);
    sup_rng rng;
    sup_rng_seed(&rng, seed);
    sup_rng_fill_normal(&rng, x, n);
    return x;
}

START_TEST(dot_hand_computed)
{
    /* B=1, Tq=2, Tk=2, d=3
       q0 = [1, 2, 3],  q1 = [0, -1, 0.5]
       k0 = [1, 0, -1], k1 = [2, 1, 0]
       S00 = 1*1 + 2*0 + 3*(-1)   = -2
       S01 = 1*2 + 2*1 + 3*0      =  4
       S10 = 0*1 + (-1)*0 + 0.5*(-1) = -0.5
       S11 = 0*2 + (-1)*1 + 0.5*0 = -1   */
    const float Q[] = {1, 2, 3, 0, -1, 0.5f};
    const float K[] = {1, 0, -1, 2, 1, 0};
    const float want[] = {-2, 4, -0.5f, -1};
    float S[4];
    attn_dot_scores(S, Q, K, 1, 2, 2, 3);
    for (int n = 0; n < 4; n++) expect_near("S", n, (double)S[n], (double)want[n], 0.0);
}
END_TEST

START_TEST(dot_batched_layout)
{
    /* B=2, Tq=1, Tk=3, d=2: each batch entry uses only its own Q and K.
       b=0: q = [1, 1],  keys [1, 0], [0, 1], [2, 2]  -> [1, 1, 4]
       b=1: q = [1, -1], keys [3, 1], [1, 3], [0, 0]  -> [2, -2, 0] */
    const float Q[] = {1, 1, 1, -1};
    const float K[] = {1, 0, 0, 1, 2, 2, 3, 1, 1, 3, 0, 0};
    const float want[] = {1, 1, 4, 2, -2, 0};
    float S[6];
    attn_dot_scores(S, Q, K, 2, 1, 3, 2);
    for (int n = 0; n < 6; n++) expect_near("S", n, (double)S[n], (double)want[n], 0.0);
}
END_TEST

START_TEST(scaled_hand_computed)
{
    /* d=4: q = [1, 1, 1, 1], k = [1, 2, 3, 4]; q.k = 10, sqrt(4) = 2 -> 5.
       k = [-1, 0.5, 0.5, 2]: q.k = 2 -> 1. */
    const float Q[] = {1, 1, 1, 1};
    const float K[] = {1, 2, 3, 4, -1, 0.5f, 0.5f, 2};
    float S[2];
    attn_scaled_dot_scores(S, Q, K, 1, 1, 2, 4);
    expect_near("S", 0, (double)S[0], 5.0, 0.0);
    expect_near("S", 1, (double)S[1], 1.0, 0.0);
}
END_TEST

/* d values for the table-driven tests below. */
static const int D_VALUES[] = {1, 3, 64, 512};

START_TEST(scaled_is_dot_over_sqrt_d)
{
    int d = D_VALUES[_i];
    const int B = 2, Tq = 5, Tk = 7;
    float *Q = normals((long)B * Tq * d, 10 + (uint64_t)d);
    float *K = normals((long)B * Tk * d, 20 + (uint64_t)d);
    float dot[70], scaled[70];
    attn_dot_scores(dot, Q, K, B, Tq, Tk, d);
    attn_scaled_dot_scores(scaled, Q, K, B, Tq, Tk, d);
    /* Both are one rounding of an exact-in-double value, so they agree to a
       couple of float ulps: relative 3e-7, plus 1e-30 for exact zeros. */
    for (int n = 0; n < B * Tq * Tk; n++) {
        double want = (double)dot[n] / sqrt((double)d);
        expect_near("scaled", n, (double)scaled[n], want, 3e-7 * fabs(want) + 1e-30);
    }
    free(Q);
    free(K);
}
END_TEST

START_TEST(dot_variance_grows_with_d)
{
    /* For unit-variance q and k, q.k is a sum of d products each of variance 1,
       so var(q.k) = d; after scaling by 1/sqrt(d) the variance is 1. Measured on
       4096 pairs at d = 256: the sample variance has a relative standard error
       of about sqrt(2/4096) = 2.2%, so 12% is a generous but failing bound for
       1/d scaling (variance 1/256) or no scaling in the scaled version. */
    const int d = 256, Tk = 4096;
    float *Q = normals(d, 1);
    float *K = normals((long)Tk * d, 2);
    float *S = malloc(Tk * sizeof *S);
    ck_assert_ptr_nonnull(S);
    for (int scaled = 0; scaled <= 1; scaled++) {
        if (scaled) attn_scaled_dot_scores(S, Q, K, 1, 1, Tk, d);
        else attn_dot_scores(S, Q, K, 1, 1, Tk, d);
        double sum2 = 0.0;
        for (int j = 0; j < Tk; j++) sum2 += (double)S[j] * (double)S[j];
        double var = sum2 / Tk, want = scaled ? 1.0 : (double)d;
        expect(fabs(var / want - 1.0) < 0.12, "%s scores: variance %.3f, expected about %g",
                      scaled ? "scaled" : "raw", var, want);
    }
    free(Q);
    free(K);
    free(S);
}
END_TEST

START_TEST(general_hand_computed)
{
    /* dq=2, dk=3, q = [1, 2], W = [[1, 0, 2], [0, 1, -1]]
       k0 = [3, 1, 1]: W k0 = [1*3 + 0*1 + 2*1, 0*3 + 1*1 - 1*1] = [5, 0]
                       q . W k0 = 1*5 + 2*0 = 5
       k1 = [0, 2, 1]: W k1 = [0 + 0 + 2, 0 + 2 - 1] = [2, 1]
                       q . W k1 = 1*2 + 2*1 = 4 */
    const float Q[] = {1, 2};
    const float W[] = {1, 0, 2, 0, 1, -1};
    const float K[] = {3, 1, 1, 0, 2, 1};
    float S[2];
    attn_general_scores(S, Q, W, K, 1, 1, 2, 2, 3);
    expect_near("S", 0, (double)S[0], 5.0, 0.0);
    expect_near("S", 1, (double)S[1], 4.0, 0.0);
}
END_TEST

START_TEST(general_with_identity_is_dot)
{
    /* q^T I k = q.k: with W = I the general score is the dot score. */
    enum { B = 2, Tq = 4, Tk = 6, d = 8 };
    float *Q = normals(B * Tq * d, 3);
    float *K = normals(B * Tk * d, 4);
    float I[d * d], S1[B * Tq * Tk], S2[B * Tq * Tk];
    for (int a = 0; a < d; a++)
        for (int c = 0; c < d; c++) I[a * d + c] = a == c ? 1.0f : 0.0f;
    attn_general_scores(S1, Q, I, K, B, Tq, Tk, d, d);
    attn_dot_scores(S2, Q, K, B, Tq, Tk, d);
    for (int n = 0; n < B * Tq * Tk; n++) expect_near("S", n, (double)S1[n], (double)S2[n], 0.0);
    free(Q);
    free(K);
}
END_TEST

START_TEST(additive_hand_computed)
{
    /* dq=1, dk=1, h=2: Wq = [[1], [2]], Wk = [[1], [-1]], v = [1, 0.5], q = 0.5
       k0 = 0.5:  pre = [1*0.5 + 1*0.5, 2*0.5 - 1*0.5] = [1, 0.5]
                  S = 1*tanh(1) + 0.5*tanh(0.5) = 0.761594156 + 0.231058579 = 0.992652735
       k1 = -0.5: pre = [0.5 - 0.5, 1 + 0.5] = [0, 1.5]
                  S = 1*tanh(0) + 0.5*tanh(1.5) = 0 + 0.452574127 = 0.452574127 */
    const float Q[] = {0.5f}, K[] = {0.5f, -0.5f};
    const float Wq[] = {1, 2}, Wk[] = {1, -1}, v[] = {1, 0.5f};
    float S[2];
    attn_additive_scores(S, Q, K, Wq, Wk, v, 1, 1, 2, 1, 1, 2);
    expect_near("S", 0, (double)S[0], 0.9926527346, 1e-7);
    expect_near("S", 1, (double)S[1], 0.4525741268, 1e-7);
}
END_TEST

START_TEST(additive_is_bounded)
{
    /* tanh saturates at +-1, so |S| <= sum|v| = 1.5 whatever the inputs; with
       pre-activations of size 1e6 every tanh is exactly +-1 in double:
       q = 1e6, k = 0: pre = [1e6, 2e6] -> S = 1*1 + 0.5*1 = 1.5
       q = -1e6, k = 0: pre = [-1e6, -2e6] -> S = -1.5 */
    const float Q[] = {1e6f, -1e6f}, K[] = {0.0f};
    const float Wq[] = {1, 2}, Wk[] = {1, -1}, v[] = {1, 0.5f};
    float S[2];
    attn_additive_scores(S, Q, K, Wq, Wk, v, 1, 2, 1, 1, 1, 2);
    expect_near("S", 0, (double)S[0], 1.5, 0.0);
    expect_near("S", 1, (double)S[1], -1.5, 0.0);
}
END_TEST

START_TEST(additive_batched_layout)
{
    /* B=2, Tq=1, Tk=1, dq=2, dk=1, h=1, Wq = [[1, 1]], Wk = [[1]], v = [2]
       b=0: q = [0.25, 0.25], k = 0    -> 2 tanh(0.5)  = 0.924234315
       b=1: q = [0, 0],       k = -1   -> 2 tanh(-1)   = -1.523188312 */
    const float Q[] = {0.25f, 0.25f, 0, 0}, K[] = {0, -1};
    const float Wq[] = {1, 1}, Wk[] = {1}, v[] = {2};
    float S[2];
    attn_additive_scores(S, Q, K, Wq, Wk, v, 2, 1, 1, 2, 1, 1);
    expect_near("S", 0, (double)S[0], 0.9242343145, 1e-7);
    expect_near("S", 1, (double)S[1], -1.5231883119, 1e-7);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("attn_scores");
    TCase *dot = tcase_create("dot and scaled dot");
    tcase_add_test(dot, dot_hand_computed);
    tcase_add_test(dot, dot_batched_layout);
    tcase_add_test(dot, scaled_hand_computed);
    tcase_add_loop_test(dot, scaled_is_dot_over_sqrt_d, 0,
                        (int)(sizeof D_VALUES / sizeof D_VALUES[0]));
    tcase_add_test(dot, dot_variance_grows_with_d);
    suite_add_tcase(s, dot);

    TCase *learned = tcase_create("learned scores");
    tcase_add_test(learned, general_hand_computed);
    tcase_add_test(learned, general_with_identity_is_dot);
    tcase_add_test(learned, additive_hand_computed);
    tcase_add_test(learned, additive_is_bounded);
    tcase_add_test(learned, additive_batched_layout);
    suite_add_tcase(s, learned);
    return s;
}
