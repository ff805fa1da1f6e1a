/* test_lab09.c: the grader's lab 9 module (grader/labs/lab09.c) against its
 * rubric (data/rubrics/lab09.yaml). Run from the repository root.
 *
 * What must hold for the grading of lab 9 to be fair (what every lab must do,
 * seeding and misconceptions, is in test_lab_modules.c):
 *   - points per function add up to what the stub and handout promise, each
 *     function with a visible and a hidden test;
 *   - the expected outputs obey the contract (the handout's worked rows, masks
 *     writing -inf on exactly the promised pattern, rows of W plus Wsink summing
 *     to 1, zeroed keys getting -w <w, g'>, never 0);
 *   - the misconceptions that only show on some inputs really show there: the
 *     large sink and the fully masked rows for sink_no_max.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/compare.h"
#include "lab09_calls.h"
#include "attn.h"
#include "labsup.h"

#define RUBRIC "data/rubrics/lab09.yaml"
#define MOD gr_lab09_module
#include "labtest.h"

Suite *test_suite(void);

/* ---- the rubric ---------------------------------------------------------------- */

START_TEST(test_rubric_points_per_function)
{
    /* The stub promises 3 points to each of the four functions: 12 in all. */
    const double want[LAB09_N_CALLS] = { 3, 3, 3, 3 };
    ck_assert_int_eq(rubric.lab, 9);
    check_points_per_function(want, LAB09_N_CALLS, NULL);
}
END_TEST

START_TEST(test_rubric_visible_and_hidden)
{
    int visible[LAB09_N_CALLS] = { 0 }, hidden[LAB09_N_CALLS] = { 0 };
    for (int k = 0; k < rubric.n_tests; k++) {
        gr_case c;
        build(k, 1, &c);
        if (rubric.tests[k].visibility == GR_VISIBLE) visible[c.call.fn]++;
        else hidden[c.call.fn]++;
        ck_assert_msg(rubric.tests[k].abs_tol > 0 && rubric.tests[k].rel_tol > 0,
                      "%s: give a tolerance", rubric.tests[k].name);
        gr_case_free(&c);
    }
    for (int f = 0; f < LAB09_N_CALLS; f++)
        ck_assert_msg(visible[f] >= 1 && hidden[f] >= 1,
                      "function %d needs a visible and a hidden test", f);
}
END_TEST

/* ---- cases: errors say what to fix ----------------------------------------------- */

START_TEST(test_case_errors_say_what_to_fix)
{
    char err[256] = "";
    refuse_param("sink", "Tq", 3000, err, sizeof err);
    ck_assert_msg(strstr(err, "Tq") && strstr(err, "use"), "%s", err);
    refuse_param("window", "window", -5, err, sizeof err);
    ck_assert_msg(strstr(err, "window") && strstr(err, "use"), "%s", err);
    refuse_param("postmask_backward", "rows", 0, err, sizeof err);
    ck_assert_msg(strstr(err, "rows") && strstr(err, "use"), "%s", err);
    refuse_param("postmask_backward_bad", "rows", 3, err, sizeof err);
    ck_assert_msg(strstr(err, "needs rows < 1 or n < 1"), "%s", err);
    refuse_param("sink_bad", "Tq", 3, err, sizeof err);
    ck_assert_msg(strstr(err, "needs a size below 1 or extra: 1"), "%s", err);
}
END_TEST

/* ---- expected values --------------------------------------------------------------- */

/* True when s is -inf, as a mask writes it. */
static int masked(float s)
{
    return isinf(s) && s < 0.0f;
}

/* Every mask case: a score is -inf exactly where the contract masks it and
   unchanged elsewhere; bad arguments expect S untouched. */
START_TEST(test_expected_masks_follow_the_rule)
{
    for (int k = 0; k < rubric.n_tests; k++) {
        gr_case c;
        build(k, (uint64_t)_i + 30, &c);
        int fn = (int)c.call.fn;
        if (fn != LAB09_CAUSAL_MASK_ALIGNED && fn != LAB09_SLIDING_WINDOW_MASK) { gr_case_free(&c); continue; }
        int B = (int)c.call.ints[0], Tq = (int)c.call.ints[1], Tk = (int)c.call.ints[2];
        int arg = (int)c.call.ints[3];
        const float *in = c.call.bufs[0].data, *want = c.expected[0];
        if (c.expected_status != LAB_OK) {
            ck_assert(memcmp(in, want, (size_t)B * Tq * Tk * sizeof(float)) == 0);
            gr_case_free(&c);
            continue;
        }
        int br = fn == LAB09_SLIDING_WINDOW_MASK ? 1 : arg, w = fn == LAB09_SLIDING_WINDOW_MASK ? arg : 0;
        for (int b = 0; b < B; b++)
            for (int i = 0; i < Tq; i++)
                for (int j = 0; j < Tk; j++) {
                    long q = ((long)b * Tq + i) * Tk + j;
                    long last = br ? (long)i + Tk - Tq : i;
                    int hide = j > last || (w >= 1 && j <= last - w);
                    ck_assert_msg(hide ? masked(want[q]) : want[q] == in[q],
                                  "%s: S[%d][%d][%d] = %g", rubric.tests[k].name, b, i, j,
                                  (double)want[q]);
                }
        gr_case_free(&c);
    }
}
END_TEST

START_TEST(test_expected_window_worked)
{
    /* The handout's window: w = 2, Tq = 2, Tk = 5: rows --kk- and ---kk. */
    gr_case c;
    build_named("window_worked", 1, &c);
    const float *want = c.expected[0];
    const char *pattern = "--kk----kk";
    for (int q = 0; q < 10; q++)
        ck_assert_msg(masked(want[q]) == (pattern[q] == '-'), "S[%d] = %g", q, (double)want[q]);
    gr_case_free(&c);
}
END_TEST

START_TEST(test_expected_sink_worked_row)
{
    /* scores [2, 1, -1, -inf], sink 1.5: W = [0.494023, 0.181741, 0.024596, 0],
       Wsink 0.299640; the fully masked row: zeros and Wsink 1. */
    gr_case c;
    build_named("sink_worked_row", 1, &c);
    const float *W = c.expected[0], *Z = c.expected[1];
    const double want[4] = { 0.494023, 0.181741, 0.024596, 0 };
    for (int j = 0; j < 4; j++) NEAR(W[j], want[j], 1e-6);
    NEAR(Z[0], 0.299640, 1e-6);
    for (int j = 4; j < 8; j++) ck_assert(W[j] == 0.0f);
    ck_assert(Z[1] == 1.0f);
    gr_case_free(&c);
}
END_TEST

/* Every sink case: W >= 0 and W plus Wsink sums to 1 in each row (0 for a
   fully masked row of a head without a sink); no NaN anywhere. */
START_TEST(test_expected_sink_rows)
{
    for (int k = 0; k < rubric.n_tests; k++) {
        gr_case c;
        build(k, (uint64_t)_i + 40, &c);
        if (c.call.fn != LAB09_SINK_SOFTMAX || c.expected_status != LAB_OK) {
            gr_case_free(&c);
            continue;
        }
        int B = (int)c.call.ints[0], H = (int)c.call.ints[1], Tq = (int)c.call.ints[2];
        int Tk = (int)c.call.ints[3];
        const float *W = c.expected[0], *Z = c.expected[1], *sink = c.call.bufs[3].data;
        const float *S = c.call.bufs[2].data;
        for (long r = 0; r < (long)B * Tq; r++) {
            double sum = (double)Z[r];
            int empty = 1;
            for (int j = 0; j < Tk; j++) {
                ck_assert(W[r * Tk + j] >= 0.0f);
                sum += (double)W[r * Tk + j];
                empty &= masked(S[r * Tk + j]);
            }
            double want = empty && masked(sink[(r / Tq) % H]) ? 0.0 : 1.0;
            ck_assert_msg(fabs(sum - want) < 1e-5, "%s: row %ld sums to %g",
                          rubric.tests[k].name, r, sum);
        }
        gr_case_free(&c);
    }
}
END_TEST

/* sink_no_max departs where the lesson says: the large sink (Wsink NaN) and the
   fully masked rows (Wsink 0, not 1); elsewhere it is right. */
START_TEST(test_sink_no_max_shows_where_it_should)
{
    const gr_misconception *no_max = NULL;
    for (int m = 0; m < MOD.n_misconceptions; m++)
        if (strcmp(MOD.misconceptions[m].id, "sink_no_max") == 0) no_max = &MOD.misconceptions[m];
    ck_assert_ptr_nonnull(no_max);
    const char *tests[3] = { "sink_large", "sink_fully_masked_rows", "sink_small" };
    for (int t = 0; t < 3; t++) {
        gr_case c;
        build_named(tests[t], 7, &c);
        void *pred[PROTO_MAX_BUFS] = { 0 };
        ck_assert_int_eq(no_max->predict(&c, pred), 0);
        const gr_rubric_test *rt = find_test(tests[t]);
        long wrong = gr_compare(&c, c.expected, pred, rt->abs_tol, rt->rel_tol, NULL);
        ck_assert_msg((wrong > 0) == (t < 2), "%s: %ld wrong elements", tests[t], wrong);
        if (t == 0) ck_assert(isnan(((const float *)pred[1])[0]));
        for (int b = 0; b < PROTO_MAX_BUFS; b++) free(pred[b]);
        gr_case_free(&c);
    }
}
END_TEST

START_TEST(test_expected_postmask_backward)
{
    /* The worked row: ds = [0.238019, -0.136646, -0.018493, -0.082880]; every
       case: rows sum to 0 and a zeroed key gets -w <w, g'> (nonzero when
       <w, g'> is). */
    gr_case c;
    build_named("postmask_backward_worked_rows", 1, &c);
    const float *ds = c.expected[0];
    const double want[4] = { 0.238019, -0.136646, -0.018493, -0.082880 };
    for (int j = 0; j < 4; j++) NEAR(ds[j], want[j], 1e-6);
    gr_case_free(&c);
    for (int k = 0; k < rubric.n_tests; k++) {
        build(k, 3, &c);
        if (c.call.fn != LAB09_POSTMASK_BACKWARD) { gr_case_free(&c); continue; }
        int rows = (int)c.call.ints[0], n = (int)c.call.ints[1];
        const float *W = c.call.bufs[1].data, *g = c.call.bufs[2].data;
        const uint8_t *keep = c.call.bufs[3].data;
        const float *d = c.expected[0];
        for (int r = 0; r < rows; r++) {
            double wg = 0.0, sum = 0.0;
            for (int j = 0; j < n; j++) {
                if (keep[r * n + j]) wg += (double)W[r * n + j] * (double)g[r * n + j];
                sum += (double)d[r * n + j];
            }
            NEAR(sum, 0.0, 1e-5);
            for (int j = 0; j < n; j++)
                if (!keep[r * n + j]) NEAR(d[r * n + j], -(double)W[r * n + j] * wg, 1e-6);
        }
        gr_case_free(&c);
    }
}
END_TEST

/* The two gradient mistakes that give a zeroed key 0 are told apart: cutting
   ds at the zeroed keys keeps the right values elsewhere; renormalising the
   kept weights (the mask as if on the scores) gives lab 8's row, [0.207817,
   -0.183045, -0.024772, 0], for the worked row whose key 3 is zeroed. */
START_TEST(test_premask_gradient_is_its_own_mistake)
{
    const gr_misconception *zero = NULL, *premask = NULL;
    for (int m = 0; m < MOD.n_misconceptions; m++) {
        if (strcmp(MOD.misconceptions[m].id, "postmask_grad_zero") == 0)
            zero = &MOD.misconceptions[m];
        if (strcmp(MOD.misconceptions[m].id, "postmask_grad_premask") == 0)
            premask = &MOD.misconceptions[m];
    }
    ck_assert_ptr_nonnull(zero);
    ck_assert_ptr_nonnull(premask);
    gr_case c;
    build_named("postmask_backward_worked_rows", 1, &c);
    void *pz[PROTO_MAX_BUFS] = { 0 }, *pp[PROTO_MAX_BUFS] = { 0 };
    ck_assert_int_eq(zero->predict(&c, pz), 0);
    ck_assert_int_eq(premask->predict(&c, pp), 0);
    const float *z = pz[0], *p = pp[0], *want = c.expected[0];
    const double lab8[4] = { 0.207817, -0.183045, -0.024772, 0.0 };
    for (int j = 0; j < 4; j++) {
        NEAR(p[j], lab8[j], 1e-6);
        NEAR(z[j], j == 3 ? 0.0 : (double)want[j], 1e-7);
    }
    for (int b = 0; b < PROTO_MAX_BUFS; b++) { free(pz[b]); free(pp[b]); }
    gr_case_free(&c);
}
END_TEST

START_TEST(test_hidden_mistakes_show_on_visible_tests)
{
    check_hidden_shown_visible();
}
END_TEST

START_TEST(test_input_window_names_the_diagonal)
{
    gr_case c;
    build_named("window_worked", 1, &c);
    char *s = window_text(&c, 0, 6);  /* row 1, key 1 */
    ck_assert_msg(strstr(s, "query i = 1") && strstr(s, "i' = 4") &&
                  strstr(s, "visible keys 2 < j <= 4"), "%s", s);
    free(s);
    gr_case_free(&c);
    build_named("postmask_backward_worked_rows", 1, &c);
    s = window_text(&c, 0, 3);
    ck_assert_msg(strstr(s, "keep[0]: 1 1 1 0") && strstr(s, "= 0.60946"), "%s", s);
    free(s);
    gr_case_free(&c);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("grader lab09");
    TCase *tc = tcase_create("lab09");
    tcase_add_unchecked_fixture(tc, load_rubric, free_rubric);
    tcase_add_test(tc, test_rubric_points_per_function);
    tcase_add_test(tc, test_rubric_visible_and_hidden);
    tcase_add_test(tc, test_case_errors_say_what_to_fix);
    tcase_add_loop_test(tc, test_expected_masks_follow_the_rule, 0, 3);
    tcase_add_test(tc, test_expected_window_worked);
    tcase_add_test(tc, test_expected_sink_worked_row);
    tcase_add_loop_test(tc, test_expected_sink_rows, 0, 3);
    tcase_add_test(tc, test_sink_no_max_shows_where_it_should);
    tcase_add_test(tc, test_expected_postmask_backward);
    tcase_add_test(tc, test_input_window_names_the_diagonal);
    tcase_add_test(tc, test_premask_gradient_is_its_own_mistake);
    tcase_add_test(tc, test_hidden_mistakes_show_on_visible_tests);
    suite_add_tcase(s, tc);
    return s;
}
