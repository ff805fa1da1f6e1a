/* test_lab01.c: the grader's lab 1 module (grader/labs/lab01.c) against its
 * rubric (data/rubrics/lab01.yaml). Run from the repository root.
 *
 * What must hold for the grading of lab 1 to be fair (what every lab must do,
 * seeding and misconceptions, is in test_lab_modules.c):
 *   - points per function add up to the stub's and handout's (4 + 6);
 *   - the expected scores obey the contract: the handout's worked numbers, a
 *     plain double dot product recomputed here, scaled = dot / sqrt(d), and
 *     S left untouched by a rejected or empty call.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lab01_calls.h"
#include "labsup.h"

#define RUBRIC "data/rubrics/lab01.yaml"
#define MOD gr_lab01_module
#include "labtest.h"

Suite *test_suite(void);

/* ---- the rubric -------------------------------------------------------------- */

START_TEST(test_points_per_function)
{
    /* the stub and handout: lab_dot_scores 4, lab_scaled_dot_scores 6 */
    const double want[LAB01_N_CALLS] = { [LAB01_DOT_SCORES] = 4, [LAB01_SCALED_DOT_SCORES] = 6 };
    check_points_per_function(want, LAB01_N_CALLS, NULL);
}
END_TEST

START_TEST(test_bad_rubric_tests_are_refused)
{
    /* a bad-argument test whose sizes are all fine cannot be built */
    char err[512] = "";
    refuse_param("dot_bad", "d", 4, err, sizeof err);
}
END_TEST

/* ---- the expected outputs obey the contract ------------------------------------- */

START_TEST(test_worked_examples)
{
    for (int k = 0; k < rubric.n_tests; k++) {
        if (!is_worked(&rubric.tests[k]))   /* the handout's examples */
            continue;
        gr_case c;
        build(k, 7, &c);
        const float *S = c.expected[0];
        if (c.call.fn == LAB01_DOT_SCORES) {
            /* handout section 2: q0 = [1, 2], q1 = [0, -1]; k0 = [3, 1],
               k1 = [-1, 2], k2 = [.5, .5]: 1*3 + 2*1 = 5, -1 + 4 = 3,
               .5 + 1 = 1.5; 0 - 1 = -1, 0 - 2 = -2, 0 - .5 = -.5 */
            const float want[6] = {5, 3, 1.5f, -1, -2, -0.5f};
            for (int j = 0; j < 6; j++)
                ck_assert_double_eq_tol((double)S[j], (double)want[j], 1e-6);
        } else {
            /* handout section 3: dots [4, 0, 2] / sqrt(4) = [2, 0, 1] */
            const float want[3] = {2, 0, 1};
            for (int j = 0; j < 3; j++)
                ck_assert_double_eq_tol((double)S[j], (double)want[j], 1e-6);
        }
        gr_case_free(&c);
    }
}
END_TEST

START_TEST(test_expected_scores_are_dot_products)
{
    for (int k = 0; k < rubric.n_tests; k++) {
        gr_case c;
        build(k, 99, &c);
        int B = (int)c.call.ints[0], Tq = (int)c.call.ints[1], Tk = (int)c.call.ints[2],
            d = (int)c.call.ints[3];
        const float *S = c.expected[0], *Q = c.call.bufs[1].data, *K = c.call.bufs[2].data;
        if (c.expected_status != LAB_OK || B < 1 || Tq < 1 || Tk < 1) {
            /* a rejected or empty call: S must come back exactly as sent */
            ck_assert_int_eq(c.call.bufs[0].role, PROTO_INOUT);
            ck_assert_msg(memcmp(S, c.call.bufs[0].data, buf_bytes(&c.call.bufs[0])) == 0,
                          "%s: S is not expected untouched", rubric.tests[k].name);
            ck_assert_int_eq(c.expected_status,
                             B < 0 || Tq < 0 || Tk < 0 || d < 1 ? LAB_BAD_ARG : LAB_OK);
            gr_case_free(&c);
            continue;
        }
        double scale = c.call.fn == LAB01_SCALED_DOT_SCORES ? 1.0 / sqrt((double)d) : 1.0;
        ck_assert_int_eq((long)c.call.bufs[0].count, (long)B * Tq * Tk);
        for (int b = 0; b < B; b++)
            for (int i = 0; i < Tq; i++)
                for (int j = 0; j < Tk; j++) {
                    double dot = 0;
                    for (int x = 0; x < d; x++)
                        dot += (double)Q[((long)b * Tq + i) * d + x] * (double)K[((long)b * Tk + j) * d + x];
                    double got = (double)S[((long)b * Tq + i) * Tk + j];
                    ck_assert_msg(fabs(got - dot * scale) <= 1e-6 * (1 + fabs(dot * scale)),
                                  "%s: S[%d][%d][%d] = %g, recomputed %g", rubric.tests[k].name,
                                  b, i, j, got, dot * scale);
                }
        gr_case_free(&c);
    }
}
END_TEST

/* Scores are any real numbers: the random tests must include negative ones,
   and the scaled tests must really be smaller than the raw dot products. */
START_TEST(test_scores_are_any_real_number)
{
    int negative = 0;
    for (int k = 0; k < rubric.n_tests; k++) {
        gr_case c;
        build(k, 5, &c);
        if (c.expected_status == LAB_OK && c.call.bufs[0].role == PROTO_OUT)
            for (uint64_t x = 0; x < c.call.bufs[0].count; x++)
                negative += ((const float *)c.expected[0])[x] < 0;
        gr_case_free(&c);
    }
    ck_assert_int_gt(negative, 10);
}
END_TEST

/* The input window names the query and key rows behind a score. */
START_TEST(test_input_window)
{
    gr_case c;
    build_named("dot_worked_example", 1, &c);
    char *s = window_text(&c, 0, 4); /* S[0][1][1] = q1 . k1 */
    ck_assert_msg(strstr(s, "Q[0][1] = [0.0000 -1.0000]") != NULL, "%s", s);
    ck_assert_msg(strstr(s, "K[0][1] = [-1.0000 2.0000]") != NULL, "%s", s);
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
    Suite *s = suite_create("lab01 module");
    TCase *tc = tcase_create("rubric");
    tcase_add_checked_fixture(tc, load_rubric, free_rubric);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_points_per_function);
    tcase_add_test(tc, test_hidden_mistakes_show_on_visible_tests);
    tcase_add_test(tc, test_bad_rubric_tests_are_refused);
    tcase_add_test(tc, test_worked_examples);
    tcase_add_test(tc, test_expected_scores_are_dot_products);
    tcase_add_test(tc, test_scores_are_any_real_number);
    tcase_add_test(tc, test_input_window);
    suite_add_tcase(s, tc);
    return s;
}
