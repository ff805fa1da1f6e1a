/* cmd_batch.c: `attnlab batch`, grade a whole class into a gradebook and a
 * class report (batch.h, classreport.h). */
#include <errno.h>
#include <getopt.h>
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
#include "class/course.h"
#include "class/export.h"
#include "grade.h"
#include "pool.h"
#include "seed.h"
#include "stop.h"
#include "layout.h"

static const char batch_usage[] =
    "usage: attnlab batch SUBMISSIONS --out DIR [--jobs N] [--roster FILE]\n"
    "                     [--course FILE] [--times FILE | --file-times] [--accept-late]\n"
    "                     [--lab N|all] [--rubrics DIR [--reason TEXT]] [--restart]\n"
    "                     [--csv-bom] [--export canvas|moodle|generic]\n"
    "                     [--shard K/N] [--change NAME --reason TEXT] [-q]\n"
    "\n"
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
    "                             misconceptions, similar files, a section per student\n"
    "\n"
    "  --out DIR        where the results go (made if missing)\n"
    "  --jobs N         students graded at once (default: one per core)\n"
    "  --roster FILE    YAML: students: [{id: s001, name: ..., email: ...}], and for\n"
    "                   --export sis_user_id, sis_login_id and section\n"
    "  --course FILE    course.yaml, the late policy: due dates per lab, grace_minutes,\n"
    "                   late_penalty_percent (per day), max_late_days, extensions per\n"
    "                   student (data/course.example.yaml); the gradebook then has\n"
    "                   raw, days late and adjusted columns\n"
    "  --times FILE     the hand-in times: YAML (s001: 2025-02-07T23:41:00-05:00) or\n"
    "                   CSV (id,time lines) when FILE ends in .csv; in place of an\n"
    "                   export's times\n"
    "  --file-times     each lab file's modification time is its hand-in time (only\n"
    "                   for folders whose file times you trust: a copy resets them)\n"
    "  --accept-late    grade even when more than half of the class would be late or\n"
    "                   a time is after the batch started (refused otherwise)\n"
    "  --lab N|all      which labs (default all)\n"
    "  --rubrics DIR    grade against the rubrics DIR/labNN.yaml instead of the course's\n"
    "  --reason TEXT    why the rubrics changed, recorded with each regrade (default\n"
    "                   \"no reason given\")\n"
    "  --restart        regrade every student, ignoring results already in DIR\n"
    "  --csv-bom        start gradebook.csv with a UTF-8 byte order mark, so that\n"
    "                   Excel shows non-ASCII names right (LMS imports need none)\n"
    "  --export FORMAT  also write DIR/canvas.csv, moodle.csv or generic.csv for an\n"
    "                   LMS import, as attnlab export DIR --format FORMAT (with\n"
    "                   --roster, its SIS ids and sections)\n"
    "  --shard K/N      grade only the K-th of N slices of the class (K from 1), for\n"
    "                   a batch spread over machines: each student's slice follows\n"
    "                   from their id alone; DIR then holds that slice and run.txt,\n"
    "                   and attnlab merge joins the N folders into one gradebook\n"
    "  --change NAME    let setting NAME differ from what the class recorded (roster,\n"
    "                   course, times, rubrics, labs, secret or build; repeat it or\n"
    "                   give a comma list); without its flag, drop it. Needs --reason,\n"
    "                   recorded in DIR/regrades.log\n"
    "  -q, --quiet      no progress on stderr\n"
    "\n"
    "Stopped (Ctrl-C, kill, even kill -9) and run again with the same options, it\n"
    "grades only the students without a results.json: each is written whole or not\n"
    "at all. A results.json is reused only while what it was graded from holds\n"
    "(students/ID/key: the student's files, the rubrics and contract headers, the\n"
    "secret and attnlab itself); a student who handed in again, a fixed rubric or\n"
    "a new secret is graded again, with a line saying so. When only a lab's rubric\n"
    "or contract header changed (an edited rubric, --rubrics DIR), only that lab is\n"
    "regraded, and every test whose score changed is recorded in DIR/regrades.log\n"
    "and the student's results.json (extra_data.regrades: when, lab, test, old,\n"
    "new, reason, what changed in the rubric); DIR/rubrics.state keeps what each\n"
    "lab was graded with. Hand-in times come from\n"
    "the instructor's side only: --times FILE, else the export's\n"
    "submission_metadata.yml, else none (no one is late); a file in a student's\n"
    "folder is never read for a time or an id. The report says where they came from.\n"
    "The instructor's secret comes from ATTNLAB_SECRET, as for grade.\n"
    "Every run writes DIR/run.txt last: what it was graded from (digests of attnlab,\n"
    "the secret, rubrics, course policy, roster and times) and its students.\n"
    "The class folder remembers its settings: the first batch records the roster,\n"
    "course policy, times, rubrics, labs, secret and build, and keeps copies of\n"
    "their files in DIR; a later run that leaves a flag off uses the class's, and\n"
    "one whose flags differ from the record refuses, naming each difference,\n"
    "unless --change names it.\n"
    "Exit status: 0 graded, 1 the grader failed or a file could not be written,\n"
    "2 usage, roster, course, times or rubric error or a refused late policy, 128+N\n"
    "stopped by signal N.\n";

/* What the command line asked for, beyond the batch options. */
typedef struct batch_args {
    const char *labs, *course, *out;
    int quiet;
    int csv_bom;      /* --csv-bom */
    const char *export_format;   /* --export, or NULL */
} batch_args;

/* --change NAME[,NAME...] into o->change. 0, or the usage error's status. */
static int parse_change(const char *arg, gr_batch_opts *o)
{
    char *copy = gr_xstrdup(arg), *save = NULL;
    int rc = 0;
    for (char *t = strtok_r(copy, ",", &save); t && rc == 0; t = strtok_r(NULL, ",", &save)) {
        int k = gr_class_setting_of(t);
        if (k < 0)
            rc = gr_usage_error("batch", "--change takes roster, course, times, rubrics, labs, "
                                "secret or build (got '%s')", t);
        else
            o->change[k] = 1;
    }
    free(copy);
    return rc;
}

static int parse_args(int argc, char **argv, gr_batch_opts *o, batch_args *a)
{
    static const struct option longopts[] = {
        {"out", required_argument, 0, 'o'},
        {"jobs", required_argument, 0, 'J'},
        {"roster", required_argument, 0, 'r'},
        {"course", required_argument, 0, 'c'},
        {"lab", required_argument, 0, 'l'},
        {"rubrics", required_argument, 0, 'R'},
        {"restart", no_argument, 0, 'S'},
        {"reason", required_argument, 0, 'W'},
        {"times", required_argument, 0, 'T'},
        {"file-times", no_argument, 0, 'F'},
        {"accept-late", no_argument, 0, 'A'},
        {"csv-bom", no_argument, 0, 'B'},
        {"export", required_argument, 0, 'X'},
        {"shard", required_argument, 0, 'K'},
        {"change", required_argument, 0, 'G'},
        {"quiet", no_argument, 0, 'q'},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0},
    };
    optind = 0;
    opterr = 0;
    int ch;
    while ((ch = getopt_long(argc, argv, "q", longopts, NULL)) != -1) {
        switch (ch) {
        case 'o': a->out = optarg; break;
        case 'r': o->roster = optarg; break;
        case 'c': a->course = optarg; break;
        case 'l': a->labs = optarg; break;
        case 'R': o->rubrics = optarg; break;
        case 'S': o->restart = 1; break;
        case 'W': o->reason = optarg; break;
        case 'T': o->times = optarg; break;
        case 'F': o->file_times = 1; break;
        case 'A': o->accept_late = 1; break;
        case 'B': a->csv_bom = 1; break;
        case 'X': a->export_format = optarg; break;
        case 'q': a->quiet = 1; break;
        case 'G':
            if (parse_change(optarg, o) != 0)
                return GR_EXIT_USAGE;
            break;
        case 'K': {
            char err[256];
            if (gr_shard_parse(optarg, &o->shard_k, &o->shard_n, err, sizeof err) != 0)
                return gr_usage_error("batch", "%s", err);
            break;
        }
        case 'J': {
            char *end;
            long j = strtol(optarg, &end, 10);
            if (end == optarg || *end || j < 1 || j > 64)
                return gr_usage_error("batch", "--jobs takes a number of students from 1 to 64 "
                                      "(got '%s')", optarg);
            o->jobs = (int)j;
            break;
        }
        case 'h': fputs(batch_usage, stdout); return -1;
        default:
            return gr_bad_option("batch", argv[optind - 1]);
        }
    }
    if (optind >= argc)
        return gr_usage_error("batch", "give the folder of submissions (one folder per student)");
    o->submissions = argv[optind++];
    if (optind < argc)
        return gr_usage_error("batch", "unexpected argument '%s'", argv[optind]);
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
    gr_lms_format f;
    if (a->export_format && gr_lms_format_parse(a->export_format, &f) != 0)
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
    if (o->rubrics && (stat(o->rubrics, &st) != 0 || !S_ISDIR(st.st_mode)))
        return gr_usage_error("batch", "--rubrics %s is not a folder of labNN.yaml rubrics",
                              o->rubrics);
    o->out = a->out;
    return 0;
}

/* --export FORMAT: the gradebook just written, as the LMS imports it. */
static int export_class(const gr_batch_opts *o, const batch_args *a)
{
    gr_lms_format f;
    char err[1024], *written = NULL;
    gr_lms_format_parse(a->export_format, &f);
    if (gr_lms_export(a->out, o->roster, f, "attnlab", NULL, &written, err, sizeof err) != 0) {
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
    batch_args a = {NULL, NULL, NULL, 0, 0, NULL};
    int rc = parse_args(argc, argv, &o, &a);
    if (rc != 0)
        return rc < 0 ? 0 : rc;
    char root[PATH_MAX], stub_dir[PATH_MAX], err[4096];   /* one line per setting that differs */
    if (gr_layout_locate(root, sizeof root, stub_dir, sizeof stub_dir, err, sizeof err) != 0) {
        fprintf(stderr, "attnlab batch: %s\n", err);
        return GR_EXIT_USAGE;
    }
    o.root = root;
    o.stub_dir = stub_dir;
    gr_course course;
    if (a.course) {
        if (gr_course_load(a.course, &course, err, sizeof err) != 0) {
            fprintf(stderr, "attnlab batch: %s\n", err);
            return GR_EXIT_USAGE;
        }
        o.course = &course;
        o.course_file = a.course;
    }
    o.secret = gr_secret_from_env();
    o.progress = a.quiet ? NULL : stderr;
    o.progress_bar = !a.quiet && isatty(fileno(stderr));

    gr_class c;
    gr_stop_install();
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
