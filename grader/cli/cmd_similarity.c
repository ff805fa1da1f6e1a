/* cmd_similarity.c: `attnlab similarity`, a MOSS-style similarity report of a
 * class's lab files (the method is in similarity.h).
 *
 *   attnlab similarity SUBMISSIONS [--lab N|all] [--top N] [--detail N]
 *                      [--out FILE] [--format table|csv]
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/opts.h"
#include "engine/grade.h"
#include "class/handin.h"
#include "class/similarity.h"
#include "base/util.h"
#include "base/layout.h"

/* What similarity does, a format: the k-gram and window sizes (GR_SIM_K, GR_SIM_W). */
#define SIMILARITY_ABOUT \
    "Compare every student's lab file with every other student's, MOSS-style, and\n" \
    "rank the pairs by what they share. A report for a person to read, never a\n" \
    "verdict: similar code has innocent causes too (the handout's hints, a common\n" \
    "loop, permitted collaboration).\n" \
    "\n" \
    "Each subfolder of SUBMISSIONS is one student, named as attnlab batch names\n" \
    "it: by the first submitter of a Gradescope export's submission_metadata.yml\n" \
    "(their email, else their sid), else by the folder's name. Students who\n" \
    "handed in exactly the same file are one line (\"14 students handed in the\n" \
    "same lab02.c\"), and the pairs are of different files: a student shown as\n" \
    "\"s001 +13\" stands for the 14.\n" \
    "\n" \
    "Each student's lab file is found as grading finds it:\n" \
    "<student>/lab01-scores/lab01.c\n" \
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
    "distinct fingerprints. As MOSS's -m does, a fingerprint found in more than\n" \
    "M of a lab's different files is ignored: so common, it is the handout's\n" \
    "hint, an idiom or a shared source, not a pair's evidence.\n"

static const gr_cmd_spec similarity_cmd = {
    .name = "similarity",
    .synopsis =
    "SUBMISSIONS [--lab N|all] [--top N] [--detail N]\n"
    "                          [--max-files M] [--out FILE] [--format table|csv]\n"
    "                          [--csv-bom]",
    .after =
    "CSV (RFC 4180): a header row, then one row per listed pair, most similar first;\n"
    "a cell a spreadsheet would run as a formula (=, +, -, @, tab or CR first)\n"
    "gets a leading ' and stays text:\n"
    "  lab,rank,student_a,student_b,jaccard,shared,fingerprints_a,fingerprints_b,\n"
    "  lines_a,lines_b,file_a,file_b,regions,same_file\n"
    "  shared          distinct fingerprints the two files have in common\n"
    "  fingerprints_a  distinct fingerprints of A's file outside the stub's text\n"
    "  lines_a         lines of A's file inside a matching region\n"
    "  file_a          A's file, relative to SUBMISSIONS\n"
    "  regions         each matching region as A's lines:B's lines, space-separated,\n"
    "                  e.g. \"12-30:40-58 61-70:80-89\"\n"
    "  same_file       on a row of rank \"same\" (before the lab's pairs): every\n"
    "                  student, space-separated, who handed in A's file byte for\n"
    "                  byte; A stands for them all in the pairs\n"
    "\n"
    "Exit status: 0 report made (whatever it shows), 1 a file could not be written\n"
    "or the course tree is incomplete, 2 usage error.\n",
    .max_args = -1,
    .column = 20,
};

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

/* --out FILE into *(const char **)to: a name, not empty. */
static int out_option(void *to, const char *value, char *why, size_t whylen)
{
    if (!*value)
        return gr_opt_fail(why, whylen, "--out needs a file name, e.g. --out similarity.md");
    *(const char **)to = value;
    return 0;
}

typedef struct sim_opts {
    const char *submissions;
    const char *labs;        /* --lab text */
    const char *md_path;     /* --out */
    int csv;
    int max_files;           /* --max-files */
    gr_sim_report_opts report;
} sim_opts;

/* Parse the command line: 0, 1 when --help was shown, or GR_EXIT_USAGE after
   a usage error (as a negative number). */
static int parse_args(FILE *out, FILE *err, int argc, char **argv, sim_opts *o)
{
    memset(o, 0, sizeof *o);
    o->labs = "all";
    o->report.top = 20;
    o->report.detail = 3;
    o->max_files = GR_SIM_MAX_FILES;
    const gr_opt opts[] = {
        GR_TEXT("lab", 0, &o->labs, "N|all",
                "which labs (default all); pairs are within one lab"),
        GR_INT("top", 0, &o->report.top, "N",
                "pairs listed per lab (default 20; 0 lists every pair that\n"
                "shares a fingerprint); the reports say how many are left",
               0, 1000000, "how many pairs to list per lab, a whole number >= 0 (0: every pair)", .example = "20"),
        GR_INT("detail", 0, &o->report.detail, "N",
                "in the terminal table, show the matching regions of the\n"
                "first N pairs side by side (default 3)",
               0, 1000000, "how many pairs to show regions of, a whole number >= 0", .example = "3"),
        GR_CALL("out", 0, out_option, &o->md_path, "FILE",
                "also write a Markdown report with every listed pair's\n"
                "regions side by side"),
        GR_CALL("format", 0, gr_opt_table_or_csv, &o->csv, "FORMAT",
                "table (default) or csv, on stdout"),
        GR_FLAG("csv-bom", 0, &o->report.bom,
                "start the CSV with a UTF-8 byte order mark, so that Excel\n"
                "shows non-ASCII ids right"),
        GR_INT("max-files", 0, &o->max_files, "M",
                "ignore fingerprints in more than M different files of a\n"
                "lab (default 10, MOSS's own; 0 ignores none)",
               0, 1000000, "how many files a fingerprint may be in before it is ignored, "
               "a whole number >= 0 (0: never)", .example = "10"),
    };
    gr_cmd_spec cmd = similarity_cmd;
    char *about = gr_xasprintf(SIMILARITY_ABOUT, GR_SIM_K, GR_SIM_W, GR_SIM_K + GR_SIM_W - 1, GR_SIM_K);
    cmd.about = about;
    int first, rc = gr_opts_parse(&cmd, opts, GR_N_OPTS(opts), argc, argv, out, err, &first);
    free(about);
    if (rc != 0)
        return rc == GR_OPTS_HELP ? 1 : -GR_EXIT_USAGE;
    if (first >= argc)
        return -usage(err, "give the folder of submissions, one subfolder per student, "
                      "e.g. attnlab similarity submissions/");
    if (first + 1 < argc)
        return -usage(err, "unexpected argument '%s'; give one folder of submissions",
                      argv[first + 1]);
    o->submissions = argv[first];
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

/* *name, a submission folder's name, becomes the id batch grades it under:
   its export entry's first submitter (handin.h), when it has one. */
static void batch_id(char **name, const gr_handin *x)
{
    const gr_handin_sub *e = gr_handin_find(x, *name);
    if (e && e->n_who > 0 && e->who[0].id && e->who[0].id[0]) {
        free(*name);
        *name = gr_xstrdup(e->who[0].id);
    }
}

/* Every student of l named by the batch's id. */
static void batch_ids(gr_sim_lab *l, const gr_handin *x)
{
    for (int d = 0; d < l->n_docs; d++) {
        batch_id(&l->docs[d].student, x);
        for (int i = 0; i < l->docs[d].n_same; i++)
            batch_id(&l->docs[d].same[i], x);
    }
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
    gr_handin x = {0};
    if (gr_handin_load(o.submissions, &x, msg, sizeof msg) < 0) {
        fprintf(err, "attnlab similarity: %s\n", msg);
        gr_sim_names_free(names, n_names);
        return GR_EXIT_FAILED;
    }
    gr_sim_lab labs[GR_N_LABS];
    int n_labs = 0, rc = GR_EXIT_OK, n_files = 0;
    for (int lab = 1; lab <= GR_N_LABS && rc == GR_EXIT_OK; lab++) {
        if (!want[lab - 1])
            continue;
        if (gr_sim_lab_load(&labs[n_labs], root, o.submissions, names, n_names, lab,
                            GR_SIM_K, GR_SIM_W, o.max_files, err, msg, sizeof msg) != 0) {
            fprintf(err, "attnlab similarity: %s\n", msg);
            rc = GR_EXIT_FAILED;
            break;
        }
        n_files += labs[n_labs].n_files;
        batch_ids(&labs[n_labs], &x);
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
    gr_handin_free(&x);
    gr_sim_names_free(names, n_names);
    return rc;
}

int cmd_similarity(int argc, char **argv)
{
    return cmd_similarity_run(stdout, stderr, NULL, argc, argv);
}
