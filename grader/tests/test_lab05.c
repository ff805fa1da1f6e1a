/* test_lab05.c: the grader's lab 5 module (grader/labs/lab05.c) against its
 * rubric (data/rubrics/lab05.yaml). Run from the repository root.
 *
 * What must hold for the grading of lab 5 to be fair (what every lab must do,
 * seeding and misconceptions, is in test_lab_modules.c):
 *   - points per function add up to what the stub and handout promise;
 *   - the expected outputs obey the contract (hand-computed worked rows, masked
 *     rows exactly 0, post-mask row sums in [0, 1] and shrinking as padding grows).
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lab05_calls.h"
#include "labsup.h"

#define RUBRIC "data/rubrics/lab05.yaml"
#define MOD gr_lab05_module
#include "labtest.h"

Suite *test_suite(void);

/* ---- the rubric ---------------------------------------------------------------- */

START_TEST(test_rubric_points_per_function)
{
    /* The stub promises premask 4, postmask 3, experiment 5: 12 in all. */
    const double want[LAB05_N_CALLS] = { 4, 3, 5 };
    ck_assert_int_eq(rubric.lab, 5);
    check_points_per_function(want, LAB05_N_CALLS, NULL);
}
END_TEST

START_TEST(test_rubric_visible_and_hidden)
{
    int visible = 0, hidden = 0;
    for (int k = 0; k < rubric.n_tests; k++) {
        if (rubric.tests[k].visibility == GR_VISIBLE) visible++;
        else hidden++;
        ck_assert_msg(rubric.tests[k].abs_tol > 0 && rubric.tests[k].rel_tol > 0,
                      "%s: give a tolerance", rubric.tests[k].name);
    }
    ck_assert_int_ge(visible, 3);
    ck_assert_int_ge(hidden, 3);
}
END_TEST

/* ---- cases: errors say what to fix ----------------------------------------------- */

START_TEST(test_case_errors_say_what_to_fix)
{
    char err[256] = "";
    refuse_param("premask", "Tk", 0, err, sizeof err);
    ck_assert_msg(strstr(err, "Tk") && strstr(err, "use"), "%s", err);
}
END_TEST

/* ---- expected values --------------------------------------------------------------- */

START_TEST(test_expected_premask_worked_row)
{
    /* s' = [2, 1, -1, -inf]; e^2 = 7.389056, e^1 = 2.718282, e^-1 = 0.367879;
       sum = 10.475217; w = [0.705385, 0.259496, 0.035119, 0]. V = I, so O = w. */
    gr_case c;
    build_named("premask_worked_row", 7, &c);
    const float *O = c.expected[0];
    NEAR(O[0], 0.705385f, 1e-6f);
    NEAR(O[1], 0.259496f, 1e-6f);
    NEAR(O[2], 0.035119f, 1e-6f);
    ck_assert_msg(O[3] == 0.0f, "the padded key's weight must be exactly 0");
    gr_case_free(&c);
}
END_TEST

START_TEST(test_expected_postmask_worked_row)
{
    /* softmax over all 4: + e^0.5 = 1.648721, sum = 12.123938;
       w = [0.609460, 0.224208, 0.030343, 0.135989]; zero the 4th:
       O = [0.609460, 0.224208, 0.030343, 0], rowsum = 0.864011 (< 1: the bug). */
    gr_case c;
    build_named("postmask_worked_row", 7, &c);
    const float *O = c.expected[0], *rowsum = c.expected[1];
    NEAR(O[0], 0.609460f, 1e-6f);
    NEAR(O[1], 0.224208f, 1e-6f);
    NEAR(O[2], 0.030343f, 1e-6f);
    ck_assert_msg(O[3] == 0.0f, "a zeroed weight gives exactly 0");
    NEAR(rowsum[0], 0.864011f, 1e-6f);
    gr_case_free(&c);
}
END_TEST

/* Every attend case: O rows of an empty batch entry are exactly 0; otherwise each
   component of O lies between the min and max of that component over the real
   value rows (a convex combination of them, whatever the padded values hold);
   post-mask row sums are in [0, 1], exactly 1 without padding, below 1 with it. */
START_TEST(test_expected_attend_properties)
{
    for (int k = 0; k < rubric.n_tests; k++) {
        gr_case c;
        build(k, (uint64_t)_i + 100, &c);
        if (c.call.fn == LAB05_MASKING_EXPERIMENT || c.expected_status != LAB_OK) {
            gr_case_free(&c);   /* the experiment, or a rejected call (outputs untouched) */
            continue;
        }
        int post = c.call.fn == LAB05_ATTEND_POSTMASK, s = post ? 2 : 1;
        int B = (int)c.call.ints[0], Tq = (int)c.call.ints[1], Tk = (int)c.call.ints[2],
            dv = (int)c.call.ints[3];
        const int32_t *len = c.call.bufs[s + 1].data;
        const float *V = c.call.bufs[s + 2].data, *O = c.expected[0];
        for (int b = 0; b < B; b++)
            for (int i = 0; i < Tq; i++)
                for (int ch = 0; ch < dv; ch++) {
                    float o = O[((long)b * Tq + i) * dv + ch];
                    if (len[b] == 0) { ck_assert_msg(o == 0.0f, "%s: empty row not 0", rubric.tests[k].name); continue; }
                    float lo = INFINITY, hi = -INFINITY;
                    for (int j = 0; j < len[b]; j++) {
                        float v = V[((long)b * Tk + j) * dv + ch];
                        lo = fminf(lo, v); hi = fmaxf(hi, v);
                    }
                    if (post) { lo = fminf(lo, 0.0f); hi = fmaxf(hi, 0.0f); } /* rows sum to <= 1 */
                    ck_assert_msg(o >= lo - 1e-5f && o <= hi + 1e-5f,
                                  "%s: O[%d][%d][%d] = %g outside [%g, %g]", rubric.tests[k].name,
                                  b, i, ch, (double)o, (double)lo, (double)hi);
                }
        if (post) {
            const float *rowsum = c.expected[1];
            for (int b = 0; b < B; b++)
                for (int i = 0; i < Tq; i++) {
                    float r = rowsum[b * Tq + i];
                    ck_assert(r >= 0.0f && r <= 1.0f + 1e-6f);
                    if (len[b] == 0) ck_assert(r == 0.0f);
                    else if (len[b] == Tk) NEAR(r, 1.0f, 1e-6f);
                    /* padding keeps some weight out, unless scores of size 1e4 make
                       the padded keys' weights underflow to 0 */
                    else ck_assert(r < 1.0f || gr_rubric_test_param(&rubric.tests[k], "scale", 3) >= 100);
                }
        }
        gr_case_free(&c);
    }
}
END_TEST

/* Whatever the student's seed, the large-scores test catches a padded key that
   leaks in (a padding score of 0, a length one too long): expose_padding plants
   a padded key that outscores the real ones (without it seed 0 hid mask_zero). */
START_TEST(test_large_scores_expose_leaked_padding_for_every_seed)
{
    assert_exposed("premask_large_scores", "mask_zero", 300);
    assert_exposed("premask_large_scores", "pad_off_by_one", 300);
}
END_TEST

/* The experiment: no padding leaves row sums at 1 and no drift; more padding
   (pads ascend) takes more of the mass, so row sums strictly fall. */
START_TEST(test_expected_experiment_properties)
{
    for (int k = 0; k < rubric.n_tests; k++) {
        gr_case c;
        build(k, (uint64_t)_i + 200, &c);
        if (c.call.fn != LAB05_MASKING_EXPERIMENT || c.expected_status != LAB_OK) {
            if (c.expected_status == LAB_BAD_ARG) {
                const float *r = c.expected[0];
                ck_assert_msg(r[0] == proto_out_fill(0), "a rejected call leaves the outputs untouched (as filled)");
            }
            gr_case_free(&c);
            continue;
        }
        int n = (int)c.call.ints[0];
        if (gr_rubric_test_param(&rubric.tests[k], "descending", 0) != 0) {
            gr_case_free(&c);   /* the same pads largest first: the checks below read them rising */
            continue;
        }
        const int32_t *pads = c.call.bufs[2].data;
        const float *rowsum = c.expected[0], *drift = c.expected[1];
        ck_assert_int_eq(pads[0], 0);
        NEAR(rowsum[0], 1.0f, 1e-6f);
        NEAR(drift[0], 0.0f, 1e-6f);
        for (int m = 1; m < n; m++) {
            ck_assert_int_gt(pads[m], pads[m - 1]);
            ck_assert_msg(rowsum[m] < rowsum[m - 1], "%s: rowsum must fall as padding grows",
                          rubric.tests[k].name);
            ck_assert(drift[m] > 0.0f);
        }
        gr_case_free(&c);
    }
}
END_TEST

START_TEST(test_input_window_shows_row_and_length)
{
    gr_case c;
    build_named("premask_worked_row", 1, &c);
    char *s = window_text(&c, 0, 2);
    ck_assert_msg(strstr(s, "S[0][0]: 2.0000 1.0000 -1.0000 0.5000"), "%s", s);
    ck_assert_msg(strstr(s, "lengths[0] = 3"), "%s", s);
    free(s);
    gr_case_free(&c);
}
END_TEST

START_TEST(test_hidden_mistakes_show_on_visible_tests)   /* labtest.h */
{
    check_hidden_shown_visible();
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("grader lab05");
    TCase *tc = tcase_create("lab05");
    tcase_add_unchecked_fixture(tc, load_rubric, free_rubric);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_rubric_points_per_function);
    tcase_add_test(tc, test_hidden_mistakes_show_on_visible_tests);
    tcase_add_test(tc, test_rubric_visible_and_hidden);
    tcase_add_test(tc, test_case_errors_say_what_to_fix);
    tcase_add_test(tc, test_expected_premask_worked_row);
    tcase_add_test(tc, test_expected_postmask_worked_row);
    tcase_add_loop_test(tc, test_expected_attend_properties, 0, 3);
    tcase_add_loop_test(tc, test_expected_experiment_properties, 0, 3);
    tcase_add_test(tc, test_input_window_shows_row_and_length);
    tcase_add_test(tc, test_large_scores_expose_leaked_padding_for_every_seed);
    suite_add_tcase(s, tc);
    return s;
}
