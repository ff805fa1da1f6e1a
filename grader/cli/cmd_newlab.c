/* cmd_newlab.c: `attnlab new-lab N NAME`, a new lab scaffolded from its
 * functions (see newlab.h): every file a lab has, from the templates in
 * data/newlab/, written into a staging folder in the tree and moved into
 * place only when all of them are written, none over an existing file.
 *
 *   attnlab new-lab 11 rowsums --function "int lab_row_sums(float *out, const float *W, int rows, int n)" \
 *       --shape out=rows --shape W=rows,n
 *   attnlab new-lab 11 rowsums --from rowsums.yaml
 */
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/opts.h"
#include "cli/newlab.h"
#include "base/layout.h"
#include "base/rubric.h"
#include "engine/rules.h"
#include "base/util.h"

#define CMD "new-lab"

static const gr_cmd_spec newlab_cmd = {
    .name = "new-lab",
    .synopsis =
    "N NAME [--title TEXT] --function \"SIGNATURE\" [--shape ARRAY=SIZES]...\n"
    "                              [--function ...]\n"
    "       attnlab new-lab N NAME --from FILE",
    .about =
    "Scaffold lab N (the next lab number) called NAME in this source tree: the\n"
    "handout, contract, stub, visible test and Makefile in labs/labNN-NAME/, the\n"
    "pristine stub, the solution's skeleton, the manifest and rubric, an empty\n"
    "mutants catalogue and the grader module's skeleton. Nothing existing is\n"
    "edited or overwritten: every file is written first into a staging folder and\n"
    "moved into place when all are. Then it prints what to fill in.\n",
    .after =
    "doc/adding-a-lab.md walks through the rest. Exit status: 0 written, 1 a\n"
    "file could not be written, 2 usage or description error.\n",
    .max_args = -1,             /* N and NAME, checked with their own message */
    .column = 18,
};

/* One file of a new lab: where it goes (layout.h's path, for a lab the course
   does not have yet) and what it is made from. */
typedef struct nl_file {
    gr_layout_file path;    /* which of the lab's files */
    const char *tmpl;       /* data/newlab/<tmpl> */
    const char *what;       /* for the list printed at the end */
} nl_file;

static const nl_file files[] = {
    {GR_LAYOUT_HANDOUT, "README.md.in", "the handout, a section per function"},
    {GR_LAYOUT_CONTRACT, "contract.h.in", "the contract: signatures and shapes"},
    {GR_LAYOUT_STUDENT, "stub.c.in", "the student's copy of the stub"},
    {GR_LAYOUT_VISIBLE_TESTS, "test.c.in", "the visible tests"},
    {GR_LAYOUT_LAB_MAKEFILE, "lab.mk.in", "make test, as every lab's"},
    {GR_LAYOUT_STUB, "stub.c.in", "the pristine stub"},
    {GR_LAYOUT_SOLUTION, "solution.c.in", "the solution's skeleton"},
    {GR_LAYOUT_SOLUTION_MAKEFILE, "solution.mk.in", "the solution against the visible tests"},
    {GR_LAYOUT_RUBRIC, "rubric.yaml.in", "the manifest and the rubric"},
    {GR_LAYOUT_MUTANT_MANIFEST, "mutants.yaml.in", "the mutants catalogue (empty)"},
    {GR_LAYOUT_MODULE, "module.c.in", "the grader's module skeleton"},
};
#define N_FILES ((int)(sizeof files / sizeof files[0]))

/* What is moved into place, each as a whole: folders and single files. */
static const gr_layout_file moved[] = {
    GR_LAYOUT_FOLDER, GR_LAYOUT_SOLUTION_FOLDER, GR_LAYOUT_STUB, GR_LAYOUT_RUBRIC,
    GR_LAYOUT_MUTANTS, GR_LAYOUT_MODULE,
};
#define N_MOVED ((int)(sizeof moved / sizeof moved[0]))

/* what of the new lab under root (NULL: relative to the tree). */
static char *lab_path(const char *root, gr_layout_file what, const nl_lab *lab)
{
    return gr_layout_path_of(root, lab->dir, lab->lab, what);
}

/* ---- checks on the tree ------------------------------------------------------------------ */

/* The number is the next one (labs 1..N-1 have rubrics, N none) and nothing of
   lab N exists yet, under any name. 0, or -1 with err. */
static int check_tree(const char *root, const nl_lab *lab, char *err, size_t errlen)
{
    for (int k = 1; k < lab->lab; k++) {
        char *r = gr_layout_path_of(root, "", k, GR_LAYOUT_RUBRIC);
        int missing = access(r, F_OK) != 0;
        free(r);
        if (missing) {
            gr_set_err(err, errlen, "lab numbers run 1, 2, ... without a gap, and lab %d has no "
                       "rubric: the next lab is %d", k, k);
            return -1;
        }
    }
    /* labs/lab11-other or solutions/lab11-other is lab 11 too */
    static const char *const parents[] = {"labs", "solutions"};
    char prefix[8];
    snprintf(prefix, sizeof prefix, "lab%02d-", lab->lab);
    int rc = 0;
    for (int i = 0; i < 2 && rc == 0; i++) {
        char *parent = gr_xasprintf("%s/%s", root, parents[i]);
        DIR *d = opendir(parent);
        for (struct dirent *e; d && rc == 0 && (e = readdir(d));)
            if (strncmp(e->d_name, prefix, strlen(prefix)) == 0) {
                gr_set_err(err, errlen, "%s/%s already exists: lab %d has a folder; new-lab "
                           "writes a lab's files only where there are none", parents[i],
                           e->d_name, lab->lab);
                rc = -1;
            }
        if (d)
            closedir(d);
        free(parent);
    }
    for (int i = 0; i < N_MOVED && rc == 0; i++) {
        char *rel = lab_path(NULL, moved[i], lab), *abs = gr_xasprintf("%s/%s", root, rel);
        struct stat st;
        if (lstat(abs, &st) == 0) {
            gr_set_err(err, errlen, "%s already exists: new-lab writes a lab's files only where "
                       "there are none", rel);
            rc = -1;
        }
        free(rel);
        free(abs);
    }
    return rc;
}

/* ---- the staging folder ----------------------------------------------------------------- */

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)ftw;
    return flag == FTW_DP ? rmdir(path) : unlink(path);
}

static void remove_tree(const char *path)
{
    nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* mkdir -p of path's parent folders. 0, or -1 with errno. */
static int make_parents(char *path)
{
    for (char *p = strchr(path + 1, '/'); p; p = strchr(p + 1, '/')) {
        *p = '\0';
        int rc = mkdir(path, 0755) == 0 || errno == EEXIST ? 0 : -1;
        *p = '/';
        if (rc != 0)
            return -1;
    }
    return 0;
}

/* Every file rendered into stage/<its path>. 0, or -1 with err. */
static int write_files(const char *root, const char *stage, const nl_lab *lab, char *err,
                       size_t errlen)
{
    for (int i = 0; i < N_FILES; i++) {
        char *tpath = gr_xasprintf("%s/data/newlab/%s", root, files[i].tmpl);
        char *tmpl = gr_read_file(tpath, NULL);
        if (!tmpl) {
            gr_set_err(err, errlen, "cannot read the template %s: %s", tpath, strerror(errno));
            free(tpath);
            return -1;
        }
        char *text = nl_render(tmpl, tpath + strlen(root) + 1, lab, err, errlen);
        free(tmpl);
        free(tpath);
        if (!text)
            return -1;
        char *rel = lab_path(NULL, files[i].path, lab), *path = gr_xasprintf("%s/%s", stage, rel);
        int rc = make_parents(path) == 0 ? gr_write_file_atomic(path, text, strlen(text)) : -1;
        if (rc != 0)
            gr_set_err(err, errlen, "cannot write %s: %s", path, strerror(errno));
        free(rel);
        free(path);
        free(text);
        if (rc != 0)
            return -1;
    }
    return 0;
}

/* The rules blocks of the staged stub and handout from the staged rubric, and
   the student's copy made the pristine stub. 0, or -1 with err. */
static int write_rules(const char *stage, const nl_lab *lab, char *err, size_t errlen)
{
    char *rubric = lab_path(stage, GR_LAYOUT_RUBRIC, lab);
    char *name = lab_path(NULL, GR_LAYOUT_RUBRIC, lab);
    char *contract_path = lab_path(NULL, GR_LAYOUT_CONTRACT, lab);
    char *contract = gr_xstrdup(strrchr(contract_path, '/') + 1);
    char *stub = lab_path(stage, GR_LAYOUT_STUB, lab);
    char *copy = lab_path(stage, GR_LAYOUT_STUDENT, lab);
    char *handout = lab_path(stage, GR_LAYOUT_HANDOUT, lab);
    free(contract_path);
    gr_rubric r;
    char *text = NULL, *stub_text = NULL;
    size_t len = 0;
    int changed, rc = gr_rubric_load(rubric, &r, err, errlen);
    if (rc == 0) {
        text = gr_rules_text(&r, contract, err, errlen);
        gr_rubric_free(&r);
        rc = text ? 0 : -1;
    }
    if (rc == 0)
        rc = gr_rules_write_file(stub, name, text, &changed, err, errlen);
    if (rc == 0)
        rc = gr_rules_write_file(handout, name, text, &changed, err, errlen);
    if (rc == 0 && (!(stub_text = gr_read_file(stub, &len)) ||
                    gr_write_file_atomic(copy, stub_text, len) != 0)) {
        gr_set_err(err, errlen, "cannot copy %s to %s: %s", stub, copy, strerror(errno));
        rc = -1;
    }
    free(stub_text);
    free(text);
    free(rubric);
    free(name);
    free(contract);
    free(stub);
    free(copy);
    free(handout);
    return rc;
}

/* Move each of moved[] from stage into root, never over anything; on a failure
   move back what was moved. 0, or -1 with err. */
static int move_in(const char *root, const char *stage, const nl_lab *lab, char *err,
                   size_t errlen)
{
    char *from[N_MOVED], *to[N_MOVED];
    int done = 0, rc = 0;
    for (int i = 0; i < N_MOVED; i++) {
        char *rel = lab_path(NULL, moved[i], lab);
        from[i] = gr_xasprintf("%s/%s", stage, rel);
        to[i] = gr_xasprintf("%s/%s", root, rel);
        free(rel);
    }
    for (; done < N_MOVED; done++)
        if (renameat2(AT_FDCWD, from[done], AT_FDCWD, to[done], RENAME_NOREPLACE) != 0) {
            gr_set_err(err, errlen, "cannot move %s into place: %s (nothing of lab %d was "
                       "kept)", to[done] + strlen(root) + 1, strerror(errno), lab->lab);
            rc = -1;
            break;
        }
    if (rc != 0)
        while (done-- > 0)
            rename(to[done], from[done]);
    for (int i = 0; i < N_MOVED; i++) {
        free(from[i]);
        free(to[i]);
    }
    return rc;
}

/* ---- the report ---------------------------------------------------------------------------- */

static long count_lines(const char *path)
{
    size_t len;
    char *text = gr_read_file(path, &len);
    long n = 0;
    for (size_t i = 0; text && i < len; i++)
        n += text[i] == '\n';
    free(text);
    return n;
}

static void report(FILE *out, const char *root, const nl_lab *lab)
{
    long total = 0, lines[N_FILES];
    for (int i = 0; i < N_FILES; i++) {
        char *rel = lab_path(NULL, files[i].path, lab), *path = gr_xasprintf("%s/%s", root, rel);
        total += lines[i] = count_lines(path);
        free(rel);
        free(path);
    }
    fprintf(out, "attnlab new-lab: lab %d, %s (%d function%s, %g points): %d files, %ld lines\n",
            lab->lab, lab->dir, lab->n_fns, lab->n_fns == 1 ? "" : "s", nl_points(lab), N_FILES,
            total);
    for (int i = 0; i < N_FILES; i++) {
        char *rel = lab_path(NULL, files[i].path, lab);
        fprintf(out, "  %-40s %4ld lines  %s\n", rel, lines[i], files[i].what);
        free(rel);
    }
    fprintf(out,
            "\nNext (doc/adding-a-lab.md):\n"
            "  1. solutions/%1$s/lab%2$02d.c: each function's body, between BEGIN SOLUTION\n"
            "     and END SOLUTION.\n"
            "  2. grader/labs/lab%2$02d.c: each function's expected outputs, between BEGIN\n"
            "     EXPECTED and END EXPECTED (its inputs between BEGIN INPUTS and END INPUTS\n"
            "     when normal draws do not fit); then its misconceptions.\n"
            "  3. the TODO(new-lab) lines: handout, contract comments, visible tests, rubric\n"
            "     tests (then 'attnlab rules --write --lab %3$d'), mutants.\n"
            "  4. make, then check: build/attnlab validate --lab %3$d;\n"
            "     sh scripts/dev-check.sh %1$s; make check.\n"
            "  5. syllabus.md: a \"### Lab %3$d:\" section with its points.\n",
            lab->dir, lab->lab, lab->lab);
}

/* ---- the command --------------------------------------------------------------------------- */

static int parse_name(const char *s, nl_lab *lab)
{
    size_t n = strlen(s);
    if (n == 0 || n > 20 || !(s[0] >= 'a' && s[0] <= 'z'))
        return -1;
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
            return -1;
    snprintf(lab->name, sizeof lab->name, "%s", s);
    snprintf(lab->dir, sizeof lab->dir, "lab%02d-%s", lab->lab, s);
    return 0;
}

/* Stage, fill the rules, move in, report. An exit status. */
static int scaffold(FILE *out, FILE *err, const char *root, const nl_lab *lab)
{
    char msg[2048];
    if (check_tree(root, lab, msg, sizeof msg) != 0) {
        fprintf(err, "attnlab new-lab: %s\n", msg);
        return GR_EXIT_USAGE;
    }
    char *stage = gr_xasprintf("%s/.new-lab-XXXXXX", root);
    if (!mkdtemp(stage)) {
        fprintf(err, "attnlab new-lab: cannot make a staging folder in %s: %s\n", root,
                strerror(errno));
        free(stage);
        return GR_EXIT_FAILED;
    }
    int rc = write_files(root, stage, lab, msg, sizeof msg);
    if (rc == 0)
        rc = write_rules(stage, lab, msg, sizeof msg);
    if (rc == 0)
        rc = move_in(root, stage, lab, msg, sizeof msg);
    remove_tree(stage);
    free(stage);
    if (rc != 0) {
        fprintf(err, "attnlab new-lab: %s\n", msg);
        return GR_EXIT_FAILED;
    }
    report(out, root, lab);
    return GR_EXIT_OK;
}

/* --function SIG: a function of the lab to. */
static int function_option(void *to, const char *value, char *why, size_t whylen)
{
    return nl_add_function(to, value, why, whylen) == 0 ? 0 : -1;
}

/* --shape A=S,..: an array's shape, of the function before it. */
static int shape_option(void *to, const char *value, char *why, size_t whylen)
{
    return nl_set_shape(to, value, why, whylen) == 0 ? 0 : -1;
}

/* --points P: the points of the function before it. */
static int points_option(void *to, const char *value, char *why, size_t whylen)
{
    nl_lab *lab = to;
    char *end;
    double p = strtod(value, &end);
    if (lab->n_fns == 0 || *end || end == value || !(p > 0) || p > 1000)
        return gr_opt_fail(why, whylen, "--points takes a number above 0 (at most 1000) "
                             "after the --function it is for (got '%s')", value);
    lab->fns[lab->n_fns - 1].points = p;
    return 0;
}

/* --title TEXT: one line for the lab's title. */
static int title_option(void *to, const char *value, char *why, size_t whylen)
{
    nl_lab *lab = to;
    if (!*value || strlen(value) > 120 || strpbrk(value, "\n\"\\"))
        return gr_opt_fail(why, whylen, "--title takes one line of at most 120 characters, "
                             "without quotes or backslashes");
    free(lab->title);
    lab->title = gr_xstrdup(value);
    return 0;
}

/* The options into lab, in order (--shape and --points apply to the function
   before them): 0 with *first the index of N, GR_OPTS_HELP after the usage on
   out, or a usage error's exit status. */
static int read_options(FILE *out, FILE *err, int argc, char **argv, nl_lab *lab,
                        const char **from, int *first)
{
    const gr_opt opts[] = {
        GR_CALL("function", 0, function_option, lab, "SIG",
                "a student function, its C signature in quotes:\n"
                "\"int lab_row_sums(float *out, const float *W, int rows, int n)\"\n"
                "(const arrays are inputs, other arrays outputs, ints sizes)"),
        GR_CALL("shape", 0, shape_option, lab, "A=S,..",
                "the shape of the last function's array A: each size an int\n"
                "argument or a number (--shape W=rows,n)"),
        GR_CALL("points", 0, points_option, lab, "P",
                "the last function's points (default 2)"),
        GR_TEXT("from", 0, from, "FILE",
                "the functions from a YAML file instead:\n"
                "  title: row sums of softmax weights\n"
                "  functions:\n"
                "    - signature: \"int lab_row_sums(float *out, const float *W, int rows, int n)\"\n"
                "      shapes: {out: [rows], W: [rows, n]}\n"
                "      points: 2"),
        GR_CALL("title", 0, title_option, lab, "TEXT",
                "the lab's title (default NAME)"),
    };
    return gr_opts_parse(&newlab_cmd, opts, GR_N_OPTS(opts), argc, argv, out, err, first);
}

int cmd_newlab_run(FILE *out, FILE *err, const char *root, int argc, char **argv)
{
    nl_lab lab = {0};
    const char *from = NULL;
    int first = 0, rc = read_options(out, err, argc, argv, &lab, &from, &first);
    char msg[1024], *end;
    if (rc != 0) {
        nl_free(&lab);
        return rc == GR_OPTS_HELP ? GR_EXIT_OK : rc;
    }
    if (argc - first != 2) {
        rc = gr_usage_fail(err, CMD, "give the lab's number and name: attnlab new-lab 11 "
                           "rowsums --function ...");
    } else {
        long n = strtol(argv[first], &end, 10);
        lab.lab = (int)n;
        if (*end || end == argv[first] || n < 1 || n > 99)
            rc = gr_usage_fail(err, CMD, "the lab number is a whole number from 1 to 99 "
                               "(got '%s')", argv[first]);
        else if (parse_name(argv[first + 1], &lab) != 0)
            rc = gr_usage_fail(err, CMD, "the name is 1 to 20 lowercase letters, digits and _, "
                               "starting with a letter (got '%s')", argv[first + 1]);
    }
    if (rc == 0 && from && lab.n_fns)
        rc = gr_usage_fail(err, CMD, "give the functions with --function or --from, not both");
    if (rc == 0 && from && nl_load_description(from, &lab, msg, sizeof msg) != 0)
        rc = gr_usage_fail(err, CMD, "%s", msg);
    if (rc == 0 && nl_check(&lab, msg, sizeof msg) != 0)
        rc = gr_usage_fail(err, CMD, "%s", msg);
    if (rc == 0 && !lab.title)
        lab.title = gr_xstrdup(lab.name);
    /* the tree only: new-lab needs no child objects (locate fills root first) */
    char found[PATH_MAX] = "", child_dir[PATH_MAX];
    if (rc == 0 && !root && gr_layout_locate(found, sizeof found, child_dir, sizeof child_dir, msg,
                                             sizeof msg) != 0 && !found[0])
        rc = gr_usage_fail(err, CMD, "%s", msg);
    if (rc == 0 && !root)
        root = found;
    char *modules = rc == 0 ? gr_xasprintf("%s/grader/labs", root) : NULL;
    if (rc == 0 && (!gr_layout_root_has_labs(root) || access(modules, F_OK) != 0))
        rc = gr_usage_fail(err, CMD, "new-lab writes into a source tree (labs/, grader/, data/), "
                           "and %s is not one: run it in a clone, or set ATTNLAB_ROOT to one", root);
    free(modules);
    if (rc == 0)
        rc = scaffold(out, err, root, &lab);
    else
        rc = GR_EXIT_USAGE;
    nl_free(&lab);
    return rc;
}

int cmd_newlab(int argc, char **argv)
{
    return cmd_newlab_run(stdout, stderr, NULL, argc, argv);
}
