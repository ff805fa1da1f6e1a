/* test_drill_trust.c: the drills check. What makes a drill or a line of
 * course text something a learner can trust, on the shipped banks and texts:
 *   - choice questions are shuffled per presentation, the right choice at
 *     each letter about equally often, and answering "a", "the longest" or
 *     "the shortest" to every question of every bank scores at chance;
 *   - no bank gives its answers away by their length;
 *   - free text is matched whole: every short question lists near-misses,
 *     a negation of an accepted form is wrong and an extension never right;
 *   - each short question accepts the course's own words for its answer, and
 *     each such phrase occurs in the handout section (or syllabus) it cites;
 *   - no bank can be answered above 40% by picking the choice that shares the
 *     most words with the course's slogans, the one most made of them, or the
 *     longest choice;
 *   - a numeric question accepts exactly what rounds to its answer at its
 *     decimals, and every generated kind's plausible wrong answers are
 *     rejected for thousands of seeds;
 *   - keys are counted from 0: no 1-based phrasing in the course text, the
 *     drills, the generated prompts or explain's lessons;
 *   - the syllabus's drill lines and bank table name real banks, and nothing
 *     built is called planned.
 * Run from the repository root. The distribution of right-answer positions is
 * printed on stderr, for the record. */
#include <check.h>
#include <ctype.h>
#include <glob.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/layout.h"
#include "learn/drill.h"
#include "base/util.h"

Suite *test_suite(void);

#define SEEDS 400           /* presentations of each choice question */

static gr_drill_bank *banks;
static int n_banks;

static void load_banks(void)
{
    char err[512];
    ck_assert_msg(gr_drill_load_dir("data/drills", &banks, &n_banks, err, sizeof err) == 0,
                  "%s", err);
}

static void free_banks(void)
{
    gr_drill_banks_free(banks, n_banks);
}

/* ---- choice questions: shuffled, balanced, at chance ------------------------------- */

enum { PICK_A, PICK_LONGEST, PICK_SHORTEST, N_PICKS };

/* The letter a strategy picks among the choices as shown. */
static int pick(const gr_drill_question *shown, int how)
{
    int best = 0;
    for (int c = 1; c < shown->n_choices && how != PICK_A; c++) {
        size_t len = strlen(shown->choices[c]), at = strlen(shown->choices[best]);
        if (how == PICK_LONGEST ? len > at : len < at)
            best = c;
    }
    return best;
}

START_TEST(choice_answers_score_at_chance)
{
    double right[N_PICKS] = {0}, chance = 0.0, asked = 0.0;
    for (int b = 0; b < n_banks; b++) {
        int at[26] = {0}, n = 0, letters = 0;
        for (int i = 0; i < banks[b].n; i++) {
            const gr_drill_question *q = &banks[b].q[i];
            if (q->kind != GR_DRILL_CHOICE)
                continue;
            n++;
            letters = q->n_choices > letters ? q->n_choices : letters;
            for (uint64_t seed = 0; seed < SEEDS; seed++) {
                char *order[26];
                gr_drill_question shown = gr_drill_present(q, seed * 7919 + (uint64_t)i, order);
                ck_assert_str_eq(shown.choices[shown.answer], q->answer_text);
                at[shown.answer]++;
                for (int h = 0; h < N_PICKS; h++) {
                    char line[2] = { (char)('a' + pick(&shown, h)), '\0' }, why[128];
                    right[h] += gr_drill_judge(&shown, line, why, sizeof why) == GR_DRILL_RIGHT;
                }
                chance += 1.0 / q->n_choices;
                asked += 1.0;
            }
        }
        if (!n)
            continue;
        /* the right choice's letter, over every presentation of the bank */
        fprintf(stderr, "drills: %-10s %2d choice questions, right answer at", banks[b].name, n);
        for (int c = 0; c < letters; c++) {
            fprintf(stderr, " %c %.1f%%", 'a' + c, 100.0 * at[c] / (n * SEEDS));
            ck_assert_msg(fabs((double)at[c] / (n * SEEDS) - 1.0 / letters) < 0.5 / letters,
                          "%s: the right answer is at %c in %d of %d presentations",
                          banks[b].name, 'a' + c, at[c], n * SEEDS);
        }
        fputc('\n', stderr);
    }
    static const char *const names[N_PICKS] = { "always a", "always the longest",
                                                 "always the shortest" };
    for (int h = 0; h < N_PICKS; h++) {
        fprintf(stderr, "drills: %s scores %.1f%%, chance %.1f%%\n", names[h],
                100.0 * right[h] / asked, 100.0 * chance / asked);
        ck_assert_msg(right[h] / asked <= chance / asked + 0.05, "%s scores %.3f, chance %.3f",
                      names[h], right[h] / asked, chance / asked);
    }
}
END_TEST

START_TEST(no_bank_gives_answers_away_by_length)
{
    for (int b = 0; b < n_banks; b++) {
        int longest, shortest, n = gr_drill_length_tells(&banks[b], &longest, &shortest);
        ck_assert_msg(2 * longest <= n, "%s: the right choice is the longest in %d of %d "
                      "questions; rewrite choices", banks[b].name, longest, n);
        ck_assert_msg(2 * shortest <= n, "%s: the right choice is the shortest in %d of %d "
                      "questions; rewrite choices", banks[b].name, shortest, n);
    }
}
END_TEST

/* ---- free text: whole, never a fragment ----------------------------------------------- */

static gr_drill_verdict judge(const gr_drill_question *q, const char *line)
{
    char why[160];
    return gr_drill_judge(q, line, why, sizeof why);
}

START_TEST(free_text_is_matched_whole)
{
    int shorts = 0, rejects = 0;
    for (int b = 0; b < n_banks; b++)
        for (int i = 0; i < banks[b].n; i++) {
            const gr_drill_question *q = &banks[b].q[i];
            rejects += q->n_reject;
            if (q->kind != GR_DRILL_SHORT)
                continue;
            shorts++;
            ck_assert_msg(q->n_reject >= 3, "%s lists %d near-misses; give at least 3", q->id,
                          q->n_reject);
            for (int r = 0; r < q->n_reject; r++)
                ck_assert_msg(judge(q, q->reject[r]) == GR_DRILL_WRONG, "%s: '%s' is not wrong",
                              q->id, q->reject[r]);
            /* every accepted form and course phrase is right; negated it is wrong,
               extended it is never right (wrong, or asked again with the hint) */
            for (int a = -1; a < q->n_accept + q->n_phrases; a++) {
                const char *form = a < 0 ? q->answer_text : a < q->n_accept ? q->accept[a]
                                 : q->phrases[a - q->n_accept].text;
                char *neg = gr_xasprintf("not %s", form), *ext = gr_xasprintf("%s over the queries",
                                                                                form);
                ck_assert_int_eq(judge(q, form), GR_DRILL_RIGHT);
                ck_assert_msg(judge(q, neg) == GR_DRILL_WRONG, "%s: '%s' is not wrong", q->id,
                              neg);
                gr_drill_verdict v = judge(q, ext);
                ck_assert_msg(v == GR_DRILL_WRONG || v == GR_DRILL_UNKNOWN, "%s: '%s' is right",
                              q->id, ext);
                free(neg);
                free(ext);
            }
        }
    fprintf(stderr, "drills: %d short questions; %d reject: examples in all banks\n", shorts,
            rejects);
    ck_assert_int_ge(shorts, 5);
}
END_TEST

/* ---- the course's own words are right ------------------------------------------------- */

/* text as a phrase is looked for in it: Markdown's ` and * dropped, spaces
   collapsed, lower-cased (a phrase may wrap across lines of a handout). */
static char *plain(const char *text)
{
    char *t = gr_xstrdup(text);
    size_t k = 0;
    for (const char *p = text; *p; p++)
        if (*p != '`' && *p != '*')
            t[k++] = *p;
    t[k] = '\0';
    char *n = gr_drill_normalise(t);
    free(t);
    return n;
}

/* The course text a phrase cites, plain: the syllabus, or section K of lab N's
   handout (from "## K. " to the next "## "). */
static char *course_text(const char *in)
{
    int lab, sec;
    size_t len;
    if (!strcmp(in, "syllabus")) {
        char *text = gr_read_file("syllabus.md", &len), *p = plain(text);
        free(text);
        return p;
    }
    ck_assert_int_eq(sscanf(in, "lab %d §%d", &lab, &sec), 2);
    char *path = gr_layout_handout(".", lab), *text = gr_read_file(path, &len);
    ck_assert_msg(text != NULL, "cannot read %s", path);
    char heading[32];
    snprintf(heading, sizeof heading, "\n## %d. ", sec);
    char *start = strstr(text, heading);
    ck_assert_msg(start != NULL, "%s has no section %d", path, sec);
    char *end = strstr(start + 1, "\n## ");
    if (end)
        *end = '\0';
    char *p = plain(start);
    free(text);
    free(path);
    return p;
}

START_TEST(short_answers_accept_the_course_words)
{
    int phrases = 0;
    for (int b = 0; b < n_banks; b++)
        for (int i = 0; i < banks[b].n; i++) {
            const gr_drill_question *q = &banks[b].q[i];
            if (q->kind != GR_DRILL_SHORT)
                continue;
            ck_assert_msg(q->n_phrases >= 1, "%s cites no course phrase", q->id);
            for (int k = 0; k < q->n_phrases; k++, phrases++) {
                char *text = course_text(q->phrases[k].in), *want = plain(q->phrases[k].text);
                ck_assert_msg(strstr(text, want) != NULL, "%s: \"%s\" is not in %s", q->id,
                              q->phrases[k].text, q->phrases[k].in);
                ck_assert_int_eq(judge(q, q->phrases[k].text), GR_DRILL_RIGHT);
                free(text);
                free(want);
            }
        }
    fprintf(stderr, "drills: %d course phrases, each found where it is cited\n", phrases);
    /* the check looks in the section cited, not anywhere */
    char *sec2 = course_text("lab 2 §2"), *sec5 = course_text("lab 2 §5");
    ck_assert_ptr_null(strstr(sec2, "a row of nan"));
    ck_assert_ptr_nonnull(strstr(sec5, "a row of nan"));
    free(sec2);
    free(sec5);
}
END_TEST

/* Right answers a review found marked wrong: each is right now. */
START_TEST(review_answers_are_right)
{
    static const struct { const char *id, *answer; } said[] = {
        { "softmax/conversion-point", "the softmax function" },
        { "masks/torch-softmax-fully-masked", "a row of NaN" },
        { "masks/torch-softmax-fully-masked", "all NaN" },
        { "scores/luong-identity", "the dot product of q and k" },
        { "online/recompute-from", "the logsumexp" },
        { "scores/score-shape", "(B, T_q, T_k)" },
    };
    for (size_t k = 0; k < sizeof said / sizeof said[0]; k++) {
        const gr_drill_question *q = NULL;
        for (int b = 0; b < n_banks && !q; b++)
            for (int i = 0; i < banks[b].n && !q; i++)
                if (!strcmp(banks[b].q[i].id, said[k].id))
                    q = &banks[b].q[i];
        ck_assert_msg(q != NULL, "no question %s", said[k].id);
        ck_assert_msg(judge(q, said[k].answer) == GR_DRILL_RIGHT, "%s: '%s' is not right",
                      said[k].id, said[k].answer);
    }
}
END_TEST

/* ---- no bank answered by the course's slogans ----------------------------------------- */

/* The course's slogans, plain, with a space at each end: the syllabus's opening
   (up to "**Who it is for.**") and the first cell of each row of its table of
   the facts every student must be able to state. */
static char *slogans(void)
{
    size_t len;
    char *syl = gr_read_file("syllabus.md", &len);
    ck_assert_ptr_nonnull(syl);
    gr_strbuf sb = {0};
    char *open = strstr(syl, "This course teaches"), *who = strstr(syl, "**Who it is for.**");
    ck_assert(open && who && open < who);
    gr_sb_appendn(&sb, open, (size_t)(who - open));
    char *facts = strstr(syl, "\n| fact |");
    ck_assert_ptr_nonnull(facts);
    for (char *row = strstr(facts + 1, "\n| "); row && row[1] == '|'; row = strchr(row + 1, '\n')) {
        char *cell = row + 3, *bar = strchr(cell, '|');
        if (bar && strncmp(cell, "---", 3))
            gr_sb_printf(&sb, " %.*s", (int)(bar - cell), cell);
    }
    free(syl);
    char *text = gr_sb_take(&sb);
    for (char *p = text; *p; p++)
        if (!isalnum((unsigned char)*p) && *p != '_')
            *p = ' ';
    char *p = plain(text), *out = gr_xasprintf(" %s ", p);
    free(text);
    free(p);
    return out;
}

/* How many distinct words of choice (3 letters or more, not a function word)
   the slogans hold; *of gets how many such words it has. */
static int slogan_words(const char *choice, const char *slogans, int *of)
{
    static const char *const function_words[] = { "the", "and", "for", "its", "with", "that",
                                                  "this", "from", "into", "than", "then",
                                                  "which", "what", "when", "are", "was",
                                                  "has", "have", "but", "can", "does" };
    char *c = gr_xstrdup(choice);
    for (char *p = c; *p; p++)
        *p = isalnum((unsigned char)*p) || *p == '_' ? (char)tolower((unsigned char)*p) : ' ';
    int n = 0;
    *of = 0;
    char *seen = gr_xstrdup(" ");
    for (char *w = strtok(c, " "); w; w = strtok(NULL, " ")) {
        char *pad = gr_xasprintf(" %s ", w);
        int skip = strlen(w) < 3 || strstr(seen, pad);
        for (size_t f = 0; f < sizeof function_words / sizeof *function_words; f++)
            skip |= !strcmp(w, function_words[f]);
        *of += !skip;
        if (!skip && strstr(slogans, pad))
            n++;
        char *more = gr_xasprintf("%s%s ", seen, w);
        free(seen);
        seen = more;
        free(pad);
    }
    free(seen);
    free(c);
    return n;
}

/* The heuristics: the most slogan words, the largest share of slogan words
   (a short choice made only of them), the longest. */
enum { BY_SLOGANS, BY_SLOGAN_SHARE, BY_LENGTH, N_HOWS };

/* A choice's worth to heuristic how. */
static double worth(const char *choice, int how, const char *slogans_text)
{
    int of, n = slogan_words(choice, slogans_text, &of);
    if (how == BY_SLOGANS)
        return n;
    return how == BY_SLOGAN_SHARE ? (of ? (double)n / of : 0.0) : (double)strlen(choice);
}

/* What picking the best choice by how scores it: 1 when the right choice alone
   is best, 1/k when it ties with k - 1 others (a pick among them), else 0. */
static double pick_by(const gr_drill_question *q, int how, const char *slogans_text)
{
    int best = -1, ties = 0;
    double score[26];
    for (int c = 0; c < q->n_choices; c++) {
        score[c] = worth(q->choices[c], how, slogans_text);
        if (best < 0 || score[c] > score[best]) {
            best = c;
            ties = 1;
        } else if (score[c] == score[best]) {
            ties++;
        }
    }
    return score[q->answer] == score[best] ? 1.0 / ties : 0.0;
}

START_TEST(no_bank_is_answered_by_slogans)
{
    char *sl = slogans();
    /* the heuristic finds a slogan: "scores are not weights" beats two others */
    char c0[] = "a banana", c1[] = "attention scores are not attention weights",
         c2[] = "the cat sat on a mat", *choices[] = { c0, c1, c2 };
    gr_drill_question probe = { .kind = GR_DRILL_CHOICE, .n_choices = 3, .answer = 1,
                                .choices = choices };
    ck_assert_double_eq(pick_by(&probe, BY_SLOGANS, sl), 1.0);
    ck_assert_double_eq(pick_by(&probe, BY_SLOGAN_SHARE, sl), 1.0);
    static const char *const names[N_HOWS] = { "the choice with the most slogan words",
                                               "the choice most made of slogan words",
                                               "the longest choice" };
    for (int b = 0; b < n_banks; b++) {
        double got[N_HOWS] = {0, 0, 0};
        int n = 0;
        for (int i = 0; i < banks[b].n; i++)
            if (banks[b].q[i].kind == GR_DRILL_CHOICE) {
                n++;
                for (int h = 0; h < N_HOWS; h++)
                    got[h] += pick_by(&banks[b].q[i], h, sl);
            }
        if (!n)
            continue;
        fprintf(stderr, "drills: %-10s by slogan words %3.0f%%, by their share %3.0f%%, by "
                "length %3.0f%% of %d\n", banks[b].name, 100 * got[0] / n, 100 * got[1] / n,
                100 * got[2] / n, n);
        for (int h = 0; h < N_HOWS; h++)
            ck_assert_msg(got[h] <= 0.40 * n + 1e-9, "%s: picking %s answers %.0f%% of its "
                          "%d choice questions; rewrite choices", banks[b].name, names[h],
                          100 * got[h] / n, n);
    }
    free(sl);
}
END_TEST

/* ---- numbers: exactly what rounds to the answer ------------------------------------------ */

/* x at k decimals, as a learner types it. */
static void typed(char *buf, size_t len, double x, int k)
{
    snprintf(buf, len, "%.*f", k + 3, x);
}

START_TEST(numeric_answers_are_right_exactly_when_they_round_to_it)
{
    for (int b = 0; b < n_banks; b++)
        for (int i = 0; i < banks[b].n; i++) {
            const gr_drill_question *q = &banks[b].q[i];
            if (q->kind != GR_DRILL_NUMERIC)
                continue;
            double unit = pow(10.0, -q->decimals), r = round(q->value / unit) * unit;
            char in[64], out1[64], out2[64];
            typed(in, sizeof in, r + 0.49 * unit, q->decimals);
            typed(out1, sizeof out1, r + 0.51 * unit, q->decimals);
            typed(out2, sizeof out2, r - 0.51 * unit, q->decimals);
            ck_assert_msg(judge(q, in) == GR_DRILL_RIGHT, "%s: %s is not right", q->id, in);
            ck_assert_msg(judge(q, out1) == GR_DRILL_WRONG, "%s: %s is right", q->id, out1);
            ck_assert_msg(judge(q, out2) == GR_DRILL_WRONG, "%s: %s is right", q->id, out2);
        }
}
END_TEST

/* The wrong answers each generated kind must be proven to reject. */
static const struct {
    int kind;
    const char *names[4];
} must_reject[] = {
    { GR_GEN_WEIGHTS, { "the mask ignored", "no 1/sqrt(d_k) scale",
                        "key counted from 1 (the key before)", "the key after" } },
    { GR_GEN_ENTROPY, { "log base 2 (bits, not nats)", "the minus sign left out" } },
    { GR_GEN_TEMPERATURE, { "the temperature left out", "the scores multiplied by T" } },
    { GR_GEN_GRADIENT, { "key counted from 1 (the key before)", "<w, g> left out",
                         "the sign flipped" } },
};

START_TEST(generated_wrong_answers_are_rejected)
{
    for (size_t m = 0; m < sizeof must_reject / sizeof must_reject[0]; m++) {
        int seen[4] = {0};
        for (uint64_t seed = 0; seed < 3000; seed++) {
            gr_drill_question q;
            gr_drill_generate(&q, must_reject[m].kind, seed);
            double vals[8];
            const char *names[8];
            int n = gr_drill_gen_wrong(&q, vals, names, 8);
            for (int w = 0; w < n; w++) {
                char line[64];
                snprintf(line, sizeof line, "%.*f", q.decimals, vals[w]);
                ck_assert_msg(judge(&q, line) == GR_DRILL_WRONG, "%s seed %llu: '%s' (%s) is "
                              "not wrong; the answer is %s", q.id, (unsigned long long)seed,
                              line, names[w], q.answer_text);
                for (int k = 0; k < 4; k++)
                    if (must_reject[m].names[k] && !strcmp(names[w], must_reject[m].names[k]))
                        seen[k]++;
            }
            gr_drill_question_free(&q);
        }
        for (int k = 0; k < 4 && must_reject[m].names[k]; k++)
            ck_assert_msg(seen[k] >= 300, "%s: '%s' proven on %d seeds only",
                          gr_drill_gen_id(must_reject[m].kind), must_reject[m].names[k], seen[k]);
    }
}
END_TEST

/* ---- keys counted from 0 ------------------------------------------------------------------- */

/* Is text at p the word w (case-insensitive, a word boundary before)? */
static int word_at(const char *text, const char *p, const char *w)
{
    size_t n = strlen(w);
    return strncasecmp(p, w, n) == 0 && (p == text || !isalnum((unsigned char)p[-1]));
}

/* How many numbers the plain list "[2, 1, -1, 0.5]" opening at br holds (the
   list ends before end), or 0 when br opens something else. */
static int list_length(const char *br, const char *end)
{
    int n = 1;
    const char *q = br + 1;
    for (; q < end && *q != ']'; q++) {
        if (!(isdigit((unsigned char)*q) || strchr(" ,.-+e", *q) || !strncmp(q, "inf", 3)))
            return 0;
        n += *q == ',';
    }
    return q < end ? n : 0;
}

/* The row of keys a "key N" at s refers to: the last plain list of numbers in
   [p, s), else the course's worked row (4 keys) when the paragraph [p, end)
   speaks of it; 0 when neither. */
static int row_before(const char *p, const char *s, const char *end)
{
    for (const char *br = s; br-- > p;)
        if (*br == '[' && list_length(br, s) > 0)
            return list_length(br, s);
    for (const char *w = p; w + 10 <= end; w++)
        if (strncasecmp(w, "worked row", 10) == 0)
            return 4;
    return 0;
}

/* The first 1-based phrasing in the paragraph [p, end), described into why;
   0 when there is none. A list of numbers "[2, 1, -1, 0.5]" before a "key N"
   is a row of n keys: "key n" or above counts from 1. */
static int ambiguous_in(const char *p, const char *end, char *why, size_t len)
{
    static const char *const tells[] = { "keys 1 to", "queries 1 to", "heads 1 to",
                                         "keys 1-", "1-based", "counted from 1",
                                         "counting from 1", "count from 1" };
    for (const char *s = p; s < end; s++) {
        for (size_t t = 0; t < sizeof tells / sizeof tells[0]; t++)
            if (word_at(p, s, tells[t])) {
                snprintf(why, len, "'%s'", tells[t]);
                return 1;
            }
        int n, row;
        if (word_at(p, s, "key ") && isdigit((unsigned char)s[4]) &&
            sscanf(s + 4, "%d", &n) == 1 && (row = row_before(p, s, end)) > 0 && n >= row &&
            strncmp(s + 4 + strspn(s + 4, "0123456789"), " (index", 7)) {
            snprintf(why, len, "'key %d' in a row of %d keys (keys 0 to %d)", n, row, row - 1);
            return 1;
        }
        int a, b2;
        char what[8];
        if ((word_at(p, s, "key ") || word_at(p, s, "head ") || word_at(p, s, "query ")) &&
            sscanf(s, "%7s %d of %d", what, &a, &b2) == 3 && a == b2) {
            snprintf(why, len, "'%s %d of %d' counts from 1", what, a, b2);
            return 1;
        }
    }
    return 0;
}

/* Check text paragraph by paragraph (split at sep); fail naming where. */
static void check_key_phrasing(const char *where, const char *text, const char *sep)
{
    char why[128];
    const char *p = text;
    int line = 1;
    while (*p) {
        const char *end = strstr(p, sep);
        if (!end)
            end = p + strlen(p);
        ck_assert_msg(!ambiguous_in(p, end, why, sizeof why), "%s, paragraph from line %d: %s; "
                      "count keys and queries from 0, as the code does:\n%.*s", where, line,
                      why, (int)(end - p), p);
        for (const char *c = p; c < end; c++)
            line += *c == '\n';
        line += *end == '\n';                         /* the separator's first character */
        p = *end ? end + 1 : end;
    }
}

/* The prose of C source: each comment, and each run of string literals
   (adjacent ones joined, as the compiler joins them), one paragraph each,
   with the code between left out (an array's "[3]" is no row of keys). */
static char *c_prose(const char *src)
{
    gr_strbuf b = {0};
    for (const char *p = src; *p;) {
        if (p[0] == '/' && p[1] == '*') {
            const char *end = strstr(p + 2, "*/");
            end = end ? end : p + strlen(p);
            gr_sb_appendn(&b, p + 2, (size_t)(end - p - 2));
            gr_sb_append(&b, "\n\n");
            p = *end ? end + 2 : end;
        } else if (*p == '"') {
            for (;;) {                         /* "a" "b": one literal */
                const char *q = p + 1;
                while (*q && *q != '"' && *q != '\n')
                    q += *q == '\\' && q[1] ? 2 : 1;
                gr_sb_appendn(&b, p + 1, (size_t)(q - p - 1));
                p = *q ? q + 1 : q;
                const char *next = p + strspn(p, " \t\n");
                if (*next != '"')
                    break;
                p = next;
            }
            gr_sb_append(&b, "\n\n");
        } else if (*p == '\'') {
            p += p[1] == '\\' ? 4 : 3;         /* '"' is no string */
        } else {
            p++;
        }
    }
    return gr_sb_take(&b);
}

START_TEST(keys_count_from_zero_in_the_course_text_and_messages)
{
    /* the grader's own messages too: each lab module's test descriptions and
       feedback, the terminal's and feedback's text, the labs' Check files and
       programs (the drills' generated text is checked below, seed by seed) */
    static const char *const patterns[] = { "syllabus.md", "README.md", "labs/*/README.md",
                                            "data/drills/*.yaml", "grader/labs/*.c",
                                            "grader/report/report_t*.c", "labs/*/*.c" };
    int files = 0;
    for (size_t k = 0; k < sizeof patterns / sizeof patterns[0]; k++) {
        glob_t g;
        ck_assert_int_eq(glob(patterns[k], 0, NULL, &g), 0);
        for (size_t f = 0; f < g.gl_pathc; f++, files++) {
            size_t len;
            char *text = gr_read_file(g.gl_pathv[f], &len);
            ck_assert_ptr_nonnull(text);
            /* a bank's paragraph is one question; a text's, a blank-line block;
               a C file's, each comment and string */
            const char *name = g.gl_pathv[f];
            size_t n = strlen(name);
            char *where = gr_xstrdup(name);
            if (n > 2 && strcmp(name + n - 2, ".c") == 0) {
                char *prose = c_prose(text);
                free(text);
                text = prose;
                free(where);
                where = gr_xasprintf("%s's comments and strings", name);
            }
            check_key_phrasing(where, text, strstr(name, ".yaml") ? "\n  - id:" : "\n\n");
            free(where);
            free(text);
        }
        globfree(&g);
    }
    ck_assert_int_ge(files, 13);
    /* generated prompts and explanations, for many seeds */
    for (int k = 0; k < GR_GEN_COUNT; k++)
        for (uint64_t seed = 0; seed < 300; seed++) {
            gr_drill_question q;
            gr_drill_generate(&q, k, seed);
            check_key_phrasing(q.id, q.prompt, "\n\n");
            check_key_phrasing(q.id, q.explanation, "\n\n");
            gr_drill_question_free(&q);
        }
}
END_TEST

/* The checker itself finds what it is for, and passes what it should. */
START_TEST(key_phrasing_check_finds_one_based_text)
{
    static const struct { const char *text; int bad; } cases[] = {
        { "The worked row: scores [2, 1, -1, 0.5], key 4 is padding.", 1 },
        { "The worked row: scores [2, 1, -1, 0.5], key 3 is padding.", 0 },
        { "Scores [2, 1, -1, 0.5]: key 4 (index 3) is padding.", 0 },
        { "A row of 4 scores, keys 1 to 4: [1, 2, 3, 4].", 1 },
        { "ALiBi with H = 6 heads. What is the slope of head 6 of 6?", 1 },
        { "Heads are 1-based here.", 1 },
        { "Scores [0.5, 1, 2]: what is dS for key 2?", 0 },
        { "Scores [0.5, 1, 2]: what is dS for key 3?", 1 },
        { "Key 2 gets 0.59. With v = [1, -1], every score lies in [-2, 2].", 0 },
        { "The worked row again, now with key 4 as padding:", 1 },
        { "The worked row again, now with key 3 as padding:", 0 },
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char why[128];
        const char *t = cases[c].text;
        ck_assert_msg(ambiguous_in(t, t + strlen(t), why, sizeof why) == cases[c].bad,
                      "'%s' should %sbe flagged", t, cases[c].bad ? "" : "not ");
    }
}
END_TEST

/* ---- the syllabus names real banks; nothing built is planned -------------------------------- */

/* Does data/drills/NAME.yaml exist (or is NAME "generated")? Its question count in *n. */
static int bank_exists(const char *name, int *n)
{
    for (int b = 0; b < n_banks; b++)
        if (!strcmp(banks[b].name, name)) {
            *n = banks[b].n;
            return 1;
        }
    *n = -1;
    return !strcmp(name, "generated");
}

START_TEST(syllabus_drill_references_resolve)
{
    size_t len;
    char *text = gr_read_file("syllabus.md", &len);
    ck_assert_ptr_nonnull(text);
    int lines = 0, rows = 0, n;
    for (char *p = strstr(text, "- **Drills** (bank"); p; p = strstr(p + 1, "- **Drills** (bank")) {
        char *list = strchr(p, ':'), *close = strchr(p, ')');
        ck_assert(list && close && list < close);
        char names[256];
        snprintf(names, sizeof names, "%.*s", (int)(close - list - 1), list + 1);
        for (char *tok = strtok(names, ", "); tok; tok = strtok(NULL, ", "))
            ck_assert_msg(bank_exists(tok, &n), "syllabus.md names the drill bank '%s', which "
                          "is not in data/drills/", tok);
        lines++;
    }
    int labs = 0;                                       /* one per lab the syllabus teaches */
    for (char *p = strstr(text, "\n### Lab "); p; p = strstr(p + 1, "\n### Lab "))
        labs++;
    ck_assert_int_gt(labs, 0);
    ck_assert_int_eq(lines, labs);
    /* the bank table: "| NAME | COUNT | lessons | labs |" */
    char *table = strstr(text, "| bank | questions |");
    ck_assert_ptr_nonnull(table);
    for (char *row = strstr(table, "\n| "); row && row[1] == '|'; row = strchr(row + 1, '\n')) {
        char name[64], count[64];
        if (sscanf(row, "\n| %63[^ |] | %63[^|]|", name, count) != 2 || !strcmp(name, "---"))
            continue;
        ck_assert_msg(bank_exists(name, &n), "the bank table names '%s'", name);
        if (n >= 0)
            ck_assert_msg(atoi(count) == n, "the bank table gives %s %d questions; it has %d",
                          name, atoi(count), n);
        rows++;
    }
    ck_assert_int_eq(rows, n_banks + 1);                /* every bank, and generated */
    free(text);
}
END_TEST

START_TEST(nothing_built_is_called_planned)
{
    static const char *const texts[] = { "syllabus.md", "README.md" };
    for (size_t t = 0; t < sizeof texts / sizeof texts[0]; t++) {
        size_t len;
        char *text = gr_read_file(texts[t], &len);
        ck_assert_ptr_nonnull(text);
        for (char *p = text; *p; p++)
            *p = (char)tolower((unsigned char)*p);
        ck_assert_msg(!strstr(text, "planned") && !strstr(text, "not yet built"),
                      "%s calls something planned; say what is built", texts[t]);
        free(text);
    }
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("drill_trust");
    TCase *tc = tcase_create("banks");
    tcase_add_checked_fixture(tc, load_banks, free_banks);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, choice_answers_score_at_chance);
    tcase_add_test(tc, no_bank_gives_answers_away_by_length);
    tcase_add_test(tc, free_text_is_matched_whole);
    tcase_add_test(tc, short_answers_accept_the_course_words);
    tcase_add_test(tc, review_answers_are_right);
    tcase_add_test(tc, no_bank_is_answered_by_slogans);
    tcase_add_test(tc, numeric_answers_are_right_exactly_when_they_round_to_it);
    tcase_add_test(tc, generated_wrong_answers_are_rejected);
    tcase_add_test(tc, keys_count_from_zero_in_the_course_text_and_messages);
    tcase_add_test(tc, key_phrasing_check_finds_one_based_text);
    tcase_add_test(tc, syllabus_drill_references_resolve);
    tcase_add_test(tc, nothing_built_is_called_planned);
    suite_add_tcase(s, tc);
    return s;
}
