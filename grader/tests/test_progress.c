/* test_progress.c: the progress module (grader/learn/progress.c) and `attnlab
 * status` on it: lab states from verdicts, where the file lives, a save and
 * load of two trees, a broken file's line, the pristine-stub comparison, and
 * status on a submission with a passed, a partly passed and untouched labs.
 * Run from the top of the tree. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "cli/commands.h"
#include "learner.h"
#include "learn/progress.h"
#include "base/cells.h"
#include "rubricsum.h"
#include "base/layout.h"

Suite *test_suite(void);

/* A lab result of n tests with the verdicts given. */
static gr_lab_result lab_with(int lab, int n, const gr_verdict *v)
{
    gr_lab_result lr;
    memset(&lr, 0, sizeof lr);
    lr.lab = lab;
    lr.n_tests = n;
    lr.tests = gr_xcalloc((size_t)n, sizeof *lr.tests);
    for (int i = 0; i < n; i++) {
        lr.tests[i].verdict = v[i];
        lr.tests[i].max_score = 1;
        lr.score += v[i] == GR_PASSED;
        lr.max_score += 1;
    }
    return lr;
}

START_TEST(states_from_verdicts)
{
    static const struct {
        gr_verdict v[3];
        gr_lab_state want;
    } cases[] = {
        {{GR_PASSED, GR_PASSED, GR_PASSED}, GR_LAB_PASSED},
        {{GR_NOT_IMPLEMENTED, GR_NOT_IMPLEMENTED, GR_NOT_IMPLEMENTED}, GR_LAB_NOT_STARTED},
        {{GR_PASSED, GR_NOT_IMPLEMENTED, GR_NOT_IMPLEMENTED}, GR_LAB_PARTLY},
        {{GR_WRONG_ANSWER, GR_WRONG_ANSWER, GR_CRASHED}, GR_LAB_PARTLY},
        {{GR_COMPILE_ERROR, GR_COMPILE_ERROR, GR_COMPILE_ERROR}, GR_LAB_NO_BUILD},
        {{GR_FORBIDDEN_CALL, GR_FORBIDDEN_CALL, GR_FORBIDDEN_CALL}, GR_LAB_NO_BUILD},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gr_lab_result lr = lab_with(1, 3, cases[i].v);
        ck_assert_msg(gr_progress_state_of(&lr) == cases[i].want, "case %zu: %s", i,
                      gr_progress_state_name(gr_progress_state_of(&lr)));
        gr_result_lab_free(&lr);
    }
    ck_assert_str_eq(gr_progress_state_name(GR_LAB_PARTLY), "partly passed");
}
END_TEST

START_TEST(progress_file_follows_xdg)
{
    char err[256] = "";
    setenv("XDG_STATE_HOME", "/s", 1);
    setenv("HOME", "/h", 1);
    char *p = gr_progress_path(err, sizeof err);
    ck_assert_str_eq(p, "/s/attnlab/progress.tsv");
    free(p);
    setenv("XDG_STATE_HOME", "relative/is/ignored", 1);   /* the spec: absolute paths only */
    p = gr_progress_path(err, sizeof err);
    ck_assert_str_eq(p, "/h/.local/state/attnlab/progress.tsv");
    free(p);
    unsetenv("XDG_STATE_HOME");
    unsetenv("HOME");
    ck_assert_ptr_null(gr_progress_path(err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "set XDG_STATE_HOME or HOME"));
}
END_TEST

/* Two trees share the file; each keeps its own records; first_passed (passing
   since) goes back to 0 when the lab fails again, and starts at the next pass. */
START_TEST(save_and_load_two_trees)
{
    char *dir = scratch_dir("progress");
    char *path = gr_xasprintf("%s/state/attnlab/progress.tsv", dir);   /* folders made on save */
    char err[512] = "";
    gr_progress a, b;
    ck_assert_int_eq(gr_progress_load(path, "/tree/a", &a, err, sizeof err), 0);
    ck_assert_int_eq(gr_progress_next(&a), 1);          /* nothing graded: start at lab 1 */

    gr_verdict pass[2] = {GR_PASSED, GR_PASSED}, half[2] = {GR_PASSED, GR_WRONG_ANSWER};
    gr_lab_result l1 = lab_with(1, 2, pass), l2 = lab_with(2, 2, half);
    gr_progress_record(&a, &l1, 1000);
    gr_progress_record(&a, &l2, 1000);
    ck_assert_int_eq(gr_progress_save(path, &a, err, sizeof err), 0);
    ck_assert_int_eq(gr_progress_load(path, "/tree/b", &b, err, sizeof err), 0);
    gr_progress_record(&b, &l2, 2000);
    ck_assert_int_eq(gr_progress_save(path, &b, err, sizeof err), 0);
    gr_progress_free(&a);
    gr_progress_free(&b);

    /* lab 1 fails later: first_passed keeps 1000 */
    ck_assert_int_eq(gr_progress_load(path, "/tree/a", &a, err, sizeof err), 0);
    ck_assert_int_eq(a.labs[0].state, GR_LAB_PASSED);
    ck_assert_int_eq(a.labs[0].first_passed, 1000);
    ck_assert_int_eq(a.labs[1].state, GR_LAB_PARTLY);
    ck_assert_int_eq(a.labs[1].passed, 1);
    ck_assert_int_eq(a.labs[1].total, 2);
    ck_assert_int_eq(gr_progress_next(&a), 2);
    gr_lab_result l1_bad = lab_with(1, 2, half);
    gr_progress_record(&a, &l1_bad, 3000);
    ck_assert_int_eq(a.labs[0].first_passed, 0);
    ck_assert_int_eq(a.labs[0].runs, 2);
    ck_assert_int_eq(gr_progress_next(&a), 1);
    ck_assert_int_eq(gr_progress_save(path, &a, err, sizeof err), 0);
    gr_progress_free(&a);

    ck_assert_int_eq(gr_progress_load(path, "/tree/b", &b, err, sizeof err), 0);
    ck_assert_int_eq(b.labs[0].updated, 0);             /* b never graded lab 1 */
    ck_assert_int_eq(b.labs[1].updated, 2000);
    gr_progress_free(&b);
    char *text = read_text(path);
    ck_assert_msg(strncmp(text, "# attnlab progress 1:", 21) == 0, "%s", text);
    ck_assert_ptr_nonnull(strstr(text, "/tree/a\t1\tpartly\t1\t2\t1\t2\t0\t3000\t2\n"));
    free(text);
    gr_result_lab_free(&l1);
    gr_result_lab_free(&l2);
    gr_result_lab_free(&l1_bad);
    free(path);
    remove_tree(dir);
    free(dir);
}
END_TEST

/* "Next" names a lab begun and broken before one not started; a lab passing
   again is passing since its new pass. */
START_TEST(next_is_the_first_broken_lab)
{
    gr_progress p;
    memset(&p, 0, sizeof p);
    gr_verdict stub[2] = {GR_NOT_IMPLEMENTED, GR_NOT_IMPLEMENTED};
    gr_verdict broken[2] = {GR_COMPILE_ERROR, GR_COMPILE_ERROR};
    gr_verdict pass[2] = {GR_PASSED, GR_PASSED};
    gr_lab_result l1 = lab_with(1, 2, stub), l2 = lab_with(2, 2, broken), l3 = lab_with(3, 2, pass);
    gr_progress_record(&p, &l1, 100);
    gr_progress_record(&p, &l3, 100);
    ck_assert_int_eq(gr_progress_next(&p), 1);          /* lab 1 not started, nothing begun */
    gr_progress_record(&p, &l2, 200);
    ck_assert_int_eq(p.labs[1].state, GR_LAB_NO_BUILD);
    ck_assert_int_eq(gr_progress_next(&p), 2);          /* lab 2 does not build: fix it first */
    gr_lab_result l3_bad = lab_with(3, 2, broken);
    gr_progress_record(&p, &l3_bad, 300);
    gr_progress_record(&p, &l3, 400);
    ck_assert_int_eq(p.labs[2].first_passed, 400);      /* passing since its pass at 400 */
    gr_result_lab_free(&l1);
    gr_result_lab_free(&l2);
    gr_result_lab_free(&l3);
    gr_result_lab_free(&l3_bad);
}
END_TEST

/* A broken line is named with its line number and what to do. */
START_TEST(broken_file_names_the_line)
{
    char *dir = scratch_dir("progress");
    char *path = gr_xasprintf("%s/progress.tsv", dir);
    char *text = gr_xasprintf("# attnlab progress 1\n/t\t1\tpassed\t1\t1\t1\t1\t0\t5\t1\n"
                              "/t\t%d\tpassed\t1\t1\t1\t1\t0\t5\t1\n", GR_N_LABS + 1);
    put_text(path, text);           /* a lab one past the course's last */
    free(text);
    char err[512] = "";
    gr_progress p;
    ck_assert_int_eq(gr_progress_load(path, "/t", &p, err, sizeof err), -1);
    char *want = gr_xasprintf("%s:3: the lab is not a lab number", path);
    ck_assert_msg(strstr(err, want) && strstr(err, "delete it"), "%s", err);
    /* another tree's lines are not parsed, only kept */
    ck_assert_int_eq(gr_progress_load(path, "/other", &p, err, sizeof err), 0);
    gr_progress_free(&p);
    put_text(path, "/t\t1\tdone\t1\t1\t1\t1\t0\t5\t1\n");
    ck_assert_int_eq(gr_progress_load(path, "/t", &p, err, sizeof err), -1);
    ck_assert_msg(strstr(err, ":1: the state is not one of"), "%s", err);
    put_text(path, "/t\t1\tpassed\n");
    ck_assert_int_eq(gr_progress_load(path, "/t", &p, err, sizeof err), -1);
    ck_assert_msg(strstr(err, ":1: a record has 10 fields"), "%s", err);
    free(want);
    free(path);
    remove_tree(dir);
    free(dir);
}
END_TEST

START_TEST(pristine_stub_comparison)
{
    char *stub = gr_layout_stub(".", 1);
    ck_assert_str_eq(stub, "./data/stubs/lab01.c");
    ck_assert_int_eq(gr_progress_stub_untouched(".", 1, stub), 1);
    ck_assert_int_eq(gr_progress_stub_untouched(".", 1, "solutions/lab01-scores/lab01.c"), 0);
    ck_assert_int_eq(gr_progress_stub_untouched(".", 2, stub), 0);          /* lab 1's stub is not lab 2's */
    ck_assert_int_eq(gr_progress_stub_untouched(".", 1, "no/such/file.c"), -1);
    free(stub);
}
END_TEST

/* ---- attnlab status ----------------------------------------------------------------- */

static char *objs;     /* the grader's child objects beside this test (fk_child_dir) */

/* cmd_status_run on this tree, as a capture_fn. */
static int cmd_status_run_here(FILE *out, FILE *err, int argc, char **argv)
{
    return cmd_status_run(out, err, ".", objs, argc, argv);
}

/* lab's visible tests and their points, as its rubric has them now: "N" and "P"
   into n and pts. */
static void visible_totals(int lab, char n[16], char pts[GR_POINTS_LEN])
{
    int tests = 0;
    gr_points(pts, rubric_points(".", lab, 1, &tests));
    snprintf(n, 16, "%d", tests);
}

static run_result status(const char *sub)
{
    return CAPTURE(cmd_status_run_here, "status", "--submission", sub);
}

/* Lab 1 with 1/d for 1/sqrt(d) (partly passed), lab 2 solved, labs 3 on
   pristine stubs: one row each, the points, the next step names lab 1's
   misconception, and the progress file says so. */
START_TEST(status_one_screen)
{
    objs = fk_child_dir();
    char *sub, *state, *dir = learner_tree("status", &sub, &state);
    char *sol = read_text("solutions/lab01-scores/lab01.c");
    char *at = strstr(sol, "1.0 / sqrt((double)d)");
    ck_assert_ptr_nonnull(at);
    memcpy(at, "1.0 /     ((double)d)", 21);                 /* the inv_dk mistake */
    put_lab(sub, 1, "solutions/lab01-scores/lab01.c");
    char *file = gr_xasprintf("%s/lab01-scores/lab01.c", sub);
    put_text(file, sol);
    put_lab(sub, 2, "solutions/lab02-softmax/lab02.c");
    for (int lab = 3; lab <= GR_N_LABS; lab++) {
        char *from = gr_layout_stub(".", lab);
        put_lab(sub, lab, from);
        free(from);
    }

    run_result r = status(sub);
    ck_assert_msg(r.rc == 1, "exit %d: %s%s", r.rc, r.out, r.err);   /* not every lab passes */
    ck_assert_str_eq(r.err, "");
    /* lab 1: the inv_dk mistake passes two visible tests worth a point each; lab 2's
       and the last lab's rows: tests and points as their rubrics have them */
    char n[16], pts[GR_POINTS_LEN], tests[64], points[2 * GR_POINTS_LEN + 8], *row;
    visible_totals(1, n, pts);
    snprintf(tests, sizeof tests, "2/%s", n);
    snprintf(points, sizeof points, "2/%s", pts);
    row = gr_xasprintf("lab01-scores     partly passed   %6s %11s\n", tests, points);
    ck_assert_msg(strstr(r.out, row), "%s\nhas no %s", r.out, row);
    free(row);
    visible_totals(2, n, pts);
    snprintf(tests, sizeof tests, "%s/%s", n, n);
    snprintf(points, sizeof points, "%s/%s", pts, pts);
    row = gr_xasprintf("lab02-softmax    passed          %6s %11s   since ", tests, points);
    ck_assert_msg(strstr(r.out, row), "%s\nhas no %s", r.out, row);
    free(row);
    char *rec2 = gr_xasprintf("\t%s\t%s\t", pts, pts);
    visible_totals(GR_N_LABS, n, pts);
    snprintf(tests, sizeof tests, "0/%s", n);
    snprintf(points, sizeof points, "0/%s", pts);
    row = gr_xasprintf("%-16s not started     %6s %11s\n", gr_lab_modules[GR_N_LABS - 1]->dir,
                       tests, points);
    ck_assert_msg(strstr(r.out, row), "%s\nhas no %s", r.out, row);
    free(row);
    char *count = gr_xasprintf("1 of %d labs pass their visible tests; ", GR_N_LABS);
    ck_assert_msg(strstr(r.out, count) && strstr(r.out, " visible points so far."), "%s", r.out);
    free(count);
    /* the visible tests' share of the course's points; status runs no hidden test */
    double visible = 0, all = 0;
    for (int lab = 1; lab <= GR_N_LABS; lab++) {
        int k;
        visible += rubric_points(".", lab, 1, &k);
        all += rubric_points(".", lab, 0, &k);
    }
    char p_vis[GR_POINTS_LEN], p_all[GR_POINTS_LEN], p_hid[GR_POINTS_LEN];
    char *share = gr_xasprintf("  (%s of %s points visible; %s in hidden tests, not run here)\n",
                               gr_points(p_vis, visible), gr_points(p_all, all),
                               gr_points(p_hid, all - visible));
    ck_assert_msg(strstr(r.out, share), "%s\nhas no %s", r.out, share);
    free(share);
    ck_assert_ptr_nonnull(strstr(r.out, "Next: lab01-scores\n"));
    ck_assert_ptr_nonnull(strstr(r.out, "It looks like: divided by d instead of sqrt(d). Reread "
                                        "labs/lab01-scores/README.md, section 3."));
    ck_assert_ptr_nonnull(strstr(r.out, "'attnlab watch --lab 1'"));
    int lines = 0;
    for (const char *p = r.out; *p; p++)
        lines += *p == '\n';
    ck_assert_msg(lines <= 24, "%d lines: more than one screen", lines);
    free_result(&r);

    char *path = gr_xasprintf("%s/attnlab/progress.tsv", state), *real = realpath(sub, NULL);
    char *text = read_text(path), *rec = gr_xasprintf("%s\t2\tpassed\t", real);
    ck_assert_msg(strstr(text, rec) && strstr(strstr(text, rec), rec2), "%s", text);
    free(text);
    free(rec);
    free(rec2);

    /* lab 1 fixed: next is lab 3, to start */
    put_lab(sub, 1, "solutions/lab01-scores/lab01.c");
    r = status(sub);
    ck_assert_ptr_nonnull(strstr(r.out, "lab01-scores     passed "));
    ck_assert_ptr_nonnull(strstr(r.out, "Next: lab03-learned\n  Start lab 3: read "
                                        "labs/lab03-learned/README.md"));
    free_result(&r);
    text = read_text(path);
    visible_totals(1, n, pts);
    rec = gr_xasprintf("%s\t1\tpassed\t%s\t%s\t%s\t%s\t", real, n, n, pts, pts);
    ck_assert_msg(strstr(text, rec), "%s", text);
    free(text);
    free(rec);

    free(real);
    free(path);
    free(sol);
    free(file);
    free(sub);
    free(state);
    remove_tree(dir);
    free(dir);
    free(objs);
}
END_TEST

START_TEST(status_usage_errors)
{
    objs = fk_child_dir();
    run_result r = CAPTURE(cmd_status_run_here, "status", "--bogus");
    check_usage_error(&r, 0, "attnlab status: ", "'--bogus'");
    free_result(&r);
    r = CAPTURE(cmd_status_run_here, "status", "extra");
    check_usage_error(&r, 1, "attnlab status: ", "unexpected argument 'extra'");
    free_result(&r);
    r = CAPTURE(cmd_status_run_here, "status", "--submission", "/no/such/folder");
    ck_assert_int_eq(r.rc, 2);
    ck_assert_msg(strstr(r.err, "the submission /no/such/folder No such file"), "%s", r.err);
    free_result(&r);
    r = CAPTURE(cmd_status_run_here, "status", "--help");
    ck_assert_int_eq(r.rc, 0);
    ck_assert_ptr_nonnull(strstr(r.out, "usage: attnlab status"));
    free_result(&r);
    free(objs);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("progress");
    TCase *tc = tcase_create("progress");
    tcase_add_test(tc, states_from_verdicts);
    tcase_add_test(tc, progress_file_follows_xdg);
    tcase_add_test(tc, save_and_load_two_trees);
    tcase_add_test(tc, next_is_the_first_broken_lab);
    tcase_add_test(tc, broken_file_names_the_line);
    tcase_add_test(tc, pristine_stub_comparison);
    suite_add_tcase(s, tc);
    TCase *st = tcase_create("status");
    tcase_add_test(st, status_one_screen);
    tcase_add_test(st, status_usage_errors);
    tcase_set_timeout(st, 120);
    suite_add_tcase(s, st);
    return s;
}
