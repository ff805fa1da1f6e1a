/* test_reports.c: the terminal report on a report built by hand
 * (report_fixture.h: two labs and a mix of verdicts; one message holds quotes,
 * a newline, a tab, a control byte (0x01) and an invalid UTF-8 byte (0xff); the
 * student's output excerpt claims "Score: 100" and carries ANSI colour codes).
 * The terminal text is compared exactly; it is also checked on lab 4 with a
 * real misconception (named once, "fix X first"), against every rubric as an
 * untouched tree and as a failing lab (one screen each), and in --verbose form.
 * results.json and JUnit are test_report_writers.c's. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/grade.h"
#include "engine/judge.h"
#include "base/labmod.h"
#include "textcheck.h"
#include "report/report.h"
#include "base/rubric.h"
#include "base/util.h"
#include "report_fixture.h"


Suite *test_suite(void);

/* ---- helpers -------------------------------------------------------------------- */

static char *terminal_text(const gr_report *r, int flags)
{
    FILE *f = tmpfile();
    ck_assert_ptr_nonnull(f);
    gr_report_term(f, r, flags);
    rewind(f);
    gr_strbuf b = {0};
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        gr_sb_appendn(&b, chunk, n);
    fclose(f);
    return gr_sb_take(&b);
}

/* ---- terminal -------------------------------------------------------------------- */

static const char expected_terminal[] =
    "student: s1234\n"
    "\n"
    "Lab                 Points   Status\n"
    "lab01-scores      2.0/10.0   2 of 3 tests fail\n"
    "lab02-softmax      1.5/6.0   4 of 5 tests fail\n"
    "Total points: 3.5/16.0 (9 of 16 points visible; 7 in hidden tests)\n"
    "Next: fix lab01-scores (details below).\n"
    "\n"
    "lab01-scores: 2 of 3 tests fail\n"
    " Score   Max   Verdict         Test\n"
    "   0.0   3.0   wrong answer    scaled_random\n"
    "               S[0][1][2]: expected 0.5, got \"1.0\" (relative error 1)\n"
    "               input row:\tq = [1, 2]\\x01 \\xff end\n"
    "               misconception: 1/d_k instead of 1/sqrt(d_k)\n"
    "               your program printed (first 37 bytes):\n"
    "               | Score: 100\n"
    "               | \\x1b[32mall tests passed\\x1b[0m\n"
    "   0.0   5.0   crashed         hidden_big (hidden)\n"
    "               killed by signal SIGSEGV (segmentation fault)\n"
    "lab01-scores: 2.0/10.0 (5 of 10 points visible; 5 in hidden tests)\n"
    "\n"
    "lab02-softmax: 4 of 5 tests fail\n"
    " Score   Max   Verdict         Test\n"
    "   0.0   1.0   timed out       causal_mask\n"
    "               over the time limit of 2000 ms\n"
    "   0.0   1.0   forbidden call  no_printf\n"
    "               lab02.c calls printf, which the rules do not allow\n"
    "   0.0   0.5   out of memory   huge_alloc\n"
    "               asked for more than the 64 MiB limit\n"
    "still stubs (LAB_NOT_IMPLEMENTED): lab_softmax (1 test)\n"
    "lab02-softmax: 1.5/6.0 (4 of 6 points visible; 2 in hidden tests)\n";

START_TEST(terminal_exact_text)
{
    gr_report r;
    build_report(&r);
    char *text = terminal_text(&r, 0);
    ck_assert_str_eq(text, expected_terminal);
    ck_assert_ptr_null(strchr(text, '\x1b'));   /* no escape byte at all */
    free(text);
    gr_result_free(&r);
}
END_TEST

/* --verbose: every test of every lab, passed and stubbed ones too. */
START_TEST(terminal_verbose_shows_every_test)
{
    gr_report r;
    build_report(&r);
    char *text = terminal_text(&r, GR_TERM_VERBOSE);
    ck_assert_ptr_nonnull(strstr(text,
        "lab01-scores: 2 of 3 tests fail\n"
        " Score   Max   Verdict         Test\n"
        "   2.0   2.0   passed          dot_worked_example\n"
        "   0.0   3.0   wrong answer    scaled_random\n"));
    ck_assert_ptr_nonnull(strstr(text,
        "lab02-softmax: 4 of 5 tests fail\n"
        " Score   Max   Verdict         Test\n"
        "   0.0   2.0   not implemented softmax_row (shown after the due date)\n"
        "               lab_softmax returned LAB_NOT_IMPLEMENTED: the stub is untouched\n"));
    ck_assert_ptr_nonnull(strstr(text, "   1.5   1.5   passed          temperature\n"));
    ck_assert_ptr_null(strstr(text, "still stubs"));    /* each stubbed test has its row */
    ck_assert_ptr_null(strstr(text, "debug: hello"));   /* a passed test's output stays out */
    free(text);
    gr_result_free(&r);
}
END_TEST

START_TEST(terminal_colour_codes)
{
    gr_report r;
    build_report(&r);
    char *text = terminal_text(&r, GR_TERM_COLOR | GR_TERM_VERBOSE);
    ck_assert_ptr_nonnull(strstr(text, "   2.0   2.0   \033[32mpassed\033[0m          dot_worked_example\n"));
    ck_assert_ptr_nonnull(strstr(text, "\033[31mwrong answer\033[0m    scaled_random\n"));
    ck_assert_ptr_nonnull(strstr(text, "\033[31mcrashed\033[0m"));
    ck_assert_ptr_nonnull(strstr(text, "\033[33mnot implemented\033[0m softmax_row"));
    ck_assert_ptr_nonnull(strstr(text, "\033[31mtimed out\033[0m"));
    ck_assert_ptr_nonnull(strstr(text, "\033[31mforbidden call\033[0m"));
    ck_assert_ptr_nonnull(strstr(text, "\033[1mlab01-scores\033[0m: 2 of 3 tests fail\n"));
    ck_assert_ptr_nonnull(strstr(text, "lab01-scores      2.0/10.0   \033[31m2 of 3 tests fail\033[0m\n"));
    ck_assert_ptr_nonnull(strstr(text, "\033[1mTotal points: 3.5/16.0\033[0m (9 of 16 points "
                                       "visible; 7 in hidden tests)\n"));
    /* the student's own escape codes stay inert text */
    ck_assert_ptr_nonnull(strstr(text, "| \\x1b[32mall tests passed\\x1b[0m\n"));
    /* every ESC is ours: 8 verdicts + 2 summary statuses + 2 lab headers + the
       total, each opened and reset */
    ck_assert_int_eq(count_of(text, "\033"), 2 * (8 + 2 + 2 + 1));
    free(text);
    gr_result_free(&r);
}
END_TEST

/* The closing line speaks of the labs graded only: two passing labs of the
   course's are "the 2 labs graded", never "every lab". */
START_TEST(terminal_speaks_of_the_labs_graded)
{
    gr_report r = {0};
    r.n_labs = 2;
    r.labs = gr_xcalloc(2, sizeof *r.labs);
    for (int k = 0; k < 2; k++) {
        r.labs[k].name = gr_xstrdup(k ? "lab09-decoding" : "lab01-scores");
        r.labs[k].lab = k ? 9 : 1;
        r.labs[k].n_tests = 1;
        r.labs[k].tests = gr_xcalloc(1, sizeof *r.labs[k].tests);
        set_test(&r.labs[k].tests[0], "t", GR_PASSED, 1, 1, GR_VISIBLE, NULL, 0);
        r.labs[k].score = r.labs[k].max_score = 1;
    }
    r.score = r.max_score = 2;
    char *text = terminal_text(&r, 0);
    ck_assert_msg(strstr(text, "The 2 labs graded pass.\n") && !strstr(text, "Every lab"),
                  "%s", text);
    free(text);
    gr_result_free(&r);
}
END_TEST

/* Rubrics give quarter points: the report must show 0.25, not round it to 0.2. */
START_TEST(terminal_quarter_points)
{
    gr_report r = {0};
    r.n_labs = 1;
    r.labs = gr_xcalloc(1, sizeof *r.labs);
    r.labs[0].name = gr_xstrdup("lab06-biases");
    r.labs[0].n_tests = 1;
    r.labs[0].tests = gr_xcalloc(1, sizeof *r.labs[0].tests);
    set_test(&r.labs[0].tests[0], "alibi_causal", GR_PASSED, 0.25, 0.25, GR_VISIBLE, NULL, 0);
    r.labs[0].score = r.labs[0].max_score = r.score = 0.25;
    r.max_score = 13.75;
    char *text = terminal_text(&r, GR_TERM_VERBOSE);
    ck_assert_str_eq(text,
        "Lab                Points   Status\n"
        "lab06-biases    0.25/0.25   passed\n"
        "Total points: 0.25/13.75\n"
        "lab06-biases passes.\n"
        "\n"
        "lab06-biases: passed\n"
        " Score   Max   Verdict         Test\n"
        "  0.25  0.25   passed          alibi_causal\n"
        "lab06-biases: 0.25/0.25\n");
    free(text);
    gr_result_free(&r);
}
END_TEST

/* The visible tests' share of a lab's points, in exact decimals: lab 2 (14
   points in its manifest) with visible tests of 1 + 1 + 1 + 0.5 + 0.15 = 3.65
   points, the rest 14 - 3.65 = 10.35. Graded alone (the student kit, status,
   watch) the hidden tests did not run; graded with a hidden test of 10.35 the
   lab's points are the ones graded; all visible, nothing is said. */
START_TEST(visible_share_in_exact_decimals)
{
    static const double pts[] = {1, 1, 1, 0.5, 0.15, 10.35};
    gr_lab_result lab = {.lab = 2, .n_tests = 5};
    lab.tests = gr_xcalloc(6, sizeof *lab.tests);
    for (int i = 0; i < 6; i++) {
        lab.tests[i].max_score = pts[i];
        lab.tests[i].visibility = i < 5 ? GR_VISIBLE : GR_HIDDEN;
        lab.max_score += i < 5 ? pts[i] : 0;
    }
    gr_strbuf b = {0};
    gr_report_text_visible_share(&b, &lab, 1);
    ck_assert_str_eq(b.s, "3.65 of 14 points visible; 10.35 in hidden tests, not run here");
    b.len = 0;
    lab.n_tests = 6;
    lab.max_score += pts[5];
    gr_report_text_visible_share(&b, &lab, 1);
    ck_assert_str_eq(b.s, "3.65 of 14 points visible; 10.35 in hidden tests");
    b.len = 0;
    b.s[0] = '\0';
    lab.tests[5].visibility = GR_VISIBLE;
    gr_report_text_visible_share(&b, &lab, 1);
    ck_assert_str_eq(b.s, "");
    free(b.s);
    free(lab.tests);
}
END_TEST

/* A lab that built shows its compiler warnings below its tests, even when
   every test passes. */
START_TEST(terminal_warnings_of_a_built_lab)
{
    gr_report r = {0};
    r.n_labs = 1;
    r.labs = gr_xcalloc(1, sizeof *r.labs);
    r.labs[0].lab = 1;
    r.labs[0].name = gr_xstrdup("lab01-scores");
    r.labs[0].compile_log = gr_xstrdup("lab01.c:9:11: warning: unused variable 'k' [-Wunused-variable]\n");
    r.labs[0].score = r.labs[0].max_score = r.score = r.max_score = 2;
    r.labs[0].n_tests = 1;
    r.labs[0].tests = gr_xcalloc(1, sizeof *r.labs[0].tests);
    set_test(&r.labs[0].tests[0], "dot", GR_PASSED, 2, 2, GR_VISIBLE, NULL, 0);
    char *text = terminal_text(&r, 0);
    ck_assert_str_eq(text,
        "Lab                Points   Status\n"
        "lab01-scores      2.0/2.0   passed\n"
        "Total points: 2.0/2.0 (2 of 10 points visible; 8 in hidden tests, not run here)\n"
        "lab01-scores passes.\n"
        "\n"
        "lab01-scores: passed\n"
        "compiler warnings (the lab built; a warning often marks a bug):\n"
        "| lab01.c:9:11: warning: unused variable 'k' [-Wunused-variable]\n"
        "lab01-scores: 2.0/2.0 (2 of 10 points visible; 8 in hidden tests, not run here)\n");
    free(text);
    gr_result_free(&r);
}
END_TEST

/* A lab that did not build: its message and compiler output once, not once
   per test; singular "1 test". */
START_TEST(terminal_compile_error_and_empty)
{
    gr_report r = {0};
    r.n_labs = 1;
    r.labs = gr_xcalloc(1, sizeof *r.labs);
    r.labs[0].lab = 3;
    r.labs[0].name = gr_xstrdup("lab03-learned");
    r.labs[0].compile_log = gr_xstrdup("lab03.c:12:5: error: 'x' undeclared\n");
    r.labs[0].max_score = 4;
    r.max_score = 4;
    r.labs[0].n_tests = 1;
    r.labs[0].tests = gr_xcalloc(1, sizeof *r.labs[0].tests);
    set_test(&r.labs[0].tests[0], "luong", GR_COMPILE_ERROR, 0, 4, GR_VISIBLE,
             "lab03.c did not compile; fix the first error below", 0);
    char *text = terminal_text(&r, 0);
    ck_assert_str_eq(text,
        "Lab                 Points   Status\n"
        "lab03-learned      0.0/4.0   compile error, none of its 1 test ran\n"
        "Total points: 0.0/4.0 (4 of 14 points visible; 10 in hidden tests, not run here)\n"
        "Next: fix lab03-learned (details below).\n"
        "\n"
        "lab03-learned: compile error, none of its 1 test ran\n"
        "lab03.c did not compile; fix the first error below\n"
        "compiler output:\n"
        "| lab03.c:12:5: error: 'x' undeclared\n"
        "lab03-learned: 0.0/4.0 (4 of 14 points visible; 10 in hidden tests, not run here)\n");
    free(text);

    char *json = gr_report_json_text(&r, NULL);
    ck_assert(json_valid(json));
    ck_assert_ptr_nonnull(strstr(json, "\"output\": \"compile error\\nlab03.c did not compile; "
                                       "fix the first error below\\ncompiler output:\\n"
                                       "| lab03.c:12:5: error: 'x' undeclared\\n\""));
    free(json);
    char *xml = gr_report_junit_text(&r);
    ck_assert_ptr_nonnull(strstr(xml, "<failure message=\"compile error: lab03.c did not compile; "
                                      "fix the first error below\" type=\"compile error\">"));
    free(xml);
    gr_result_free(&r);

    gr_report empty = {0};
    text = terminal_text(&empty, 0);
    ck_assert_str_eq(text, "no labs were graded\n\nTotal points: 0.0/0.0\n");
    free(text);
    json = gr_report_json_text(&empty, NULL);
    ck_assert(json_valid(json));
    ck_assert_ptr_nonnull(strstr(json, "\"tests\": []"));
    free(json);
}
END_TEST

/* A wrong answer as the grading loop words it: the call and the mismatch
   (a misconception is the test's id, explained by each report). */
static char *wrong_message(const char *call)
{
    return gr_xasprintf("%s\nH[0]: expected 1.38629, got 2 (relative error 0.443)\n", call);
}

static const gr_misconception *lab04_misconception(const char *id)
{
    for (int k = 0; k < gr_lab04_module.n_misconceptions; k++)
        if (strcmp(gr_lab04_module.misconceptions[k].id, id) == 0)
            return &gr_lab04_module.misconceptions[k];
    ck_abort_msg("lab 4 has no misconception %s", id);
    return NULL;
}

/* Lab 4 as a student who computes entropy in bits: lab_row_entropy fails
   twice with the same misconception, so the experiment that calls it fails
   too. The misconception is explained once, with both tests; the experiment's
   rows say "fix lab_row_entropy first"; a wrong answer without a
   misconception points to the handout section of its function. */
START_TEST(terminal_misconception_once_and_fix_first)
{
    const gr_misconception *log2 = lab04_misconception("entropy_log2");
    gr_report r = {0};
    r.n_labs = 1;
    r.labs = gr_xcalloc(1, sizeof *r.labs);
    gr_lab_result *l = &r.labs[0];
    l->lab = 4;
    l->name = gr_xstrdup("lab04-entropy");
    l->n_tests = 4;
    l->tests = gr_xcalloc(4, sizeof *l->tests);
    char *m0 = wrong_message("lab_row_entropy(H, W, rows=4, n=4)");
    char *m1 = wrong_message("lab_row_entropy(H, W, rows=5, n=6)");
    char *m2 = wrong_message("lab_entropy_experiment(H_raw, H_scaled, n_dk=4)");
    set_test(&l->tests[0], "entropy_worked_rows", GR_WRONG_ANSWER, 0, 1, GR_VISIBLE, m0, 0);
    set_test(&l->tests[1], "entropy_small", GR_WRONG_ANSWER, 0, 1, GR_HIDDEN, m1, 0);
    set_test(&l->tests[2], "experiment_small", GR_WRONG_ANSWER, 0, 2, GR_VISIBLE, m2, 0);
    set_test(&l->tests[3], "experiment_bad", GR_PASSED, 1, 1, GR_VISIBLE, NULL, 0);
    l->tests[0].misconception = gr_xstrdup("entropy_log2");
    l->tests[1].misconception = gr_xstrdup("entropy_log2");
    l->score = r.score = 1;
    l->max_score = r.max_score = 5;

    gr_strbuf advice = {0};
    gr_judge_misconception_advice(&advice, log2);
    char *text = terminal_text(&r, 0);
    gr_strbuf want = {0};
    gr_sb_printf(&want,
        "lab04-entropy: 3 of 4 tests fail\n"
        "fix lab_row_entropy first if your lab_entropy_experiment calls it: it fails 2 tests\n"
        " Score   Max   Verdict         Test\n"
        "   0.0   1.0   wrong answer    entropy_worked_rows\n"
        "               lab_row_entropy(H, W, rows=4, n=4)\n"
        "               H[0]: expected 1.38629, got 2 (relative error 0.443)\n"
        "               misconception: %s, explained below\n"
        "   0.0   1.0   wrong answer    entropy_small (hidden)\n"
        "               the same mistake as entropy_worked_rows: %s, explained below\n"
        "   0.0   2.0   wrong answer    experiment_small\n"
        "               if your lab_entropy_experiment calls lab_row_entropy, fix lab_row_entropy first (above)\n"
        "%s explains 2 tests: entropy_worked_rows, entropy_small.\n",
        log2->name, log2->name, log2->name);
    gr_report_text_lines(&want, "  ", NULL, advice.s);
    gr_sb_append(&want, "lab04-entropy: 1.0/5.0 (4 of 5 points visible; 1 in hidden tests)\n");
    ck_assert_str_eq(strstr(text, "lab04-entropy: 3 of 4"), want.s);
    ck_assert_int_eq(count_of(text, log2->explain), 1);    /* explained once */
    free(text);
    /* and once in a test's own feedback (feedback.txt, results.json's output) */
    char *fb = gr_report_text_feedback(l, &l->tests[0]);
    ck_assert_msg(count_of(fb, log2->explain) == 1, "%s", fb);
    free(fb);

    /* verbose: each test's full feedback; the experiment's wrong answer
       points to the section that teaches the experiment */
    text = terminal_text(&r, GR_TERM_VERBOSE);
    ck_assert_ptr_nonnull(strstr(text,
        "   0.0   2.0   wrong answer    experiment_small\n"
        "               lab_entropy_experiment(H_raw, H_scaled, n_dk=4)\n"
        "               H[0]: expected 1.38629, got 2 (relative error 0.443)\n"
        "               Reread labs/lab04-entropy/README.md, section 3.\n"));
    ck_assert_ptr_nonnull(strstr(text, "   1.0   1.0   passed          experiment_bad\n"));
    free(text);

    /* the experiment's own output shows the misconception: that diagnosis fits
       the code whether or not it calls lab_row_entropy, so it comes first */
    l->tests[2].misconception = gr_xstrdup("entropy_log2");
    text = terminal_text(&r, 0);
    gr_strbuf own = {0};
    gr_sb_printf(&own, "   0.0   2.0   wrong answer    experiment_small\n"
                 "               the same mistake as entropy_worked_rows: %s, explained below\n",
                 log2->name);
    ck_assert_msg(strstr(text, own.s) != NULL, "%s", text);
    free(own.s);
    free(text);
    free(want.s);
    free(advice.s);
    free(m0);
    free(m1);
    free(m2);
    gr_result_free(&r);
}
END_TEST

/* Every function of every lab has a handout section of its lab's handout
   that exists, and what it calls is a function of the same lab. */
START_TEST(lab_functions_point_to_real_sections)
{
    for (int k = 0; k < gr_n_lab_functions; k++) {
        const gr_lab_function *f = &gr_lab_functions[k];
        ck_assert_int_ge(f->lab, 1);
        ck_assert_int_le(f->lab, GR_N_LABS);
        const char *dir = gr_lab_modules[f->lab - 1]->dir;
        char path[256];
        int sec = 0;
        ck_assert_int_eq(sscanf(f->handout, "labs/%255[^/]/README.md, section %d", path, &sec), 2);
        ck_assert_str_eq(path, dir);
        snprintf(path, sizeof path, "labs/%s/README.md", dir);
        FILE *h = fopen(path, "r");
        ck_assert_msg(h != NULL, "%s: %s", f->name, path);
        char line[512], head[32];
        snprintf(head, sizeof head, "## %d. ", sec);
        int found = 0;
        while (fgets(line, sizeof line, h))
            found |= strncmp(line, head, strlen(head)) == 0;
        fclose(h);
        ck_assert_msg(found, "%s: %s has no section %d", f->name, path, sec);
        for (int u = 0; u < GR_MAX_USES && f->uses[u]; u++)
            ck_assert_ptr_nonnull(gr_lab_function_named(f->lab, f->uses[u], strlen(f->uses[u])));
        ck_assert_ptr_eq(gr_lab_function_of(f->lab, f->name), f);
    }
    ck_assert_ptr_null(gr_lab_function_of(1, "lab_softmax(W, S)"));   /* lab 2's */
    ck_assert_ptr_null(gr_lab_function_of(4, NULL));
}
END_TEST

/* The report of an untouched tree fits on one screen: every test of every
   rubric, as the grader words a stub's (the call's function name, from the
   lab module's case), says "not started" once per lab. */
START_TEST(untouched_tree_fits_one_screen)
{
    gr_report r = {0};
    r.n_labs = GR_N_LABS;
    r.labs = gr_xcalloc(GR_N_LABS, sizeof *r.labs);
    int tests = 0;
    for (int lab = 1; lab <= GR_N_LABS; lab++) {
        char path[64], err[512];
        snprintf(path, sizeof path, "data/rubrics/lab%02d.yaml", lab);
        gr_rubric rub;
        ck_assert_msg(gr_rubric_load(path, &rub, err, sizeof err) == 0, "%s", err);
        gr_lab_result *l = &r.labs[lab - 1];
        l->lab = lab;
        l->name = gr_xstrdup(gr_lab_modules[lab - 1]->dir);
        l->n_tests = rub.n_tests;
        l->tests = gr_xcalloc((size_t)rub.n_tests, sizeof *l->tests);
        for (int j = 0; j < rub.n_tests; j++) {
            gr_case c;
            ck_assert_int_eq(gr_lab_modules[lab - 1]->make_case(&rub.tests[j], 1, &c, err, sizeof err), 0);
            char *msg = gr_xasprintf("%.*s still returns LAB_NOT_IMPLEMENTED (the stub)",
                                     (int)strcspn(c.describe, "(:, "), c.describe);
            ck_assert_ptr_nonnull(gr_lab_function_of(lab, msg));   /* a function of the table */
            set_test(&l->tests[j], rub.tests[j].name, GR_NOT_IMPLEMENTED, 0, rub.tests[j].points,
                     rub.tests[j].visibility, msg, 0);
            free(msg);
            gr_case_free(&c);
            l->max_score += rub.tests[j].points;
            tests++;
        }
        r.max_score += l->max_score;
        gr_rubric_free(&rub);
    }
    char *text = terminal_text(&r, 0);
    ck_assert_int_le(count_of(text, "\n"), 40);
    ck_assert_int_eq(count_of(text, "not started\n"), GR_N_LABS);
    ck_assert_ptr_nonnull(strstr(text, "Next: start lab01-scores (its handout: labs/lab01-scores/README.md).\n"));
    ck_assert_ptr_null(strstr(text, "LAB_NOT_IMPLEMENTED"));
    free(text);
    text = terminal_text(&r, GR_TERM_VERBOSE);
    ck_assert_int_ge(count_of(text, "not implemented "), tests);   /* one row each */
    free(text);
    gr_result_free(&r);
}
END_TEST

/* A lab whose 40 tests all fail with a long wrong answer: a screenful on the
   terminal (three told in full, rows for nine more, how many are left), every
   test with --verbose. */
START_TEST(failing_lab_fits_one_screen)
{
    gr_report r = {0};
    r.n_labs = 1;
    r.labs = gr_xcalloc(1, sizeof *r.labs);
    gr_lab_result *l = &r.labs[0];
    l->lab = 2;
    l->name = gr_xstrdup("lab02-softmax");
    l->n_tests = 40;
    l->tests = gr_xcalloc(40, sizeof *l->tests);
    for (int j = 0; j < 40; j++) {
        char name[32];
        snprintf(name, sizeof name, "t%02d", j);
        set_test(&l->tests[j], name, GR_WRONG_ANSWER, 0, 1, GR_VISIBLE,
                 "lab_softmax(W, S, rows=2, n=4)\n1\n2\n3\n4\n5\n6\n7\n8", 0);
        l->max_score += 1;
    }
    r.max_score = l->max_score;
    char *text = terminal_text(&r, 0);
    ck_assert_int_le(count_of(text, "\n"), 60);
    ck_assert_int_eq(count_of(text, "wrong answer    t"), 12);
    ck_assert_int_eq(count_of(text, "rows=2"), 3);
    ck_assert_ptr_nonnull(strstr(text, "... and 28 more failing tests (attnlab grade --verbose shows every test).\n"));
    free(text);
    text = terminal_text(&r, GR_TERM_VERBOSE);
    ck_assert_int_eq(count_of(text, "rows=2"), 40);
    free(text);
    gr_result_free(&r);
}
END_TEST

/* ---- colour choice ------------------------------------------------------------------ */

START_TEST(colour_only_on_a_terminal)
{
    unsetenv("NO_COLOR");
    setenv("TERM", "xterm", 1);
    FILE *f = tmpfile();
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(gr_report_term_color_wanted(f), 0);    /* a file is not a terminal */
    fclose(f);

    int master = posix_openpt(O_RDWR | O_NOCTTY);
    if (master < 0 || grantpt(master) != 0 || unlockpt(master) != 0) {
        fprintf(stderr, "test_reports: no pseudo-terminal here; tty half of the test skipped\n");
        if (master >= 0)
            close(master);
        return;
    }
    FILE *tty = fopen(ptsname(master), "w");
    ck_assert_ptr_nonnull(tty);
    ck_assert_int_eq(gr_report_term_color_wanted(tty), 1);
    setenv("NO_COLOR", "1", 1);
    ck_assert_int_eq(gr_report_term_color_wanted(tty), 0);
    setenv("NO_COLOR", "", 1);                  /* empty counts as unset */
    ck_assert_int_eq(gr_report_term_color_wanted(tty), 1);
    unsetenv("NO_COLOR");
    setenv("TERM", "dumb", 1);
    ck_assert_int_eq(gr_report_term_color_wanted(tty), 0);
    fclose(tty);
    close(master);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("reports");
    TCase *tc = tcase_create("terminal");
    tcase_add_test(tc, terminal_exact_text);
    tcase_add_test(tc, terminal_verbose_shows_every_test);
    tcase_add_test(tc, terminal_misconception_once_and_fix_first);
    tcase_add_test(tc, lab_functions_point_to_real_sections);
    tcase_add_test(tc, terminal_colour_codes);
    tcase_add_test(tc, terminal_compile_error_and_empty);
    tcase_add_test(tc, terminal_warnings_of_a_built_lab);
    tcase_add_test(tc, visible_share_in_exact_decimals);
    tcase_add_test(tc, terminal_quarter_points);
    tcase_add_test(tc, terminal_speaks_of_the_labs_graded);
    tcase_add_test(tc, colour_only_on_a_terminal);
    suite_add_tcase(s, tc);

    /* every rubric's cases are made, expected values and all: seconds on a busy machine */
    tc = tcase_create("one screen");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, untouched_tree_fits_one_screen);
    tcase_add_test(tc, failing_lab_fits_one_screen);
    suite_add_tcase(s, tc);

    return s;
}
