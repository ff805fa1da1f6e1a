/* grade.c: the grading loop (see grade.h). */
#include "engine/grade.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "confined/build.h"
#include "confined/confine.h"
#include "engine/compare.h"
#include "engine/digest.h"
#include "engine/intake.h"
#include "engine/judge.h"
#include "base/layout.h"
#include "base/labmod.h"
#include "labsup.h"
#include "base/pool.h"
#include "confined/buildcache.h"
#include "confined/sandbox.h"
#include "engine/seed.h"
#include "base/stop.h"
#include "base/util.h"
#include "confined/workdir.h"

#define TIMEOUTS_TO_STOP 2 /* time-outs in one pass of a lab after which its other tests
                              of that pass are not run */

/* ---- the two passes ------------------------------------------------------------- */

/* A run grades in two passes: every visible test of every graded lab, then
   every other test (hidden, after_due_date, after_published). Nothing a test
   the student cannot see yet does (when it ends, a time-out, the budget it
   spends) can then reach a verdict or an output they see: it runs after them.
   Each pass keeps its own count of time-outs. */
typedef enum pass { PASS_VISIBLE, PASS_HIDDEN } pass;

static const char *pass_name(pass p)
{
    return p == PASS_VISIBLE ? "visible" : "hidden";
}

static int in_pass(gr_visibility v, pass p)
{
    return (v == GR_VISIBLE) == (p == PASS_VISIBLE);
}

/* What the hidden pass of a lab needs from its visible pass: the program the
   visible pass built (it stays in the run's work folder until the end). */
typedef struct lab_prog {
    char *exe;                  /* NULL: the lab has nothing left to run */
    long static_bytes;          /* the program's static data, as the build measured it */
} lab_prog;

/* ---- one lab ------------------------------------------------------------------- */

/* Every test of pass p from the first-th in the run's order on (order[k] is
   the k-th test run; NULL: the rubric's order) gets the same verdict (those
   tests were not run), with the message each. */
static void fail_from(gr_lab_result *lr, const gr_rubric *r, const int *order, int first, pass p,
                      gr_verdict v, const char *message)
{
    for (int k = first; k < r->n_tests; k++) {
        int i = order ? order[k] : k;
        if (!in_pass(r->tests[i].visibility, p))
            continue;
        lr->tests[i].verdict = v;
        lr->tests[i].message = gr_xstrdup(message);
    }
}

/* Every test of the lab gets the same verdict (the lab did not build, or was
   not run): the message is the lab's, held once, not once per test. */
static void fail_all(gr_lab_result *lr, gr_verdict v, const char *message)
{
    free(lr->message);
    lr->message = gr_xstrdup(message);
    for (int i = 0; i < lr->n_tests; i++)
        lr->tests[i].verdict = v;
}

/* The wall-clock budget of one submission (gr_grade): past deadline, the tests
   not yet run get a verdict instead. The visible pass runs first, so only it
   spends what the visible tests are held to. */
typedef struct budget {
    double deadline;            /* gr_now_seconds() after which nothing more runs */
    long seconds;               /* the budget, for the message */
} budget;

/* Why the lab's tests of pass p from here on are not run, or NULL: two
   time-outs in the pass already (a lab that hangs would hang in every test),
   or the budget spent. */
static char *not_run_reason(const budget *bg, pass p, int timeouts)
{
    if (timeouts >= TIMEOUTS_TO_STOP)
        return gr_xasprintf("not run: earlier %s tests timed out (%d of them); make those "
                            "finish and every test runs", pass_name(p), timeouts);
    if (gr_now_seconds() > bg->deadline)
        return gr_xasprintf("not run: the submission's grading budget of %ld s of wall clock "
                            "ran out (each lab's rubric sets its share, budget_s)", bg->seconds);
    return NULL;
}

/* The case of rubric test t for o's student: 0, or GR_STATUS_BAD_INPUT with err
   naming the test (c is then freed). */
static int make_case(const gr_grade_opts *o, const gr_lab_module *mod, int lab,
                     const gr_rubric *r, const gr_rubric_test *t, gr_case *c, char *err,
                     size_t errlen)
{
    char cerr[512];
    memset(c, 0, sizeof *c);
    if (mod->make_case(t, gr_test_seed(t, o->secret, o->student, lab), c, cerr, sizeof cerr) == 0)
        return 0;
    snprintf(err, errlen, "%s:%d: test '%s': %s", r->path, t->line, t->name, cerr);
    gr_case_free(c);
    return GR_STATUS_BAD_INPUT;
}

/* Whether o grades every test of the rubric, in its order of tests: only then
   do o->order and o->cases (made for the whole rubric) apply. */
static int whole_rubric(const gr_grade_opts *o)
{
    return !o->only_test && !o->visible_only;
}

/* Make, run and score one rubric test. 0, or a GR_STATUS_* code (status.h) when
   grading cannot go on (err says why). */
static int grade_test(const gr_grade_opts *o, const gr_lab_module *mod, int lab,
                      const gr_rubric *r, int i, const char *exe, gr_test_result *tr, char *err,
                      size_t errlen)
{
    const gr_rubric_test *t = &r->tests[i];
    const gr_case *made = o->cases[lab - 1] && whole_rubric(o) ? o->cases[lab - 1][i] : NULL;
    gr_case c;
    if (made)
        c = *made;                        /* borrowed: the caller frees it */
    else if (make_case(o, mod, lab, r, t, &c, err, errlen) != 0)
        return GR_STATUS_BAD_INPUT;
    gr_outcome oc;
    int rc = gr_judge_case(exe, mod, t, &c, &oc, err, errlen);
    if (rc != 0) {
        if (!made)
            gr_case_free(&c);
        return gr_stop_requested() ? GR_STATUS_STOPPED : GR_STATUS_FAILED;
    }
    tr->verdict = oc.verdict;
    tr->message = oc.message;
    tr->misconception = oc.misconception;
    tr->student_output = oc.output;
    tr->seconds = oc.seconds;
    tr->score = oc.verdict == GR_PASSED ? tr->max_score : 0;
    if (oc.answered)        /* a mistake nobody catalogued, kept for the class's clusters */
        gr_digest_keep(mod, t, &c, o->secret, lab, oc.status, oc.got, tr);
    if (!made)
        gr_case_free(&c);
    oc.message = oc.misconception = oc.output = NULL;   /* the result owns them now */
    gr_judge_outcome_free(&oc);
    return 0;
}

/* Cut r down to its test called name (a regrade of one test), moved first:
   0, or -1 with err listing the tests r has. The others stay behind n_tests,
   so setting n_tests back lets gr_rubric_free free them. */
static int keep_only(gr_rubric *r, const char *name, char *err, size_t errlen)
{
    for (int i = 0; i < r->n_tests; i++) {
        if (strcmp(r->tests[i].name, name) != 0)
            continue;
        gr_rubric_test keep = r->tests[i];
        r->tests[i] = r->tests[0];
        r->tests[0] = keep;
        r->n_tests = 1;
        return 0;
    }
    gr_strbuf b = {0};
    for (int i = 0; i < r->n_tests; i++)
        gr_sb_printf(&b, "%s%s", i ? ", " : "", r->tests[i].name);
    gr_set_err(err, errlen, "%s has no test named '%s'; its tests are: %s", r->path, name,
               b.s ? b.s : "(none)");
    free(b.s);
    return -1;
}

/* The path of the lab's file as intake found it, lr noting it relative to the
   submission (and why, when a forgiving rule found it); NULL after giving
   every test of lr the verdict when it is missing, ambiguous or not a
   regular file (read here as every student file is, so a FIFO never blocks). */
static char *found_source(const char *submission, const gr_intake *in, int lab,
                          gr_lab_result *lr)
{
    const gr_intake_lab *il = &in->labs[lab - 1];
    if (il->status == GR_INTAKE_FOUND) {
        lr->source = gr_xstrdup(il->rel);
        lr->source_how = il->how ? gr_xstrdup(il->how) : NULL;
    }
    gr_verdict v;
    char *m = NULL;
    char *path = gr_intake_take(submission, in, lab, &v, &m);
    if (!path)
        fail_all(lr, v, m);
    free(m);
    return path;
}

/* Lab's rubric, from o->rubrics or the course's: 0, or GR_STATUS_BAD_INPUT with err. */
static int load_rubric(const gr_grade_opts *o, int lab, gr_rubric *r, char *err, size_t errlen)
{
    char *path = gr_layout_rubric_from(o->root, o->rubrics, lab);
    int rc = gr_rubric_load(path, r, err, errlen);
    free(path);
    return rc == 0 ? 0 : GR_STATUS_BAD_INPUT;
}

/* Lab's rubric cut down to what o grades (its visible tests, or one test);
   *n_all: how many tests to free it with (graded_rubric_free). 0, or
   GR_STATUS_BAD_INPUT with err. */
static int graded_rubric(const gr_grade_opts *o, int lab, gr_rubric *r, int *n_all, char *err,
                         size_t errlen)
{
    if (load_rubric(o, lab, r, err, errlen) != 0)
        return GR_STATUS_BAD_INPUT;
    if (o->visible_only)
        gr_rubric_keep_visible(r);
    *n_all = r->n_tests;
    if (o->only_test && keep_only(r, o->only_test, err, errlen) != 0) {
        gr_rubric_free(r);
        return GR_STATUS_BAD_INPUT;
    }
    return 0;
}

static void graded_rubric_free(gr_rubric *r, int n_all)
{
    r->n_tests = n_all;
    gr_rubric_free(r);
}

/* Build src as lab's program under rubric r, through the build cache. 0, or
   GR_STATUS_FAILED with err (the grader's failure: a student's is in out). */
static int build_program(const gr_grade_opts *o, const gr_rubric *r, int lab, const char *src,
                         const char *work, gr_build *out, char *err, size_t errlen)
{
    gr_paths paths = { .root = o->root, .child_dir = o->child_dir, .work_dir = work };
    return gr_buildcache_build(r, gr_lab_modules[lab - 1]->dir, src, &paths, out, err, errlen) == 0
               ? 0 : GR_STATUS_FAILED;
}

/* Run the tests of pass p of lab's rubric r with program exe, in o's order,
   into lr, until the pass's stop rules say no more. *failed: a test of the
   pass did not pass and o stops at the first (o->first_failure). 0, or a
   GR_STATUS_* code with err. */
static int run_pass(const gr_grade_opts *o, const budget *bg, int lab, const gr_rubric *r,
                    pass p, const char *exe, gr_lab_result *lr, int *failed, char *err,
                    size_t errlen)
{
    const int *order = whole_rubric(o) ? o->order[lab - 1] : NULL;
    int rc = 0, timeouts = 0;
    *failed = 0;
    for (int k = 0; k < r->n_tests && rc == 0; k++) {
        int i = order ? order[k] : k;
        if (!in_pass(r->tests[i].visibility, p))
            continue;
        char *skip = not_run_reason(bg, p, timeouts);
        if (skip) {
            fail_from(lr, r, order, k, p, GR_TIMED_OUT, skip);
            free(skip);
            break;
        }
        rc = grade_test(o, gr_lab_modules[lab - 1], lab, r, i, exe, &lr->tests[i], err, errlen);
        timeouts += rc == 0 && lr->tests[i].verdict == GR_TIMED_OUT;
        if (rc == 0 && gr_stop_requested())
            rc = GR_STATUS_STOPPED;
        lr->test_seconds += lr->tests[i].seconds;
        if (o->first_failure && lr->tests[i].verdict != GR_PASSED) {
            *failed = 1;
            break;
        }
    }
    return rc;
}

/* lr's place for every test of r, nothing run yet. */
static void lab_result_start(gr_lab_result *lr, int lab, const gr_rubric *r)
{
    lr->lab = lab;
    lr->name = gr_xstrdup(gr_lab_modules[lab - 1]->dir);
    lr->n_tests = r->n_tests;
    lr->tests = gr_xcalloc((size_t)r->n_tests, sizeof *lr->tests);
    for (int i = 0; i < r->n_tests; i++) {
        gr_test_result *tr = &lr->tests[i];
        tr->name = gr_xstrdup(r->tests[i].name);
        tr->max_score = r->tests[i].points;
        tr->visibility = r->tests[i].visibility;
        lr->max_score += tr->max_score;
    }
}

/* Whether r has a test of pass p. */
static int has_pass(const gr_rubric *r, pass p)
{
    for (int i = 0; i < r->n_tests; i++)
        if (in_pass(r->tests[i].visibility, p))
            return 1;
    return 0;
}

/* The built program of lab, from o->built or built now; 0, or a GR_STATUS_* code. */
static int lab_program(const gr_grade_opts *o, const gr_rubric *r, int lab, const char *src,
                       const char *work, gr_build *b, char *err, size_t errlen)
{
    if (o->built[lab - 1]) {
        gr_build_copy(o->built[lab - 1], b);
        return 0;
    }
    return build_program(o, r, lab, src, work, b, err, errlen);
}

/* The static data the build measured in lab's program, into each test's
   limits: it counts in the memory limit. */
static void measured_static(gr_rubric *r, long static_bytes)
{
    for (int i = 0; i < r->n_tests; i++)
        r->tests[i].limits.static_bytes = static_bytes;
}

/* With lab's program b: the build's verdict when it failed, else its visible
   tests run into lr and, when tests are left for the hidden pass, *prog. */
static int visible_tests(const gr_grade_opts *o, const budget *bg, int lab, gr_rubric *r,
                         const gr_build *b, gr_lab_result *lr, lab_prog *prog, char *err,
                         size_t errlen)
{
    lr->build_seconds = b->compile_seconds;
    if (b->log)                           /* a built lab's log is its warnings: shown too */
        lr->compile_log = gr_xstrdup(b->log);
    if (!b->ok) {
        fail_all(lr, b->verdict, b->message ? b->message : "the lab did not build");
        return 0;
    }
    measured_static(r, b->static_bytes);
    int failed;
    int rc = run_pass(o, bg, lab, r, PASS_VISIBLE, b->exe, lr, &failed, err, errlen);
    if (rc == 0 && !failed && has_pass(r, PASS_HIDDEN))
        *prog = (lab_prog){gr_xstrdup(b->exe), b->static_bytes};
    return rc;
}

/* The visible pass of lab: find and build its file, run its visible tests
   into lr (every test of the rubric has its place), and leave in *prog the
   program the hidden pass runs, when it has tests to run. */
static int grade_visible(const gr_grade_opts *o, const gr_intake *in, const budget *bg, int lab,
                         const char *work, gr_lab_result *lr, lab_prog *prog, char *err,
                         size_t errlen)
{
    gr_rubric r;
    int n_all, rc = graded_rubric(o, lab, &r, &n_all, err, errlen);
    if (rc != 0)
        return rc;
    lab_result_start(lr, lab, &r);
    char *src = o->sources[lab - 1] ? gr_xstrdup(o->sources[lab - 1])
                                    : found_source(o->submission, in, lab, lr);
    char *skip = src ? not_run_reason(bg, PASS_VISIBLE, 0) : NULL;
    gr_build b;
    memset(&b, 0, sizeof b);
    if (skip)
        fail_all(lr, GR_TIMED_OUT, skip);
    else if (src && (rc = lab_program(o, &r, lab, src, work, &b, err, errlen)) == 0)
        rc = visible_tests(o, bg, lab, &r, &b, lr, prog, err, errlen);
    gr_build_free(&b);
    free(skip);
    free(src);
    graded_rubric_free(&r, n_all);
    return rc;
}

/* The hidden pass of lab: run every test the visible pass left (those not
   visible at submission) with the program it built, into lr. 0, or a
   GR_STATUS_* code with err (the rubric no longer the one the visible pass
   graded is the grader's failure: it was edited during the run). */
static int grade_hidden(const gr_grade_opts *o, const budget *bg, int lab, const lab_prog *prog,
                        gr_lab_result *lr, char *err, size_t errlen)
{
    gr_rubric r;
    int n_all, failed, rc = graded_rubric(o, lab, &r, &n_all, err, errlen);
    if (rc != 0)
        return rc;
    int same = r.n_tests == lr->n_tests;
    for (int i = 0; same && i < r.n_tests; i++)
        same = strcmp(r.tests[i].name, lr->tests[i].name) == 0;
    if (!same) {
        gr_set_err(err, errlen, "%s changed while its lab was graded; grade again", r.path);
        rc = GR_STATUS_FAILED;
    }
    measured_static(&r, prog->static_bytes);
    if (rc == 0)
        rc = run_pass(o, bg, lab, &r, PASS_HIDDEN, prog->exe, lr, &failed, err, errlen);
    graded_rubric_free(&r, n_all);
    return rc;
}

int gr_grade_cases(const gr_grade_opts *o, int lab, gr_case ***out, int *n, char *err,
                   size_t errlen)
{
    *out = NULL;
    *n = 0;
    gr_rubric r;
    int rc = load_rubric(o, lab, &r, err, errlen);
    if (rc != 0)
        return rc;
    gr_case **cases = gr_xcalloc((size_t)r.n_tests + 1, sizeof *cases);
    for (int i = 0; i < r.n_tests && rc == 0; i++) {
        cases[i] = gr_xcalloc(1, sizeof *cases[i]);
        rc = make_case(o, gr_lab_modules[lab - 1], lab, &r, &r.tests[i], cases[i], err, errlen);
    }
    *n = r.n_tests;
    *out = cases;
    gr_rubric_free(&r);
    if (rc != 0)
        gr_grade_cases_free(out, *n);
    return rc;
}

void gr_grade_cases_free(gr_case ***cases, int n)
{
    for (int i = 0; *cases && i < n; i++) {
        if ((*cases)[i])
            gr_case_free((*cases)[i]);
        free((*cases)[i]);
    }
    free(*cases);
    *cases = NULL;
}

int gr_grade_build(const gr_grade_opts *o, int lab, const char *src, const char *work,
                   gr_build *out, char *err, size_t errlen)
{
    gr_rubric r;
    int rc = load_rubric(o, lab, &r, err, errlen);
    if (rc != 0)
        return rc;
    rc = build_program(o, &r, lab, src, work, out, err, errlen);
    gr_rubric_free(&r);
    return rc;
}

/* ---- the whole run --------------------------------------------------------------- */

/* The labs of one run and what each pass has made of them so far. */
typedef struct lab_ctx {
    const gr_grade_opts *o;
    const gr_intake *in;        /* where each lab's file is */
    const char *work;
    budget bg;
    pass p;                     /* the pass under way */
    const int *labs;            /* [n]: the labs graded */
    int n;
    gr_lab_result *results;     /* [n]: each lab's result so far */
    lab_prog *progs;            /* [n]: each lab's program for the hidden pass */
    int todo[GR_N_LABS];        /* the indexes the pass under way grades */
    int n_todo;
} lab_ctx;

/* A lab's line on the progress stream after pass p, its tests of p run in seconds. */
static void progress_line(FILE *f, const gr_lab_result *lr, pass p, double seconds)
{
    int n = 0;
    for (int i = 0; i < lr->n_tests; i++)
        n += in_pass(lr->tests[i].visibility, p);
    if (p == PASS_VISIBLE)
        fprintf(f, "attnlab: graded %s: built in %.2f s, %d visible tests ran in %.2f s\n",
                lr->name, lr->build_seconds, n, seconds);
    else
        fprintf(f, "attnlab: graded %s: %d hidden tests ran in %.2f s\n", lr->name, n, seconds);
}

/* Lab index i's part of the pass under way, into lc->results[i] and
   lc->progs[i]; timed, and its progress line when asked. */
static int lab_pass(lab_ctx *lc, int i, char *err, size_t errlen)
{
    gr_lab_result *lr = &lc->results[i];
    double t0 = gr_now_seconds(), tests0 = lr->test_seconds;
    int rc;
    if (lc->p == PASS_VISIBLE) {
        rc = grade_visible(lc->o, lc->in, &lc->bg, lc->labs[i], lc->work, lr, &lc->progs[i],
                           err, errlen);
    } else {
        rc = grade_hidden(lc->o, &lc->bg, lc->labs[i], &lc->progs[i], lr, err, errlen);
        free(lc->progs[i].exe);           /* its work is done */
        lc->progs[i].exe = NULL;
    }
    lr->seconds += gr_now_seconds() - t0;
    if (rc == 0 && gr_stop_requested())
        rc = GR_STATUS_STOPPED;
    if (rc == 0 && lc->o->progress)
        progress_line(lc->o->progress, lr, lc->p, lr->test_seconds - tests0);
    return rc;
}

/* In a worker (pool.h): job j of the pass, sent back as the lab's result
   (its length first) and its program. */
static int pass_work(void *ctx, int j, gr_strbuf *out, char *err, size_t errlen)
{
    lab_ctx *lc = ctx;
    int i = lc->todo[j];
    int rc = lab_pass(lc, i, err, errlen);
    if (rc != 0)
        return rc;
    gr_strbuf r = {0};
    gr_result_lab_encode(&lc->results[i], &r);
    uint32_t len = (uint32_t)r.len;
    int64_t stat = lc->progs[i].static_bytes;
    gr_sb_appendn(out, (const char *)&len, sizeof len);
    gr_sb_appendn(out, r.s, r.len);
    gr_sb_appendn(out, (const char *)&stat, sizeof stat);
    if (lc->progs[i].exe)
        gr_sb_append(out, lc->progs[i].exe);
    free(r.s);
    return 0;
}

/* In the parent: what job j's worker sent, in place of what the lab had. */
static int pass_done(void *ctx, int j, const char *bytes, size_t n, char *err, size_t errlen)
{
    lab_ctx *lc = ctx;
    int i = lc->todo[j];
    uint32_t len = 0;
    int64_t stat = 0;
    gr_lab_result lr;
    if (n >= sizeof len + sizeof stat)
        memcpy(&len, bytes, sizeof len);
    if (n < sizeof len + sizeof stat || len > n - sizeof len - sizeof stat ||
        gr_result_lab_decode(bytes + sizeof len, len, &lr) != 0) {
        gr_set_err(err, errlen, "the grading worker for lab %d sent a result that does not "
                   "read back", lc->labs[i]);
        return GR_STATUS_FAILED;
    }
    size_t at = sizeof len + len;
    memcpy(&stat, bytes + at, sizeof stat);
    at += sizeof stat;
    gr_result_lab_free(&lc->results[i]);
    lc->results[i] = lr;
    free(lc->progs[i].exe);
    lc->progs[i] = (lab_prog){at < n ? gr_xasprintf("%.*s", (int)(n - at), bytes + at) : NULL, (long)stat};
    return 0;
}

static void pass_job_name(void *ctx, int j, char *buf, size_t len)
{
    const lab_ctx *lc = ctx;
    snprintf(buf, len, "lab %d", lc->labs[lc->todo[j]]);
}

/* Run pass p over the labs it has work in: every lab for the visible pass,
   those with a program and tests left for the hidden one; in worker
   processes when o->jobs > 1. */
static int run_labs(lab_ctx *lc, pass p, char *err, size_t errlen)
{
    lc->p = p;
    lc->n_todo = 0;
    for (int i = 0; i < lc->n; i++)
        if (p == PASS_VISIBLE || lc->progs[i].exe)
            lc->todo[lc->n_todo++] = i;
    if (lc->o->jobs > 1 && lc->n_todo > 1) {
        gr_pool_task t = {pass_work, pass_done, pass_job_name, lc};
        return gr_pool_map(&t, lc->n_todo, lc->o->jobs, err, errlen);
    }
    int rc = 0;
    for (int j = 0; j < lc->n_todo && rc == 0; j++)
        rc = lab_pass(lc, lc->todo[j], err, errlen);
    return rc;
}

/* The submission's wall-clock budget from t0: the sum of the graded labs'
   budget_s (a rubric that does not load counts the default; grading it says why). */
static budget submission_budget(const gr_grade_opts *o, const int *labs, int n, double t0)
{
    budget bg = {t0, 0};
    for (int i = 0; i < n; i++) {
        char *path = gr_layout_rubric_from(o->root, o->rubrics, labs[i]), e[16];
        gr_rubric r;
        if (gr_rubric_load(path, &r, e, sizeof e) == 0) {
            bg.seconds += r.budget_s;
            gr_rubric_free(&r);
        } else {
            bg.seconds += GR_DEFAULT_BUDGET_S;
        }
        free(path);
    }
    bg.deadline = t0 + (double)bg.seconds;
    return bg;
}

/* Grade labs[0..n) into out->labs: the visible pass over every lab, then
   the hidden pass (the two passes, above). */
static int grade_labs(const gr_grade_opts *o, const gr_intake *in, const char *work,
                      const int *labs, int n, gr_report *out, char *err, size_t errlen)
{
    lab_ctx lc = {.o = o, .in = in, .work = work, .labs = labs, .n = n, .results = out->labs,
                  .bg = submission_budget(o, labs, n, gr_now_seconds()),
                  .progs = gr_xcalloc((size_t)n + 1, sizeof *lc.progs)};
    out->n_labs = n;
    int rc = run_labs(&lc, PASS_VISIBLE, err, errlen);
    if (rc == 0)
        rc = run_labs(&lc, PASS_HIDDEN, err, errlen);
    for (int i = 0; i < n; i++)
        free(lc.progs[i].exe);
    free(lc.progs);
    /* tests are numbered through the whole run, lab by lab; points are summed
       in the rubric's order, whatever order the tests ran in */
    int number = 0;
    for (int i = 0; i < out->n_labs; i++) {
        for (int j = 0; j < out->labs[i].n_tests; j++) {
            out->labs[i].tests[j].number = ++number;
            out->labs[i].score += out->labs[i].tests[j].score;
        }
        out->score += out->labs[i].score;
        out->max_score += out->labs[i].max_score;
    }
    return rc;
}

int gr_grade(const gr_grade_opts *o, gr_report *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    double t0 = gr_now_seconds();
    char *work = gr_workdir_make("grade", err, errlen);
    if (!work)
        return GR_STATUS_FAILED;
    out->student = gr_xstrdup(o->student);
    out->practice_secret = gr_seed_secret_unfit(o->secret, o->student);
    out->labs = gr_xcalloc(GR_N_LABS, sizeof *out->labs);
    gr_strbuf walls = {0};
    gr_confine_describe(gr_confine_probe(), &walls);
    out->confinement = gr_sb_take(&walls);
    out->sandbox = gr_xstrdup(gr_sandbox_layers());
    if (o->progress)
        fprintf(o->progress, "attnlab: the toolchain runs confined by: %s\n", out->confinement);
    int labs[GR_N_LABS], n = 0;
    for (int lab = 1; lab <= GR_N_LABS; lab++)
        if (o->labs[lab - 1])
            labs[n++] = lab;
    /* where each lab's file is; only a submission that cannot be opened at all
       leaves every lab missing */
    gr_intake in;
    char why[512];
    if (!o->submission || gr_intake_scan(o->submission, &in, why, sizeof why) != 0) {
        memset(&in, 0, sizeof in);
        for (int lab = 0; lab < GR_N_LABS; lab++)
            in.labs[lab].status = GR_INTAKE_MISSING;
    }
    int rc = grade_labs(o, &in, work, labs, n, out, err, errlen);
    gr_intake_free(&in);
    gr_workdir_remove(work);
    out->seconds = gr_now_seconds() - t0;
    if (rc == GR_STATUS_STOPPED)
        snprintf(err, errlen, "stopped by signal %d before every lab was graded; no report written",
                 gr_stop_requested());
    if (rc != 0) {
        gr_result_free(out);
        memset(out, 0, sizeof *out);
    }
    return rc;
}
