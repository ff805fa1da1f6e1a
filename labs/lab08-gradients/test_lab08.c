/* test_lab08.c: the visible tests of lab 8. Run them with
 *     make -C labs/lab08-gradients test
 * Each test states where its expected numbers come from, so you can add your own
 * cases the same way (copy a START_TEST block and register it at the bottom).
 * The checks (EXPECT_OK, EXPECT_STATUS, EXPECT_CLOSE, lc_poison, ...) are the
 * same in every lab; labs/labcheck.h describes each one.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "lab08.h"
#include "labcheck.h"
#include "expected_lab08.h"

/* ---- lab_softmax_backward ------------------------------------------------------ */

START_TEST(test_backward_by_hand)
{
    /* Row 0: w = [0.5, 0.5], g = [1, 0]: <w, g> = 0.5
              ds = [0.5 (1 - 0.5), 0.5 (0 - 0.5)] = [0.25, -0.25]
       Row 1, the worked row's weights [0.7054, 0.2595, 0.0351, 0] (key 3 masked),
              g = [1, 0, 0, 0]: <w, g> = 0.7054
              ds = [0.7054 * 0.2946, 0.2595 * -0.7054, 0.0351 * -0.7054, 0 * -0.7054]
                 = [0.207811, -0.183051, -0.024760, 0]
              The masked key gets exactly 0: no weight, no gradient. */
    const float W[8] = { 0.5f, 0.5f, 0, 0,   0.7054f, 0.2595f, 0.0351f, 0.0f };
    const float G[8] = { 1, 0, 0, 0,          1, 0, 0, 0 };
    float dS[8];
    lc_poison(dS, 8);
    /* two calls: rows of 2 and a row of 4 */
    EXPECT_OK("lab_softmax_backward", lab_softmax_backward(dS, W, G, 1, 2));
    EXPECT_OK("lab_softmax_backward", lab_softmax_backward(dS + 4, W + 4, G + 4, 1, 4));
    const float want[8] = { 0.25f, -0.25f, LC_POISON, LC_POISON,
                            0.207811f, -0.183051f, -0.024760f, 0.0f };
    EXPECT_CLOSE_REL("dS", want, dS, 8, 1e-5f);
    ck_assert_msg(dS[7] == 0.0f, "dS[7] = %g: a masked key (weight 0) must get gradient "
                  "exactly 0", (double)dS[7]);
}
END_TEST

START_TEST(test_backward_matches_finite_differences)
{
    /* The definition: for L(s) = <g, softmax(s)>, ds_k = dL/ds_k. The course
       measured that slope numerically, (L(s + h e_k) - L(s - h e_k)) / 2h in
       double with h = 1e-4, on 3 random rows of 6 scores (seed 8, then g drawn
       after them); W (their softmax) and the slopes are in expected_lab08.h,
       and your ds must agree. */
    enum { R = 3, N = 6 };
    float s[R * N], G[R * N], dS[R * N];
    sup_rng r;
    sup_rng_seed(&r, 8);
    sup_rng_fill_normal(&r, s, R * N);     /* the scores behind lab08_fd_weights */
    sup_rng_fill_normal(&r, G, R * N);
    lc_poison(dS, R * N);
    EXPECT_OK("lab_softmax_backward", lab_softmax_backward(dS, lab08_fd_weights, G, R, N));
    EXPECT_CLOSE_REL("dS versus finite differences", lab08_fd_dS, dS, R * N, 1e-5f);
}
END_TEST

START_TEST(test_backward_properties)
{
    /* On random softmax rows (expected_lab08.h: scores 3 N(0, 1), seed 21),
       with g from seed 22:
       - each row of ds sums to 0 (sum_j w_j (g_j - <w,g>) = <w,g> - <w,g>);
       - adding a constant to g changes nothing (<w, g + c> = <w, g> + c);
       - every |ds_j| <= 2 (1 - max w) max|g|: a saturated row passes little back;
       - in place (dS == dW) gives the same numbers. */
    enum { R = 4, N = 10 };
    const float *W = lab08_property_weights;
    float G[R * N], G2[R * N], dS[R * N], dS2[R * N], inplace[R * N];
    sup_rng r;
    sup_rng_seed(&r, 22);
    sup_rng_fill_normal(&r, G, R * N);
    for (int k = 0; k < R * N; k++) G2[k] = G[k] + 5.0f;
    memcpy(inplace, G, sizeof G);
    EXPECT_OK("lab_softmax_backward", lab_softmax_backward(dS, W, G, R, N));
    EXPECT_OK("lab_softmax_backward", lab_softmax_backward(dS2, W, G2, R, N));
    EXPECT_OK("lab_softmax_backward (in place)", lab_softmax_backward(inplace, W, inplace, R, N));
    EXPECT_CLOSE_REL("dS with g + 5 versus dS with g", dS, dS2, R * N, 1e-5f);
    EXPECT_CLOSE_REL("dS computed in place (dS == dW)", dS, inplace, R * N, 1e-6f);
    for (int row = 0; row < R; row++) {
        float sum = 0.0f, wmax = 0.0f, gmax = 0.0f;
        for (int j = 0; j < N; j++) {
            sum += dS[row * N + j];
            wmax = fmaxf(wmax, W[row * N + j]);
            gmax = fmaxf(gmax, fabsf(G[row * N + j]));
        }
        ck_assert_msg(fabsf(sum) < 1e-5f, "row %d of dS sums to %g; it must sum to 0",
                      row, (double)sum);
        for (int j = 0; j < N; j++)
            ck_assert_msg(fabsf(dS[row * N + j]) <= 2.0f * (1.0f - wmax) * gmax + 1e-6f,
                          "|dS[%d][%d]| = %g exceeds the bound 2 (1 - max w) max|g| = %g",
                          row, j, (double)fabsf(dS[row * N + j]),
                          (double)(2.0f * (1.0f - wmax) * gmax));
    }
}
END_TEST

START_TEST(test_backward_one_hot_and_bad_args)
{
    /* A one-hot row (a saturated softmax) passes no gradient at all:
       <w, g> = g_0, ds_0 = 1 (g_0 - g_0) = 0, and every other w_j is 0. */
    const float W[3] = { 1, 0, 0 }, G[3] = { 0.7f, -2.0f, 9.0f };
    float dS[3];
    lc_poison(dS, 3);
    EXPECT_OK("lab_softmax_backward", lab_softmax_backward(dS, W, G, 1, 3));
    const float zeros[3] = { 0, 0, 0 };
    EXPECT_CLOSE_REL("dS of a one-hot row", zeros, dS, 3, 0.0f);
    lc_poison(dS, 3);
    EXPECT_STATUS("lab_softmax_backward (rows = 0)", LAB_BAD_ARG,
                  lab_softmax_backward(dS, W, G, 0, 3));
    ck_assert_msg(dS[0] == LC_POISON,
                  "lab_softmax_backward wrote dS although it returned LAB_BAD_ARG");
}
END_TEST

/* ---- lab_gradient_experiment ------------------------------------------------------- */

/* The grader's advice when the second d_k is wrong and the first right. */
#define RESEED_HINT                                                                  \
    "if element [0] is right and [1] is not, the generator was probably seeded "   \
    "again for the second d_k: seed it once, before the loop; the draws for "      \
    "dks[1] continue where those for dks[0] stopped (the grader calls this "       \
    "mistake 'RNG reseeded per d_k')"
START_TEST(test_experiment_two_keys)
{
    /* T = 2 keys, one trial per d, dks = {1, 4}, seed 3. With two keys everything
       has a closed form: w_0 = 1 / (1 + e^-(s_0 - s_1)), w_1 = 1 - w_0,
         ds = w_0 w_1 (g_0 - g_1) * [1, -1],   ||ds|| = sqrt(2) w_0 w_1 |g_0 - g_1|.
       From the contract's numbers (q, K, g for d = 1, then for d = 4, seed 3)
       the course predicted both columns (expected_lab08.h); for d = 1 raw and
       scaled agree (sqrt(1) = 1). */
    const int dks[2] = { 1, 4 };
    float g_raw[2], g_scaled[2];
    lc_poison(g_raw, 2);
    lc_poison(g_scaled, 2);
    EXPECT_OK("lab_gradient_experiment", lab_gradient_experiment(g_raw, g_scaled, dks, 2, 2, 1, 3));
    EXPECT_CLOSE_HINT("g_raw", lab08_two_keys_raw, g_raw, 2, 1e-4f, LC_REL, RESEED_HINT);
    EXPECT_CLOSE_REL("g_scaled", lab08_two_keys_scaled, g_scaled, 2, 1e-4f);
}
END_TEST

START_TEST(test_experiment_saturation)
{
    /* The run target's setting: T = 64, 200 trials, seed 1. Scaled scores have
       about unit variance for every d, so their mean ||ds|| stays put; raw scores
       spread like sqrt(d), the weights saturate toward one-hot and the gradient
       shrinks. Expect at d = 512 the raw mean well below the scaled one, and the
       scaled means for d = 8 and d = 512 within 20% of each other. */
    const int dks[3] = { 8, 64, 512 };
    float g_raw[3], g_scaled[3];
    lc_poison(g_raw, 3);
    lc_poison(g_scaled, 3);
    EXPECT_OK("lab_gradient_experiment",
              lab_gradient_experiment(g_raw, g_scaled, dks, 3, 64, 200, 1));
    for (int m = 0; m < 3; m++)
        ck_assert_msg(g_raw[m] > 0.0f && g_scaled[m] > 0.0f && g_raw[m] < 2.0f && g_scaled[m] < 2.0f,
                      "d = %d: g_raw = %g, g_scaled = %g; mean gradient norms must be in (0, 2)",
                      dks[m], (double)g_raw[m], (double)g_scaled[m]);
    ck_assert_msg(g_raw[2] < g_raw[1] && g_raw[1] < g_raw[0],
                  "g_raw must fall as d grows: %g (d 8), %g (d 64), %g (d 512)",
                  (double)g_raw[0], (double)g_raw[1], (double)g_raw[2]);
    ck_assert_msg(g_raw[2] < 0.7f * g_scaled[2],
                  "at d = 512 g_raw = %g should be well below g_scaled = %g",
                  (double)g_raw[2], (double)g_scaled[2]);
    ck_assert_msg(fabsf(g_scaled[2] - g_scaled[0]) < 0.2f * g_scaled[0],
                  "g_scaled should not depend much on d: %g (d 8) versus %g (d 512)",
                  (double)g_scaled[0], (double)g_scaled[2]);
}
END_TEST

START_TEST(test_experiment_bad_args)
{
    const int dks[2] = { 8, 0 };
    float g_raw[2], g_scaled[2];
    lc_poison(g_raw, 2);
    lc_poison(g_scaled, 2);
    EXPECT_STATUS("lab_gradient_experiment (dks[1] = 0)", LAB_BAD_ARG,
                  lab_gradient_experiment(g_raw, g_scaled, dks, 2, 64, 10, 1));
    EXPECT_STATUS("lab_gradient_experiment (trials = 0)", LAB_BAD_ARG,
                  lab_gradient_experiment(g_raw, g_scaled, dks, 1, 64, 0, 1));
    ck_assert_msg(g_raw[0] == LC_POISON && g_scaled[0] == LC_POISON,
                  "lab_gradient_experiment wrote its outputs although it returned LAB_BAD_ARG");
}
END_TEST

static Suite *lab08_suite(void)
{
    Suite *s = suite_create("lab08");
    TCase *backward = tcase_create("backward");
    tcase_add_test(backward, test_backward_by_hand);
    tcase_add_test(backward, test_backward_matches_finite_differences);
    tcase_add_test(backward, test_backward_properties);
    tcase_add_test(backward, test_backward_one_hot_and_bad_args);
    suite_add_tcase(s, backward);
    TCase *experiment = tcase_create("experiment");
    tcase_add_test(experiment, test_experiment_two_keys);
    tcase_add_test(experiment, test_experiment_saturation);
    tcase_add_test(experiment, test_experiment_bad_args);
    suite_add_tcase(s, experiment);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(lab08_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
