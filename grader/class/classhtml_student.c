/* classhtml_student.c: report.html's section of each student (see classhtml.h). */
#include "class/classhtml_parts.h"
#include "base/layout.h"

#include <stdlib.h>
#include <string.h>

#include "report/report.h"

/* ---- one student -------------------------------------------------------------------- */

static int lab_level(gr_verdict v)
{
    return v == GR_COMPILE_ERROR || v == GR_MISSING || v == GR_AMBIGUOUS || v == GR_UNREADABLE ||
           v == GR_NOT_IMPLEMENTED || v == GR_FORBIDDEN_CALL;
}

/* What a test's visibility means for the student, or NULL when they see it. */
static const char *shown_tag(gr_visibility v)
{
    switch (v) {
    case GR_HIDDEN: return "<span class=\"tag hidden\">hidden: never shown to the student</span>";
    case GR_AFTER_DUE_DATE: return "<span class=\"tag\">shown after the due date</span>";
    case GR_AFTER_PUBLISHED: return "<span class=\"tag\">shown once grades are published</span>";
    default: return NULL;
    }
}

static void feedback(gr_strbuf *b, const gr_lab_result *l, const gr_test_result *t)
{
    char *text = gr_report_text_feedback(l, t);
    gr_sb_append(b, "<pre>");
    gr_classhtml_esc(b, text);
    gr_sb_append(b, "</pre>\n");
    free(text);
}

/* Each test of l not passed: verdict and diagnosis; a lab every test of which
   failed one way (it did not build, its file is missing, the stub) once. */
static void failing_tests(gr_strbuf *b, const gr_lab_result *l)
{
    int failing = 0, same = l->n_tests > 0;
    for (int j = 0; j < l->n_tests; j++) {
        failing += l->tests[j].verdict != GR_PASSED;
        same &= l->tests[j].verdict == l->tests[0].verdict;
    }
    if (failing == 0)
        return;
    if (same && lab_level(l->tests[0].verdict)) {
        gr_sb_printf(b, "<div class=\"fail\"><h4>%s: every test (%d), %s</h4>\n", gr_layout_dir(l->lab),
                     l->n_tests, gr_result_verdict_name(l->tests[0].verdict));
        feedback(b, l, gr_report_text_lead_test(l));
        gr_sb_append(b, "</div>\n");
        return;
    }
    for (int j = 0; j < l->n_tests; j++) {
        const gr_test_result *t = &l->tests[j];
        if (t->verdict == GR_PASSED)
            continue;
        const char *tag = shown_tag(t->visibility);
        gr_sb_printf(b, "<div class=\"fail\"><h4>%s: ", gr_layout_dir(l->lab));
        gr_classhtml_esc(b, t->name);
        gr_sb_printf(b, "%s, %s (", tag ? tag : "", gr_result_verdict_name(t->verdict));
        gr_classhtml_points(b, t->score);
        gr_sb_append(b, " of ");
        gr_classhtml_points(b, t->max_score);
        gr_sb_append(b, ")</h4>\n");
        feedback(b, l, t);
        gr_sb_append(b, "</div>\n");
    }
}

/* A lab's status in a few words. */
static void lab_status(gr_strbuf *b, const gr_lab_result *l)
{
    int failing = 0;
    for (int j = 0; l && j < l->n_tests; j++)
        failing += l->tests[j].verdict != GR_PASSED;
    if (!l || l->n_tests == 0)
        gr_sb_append(b, "not graded");
    else if (gr_items_attempted(l))
        failing ? gr_sb_printf(b, "%d of %d tests not passed", failing, l->n_tests)
                : gr_sb_append(b, "passed");
    else if (l->tests[0].verdict == GR_NOT_IMPLEMENTED)
        gr_sb_append(b, "not started (the stub as handed out)");
    else
        gr_sb_append(b, gr_result_verdict_name(l->tests[0].verdict));
    if (l && l->source_how) {
        gr_sb_append(b, "<br><span class=\"muted\">");
        gr_classhtml_esc(b, l->source);
        gr_sb_append(b, ": ");
        gr_classhtml_esc(b, l->source_how);
        gr_sb_append(b, "</span>");
    }
}

static void lab_rows(gr_strbuf *b, const gr_class *c, const gr_student *s)
{
    gr_sb_append(b, "<table class=\"student-labs\"><thead><tr><th>lab</th><th class=\"n\">score"
                    "</th><th class=\"n\">out of</th><th class=\"n\">days late</th><th class=\"n\">"
                    "penalty</th><th class=\"n\">final</th><th>status</th></tr></thead>\n<tbody>\n");
    for (int lab = 1; lab <= GR_N_LABS; lab++) {
        if (!c->labs[lab - 1])
            continue;
        const gr_lab_result *l = gr_class_lab(s, lab);
        double raw = gr_class_raw(c, s, lab), adj = gr_class_adjusted(c, s, lab);
        gr_sb_printf(b, "<tr><td>%s</td><td class=\"n\">", gr_layout_dir(lab));
        gr_classhtml_points(b, raw);
        gr_sb_append(b, "</td><td class=\"n\">");
        gr_classhtml_points(b, c->lab_max[lab - 1]);    /* the rubric's, as the gradebook's */
        gr_sb_printf(b, "</td><td class=\"n\">%d</td><td class=\"n\">", s->days_late[lab - 1]);
        gr_classhtml_points(b, raw - adj);
        gr_sb_append(b, "</td><td class=\"n\">");
        gr_classhtml_points(b, adj);
        gr_sb_append(b, "</td><td>");
        lab_status(b, l);
        gr_sb_append(b, "</td></tr>\n");
    }
    gr_sb_append(b, "</tbody></table>\n");
}

/* Up to this many others of an identical group are named in a student's section. */
#define SAME_NAMED 8

/* "The same lab02-softmax file as s001, s002" (or "as 119 others"). */
static void same_file(gr_strbuf *b, const gr_class *c, const gr_html_group *g, int i)
{
    gr_sb_printf(b, "<p class=\"similar\">The same %s file, byte for byte, as ", gr_layout_dir(g->lab));
    if (g->n - 1 > SAME_NAMED) {
        gr_sb_printf(b, "<a href=\"#similarity\">%d others</a>", g->n - 1);
    } else {
        for (int k = 0, n = 0; k < g->n; k++)
            if (g->who[k] != i) {
                gr_sb_append(b, n++ ? ", " : "");
                gr_classhtml_student_link(b, c, c->students[g->who[k]].id);
            }
    }
    gr_sb_append(b, ".</p>\n");
}

static void similar(gr_strbuf *b, const gr_class *c, int i, const gr_html_sim *sim)
{
    for (int g = 0; g < sim->n_groups; g++)
        for (int k = 0; k < sim->groups[g].n; k++)
            if (sim->groups[g].who[k] == i)
                same_file(b, c, &sim->groups[g], i);
    int n = 0;
    for (int k = 0; k < sim->n; k++) {
        const gr_html_pair *p = &sim->pairs[k];
        const gr_html_group *g = gr_classhtml_group_of(sim, p->lab, i);
        int me = g ? g->who[0] : i;           /* a pair names a group by its first */
        if (p->a != me && p->b != me)
            continue;
        gr_sb_append(b, n++ ? ", " : "<p class=\"similar\">Similar lab files: ");
        gr_classhtml_file_link(b, c, sim, p->lab, p->a == me ? p->b : p->a);
        gr_sb_printf(b, " (%s, %.0f%%)", gr_layout_dir(p->lab), 100 * p->jaccard);
    }
    if (n)
        gr_sb_append(b, "</p>\n");
}

void gr_classhtml_student(gr_strbuf *b, const gr_class *c, int i, const gr_html_sim *sim)
{
    const gr_student *s = &c->students[i];
    gr_sb_printf(b, "<section class=\"student\" id=\"s%d\"><h3>", i);
    gr_classhtml_esc(b, s->id);
    if (s->name && *s->name) {
        gr_sb_append(b, " <span class=\"muted\">");
        gr_classhtml_esc(b, s->name);
        gr_sb_append(b, "</span>");
    }
    gr_sb_append(b, "</h3>\n");
    if (!s->submitted) {
        gr_sb_append(b, "<p>On the roster, no submission: empty cells in the gradebook.</p>\n");
    } else {
        if (s->same_as) {
            gr_sb_append(b, "<p>A group's submission: the grade of ");
            gr_classhtml_student_link(b, c, s->same_as);
            gr_sb_append(b, ".</p>\n");
        }
        double raw = 0, adj = 0, max = 0;
        for (int lab = 1; lab <= GR_N_LABS; lab++) {
            raw += c->labs[lab - 1] ? gr_class_raw(c, s, lab) : 0;
            adj += c->labs[lab - 1] ? gr_class_adjusted(c, s, lab) : 0;
            max += c->labs[lab - 1] ? c->lab_max[lab - 1] : 0;
        }
        gr_sb_append(b, "<p class=\"total\">Total: <b class=\"points\">");
        gr_classhtml_points(b, adj);
        gr_sb_append(b, "</b> of ");
        gr_classhtml_points(b, max);
        if (adj != raw) {
            gr_sb_append(b, " (");
            gr_classhtml_points(b, raw);
            gr_sb_append(b, " before late penalties)");
        }
        gr_sb_append(b, "</p>\n");
        lab_rows(b, c, s);
        for (int lab = 1; lab <= GR_N_LABS; lab++) {
            const gr_lab_result *l = c->labs[lab - 1] ? gr_class_lab(s, lab) : NULL;
            if (l)
                failing_tests(b, l);
        }
        similar(b, c, i, sim);
    }
    gr_sb_append(b, "<p class=\"back\"><a href=\"#toc\">Contents</a></p></section>\n");
}
