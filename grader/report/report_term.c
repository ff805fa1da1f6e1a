/* report_term.c: the grade report a person reads in a terminal.
 *
 *   Lab                 Points   Status
 *   lab01-scores      2.0/10.0   2 of 3 tests fail
 *   lab02-softmax     0.0/12.0   not started
 *   Total points: 2.0/22.0
 *
 *   lab01-scores: 2 of 3 tests fail
 *    Score   Max   Verdict         Test
 *      0.0   3.0   wrong answer    scaled_random
 *                  S[0][1][2]: expected 0.5, got 1
 *                  misconception: 1/d_k instead of 1/sqrt(d_k), explained below
 *      0.0   5.0   wrong answer    scaled_large (hidden)
 *                  ...
 *                  Reread labs/lab01-scores/README.md, section 3.
 *   1/d_k instead of 1/sqrt(d_k) explains 2 tests: scaled_random, scaled_big.
 *   This is exactly what ... gives. ... Reread labs/lab01-scores/README.md, section 3.
 *   lab01-scores: 2.0/10.0
 *
 * A summary line per lab first, then only what needs work (every test with
 * --verbose): a lab that did not build shows its compiler output once; a lab
 * still all stubs is "not started" and nothing more; stubbed functions of a
 * started lab share one line; a misconception that explains several tests is
 * explained once, with their names; a function that fails while one it calls
 * fails too gets "fix X first"; every wrong answer ends with a handout section.
 * Feedback sits under the Verdict column so the rows stay easy to scan. What
 * the student's program printed is always behind "| " and below its label, so
 * a line like "Score: 100" cannot pass for the grader's own; control bytes in
 * any text are shown as \xNN, so printed escape codes cannot recolour or
 * clear the screen.
 */
#include "report/report.h"
#include "base/layout.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/cells.h"
#include "engine/grade.h"
#include "engine/judge.h"
#include "base/labmod.h"

#define ANSI_RESET  "\033[0m"
#define ANSI_BOLD   "\033[1m"
#define ANSI_RED    "\033[31m"
#define ANSI_GREEN  "\033[32m"
#define ANSI_YELLOW "\033[33m"

#define VERDICT_WIDTH 16                 /* "not implemented" and a space */
#define FEEDBACK_INDENT "               " /* 6 + 6 + 3: under the Verdict column */

int gr_report_term_color_wanted(FILE *f)
{
    int fd = f ? fileno(f) : -1;
    if (fd < 0 || !isatty(fd))
        return 0;
    const char *no_color = getenv("NO_COLOR");
    if (no_color && *no_color)
        return 0;
    const char *term = getenv("TERM");
    if (term && strcmp(term, "dumb") == 0)
        return 0;
    return 1;
}

static const char *verdict_color(gr_verdict v)
{
    switch (v) {
    case GR_PASSED:          return ANSI_GREEN;
    case GR_NOT_IMPLEMENTED: return ANSI_YELLOW;
    default:                 return ANSI_RED;
    }
}

/* Copy s into b for a terminal: printable UTF-8, tabs and newlines kept;
   control bytes, C1 controls and invalid UTF-8 shown as \xNN per byte. */
static void term_text(gr_strbuf *b, const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    while (i < n) {
        uint32_t cp;
        int len = gr_utf8_decode(p + i, n - i, &cp);
        int safe = len > 0 && (cp >= 0x20 || cp == '\t' || cp == '\n') &&
                   cp != 0x7f && !(cp >= 0x80 && cp < 0xa0);
        if (safe) {
            gr_sb_appendn(b, s + i, (size_t)len);
            i += (size_t)len;
        } else {
            int bad = len > 0 ? len : 1;
            for (int k = 0; k < bad; k++)
                gr_sb_printf(b, "\\x%02x", p[i + (size_t)k]);
            i += (size_t)bad;
        }
    }
}

void gr_report_term_text(gr_strbuf *b, const char *s)
{
    term_text(b, s, strlen(s));
}

/* text, made safe, one line per line after indent (and mark, when not NULL);
   one trailing newline dropped. */
static void safe_lines(gr_strbuf *b, const char *indent, const char *mark, const char *text)
{
    gr_strbuf safe = {0};
    term_text(&safe, text, strlen(text));
    char *s = gr_sb_take(&safe);
    gr_report_text_lines(b, indent, mark, s);
    free(s);
}

static void indented(gr_strbuf *b, const char *indent, const char *text)
{
    safe_lines(b, indent, NULL, text);
}

/* Like gr_report_text_quoted, but made safe for the terminal. */
static void quoted(gr_strbuf *b, const char *indent, const char *text)
{
    safe_lines(b, indent, "|", text);
}

/* "1 test", "2 tests": n and noun, plural unless n is 1. */
static const char *count(char buf[64], int n, const char *noun)
{
    snprintf(buf, 64, "%d %s%s", n, noun, n == 1 ? "" : "s");
    return buf;
}

/* Colour on, when wanted. */
static void paint(gr_strbuf *b, int color, const char *ansi)
{
    if (color)
        gr_sb_append(b, ansi);
}

/* What the report knows of one lab beyond its results. */
typedef struct lab_view {
    const gr_lab_result *lab;
    const gr_lab_module *mod;    /* NULL for a lab number the grader does not know */
    int failing;                 /* tests not passed */
    int stubbed;                 /* of them, not implemented */
    int not_built;               /* every test failed with the build's one verdict and message */
} lab_view;

static lab_view view_of(const gr_lab_result *lab)
{
    lab_view v = { .lab = lab };
    if (lab->lab >= 1 && lab->lab <= GR_N_LABS)
        v.mod = gr_lab_modules[lab->lab - 1];
    const gr_test_result *t0 = lab->n_tests > 0 ? &lab->tests[0] : NULL;
    v.not_built = t0 && (t0->verdict == GR_COMPILE_ERROR || t0->verdict == GR_FORBIDDEN_CALL ||
                         t0->verdict == GR_MISSING || t0->verdict == GR_AMBIGUOUS ||
                         t0->verdict == GR_UNREADABLE);
    for (int j = 0; j < lab->n_tests; j++) {
        const gr_test_result *t = &lab->tests[j];
        v.failing += t->verdict != GR_PASSED;
        v.stubbed += t->verdict == GR_NOT_IMPLEMENTED;
        if (t->verdict != t0->verdict || (!lab->message && (!t->message != !t0->message ||
            (t->message && strcmp(t->message, t0->message) != 0))))
            v.not_built = 0;
    }
    return v;
}

/* The misconception t was matched with, when v's lab module knows its id. */
static const gr_misconception *misconception_of(const lab_view *v, const gr_test_result *t)
{
    if (!v->mod || !t->misconception || t->verdict != GR_WRONG_ANSWER)
        return NULL;
    for (int k = 0; k < v->mod->n_misconceptions; k++)
        if (strcmp(v->mod->misconceptions[k].id, t->misconception) == 0)
            return &v->mod->misconceptions[k];
    return NULL;
}

/* How many tests of v mc explains. */
static int explained_by(const lab_view *v, const gr_misconception *mc)
{
    int n = 0;
    for (int j = 0; j < v->lab->n_tests; j++)
        n += misconception_of(v, &v->lab->tests[j]) == mc;
    return n;
}

/* The length of the name of the function t's feedback opens with ("lab_softmax"). */
static size_t function_len(const gr_test_result *t)
{
    return t->message ? strcspn(t->message, "(:, \n") : 0;
}

/* How many tests of v fail in function fn. */
static int failing_in(const lab_view *v, const char *fn)
{
    int n = 0;
    for (int j = 0; j < v->lab->n_tests; j++) {
        const gr_test_result *t = &v->lab->tests[j];
        n += t->verdict != GR_PASSED && function_len(t) == strlen(fn) &&
             strncmp(t->message, fn, strlen(fn)) == 0;
    }
    return n;
}

/* " (3.65 of 14 points visible; 10.35 in hidden tests)" and the line's end:
   how much of the points of labs[0..n) a student sees tested (report.h). */
static void share(gr_strbuf *b, const gr_lab_result *labs, int n)
{
    gr_strbuf s = {0};
    gr_report_text_visible_share(&s, labs, n);
    if (s.s)
        gr_sb_printf(b, " (%s)", s.s);
    gr_sb_append(b, "\n");
    free(s.s);
}

/* The lab's status in a few words: "passed", "not started", "2 of 14 tests fail". */
static void status_text(gr_strbuf *b, const lab_view *v)
{
    const gr_lab_result *lab = v->lab;
    char c[64];
    if (lab->n_tests == 0)
        gr_sb_append(b, "no tests");
    else if (v->failing == 0)
        gr_sb_append(b, "passed");
    else if (v->not_built)
        gr_sb_printf(b, "%s, none of its %s ran", gr_result_verdict_name(lab->tests[0].verdict),
                     count(c, lab->n_tests, "test"));
    else if (v->stubbed == lab->n_tests)
        gr_sb_append(b, "not started");
    else
        gr_sb_printf(b, "%d of %s fail%s", v->failing, count(c, lab->n_tests, "test"),
                     v->failing == 1 ? "s" : "");
}

/* The first test of v that mc explains. */
static const gr_test_result *first_explained(const lab_view *v, const gr_misconception *mc)
{
    for (int j = 0; j < v->lab->n_tests; j++)
        if (misconception_of(v, &v->lab->tests[j]) == mc)
            return &v->lab->tests[j];
    return NULL;
}

/* The first function t's function calls that fails tests of v too, or NULL. */
static const char *failing_callee(const lab_view *v, const gr_test_result *t)
{
    const gr_lab_function *fn = gr_lab_function_of(v->lab->lab, t->message);
    for (int u = 0; fn && u < GR_MAX_USES && fn->uses[u]; u++)
        if (failing_in(v, fn->uses[u]) > 0)
            return fn->uses[u];
    return NULL;
}

/* Feedback of failing test t under its row; brief (one line) when a test shown
   before says it all: the same misconception, or a failing function it calls. */
static void test_feedback(gr_strbuf *b, const lab_view *v, const gr_test_result *t, int brief)
{
    const gr_misconception *mc = misconception_of(v, t);
    const char *msg = t->message && *t->message ? t->message : NULL;
    /* A diagnosis of this test's own output comes first: it fits the code,
       whether or not the function calls a failing one. */
    const char *callee = brief && !mc ? failing_callee(v, t) : NULL;
    if (brief && mc && first_explained(v, mc) != t) {
        gr_sb_append(b, FEEDBACK_INDENT "the same mistake as ");
        term_text(b, first_explained(v, mc)->name, strlen(first_explained(v, mc)->name));
        gr_sb_printf(b, ": %s, explained below\n", mc->name);
        return;
    }
    if (callee) {
        /* The rubric says what the function may call; the student's may not. */
        gr_sb_printf(b, FEEDBACK_INDENT "if your %s calls %s, fix %s first (above)\n",
                     gr_lab_function_of(v->lab->lab, t->message)->name, callee, callee);
        return;
    }
    if (msg)
        indented(b, FEEDBACK_INDENT, msg);
    if (mc && explained_by(v, mc) > 1) {
        /* named once below the rows, with every test it explains */
        gr_sb_printf(b, FEEDBACK_INDENT "misconception: %s, explained below\n", mc->name);
    } else if (mc) {
        gr_strbuf advice = {0};
        gr_judge_misconception_advice(&advice, mc);
        indented(b, FEEDBACK_INDENT, advice.s);
        free(advice.s);
    }
    if (!mc && t->misconception && *t->misconception) {
        gr_sb_append(b, FEEDBACK_INDENT "misconception: ");
        term_text(b, t->misconception, strlen(t->misconception));
        gr_sb_append(b, "\n");
    }
    if (t->verdict == GR_WRONG_ANSWER && !mc) {
        /* every wrong answer points to where the handout teaches the function */
        const gr_lab_function *fn = gr_lab_function_of(v->lab->lab, t->message);
        if (fn)
            gr_sb_printf(b, FEEDBACK_INDENT "Reread %s.\n", fn->handout);
    }
    if (t->student_output && *t->student_output) {
        gr_sb_printf(b, FEEDBACK_INDENT "your program printed (first %zu bytes):\n",
                     strlen(t->student_output));
        quoted(b, FEEDBACK_INDENT, t->student_output);
    }
}

/* The terminal tells a lab in a screenful: the first DETAIL_TESTS failing
   tests in full, rows for the next up to ROW_TESTS, and how many more. */
#define DETAIL_TESTS 3
#define ROW_TESTS    12

/* One test's row, and under it the feedback when detail says so. */
static void test_row(gr_strbuf *b, const lab_view *v, const gr_test_result *t, int color,
                     int verbose, int detail)
{
    char p1[GR_POINTS_LEN], p2[GR_POINTS_LEN];
    const char *verdict = gr_result_verdict_name(t->verdict);
    gr_sb_printf(b, "%6s%6s   ", gr_points1(p1, t->score), gr_points1(p2, t->max_score));
    paint(b, color, verdict_color(t->verdict));
    gr_sb_append(b, verdict);
    paint(b, color, ANSI_RESET);
    for (size_t k = strlen(verdict); k < VERDICT_WIDTH; k++)
        gr_sb_append(b, " ");
    term_text(b, t->name ? t->name : "?", strlen(t->name ? t->name : "?"));
    if (t->visibility == GR_HIDDEN)
        gr_sb_append(b, " (hidden)");
    else if (t->visibility == GR_AFTER_DUE_DATE)
        gr_sb_append(b, " (shown after the due date)");
    else if (t->visibility == GR_AFTER_PUBLISHED)
        gr_sb_append(b, " (shown when grades are published)");
    gr_sb_append(b, "\n");
    if (t->verdict != GR_PASSED && !v->not_built && detail)
        test_feedback(b, v, t, !verbose);
}

/* "fix X first if your Y calls it" for each failing function Y of v that may
   call a failing X (the rubric allows the call; the student's code may not make it). */
static void fix_first(gr_strbuf *b, const lab_view *v)
{
    for (int k = 0; k < gr_n_lab_functions; k++) {
        const gr_lab_function *f = &gr_lab_functions[k];
        if (f->lab != v->lab->lab || failing_in(v, f->name) == 0)
            continue;
        for (int u = 0; u < GR_MAX_USES && f->uses[u]; u++) {
            int n = failing_in(v, f->uses[u]);
            char c[64];
            if (n > 0)
                gr_sb_printf(b, "fix %s first if your %s calls it: it fails %s\n",
                             f->uses[u], f->name, count(c, n, "test"));
        }
    }
}

/* 1 when a and b are both not implemented, in the same function. */
static int same_stub(const gr_test_result *a, const gr_test_result *b)
{
    size_t len = function_len(a);
    return a->verdict == GR_NOT_IMPLEMENTED && b->verdict == GR_NOT_IMPLEMENTED &&
           function_len(b) == len && strncmp(a->message, b->message, len) == 0;
}

/* One line for the stubbed functions of a started lab:
   "still stubs (LAB_NOT_IMPLEMENTED): lab_bool_mask (2 tests), lab_temperature (1 test)". */
static void stub_line(gr_strbuf *b, const lab_view *v)
{
    const gr_lab_result *lab = v->lab;
    gr_sb_append(b, "still stubs (LAB_NOT_IMPLEMENTED):");
    const char *sep = " ";
    for (int j = 0; j < lab->n_tests; j++) {
        const gr_test_result *t = &lab->tests[j];
        size_t len = function_len(t);
        int first = t->verdict == GR_NOT_IMPLEMENTED;
        for (int i = 0; first && i < j; i++)
            first = !same_stub(&lab->tests[i], t);
        if (!first)
            continue;
        int n = 0;
        for (int i = j; i < lab->n_tests; i++)
            n += same_stub(&lab->tests[i], t);
        char c[64];
        gr_sb_append(b, sep);
        if (len > 0)
            term_text(b, t->message, len);
        else
            gr_sb_append(b, "?");
        gr_sb_printf(b, " (%s)", count(c, n, "test"));
        sep = ", ";
    }
    gr_sb_append(b, "\n");
}

/* Each misconception of v that explains several tests, once, with their names. */
static void shared_misconceptions(gr_strbuf *b, const lab_view *v)
{
    const gr_lab_result *lab = v->lab;
    for (int j = 0; j < lab->n_tests; j++) {
        const gr_misconception *mc = misconception_of(v, &lab->tests[j]);
        int n = mc ? explained_by(v, mc) : 0;
        for (int i = 0; n > 1 && i < j; i++)
            if (misconception_of(v, &lab->tests[i]) == mc)
                n = 0;                           /* named already */
        if (n < 2)
            continue;
        gr_sb_printf(b, "%s explains %d tests:", mc->name, n);
        const char *sep = " ";
        for (int i = j; i < lab->n_tests; i++) {
            if (misconception_of(v, &lab->tests[i]) != mc)
                continue;
            gr_sb_append(b, sep);
            term_text(b, lab->tests[i].name, strlen(lab->tests[i].name));
            sep = ", ";
        }
        gr_sb_append(b, ".\n");
        gr_strbuf advice = {0};
        gr_judge_misconception_advice(&advice, mc);
        indented(b, "  ", advice.s);
        free(advice.s);
    }
}

/* The detail of one lab: its rows (failing ones only unless verbose), then
   what they share. */
static void lab_block(gr_strbuf *b, const lab_view *v, int color, int verbose)
{
    const gr_lab_result *lab = v->lab;
    const char *name = lab->name ? lab->name : "lab";
    paint(b, color, ANSI_BOLD);
    term_text(b, name, strlen(name));
    paint(b, color, ANSI_RESET);
    gr_sb_append(b, ": ");
    status_text(b, v);
    gr_sb_append(b, "\n");
    if (lab->source && lab->source_how) {         /* a near-miss upload: say what was graded */
        gr_sb_append(b, "graded ");
        term_text(b, lab->source, strlen(lab->source));
        gr_sb_append(b, ": ");
        term_text(b, lab->source_how, strlen(lab->source_how));
        gr_sb_append(b, "\n");
    }
    const char *why = lab->message ? lab->message : v->not_built ? lab->tests[0].message : NULL;
    if (v->not_built && why)
        indented(b, "", why);                       /* once, not once per test */
    if (v->not_built && lab->compile_log && *lab->compile_log) {
        gr_sb_append(b, "compiler output:\n");
        quoted(b, "", lab->compile_log);
    }
    if (!v->not_built)
        fix_first(b, v);
    int rows = 0, detailed = 0, left = 0;
    for (int j = 0; j < lab->n_tests; j++) {
        const gr_test_result *t = &lab->tests[j];
        int shown = verbose || (!v->not_built && t->verdict != GR_PASSED &&
                                t->verdict != GR_NOT_IMPLEMENTED);
        if (!shown)
            continue;
        if (!verbose && rows >= ROW_TESTS) {        /* a screenful per lab, whatever failed */
            left++;
            continue;
        }
        if (rows++ == 0)
            gr_sb_printf(b, "%6s%6s   %-*s%s\n", "Score", "Max", VERDICT_WIDTH, "Verdict", "Test");
        int detail = verbose || detailed < DETAIL_TESTS;
        detailed += t->verdict != GR_PASSED;
        test_row(b, v, t, color, verbose, detail);
    }
    if (left)
        gr_sb_printf(b, "... and %d more failing test%s (attnlab grade --verbose shows every test).\n",
                     left, left == 1 ? "" : "s");
    else if (!verbose && detailed > DETAIL_TESTS)
        gr_sb_append(b, "(attnlab grade --verbose tells every failing test in full.)\n");
    if (!verbose && !v->not_built && v->stubbed > 0)
        stub_line(b, v);
    shared_misconceptions(b, v);
    if (!v->not_built && lab->compile_log && *lab->compile_log) {
        /* a built lab's log is the warnings of labs/warnings.mk, the ones make test shows at home */
        gr_sb_append(b, "compiler warnings (the lab built; a warning often marks a bug):\n");
        quoted(b, "", lab->compile_log);
    }
    char p1[GR_POINTS_LEN], p2[GR_POINTS_LEN];
    term_text(b, name, strlen(name));
    gr_sb_printf(b, ": %s/%s", gr_points1(p1, lab->score), gr_points1(p2, lab->max_score));
    share(b, lab, 1);
}

/* One line per lab: name, points, status; then the total. */
static void summary(gr_strbuf *b, const gr_report *r, const lab_view *views, int color)
{
    int width = 3;
    for (int i = 0; i < r->n_labs; i++) {
        const char *name = r->labs[i].name ? r->labs[i].name : "lab";
        if ((int)strlen(name) > width)
            width = (int)strlen(name);
    }
    if (r->n_labs > 0)
        gr_sb_printf(b, "%-*s  %11s   %s\n", width, "Lab", "Points", "Status");
    for (int i = 0; i < r->n_labs; i++) {
        const lab_view *v = &views[i];
        const char *name = v->lab->name ? v->lab->name : "lab";
        char p1[GR_POINTS_LEN], p2[GR_POINTS_LEN], both[2 * GR_POINTS_LEN + 8];
        snprintf(both, sizeof both, "%s/%s", gr_points1(p1, v->lab->score), gr_points1(p2, v->lab->max_score));
        term_text(b, name, strlen(name));
        gr_sb_printf(b, "%*s  %11s   ", width - (int)strlen(name), "", both);
        paint(b, color, v->failing == 0 ? ANSI_GREEN
                        : v->stubbed == v->lab->n_tests ? ANSI_YELLOW : ANSI_RED);
        status_text(b, v);
        paint(b, color, ANSI_RESET);
        gr_sb_append(b, "\n");
    }
    char p1[GR_POINTS_LEN], p2[GR_POINTS_LEN];
    paint(b, color, ANSI_BOLD);
    gr_sb_printf(b, "Total points: %s/%s", gr_points1(p1, r->score), gr_points1(p2, r->max_score));
    paint(b, color, ANSI_RESET);
    share(b, r->labs, r->n_labs);
}

/* What to do next: the first lab that does not pass. */
static void next_step(gr_strbuf *b, const lab_view *views, int n)
{
    for (int i = 0; i < n; i++) {
        const lab_view *v = &views[i];
        if (v->failing == 0)
            continue;
        const char *name = v->lab->name ? v->lab->name : "lab";
        gr_sb_append(b, "Next: ");
        if (v->stubbed == v->lab->n_tests) {
            char *handout = gr_layout_handout(NULL, v->lab->lab);
            gr_sb_append(b, "start ");
            term_text(b, name, strlen(name));
            if (handout) {
                gr_sb_append(b, " (its handout: ");
                term_text(b, handout, strlen(handout));
                gr_sb_append(b, ")");
            }
            gr_sb_append(b, ".\n");
            free(handout);
        } else {
            gr_sb_append(b, "fix ");
            term_text(b, name, strlen(name));
            gr_sb_append(b, " (details below).\n");
        }
        return;
    }
    /* Only the labs graded here: `grade --lab 9` says nothing of the others. */
    if (n == 1) {
        const char *name = views[0].lab->name ? views[0].lab->name : "The lab";
        term_text(b, name, strlen(name));
        gr_sb_append(b, " passes.\n");
    } else if (n > 1) {
        gr_sb_printf(b, n < GR_N_LABS ? "The %d labs graded pass.\n" : "Every lab passes.\n", n);
    }
}

/* When gr_report_term shows v's block (a lab that passes, or is all stubs,
   is said in full by its summary line). */
static int block_shown(const lab_view *v, int verbose)
{
    int started = v->stubbed < v->lab->n_tests;
    return verbose || (v->failing > 0 && started) || v->lab->compile_log || v->lab->source_how;
}

int gr_report_term_lab(FILE *f, const gr_lab_result *lab, int flags)
{
    lab_view v = view_of(lab);
    int color = (flags & GR_TERM_COLOR) != 0, verbose = (flags & GR_TERM_VERBOSE) != 0;
    if (!block_shown(&v, verbose))
        return 0;
    gr_strbuf b = {0};
    lab_block(&b, &v, color, verbose);
    fputs(b.s, f);
    fflush(f);
    free(b.s);
    return 1;
}

void gr_report_term(FILE *f, const gr_report *r, int flags)
{
    int color = (flags & GR_TERM_COLOR) != 0, verbose = (flags & GR_TERM_VERBOSE) != 0;
    gr_strbuf b = {0};
    if (r->student && *r->student && strcmp(r->student, "local") != 0) {
        gr_sb_append(&b, "student: ");
        term_text(&b, r->student, strlen(r->student));
        gr_sb_append(&b, "\n\n");
    }
    if (r->n_labs == 0)
        gr_sb_append(&b, "no labs were graded\n\n");
    lab_view *views = gr_xcalloc((size_t)(r->n_labs > 0 ? r->n_labs : 1), sizeof *views);
    for (int i = 0; i < r->n_labs; i++)
        views[i] = view_of(&r->labs[i]);
    summary(&b, r, views, color);
    next_step(&b, views, r->n_labs);
    for (int i = 0; i < r->n_labs; i++) {
        const lab_view *v = &views[i];
        if (block_shown(v, verbose)) {
            gr_sb_append(&b, "\n");
            lab_block(&b, v, color, verbose);
        }
    }
    free(views);
    char *s = gr_sb_take(&b);
    fputs(s, f);
    fflush(f);
    free(s);
}
