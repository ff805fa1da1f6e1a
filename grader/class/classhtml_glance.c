/* classhtml_glance.c: report.html's first screen (see classhtml.h), what an
 * instructor opens the report for: the tests to check (passed by no one, or
 * discriminating negatively), the late students, and every student ranked by
 * final grade (after the late policy), lowest first, with their days late,
 * the labs they did not pass and the misconceptions diagnosed. */
#include "class/classhtml_parts.h"
#include "base/layout.h"

#include <stdlib.h>
#include <string.h>

#include "class/classreport.h"

/* A student's final grade (every graded lab after the late policy) and the
   days late summed over the labs; -1 for a roster student with no submission. */
typedef struct ranked {
    int i;
    double final;
    int days;
} ranked;

static int by_final(const void *x, const void *y)
{
    const ranked *p = x, *q = y;
    if (p->final != q->final)
        return p->final < q->final ? -1 : 1;
    return p->i - q->i;                      /* the class's id order */
}

/* The class ranked lowest final grade first (malloc'd, c->n entries). */
static ranked *rank_class(const gr_class *c)
{
    ranked *r = gr_xcalloc((size_t)c->n + 1, sizeof *r);
    for (int i = 0; i < c->n; i++) {
        const gr_student *s = &c->students[i];
        r[i].i = i;
        r[i].final = s->submitted ? 0 : -1;
        for (int lab = 1; s->submitted && lab <= GR_N_LABS; lab++)
            if (c->labs[lab - 1]) {
                r[i].final += gr_class_adjusted(c, s, lab);
                r[i].days += s->days_late[lab - 1];
            }
    }
    if (c->n > 1)
        qsort(r, (size_t)c->n, sizeof *r, by_final);
    return r;
}

/* ---- tests to check ---------------------------------------------------------------- */

static void tests_to_check(gr_strbuf *b, const gr_items *it)
{
    gr_sb_append(b, "<div class=\"check\"><h2 id=\"check\">Tests to check</h2>\n");
    int n = 0;
    for (int k = 0; k < it->n; k++) {
        const gr_item *m = &it->items[k];
        if (!(m->flags & GR_ITEM_TO_CHECK))
            continue;
        gr_sb_printf(b, "%s<li><a href=\"#item%d\">%s: ", n++ ? "" : "<ul class=\"check\">\n", k,
                     gr_layout_dir(m->lab));
        gr_classhtml_esc(b, m->test);
        gr_sb_append(b, "</a>: ");
        if (m->flags & GR_ITEM_NONE_PASS)
            gr_sb_printf(b, "passed by no one of the %d who attempted the lab", m->attempted);
        else
            gr_sb_printf(b, "stronger students fail it more than weaker ones (r %.2f; %d of %d "
                            "passed)", m->r_pb, m->passed, m->attempted);
        gr_sb_append(b, "</li>\n");
    }
    gr_sb_append(b, n ? "</ul>\n<p class=\"muted\">Check each one's rubric entry before the "
                        "grades go out.</p>\n"
                      : "<p>None: every test was passed by someone, and none discriminates "
                        "negatively.</p>\n");
    gr_sb_append(b, "</div>\n");
}

/* ---- late -------------------------------------------------------------------------- */

static int by_days(const void *x, const void *y)
{
    const ranked *p = x, *q = y;
    return p->days != q->days ? q->days - p->days : p->i - q->i;
}

/* "lab02-softmax 3 days, lab05-masking 1 day" for s (nothing when on time). */
static void late_labs(gr_strbuf *b, const gr_class *c, const gr_student *s)
{
    int n = 0;
    for (int lab = 1; lab <= GR_N_LABS; lab++)
        if (c->labs[lab - 1] && s->days_late[lab - 1] > 0)
            gr_sb_printf(b, "%s%s %d day%s", n++ ? ", " : "", gr_layout_dir(lab),
                         s->days_late[lab - 1], s->days_late[lab - 1] == 1 ? "" : "s");
}

static void late_list(gr_strbuf *b, const gr_class *c, const ranked *r)
{
    gr_sb_append(b, "<div class=\"late\"><h2 id=\"late\">Late</h2>\n");
    if (!c->course) {
        gr_sb_append(b, "<p>No late policy (batch --course): no one is late.</p>\n</div>\n");
        return;
    }
    ranked *l = gr_xcalloc((size_t)c->n + 1, sizeof *l);
    int n = 0;
    for (int k = 0; k < c->n; k++)
        if (r[k].days > 0)
            l[n++] = r[k];
    if (n > 1)
        qsort(l, (size_t)n, sizeof *l, by_days);
    gr_sb_append(b, n ? "<ul class=\"late\">\n" : "<p>No one handed a lab in late.</p>\n");
    for (int k = 0; k < n; k++) {
        gr_sb_append(b, "<li>");
        gr_classhtml_student_link(b, c, c->students[l[k].i].id);
        gr_sb_append(b, ": ");
        late_labs(b, c, &c->students[l[k].i]);
        gr_sb_append(b, "; final <b>");
        gr_classhtml_points(b, l[k].final);
        gr_sb_append(b, "</b></li>\n");
    }
    if (n)
        gr_sb_append(b, "</ul>\n");
    gr_sb_append(b, "</div>\n");
    free(l);
}

/* ---- students by final grade -------------------------------------------------------- */

/* The labs s did not pass: "lab02-softmax 3 of 12, lab05-masking compile error". */
static void failing_labs(gr_strbuf *b, const gr_class *c, const gr_student *s)
{
    int n = 0;
    for (int lab = 1; lab <= GR_N_LABS; lab++) {
        const gr_lab_result *l = c->labs[lab - 1] ? gr_class_lab(s, lab) : NULL;
        int failing = 0;
        for (int j = 0; l && j < l->n_tests; j++)
            failing += l->tests[j].verdict != GR_PASSED;
        if (!c->labs[lab - 1] || (l && l->n_tests && !failing))
            continue;
        gr_sb_printf(b, "%s%s ", n++ ? ", " : "", gr_layout_dir(lab));
        if (!l || l->n_tests == 0)
            gr_sb_append(b, "not graded");
        else if (gr_items_attempted(l))
            gr_sb_printf(b, "%d of %d failed", failing, l->n_tests);
        else
            gr_sb_append(b, l->tests[0].verdict == GR_NOT_IMPLEMENTED
                                ? "not started" : gr_result_verdict_name(l->tests[0].verdict));
    }
}

/* 1 when a test of r before lab k's test j names misconception m too. */
static int named_before(const gr_report *r, int k, int j, const char *m)
{
    for (int a = 0; a <= k; a++)
        for (int b = 0; b < (a < k ? r->labs[a].n_tests : j); b++)
            if (r->labs[a].tests[b].misconception && strcmp(r->labs[a].tests[b].misconception, m) == 0)
                return 1;
    return 0;
}

/* The misconceptions diagnosed in s's tests, each once. */
static void misconceptions(gr_strbuf *b, const gr_student *s)
{
    int n = 0;
    for (int k = 0; k < s->report.n_labs; k++)
        for (int j = 0; j < s->report.labs[k].n_tests; j++) {
            const char *m = s->report.labs[k].tests[j].misconception;
            if (!m || named_before(&s->report, k, j, m))
                continue;
            gr_sb_append(b, n++ ? ", " : "");
            gr_classhtml_esc(b, m);
        }
}

static void ranked_table(gr_strbuf *b, const gr_class *c, const ranked *r)
{
    double max = gr_classreport_stats(c, 0, 1).max_points;
    gr_sb_append(b, "<h2 id=\"ranked\">Students by final grade</h2>\n<p class=\"muted\">Lowest "
                    "first; the final grade is after the late policy. Each id leads to the "
                    "student's section.</p>\n<table class=\"ranked\"><thead><tr><th class=\"n\">#"
                    "</th><th>student</th><th class=\"n\">final</th><th class=\"n\">%</th>"
                    "<th class=\"n\">days late</th><th>labs not passed</th><th>misconceptions"
                    "</th></tr></thead>\n<tbody>\n");
    for (int k = 0; k < c->n; k++) {
        const gr_student *s = &c->students[r[k].i];
        gr_sb_printf(b, "<tr><td class=\"n\">%d</td><td>", k + 1);
        gr_classhtml_student_link(b, c, s->id);
        if (!s->submitted) {
            gr_sb_append(b, "</td><td colspan=\"5\">on the roster, no submission</td></tr>\n");
            continue;
        }
        gr_sb_append(b, "</td><td class=\"n final\">");
        gr_classhtml_points(b, r[k].final);
        gr_sb_printf(b, "</td><td class=\"n\">%.0f</td><td class=\"n\">", max > 0 ? 100 * r[k].final / max : 0);
        if (r[k].days)
            gr_sb_printf(b, "%d", r[k].days);
        gr_sb_append(b, "</td><td>");
        failing_labs(b, c, s);
        gr_sb_append(b, "</td><td>");
        misconceptions(b, s);
        gr_sb_append(b, "</td></tr>\n");
    }
    gr_sb_append(b, "</tbody></table>\n");
}

void gr_classhtml_glance(gr_strbuf *b, const gr_class *c, const gr_items *it)
{
    ranked *r = rank_class(c);
    gr_sb_append(b, "<section id=\"glance\">\n<div class=\"glance\">\n");
    tests_to_check(b, it);
    late_list(b, c, r);
    gr_sb_append(b, "</div>\n");
    ranked_table(b, c, r);
    gr_sb_append(b, "</section>\n");
    free(r);
}
