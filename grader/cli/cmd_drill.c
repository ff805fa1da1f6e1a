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
 * Input is one answer per line, so a session on a terminal and a scripted one
 * (stdin a file or a pipe) behave the same; on a terminal the prompt waits,
 * elsewhere it echoes the line it read so a transcript reads like a session:
 *   right / wrong       feedback, then the next question
 *   an empty line       "no answer": shown the answer, counted as missed
 *   not an answer       (a letter out of range, a word for a number) says what
 *                       an answer looks like and asks again
 *   not recognised      (a phrase no accepted or rejected form lists, a number
 *                       short of the decimals asked) asked once more with a
 *                       hint of the form; a second one shows the answer and
 *                       counts as missed
 *   quit, or the end    stops; the questions answered so far count and are saved
 *   of input (EOF)
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "attn.h"
#include "cli/cli.h"
#include "cli/commands.h"
#include "learn/drill.h"
#include "grade.h"
#include "sup_yamlread.h"
#include "util.h"
#include "learn/worked.h"
#include "layout.h"

static const char drill_usage[] =
    "usage: attnlab drill [--bank NAME] [--count N] [--seed S] [--stats]\n"
    "\n"
    "Questions for self-study and exam practice, one at a time: multiple choice,\n"
    "true or false, short answers and numbers, each followed by the right answer\n"
    "and why. Drills of the bank 'generated' are new numbers every time, made by\n"
    "libattn (a weight from scores and a mask, which scoring function made a\n"
    "matrix, a row's entropy, temperature 2, a softmax gradient), each followed\n"
    "by its worked solution.\n"
    "\n"
    "  --bank NAME    only this bank: a file data/drills/NAME.yaml, or generated\n"
    "                 (default: every bank and the generated drills)\n"
    "  --count N      ask N questions (default 10; a bank of fewer asks each once\n"
    "                 and says how many it has)\n"
    "  --seed S       fix the order and the generated numbers (default: a new seed)\n"
    "  --stats        show your progress per bank and stop\n"
    "  -h, --help     show this help\n"
    "\n"
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
    "read or written, 2 usage error.\n";

#define CMD "drill"
#define MAX_COUNT 1000
#define PROGRESS_FILE "drill-progress"

typedef struct drill_opts {
    const char *bank;        /* --bank, or NULL for all */
    long count;
    uint64_t seed;
    int has_seed;
    int stats;
} drill_opts;

/* ---- the command line ----------------------------------------------------------------- */

/* "--name VALUE" or "--name=VALUE" at argv[*i]: 1 with *val, 0 for another
   option, -1 after a usage error (no value). */
static int option_value(FILE *err, int argc, char **argv, int *i, const char *name,
                        const char **val)
{
    const char *a = argv[*i];
    size_t len = strlen(name);
    if (strncmp(a, name, len) != 0 || (a[len] != '\0' && a[len] != '='))
        return 0;
    if (a[len] == '=') {
        *val = a + len + 1;
        return 1;
    }
    if (*i + 1 >= argc)
        return gr_usage_fail(err, CMD, "%s needs a value", name);
    *val = argv[++*i];
    return 1;
}

/* 0 ok, 1 when --help was shown, -1 after a usage error. */
static int parse_args(FILE *out, FILE *err, int argc, char **argv, drill_opts *o)
{
    memset(o, 0, sizeof *o);
    o->count = 10;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = NULL;
        int r;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(drill_usage, out);
            return 1;
        } else if (strcmp(a, "--stats") == 0) {
            o->stats = 1;
        } else if ((r = option_value(err, argc, argv, &i, "--bank", &v)) != 0) {
            if (r < 0)
                return -1;
            if (!*v)
                return gr_usage_fail(err, CMD, "--bank needs a bank name, e.g. --bank masks");
            o->bank = v;
        } else if ((r = option_value(err, argc, argv, &i, "--count", &v)) != 0) {
            if (r < 0)
                return -1;
            char *end;
            errno = 0;
            long n = strtol(v, &end, 10);
            if (!isdigit((unsigned char)v[0]) || *end || errno == ERANGE || n < 1 ||
                n > MAX_COUNT)
                return gr_usage_fail(err, CMD, "--count takes a whole number from 1 to %d "
                                     "(got '%s')", MAX_COUNT, v);
            o->count = n;
        } else if ((r = option_value(err, argc, argv, &i, "--seed", &v)) != 0) {
            if (r < 0 || gr_seed_option(err, CMD, v, &o->seed) != 0)
                return -1;
            o->has_seed = 1;
        } else if (a[0] == '-') {
            return gr_usage_fail(err, CMD, "unknown option '%s'", a);
        } else {
            return gr_usage_fail(err, CMD, "unexpected argument '%s'; name a bank with "
                                 "--bank NAME", a);
        }
    }
    return 0;
}

/* ---- the pool of questions -------------------------------------------------------------- */

/* One question a session may ask: from a bank, or a generated kind. */
typedef struct drill_item {
    const char *id;
    const char *bank;
    const gr_drill_question *q;   /* NULL for a generated kind */
    int gen;                      /* the generated kind, when q is NULL */
    int rank;                     /* order: 0 due, 1 new, 2 not due yet */
    long key;                     /* within a rank: the box, or sessions until due */
    int shuffle;                  /* the seeded order among equals */
} drill_item;

static int cmp_item(const void *pa, const void *pb)
{
    const drill_item *a = pa, *b = pb;
    if (a->rank != b->rank)
        return a->rank - b->rank;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return a->shuffle - b->shuffle;
}

/* Every question of the banks (or of --bank) and the generated kinds, in the
   order a session asks them: due questions, lowest box first (the missed
   ones), then new ones, then the rest by how soon they are due; equals in the
   order the seed shuffles them. */
static drill_item *make_pool(const gr_drill_bank *banks, int nb, const char *only,
                             gr_drill_progress *p, long session, uint64_t seed, int *n)
{
    int cap = GR_GEN_COUNT, m = 0;
    for (int b = 0; b < nb; b++)
        cap += banks[b].n;
    drill_item *it = gr_xcalloc((size_t)cap, sizeof *it);
    for (int b = 0; b < nb; b++)
        if (!only || strcmp(only, banks[b].name) == 0)
            for (int i = 0; i < banks[b].n; i++)
                it[m++] = (drill_item){ banks[b].q[i].id, banks[b].name, &banks[b].q[i], 0,
                                        0, 0, 0 };
    if (!only || strcmp(only, "generated") == 0)
        for (int k = 0; k < GR_GEN_COUNT; k++)
            it[m++] = (drill_item){ gr_drill_gen_id(k), "generated", NULL, k, 0, 0, 0 };

    attn_rng rng;
    attn_rng_seed(&rng, seed);
    for (int i = 0; i < m; i++)
        it[i].shuffle = i;
    for (int i = m - 1; i > 0; i--) {          /* Fisher-Yates over the tie-break order */
        int j = (int)(attn_rng_uniform(&rng) * (float)(i + 1));
        j = j > i ? i : j;
        int t = it[i].shuffle;
        it[i].shuffle = it[j].shuffle;
        it[j].shuffle = t;
    }
    for (int i = 0; i < m; i++) {
        const gr_drill_card *c = gr_drill_card_of(p, it[i].id);
        if (!c || c->box == 0) {
            it[i].rank = 1;
        } else if (gr_drill_due(c, session)) {
            it[i].rank = 0;
            it[i].key = c->box;
        } else {
            it[i].rank = 2;
            it[i].key = c->last + GR_DRILL_GAP(c->box) - session;
        }
    }
    qsort(it, (size_t)m, sizeof *it, cmp_item);
    *n = m;
    return it;
}

/* ---- one question ------------------------------------------------------------------------ */

/* What the prompt line asks for. */
static const char *answer_form(const gr_drill_question *q, char *buf, size_t len)
{
    switch (q->kind) {
    case GR_DRILL_CHOICE:
        snprintf(buf, len, "answer (a-%c)", 'a' + q->n_choices - 1);
        return buf;
    case GR_DRILL_TRUE_FALSE:
        return "answer (true/false)";
    case GR_DRILL_NUMERIC:
        return "answer (a number)";
    default:
        return "answer";
    }
}

/* Read one line into *line (newline dropped). 0, or -1 at the end of input. */
static int read_line(FILE *in, char **line, size_t *cap)
{
    ssize_t n = getline(line, cap, in);
    if (n < 0)
        return -1;
    while (n > 0 && ((*line)[n - 1] == '\n' || (*line)[n - 1] == '\r'))
        (*line)[--n] = '\0';
    return 0;
}

/* Ask q until it gets an answer of its form: its verdict, or -1 when the
   input ended or said quit. An answer neither accepted nor known to be wrong
   is asked again once, with the hint of the form expected; a second such
   answer is GR_DRILL_UNKNOWN (missed). */
static int ask(FILE *in, FILE *out, int tty, const gr_drill_question *q, char **line,
               size_t *cap)
{
    char form[32], why[160];
    int unknown = 0;
    for (;;) {
        fprintf(out, "%s: ", answer_form(q, form, sizeof form));
        fflush(out);
        if (read_line(in, line, cap) != 0) {
            fputc('\n', out);
            return -1;
        }
        if (!tty)
            fprintf(out, "%s\n", *line);        /* a transcript shows what was answered */
        if (strcmp(*line, "quit") == 0)
            return -1;
        gr_drill_verdict v = gr_drill_judge(q, *line, why, sizeof why);
        if (v == GR_DRILL_UNKNOWN && !unknown++) {
            fprintf(out, "'%s' is not an answer this question knows, right or wrong. Hint: "
                    "%s. Try once more (an empty line shows the answer).\n", *line, why);
            continue;
        }
        if (v != GR_DRILL_MALFORMED)
            return (int)v;
        fprintf(out, "'%s' is not an answer here: %s. Try again (an empty line shows the "
                "answer).\n", *line, why);
    }
}

/* ---- --stats ------------------------------------------------------------------------------ */

/* One line of the table: a bank's ids counted by box. */
typedef struct stats_row {
    int questions, boxes[GR_DRILL_BOXES + 1], due;
    long right, wrong;
} stats_row;

static void stats_add(stats_row *r, gr_drill_progress *p, const char *id, long next)
{
    const gr_drill_card *c = gr_drill_card_of(p, id);
    r->questions++;
    r->boxes[c ? c->box : 0]++;
    r->due += gr_drill_due(c, next);
    if (c) {
        r->right += c->right;
        r->wrong += c->wrong;
    }
}

static void stats_line(FILE *out, const char *name, const stats_row *r)
{
    fprintf(out, "  %-11s %9d %5d", name, r->questions, r->boxes[0]);
    for (int b = 1; b <= GR_DRILL_BOXES; b++)
        fprintf(out, " %5d", r->boxes[b]);
    fprintf(out, " %5d %7ld %7ld\n", r->due, r->right, r->wrong);
}

static void print_stats(FILE *out, const gr_drill_bank *banks, int nb, gr_drill_progress *p,
                        const char *path)
{
    long next = p->sessions + 1;
    stats_row total;
    memset(&total, 0, sizeof total);
    fprintf(out, "Drill progress after %ld session%s (%s)\n\n", p->sessions,
            p->sessions == 1 ? "" : "s", path);
    fprintf(out, "  %-11s %9s %5s", "bank", "questions", "new");
    for (int b = 1; b <= GR_DRILL_BOXES; b++)
        fprintf(out, " box %d", b);
    fprintf(out, " %5s %7s %7s\n", "due", "right", "wrong");
    for (int b = 0; b <= nb; b++) {
        stats_row r;
        memset(&r, 0, sizeof r);
        if (b < nb)
            for (int i = 0; i < banks[b].n; i++)
                stats_add(&r, p, banks[b].q[i].id, next);
        else
            for (int k = 0; k < GR_GEN_COUNT; k++)
                stats_add(&r, p, gr_drill_gen_id(k), next);
        stats_line(out, b < nb ? banks[b].name : "generated", &r);
        total.questions += r.questions;
        total.due += r.due;
        total.right += r.right;
        total.wrong += r.wrong;
        for (int x = 0; x <= GR_DRILL_BOXES; x++)
            total.boxes[x] += r.boxes[x];
    }
    stats_line(out, "total", &total);
    fputs("\n", out);
    gr_print_wrapped(out, "", "new: never asked. A right answer moves a question up one box, "
                     "a missed one back to box 1. Box 1 comes back every session, box 2 "
                     "every 2nd, box 3 every 4th, box 4 every 8th, box 5 every 16th; due: "
                     "asked first next session. A generated drill counts once per kind.");
}

/* ---- the session --------------------------------------------------------------------------- */

/* Ask the session's questions; counts what happened into right, wrong, blank.
   Returns how many were answered (fewer than total when the input stopped). */
static int run_session(FILE *in, FILE *out, const drill_item *pool, int n_pool, int total,
                       uint64_t seed, gr_drill_progress *p, long session,
                       int counts[GR_DRILL_VERDICTS])
{
    int tty = isatty(fileno(in)), answered = 0;
    char *line = NULL;
    size_t cap = 0;
    for (int i = 0; i < total; i++) {
        const drill_item *it = &pool[i % n_pool];
        gr_drill_question gen, shown;
        const gr_drill_question *q = it->q;
        uint64_t at = seed * 1000003ULL + (uint64_t)i;   /* this presentation's seed */
        char *order[26];
        if (!q) {
            /* A fresh drill for each question: the seed and the position pick it. */
            gr_drill_generate(&gen, it->gen, at);
            q = &gen;
        }
        shown = gr_drill_present(q, at, order);       /* choices in a fresh order */
        q = &shown;
        gr_drill_print_question(out, q, it->bank, i + 1, total);
        int v = ask(in, out, tty, q, &line, &cap);
        if (v >= 0) {
            gr_drill_print_feedback(out, q, (gr_drill_verdict)v);
            gr_drill_record(p, it->id, session, v == GR_DRILL_RIGHT);
            counts[v]++;
            answered++;
        }
        if (!it->q)
            gr_drill_question_free(&gen);
        if (v < 0)
            break;
    }
    free(line);
    return answered;
}

/* "Score: 3 of 5 right (1 wrong, 0 without an answer, 1 not recognised twice)." */
static void print_score(FILE *out, const int counts[GR_DRILL_VERDICTS], int answered)
{
    int wrong = counts[GR_DRILL_WRONG], blank = counts[GR_DRILL_BLANK],
        unknown = counts[GR_DRILL_UNKNOWN];
    fprintf(out, "\nScore: %d of %d right", counts[GR_DRILL_RIGHT], answered);
    if (wrong || blank || unknown)
        fprintf(out, " (%d wrong, %d without an answer%s", wrong, blank, unknown ? "" : ")");
    if (unknown)
        fprintf(out, ", %d not recognised twice)", unknown);
    fputs(".\n", out);
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
        print_stats(out, banks, nb, &p, path);
    } else {
        uint64_t seed = o.has_seed ? o.seed
                      : (uint64_t)time(NULL) * 2654435761ULL ^ (uint64_t)getpid();
        long session = p.sessions + 1;
        int n_pool = 0, counts[GR_DRILL_VERDICTS] = {0};
        drill_item *pool = make_pool(banks, nb, o.bank, &p, session, seed, &n_pool);
        /* Bank questions are asked at most once a session; generated ones never repeat. */
        int endless = o.bank && strcmp(o.bank, "generated") == 0;
        int total = endless || o.count < n_pool ? (int)o.count : n_pool;
        if (total < o.count)
            fprintf(out, "%s%s %s %d question%s, so this session asks %d, not %ld: a "
                    "session asks each question once (--bank generated has no end).\n",
                    o.bank ? "The bank " : "The banks and the generated drills",
                    o.bank ? o.bank : "", o.bank ? "has" : "hold", n_pool,
                    n_pool == 1 ? "" : "s", n_pool, o.count);
        int answered = run_session(in, out, pool, n_pool, total, seed, &p, session, counts);
        free(pool);
        if (answered < total)
            fprintf(out, "\nStopped after %d of %d question%s.\n", answered, total,
                    total == 1 ? "" : "s");
        print_score(out, counts, answered);
        if (answered > 0) {
            p.sessions = session;
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
