/* drill_session.c: one session of `attnlab drill` and its --stats table
 * (drill_session.h): the pool of questions in the order the Leitner boxes
 * give, asking each until it gets an answer of its form, and the score.
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
#include "learn/drill_session.h"
#include "learn/worked.h"
#include "attn.h"
#include "base/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

void gr_drill_session_print_stats(FILE *out, const gr_drill_bank *banks, int nb,
                                  gr_drill_progress *p, const char *path)
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
    gr_worked_print_wrapped(out, "", "new: never asked. A right answer moves a question up one box, "
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

int gr_drill_session(FILE *in, FILE *out, const gr_drill_bank *banks, int nb, const char *bank,
                     long count, uint64_t seed, gr_drill_progress *p)
{
    long session = p->sessions + 1;
    int n_pool = 0, counts[GR_DRILL_VERDICTS] = {0};
    drill_item *pool = make_pool(banks, nb, bank, p, session, seed, &n_pool);
    /* Bank questions are asked at most once a session; generated ones never repeat. */
    int endless = bank && strcmp(bank, "generated") == 0;
    int total = endless || count < n_pool ? (int)count : n_pool;
    if (total < count)
        fprintf(out, "%s%s %s %d question%s, so this session asks %d, not %ld: a "
                "session asks each question once (--bank generated has no end).\n",
                bank ? "The bank " : "The banks and the generated drills",
                bank ? bank : "", bank ? "has" : "hold", n_pool,
                n_pool == 1 ? "" : "s", n_pool, count);
    int answered = run_session(in, out, pool, n_pool, total, seed, p, session, counts);
    free(pool);
    if (answered < total)
        fprintf(out, "\nStopped after %d of %d question%s.\n", answered, total,
                total == 1 ? "" : "s");
    print_score(out, counts, answered);
    if (answered > 0)
        p->sessions = session;
    return answered;
}
