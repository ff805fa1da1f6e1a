/* cmd_plot.c: `attnlab plot`, an experiment's answer-key numbers beside the
 * student's own as a PNG, or one attention example as a heatmap.
 *
 * For entropy, masking and saturation: the reference is the lab module's case
 * for the lab's standard run, and the student's numbers are what their lab
 * file returns for that very case in the sandbox (experiment.h). For heatmap:
 * scores and weights of one small causal, padded example from libattn; with
 * --lab 10, one head of lab 10's per-head weights as the answer key extracts
 * it, beside what the student's lab_extract_head makes of the same call (the
 * module's extract case, run in the sandbox the same way).
 *
 * Each plot is OUT/NAME.dat (gnuplot data: a comment header naming the columns,
 * the seed and the sizes), written atomically, and OUT/NAME.png drawn from it by
 * the version-controlled script data/plots/NAME.gp:
 *
 *     gnuplot -d -c data/plots/NAME.gp NAME.dat NAME.png NOTE1 NOTE2 HAVE_STUDENT
 *
 * (NOTE1, NOTE2: two lines under the title; HAVE_STUDENT: 1 when the .dat holds
 * the student's numbers). gnuplot runs as a trusted tool (tool.h: fork/exec,
 * never through a shell, with a time limit), and draws into a temporary file
 * renamed into place.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "attn.h"
#include "cli/commands.h"
#include "cli/opts.h"
#include "cli/cli.h"
#include "engine/experiment.h"
#include "engine/gnuplot.h"
#include "engine/grade.h"
#include "labsup.h"
#include "confined/tool.h"
#include "base/util.h"
#include "base/layout.h"


/* The heatmap's example: T queries and keys of size d, the last PAD keys padding. */
#define HEAT_T   12
#define HEAT_D   8
#define HEAT_PAD 3

/* The lab 10 heatmap: one head (b, h) of per-head weights (B, H, Tq, Tk). */
#define HEADS_LAB 10
#define HEADS_B   2
#define HEADS_H   4
#define HEADS_TQ  10
#define HEADS_TK  12
#define HEADS_b   1
#define HEADS_h   2

static const gr_cmd_spec plot_cmd = {
    .name = "plot",
    .synopsis =
    "entropy|masking|saturation|heatmap [--lab 10]\n"
    "                    [--submission DIR] [--out DIR] [--seed S]",
    .about =
    "Draw one of the course's plots as a PNG, with gnuplot:\n"
    "\n"
    "  entropy     lab 4: entropy of the weights vs d_k, raw and scaled scores\n"
    "  masking     lab 5: post-softmax masking, row sum and output drift vs pad keys\n"
    "  saturation  lab 8: mean ||ds|| of softmax backward vs d_k, raw and scaled\n"
    "  heatmap     one attention example: scores next to weights, T = 12, causal,\n"
    "              the last 3 keys padding, so you see -inf become a weight of exactly 0\n"
    "  heatmap --lab 10\n"
    "              one head (b = 1, h = 2) of per-head weights (B = 2, H = 4, Tq = 10,\n"
    "              Tk = 12): the answer key's next to what your lab_extract_head gives\n"
    "              (written as heads.dat and heads.png)\n",
    .after =
    "For the three experiments, the reference curves are the answer key's numbers\n"
    "(attnlab experiment NAME prints them), and your curves are what your lab file\n"
    "returns for the very same call: attnlab builds it and runs it in the sandbox, as\n"
    "attnlab grade does (heatmap --lab 10 runs your lab_extract_head the same way).\n"
    "If your lab is not implemented yet, does not build or crashes, the reference is\n"
    "plotted alone and one line says why yours is missing.\n"
    "\n"
    "NAME.dat is plain gnuplot data (comment lines start with #); the PNG is drawn\n"
    "by data/plots/NAME.gp, which you can run yourself:\n"
    "  gnuplot -c data/plots/NAME.gp NAME.dat NAME.png\n"
    "\n"
    "Exit status: 0 plotted, 1 no PNG (gnuplot missing or failing, a file could not\n"
    "be written), 2 usage error.\n",
    .max_args = -1,
    .column = 20,
};

/* ---- the command line ------------------------------------------------------------------ */

typedef struct plot_opts {
    const char *name;               /* entropy, masking, saturation or heatmap */
    const gr_experiment *e;         /* NULL for heatmap */
    int lab;                        /* heatmap --lab 10: lab 10's heads; else 0 */
    const char *submission, *out_dir;
    uint64_t seed;
} plot_opts;

/* A folder's name, not empty, into *(const char **)to; opt names it. */
static int folder_option(const char *opt, void *to, const char *value, char *why, size_t whylen)
{
    if (!*value)
        return gr_opt_fail(why, whylen, "%s needs a folder", opt);
    *(const char **)to = value;
    return 0;
}

/* --submission DIR and --out DIR. */
static int submission_option(void *to, const char *value, char *why, size_t whylen)
{
    return folder_option("--submission", to, value, why, whylen);
}

static int out_option(void *to, const char *value, char *why, size_t whylen)
{
    return folder_option("--out", to, value, why, whylen);
}

/* --lab 10: the lab whose heatmap is plotted, into *(int *)to. */
static int lab_option(void *to, const char *value, char *why, size_t whylen)
{
    if (strcmp(value, "10") != 0)
        return gr_opt_fail(why, whylen, "--lab takes 10, the lab whose heatmap is plotted "
                           "(got '%s')", value);
    *(int *)to = HEADS_LAB;
    return 0;
}

/* 0 ok, 1 when --help was shown, -1 after a usage error. */
static int parse_args(FILE *out, FILE *err, int argc, char **argv, plot_opts *o)
{
    memset(o, 0, sizeof *o);
    o->seed = 1;
    const gr_opt opts[] = {
        GR_CALL("lab", 0, lab_option, &o->lab, "10",
                "the heatmap of lab 10 (the only lab with one)"),
        GR_CALL("submission", 0, submission_option, &o->submission, "DIR",
                "the student's folder whose lab file is plotted, found as\n"
                "grade finds it\n"
                "(default: labs/ in the attnlab tree; for an installed\n"
                "attnlab, labs/ in the current folder)"),
        GR_CALL("out", 0, out_option, &o->out_dir, "DIR",
                "where NAME.dat and NAME.png go (default: build/plots in the tree;\n"
                "for an installed attnlab, build/plots in the current folder)"),
        GR_CALL("seed", 0, gr_opt_seed, &o->seed, "S",
                "the seed, a whole number from 0 to 2^53 (default 1)"),
    };
    int first, rc = gr_opts_parse(&plot_cmd, opts, GR_N_OPTS(opts), argc, argv, out, err, &first);
    if (rc != 0)
        return rc == GR_OPTS_HELP ? 1 : -1;
    if (first >= argc)
        return gr_usage_fail(err, "plot",
                                  "name the plot: entropy, masking, saturation or heatmap");
    o->name = argv[first];
    o->e = gr_experiment_find(o->name);
    if (!o->e && strcmp(o->name, "heatmap") != 0)
        return gr_usage_fail(err, "plot",
                                  "'%s' is not a plot; use entropy, masking, saturation or heatmap",
                                  o->name);
    if (first + 1 < argc)
        return gr_usage_fail(err, "plot", "unexpected argument '%s'", argv[first + 1]);
    if (o->e && o->lab)
        return gr_usage_fail(err, "plot", "--lab is for heatmap (heatmap --lab 10); "
                                  "%s is lab %d's plot", o->name, o->e->lab);
    if (!o->e && !o->lab && o->submission)
        return gr_usage_fail(err, "plot", "the heatmap is the answer key's example; "
                                  "--submission is for entropy, masking, saturation and "
                                  "heatmap --lab 10");
    return 0;
}

/* ---- files ------------------------------------------------------------------------------ */

/* mkdir -p. 0, or -1 with errno. */
static int make_dirs(const char *path)
{
    char buf[PATH_MAX];
    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf) {
        errno = ENAMETOOLONG;
        return -1;
    }
    for (char *p = buf + 1; ; p++) {
        if (*p != '/' && *p != '\0')
            continue;
        char keep = *p;
        *p = '\0';
        if (mkdir(buf, 0755) != 0 && errno != EEXIST)
            return -1;
        *p = keep;
        if (!keep)
            break;
    }
    struct stat st;
    if (stat(path, &st) != 0)
        return -1;
    if (!S_ISDIR(st.st_mode)) {
        errno = ENOTDIR;
        return -1;
    }
    return 0;
}

/* A number for gnuplot: %.9g, or NaN (gnuplot skips it). */
static void sb_number(gr_strbuf *b, double v)
{
    if (isfinite(v))
        gr_sb_printf(b, " %.9g", v);
    else
        gr_sb_append(b, " NaN");
}

/* Each line of text as a comment line. */
static void sb_comment(gr_strbuf *b, const char *text)
{
    while (*text) {
        size_t n = strcspn(text, "\n");
        gr_sb_printf(b, "# %.*s\n", (int)n, text);
        text += n + (text[n] == '\n');
    }
}

/* One gnuplot matrix block: rows lines of cols numbers (%.6g; -inf and NaN
   as gnuplot reads them), after two blank lines unless it is the first. */
static void sb_matrix(gr_strbuf *b, const float *x, int rows, int cols, int first)
{
    if (!first)
        gr_sb_append(b, "\n\n");
    for (int i = 0; i < rows; i++) {
        for (int j = 0; j < cols; j++) {
            float v = x[i * cols + j];
            const char *sep = j ? " " : "";
            if (isnan(v))
                gr_sb_printf(b, "%sNaN", sep);
            else if (isinf(v))
                gr_sb_printf(b, "%s%s", sep, v < 0 ? "-inf" : "inf");
            else
                gr_sb_printf(b, "%s%.6g", sep, (double)v);
        }
        gr_sb_append(b, "\n");
    }
}

/* ---- the experiments' data -------------------------------------------------------------- */

/* The .dat of an experiment: the reference table, then the student's two outputs. */
static char *experiment_dat(const gr_exp_run *r, const gr_exp_student *s, const char *yours)
{
    const gr_experiment *e = r->e;
    gr_strbuf b = {0};
    gr_sb_printf(&b, "# attnlab plot %s: lab %d, %s\n", e->name, e->lab, e->what);
    gr_sb_printf(&b, "# %s\n", r->settings);
    gr_sb_append(&b, "# reference: the answer key's numbers (attnlab experiment "); 
    gr_sb_printf(&b, "%s --seed %llu)\n", e->name, (unsigned long long)r->seed);
    gr_sb_printf(&b, "# student: %s\n", yours);
    sb_comment(&b, e->notes);
    gr_sb_append(&b, "# columns:");
    for (int c = 0; c < r->n_cols; c++)
        gr_sb_printf(&b, " %d %s", c + 1, r->col[c]);
    for (int k = 0; k < 2; k++)
        gr_sb_printf(&b, " %d %s_student", r->n_cols + k + 1, e->out[k]);
    gr_sb_append(&b, "\n# NaN: no number (the student's code gave none)\n");
    for (int i = 0; i < r->n_rows; i++) {
        gr_sb_printf(&b, "%g", r->v[0][i]);
        for (int c = 1; c < r->n_cols; c++)
            sb_number(&b, r->v[c][i]);
        for (int k = 0; k < 2; k++)
            sb_number(&b, s->have ? s->y[k][i] : (double)NAN);
        gr_sb_append(&b, "\n");
    }
    return gr_sb_take(&b);
}

/* ---- the heatmap's data ------------------------------------------------------------------ */

/* One example through libattn: scaled scores with the causal and padding masks
   (what softmax sees), and the weights attn_forward gives for the same inputs. */
static char *heatmap_dat(uint64_t seed, char *note, size_t note_len)
{
    enum { T = HEAT_T, d = HEAT_D };
    static float Q[T * d], K[T * d], V[T * d], S[T * T], W[T * T], O[T * d];
    sup_rng rng;
    sup_rng_seed(&rng, seed);
    sup_rng_fill_normal(&rng, Q, T * d);
    sup_rng_fill_normal(&rng, K, T * d);
    sup_rng_fill_normal(&rng, V, T * d);
    const int lengths[1] = { T - HEAT_PAD };

    /* the scores softmax sees: q.k / sqrt(d), then -inf where masked */
    attn_scaled_dot_scores(S, Q, K, 1, T, T, d);
    attn_causal_mask(S, 1, T, T);
    attn_padding_mask(S, lengths, 1, T, T);
    /* the weights, by the whole reference pipeline */
    attn_config cfg = { .scaled = 1, .causal = 1, .lengths = lengths };
    attn_forward(O, W, Q, K, V, 1, T, T, d, d, &cfg);

    snprintf(note, note_len, "T = %d queries and keys, d = %d, scaled scores, causal mask, "
             "keys %d..%d are padding, seed %llu", T, d, T - HEAT_PAD, T - 1,
             (unsigned long long)seed);
    gr_strbuf b = {0};
    gr_sb_append(&b, "# attnlab plot heatmap: one attention example from libattn (the answer key)\n");
    gr_sb_printf(&b, "# %s\n", note);
    gr_sb_append(&b, "# Q, K, V: standard normals drawn in that order from sup_rng.\n"
                     "# Each block is a T x T matrix: row i is query i, column j is key j.\n"
                     "# index 0: scores q_i.k_j / sqrt(d) after the causal mask (key after the query)\n"
                     "#          and the padding mask: -inf where masked\n"
                     "# index 1: weights = softmax of each row of index 0 (attn_forward): a masked\n"
                     "#          score gives a weight of exactly 0, each row sums to 1\n"
                     "# index 2: 1 where the score is masked, else 0\n");
    static float masked[T * T];
    for (int n = 0; n < T * T; n++)
        masked[n] = isinf(S[n]) ? 1.0f : 0.0f;
    sb_matrix(&b, S, T, T, 1);
    sb_matrix(&b, W, T, T, 0);
    sb_matrix(&b, masked, T, T, 0);
    return gr_sb_take(&b);
}

/* ---- gnuplot ------------------------------------------------------------------------------ */

/* Draw png from dat with data/plots/NAME.gp. 0, or -1 after a message on err. */
static int draw(FILE *err, const char *root, const char *name, const char *dat,
                const char *png, const char *note1, const char *note2, int have_student)
{
    const char have[2] = { have_student ? '1' : '0', '\0' };
    const char *args[] = { note1, note2, have, NULL };
    char *again = gr_xasprintf("plot %s", name);
    int rc = gr_gnuplot_draw(err, "plot", again, root, name, dat, png, args);
    free(again);
    return rc;
}

/* ---- the command ---------------------------------------------------------------------------- */

/* Write text to OUT/NAME.EXT atomically and say so. 0, or -1 after a message. */
static int write_dat(FILE *out, FILE *err, const char *path, const char *text)
{
    if (gr_write_file_atomic(path, text, strlen(text)) != 0) {
        fprintf(err, "attnlab plot: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    fprintf(out, "wrote %s\n", path);
    return 0;
}

/* Write text to dat, then draw png from it with data/plots/SCRIPT.gp: note
   under the title, and a second note naming the student's file and verdict
   (have: the .dat holds the student's numbers). The command's exit status. */
static int write_and_draw(FILE *out, FILE *err, const char *root, const char *script,
                          const char *dat, const char *png, const char *text, const char *note,
                          const char *source, gr_verdict verdict, int have)
{
    if (write_dat(out, err, dat, text) != 0)
        return GR_EXIT_FAILED;
    char *note2 = verdict == GR_PASSED
        ? gr_xasprintf("yours: %s (passed)", source)
        : gr_xasprintf("yours: %s (%s)%s", source, gr_result_verdict_name(verdict),
                       have ? "" : ", so only the answer key is drawn");
    int rc = draw(err, root, script, dat, png, note, note2, have) != 0 ? GR_EXIT_FAILED : GR_EXIT_OK;
    if (rc == GR_EXIT_OK)
        fprintf(out, "wrote %s\n", png);
    free(note2);
    return rc;
}

/* The student's side in one line, for people and for the plot's note. */
static char *student_line(const gr_exp_student *s, int lab)
{
    if (s->verdict == GR_PASSED)
        return gr_xasprintf("%s: passed, equal to the answer key within the rubric's tolerance",
                            s->source);
    if (s->have)
        return gr_xasprintf("%s: %s: %s (attnlab grade --lab %d explains)", s->source,
                            gr_result_verdict_name(s->verdict), s->why, lab);
    return gr_xasprintf("%s: %s: %s", s->source, gr_result_verdict_name(s->verdict), s->why);
}

static int plot_experiment(FILE *out, FILE *err, const plot_opts *o, const char *root,
                           const char *child_dir, const char *submission, const char *dat,
                           const char *png)
{
    gr_exp_run r;
    char msg[1024];
    if (gr_experiment_reference(o->e, o->seed, &r, msg, sizeof msg) != 0) {
        fprintf(err, "attnlab plot: %s\n", msg);
        return GR_EXIT_FAILED;
    }
    fprintf(out, "attnlab plot %s: lab %d, %s\n", o->name, o->e->lab, r.settings);

    gr_exp_student s;
    gr_exp_paths paths = { root, child_dir, submission };
    if (gr_experiment_student_run(&r, &paths, &s, msg, sizeof msg) != 0) {
        fprintf(err, "attnlab plot: %s\n", msg);
        gr_experiment_student_free(&s);
        gr_experiment_free(&r);
        return GR_EXIT_FAILED;
    }
    char *line = student_line(&s, o->e->lab);
    if (s.have)
        fprintf(out, "your curve: %s\n", line);
    else
        fprintf(out, "your curve is missing: %s\n", line);

    char *text = experiment_dat(&r, &s, line);
    int rc = write_and_draw(out, err, root, o->name, dat, png, text, r.settings, s.source,
                            s.verdict, s.have);
    free(text);
    free(line);
    gr_experiment_student_free(&s);
    gr_experiment_free(&r);
    return rc;
}

static int plot_heatmap(FILE *out, FILE *err, const plot_opts *o, const char *root,
                        const char *dat, const char *png)
{
    char note[256];
    char *text = heatmap_dat(o->seed, note, sizeof note);
    fprintf(out, "attnlab plot heatmap: %s\n", note);
    int rc = GR_EXIT_OK;
    if (write_dat(out, err, dat, text) != 0)
        rc = GR_EXIT_FAILED;
    else if (draw(err, root, o->name, dat, png, note,
                  "the causal mask hides the keys after each query, the padding mask the last "
                  "keys from every query", 0) != 0)
        rc = GR_EXIT_FAILED;
    else
        fprintf(out, "wrote %s\n", png);
    free(text);
    return rc;
}

/* ---- lab 10's heatmap: one head ---------------------------------------------------------- */

/* The lab 10 module's extract case for the plot's sizes and seed, into c. 0, or
   -1 with err (the module refusing its own sizes: a grader bug). */
static int heads_case(uint64_t seed, gr_case *c, char *err, size_t errlen)
{
    static char name[] = "heatmap", kind[] = "extract";
    static char keys[6][4] = { "B", "H", "Tq", "Tk", "b", "h" };
    const double values[6] = { HEADS_B, HEADS_H, HEADS_TQ, HEADS_TK, HEADS_b, HEADS_h };
    gr_rubric_test t = { .name = name, .kind = kind, .points = 1, .n_params = 6 };
    for (int k = 0; k < 6; k++) {
        t.params[k].key = keys[k];
        t.params[k].value = values[k];
    }
    return gr_lab_modules[HEADS_LAB - 1]->make_case(&t, seed, c, err, errlen);
}

/* The .dat of the heads heatmap: the answer key's head, the student's (NaN
   when there is none), and where they differ. */
static char *heads_dat(const gr_case *c, const float *yours, const char *line, const char *note)
{
    enum { Tq = HEADS_TQ, Tk = HEADS_TK };
    const float *want = c->expected[0];
    gr_strbuf b = {0};
    gr_sb_append(&b, "# attnlab plot heatmap --lab 10: one head of lab 10's per-head weights, "
                     "the answer key's extraction beside yours\n");
    gr_sb_printf(&b, "# %s\n# student: %s\n", note, line);
    gr_sb_append(&b, "# W (B, H, Tq, Tk) holds per-head softmax weights of Q, K ~ 1.5 N(0,1), d = 8.\n"
                     "# Each block is a Tq x Tk matrix: row i is query i, column j is key j.\n"
                     "# index 0: the answer key's head, W[b][h] (attn_extract_head)\n"
                     "# index 1: yours, the Wh your lab_extract_head wrote, read as (Tq, Tk);\n"
                     "#          NaN: no number (the student's code gave none)\n"
                     "# index 2: 1 where yours differs from the answer key's, else 0\n");
    float theirs[Tq * Tk], differs[Tq * Tk];
    for (int n = 0; n < Tq * Tk; n++) {
        theirs[n] = yours && isfinite(yours[n]) ? yours[n] : NAN;
        differs[n] = yours && yours[n] != want[n] ? 1.0f : 0.0f;
    }
    sb_matrix(&b, want, Tq, Tk, 1);
    sb_matrix(&b, theirs, Tq, Tk, 0);
    sb_matrix(&b, differs, Tq, Tk, 0);
    return gr_sb_take(&b);
}

/* The student's head in one line, for people and for the plot's note. */
static char *heads_line(const gr_student_case *sc)
{
    if (sc->verdict == GR_PASSED)
        return gr_xasprintf("%s: passed, the same head as the answer key's", sc->source);
    const gr_misconception *mc = gr_experiment_case_misconception(HEADS_LAB, sc);
    if (mc) {
        char *handout = gr_layout_handout_at(mc->handout.lab, mc->handout.section);
        char *line = gr_xasprintf("%s: %s: this is what %s gives (%s)", sc->source,
                                  gr_result_verdict_name(sc->verdict), mc->name, handout);
        free(handout);
        return line;
    }
    return gr_xasprintf("%s: %s: %s", sc->source, gr_result_verdict_name(sc->verdict),
                        sc->why ? sc->why : "(no message)");
}

static int plot_heads(FILE *out, FILE *err, const plot_opts *o, const char *root,
                      const char *child_dir, const char *submission, const char *dat,
                      const char *png)
{
    gr_case c;
    char msg[1024], note[256];
    if (heads_case(o->seed, &c, msg, sizeof msg) != 0) {
        fprintf(err, "attnlab plot: lab 10's module refused the heatmap's sizes: %s\n", msg);
        gr_case_free(&c);
        return GR_EXIT_FAILED;
    }
    snprintf(note, sizeof note, "B = %d, H = %d, Tq = %d, Tk = %d: head (b, h) = (%d, %d), seed %llu",
             HEADS_B, HEADS_H, HEADS_TQ, HEADS_TK, HEADS_b, HEADS_h,
             (unsigned long long)o->seed);
    fprintf(out, "attnlab plot heatmap --lab 10: %s\n", note);

    gr_student_case sc;
    gr_exp_paths paths = { root, child_dir, submission };
    if (gr_experiment_case_run(HEADS_LAB, "extract", &c, &paths, &sc, msg, sizeof msg) != 0) {
        fprintf(err, "attnlab plot: %s\n", msg);
        gr_experiment_case_free(&sc);
        gr_case_free(&c);
        return GR_EXIT_FAILED;
    }
    /* the student's head, whenever the function said LAB_OK */
    const float *yours = sc.ran && sc.oc.answered && sc.oc.status == LAB_OK ? sc.oc.got[0] : NULL;
    char *line = heads_line(&sc);
    fprintf(out, yours ? "your head: %s\n" : "your head is missing: %s\n", line);

    char *text = heads_dat(&c, yours, line, note);
    int rc = write_and_draw(out, err, root, "heads", dat, png, text, note, sc.source,
                            sc.verdict, yours != NULL);
    free(text);
    free(line);
    gr_experiment_case_free(&sc);
    gr_case_free(&c);
    return rc;
}

int cmd_plot_run_in(FILE *out, FILE *err, const char *root, const char *child_dir,
                    int argc, char **argv)
{
    plot_opts o;
    int p = parse_args(out, err, argc, argv, &o);
    if (p != 0)
        return p > 0 ? GR_EXIT_OK : GR_EXIT_USAGE;

    char root_buf[PATH_MAX], stub_buf[PATH_MAX], msg[1024];
    if (!root || !child_dir) {
        if (gr_layout_locate(root_buf, sizeof root_buf, stub_buf, sizeof stub_buf, msg, sizeof msg) != 0) {
            fprintf(err, "attnlab plot: %s\n", msg);
            return GR_EXIT_FAILED;
        }
        root = root ? root : root_buf;
        child_dir = child_dir ? child_dir : stub_buf;
    }
    /* a tree's labs/ and build/plots; for an installed attnlab, the current
       folder's (no labs/ there: the plot says the student's curve is missing) */
    int tree = gr_layout_root_has_labs(root);
    char *submission = o.submission ? gr_xstrdup(o.submission)
                     : gr_layout_folder_of(tree ? root : NULL, "labs");
    char *out_dir = o.out_dir ? gr_xstrdup(o.out_dir)
                  : tree ? gr_xasprintf("%s/build/plots", root) : gr_xstrdup("build/plots");
    int rc;
    if (make_dirs(out_dir) != 0) {
        fprintf(err, "attnlab plot: cannot make the folder %s: %s\n", out_dir, strerror(errno));
        rc = GR_EXIT_FAILED;
    } else {
        const char *file = o.lab ? "heads" : o.name;
        char *dat = gr_xasprintf("%s/%s.dat", out_dir, file);
        char *png = gr_xasprintf("%s/%s.png", out_dir, file);
        rc = o.e ? plot_experiment(out, err, &o, root, child_dir, submission, dat, png)
           : o.lab ? plot_heads(out, err, &o, root, child_dir, submission, dat, png)
                   : plot_heatmap(out, err, &o, root, dat, png);
        free(dat);
        free(png);
    }
    free(submission);
    free(out_dir);
    return rc;
}

int cmd_plot_run(FILE *out, FILE *err, int argc, char **argv)
{
    return cmd_plot_run_in(out, err, NULL, NULL, argc, argv);
}

int cmd_plot(int argc, char **argv)
{
    return cmd_plot_run(stdout, stderr, argc, argv);
}
