/* test_lab10.c: the grader's lab 10 module (grader/labs/lab10.c) against its
 * rubric (data/rubrics/lab10.yaml). Run from the repository root.
 *
 * What must hold for the grading of lab 10 to be fair (what every lab must do,
 * seeding and misconceptions, is in test_lab_modules.c):
 *   - points per function add up to what the stub and handout promise;
 *   - the expected outputs obey the contract (rows of W are distributions over
 *     the keys, GQA groups read the right key head, the handout's worked
 *     averages, A and M distributions with the gap between them, an extracted
 *     head is plane b * H + h exactly);
 *   - the GQA tests tell h / (H / Hkv) from h % Hkv and h / Hkv.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lab10_calls.h"
#include "attn.h"
#include "labsup.h"

#define RUBRIC "data/rubrics/lab10.yaml"
#define MOD gr_lab10_module
#include "labtest.h"

Suite *test_suite(void);

/* ---- the rubric ---------------------------------------------------------------- */

START_TEST(test_rubric_points_per_function)
{
    /* The stub promises head weights 3, GQA 3, average 4, extract 2: 12 in all. */
    const double want[LAB10_N_CALLS] = { 3, 3, 4, 2 };
    ck_assert_int_eq(rubric.lab, 10);
    check_points_per_function(want, LAB10_N_CALLS, NULL);
}
END_TEST

START_TEST(test_rubric_visible_and_hidden)
{
    int visible[LAB10_N_CALLS] = { 0 }, hidden[LAB10_N_CALLS] = { 0 };
    for (int k = 0; k < rubric.n_tests; k++) {
        gr_case c;
        build(k, 1, &c);
        if (rubric.tests[k].visibility == GR_VISIBLE) visible[c.call.fn]++;
        else hidden[c.call.fn]++;
        /* weights need a tolerance; an extracted head is a copy, compared exactly */
        if (c.call.fn == LAB10_EXTRACT_HEAD)
            ck_assert_msg(rubric.tests[k].abs_tol == 0 && rubric.tests[k].rel_tol == 0,
                          "%s: an extracted head is compared exactly", rubric.tests[k].name);
        else
            ck_assert_msg(rubric.tests[k].abs_tol > 0 && rubric.tests[k].rel_tol > 0,
                          "%s: give a tolerance", rubric.tests[k].name);
        gr_case_free(&c);
    }
    for (int f = 0; f < LAB10_N_CALLS; f++)
        ck_assert_msg(visible[f] >= 1 && hidden[f] >= 1,
                      "function %d needs a visible and a hidden test", f);
}
END_TEST

START_TEST(test_gqa_tests_tell_the_formulas_apart)
{
    /* Some GQA test must have h / (H / Hkv), h % Hkv and h / Hkv all different
       for some head, with h / Hkv still a key head (so the mistake answers
       rather than crashes). */
    int found = 0;
    for (int k = 0; k < rubric.n_tests; k++) {
        gr_case c;
        build(k, 1, &c);
        if (c.call.fn == LAB10_GQA_WEIGHTS && c.expected_status == LAB_OK) {
            int H = (int)c.call.ints[1], Hkv = (int)c.call.ints[2], ok = (H - 1) / Hkv < Hkv;
            for (int h = 0; h < H && ok; h++) {
                int right = h / (H / Hkv);
                found |= right != h % Hkv && right != h / Hkv && h % Hkv != h / Hkv;
            }
        }
        gr_case_free(&c);
    }
    ck_assert_msg(found, "no GQA test separates h / (H / Hkv), h %% Hkv and h / Hkv");
}
END_TEST

/* ---- cases: errors say what to fix ----------------------------------------------- */

START_TEST(test_case_errors_say_what_to_fix)
{
    char err[256] = "";
    refuse_param("heads", "Hkv", 2, err, sizeof err);
    ck_assert_msg(strstr(err, "Hkv") && strstr(err, "gqa"), "%s", err);
    refuse_param("average", "Tq", -1, err, sizeof err);   /* 0 is a bad call: LAB_BAD_ARG */
    ck_assert_msg(strstr(err, "Tq") && strstr(err, "use"), "%s", err);
    refuse_param("extract", "b", 65, err, sizeof err);
    ck_assert_msg(strstr(err, "b = 65"), "%s", err);
}
END_TEST

/* ---- expected values --------------------------------------------------------------- */

START_TEST(test_expected_weights_are_rows_over_keys)
{
    /* Every (b, h, i) row of W sums to 1 and is non-negative, for every weight test. */
    for (int k = 0; k < rubric.n_tests; k++) {
        gr_case c;
        build(k, (uint64_t)_i + 1, &c);
        if (c.call.fn <= LAB10_GQA_WEIGHTS && c.expected_status == LAB_OK) {
            int o = c.call.fn == LAB10_GQA_WEIGHTS;
            long rows = c.call.ints[0] * c.call.ints[1] * c.call.ints[2 + o];
            int Tk = (int)c.call.ints[3 + o];
            const float *W = c.expected[0];
            for (long r = 0; r < rows; r++) {
                double sum = 0.0;
                for (int j = 0; j < Tk; j++) {
                    ck_assert(W[r * Tk + j] >= 0.0f);
                    sum += (double)W[r * Tk + j];
                }
                NEAR(sum, 1.0, 1e-5);
            }
        }
        gr_case_free(&c);
    }
}
END_TEST

START_TEST(test_expected_gqa_reads_its_group)
{
    /* gqa_groups_of_two: H = 8, Hkv = 4, so heads 2 and 3 read key head 1. With
       equal queries, heads 2 and 3 would then have equal weights; here queries
       differ, so recompute head 3 from key head 1 alone and compare. */
    gr_case c;
    build_named("gqa_groups_of_two", 4, &c);
    int H = 8, Hkv = 4, Tq = 3, Tk = 5, d = 8;
    const float *Q = c.call.bufs[1].data, *K = c.call.bufs[2].data, *W = c.expected[0];
    float w[3 * 5];
    int b = 1, h = 3;
    attn_scaled_dot_scores(w, Q + ((long)b * H + h) * Tq * d, K + ((long)b * Hkv + 1) * Tk * d,
                           1, Tq, Tk, d);
    attn_softmax(w, w, Tq, Tk);
    for (int n = 0; n < Tq * Tk; n++)
        NEAR(W[((long)b * H + h) * Tq * Tk + n], w[n], 1e-7);
    gr_case_free(&c);
}
END_TEST

START_TEST(test_expected_average_worked)
{
    /* The handout's section 3, one row per example:
         row 0: A = [0.446747, 0.106507, 0.446747], M = [0.422319, 0.155362, 0.422319],
                gap (0.048855, -0.058886)
         row 1: gap (0.245243, +0.504375) */
    gr_case c;
    build_named("average_worked", 1, &c);
    const float *A = c.expected[0], *M = c.expected[1], *gap = c.expected[2];
    const double wantA[3] = { 0.446747, 0.106507, 0.446747 };
    const double wantM[3] = { 0.422319, 0.155362, 0.422319 };
    for (int j = 0; j < 3; j++) {
        NEAR(A[j], wantA[j], 1e-6);
        NEAR(M[j], wantM[j], 1e-6);
    }
    NEAR(gap[0], 0.048855, 1e-6);
    NEAR(gap[1], -0.058886, 1e-6);
    NEAR(gap[2], 0.245243, 1e-6);
    NEAR(gap[3], 0.504375, 1e-6);
    gr_case_free(&c);
}
END_TEST

START_TEST(test_expected_average_random)
{
    /* A and M are distributions, and the gap is what separates them. */
    gr_case c;
    build_named("average_random", (uint64_t)_i + 1, &c);
    const float *A = c.expected[0], *M = c.expected[1], *gap = c.expected[2];
    for (int r = 0; r < 2 * 4; r++) {
        double sa = 0.0, sm = 0.0, mx = 0.0;
        for (int j = 0; j < 6; j++) {
            sa += (double)A[r * 6 + j];
            sm += (double)M[r * 6 + j];
            mx = fmax(mx, fabs((double)A[r * 6 + j] - (double)M[r * 6 + j]));
        }
        NEAR(sa, 1.0, 1e-5);
        NEAR(sm, 1.0, 1e-5);
        NEAR(gap[2 * r], mx, 1e-7);
        ck_assert(gap[2 * r] > 0.0f);
    }
    gr_case_free(&c);
}
END_TEST

START_TEST(test_expected_extract_is_the_plane)
{
    /* extract_rect: B = 3, H = 5, (b, h) = (2, 1): plane 2 * 5 + 1 = 11, copied exactly. */
    gr_case c;
    build_named("extract_rect", 2, &c);
    const float *W = c.call.bufs[1].data, *Wh = c.expected[0];
    long plane = 4 * 9;
    ck_assert(memcmp(Wh, W + 11 * plane, (size_t)plane * sizeof(float)) == 0);
    gr_case_free(&c);
}
END_TEST

/* Each size 0 on its own is refused (LAB_BAD_ARG, outputs untouched), with the
   size named in the ints the call takes; every size 1 is an ordinary call. */
START_TEST(test_zero_and_one_sizes)
{
    static const struct { const char *name; int arg, bad; } want[] = {
        {"heads_no_batch", 0, 1}, {"heads_no_head", 1, 1}, {"heads_no_query", 2, 1},
        {"heads_no_key", 3, 1}, {"heads_no_size", 4, 1}, {"gqa_no_key_head", 2, 1},
        {"gqa_no_size", 5, 1}, {"average_no_key", 3, 1}, {"extract_no_query", 2, 1},
        {"heads_all_ones", -1, 0}, {"gqa_all_ones", -1, 0}, {"average_all_ones", -1, 0},
        {"extract_all_ones", -1, 0},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        gr_case c;
        build_named(want[i].name, 1, &c);
        ck_assert_msg(c.expected_status == (want[i].bad ? LAB_BAD_ARG : LAB_OK), "%s", want[i].name);
        if (want[i].bad)
            ck_assert_msg(c.call.ints[want[i].arg] == 0, "%s: int %d is %lld", want[i].name,
                          want[i].arg, (long long)c.call.ints[want[i].arg]);
        else
            for (int k = 0; k < c.call.n_ints && k < 4; k++)
                ck_assert_msg(c.call.ints[k] == 1, "%s: int %d", want[i].name, k);
        gr_case_free(&c);
    }
}
END_TEST

START_TEST(test_input_window_names_the_head)
{
    /* A GQA mismatch names the head and the key head it reads. */
    gr_case c;
    build_named("gqa_groups_of_two", 1, &c);
    char *s = window_text(&c, 0, 3L * 3 * 5);  /* plane 3: b = 0, h = 3 */
    ck_assert_msg(strstr(s, "head h = 3") && strstr(s, "3 / 2 = 1"), "%s", s);
    free(s);
    gr_case_free(&c);
    /* An extraction mismatch names the element of W it should copy. */
    build_named("extract_small", 1, &c);
    s = window_text(&c, 0, 9);  /* Wh[1][1] of (b, h) = (0, 3), Tk = 8 */
    ck_assert_msg(strstr(s, "Wh[1][1] is W[0][3][1][1]") && strstr(s, "= 153 of W"), "%s", s);
    free(s);
    gr_case_free(&c);
    /* A refused extraction ((b, h) outside W) reads nothing past W: it says why. */
    build_named("extract_bad_head", 1, &c);
    ck_assert_int_eq(c.expected_status, LAB_BAD_ARG);
    s = window_text(&c, 0, 4);
    ck_assert_msg(strstr(s, "(b, h) = (1, 4) is outside (B, H) = (2, 4)"), "%s", s);
    free(s);
    gr_case_free(&c);
}
END_TEST

START_TEST(test_hidden_mistakes_show_on_visible_tests)
{
    check_hidden_shown_visible();
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("grader lab10");
    TCase *tc = tcase_create("lab10");
    tcase_add_unchecked_fixture(tc, load_rubric, free_rubric);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_rubric_points_per_function);
    tcase_add_test(tc, test_rubric_visible_and_hidden);
    tcase_add_test(tc, test_gqa_tests_tell_the_formulas_apart);
    tcase_add_test(tc, test_case_errors_say_what_to_fix);
    tcase_add_loop_test(tc, test_expected_weights_are_rows_over_keys, 0, 3);
    tcase_add_test(tc, test_expected_gqa_reads_its_group);
    tcase_add_test(tc, test_expected_average_worked);
    tcase_add_loop_test(tc, test_expected_average_random, 0, 3);
    tcase_add_test(tc, test_expected_extract_is_the_plane);
    tcase_add_test(tc, test_zero_and_one_sizes);
    tcase_add_test(tc, test_input_window_names_the_head);
    tcase_add_test(tc, test_hidden_mistakes_show_on_visible_tests);
    suite_add_tcase(s, tc);
    return s;
}
