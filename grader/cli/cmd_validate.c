/* cmd_validate.c: `attnlab validate`, proving the grader grades right.
 *
 * For every lab: the reference solution must score full marks; the pristine
 * stub (data/stubs/labNN.c, never the student's copy in labs/) must score 0
 * with "not implemented" on every test and nothing worse;
 * every bundled mutant (data/mutants/labNN/manifest.yaml: the solution with the
 * edits the manifest lists, see mutants.h) must get the verdict and the
 * misconception its manifest names, no other misconception, and less than full
 * marks (or, for a mutant marked passed, exactly full marks). First of all,
 * the rules blocks of the stub and the handout must be the text `attnlab rules`
 * makes from the lab's rubric (rules.h): a hand edit there fails validation.
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "grade.h"
#include "stop.h"
#include "labmod.h"
#include "mutants.h"
#include "learn/progress.h"
#include "rules.h"
#include "seed.h"
#include "util.h"

static const char validate_usage[] =
    "usage: attnlab validate [--lab N|all] [--verbose]\n"
    "\n"
    "Check the grader against known submissions: every stub's and handout's\n"
    "rules block is what 'attnlab rules' makes of the lab's rubric, every\n"
    "solution in solutions/ scores full marks, every pristine stub in\n"
    "data/stubs/ scores 0 with 'not implemented' and no crash (the copies in\n"
    "labs/ are the student's and are never read), and every mutant in\n"
    "data/mutants/ gets the verdict and the misconception its manifest\n"
    "expects. Prints one line per check and a last line\n"
    "'validate: N passed, N failed'.\n"
    "\n"
    "  --lab N|all   which labs (default all)\n"
    "  -v, --verbose print the full report of every failing check\n"
    "\n"
    "Exit status: 0 all checks passed, 1 a check failed, 2 usage or data error.\n";

typedef struct tally {
    int passed, failed;
    int verbose;
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
    printf("%s  %s (%g/%g)\n", ok ? "ok  " : "FAIL", what, lr->score, lr->max_score);
    if (ok) {
        t->passed++;
        return;
    }
    t->failed++;
    printf("      %s\n", why);
    if (t->verbose && lr->message)
        printf("%s\n", lr->message);
    for (int i = 0; i < lr->n_tests; i++) {
        const gr_test_result *tr = &lr->tests[i];
        printf("      %-28s %-16s %s\n", tr->name, gr_verdict_name(tr->verdict),
               tr->misconception ? tr->misconception : "");
        if (t->verbose && tr->message)
            printf("%s\n", tr->message);
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
    int shown = 0, other = 0, ok;
    for (int i = 0; i < lr->n_tests; i++) {
        const gr_test_result *tr = &lr->tests[i];
        int named_right = m->misconception && tr->misconception &&
                          strcmp(tr->misconception, m->misconception) == 0;
        if (tr->verdict == m->verdict && (!m->misconception || named_right))
            shown = 1;
        if (tr->misconception && !named_right)
            other = 1;
    }
    if (m->verdict == GR_PASSED) {
        ok = lr->n_tests > 0 && lr->score == lr->max_score && !other;
        snprintf(why, sizeof why, "expected every test to pass (the mutant: %s)", m->why);
    } else {
        ok = shown && !other && lr->score < lr->max_score;
        snprintf(why, sizeof why, "expected a test with verdict '%s'%s%s%s, no other misconception, and less than full marks (the mutant: %s)",
                 gr_verdict_name(m->verdict), m->misconception ? " naming misconception '" : "",
                 m->misconception ? m->misconception : "", m->misconception ? "'" : "", m->why);
    }
    verdict_line(t, ok, what, lr, why);
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
    printf("%s  %s: rules blocks match data/rubrics/lab%02d.yaml\n", rc == 0 ? "ok  " : "FAIL",
           dir, lab);
    if (rc == 0) {
        t->passed++;
    } else {
        t->failed++;
        printf("      %s\n", diff);
    }
    return 0;
}

/* Validate one lab: rules blocks, solution, stub, mutants. -1 on a data error. */
static int validate_lab(tally *t, const gr_grade_opts *base, int lab, char *err, size_t errlen)
{
    const char *dir = gr_lab_modules[lab - 1]->dir;
    if (check_rules(t, base->root, lab, dir, err, errlen) != 0)
        return -1;
    gr_report r;
    char *src = gr_xasprintf("%s/solutions/%s/lab%02d.c", base->root, dir, lab);
    char *what = gr_xasprintf("%s: solution scores full marks", dir);
    int rc = grade_one(base, lab, src, &r, err, errlen);
    if (rc == 0) {
        check_solution(t, &r.labs[0], what);
        gr_report_free(&r);
    }
    free(src);
    free(what);
    if (rc != 0)
        return -1;

    /* the pristine stub, never the copy in labs/ that a student edits */
    src = gr_stub_path(base->root, lab);
    what = gr_xasprintf("%s: stub data/stubs/lab%02d.c scores 0, not implemented", dir, lab);
    rc = grade_one(base, lab, src, &r, err, errlen);
    if (rc == 0) {
        check_stub(t, &r.labs[0], what);
        gr_report_free(&r);
    }
    free(src);
    free(what);
    if (rc != 0)
        return -1;

    char *manifest = gr_xasprintf("%s/data/mutants/lab%02d/manifest.yaml", base->root, lab);
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
    if (rc == 0 && set.n > 0 && !(work = gr_work_dir_make("mutants", err, errlen)))
        rc = -1;
    /* Each mutant is the solution with its edits applied, written to the work folder. */
    src = gr_xasprintf("%s/solutions/%s/lab%02d.c", base->root, dir, lab);
    for (int i = 0; rc == 0 && i < set.n; i++) {
        const gr_mutant *m = &set.mutants[i];
        char *mutant_src;
        rc = gr_mutant_write(&set, m, src, work, &mutant_src, err, errlen);
        if (rc != 0)
            break;
        what = gr_xasprintf("%s: mutant %s -> %s%s%s", dir, m->name, gr_verdict_name(m->verdict),
                            m->misconception ? ", " : "", m->misconception ? m->misconception : "");
        rc = grade_one(base, lab, mutant_src, &r, err, errlen);
        if (rc == 0) {
            check_mutant(t, &r.labs[0], m, what);
            gr_report_free(&r);
        }
        free(what);
        free(mutant_src);
    }
    free(src);
    gr_work_dir_remove(work);
    gr_mutants_free(&set);
    free(manifest);
    return rc;
}

int cmd_validate(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"lab", required_argument, 0, 'l'},
        {"verbose", no_argument, 0, 'v'},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0},
    };
    const char *labs = "all";
    tally t = {0, 0, 0};
    optind = 0;
    opterr = 0;
    int ch;
    while ((ch = getopt_long(argc, argv, "+v", longopts, NULL)) != -1) {
        switch (ch) {
        case 'l': labs = optarg; break;
        case 'v': t.verbose = 1; break;
        case 'h': fputs(validate_usage, stdout); return 0;
        default:  return gr_bad_option("validate", argv[optind - 1]);
        }
    }
    if (optind < argc)
        return gr_usage_error("validate", "unexpected argument '%s'", argv[optind]);

    char err[1024], root[PATH_MAX], stub_dir[PATH_MAX];
    gr_grade_opts o;
    memset(&o, 0, sizeof o);
    if (gr_parse_labs(labs, o.labs, err, sizeof err) != 0)
        return gr_usage_error("validate", "%s", err);
    int want[GR_N_LABS];
    memcpy(want, o.labs, sizeof want);
    if (gr_locate(root, sizeof root, stub_dir, sizeof stub_dir, err, sizeof err) != 0) {
        fprintf(stderr, "attnlab validate: %s\n", err);
        return 2;
    }
    char *solutions = gr_xasprintf("%s/solutions", root);
    int have = access(solutions, R_OK | X_OK) == 0;
    free(solutions);
    if (!have) {
        /* make install and the student kit leave solutions/ and data/mutants out,
           so nobody who can log in to a grading machine can read them */
        fprintf(stderr, "attnlab validate: needs a source tree (its solutions/, data/mutants/ "
                "and handouts), and %s has no solutions/ (an installed copy or a student "
                "kit): run it in the tree, or set ATTNLAB_ROOT to one\n", root);
        return 2;
    }
    o.root = root;
    o.stub_dir = stub_dir;
    o.submission = root;
    o.student = "validate";
    o.secret = GR_PRACTICE_SECRET; /* validation must not depend on an instructor's secret */

    gr_stop_install();
    for (int lab = 1; lab <= GR_N_LABS; lab++) {
        if (want[lab - 1] && validate_lab(&t, &o, lab, err, sizeof err) != 0) {
            fprintf(stderr, "attnlab validate: %s\n", err);
            if (gr_stop_requested())
                gr_stop_reraise();
            return 2;
        }
    }
    printf("validate: %d passed, %d failed\n", t.passed, t.failed);
    return t.failed ? 1 : 0;
}
