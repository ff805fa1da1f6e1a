/* learner.c: the tree, the visible tests, the progress and the next step,
 * shared by `attnlab status` and `attnlab watch` (see learner.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli/commands.h"
#include "cli/learner.h"
#include "engine/intake.h"
#include "base/pool.h"
#include "report/report.h"
#include "engine/seed.h"
#include "base/stop.h"
#include "base/util.h"
#include "base/layout.h"

int gr_learner_open(gr_learner *L, FILE *err, const char *cmd, const char *root,
                    const char *child_dir, const char *submission)
{
    memset(L, 0, sizeof *L);
    L->cmd = cmd;
    char msg[1024];
    if (root) {
        snprintf(L->root, sizeof L->root, "%s", root);
        snprintf(L->child_dir, sizeof L->child_dir, "%s", child_dir);
    } else if (gr_layout_locate(L->root, sizeof L->root, L->child_dir, sizeof L->child_dir, msg,
                         sizeof msg) != 0) {
        fprintf(err, "attnlab %s: %s\n", cmd, msg);
        return GR_EXIT_USAGE;
    }
    char *labs = submission ? NULL : gr_layout_default_submission(L->root, msg, sizeof msg);
    if (!submission && !labs) {
        fprintf(err, "attnlab %s: %s\n", cmd, msg);
        return GR_EXIT_USAGE;
    }
    const char *sub = submission ? submission : labs;
    struct stat st;
    int found = stat(sub, &st) == 0;
    if (!found || !S_ISDIR(st.st_mode) || !realpath(sub, L->tree)) {
        fprintf(err, "attnlab %s: the submission %s %s; give the folder that holds the lab "
                "folders (labNN-name/labNN.c)\n", cmd, sub,
                found ? "is not a folder" : strerror(errno));
        free(labs);
        return GR_EXIT_USAGE;
    }
    free(labs);

    gr_grade_opts *o = &L->opts;
    o->root = L->root;
    o->child_dir = L->child_dir;
    o->submission = L->tree;
    o->student = "local";
    o->secret = gr_seed_secret_from_env();
    o->jobs = gr_pool_cores();
    o->visible_only = 1;

    /* progress is a convenience: without it the command still grades */
    L->progress_path = gr_progress_path(msg, sizeof msg);
    if (L->progress_path &&
        gr_progress_load(L->progress_path, L->tree, &L->progress, msg, sizeof msg) == 0)
        return 0;
    fprintf(err, "attnlab %s: %s (progress is not kept this time)\n", cmd, msg);
    free(L->progress_path);
    L->progress_path = NULL;
    memset(&L->progress, 0, sizeof L->progress);
    L->progress.tree = gr_xstrdup(L->tree);
    return 0;
}

/* Lab lab's visible tests as an untouched stub gets them, every one "not
   implemented", from its rubric alone: nothing to build or run. 0, or -1 with
   err (the rubric does not load). */
static int untouched_result(const gr_learner *L, int lab, gr_lab_result *lr, char *err,
                            size_t errlen)
{
    char *path = gr_layout_rubric_from(L->root, NULL, lab);
    gr_rubric rb;
    int rc = gr_rubric_load(path, &rb, err, errlen);
    free(path);
    if (rc != 0)
        return -1;
    gr_rubric_keep_visible(&rb);
    memset(lr, 0, sizeof *lr);
    lr->lab = lab;
    lr->name = gr_xstrdup(gr_layout_dir(lab));
    lr->n_tests = rb.n_tests;
    lr->tests = gr_xcalloc((size_t)rb.n_tests + 1, sizeof *lr->tests);
    for (int i = 0; i < rb.n_tests; i++) {
        lr->tests[i].name = gr_xstrdup(rb.tests[i].name);
        lr->tests[i].max_score = rb.tests[i].points;
        lr->tests[i].verdict = GR_NOT_IMPLEMENTED;
        lr->max_score += rb.tests[i].points;
    }
    gr_rubric_free(&rb);
    return 0;
}

/* Grade the labs in want whose file differs from the pristine stub; the
   others get untouched_result. r holds every lab of want in course order. */
static int grade_touched(gr_learner *L, const int want[GR_N_LABS], gr_report *r, char *err,
                         size_t errlen)
{
    int touched[GR_N_LABS], n_touched = 0;
    gr_intake in;
    if (gr_intake_scan(L->tree, &in, err, errlen) != 0)
        return GR_STATUS_BAD_INPUT;
    for (int lab = 1; lab <= GR_N_LABS; lab++) {
        /* a lab missing, ambiguous or not a regular file is graded: its verdict says so */
        const gr_intake_lab *il = &in.labs[lab - 1];
        char *file = il->status == GR_INTAKE_FOUND ? gr_xasprintf("%s/%s", L->tree, il->rel) : NULL;
        touched[lab - 1] = want[lab - 1] && (!file || gr_progress_stub_untouched(L->root, lab, file) != 1);
        n_touched += touched[lab - 1];
        free(file);
    }
    gr_intake_free(&in);
    gr_report graded;
    memset(&graded, 0, sizeof graded);
    memcpy(L->opts.labs, touched, sizeof L->opts.labs);
    int rc = n_touched ? gr_grade(&L->opts, &graded, err, errlen) : 0;
    if (rc != 0)
        return rc;
    /* the graded labs move over as they are; the untouched ones slot in between */
    *r = graded;
    r->labs = gr_xcalloc(GR_N_LABS, sizeof *r->labs);
    r->n_labs = 0;
    r->score = r->max_score = 0;
    for (int lab = 1, k = 0; lab <= GR_N_LABS && rc == 0; lab++) {
        if (touched[lab - 1])
            r->labs[r->n_labs++] = graded.labs[k++];
        else if (want[lab - 1] && (rc = untouched_result(L, lab, &r->labs[r->n_labs], err,
                                                         errlen)) == 0)
            r->n_labs++;
    }
    for (int i = 0; i < r->n_labs; i++) {
        r->score += r->labs[i].score;
        r->max_score += r->labs[i].max_score;
    }
    free(graded.labs);
    if (!r->student)
        r->student = gr_xstrdup(L->opts.student);
    if (rc != 0) {
        gr_result_free(r);
        return GR_STATUS_BAD_INPUT;
    }
    return 0;
}

int gr_learner_grade(gr_learner *L, FILE *err, const int want[GR_N_LABS], gr_report *r)
{
    char msg[1024];
    int rc = grade_touched(L, want, r, msg, sizeof msg);
    if (rc != 0) {
        fprintf(err, "attnlab %s: %s\n", L->cmd, msg);
        if (rc == GR_STATUS_STOPPED)
            gr_stop_reraise();
        return rc == GR_STATUS_BAD_INPUT ? GR_EXIT_USAGE : GR_EXIT_FAILED;
    }
    long long now = (long long)time(NULL);
    for (int i = 0; i < r->n_labs; i++)
        gr_progress_record(&L->progress, &r->labs[i], now);
    if (L->progress_path &&
        gr_progress_save(L->progress_path, &L->progress, msg, sizeof msg) != 0)
        fprintf(err, "attnlab %s: %s\n", L->cmd, msg);
    return 0;
}

char *gr_learner_lab_dir(const gr_learner *L, int lab)
{
    gr_intake in;
    char err[512];
    char *dir = NULL;
    if (gr_intake_scan(L->tree, &in, err, sizeof err) == 0 &&
        in.labs[lab - 1].status == GR_INTAKE_FOUND) {
        dir = gr_xasprintf("%s/%s", L->tree, in.labs[lab - 1].rel);
        *strrchr(dir, '/') = '\0';
    }
    gr_intake_free(&in);
    return dir ? dir : gr_xasprintf("%s/%s", L->tree, gr_layout_dir(lab));
}

/* The first line of s, made safe for a terminal, on out after indent. */
static void put_first_line(FILE *out, const char *indent, const char *s)
{
    char *line = strndup(s ? s : "", strcspn(s ? s : "", "\n"));
    gr_strbuf b = {0};
    gr_report_term_text(&b, line ? line : "");
    fprintf(out, "%s%s\n", indent, b.s ? b.s : "");
    free(b.s);
    free(line);
}

void gr_learner_hint(FILE *out, const gr_lab_result *lr, const char *indent)
{
    int lab = lr->lab, failing = 0;
    const gr_test_result *first = NULL;
    for (int i = 0; i < lr->n_tests; i++) {
        if (lr->tests[i].verdict != GR_PASSED && !failing++)
            first = &lr->tests[i];
    }
    switch (gr_progress_state_of(lr)) {
    case GR_LAB_PASSED:
        fprintf(out, "%sEvery visible test of lab %d passes.\n", indent, lab);
        return;
    case GR_LAB_NOT_STARTED: {
        char *handout = gr_layout_handout(NULL, lab), *file = gr_layout_name(lab, ".c");
        fprintf(out, "%sStart lab %d: read %s, then write the first function of %s\n"
                "%s(each function returns LAB_NOT_IMPLEMENTED until you do).\n",
                indent, lab, handout, file, indent);
        free(handout);
        free(file);
        return;
    }
    case GR_LAB_NO_BUILD:              /* or its file could not be taken: missing ... */
        fprintf(out, "%sLab %d %s (%s), so none of its tests ran:\n", indent, lab,
                first->verdict == GR_MISSING || first->verdict == GR_AMBIGUOUS ||
                        first->verdict == GR_UNREADABLE ? "was not graded" : "does not build",
                gr_result_verdict_name(first->verdict));
        put_first_line(out, indent, lr->message ? lr->message
                                    : first->message ? first->message : lr->compile_log);
        return;
    case GR_LAB_PARTLY:
    case GR_LAB_STATES:
        break;
    }
    fprintf(out, "%sLab %d: %d of %d visible test%s fail%s; the first is %s (%s).\n", indent, lab,
            failing, lr->n_tests, lr->n_tests == 1 ? "" : "s", failing == 1 ? "s" : "",
            first->name, gr_result_verdict_name(first->verdict));
    const gr_misconception *mc = gr_misconception_of(lab, first->misconception);
    if (mc) {
        char *handout = gr_layout_handout_at(mc->handout.lab, mc->handout.section);
        fprintf(out, "%sIt looks like: %s. Reread %s.\n", indent, mc->name, handout);
        free(handout);
    } else if (first->message)
        put_first_line(out, indent, first->message);
}

void gr_learner_close(gr_learner *L)
{
    free(L->progress_path);
    gr_progress_free(&L->progress);
}

const char *gr_learner_grade_adds(const gr_learner *L)
{
    int unseen = 0;
    for (int lab = 1; lab <= GR_N_LABS && !unseen; lab++) {
        char *path = gr_layout_rubric(L->root, lab), err[256];
        gr_rubric r;
        if (gr_rubric_load(path, &r, err, sizeof err) == 0) {
            for (int t = 0; t < r.n_tests; t++)
                unseen |= r.tests[t].visibility != GR_VISIBLE;
            gr_rubric_free(&r);
        }
        free(path);
    }
    return unseen ? "runs the hidden tests too"
                  : "grades the same visible tests; the course grades hidden ones too";
}
