/* test_pool.c: grading labs in worker processes (pool.c) and carrying a lab's
 * result between processes (gr_result_lab_encode/decode in result.c).
 *
 * The jobs here are fakes that fill a lab's result from the lab number, fail,
 * or die, sent back as grade.c sends a lab's (gr_result_lab_encode), so the
 * pool's own behaviour is what is tested: every result arrives at its lab's
 * place, whole; the first failure is reported with its message; a worker that
 * dies is the grader's failure, named; nothing is left running. Real grading
 * in two workers equals grading one lab after another, and a test order given
 * to gr_grade (attnlab mutate's kill order) runs the visible tests first.
 */
#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/grade.h"
#include "base/pool.h"
#include "base/result.h"
#include "fixtures/fixture_kit.h"

Suite *test_suite(void);

/* A result that says which lab made it, with every kind of field set. */
static void fake_result(int lab, gr_lab_result *lr)
{
    lr->lab = lab;
    lr->name = gr_xasprintf("lab%02d-fake", lab);
    lr->n_tests = lab;
    lr->tests = gr_xcalloc((size_t)lab, sizeof *lr->tests);
    for (int i = 0; i < lab; i++) {
        gr_test_result *t = &lr->tests[i];
        t->name = gr_xasprintf("t%d", i);
        t->max_score = 0.25 * (i + 1);
        t->score = i % 2 ? t->max_score : 0;
        t->verdict = i % 2 ? GR_PASSED : GR_WRONG_ANSWER;
        t->visibility = GR_HIDDEN;
        t->message = i % 2 ? NULL : gr_xstrdup("expected 0.7054,\ngot 0.6095 \xe2\x80\x94 \"post\"");
        t->misconception = i % 2 ? NULL : gr_xstrdup("postmask");
        t->seconds = 0.001 * i;
        lr->score += t->score;
        lr->max_score += t->max_score;
    }
    lr->compile_log = lab % 2 ? gr_xstrdup("lab.c:1:1: warning: unused") : NULL;
    lr->build_seconds = 0.5;
    lr->seconds = 1.5;
}

static int job_ok(void *ctx, int lab, gr_lab_result *lr, char *err, size_t errlen)
{
    (void)ctx; (void)err; (void)errlen;
    fake_result(lab, lr);
    return 0;
}

static int job_fails_on_3(void *ctx, int lab, gr_lab_result *lr, char *err, size_t errlen)
{
    (void)ctx;
    if (lab == 3) {
        snprintf(err, errlen, "data/rubrics/lab03.yaml:4:5: points must be a number");
        return GR_STATUS_BAD_INPUT;
    }
    fake_result(lab, lr);
    return 0;
}

static int job_dies_on_2(void *ctx, int lab, gr_lab_result *lr, char *err, size_t errlen)
{
    (void)ctx; (void)err; (void)errlen;
    if (lab == 2)
        raise(SIGKILL);
    fake_result(lab, lr);
    return 0;
}

/* The fake jobs as a pool task: job i fills labs[i]'s result, sent back as bytes into out[i]. */
typedef struct fake_task {
    int (*job)(void *ctx, int lab, gr_lab_result *lr, char *err, size_t errlen);
    const int *labs;
    gr_lab_result *out;
} fake_task;

static int fake_work(void *ctx, int i, gr_strbuf *out, char *err, size_t errlen)
{
    const fake_task *ft = ctx;
    gr_lab_result lr;
    memset(&lr, 0, sizeof lr);
    int rc = ft->job(NULL, ft->labs[i], &lr, err, errlen);
    if (rc == 0)
        gr_result_lab_encode(&lr, out);
    return rc;
}

static int fake_done(void *ctx, int i, const char *bytes, size_t len, char *err, size_t errlen)
{
    const fake_task *ft = ctx;
    if (gr_result_lab_decode(bytes, len, &ft->out[i]) != 0) {
        snprintf(err, errlen, "lab %d's result does not read back", ft->labs[i]);
        return GR_STATUS_FAILED;
    }
    return 0;
}

static void fake_name(void *ctx, int i, char *buf, size_t len)
{
    snprintf(buf, len, "lab %d", ((const fake_task *)ctx)->labs[i]);
}

/* Run job for labs[0..n) in at most jobs workers: gr_pool_map's code. */
static int run_fakes(int (*job)(void *, int, gr_lab_result *, char *, size_t), const int *labs,
                     int n, int jobs, gr_lab_result *out, char *err, size_t errlen)
{
    fake_task ft = {job, labs, out};
    gr_pool_task t = {fake_work, fake_done, fake_name, &ft};
    return gr_pool_map(&t, n, jobs, err, errlen);
}

START_TEST(round_trip_is_exact)
{
    gr_lab_result a, b;
    memset(&a, 0, sizeof a);
    fake_result(5, &a);
    gr_strbuf w = {0};
    gr_result_lab_encode(&a, &w);
    ck_assert_int_eq(gr_result_lab_decode(w.s, w.len, &b), 0);
    ck_assert_int_eq(b.lab, 5);
    ck_assert_str_eq(b.name, a.name);
    ck_assert_str_eq(b.compile_log, a.compile_log);
    ck_assert_int_eq(b.n_tests, 5);
    for (int i = 0; i < 5; i++) {
        ck_assert_str_eq(b.tests[i].name, a.tests[i].name);
        ck_assert(b.tests[i].score == a.tests[i].score);
        ck_assert_int_eq(b.tests[i].verdict, a.tests[i].verdict);
        ck_assert_int_eq(b.tests[i].visibility, GR_HIDDEN);
        if (a.tests[i].message)
            ck_assert_str_eq(b.tests[i].message, a.tests[i].message);
        else
            ck_assert_ptr_null(b.tests[i].message);
    }
    /* every truncation, and a byte too many, is refused */
    for (size_t n = 0; n < w.len; n += 7)
        ck_assert_int_eq(gr_result_lab_decode(w.s, n, &b), -1);
    gr_sb_appendn(&w, "x", 1);
    ck_assert_int_eq(gr_result_lab_decode(w.s, w.len, &b), -1);
    gr_result_lab_free(&a);
    free(w.s);
}
END_TEST

/* A student's copy holds only the tests they may see, with points summed over them. */
START_TEST(student_copy_drops_unseen_tests)
{
    gr_report r, shown;
    memset(&r, 0, sizeof r);
    r.n_labs = 1;
    r.labs = gr_xcalloc(1, sizeof *r.labs);
    fake_result(4, &r.labs[0]);                 /* every test hidden */
    r.labs[0].tests[1].visibility = GR_VISIBLE;
    r.labs[0].tests[2].visibility = GR_AFTER_DUE_DATE;
    gr_result_copy_shown(&r, GR_SHOWN_AT_SUBMISSION, &shown);
    ck_assert_int_eq(shown.n_labs, 1);
    ck_assert_int_eq(shown.labs[0].n_tests, 1);
    ck_assert_str_eq(shown.labs[0].tests[0].name, "t1");
    ck_assert(shown.max_score == 0.5 && shown.score == 0.5);
    gr_result_free(&shown);
    gr_result_free(&r);
}
END_TEST

START_TEST(results_arrive_in_order)
{
    int labs[] = {1, 2, 3, 4, 5, 6, 7};
    gr_lab_result out[7];
    memset(out, 0, sizeof out);
    char err[256] = "";
    ck_assert_int_eq(run_fakes(job_ok, labs, 7, 3, out, err, sizeof err), 0);
    for (int i = 0; i < 7; i++) {
        ck_assert_int_eq(out[i].lab, labs[i]);
        ck_assert_int_eq(out[i].n_tests, labs[i]);
        gr_result_lab_free(&out[i]);
    }
}
END_TEST

START_TEST(first_failure_is_reported)
{
    int labs[] = {1, 2, 3, 4};
    gr_lab_result out[4];
    memset(out, 0, sizeof out);
    char err[256] = "";
    ck_assert_int_eq(run_fakes(job_fails_on_3, labs, 4, 2, out, err, sizeof err),
                     GR_STATUS_BAD_INPUT);
    ck_assert_str_eq(err, "data/rubrics/lab03.yaml:4:5: points must be a number");
    for (int i = 0; i < 4; i++)
        gr_result_lab_free(&out[i]);
}
END_TEST

START_TEST(a_dead_worker_is_the_graders_failure)
{
    int labs[] = {1, 2, 3};
    gr_lab_result out[3];
    memset(out, 0, sizeof out);
    char err[256] = "";
    ck_assert_int_eq(run_fakes(job_dies_on_2, labs, 3, 2, out, err, sizeof err),
                     GR_STATUS_FAILED);
    ck_assert_msg(strstr(err, "worker for lab 2 died (signal 9)") != NULL, "err: %s", err);
    for (int i = 0; i < 3; i++)
        gr_result_lab_free(&out[i]);
}
END_TEST

/* Options grading this tree's files as student who, with objs the child objects. */
static void tree_opts(gr_grade_opts *o, const char *objs, const char *who)
{
    memset(o, 0, sizeof *o);
    o->root = ".";
    o->child_dir = objs;
    o->student = who;
    o->secret = "pool-test-secret";
}

/* Grading the solutions of three labs in two workers gives the report one by
   one gives: same scores, verdicts and test numbers. */
START_TEST(parallel_grading_equals_sequential)
{
    char *objs = fk_child_dir();
    gr_grade_opts o;
    tree_opts(&o, objs, "pool-test");
    o.submission = "solutions";
    o.labs[0] = o.labs[1] = o.labs[8] = 1;
    gr_report seq, par;
    char err[1024] = "";
    o.jobs = 1;
    ck_assert_msg(gr_grade(&o, &seq, err, sizeof err) == 0, "%s", err);
    o.jobs = 2;
    ck_assert_msg(gr_grade(&o, &par, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(par.n_labs, 3);
    ck_assert(par.score == seq.score && par.max_score == seq.max_score && seq.score == seq.max_score);
    for (int i = 0; i < 3; i++) {
        ck_assert_int_eq(par.labs[i].lab, seq.labs[i].lab);
        ck_assert_int_eq(par.labs[i].n_tests, seq.labs[i].n_tests);
        for (int j = 0; j < seq.labs[i].n_tests; j++) {
            ck_assert_int_eq(par.labs[i].tests[j].number, seq.labs[i].tests[j].number);
            ck_assert_int_eq(par.labs[i].tests[j].verdict, seq.labs[i].tests[j].verdict);
        }
    }
    gr_result_free(&seq);
    gr_result_free(&par);
    free(objs);
}
END_TEST

/* attnlab mutate's kill order (o->order) runs within each pass: with a hidden
   test put first and stopping at the first failure, the pristine stub of lab 1
   fails its first visible test in that order, and no hidden test runs; without
   stopping, the verdicts are those of the rubric's order. */
START_TEST(a_given_order_runs_visible_tests_first)
{
    char *objs = fk_child_dir();
    gr_grade_opts o;
    tree_opts(&o, objs, "order-test");
    o.sources[0] = "data/stubs/lab01.c";
    o.labs[0] = 1;
    o.jobs = 1;
    gr_report plain, first, reversed;
    char err[1024] = "";
    ck_assert_msg(gr_grade(&o, &plain, err, sizeof err) == 0, "%s", err);
    int n = plain.labs[0].n_tests, order[64];
    ck_assert(n > 3 && n <= 64);
    ck_assert_int_eq(plain.labs[0].tests[2].visibility, GR_HIDDEN);   /* dot_random */
    order[0] = 2;
    for (int k = 1, i = 0; k < n; i++)
        if (i != 2)
            order[k++] = i;
    o.order[0] = order;
    o.first_failure = 1;
    ck_assert_msg(gr_grade(&o, &first, err, sizeof err) == 0, "%s", err);
    for (int i = 0; i < n; i++) {
        const gr_test_result *t = &first.labs[0].tests[i];
        gr_verdict want = i == 0 ? GR_NOT_IMPLEMENTED : GR_PASSED;   /* unrun: no verdict set */
        ck_assert_msg(t->verdict == want && t->score == 0, "%s: %s", t->name,
                      gr_result_verdict_name(t->verdict));
    }
    for (int k = 0; k < n; k++)
        order[k] = n - 1 - k;
    o.first_failure = 0;
    ck_assert_msg(gr_grade(&o, &reversed, err, sizeof err) == 0, "%s", err);
    for (int i = 0; i < n; i++) {
        ck_assert_int_eq(reversed.labs[0].tests[i].verdict, plain.labs[0].tests[i].verdict);
        ck_assert_int_eq(plain.labs[0].tests[i].verdict, GR_NOT_IMPLEMENTED);
    }
    gr_result_free(&plain);
    gr_result_free(&first);
    gr_result_free(&reversed);
    free(objs);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("pool");
    TCase *tc = tcase_create("pool");
    tcase_add_test(tc, round_trip_is_exact);
    tcase_add_test(tc, student_copy_drops_unseen_tests);
    tcase_add_test(tc, results_arrive_in_order);
    tcase_add_test(tc, first_failure_is_reported);
    tcase_add_test(tc, a_dead_worker_is_the_graders_failure);
    tcase_add_test(tc, parallel_grading_equals_sequential);
    tcase_add_test(tc, a_given_order_runs_visible_tests_first);
    tcase_set_timeout(tc, 120);
    suite_add_tcase(s, tc);
    return s;
}
