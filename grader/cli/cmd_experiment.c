/* cmd_experiment.c: `attnlab experiment`, the answer key's numbers for one of
 * the course's experiments, as a table for people or CSV for scripts.
 *
 * The numbers are the lab module's expected outputs for the lab's standard run
 * (experiment.h): what a correct lab file returns for the same call, so a
 * student can check their `make run` against them and a self-learner can
 * reproduce the course's curves.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/opts.h"
#include "cli/cli.h"
#include "engine/experiment.h"
#include "base/layout.h"

static const gr_cmd_spec experiment_cmd = {
    .name = "experiment",
    .synopsis =
    "entropy|masking|saturation [--seed S] [--format table|csv]",
    .about =
    "The answer key's numbers for one of the course's experiments, at the sizes of\n"
    "the lab's `make run`:\n"
    "\n"
    "  entropy     lab 4: mean entropy of the weights vs d_k, raw and scaled scores\n"
    "              (d_k = 8, 16, ..., 512, T = 64 keys, 200 trials)\n"
    "  masking     lab 5: post-softmax masking, row sum and output drift vs pad keys\n"
    "              (T = 16 keys, d = 32, pads 0, 1, 2, 4, 8, 16, 32, 64)\n"
    "  saturation  lab 8: mean ||ds|| of softmax backward vs d_k, raw and scaled\n"
    "              (d_k = 8, 16, ..., 512, T = 64 keys, 200 trials)\n",
    .after =
    "Each is the grader's own test case for the lab, built by its lab module with\n"
    "libattn: the numbers a correct lab file returns for the same call. Each runs\n"
    "with seed S itself and the sizes above, as the lab's `make run SEED=S` does, so\n"
    "your own run and this one print the same numbers; the header names the seed.\n"
    "\n"
    "CSV: a header row, then one row per x value, with the columns of the lab's\n"
    "`make run FORMAT=csv` plus the handout's predictions:\n"
    "  entropy     d_k,H_raw,H_scaled,pred_raw,pred_scaled\n"
    "  masking     pads,rowsum,rowsum_predicted,drift,drift_predicted\n"
    "  saturation  d_k,g_raw,g_scaled,ratio,uniform\n"
    "Numbers have up to 9 significant digits (a float exactly).\n"
    "\n"
    "Your own numbers beside these, as a PNG: attnlab plot NAME.\n"
    "Exit status: 0 printed, 1 the experiment could not be built, 2 usage error.\n",
    .max_args = -1,
    .column = 20,
};

typedef struct exp_opts {
    const gr_experiment *e;
    uint64_t seed;
    int csv;
} exp_opts;

/* Parse the whole command line. 0 ok, 1 when --help was shown, -1 after a
   usage error. */
static int parse_args(FILE *out, FILE *err, int argc, char **argv, exp_opts *o)
{
    memset(o, 0, sizeof *o);
    o->seed = 1;
    const gr_opt opts[] = {   /* options may come before or after the experiment's name */
        GR_CALL("seed", 0, gr_opt_seed, &o->seed, "S",
                "the seed, a whole number from 0 to 2^53 (default 1)", .example = "7"),
        GR_CALL("format", 0, gr_opt_table_or_csv, &o->csv, "FORMAT",
                "table (default) or csv", .example = "csv"),
    };
    int first, rc = gr_opts_parse(&experiment_cmd, opts, GR_N_OPTS(opts), argc, argv, out, err,
                                  &first);
    if (rc != 0)
        return rc == GR_OPTS_HELP ? 1 : -1;
    if (first >= argc)
        return gr_usage_fail(err, "experiment", "name the experiment: %s",
                                  gr_experiment_names());
    o->e = gr_experiment_find(argv[first]);
    if (!o->e)
        return gr_usage_fail(err, "experiment", "'%s' is not an experiment; use %s",
                                  argv[first], gr_experiment_names());
    if (first + 1 < argc)
        return gr_usage_fail(err, "experiment", "unexpected argument '%s'", argv[first + 1]);
    return 0;
}

static void print_csv(FILE *out, const gr_exp_run *r)
{
    for (int c = 0; c < r->n_cols; c++)
        fprintf(out, "%s%s", c ? "," : "", r->col[c]);
    fputc('\n', out);
    for (int i = 0; i < r->n_rows; i++) {
        fprintf(out, "%g", r->v[0][i]);
        for (int c = 1; c < r->n_cols; c++)
            fprintf(out, ",%.9g", r->v[c][i]);
        fputc('\n', out);
    }
}

static void print_table(FILE *out, const gr_exp_run *r)
{
    const gr_experiment *e = r->e;
    fprintf(out, "attnlab experiment %s: the answer key's numbers for lab %d\n", e->name, e->lab);
    fprintf(out, "%s\n%s\n\n", e->what, r->settings);
    int w[GR_EXP_MAX_COLS];
    for (int c = 0; c < r->n_cols; c++) {
        w[c] = (int)strlen(r->col[c]);
        if (w[c] < (c ? 9 : 5))
            w[c] = c ? 9 : 5;
        fprintf(out, "%s%*s", c ? "  " : "", w[c], r->col[c]);
    }
    fputc('\n', out);
    for (int i = 0; i < r->n_rows; i++) {
        fprintf(out, "%*g", w[0], r->v[0][i]);
        for (int c = 1; c < r->n_cols; c++)
            fprintf(out, "  %*.4f", w[c], r->v[c][i]);
        fputc('\n', out);
    }
    fprintf(out, "\n%s", e->notes);
    char *folder = gr_layout_folder(NULL, e->lab);   /* the lab's own run */
    fprintf(out, "Your numbers for the same run: make -C %s run SEED=%llu\n", folder,
            (unsigned long long)r->exp_seed);
    free(folder);
    fprintf(out, "Yours beside these, from your lab file on this very case: attnlab plot %s "
            "--seed %llu\n", e->name, (unsigned long long)r->seed);
}

int cmd_experiment_run(FILE *out, FILE *err, int argc, char **argv)
{
    exp_opts o;
    int p = parse_args(out, err, argc, argv, &o);
    if (p != 0)
        return p > 0 ? GR_EXIT_OK : GR_EXIT_USAGE;
    gr_exp_run r;
    char msg[512];
    if (gr_experiment_reference(o.e, o.seed, &r, msg, sizeof msg) != 0) {
        fprintf(err, "attnlab experiment: %s\n", msg);
        return GR_EXIT_FAILED;
    }
    if (o.csv)
        print_csv(out, &r);
    else
        print_table(out, &r);
    gr_experiment_free(&r);
    return GR_EXIT_OK;
}

int cmd_experiment(int argc, char **argv)
{
    return cmd_experiment_run(stdout, stderr, argc, argv);
}
