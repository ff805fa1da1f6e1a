/* test_lab05.c: the visible tests of lab 5. Run them with
 *     make -C labs/lab05-masking test
 * Each test states where its expected numbers come from, so you can add your own
 * cases the same way (copy a START_TEST block and register it at the bottom).
 * The checks (EXPECT_OK, EXPECT_STATUS, EXPECT_CLOSE, lc_poison, ...) are the
 * same in every lab; labs/labcheck.h describes each one.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "lab05.h"
#include "labcheck.h"
#include "expected_lab05.h"

/* ---- helpers -------------------------------------------------------------- */

/* The course's worked row: scores [2, 1, -1, 0.5], the 4th key is padding.
   V is the 4x4 identity, so each output row is exactly the weight row. */
static const float worked_S[4] = { 2.0f, 1.0f, -1.0f, 0.5f };
static const float identity4[16] = { 1, 0, 0, 0,  0, 1, 0, 0,  0, 0, 1, 0,  0, 0, 0, 1 };

/* ---- lab_attend_premask ----------------------------------------------------- */

START_TEST(test_premask_worked_row)
{
    /* Mask first: s' = [2, 1, -1, -inf].
       exp: e^2 = 7.389056, e^1 = 2.718282, e^-1 = 0.367879, e^-inf = 0
       sum = 10.475217
       w = [7.389056, 2.718282, 0.367879, 0] / 10.475217 = [0.7054, 0.2595, 0.0351, 0]
       The weights sum to 1, and the padded key gets exactly 0. */
    int lengths[1] = { 3 };
    float O[4];
    lc_poison(O, 4);
    EXPECT_OK("lab_attend_premask",
              lab_attend_premask(O, worked_S, lengths, identity4, 1, 1, 4, 4));
    const float want[4] = { 0.705385f, 0.259496f, 0.035119f, 0.0f };
    EXPECT_CLOSE("O", want, O, 4, 1e-5f);
    ck_assert_msg(O[3] == 0.0f, "O[3]: a padded key must get weight exactly 0, got %g",
                  (double)O[3]);
}
END_TEST

START_TEST(test_premask_rows_and_batches)
{
    /* B = 2, Tq = 2, Tk = 3, dv = 2: every (b, i) row uses its own scores, its
       batch entry's length and its batch entry's values.
       b = 0, lengths 1: only key 0 is real, so w = [1, 0, 0] whatever the scores
                         and O = V[0][0] = (1, 2) for both queries.
       b = 1, lengths 2: scores [ln 3, 0, 9] -> real part [ln 3, 0]
                         exp: [3, 1], sum 4, w = [0.75, 0.25, 0]
                         O = 0.75 * (4, 0) + 0.25 * (0, 8) = (3, 2)
                         scores [0, 0, -9] -> w = [0.5, 0.5, 0], O = (2, 4) */
    const float S[2 * 2 * 3] = {
        5.0f, -2.0f, 7.0f,      3.0f, 3.0f, 3.0f,        /* b = 0 */
        1.0986123f, 0.0f, 9.0f, 0.0f, 0.0f, -9.0f,       /* b = 1 */
    };
    const float V[2 * 3 * 2] = {
        1, 2,  10, 20,  30, 40,                           /* b = 0 */
        4, 0,  0, 8,  100, 100,                           /* b = 1 */
    };
    int lengths[2] = { 1, 2 };
    float O[2 * 2 * 2];
    lc_poison(O, 8);
    EXPECT_OK("lab_attend_premask", lab_attend_premask(O, S, lengths, V, 2, 2, 3, 2));
    const float want[8] = { 1, 2,  1, 2,  3, 2,  2, 4 };
    EXPECT_CLOSE("O", want, O, 8, 1e-5f);
}
END_TEST

START_TEST(test_premask_padding_has_no_influence)
{
    /* The same three real keys, alone (Tk = 3) and then batched with three padded
       keys that carry huge scores and junk values (Tk = 6, lengths 3): masking the
       scores makes the output identical. This is what "independent of batch
       composition" means. */
    const float S3[3] = { 0.3f, -1.2f, 2.0f };
    const float V3[3 * 2] = { 1, -1,  2, 5,  -3, 0.5f };
    const float S6[6] = { 0.3f, -1.2f, 2.0f, 1e30f, 50.0f, -7.0f };
    const float V6[6 * 2] = { 1, -1,  2, 5,  -3, 0.5f,  999, 999,  -999, 42, 7, 7 };
    int len3[1] = { 3 };
    float alone[2], padded[2];
    lc_poison(alone, 2);
    lc_poison(padded, 2);
    EXPECT_OK("lab_attend_premask", lab_attend_premask(alone, S3, len3, V3, 1, 1, 3, 2));
    EXPECT_OK("lab_attend_premask", lab_attend_premask(padded, S6, len3, V6, 1, 1, 6, 2));
    EXPECT_CLOSE("O with padding", alone, padded, 2, 1e-6f);
}
END_TEST

START_TEST(test_premask_fully_masked_row)
{
    /* lengths[0] = 0: no real key. softmax of [-inf, -inf] is 0/0 = NaN in plain
       arithmetic (and in torch.softmax); the course's policy is all-zero weights,
       so an all-zero output row. b = 1 is an ordinary row: scores [0, 0] give
       w = [0.5, 0.5], O = (V[1][0] + V[1][1]) / 2 = ((2 + 4) / 2, (6 + 8) / 2) = (3, 7). */
    const float S[2 * 1 * 2] = { 1.0f, 2.0f,  0.0f, 0.0f };
    const float V[2 * 2 * 2] = { 1, 1,  1, 1,   2, 6,  4, 8 };
    int lengths[2] = { 0, 2 };
    float O[2 * 2];
    lc_poison(O, 4);
    EXPECT_OK("lab_attend_premask", lab_attend_premask(O, S, lengths, V, 2, 1, 2, 2));
    const float want[4] = { 0, 0,  3, 7 };
    EXPECT_CLOSE_HINT("O", want, O, 4, 1e-6f, LC_ABS,
                      "O[0] = O[1] = 1 is the mean of the values: masking with -1e9 instead "
                      "of -inf leaves a row with no real key all equal scores, and softmax "
                      "spreads it 1/Tk each instead of giving zeros (the grader calls this "
                      "mistake '-1e9 instead of -inf as the mask value')");
}
END_TEST

START_TEST(test_premask_bad_args)
{
    /* A length outside [0, Tk] or a size < 1 breaks the contract: LAB_BAD_ARG and
       the output untouched. */
    float O[4];
    int too_long[1] = { 5 }, negative[1] = { -1 }, ok[1] = { 4 };
    lc_poison(O, 4);
    EXPECT_STATUS("lab_attend_premask (lengths[0] = 5 > Tk = 4)", LAB_BAD_ARG,
                  lab_attend_premask(O, worked_S, too_long, identity4, 1, 1, 4, 4));
    EXPECT_STATUS("lab_attend_premask (lengths[0] = -1)", LAB_BAD_ARG,
                  lab_attend_premask(O, worked_S, negative, identity4, 1, 1, 4, 4));
    EXPECT_STATUS("lab_attend_premask (dv = 0)", LAB_BAD_ARG,
                  lab_attend_premask(O, worked_S, ok, identity4, 1, 1, 4, 0));
    ck_assert_msg(O[0] == LC_POISON && O[3] == LC_POISON,
                  "lab_attend_premask wrote to O although it returned LAB_BAD_ARG");
}
END_TEST

/* ---- lab_attend_postmask ----------------------------------------------------- */

START_TEST(test_postmask_worked_row)
{
    /* Softmax over all 4 keys first: e^0.5 = 1.648721 joins the sum,
       sum = 10.475217 + 1.648721 = 12.123938
       w = [7.389056, 2.718282, 0.367879, 1.648721] / 12.123938
         = [0.609460, 0.224208, 0.030343, 0.135989]
       then zero the padded weight: [0.609460, 0.224208, 0.030343, 0]
       rowsum = 0.864011: 13.6% of the row's weight went to padding and is lost.
       Compare with the premask weights [0.7054, 0.2595, 0.0351, 0]. */
    int lengths[1] = { 3 };
    float O[4], rowsum[1];
    lc_poison(O, 4);
    lc_poison(rowsum, 1);
    EXPECT_OK("lab_attend_postmask",
              lab_attend_postmask(O, rowsum, worked_S, lengths, identity4, 1, 1, 4, 4));
    const float want[4] = { 0.609460f, 0.224208f, 0.030343f, 0.0f };
    EXPECT_CLOSE("O", want, O, 4, 1e-5f);
    const float want_sum[1] = { 0.864011f };
    EXPECT_CLOSE("rowsum", want_sum, rowsum, 1, 1e-5f);
}
END_TEST

START_TEST(test_postmask_is_a_shrunk_premask)
{
    /* Property: post-mask weights are the pre-mask weights times the row sum,
       w_post_j = e^{s_j} / (Z_real + Z_pad) = rowsum * e^{s_j} / Z_real,
       so O_post = rowsum * O_pre row by row. With no padding (lengths = Tk) the
       two agree and rowsum = 1. Random inputs, B = 2, Tq = 3, Tk = 5, dv = 4. */
    enum { B = 2, Tq = 3, Tk = 5, dv = 4 };
    float S[B * Tq * Tk], V[B * Tk * dv], pre[B * Tq * dv], post[B * Tq * dv];
    float rowsum[B * Tq], scaled[B * Tq * dv];
    sup_rng r;
    sup_rng_seed(&r, 2024);
    sup_rng_fill_normal(&r, S, B * Tq * Tk);
    sup_rng_fill_normal(&r, V, B * Tk * dv);
    int lengths[B] = { 3, Tk };
    lc_poison(post, B * Tq * dv);
    EXPECT_OK("lab_attend_postmask",
              lab_attend_postmask(post, rowsum, S, lengths, V, B, Tq, Tk, dv));
    EXPECT_OK("lab_attend_premask", lab_attend_premask(pre, S, lengths, V, B, Tq, Tk, dv));
    for (int b = 0; b < B; b++)
        for (int i = 0; i < Tq; i++) {
            float rs = rowsum[b * Tq + i];
            if (lengths[b] < Tk)
                ck_assert_msg(rs > 0.0f && rs < 1.0f,
                              "rowsum[%d][%d] = %g: with padding present it must be in (0, 1)",
                              b, i, (double)rs);
            else
                ck_assert_msg(fabsf(rs - 1.0f) < 1e-5f,
                              "rowsum[%d][%d] = %g: with no padding it must be 1", b, i, (double)rs);
            for (int c = 0; c < dv; c++)
                scaled[(b * Tq + i) * dv + c] = rs * pre[(b * Tq + i) * dv + c];
        }
    EXPECT_CLOSE("O_post versus rowsum * O_pre", scaled, post, B * Tq * dv, 1e-5f);
}
END_TEST

START_TEST(test_postmask_empty_row)
{
    /* lengths 0: every weight is zeroed, so rowsum = 0 and the output is 0. */
    int lengths[1] = { 0 };
    float O[4], rowsum[1];
    lc_poison(O, 4);
    lc_poison(rowsum, 1);
    EXPECT_OK("lab_attend_postmask",
              lab_attend_postmask(O, rowsum, worked_S, lengths, identity4, 1, 1, 4, 4));
    const float zeros[4] = { 0, 0, 0, 0 };
    EXPECT_CLOSE("O", zeros, O, 4, 0.0f);
    EXPECT_CLOSE("rowsum", zeros, rowsum, 1, 0.0f);
}
END_TEST

/* ---- lab_masking_experiment --------------------------------------------------- */

START_TEST(test_experiment_one_query)
{
    /* T = 1: one query, one real key k, value v. The contract fixes the inputs
       (Q, K, V, kp, vp drawn with seed 7); by hand:
         s = q.k / sqrt(4) = q.k / 2 and a = q.kp / 2 (every pad key scores a)
         pre-mask:  the real key gets weight 1, so O_pre = v
         post-mask: rowsum = e^s / (e^s + p e^a) = 1 / (1 + p e^(a - s))
                    O_post = rowsum * v
                    drift  = (1 - rowsum) * max_c |v_c|
       expected_lab05.h holds those numbers for seed 7's draws. */
    enum { d = 4 };
    const int pads[3] = { 0, 1, 3 };
    float rowsum[3], drift[3];
    lc_poison(rowsum, 3);
    lc_poison(drift, 3);
    EXPECT_OK("lab_masking_experiment", lab_masking_experiment(rowsum, drift, pads, 3, 1, d, 7));
    EXPECT_CLOSE("rowsum", lab05_one_query_rowsum, rowsum, 3, 1e-5f);
    EXPECT_CLOSE("drift", lab05_one_query_drift, drift, 3, 1e-5f);
}
END_TEST

START_TEST(test_experiment_closed_form)
{
    /* T = 3 queries and real keys, d = 4, pads {0, 2, 5}, seed 11. Section 3's
       formulas predict every number without running attention:
         s_ij = q_i . k_j / 2,  a_i = q_i . kp / 2 (the score of every pad key)
         Z_i = sum_j exp(s_ij),  r_i = Z_i / (Z_i + p exp(a_i))   (row sum of query i)
         O_pre_i = sum_j exp(s_ij) v_j / Z_i,  O_post_i = r_i O_pre_i
         rowsum = mean_i r_i,  drift = max_i (1 - r_i) max_c |O_pre_i[c]|
       expected_lab05.h holds those numbers for seed 11's draws. */
    enum { T = 3, d = 4, N = 3 };
    const int pads[N] = { 0, 2, 5 };
    float rowsum[N], drift[N];
    lc_poison(rowsum, N);
    lc_poison(drift, N);
    EXPECT_OK("lab_masking_experiment", lab_masking_experiment(rowsum, drift, pads, N, T, d, 11));
    EXPECT_CLOSE("rowsum", lab05_closed_form_rowsum, rowsum, N, 1e-5f);
    EXPECT_CLOSE("drift", lab05_closed_form_drift, drift, N, 1e-5f);
}
END_TEST

START_TEST(test_experiment_trends)
{
    /* The run target's setting: T = 16, d = 32, seed 1. No padding means nothing
       to lose: rowsum = 1 and drift = 0 (up to rounding). Each extra pad key takes
       more weight, so rowsum falls and drift grows, strictly, as p grows. */
    enum { N = 8 };
    const int pads[N] = { 0, 1, 2, 4, 8, 16, 32, 64 };
    float rowsum[N], drift[N];
    lc_poison(rowsum, N);
    lc_poison(drift, N);
    EXPECT_OK("lab_masking_experiment", lab_masking_experiment(rowsum, drift, pads, N, 16, 32, 1));
    ck_assert_msg(fabsf(rowsum[0] - 1.0f) < 1e-5f,
                  "rowsum[0] = %g: with no padding the rows must sum to 1", (double)rowsum[0]);
    ck_assert_msg(drift[0] < 1e-5f,
                  "drift[0] = %g: with no padding pre- and post-masking must agree", (double)drift[0]);
    for (int m = 1; m < N; m++) {
        ck_assert_msg(rowsum[m] < rowsum[m - 1] && rowsum[m] > 0.0f,
                      "rowsum must fall as padding grows: pads %d -> %g, pads %d -> %g",
                      pads[m - 1], (double)rowsum[m - 1], pads[m], (double)rowsum[m]);
        ck_assert_msg(drift[m] > drift[m - 1],
                      "drift must grow with padding: pads %d -> %g, pads %d -> %g",
                      pads[m - 1], (double)drift[m - 1], pads[m], (double)drift[m]);
    }
    /* The same seed gives the same numbers; the experiment is reproducible. */
    float again[N], again_drift[N];
    EXPECT_OK("lab_masking_experiment",
              lab_masking_experiment(again, again_drift, pads, N, 16, 32, 1));
    EXPECT_CLOSE("rowsum on a second run with the same seed", rowsum, again, N, 0.0f);
}
END_TEST

START_TEST(test_experiment_bad_args)
{
    const int pads[2] = { 4, -1 };
    float rowsum[2], drift[2];
    lc_poison(rowsum, 2);
    lc_poison(drift, 2);
    EXPECT_STATUS("lab_masking_experiment (pads[1] = -1)", LAB_BAD_ARG,
                  lab_masking_experiment(rowsum, drift, pads, 2, 16, 32, 1));
    EXPECT_STATUS("lab_masking_experiment (T = 0)", LAB_BAD_ARG,
                  lab_masking_experiment(rowsum, drift, pads, 1, 0, 32, 1));
    ck_assert_msg(rowsum[0] == LC_POISON && drift[0] == LC_POISON,
                  "lab_masking_experiment wrote its outputs although it returned LAB_BAD_ARG");
}
END_TEST

static Suite *lab05_suite(void)
{
    Suite *s = suite_create("lab05");
    TCase *pre = tcase_create("premask");
    tcase_add_test(pre, test_premask_worked_row);
    tcase_add_test(pre, test_premask_rows_and_batches);
    tcase_add_test(pre, test_premask_padding_has_no_influence);
    tcase_add_test(pre, test_premask_fully_masked_row);
    tcase_add_test(pre, test_premask_bad_args);
    suite_add_tcase(s, pre);
    TCase *post = tcase_create("postmask");
    tcase_add_test(post, test_postmask_worked_row);
    tcase_add_test(post, test_postmask_is_a_shrunk_premask);
    tcase_add_test(post, test_postmask_empty_row);
    suite_add_tcase(s, post);
    TCase *experiment = tcase_create("experiment");
    tcase_add_test(experiment, test_experiment_one_query);
    tcase_add_test(experiment, test_experiment_closed_form);
    tcase_add_test(experiment, test_experiment_trends);
    tcase_add_test(experiment, test_experiment_bad_args);
    suite_add_tcase(s, experiment);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(lab05_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
