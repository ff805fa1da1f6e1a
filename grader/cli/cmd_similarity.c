/* cmd_similarity.c: `attnlab similarity`, a MOSS-style similarity report of a
 * class's lab files (the method is in similarity.h).
 *
 *   attnlab similarity SUBMISSIONS [--lab N|all] [--top N] [--detail N]
 *                      [--out FILE] [--format table|csv]
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "grade.h"
#include "class/similarity.h"
#include "util.h"
#include "layout.h"

/* The help; its numbers are the defaults GR_SIM_K and GR_SIM_W (printf arguments). */
#define SIMILARITY_USAGE \
    "usage: attnlab similarity SUBMISSIONS [--lab N|all] [--top N] [--detail N]\n" \
    "                          [--out FILE] [--format table|csv] [--csv-bom]\n" \
    "\n" \
    "Compare every student's lab file with every other student's, MOSS-style, and\n" \
    "rank the pairs by what they share. A report for a person to read, never a\n" \
    "verdict: similar code has innocent causes too (the handout's hints, a common\n" \
    "loop, permitted collaboration).\n" \
    "\n" \
    "Each subfolder of SUBMISSIONS is one student (its name is the student id),\n" \
    "each lab's file found as grading finds it: <student>/lab01-scores/lab01.c\n" \
    "like labs/, a flat upload <student>/lab01.c, any case, inside a wrapping\n" \
    "folder. Only regular files are read; a link, anything else, or two files\n" \
    "for one lab are skipped with a warning on stderr.\n" \
    "\n" \
    "How: each file becomes a token stream with comments and whitespace dropped,\n" \
    "every identifier one token and every literal one token of its kind, so\n" \
    "renaming variables or changing constants changes nothing. Fingerprints are\n" \
    "winnowed from hashes of %d-token k-grams in windows of %d: any shared run of\n" \
    "%d tokens or more is found, none shorter than %d. Fingerprints that occur in\n" \
    "the lab's pristine stub or contract header are dropped, so the text everyone\n" \
    "starts with never counts. A pair's Jaccard is shared / (A's + B's - shared)\n" \
    "distinct fingerprints.\n" \
    "\n" \
    "  --lab N|all       which labs (default all); pairs are within one lab\n" \
    "  --top N           pairs listed per lab (default 20; 0 lists every pair that\n" \
    "                    shares a fingerprint)\n" \
    "  --detail N        in the terminal table, show the matching regions of the\n" \
    "                    first N pairs side by side (default 3)\n" \
    "  --out FILE        also write a Markdown report with every listed pair's\n" \
    "                    regions side by side\n" \
    "  --format FORMAT   table (default) or csv, on stdout\n" \
    "  --csv-bom         start the CSV with a UTF-8 byte order mark, so that Excel\n" \
    "                    shows non-ASCII ids right\n" \
    "  -h, --help        show this help\n" \
    "\n" \
    "CSV (RFC 4180): a header row, then one row per listed pair, most similar first;\n" \
    "a cell a spreadsheet would run as a formula (=, +, -, @, tab or CR first)\n" \
    "gets a leading ' and stays text:\n" \
    "  lab,rank,student_a,student_b,jaccard,shared,fingerprints_a,fingerprints_b,\n" \
    "  lines_a,lines_b,file_a,file_b,regions\n" \
    "  shared          distinct fingerprints the two files have in common\n" \
    "  fingerprints_a  distinct fingerprints of A's file outside the stub's text\n" \
    "  lines_a         lines of A's file inside a matching region\n" \
    "  file_a          A's file, relative to SUBMISSIONS\n" \
    "  regions         each matching region as A's lines:B's lines, space-separated,\n" \
    "                  e.g. \"12-30:40-58 61-70:80-89\"\n" \
    "\n" \
    "Exit status: 0 report made (whatever it shows), 1 a file could not be written\n" \
    "or the course tree is incomplete, 2 usage error.\n"

/* A usage error on err, one line; returns GR_EXIT_USAGE. */
static int usage(FILE *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int usage(FILE *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = gr_vusage_error(err, "similarity", fmt, ap);
    va_end(ap);
    return rc;
}

/* A whole number in [lo, hi] for option name into *v: 0, or -1. */
static int count_option(const char *text, int lo, int hi, int *v)
{
    char *end;
    errno = 0;
    long x = strtol(text, &end, 10);
    if (end == text || *end != '\0' || errno == ERANGE || x < lo || x > hi)
        return -1;
    *v = (int)x;
    return 0;
}

typedef struct sim_opts {
    const char *submissions;
    const char *labs;        /* --lab text */
    const char *md_path;     /* --out */
    int csv;
    gr_sim_report_opts report;
} sim_opts;

/* Parse the command line: 0, 1 when --help was shown, or GR_EXIT_USAGE after
   a usage error (as a negative number). */
static int parse_args(FILE *out, FILE *err, int argc, char **argv, sim_opts *o)
{
    static const struct option longopts[] = {
        {"lab", required_argument, 0, 'l'},
        {"top", required_argument, 0, 't'},
        {"detail", required_argument, 0, 'd'},
        {"out", required_argument, 0, 'o'},
        {"format", required_argument, 0, 'f'},
        {"csv-bom", no_argument, 0, 'B'},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0},
    };
    memset(o, 0, sizeof *o);
    o->labs = "all";
    o->report.top = 20;
    o->report.detail = 3;
    optind = 0;
    opterr = 0;
    int ch;
    while ((ch = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        switch (ch) {
        case 'l':
            o->labs = optarg;
            break;
        case 't':
            if (count_option(optarg, 0, 1000000, &o->report.top) != 0)
                return -usage(err, "--top takes how many pairs to list per lab, a whole "
                              "number >= 0 (0: every pair), not '%s'", optarg);
            break;
        case 'd':
            if (count_option(optarg, 0, 1000000, &o->report.detail) != 0)
                return -usage(err, "--detail takes how many pairs to show regions of, a "
                              "whole number >= 0, not '%s'", optarg);
            break;
        case 'o':
            if (!*optarg)
                return -usage(err, "--out needs a file name, e.g. --out similarity.md");
            o->md_path = optarg;
            break;
        case 'f':
            if (strcmp(optarg, "table") != 0 && strcmp(optarg, "csv") != 0)
                return -usage(err, "--format must be table or csv (got '%s')", optarg);
            o->csv = strcmp(optarg, "csv") == 0;
            break;
        case 'B':
            o->report.bom = 1;
            break;
        case 'h':
            fprintf(out, SIMILARITY_USAGE, GR_SIM_K, GR_SIM_W, GR_SIM_K + GR_SIM_W - 1, GR_SIM_K);
            return 1;
        default:
            return -usage(err, "unknown option or missing value: '%s'", argv[optind - 1]);
        }
    }
    if (optind >= argc)
        return -usage(err, "give the folder of submissions, one subfolder per student, "
                      "e.g. attnlab similarity submissions/");
    if (optind + 1 < argc)
        return -usage(err, "unexpected argument '%s'; give one folder of submissions",
                      argv[optind + 1]);
    o->submissions = argv[optind];
    o->report.submissions = o->submissions;
    struct stat st;
    if (stat(o->submissions, &st) != 0 || !S_ISDIR(st.st_mode))
        return -usage(err, "'%s' is not a folder; give the folder that holds one subfolder "
                      "per student", o->submissions);
    return 0;
}

/* Write the Markdown report to path atomically. 0, or -1 after a line on err. */
static int write_markdown(FILE *err, const char *path, const gr_sim_lab *labs, int n,
                          const gr_sim_report_opts *o)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) {
        fprintf(err, "attnlab similarity: out of memory writing the report\n");
        return -1;
    }
    gr_sim_print_markdown(f, labs, n, o);
    fclose(f);
    int rc = gr_write_file_atomic(path, buf, len);
    if (rc != 0)
        fprintf(err, "attnlab similarity: cannot write %s: %s\n", path, strerror(errno));
    free(buf);
    return rc;
}

int cmd_similarity_run(FILE *out, FILE *err, const char *root, int argc, char **argv)
{
    sim_opts o;
    int p = parse_args(out, err, argc, argv, &o);
    if (p != 0)
        return p > 0 ? GR_EXIT_OK : -p;
    int want[GR_N_LABS];
    char msg[1024], found[PATH_MAX], child_dir[PATH_MAX];
    if (gr_layout_parse_labs(o.labs, want, msg, sizeof msg) != 0)
        return usage(err, "%s", msg);
    if (!root && gr_layout_locate(found, sizeof found, child_dir, sizeof child_dir, msg, sizeof msg) != 0) {
        fprintf(err, "attnlab similarity: %s\n", msg);
        return GR_EXIT_FAILED;
    }
    if (!root)
        root = found;

    int n_selected = 0;
    for (int i = 0; i < GR_N_LABS; i++)
        n_selected += want[i] != 0;

    char **names;
    int n_names = gr_sim_students(&names, o.submissions, err, msg, sizeof msg);
    if (n_names < 0) {
        fprintf(err, "attnlab similarity: %s\n", msg);
        return GR_EXIT_FAILED;
    }
    gr_sim_lab labs[GR_N_LABS];
    int n_labs = 0, rc = GR_EXIT_OK, n_files = 0;
    for (int lab = 1; lab <= GR_N_LABS && rc == GR_EXIT_OK; lab++) {
        if (!want[lab - 1])
            continue;
        if (gr_sim_lab_load(&labs[n_labs], root, o.submissions, names, n_names, lab,
                            GR_SIM_K, GR_SIM_W, err, msg, sizeof msg) != 0) {
            fprintf(err, "attnlab similarity: %s\n", msg);
            rc = GR_EXIT_FAILED;
            break;
        }
        n_files += labs[n_labs].n_files;
        if (labs[n_labs].n_files == 0 && n_selected > 1)
            gr_sim_lab_free(&labs[n_labs]);  /* of several labs, list those someone submitted */
        else
            n_labs++;
    }
    if (rc == GR_EXIT_OK && n_files == 0)
        fprintf(err, "attnlab similarity: no lab file found in %s's %d student folder%s; "
                "expected <student>/lab01-scores/lab01.c or <student>/lab01.c\n",
                o.submissions, n_names, n_names == 1 ? "" : "s");
    if (rc == GR_EXIT_OK) {
        if (o.csv)
            gr_sim_print_csv(out, labs, n_labs, &o.report);
        else
            gr_sim_print_table(out, labs, n_labs, &o.report);
        if (o.md_path && write_markdown(err, o.md_path, labs, n_labs, &o.report) != 0)
            rc = GR_EXIT_FAILED;
        else if (o.md_path && !o.csv)
            fprintf(out, "\nMarkdown report: %s\n", o.md_path);
    }
    for (int i = 0; i < n_labs; i++)
        gr_sim_lab_free(&labs[i]);
    gr_sim_names_free(names, n_names);
    return rc;
}

int cmd_similarity(int argc, char **argv)
{
    return cmd_similarity_run(stdout, stderr, NULL, argc, argv);
}
