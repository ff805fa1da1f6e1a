/* test_lab08.c: the grader's lab 8 module (grader/labs/lab08.c) against its
 * rubric (data/rubrics/lab08.yaml). Run from the repository root.
 *
 * What must hold for the grading of lab 8 to be fair (what every lab must do,
 * seeding and misconceptions, is in test_lab_modules.c):
 *   - points per function add up to what the stub and handout promise;
 *   - the expected outputs obey the contract (the worked row by hand, rows of
 *     ds summing to 0, masked keys exactly 0, |ds_j| <= 2 (1 - max w) max |g|,
 *     raw-score gradients shrinking with d_k while scaled ones hold).
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lab08_calls.h"
#include "attn.h"
#include "labsup.h"

#define RUBRIC "data/rubrics/lab08.yaml"
#define MOD gr_lab08_module
#include "labtest.h"

Suite *test_suite(void);

/* ---- the rubric ---------------------------------------------------------------- */

START_TEST(test_rubric_points_per_function)
{
    /* The stub promises softmax backward 5 (in place or not), experiment 5. */
    double backward = 0, experiment = 0;
    int visible = 0, hidden = 0, inplace = 0;
    ck_assert_int_eq(rubric.lab, 8);
    for (int k = 0; k < rubric.n_tests; k++) {
        gr_case c;
        build(k, 1, &c);
        ck_assert_uint_lt(c.call.fn, LAB08_N_CALLS);
        if (c.call.fn == LAB08_GRADIENT_EXPERIMENT) experiment += rubric.tests[k].points;
        else backward += rubric.tests[k].points;
        inplace += c.call.fn == LAB08_SOFTMAX_BACKWARD_INPLACE;
        if (rubric.tests[k].visibility == GR_VISIBLE) visible++; else hidden++;
        ck_assert_msg(rubric.tests[k].abs_tol > 0 && rubric.tests[k].rel_tol > 0,
                      "%s: give a tolerance", rubric.tests[k].name);
        gr_case_free(&c);
    }
    ck_assert_msg(fabs(backward - 5) < 1e-9, "backward: %g points, want 5", backward);
    ck_assert_msg(fabs(experiment - 5) < 1e-9, "experiment: %g points, want 5", experiment);
    ck_assert_int_ge(inplace, 1);
    ck_assert_int_ge(visible, 3);
    ck_assert_int_ge(hidden, 3);
}
END_TEST

/* ---- cases: errors say what to fix ----------------------------------------------- */

START_TEST(test_case_errors_say_what_to_fix)
{
    char name[] = "bad", kind[] = "experiment", key[] = "dk_min", key2[] = "n_dk";
    gr_rubric_test t = { .name = name, .kind = kind };
    char err[256] = "";
    t.n_params = 2;
    t.params[0].key = key;
    t.params[0].value = 1000;   /* 1000 * 2^3 is over 4096 */
    t.params[1].key = key2;
    t.params[1].value = 4;
    refuse_case(&t, err, sizeof err);
    ck_assert_msg(strstr(err, "over 4096") && strstr(err, "use"), "%s", err);
    refuse_param("backward_bad", "rows", 1, err, sizeof err);
    ck_assert_msg(strstr(err, "needs rows < 1 or n < 1"), "%s", err);
}
END_TEST

/* ---- expected values --------------------------------------------------------------- */

START_TEST(test_expected_worked_row)
{
    /* w = softmax([2, 1, -1, -inf]) = [0.705385, 0.259496, 0.035119, 0].
       g = [1, 0, 0, 0]:     <w, g> = 0.705385
         ds = [0.705385 * 0.294615, 0.259496 * -0.705385, 0.035119 * -0.705385, 0]
            = [0.207817, -0.183045, -0.024772, 0]
       g = [0.5, -1, 2, 3]:  <w, g> = 0.352692 - 0.259496 + 0.070238 + 0 = 0.163434
         ds = [0.705385 * 0.336566, 0.259496 * -1.163434, 0.035119 * 1.836566, 0]
            = [0.237409, -0.301907, 0.064498, 0]
       Each row sums to 0, and the padded key's gradient is exactly 0. */
    const double want[8] = { 0.207817, -0.183045, -0.024772, 0,
                             0.237409, -0.301907, 0.064498, 0 };
    gr_case c;
    build_named("backward_worked_row", 1, &c);
    const float *ds = c.expected[0];
    for (int k = 0; k < 8; k++) NEAR(ds[k], want[k], 1e-6);
    ck_assert(ds[3] == 0.0f && ds[7] == 0.0f);
    gr_case_free(&c);
}
END_TEST

/* Every backward case: each row of ds sums to 0 (sum_j w_j (g_j - <w, g>) =
   <w, g> - <w, g>), a zero weight gives exactly 0, and |ds_j| <= 2 (1 - max w)
   max |g|: the gradient vanishes as the row saturates. */
START_TEST(test_expected_backward_properties)
{
    for (int k = 0; k < rubric.n_tests; k++) {
        gr_case c;
        build(k, (uint64_t)_i + 50, &c);
        if (c.call.fn == LAB08_GRADIENT_EXPERIMENT) { gr_case_free(&c); continue; }
        int inplace = c.call.fn == LAB08_SOFTMAX_BACKWARD_INPLACE;
        int rows = (int)c.call.ints[0], n = (int)c.call.ints[1];
        const float *W = c.call.bufs[inplace ? 0 : 1].data, *g = c.call.bufs[inplace ? 1 : 2].data;
        const float *ds = c.expected[inplace ? 1 : 0];
        for (int r = 0; r < rows; r++) {
            double sum = 0.0, wmax = 0.0, gmax = 0.0;
            for (int j = 0; j < n; j++) {
                long q = (long)r * n + j;
                sum += (double)ds[q];
                if ((double)W[q] > wmax) wmax = (double)W[q];
                if (fabs((double)g[q]) > gmax) gmax = fabs((double)g[q]);
                if (W[q] == 0.0f) ck_assert_msg(ds[q] == 0.0f, "%s: masked key got %g",
                                                rubric.tests[k].name, (double)ds[q]);
            }
            NEAR(sum, 0.0, 1e-6);
            for (int j = 0; j < n; j++)
                ck_assert(fabs((double)ds[(long)r * n + j]) <= 2.0 * (1.0 - wmax) * gmax + 1e-6);
        }
        gr_case_free(&c);
    }
}
END_TEST

/* The lesson of the experiment, seen in the expected numbers at the run sizes
   (d_k 8 .. 512): raw-score gradients fall to well under the first one as
   d_k grows (the rows saturate), scaled ones stay within a band. */
START_TEST(test_expected_experiment_shape)
{
    gr_case c;
    build_named("experiment_run_sizes", (uint64_t)_i + 1, &c);
    int n = (int)c.call.ints[0];
    const float *raw = c.expected[0], *scaled = c.expected[1];
    float lo = INFINITY, hi = 0.0f;
    for (int m = 0; m < n; m++) {
        ck_assert(isfinite(raw[m]) && raw[m] > 0.0f && isfinite(scaled[m]) && scaled[m] > 0.0f);
        lo = fminf(lo, scaled[m]);
        hi = fmaxf(hi, scaled[m]);
    }
    ck_assert_msg(raw[n - 1] < 0.6f * raw[0], "raw: %g at d_k 512 vs %g at 8",
                  (double)raw[n - 1], (double)raw[0]);
    ck_assert_msg(hi < 1.5f * lo, "scaled: from %g to %g", (double)lo, (double)hi);
    gr_case_free(&c);
    build_named("experiment_zero_dk", 1, &c);
    ck_assert_int_eq(c.expected_status, LAB_BAD_ARG);
    ck_assert(((const float *)c.expected[0])[0] == proto_out_fill(0) &&
              ((const float *)c.expected[1])[0] == proto_out_fill(0));
    gr_case_free(&c);
}
END_TEST

START_TEST(test_input_window_shows_w_and_g)
{
    gr_case c;
    build_named("backward_worked_row", 1, &c);
    char *s = window_text(&c, 0, 5);
    ck_assert_msg(strstr(s, "W[1]: 0.7054 0.2595 0.03512 0") && strstr(s, "dW[1]: 0.5 -1 2 3") &&
                  strstr(s, "<w, g> of this row = 0.1634"), "%s", s);
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
    Suite *s = suite_create("grader lab08");
    TCase *tc = tcase_create("lab08");
    tcase_add_unchecked_fixture(tc, load_rubric, free_rubric);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_rubric_points_per_function);
    tcase_add_test(tc, test_hidden_mistakes_show_on_visible_tests);
    tcase_add_test(tc, test_case_errors_say_what_to_fix);
    tcase_add_test(tc, test_expected_worked_row);
    tcase_add_loop_test(tc, test_expected_backward_properties, 0, 3);
    tcase_add_loop_test(tc, test_expected_experiment_shape, 0, 3);
    tcase_add_test(tc, test_input_window_shows_w_and_g);
    suite_add_tcase(s, tc);
    return s;
}
