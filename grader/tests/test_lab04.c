/* test_lab04.c: the grader's lab 4 module (grader/labs/lab04.c) against its
 * rubric (data/rubrics/lab04.yaml). Run from the repository root.
 *
 * What must hold for the grading of lab 4 to be fair (what every lab must do,
 * seeding and misconceptions, is in test_lab_modules.c):
 *   - points per function add up to the stub's and handout's (4 + 8);
 *   - the expected outputs obey the contract: worked entropies, every entropy
 *     in [0, log n]; the experiment recomputed here from lab04.h's procedure,
 *     its scaled entropies near log T - 1/2 and its raw ones falling with d_k;
 *     rejected calls leave the outputs untouched.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lab04_calls.h"
#include "labsup.h"

#define RUBRIC "data/rubrics/lab04.yaml"
#define MOD gr_lab04_module
#include "labtest.h"

Suite *test_suite(void);


/* ---- the rubric -------------------------------------------------------------- */

START_TEST(test_points_per_function)
{
    /* the stub and handout: lab_row_entropy 4, lab_entropy_experiment 8 */
    const double want[LAB04_N_CALLS] = { [LAB04_ROW_ENTROPY] = 4, [LAB04_ENTROPY_EXPERIMENT] = 8 };
    check_points_per_function(want, LAB04_N_CALLS, NULL);
}
END_TEST

START_TEST(test_bad_rubric_tests_are_refused)
{
    /* dk_min above the default dk_max (512): no d_k to run */
    char err[512] = "";
    refuse_param("experiment", "dk_min", 1024, err, sizeof err);
}
END_TEST

/* ---- the expected outputs obey the contract ------------------------------------- */

START_TEST(test_row_entropies)
{
    int zeros = 0;
    for (int k = 0; k < rubric.n_tests; k++) {
        gr_case c;
        build(k, 21, &c);
        if (c.call.fn != LAB04_ROW_ENTROPY) {
            gr_case_free(&c);
            continue;
        }
        const float *H = c.expected[0], *W = c.call.bufs[1].data;
        int rows = (int)c.call.ints[0], n = (int)c.call.ints[1];
        if (c.expected_status != LAB_OK) {
            ck_assert(rows < 0 || n < 1);
            for (uint64_t x = 0; x < c.call.bufs[0].count; x++)
                ck_assert(isnan(proto_out_fill(x)) ? isnan(H[x]) : H[x] == proto_out_fill(x));
            gr_case_free(&c);
            continue;
        }
        for (int r = 0; r < rows; r++) {
            double sum = 0;
            for (int j = 0; j < n; j++) {
                sum += (double)W[(long)r * n + j];
                zeros += W[(long)r * n + j] == 0.0f;
            }
            /* weights: a softmax row sums to 1; a fully masked row is all zeros, entropy 0 */
            ck_assert_msg(fabs(sum - 1) < 1e-4 || (sum == 0 && H[r] == 0.0f), "%s: row %d", c.describe, r);
            ck_assert_msg(H[r] >= 0.0f && (double)H[r] <= log((double)n) + 1e-6,
                          "%s: H[%d] = %g outside [0, log n]", c.describe, r, (double)H[r]);
        }
        if (is_worked(&rubric.tests[k])) {
            /* uniform: ln 4 = 1.386294; one-hot: 0; the worked weights:
               .7054 * .348993 + .2595 * 1.349004 + .0351 * 3.349553 = .713812;
               a fully masked row: 0 */
            ck_assert_double_eq_tol((double)H[0], 1.386294, 1e-5);
            ck_assert(H[1] == 0.0f);
            ck_assert_double_eq_tol((double)H[2], 0.713812, 1e-5);
            ck_assert(H[3] == 0.0f);
        }
        gr_case_free(&c);
    }
    ck_assert_msg(zeros > 0, "no entropy test has zero weights (0 log 0)");
}
END_TEST

/* lab04.h's procedure, written out again here in double. */
static void reference_experiment(double *Hr, double *Hs, const int32_t *dks, int n_dk, int T,
                                 int trials, uint64_t seed)
{
    int dmax = 0;
    for (int m = 0; m < n_dk; m++)
        dmax = dks[m] > dmax ? dks[m] : dmax;
    float *q = malloc((size_t)dmax * sizeof *q), *K = malloc((size_t)T * dmax * sizeof *K);
    double *s = malloc((size_t)T * sizeof *s);
    sup_rng rng;
    sup_rng_seed(&rng, seed);
    for (int m = 0; m < n_dk; m++) {
        int d = dks[m];
        Hr[m] = Hs[m] = 0;
        for (int t = 0; t < trials; t++) {
            sup_rng_fill_normal(&rng, q, d);
            sup_rng_fill_normal(&rng, K, (long)T * d);
            for (int j = 0; j < T; j++) {
                s[j] = 0;
                for (int x = 0; x < d; x++)
                    s[j] += (double)q[x] * (double)K[(long)j * d + x];
            }
            for (int pass = 0; pass < 2; pass++) {
                double scale = pass ? 1 / sqrt((double)d) : 1, mx = -HUGE_VAL, z = 0, h = 0;
                for (int j = 0; j < T; j++)
                    mx = fmax(mx, s[j] * scale);
                for (int j = 0; j < T; j++)
                    z += exp(s[j] * scale - mx);
                for (int j = 0; j < T; j++) {
                    double w = exp(s[j] * scale - mx) / z;
                    if (w > 0)
                        h -= w * log(w);
                }
                *(pass ? &Hs[m] : &Hr[m]) += h / trials;
            }
        }
    }
    free(q);
    free(K);
    free(s);
}

START_TEST(test_experiment)
{
    int runs = 0;
    for (int k = 0; k < rubric.n_tests; k++) {
        gr_case c;
        build(k, 23, &c);
        if (c.call.fn != LAB04_ENTROPY_EXPERIMENT) {
            gr_case_free(&c);
            continue;
        }
        const float *Hr = c.expected[0], *Hs = c.expected[1];
        const int32_t *dks = c.call.bufs[2].data;
        int n_dk = (int)c.call.ints[0], T = (int)c.call.ints[1], trials = (int)c.call.ints[2];
        if (c.expected_status != LAB_OK) {
            int bad = n_dk < 1 || T < 1 || trials < 1;
            for (int m = 0; m < n_dk; m++)
                bad |= dks[m] < 1;
            ck_assert_msg(bad, "%s: rejected with good arguments", c.describe);
            ck_assert(Hr[0] == proto_out_fill(0) && Hs[0] == proto_out_fill(0));
            gr_case_free(&c);
            continue;
        }
        double r[16], s[16];
        ck_assert_int_le(n_dk, 16);
        reference_experiment(r, s, dks, n_dk, T, trials, (uint64_t)c.call.ints[3]);
        for (int m = 0; m < n_dk; m++) {
            ck_assert_msg(fabs((double)Hr[m] - r[m]) < 1e-5 && fabs((double)Hs[m] - s[m]) < 1e-5,
                          "%s: d = %d: expected (%g, %g), recomputed (%g, %g)", c.describe, dks[m],
                          (double)Hr[m], (double)Hs[m], r[m], s[m]);
            /* scaled scores have variance 1: entropy near log T - 1/2 for any d
               (for d < 8 the variance |q|^2 / d of one query's scores still
               wanders, and the mean entropy sits higher) */
            if (T >= 32 && trials >= 50 && dks[m] >= 8)
                ck_assert_msg(fabs((double)Hs[m] - (log((double)T) - 0.5)) < 0.15,
                              "%s: H_scaled[%d] = %g", c.describe, m, (double)Hs[m]);
            /* raw scores have variance d: more peaked than the scaled ones */
            if (dks[m] >= 4)
                ck_assert((double)Hr[m] < (double)Hs[m]);
            if (m > 0 && trials >= 100)
                ck_assert_msg(Hr[m] < Hr[m - 1], "%s: H_raw does not fall with d_k", c.describe);
        }
        if (dks[0] == 8 && dks[n_dk - 1] == 512 && T == 64) {
            /* the handout: H_raw from about 2 nats at d_k = 8 to about 0.2 at 512 */
            ck_assert(Hr[0] > 1.5f && Hr[0] < 2.5f);
            ck_assert(Hr[n_dk - 1] > 0.05f && Hr[n_dk - 1] < 0.4f);
            runs++;
        }
        gr_case_free(&c);
    }
    ck_assert_int_ge(runs, 2);
}
END_TEST

/* The input window names the row behind an entropy and the run behind a mean. */
START_TEST(test_input_window)
{
    gr_case c;
    build_named("entropy_worked_rows", 1, &c);
    char *s = window_text(&c, 0, 2);
    ck_assert_msg(strstr(s, "W row [2]: 0.7054 0.2595 0.0351 0.0000") != NULL, "%s", s);
    free(s);
    gr_case_free(&c);
    build_named("experiment_course_run", 1, &c);
    s = window_text(&c, 1, 2);
    ck_assert_msg(strstr(s, "d = dks[2] = 32, T = 64, trials = 50, seed = 1") != NULL &&
                  strstr(s, "log T - 1/2 = 3.659") != NULL, "%s", s);
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
    Suite *s = suite_create("lab04 module");
    TCase *tc = tcase_create("rubric");
    tcase_add_checked_fixture(tc, load_rubric, free_rubric);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_points_per_function);
    tcase_add_test(tc, test_hidden_mistakes_show_on_visible_tests);
    tcase_add_test(tc, test_bad_rubric_tests_are_refused);
    tcase_add_test(tc, test_row_entropies);
    tcase_add_test(tc, test_experiment);
    tcase_add_test(tc, test_input_window);
    suite_add_tcase(s, tc);
    return s;
}
