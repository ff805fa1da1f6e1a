/* cmd_grade.c: `attnlab grade`, grade a submission and report. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/cells.h"
#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/opts.h"
#include "class/batch_settings.h"
#include "class/regrade.h"
#include "engine/grade.h"
#include "base/pool.h"
#include "report/regrades.h"
#include "report/report.h"
#include "engine/seed.h"
#include "base/stop.h"
#include "base/layout.h"

static const gr_cmd_spec grade_cmd = {
    .name = "grade",
    .synopsis =
    "[--lab N|all] [--submission DIR] [--student ID]\n"
    "                     [--json FILE] [--junit FILE] [--junit-public]\n"
    "                     [--prairielearn FILE] [--prairielearn-compile-errors HOW]\n"
    "                     [--jobs N] [--timing] [--verbose] [--rubrics DIR]\n"
    "                     [--test NAME [--reason TEXT]] [--secret-file FILE]",
    .about =
    "Grade a submission: for each lab, check the sources against the rubric\n"
    "(data/rubrics/labNN.yaml), compile them with the grader's test child,\n"
    "run every test in a sandboxed child and compare with the answer key.\n",
    .after =
    "The instructor's secret comes from ATTNLAB_SECRET or a file; without it a public\n"
    "practice secret is used, and grading a named --student with it warns and marks\n"
    "the results (extra_data.practice_secret). Colour unless NO_COLOR is set or\n"
    "stdout is not a tty.\n"
    "Everything a submission does ends as a verdict on its own lab's tests.\n"
    "Exit status: 0 graded (whatever the score), 1 the grader itself failed or a\n"
    "report could not be written, 2 usage or rubric error, 128+N stopped by\n"
    "signal N (Ctrl-C, kill): work folders removed, no report written.\n",
    .max_args = 0,
    .in_order = 1,
};

/* What the command line asked for, beyond the grading options. */
typedef struct grade_args {
    const char *labs, *json, *junit, *prairielearn;
    const char *only_test;      /* --test: merge into json instead of writing it */
    const char *reason;         /* --reason: recorded with a --test regrade */
    int quiet, timing, verbose, junit_public;
    int pl_compile_graded;      /* --prairielearn-compile-errors graded */
    const char *secret_file;    /* --secret-file, or NULL */
    const char *secret;         /* what gr_seed_secret_load found, signing results.json */
} grade_args;

static int check_regrade(const gr_grade_opts *o, const grade_args *a);

/* --prairielearn-compile-errors graded|not-gradable into *(int *)to (1: graded). */
static int pl_compile_option(void *to, const char *value, char *why, size_t whylen)
{
    if (strcmp(value, "graded") != 0 && strcmp(value, "not-gradable") != 0)
        return gr_opt_fail(why, whylen, "--prairielearn-compile-errors takes graded or "
                             "not-gradable (got '%s')", value);
    *(int *)to = strcmp(value, "graded") == 0;
    return 0;
}

/* Parse argv into o and a: 0, GR_EXIT_USAGE after a usage error, or -1 after
   --help (printed). */
static int parse_args(int argc, char **argv, gr_grade_opts *o, grade_args *a)
{
    const gr_opt opts[] = {
        GR_TEXT("lab", 0, &a->labs, "N|all",
         "which labs: a lab number, a list like 1,3, or all (default)"),
        GR_TEXT("submission", 0, &o->submission, "DIR",
         "the student's folder: lab01-scores/lab01.c as in labs/, or\n"
         "lab01.c, in any case, or inside one wrapping folder\n"
         "(default: labs/ in the tree; for an installed attnlab,\n"
         "labs/ in the current folder)"),
        GR_TEXT("student", 0, &o->student, "ID",
         "student id; with the secret it seeds every test's inputs\n(default: local)"),
        GR_TEXT("json", 0, &a->json, "FILE", "also write Gradescope's results.json to FILE"),
        GR_TEXT("junit", 0, &a->junit, "FILE",
         "also write JUnit XML to FILE (each test's visibility a property)"),
        GR_FLAG("junit-public", 0, &a->junit_public,
         "leave out of the JUnit file the details of tests a student\n"
         "may not see yet (hidden, after_due_date, after_published)"),
        GR_TEXT("prairielearn", 0, &a->prairielearn, "FILE",
         "also write PrairieLearn's results.json to FILE"),
        GR_CALL("prairielearn-compile-errors", 0, pl_compile_option, &a->pl_compile_graded, "HOW",
         "not-gradable (default): a lab that does not compile makes\n"
         "the results \"gradable\": false with the compiler's message,\n"
         "so PrairieLearn charges no attempt; graded: it scores 0"),
        GR_INT("jobs", 0, &o->jobs, "N", "grade N labs at once (default: one per core)", 1, 64,
               "a number of labs from 1 to 64"),
        GR_TEXT("rubrics", 0, &o->rubrics, "DIR",
         "grade against the rubrics DIR/labNN.yaml instead of the\n"
         "course's data/rubrics (the contract headers stay the course's)"),
        GR_TEXT("test", 0, &o->only_test, "NAME",
         "regrade only test NAME of one lab (--lab N) and merge it\n"
         "into the existing results.json given with --json; the\n"
         "regrade (old and new score, when, why) is recorded in it\n"
         "and in regrades.log (DIR/regrades.log for a batch's\n"
         "DIR/students/ID/results.json, else beside it)"),
        GR_TEXT("reason", 0, &a->reason, "TEXT",
         "why, recorded with the regrade (default \"no reason given\")"),
        GR_FLAG("timing", 0, &a->timing,
         "say where the time went: building, the tests, and the\n"
         "grader's own work (expected values, diagnoses), per lab"),
        GR_FLAG("verbose", 'v', &a->verbose,
         "every test of every lab in full (default: a line per lab,\n"
         "then a screenful per lab that needs work: its first\n"
         "failing tests in full, rows for more, how many are left)"),
        GR_FLAG("quiet", 'q', &a->quiet, "no progress lines on stderr"),
        GR_TEXT("secret-file", 0, &a->secret_file, "FILE",
                "the instructor's secret, read from FILE (or from the file\n"
                "ATTNLAB_SECRET_FILE names), never on a command line"),
    };
    int first, rc = gr_opts_parse(&grade_cmd, opts, GR_N_OPTS(opts), argc, argv, stdout, stderr,
                                  &first);
    if (rc != 0)
        return rc;
    char err[256];
    if (gr_layout_parse_labs(a->labs, o->labs, err, sizeof err) != 0)
        return gr_usage_error("grade", "%s", err);
    if (!*o->student)
        return gr_usage_error("grade", "--student needs a non-empty id");
    if (a->junit_public && !a->junit)
        return gr_usage_error("grade", "--junit-public shapes the JUnit file: give --junit FILE too");
    return check_regrade(o, a);
}

/* --test NAME: one lab, and a results.json to merge into. 0, or GR_EXIT_USAGE. */
static int check_regrade(const gr_grade_opts *o, const grade_args *a)
{
    if (!o->only_test && a->reason)
        return gr_usage_error("grade", "--reason is recorded with a regrade: give --test NAME");
    if (!o->only_test)
        return 0;
    int n = 0;
    for (int i = 0; i < GR_N_LABS; i++)
        n += o->labs[i] != 0;
    if (n != 1)
        return gr_usage_error("grade", "--test regrades a test of one lab: give --lab N too");
    if (!a->json)
        return gr_usage_error("grade", "--test merges the regraded test into a results.json: "
                              "give it with --json FILE");
    if (access(a->json, R_OK) != 0)
        return gr_usage_error("grade", "--test merges into an existing results.json, and %s "
                              "cannot be read (%s); grade the whole lab first", a->json,
                              strerror(errno));
    return 0;
}

/* The tree, the child objects and the submission folder (which must exist and be
   a folder): 0, or GR_EXIT_USAGE after saying why. */
static int locate(gr_grade_opts *o, char *root, char *child_dir, char *labs_dir)
{
    char err[1024];
    if (gr_layout_locate(root, PATH_MAX, child_dir, PATH_MAX, err, sizeof err) != 0) {
        fprintf(stderr, "attnlab grade: %s\n", err);
        return GR_EXIT_USAGE;
    }
    o->root = root;
    o->child_dir = child_dir;
    if (!o->submission) {
        char *labs = gr_layout_default_submission(root, err, sizeof err);
        if (!labs) {
            fprintf(stderr, "attnlab grade: %s\n", err);
            return GR_EXIT_USAGE;
        }
        snprintf(labs_dir, PATH_MAX + 8, "%s", labs);
        free(labs);
        o->submission = labs_dir;
    }
    struct stat st;
    if (o->rubrics && (stat(o->rubrics, &st) != 0 || !S_ISDIR(st.st_mode))) {
        char *first = gr_layout_name(1, ".yaml"), *last = gr_layout_name(GR_N_LABS, ".yaml");
        fprintf(stderr, "attnlab grade: --rubrics %s is not a folder; give the folder that "
                "holds %s ... %s\n", o->rubrics, first, last);
        free(first);
        free(last);
        return GR_EXIT_USAGE;
    }
    int found = stat(o->submission, &st) == 0;
    if (!found || !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "attnlab grade: the submission %s %s; give the folder that holds the "
                "lab folders (labNN-name/labNN.c)\n", o->submission,
                found ? "is not a folder" : strerror(errno));
        return GR_EXIT_USAGE;
    }
    return 0;
}

/* Where the time went, per lab and in all (--timing), on stderr. */
static void print_timing(const gr_report *r)
{
    double build = 0, tests = 0, labs = 0;
    fprintf(stderr, "%-18s %8s %8s %8s %8s\n", "lab", "build s", "tests s", "grader s", "total s");
    for (int i = 0; i < r->n_labs; i++) {
        const gr_lab_result *l = &r->labs[i];
        double own = l->seconds - l->build_seconds - l->test_seconds;
        fprintf(stderr, "%-18s %8.2f %8.2f %8.2f %8.2f\n", l->name, l->build_seconds,
                l->test_seconds, own > 0 ? own : 0, l->seconds);
        build += l->build_seconds;
        tests += l->test_seconds;
        labs += l->seconds;
    }
    fprintf(stderr, "%-18s %8.2f %8.2f %8.2f %8.2f  (the labs' sum)\n", "all labs", build, tests,
            labs - build - tests, labs);
    fprintf(stderr, "wall clock: %.2f s for the whole run\n", r->seconds);
}

/* Merge the regraded test of r into the results.json at path: 0, or
   GR_EXIT_FAILED after saying why. */
static int merge_json(const gr_report *r, const char *path, const char *reason,
                      const char *secret)
{
    gr_report old;
    char err[1024];
    if (gr_report_read_json(path, &old, err, sizeof err) != 0) {
        fprintf(stderr, "attnlab grade: cannot merge the regrade: %s\n", err);
        return GR_EXIT_FAILED;
    }
    int rc = GR_EXIT_OK;
    if (!gr_report_is_of(&old, r->student)) {
        /* the seed holds the student id: a regrade for another id tests other numbers */
        fprintf(stderr, "attnlab grade: %s holds the results of student '%s', not '%s'; "
                "regrade with --student %s\n", path, old.student, r->student, old.student);
        rc = GR_EXIT_FAILED;
    } else {
        char *log = gr_regrades_test(&old, r, reason), *dir = gr_regrades_log_dir(path);
        if (gr_report_json(path, &old, secret) != 0) {
            fprintf(stderr, "attnlab grade: cannot write %s: %s\n", path, strerror(errno));
            rc = GR_EXIT_FAILED;
        } else if (gr_regrades_log_append(dir, log, err, sizeof err) != 0) {
            fprintf(stderr, "attnlab grade: %s\n", err);
            rc = GR_EXIT_FAILED;
        } else {
            char p1[GR_POINTS_LEN], p2[GR_POINTS_LEN];
            fprintf(stderr, "attnlab grade: merged %s into %s: %s/%s points in all\n",
                    r->labs[0].tests[0].name, path, gr_points(p1, old.score),
                    gr_points(p2, old.max_score));
        }
        free(log);
        free(dir);
    }
    gr_result_free(&old);
    return rc;
}

/* A regrade merged into a class's results.json grades under the class's
   settings (batch_settings.h): its rubrics, secret and build. 0, or -1 with err. */
static int class_settings(gr_grade_opts *o, const char *json, char **kept, char *err,
                          size_t errlen)
{
    char *dir = gr_regrades_log_dir(json), *paths[GR_SET_COUNT];
    int has[GR_SET_COUNT] = {[GR_SET_RUBRICS] = 1, [GR_SET_SECRET] = 1, [GR_SET_BUILD] = 1};
    gr_batch_opts b = {.rubrics = o->rubrics, .secret = o->secret};
    int rc = gr_batch_settings_use(dir, "grade --test", &b, has, paths, err, errlen);
    o->rubrics = b.rubrics;
    *kept = paths[GR_SET_RUBRICS];
    free(dir);
    return rc < 0 ? -1 : 0;
}

/* The terminal report, and the files asked for: 0, or 1 when one cannot be written. */
static int write_reports(const gr_report *r, const grade_args *a)
{
    gr_report_term(stdout, r, (gr_report_term_color_wanted(stdout) ? GR_TERM_COLOR : 0) |
                                  (a->verbose ? GR_TERM_VERBOSE : 0));
    if (a->timing)
        print_timing(r);
    int rc = 0;
    if (a->json && r->n_labs && a->only_test)
        return merge_json(r, a->json, a->reason, a->secret);
    if (a->json && gr_report_json(a->json, r, a->secret) != 0) {
        fprintf(stderr, "attnlab grade: cannot write %s: %s\n", a->json, strerror(errno));
        rc = GR_EXIT_FAILED;
    }
    int moment = a->junit_public ? GR_SHOWN_AT_SUBMISSION : GR_JUNIT_ALL;
    if (a->junit && gr_report_junit_shown(a->junit, r, moment) != 0) {
        fprintf(stderr, "attnlab grade: cannot write %s: %s\n", a->junit, strerror(errno));
        rc = GR_EXIT_FAILED;
    }
    if (a->prairielearn && gr_report_prairielearn(a->prairielearn, r, a->pl_compile_graded) != 0) {
        fprintf(stderr, "attnlab grade: cannot write %s: %s\n", a->prairielearn, strerror(errno));
        rc = GR_EXIT_FAILED;
    }
    return rc;
}

int cmd_grade(int argc, char **argv)
{
    gr_grade_opts o;
    memset(&o, 0, sizeof o);
    o.student = GR_LOCAL_STUDENT;
    o.jobs = gr_pool_cores();
    grade_args a = {.labs = "all"};
    int rc = parse_args(argc, argv, &o, &a);
    if (rc != 0)
        return rc < 0 ? 0 : rc;
    char root[PATH_MAX], child_dir[PATH_MAX], labs_dir[PATH_MAX + 8];
    if ((rc = locate(&o, root, child_dir, labs_dir)) != 0)
        return rc;
    char err[4096], *kept = NULL;   /* one line per setting that differs */
    if (!(a.secret = o.secret = gr_seed_secret_load(a.secret_file, err, sizeof err))) {
        fprintf(stderr, "attnlab grade: %s\n", err);
        return GR_EXIT_USAGE;
    }
    a.only_test = o.only_test;
    o.progress = a.quiet ? NULL : stderr;
    if (gr_seed_secret_unfit(o.secret, o.student))   /* even with --quiet: a grade is at stake */
        fprintf(stderr, "attnlab grade: %s\n", GR_PRACTICE_WARNING);

    if (a.json && o.only_test && class_settings(&o, a.json, &kept, err, sizeof err) != 0) {
        fprintf(stderr, "attnlab grade: %s\n", err);
        return GR_EXIT_USAGE;
    }
    gr_report r;
    gr_stop_install();
    int graded = gr_grade(&o, &r, err, sizeof err);
    free(kept);
    if (graded != 0) {
        fprintf(stderr, "attnlab grade: %s\n", err);
        if (graded == GR_STATUS_STOPPED)
            gr_stop_reraise();
        return graded == GR_STATUS_BAD_INPUT ? GR_EXIT_USAGE : GR_EXIT_FAILED;
    }
    rc = write_reports(&r, &a);
    gr_result_free(&r);
    return rc;
}
