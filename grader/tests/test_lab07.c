/* test_lab07.c: the grader's lab 7 module (grader/labs/lab07.c) against its
 * rubric (data/rubrics/lab07.yaml). Run from the repository root.
 *
 * What must hold for the grading of lab 7 to be fair (what every lab must do,
 * seeding and misconceptions, is in test_lab_modules.c):
 *   - points per function add up to what the stub and handout promise;
 *   - the expected outputs obey the contract (the worked log-sum-exps, -inf for
 *     a fully masked row, outputs inside the hull of the value rows a query
 *     sees, the T = 4096 answer equal to attention computed row by row);
 *   - the T = 4096 test is one a T x T matrix cannot pass under its limit.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lab07_calls.h"
#include "attn.h"
#include "labsup.h"

#define RUBRIC "data/rubrics/lab07.yaml"
#define MOD gr_lab07_module
#include "labtest.h"

Suite *test_suite(void);

/* The memory-wall test: building its case computes attention at T = 4096, so
   the loop below visits it once. */
static int is_big(const gr_rubric_test *t)
{
    return gr_rubric_test_param(t, "T", 0) >= 1024;
}

/* ---- the rubric ---------------------------------------------------------------- */

START_TEST(test_rubric_points_per_function)
{
    /* The stub promises logsumexp 4, attention 8: 12 in all. */
    const double want[LAB07_N_CALLS] = { 4, 8 };
    ck_assert_int_eq(rubric.lab, 7);
    check_points_per_function(want, LAB07_N_CALLS, NULL);
    for (int k = 0; k < rubric.n_tests; k++)
        ck_assert_msg(rubric.tests[k].abs_tol > 0 && rubric.tests[k].rel_tol > 0,
                      "%s: give a tolerance", rubric.tests[k].name);
}
END_TEST

START_TEST(test_rubric_memory_wall)
{
    /* The graded T = 4096 test: a T x T float matrix is 64 MiB, at least 16
       times the heap every lab 7 test allows, while one tile of scores and one
       accumulator row (what online softmax keeps) fit many times over. */
    const gr_rubric_test *t = find_test("attention_memory_4096");
    ck_assert_int_eq((int)gr_rubric_test_param(t, "T", 0), 4096);
    ck_assert_int_eq((int)gr_rubric_test_param(t, "causal", 0), 1);
    long matrix = 4096L * 4096 * (long)sizeof(float);
    long online = (long)(gr_rubric_test_param(t, "tile", 0) + gr_rubric_test_param(t, "dv", 0)) * (long)sizeof(float);
    ck_assert_int_ge(matrix, 16 * t->limits.memory_bytes);
    ck_assert_int_le(100 * online, t->limits.memory_bytes);
    ck_assert_int_ge(t->limits.time_ms, 10000);
    for (int k = 0; k < rubric.n_tests; k++)
        ck_assert_int_le(rubric.tests[k].limits.memory_bytes, 1L << 20);
}
END_TEST

/* ---- cases: errors say what to fix ----------------------------------------------- */

START_TEST(test_case_errors_say_what_to_fix)
{
    char name[] = "bad", kind[] = "logsumexp", key[] = "masked";
    gr_rubric_test t = { .name = name, .kind = kind };
    gr_case c;
    char err[256] = "";
    t.n_params = 1;
    t.params[0].key = key;
    t.params[0].value = 1;   /* default n = 16, tile 4, rows 4: fine */
    build_test(&t, 1, &c);
    gr_case_free(&c);
    char tkey[] = "T";
    t.params[0].key = tkey;  /* attention sizes are read as whole numbers */
    t.params[0].value = 2.5;
    t.kind = (char[]){ "attention" };
    refuse_case(&t, err, sizeof err);
    ck_assert_msg(strstr(err, "T = 2.5") && strstr(err, "whole number"), "%s", err);
}
END_TEST

/* ---- expected values --------------------------------------------------------------- */

START_TEST(test_expected_lse_worked_rows)
{
    /* [2, 1, -1, 0.5]:  e^2 + e^1 + e^-1 + e^0.5 = 7.389056 + 2.718282 + 0.367879
                         + 1.648721 = 12.123939, ln = 2.495182
       [2, 1, -1, -inf]: 10.475217 (exp(-inf) = 0), ln = 2.349012
       [-inf x 4]:       ln 0 = -inf, and never NaN */
    gr_case c;
    build_named("lse_worked_rows", 1, &c);
    const float *lse = c.expected[0];
    NEAR(lse[0], 2.495182, 1e-6);
    NEAR(lse[1], 2.349012, 1e-6);
    ck_assert(isinf(lse[2]) && lse[2] < 0);
    gr_case_free(&c);
}
END_TEST

/* max <= lse <= max + ln(#finite scores): the sum of exps holds the max's term
   and at most #finite copies of it. A fully masked row is -inf. */
START_TEST(test_expected_lse_bounds)
{
    for (int k = 0; k < rubric.n_tests; k++) {
        gr_case c;
        build(k, (uint64_t)_i + 30, &c);
        if (c.call.fn != LAB07_ONLINE_LOGSUMEXP) { gr_case_free(&c); continue; }
        if (c.expected_status != LAB_OK) {
            ck_assert(((const float *)c.expected[0])[0] == proto_out_fill(0));
            gr_case_free(&c);
            continue;
        }
        int rows = (int)c.call.ints[0], n = (int)c.call.ints[1];
        const float *S = c.call.bufs[1].data, *lse = c.expected[0];
        for (int r = 0; r < rows; r++) {
            float mx = -INFINITY;
            int finite = 0;
            for (int j = 0; j < n; j++) {
                if (S[r * n + j] > mx) mx = S[r * n + j];
                finite += isfinite(S[r * n + j]);
            }
            if (finite == 0) { ck_assert(isinf(lse[r]) && lse[r] < 0); continue; }
            ck_assert_msg(lse[r] >= mx - 1e-3f * fabsf(mx) - 1e-6f &&
                          lse[r] <= mx + logf((float)finite) + 1e-3f * fabsf(mx) + 1e-5f,
                          "%s row %d: lse %g outside [%g, %g + ln %d]", rubric.tests[k].name,
                          r, (double)lse[r], (double)mx, (double)mx, finite);
        }
        gr_case_free(&c);
    }
}
END_TEST

/* Each output row lies in the hull of the value rows its query sees (all keys,
   or keys 0..i when causal), and causal row 0 sees only key 0: O = V[0]. */
START_TEST(test_expected_attention_hull)
{
    for (int k = 0; k < rubric.n_tests; k++) {
        gr_case c;
        if (is_big(&rubric.tests[k]) && _i > 0) continue;
        build(k, (uint64_t)_i + 40, &c);
        if (c.call.fn != LAB07_ONLINE_ATTENTION || c.expected_status != LAB_OK) {
            gr_case_free(&c);
            continue;
        }
        int B = (int)c.call.ints[0], T = (int)c.call.ints[1], dv = (int)c.call.ints[3],
            causal = (int)c.call.ints[5];
        const float *V = c.call.bufs[3].data, *O = c.expected[0];
        int step = T > 256 ? 97 : 1;   /* a sample of rows at T = 4096 */
        for (int b = 0; b < B; b++)
            for (int i = 0; i < T; i += step)
                for (int ch = 0; ch < dv; ch++) {
                    int nk = causal ? i + 1 : T;
                    float lo = INFINITY, hi = -INFINITY;
                    for (int j = 0; j < nk; j++) {
                        float v = V[((long)b * T + j) * dv + ch];
                        lo = fminf(lo, v); hi = fmaxf(hi, v);
                    }
                    float o = O[((long)b * T + i) * dv + ch];
                    ck_assert(o >= lo - 1e-5f && o <= hi + 1e-5f);
                    if (causal && i == 0) NEAR(o, V[(long)b * T * dv + ch], 1e-6);
                }
        gr_case_free(&c);
    }
}
END_TEST

START_TEST(test_expected_4096_matches_row_by_row)
{
    /* The grader's answer at T = 4096 comes from libattn's fast path; here a few
       rows are recomputed the plain way, in double: scores q.k / 8 for keys
       0..i (causal), softmax, weighted sum of value rows. */
    gr_case c;
    build_named("attention_memory_4096", 3, &c);
    int T = (int)c.call.ints[1], d = (int)c.call.ints[2], dv = (int)c.call.ints[3];
    const float *Q = c.call.bufs[1].data, *K = c.call.bufs[2].data, *V = c.call.bufs[3].data;
    const float *O = c.expected[0];
    const int rows[4] = { 1, 100, 2047, 4095 };
    double *s = malloc((size_t)T * sizeof *s);
    for (int q = 0; q < 4; q++) {
        int i = rows[q];
        double mx = -(double)INFINITY, sum = 0.0;
        for (int j = 0; j <= i; j++) {
            double dot = 0.0;
            for (int e = 0; e < d; e++) dot += (double)Q[(long)i * d + e] * (double)K[(long)j * d + e];
            s[j] = dot / sqrt((double)d);
            if (s[j] > mx) mx = s[j];
        }
        for (int j = 0; j <= i; j++) { s[j] = exp(s[j] - mx); sum += s[j]; }
        for (int ch = 0; ch < dv; ch++) {
            double o = 0.0;
            for (int j = 0; j <= i; j++) o += s[j] / sum * (double)V[(long)j * dv + ch];
            NEAR(O[(long)i * dv + ch], o, 1e-5);
        }
    }
    free(s);
    gr_case_free(&c);
}
END_TEST

/* Whatever the student's seed, the large-scores test catches a wrong scale:
   its last query of batch 0 stays at scale 1, a softmax row that is not one-hot.
   Without it seed 32, among others, hid the unscaled mistake. */
START_TEST(test_large_scores_expose_a_wrong_scale_for_every_seed)
{
    assert_exposed("attention_large_scores", "unscaled", 300);
    assert_exposed("attention_large_scores", "inv_d", 300);
}
END_TEST

/* The prediction of misconception id for c: 0 with pred filled, or -1. */
static int predict_id(const char *id, const gr_case *c, void *pred[PROTO_MAX_BUFS])
{
    for (int i = 0; i < MOD.n_misconceptions; i++)
        if (strcmp(MOD.misconceptions[i].id, id) == 0)
            return MOD.misconceptions[i].predict(c, pred);
    ck_abort_msg("no misconception %s", id);
    return -1;
}

/* A running max started at 0 and no max at all are the same wherever no score
   is above 0: there neither is named; lse_low_scores, whose even rows reach
   ~1e4, tells them apart for every student (its inputs are fixed). */
START_TEST(test_max_from_zero_is_told_from_no_max)
{
    ck_assert(exposes("lse_low_scores", "max_from_zero", 1));
    ck_assert(exposes("lse_low_scores", "no_max", 1));
    ck_assert_int_eq(find_test("lse_low_scores")->visibility, GR_VISIBLE);
    gr_case c;
    build_named("lse_low_scores", 1, &c);
    void *zero[PROTO_MAX_BUFS] = {0}, *none[PROTO_MAX_BUFS] = {0};
    ck_assert_int_eq(predict_id("max_from_zero", &c, zero), 0);
    ck_assert_int_eq(predict_id("no_max", &c, none), 0);
    const float *z = zero[0], *x = none[0], *want = c.expected[0];
    for (int r = 0; r < 4; r++) {          /* odd rows -inf under both; even rows apart */
        ck_assert_msg(r % 2 ? isinf(z[r]) && isinf(x[r]) && isfinite(want[r])
                            : z[r] == want[r] && isinf(x[r]) && x[r] > 0,
                      "row %d: want %g, from zero %g, no max %g", r, (double)want[r],
                      (double)z[r], (double)x[r]);
    }
    free(zero[0]);
    free(none[0]);
    gr_case_free(&c);
    /* every row low: the two mistakes give the same, and neither is named */
    char name[] = "all_low", kind[] = "logsumexp", key[] = "row_max";
    gr_rubric_test t = { .name = name, .kind = kind, .n_params = 1 };
    t.params[0].key = key;
    t.params[0].value = -200;
    build_test(&t, 1, &c);
    ck_assert_int_eq(predict_id("max_from_zero", &c, zero), -1);
    ck_assert_int_eq(predict_id("no_max", &c, none), -1);
    gr_case_free(&c);
}
END_TEST

START_TEST(test_input_window_shows_the_row)
{
    gr_case c;
    build_named("lse_worked_rows", 1, &c);
    char *s = window_text(&c, 0, 2);
    ck_assert_msg(strstr(s, "S[2]: -inf -inf -inf -inf") && strstr(s, "fully masked"), "%s", s);
    free(s);
    gr_case_free(&c);
    build_named("attention_causal_small", 1, &c);
    s = window_text(&c, 0, 2 * 7 + 1);   /* O[1][0][1]: b = 1, i = 0 */
    ck_assert_msg(strstr(s, "query (b = 1, i = 0) sees keys 0..0 (causal)"), "%s", s);
    free(s);
    gr_case_free(&c);
    /* A refused call (tile 0) that wrote O anyway: the window says why, and does
       not divide by the tile. */
    char name[] = "tile_zero", kind[] = "attention", key[] = "tile", err[256] = "";
    gr_rubric_test t = { .name = name, .kind = kind, .n_params = 1 };
    t.params[0].key = key;
    t.params[0].value = 0;
    memset(&c, 0, sizeof c);
    ck_assert_msg(MOD.make_case(&t, 1, &c, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(c.expected_status, LAB_BAD_ARG);
    s = window_text(&c, 0, 3);
    ck_assert_msg(strstr(s, "tile = 0): the call must return LAB_BAD_ARG"), "%s", s);
    free(s);
    gr_case_free(&c);
    /* dv = 0 is refused the same way, without dividing by dv */
    char dvkey[] = "dv";
    t.params[0].key = dvkey;
    memset(&c, 0, sizeof c);
    ck_assert_msg(MOD.make_case(&t, 1, &c, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(c.expected_status, LAB_BAD_ARG);
    s = window_text(&c, 0, 3);
    ck_assert_msg(strstr(s, "dv = 0, tile = 4): the call must return LAB_BAD_ARG"), "%s", s);
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
    Suite *s = suite_create("grader lab07");
    TCase *tc = tcase_create("lab07");
    tcase_add_unchecked_fixture(tc, load_rubric, free_rubric);
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_rubric_points_per_function);
    tcase_add_test(tc, test_hidden_mistakes_show_on_visible_tests);
    tcase_add_test(tc, test_rubric_memory_wall);
    tcase_add_test(tc, test_case_errors_say_what_to_fix);
    tcase_add_test(tc, test_expected_lse_worked_rows);
    tcase_add_loop_test(tc, test_expected_lse_bounds, 0, 3);
    tcase_add_loop_test(tc, test_expected_attention_hull, 0, 3);
    tcase_add_test(tc, test_expected_4096_matches_row_by_row);
    tcase_add_test(tc, test_input_window_shows_the_row);
    tcase_add_test(tc, test_max_from_zero_is_told_from_no_max);
    tcase_add_test(tc, test_large_scores_expose_a_wrong_scale_for_every_seed);
    suite_add_tcase(s, tc);
    return s;
}
