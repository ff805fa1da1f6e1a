/* test_experiment.c: `attnlab experiment` and `attnlab plot` as a user sees
 * them, through cmd_experiment_run and cmd_plot_run_in. Run from the
 * repository root.
 *
 * What is checked:
 *   - each experiment's CSV: the lab's run columns in order, one row per x value;
 *   - its numbers are the lab module's expected outputs for the run's sizes
 *     (the test builds the same rubric test and calls make_case itself), to the
 *     last bit of the float, for two seeds;
 *   - what the handouts promise of them: masking's row sum 1 and drift 0 at no
 *     padding, entropy's scaled curve near ln 64 - 1/2;
 *   - the predictions (labsup.h, sup_predict.c) against measurement: the same
 *     for every seed, and within stated tolerances of the mean over seeds
 *     (masking over 20, entropy's raw limit over 8), the constant c(T) by hand;
 *   - every usage error is one line on err and exit 2;
 *   - plot with the solutions writes a .dat whose student columns equal the
 *     reference within the rubric's tolerance, and (with gnuplot) a PNG; with
 *     the untouched stubs the student columns are NaN and the command says why;
 *   - the heatmap's -inf scores are exactly its zero weights; without gnuplot
 *     the .dat is still written and the command says how to install it;
 *   - heatmap --lab 10: the solution's head equals the answer key's, rows
 *     summing to 1; a head read from the wrong plane is drawn, marked and
 *     named; the stub's head is missing and the command says why.
 * The sandboxed runs need child objects: the suite compiles its own (as
 * test_build.c does), so it depends on nothing built in build/ but itself.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/commands.h"
#include "engine/experiment.h"
#include "base/labmod.h"
#include "labsup.h"
#include "base/rubric.h"
#include "base/util.h"
#include "capture.h"
#include "fixtures/fixture_kit.h"

Suite *test_suite(void);

/* ---- the three experiments, as the labs' run_labNN.c define them ------------------------------ */

typedef struct exp_spec {
    const char *name;
    int lab;
    const char *header;                 /* the CSV's header row */
    int rows;                           /* x values of the run */
    const char *out[2];                 /* the two outputs' column names */
    const char *keys[5];                /* the module's sizes for the run */
    double values[5];
    int seed_param;                     /* 1: the run fixes the experiment's seed, {seed: S} */
} exp_spec;

static const exp_spec specs[3] = {
    { "entropy", 4, "d_k,H_raw,H_scaled,pred_raw,pred_scaled", 7, { "H_raw", "H_scaled" },
      { "dk_min", "dk_max", "T", "trials" }, { 8, 512, 64, 200 }, 1 },
    { "masking", 5, "pads,rowsum,rowsum_predicted,drift,drift_predicted", 8, { "rowsum", "drift" },
      { "T", "d", "n_pads", "doubling_pads" }, { 16, 32, 8, 1 }, 1 },
    { "saturation", 8, "d_k,g_raw,g_scaled,ratio,uniform", 7, { "g_raw", "g_scaled" },
      { "n_dk", "T", "trials", "dk_min" }, { 7, 64, 200, 8 }, 1 },
};

/* ---- running a command --------------------------------------------------------------------------- */

static char *child_dir;    /* the suite's own child objects (kit_setup) */

/* `attnlab plot` against this suite's tree and child objects. */
static int plot_in_kit(FILE *out, FILE *err, int argc, char **argv)
{
    return cmd_plot_run_in(out, err, fk_root(), child_dir, argc, argv);
}

#define EXPERIMENT(...) CAPTURE(cmd_experiment_run, "experiment", __VA_ARGS__)
#define PLOT(...) CAPTURE(plot_in_kit, "plot", __VA_ARGS__)

static int count_lines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

/* ---- a table of numbers: the CSV, or the .dat ------------------------------------------------------ */

#define MAX_COLS 12
#define MAX_ROWS 16

typedef struct table {
    int n_cols, n_rows;
    char names[MAX_COLS][32];
    double v[MAX_ROWS][MAX_COLS];
} table;

/* Split text at sep into at most MAX_COLS fields (in place); the count. */
static int split(char *line, const char *sep, char *f[MAX_COLS])
{
    int n = 0;
    char *save = NULL;
    for (char *tok = strtok_r(line, sep, &save); tok; tok = strtok_r(NULL, sep, &save)) {
        ck_assert_msg(n < MAX_COLS, "more than %d fields", MAX_COLS);
        f[n++] = tok;
    }
    return n;
}

static double number(const char *field)
{
    char *end;
    double v = strtod(field, &end);
    ck_assert_msg(end != field && *end == '\0', "'%s' is not a number", field);
    return v;
}

/* The CSV of `attnlab experiment --format csv`: the header row, then numbers. */
static table parse_csv(const char *csv)
{
    table t;
    memset(&t, 0, sizeof t);
    char *copy = strdup(csv), *save = NULL;
    char *f[MAX_COLS];
    char *line = strtok_r(copy, "\n", &save);
    ck_assert_ptr_nonnull(line);
    t.n_cols = split(line, ",", f);
    for (int c = 0; c < t.n_cols; c++)
        snprintf(t.names[c], sizeof t.names[c], "%s", f[c]);
    while ((line = strtok_r(NULL, "\n", &save)) != NULL) {
        ck_assert_msg(t.n_rows < MAX_ROWS, "more than %d rows", MAX_ROWS);
        ck_assert_int_eq(split(line, ",", f), t.n_cols);
        for (int c = 0; c < t.n_cols; c++)
            t.v[t.n_rows][c] = number(f[c]);
        t.n_rows++;
    }
    free(copy);
    return t;
}

/* A .dat of `attnlab plot`: the "# columns: 1 NAME 2 NAME ..." comment names the
   columns; other comments are skipped; rows are numbers separated by spaces. */
static table parse_dat(const char *path)
{
    table t;
    memset(&t, 0, sizeof t);
    size_t len;
    char *text = gr_read_file(path, &len);
    ck_assert_msg(text != NULL, "cannot read %s", path);
    char *save = NULL, *f[MAX_COLS];
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (strncmp(line, "# columns:", 10) == 0) {
            char *g[2 * MAX_COLS];
            int n = 0;
            char *s2 = NULL;
            for (char *tok = strtok_r(line + 10, " ", &s2); tok; tok = strtok_r(NULL, " ", &s2))
                g[n++] = tok;
            ck_assert_int_eq(n % 2, 0);
            t.n_cols = n / 2;
            for (int c = 0; c < t.n_cols; c++) {
                ck_assert_int_eq(atoi(g[2 * c]), c + 1);
                snprintf(t.names[c], sizeof t.names[c], "%s", g[2 * c + 1]);
            }
            continue;
        }
        if (line[0] == '#')
            continue;
        ck_assert_msg(t.n_cols > 0, "%s: a data row before the columns comment", path);
        ck_assert_msg(t.n_rows < MAX_ROWS, "more than %d rows", MAX_ROWS);
        ck_assert_int_eq(split(line, " ", f), t.n_cols);
        for (int c = 0; c < t.n_cols; c++)
            t.v[t.n_rows][c] = number(f[c]);
        t.n_rows++;
    }
    free(text);
    return t;
}

/* The index of column name; fails the test when there is none. */
static int col(const table *t, const char *name)
{
    for (int c = 0; c < t->n_cols; c++)
        if (strcmp(t->names[c], name) == 0)
            return c;
    ck_abort_msg("no column %s", name);
    return -1;
}

/* ---- the module's own case ------------------------------------------------------------------------- */

/* Build the run's case with the lab module directly, as the spec writes it down. */
static void module_case(const exp_spec *s, uint64_t seed, gr_case *c)
{
    char name[] = "run", kind[] = "experiment", keys[6][16], err[512] = "";
    gr_rubric_test t;
    memset(&t, 0, sizeof t);
    t.name = name;
    t.kind = kind;
    for (int k = 0; k < 4; k++) {
        snprintf(keys[k], sizeof keys[k], "%s", s->keys[k]);
        t.params[k].key = keys[k];
        t.params[k].value = s->values[k];
    }
    t.n_params = 4;
    if (s->seed_param) {
        snprintf(keys[4], sizeof keys[4], "seed");
        t.params[4].key = keys[4];
        t.params[4].value = (double)seed;
        t.n_params = 5;
    }
    memset(c, 0, sizeof *c);
    int rc = gr_lab_modules[s->lab - 1]->make_case(&t, seed, c, err, sizeof err);
    ck_assert_msg(rc == 0, "lab %d: make_case: %s", s->lab, err);
}

/* ---- the suite's child objects ------------------------------------------------------------------------ */

static char *kit_dir, *out_root;
static pid_t kit_owner;
static char kit_error[512];

static void kit_cleanup(void)
{
    if (kit_dir && getpid() == kit_owner)
        fk_rm_rf(kit_dir);
}

/* Compile the test child, the three labs' dispatch and the support code into
   a private child folder, as the Makefile compiles build/grader/child. */
static void kit_setup(void)
{
    if (kit_dir)
        return;
    kit_owner = getpid();
    kit_dir = fk_mkdtemp("experiment-test");
    if (!kit_dir) {
        snprintf(kit_error, sizeof kit_error, "cannot make a temporary directory");
        return;
    }
    atexit(kit_cleanup);
    child_dir = gr_xasprintf("%s/stub", kit_dir);
    out_root = gr_xasprintf("%s/out", kit_dir);
    if (mkdir(child_dir, 0755) != 0 || mkdir(out_root, 0755) != 0) {
        snprintf(kit_error, sizeof kit_error, "cannot make %s", child_dir);
        return;
    }
    /* each lab's dispatch is generated from its manifest into the build's gen/ */
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) {
        snprintf(kit_error, sizeof kit_error, "cannot read /proc/self/exe");
        return;
    }
    exe[n] = '\0';
    *strrchr(exe, '/') = '\0';                 /* <build>/grader/tests */
    static const char *const parts[][2] = {
        { "grader/child/child_main.c", "child_main.o" },
        { "gen/lab04_dispatch.c", "lab04_dispatch.o" },
        { "gen/lab05_dispatch.c", "lab05_dispatch.o" },
        { "gen/lab08_dispatch.c", "lab08_dispatch.o" },
        { "gen/lab10_dispatch.c", "lab10_dispatch.o" },
        { "lib/sup_rng.c", "sup_rng.o" },
        { "lib/sup_tensor.c", "sup_tensor.o" },
    };
    char *log = gr_xasprintf("%s/kit.log", kit_dir);
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        char *src = strncmp(parts[i][0], "gen/", 4) == 0
                        ? gr_xasprintf("%s/../../%s", exe, parts[i][0])
                        : gr_xasprintf("%s/%s", fk_root(), parts[i][0]);
        char *obj = gr_xasprintf("%s/%s", child_dir, parts[i][1]);
        int rc = fk_cc(src, obj, log);
        free(src);
        free(obj);
        if (rc != 0) {
            snprintf(kit_error, sizeof kit_error, "cannot compile %s; see %s", parts[i][0], log);
            break;
        }
    }
    free(log);
}

static void need_kit(void)
{
    ck_assert_msg(kit_error[0] == '\0', "%s", kit_error);
}

/* A fresh output folder for one test. */
static char *out_dir(const char *what)
{
    char *d = gr_xasprintf("%s/%s-%d", out_root, what, (int)getpid());
    fk_rm_rf(d);
    return d;
}

/* A submission of every lab's pristine stub (data/stubs), in the labs/ layout:
   what a student starts from, whatever the tree's labs/ now hold. */
static char *stub_submission(void)
{
    char *sub = out_dir("stubs");
    ck_assert_int_eq(mkdir(sub, 0755), 0);
    for (int lab = 1; lab <= GR_N_LABS; lab++) {
        char *dir = gr_xasprintf("%s/%s", sub, gr_lab_modules[lab - 1]->dir);
        char *from = gr_xasprintf("data/stubs/lab%02d.c", lab);
        char *to = gr_xasprintf("%s/lab%02d.c", dir, lab);
        size_t len;
        char *text = gr_read_file(from, &len);
        ck_assert_msg(text && mkdir(dir, 0755) == 0 && gr_write_file_atomic(to, text, len) == 0,
                      "cannot copy %s to %s", from, to);
        free(text);
        free(dir);
        free(from);
        free(to);
    }
    return sub;
}

static int have_gnuplot(void)
{
    const char *path = getenv("PATH");
    if (!path)
        return 0;
    char *copy = strdup(path), *save = NULL;
    int found = 0;
    for (char *dir = strtok_r(copy, ":", &save); dir && !found; dir = strtok_r(NULL, ":", &save)) {
        char *p = gr_xasprintf("%s/gnuplot", dir);
        found = access(p, X_OK) == 0;
        free(p);
    }
    free(copy);
    return found;
}

/* A PNG file: it starts with the 8-byte PNG signature. */
static void assert_png(const char *path)
{
    static const unsigned char sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
    size_t len;
    char *data = gr_read_file(path, &len);
    ck_assert_msg(data != NULL, "no PNG at %s", path);
    ck_assert_msg(len > 8 && memcmp(data, sig, 8) == 0, "%s does not start with the PNG signature",
                  path);
    free(data);
}

/* ---- attnlab experiment --------------------------------------------------------------------------------- */

START_TEST(test_csv_layout)
{
    const exp_spec *s = &specs[_i];
    run_result r = EXPERIMENT(s->name, "--format", "csv");
    ck_assert_msg(r.rc == 0, "%s: exit %d: %s", s->name, r.rc, r.err);
    ck_assert_str_eq(r.err, "");
    ck_assert_int_eq(strncmp(r.out, s->header, strlen(s->header)), 0);
    ck_assert_int_eq(r.out[strlen(s->header)], '\n');
    ck_assert_int_eq(count_lines(r.out), 1 + s->rows);
    table t = parse_csv(r.out);
    ck_assert_int_eq(t.n_rows, s->rows);
    free_result(&r);
}
END_TEST

START_TEST(test_reference_is_the_module_case)
{
    const exp_spec *s = &specs[_i];
    static const uint64_t seeds[] = { 1, 7 };
    for (size_t k = 0; k < sizeof seeds / sizeof seeds[0]; k++) {
        char seed[24];
        snprintf(seed, sizeof seed, "%llu", (unsigned long long)seeds[k]);
        run_result r = EXPERIMENT(s->name, "--seed", seed, "--format", "csv");
        ck_assert_msg(r.rc == 0, "%s: exit %d: %s", s->name, r.rc, r.err);
        table t = parse_csv(r.out);
        gr_case c;
        module_case(s, seeds[k], &c);
        ck_assert_int_eq(c.expected_status, LAB_OK);
        ck_assert_int_eq((int)c.call.bufs[2].count, t.n_rows);
        /* the experiment runs with --seed itself, as make run SEED=S does */
        ck_assert_int_eq(c.call.ints[3], (int64_t)seeds[k]);
        const int32_t *x = c.call.bufs[2].data;
        for (int i = 0; i < t.n_rows; i++) {
            ck_assert_double_eq(t.v[i][0], (double)x[i]);
            for (int o = 0; o < 2; o++) {
                /* %.9g round-trips a float exactly */
                float got = (float)t.v[i][col(&t, s->out[o])];
                float want = ((const float *)c.expected[o])[i];
                ck_assert_msg(got == want, "%s seed %s: %s[%d] = %.9g, the module expects %.9g",
                              s->name, seed, s->out[o], i, (double)got, (double)want);
            }
        }
        gr_case_free(&c);
        free_result(&r);
    }
}
END_TEST

START_TEST(test_masking_no_padding)
{
    run_result r = EXPERIMENT("masking", "--format", "csv");
    ck_assert_int_eq(r.rc, 0);
    table t = parse_csv(r.out);
    int pads = col(&t, "pads"), sum = col(&t, "rowsum"), drift = col(&t, "drift");
    /* no padding: nothing to lose, nothing to drift, and the predictions agree */
    ck_assert_double_eq(t.v[0][pads], 0.0);
    ck_assert_double_eq_tol(t.v[0][sum], 1.0, 1e-6);
    ck_assert_double_eq(t.v[0][drift], 0.0);
    ck_assert_double_eq_tol(t.v[0][col(&t, "rowsum_predicted")], 1.0, 1e-6);
    ck_assert_double_eq(t.v[0][col(&t, "drift_predicted")], 0.0);
    for (int i = 1; i < t.n_rows; i++) {
        ck_assert_double_gt(t.v[i][pads], t.v[i - 1][pads]);
        ck_assert_double_lt(t.v[i][sum], t.v[i - 1][sum]);      /* mass lost grows */
        ck_assert_double_gt(t.v[i][drift], 0.0);
    }
    free_result(&r);
}
END_TEST

/* The mean over seeds 1..n of each column of an experiment's CSV (rows alike). */
static table seed_means(const char *name, int n)
{
    table mean;
    memset(&mean, 0, sizeof mean);
    for (int s = 1; s <= n; s++) {
        char seed[16];
        snprintf(seed, sizeof seed, "%d", s);
        run_result r = EXPERIMENT(name, "--format", "csv", "--seed", seed);
        ck_assert_int_eq(r.rc, 0);
        table t = parse_csv(r.out);
        if (s == 1) {
            mean = t;
            memset(mean.v, 0, sizeof mean.v);
        }
        for (int i = 0; i < t.n_rows; i++)
            for (int c = 0; c < t.n_cols; c++)
                mean.v[i][c] += t.v[i][c] / n;
        free_result(&r);
    }
    return mean;
}

/* Masking's predictions come from the score distribution, not from a seed's
   draws: the same for every seed, and within the stated tolerance of the
   measured mean over 20 seeds (over 400 seeds the row sum's prediction is
   0.005 to 0.013 above the mean and the drift's 5 to 10% above it). */
START_TEST(test_masking_predictions)
{
    run_result r1 = EXPERIMENT("masking", "--format", "csv", "--seed", "1");
    run_result r2 = EXPERIMENT("masking", "--format", "csv", "--seed", "2");
    table t1 = parse_csv(r1.out), t2 = parse_csv(r2.out);
    int sum = col(&t1, "rowsum"), psum = col(&t1, "rowsum_predicted");
    int drift = col(&t1, "drift"), pdrift = col(&t1, "drift_predicted");
    for (int i = 1; i < t1.n_rows; i++) {
        ck_assert_double_ne(t1.v[i][sum], t2.v[i][sum]);
        ck_assert_double_eq(t1.v[i][psum], t2.v[i][psum]);
        ck_assert_double_eq(t1.v[i][pdrift], t2.v[i][pdrift]);
    }
    free_result(&r1);
    free_result(&r2);

    table m = seed_means("masking", 20);
    for (int i = 1; i < m.n_rows; i++) {
        ck_assert_msg(fabs(m.v[i][psum] - m.v[i][sum]) <= 0.03,
                      "pads %g: mean row sum %.4f, predicted %.4f", m.v[i][0], m.v[i][sum],
                      m.v[i][psum]);
        double ratio = m.v[i][drift] / m.v[i][pdrift];
        ck_assert_msg(ratio >= 0.75 && ratio <= 1.05, "pads %g: mean drift %.4f, predicted %.4f",
                      m.v[i][0], m.v[i][drift], m.v[i][pdrift]);
    }
}
END_TEST

/* The derived constant: for T = 2 the gap of two standard normals has density
   1/sqrt(pi) at 0, so c(2) = (pi^2/6) / sqrt(pi); c(64) = 3.855. */
START_TEST(test_entropy_constant)
{
    ck_assert_double_eq_tol(sup_predict_entropy_c(2), M_PI * M_PI / 6.0 / sqrt(M_PI), 1e-6);
    ck_assert_double_eq_tol(sup_predict_entropy_c(64), 3.855, 5e-4);
    ck_assert_double_eq_tol(sup_predict_entropy_raw(64, 256), 3.855 / 16, 5e-5);
    ck_assert_double_eq_tol(sup_predict_masking_rowsum(0, 16), 1.0, 1e-9);
    /* one pad among T real keys at a = 1/2: the row keeps T / (T + 1) */
    ck_assert_double_lt(sup_predict_masking_rowsum(1, 16), 1.0);
    ck_assert_double_gt(sup_predict_masking_rowsum(1, 16), 16.0 / 17.0 - 0.02);
    ck_assert_double_eq(sup_predict_masking_drift(0, 16, 32), 0.0);
}
END_TEST

START_TEST(test_entropy_curves)
{
    run_result r = EXPERIMENT("entropy", "--format", "csv");
    ck_assert_int_eq(r.rc, 0);
    table t = parse_csv(r.out);
    double plateau = log(64.0) - 0.5;
    for (int i = 0; i < t.n_rows; i++) {
        ck_assert_double_eq_tol(t.v[i][col(&t, "H_scaled")], plateau, 0.1);
        ck_assert_double_eq_tol(t.v[i][col(&t, "pred_scaled")], plateau, 1e-7);
        ck_assert_double_eq_tol(t.v[i][col(&t, "pred_raw")],
                                sup_predict_entropy_c(64) / sqrt(t.v[i][0]), 1e-7);
        if (i > 0)      /* raw scores: the weights collapse as d_k grows */
            ck_assert_double_lt(t.v[i][col(&t, "H_raw")], t.v[i - 1][col(&t, "H_raw")]);
    }
    free_result(&r);
    /* the limit is approached from above: over 8 seeds the mean H_raw at
       d_k = 256 and 512 is 0 to 20% above it (over 400 seeds, 11% and 7%) */
    table m = seed_means("entropy", 8);
    for (int i = m.n_rows - 2; i < m.n_rows; i++) {
        double ratio = m.v[i][col(&m, "H_raw")] / m.v[i][col(&m, "pred_raw")];
        ck_assert_msg(ratio >= 1.0 && ratio <= 1.2, "d_k %g: mean H_raw / pred_raw = %.3f",
                      m.v[i][0], ratio);
    }
}
END_TEST

START_TEST(test_table)
{
    run_result r = EXPERIMENT("saturation");
    ck_assert_int_eq(r.rc, 0);
    ck_assert_ptr_nonnull(strstr(r.out, "attnlab experiment saturation: the answer key's numbers for lab 8\n"));
    ck_assert_ptr_nonnull(strstr(r.out, "T = 64 keys, 200 trials, d_k = 8, 16, ..., 512, seed 1"));
    ck_assert_ptr_nonnull(strstr(r.out, "g_raw"));
    ck_assert_ptr_nonnull(strstr(r.out, "attnlab plot saturation --seed 1"));
    free_result(&r);
}
END_TEST

/* ---- usage errors ------------------------------------------------------------------------------------------ */

typedef struct bad_line {
    int plot;
    const char *args[4];
    const char *says;      /* part of the one line on err */
} bad_line;

static const bad_line bad_lines[] = {
    { 0, { NULL }, "name the experiment" },
    { 0, { "entropi" }, "'entropi' is not an experiment" },
    { 0, { "heatmap" }, "is not an experiment" },
    { 0, { "entropy", "masking" }, "unexpected argument 'masking'" },
    { 0, { "entropy", "--seed", "-1" }, "--seed takes a whole number" },
    { 0, { "entropy", "--seed", "1.5" }, "--seed takes a whole number" },
    { 0, { "entropy", "--seed", "9007199254740993" }, "--seed takes a whole number" },
    { 0, { "entropy", "--format", "json" }, "--format must be table or csv" },
    { 0, { "entropy", "--format" }, "needs a value" },
    { 0, { "entropy", "--T", "5" }, "unknown option '--T'" },
    { 1, { NULL }, "name the plot" },
    { 1, { "histogram" }, "'histogram' is not a plot" },
    { 1, { "entropy", "--seed", "x" }, "--seed takes a whole number" },
    { 1, { "entropy", "--out", "" }, "--out needs a folder" },
    { 1, { "entropy", "--submission" }, "needs a value" },
    { 1, { "heatmap", "--submission", "labs" }, "--submission is for" },
    { 1, { "heatmap", "--lab", "9" }, "--lab takes 10" },
    { 1, { "entropy", "--lab", "10" }, "--lab is for heatmap" },
    { 1, { "entropy", "extra" }, "unexpected argument 'extra'" },
};

START_TEST(test_usage_errors)
{
    const bad_line *b = &bad_lines[_i];
    int n = 0;
    while (n < 4 && b->args[n])
        n++;
    run_result r = b->plot ? run_command(plot_in_kit, "plot", n, b->args)
                           : run_command(cmd_experiment_run, "experiment", n, b->args);
    check_usage_error(&r, _i, b->plot ? "attnlab plot: " : "attnlab experiment: ", b->says);
    free_result(&r);
}
END_TEST

START_TEST(test_help)
{
    run_result r = EXPERIMENT("--help");
    ck_assert_int_eq(r.rc, 0);
    ck_assert_int_eq(strncmp(r.out, "usage: attnlab experiment", 25), 0);
    ck_assert_str_eq(r.err, "");
    /* what the runs really do (test_reference_is_the_module_case checks it):
       seed S as given, the pads of run_lab05.c */
    ck_assert_ptr_nonnull(strstr(r.out, "with seed S itself"));
    ck_assert_ptr_nonnull(strstr(r.out, "pads 0, 1, 2, 4, 8, 16, 32, 64"));
    ck_assert_ptr_null(strstr(r.out, "own experiment seed"));
    free_result(&r);
    r = PLOT("-h");
    ck_assert_int_eq(r.rc, 0);
    ck_assert_int_eq(strncmp(r.out, "usage: attnlab plot", 19), 0);
    free_result(&r);
}
END_TEST

/* ---- attnlab plot ------------------------------------------------------------------------------------------- */

/* The rubric tolerance a student's experiment is held to: the lab's first
   experiment test (the ones that break the contract come after). */
static void rubric_tolerance(int lab, double *abs_tol, double *rel_tol)
{
    char path[64], err[512];
    snprintf(path, sizeof path, "data/rubrics/lab%02d.yaml", lab);
    gr_rubric r;
    ck_assert_msg(gr_rubric_load(path, &r, err, sizeof err) == 0, "%s", err);
    int found = 0;
    for (int i = 0; i < r.n_tests && !found; i++)
        if (strcmp(r.tests[i].kind, "experiment") == 0) {
            *abs_tol = r.tests[i].abs_tol;
            *rel_tol = r.tests[i].rel_tol;
            found = 1;
        }
    gr_rubric_free(&r);
    ck_assert_msg(found, "%s has no experiment test", path);
}

START_TEST(test_plot_solutions)
{
    need_kit();
    const exp_spec *s = &specs[_i];
    char *dir = out_dir(s->name);
    run_result r = PLOT(s->name, "--submission", "solutions", "--out", dir);
    int gnuplot = have_gnuplot();
    ck_assert_msg(r.rc == (gnuplot ? 0 : 1), "%s: exit %d\n%s%s", s->name, r.rc, r.out, r.err);
    ck_assert_msg(strstr(r.out, "passed") != NULL, "%s: %s", s->name, r.out);

    char *dat = gr_xasprintf("%s/%s.dat", dir, s->name);
    ck_assert_ptr_nonnull(strstr(r.out, dat));
    table t = parse_dat(dat);
    ck_assert_int_eq(t.n_rows, s->rows);
    double abs_tol, rel_tol;
    rubric_tolerance(s->lab, &abs_tol, &rel_tol);
    for (int o = 0; o < 2; o++) {
        char student[48];
        snprintf(student, sizeof student, "%s_student", s->out[o]);
        int ref = col(&t, s->out[o]), got = col(&t, student);
        ck_assert_int_gt(got, ref);
        for (int i = 0; i < t.n_rows; i++) {
            double want = t.v[i][ref], have = t.v[i][got];
            ck_assert_msg(fabs(have - want) <= abs_tol + rel_tol * fabs(want),
                          "%s: %s at %g: student %.9g, reference %.9g", s->name, s->out[o],
                          t.v[i][0], have, want);
        }
    }
    if (gnuplot) {
        char *png = gr_xasprintf("%s/%s.png", dir, s->name);
        ck_assert_ptr_nonnull(strstr(r.out, png));
        assert_png(png);
        free(png);
    }
    free(dat);
    free_result(&r);
    fk_rm_rf(dir);
    free(dir);
}
END_TEST

START_TEST(test_plot_stubs)
{
    need_kit();
    const exp_spec *s = &specs[_i];
    char *dir = out_dir(s->name);
    char *stubs = stub_submission();
    run_result r = PLOT(s->name, "--out", dir, "--submission", stubs);
    int gnuplot = have_gnuplot();
    ck_assert_msg(r.rc == (gnuplot ? 0 : 1), "%s: exit %d\n%s%s", s->name, r.rc, r.out, r.err);
    ck_assert_msg(strstr(r.out, "your curve is missing: ") != NULL, "%s: %s", s->name, r.out);
    ck_assert_msg(strstr(r.out, ": not implemented: ") != NULL, "%s: %s", s->name, r.out);
    ck_assert_msg(strstr(r.out, "still returns LAB_NOT_IMPLEMENTED") != NULL, "%s: %s", s->name, r.out);

    char *dat = gr_xasprintf("%s/%s.dat", dir, s->name);
    table t = parse_dat(dat);
    ck_assert_int_eq(t.n_rows, s->rows);
    for (int o = 0; o < 2; o++) {
        char student[48];
        snprintf(student, sizeof student, "%s_student", s->out[o]);
        int ref = col(&t, s->out[o]), got = col(&t, student);
        for (int i = 0; i < t.n_rows; i++) {
            ck_assert(isnan(t.v[i][got]));
            ck_assert(isfinite(t.v[i][ref]));   /* the reference is still there */
        }
    }
    if (gnuplot) {
        char *png = gr_xasprintf("%s/%s.png", dir, s->name);
        assert_png(png);
        free(png);
    }
    free(dat);
    free_result(&r);
    fk_rm_rf(dir);
    free(dir);
}
END_TEST

/* With gnuplot on PATH, DIR/NAME.png was written, said so, and is a PNG. */
static void expect_png(const run_result *r, const char *dir, const char *name)
{
    if (!have_gnuplot())
        return;
    char *png = gr_xasprintf("%s/%s.png", dir, name);
    ck_assert_ptr_nonnull(strstr(r->out, png));
    assert_png(png);
    free(png);
}

/* The three rows x cols blocks of a heatmap .dat into m (3 * rows * cols,
   block by block); -inf and NaN as written. */
static void parse_blocks(const char *dat, int rows, int cols, double *m)
{
    size_t len;
    char *text = gr_read_file(dat, &len);
    ck_assert_ptr_nonnull(text);
    int block = 0, row = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#')
            continue;
        if (row == rows) {
            block++;
            row = 0;
        }
        ck_assert_int_lt(block, 3);
        char *f[MAX_COLS];
        ck_assert_int_eq(split(line, " ", f), cols);
        for (int j = 0; j < cols; j++)
            m[((long)block * rows + row) * cols + j] = number(f[j]);
        row++;
    }
    ck_assert_int_eq(block, 2);
    ck_assert_int_eq(row, rows);
    free(text);
}

enum { HEADS_TQ = 10, HEADS_TK = 12 };

/* The heatmap's three T x T blocks: scores, weights, mask. */
START_TEST(test_plot_heatmap)
{
    need_kit();
    char *dir = out_dir("heatmap");
    run_result r = PLOT("heatmap", "--out", dir, "--seed", "3");
    int gnuplot = have_gnuplot();
    ck_assert_msg(r.rc == (gnuplot ? 0 : 1), "exit %d\n%s%s", r.rc, r.out, r.err);
    char *dat = gr_xasprintf("%s/heatmap.dat", dir);
    enum { T = 12 };
    double m[3][T][T];
    parse_blocks(dat, T, T, &m[0][0][0]);
    int masked = 0;
    for (int i = 0; i < T; i++) {
        double sum = 0;
        for (int j = 0; j < T; j++) {
            int is_masked = j > i || j >= T - 3;     /* causal, and the last 3 keys padding */
            ck_assert_int_eq((int)m[2][i][j], is_masked);
            ck_assert_int_eq(isinf(m[0][i][j]) && m[0][i][j] < 0, is_masked);
            if (is_masked)
                ck_assert(m[1][i][j] == 0.0);            /* -inf score: weight exactly 0 */
            else
                ck_assert_double_gt(m[1][i][j], 0.0);    /* any finite score: positive */
            sum += m[1][i][j];
            masked += is_masked;
        }
        ck_assert_double_eq_tol(sum, 1.0, 1e-5);
    }
    ck_assert_int_gt(masked, 0);
    expect_png(&r, dir, "heatmap");
    free(dat);
    free_result(&r);
    fk_rm_rf(dir);
    free(dir);
}
END_TEST

/* heatmap --lab 10 with the solutions, a mutant reading plane h * B + b, and
   the stub (_i = 0, 1, 2). */
START_TEST(test_plot_heads)
{
    need_kit();
    char *dir = out_dir("heads");
    char *sub = gr_xasprintf("%s/sub-%d", out_root, (int)getpid());
    char *stubs = _i == 2 ? stub_submission() : NULL;
    const char *submission = _i == 0 ? "solutions" : _i == 2 ? stubs : sub;
    if (_i == 1) {
        /* the solution with the head taken from plane h * B + b */
        size_t len;
        char *src = gr_read_file("solutions/lab10-heads/lab10.c", &len);
        ck_assert_ptr_nonnull(src);
        const char *from = "W + ((long)b * H + h) * Tq * Tk;";
        char *at = strstr(src, from);
        ck_assert_ptr_nonnull(at);
        char *mutant = gr_xasprintf("%.*sW + ((long)h * B + b) * Tq * Tk;%s", (int)(at - src), src,
                                    at + strlen(from));
        char *folder = gr_xasprintf("%s/lab10-heads", sub);
        char *file = gr_xasprintf("%s/lab10.c", folder);
        ck_assert_int_eq(mkdir(sub, 0755), 0);
        ck_assert_int_eq(mkdir(folder, 0755), 0);
        ck_assert_int_eq(gr_write_file_atomic(file, mutant, strlen(mutant)), 0);
        free(file);
        free(folder);
        free(mutant);
        free(src);
    }
    run_result r = PLOT("heatmap", "--lab", "10", "--submission", submission, "--out", dir);
    int gnuplot = have_gnuplot();
    ck_assert_msg(r.rc == (gnuplot ? 0 : 1), "exit %d\n%s%s", r.rc, r.out, r.err);
    static const char *const says[3] = {
        "your head: ", "your head: ", "your head is missing: "
    };
    static const char *const why[3] = {
        ": passed", "this is what head and batch axes swapped when extracting gives",
        "still returns LAB_NOT_IMPLEMENTED"
    };
    ck_assert_msg(strstr(r.out, says[_i]) && strstr(r.out, why[_i]), "%s", r.out);

    char *dat = gr_xasprintf("%s/heads.dat", dir);
    ck_assert_ptr_nonnull(strstr(r.out, dat));
    double m[3][HEADS_TQ][HEADS_TK];
    parse_blocks(dat, HEADS_TQ, HEADS_TK, &m[0][0][0]);
    int differ = 0;
    for (int i = 0; i < HEADS_TQ; i++) {
        double sum = 0;
        for (int j = 0; j < HEADS_TK; j++) {
            sum += m[0][i][j];
            if (_i == 2)
                ck_assert(isnan(m[1][i][j]) && m[2][i][j] == 0);
            else
                ck_assert_int_eq((int)m[2][i][j], m[1][i][j] != m[0][i][j]);
            differ += (int)m[2][i][j];
        }
        ck_assert_double_eq_tol(sum, 1.0, 1e-5);   /* a row of weights */
    }
    ck_assert_msg(_i == 1 ? differ > 0 : differ == 0, "%d cells differ", differ);
    expect_png(&r, dir, "heads");
    free(dat);
    free_result(&r);
    fk_rm_rf(dir);
    fk_rm_rf(sub);
    free(dir);
    free(sub);
}
END_TEST

START_TEST(test_plot_without_gnuplot)
{
    need_kit();
    char *dir = out_dir("nognuplot");
    char *path = strdup(getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
    setenv("PATH", "/nonexistent", 1);
    run_result r = PLOT("heatmap", "--out", dir);
    setenv("PATH", path, 1);
    free(path);
    ck_assert_int_eq(r.rc, 1);
    ck_assert_msg(strstr(r.err, "gnuplot is not installed") != NULL, "%s", r.err);
    ck_assert_msg(strstr(r.err, "apt-get install gnuplot") != NULL, "%s", r.err);
    char *dat = gr_xasprintf("%s/heatmap.dat", dir), *png = gr_xasprintf("%s/heatmap.png", dir);
    ck_assert_msg(strstr(r.out, dat) != NULL, "%s", r.out);
    ck_assert_int_eq(access(dat, R_OK), 0);
    ck_assert_int_ne(access(png, F_OK), 0);
    free(dat);
    free(png);
    free_result(&r);
    fk_rm_rf(dir);
    free(dir);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("experiment");

    TCase *tc = tcase_create("experiment");
    tcase_add_loop_test(tc, test_csv_layout, 0, 3);
    tcase_add_loop_test(tc, test_reference_is_the_module_case, 0, 3);
    tcase_add_test(tc, test_masking_no_padding);
    tcase_add_test(tc, test_masking_predictions);
    tcase_add_test(tc, test_entropy_constant);
    tcase_add_test(tc, test_entropy_curves);
    tcase_add_test(tc, test_table);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);

    tc = tcase_create("usage");
    tcase_add_loop_test(tc, test_usage_errors, 0, (int)(sizeof bad_lines / sizeof bad_lines[0]));
    tcase_add_test(tc, test_help);
    suite_add_tcase(s, tc);

    tc = tcase_create("plot");
    tcase_add_unchecked_fixture(tc, kit_setup, NULL);
    tcase_add_loop_test(tc, test_plot_solutions, 0, 3);
    tcase_add_loop_test(tc, test_plot_stubs, 0, 3);
    tcase_add_test(tc, test_plot_heatmap);
    tcase_add_loop_test(tc, test_plot_heads, 0, 3);
    tcase_add_test(tc, test_plot_without_gnuplot);
    tcase_set_timeout(tc, 120);
    suite_add_tcase(s, tc);
    return s;
}
