/* test_visibility.c: what a student may see never reveals a hidden test.
 *
 * A report with one test of each visibility (visible, hidden, after_due_date,
 * after_published) goes through every writer: the summary students always
 * see (results.json "output", PrairieLearn's output) counts visible tests
 * only, PrairieLearn lists visible tests one by one and sums the rest into
 * one entry, JUnit marks every test's visibility and --junit-public drops the
 * details of tests not shown, and no time handed to a student counts a test
 * not shown. Also: after_published in a rubric, the moment table, and the
 * practice-secret mark.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "textcheck.h"
#include "report/report.h"
#include "base/rubric.h"
#include "engine/seed.h"
#include "base/util.h"

Suite *test_suite(void);

static void set_test(gr_test_result *t, const char *name, gr_verdict v, double score, double max,
                     gr_visibility vis, const char *message)
{
    t->name = gr_xstrdup(name);
    t->verdict = v;
    t->score = score;
    t->max_score = max;
    t->visibility = vis;
    t->message = message ? gr_xstrdup(message) : NULL;
    t->seconds = 0.25;
}

/* lab01: visible passed 2/2, visible wrong 0/3, hidden crashed 0/5 ("secret_sizes"),
   after_due_date passed 4/4 ("due_probe"), after_published wrong 0/6 ("pub_probe").
   Total 6/20; visible 2/5. */
static void build_report(gr_report *r)
{
    memset(r, 0, sizeof *r);
    r->student = gr_xstrdup("s123");
    r->n_labs = 1;
    r->labs = gr_xcalloc(1, sizeof *r->labs);
    gr_lab_result *l = &r->labs[0];
    l->lab = 1;
    l->name = gr_xstrdup("lab01-scores");
    l->n_tests = 5;
    l->tests = gr_xcalloc(5, sizeof *l->tests);
    set_test(&l->tests[0], "dot_worked", GR_PASSED, 2, 2, GR_VISIBLE, NULL);
    set_test(&l->tests[1], "scaled_small", GR_WRONG_ANSWER, 0, 3, GR_VISIBLE, "S[0]: expected 1, got 2");
    set_test(&l->tests[2], "secret_sizes", GR_CRASHED, 0, 5, GR_HIDDEN, "killed by SIGSEGV at T=4096");
    set_test(&l->tests[3], "due_probe", GR_PASSED, 4, 4, GR_AFTER_DUE_DATE, NULL);
    set_test(&l->tests[4], "pub_probe", GR_WRONG_ANSWER, 0, 6, GR_AFTER_PUBLISHED, "pub detail");
    l->score = r->score = 6;
    l->max_score = r->max_score = 20;
}

/* No name, message or point value of a test the student may not see. */
static void assert_reveals_nothing_unseen(const char *text)
{
    ck_assert_msg(!strstr(text, "secret_sizes") && !strstr(text, "SIGSEGV") &&
                  !strstr(text, "due_probe") && !strstr(text, "pub_probe") &&
                  !strstr(text, "pub detail"), "a test not shown leaks:\n%s", text);
}

START_TEST(rubric_reads_after_published)
{
    static const char yaml[] =
        "lab: 1\nname: scores\nsource: lab01.c\ntests:\n"
        "  - {name: a, kind: dot, points: 1, visibility: after_published}\n"
        "  - {name: b, kind: dot, points: 1}\n";
    gr_rubric r;
    char err[256];
    ck_assert_msg(gr_rubric_parse("mem.yaml", yaml, strlen(yaml), &r, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(r.tests[0].visibility, GR_AFTER_PUBLISHED);
    ck_assert_int_eq(r.tests[1].visibility, GR_VISIBLE);      /* the default */
    ck_assert_str_eq(gr_rubric_visibility_name(GR_AFTER_PUBLISHED), "after_published");
    gr_rubric_free(&r);
}
END_TEST

START_TEST(shown_by_moment)
{
    const int due = GR_SHOWN_DUE_PASSED, pub = GR_SHOWN_PUBLISHED, at0 = GR_SHOWN_AT_SUBMISSION;
    /* visible always, hidden never, the other two at their own event only */
    ck_assert(gr_rubric_visibility_shown(GR_VISIBLE, at0));
    ck_assert(gr_rubric_visibility_shown(GR_VISIBLE, due | pub));
    ck_assert(!gr_rubric_visibility_shown(GR_HIDDEN, at0));
    ck_assert(!gr_rubric_visibility_shown(GR_HIDDEN, due | pub));
    ck_assert(!gr_rubric_visibility_shown(GR_AFTER_DUE_DATE, at0));
    ck_assert(gr_rubric_visibility_shown(GR_AFTER_DUE_DATE, due));
    ck_assert(!gr_rubric_visibility_shown(GR_AFTER_DUE_DATE, pub));   /* published early, not yet due */
    ck_assert(!gr_rubric_visibility_shown(GR_AFTER_PUBLISHED, due));
    ck_assert(gr_rubric_visibility_shown(GR_AFTER_PUBLISHED, pub));
}
END_TEST

START_TEST(summary_counts_what_is_shown)
{
    gr_report r;
    build_report(&r);
    char *s = gr_report_text_summary(&r, GR_SHOWN_AT_SUBMISSION);
    /* visible only: 2 + 0 of 2 + 3 */
    ck_assert_ptr_nonnull(strstr(s, "attnlab: 2.0/5.0 points on the tests you can see now\n"
                                    "lab01-scores: 2.0/5.0\nMore tests are graded"));
    ck_assert_ptr_null(strstr(s, "20"));       /* neither the total possible ... */
    ck_assert_ptr_null(strstr(s, "6.0"));      /* ... nor the total earned */
    assert_reveals_nothing_unseen(s);
    free(s);
    /* after the due date: + due_probe 4/4 -> 6/9 */
    s = gr_report_text_summary(&r, GR_SHOWN_DUE_PASSED);
    ck_assert_ptr_nonnull(strstr(s, "attnlab: 6.0/9.0 points on the tests you can see now\n"));
    free(s);
    /* due and published: + pub_probe 0/6 -> 6/15; hidden still out */
    s = gr_report_text_summary(&r, GR_SHOWN_DUE_PASSED | GR_SHOWN_PUBLISHED);
    ck_assert_ptr_nonnull(strstr(s, "attnlab: 6.0/15.0 points on the tests you can see now\n"));
    free(s);
    gr_result_free(&r);

    /* every test visible: no "more tests" line, no "can see now" */
    build_report(&r);
    for (int j = 0; j < r.labs[0].n_tests; j++)
        r.labs[0].tests[j].visibility = GR_VISIBLE;
    s = gr_report_text_summary(&r, GR_SHOWN_AT_SUBMISSION);
    ck_assert_str_eq(s, "attnlab: 6.0/20.0 points\nlab01-scores: 6.0/20.0\n");
    free(s);
    gr_result_free(&r);
}
END_TEST

START_TEST(gradescope_output_hides_unseen_and_marks_practice)
{
    gr_report r;
    build_report(&r);
    r.practice_secret = 1;
    char *json = gr_report_json_text(&r, NULL);
    ck_assert_msg(json_valid(json), "%s", json);
    ck_assert_ptr_nonnull(strstr(json, "\"score\": 6,\n  \"max_score\": 20,"));   /* the grade: all */
    ck_assert_ptr_nonnull(strstr(json, "\"output\": \"attnlab: 2.0/5.0 points on the tests you can "
                                       "see now\\n"));
    ck_assert_ptr_nonnull(strstr(json, "Graded with the public practice secret"));
    ck_assert_ptr_nonnull(strstr(json, "\"student\": \"s123\",\n    \"practice_secret\": true,"));
    ck_assert_ptr_nonnull(strstr(json, "\"visibility\": \"after_published\""));
    free(json);
    r.practice_secret = 0;
    json = gr_report_json_text(&r, NULL);
    ck_assert_ptr_nonnull(strstr(json, "\"practice_secret\": false,"));
    ck_assert_ptr_null(strstr(json, "Graded with the public practice secret"));
    free(json);
    gr_result_free(&r);
}
END_TEST

START_TEST(prairielearn_lists_visible_sums_the_rest)
{
    gr_report r;
    build_report(&r);
    char *json = gr_report_prairielearn_text(&r, 0);
    ck_assert_msg(json_valid(json), "%s", json);
    /* 6 / 20 = 0.3 over every test */
    ck_assert_ptr_nonnull(strstr(json, "{\n  \"gradable\": true,\n  \"score\": 0.3,\n"));
    ck_assert_ptr_nonnull(strstr(json, "\"message\": \"attnlab: 2.0/5.0 points on the tests you "
                                       "can see now\",\n"));
    ck_assert_ptr_nonnull(strstr(json, "\"name\": \"lab01-scores: dot_worked\",\n"
                                       "      \"points\": 2,\n      \"max_points\": 2,\n"
                                       "      \"message\": \"passed\",\n"));
    ck_assert_ptr_nonnull(strstr(json, "\"name\": \"lab01-scores: scaled_small\",\n"
                                       "      \"points\": 0,\n      \"max_points\": 3,\n"
                                       "      \"message\": \"wrong answer\",\n"
                                       "      \"output\": \"wrong answer\\nS[0]: expected 1, got 2\\n\"\n"));
    /* the other three: 0 + 4 + 0 of 5 + 4 + 6, in one entry */
    ck_assert_ptr_nonnull(strstr(json, "\"name\": \"tests not shown\",\n"));
    ck_assert_ptr_nonnull(strstr(json, "\"points\": 4,\n      \"max_points\": 15,\n"));
    ck_assert_int_eq(count_of(json, "\"max_points\""), 3);
    ck_assert_ptr_nonnull(strstr(json, "\"student\": \"s123\",\n    \"practice_secret\": false\n"));
    assert_reveals_nothing_unseen(json);
    free(json);
    gr_result_free(&r);

    /* nothing graded: score 0, an empty list, still valid */
    memset(&r, 0, sizeof r);
    json = gr_report_prairielearn_text(&r, 0);
    ck_assert_msg(json_valid(json), "%s", json);
    ck_assert_ptr_nonnull(strstr(json, "\"score\": 0,\n"));
    ck_assert_ptr_nonnull(strstr(json, "\"tests\": []"));
    free(json);
}
END_TEST

START_TEST(prairielearn_compile_error_is_not_gradable)
{
    /* lab 1 did not compile: no attempt charged, the compiler's message shown */
    gr_report r;
    memset(&r, 0, sizeof r);
    r.student = gr_xstrdup("s7");
    r.n_labs = 1;
    r.labs = gr_xcalloc(1, sizeof *r.labs);
    gr_lab_result *lab = &r.labs[0];
    lab->lab = 1;
    lab->name = gr_xstrdup("lab01-scores");
    lab->compile_log = gr_xstrdup("lab01.c:2:30: error: expected '}' at end of input");
    lab->n_tests = 2;
    lab->tests = gr_xcalloc(2, sizeof *lab->tests);
    for (int j = 0; j < 2; j++) {
        lab->tests[j].name = gr_xasprintf("t%d", j);
        lab->tests[j].max_score = 2;
        lab->tests[j].verdict = GR_COMPILE_ERROR;
        lab->tests[j].visibility = j ? GR_HIDDEN : GR_VISIBLE;
    }
    lab->max_score = r.max_score = 4;
    char *json = gr_report_prairielearn_text(&r, 0);
    ck_assert_msg(json_valid(json), "%s", json);
    ck_assert_msg(strncmp(json, "{\n  \"gradable\": false,\n  \"format_errors\": [\n    \"lab01-scores "
                                "did not compile, so it was not graded and this attempt does not "
                                "count; fix it and submit again.\\ncompiler output:\\nlab01.c:2:30: "
                                "error: expected '}' at end of input\"\n  ],\n", 200) == 0, "%s", json);
    ck_assert_ptr_null(strstr(json, "\"score\""));
    ck_assert_ptr_nonnull(strstr(json, "\"student\": \"s7\""));
    free(json);
    /* configured to grade it: gradable, 0 */
    json = gr_report_prairielearn_text(&r, 1);
    ck_assert_msg(json_valid(json), "%s", json);
    ck_assert_ptr_nonnull(strstr(json, "{\n  \"gradable\": true,\n  \"score\": 0,\n"));
    free(json);
    gr_result_free(&r);
}
END_TEST

/* A lab that did not build: its message and compiler output are held once and
   told once per report, under the first test a student sees at submission; the
   lab's other tests name that test, and a hidden one is never the lead. */
START_TEST(lab_message_told_once)
{
    gr_report r;
    memset(&r, 0, sizeof r);
    r.n_labs = 1;
    r.labs = gr_xcalloc(1, sizeof *r.labs);
    gr_lab_result *lab = &r.labs[0];
    lab->lab = 1;
    lab->name = gr_xstrdup("lab01-scores");
    lab->message = gr_xstrdup("lab01.c:3: #include <unistd.h> is not allowed in this lab; remove it.\n"
                              "... and 209570 more #include lines like these.");
    lab->compile_log = gr_xstrdup("lab01.c:2:30: error: expected '}'");
    lab->n_tests = 3;
    lab->tests = gr_xcalloc(3, sizeof *lab->tests);
    const gr_visibility vis[3] = {GR_HIDDEN, GR_VISIBLE, GR_VISIBLE};
    for (int j = 0; j < 3; j++)
        set_test(&lab->tests[j], j == 0 ? "hidden_first" : j == 1 ? "shown_lead" : "shown_other",
                 GR_COMPILE_ERROR, 0, 2, vis[j], NULL);
    ck_assert_ptr_eq(gr_report_text_lead_test(lab), &lab->tests[1]);

    char *json = gr_report_json_text(&r, NULL);
    ck_assert(json_valid(json));
    ck_assert_int_eq(count_of(json, "is not allowed in this lab"), 1);
    ck_assert_int_eq(count_of(json, "expected '}'"), 1);
    ck_assert_int_eq(count_of(json, "lab01-scores: what to fix is under its test shown_lead."), 2);
    free(json);
    char *xml = gr_report_junit_text(&r);
    ck_assert_int_eq(count_of(xml, "is not allowed in this lab"), 2);   /* the attribute and the text */
    ck_assert_int_eq(count_of(xml, "what to fix is under its test shown_lead"), 4);
    free(xml);
    FILE *f = tmpfile();
    ck_assert_ptr_nonnull(f);
    gr_report_term(f, &r, 0);
    long n = ftell(f);
    rewind(f);
    char *text = gr_xcalloc((size_t)n + 1, 1);
    ck_assert_int_eq(fread(text, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    ck_assert_int_eq(count_of(text, "is not allowed in this lab"), 1);
    ck_assert_int_eq(count_of(text, "expected '}'"), 1);
    free(text);

    /* through a worker's bytes and a student's copy, the message stays the lab's */
    gr_report shown;
    gr_result_copy_shown(&r, GR_SHOWN_AT_SUBMISSION, &shown);
    ck_assert_int_eq(shown.labs[0].n_tests, 2);
    ck_assert_str_eq(shown.labs[0].message, lab->message);
    ck_assert_ptr_eq(gr_report_text_lead_test(&shown.labs[0]), &shown.labs[0].tests[0]);
    gr_result_free(&shown);
    gr_result_free(&r);
}
END_TEST

START_TEST(junit_marks_visibility_and_can_leave_details_out)
{
    gr_report r;
    build_report(&r);
    char *xml = gr_report_junit_text(&r);
    static const char *const names[] = {"visible", "hidden", "after_due_date", "after_published"};
    for (int i = 0; i < 4; i++) {
        char *p = gr_xasprintf("<property name=\"visibility\" value=\"%s\"/>", names[i]);
        ck_assert_msg(strstr(xml, p), "no %s in\n%s", p, xml);
        free(p);
    }
    ck_assert_ptr_nonnull(strstr(xml, "secret_sizes"));        /* the full file tells all */
    ck_assert_ptr_nonnull(strstr(xml, "<property name=\"max_score\" value=\"20\"/>"));
    free(xml);

    xml = gr_report_junit_shown_text(&r, GR_SHOWN_AT_SUBMISSION);
    assert_reveals_nothing_unseen(xml);
    /* every test keeps its place; the three unseen ones are numbered, bare */
    ck_assert_int_eq(count_of(xml, "<testcase "), 5);
    ck_assert_ptr_nonnull(strstr(xml, "<testcase name=\"hidden test 1\" classname=\"lab01-scores\" "
                                      "time=\"0.000\">\n      <properties><property "
                                      "name=\"visibility\" value=\"hidden\"/></properties>\n"
                                      "      <failure message=\"failed\" type=\"not shown\"/>\n"));
    ck_assert_ptr_nonnull(strstr(xml, "<testcase name=\"hidden test 3\""));
    /* the crash counts as a failure, not an error; the lab's points are the visible ones;
       its time the visible tests' (2 x 0.25) */
    ck_assert_ptr_nonnull(strstr(xml, "<testsuite name=\"lab01-scores\" tests=\"5\" failures=\"3\" "
                                      "errors=\"0\" skipped=\"0\" time=\"0.500\">"));
    ck_assert_ptr_nonnull(strstr(xml, "<property name=\"score\" value=\"2\"/>\n"
                                      "      <property name=\"max_score\" value=\"5\"/>"));
    ck_assert_ptr_nonnull(strstr(xml, "S[0]: expected 1, got 2"));   /* visible details stay */
    free(xml);

    /* after the due date the after_due_date test is told in full */
    xml = gr_report_junit_shown_text(&r, GR_SHOWN_DUE_PASSED);
    ck_assert_ptr_nonnull(strstr(xml, "due_probe"));
    ck_assert_ptr_null(strstr(xml, "pub_probe"));
    free(xml);
    gr_result_free(&r);
}
END_TEST

/* How long a test not shown took may depend on inputs the student must not
   learn: no time handed to a student counts it. A student's JUnit file and
   copy of the report add up the shown tests' own times (and the build); the
   full file keeps the run's wall time; results.json carries none. */
START_TEST(no_time_shown_counts_a_test_not_shown)
{
    gr_report r, shown;
    build_report(&r);
    r.seconds = 9.0;
    r.labs[0].tests[2].seconds = 7.0;          /* the hidden test, slow on its inputs */
    r.labs[0].build_seconds = 0.5;
    r.labs[0].test_seconds = 8.0;
    r.labs[0].seconds = 8.75;
    char *xml = gr_report_junit_shown_text(&r, GR_SHOWN_AT_SUBMISSION);
    ck_assert_msg(strstr(xml, "<testsuites name=\"attnlab\" tests=\"5\" failures=\"3\" errors=\"0\" "
                              "skipped=\"0\" time=\"0.500\">"), "%s", xml);   /* 2 x 0.25 */
    ck_assert_ptr_null(strstr(xml, "9.000"));
    ck_assert_ptr_null(strstr(xml, "7.000"));
    free(xml);
    xml = gr_report_junit_text(&r);
    ck_assert_ptr_nonnull(strstr(xml, "time=\"9.000\">"));
    ck_assert_ptr_nonnull(strstr(xml, "time=\"7.000\">"));
    free(xml);
    char *json = gr_report_json_text(&r, NULL);
    ck_assert_ptr_null(strstr(json, "execution_time"));
    free(json);
    gr_result_copy_shown(&r, GR_SHOWN_AT_SUBMISSION, &shown);
    ck_assert(shown.labs[0].test_seconds == 0.5);
    ck_assert(shown.labs[0].seconds == 1.0);   /* the build and the two visible tests */
    ck_assert(shown.seconds == 1.0);
    gr_result_free(&shown);
    gr_result_free(&r);
}
END_TEST

START_TEST(practice_secret_unfit_for_named_students)
{
    ck_assert(gr_seed_secret_unfit(GR_PRACTICE_SECRET, "s123"));
    ck_assert(gr_seed_secret_unfit(NULL, "s123"));
    ck_assert(gr_seed_secret_unfit("", "s123"));
    ck_assert(!gr_seed_secret_unfit(GR_PRACTICE_SECRET, GR_LOCAL_STUDENT));   /* practice at home */
    ck_assert(!gr_seed_secret_unfit("a course secret", "s123"));
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("visibility");
    TCase *tc = tcase_create("visibility");
    tcase_add_test(tc, rubric_reads_after_published);
    tcase_add_test(tc, shown_by_moment);
    tcase_add_test(tc, summary_counts_what_is_shown);
    tcase_add_test(tc, gradescope_output_hides_unseen_and_marks_practice);
    tcase_add_test(tc, prairielearn_lists_visible_sums_the_rest);
    tcase_add_test(tc, prairielearn_compile_error_is_not_gradable);
    tcase_add_test(tc, lab_message_told_once);
    tcase_add_test(tc, junit_marks_visibility_and_can_leave_details_out);
    tcase_add_test(tc, no_time_shown_counts_a_test_not_shown);
    tcase_add_test(tc, practice_secret_unfit_for_named_students);
    suite_add_tcase(s, tc);
    return s;
}
