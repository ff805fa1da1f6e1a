/* test_lab12.c: the visible tests of lab 12. Run them with
 *     make -C labs/lab12-layer test
 * Each test states where its expected numbers come from, so you can add your own
 * cases the same way (copy a START_TEST block and register it at the bottom).
 * The checks (EXPECT_OK, EXPECT_STATUS, EXPECT_CLOSE, lc_poison, ...) are the
 * same in every lab; labs/labcheck.h describes each one.
 * The numbers are the handout's worked examples (README sections 2 to 5):
 * d_model 4, H 2 (dh 2), W_Q = W_K = W_V = I and W_O = (C0 + C2, C1 + C3,
 * C2, C3); e^0.707107 = 2.028115, e^2.828427 = 16.918829, e^1.414214 = 4.113250.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "lab12.h"
#include "labcheck.h"

/* The worked examples' W: four identities, then W_O's two extra ones
   (row 2 into column 0, row 3 into column 1: head 1 added onto head 0). */
static void worked_w(float W[64])
{
    static const float w[64] = {
        1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1,   /* W_Q */
        1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1,   /* W_K */
        1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1,   /* W_V */
        1, 0, 0, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0, 1, 0, 1,   /* W_O */
    };
    memcpy(W, w, sizeof w);
}

/* ---- lab_split_heads ------------------------------------------------------------ */

START_TEST(test_split_heads_worked)
{
    /* README section 3: two tokens of 6 features, H 3, dh 2; head h is features 2h, 2h+1 */
    const float X[12] = {0, 1, 2, 3, 4, 5, 10, 11, 12, 13, 14, 15};
    float Xh[12];
    lc_poison(Xh, 12);
    EXPECT_OK("lab_split_heads", lab_split_heads(Xh, X, 1, 2, 3, 2));
    const float want[12] = {0, 1, 10, 11, 2, 3, 12, 13, 4, 5, 14, 15};
    EXPECT_CLOSE("Xh", want, Xh, 12, 0.0f);
    /* H = 0: no heads, LAB_BAD_ARG, Xh untouched */
    float Y[2] = {7, 7};
    EXPECT_STATUS("lab_split_heads", LAB_BAD_ARG, lab_split_heads(Y, X, 1, 1, 0, 2));
    const float same[2] = {7, 7};
    EXPECT_CLOSE("Xh (untouched)", same, Y, 2, 0.0f);
}
END_TEST

/* ---- lab_self_attention ------------------------------------------------------------ */

START_TEST(test_self_attention_worked)
{
    /* README section 2: X0 = (1, 0, 0, 2), X1 = (0, 1, 2, 0).
       Head 0 row 0: scores 0.707107, 0; weights 2.028115 / 3.028115 = 0.669762, 0.330238.
       Head 1 row 0: scores 2.828427, 0; weights 16.918829 / 17.918829 = 0.944193, 0.055807.
       Row 1 is row 0 mirrored. Heads' rows 0: (0.669762, 0.330238), (0.111614, 1.888386);
       O row 0 = (0.669762 + 0.111614, 0.330238 + 1.888386, 0.111614, 1.888386). */
    const float X[8] = {1, 0, 0, 2, 0, 1, 2, 0};
    float W[64], O[8], A[8];
    worked_w(W);
    lc_poison(O, 8);
    lc_poison(A, 8);
    EXPECT_OK("lab_self_attention", lab_self_attention(O, A, X, W, 1, 2, 4, 2, 0, 0));
    const float Aw[8] = {0.669762f, 0.330238f, 0.330238f, 0.669762f,
                         0.944193f, 0.055807f, 0.055807f, 0.944193f};
    EXPECT_CLOSE("A", Aw, A, 8, 1e-5f);
    const float Ow[8] = {0.781376f, 2.218624f, 0.111614f, 1.888386f,
                         2.218624f, 0.781376f, 1.888386f, 0.111614f};
    EXPECT_CLOSE("O", Ow, O, 8, 1e-5f);
}
END_TEST

START_TEST(test_self_attention_average_and_causal)
{
    /* README section 4: the heads' mean, row 0 = ((0.669762 + 0.944193) / 2,
       (0.330238 + 0.055807) / 2) = (0.806977, 0.193023); the rest of A untouched */
    const float X[8] = {1, 0, 0, 2, 0, 1, 2, 0};
    float W[64], O[8], A[8];
    worked_w(W);
    for (int k = 0; k < 8; k++)
        A[k] = -1;
    EXPECT_OK("lab_self_attention", lab_self_attention(O, A, X, W, 1, 2, 4, 2, 0, 1));
    const float Am[8] = {0.806977f, 0.193023f, 0.193023f, 0.806977f, -1, -1, -1, -1};
    EXPECT_CLOSE("A (mean)", Am, A, 8, 1e-5f);
    /* causal: row 0 sees token 0 alone, its output X0 through W_O = (1, 2, 0, 2) */
    EXPECT_OK("lab_self_attention", lab_self_attention(O, A, X, W, 1, 2, 4, 2, 1, 0));
    const float O0[4] = {1, 2, 0, 2};
    EXPECT_CLOSE("O row 0 (causal)", O0, O, 4, 1e-6f);
    const float A0[2] = {1, 0};
    EXPECT_CLOSE("A head 0 row 0 (causal)", A0, A, 2, 1e-6f);
    /* d_model 4 and H 3: a head of 4/3 features, LAB_BAD_ARG, O untouched */
    float P[4] = {5, 5, 5, 5};
    EXPECT_STATUS("lab_self_attention", LAB_BAD_ARG, lab_self_attention(P, A, X, W, 1, 1, 4, 3, 0, 0));
    const float same[4] = {5, 5, 5, 5};
    EXPECT_CLOSE("O (untouched)", same, P, 4, 0.0f);
}
END_TEST

/* ---- lab_cross_attention ------------------------------------------------------------ */

START_TEST(test_cross_attention_worked)
{
    /* README section 5: Y0 = (1, 0, 0, 1); S0 = (1, 0, 0, 2), S1 = (0, 1, 2, 0) and the
       padding S2 = (5, 5, 5, 5), keep = (1, 1, 0).
       Head 0: weights 0.669762, 0.330238, 0; output (0.669762, 0.330238).
       Head 1: scores 1.414214, 0; weights 4.113250 / 5.113250 = 0.804430, 0.195570, 0;
       output (0.391141, 1.608859). O = (1.060902, 1.939098, 0.391141, 1.608859). */
    const float Y[4] = {1, 0, 0, 1};
    const float S[12] = {1, 0, 0, 2, 0, 1, 2, 0, 5, 5, 5, 5};
    const unsigned char keep[3] = {1, 1, 0};
    float W[64], O[4], A[6];
    worked_w(W);
    lc_poison(O, 4);
    lc_poison(A, 6);
    EXPECT_OK("lab_cross_attention", lab_cross_attention(O, A, Y, S, W, keep, 1, 1, 3, 4, 2, 0));
    const float Aw[6] = {0.669762f, 0.330238f, 0, 0.804430f, 0.195570f, 0};
    EXPECT_CLOSE("A", Aw, A, 6, 1e-5f);
    const float Ow[4] = {1.060902f, 1.939098f, 0.391141f, 1.608859f};
    EXPECT_CLOSE("O", Ow, O, 4, 1e-5f);
}
END_TEST

START_TEST(test_cross_attention_no_source)
{
    /* a source with no token kept: weights 0 and output 0 (nothing to read) */
    const float Y[4] = {1, 0, 0, 1};
    const float S[12] = {1, 0, 0, 2, 0, 1, 2, 0, 5, 5, 5, 5};
    const unsigned char none[3] = {0, 0, 0};
    float W[64], O[4], A[6];
    worked_w(W);
    lc_poison(O, 4);
    lc_poison(A, 6);
    EXPECT_OK("lab_cross_attention", lab_cross_attention(O, A, Y, S, W, none, 1, 1, 3, 4, 2, 0));
    const float zero[6] = {0};
    EXPECT_CLOSE("A", zero, A, 6, 0.0f);
    EXPECT_CLOSE("O", zero, O, 4, 0.0f);
    /* average 2: LAB_BAD_ARG, O untouched */
    float P[4] = {5, 5, 5, 5};
    EXPECT_STATUS("lab_cross_attention", LAB_BAD_ARG,
                  lab_cross_attention(P, A, Y, S, W, none, 1, 1, 3, 4, 2, 2));
    const float same[4] = {5, 5, 5, 5};
    EXPECT_CLOSE("O (untouched)", same, P, 4, 0.0f);
}
END_TEST

static Suite *lab12_suite(void)
{
    Suite *s = suite_create("lab12");
    TCase *tc = tcase_create("lab12");
    tcase_add_test(tc, test_split_heads_worked);
    tcase_add_test(tc, test_self_attention_worked);
    tcase_add_test(tc, test_self_attention_average_and_causal);
    tcase_add_test(tc, test_cross_attention_worked);
    tcase_add_test(tc, test_cross_attention_no_source);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(lab12_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
