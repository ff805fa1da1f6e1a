/* cmd_drill.c: `attnlab drill`, questions for self-study and exam practice.
 *
 * A session asks --count questions from the banks in data/drills/ and from
 * drills libattn generates (the bank "generated"), one at a time: the answer,
 * right or wrong, the explanation, and for a generated drill the worked
 * solution in the table `attnlab explain` prints. Which questions come first
 * is decided by Leitner boxes kept under the XDG state directory: a missed
 * question returns to box 1 and comes back next session, a right one moves
 * up a box and comes back later (drill.h).
 *
 * How a session asks and judges is learn/drill_session.h's; this file reads
 * the options, loads the banks and the progress, and saves what a session
 * changed.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/opts.h"
#include "learn/drill.h"
#include "learn/drill_session.h"
#include "engine/grade.h"
#include "sup_yamlread.h"
#include "base/util.h"
#include "base/layout.h"

static const gr_cmd_spec drill_cmd = {
    .name = "drill",
    .synopsis =
    "[--bank NAME] [--count N] [--seed S] [--stats]",
    .about =
    "Questions for self-study and exam practice, one at a time: multiple choice,\n"
    "true or false, short answers and numbers, each followed by the right answer\n"
    "and why. Drills of the bank 'generated' are new numbers every time, made by\n"
    "libattn (a weight from scores and a mask, which scoring function made a\n"
    "matrix, a row's entropy, temperature 2, a softmax gradient), each followed\n"
    "by its worked solution.\n",
    .after =
    "Answer one question per line: a letter (or number) for a choice, true or false,\n"
    "a word or phrase, or a plain decimal number. Choices come in a new order each\n"
    "time (--seed fixes it); a word or phrase is right only as a whole accepted\n"
    "form, never as a fragment; a number is right when it rounds to the answer at\n"
    "the decimals the question asks for. Keys, queries and heads count from 0, as\n"
    "in the code. An empty line shows the answer and counts as missed; an answer of\n"
    "the wrong form is asked again. A phrase that is neither an accepted form nor a\n"
    "known wrong one (or a number with fewer decimals than asked) is asked once\n"
    "more with a hint of the form expected; a second one shows the answer and\n"
    "counts as missed. 'quit' or the end of input stops the session. Answers can\n"
    "come from a file or a pipe:\n"
    "  printf 'b\\ntrue\\n0.7054\\n' | attnlab drill --bank softmax --count 3 --seed 1\n"
    "\n"
    "Progress (Leitner boxes: a missed question goes back to box 1 and comes back\n"
    "next session; box b comes back after 2^(b-1) sessions) is kept in\n"
    "$XDG_STATE_HOME/attnlab/drill-progress (default ~/.local/state/attnlab).\n"
    "\n"
    "Exit status: 0 done (or stopped), 1 a bank or the progress file could not be\n"
    "read or written, 2 usage error.\n",
    .max_args = -1,
    .column = 17,
};

#define CMD "drill"
#define MAX_COUNT 1000
#define PROGRESS_FILE "drill-progress"

typedef struct drill_opts {
    const char *bank;        /* --bank, or NULL for all */
    int count;
    uint64_t seed;
    int has_seed;
    int stats;
} drill_opts;

/* ---- the command line ----------------------------------------------------------------- */

/* --bank NAME: not empty. */
static int bank_option(void *to, const char *value, char *why, size_t whylen)
{
    if (!*value)
        return gr_opt_fail(why, whylen, "--bank needs a bank name, e.g. --bank masks");
    *(const char **)to = value;
    return 0;
}

/* --seed S into the drill_opts to, which then has a seed. */
static int seed_option(void *to, const char *value, char *why, size_t whylen)
{
    drill_opts *o = to;
    if (gr_opt_seed(&o->seed, value, why, whylen) != 0)
        return -1;
    o->has_seed = 1;
    return 0;
}

/* 0 ok, 1 when --help was shown, -1 after a usage error. */
static int parse_args(FILE *out, FILE *err, int argc, char **argv, drill_opts *o)
{
    memset(o, 0, sizeof *o);
    o->count = 10;
    const gr_opt opts[] = {
        GR_CALL("bank", 0, bank_option, &o->bank, "NAME",
                "only this bank: a file data/drills/NAME.yaml, or generated\n"
                "(default: every bank and the generated drills)"),
        GR_INT("count", 0, &o->count, "N",
                "ask N questions (default 10; a bank of fewer asks each once\n"
                "and says how many it has)",
               1, MAX_COUNT, "a whole number from 1 to " GR_OPT_STR(MAX_COUNT)),
        GR_CALL("seed", 0, seed_option, o, "S",
                "fix the order and the generated numbers (default: a new seed)"),
        GR_FLAG("stats", 0, &o->stats,
                "show your progress per bank and stop"),
    };
    int first, rc = gr_opts_parse(&drill_cmd, opts, GR_N_OPTS(opts), argc, argv, out, err, &first);
    if (rc != 0)
        return rc == GR_OPTS_HELP ? 1 : -1;
    if (first < argc)
        return gr_usage_fail(err, CMD, "unexpected argument '%s'; name a bank with "
                             "--bank NAME", argv[first]);
    return 0;
}

/* The bank --bank names, or a usage error naming the banks there are. */
static int check_bank(FILE *err, const char *name, const gr_drill_bank *banks, int nb)
{
    const char *names[64];
    int n = 0;
    for (int b = 0; b < nb && n < 63; b++) {
        if (strcmp(name, banks[b].name) == 0)
            return 0;
        names[n++] = banks[b].name;
    }
    if (strcmp(name, "generated") == 0)
        return 0;
    names[n++] = "generated";
    const char *near = yr_nearest(name, names, n);
    if (near)
        return gr_usage_fail(err, CMD, "no bank '%s'; did you mean '%s'?", name, near);
    gr_strbuf sb = {0};
    for (int i = 0; i < n; i++)
        gr_sb_printf(&sb, "%s%s", i ? ", " : "", names[i]);
    char *list = gr_sb_take(&sb);
    gr_usage_fail(err, CMD, "no bank '%s'; the banks are %s", name, list);
    free(list);
    return -1;
}

int cmd_drill_run_in(FILE *in, FILE *out, FILE *err, const char *root, const char *state_dir,
                     int argc, char **argv)
{
    drill_opts o;
    int pa = parse_args(out, err, argc, argv, &o);
    if (pa != 0)
        return pa > 0 ? GR_EXIT_OK : GR_EXIT_USAGE;

    char root_buf[PATH_MAX], stub_buf[PATH_MAX], msg[1024];
    if (!root) {
        /* Drills need only the tree; gr_layout_locate fills root before it checks for the
           child objects that grading needs, so their absence is no failure here. */
        root_buf[0] = '\0';
        if (gr_layout_locate(root_buf, sizeof root_buf, stub_buf, sizeof stub_buf, msg, sizeof msg)
            != 0 && !root_buf[0]) {
            fprintf(err, "attnlab drill: %s\n", msg);
            return GR_EXIT_FAILED;
        }
        root = root_buf;
    }
    char *own_state = NULL;
    if (!state_dir && !(state_dir = own_state = gr_drill_state_dir(msg, sizeof msg))) {
        fprintf(err, "attnlab drill: %s\n", msg);
        return GR_EXIT_FAILED;
    }

    char *dir = gr_xasprintf("%s/data/drills", root);
    char *path = gr_xasprintf("%s/%s", state_dir, PROGRESS_FILE);
    gr_drill_bank *banks = NULL;
    int nb = 0, rc = GR_EXIT_OK;
    gr_drill_progress p;
    memset(&p, 0, sizeof p);
    if (gr_drill_load_dir(dir, &banks, &nb, msg, sizeof msg) != 0 ||
        gr_drill_progress_load(path, &p, msg, sizeof msg) != 0) {
        fprintf(err, "attnlab drill: %s\n", msg);
        rc = GR_EXIT_FAILED;
    } else if (o.bank && check_bank(err, o.bank, banks, nb) != 0) {
        rc = GR_EXIT_USAGE;
    } else if (o.stats) {
        gr_drill_session_print_stats(out, banks, nb, &p, path);
    } else {
        uint64_t seed = o.has_seed ? o.seed
                      : (uint64_t)time(NULL) * 2654435761ULL ^ (uint64_t)getpid();
        if (gr_drill_session(in, out, banks, nb, o.bank, o.count, seed, &p) > 0) {
            if (gr_drill_progress_save(path, &p, msg, sizeof msg) != 0) {
                fprintf(err, "attnlab drill: %s\n", msg);
                rc = GR_EXIT_FAILED;
            } else {
                fprintf(out, "Progress saved in %s: missed questions come back next "
                        "session ('attnlab drill --stats' shows it).\n", path);
            }
        }
    }
    gr_drill_progress_free(&p);
    gr_drill_banks_free(banks, nb);
    free(dir);
    free(path);
    free(own_state);
    return rc;
}

int cmd_drill(int argc, char **argv)
{
    return cmd_drill_run_in(stdin, stdout, stderr, NULL, NULL, argc, argv);
}
