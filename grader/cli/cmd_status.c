/* cmd_status.c: `attnlab status`, every lab on one screen.
 *
 * Grades every lab's visible tests at once (one worker per core), then prints
 * one row per lab (passed, partly passed, does not build, not started), the
 * points so far and what to do next, in the spirit of rustlings' list. Each
 * lab's result is recorded in the progress file (progress.h), which keeps
 * when a lab first passed.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/cells.h"
#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/opts.h"
#include "cli/learner.h"
#include "report/report.h"
#include "base/layout.h"

static const gr_cmd_spec status_cmd = {
    .name = "status",
    .synopsis =
    "[--submission DIR]",
    .about =
    "Every lab on one screen: passed, partly passed, does not build or not\n"
    "started, the visible points so far, and the next step. Only the visible\n"
    "tests run, all labs at once (one per core), and a lab whose labNN.c is\n"
    "still the pristine stub (data/stubs/) is not even built, so it takes a\n"
    "few seconds at most; 'attnlab grade' runs every test data/rubrics holds\n"
    "(in the course's tree, the hidden ones too).\n"
    "Progress (when each lab first passed) is kept in\n"
    "$XDG_STATE_HOME/attnlab/progress.tsv\n"
    "(~/.local/state/attnlab/ by default) and shared with 'attnlab watch'.\n",
    .after =
    "Colour unless NO_COLOR is set or stdout is not a tty.\n"
    "Exit status: 0 every lab passes its visible tests, 1 some lab does not\n"
    "yet (or the grader failed), 2 usage error.\n",
    .max_args = 0,
    .in_order = 1,
};

/* ANSI colour of a state's word on a terminal. */
static const char *state_colour(gr_lab_state s)
{
    switch (s) {
    case GR_LAB_PASSED:   return "\033[32m";
    case GR_LAB_PARTLY:   return "\033[33m";
    case GR_LAB_NO_BUILD: return "\033[31m";
    default:              return "";
    }
}

/* One row: lab, state, visible tests passed, points, and since when it passes. */
static void print_row(FILE *out, const gr_lab_result *lr, const gr_lab_progress *lp, int colour)
{
    gr_lab_state s = gr_progress_state_of(lr);
    char tests[32], points[48], since[48] = "";
    snprintf(tests, sizeof tests, "%d/%d", lp->passed, lp->total);
    char p1[GR_POINTS_LEN], p2[GR_POINTS_LEN];
    snprintf(points, sizeof points, "%s/%s", gr_points(p1, lr->score), gr_points(p2, lr->max_score));
    if (s == GR_LAB_PASSED && lp->first_passed > 0) {
        time_t t = (time_t)lp->first_passed;
        struct tm tm;
        if (localtime_r(&t, &tm))
            strftime(since, sizeof since, "since %Y-%m-%d", &tm);
    }
    const char *on = colour ? state_colour(s) : "", *off = colour && *on ? "\033[0m" : "";
    fprintf(out, "  %-16s %s%-15s%s %6s %11s%s%s\n", lr->name, on, gr_progress_state_name(s), off,
            tests, points, *since ? "   " : "", since);
}

int cmd_status_run(FILE *out, FILE *err, const char *root, const char *child_dir, int argc,
                   char **argv)
{
    const char *submission = NULL;
    const gr_opt opts[] = {
        GR_TEXT("submission", 0, &submission, "DIR",
                "folder laid out like labs/ (default: labs/ in the tree; for an\n"
                "installed attnlab, labs/ in the current folder)"),
    };
    int first, rc = gr_opts_parse(&status_cmd, opts, GR_N_OPTS(opts), argc, argv, out, err,
                                  &first);
    if (rc != 0)
        return rc == GR_OPTS_HELP ? GR_EXIT_OK : rc;

    gr_learner L;
    rc = gr_learner_open(&L, err, "status", root, child_dir, submission);
    if (rc != 0)
        return rc;
    int all[GR_N_LABS];
    for (int i = 0; i < GR_N_LABS; i++)
        all[i] = 1;
    gr_report r;
    if ((rc = gr_learner_grade(&L, err, all, &r)) != 0) {
        gr_learner_close(&L);
        return rc;
    }

    int colour = gr_report_term_color_wanted(out), passed = 0;
    const char *adds = gr_learner_grade_adds(&L);
    fprintf(out, "attnlab status: %s (visible tests; 'attnlab grade' %s)\n\n", L.tree, adds);
    fprintf(out, "  %-16s %-15s %6s %11s\n", "lab", "state", "tests", "points");
    for (int i = 0; i < r.n_labs; i++) {
        print_row(out, &r.labs[i], &L.progress.labs[r.labs[i].lab - 1], colour);
        passed += gr_progress_state_of(&r.labs[i]) == GR_LAB_PASSED;
    }
    char p1[GR_POINTS_LEN], p2[GR_POINTS_LEN];
    gr_strbuf share = {0};
    gr_report_text_visible_share(&share, r.labs, r.n_labs);
    fprintf(out, "\n  %d of %d labs pass their visible tests; %s of %s visible points so far.\n",
            passed, r.n_labs, gr_points(p1, r.score), gr_points(p2, r.max_score));
    fprintf(out, share.s ? "  (%s)\n\n" : "\n", share.s);
    free(share.s);

    int next = gr_progress_next(&L.progress);
    if (next == 0) {
        fprintf(out, "Next: every lab passes its visible tests. 'attnlab grade' %s;\n"
                "'attnlab plot entropy' and the others draw your experiments.\n", adds);
    } else {
        const gr_lab_result *lr = &r.labs[next - 1];
        fprintf(out, "Next: %s\n", lr->name);
        gr_learner_hint(out, lr, "  ");
        char *file = gr_layout_name(next, ".c");
        fprintf(out, "  'attnlab watch --lab %d' reruns its tests each time you save %s.\n",
                next, file);
        free(file);
    }
    gr_result_free(&r);
    gr_learner_close(&L);
    return next == 0 ? GR_EXIT_OK : GR_EXIT_FAILED;
}

int cmd_status(int argc, char **argv)
{
    return cmd_status_run(stdout, stderr, NULL, NULL, argc, argv);
}
