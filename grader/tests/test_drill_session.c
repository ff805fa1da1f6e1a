/* test_drill_session.c: `attnlab drill` driven by scripted answers, as a pipe
 * or a file drives it. A bank with one question of every kind is answered
 * right, wrong, blank and malformed; an unknown answer is asked again once
 * with a hint; --count beyond a bank says so; the input ends early; missed questions
 * come back first next session; generated drills print explain's worked
 * table; --stats shows the boxes; usage errors are one line and exit 2. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/commands.h"
#include "capture.h"
#include "base/util.h"

Suite *test_suite(void);

/* One question of each kind; each prompt names its kind so a transcript shows
   the order the seed chose. */
static const char kinds_bank[] =
    "bank: kinds\n"
    "title: One of each kind\n"
    "questions:\n"
    "  - {id: c, kind: choice, prompt: CHOICE where do masks go?, choices: [weights, scores],"
    " answer: scores, explanation: Masks write -inf on scores., lesson: L2.3}\n"
    "  - {id: t, kind: true_false, prompt: TRUEFALSE a score of -1 gets a positive weight,"
    " answer: \"true\", explanation: exp of a finite score is positive., lesson: L2.1}\n"
    "  - {id: s, kind: short, prompt: SHORT which operation makes weights?, answer: softmax,"
    " accept: [soft-max], reject: [log softmax], explanation: Softmax is the conversion point.,"
    " lesson: L2.1, hint: the name of one operation,"
    " handout: [{phrase: \"softmax, row by row over the keys\", in: syllabus}]}\n"
    "  - {id: n, kind: numeric, prompt: NUMERIC weight of key 0 (4 decimals), answer: 0.7054,"
    " decimals: 4, compute: {op: weight, scores: [2, 1, -1, 0.5], mask: [0, 0, 0, 1],"
    " key: 0}, reject: [\"0.6095\"], explanation: 1 / 1.4177 = 0.7054., lesson: L2.3}\n";

/* A tree with data/drills/kinds.yaml (and bad.yaml when bad) and a state dir. */
typedef struct tree {
    char root[64];
    char *state;
} tree;

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

static void make_tree(tree *t, const char *extra_name, const char *extra)
{
    snprintf(t->root, sizeof t->root, "/tmp/attnlab-session-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(t->root));
    char *p = gr_xasprintf("%s/data", t->root);
    ck_assert_int_eq(mkdir(p, 0700), 0);
    free(p);
    p = gr_xasprintf("%s/data/drills", t->root);
    ck_assert_int_eq(mkdir(p, 0700), 0);
    free(p);
    p = gr_xasprintf("%s/data/drills/kinds.yaml", t->root);
    write_text(p, kinds_bank);
    free(p);
    if (extra_name) {
        p = gr_xasprintf("%s/data/drills/%s", t->root, extra_name);
        write_text(p, extra);
        free(p);
    }
    t->state = gr_xasprintf("%s/state", t->root);
}

static void free_tree(tree *t)
{
    char *cmd = gr_xasprintf("rm -rf '%s'", t->root);
    ck_assert_int_eq(system(cmd), 0);
    free(cmd);
    free(t->state);
}

/* Run `attnlab drill ARGS` on the tree at root, progress in state, with input as
   its stdin. */
static run_result drill_in(const char *root, const char *state, const char *input, int n,
                           const char *const *args)
{
    char **argv = calloc((size_t)n + 2, sizeof *argv);
    ck_assert_ptr_nonnull(argv);
    argv[0] = strdup("drill");
    for (int i = 0; i < n; i++)
        argv[i + 1] = strdup(args[i]);
    FILE *in = tmpfile(), *out = tmpfile(), *err = tmpfile();
    ck_assert(in && out && err);
    fputs(input, in);
    rewind(in);
    run_result r;
    r.rc = cmd_drill_run_in(in, out, err, root, state, n + 1, argv);
    fclose(in);
    r.out = slurp(out);
    r.err = slurp(err);
    for (int i = 0; i <= n; i++)
        free(argv[i]);
    free(argv);
    return r;
}

#define DRILL(t, input, ...) \
    drill_in((t)->root, (t)->state, (input), (int)(sizeof((const char *[]){__VA_ARGS__}) / sizeof(const char *)), \
          (const char *[]){__VA_ARGS__})

/* How many times needle occurs in hay. */
static int count_of(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

#define ASSERT_HAS(out, s) ck_assert_msg(strstr((out), (s)) != NULL, "output lacks '%s':\n%s", (s), (out))

/* The progress file's text. */
static char *progress_of(const tree *t)
{
    char *path = gr_xasprintf("%s/drill-progress", t->state);
    size_t len;
    char *text = gr_read_file(path, &len);
    ck_assert_msg(text != NULL, "no progress file %s", path);
    free(path);
    return text;
}

/* The kinds in the order the transcript asked them: "CTSN" and so on. */
static void order_of(const char *out, char order[5])
{
    static const char *const names[4] = { "CHOICE", "TRUEFALSE", "SHORT", "NUMERIC" };
    const char *pos[4];
    for (int k = 0; k < 4; k++) {
        pos[k] = strstr(out, names[k]);
        ck_assert_msg(pos[k] != NULL, "%s was not asked:\n%s", names[k], out);
    }
    for (int i = 0; i < 4; i++) {
        int first = -1;
        for (int k = 0; k < 4; k++)
            if (pos[k] && (first < 0 || pos[k] < pos[first]))
                first = k;
        order[i] = "CTSN"[first];
        pos[first] = NULL;
    }
    order[4] = '\0';
}

/* A session of every kind: blank answers first (which also tells the order
   seed 7 gives), then, in a fresh state, right, wrong, malformed-then-right. */
START_TEST(session_of_every_kind)
{
    tree t;
    make_tree(&t, NULL, NULL);
    run_result r = DRILL(&t, "\n\n\n\n", "--bank", "kinds", "--count", "4", "--seed", "7");
    ck_assert_int_eq(r.rc, 0);
    ck_assert_str_eq(r.err, "");
    ck_assert_int_eq(count_of(r.out, "No answer: it is "), 4);
    /* The choices come in the order this presentation's seed gives. */
    char letter = strstr(r.out, "  a) scores\n  b) weights\n") ? 'a' : 'b';
    if (letter == 'b')
        ASSERT_HAS(r.out, "  a) weights\n  b) scores\n");
    char said[64];
    snprintf(said, sizeof said, "No answer: it is %c) scores.", letter);
    ASSERT_HAS(r.out, said);
    ASSERT_HAS(r.out, "No answer: it is 0.7054 (any answer that rounds to it at 4 decimals "
                      "counts as right).");
    ASSERT_HAS(r.out, "Why: Masks write -inf on scores.");
    ASSERT_HAS(r.out, "[1/4] kinds, L2.");
    ASSERT_HAS(r.out, "Score: 0 of 4 right (0 wrong, 4 without an answer).");
    char order[5];
    order_of(r.out, order);
    free_result(&r);

    /* The same seed in a fresh state asks in the same order; answer by kind. */
    free(t.state);
    t.state = gr_xasprintf("%s/state2", t.root);
    gr_strbuf in = {0};
    for (int i = 0; i < 4; i++)
        switch (order[i]) {
        case 'C': gr_sb_printf(&in, "7\n%c\n", letter - 'a' + 'A'); break;  /* malformed, right */
        case 'T': gr_sb_append(&in, "false\n"); break;         /* wrong */
        case 'S': gr_sb_append(&in, " Soft-Max.\n"); break;    /* right: a whole accepted form */
        default:  gr_sb_append(&in, "x\n0.70536\n"); break;   /* malformed, then right */
        }
    char *input = gr_sb_take(&in);
    r = DRILL(&t, input, "--bank", "kinds", "--count", "4", "--seed", "7");
    ck_assert_int_eq(r.rc, 0);
    char again[5];
    order_of(r.out, again);
    ck_assert_str_eq(again, order);
    ASSERT_HAS(r.out, "answer (a-b): 7\n'7' is not an answer here: give a letter from a to b "
                      "(or the choice's number, 1 to 2). Try again");
    ASSERT_HAS(r.out, "answer (a number): x\n'x' is not an answer here: give a plain decimal "
                      "number");
    ASSERT_HAS(r.out, "answer (true/false): false\nWrong: the answer is true.");
    ASSERT_HAS(r.out, "answer:  Soft-Max.\nRight.");
    ASSERT_HAS(r.out, "Right: 0.7054.");
    ASSERT_HAS(r.out, "Score: 3 of 4 right (1 wrong, 0 without an answer).");
    ASSERT_HAS(r.out, "Progress saved in ");
    free_result(&r);
    free(input);

    /* Session 1 is saved: the three right in box 2, the missed one in box 1. */
    char *prog = progress_of(&t);
    ASSERT_HAS(prog, "sessions 1\n");
    ASSERT_HAS(prog, "kinds/t\t1\t1\t0\t1\n");
    ASSERT_HAS(prog, "kinds/c\t2\t1\t1\t0\n");
    ASSERT_HAS(prog, "kinds/n\t2\t1\t1\t0\n");
    free(prog);

    /* Next session the missed question comes first, whatever the seed. */
    for (int seed = 1; seed <= 5; seed++) {
        char s[8];
        snprintf(s, sizeof s, "%d", seed);
        r = DRILL(&t, "", "--bank", "kinds", "--count", "4", "--seed", s);
        ck_assert_int_eq(r.rc, 0);
        const char *first = strstr(r.out, "[1/4]");
        ck_assert_ptr_nonnull(first);
        ck_assert_msg(strncmp(strchr(first, '\n') + 1, "TRUEFALSE", 9) == 0,
                      "seed %d: the missed question is not first:\n%s", seed, r.out);
        /* The input ended at once: nothing answered, nothing saved. */
        ASSERT_HAS(r.out, "Stopped after 0 of 4 questions.");
        ASSERT_HAS(r.out, "Score: 0 of 0 right.");
        free_result(&r);
    }
    prog = progress_of(&t);
    ASSERT_HAS(prog, "sessions 1\n");
    free(prog);
    free_tree(&t);
}
END_TEST

/* Choices are shuffled per presentation: over seeds the right one is shown
   at each letter, and one seed always shows the same order. */
START_TEST(session_shuffles_choices)
{
    tree t;
    make_tree(&t, NULL, NULL);
    int at_a = 0, at_b = 0;
    for (int seed = 1; seed <= 24; seed++) {
        char s[8];
        snprintf(s, sizeof s, "%d", seed);
        run_result r = DRILL(&t, "\n\n\n\n", "--bank", "kinds", "--count", "4", "--seed", s);
        run_result again = DRILL(&t, "\n\n\n\n", "--bank", "kinds", "--count", "4", "--seed", s);
        ck_assert_int_eq(r.rc, 0);
        int a = strstr(r.out, "  a) scores\n") != NULL;
        ck_assert_int_eq(a, strstr(again.out, "  a) scores\n") != NULL);
        at_a += a;
        at_b += strstr(r.out, "  b) scores\n") != NULL;
        free_result(&r);
        free_result(&again);
    }
    ck_assert_int_eq(at_a + at_b, 24);
    ck_assert_msg(at_a >= 4 && at_b >= 4, "the right choice was at a %d times, at b %d times",
                  at_a, at_b);
    free_tree(&t);
}
END_TEST

/* A bank of one short question, for answers it does not know. */
static const char one_bank[] =
    "bank: one\ntitle: One short question\nquestions:\n"
    "  - {id: s, kind: short, prompt: Which operation makes weights?, answer: softmax,"
    " accept: [the softmax function], reject: [log softmax], explanation: The conversion point.,"
    " lesson: L2.1, hint: the name of one operation,"
    " handout: [{phrase: \"softmax, row by row over the keys\", in: syllabus}]}\n";

/* An answer neither accepted nor rejected is asked again once with the hint:
   a right one then is right, a second unknown one shows the answer and counts
   as missed; a listed wrong answer is wrong at once; the course's words are right. */
START_TEST(unknown_answer_is_asked_again_with_a_hint)
{
    tree t;
    make_tree(&t, "one.yaml", one_bank);
    static const char *const hint = "'sigmoid' is not an answer this question knows, right or "
                                    "wrong. Hint: the name of one operation. Try once more";
    run_result r = DRILL(&t, "sigmoid\nthe softmax function\n", "--bank", "one", "--count", "1");
    ck_assert_int_eq(r.rc, 0);
    ASSERT_HAS(r.out, hint);
    ASSERT_HAS(r.out, "answer: the softmax function\nRight.");
    ASSERT_HAS(r.out, "Score: 1 of 1 right.");
    free_result(&r);

    r = DRILL(&t, "sigmoid\nlogistic\n", "--bank", "one", "--count", "1");
    ASSERT_HAS(r.out, hint);
    ASSERT_HAS(r.out, "answer: logistic\nNot recognised again, so it counts as missed: the "
                      "answer is softmax.");
    ASSERT_HAS(r.out, "Score: 0 of 1 right (0 wrong, 0 without an answer, 1 not recognised "
                      "twice).");
    free_result(&r);
    char *prog = progress_of(&t);
    ASSERT_HAS(prog, "one/s\t1\t2\t1\t1\n");        /* missed: back to box 1 */
    free(prog);

    r = DRILL(&t, "log softmax\n", "--bank", "one", "--count", "1");
    ASSERT_HAS(r.out, "answer: log softmax\nWrong: the answer is softmax.");
    ck_assert_int_eq(count_of(r.out, "Hint:"), 0);
    free_result(&r);
    r = DRILL(&t, "Softmax, row by row over the keys.\n", "--bank", "one", "--count", "1");
    ASSERT_HAS(r.out, "Right.");
    free_result(&r);
    free_tree(&t);
}
END_TEST

/* --count beyond a bank says how many questions it has, and asks each once. */
START_TEST(count_beyond_a_bank_says_how_many)
{
    tree t;
    make_tree(&t, "one.yaml", one_bank);
    run_result r = DRILL(&t, "\n\n\n\n\n\n", "--bank", "kinds", "--count", "6", "--seed", "1");
    ck_assert_int_eq(r.rc, 0);
    ASSERT_HAS(r.out, "The bank kinds has 4 questions, so this session asks 4, not 6: a "
                      "session asks each question once");
    ASSERT_HAS(r.out, "[4/4]");
    ASSERT_HAS(r.out, "Score: 0 of 4 right");
    free_result(&r);
    r = DRILL(&t, "\n", "--bank", "one", "--count", "2");
    ASSERT_HAS(r.out, "The bank one has 1 question, so this session asks 1, not 2");
    free_result(&r);
    r = DRILL(&t, "\n\n\n\n", "--bank", "kinds", "--count", "4", "--seed", "1");
    ck_assert_int_eq(count_of(r.out, "so this session asks"), 0);    /* a bank's size: silent */
    free_result(&r);
    r = DRILL(&t, "\n\n", "--bank", "generated", "--count", "12", "--seed", "1");
    ck_assert_int_eq(count_of(r.out, "so this session asks"), 0);    /* generated: no end */
    free_result(&r);
    free_tree(&t);
}
END_TEST

/* The input ends part-way, or says quit: the answered questions count and are saved. */
START_TEST(session_stops_at_end_of_input)
{
    tree t;
    make_tree(&t, NULL, NULL);
    run_result r = DRILL(&t, "\n", "--bank", "kinds", "--count", "3", "--seed", "2");
    ck_assert_int_eq(r.rc, 0);
    ASSERT_HAS(r.out, "Stopped after 1 of 3 questions.");
    ASSERT_HAS(r.out, "Score: 0 of 1 right (0 wrong, 1 without an answer).");
    ck_assert_int_eq(count_of(r.out, "[2/3]"), 1);      /* asked, never answered */
    ck_assert_int_eq(count_of(r.out, "[3/3]"), 0);
    char *prog = progress_of(&t);
    ASSERT_HAS(prog, "sessions 1\n");
    ck_assert_int_eq(count_of(prog, "kinds/"), 1);
    free(prog);
    free_result(&r);

    r = DRILL(&t, "quit\n\n", "--bank", "kinds", "--count", "2", "--seed", "2");
    ck_assert_int_eq(r.rc, 0);
    ASSERT_HAS(r.out, "Stopped after 0 of 2 questions.");
    free_result(&r);
    free_tree(&t);
}
END_TEST

/* Generated drills: fresh numbers and explain's worked table after each answer. */
START_TEST(generated_session_shows_worked_solutions)
{
    tree t;
    make_tree(&t, NULL, NULL);
    run_result r = DRILL(&t, "\n\n\n\n\n\n\n", "--bank", "generated", "--count", "7",
                         "--seed", "11");
    ck_assert_int_eq(r.rc, 0);
    ck_assert_int_eq(count_of(r.out, "Worked solution:"), 7);
    /* Every kind but the scorer prints the shared table, with its legend. */
    ck_assert_int_ge(count_of(r.out, "step by step (computed by libattn)"), 5);
    ck_assert_int_ge(count_of(r.out, "exp(s - m)  m = "), 5);
    ASSERT_HAS(r.out, "Each candidate's score matrix");
    ASSERT_HAS(r.out, "Score: 0 of 7 right (0 wrong, 7 without an answer).");
    /* Seven questions from five kinds: the two repeated kinds got new numbers. */
    char *prog = progress_of(&t);
    ck_assert_int_eq(count_of(prog, "generated/"), 5);
    ASSERT_HAS(prog, "generated/weights\t1\t1\t0\t2\n");
    free(prog);
    free_result(&r);
    free_tree(&t);
}
END_TEST

START_TEST(stats_show_the_boxes)
{
    tree t;
    make_tree(&t, NULL, NULL);
    run_result r = DRILL(&t, "", "--stats");
    ck_assert_int_eq(r.rc, 0);
    ASSERT_HAS(r.out, "Drill progress after 0 sessions");
    /* kinds: 4 questions, all new and due. */
    ASSERT_HAS(r.out, "  kinds               4     4     0     0     0     0     0     4       0       0\n");
    free_result(&r);

    /* One session: the right answer goes to box 2, the blank one to box 1. */
    r = DRILL(&t, "\n", "--bank", "kinds", "--count", "1", "--seed", "3");
    free_result(&r);
    r = DRILL(&t, "", "--stats");
    ASSERT_HAS(r.out, "Drill progress after 1 session (");
    ASSERT_HAS(r.out, "  kinds               4     3     1     0     0     0     0     4       0       1\n");
    ASSERT_HAS(r.out, "  generated           5     5 ");
    ASSERT_HAS(r.out, "  total               9     8     1 ");
    free_result(&r);
    free_tree(&t);
}
END_TEST

START_TEST(usage_errors)
{
    tree t;
    make_tree(&t, NULL, NULL);
    static const char *const prefix = "attnlab drill: ";
    run_result r = DRILL(&t, "", "--count", "0");
    check_usage_error(&r, 0, prefix, "--count takes a whole number from 1 to 1000 (got '0')");
    free_result(&r);
    r = DRILL(&t, "", "--bank", "kindz");
    check_usage_error(&r, 1, prefix, "no bank 'kindz'; did you mean 'kinds'?");
    free_result(&r);
    r = DRILL(&t, "", "--bank", "zzzzzzzz");
    check_usage_error(&r, 2, prefix, "the banks are kinds, generated");
    free_result(&r);
    r = DRILL(&t, "", "--seed", "-1");
    check_usage_error(&r, 3, prefix, "--seed takes a whole number");
    free_result(&r);
    r = DRILL(&t, "", "masks");
    check_usage_error(&r, 4, prefix, "name a bank with --bank NAME");
    free_result(&r);
    r = DRILL(&t, "", "--count");
    check_usage_error(&r, 5, prefix, "--count needs a value");
    free_result(&r);
    r = DRILL(&t, "", "--help");
    ck_assert_int_eq(r.rc, 0);
    ASSERT_HAS(r.out, "usage: attnlab drill [--bank NAME] [--count N] [--seed S] [--stats]");
    free_result(&r);
    free_tree(&t);
}
END_TEST

/* A malformed bank stops the command with file:line:column, exit 1. */
START_TEST(malformed_bank_is_reported)
{
    tree t;
    make_tree(&t, "bad.yaml", "bank: bad\ntitle: B\nquestions:\n"
              "  - {id: a, kind: choice, prompt: P, choices: [x, y], answer: z,"
              " explanation: E, lesson: L1.1}\n");
    run_result r = DRILL(&t, "", "--bank", "kinds");
    ck_assert_int_eq(r.rc, 1);
    ck_assert_str_eq(r.out, "");
    char *want = gr_xasprintf("attnlab drill: %s/data/drills/bad.yaml:4:", t.root);
    ck_assert_msg(strncmp(r.err, want, strlen(want)) == 0, "%s", r.err);
    ASSERT_HAS(r.err, "the answer \"z\" is not among the choices");
    free(want);
    free_result(&r);
    free_tree(&t);
}
END_TEST

/* The shipped banks through the command: every answer blank, every question
   answered in one session, and the score line counts them all. */
START_TEST(shipped_banks_run)
{
    tree t;
    make_tree(&t, NULL, NULL);
    char input[512];
    memset(input, '\n', sizeof input - 1);
    input[sizeof input - 1] = '\0';
    const char *args[] = { "--count", "200", "--seed", "5" };
    run_result r = drill_in(".", t.state, input, 4, args);
    ck_assert_int_eq(r.rc, 0);
    ck_assert_str_eq(r.err, "");
    /* Every bank question once, plus the five generated kinds. */
    const char *score = strstr(r.out, "Score: 0 of ");
    ck_assert_ptr_nonnull(score);
    int n = atoi(score + strlen("Score: 0 of "));
    ck_assert_int_ge(n, 65);
    char *said = gr_xasprintf("The banks and the generated drills hold %d questions, so this "
                              "session asks %d, not 200", n, n);
    ASSERT_HAS(r.out, said);
    free(said);
    free_result(&r);
    free_tree(&t);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("drill_session");
    TCase *tc = tcase_create("drill_session");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, session_of_every_kind);
    tcase_add_test(tc, session_shuffles_choices);
    tcase_add_test(tc, unknown_answer_is_asked_again_with_a_hint);
    tcase_add_test(tc, count_beyond_a_bank_says_how_many);
    tcase_add_test(tc, session_stops_at_end_of_input);
    tcase_add_test(tc, generated_session_shows_worked_solutions);
    tcase_add_test(tc, stats_show_the_boxes);
    tcase_add_test(tc, usage_errors);
    tcase_add_test(tc, malformed_bank_is_reported);
    tcase_add_test(tc, shipped_banks_run);
    suite_add_tcase(s, tc);
    return s;
}
