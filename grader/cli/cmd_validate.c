/* cmd_validate.c: `attnlab validate`, proving the grader grades right.
 *
 * For every lab: the reference solution must score full marks; the pristine
 * stub (data/stubs/labNN.c, never the student's copy in labs/) must score 0
 * with "not implemented" on every test and nothing worse;
 * every bundled mutant (data/mutants/labNN/manifest.yaml: the solution with the
 * edits the manifest lists, see mutants.h) must get the verdict and the
 * misconception its manifest names, no other misconception, and less than full
 * marks (or, for a mutant marked passed, exactly full marks), and the same
 * verdict from the lab's Check file (make check) as from its visible tests
 * (checkfile.h). First of all,
 * the rules blocks of the stub and the handout must be the text `attnlab rules`
 * makes from the lab's rubric (rules.h): a hand edit there fails validation.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/opts.h"
#include "cli/validate.h"
#include "engine/checkfile.h"
#include "engine/fairness.h"
#include "engine/grade.h"
#include "base/stop.h"
#include "base/labmod.h"
#include "engine/mutants.h"
#include "base/pool.h"
#include "learn/progress.h"
#include "engine/rules.h"
#include "engine/seed.h"
#include "base/util.h"
#include "base/layout.h"

static const gr_cmd_spec validate_cmd = {
    .name = "validate",
    .synopsis =
    "[--lab N|all] [--rubrics DIR] [--students K] [--jobs N]\n"
    "                        [--verbose]",
    .about =
    "Check the grader against known submissions: every stub's and handout's\n"
    "rules block is what 'attnlab rules' makes of the lab's rubric, every\n"
    "solution in solutions/ scores full marks, every pristine stub in\n"
    "data/stubs/ scores 0 with 'not implemented' and no crash (the copies in\n"
    "labs/ are the student's and are never read), and every mutant in\n"
    "data/mutants/ gets the verdict and the misconception its manifest\n"
    "expects, named on a visible test too, and every mutant its visible tests\n"
    "fail fails the lab's Check file (make check) too, and the other way round\n"
    "(so a student with that mistake never sees 'passes' from grade, watch,\n"
    "status or make check). A mistake must cost the same points whoever makes it: every\n"
    "mutant is graded again for K student ids, under two secrets, and a\n"
    "lab fails when a mutant's score differs between them (the line names the\n"
    "mutant, its scores and the ids that got each) or when no test on fixed\n"
    "inputs (a rubric seed: the same for every student) catches it. Only the\n"
    "tests whose inputs differ between ids run again; a mutant meant to time\n"
    "out is graded under one id. Prints one line per check and a last line\n"
    "'validate: N passed, N failed'.\n",
    .after =
    "Exit status: 0 all checks passed, 1 a check failed, 2 usage or data error.\n",
    .max_args = 0,
    .in_order = 1,
    .column = 16,
};

typedef struct tally {
    int passed, failed;
    int verbose;
    FILE *out;              /* each check's line */
    int course_checks;      /* the rules blocks and the built-in manifest's points too */
    const gr_draw *draws;   /* the (student, secret) draws every mutant is graded under */
    int n_draws;
    int jobs;               /* mutants graded at once */
    long runs;              /* test runs the draws took, for the summary */
} tally;

/* Grade one lab with src in place of the student's file. */
static int grade_one(const gr_grade_opts *base, int lab, const char *src, gr_report *r,
                     char *err, size_t errlen)
{
    gr_grade_opts o = *base;
    memset(o.labs, 0, sizeof o.labs);
    memset(o.sources, 0, sizeof o.sources);
    o.labs[lab - 1] = 1;
    o.sources[lab - 1] = src;
    return gr_grade(&o, r, err, errlen);
}

/* Print one check's line, and on failure why (and the tests, when verbose). */
static void verdict_line(tally *t, int ok, const char *what, const gr_lab_result *lr,
                         const char *why)
{
    fprintf(t->out, "%s  %s (%g/%g)\n", ok ? "ok  " : "FAIL", what, lr->score, lr->max_score);
    if (ok) {
        t->passed++;
        return;
    }
    t->failed++;
    fprintf(t->out, "      %s\n", why);
    if (t->verbose && lr->message)
        fprintf(t->out, "%s\n", lr->message);
    for (int i = 0; i < lr->n_tests; i++) {
        const gr_test_result *tr = &lr->tests[i];
        fprintf(t->out, "      %-28s %-16s %s\n", tr->name, gr_result_verdict_name(tr->verdict),
               tr->misconception ? tr->misconception : "");
        if (t->verbose && tr->message)
            fprintf(t->out, "%s\n", tr->message);
    }
}

static void check_solution(tally *t, const gr_lab_result *lr, const char *what)
{
    int ok = lr->n_tests > 0;
    for (int i = 0; i < lr->n_tests; i++)
        ok &= lr->tests[i].verdict == GR_PASSED;
    verdict_line(t, ok, what, lr, "a solution must pass every test");
}

static void check_stub(tally *t, const gr_lab_result *lr, const char *what)
{
    int ok = lr->n_tests > 0 && lr->score == 0;
    for (int i = 0; i < lr->n_tests; i++)
        ok &= lr->tests[i].verdict == GR_NOT_IMPLEMENTED;
    verdict_line(t, ok, what, lr, "an untouched stub must get 'not implemented' on every test");
}

static void check_mutant(tally *t, const gr_lab_result *lr, const gr_mutant *m, const char *what)
{
    char why[1024];
    int shown = 0, seen = 0, other = 0, ok;
    for (int i = 0; i < lr->n_tests; i++) {
        const gr_test_result *tr = &lr->tests[i];
        int named_right = m->misconception && tr->misconception &&
                          strcmp(tr->misconception, m->misconception) == 0;
        if (tr->verdict == m->verdict && (!m->misconception || named_right)) {
            shown = 1;
            seen |= tr->visibility == GR_VISIBLE;
        }
        if (tr->misconception && !named_right)
            other = 1;
    }
    if (m->verdict == GR_PASSED) {
        ok = lr->n_tests > 0 && lr->score == lr->max_score && !other;
        snprintf(why, sizeof why, "expected every test to pass (the mutant: %s)", m->why);
    } else {
        /* a misconception a handout names is named on a visible test too, so
           no student tool says "passes" to a student who has it */
        ok = shown && (seen || !m->misconception) && !other && lr->score < lr->max_score;
        snprintf(why, sizeof why, "expected a test with verdict '%s'%s%s%s, no other misconception, and less than full marks (the mutant: %s)",
                 gr_result_verdict_name(m->verdict), m->misconception ? " naming misconception '" : "",
                 m->misconception ? m->misconception : "", m->misconception ? "', one of them visible" : "", m->why);
    }
    verdict_line(t, ok, what, lr, why);
}

/* ---- mutants, graded in parallel under every draw ---------------------------- */

/* What the workers grading one lab's mutants share; the parent fills results. */
typedef struct mutant_task {
    const tally *t;
    const gr_grade_opts *base;
    int lab;
    const gr_mutant_set *set;
    const char *const *srcs;    /* each mutant's source file */
    gr_lab_result *results;     /* [mutant]: the grade under validate's own id */
    gr_fairness *fair;          /* [mutant]: the grades under every draw */
} mutant_task;

/* Mutant i's line of scores under every draw (see mutant_work), its program
   built already in o->built; r is its grade under validate's own id. */
static int draw_scores(const mutant_task *mt, int i, const gr_grade_opts *o, const gr_report *r,
                       gr_strbuf *out, char *err, size_t errlen)
{
    int n = mt->t->n_draws;
    if (mt->set->mutants[i].verdict == GR_TIMED_OUT) {
        /* each draw would wait out the time limit on every test that hangs: a
           mutant meant to hang is graded under validate's id alone (runs -1) */
        gr_sb_printf(out, "-1 0");
        for (int k = 0; k < n; k++)
            gr_sb_printf(out, " %.17g", r->labs[0].score);
        gr_sb_append(out, "\n-\n-\n");
        return 0;
    }
    gr_fairness f;
    int rc = gr_fairness_grade(o, mt->lab, mt->srcs[i], mt->t->draws, n, &f, err, errlen);
    if (rc == 0) {
        gr_sb_printf(out, "%d %.17g", f.runs, f.fixed_points);
        for (int k = 0; k < n; k++)
            gr_sb_printf(out, " %.17g", f.scores[k]);
        gr_sb_printf(out, "\n%s\n%s\n", f.varying ? f.varying : "-",
                     f.fixed_failed ? f.fixed_failed : "-");
    }
    gr_fairness_free(&f);
    return rc;
}

/* In a worker: grade mutant i as `attnlab grade` does, then under every draw,
   its program built once for all of them. Sends "runs fixed_points score
   score ...", the varying tests and the fixed tests failed ("-" for none), a
   line each, then the encoded result. */
static int mutant_work(void *ctx, int i, gr_strbuf *out, char *err, size_t errlen)
{
    const mutant_task *mt = ctx;
    char *work = gr_workdir_make("validate", err, errlen);
    if (!work)
        return GR_STATUS_FAILED;
    gr_build b;
    memset(&b, 0, sizeof b);
    gr_grade_opts o = *mt->base;
    o.built[mt->lab - 1] = &b;
    gr_report r;
    int rc = gr_grade_build(&o, mt->lab, mt->srcs[i], work, &b, err, errlen);
    if (rc == 0 && (rc = grade_one(&o, mt->lab, mt->srcs[i], &r, err, errlen)) == 0) {
        rc = draw_scores(mt, i, &o, &r, out, err, errlen);
        if (rc == 0)
            gr_result_lab_encode(&r.labs[0], out);
        gr_result_free(&r);
    }
    gr_build_free(&b);
    gr_workdir_remove(work);
    return rc;
}

/* The next line of bytes[*at..len) as a malloc'd string, NULL for "-" or none. */
static char *take_line(const char *bytes, size_t len, size_t *at, int *ok)
{
    const char *nl = *at < len ? memchr(bytes + *at, '\n', len - *at) : NULL;
    if (!nl) {
        *ok = 0;
        return NULL;
    }
    size_t n = (size_t)(nl - (bytes + *at));
    char *s = NULL;
    if (!(n == 1 && bytes[*at] == '-')) {
        s = gr_xmalloc(n + 1);
        memcpy(s, bytes + *at, n);
        s[n] = '\0';
    }
    *at += n + 1;
    return s;
}

static int mutant_done(void *ctx, int i, const char *bytes, size_t len, char *err,
                       size_t errlen)
{
    mutant_task *mt = ctx;
    gr_fairness *f = &mt->fair[i];
    int n = mt->t->n_draws, ok = 1;
    size_t at = 0;
    char *head = take_line(bytes, len, &at, &ok), *end = head;
    f->scores = gr_xcalloc((size_t)n, sizeof *f->scores);
    if (ok && head) {
        f->runs = (int)strtol(head, &end, 10);
        f->fixed_points = strtod(end, &end);
        for (int k = 0; k < n; k++)
            f->scores[k] = strtod(end, &end);
        ok = *end == '\0';
    }
    free(head);
    f->varying = take_line(bytes, len, &at, &ok);
    f->fixed_failed = take_line(bytes, len, &at, &ok);
    if (!ok || gr_result_lab_decode(bytes + at, len - at, &mt->results[i]) != 0) {
        gr_set_err(err, errlen, "the worker grading mutant %s sent a malformed result",
                   mt->set->mutants[i].name);
        return GR_STATUS_FAILED;
    }
    return 0;
}

static void mutant_name(void *ctx, int i, char *buf, size_t len)
{
    const mutant_task *mt = ctx;
    snprintf(buf, len, "mutant %s of lab %d", mt->set->mutants[i].name, mt->lab);
}

/* Append "SCORE: id (secret 1), ..." for the draws of s[0..n) scoring s[k],
   or "SCORE: N of the draws" when they are the most common score, at most. */
static void draws_scoring(gr_strbuf *why, const tally *t, const double *s, int n, int k,
                          int majority)
{
    int count = 0;
    for (int j = k; j < n; j++)
        count += s[j] == s[k];
    gr_sb_printf(why, "        %g: ", s[k]);
    if (majority) {
        gr_sb_printf(why, "%d of the %d draws\n", count, n);
        return;
    }
    for (int j = k, first = 1; j < n; j++)
        if (s[j] == s[k]) {
            gr_sb_printf(why, "%s%s (secret %d)", first ? "" : ", ", t->draws[j].student,
                         j % 2 + 1);   /* draws alternate the two secrets */
            first = 0;
        }
    gr_sb_append(why, "\n");
}

/* Why mutant i is unfair, appended to why: a score that differs between draws
   (each score with the draws that got it, and the tests that varied), or a
   mistake no test on fixed inputs catches; or to note, why it was not drawn. */
static void mutant_unfair(const tally *t, const mutant_task *mt, int i, gr_strbuf *why,
                          gr_strbuf *note)
{
    const gr_mutant *m = &mt->set->mutants[i];
    const gr_fairness *f = &mt->fair[i];
    const double *s = f->scores;
    int n = t->n_draws, same = mt->results[i].score == s[0];
    for (int k = 1; k < n; k++)
        same &= s[k] == s[0];
    if (!same) {
        gr_sb_printf(why, "      mutant %s scores differently by student id (tests: %s;"
                     " under validate's own id %g):\n", m->name,
                     f->varying ? f->varying : "none", mt->results[i].score);
        int most = 0, most_count = 0;   /* the most common score is only counted */
        for (int k = 0; k < n; k++) {
            int count = 0;
            for (int j = 0; j < n; j++)
                count += s[j] == s[k];
            if (count > most_count)
                most = k, most_count = count;
        }
        for (int k = 0; k < n; k++) {
            int seen = 0;
            for (int j = 0; j < k && !seen; j++)
                seen = s[j] == s[k];
            if (!seen)
                draws_scoring(why, t, s, n, k, s[k] == s[most]);
        }
    }
    if (f->runs < 0) {
        gr_sb_printf(note, "      (mutant %s, meant to time out, is graded under validate's id "
                     "only: each draw would wait out the time limit)\n", m->name);
        return;
    }
    if (m->verdict != GR_PASSED && !f->fixed_failed && mt->results[i].n_tests > 0 &&
        mt->results[i].tests[0].verdict != GR_COMPILE_ERROR &&
        mt->results[i].tests[0].verdict != GR_FORBIDDEN_CALL)
        gr_sb_printf(why, "      mutant %s is caught by no test on fixed inputs (the same "
                     "for every student): only randomized tests see it\n", m->name);
}

/* One line for the lab: every mutant scores the same under every draw and under
   validate's own id, and a test on fixed inputs catches it; else why not. */
static void check_fairness(tally *t, const mutant_task *mt, const char *dir)
{
    gr_strbuf why = {0}, note = {0};
    double fixed = 0;
    for (int i = 0; i < mt->set->n; i++) {
        mutant_unfair(t, mt, i, &why, &note);
        if (mt->fair[i].fixed_points > fixed)   /* a mutant that did not build has none */
            fixed = mt->fair[i].fixed_points;
    }
    int ok = why.len == 0;
    fprintf(t->out, "%s  %s: every mutant scores the same for %d student ids under 2 secrets and "
           "fails a test on fixed inputs (they carry %g of %g points)\n", ok ? "ok  " : "FAIL",
           dir, t->n_draws, fixed, mt->results[0].max_score);
    if (note.s)
        fputs(note.s, t->out);
    if (ok)
        t->passed++;
    else
        t->failed++, fputs(why.s, t->out);
    free(why.s);
    free(note.s);
}

/* One line for the lab: make check (the lab's Check file) and the visible
   tests (grade, watch, status) give every mutant one verdict. -1 on an error. */
static int check_one_verdict(tally *t, const mutant_task *mt, const char *dir, char *err,
                             size_t errlen)
{
    gr_strbuf why = {0};
    char *solution = gr_layout_solution(mt->base->root, mt->lab);
    int rules, differ = gr_checkfile_mutants(mt->base->root, mt->lab, mt->set, mt->srcs,
                                             mt->results, solution, t->jobs, &why, &rules,
                                             err, errlen);
    free(solution);
    if (differ >= 0) {
        int n = mt->set->n - rules;
        fprintf(t->out, "%s  %s: make check and the visible tests agree on %d of %d mutants%s\n",
               differ ? "FAIL" : "ok  ", dir, n - differ, n,
               rules ? " (and the grader's build refuses the ones with a forbidden call)" : "");
        differ ? t->failed++ : t->passed++;
        if (why.s)
            fputs(why.s, t->out);
    }
    free(why.s);
    return differ < 0 ? -1 : 0;
}

/* Grade the mutants srcs[0..set->n) of lab in t->jobs workers, then check each
   as its manifest says and all of them for fairness. -1 on a grader error. */
static int grade_mutants(tally *t, const gr_grade_opts *base, int lab, const gr_mutant_set *set,
                         const char *const *srcs, char *err, size_t errlen)
{
    const char *dir = gr_layout_dir(lab);
    mutant_task mt = {
        .t = t, .base = base, .lab = lab, .set = set, .srcs = srcs,
        .results = gr_xcalloc((size_t)set->n, sizeof *mt.results),
        .fair = gr_xcalloc((size_t)set->n, sizeof *mt.fair),
    };
    gr_pool_task task = { mutant_work, mutant_done, mutant_name, &mt };
    int rc = gr_pool_map(&task, set->n, t->jobs, err, errlen);
    for (int i = 0; rc == 0 && i < set->n; i++) {
        const gr_mutant *m = &set->mutants[i];
        char *what = gr_xasprintf("%s: mutant %s -> %s%s%s", dir, m->name,
                                  gr_result_verdict_name(m->verdict), m->misconception ? ", " : "",
                                  m->misconception ? m->misconception : "");
        check_mutant(t, &mt.results[i], m, what);
        free(what);
        t->runs += mt.fair[i].runs > 0 ? mt.fair[i].runs : 0;
    }
    if (rc == 0)
        check_fairness(t, &mt, dir);
    if (rc == 0 && t->course_checks)     /* the Check file is the course's, as the rules blocks */
        rc = check_one_verdict(t, &mt, dir, err, errlen);
    for (int i = 0; i < set->n; i++) {
        gr_result_lab_free(&mt.results[i]);
        gr_fairness_free(&mt.fair[i]);
    }
    free(mt.results);
    free(mt.fair);
    return rc == 0 ? 0 : -1;
}

/* The stub's and the handout's rules blocks say what the rubric says. -1 on a
   data error (a rubric or file that cannot be read). */
static int check_rules(tally *t, const char *root, int lab, const char *dir, char *err,
                       size_t errlen)
{
    char diff[2048];
    int rc = gr_rules_check_lab(root, lab, diff, sizeof diff, err, errlen);
    if (rc < 0)
        return -1;
    char *rubric = gr_layout_rubric(NULL, lab);
    fprintf(t->out, "%s  %s: rules blocks match %s\n", rc == 0 ? "ok  " : "FAIL", dir, rubric);
    free(rubric);
    if (rc == 0) {
        t->passed++;
    } else {
        t->failed++;
        fprintf(t->out, "      %s\n", diff);
    }
    return 0;
}

/* Each function's tests are worth the points its manifest gives. -1 on a data
   error (a rubric that cannot be read). */
static int check_points(tally *t, const gr_grade_opts *base, int lab, const char *dir, char *err,
                        size_t errlen)
{
    gr_rubric r;
    char *path = gr_layout_rubric_from(base->root, base->rubrics, lab), why[1024];
    int rc = gr_rubric_load(path, &r, err, errlen);
    free(path);
    if (rc != 0)
        return -1;
    rc = gr_lab_function_points_check(lab, &r, why, sizeof why);
    gr_rubric_free(&r);
    fprintf(t->out, "%s  %s: each function's tests are worth its points in the manifest\n",
           rc == 0 ? "ok  " : "FAIL", dir);
    if (rc == 0) {
        t->passed++;
    } else {
        t->failed++;
        fprintf(t->out, "      %s\n", why);
    }
    return 0;
}

/* Validate one lab: rules blocks and points (the course's checks), solution,
   stub, mutants. -1 on a data error. */
static int validate_lab(tally *t, const gr_grade_opts *base, int lab, char *err, size_t errlen)
{
    const char *dir = gr_layout_dir(lab);
    if (t->course_checks && (check_rules(t, base->root, lab, dir, err, errlen) != 0 ||
                             check_points(t, base, lab, dir, err, errlen) != 0))
        return -1;
    gr_report r;
    char *src = gr_layout_solution(base->root, lab);
    char *what = gr_xasprintf("%s: solution scores full marks", dir);
    int rc = grade_one(base, lab, src, &r, err, errlen);
    if (rc == 0) {
        check_solution(t, &r.labs[0], what);
        gr_result_free(&r);
    }
    free(src);
    free(what);
    if (rc != 0)
        return -1;

    /* the pristine stub, never the copy in labs/ that a student edits */
    src = gr_layout_stub(base->root, lab);
    char *stub = gr_layout_stub(NULL, lab);
    what = gr_xasprintf("%s: stub %s scores 0, not implemented", dir, stub);
    free(stub);
    rc = grade_one(base, lab, src, &r, err, errlen);
    if (rc == 0) {
        check_stub(t, &r.labs[0], what);
        gr_result_free(&r);
    }
    free(src);
    free(what);
    if (rc != 0)
        return -1;

    char *manifest = gr_layout_mutant_manifest(base->root, lab);
    if (access(manifest, R_OK) != 0) { /* a lab may have no mutants */
        free(manifest);
        return 0;
    }
    gr_mutant_set set;
    rc = gr_mutants_load(manifest, &set, err, errlen);
    if (rc == 0 && set.lab != lab) {
        snprintf(err, errlen, "%s: says lab %d, but it is in lab %d's folder", manifest, set.lab, lab);
        rc = -1;
    }
    char *work = NULL;
    if (rc == 0 && set.n > 0 && !(work = gr_workdir_make("mutants", err, errlen)))
        rc = -1;
    /* Each mutant is the solution with its edits applied, written to the work folder. */
    src = gr_layout_solution(base->root, lab);
    char **srcs = gr_xcalloc((size_t)(set.n > 0 ? set.n : 1), sizeof *srcs);
    for (int i = 0; rc == 0 && i < set.n; i++)
        rc = gr_mutants_write(&set, &set.mutants[i], src, work, &srcs[i], err, errlen);
    if (rc == 0 && set.n > 0)
        rc = grade_mutants(t, base, lab, &set, (const char *const *)srcs, err, errlen);
    for (int i = 0; i < set.n; i++)
        free(srcs[i]);
    free(srcs);
    free(src);
    gr_workdir_remove(work);
    gr_mutants_free(&set);
    free(manifest);
    return rc;
}

int gr_validate(const gr_validate_opts *v, int *passed, int *failed, char *err, size_t errlen)
{
    char root[PATH_MAX], child_dir[PATH_MAX];
    if (gr_layout_locate(root, sizeof root, child_dir, sizeof child_dir, err, errlen) != 0)
        return -1;
    char *solutions = gr_layout_folder_of(root, "solutions");
    int have = access(solutions, R_OK | X_OK) == 0;
    free(solutions);
    if (!have) {
        /* make install and the student kit leave solutions/ and data/mutants out,
           so nobody who can log in to a grading machine can read them */
        gr_set_err(err, errlen, "needs a source tree (its solutions/, data/mutants/ and "
                   "handouts), and %s has no solutions/ (an installed copy or a student kit): "
                   "run it in the tree, or set ATTNLAB_ROOT to one", root);
        return -1;
    }
    gr_grade_opts o;
    memset(&o, 0, sizeof o);
    o.root = root;
    o.child_dir = child_dir;
    o.rubrics = v->rubrics;
    o.submission = root;
    o.student = "validate";
    o.secret = GR_PRACTICE_SECRET; /* validation must not depend on an instructor's secret */

    /* Each mutant is graded for `students` ids, every other one under a second
       secret besides the practice one, so neither the id nor the secret may
       matter; validate's own id (practice secret) is one more. */
    tally t = {.verbose = v->verbose, .out = v->out, .jobs = v->jobs, .n_draws = v->students,
               .course_checks = v->course_checks};
    gr_draw *draws = gr_xcalloc((size_t)v->students, sizeof *draws);
    char **ids = gr_xcalloc((size_t)v->students, sizeof *ids);
    for (int i = 0; i < v->students; i++) {
        ids[i] = gr_xasprintf("student%02d", i + 1);
        draws[i] = (gr_draw){ ids[i], i % 2 ? "attnlab validate: a second secret"
                                            : GR_PRACTICE_SECRET };
    }
    t.draws = draws;
    if (!v->course_checks)
        fprintf(v->out, "validate: the labs under the rubrics of %s (the handouts' rules blocks "
                "and the manifest's points built into attnlab are the course's, so not "
                "checked)\n", v->rubrics ? v->rubrics : "the course");
    int rc = 0;
    for (int lab = 1; lab <= GR_N_LABS && rc == 0; lab++)
        if (v->labs[lab - 1])
            rc = validate_lab(&t, &o, lab, err, errlen);
    for (int i = 0; i < v->students; i++)
        free(ids[i]);
    free(ids);
    free(draws);
    *passed = t.passed;
    *failed = t.failed;
    if (rc == 0)
        fprintf(v->out, "validate: %d passed, %d failed (the mutants' tests ran %ld more times "
                "for the other ids)\n", t.passed, t.failed, t.runs);
    return rc;
}

int cmd_validate(int argc, char **argv)
{
    const char *labs = "all";
    gr_validate_opts v = {.students = 8, .jobs = gr_pool_cores(), .out = stdout};
    const gr_opt opts[] = {
        GR_TEXT("lab", 0, &labs, "N|all",
                "which labs (default all)"),
        GR_TEXT("rubrics", 0, &v.rubrics, "DIR",
                "the labs under the labNN.yaml rubrics of DIR instead of the\n"
                "course's (a rubric change proven before a regrade; the rules\n"
                "blocks and each function's points, the course's, are not\n"
                "checked)"),
        GR_INT("students", 0, &v.students, "K",
                "student ids each mutant is graded for (default 8)",
               1, 64, "a number of student ids from 1 to 64"),
        GR_INT("jobs", 0, &v.jobs, "N",
                "mutants graded at once (default: one per core)",
               1, 64, "a number of mutants from 1 to 64"),
        GR_FLAG("verbose", 'v', &v.verbose,
                "print the full report of every failing check"),
    };
    int first, rc = gr_opts_parse(&validate_cmd, opts, GR_N_OPTS(opts), argc, argv, stdout, stderr,
                                  &first);
    if (rc != 0)
        return rc == GR_OPTS_HELP ? GR_EXIT_OK : rc;
    char err[1024];
    if (gr_layout_parse_labs(labs, v.labs, err, sizeof err) != 0)
        return gr_usage_error("validate", "%s", err);
    struct stat st;
    if (v.rubrics && (stat(v.rubrics, &st) != 0 || !S_ISDIR(st.st_mode)))
        return gr_usage_error("validate", "--rubrics %s is not a folder of labNN.yaml rubrics",
                              v.rubrics);
    v.course_checks = !v.rubrics;
    gr_stop_install();
    int passed = 0, failed = 0;
    if (gr_validate(&v, &passed, &failed, err, sizeof err) != 0) {
        fprintf(stderr, "attnlab validate: %s\n", err);
        if (gr_stop_requested())
            gr_stop_reraise();
        return 2;
    }
    return failed ? 1 : 0;
}
