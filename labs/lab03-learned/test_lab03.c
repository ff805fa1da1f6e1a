/* test_lab03.c: the visible tests of lab 3 (make test).
 *
 * Each test first checks the return code, then the values. Expected values are
 * worked out by hand in the comments (tanh(0.5) = 0.462117, tanh(1) = 0.761594,
 * tanh(3) = 0.995055), so you can follow them and add your own cases: copy a
 * test, change the numbers, register it in lab03_suite() at the bottom. The
 * grader runs more tests than these, with random inputs of its own.
 *
 * The checks (EXPECT_OK, EXPECT_STATUS, EXPECT_CLOSE, ...) are the same in every
 * lab; labs/labcheck.h describes each one.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "lab03.h"
#include "labcheck.h"
#include "expected_lab03.h"

/* ---- lab_general_scores ------------------------------------------------------ */

/* dq = 2, dk = 3: the query and keys have different sizes, W is (2, 3).
     W  = [ 1  0  2 ]
          [ 0  1 -1 ]
     q0 = [1, 2]:  q0^T W = 1*[1 0 2] + 2*[0 1 -1] = [1, 2, 0]
     q1 = [0, 1]:  q1^T W = [0, 1, -1]
     k0 = [1, 1, 1], k1 = [2, 0, 1]
     S = [ [1 2 0].k0  [1 2 0].k1 ]  = [ 3   2 ]
         [ [0 1 -1].k0 [0 1 -1].k1 ]   [ 0  -1 ] */
START_TEST(test_general_worked_example)
{
    const float Q[] = {1, 2,   0, 1};
    const float W[] = {1, 0, 2,   0, 1, -1};
    const float K[] = {1, 1, 1,   2, 0, 1};
    const float want[] = {3, 2,   0, -1};
    float S[4] = {0};
    EXPECT_OK("lab_general_scores", lab_general_scores(S, Q, W, K, 1, 2, 2, 2, 3));
    EXPECT_CLOSE("S", want, S, 4, 1e-6f);
}
END_TEST

/* With W = I (dq = dk = 3) the general score is the dot score of lab 1:
     q = [1, 2, 3]; k0 = [4, -5, 6] -> 4 - 10 + 18 = 12
                    k1 = [1, 0, 0]  -> 1
                    k2 = [-1, -1, -1] -> -6 */
START_TEST(test_general_identity_is_dot)
{
    const float Q[] = {1, 2, 3};
    const float W[] = {1, 0, 0,   0, 1, 0,   0, 0, 1};
    const float K[] = {4, -5, 6,   1, 0, 0,   -1, -1, -1};
    const float want[] = {12, 1, -6};
    float S[3] = {0};
    EXPECT_OK("lab_general_scores", lab_general_scores(S, Q, W, K, 1, 1, 3, 3, 3));
    EXPECT_CLOSE("S", want, S, 3, 1e-6f);
}
END_TEST

/* Random inputs (seed 3), W = I: every score equals the plain dot product,
   for B = 2, Tq = 3, Tk = 4, d = 5 (lab 1's scores of these inputs, as data
   in expected_lab03.h). */
START_TEST(test_general_identity_random)
{
    enum { B = 2, Tq = 3, Tk = 4, d = 5 };
    float Q[B * Tq * d], K[B * Tk * d], W[d * d] = {0};
    float S[B * Tq * Tk] = {0};
    sup_rng rng;
    sup_rng_seed(&rng, 3);
    sup_rng_fill_normal(&rng, Q, B * Tq * d);
    sup_rng_fill_normal(&rng, K, B * Tk * d);
    for (int c = 0; c < d; c++) W[c * d + c] = 1.0f;
    EXPECT_OK("lab_general_scores", lab_general_scores(S, Q, W, K, B, Tq, Tk, d, d));
    EXPECT_CLOSE("S", lab03_identity_scores, S, B * Tq * Tk, 1e-5f);
}
END_TEST

/* W is shared by the batch; each element pairs its own query and key.
   dq = dk = 1, W = [3]:  b = 0: 2 * 3 * 5 = 30;  b = 1: -1 * 3 * 4 = -12. */
START_TEST(test_general_batch)
{
    const float Q[] = {2, -1};
    const float W[] = {3};
    const float K[] = {5, 4};
    const float want[] = {30, -12};
    float S[2] = {0};
    EXPECT_OK("lab_general_scores", lab_general_scores(S, Q, W, K, 2, 1, 1, 1, 1));
    EXPECT_CLOSE("S", want, S, 2, 1e-6f);
}
END_TEST

/* dq or dk below 1, or a negative size: LAB_BAD_ARG, S untouched. */
START_TEST(test_general_bad_args)
{
    const float Q[] = {1}, W[] = {1}, K[] = {1};
    float S[1] = {42};
    EXPECT_STATUS("lab_general_scores", LAB_BAD_ARG,
                  lab_general_scores(S, Q, W, K, 1, 1, 1, 0, 1));
    EXPECT_STATUS("lab_general_scores", LAB_BAD_ARG,
                  lab_general_scores(S, Q, W, K, 1, 1, 1, 1, 0));
    EXPECT_STATUS("lab_general_scores", LAB_BAD_ARG,
                  lab_general_scores(S, Q, W, K, -1, 1, 1, 1, 1));
    ck_assert_msg(S[0] == 42, "lab_general_scores wrote into S before rejecting a bad argument");
}
END_TEST

/* ---- lab_additive_scores ------------------------------------------------------- */

/* h = 2, dq = dk = 1, Wq = [[1], [0]], Wk = [[0], [1]], v = [1, -1]:
     hidden unit 0 sees only the query, unit 1 only the key, so
     score = 1 * tanh(q) - 1 * tanh(k).
   q = 0.5, keys 0, 1, -1:
     tanh(0.5) - tanh(0)  =  0.462117
     tanh(0.5) - tanh(1)  =  0.462117 - 0.761594 = -0.299477
     tanh(0.5) - tanh(-1) =  0.462117 + 0.761594 =  1.223711 */
START_TEST(test_additive_worked_example)
{
    const float Q[] = {0.5f};
    const float K[] = {0, 1, -1};
    const float Wq[] = {1, 0}, Wk[] = {0, 1}, v[] = {1, -1};
    const float want[] = {0.462117f, -0.299477f, 1.223711f};
    float S[3] = {0};
    EXPECT_OK("lab_additive_scores", lab_additive_scores(S, Q, K, Wq, Wk, v, 1, 1, 3, 1, 1, 2));
    EXPECT_CLOSE("S", want, S, 3, 1e-5f);
}
END_TEST

/* The layouts: h = 2, dq = 2, dk = 3, so Wq is (2, 2) and Wk is (2, 3).
     Wq = [ 1    0 ]    Wk = [ 0  1  0 ]    v = [2, 1]
          [ 0.5 -1 ]         [ 1  0  1 ]
     q = [1, 0.5]:      Wq q = [1, 0.5 - 0.5] = [1, 0]
     k0 = [0.5, -1, 0]: Wk k0 = [-1, 0.5]  -> z = [0, 0.5]
        score = 2 tanh(0) + 1 tanh(0.5) = 0.462117
     k1 = [1, 2, -1]:   Wk k1 = [2, 0]     -> z = [3, 0]
        score = 2 tanh(3) + 1 tanh(0) = 2 * 0.995055 = 1.990110 */
START_TEST(test_additive_layouts)
{
    const float Q[] = {1, 0.5f};
    const float K[] = {0.5f, -1, 0,   1, 2, -1};
    const float Wq[] = {1, 0,   0.5f, -1};
    const float Wk[] = {0, 1, 0,   1, 0, 1};
    const float v[] = {2, 1};
    const float want[] = {0.462117f, 1.990110f};
    float S[2] = {0};
    EXPECT_OK("lab_additive_scores", lab_additive_scores(S, Q, K, Wq, Wk, v, 1, 1, 2, 2, 3, 2));
    EXPECT_CLOSE("S", want, S, 2, 1e-5f);
}
END_TEST

/* Not a dot product: doubling the query of the worked example does not double
   its score. q = 1, k = 0: tanh(1) - tanh(0) = 0.761594, not 2 * 0.462117 = 0.924234.
   (A dot score would double exactly.) */
START_TEST(test_additive_is_not_linear)
{
    const float Q[] = {0.5f, 1.0f};
    const float K[] = {0};
    const float Wq[] = {1, 0}, Wk[] = {0, 1}, v[] = {1, -1};
    const float want[] = {0.462117f, 0.761594f};
    float S[2] = {0};
    EXPECT_OK("lab_additive_scores", lab_additive_scores(S, Q, K, Wq, Wk, v, 1, 2, 1, 1, 1, 2));
    EXPECT_CLOSE("S", want, S, 2, 1e-5f);
}
END_TEST

/* Bounded: each tanh lies in [-1, 1], so |score| <= sum_u |v[u]| however large
   the inputs. With v = [0.5, -2, 1], sum |v| = 3.5. Random inputs (seed 5) scaled
   by 100 saturate every tanh at +-1, so the scores come close to the bound but
   never pass it. A dot product of the same inputs would be in the thousands. */
START_TEST(test_additive_is_bounded)
{
    enum { B = 2, Tq = 4, Tk = 5, dq = 3, dk = 2, h = 3 };
    float Q[B * Tq * dq], K[B * Tk * dk], Wq[h * dq], Wk[h * dk];
    const float v[h] = {0.5f, -2, 1};
    float S[B * Tq * Tk] = {0};
    sup_rng rng;
    sup_rng_seed(&rng, 5);
    sup_rng_fill_normal(&rng, Q, B * Tq * dq);
    sup_rng_fill_normal(&rng, K, B * Tk * dk);
    sup_rng_fill_normal(&rng, Wq, h * dq);
    sup_rng_fill_normal(&rng, Wk, h * dk);
    for (int n = 0; n < B * Tq * dq; n++) Q[n] *= 100.0f;
    for (int n = 0; n < B * Tk * dk; n++) K[n] *= 100.0f;
    EXPECT_OK("lab_additive_scores", lab_additive_scores(S, Q, K, Wq, Wk, v, B, Tq, Tk, dq, dk, h));
    for (int n = 0; n < B * Tq * Tk; n++) {
        ck_assert_msg(fabsf(S[n]) <= 3.5f + 1e-5f, "S[%d] = %g is outside [-3.5, 3.5] = "
                      "[-sum|v|, sum|v|]: is every hidden unit passed through tanh?",
                      n, (double)S[n]);
    }
}
END_TEST

/* The weights are shared; each batch element pairs its own query and key.
   The worked example's weights (score = tanh(q) - tanh(k)), B = 2:
     b = 0: q = 0.5, k = 1   -> 0.462117 - 0.761594 = -0.299477
     b = 1: q = 1,   k = 0.5 -> 0.761594 - 0.462117 =  0.299477 */
START_TEST(test_additive_batch)
{
    const float Q[] = {0.5f, 1};
    const float K[] = {1, 0.5f};
    const float Wq[] = {1, 0}, Wk[] = {0, 1}, v[] = {1, -1};
    const float want[] = {-0.299477f, 0.299477f};
    float S[2] = {0};
    EXPECT_OK("lab_additive_scores", lab_additive_scores(S, Q, K, Wq, Wk, v, 2, 1, 1, 1, 1, 2));
    EXPECT_CLOSE("S", want, S, 2, 1e-5f);
}
END_TEST

/* h below 1, or a negative size: LAB_BAD_ARG, S untouched. Zero queries: LAB_OK. */
START_TEST(test_additive_args)
{
    const float Q[] = {1}, K[] = {1}, Wq[] = {1}, Wk[] = {1}, v[] = {1};
    float S[1] = {42};
    EXPECT_STATUS("lab_additive_scores", LAB_BAD_ARG,
                  lab_additive_scores(S, Q, K, Wq, Wk, v, 1, 1, 1, 1, 1, 0));
    EXPECT_STATUS("lab_additive_scores", LAB_BAD_ARG,
                  lab_additive_scores(S, Q, K, Wq, Wk, v, 1, -1, 1, 1, 1, 1));
    EXPECT_OK("lab_additive_scores", lab_additive_scores(S, Q, K, Wq, Wk, v, 1, 0, 1, 1, 1, 1));
    ck_assert_msg(S[0] == 42, "lab_additive_scores wrote into S when it had nothing to write");
}
END_TEST

/* ---- the suite ------------------------------------------------------------- */

static Suite *lab03_suite(void)
{
    Suite *s = suite_create("lab03-learned");

    TCase *general = tcase_create("lab_general_scores");
    tcase_add_test(general, test_general_worked_example);
    tcase_add_test(general, test_general_identity_is_dot);
    tcase_add_test(general, test_general_identity_random);
    tcase_add_test(general, test_general_batch);
    tcase_add_test(general, test_general_bad_args);
    suite_add_tcase(s, general);

    TCase *additive = tcase_create("lab_additive_scores");
    tcase_add_test(additive, test_additive_worked_example);
    tcase_add_test(additive, test_additive_layouts);
    tcase_add_test(additive, test_additive_is_not_linear);
    tcase_add_test(additive, test_additive_is_bounded);
    tcase_add_test(additive, test_additive_batch);
    tcase_add_test(additive, test_additive_args);
    suite_add_tcase(s, additive);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(lab03_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
