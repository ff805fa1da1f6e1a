/* test_lab04.c: the visible tests of lab 4 (make test).
 *
 * Each test first checks the return code, then the values. The entropy values
 * are worked out by hand in the comments (ln 2 = 0.693147, ln 4 = 1.386294).
 * The experiment's values depend on the generator, so its tests check the draw
 * order on tiny cases you can follow, and the behaviour the handout predicts on
 * big ones. Add your own cases: copy a test, change the numbers, register it in
 * lab04_suite() at the bottom. The grader runs more tests than these, with
 * seeds of its own.
 *
 * The checks (EXPECT_OK, EXPECT_STATUS, EXPECT_CLOSE, ...) are the same in every
 * lab; labs/labcheck.h describes each one.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "lab04.h"
#include "labcheck.h"
#include "expected_lab04.h"

/* ---- lab_row_entropy ---------------------------------------------------------- */

/* Four rows of n = 4:
     uniform [1/4, 1/4, 1/4, 1/4]:  -4 * (1/4) ln(1/4) = ln 4 = 1.386294 (the maximum)
     one-hot [0, 1, 0, 0]:          -1 ln 1 = 0, and 0 ln 0 counts as 0 (not NaN)
     [1/2, 1/2, 0, 0]:              ln 2 = 0.693147 (two keys share the weight)
     the worked row, key 3 padding, [0.705385, 0.259496, 0.035119, 0]:
         0.705385 * 0.349012 + 0.259496 * 1.349014 + 0.035119 * 3.349013
       = 0.246187 + 0.350064 + 0.117614 = 0.713865 */
START_TEST(test_entropy_worked_rows)
{
    const float W[16] = {0.25f, 0.25f, 0.25f, 0.25f,
                         0, 1, 0, 0,
                         0.5f, 0.5f, 0, 0,
                         0.705385f, 0.259496f, 0.035119f, 0};
    const float want[4] = {1.386294f, 0, 0.693147f, 0.713865f};
    float H[4] = {0};
    EXPECT_OK("lab_row_entropy", lab_row_entropy(H, W, 4, 4));
    for (int r = 0; r < 4; r++) {
        ck_assert_msg(!isnan(H[r]), "H[%d] is NaN: a weight of 0 must add 0 (0 log 0 = 0), "
                      "not 0 * log(0) = 0 * -inf = NaN", r);
    }
    EXPECT_CLOSE("H", want, H, 4, 1e-5f);
}
END_TEST

/* A fully masked row (all weights 0, lab 2's policy) has entropy 0.
   The natural log: uniform over n = 8 keys gives ln 8 = 2.079442
   (log2 would give 3, log10 0.903090). */
START_TEST(test_entropy_zeros_and_natural_log)
{
    float W[16] = {0};
    for (int j = 8; j < 16; j++) W[j] = 0.125f;
    const float want[2] = {0, 2.079442f};
    float H[2] = {-1, -1};
    EXPECT_OK("lab_row_entropy", lab_row_entropy(H, W, 2, 8));
    EXPECT_CLOSE("H", want, H, 2, 1e-5f);
}
END_TEST

/* rows < 0 or n < 1: LAB_BAD_ARG, H untouched. */
START_TEST(test_entropy_bad_args)
{
    const float W[1] = {1};
    float H[1] = {42};
    EXPECT_STATUS("lab_row_entropy", LAB_BAD_ARG, lab_row_entropy(H, W, 1, 0));
    EXPECT_STATUS("lab_row_entropy", LAB_BAD_ARG, lab_row_entropy(H, W, -1, 1));
    ck_assert_msg(H[0] == 42, "lab_row_entropy wrote H before rejecting a bad argument");
}
END_TEST

/* ---- lab_entropy_experiment: the draw order ----------------------------------- */

/* The smallest experiment you can check by hand: d = 1, T = 2 keys, one trial.
   Draw order: the query first (1 normal), then the keys (2 normals):
       q = z0, k0 = z1, k1 = z2,  scores s = [z0 z1, z0 z2]
   With d = 1, sqrt(d) = 1, so raw and scaled agree. Two keys give weights
   w0 = 1 / (1 + e^(s1 - s0)) and w1 = 1 - w0, and H = -w0 ln w0 - w1 ln w1;
   the expected H, worked out this way from the same seed's z0, z1, z2, is in
   expected_lab04.h. */
START_TEST(test_experiment_draw_order_d1)
{
    const int dks[1] = {1};
    float H_raw[1] = {-1}, H_scaled[1] = {-1};
    EXPECT_OK("lab_entropy_experiment", lab_entropy_experiment(H_raw, H_scaled, dks, 1, 2, 1, 42));
    EXPECT_CLOSE("H_raw (draw q, then K; seed once)", lab04_draw_order_d1, H_raw, 1, 1e-5f);
    EXPECT_CLOSE("H_scaled", lab04_draw_order_d1, H_scaled, 1, 1e-5f);
}
END_TEST

/* d = 2, T = 2, one trial, then the generator continues: dks = {1, 2}.
     d = 1: q = z0; k0 = z1; k1 = z2                        (3 draws)
     d = 2: q = [z3, z4]; k0 = [z5, z6]; k1 = [z7, z8]       (6 more)
            raw s = [z3 z5 + z4 z6, z3 z7 + z4 z8], scaled s / sqrt(2)
   Reseeding for the second d would give other numbers. The entropies of
   these scores are in expected_lab04.h. */
/* The grader's advice when the second d_k is wrong and the first right. */
#define RESEED_HINT                                                                  \
    "if element [0] is right and [1] is not, the generator was probably seeded "   \
    "again for the second d_k: seed it once, before the loop; the draws for "      \
    "dks[1] continue where those for dks[0] stopped (the grader calls this "       \
    "mistake 'generator reseeded for every d_k')"
START_TEST(test_experiment_draw_order_d2)
{
    const int dks[2] = {1, 2};
    float H_raw[2] = {-1, -1}, H_scaled[2] = {-1, -1};
    EXPECT_OK("lab_entropy_experiment", lab_entropy_experiment(H_raw, H_scaled, dks, 2, 2, 1, 7));
    EXPECT_CLOSE_HINT("H_raw", lab04_draw_order_d2_raw, H_raw, 2, 1e-5f, LC_ABS, RESEED_HINT);
    EXPECT_CLOSE("H_scaled (raw scores divided by sqrt(d))", lab04_draw_order_d2_scaled,
                 H_scaled, 2, 1e-5f);
}
END_TEST

/* Two trials are averaged: d = 1, T = 2, trials = 2 takes 6 draws,
   trial 0 from z0 z1 z2, trial 1 from z3 z4 z5; H = (H0 + H1) / 2. */
START_TEST(test_experiment_mean_over_trials)
{
    const int dks[1] = {1};
    float H_raw[1] = {-1}, H_scaled[1] = {-1};
    EXPECT_OK("lab_entropy_experiment", lab_entropy_experiment(H_raw, H_scaled, dks, 1, 2, 2, 99));
    EXPECT_CLOSE("H_raw (the mean over trials)", lab04_mean_over_trials, H_raw, 1, 1e-5f);
}
END_TEST

/* ---- lab_entropy_experiment: what it shows ------------------------------------ */

/* One key gets all the weight: entropy exactly 0 for any d. */
START_TEST(test_experiment_one_key)
{
    const int dks[2] = {3, 50};
    float H_raw[2] = {-1, -1}, H_scaled[2] = {-1, -1};
    const float want[2] = {0, 0};
    EXPECT_OK("lab_entropy_experiment", lab_entropy_experiment(H_raw, H_scaled, dks, 2, 1, 3, 1));
    EXPECT_CLOSE("H_raw", want, H_raw, 2, 1e-6f);
    EXPECT_CLOSE("H_scaled", want, H_scaled, 2, 1e-6f);
}
END_TEST

/* The handout's prediction, section 4, for T = 64 keys and 100 trials (seed 1):
     scaled: near log 64 - 1/2 = 3.659 for every d (scores of variance 1)
     raw:    falls as d grows (scores of variance d), toward one-hot (0)
   Tolerances are wide: this checks the shape of the curve, not its digits. */
START_TEST(test_experiment_raw_collapses_scaled_does_not)
{
    const int dks[3] = {8, 64, 512};
    float H_raw[3] = {0}, H_scaled[3] = {0};
    EXPECT_OK("lab_entropy_experiment", lab_entropy_experiment(H_raw, H_scaled, dks, 3, 64, 100, 1));
    const double ln64 = 4.158883, predicted = ln64 - 0.5;
    for (int m = 0; m < 3; m++) {
        ck_assert_msg(H_raw[m] >= 0 && H_scaled[m] >= 0 && (double)H_scaled[m] <= ln64 + 1e-5,
                      "d = %d: entropies must lie in [0, ln 64 = 4.159], got raw %g, scaled %g",
                      dks[m], (double)H_raw[m], (double)H_scaled[m]);
        ck_assert_msg(fabs((double)H_scaled[m] - predicted) < 0.25,
                      "d = %d: H_scaled = %.4f, expected about ln 64 - 1/2 = %.4f "
                      "(are the scaled scores divided by sqrt(d)?)", dks[m],
                      (double)H_scaled[m], predicted);
    }
    ck_assert_msg(H_raw[0] > H_raw[1] && H_raw[1] > H_raw[2],
                  "H_raw should fall as d grows: got %.4f, %.4f, %.4f for d = 8, 64, 512",
                  (double)H_raw[0], (double)H_raw[1], (double)H_raw[2]);
    ck_assert_msg(H_raw[2] < 0.75f, "at d = 512 raw weights are nearly one-hot, so H_raw "
                  "should be far below ln 64 = 4.159; got %.4f", (double)H_raw[2]);
    ck_assert_msg(H_raw[0] < H_scaled[0], "at d = 8 raw scores are sqrt(8) times wider than "
                  "scaled ones, so H_raw (%.4f) should be below H_scaled (%.4f)",
                  (double)H_raw[0], (double)H_scaled[0]);
}
END_TEST

/* Raw scores at d = 4096 have a standard deviation near 64, so the largest of
   16 keys is usually above 88, where expf overflows to inf: without subtracting
   the max first, the weights become inf / inf = NaN. */
START_TEST(test_experiment_large_d_is_stable)
{
    const int dks[1] = {4096};
    float H_raw[1] = {-1}, H_scaled[1] = {-1};
    EXPECT_OK("lab_entropy_experiment", lab_entropy_experiment(H_raw, H_scaled, dks, 1, 16, 10, 3));
    ck_assert_msg(!isnan(H_raw[0]) && !isnan(H_scaled[0]), "d = 4096 gave NaN entropies "
                  "(H_raw %g, H_scaled %g). A NaN comes from inf / inf (exp of a large score "
                  "overflowed: subtract the row max before exp, lab 2, section 3) or from 0 / 0 "
                  "or 0 * log 0 (a weight of exactly 0 must add 0 to the entropy); print one "
                  "row's weights to see which", (double)H_raw[0], (double)H_scaled[0]);
    ck_assert_msg(H_raw[0] >= 0 && (double)H_raw[0] <= 2.772589 + 1e-5,   /* ln 16 */
                  "d = 4096: H_raw = %g is outside [0, ln 16]", (double)H_raw[0]);
}
END_TEST

/* The grader's visible test experiment_large_dk: d = 1024 and 2048, T = 64, 5
   trials, seed 111. Raw scores there have a standard deviation near 45, so in
   some trials the largest is above 88, where expf overflows to inf; a softmax
   that does not subtract the row max first gets inf / inf = NaN weights on
   those rows, and an entropy that skips NaN weights counts the row as 0, so
   the mean comes out too low rather than NaN. The expected entropies are in
   expected_lab04.h (the answer key's, in double precision). */
START_TEST(test_experiment_large_d_matches)
{
    const int dks[2] = {1024, 2048};
    float H_raw[2] = {-1, -1}, H_scaled[2] = {-1, -1};
    EXPECT_OK("lab_entropy_experiment", lab_entropy_experiment(H_raw, H_scaled, dks, 2, 64, 5, 111));
    EXPECT_CLOSE_HINT("H_raw", lab04_large_d_raw, H_raw, 2, 1e-3f, LC_ABS,
                      "too low? does your softmax subtract the row max before expf (lab 2, "
                      "section 3)? Print a row's weights at d = 2048 to see");
    EXPECT_CLOSE("H_scaled", lab04_large_d_scaled, H_scaled, 2, 1e-3f);
}
END_TEST

/* A seed fixes every number: the same seed gives the same results bit for bit,
   another seed gives other results. */
START_TEST(test_experiment_reproducible)
{
    const int dks[2] = {4, 16};
    float a_raw[2] = {0}, a_sc[2] = {0}, b_raw[2] = {0}, b_sc[2] = {0}, c_raw[2] = {0}, c_sc[2] = {0};
    EXPECT_OK("lab_entropy_experiment", lab_entropy_experiment(a_raw, a_sc, dks, 2, 16, 5, 2024));
    EXPECT_OK("lab_entropy_experiment", lab_entropy_experiment(b_raw, b_sc, dks, 2, 16, 5, 2024));
    EXPECT_OK("lab_entropy_experiment", lab_entropy_experiment(c_raw, c_sc, dks, 2, 16, 5, 2025));
    EXPECT_CLOSE("H_raw (same seed, second run)", a_raw, b_raw, 2, 0.0f);
    EXPECT_CLOSE("H_scaled (same seed, second run)", a_sc, b_sc, 2, 0.0f);
    ck_assert_msg(a_raw[0] != c_raw[0] || a_raw[1] != c_raw[1],
                  "seeds 2024 and 2025 gave the same H_raw: is the seed used?");
}
END_TEST

/* n_dk, T, trials below 1, or a d below 1: LAB_BAD_ARG, outputs untouched. */
START_TEST(test_experiment_bad_args)
{
    const int good[2] = {4, 8}, bad[2] = {4, 0};
    float H_raw[2] = {42, 42}, H_scaled[2] = {42, 42};
    EXPECT_STATUS("lab_entropy_experiment", LAB_BAD_ARG,
                  lab_entropy_experiment(H_raw, H_scaled, good, 0, 4, 1, 1));
    EXPECT_STATUS("lab_entropy_experiment", LAB_BAD_ARG,
                  lab_entropy_experiment(H_raw, H_scaled, good, 2, 0, 1, 1));
    EXPECT_STATUS("lab_entropy_experiment", LAB_BAD_ARG,
                  lab_entropy_experiment(H_raw, H_scaled, good, 2, 4, 0, 1));
    EXPECT_STATUS("lab_entropy_experiment", LAB_BAD_ARG,
                  lab_entropy_experiment(H_raw, H_scaled, bad, 2, 4, 1, 1));
    ck_assert_msg(H_raw[0] == 42 && H_raw[1] == 42 && H_scaled[0] == 42 && H_scaled[1] == 42,
                  "lab_entropy_experiment wrote outputs before rejecting a bad argument "
                  "(check every d before the first draw)");
}
END_TEST

/* ---- the suite ------------------------------------------------------------- */

static Suite *lab04_suite(void)
{
    Suite *s = suite_create("lab04-entropy");

    TCase *ent = tcase_create("lab_row_entropy");
    tcase_add_test(ent, test_entropy_worked_rows);
    tcase_add_test(ent, test_entropy_zeros_and_natural_log);
    tcase_add_test(ent, test_entropy_bad_args);
    suite_add_tcase(s, ent);

    TCase *exp_ = tcase_create("lab_entropy_experiment");
    tcase_add_test(exp_, test_experiment_draw_order_d1);
    tcase_add_test(exp_, test_experiment_draw_order_d2);
    tcase_add_test(exp_, test_experiment_mean_over_trials);
    tcase_add_test(exp_, test_experiment_one_key);
    tcase_add_test(exp_, test_experiment_raw_collapses_scaled_does_not);
    tcase_add_test(exp_, test_experiment_large_d_is_stable);
    tcase_add_test(exp_, test_experiment_large_d_matches);
    tcase_add_test(exp_, test_experiment_reproducible);
    tcase_add_test(exp_, test_experiment_bad_args);
    suite_add_tcase(s, exp_);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(lab04_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
