/* cmd_batch.c: `attnlab batch`, grade a whole class into a gradebook and a
 * class report (batch.h, classreport.h). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "class/batch.h"
#include "class/classout.h"
#include "class/shard.h"
#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/opts.h"
#include "cli/validate.h"
#include "class/regrade.h"
#include "class/course.h"
#include "class/export.h"
#include "class/handin.h"
#include "engine/grade.h"
#include "base/pool.h"
#include "engine/seed.h"
#include "base/stop.h"
#include "base/layout.h"

static const gr_cmd_spec batch_cmd = {
    .name = "batch",
    .synopsis =
    "SUBMISSIONS --out DIR [--jobs N] [--roster FILE]\n"
    "                     [--course FILE] [--times FILE | --file-times] [--accept-late]\n"
    "                     [--lab N|all] [--rubrics DIR [--reason TEXT]] [--restart]\n"
    "                     [--csv-bom] [--export canvas|moodle|generic]\n"
    "                     [--shard K/N] [--secret-file FILE]\n"
    "                     [--change NAME --reason TEXT] [-q]",
    .about =
    "Grade a class: each folder of SUBMISSIONS is one student, named by their id,\n"
    "with the labs in the labs/ layout (lab01-scores/lab01.c) or flat (lab01.c),\n"
    "in any case, or inside one wrapping folder (man attnlab: SUBMISSIONS).\n"
    "A Gradescope export (its submission folders and, beside them,\n"
    "submission_metadata.yml) is read as Gradescope wrote it: each student is named\n"
    "by the first submitter's email (else their sid), as run_autograder names them,\n"
    "so a regrade gives the fleet's grade; a group's other submitters share it.\n"
    "Writes to DIR:\n"
    "  students/ID/results.json   Gradescope's format, misconceptions as data\n"
    "  students/ID/feedback.txt   the report the student would see on a terminal\n"
    "  gradebook.csv              one row per student: id, name, email, each lab, total,\n"
    "                             under a \"Points possible\" row; text cells quoted,\n"
    "                             and a cell (or a piece after , ; tab or a line end)\n"
    "                             a spreadsheet would run as a formula gets a leading '\n"
    "  tests.csv                  one row per student, one column per test (labNN-name.test):\n"
    "                             the points of each test, cells as the gradebook's\n"
    "  report.md                  the class report (also printed): scores, distribution,\n"
    "                             tests most often failed and misconceptions to reteach\n"
    "                             (over the students who attempted each lab), time-outs,\n"
    "                             crashes, forbidden calls, compile errors, missing files,\n"
    "                             mistakes not in the catalogue (clusters of students\n"
    "                             whose fixed-input outputs are identical and wrong)\n"
    "  clusters.json              those clusters as data: lab, students, and per test\n"
    "                             the excerpt and relation (\"0.25 x the expected\")\n"
    "  histogram.dat, .png        the totals' distribution (the PNG needs gnuplot)\n"
    "  report.html                the class report to click through, one file (no script,\n"
    "                             nothing fetched, printable): distribution, item analysis\n"
    "                             (pass rate, discrimination, flagged tests), verdicts,\n"
    "                             misconceptions, similar files, a section per student\n",
    .after =
    "Stopped (Ctrl-C, kill, even kill -9) and run again with the same options, it\n"
    "grades only the students without a results.json: each is written whole or not\n"
    "at all. A results.json is reused only while what it was graded from holds\n"
    "(students/ID/key: the student's files, the rubrics and contract headers, the\n"
    "secret and attnlab itself); a student who handed in again, a fixed rubric or\n"
    "a new secret is graded again, with a line saying so. When only a lab's rubric\n"
    "or contract header changed (an edited rubric, --rubrics DIR), only that lab is\n"
    "regraded, after attnlab validate's checks pass on that lab under the rubric\n"
    "(else nothing is graded: exit 2, naming the lab and each failed check); the\n"
    "change (every setting, old and new value) and every test whose score changed\n"
    "are recorded in DIR/regrades.log\n"
    "and the student's results.json (extra_data.regrades: when, lab, test, old,\n"
    "new, reason, what changed in the rubric); DIR/rubrics.state keeps what each\n"
    "lab was graded with. Hand-in times come from\n"
    "the instructor's side only: --times FILE, else the export's\n"
    "submission_metadata.yml, else none (no one is late); a file in a student's\n"
    "folder is never read for a time or an id. The report says where they came from.\n"
    "The instructor's secret comes from ATTNLAB_SECRET, or --secret-file, as for grade.\n"
    "Every run writes DIR/run.txt last: what it was graded from (digests of attnlab,\n"
    "rubrics, course policy, roster and times; the secret's check value) and its\n"
    "students.\n"
    "The class folder remembers its settings: the first batch records the roster,\n"
    "course policy, times, rubrics, labs, secret and build, and keeps copies of\n"
    "their files in DIR; a later run that leaves a flag off uses the class's, and\n"
    "one whose flags differ from the record refuses, naming each difference,\n"
    "unless --change names it.\n"
    "Exit status: 0 graded, 1 the grader failed or a file could not be written,\n"
    "2 usage, roster, course, times or rubric error or a refused late policy, 128+N\n"
    "stopped by signal N.\n",
    .max_args = 1,
    .column = 19,
};

/* What the command line asked for, beyond the batch options. */
typedef struct batch_args {
    const char *labs, *course, *out;
    int quiet;
    int csv_bom;      /* --csv-bom */
    const char *export_format;   /* --export, or NULL */
    const char *secret_file;     /* --secret-file, or NULL */
} batch_args;

/* --reason TEXT, or labNN=TEXT for one lab, into the batch options to. */
static int reason_option(void *to, const char *text, char *why, size_t whylen)
{
    gr_batch_opts *o = to;
    int lab = 0, at = 0;
    if (sscanf(text, "lab%2d=%n", &lab, &at) == 1 && at > 0) {
        if (lab < 1 || lab > GR_N_LABS || o->lab_reason[lab - 1])
            return gr_opt_fail(why, whylen, "--reason %.*s: %s", at - 1, text,
                               lab < 1 || lab > GR_N_LABS ? "no such lab"
                               : "that lab's reason is given twice");
        o->lab_reason[lab - 1] = text + at;
        return 0;
    }
    if (o->reason)
        return gr_opt_fail(why, whylen, "--reason is given twice; for two labs give each its "
                           "own, --reason lab02=TEXT --reason lab07=TEXT");
    o->reason = text;
    return 0;
}

/* --change NAME[,NAME...] into the batch options to. */
static int change_option(void *to, const char *arg, char *why, size_t whylen)
{
    gr_batch_opts *o = to;
    char *copy = gr_xstrdup(arg), *save = NULL;
    int rc = 0;
    for (char *t = strtok_r(copy, ",", &save); t && rc == 0; t = strtok_r(NULL, ",", &save)) {
        int k = gr_class_setting_of(t);
        if (k < 0)
            rc = gr_opt_fail(why, whylen, "--change takes roster, course, times, rubrics, labs, "
                             "secret or build (got '%s')", t);
        else
            o->change[k] = 1;
    }
    free(copy);
    return rc;
}

/* --shard K/N into the batch options to. */
static int shard_option(void *to, const char *value, char *why, size_t whylen)
{
    gr_batch_opts *o = to;
    return gr_shard_parse(value, &o->shard_k, &o->shard_n, why, whylen) == 0 ? 0 : -1;
}

/* Parse argv into o and a: 0, GR_EXIT_USAGE after a usage error, or
   GR_OPTS_HELP after --help (printed). */
static int parse_args(int argc, char **argv, gr_batch_opts *o, batch_args *a)
{
    const gr_opt opts[] = {
        GR_TEXT("out", 0, &a->out, "DIR",
                "where the results go (made if missing)"),
        GR_INT("jobs", 0, &o->jobs, "N",
                "students graded at once (default: one per core)",
               1, 64, "a number of students from 1 to 64"),
        GR_TEXT("roster", 0, &o->roster, "FILE",
                "YAML: students: [{id: s001, name: ..., email: ...}], and for\n"
                "--export sis_user_id, sis_login_id and section"),
        GR_TEXT("course", 0, &a->course, "FILE",
                "course.yaml, the late policy: due dates per lab, grace_minutes,\n"
                "late_penalty_percent (per day), max_late_days, extensions per\n"
                "student (data/course.example.yaml); the gradebook then has\n"
                "raw, days late and adjusted columns"),
        GR_TEXT("times", 0, &o->times, "FILE",
                "the hand-in times: YAML (s001: 2025-02-07T23:41:00-05:00) or\n"
                "CSV (id,time lines) when FILE ends in .csv; in place of an\n"
                "export's times"),
        GR_FLAG("file-times", 0, &o->file_times,
                "each lab file's modification time is its hand-in time (only\n"
                "for folders whose file times you trust: a copy resets them)"),
        GR_FLAG("accept-late", 0, &o->accept_late,
                "grade even when more than half of the class would be late or\n"
                "a time is after the batch started (refused otherwise)"),
        GR_TEXT("lab", 0, &a->labs, "N|all",
                "which labs (default all)"),
        GR_TEXT("rubrics", 0, &o->rubrics, "DIR",
                "grade against the rubrics DIR/labNN.yaml instead of the course's"),
        GR_CALL("reason", 0, reason_option, o, "TEXT",
                "why the rubrics changed, recorded with each regrade (default\n"
                "\"no reason given\"); labNN=TEXT gives one lab's (repeat it for\n"
                "each), and a plain TEXT serves only when one lab changed"),
        GR_FLAG("restart", 0, &o->restart,
                "regrade every student, ignoring results already in DIR"),
        GR_FLAG("csv-bom", 0, &a->csv_bom,
                "start gradebook.csv with a UTF-8 byte order mark, so that\n"
                "Excel shows non-ASCII names right (LMS imports need none)"),
        GR_TEXT("export", 0, &a->export_format, "FORMAT",
                "also write DIR/canvas.csv, moodle.csv or generic.csv for an\n"
                "LMS import, as attnlab export DIR --format FORMAT (with\n"
                "--roster, its SIS ids and sections)"),
        GR_CALL("shard", 0, shard_option, o, "K/N",
                "grade only the K-th of N slices of the class (K from 1), for\n"
                "a batch spread over machines: each student's slice follows\n"
                "from their id alone; DIR then holds that slice and run.txt,\n"
                "and attnlab merge joins the N folders into one gradebook"),
        GR_CALL("change", 0, change_option, o, "NAME",
                "let setting NAME differ from what the class recorded (roster,\n"
                "course, times, rubrics, labs, secret or build; repeat it or\n"
                "give a comma list); without its flag, drop it. Needs --reason,\n"
                "recorded in DIR/regrades.log"),
        GR_TEXT("secret-file", 0, &a->secret_file, "FILE",
                "the instructor's secret, read from FILE (or from the file\n"
                "ATTNLAB_SECRET_FILE names), never on a command line"),
        GR_FLAG("quiet", 'q', &a->quiet,
                "no progress on stderr"),
    };
    int first, rc = gr_opts_parse(&batch_cmd, opts, GR_N_OPTS(opts), argc, argv, stdout, stderr,
                                  &first);
    if (rc != 0)
        return rc;
    if (first >= argc)
        return gr_usage_error("batch", "give the folder of submissions (one folder per student)");
    o->submissions = argv[first];
    if (!a->out)
        return gr_usage_error("batch", "give the folder for the results with --out DIR");
    for (int k = 0; k < GR_SET_COUNT; k++)
        if (o->change[k] && !o->reason)
            return gr_usage_error("batch", "--change %s needs --reason TEXT: why the class's "
                                  "%s changes, for regrades.log", gr_class_setting_name(k),
                                  gr_class_setting_name(k));
    if (o->times && o->file_times)
        return gr_usage_error("batch", "--times FILE and --file-times are two sources of the "
                              "hand-in times; give one");
    gr_export_format f;
    if (a->export_format && gr_export_format_parse(a->export_format, &f) != 0)
        return gr_usage_error("batch", "--export takes canvas, moodle or generic (got '%s')",
                              a->export_format);
    if (a->export_format && o->shard_n > 1)
        return gr_usage_error("batch", "--export needs the whole class's gradebook, which a "
                              "shard does not write: run attnlab export on the merged folder");
    char err[256];
    o->labs_given = a->labs != NULL;
    if (gr_layout_parse_labs(a->labs ? a->labs : "all", o->labs, err, sizeof err) != 0)
        return gr_usage_error("batch", "%s", err);
    struct stat st;
    if (stat(o->submissions, &st) != 0 || !S_ISDIR(st.st_mode))
        return gr_usage_error("batch", "the submissions %s is not a folder; give the folder "
                              "that holds one folder per student", o->submissions);
    char *below = gr_handin_below(o->submissions);     /* kept for the whole run */
    if (below) {
        fprintf(stderr, "attnlab batch: %s holds one folder, a Gradescope export: grading %s\n",
                o->submissions, below);
        o->submissions = below;
    }
    if (o->rubrics && (stat(o->rubrics, &st) != 0 || !S_ISDIR(st.st_mode)))
        return gr_usage_error("batch", "--rubrics %s is not a folder of labNN.yaml rubrics",
                              o->rubrics);
    o->out = a->out;
    return 0;
}

/* Each changed lab's reason: a plain --reason serves one changed lab only,
   so that no reason is recorded for a change it was not written for; a lab's
   own reason for an unchanged lab is noted. 0, or -1 said on stderr. */
static int check_reasons(const gr_batch_opts *o, const int changed[GR_N_LABS])
{
    gr_strbuf plain = {0};
    int n = 0;
    for (int lab = 1; lab <= GR_N_LABS; lab++) {
        if (changed[lab - 1] && !o->lab_reason[lab - 1])
            gr_sb_printf(&plain, "%s%s", n++ ? ", " : "", gr_layout_dir(lab));
        if (!changed[lab - 1] && o->lab_reason[lab - 1] && o->progress)
            fprintf(o->progress, "attnlab batch: --reason lab%02d=...: %s's rubric did not "
                    "change since %s was graded; nothing of it is regraded\n", lab,
                    gr_layout_dir(lab), o->out);
    }
    if (o->reason && n > 1)
        fprintf(stderr, "attnlab batch: refusing to regrade: one --reason for %d changed labs "
                "(%s); give each its own, --reason labNN=TEXT, so each change is recorded "
                "with why it was made\n", n, plain.s);
    free(plain.s);
    return o->reason && n > 1 ? -1 : 0;
}

/* The lines of a validate run that say what failed: each "FAIL" line and the
   indented lines under it (malloc'd). */
static char *failed_checks(const char *text)
{
    gr_strbuf b = {0};
    int in = 0;
    for (const char *p = text; *p; ) {
        size_t n = strcspn(p, "\n");
        in = strncmp(p, "FAIL", 4) == 0 || (in && strncmp(p, "      ", 6) == 0);
        if (in)
            gr_sb_printf(&b, "  %.*s\n", (int)n, p);
        p += n + (p[n] == '\n');
    }
    return gr_sb_take(&b);
}

/* A rubric change proven before anyone is regraded: each changed lab has its
   reason (check_reasons), then validate (cli/validate.h) runs on each lab
   whose rubric or contract header changed since the last batch into --out,
   under the rubrics it will grade with; a failed check refuses, naming the lab
   and the checks. 0, or GR_EXIT_USAGE said on stderr. */
static int prove_changes(const struct gr_batch_opts *o)
{
    int changed[GR_N_LABS], passed = 0, failed = 0;
    char err[1024];
    int rc = gr_regrade_changed(o, changed, err, sizeof err) < 0 ? -1 : 0;
    if (rc != 0)
        fprintf(stderr, "attnlab batch: %s\n", err);
    else
        rc = check_reasons(o, changed);
    for (int lab = 1; lab <= GR_N_LABS && rc == 0 && !failed; lab++) {
        if (!changed[lab - 1])
            continue;
        gr_validate_opts v = {.rubrics = o->rubrics, .students = 8, .jobs = o->jobs};
        v.labs[lab - 1] = 1;
        char *text = NULL;
        size_t len = 0;
        v.out = open_memstream(&text, &len);
        rc = v.out ? gr_validate(&v, &passed, &failed, err, sizeof err) : -1;
        if (v.out)
            fclose(v.out);
        char *what = failed ? failed_checks(text) : NULL;
        if (rc != 0)
            fprintf(stderr, "attnlab batch: refusing to regrade: %s's rubric changed and cannot "
                    "be proven: %s\n", gr_layout_dir(lab), v.out ? err : strerror(errno));
        else if (failed)
            fprintf(stderr, "attnlab batch: refusing to regrade: %s's rubric changed, and under "
                    "it %d of %d checks of attnlab validate fail:\n%sFix the rubric (attnlab "
                    "validate --lab %d%s%s shows each check) and run again; nobody was "
                    "regraded\n", gr_layout_dir(lab), failed, passed + failed, what, lab,
                    o->rubrics ? " --rubrics " : "", o->rubrics ? o->rubrics : "");
        else if (o->progress)
            fprintf(o->progress, "attnlab batch: %s's changed rubric passes validation (%d "
                    "checks: the solution's full marks, each catalogued mutant's diagnosis, "
                    "the same scores for 8 student ids)\n", gr_layout_dir(lab), passed);
        free(what);
        free(text);
    }
    return rc != 0 || failed ? GR_EXIT_USAGE : 0;
}

/* --export FORMAT: the gradebook just written, as the LMS imports it. */
static int export_class(const gr_batch_opts *o, const batch_args *a)
{
    gr_export_format f;
    char err[1024], *written = NULL;
    gr_export_format_parse(a->export_format, &f);
    if (gr_export_write(a->out, o->roster, f, "attnlab", NULL, &written, err, sizeof err) != 0) {
        fprintf(stderr, "attnlab batch: --export %s: %s\n", a->export_format, err);
        return GR_EXIT_FAILED;
    }
    printf("wrote %s\n", written);
    free(written);
    return GR_EXIT_OK;
}

int cmd_batch(int argc, char **argv)
{
    gr_batch_opts o;
    memset(&o, 0, sizeof o);
    o.jobs = gr_pool_cores();
    batch_args a = {0};
    int rc = parse_args(argc, argv, &o, &a);
    if (rc != 0)
        return rc < 0 ? 0 : rc;
    char root[PATH_MAX], child_dir[PATH_MAX], err[4096];   /* one line per setting that differs */
    if (gr_layout_locate(root, sizeof root, child_dir, sizeof child_dir, err, sizeof err) != 0) {
        fprintf(stderr, "attnlab batch: %s\n", err);
        return GR_EXIT_USAGE;
    }
    o.root = root;
    o.child_dir = child_dir;
    if (!(o.secret = gr_seed_secret_load(a.secret_file, err, sizeof err))) {
        fprintf(stderr, "attnlab batch: %s\n", err);
        return GR_EXIT_USAGE;
    }
    gr_course course;
    if (a.course) {
        if (gr_course_load(a.course, &course, err, sizeof err) != 0) {
            fprintf(stderr, "attnlab batch: %s\n", err);
            return GR_EXIT_USAGE;
        }
        o.course = &course;
        o.course_file = a.course;
    }
    o.progress = a.quiet ? NULL : stderr;
    o.progress_bar = !a.quiet && isatty(fileno(stderr));

    gr_class c;
    gr_stop_install();
    o.before_grading = prove_changes;
    rc = gr_batch_run(&o, &c, err, sizeof err);
    if (rc != 0) {
        fprintf(stderr, "attnlab batch: %s\n", err);
        gr_class_free(&c);
        if (a.course)
            gr_course_free(&course);
        if (rc == GR_STATUS_STOPPED)
            gr_stop_reraise();
        return rc == GR_STATUS_BAD_INPUT ? GR_EXIT_USAGE : GR_EXIT_FAILED;
    }
    if (o.shard_n > 1) {             /* a slice: the class files come from attnlab merge */
        int mine = 0;
        for (int i = 0; i < c.n; i++)
            mine += gr_shard_has(o.shard_k, o.shard_n, c.students[i].id);
        printf("shard %d/%d: %d of the class's %d students in %s (%d graded now, %d read "
               "back); join the %d shards with attnlab merge\n", o.shard_k, o.shard_n, mine,
               c.n, a.out, c.graded_now, c.resumed, o.shard_n);
    } else {
        int w = gr_classout_write(&c, root, a.out, a.csv_bom, stderr, err, sizeof err);
        if (w < 0) {
            fprintf(stderr, "attnlab batch: %s\n", err);
            rc = GR_EXIT_FAILED;
        }
        gr_classout_print(stdout, &c, a.out, w == 0);
        if (rc == GR_EXIT_OK && a.export_format)
            rc = export_class(&o, &a);
    }
    gr_class_free(&c);
    if (a.course)
        gr_course_free(&course);
    return rc;
}
