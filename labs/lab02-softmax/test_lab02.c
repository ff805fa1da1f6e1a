/* test_lab02.c: the visible tests of lab 2 (make test).
 *
 * Each test first checks the return code, then the values. Expected values are
 * worked out by hand in the comments (exp(-1) = 0.367879, exp(-1.5) = 0.223130,
 * exp(-3) = 0.049787), so you can follow them and add your own cases: copy a
 * test, change the numbers, register it in lab02_suite() at the bottom. The
 * grader runs more tests than these, with random inputs of its own.
 *
 * The checks (EXPECT_OK, EXPECT_STATUS, EXPECT_CLOSE, ...) are the same in every
 * lab; labs/labcheck.h describes each one.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lab02.h"
#include "labcheck.h"

/* ---- helpers ------------------------------------------------------------ */

/* Fail unless S[k] is exactly -inf, saying what the usual wrong values mean. */
#define EXPECT_MASKED(S, k) do {                                                  \
        float v_ = (S)[k];                                                        \
        ck_assert_msg(!(v_ == 0.0f), "score %d was set to 0, not -inf: a score of 0 " \
                      "still gets a positive weight after softmax", (int)(k));    \
        ck_assert_msg(!(v_ < -1e3f && !isinf(v_)), "score %d is %g, a large negative " \
                      "number: a mask writes -INFINITY (with a constant, a fully " \
                      "masked row gets uniform weights)", (int)(k), (double)v_);  \
        ck_assert_msg(isinf(v_) && v_ < 0, "score %d should be masked (-inf), got %g", \
                      (int)(k), (double)v_);                                      \
    } while (0)

/* Softmax of the course's worked row [2, 1, -1, 0.5]: the max is 2, so
     exp(0) = 1, exp(-1) = 0.367879, exp(-3) = 0.049787, exp(-1.5) = 0.223130
     sum = 1.640797
     W = [1, 0.367879, 0.049787, 0.223130] / 1.640797
       = [0.609460, 0.224208, 0.030343, 0.135989] */
static const float worked_scores[4]  = {2, 1, -1, 0.5f};
static const float worked_weights[4] = {0.609460f, 0.224208f, 0.030343f, 0.135989f};

/* The worked row with key 3 as padding, [2, 1, -1, -inf]:
     exp(0) + exp(-1) + exp(-3) + 0 = 1 + 0.367879 + 0.049787 = 1.417667
     W = [1/1.417667, 0.367879/1.417667, 0.049787/1.417667, 0]
       = [0.705385, 0.259496, 0.035119, 0]     (0.7054, 0.2595, 0.0351, 0) */
static const float padded_weights[4] = {0.705385f, 0.259496f, 0.035119f, 0.0f};

/* ---- lab_softmax ----------------------------------------------------------- */

START_TEST(test_softmax_worked_row)
{
    float W[4] = {0};
    EXPECT_OK("lab_softmax", lab_softmax(W, worked_scores, 1, 4, NULL));
    EXPECT_CLOSE("W", worked_weights, W, 4, 1e-5f);
}
END_TEST

/* Key 4 is padding: its weight is exactly 0, the other three renormalise to
   sum to 1, and the score of -1 still gets a positive weight (0.0351): a
   negative score is not negative attention. */
START_TEST(test_softmax_worked_row_padded)
{
    const float S[4] = {2, 1, -1, -INFINITY};
    float W[4] = {0};
    int masked = -1;
    EXPECT_OK("lab_softmax", lab_softmax(W, S, 1, 4, &masked));
    EXPECT_CLOSE("W", padded_weights, W, 4, 1e-5f);
    ck_assert_msg(W[3] == 0.0f, "the weight of a -inf score must be exactly 0, got %g", (double)W[3]);
    ck_assert_msg(W[2] > 0.0f, "a score of -1 must still get a positive weight, got %g", (double)W[2]);
    ck_assert_msg(masked == 0, "no row is fully masked, but *n_masked_rows = %d", masked);
}
END_TEST

/* Softmax ignores a shift of the whole row, so [1e4 + 2, 1e4 + 1, 1e4 - 1, 1e4 + 0.5]
   has the worked row's weights. Without subtracting the max, expf(1e4) = inf and
   the row becomes inf/inf = NaN. The same holds for a row near -1e4, where every
   expf underflows to 0 and the row would become 0/0. */
START_TEST(test_softmax_large_scores_are_stable)
{
    const float S[8] = {10002, 10001, 9999, 10000.5f,
                        -9998, -9999, -10001, -9999.5f};
    float W[8] = {0};
    EXPECT_OK("lab_softmax", lab_softmax(W, S, 2, 4, NULL));
    for (int k = 0; k < 8; k++) {
        ck_assert_msg(!isnan(W[k]), "W[%d] is NaN for scores near +-1e4: subtract the row "
                      "max before exp (handout, section 3)", k);
    }
    EXPECT_CLOSE("W row 0", worked_weights, W, 4, 1e-5f);
    EXPECT_CLOSE("W row 1", worked_weights, W + 4, 4, 1e-5f);
}
END_TEST

/* W may be the same array as S. */
START_TEST(test_softmax_in_place)
{
    float S[4];
    memcpy(S, worked_scores, sizeof S);
    EXPECT_OK("lab_softmax", lab_softmax(S, S, 1, 4, NULL));
    EXPECT_CLOSE("W (in place)", worked_weights, S, 4, 1e-5f);
}
END_TEST

/* Three rows, the middle one fully masked: it becomes zeros (never NaN) and is
   counted; the rows around it are untouched by the policy.
     row 0: [0, 0]      -> [0.5, 0.5]
     row 1: [-inf, -inf] -> [0, 0], counted
     row 2: [0, ln 3]   -> [1/4, 3/4]   (exp(ln 3) = 3, 3 / (1 + 3)) */
START_TEST(test_softmax_fully_masked_row)
{
    const float S[6] = {0, 0,  -INFINITY, -INFINITY,  0, 1.0986123f};
    const float want[6] = {0.5f, 0.5f,  0, 0,  0.25f, 0.75f};
    float W[6] = {0};
    int masked = -1;
    EXPECT_OK("lab_softmax", lab_softmax(W, S, 3, 2, &masked));
    ck_assert_msg(!isnan(W[2]) && !isnan(W[3]), "a fully masked row must become zeros, "
                  "not NaN (handout, section 5)");
    EXPECT_CLOSE("W", want, W, 6, 1e-6f);
    ck_assert_msg(masked == 1, "one row is fully masked, but *n_masked_rows = %d", masked);
    // the count is optional: NULL must be accepted
    EXPECT_OK("lab_softmax", lab_softmax(W, S, 3, 2, NULL));
}
END_TEST

/* Properties on random rows (seed 11), some keys masked: every weight in
   [0, 1], each row sums to 1, a weight is 0 exactly where its score is -inf
   and positive everywhere else. */
START_TEST(test_softmax_rows_sum_to_one)
{
    enum { rows = 8, n = 33 };
    float S[rows * n], W[rows * n] = {0};
    sup_rng rng;
    sup_rng_seed(&rng, 11);
    sup_rng_fill_normal(&rng, S, rows * n);
    for (int k = 0; k < rows * n; k++) {
        S[k] *= 5.0f;                                   // spread the scores out
        if (k % 7 == 3) S[k] = -INFINITY;               // and mask some keys
    }
    EXPECT_OK("lab_softmax", lab_softmax(W, S, rows, n, NULL));
    for (int r = 0; r < rows; r++) {
        double sum = 0;
        for (int j = 0; j < n; j++) {
            float w = W[r * n + j];
            ck_assert_msg(w >= 0.0f && w <= 1.0f, "W[%d][%d] = %g is not in [0, 1]", r, j, (double)w);
            if (isinf(S[r * n + j])) {
                ck_assert_msg(w == 0.0f, "W[%d][%d] = %g, but its score is -inf: must be exactly 0",
                              r, j, (double)w);
            } else {
                ck_assert_msg(w > 0.0f, "W[%d][%d] = 0 for the finite score %g: only a "
                              "masked score gets weight 0", r, j, (double)S[r * n + j]);
            }
            sum += (double)w;
        }
        ck_assert_msg(fabs(sum - 1.0) < 1e-5, "row %d sums to %.7f, not 1 (softmax over the "
                      "key axis: normalise each row of n scores)", r, sum);
    }
}
END_TEST

/* rows < 0 or n < 1 breaks the contract: LAB_BAD_ARG, outputs untouched. */
START_TEST(test_softmax_bad_args)
{
    const float S[2] = {1, 2};
    float W[2] = {42, 42};
    int masked = 42;
    EXPECT_STATUS("lab_softmax", LAB_BAD_ARG, lab_softmax(W, S, 1, 0, &masked));
    EXPECT_STATUS("lab_softmax", LAB_BAD_ARG, lab_softmax(W, S, -1, 2, &masked));
    ck_assert_msg(W[0] == 42 && W[1] == 42 && masked == 42,
                  "lab_softmax wrote outputs before rejecting a bad argument");
}
END_TEST

/* ---- lab_causal_mask -------------------------------------------------------- */

/* Tq = Tk = 3. Query i keeps keys 0 .. i; the others become -inf:
     [ s00  -inf -inf ]
     [ s10  s11  -inf ]
     [ s20  s21  s22  ]
   The kept scores keep their values. */
START_TEST(test_causal_square)
{
    float S[9] = {1, 2, 3,  4, 5, 6,  7, 8, 9};
    const float want[9] = {1, -INFINITY, -INFINITY,
                           4, 5, -INFINITY,
                           7, 8, 9};
    EXPECT_OK("lab_causal_mask", lab_causal_mask(S, 1, 3, 3));
    EXPECT_MASKED(S, 1);
    EXPECT_CLOSE_WITH("S", want, S, 9, 0.0f, LC_ABS | LC_INF);
}
END_TEST

/* Mask then softmax: all-zero scores, causal, give
     [1, 0, 0], [1/2, 1/2, 0], [1/3, 1/3, 1/3]
   (each query spreads its weight evenly over the keys it may see). */
START_TEST(test_causal_then_softmax)
{
    float S[9] = {0};
    const float want[9] = {1, 0, 0,  0.5f, 0.5f, 0,  1.0f / 3, 1.0f / 3, 1.0f / 3};
    EXPECT_OK("lab_causal_mask", lab_causal_mask(S, 1, 3, 3));
    EXPECT_OK("lab_softmax", lab_softmax(S, S, 3, 3, NULL));
    EXPECT_CLOSE("W", want, S, 9, 1e-6f);
}
END_TEST

/* B = 2, Tq = 2, Tk = 4: j > i everywhere, for each batch element. */
START_TEST(test_causal_rectangular_batched)
{
    float S[16];
    for (int k = 0; k < 16; k++) S[k] = (float)k;
    const float I = INFINITY;
    const float want[16] = {0, -I, -I, -I,    4, 5, -I, -I,
                            8, -I, -I, -I,    12, 13, -I, -I};
    EXPECT_OK("lab_causal_mask", lab_causal_mask(S, 2, 2, 4));
    EXPECT_CLOSE_WITH("S", want, S, 16, 0.0f, LC_ABS | LC_INF);
}
END_TEST

/* ---- lab_padding_mask ------------------------------------------------------- */

/* The course's worked row: scores [2, 1, -1, 0.5], key 3 is padding
   (length 3) -> scores [2, 1, -1, -inf] -> weights [0.7054, 0.2595, 0.0351, 0]. */
START_TEST(test_padding_worked_row)
{
    float S[4];
    memcpy(S, worked_scores, sizeof S);
    const int lengths[1] = {3};
    EXPECT_OK("lab_padding_mask", lab_padding_mask(S, lengths, 1, 1, 4));
    EXPECT_MASKED(S, 3);
    EXPECT_OK("lab_softmax", lab_softmax(S, S, 1, 4, NULL));
    EXPECT_CLOSE("W", padded_weights, S, 4, 1e-5f);
}
END_TEST

/* B = 2, Tq = 2, Tk = 3, lengths [1, 3]: element 0 keeps only key 0 in both of
   its rows; element 1 has no padding and is left as it was. */
START_TEST(test_padding_per_batch_element)
{
    float S[12];
    for (int k = 0; k < 12; k++) S[k] = (float)k;
    const int lengths[2] = {1, 3};
    const float I = INFINITY;
    const float want[12] = {0, -I, -I,   3, -I, -I,
                            6, 7, 8,     9, 10, 11};
    EXPECT_OK("lab_padding_mask", lab_padding_mask(S, lengths, 2, 2, 3));
    EXPECT_CLOSE_WITH("S", want, S, 12, 0.0f, LC_ABS | LC_INF);
}
END_TEST

/* A length of 0 masks every key: both rows are fully masked, and softmax makes
   them zeros and counts 2. */
START_TEST(test_padding_length_zero)
{
    float S[6] = {1, 2, 3, 4, 5, 6};
    const int lengths[1] = {0};
    const float want[6] = {0};
    int masked = -1;
    EXPECT_OK("lab_padding_mask", lab_padding_mask(S, lengths, 1, 2, 3));
    EXPECT_OK("lab_softmax", lab_softmax(S, S, 2, 3, &masked));
    EXPECT_CLOSE("W", want, S, 6, 0.0f);
    ck_assert_msg(masked == 2, "both rows are fully masked, but *n_masked_rows = %d", masked);
}
END_TEST

/* A length below 0 or above Tk is LAB_BAD_ARG, and S is left untouched even
   for the batch elements whose lengths were fine (check all lengths first). */
START_TEST(test_padding_bad_lengths)
{
    float S[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    const float orig[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    const int too_long[2] = {2, 5};
    const int negative[2] = {-1, 4};
    EXPECT_STATUS("lab_padding_mask", LAB_BAD_ARG, lab_padding_mask(S, too_long, 2, 1, 4));
    EXPECT_CLOSE("S (must be untouched)", orig, S, 8, 0.0f);
    EXPECT_STATUS("lab_padding_mask", LAB_BAD_ARG, lab_padding_mask(S, negative, 2, 1, 4));
    EXPECT_CLOSE("S (must be untouched)", orig, S, 8, 0.0f);
}
END_TEST

/* ---- lab_bool_mask ---------------------------------------------------------- */

/* 1 = blocked, 0 = allowed; any nonzero byte blocks (here 1, 2 and 255). */
START_TEST(test_bool_mask)
{
    float S[6] = {1, 2, 3, 4, 5, 6};
    const unsigned char M[6] = {0, 1, 0, 2, 0, 255};
    const float I = INFINITY;
    const float want[6] = {1, -I, 3, -I, 5, -I};
    EXPECT_OK("lab_bool_mask", lab_bool_mask(S, M, 1, 2, 3));
    EXPECT_MASKED(S, 1);
    EXPECT_CLOSE_WITH("S", want, S, 6, 0.0f, LC_ABS | LC_INF);
}
END_TEST

/* ---- lab_temperature -------------------------------------------------------- */

/* tau = 2 divides: [2, 1, -1, 0.5, -inf] -> [1, 0.5, -0.5, 0.25, -inf].
   (Multiplying by tau would give [4, 2, -2, 1, -inf].) */
START_TEST(test_temperature_divides)
{
    float S[5] = {2, 1, -1, 0.5f, -INFINITY};
    const float want[5] = {1, 0.5f, -0.5f, 0.25f, -INFINITY};
    EXPECT_OK("lab_temperature", lab_temperature(S, 2.0f, 5));
    EXPECT_CLOSE_WITH("S", want, S, 5, 1e-7f, LC_ABS | LC_INF);
}
END_TEST

/* Temperature before softmax flattens (tau > 1) or sharpens (tau < 1):
     tau = 2:   softmax([1, 0.5, -0.5, 0.25]) = [0.434400, 0.263477, 0.096928, 0.205196]
     tau = 0.5: softmax([4, 2, -2, 1])        = [0.842034, 0.113957, 0.002087, 0.041922]
   against tau = 1: [0.609460, ...]. The largest weight falls from 0.609 to 0.434
   at tau = 2 and rises to 0.842 at tau = 0.5. */
START_TEST(test_temperature_then_softmax)
{
    const float hot[4]  = {0.434400f, 0.263477f, 0.096928f, 0.205196f};
    const float cold[4] = {0.842034f, 0.113957f, 0.002087f, 0.041922f};
    float S[4];
    memcpy(S, worked_scores, sizeof S);
    EXPECT_OK("lab_temperature", lab_temperature(S, 2.0f, 4));
    EXPECT_OK("lab_softmax", lab_softmax(S, S, 1, 4, NULL));
    EXPECT_CLOSE("W at tau = 2", hot, S, 4, 1e-5f);
    memcpy(S, worked_scores, sizeof S);
    EXPECT_OK("lab_temperature", lab_temperature(S, 0.5f, 4));
    EXPECT_OK("lab_softmax", lab_softmax(S, S, 1, 4, NULL));
    EXPECT_CLOSE("W at tau = 0.5", cold, S, 4, 1e-5f);
}
END_TEST

/* tau must satisfy 0 < tau < infinity: 0, -1, NaN and infinity are LAB_BAD_ARG
   and leave S untouched. */
START_TEST(test_temperature_bad_tau)
{
    float S[2] = {1, 2};
    EXPECT_STATUS("lab_temperature", LAB_BAD_ARG, lab_temperature(S, 0.0f, 2));
    EXPECT_STATUS("lab_temperature", LAB_BAD_ARG, lab_temperature(S, -1.0f, 2));
    EXPECT_STATUS("lab_temperature", LAB_BAD_ARG, lab_temperature(S, NAN, 2));
    EXPECT_STATUS("lab_temperature", LAB_BAD_ARG, lab_temperature(S, INFINITY, 2));
    ck_assert_msg(S[0] == 1 && S[1] == 2,
                  "lab_temperature changed S before rejecting a bad tau");
}
END_TEST

/* ---- the suite ------------------------------------------------------------- */

static Suite *lab02_suite(void)
{
    Suite *s = suite_create("lab02-softmax");

    TCase *sm = tcase_create("lab_softmax");
    tcase_add_test(sm, test_softmax_worked_row);
    tcase_add_test(sm, test_softmax_worked_row_padded);
    tcase_add_test(sm, test_softmax_large_scores_are_stable);
    tcase_add_test(sm, test_softmax_in_place);
    tcase_add_test(sm, test_softmax_fully_masked_row);
    tcase_add_test(sm, test_softmax_rows_sum_to_one);
    tcase_add_test(sm, test_softmax_bad_args);
    suite_add_tcase(s, sm);

    TCase *masks = tcase_create("masks");
    tcase_add_test(masks, test_causal_square);
    tcase_add_test(masks, test_causal_then_softmax);
    tcase_add_test(masks, test_causal_rectangular_batched);
    tcase_add_test(masks, test_padding_worked_row);
    tcase_add_test(masks, test_padding_per_batch_element);
    tcase_add_test(masks, test_padding_length_zero);
    tcase_add_test(masks, test_padding_bad_lengths);
    tcase_add_test(masks, test_bool_mask);
    suite_add_tcase(s, masks);

    TCase *temp = tcase_create("lab_temperature");
    tcase_add_test(temp, test_temperature_divides);
    tcase_add_test(temp, test_temperature_then_softmax);
    tcase_add_test(temp, test_temperature_bad_tau);
    suite_add_tcase(s, temp);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(lab02_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
