/* test_items.c: item analysis across a class (items.c), on numbers worked by
 * hand, and tests.csv.
 *
 * The class: five students who attempted lab 1, whose tests T1, T2, T3 (1, 1
 * and 2 points), T4 (passed by all) and T5 (passed by none) they passed as
 * the table below says; a student who handed the stub back untouched, one
 * with no lab file, and one on the roster with no submission, none of whom
 * count in the analysis.
 *
 *          T1  T2  T3  T4  T5   lab
 *     a     1   1   2   1   0    5
 *     b     1   1   0   1   0    3
 *     c     1   0   0   1   0    2
 *     d     0   1   2   1   0    4
 *     e     1   0   0   1   0    2
 *
 * T2 against the rest of the lab (3 1 1 2 1 plus T4's 1 each, which shifts
 * every rest alike and changes no r): x = 1 1 0 1 0, mean .6, rest mean 1.6;
 * sum dx dy = .56 - .24 + .36 + .16 + .36 = 1.2, sum dx^2 = 1.2, sum dy^2 =
 * 3.2, so r = 1.2 / sqrt(3.84) = 0.612372. T1: x = 1 1 1 0 1, rest 3 1 0 3 0:
 * r = -1.6 / sqrt(0.8 * 9.2) = -0.589768 (d, who fails it, has the best
 * rest). T3 (fractions 1 0 0 1 0, rest 2 2 1 1 1): r = 0.2 / 1.2 = 0.166667.
 * Upper-lower with 5 students: groups of round(1.35) = 1. T2: top a (1),
 * bottom shared by b, c, e tied at rest 1 (1, 0, 0: 1/3), D = 2/3. T1: top
 * shared by a, d (1, 0: 1/2), bottom by c, e (1, 1), D = -1/2. T3: top a, b
 * (1, 0: 1/2), bottom c, d, e (0, 1, 0: 1/3), D = 1/6.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "class/classreport.h"
#include "class/items.h"
#include "base/labmod.h"
#include "base/util.h"

Suite *test_suite(void);

#define TOL 1e-6

START_TEST(point_biserial_by_hand)
{
    double x[] = {0, 0, 1, 1}, y[] = {0, 1, 2, 3};
    /* dx = -.5 -.5 .5 .5, dy = -1.5 -.5 .5 1.5: r = 2 / sqrt(1 * 5) */
    ck_assert_double_eq_tol(gr_items_point_biserial(x, y, 4), 2 / sqrt(5), TOL);
    double same[] = {1, 1, 1, 1};
    ck_assert(isnan(gr_items_point_biserial(same, y, 4)));      /* everyone passed */
    ck_assert(isnan(gr_items_point_biserial(x, same, 4)));      /* every rest the same */
    ck_assert(isnan(gr_items_point_biserial(x, y, 1)));
    double neg[] = {1, 1, 0, 0};
    ck_assert_double_eq_tol(gr_items_point_biserial(neg, y, 4), -2 / sqrt(5), TOL);
}
END_TEST

START_TEST(upper_lower_by_hand)
{
    /* 10 students: groups of round(2.7) = 3; ranks distinct */
    double x[] = {1, 1, 0, 1, 0, 1, 0, 0, 1, 0}, rank[] = {9, 8, 7, 6, 5, 4, 3, 2, 1, 0};
    /* top 3: 1 1 0 (2/3), bottom 3: 0 1 0 (1/3) */
    ck_assert_double_eq_tol(gr_items_upper_lower(x, rank, 10), 1.0 / 3, TOL);
    /* four tied at the top edge for 2 places left: ranks 9 | 5 5 5 5 | ... */
    double x2[] = {1, 1, 0, 0, 0, 1, 1, 0, 0, 0}, r2[] = {9, 8, 5, 5, 5, 5, 3, 2, 1, 0};
    /* top: 1 + 1 + (0 + 0 + 0 + 1) * 1/4 of the 1 place left... the top group is
       ranks 9 and 8 whole (2 of 3 places), and 1 place shared by the four 5s
       (0 0 0 1): (1 + 1 + 1/4) / 3 = 0.75; bottom: 0 0 0 (ranks 0 1 2) = 0 */
    ck_assert_double_eq_tol(gr_items_upper_lower(x2, r2, 10), 0.75, TOL);
    ck_assert(isnan(gr_items_upper_lower(x, rank, 1)));
}
END_TEST

/* ---- a class in memory ------------------------------------------------------------ */

static const double pts[5] = {1, 1, 2, 1, 1};
static const double earned_pts[5][5] = {
    {1, 1, 2, 1, 0}, {1, 1, 0, 1, 0}, {1, 0, 0, 1, 0}, {0, 1, 2, 1, 0}, {1, 0, 0, 1, 0},
};

/* Lab 1 with tests T1..T5, every one with verdict v (the stub, a missing
   file), or as row of earned_pts. */
static void add_lab(gr_report *r, int row, gr_verdict v)
{
    r->labs = gr_xcalloc(1, sizeof *r->labs);
    r->n_labs = 1;
    gr_lab_result *l = &r->labs[0];
    l->lab = 1;
    l->name = gr_xstrdup("lab01-scores");
    l->n_tests = 5;
    l->tests = gr_xcalloc(5, sizeof *l->tests);
    for (int j = 0; j < 5; j++) {
        gr_test_result *t = &l->tests[j];
        t->name = gr_xasprintf("T%d", j + 1);
        t->max_score = pts[j];
        t->visibility = j == 2 ? GR_HIDDEN : GR_VISIBLE;
        t->score = row >= 0 ? earned_pts[row][j] : 0;
        t->verdict = row < 0 ? v : t->score == t->max_score ? GR_PASSED : GR_WRONG_ANSWER;
        l->score += t->score;
        l->max_score += t->max_score;
    }
    r->score = l->score;
    r->max_score = l->max_score;
}

static void set(gr_class *c, int student, int test, gr_verdict v, const char *mc)
{
    gr_test_result *t = &c->students[student].report.labs[0].tests[test];
    t->verdict = v;
    t->misconception = mc ? gr_xstrdup(mc) : NULL;
}

static void make_class(gr_class *c)
{
    static const char *ids[] = {"a", "b", "c", "d", "e", "stub", "empty", "absent"};
    memset(c, 0, sizeof *c);
    c->labs[0] = 1;
    c->lab_max[0] = 6;              /* the rubric's: pts added up */
    c->n = 8;
    c->students = gr_xcalloc(8, sizeof *c->students);
    for (int i = 0; i < 8; i++) {
        gr_student *s = &c->students[i];
        s->id = gr_xstrdup(ids[i]);
        s->submitted = i < 7;
        if (i < 5)
            add_lab(&s->report, i, GR_PASSED);
        else if (i < 7)
            add_lab(&s->report, -1, i == 5 ? GR_NOT_IMPLEMENTED : GR_MISSING);
    }
    set(c, 1, 2, GR_WRONG_ANSWER, "inv_dk");      /* b and c: 1/d on T3 */
    set(c, 2, 2, GR_WRONG_ANSWER, "inv_dk");
    set(c, 2, 1, GR_WRONG_ANSWER, "no_scale");    /* c on T2 */
    set(c, 4, 2, GR_CRASHED, NULL);               /* e crashed on T3 */
    set(c, 4, 4, GR_CRASHED, NULL);               /* ... and on T5: one student, once */
    set(c, 3, 0, GR_TIMED_OUT, NULL);             /* d timed out on T1 */
}

START_TEST(items_of_a_class_by_hand)
{
    gr_class c;
    make_class(&c);
    gr_items it;
    gr_items_analyse(&c, &it);
    ck_assert_int_eq(it.n, 5);
    ck_assert_int_eq(it.attempted[0], 5);
    ck_assert_int_eq(it.not_started[0], 1);
    ck_assert_int_eq(it.missing[0], 1);
    static const double r[] = {-0.589768, 0.612372, 1.0 / 6};
    static const double d[] = {-0.5, 2.0 / 3, 1.0 / 6};
    static const double p[] = {0.8, 0.6, 0.4};
    for (int k = 0; k < 3; k++) {
        const gr_item *m = &it.items[k];
        ck_assert_int_eq(m->attempted, 5);
        ck_assert_double_eq_tol(m->r_pb, r[k], TOL);
        ck_assert_double_eq_tol(m->d_index, d[k], TOL);
        ck_assert_double_eq_tol(m->difficulty, p[k], TOL);
    }
    ck_assert_str_eq(it.items[0].test, "T1");
    ck_assert_int_eq(it.items[0].flags, GR_ITEM_NEGATIVE);
    ck_assert_int_eq(it.items[1].flags, 0);
    ck_assert_int_eq(it.items[2].flags, 0);
    ck_assert_int_eq(it.items[2].visibility, GR_HIDDEN);
    ck_assert_int_eq(it.items[3].flags, GR_ITEM_ALL_PASS);
    ck_assert(isnan(it.items[3].r_pb));
    ck_assert_int_eq(it.items[4].flags, GR_ITEM_NONE_PASS);
    ck_assert_int_eq(it.items[4].verdicts[GR_CRASHED], 1);
    ck_assert_int_eq(it.items[4].verdicts[GR_WRONG_ANSWER], 4);
    char buf[128];
    ck_assert_str_eq(gr_items_flag_text(buf, sizeof buf, GR_ITEM_NEGATIVE),
                     "negative discrimination: check the rubric");
    ck_assert_str_eq(gr_items_flag_text(buf, sizeof buf, 0), "");

    /* verdicts: d timed out, e crashed (twice, named once); 1 missing file */
    ck_assert_int_eq(it.n_verdicts, 3);
    ck_assert_int_eq(it.verdicts[0].verdict, GR_CRASHED);
    ck_assert_int_eq(it.verdicts[0].n, 1);
    ck_assert_str_eq(it.verdicts[0].students[0], "e");
    ck_assert_int_eq(it.verdicts[1].verdict, GR_TIMED_OUT);
    ck_assert_str_eq(it.verdicts[1].students[0], "d");
    ck_assert_int_eq(it.verdicts[2].verdict, GR_MISSING);
    ck_assert_str_eq(it.verdicts[2].students[0], "empty");

    /* misconceptions: inv_dk (b, c) before no_scale (c), with their handout */
    ck_assert_int_eq(it.n_shown, 2);
    ck_assert_str_eq(it.shown[0].id, "inv_dk");
    ck_assert_int_eq(it.shown[0].n, 2);
    ck_assert_str_eq(it.shown[0].students[1], "c");
    ck_assert_ptr_nonnull(it.shown[0].mc);
    ck_assert_int_eq(it.shown[0].mc->handout.lab, 1);
    ck_assert_str_eq(it.shown[1].id, "no_scale");
    gr_items_free(&it);
    gr_class_free(&c);
}
END_TEST

START_TEST(tests_csv_has_a_column_per_test)
{
    gr_class c;
    make_class(&c);
    free(c.students[0].id);
    c.students[0].id = gr_xstrdup("=SUM(1,2)");
    gr_items it;
    gr_items_analyse(&c, &it);
    char *csv = gr_items_csv(&c, &it, 0);
    const char *head = "Student ID,Name,Email,\"lab01-scores.T1\",\"lab01-scores.T2\","
                       "\"lab01-scores.T3\",\"lab01-scores.T4\",\"lab01-scores.T5\",Total\r\n"
                       "Points possible,,,1,1,2,1,1,6\r\n";
    ck_assert_msg(strncmp(csv, head, strlen(head)) == 0, "%s", csv);
    ck_assert_ptr_nonnull(strstr(csv, "\r\n\"'=SUM(1,2)\",,,1,1,2,1,0,5\r\n"));
    ck_assert_ptr_nonnull(strstr(csv, "\r\n\"d\",,,0,1,2,1,0,4\r\n"));
    ck_assert_ptr_nonnull(strstr(csv, "\r\n\"empty\",,,0,0,0,0,0,0\r\n"));
    ck_assert_ptr_nonnull(strstr(csv, "\r\n\"absent\",,,,,,,,\r\n"));
    free(csv);
    gr_items_free(&it);
    gr_class_free(&c);
}
END_TEST

/* The class report ranks over attempted labs: T5 (failed by all 5) first, then
   T3 (3 of 5), T2 (2), T1 (1); the stub and the empty folder are no failures
   of a test but a verdict line, as the time-out and the crash are. */
START_TEST(class_report_ranks_over_attempted_labs)
{
    gr_class c;
    make_class(&c);
    char *md = gr_classreport_text(&c, 1);
    ck_assert_msg(strstr(md, "| failed | of attempted | lab | test | points | most common verdict |\n"
                             "|---|---|---|---|---|---|\n"
                             "| 5 | 5 | lab01-scores | T5 | 1 | wrong answer |\n"
                             "| 3 | 5 | lab01-scores | T3 | 2 | wrong answer |\n"
                             "| 2 | 5 | lab01-scores | T2 | 1 | wrong answer |\n"
                             "| 1 | 5 | lab01-scores | T1 | 1 | timed out |\n") != NULL, "%s", md);
    ck_assert_msg(strstr(md, "| lab | test | passed | of attempted | r with the rest of the lab |\n"
                             "|---|---|---|---|---|\n| lab01-scores | T1 | 4 | 5 | -0.59 |\n") != NULL,
                  "%s", md);
    ck_assert_ptr_nonnull(strstr(md, "1 of 5 tests passed by everyone who attempted their lab, 1 by no one"));
    ck_assert_ptr_nonnull(strstr(md, "| lab01-scores | crashed | 1 | e |\n"));
    ck_assert_ptr_nonnull(strstr(md, "| lab01-scores | timed out | 1 | d |\n"));
    ck_assert_ptr_nonnull(strstr(md, "| lab01-scores | missing | 1 | empty |\n"));
    ck_assert_msg(strstr(md, "| 2 | 5 | inv\\_dk | ") != NULL && strstr(md, "| b, c |\n") != NULL,
                  "%s", md);
    free(md);
    gr_class_free(&c);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("items");
    TCase *tc = tcase_create("statistics");
    tcase_add_test(tc, point_biserial_by_hand);
    tcase_add_test(tc, upper_lower_by_hand);
    suite_add_tcase(s, tc);
    tc = tcase_create("class");
    tcase_add_test(tc, items_of_a_class_by_hand);
    tcase_add_test(tc, tests_csv_has_a_column_per_test);
    tcase_add_test(tc, class_report_ranks_over_attempted_labs);
    suite_add_tcase(s, tc);
    return s;
}
