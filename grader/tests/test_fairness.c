/* test_fairness.c: grading one source under several (student, secret) draws
 * (fairness.h), what `attnlab validate` checks every mutant with. The lab 1
 * solution scores full marks under every draw; a copy that goes wrong only when
 * its first query value is positive scores differently by draw, and the tests
 * whose points moved are named; tests on fixed inputs are counted and run once.
 * Run from the repository root. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/fairness.h"
#include "fixtures/fixture_kit.h"
#include "base/rubric.h"
#include "base/util.h"

Suite *test_suite(void);

static const gr_draw draws[] = {
    { "s1", "secret one" }, { "s2", "secret one" }, { "s3", "secret two" },
    { "s4", "secret two" }, { "s5", "secret one" }, { "s6", "secret two" },
};
#define N_DRAWS ((int)(sizeof draws / sizeof draws[0]))

static char *dir;   /* the suite's folder: the draw-dependent copy is written there */

static void make_dir(void)
{
    dir = fk_suite_dir("fairness");
}

/* Grade src as lab 1 under every draw into f. */
static void grade(const char *src, gr_fairness *f)
{
    char *objs = fk_child_dir(), err[1024] = "";
    gr_grade_opts o;
    memset(&o, 0, sizeof o);
    o.root = ".";
    o.child_dir = objs;
    ck_assert_msg(gr_fairness_grade(&o, 1, src, draws, N_DRAWS, f, err, sizeof err) == 0,
                  "%s", err);
    free(objs);
}

/* Points of lab 1's tests whose rubric fixes the inputs (a seed, or a worked example). */
static double rubric_fixed_points(double *max)
{
    gr_rubric r;
    char err[512];
    ck_assert_msg(gr_rubric_load("data/rubrics/lab01.yaml", &r, err, sizeof err) == 0, "%s", err);
    double fixed = 0;
    *max = 0;
    for (int i = 0; i < r.n_tests; i++) {
        *max += r.tests[i].points;
        if (gr_rubric_test_param(&r.tests[i], "seed", -1) >= 0 || strstr(r.tests[i].kind, "_worked"))
            fixed += r.tests[i].points;
    }
    gr_rubric_free(&r);
    return fixed;
}

START_TEST(solution_scores_full_marks_under_every_draw)
{
    double max, fixed = rubric_fixed_points(&max);
    gr_fairness f;
    grade("solutions/lab01-scores/lab01.c", &f);
    for (int k = 0; k < N_DRAWS; k++)
        ck_assert_msg(f.scores[k] == max, "draw %d: %g of %g", k, f.scores[k], max);
    ck_assert_ptr_null(f.varying);
    ck_assert_ptr_null(f.fixed_failed);
    ck_assert_msg(fixed > 0 && f.fixed_points >= fixed && f.fixed_points < max,
                  "fixed-input points %g (the rubric fixes %g of %g)", f.fixed_points, fixed, max);
    gr_fairness_free(&f);
}
END_TEST

START_TEST(a_score_that_depends_on_the_draw_is_found)
{
    size_t len;
    char *text = gr_read_file("solutions/lab01-scores/lab01.c", &len);
    ck_assert_ptr_nonnull(text);
    ck_assert_ptr_nonnull(dir);
    const char *at = "    scores(S, Q, K, B, Tq, Tk, d, 1.0);\n";
    char *hit = strstr(text, at);
    ck_assert_ptr_nonnull(hit);
    char *src = gr_xasprintf("%s/lab01.c", dir);
    char *mutant = gr_xasprintf("%.*s%s    if (B > 0 && Tq > 0 && Tk > 0 && Q[0] > 0) S[0] += 1;\n%s",
                                (int)(hit - text), text, at, hit + strlen(at));
    ck_assert_int_eq(gr_write_file_atomic(src, mutant, strlen(mutant)), 0);
    gr_fairness f;
    grade(src, &f);
    int differ = 0;
    for (int k = 1; k < N_DRAWS; k++)
        differ |= f.scores[k] != f.scores[0];
    ck_assert_msg(differ, "every draw scored %g", f.scores[0]);
    ck_assert_ptr_nonnull(f.varying);
    ck_assert_msg(strstr(f.varying, "dot_random") != NULL, "varying: %s", f.varying);
    /* a fixed test runs once for all draws: fewer runs than tests x draws */
    ck_assert_int_lt(f.runs, 17 * N_DRAWS);
    gr_fairness_free(&f);
    free(mutant);
    free(src);
    free(text);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("fairness");
    TCase *tc = tcase_create("fairness");
    tcase_add_unchecked_fixture(tc, make_dir, NULL);
    tcase_add_test(tc, solution_scores_full_marks_under_every_draw);
    tcase_add_test(tc, a_score_that_depends_on_the_draw_is_found);
    tcase_set_timeout(tc, 300);
    suite_add_tcase(s, tc);
    return s;
}
