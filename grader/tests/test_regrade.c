/* test_regrade.c: audited regrades (regrade.c).
 *
 * What changed between two rubrics is named test by test; rubrics.state
 * reads back as written; results.json keeps its regrades across a write and
 * a read; a regrades.log line is one line whatever the reason holds. Then
 * end to end: `attnlab grade --test NAME --reason TEXT` on a batch's
 * results.json records the old and new score in it and in DIR/regrades.log;
 * and a batch run again after one lab's rubric changed regrades that lab
 * only (a hand mark on the other lab's results survives), names the changed
 * test, and records each score that moved.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "class/regrade.h"
#include "fixtures/fixture_kit.h"
#include "report/report.h"
#include "base/util.h"

Suite *test_suite(void);

/* ---- what changed in a rubric ------------------------------------------------------- */

static void snap_lab(gr_rubric_snap *s, int lab, const char *digest, int n, const char *const *names,
                     const double *points, const double *tol)
{
    s->have[lab - 1] = 1;
    s->digest[lab - 1] = gr_xstrdup(digest);
    s->n_tests[lab - 1] = n;
    s->tests[lab - 1] = gr_xcalloc((size_t)n + 1, sizeof(gr_rubric_snap_test));
    for (int t = 0; t < n; t++) {
        s->tests[lab - 1][t].name = gr_xstrdup(names[t]);
        s->tests[lab - 1][t].points = points[t];
        s->tests[lab - 1][t].abs_tol = tol[t];
        s->tests[lab - 1][t].rel_tol = 1e-5;
    }
}

START_TEST(the_changed_tests_are_named)
{
    static const char *const was[] = {"dot_small", "dot_random", "gone"};
    static const char *const now[] = {"dot_small", "dot_random", "fresh"};
    static const double p_was[] = {1, 0.75, 2}, p_now[] = {2, 0.75, 1};
    static const double t_was[] = {1e-5, 1e-5, 1e-5}, t_now[] = {1e-5, 1e-4, 1e-5};
    gr_rubric_snap a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    snap_lab(&a, 3, "00aa", 3, was, p_was, t_was);
    snap_lab(&b, 3, "00bb", 3, now, p_now, t_now);
    snap_lab(&a, 4, "00cc", 1, was, p_was, t_was);
    snap_lab(&b, 4, "00dd", 1, was, p_was, t_was);
    snap_lab(&a, 5, "00ee", 1, was, p_was, t_was);
    snap_lab(&b, 5, "00ee", 1, was, p_was, t_was);
    char *c3 = gr_regrade_lab_change(&a, &b, 3), *c4 = gr_regrade_lab_change(&a, &b, 4);
    ck_assert_str_eq(c3, "dot_small points 1 -> 2; dot_random tolerance abs 1e-05 rel 1e-05 -> "
                         "abs 0.0001 rel 1e-05; fresh added; gone removed");
    ck_assert_str_eq(c4, "no test's points or tolerance: the rubric's other settings or the "
                         "contract header");
    ck_assert_ptr_null(gr_regrade_lab_change(&a, &b, 5));     /* the same digest */
    ck_assert_ptr_null(gr_regrade_lab_change(&a, &b, 6));     /* not graded */
    /* rubrics.state reads back as written */
    char *dir = fk_mkdtemp("regrade-state");
    ck_assert_int_eq(gr_regrade_snap_write(dir, &b), 0);
    gr_rubric_snap c;
    ck_assert_int_eq(gr_regrade_snap_read(dir, &c), 0);
    ck_assert_ptr_null(gr_regrade_lab_change(&b, &c, 3));
    ck_assert_int_eq(c.n_tests[2], 3);
    ck_assert_str_eq(c.tests[2][2].name, "fresh");
    ck_assert(c.tests[2][1].abs_tol == 1e-4);
    /* a damaged state is no state: nothing is regraded in part */
    char *path = gr_xasprintf("%s/rubrics.state", dir);
    const char *bad = "attnlab rubrics.state 1\nlab 3 00bb 5\ntest 1 1 1 x\n";
    ck_assert_int_eq(gr_write_file_atomic(path, bad, strlen(bad)), 0);
    gr_rubric_snap d;
    ck_assert_int_eq(gr_regrade_snap_read(dir, &d), -1);
    free(path);
    free(c3);
    free(c4);
    gr_regrade_snap_free(&a);
    gr_regrade_snap_free(&b);
    gr_regrade_snap_free(&c);
    fk_rm_rf(dir);
    free(dir);
}
END_TEST

/* Settings lines onto lab of s, as gr_regrade_snap_make keeps them. */
static void snap_settings(gr_rubric_snap *s, int lab, const char *const *lines, int n)
{
    s->set[lab - 1] = gr_xcalloc((size_t)n, sizeof(char *));
    for (int k = 0; k < n; k++)
        s->set[lab - 1][k] = gr_xstrdup(lines[k]);
    s->n_set[lab - 1] = n;
}

START_TEST(every_changed_setting_is_named_old_and_new)
{
    /* a TA's time limit, a test's points, a test added and one removed, a key
       added to the lab: each said once, old and new as written */
    static const char *const was[] = {"lab 7", "limits.time_ms 20000", "tests.a.kind lse",
        "tests.a.points 0.5", "tests.gone.kind lse", "tests.gone.points 1",
        "allowed_headers [lab07.h, math.h]"};
    static const char *const now[] = {"lab 7", "limits.time_ms 20", "tests.a.kind lse",
        "tests.a.points 1", "tests.fresh.kind lse", "tests.fresh.points 2", "budget_s 30",
        "allowed_headers [lab07.h]"};
    static const char *const names[] = {"a"};
    static const double pts[] = {1}, tol[] = {1e-5};
    gr_rubric_snap a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    snap_lab(&a, 7, "00aa", 1, names, pts, tol);
    snap_lab(&b, 7, "00bb", 1, names, pts, tol);
    snap_settings(&a, 7, was, 7);
    snap_settings(&b, 7, now, 8);
    char *c = gr_regrade_lab_change(&a, &b, 7);
    ck_assert_str_eq(c, "limits.time_ms 20000 -> 20; tests.a.points 0.5 -> 1; tests.fresh added; "
                        "budget_s (none) -> 30; allowed_headers [lab07.h, math.h] -> [lab07.h]; "
                        "tests.gone removed");
    free(c);
    /* only comments or the header changed: no setting */
    gr_regrade_snap_free(&b);
    memset(&b, 0, sizeof b);
    snap_lab(&b, 7, "00cc", 1, names, pts, tol);
    snap_settings(&b, 7, was, 7);
    c = gr_regrade_lab_change(&a, &b, 7);
    ck_assert_str_eq(c, "no setting: the rubric's comments or the contract header");
    free(c);
    /* the settings read back from rubrics.state as written */
    char *dir = fk_mkdtemp("regrade-settings");
    ck_assert_int_eq(gr_regrade_snap_write(dir, &a), 0);
    gr_rubric_snap r;
    ck_assert_int_eq(gr_regrade_snap_read(dir, &r), 0);
    ck_assert_int_eq(r.n_set[6], 7);
    ck_assert_str_eq(r.set[6][6], "allowed_headers [lab07.h, math.h]");
    ck_assert_ptr_null(gr_regrade_lab_change(&a, &r, 7));
    gr_regrade_snap_free(&r);
    gr_regrade_snap_free(&a);
    gr_regrade_snap_free(&b);
    fk_rm_rf(dir);
    free(dir);
}
END_TEST

/* ---- the records ------------------------------------------------------------------- */

START_TEST(results_json_keeps_its_regrades)
{
    gr_report r;
    memset(&r, 0, sizeof r);
    r.student = gr_xstrdup("s001");
    gr_regrades_add(&r, 2, "softmax_random", 1, 0, 1, 0.5, "2026-12-02T03:40:00Z", NULL, NULL);
    gr_regrades_add(&r, 3, "fresh", 0, 0, 1, 1, "2026-12-02T03:41:00Z", "rubric fix",
                    "added");
    char *dir = fk_mkdtemp("regrade-json"), *path = gr_xasprintf("%s/results.json", dir);
    ck_assert_int_eq(gr_report_json(path, &r, NULL), 0);
    char *text = gr_read_file(path, NULL);
    ck_assert_ptr_nonnull(strstr(text, "\"when\": \"2026-12-02T03:40:00Z\",\n        \"lab\": 2,\n"
                                       "        \"test\": \"softmax_random\",\n        \"old\": 0,\n"
                                       "        \"new\": 0.5,\n        \"reason\": \"no reason given\",\n"
                                       "        \"change\": null\n"));
    ck_assert_ptr_nonnull(strstr(text, "\"old\": null,\n        \"new\": 1,\n"
                                       "        \"reason\": \"rubric fix\",\n        \"change\": \"added\"\n"));
    gr_report back;
    char err[256];
    ck_assert_msg(gr_report_read_json(path, &back, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(back.n_regrades, 2);
    ck_assert_str_eq(back.regrades[1].reason, "rubric fix");
    ck_assert_int_eq(back.regrades[1].has_old, 0);
    ck_assert(back.regrades[0].new_score == 0.5);
    ck_assert_ptr_null(back.regrades[0].change);
    /* the log: one line per regrade, a tab or line end in a reason made a space */
    free(back.regrades[1].reason);
    back.regrades[1].reason = gr_xstrdup("two\tfields\nand a line");
    char *lines = gr_regrades_log_lines("=SUM(1,2)", &back, 0);
    /* and an id that starts like a formula kept as text (gr_tsv_text) */
    ck_assert_str_eq(lines, "2026-12-02T03:40:00Z\t'=SUM(1,2)\tlab02-softmax\tsoftmax_random\t0\t"
                            "0.5\tno reason given\t-\n"
                            "2026-12-02T03:41:00Z\t'=SUM(1,2)\tlab03-learned\tfresh\t-\t1\t"
                            "two fields and a line\tadded\n");
    free(lines);
    free(text);
    gr_result_free(&back);
    gr_result_free(&r);
    free(path);
    fk_rm_rf(dir);
    free(dir);
}
END_TEST

static const struct { const char *json, *dir; } log_dirs[] = {
    {"graded/students/s001/results.json", "graded"},
    {"/x/y/students/a b/results.json", "/x/y"},
    {"out/results.json", "out"},
    {"results.json", "."},
    {"students/s1/results.json", "."},
};

START_TEST(the_log_goes_to_the_batch_folder)
{
    char *d = gr_regrades_log_dir(log_dirs[_i].json);
    ck_assert_str_eq(d, log_dirs[_i].dir);
    free(d);
}
END_TEST

/* ---- end to end ----------------------------------------------------------------------- */

/* A class of two in dir/sub (s001: lab 1 solved, lab 2 the stub; s002: both
   stubs) graded into dir/out against rubrics copied to dir/rub. */
static char *graded_class(const char *dir, const char *attnlab)
{
    char *log = gr_xasprintf("%s/log", dir);
    const char *root = fk_root();
    ck_assert_int_eq(fk_sh(log, "mkdir -p %s/sub/s001 %s/sub/s002 %s/rub && "
                           "cp %s/solutions/lab01-scores/lab01.c %s/data/stubs/lab02.c %s/sub/s001/ && "
                           "cp %s/data/stubs/lab01.c %s/data/stubs/lab02.c %s/sub/s002/ && "
                           "cp %s/data/rubrics/lab01.yaml %s/data/rubrics/lab02.yaml %s/rub/",
                           dir, dir, dir, root, root, dir, root, root, dir, root, root, dir), 0);
    ck_assert_msg(fk_sh(log, "ATTNLAB_SECRET=regrade-test %s batch %s/sub --out %s/out --lab 1,2 "
                        "--rubrics %s/rub -q", attnlab, dir, dir, dir) == 0, "see %s", log);
    return log;
}

/* The line of text that holds needle (malloc'd), or NULL. */
static char *line_with(const char *text, const char *needle)
{
    const char *at = text ? strstr(text, needle) : NULL;
    if (!at)
        return NULL;
    const char *start = at, *end = strchr(at, '\n');
    while (start > text && start[-1] != '\n')
        start--;
    return gr_xasprintf("%.*s", (int)((end ? end : at + strlen(at)) - start), start);
}

START_TEST(a_test_regrade_is_recorded_with_its_reason)
{
    char *dir = fk_mkdtemp("regrade-test"), *attnlab = fk_attnlab();
    char *log = graded_class(dir, attnlab);
    ck_assert_int_eq(fk_sh(log, "cp %s/solutions/lab02-softmax/lab02.c %s/sub/s001/", fk_root(),
                           dir), 0);
    ck_assert_int_eq(fk_sh(log, "ATTNLAB_SECRET=regrade-test %s grade --lab 2 --test "
                           "softmax_random --submission %s/sub/s001 --student s001 --json "
                           "%s/out/students/s001/results.json --reason 'typo in the handout' -q",
                           attnlab, dir, dir), 0);
    char *rl = gr_xasprintf("%s/out/regrades.log", dir), *text = gr_read_file(rl, NULL);
    ck_assert_ptr_nonnull(text);
    static const char header[] = "when\tstudent\tlab\ttest\told\tnew\treason\tchange\n";
    ck_assert_int_eq(strncmp(text, header, strlen(header)), 0);
    char *line = line_with(text, "\ts001\t");
    ck_assert_ptr_nonnull(line);
    /* 2026-12-02T03:40:00Z, then the fields */
    ck_assert_msg(strlen(line) > 21 && line[4] == '-' && line[10] == 'T' && line[19] == 'Z',
                  "%s", line);
    ck_assert_str_eq(line + 20, "\ts001\tlab02-softmax\tsoftmax_random\t0\t0.5\t"
                                "typo in the handout\t-");
    char *js = gr_xasprintf("%s/out/students/s001/results.json", dir);
    gr_report r;
    char err[256];
    ck_assert_msg(gr_report_read_json(js, &r, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(r.n_regrades, 1);
    ck_assert_int_eq(r.regrades[0].lab, 2);
    ck_assert_str_eq(r.regrades[0].test, "softmax_random");
    ck_assert(r.regrades[0].has_old && r.regrades[0].old_score == 0);
    ck_assert(r.regrades[0].has_new && r.regrades[0].new_score == 0.5);
    ck_assert_str_eq(r.regrades[0].reason, "typo in the handout");
    ck_assert_int_eq(strncmp(r.regrades[0].when, line, 20), 0);
    gr_result_free(&r);
    /* no --reason: recorded all the same, saying so */
    ck_assert_int_eq(fk_sh(log, "ATTNLAB_SECRET=regrade-test %s grade --lab 2 --test "
                           "softmax_random --submission %s/sub/s001 --student s001 --json "
                           "%s/out/students/s001/results.json -q", attnlab, dir, dir), 0);
    free(text);
    text = gr_read_file(rl, NULL);
    ck_assert_ptr_nonnull(strstr(text, "\tsoftmax_random\t0.5\t0.5\tno reason given\t-\n"));
    free(text);
    free(js);
    free(line);
    free(rl);
    free(log);
    free(attnlab);
    fk_rm_rf(dir);
    free(dir);
}
END_TEST

START_TEST(a_rubric_change_regrades_that_lab_only)
{
    char *dir = fk_mkdtemp("regrade-rubric"), *attnlab = fk_attnlab();
    char *log = graded_class(dir, attnlab);
    /* a hand mark on lab 2's results (a quarter point the stub never
       earns): it stays only if lab 2 is not graded again */
    char *js = gr_xasprintf("%s/out/students/s001/results.json", dir);
    char *json = gr_read_file(js, NULL);
    ck_assert_ptr_nonnull(json);
    char *marked = fk_replace(json, "softmax_worked_row\",\n      \"number\": \"2.1\",\n"
                                    "      \"score\": 0,",
                              "softmax_worked_row\",\n      \"number\": \"2.1\",\n"
                              "      \"score\": 0.25,");
    ck_assert_str_ne(marked, json);
    ck_assert_int_eq(gr_write_file_atomic(js, marked, strlen(marked)), 0);
    /* dot_small_integers: 1 point -> 2 */
    ck_assert_int_eq(fk_sh(log, "sed -i '/name: dot_small_integers/,/points:/s/points: 1/points: 2/' "
                           "%s/rub/lab01.yaml", dir), 0);
    char *progress = gr_xasprintf("%s/progress", dir);
    ck_assert_int_eq(fk_sh(progress, "ATTNLAB_SECRET=regrade-test %s batch %s/sub --out %s/out "
                           "--lab 1,2 --rubrics %s/rub --reason lab01='worth more' "
                           "--reason lab02=unchanged >/dev/null", attnlab, dir, dir, dir), 0);
    char *said = gr_read_file(progress, NULL);
    ck_assert_ptr_nonnull(said);
    ck_assert_msg(strstr(said, "lab01-scores's changed rubric passes validation") &&
                  strstr(said, "lab01-scores's rubric or contract header changed") &&
                  strstr(said, "(tests.dot_small_integers.points 1 -> 2)") &&
                  strstr(said, "--reason lab02=...: lab02-softmax's rubric did not change"),
                  "%s", said);
    ck_assert_msg(!strstr(said, "lab02-softmax's rubric or contract header changed") &&
                  !strstr(said, "lab02-softmax's changed rubric"), "%s", said);
    /* lab 2 kept its results, hand mark and all; lab 1 was graded again */
    gr_report r;
    char err[256];
    ck_assert_msg(gr_report_read_json(js, &r, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(r.n_labs, 2);
    ck_assert_msg(r.labs[1].lab == 2 && r.labs[1].score == 0.25, "lab 2 was graded again");
    ck_assert(r.labs[0].lab == 1 && r.labs[0].score == 11);
    ck_assert_int_eq(r.n_regrades, 1);
    ck_assert_int_eq(r.regrades[0].lab, 1);
    ck_assert_str_eq(r.regrades[0].test, "dot_small_integers");
    ck_assert(r.regrades[0].old_score == 1 && r.regrades[0].new_score == 2);
    ck_assert_str_eq(r.regrades[0].reason, "worth more");
    ck_assert_str_eq(r.regrades[0].change, "points 1 -> 2");
    gr_result_free(&r);
    /* s002 (the stubs) scored 0 before and after: nothing to record */
    char *rl = gr_xasprintf("%s/out/regrades.log", dir), *text = gr_read_file(rl, NULL);
    ck_assert_ptr_nonnull(text);
    ck_assert_ptr_null(strstr(text, "\ts002\t"));
    char *line = line_with(text, "\ts001\t");
    ck_assert_ptr_nonnull(line);
    ck_assert_str_eq(line + 20, "\ts001\tlab01-scores\tdot_small_integers\t1\t2\tworth more\t"
                                "points 1 -> 2");
    /* and the change itself, on a line of its own before the students' */
    free(line);
    line = line_with(text, "\t-\tlab01-scores\t");
    ck_assert_ptr_nonnull(line);
    ck_assert_str_eq(line + 20, "\t-\tlab01-scores\t-\t-\t-\tworth more\t"
                                "tests.dot_small_integers.points 1 -> 2");
    ck_assert(strstr(text, line) < strstr(text, "\ts001\t"));
    /* the gradebook follows: lab 1 is out of 11 now, s001 has all of it */
    char *gb_path = gr_xasprintf("%s/out/gradebook.csv", dir), *gb = gr_read_file(gb_path, NULL);
    ck_assert_ptr_nonnull(strstr(gb, "Points possible,,,11,14,25\r\n"));
    ck_assert_ptr_nonnull(strstr(gb, "\r\n\"s001\",,,11,0.25,11.25\r\n"));
    /* run again: nothing changed, nobody graded, nothing recorded */
    ck_assert_int_eq(fk_sh(progress, "ATTNLAB_SECRET=regrade-test %s batch %s/sub --out %s/out "
                           "--lab 1,2 --rubrics %s/rub >/dev/null", attnlab, dir, dir, dir), 0);
    free(said);
    said = gr_read_file(progress, NULL);
    ck_assert_ptr_nonnull(strstr(said, "2 graded before, 0 to grade"));
    char *text2 = gr_read_file(rl, NULL);
    ck_assert_str_eq(text2, text);
    free(text2);
    free(gb);
    free(gb_path);
    free(line);
    free(text);
    free(rl);
    free(said);
    free(progress);
    free(marked);
    free(json);
    free(js);
    free(log);
    free(attnlab);
    fk_rm_rf(dir);
    free(dir);
}
END_TEST

START_TEST(a_rubric_change_that_fails_validation_regrades_no_one)
{
    /* the tests that show lab 1's scaling mistakes to students made hidden: the
       rubric loads, but a student with no_scale would read "passes" */
    char *dir = fk_mkdtemp("regrade-broken"), *attnlab = fk_attnlab();
    char *log = graded_class(dir, attnlab);
    char *js = gr_xasprintf("%s/out/students/s001/results.json", dir);
    char *before = gr_read_file(js, NULL);
    ck_assert_int_eq(fk_sh(log, "sed -i -e '/name: scaled_worked_example/,/visibility:/s/visible/hidden/' "
                           "-e '/name: scaled_small/,/visibility:/s/visible/hidden/' "
                           "%s/rub/lab01.yaml", dir), 0);
    char *said_path = gr_xasprintf("%s/said", dir);
    int rc = fk_sh(said_path, "ATTNLAB_SECRET=regrade-test %s batch %s/sub --out %s/out --lab 1,2 "
                   "--rubrics %s/rub --reason 'hide them' -q 2>&1", attnlab, dir, dir, dir);
    char *said = gr_read_file(said_path, NULL);
    ck_assert_msg(rc == 2 && strstr(said, "refusing to regrade: lab01-scores's rubric changed, "
                                    "and under it ") &&
                  strstr(said, "FAIL  lab01-scores: mutant no_scale -> wrong answer, no_scale") &&
                  strstr(said, "one of them visible") && strstr(said, "nobody was regraded"),
                  "exit %d:\n%s", rc, said);
    /* nothing graded or written: the results and the log as they were */
    char *after = gr_read_file(js, NULL);
    ck_assert_str_eq(after, before);
    char *rl = gr_xasprintf("%s/out/regrades.log", dir);
    ck_assert_int_eq(access(rl, F_OK), -1);
    free(rl);
    free(after);
    free(said);
    free(said_path);
    free(before);
    free(js);
    free(log);
    free(attnlab);
    fk_rm_rf(dir);
    free(dir);
}
END_TEST

START_TEST(one_reason_for_two_changed_labs_is_refused)
{
    char *dir = fk_mkdtemp("regrade-reasons"), *attnlab = fk_attnlab();
    char *log = graded_class(dir, attnlab);
    ck_assert_int_eq(fk_sh(log, "sed -i '/name: dot_small_integers/,/points:/s/points: 1/points: 2/' "
                           "%s/rub/lab01.yaml && sed -i '/name: softmax_random/,/points:/"
                           "s/points: 0.5/points: 1/' %s/rub/lab02.yaml", dir, dir), 0);
    char *said_path = gr_xasprintf("%s/said", dir);
    int rc = fk_sh(said_path, "ATTNLAB_SECRET=regrade-test %s batch %s/sub --out %s/out --lab 1,2 "
                   "--rubrics %s/rub --reason 'fixes' -q 2>&1", attnlab, dir, dir, dir);
    char *said = gr_read_file(said_path, NULL);
    ck_assert_msg(rc == 2 && strstr(said, "refusing to regrade: one --reason for 2 changed labs "
                                    "(lab01-scores, lab02-softmax); give each its own"),
                  "exit %d:\n%s", rc, said);
    char *rl = gr_xasprintf("%s/out/regrades.log", dir);
    ck_assert_int_eq(access(rl, F_OK), -1);
    /* a lab's reason named twice is a usage error */
    rc = fk_sh(said_path, "%s batch %s/sub --out %s/out --reason lab01=a --reason lab1=b 2>&1",
               attnlab, dir, dir);
    free(said);
    said = gr_read_file(said_path, NULL);
    ck_assert_msg(rc == 2 && strstr(said, "--reason lab1: that lab's reason is given twice"),
                  "exit %d:\n%s", rc, said);
    /* validate --rubrics takes a folder of rubrics */
    rc = fk_sh(said_path, "%s validate --lab 1 --rubrics %s/none 2>&1", attnlab, dir);
    free(said);
    said = gr_read_file(said_path, NULL);
    ck_assert_msg(rc == 2 && strstr(said, "is not a folder of labNN.yaml rubrics"),
                  "exit %d:\n%s", rc, said);
    free(rl);
    free(said);
    free(said_path);
    free(log);
    free(attnlab);
    fk_rm_rf(dir);
    free(dir);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("regrade");
    TCase *tc = tcase_create("records");
    tcase_add_test(tc, the_changed_tests_are_named);
    tcase_add_test(tc, every_changed_setting_is_named_old_and_new);
    tcase_add_test(tc, results_json_keeps_its_regrades);
    tcase_add_loop_test(tc, the_log_goes_to_the_batch_folder, 0,
                        (int)(sizeof log_dirs / sizeof log_dirs[0]));
    suite_add_tcase(s, tc);

    tc = tcase_create("end_to_end");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, a_test_regrade_is_recorded_with_its_reason);
    tcase_add_test(tc, a_rubric_change_regrades_that_lab_only);
    tcase_add_test(tc, a_rubric_change_that_fails_validation_regrades_no_one);
    tcase_add_test(tc, one_reason_for_two_changed_labs_is_refused);
    suite_add_tcase(s, tc);
    return s;
}
