/* cmd_watch.c: `attnlab watch`, the save-and-see loop.
 *
 * Grades one lab's visible tests, then waits (inotify) for a save of a .c or
 * .h file in the lab's folder; on each save it grades again (the grader's own
 * confined build, the sandboxed tests) and shows every visible test's verdict,
 * then the lab as `attnlab grade` shows it (gr_report_term_lab: the compiler's
 * output or warnings, each failing test's feedback and misconception), and
 * the next hint. A pass names the next lab and watch goes on watching (a
 * student hardening passing code still wants each save graded); --once ends
 * it there. Each run is recorded in the progress file that `attnlab status`
 * reads (progress.h).
 *
 * Editors save in two ways: writing the file in place (IN_CLOSE_WRITE) or
 * writing a new file and renaming it over the old (IN_MOVED_TO); both count.
 * A save is usually several events (a backup, the file, a swap file), so
 * watch waits until the folder has been quiet for QUIET_MS before grading.
 */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <time.h>
#include <unistd.h>

#include "base/cells.h"
#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/opts.h"
#include "cli/learner.h"
#include "report/report.h"
#include "base/stop.h"
#include "base/layout.h"

#define QUIET_MS 40          /* a save's events arrive within a few ms of each other */

static const gr_cmd_spec watch_cmd = {
    .name = "watch",
    .synopsis =
    "[--lab N] [--submission DIR] [--timeout SECONDS] [--once]",
    .about =
    "Grade one lab's visible tests, then again each time you save a .c or .h\n"
    "file in its folder (about 0.2 s from save to verdict on 2 cores): every test's\n"
    "verdict, then the lab as 'attnlab grade' shows it (the compiler's errors or\n"
    "warnings, each failing test's feedback and misconception) and a hint. When\n"
    "the lab passes, watch names the next lab and keeps watching: save again to\n"
    "regrade. Progress is kept with 'attnlab status''s, in\n"
    "$XDG_STATE_HOME/attnlab/progress.tsv.\n",
    .after =
    "Exit status: 0 the lab passes (at --once's pass, or when --timeout ends watch),\n"
    "1 --timeout ended watch without a pass, or the grader failed, 2 usage error,\n"
    "128+N stopped by signal N (Ctrl-C).\n",
    .max_args = 0,
    .in_order = 1,
};

/* What the command line asked for. */
typedef struct watch_args {
    int lab;                 /* 0: the next lab from the progress */
    const char *submission;
    double timeout;          /* seconds; 0: never */
    int once;                /* 1: end at the first pass */
} watch_args;

/* --timeout SECONDS into *(double *)to: above 0, at most 1e6. */
static int timeout_option(void *to, const char *value, char *why, size_t whylen)
{
    char *end;
    double t = strtod(value, &end);
    if (end == value || *end || !(t > 0 && t <= 1e6))
        return gr_opt_fail(why, whylen, "--timeout takes a number of seconds above 0 "
                             "(got '%s')", value);
    *(double *)to = t;
    return 0;
}

/* Parse argv into a: 0, GR_EXIT_USAGE after one line on err, or -1 after --help. */
static int parse_args(FILE *out, FILE *err, int argc, char **argv, watch_args *a)
{
    char what[48];
    snprintf(what, sizeof what, "one lab number from 1 to %d", GR_N_LABS);
    const gr_opt opts[] = {
        GR_INT("lab", 0, &a->lab, "N",
                "the lab to watch (default: the first that has not\n"
                "passed, as 'attnlab status' last saw it)",
               1, GR_N_LABS, what),
        GR_TEXT("submission", 0, &a->submission, "DIR",
                "folder laid out like labs/ (default: labs/ in the tree; for an\n"
                "installed attnlab, labs/ in the current folder)"),
        GR_CALL("timeout", 0, timeout_option, &a->timeout, "SECONDS",
                "stop after this long (default: never; Ctrl-C stops watch\n"
                "at any time)"),
        GR_FLAG("once", 0, &a->once,
                "stop as soon as the lab passes"),
    };
    int first;
    return gr_opts_parse(&watch_cmd, opts, GR_N_OPTS(opts), argc, argv, out, err, &first);
}

/* A file whose save should regrade: a .c or .h that is not hidden (editors'
   swap and backup files start with '.' or end in '~'). */
static int lab_file(const char *name)
{
    size_t n = strlen(name);
    return name[0] != '.' && n > 2 && name[n - 2] == '.' && (name[n - 1] == 'c' || name[n - 1] == 'h');
}

/* Read every pending event on fd; the name of the last lab file saved into
   saved (kept when none was). -1 when the folder itself went away. */
static int drain(int fd, char *saved, size_t savedlen)
{
    char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
    for (;;) {
        ssize_t n = read(fd, buf, sizeof buf);
        if (n <= 0)
            return 0;                     /* EAGAIN: nothing more for now */
        for (char *p = buf; p < buf + n;) {
            const struct inotify_event *ev = (const struct inotify_event *)p;
            if (ev->mask & (IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED))
                return -1;
            if (ev->len && lab_file(ev->name))
                snprintf(saved, savedlen, "%s", ev->name);
            p += sizeof *ev + ev->len;
        }
    }
}

/* "lab02-softmax: 3.65/3.65 (3.65 of 14 points visible; 10.35 in hidden
   tests, not run here)": what the visible tests give, and their share. */
static void points_line(FILE *out, const gr_lab_result *lr)
{
    char p1[GR_POINTS_LEN], p2[GR_POINTS_LEN];
    gr_strbuf share = {0};
    gr_report_text_visible_share(&share, lr, 1);
    fprintf(out, "%s: %s/%s%s%s%s\n", lr->name, gr_points1(p1, lr->score),
            gr_points1(p2, lr->max_score), share.s ? " (" : "", share.s ? share.s : "",
            share.s ? ")" : "");
    free(share.s);
}

/* Grade lab once and show it: every visible test's verdict, the lab as grade
   shows it, the hint; *passed says whether it passes. saved names the file
   whose save at t_saved started it (NULL: watch's first run). 0, or an exit
   status when grading failed. */
static int grade_and_show(FILE *out, FILE *err, gr_learner *L, int lab, const char *saved,
                          double t_saved, int *passed)
{
    int want[GR_N_LABS] = {0};
    want[lab - 1] = 1;
    gr_report r;
    int rc = gr_learner_grade(L, err, want, &r);
    if (rc != 0)
        return rc;
    const gr_lab_result *lr = &r.labs[0];
    char stamp[16] = "";
    time_t now = time(NULL);
    struct tm tm;
    if (localtime_r(&now, &tm))
        strftime(stamp, sizeof stamp, "%H:%M:%S", &tm);
    double took = gr_now_seconds() - t_saved;
    if (saved)
        fprintf(out, "\n[%s] %s saved: lab %d's visible tests, verdict %.2f s after the save\n",
                stamp, saved, lab, took);
    else
        fprintf(out, "\n[%s] lab %d's visible tests, graded in %.2f s\n", stamp, lab, took);
    for (int i = 0; i < lr->n_tests; i++)
        fprintf(out, "  %-16s %s\n", gr_result_verdict_name(lr->tests[i].verdict),
                lr->tests[i].name);
    fputc('\n', out);
    int block = gr_report_term_lab(out, lr, gr_report_term_color_wanted(out) ? GR_TERM_COLOR : 0);
    if (!block)   /* the block ends with the same line */
        points_line(out, lr);
    gr_lab_state s = gr_progress_state_of(lr);
    /* a pass is said by point_to_next, a build's failure by the block */
    if (s != GR_LAB_PASSED && !(block && s == GR_LAB_NO_BUILD)) {
        fputc('\n', out);
        gr_learner_hint(out, lr, "  ");
    }
    fflush(out);
    gr_result_free(&r);
    *passed = s == GR_LAB_PASSED;
    return 0;
}

/* After lab passed: name the next lab to do, from the progress; say
   whether watch goes on. */
static void point_to_next(FILE *out, const gr_learner *L, int lab, int once)
{
    int next = 0;
    for (int k = lab + 1; k <= GR_N_LABS && !next; k++)
        if (L->progress.labs[k - 1].state != GR_LAB_PASSED)
            next = k;
    if (!next)
        next = gr_progress_next(&L->progress);
    if (next)
        fprintf(out, "\nLab %d passes its visible tests. Next: lab %d, %s: read its README.md, "
                "then\n  attnlab watch --lab %d\n", lab, next, gr_layout_dir(next), next);
    else
        fprintf(out, "\nLab %d passes its visible tests, and so does every other lab. "
                "'attnlab grade'\n%s.\n", lab, gr_learner_grade_adds(L));
    if (!once)
        fprintf(out, "Still watching lab %d: each save is graded again (Ctrl-C stops; --once "
                "ends at a pass).\n", lab);
    fflush(out);
}

/* Wait for the next save of a lab file: 1 with its name in saved and its time
   in *t_saved, 0 when deadline (seconds on gr_now_seconds's clock; 0: none)
   passes, -1 when the folder went away. A Ctrl-C ends watch here. */
static int next_save(FILE *out, int fd, double deadline, char *saved, size_t len, double *t_saved)
{
    struct pollfd p = {fd, POLLIN, 0};
    for (;;) {
        /* a quarter of a second at most: a Ctrl-C that lands between the
           check below and poll would otherwise wait for the next save */
        int wait_ms = 250;
        if (deadline > 0) {
            double left = deadline - gr_now_seconds();
            if (left <= 0)
                return 0;
            if (left * 1000 < wait_ms)
                wait_ms = (int)(left * 1000) + 1;
        }
        int ready = gr_stop_requested() ? 0 : poll(&p, 1, wait_ms);
        if (gr_stop_requested()) {
            fputs("\nattnlab watch: stopped.\n", out);
            fflush(out);
            gr_stop_reraise();
        }
        if (ready <= 0)
            continue;                        /* timed out (checked above) or EINTR */
        *t_saved = gr_now_seconds();
        saved[0] = '\0';
        int gone = drain(fd, saved, len);
        /* the rest of this save's events: wait until the folder is quiet */
        while (gone == 0 && poll(&p, 1, QUIET_MS) > 0)
            gone = drain(fd, saved, len);
        if (gone)
            return -1;
        if (saved[0])
            return 1;
    }
}

/* Grade, then regrade at each save: until the lab passes (--once), the time
   runs out, or Ctrl-C. */
static int watch_loop(FILE *out, FILE *err, gr_learner *L, int lab, int fd, const watch_args *a)
{
    double start = gr_now_seconds(), deadline = a->timeout > 0 ? start + a->timeout : 0;
    int passed = 0, rc = grade_and_show(out, err, L, lab, NULL, start, &passed);
    while (rc == 0) {
        if (passed)
            point_to_next(out, L, lab, a->once);
        if (passed && a->once)
            return GR_EXIT_OK;
        char saved[NAME_MAX + 1];
        double t_saved = 0;
        int got = next_save(out, fd, deadline, saved, sizeof saved, &t_saved);
        if (got < 0) {
            fprintf(err, "attnlab watch: the lab's folder was removed or moved; start watch "
                    "again\n");
            return GR_EXIT_FAILED;
        }
        if (got == 0) {
            fprintf(out, passed ? "\nattnlab watch: %g s are up; the lab passes.\n"
                                : "\nattnlab watch: no pass within %g s; stopping.\n", a->timeout);
            fflush(out);
            return passed ? GR_EXIT_OK : GR_EXIT_FAILED;
        }
        rc = grade_and_show(out, err, L, lab, saved, t_saved, &passed);
    }
    if (gr_stop_requested()) {               /* Ctrl-C while a save was being graded */
        fputs("\nattnlab watch: stopped.\n", out);
        fflush(out);
        gr_stop_reraise();
    }
    return rc;
}

int cmd_watch_run(FILE *out, FILE *err, const char *root, const char *child_dir, int argc,
                  char **argv)
{
    watch_args a = {0, NULL, 0, 0};
    int rc = parse_args(out, err, argc, argv, &a);
    if (rc != 0)
        return rc < 0 ? GR_EXIT_OK : rc;
    gr_learner L;
    if ((rc = gr_learner_open(&L, err, "watch", root, child_dir, a.submission)) != 0)
        return rc;
    int lab = a.lab ? a.lab : gr_progress_next(&L.progress);
    if (lab == 0) {
        fputs("Every lab passed its visible tests when last graded; give --lab N to watch "
              "one again.\n", out);
        gr_learner_close(&L);
        return GR_EXIT_OK;
    }
    char *dir = gr_learner_lab_dir(&L, lab);
    int fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (fd < 0 || inotify_add_watch(fd, dir, IN_CLOSE_WRITE | IN_MOVED_TO | IN_DELETE_SELF |
                                                 IN_MOVE_SELF | IN_ONLYDIR | IN_DONT_FOLLOW) < 0) {
        fprintf(err, "attnlab watch: cannot watch %s: %s%s\n", dir, strerror(errno),
                errno == ENOSPC ? " (raise fs.inotify.max_user_watches)" : "");
        if (fd >= 0)
            close(fd);
        free(dir);
        gr_learner_close(&L);
        return GR_EXIT_FAILED;
    }
    char *file = gr_layout_name(lab, ".c");
    fprintf(out, "attnlab watch: lab %d, %s/ (save %s to regrade; Ctrl-C to stop)\n", lab,
            dir, file);
    free(file);
    fflush(out);
    gr_stop_install();
    rc = watch_loop(out, err, &L, lab, fd, &a);
    close(fd);
    free(dir);
    gr_learner_close(&L);
    return rc;
}

int cmd_watch(int argc, char **argv)
{
    return cmd_watch_run(stdout, stderr, NULL, NULL, argc, argv);
}
