/* cmd_grade.c: `attnlab grade`, grade a submission and report. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "commands.h"
#include "grade.h"
#include "report.h"
#include "seed.h"
#include "stop.h"

static const char grade_usage[] =
    "usage: attnlab grade [--lab N|all] [--submission DIR] [--student ID]\n"
    "                     [--json FILE] [--junit FILE]\n"
    "\n"
    "Grade a submission: for each lab, check the sources against the rubric\n"
    "(data/rubrics/labNN.yaml), compile them with the grader's protocol stub,\n"
    "run every test in a sandboxed child and compare with the answer key.\n"
    "\n"
    "  --lab N|all        which labs: a lab number, a list like 1,3, or all (default)\n"
    "  --submission DIR   folder laid out like labs/ (default: labs/ in the tree)\n"
    "  --student ID       student id; with the secret it seeds every test's inputs\n"
    "                     (default: local)\n"
    "  --json FILE        also write Gradescope's results.json to FILE\n"
    "  --junit FILE       also write JUnit XML to FILE\n"
    "  -q, --quiet        no progress lines on stderr\n"
    "\n"
    "The instructor's secret comes from ATTNLAB_SECRET; without it a public\n"
    "practice secret is used. Colour unless NO_COLOR is set or stdout is not a tty.\n"
    "Everything a submission does ends as a verdict on its own lab's tests.\n"
    "Exit status: 0 graded (whatever the score), 1 the grader itself failed or a\n"
    "report could not be written, 2 usage or rubric error, 128+N stopped by\n"
    "signal N (Ctrl-C, kill): work folders removed, no report written.\n";

int cmd_grade(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"lab", required_argument, 0, 'l'},
        {"submission", required_argument, 0, 's'},
        {"student", required_argument, 0, 'u'},
        {"json", required_argument, 0, 'j'},
        {"junit", required_argument, 0, 'x'},
        {"quiet", no_argument, 0, 'q'},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0},
    };
    gr_grade_opts o;
    memset(&o, 0, sizeof o);
    const char *labs = "all", *json = NULL, *junit = NULL;
    int quiet = 0;
    o.student = "local";
    char err[1024];

    optind = 0;
    opterr = 0;
    int ch;
    while ((ch = getopt_long(argc, argv, "+q", longopts, NULL)) != -1) {
        switch (ch) {
        case 'l': labs = optarg; break;
        case 's': o.submission = optarg; break;
        case 'u': o.student = optarg; break;
        case 'j': json = optarg; break;
        case 'x': junit = optarg; break;
        case 'q': quiet = 1; break;
        case 'h': fputs(grade_usage, stdout); return 0;
        default:
            return gr_bad_option("grade", argv[optind - 1]);
        }
    }
    if (optind < argc)
        return gr_usage_error("grade", "unexpected argument '%s'", argv[optind]);
    if (gr_parse_labs(labs, o.labs, err, sizeof err) != 0)
        return gr_usage_error("grade", "%s", err);
    if (!*o.student)
        return gr_usage_error("grade", "--student needs a non-empty id");

    char root[PATH_MAX], stub_dir[PATH_MAX], labs_dir[PATH_MAX + 8];
    if (gr_locate(root, sizeof root, stub_dir, sizeof stub_dir, err, sizeof err) != 0) {
        fprintf(stderr, "attnlab grade: %s\n", err);
        return 2;
    }
    snprintf(labs_dir, sizeof labs_dir, "%s/labs", root);
    o.root = root;
    o.stub_dir = stub_dir;
    if (!o.submission)
        o.submission = labs_dir;
    struct stat st;
    int found = stat(o.submission, &st) == 0;
    if (!found || !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "attnlab grade: the submission %s %s; give the folder that holds the "
                "lab folders (labNN-name/labNN.c)\n", o.submission,
                found ? "is not a folder" : strerror(errno));
        return 2;
    }
    o.secret = gr_secret_from_env();
    o.progress = quiet ? NULL : stderr;

    gr_report r;
    gr_stop_install();
    int graded = gr_grade(&o, &r, err, sizeof err);
    if (graded == GR_GRADE_STOPPED) {
        fprintf(stderr, "attnlab grade: %s\n", err);
        gr_stop_reraise();
    }
    if (graded != 0) {
        fprintf(stderr, "attnlab grade: %s\n", err);
        return graded == GR_GRADE_BAD_INPUT ? 2 : 1;
    }
    gr_report_terminal(stdout, &r, gr_color_wanted(stdout));
    int rc = 0;
    if (json && gr_report_json(json, &r) != 0) {
        fprintf(stderr, "attnlab grade: cannot write %s: %s\n", json, strerror(errno));
        rc = 1;
    }
    if (junit && gr_report_junit(junit, &r) != 0) {
        fprintf(stderr, "attnlab grade: cannot write %s: %s\n", junit, strerror(errno));
        rc = 1;
    }
    gr_report_free(&r);
    return rc;
}
