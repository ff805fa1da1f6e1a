/* report_text.c: the text every report writer shares (see report.h): UTF-8
 * decoding, one test's feedback, the summary a student may always see, the
 * grade's opening lines, and the atomic write. */
#include "report/report.h"
#include "base/layout.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/cells.h"
#include "base/labmod.h"
#include "base/util.h"

/* ---- feedback ------------------------------------------------------------- */

void gr_report_text_lines(gr_strbuf *b, const char *indent, const char *mark, const char *text)
{
    size_t n = strlen(text);
    if (n > 0 && text[n - 1] == '\n')
        n--;
    size_t start = 0;
    while (start <= n) {
        const char *nl = memchr(text + start, '\n', n - start);
        size_t end = nl ? (size_t)(nl - text) : n;
        gr_sb_append(b, indent);
        if (mark)
            gr_sb_printf(b, end > start ? "%s " : "%s", mark);
        gr_sb_appendn(b, text + start, end - start);
        gr_sb_append(b, "\n");
        start = end + 1;
    }
}

void gr_report_text_quoted(gr_strbuf *b, const char *indent, const char *text)
{
    gr_report_text_lines(b, indent, "|", text);
}

const gr_test_result *gr_report_text_lead_test(const gr_lab_result *lab)
{
    for (int j = 0; j < lab->n_tests; j++)
        if (gr_rubric_visibility_shown(lab->tests[j].visibility, GR_SHOWN_AT_SUBMISSION))
            return &lab->tests[j];
    return lab->n_tests > 0 ? &lab->tests[0] : NULL;
}

char *gr_report_text_message(const gr_lab_result *lab, const gr_test_result *t)
{
    if (t->message || !lab || !lab->message || t->verdict == GR_PASSED)
        return t->message ? gr_xstrdup(t->message) : NULL;
    const gr_test_result *lead = gr_report_text_lead_test(lab);
    if (lead == t)
        return gr_xstrdup(lab->message);
    return gr_xasprintf("%s: what to fix is under its test %s.", lab->name ? lab->name : "this lab",
                        lead && lead->name ? lead->name : "");
}

char *gr_report_text_feedback(const gr_lab_result *lab, const gr_test_result *t)
{
    if (t->feedback)                /* read back from a results.json: already composed */
        return gr_xstrdup(t->feedback);
    gr_strbuf b = {0};
    gr_sb_append(&b, gr_result_verdict_name(t->verdict));
    gr_sb_append(&b, "\n");
    if (t->verdict == GR_PASSED)    /* nothing to fix: debug output is not repeated */
        return gr_sb_take(&b);
    char *message = gr_report_text_message(lab, t);
    if (message && *message) {
        gr_sb_append(&b, message);
        if (message[strlen(message) - 1] != '\n')
            gr_sb_append(&b, "\n");
    }
    free(message);
    int lead = !lab || !lab->message || gr_report_text_lead_test(lab) == t;
    if (t->misconception && *t->misconception) {
        /* the id is for programs (results.json's own field); a person reads its sentence */
        const gr_misconception *mc = gr_misconception_of(lab ? lab->lab : 0, t->misconception);
        char *handout = mc ? gr_layout_handout_at(mc->handout.lab, mc->handout.section) : NULL;
        if (mc)
            gr_sb_printf(&b, "misconception: %s\n%s\nReread %s.\n", mc->name, mc->explain,
                         handout);
        else
            gr_sb_printf(&b, "misconception: %s\n", t->misconception);
        free(handout);
    }
    if (t->student_output && *t->student_output) {
        gr_sb_printf(&b, "your program printed (first %zu bytes):\n", strlen(t->student_output));
        gr_report_text_quoted(&b, "", t->student_output);
    }
    if (t->verdict == GR_COMPILE_ERROR && lead && lab && lab->compile_log && *lab->compile_log) {
        gr_sb_append(&b, "compiler output:\n");
        gr_report_text_quoted(&b, "", lab->compile_log);
    }
    return gr_sb_take(&b);
}

/* Add the points earned and possible on lab's tests shown at moment to *score
   and *max; count the tests left out in *unseen. */
static void shown_points(const gr_lab_result *lab, int moment, double *score, double *max,
                         int *unseen)
{
    for (int j = 0; j < lab->n_tests; j++) {
        const gr_test_result *t = &lab->tests[j];
        if (!gr_rubric_visibility_shown(t->visibility, moment)) {
            (*unseen)++;
            continue;
        }
        *score += t->score;
        *max += t->max_score;
    }
}

char *gr_report_text_summary(const gr_report *r, int moment)
{
    double score = 0, max = 0;
    int unseen = 0;
    for (int i = 0; i < r->n_labs; i++)
        shown_points(&r->labs[i], moment, &score, &max, &unseen);
    gr_strbuf b = {0};
    char p1[GR_POINTS_LEN], p2[GR_POINTS_LEN];
    gr_sb_printf(&b, "attnlab: %s/%s points%s\n", gr_points1(p1, score), gr_points1(p2, max),
                 unseen ? " on the tests you can see now" : "");
    for (int i = 0; i < r->n_labs; i++) {
        double ls = 0, lm = 0;
        int lu = 0;
        shown_points(&r->labs[i], moment, &ls, &lm, &lu);
        gr_sb_printf(&b, "%s: %s/%s\n", r->labs[i].name ? r->labs[i].name : "lab",
                     gr_points1(p1, ls), gr_points1(p2, lm));
        if (r->labs[i].source && r->labs[i].source_how)
            gr_sb_printf(&b, "  graded %s: %s\n", r->labs[i].source, r->labs[i].source_how);
    }
    if (unseen)   /* how many, or how many points, would say something about them */
        gr_sb_append(&b, "More tests are graded and count toward your score; they are hidden, "
                         "or shown after the due date or once grades are published.\n");
    if (r->practice_secret)
        gr_sb_append(&b, "Graded with the public practice secret: practice only, not a grade "
                         "of record.\n");
    return gr_sb_take(&b);
}

/* Add lab's visible points and all its points to *visible and *all; 1 when
   its tests not visible did not run (not in lab: a kit, status, watch). */
static int lab_share(const gr_lab_result *lab, double *visible, double *all)
{
    int hidden_ran = 0;
    double v = 0;
    for (int j = 0; j < lab->n_tests; j++) {
        hidden_ran |= lab->tests[j].visibility != GR_VISIBLE;
        v += lab->tests[j].visibility == GR_VISIBLE ? lab->tests[j].max_score : 0;
    }
    /* hidden tests graded here: the lab's points are what this run graded */
    double total = hidden_ran ? lab->max_score : gr_lab_points(lab->lab);
    *visible += v;
    *all += total > v ? total : v;
    return !hidden_ran && total > v;
}

void gr_report_text_visible_share(gr_strbuf *b, const gr_lab_result *labs, int n)
{
    double visible = 0, all = 0;
    int not_run = 0;
    for (int i = 0; i < n; i++)
        not_run |= lab_share(&labs[i], &visible, &all);
    visible = gr_points_snap(visible);
    all = gr_points_snap(all);
    if (!(all > visible))
        return;
    char p1[GR_POINTS_LEN], p2[GR_POINTS_LEN], p3[GR_POINTS_LEN];
    gr_sb_printf(b, "%s of %s points visible; %s in hidden tests%s", gr_points(p1, visible),
                 gr_points(p2, all), gr_points(p3, all - visible), not_run ? ", not run here" : "");
}

char *gr_report_text_grade_header(const gr_report *r, double total, double max, const char *late)
{
    double hidden = 0, hidden_max = 0;
    int n_hidden = 0;
    for (int i = 0; i < r->n_labs; i++)
        for (int j = 0; j < r->labs[i].n_tests; j++) {
            const gr_test_result *t = &r->labs[i].tests[j];
            if (gr_rubric_visibility_shown(t->visibility, GR_SHOWN_AT_SUBMISSION))
                continue;
            n_hidden++;
            hidden += t->score;
            hidden_max += t->max_score;
        }
    gr_strbuf b = {0};
    char p1[GR_POINTS_LEN], p2[GR_POINTS_LEN];
    gr_sb_printf(&b, "Final score: %s/%s\n", gr_points(p1, total), gr_points(p2, max));
    if (late)
        gr_sb_append(&b, late);
    if (n_hidden)
        gr_sb_printf(&b, "Hidden tests: %d test%s, %s of %s points earned (what they check is "
                     "not shown)\n", n_hidden, n_hidden == 1 ? "" : "s",
                     gr_points(p1, hidden), gr_points(p2, hidden_max));
    size_t at = b.len;
    gr_report_text_visible_share(&b, r->labs, r->n_labs);
    if (b.len > at)
        gr_sb_append(&b, "\n");
    gr_sb_append(&b, "\n");
    return gr_sb_take(&b);
}

int gr_report_text_write(const char *path, char *text)
{
    int rc = gr_write_file_atomic(path, text, strlen(text));
    int saved = errno;
    free(text);
    errno = saved;
    return rc;
}
