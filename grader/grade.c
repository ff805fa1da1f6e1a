/* grade.c: the grading loop (see grade.h). */
#include "grade.h"

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
#include "compare.h"
#include "digest.h"
#include "intake.h"
#include "judge.h"
#include "layout.h"
#include "labmod.h"
#include "labsup.h"
#include "pool.h"
#include "confined/buildcache.h"
#include "confined/sandbox.h"
#include "seed.h"
#include "stop.h"
#include "util.h"
#include "confined/workdir.h"

#define TIMEOUTS_TO_STOP 2 /* time-outs in a lab after which its other tests are not run */

/* ---- one lab ------------------------------------------------------------------- */

/* Every test of the lab from the first-th in the run's order on (order[k] is
   the k-th test run; NULL: the rubric's order) gets the same verdict (those
   tests were not run), with the message each. */
static void fail_from(gr_lab_result *lr, const int *order, int first, gr_verdict v,
                      const char *message)
{
    for (int k = first; k < lr->n_tests; k++) {
        gr_test_result *t = &lr->tests[order ? order[k] : k];
        t->verdict = v;
        t->message = gr_xstrdup(message);
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
   not yet run get a verdict instead. */
typedef struct budget {
    double deadline;            /* gr_now_seconds() after which nothing more runs */
    long seconds;               /* the budget, for the message */
} budget;

/* Why the lab's tests from here on are not run, or NULL: two time-outs
   already (a lab that hangs would hang in every test), or the budget spent. */
static char *not_run_reason(const budget *bg, int timeouts)
{
    if (timeouts >= TIMEOUTS_TO_STOP)
        return gr_xasprintf("not run: earlier tests timed out (%d of them); make those finish "
                            "and every test runs", timeouts);
    if (gr_now_seconds() > bg->deadline)
        return gr_xasprintf("not run: the submission's grading budget of %ld s of wall clock "
                            "ran out (each lab's rubric sets its share, budget_s)", bg->seconds);
    return NULL;
}

/* Make, run and score one rubric test. 0, or a GR_STATUS_* code (status.h) when
   grading cannot go on (err says why). */
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

/* Build src as lab's program under rubric r, through the build cache. 0, or
   GR_STATUS_FAILED with err (the grader's failure: a student's is in out). */
static int build_program(const gr_grade_opts *o, const gr_rubric *r, int lab, const char *src,
                         const char *work, gr_build *out, char *err, size_t errlen)
{
    gr_paths paths = { .root = o->root, .stub_dir = o->stub_dir, .work_dir = work };
    return gr_build_cached(r, gr_lab_modules[lab - 1]->dir, src, &paths, out, err, errlen) == 0
               ? 0 : GR_STATUS_FAILED;
}

static int grade_lab(const gr_grade_opts *o, const gr_intake *in, const budget *bg, int lab,
                     const char *work, gr_lab_result *lr, char *err, size_t errlen)
{
    const gr_lab_module *mod = gr_lab_modules[lab - 1];
    gr_rubric r;
    int rc = load_rubric(o, lab, &r, err, errlen);
    if (rc != 0)
        return rc;
    if (o->visible_only)
        gr_rubric_keep_visible(&r);
    int n_all = r.n_tests;
    if (o->only_test && keep_only(&r, o->only_test, err, errlen) != 0) {
        gr_rubric_free(&r);
        return GR_STATUS_BAD_INPUT;
    }

    lr->lab = lab;
    lr->name = gr_xstrdup(mod->dir);
    lr->n_tests = r.n_tests;
    lr->tests = gr_xcalloc((size_t)r.n_tests, sizeof *lr->tests);
    for (int i = 0; i < r.n_tests; i++) {
        gr_test_result *tr = &lr->tests[i];
        tr->name = gr_xstrdup(r.tests[i].name);
        tr->max_score = r.tests[i].points;
        tr->visibility = r.tests[i].visibility;
        lr->max_score += tr->max_score;
    }

    char *src = o->sources[lab - 1] ? gr_xstrdup(o->sources[lab - 1])
                                    : found_source(o->submission, in, lab, lr);
    if (!src)
        goto done;

    char *skip = not_run_reason(bg, 0);
    if (skip) {
        fail_all(lr, GR_TIMED_OUT, skip);
        free(skip);
        goto done;
    }
    gr_build b;
    if (o->built[lab - 1])
        gr_build_copy(o->built[lab - 1], &b);
    else if ((rc = build_program(o, &r, lab, src, work, &b, err, errlen)) != 0)
        goto done;
    lr->build_seconds = b.compile_seconds;
    if (!b.ok)
        fail_all(lr, b.verdict, b.message ? b.message : "the lab did not build");
    if (b.log)                            /* a built lab's log is its warnings: shown too */
        lr->compile_log = gr_xstrdup(b.log);
    for (int i = 0; i < r.n_tests; i++)
        r.tests[i].limits.static_bytes = b.static_bytes;   /* measured in the program: it counts */
    const int *order = whole_rubric(o) ? o->order[lab - 1] : NULL;
    for (int k = 0, timeouts = 0; b.ok && k < r.n_tests && rc == 0; k++) {
        int i = order ? order[k] : k;
        if ((skip = not_run_reason(bg, timeouts)) != NULL) {
            fail_from(lr, order, k, GR_TIMED_OUT, skip);
            free(skip);
            break;
        }
        rc = grade_test(o, mod, lab, &r, i, b.exe, &lr->tests[i], err, errlen);
        timeouts += rc == 0 && lr->tests[i].verdict == GR_TIMED_OUT;
        if (rc == 0 && gr_stop_requested())
            rc = GR_STATUS_STOPPED;
        lr->test_seconds += lr->tests[i].seconds;
        lr->score += lr->tests[i].score;
        if (o->first_failure && lr->tests[i].verdict != GR_PASSED)
            break;
    }
    gr_build_free(&b);
done:
    free(src);
    r.n_tests = n_all;
    gr_rubric_free(&r);
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

/* What a lab's worker needs (pool.h). */
typedef struct lab_ctx {
    const gr_grade_opts *o;
    const gr_intake *in;        /* where each lab's file is */
    const char *work;
    budget bg;
} lab_ctx;

/* Grade one lab and time it (pool.h's gr_lab_job); its progress line when asked. */
static int lab_job(void *ctx, int lab, gr_lab_result *lr, char *err, size_t errlen)
{
    const lab_ctx *lc = ctx;
    double t0 = gr_now_seconds();
    int rc = grade_lab(lc->o, lc->in, &lc->bg, lab, lc->work, lr, err, errlen);
    lr->seconds = gr_now_seconds() - t0;
    if (rc == 0 && gr_stop_requested())
        rc = GR_STATUS_STOPPED;
    if (rc == 0 && lc->o->progress)
        fprintf(lc->o->progress, "attnlab: graded %s: built in %.2f s, %d tests ran in %.2f s\n",
                lr->name, lr->build_seconds, lr->n_tests, lr->test_seconds);
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

/* Grade labs[0..n) into out->labs, in worker processes when o->jobs > 1. */
static int grade_labs(const gr_grade_opts *o, const gr_intake *in, const char *work,
                      const int *labs, int n, gr_report *out, char *err, size_t errlen)
{
    lab_ctx lc = {o, in, work, submission_budget(o, labs, n, gr_now_seconds())};
    int rc = 0;
    if (o->jobs > 1 && n > 1) {
        rc = gr_pool_run(lab_job, &lc, labs, n, o->jobs, out->labs, err, errlen);
        out->n_labs = n;
    } else {
        for (int i = 0; i < n && rc == 0; i++, out->n_labs++)
            rc = lab_job(&lc, labs[i], &out->labs[i], err, errlen);
    }
    /* tests are numbered through the whole run, lab by lab */
    int number = 0;
    for (int i = 0; i < out->n_labs; i++) {
        for (int j = 0; j < out->labs[i].n_tests; j++)
            out->labs[i].tests[j].number = ++number;
        out->score += out->labs[i].score;
        out->max_score += out->labs[i].max_score;
    }
    return rc;
}

int gr_grade(const gr_grade_opts *o, gr_report *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    double t0 = gr_now_seconds();
    char *work = gr_work_dir_make("grade", err, errlen);
    if (!work)
        return GR_STATUS_FAILED;
    out->student = gr_xstrdup(o->student);
    out->practice_secret = gr_secret_unfit(o->secret, o->student);
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
    gr_work_dir_remove(work);
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
