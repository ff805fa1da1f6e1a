/* test_lab01.c: the visible tests of lab 1 (make test).
 *
 * Each test first checks the return code, then the values. The expected values
 * are worked out by hand in the comments, so you can follow them and add your
 * own cases the same way: copy a test, change the numbers, add it to
 * lab01_suite() at the bottom. The grader runs more tests than these, with
 * random inputs of its own.
 *
 * The checks (EXPECT_OK, EXPECT_STATUS, EXPECT_CLOSE, ...) are the same in every
 * lab; labs/labcheck.h describes each one.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "lab01.h"
#include "labcheck.h"
#include "expected_lab01.h"

/* ---- lab_dot_scores ------------------------------------------------------ */

/* The worked example of the handout, section 2: B = 1, Tq = 2, Tk = 3, d = 2.
     q0 = [1, 2]    k0 = [3, 1]   q0.k0 = 1*3 + 2*1  =  5
     q1 = [0, -1]   k1 = [-1, 2]  q0.k1 = 1*-1 + 2*2 =  3
                    k2 = [.5, .5] q0.k2 = .5 + 1     =  1.5
                                  q1.k0 = 0 - 1      = -1
                                  q1.k1 = 0 - 2      = -2
                                  q1.k2 = 0 - .5     = -0.5
   Scores are any real numbers: negative ones are as valid as 5. */
START_TEST(test_dot_worked_example)
{
    const float Q[] = {1, 2,   0, -1};
    const float K[] = {3, 1,   -1, 2,   0.5f, 0.5f};
    const float want[] = {5, 3, 1.5f,
                          -1, -2, -0.5f};
    float S[6] = {0};
    EXPECT_OK("lab_dot_scores", lab_dot_scores(S, Q, K, 1, 2, 3, 2));
    EXPECT_CLOSE("S", want, S, 6, 1e-6f);
}
END_TEST

/* Each batch element pairs its queries with its own keys only.
   B = 2, Tq = 1, Tk = 2, d = 2:
     b = 0: q = [1, 0], keys [2, 3], [4, 5]  -> [2, 4]
     b = 1: q = [0, 1], keys [1, -1], [0, 7] -> [-1, 7]
   (Reading batch 0's keys for batch 1 would give [3, 5].) */
START_TEST(test_dot_batch_uses_own_keys)
{
    const float Q[] = {1, 0,   0, 1};
    const float K[] = {2, 3, 4, 5,   1, -1, 0, 7};
    const float want[] = {2, 4,   -1, 7};
    float S[4] = {0};
    EXPECT_OK("lab_dot_scores", lab_dot_scores(S, Q, K, 2, 1, 2, 2));
    EXPECT_CLOSE("S", want, S, 4, 1e-6f);
}
END_TEST

/* S is (Tq, Tk): one row per query, one column per key. With Tq = 3, Tk = 1
   and d = 1 each score is q_i * k: [1, 2, 3] * -2 = [-2, -4, -6] down the column. */
START_TEST(test_dot_shape_is_tq_by_tk)
{
    const float Q[] = {1, 2, 3};
    const float K[] = {-2};
    const float want[] = {-2, -4, -6};
    float S[3] = {0};
    EXPECT_OK("lab_dot_scores", lab_dot_scores(S, Q, K, 1, 3, 1, 1));
    EXPECT_CLOSE("S", want, S, 3, 1e-6f);
}
END_TEST

/* A zero batch or zero keys means nothing to write: LAB_OK, S untouched. */
START_TEST(test_dot_zero_sizes)
{
    const float Q[] = {1, 2};
    const float K[] = {3, 4};
    float S[1] = {42};
    EXPECT_OK("lab_dot_scores", lab_dot_scores(S, Q, K, 0, 1, 1, 2));
    EXPECT_OK("lab_dot_scores", lab_dot_scores(S, Q, K, 1, 1, 0, 2));
    ck_assert_msg(S[0] == 42, "lab_dot_scores wrote into S although there was nothing to compute");
}
END_TEST

/* d < 1 or a negative size breaks the contract: LAB_BAD_ARG, S untouched. */
START_TEST(test_dot_bad_args)
{
    const float Q[] = {1, 2};
    const float K[] = {3, 4};
    float S[1] = {42};
    EXPECT_STATUS("lab_dot_scores", LAB_BAD_ARG, lab_dot_scores(S, Q, K, 1, 1, 1, 0));
    EXPECT_STATUS("lab_dot_scores", LAB_BAD_ARG, lab_dot_scores(S, Q, K, -1, 1, 1, 2));
    EXPECT_STATUS("lab_dot_scores", LAB_BAD_ARG, lab_dot_scores(S, Q, K, 1, 1, -3, 2));
    ck_assert_msg(S[0] == 42, "lab_dot_scores wrote into S before rejecting a bad argument");
}
END_TEST

/* ---- lab_scaled_dot_scores -------------------------------------------------- */

/* d = 4, so the divisor is sqrt(4) = 2 (dividing by d = 4 would be wrong).
     q  = [1, 1, 1, 1]
     k0 = [1, 1, 1, 1]    q.k0 = 4  -> 4 / 2 = 2
     k1 = [1, -1, 1, -1]  q.k1 = 0  -> 0 / 2 = 0
     k2 = [2, 0, 0, 0]    q.k2 = 2  -> 2 / 2 = 1
   Dividing by d instead would give [1, 0, 0.5]. */
START_TEST(test_scaled_worked_example)
{
    const float Q[] = {1, 1, 1, 1};
    const float K[] = {1, 1, 1, 1,   1, -1, 1, -1,   2, 0, 0, 0};
    const float want[] = {2, 0, 1};
    float S[3] = {0};
    EXPECT_OK("lab_scaled_dot_scores", lab_scaled_dot_scores(S, Q, K, 1, 1, 3, 4));
    EXPECT_CLOSE("S", want, S, 3, 1e-6f);
}
END_TEST

/* The same example as test_dot_worked_example, now with d = 2:
   every score divided by sqrt(2) = 1.414214.
     5 / 1.414214 = 3.535534   3 / 1.414214 = 2.121320   1.5 / 1.414214 = 1.060660
    -1 / 1.414214 = -0.707107 -2 / 1.414214 = -1.414214 -0.5 / 1.414214 = -0.353553 */
START_TEST(test_scaled_worked_example_d2)
{
    const float Q[] = {1, 2,   0, -1};
    const float K[] = {3, 1,   -1, 2,   0.5f, 0.5f};
    const float want[] = {3.535534f, 2.121320f, 1.060660f,
                          -0.707107f, -1.414214f, -0.353553f};
    float S[6] = {0};
    EXPECT_OK("lab_scaled_dot_scores", lab_scaled_dot_scores(S, Q, K, 1, 2, 3, 2));
    EXPECT_CLOSE("S", want, S, 6, 1e-5f);
}
END_TEST

/* The variance argument of section 3, measured. Draw Q and K with unit-variance
   normal components (seed 2024) and look at the mean square of the scores
   (their mean is 0, so this is their variance):
     raw scores    about d      (a sum of d products of variance 1)
     scaled scores about 1      (d / sqrt(d)^2 = 1)
   With Tq = 32 queries and Tk = 128 keys the estimate is within a few percent;
   the test allows 20%. Runs for d = 16, 64, 256. */
static const int variance_dims[] = {16, 64, 256};

START_TEST(test_score_variance_grows_with_d)
{
    const int B = 1, Tq = 32, Tk = 128, d = variance_dims[_i];
    float *Q = lc_zeros((long)B * Tq * d), *K = lc_zeros((long)B * Tk * d);
    float *S = lc_zeros((long)B * Tq * Tk);
    sup_rng rng;
    sup_rng_seed(&rng, 2024);
    sup_rng_fill_normal(&rng, Q, (long)B * Tq * d);
    sup_rng_fill_normal(&rng, K, (long)B * Tk * d);

    EXPECT_OK("lab_dot_scores", lab_dot_scores(S, Q, K, B, Tq, Tk, d));
    double ms = 0;
    for (long n = 0; n < (long)B * Tq * Tk; n++) ms += (double)S[n] * (double)S[n];
    ms /= (double)B * Tq * Tk;
    ck_assert_msg(fabs(ms / d - 1) < 0.2,
                  "raw scores with d = %d should have variance about %d, got %.2f", d, d, ms);

    EXPECT_OK("lab_scaled_dot_scores", lab_scaled_dot_scores(S, Q, K, B, Tq, Tk, d));
    ms = 0;
    for (long n = 0; n < (long)B * Tq * Tk; n++) ms += (double)S[n] * (double)S[n];
    ms /= (double)B * Tq * Tk;
    ck_assert_msg(fabs(ms - 1) < 0.2,
                  "scaled scores with d = %d should have variance about 1, got %.4f "
                  "(about %.4f means you divided by d instead of sqrt(d))", d, ms, 1.0 / d);
    free(Q); free(K); free(S);
}
END_TEST

/* Scaled scores are exactly the dot scores over sqrt(d), for any shape:
   B = 2, Tq = 3, Tk = 5, d = 7, random inputs. The expected scores are data
   (expected_lab01.h), computed from these very inputs by the course. */
START_TEST(test_scaled_is_dot_over_sqrt_d)
{
    enum { B = 2, Tq = 3, Tk = 5, d = 7 };
    float Q[B * Tq * d], K[B * Tk * d], S[B * Tq * Tk] = {0};
    sup_rng rng;
    sup_rng_seed(&rng, 7);
    sup_rng_fill_normal(&rng, Q, B * Tq * d);
    sup_rng_fill_normal(&rng, K, B * Tk * d);
    EXPECT_OK("lab_scaled_dot_scores", lab_scaled_dot_scores(S, Q, K, B, Tq, Tk, d));
    EXPECT_CLOSE("S", lab01_scaled, S, B * Tq * Tk, 1e-5f);
}
END_TEST

/* Same argument rules as lab_dot_scores: d < 1 is LAB_BAD_ARG (there is no
   sqrt(0) to divide by), S untouched. */
START_TEST(test_scaled_bad_args)
{
    const float Q[] = {1, 2};
    const float K[] = {3, 4};
    float S[1] = {42};
    EXPECT_STATUS("lab_scaled_dot_scores", LAB_BAD_ARG,
                  lab_scaled_dot_scores(S, Q, K, 1, 1, 1, 0));
    EXPECT_STATUS("lab_scaled_dot_scores", LAB_BAD_ARG,
                  lab_scaled_dot_scores(S, Q, K, 1, -1, 1, 2));
    ck_assert_msg(S[0] == 42, "lab_scaled_dot_scores wrote into S before rejecting a bad argument");
}
END_TEST

/* ---- the suite ------------------------------------------------------------- */

static Suite *lab01_suite(void)
{
    Suite *s = suite_create("lab01-scores");

    TCase *dot = tcase_create("lab_dot_scores");
    tcase_add_test(dot, test_dot_worked_example);
    tcase_add_test(dot, test_dot_batch_uses_own_keys);
    tcase_add_test(dot, test_dot_shape_is_tq_by_tk);
    tcase_add_test(dot, test_dot_zero_sizes);
    tcase_add_test(dot, test_dot_bad_args);
    suite_add_tcase(s, dot);

    TCase *scaled = tcase_create("lab_scaled_dot_scores");
    tcase_add_test(scaled, test_scaled_worked_example);
    tcase_add_test(scaled, test_scaled_worked_example_d2);
    tcase_add_loop_test(scaled, test_score_variance_grows_with_d, 0,
                        (int)(sizeof variance_dims / sizeof variance_dims[0]));
    tcase_add_test(scaled, test_scaled_is_dot_over_sqrt_d);
    tcase_add_test(scaled, test_scaled_bad_args);
    suite_add_tcase(s, scaled);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(lab01_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
