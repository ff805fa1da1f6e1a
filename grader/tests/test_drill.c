/* test_drill.c: the drill engine. Malformed banks are rejected with
 * file:line:column; every shipped bank loads, and every question has an
 * explanation, a syllabus lesson that exists, a handout section that exists
 * and (multiple choice) an answer among its choices; no prompt leans on
 * another question, and a session shows every character of each; answers are judged
 * right, wrong, blank, malformed or unknown (neither accepted nor known to be
 * wrong: a phrase no form lists, a number short of the decimals asked); generated drills are reproducible from
 * their seed and their answers agree with the numbers their prompts show,
 * recomputed here in double; Leitner progress moves and persists. */
#include <check.h>
#include <ctype.h>
#include <glob.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "learn/drill.h"
#include "base/util.h"

Suite *test_suite(void);

/* Parse text as bank "t" (path t.yaml); returns rc, the error in err. */
static int parse(const char *text, gr_drill_bank *b, char *err, size_t errlen)
{
    return gr_drill_parse("t.yaml", text, strlen(text), b, err, errlen);
}

/* text must be rejected with an error that starts "t.yaml:line:" and says says. */
static void assert_rejected(const char *text, int line, const char *says)
{
    gr_drill_bank b;
    char err[512], prefix[32];
    ck_assert_int_eq(parse(text, &b, err, sizeof err), -1);
    snprintf(prefix, sizeof prefix, "t.yaml:%d:", line);
    ck_assert_msg(strncmp(err, prefix, strlen(prefix)) == 0, "error '%s' is not at %s", err,
                  prefix);
    ck_assert_msg(strstr(err, says) != NULL, "error '%s' lacks '%s'", err, says);
    ck_assert_int_eq(b.n, 0);
}

#define HEAD "bank: t\ntitle: T\nquestions:\n"
/* What a short question needs besides its answer: the form of an answer and the
   course's own words for it, as block and as flow YAML. */
#define HELP "    hint: one word\n    handout: [{phrase: soft-max, in: lab 2 §2}]\n"
#define HELP_FLOW " hint: one word, handout: [{phrase: soft-max, in: syllabus}]"

/* ---- malformed banks ----------------------------------------------------------- */

START_TEST(rejects_question_without_explanation)
{
    assert_rejected(HEAD
                    "  - id: a\n"
                    "    kind: true_false\n"
                    "    prompt: P\n"
                    "    answer: \"true\"\n"
                    "    lesson: L2.1\n", 4, "explanation");
}
END_TEST

START_TEST(rejects_answer_not_among_choices)
{
    assert_rejected(HEAD
                    "  - id: a\n"
                    "    kind: choice\n"
                    "    prompt: P\n"
                    "    choices: [scores, weights]\n"
                    "    answer: values\n"
                    "    explanation: E\n"
                    "    lesson: L2.1\n", 8, "the answer \"values\" is not among the choices");
}
END_TEST

START_TEST(rejects_numeric_answer_libattn_disagrees_with)
{
    /* softmax([2, 1, -1, 0]) gives key 3 0.0871, not 0.0900. */
    assert_rejected(HEAD
                    "  - id: a\n"
                    "    kind: numeric\n"
                    "    prompt: key 3? (4 decimals)\n"
                    "    answer: 0.0900\n"
                    "    decimals: 4\n"
                    "    compute: {op: weight, scores: [2, 1, -1, 0], key: 3}\n"
                    "    explanation: E\n"
                    "    lesson: L5.2\n", 7, "is not what compute: gives, 0.0871");
}
END_TEST

START_TEST(rejects_other_mistakes)
{
    /* A typo in a key, with the nearest known key named. */
    assert_rejected(HEAD "  - id: a\n    kind: true_false\n    prompt: P\n    answer: \"true\"\n"
                    "    explanaton: E\n    lesson: L2.1\n", 8, "did you mean \"explanation\"");
    /* A kind that does not exist. */
    assert_rejected(HEAD "  - id: a\n    kind: choise\n    prompt: P\n    answer: x\n"
                    "    explanation: E\n    lesson: L2.1\n", 5, "did you mean \"choice\"");
    /* A numeric question without its computation. */
    assert_rejected(HEAD "  - id: a\n    kind: numeric\n    prompt: P (1 decimal)\n"
                    "    answer: 1.0\n    decimals: 1\n    explanation: E\n    lesson: L2.1\n",
                    4, "without compute:");
    /* A numeric question whose prompt does not say its decimals, whose answer is
       not written with them, or that has none. */
    assert_rejected(HEAD "  - id: a\n    kind: numeric\n    prompt: P\n    answer: 0.7054\n"
                    "    decimals: 4\n    compute: {op: weight, scores: [2, 1, -1, 0.5], "
                    "mask: [0, 0, 0, 1], key: 0}\n    explanation: E\n    lesson: L2.1\n", 4,
                    "its prompt says \"(4 decimals)\"");
    assert_rejected(HEAD "  - id: a\n    kind: numeric\n    prompt: P (4 decimals)\n"
                    "    answer: 0.705\n    decimals: 4\n    compute: {op: weight, scores: "
                    "[2, 1, -1, 0.5], mask: [0, 0, 0, 1], key: 0}\n    explanation: E\n"
                    "    lesson: L2.1\n", 7, "has 3 decimals");
    assert_rejected(HEAD "  - id: a\n    kind: numeric\n    prompt: P (4 decimals)\n"
                    "    answer: 0.7054\n    compute: {op: weight, scores: [2, 1], key: 0}\n"
                    "    explanation: E\n    lesson: L2.1\n", 4, "without decimals");
    /* An answer that is not what compute: rounds to at its decimals (0.781080
       is 0.7811, not 0.7810), and keys counted from 0. */
    assert_rejected(HEAD "  - id: a\n    kind: numeric\n    prompt: P (4 decimals)\n"
                    "    answer: 0.7810\n    decimals: 4\n    compute: {op: grad_bound, "
                    "scores: [16, 8, -8, 4], dk: 64}\n    explanation: E\n    lesson: L2.1\n",
                    7, "0.7811");
    assert_rejected(HEAD "  - id: a\n    kind: numeric\n    prompt: P (4 decimals)\n"
                    "    answer: 0.0000\n    decimals: 4\n    compute: {op: weight, scores: "
                    "[2, 1, -1, 0.5], mask: [0, 0, 0, 1], key: 4}\n    explanation: E\n"
                    "    lesson: L2.1\n", 9, "from 0 to 3");
    /* A lesson that is not a syllabus id, a section that is not a handout's. */
    assert_rejected(HEAD "  - id: a\n    kind: true_false\n    prompt: P\n    answer: \"true\"\n"
                    "    explanation: E\n    lesson: M2\n", 9, "lesson is a syllabus lesson id");
    assert_rejected(HEAD "  - id: a\n    kind: true_false\n    prompt: P\n    answer: \"true\"\n"
                    "    explanation: E\n    lesson: L2.1\n    section: lab 2 section 4\n", 10,
                    "section is a handout section");
    /* A true_false answer that is neither. */
    assert_rejected(HEAD "  - id: a\n    kind: true_false\n    prompt: P\n    answer: maybe\n"
                    "    explanation: E\n    lesson: L2.1\n", 7, "true or false");
    /* Choices on a short question; patterns (fragment matching) are gone. */
    assert_rejected(HEAD "  - id: a\n    kind: short\n    prompt: P\n    answer: x\n"
                    "    choices: [x, y]\n    explanation: E\n    lesson: L2.1\n", 8,
                    "choices is not used by a short question");
    assert_rejected(HEAD "  - id: a\n    kind: short\n    prompt: P\n    answer: x\n"
                    "    patterns: ['x']\n    reject: [y]\n    explanation: E\n    lesson: L2.1\n",
                    8, "unknown key \"patterns\"");
    /* A short question without near-misses, and one whose near-miss is accepted. */
    assert_rejected(HEAD "  - id: a\n    kind: short\n    prompt: P\n    answer: x\n"
                    "    explanation: E\n    lesson: L2.1\n", 4, "without reject:");
    assert_rejected(HEAD "  - id: a\n    kind: short\n    prompt: P\n    answer: softmax\n"
                    "    reject: [log softmax, ' Softmax.']\n" HELP "    explanation: E\n"
                    "    lesson: L2.1\n", 8, "\" Softmax.\" is judged right");
    /* A short question without the form of its answer, one whose hint gives the
       answer away, one without the course's own words, and a phrase whose place
       is not a handout section or the syllabus. */
    assert_rejected(HEAD "  - id: a\n    kind: short\n    prompt: P\n    answer: x\n"
                    "    reject: [y]\n    handout: [{phrase: x, in: syllabus}]\n"
                    "    explanation: E\n    lesson: L2.1\n", 4, "without hint:");
    assert_rejected(HEAD "  - id: a\n    kind: short\n    prompt: P\n    answer: Softmax\n"
                    "    reject: [y]\n    handout: [{phrase: x, in: syllabus}]\n"
                    "    hint: the word softmax\n    explanation: E\n    lesson: L2.1\n", 10,
                    "the hint holds the answer");
    assert_rejected(HEAD "  - id: a\n    kind: short\n    prompt: P\n    answer: x\n"
                    "    reject: [y]\n    hint: one letter\n    explanation: E\n"
                    "    lesson: L2.1\n", 4, "without handout:");
    assert_rejected(HEAD "  - id: a\n    kind: short\n    prompt: P\n    answer: x\n"
                    "    reject: [y]\n    handout: [{phrase: x, in: lab 2}]\n"
                    "    hint: one letter\n    explanation: E\n    lesson: L2.1\n", 9,
                    "in is where the phrase is");
    assert_rejected(HEAD "  - id: a\n    kind: short\n    prompt: P\n    answer: x\n"
                    "    reject: [y]\n    handout: [{phrase: x, at: syllabus}]\n"
                    "    hint: one letter\n    explanation: E\n    lesson: L2.1\n", 9,
                    "unknown key \"at\"");
    /* A hint or handout phrases on a question that is not short. */
    assert_rejected(HEAD "  - id: a\n    kind: true_false\n    prompt: P\n    answer: \"true\"\n"
                    "    hint: true or false\n    explanation: E\n    lesson: L2.1\n", 8,
                    "hint is not used by a true_false question");
    /* A prompt that counts the key from 1 while compute: counts from 0. */
    assert_rejected(HEAD "  - id: a\n    kind: numeric\n    prompt: Weight of key 1? (4 decimals)\n"
                    "    answer: 0.7054\n    decimals: 4\n    compute: {op: weight, scores: "
                    "[2, 1, -1, 0.5], mask: [0, 0, 0, 1], key: 0}\n    explanation: E\n"
                    "    lesson: L2.1\n", 9, "the prompt does not name \"key 0\"");
    /* A numeric question without wrong answers to refuse. */
    assert_rejected(HEAD "  - id: a\n    kind: numeric\n    prompt: P (2 decimals)\n"
                    "    answer: 0.50\n    decimals: 2\n    compute: {op: dropout, w: 0.25, "
                    "p: 0.5}\n    explanation: E\n    lesson: L2.1\n", 4, "without reject:");
    /* A numeric near-miss that rounds to the answer. */
    assert_rejected(HEAD "  - id: a\n    kind: numeric\n    prompt: P (2 decimals)\n"
                    "    answer: 0.50\n    decimals: 2\n    compute: {op: dropout, w: 0.25, "
                    "p: 0.5}\n    reject: [\"0.504\"]\n    explanation: E\n    lesson: L2.1\n",
                    10, "\"0.504\" is judged right");
    /* Two questions with one id. */
    assert_rejected(HEAD "  - {id: a, kind: short, prompt: P, answer: x, reject: [y], explanation: E,"
                    " lesson: L1.1," HELP_FLOW "}\n"
                    "  - {id: a, kind: short, prompt: P, answer: y, reject: [x], explanation: E,"
                    " lesson: L1.1," HELP_FLOW "}\n", 5, "two questions have the id a");
    /* The bank's name must be its file's. */
    assert_rejected("bank: other\ntitle: T\nquestions: []\n", 1, "the file is t.yaml");
    /* Plain YAML syntax errors keep their position too. */
    assert_rejected(HEAD "  - id: a\n    prompt: True or false: x\n", 5, "YAML syntax error");
}
END_TEST

START_TEST(accepts_every_kind)
{
    gr_drill_bank b;
    char err[512];
    int rc = parse(HEAD
                   "  - {id: c, kind: choice, prompt: P, choices: [x, y], answer: y,"
                   " explanation: E, lesson: L1.1, section: lab 1 §2}\n"
                   "  - {id: t, kind: true_false, prompt: P, answer: \"false\", explanation: E,"
                   " lesson: L1.1}\n"
                   "  - {id: s, kind: short, prompt: P, answer: softmax, accept: [the softmax],"
                   " reject: [log softmax], explanation: E, lesson: L2.1," HELP_FLOW "}\n"
                   "  - {id: n, kind: numeric, prompt: key 0? (4 decimals), answer: 0.7054, decimals: 4,"
                   " compute: {op: weight, scores: [2, 1, -1, 0.5], mask: [0, 0, 0, 1], key: 0},"
                   " reject: [\"0.6095\"], explanation: E, lesson: L2.3}\n", &b, err, sizeof err);
    ck_assert_msg(rc == 0, "%s", err);
    ck_assert_int_eq(b.n, 4);
    ck_assert_str_eq(b.q[0].id, "t/c");
    ck_assert_int_eq(b.q[0].answer, 1);
    ck_assert_int_eq(b.q[1].answer, 0);
    ck_assert_int_eq(b.q[3].kind, GR_DRILL_NUMERIC);
    ck_assert_double_eq_tol(b.q[3].value, 0.7054, 1e-9);
    ck_assert_int_eq(b.q[0].line, 4);
    ck_assert_int_eq(b.q[3].line, 7);
    gr_drill_bank_free(&b);
}
END_TEST

/* ---- the shipped banks -------------------------------------------------------------- */

/* Does file path contain needle? */
static int file_has(const char *path, const char *needle)
{
    size_t len;
    char *text = gr_read_file(path, &len);
    ck_assert_msg(text != NULL, "cannot read %s", path);
    int found = strstr(text, needle) != NULL;
    free(text);
    return found;
}

START_TEST(shipped_banks_are_complete)
{
    gr_drill_bank *banks;
    int nb, total = 0, kinds[4] = {0, 0, 0, 0};
    char err[512];
    ck_assert_msg(gr_drill_load_dir("data/drills", &banks, &nb, err, sizeof err) == 0, "%s", err);
    ck_assert_int_ge(nb, 9);
    for (int b = 0; b < nb; b++) {
        ck_assert_int_ge(banks[b].n, 5);
        for (int i = 0; i < banks[b].n; i++) {
            const gr_drill_question *q = &banks[b].q[i];
            total++;
            kinds[q->kind]++;
            ck_assert_msg(q->explanation && strlen(q->explanation) >= 20,
                          "%s has no real explanation", q->id);
            ck_assert_msg(q->lesson != NULL, "%s has no lesson", q->id);
            /* The lesson is one the syllabus teaches: "- **L2.3 ". */
            char needle[32];
            snprintf(needle, sizeof needle, "**%s ", q->lesson);
            ck_assert_msg(file_has("syllabus.md", needle), "%s: lesson %s is not in syllabus.md",
                          q->id, q->lesson);
            /* The section is a numbered heading of that lab's handout: "## 4. ". */
            ck_assert_msg(q->section != NULL, "%s has no handout section", q->id);
            int lab, sec;
            ck_assert_int_eq(sscanf(q->section, "lab %d §%d", &lab, &sec), 2);
            char pattern[64], heading[32];
            snprintf(pattern, sizeof pattern, "labs/lab%02d-*/README.md", lab);
            glob_t g;
            ck_assert_int_eq(glob(pattern, 0, NULL, &g), 0);
            snprintf(heading, sizeof heading, "\n## %d. ", sec);
            ck_assert_msg(file_has(g.gl_pathv[0], heading), "%s: %s has no section %d", q->id,
                          g.gl_pathv[0], sec);
            globfree(&g);
            if (q->kind == GR_DRILL_CHOICE) {
                ck_assert_int_ge(q->n_choices, 2);
                ck_assert_int_lt(q->answer, q->n_choices);
                ck_assert_str_eq(q->choices[q->answer], q->answer_text);
            }
            /* Its own answer is judged right. */
            char why[128], right[256];
            if (q->kind == GR_DRILL_CHOICE)
                snprintf(right, sizeof right, "%c", 'a' + q->answer);
            else
                snprintf(right, sizeof right, "%s", q->answer_text);
            ck_assert_msg(gr_drill_judge(q, right, why, sizeof why) == GR_DRILL_RIGHT,
                          "%s: its own answer '%s' is not judged right", q->id, right);
        }
    }
    ck_assert_int_ge(total, 60);
    for (int k = 0; k < 4; k++)
        ck_assert_msg(kinds[k] >= 5, "only %d questions of kind %d", kinds[k], k);
    gr_drill_banks_free(banks, nb);
}
END_TEST

/* ---- every question stands alone and is shown whole ------------------------------------- */

/* Does text at p start with w (a word boundary after it)? */
static int starts(const char *p, const char *w)
{
    size_t n = strlen(w);
    return strncmp(p, w, n) == 0 && !isalnum((unsigned char)p[n]);
}

/* Does a prompt lean on another question: a sentence opening on something set
   up elsewhere ("The same scores ...", "In the same row", "Again"), a first
   word pointing back ("It", "This"), or words that place it after another
   ("as before", "above", "now")? The words found into why. */
static int refers_elsewhere(const char *prompt, char *why, size_t len)
{
    static const char *const opening[] = { "the same", "in the same", "same", "again", "then",
                                           "also", "as before" };
    static const char *const first[] = { "it", "they", "this", "that", "these", "those" };
    static const char *const anywhere[] = { "as before", "above", "previous", "earlier",
                                            "again", "this time", "now", "last question",
                                            "question before", "other question" };
    char *t = gr_drill_normalise(prompt);
    int found = 0;
    for (size_t k = 0; k < sizeof first / sizeof *first && !found; k++)
        if (starts(t, first[k]) && (found = 1))
            snprintf(why, len, "opens on '%s'", first[k]);
    for (const char *p = t; *p && !found; p++) {
        int sentence = p == t || (p >= t + 2 && p[-1] == ' ' && strchr(".?!:", p[-2]));
        int word = p == t || !isalnum((unsigned char)p[-1]);
        for (size_t k = 0; k < sizeof opening / sizeof *opening && sentence && !found; k++)
            if (starts(p, opening[k]) && (found = 1))
                snprintf(why, len, "a sentence opens on '%s'", opening[k]);
        for (size_t k = 0; k < sizeof anywhere / sizeof *anywhere && word && !found; k++)
            if (starts(p, anywhere[k]) && (found = 1))
                snprintf(why, len, "says '%s'", anywhere[k]);
    }
    free(t);
    return found;
}

START_TEST(every_question_stands_alone)
{
    static const struct { const char *prompt; int leans; } probes[] = {
        { "The same q . k with d_k = 256, divided by sqrt(d_k). What is its spread?", 1 },
        { "In the same row, what gradient does the masked key 3 get?", 1 },
        { "Scores [16, 8]. What is the bound now? (4 decimals)", 1 },
        { "It is scaled by 1/sqrt(64). What is the bound?", 1 },
        { "Which window_size gives the same mask?", 0 },
        { "True or false: online attention gives the same output as two passes.", 0 },
        { "True or false: scaling and temperature both act on the scores.", 0 },
    };
    char why[64];
    for (size_t k = 0; k < sizeof probes / sizeof *probes; k++)
        ck_assert_msg(refers_elsewhere(probes[k].prompt, why, sizeof why) == probes[k].leans,
                      "'%s' is %sflagged", probes[k].prompt, probes[k].leans ? "not " : "");
    gr_drill_bank *banks;
    int nb;
    char err[512];
    ck_assert_msg(gr_drill_load_dir("data/drills", &banks, &nb, err, sizeof err) == 0, "%s", err);
    for (int b = 0; b < nb; b++)
        for (int i = 0; i < banks[b].n; i++)
            ck_assert_msg(!refers_elsewhere(banks[b].q[i].prompt, why, sizeof why),
                          "%s (%s line %d) leans on another question: %s; state its set-up "
                          "in the prompt (the session asks questions in any order)",
                          banks[b].q[i].id, banks[b].path, banks[b].q[i].line, why);
    gr_drill_banks_free(banks, nb);
}
END_TEST

/* text without its whitespace, into a malloc'd string. */
static char *squeeze(const char *text)
{
    char *t = gr_xmalloc(strlen(text) + 1), *k = t;
    for (; *text; text++)
        if (!isspace((unsigned char)*text))
            *k++ = *text;
    *k = '\0';
    return t;
}

/* q as a session shows it, asked then answered wrong, holds every character
   of its prompt, its choices and its explanation, in order (spaces aside). */
static void assert_shown_whole(const gr_drill_question *q)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(out);
    gr_drill_print_question(out, q, "bank", 1, 1);
    gr_drill_print_feedback(out, q, GR_DRILL_WRONG);
    fclose(out);
    char *shown = squeeze(buf);
    const char *at = shown;
    for (int part = -1; part <= q->n_choices; part++) {
        const char *text = part < 0 ? q->prompt : part < q->n_choices ? q->choices[part]
                          : q->explanation;
        char *want = squeeze(text);
        const char *found = strstr(at, want);
        ck_assert_msg(found != NULL, "%s: '%s' is not shown whole:\n%s", q->id, text, buf);
        at = found + strlen(want);
        free(want);
    }
    free(shown);
    free(buf);
}

START_TEST(every_question_is_shown_whole)
{
    char id[] = "probe", lesson[] = "L4.3", prompt[] = "H ~ ln T - v/2: is it near ln~T?",
         c0[] = "a~b", c1[] = "x  ~  y", expl[] = "~ stays ~.", *choices[] = { c0, c1 };
    gr_drill_question probe = { .id = id, .kind = GR_DRILL_CHOICE, .prompt = prompt,
                                .choices = choices, .n_choices = 2, .answer_text = c0,
                                .explanation = expl, .lesson = lesson };
    assert_shown_whole(&probe);
    gr_drill_bank *banks;
    int nb, n = 0;
    char err[512];
    ck_assert_msg(gr_drill_load_dir("data/drills", &banks, &nb, err, sizeof err) == 0, "%s", err);
    for (int b = 0; b < nb; b++)
        for (int i = 0; i < banks[b].n; i++, n++)
            assert_shown_whole(&banks[b].q[i]);
    for (int k = 0; k < GR_GEN_COUNT; k++)
        for (uint64_t seed = 0; seed < 20; seed++, n++) {
            gr_drill_question q;
            gr_drill_generate(&q, k, seed);
            assert_shown_whole(&q);
            gr_drill_question_free(&q);
        }
    fprintf(stderr, "drills: %d questions shown whole\n", n);
    gr_drill_banks_free(banks, nb);
}
END_TEST

/* ---- judging ------------------------------------------------------------------------- */

static const struct judge_case {
    int q;                  /* index into the bank of accepts_every_kind */
    const char *line;
    gr_drill_verdict want;
} judge_cases[] = {
    {0, "b", GR_DRILL_RIGHT}, {0, "B)", GR_DRILL_RIGHT}, {0, "2", GR_DRILL_RIGHT},
    {0, " Y ", GR_DRILL_RIGHT}, {0, "a", GR_DRILL_WRONG}, {0, "c", GR_DRILL_MALFORMED},
    {0, "3", GR_DRILL_MALFORMED}, {0, "", GR_DRILL_BLANK}, {0, "   ", GR_DRILL_BLANK},
    {1, "false", GR_DRILL_RIGHT}, {1, "F", GR_DRILL_RIGHT}, {1, "no", GR_DRILL_RIGHT},
    {1, "true", GR_DRILL_WRONG}, {1, "perhaps", GR_DRILL_MALFORMED},
    {2, "Softmax.", GR_DRILL_RIGHT}, {2, "the  softmax", GR_DRILL_RIGHT},
    {2, "soft-max", GR_DRILL_RIGHT}, {2, "Soft-Max", GR_DRILL_RIGHT},
    {2, "a soft-max over keys", GR_DRILL_UNKNOWN}, {2, "sigmoid", GR_DRILL_UNKNOWN},
    {2, "log softmax", GR_DRILL_WRONG}, {2, "not the softmax", GR_DRILL_WRONG},
    {2, "not soft-max", GR_DRILL_WRONG}, {2, "softmax not", GR_DRILL_UNKNOWN},
    {3, "0.7054", GR_DRILL_RIGHT}, {3, "0.70536", GR_DRILL_RIGHT}, {3, "7.054e-1", GR_DRILL_RIGHT},
    {3, "0.70544", GR_DRILL_RIGHT}, {3, "0.7053", GR_DRILL_WRONG}, {3, "0.70546", GR_DRILL_WRONG},
    {3, "0.7056", GR_DRILL_WRONG}, {3, "0x1p-1", GR_DRILL_MALFORMED},
    /* fewer decimals than asked: unknown when it is the answer at its own, else wrong */
    {3, "0.705", GR_DRILL_UNKNOWN}, {3, "0.71", GR_DRILL_UNKNOWN}, {3, "0.7", GR_DRILL_UNKNOWN},
    {3, "0.70", GR_DRILL_WRONG}, {3, "0.8", GR_DRILL_WRONG}, {3, "1", GR_DRILL_UNKNOWN},
    {3, "0.6095", GR_DRILL_WRONG},
    {3, "nan", GR_DRILL_MALFORMED}, {3, "seventy", GR_DRILL_MALFORMED},
    {3, "1/2", GR_DRILL_MALFORMED}, {3, "", GR_DRILL_BLANK},
};

START_TEST(judges_answers)
{
    const struct judge_case *c = &judge_cases[_i];
    gr_drill_bank b;
    char err[512], why[160];
    ck_assert_int_eq(parse(HEAD
                   "  - {id: c, kind: choice, prompt: P, choices: [x, y], answer: y,"
                   " explanation: E, lesson: L1.1}\n"
                   "  - {id: t, kind: true_false, prompt: P, answer: \"false\", explanation: E,"
                   " lesson: L1.1}\n"
                   "  - {id: s, kind: short, prompt: P, answer: softmax, accept: [the softmax],"
                   " reject: [log softmax], explanation: E, lesson: L2.1," HELP_FLOW "}\n"
                   "  - {id: n, kind: numeric, prompt: key 0? (4 decimals), answer: 0.7054, decimals: 4,"
                   " compute: {op: weight, scores: [2, 1, -1, 0.5], mask: [0, 0, 0, 1], key: 0},"
                   " reject: [\"0.6095\"], explanation: E, lesson: L2.3}\n", &b, err, sizeof err), 0);
    gr_drill_verdict v = gr_drill_judge(&b.q[c->q], c->line, why, sizeof why);
    ck_assert_msg(v == c->want, "question %d, '%s': verdict %d, expected %d", c->q, c->line, v,
                  c->want);
    if (v == GR_DRILL_MALFORMED)
        ck_assert_msg(strncmp(why, "give ", 5) == 0, "no hint what to give: '%s'", why);
    /* unknown: the question's hint, or the decimals asked */
    if (v == GR_DRILL_UNKNOWN)
        ck_assert_str_eq(why, c->q == 2 ? "one word" : "the question asks for 4 decimals; "
                         "give the number to 4");
    gr_drill_bank_free(&b);
}
END_TEST

/* ---- generated drills --------------------------------------------------------------- */

/* The numbers of the first "[...]" after marker in text, into v; their count. */
static int list_after(const char *text, const char *marker, double *v, int cap)
{
    const char *p = strstr(text, marker);
    ck_assert_msg(p != NULL, "no '%s' in '%s'", marker, text);
    p = strchr(p, '[');
    ck_assert_ptr_nonnull(p);
    int n = 0;
    for (p++; *p != ']' && n < cap;) {
        char *end;
        v[n++] = strtod(p, &end);
        ck_assert_msg(end != p, "bad list in '%s'", text);
        p = end + strspn(end, ", ");
    }
    return n;
}

/* Softmax in double of s[0..n), keys with mask[j] dropped. */
static void softmax_d(double *w, const double *s, const int *mask, int n)
{
    double m = -INFINITY, z = 0;
    for (int j = 0; j < n; j++)
        if (!mask[j] && s[j] > m)
            m = s[j];
    for (int j = 0; j < n; j++)
        z += mask[j] ? 0 : exp(s[j] - m);
    for (int j = 0; j < n; j++)
        w[j] = mask[j] ? 0 : exp(s[j] - m) / z;
}

/* Each kind's answer, recomputed here in double from what its prompt shows. */
static double recompute(const gr_drill_question *q, int k)
{
    double s[8], w[8], g[8];
    int mask[8] = {0}, n, key = 0, masked = 0;
    const char *p;
    switch (k) {
    case GR_GEN_WEIGHTS:
        n = list_after(q->prompt, "keys 0 to", s, 8);
        if ((p = strstr(q->prompt, "Key ")) && sscanf(p, "Key %d is masked", &masked) == 1)
            mask[masked] = 1;
        if (strstr(q->prompt, "d_k = 4"))
            for (int j = 0; j < n; j++)
                s[j] /= 2.0;
        ck_assert_int_eq(sscanf(strstr(q->prompt, "weight of key"), "weight of key %d", &key), 1);
        softmax_d(w, s, mask, n);
        return w[key];
    case GR_GEN_ENTROPY: {
        double h = 0;
        n = list_after(q->prompt, "give the weights", w, 8);
        for (int j = 0; j < n; j++)
            h -= w[j] > 0 ? w[j] * log(w[j]) : 0;
        return h;
    }
    case GR_GEN_TEMPERATURE: {
        double mx = 0;
        n = list_after(q->prompt, "The scores", s, 8);
        for (int j = 0; j < n; j++)
            s[j] /= 2;
        softmax_d(w, s, mask, n);
        for (int j = 0; j < n; j++)
            mx = fmax(mx, w[j]);
        return mx;
    }
    default: {          /* GR_GEN_GRADIENT */
        double wg = 0;
        n = list_after(q->prompt, "give the weights", w, 8);
        ck_assert_int_eq(list_after(q->prompt, "g =", g, 8), n);
        ck_assert_int_eq(sscanf(strstr(q->prompt, "dS for key"), "dS for key %d", &key), 1);
        for (int j = 0; j < n; j++)
            wg += w[j] * g[j];
        return w[key] * (g[key] - wg);
    }
    }
}

START_TEST(generated_answers_match_their_prompts)
{
    for (int k = 0; k < GR_GEN_COUNT; k++) {
        if (k == GR_GEN_SCORER)
            continue;
        for (uint64_t seed = 0; seed < 200; seed++) {
            gr_drill_question q;
            gr_drill_generate(&q, k, seed);
            ck_assert_int_eq(q.kind, GR_DRILL_NUMERIC);
            double want = recompute(&q, k);
            /* What the prompt shows is enough: recomputed from its rounded
               numbers, the answer is judged right. */
            char typed[64], why[128];
            snprintf(typed, sizeof typed, "%.*f", q.decimals, want);
            ck_assert_msg(gr_drill_judge(&q, typed, why, sizeof why) == GR_DRILL_RIGHT,
                          "%s seed %llu: answer %.6f, from the prompt %.6f\n%s", q.id,
                          (unsigned long long)seed, q.value, want, q.prompt);
            /* The prompt names the decimals the answer is judged at. */
            char asks[32];
            snprintf(asks, sizeof asks, "(%d decimals)", q.decimals);
            ck_assert_msg(strstr(q.prompt, asks) != NULL, "%s: prompt lacks %s", q.id, asks);
            ck_assert_int_eq((int)strlen(strchr(q.answer_text, '.') + 1), q.decimals);
            ck_assert_ptr_nonnull(q.explanation);
            ck_assert_ptr_nonnull(q.lesson);
            gr_drill_question_free(&q);
        }
    }
}
END_TEST

START_TEST(generated_drills_follow_their_seed)
{
    for (int k = 0; k < GR_GEN_COUNT; k++) {
        gr_drill_question a, b, c;
        gr_drill_generate(&a, k, 42);
        gr_drill_generate(&b, k, 42);
        gr_drill_generate(&c, k, 43);
        ck_assert_str_eq(a.prompt, b.prompt);
        ck_assert_str_eq(a.answer_text, b.answer_text);
        ck_assert_msg(strcmp(a.prompt, c.prompt) != 0, "%s: seeds 42 and 43 give one drill", a.id);
        ck_assert_str_eq(a.id, gr_drill_gen_id(k));
        gr_drill_question_free(&a);
        gr_drill_question_free(&b);
        gr_drill_question_free(&c);
    }
}
END_TEST

/* The scorer drill: exactly one choice is right, and it names the function
   whose matrix the worked solution marks. */
START_TEST(generated_scorer_has_one_right_choice)
{
    for (uint64_t seed = 0; seed < 100; seed++) {
        gr_drill_question q;
        gr_drill_generate(&q, GR_GEN_SCORER, seed);
        ck_assert_int_eq(q.kind, GR_DRILL_CHOICE);
        ck_assert_int_eq(q.n_choices, 4);
        int right = 0;
        char why[128], pick[2] = "a";
        for (int c = 0; c < q.n_choices; c++) {
            pick[0] = (char)('a' + c);
            right += gr_drill_judge(&q, pick, why, sizeof why) == GR_DRILL_RIGHT;
        }
        ck_assert_int_eq(right, 1);
        FILE *f = tmpfile();
        gr_drill_print_worked(f, &q);
        long len = ftell(f);
        char *text = calloc((size_t)len + 1, 1);
        rewind(f);
        ck_assert_int_eq(fread(text, 1, (size_t)len, f), (size_t)len);
        fclose(f);
        const char *mark = strstr(text, "<- S");
        ck_assert_ptr_nonnull(mark);
        const char *line = mark;
        while (line > text && line[-1] != '\n')
            line--;
        ck_assert_msg(strncmp(line + 2, q.answer_text, strlen(q.answer_text)) == 0,
                      "marked line '%.*s' is not the answer '%s'", (int)(mark - line), line,
                      q.answer_text);
        free(text);
        gr_drill_question_free(&q);
    }
}
END_TEST

/* ---- progress -------------------------------------------------------------------------- */

START_TEST(leitner_boxes_move)
{
    gr_drill_progress p;
    memset(&p, 0, sizeof p);
    ck_assert(gr_drill_due(NULL, 1));                   /* never asked: due */
    gr_drill_record(&p, "a", 1, 1);                     /* right: box 2 */
    gr_drill_record(&p, "b", 1, 0);                     /* missed: box 1 */
    gr_drill_card *a = gr_drill_card_of(&p, "a"), *b = gr_drill_card_of(&p, "b");
    ck_assert_int_eq(a->box, 2);
    ck_assert_int_eq(b->box, 1);
    /* The missed one comes back next session, the right one a session later. */
    ck_assert(gr_drill_due(b, 2));
    ck_assert(!gr_drill_due(a, 2));
    ck_assert(gr_drill_due(a, 3));
    for (long s = 2; s < 10; s++)
        gr_drill_record(&p, "a", s, 1);
    a = gr_drill_card_of(&p, "a");
    ck_assert_int_eq(a->box, GR_DRILL_BOXES);           /* capped */
    ck_assert(!gr_drill_due(a, 9 + 15));
    ck_assert(gr_drill_due(a, 9 + 16));
    gr_drill_record(&p, "a", 30, 0);                    /* one miss: back to box 1 */
    a = gr_drill_card_of(&p, "a");
    ck_assert_int_eq(a->box, 1);
    ck_assert_int_eq(a->right, 9);
    ck_assert_int_eq(a->wrong, 1);
    gr_drill_progress_free(&p);
}
END_TEST

START_TEST(progress_round_trips_and_rejects_damage)
{
    char dir[] = "/tmp/attnlab-drill-XXXXXX", err[512];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char *path = gr_xasprintf("%s/deep/er/drill-progress", dir);
    gr_drill_progress p, q;
    memset(&p, 0, sizeof p);
    ck_assert_int_eq(gr_drill_progress_load(path, &q, err, sizeof err), 0);  /* none yet */
    ck_assert_int_eq(q.n, 0);
    p.sessions = 4;
    gr_drill_record(&p, "masks/zero-is-a-score", 4, 0);
    gr_drill_record(&p, "generated/weights", 3, 1);
    ck_assert_msg(gr_drill_progress_save(path, &p, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(gr_drill_progress_load(path, &q, err, sizeof err), 0);
    ck_assert_int_eq(q.sessions, 4);
    ck_assert_int_eq(q.n, 2);
    ck_assert_int_eq(gr_drill_card_of(&q, "masks/zero-is-a-score")->box, 1);
    ck_assert_int_eq(gr_drill_card_of(&q, "generated/weights")->box, 2);
    ck_assert_int_eq(gr_drill_card_of(&q, "generated/weights")->last, 3);
    gr_drill_progress_free(&q);

    FILE *f = fopen(path, "a");
    ck_assert_ptr_nonnull(f);
    fputs("masks/x\t9\t1\t0\t0\n", f);                  /* box 9 does not exist */
    fclose(f);
    ck_assert_int_eq(gr_drill_progress_load(path, &q, err, sizeof err), -1);
    char *want = gr_xasprintf("%s:5: not a progress line", path);
    ck_assert_msg(strncmp(err, want, strlen(want)) == 0, "%s", err);
    free(want);
    gr_drill_progress_free(&p);
    unlink(path);
    free(path);
}
END_TEST

START_TEST(state_dir_follows_xdg)
{
    char err[256];
    char *old_xdg = getenv("XDG_STATE_HOME") ? strdup(getenv("XDG_STATE_HOME")) : NULL;
    char *old_home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;
    setenv("XDG_STATE_HOME", "/x/state", 1);
    setenv("HOME", "/home/u", 1);
    char *d = gr_drill_state_dir(err, sizeof err);
    ck_assert_str_eq(d, "/x/state/attnlab");
    free(d);
    setenv("XDG_STATE_HOME", "relative/state", 1);      /* invalid by the spec: ignored */
    d = gr_drill_state_dir(err, sizeof err);
    ck_assert_str_eq(d, "/home/u/.local/state/attnlab");
    free(d);
    unsetenv("XDG_STATE_HOME");
    unsetenv("HOME");
    ck_assert_ptr_null(gr_drill_state_dir(err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "set XDG_STATE_HOME"));
    if (old_xdg)
        setenv("XDG_STATE_HOME", old_xdg, 1);
    if (old_home)
        setenv("HOME", old_home, 1);
    free(old_xdg);
    free(old_home);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("drill");
    TCase *tc = tcase_create("drill");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, rejects_question_without_explanation);
    tcase_add_test(tc, rejects_answer_not_among_choices);
    tcase_add_test(tc, rejects_numeric_answer_libattn_disagrees_with);
    tcase_add_test(tc, rejects_other_mistakes);
    tcase_add_test(tc, accepts_every_kind);
    tcase_add_test(tc, shipped_banks_are_complete);
    tcase_add_test(tc, every_question_stands_alone);
    tcase_add_test(tc, every_question_is_shown_whole);
    tcase_add_loop_test(tc, judges_answers, 0,
                        (int)(sizeof judge_cases / sizeof judge_cases[0]));
    tcase_add_test(tc, generated_answers_match_their_prompts);
    tcase_add_test(tc, generated_drills_follow_their_seed);
    tcase_add_test(tc, generated_scorer_has_one_right_choice);
    tcase_add_test(tc, leitner_boxes_move);
    tcase_add_test(tc, progress_round_trips_and_rejects_damage);
    tcase_add_test(tc, state_dir_follows_xdg);
    suite_add_tcase(s, tc);
    return s;
}
