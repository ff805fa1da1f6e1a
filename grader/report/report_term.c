/* report_term.c: the grade report a person reads in a terminal.
 *
 *   lab01-scores
 *    Score   Max   Verdict         Test
 *      2.0   2.0   passed          dot_worked_example
 *      0.0   3.0   wrong answer    scaled_random
 *                  S[0][1][2]: expected 0.5, got 1
 *                  misconception: 1/d_k instead of 1/sqrt(d_k)
 *                  your program printed (first 11 bytes):
 *                  | Score: 100
 *   compiler warnings (the lab built; a warning often marks a bug):
 *   | lab01.c:9:11: warning: unused variable 'k' [-Wunused-variable]
 *   lab01-scores: 2.0/5.0
 *
 *   Total points: 2.0/5.0
 *
 * Feedback sits under the Verdict column so the rows stay easy to scan. What
 * the student's program printed is always behind "| " and below its label, so
 * a line like "Score: 100" cannot pass for the grader's own; control bytes in
 * any text are shown as \xNN, so printed escape codes cannot recolour or
 * clear the screen.
 */
#include "report/report.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ANSI_RESET  "\033[0m"
#define ANSI_BOLD   "\033[1m"
#define ANSI_RED    "\033[31m"
#define ANSI_GREEN  "\033[32m"
#define ANSI_YELLOW "\033[33m"

#define VERDICT_WIDTH 16                 /* "not implemented" and a space */
#define FEEDBACK_INDENT "               " /* 6 + 6 + 3: under the Verdict column */

int gr_color_wanted(FILE *f)
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

/* text, made safe, one line per line after indent (and mark, when not NULL);
   one trailing newline dropped. */
static void safe_lines(gr_strbuf *b, const char *indent, const char *mark, const char *text)
{
    gr_strbuf safe = {0};
    term_text(&safe, text, strlen(text));
    char *s = gr_sb_take(&safe);
    gr_result_lines(b, indent, mark, s);
    free(s);
}

static void indented(gr_strbuf *b, const char *indent, const char *text)
{
    safe_lines(b, indent, NULL, text);
}

/* Like gr_result_quoted_lines, but made safe for the terminal. */
static void quoted(gr_strbuf *b, const char *indent, const char *text)
{
    safe_lines(b, indent, "|", text);
}

/* Points with as many decimals as a rubric uses (up to 2), at least one:
   1 -> "1.0", 3.5 -> "3.5", 0.25 -> "0.25". */
static const char *points(char buf[32], double v)
{
    snprintf(buf, 32, "%.2f", v);
    size_t n = strlen(buf);
    if (n >= 2 && buf[n - 1] == '0' && buf[n - 2] != '.')
        buf[n - 1] = '\0';
    return buf;
}

static void test_row(gr_strbuf *b, const gr_test_result *t, int color)
{
    char p1[32], p2[32];
    const char *verdict = gr_verdict_name(t->verdict);
    gr_sb_printf(b, "%6s%6s   ", points(p1, t->score), points(p2, t->max_score));
    if (color)
        gr_sb_printf(b, "%s%s%s", verdict_color(t->verdict), verdict, ANSI_RESET);
    else
        gr_sb_append(b, verdict);
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

    if (t->verdict == GR_PASSED)
        return;
    if (t->message && *t->message)
        indented(b, FEEDBACK_INDENT, t->message);
    if (t->misconception && *t->misconception) {
        gr_sb_append(b, FEEDBACK_INDENT "misconception: ");
        term_text(b, t->misconception, strlen(t->misconception));
        gr_sb_append(b, "\n");
    }
    if (t->student_output && *t->student_output) {
        gr_sb_printf(b, FEEDBACK_INDENT "your program printed (first %zu bytes):\n",
                     strlen(t->student_output));
        quoted(b, FEEDBACK_INDENT, t->student_output);
    }
}

static void lab_block(gr_strbuf *b, const gr_lab_result *lab, int color)
{
    const char *name = lab->name ? lab->name : "lab";
    if (color)
        gr_sb_append(b, ANSI_BOLD);
    term_text(b, name, strlen(name));
    if (color)
        gr_sb_append(b, ANSI_RESET);
    gr_sb_printf(b, "\n%6s%6s   %-*s%s\n", "Score", "Max", VERDICT_WIDTH, "Verdict", "Test");
    for (int j = 0; j < lab->n_tests; j++)
        test_row(b, &lab->tests[j], color);
    if (lab->compile_log && *lab->compile_log) {
        /* a lab that failed to compile shows the errors; any other lab's log is
           the warnings of labs/warnings.mk, the ones make test shows at home */
        int failed = lab->n_tests > 0 && lab->tests[0].verdict == GR_COMPILE_ERROR;
        gr_sb_append(b, failed ? "compiler output:\n"
                               : "compiler warnings (the lab built; a warning often marks a bug):\n");
        quoted(b, "", lab->compile_log);
    }
    char p1[32], p2[32];
    term_text(b, name, strlen(name));
    gr_sb_printf(b, ": %s/%s\n", points(p1, lab->score), points(p2, lab->max_score));
}

void gr_report_terminal(FILE *f, const gr_report *r, int color)
{
    gr_strbuf b = {0};
    if (r->student && *r->student && strcmp(r->student, "local") != 0) {
        gr_sb_append(&b, "student: ");
        term_text(&b, r->student, strlen(r->student));
        gr_sb_append(&b, "\n\n");
    }
    if (r->n_labs == 0)
        gr_sb_append(&b, "no labs were graded\n\n");
    for (int i = 0; i < r->n_labs; i++) {
        lab_block(&b, &r->labs[i], color);
        gr_sb_append(&b, "\n");
    }
    char p1[32], p2[32];
    gr_sb_printf(&b, "%sTotal points: %s/%s%s\n", color ? ANSI_BOLD : "", points(p1, r->score),
                 points(p2, r->max_score), color ? ANSI_RESET : "");
    char *s = gr_sb_take(&b);
    fputs(s, f);
    fflush(f);
    free(s);
}
