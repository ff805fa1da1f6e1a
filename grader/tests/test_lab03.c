/* test_lab03.c: the grader's lab 3 module (grader/labs/lab03.c) against its
 * rubric (data/rubrics/lab03.yaml). Run from the repository root.
 *
 * What must hold for the grading of lab 3 to be fair (what every lab must do,
 * seeding and misconceptions, is in test_lab_modules.c):
 *   - points per function add up to the stub's and handout's (6 + 8);
 *   - the expected scores obey the contract: the handout's worked numbers,
 *     q^T W k recomputed here as (q^T W) . k, additive scores recomputed and
 *     bounded by sum |v[u]|, and S left untouched by a rejected or empty call.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lab03_calls.h"
#include "labsup.h"

#define RUBRIC "data/rubrics/lab03.yaml"
#define MOD gr_lab03_module
#include "labtest.h"

Suite *test_suite(void);

/* ---- the rubric -------------------------------------------------------------- */

START_TEST(test_points_per_function)
{
    /* the stub and handout: lab_general_scores 6, lab_additive_scores 8 */
    const double want[LAB03_N_CALLS] = { [LAB03_GENERAL_SCORES] = 6, [LAB03_ADDITIVE_SCORES] = 8 };
    check_points_per_function(want, LAB03_N_CALLS, NULL);
}
END_TEST

START_TEST(test_bad_rubric_tests_are_refused)
{
    /* an additive_bad test whose sizes are all fine cannot be built */
    char err[512] = "";
    refuse_param("additive_bad", "h", 4, err, sizeof err);
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
        if (c.call.fn == LAB03_GENERAL_SCORES) {
            /* handout section 3: q0^T W = [1, 2, 0], q1^T W = [0, 1, -1];
               k0 = [1, 1, 1]: 3 and 0; k1 = [2, 0, 1]: 2 + 0 + 0 = 2 and 0 + 0 - 1 = -1 */
            const float want[4] = {3, 2, 0, -1};
            for (int j = 0; j < 4; j++)
                ck_assert_double_eq_tol((double)S[j], (double)want[j], 1e-6);
        } else {
            /* handout section 4: score = tanh(q) - tanh(k); tanh(.5) = .462117,
               tanh(1) = .761594, tanh(-2) = -.964028, tanh(0) = 0 */
            const double want[4] = {0.462117 - 0.761594, 0.462117, -0.964028 - 0.761594, -0.964028};
            for (int j = 0; j < 4; j++)
                ck_assert_double_eq_tol((double)S[j], want[j], 2e-6);
        }
        gr_case_free(&c);
    }
}
END_TEST

START_TEST(test_expected_scores)
{
    int saturated = 0;
    for (int k = 0; k < rubric.n_tests; k++) {
        gr_case c;
        build(k, 99, &c);
        const int64_t *n = c.call.ints;
        int B = (int)n[0], Tq = (int)n[1], Tk = (int)n[2], dq = (int)n[3], dk = (int)n[4];
        int additive = c.call.fn == LAB03_ADDITIVE_SCORES, h = additive ? (int)n[5] : 1;
        const float *S = c.expected[0];
        if (c.expected_status != LAB_OK || B < 1 || Tq < 1 || Tk < 1) {
            /* a rejected or empty call: S must come back exactly as sent */
            ck_assert_int_eq(c.call.bufs[0].role, PROTO_INOUT);
            ck_assert(memcmp(S, c.call.bufs[0].data, buf_bytes(&c.call.bufs[0])) == 0);
            ck_assert_int_eq(c.expected_status, B < 0 || Tq < 0 || Tk < 0 || dq < 1 || dk < 1 || h < 1
                                                    ? LAB_BAD_ARG : LAB_OK);
            gr_case_free(&c);
            continue;
        }
        const float *Q = c.call.bufs[1].data;
        const float *K = c.call.bufs[additive ? 2 : 3].data;
        for (int b = 0; b < B; b++)
            for (int i = 0; i < Tq; i++)
                for (int j = 0; j < Tk; j++) {
                    const float *q = Q + ((long)b * Tq + i) * dq, *kv = K + ((long)b * Tk + j) * dk;
                    double want = 0, bound = 0;
                    if (!additive) {
                        /* (q^T W) . k, the other order of the same double sum */
                        const float *W = c.call.bufs[2].data;
                        for (int x = 0; x < dk; x++) {
                            double qW = 0;
                            for (int a = 0; a < dq; a++)
                                qW += (double)q[a] * (double)W[(long)a * dk + x];
                            want += qW * (double)kv[x];
                        }
                    } else {
                        const float *Wq = c.call.bufs[3].data, *Wk = c.call.bufs[4].data,
                                    *v = c.call.bufs[5].data;
                        for (int u = 0; u < h; u++) {
                            double pre = 0;
                            for (int a = 0; a < dq; a++)
                                pre += (double)Wq[(long)u * dq + a] * (double)q[a];
                            for (int x = 0; x < dk; x++)
                                pre += (double)Wk[(long)u * dk + x] * (double)kv[x];
                            saturated += fabs(pre) > 5;
                            want += (double)v[u] * tanh(pre);
                            bound += fabs((double)v[u]);
                        }
                    }
                    double got = (double)S[((long)b * Tq + i) * Tk + j];
                    ck_assert_msg(fabs(got - want) <= 1e-5 * (1 + fabs(want)),
                                  "%s: S[%d][%d][%d] = %g, recomputed %g", c.describe, b, i, j, got, want);
                    if (additive)
                        ck_assert_msg(fabs(got) <= bound * (1 + 1e-6), "%s: |S| above sum |v|", c.describe);
                }
        gr_case_free(&c);
    }
    ck_assert_msg(saturated > 0, "no additive test drives tanh into saturation");
}
END_TEST

/* The input window names the query and key rows behind a score. */
START_TEST(test_input_window)
{
    gr_case c;
    build_named("general_worked_example", 1, &c);
    char *s = window_text(&c, 0, 3); /* S[0][1][1] = q1^T W k1 */
    ck_assert_msg(strstr(s, "Q[0][1] = [0.0000 1.0000]") != NULL, "%s", s);
    ck_assert_msg(strstr(s, "K[0][1] = [2.0000 0.0000 1.0000]") != NULL, "%s", s);
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
    Suite *s = suite_create("lab03 module");
    TCase *tc = tcase_create("rubric");
    tcase_add_checked_fixture(tc, load_rubric, free_rubric);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_points_per_function);
    tcase_add_test(tc, test_hidden_mistakes_show_on_visible_tests);
    tcase_add_test(tc, test_bad_rubric_tests_are_refused);
    tcase_add_test(tc, test_worked_examples);
    tcase_add_test(tc, test_expected_scores);
    tcase_add_test(tc, test_input_window);
    suite_add_tcase(s, tc);
    return s;
}
