/* classhtml.c: report.html (see classhtml.h). The class-wide sections; each
 * student's section is classhtml_student.c's. */
#include "class/classhtml.h"
#include "class/classhtml_parts.h"
#include "base/layout.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/cells.h"
#include "class/classreport.h"
#include "class/warnings.h"
#include "class/clusters.h"
#include "class/similarity.h"
#include "report/report.h"
#include "base/util.h"

/* ---- pieces every section uses ----------------------------------------------------- */

void gr_classhtml_esc(gr_strbuf *b, const char *s)
{
    gr_report_junit_xml_text(b, s ? s : "");
}

void gr_classhtml_points(gr_strbuf *b, double x)
{
    char buf[GR_POINTS_LEN];
    gr_sb_append(b, gr_points(buf, x));
}

/* A statistic to 2 decimals, "n/a" when undefined. */
static void put_stat(gr_strbuf *b, double x)
{
    if (isnan(x))
        gr_sb_append(b, "n/a");
    else
        gr_sb_printf(b, "%.2f", fabs(x) < 0.005 ? 0.0 : x);
}

int gr_classhtml_student_index(const gr_class *c, const char *id)
{
    for (int i = 0; i < c->n; i++)          /* lists borrow the class's own ids */
        if (c->students[i].id == id)
            return i;
    for (int i = 0; i < c->n; i++)
        if (strcmp(c->students[i].id, id) == 0)
            return i;
    return -1;
}

void gr_classhtml_student_link(gr_strbuf *b, const gr_class *c, const char *id)
{
    int i = gr_classhtml_student_index(c, id);
    if (i >= 0)
        gr_sb_printf(b, "<a href=\"#s%d\">", i);
    gr_classhtml_esc(b, id);
    if (i >= 0)
        gr_sb_append(b, "</a>");
}

static void student_links(gr_strbuf *b, const gr_class *c, const char *const *ids, int n)
{
    for (int k = 0; k < n; k++) {
        if (k)
            gr_sb_append(b, ", ");
        gr_classhtml_student_link(b, c, ids[k]);
    }
}

static const char *lab_dir(int lab)
{
    return gr_layout_dir(lab);
}

/* ---- the page ------------------------------------------------------------------------ */

static const char style[] =
    "body{font:15px/1.45 system-ui,-apple-system,\"Segoe UI\",Roboto,sans-serif;color:#1d1d1f;"
    "max-width:76rem;margin:0 auto;padding:1rem 1.5rem 4rem}\n"
    "h1{font-size:1.7rem;margin:.5rem 0}h2{border-bottom:2px solid #d0d4dc;padding-bottom:.2rem;"
    "margin-top:2.2rem}h3{margin:1.6rem 0 .3rem}h4{margin:.9rem 0 .3rem}\n"
    "table{border-collapse:collapse;margin:.5rem 0 1rem;font-size:.92rem}\n"
    "th,td{border:1px solid #d0d4dc;padding:.2rem .5rem;text-align:left;vertical-align:top}\n"
    "th{background:#eef1f6}td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}\n"
    "td:first-child{white-space:nowrap}\n"
    "tr.neg td{background:#fde2e1}tr.none td{background:#fff3cd}tr.all td{background:#eef7ee}\n"
    ".flag{font-weight:600}.neg .flag{color:#a4161a}\n"
    ".tag{display:inline-block;font-size:.78rem;padding:0 .35rem;border-radius:.25rem;"
    "background:#e4e7ee;margin-left:.3rem}.tag.hidden{background:#3a3f4b;color:#fff}\n"
    "pre{background:#f6f7f9;border:1px solid #e1e4ea;padding:.5rem .7rem;white-space:pre-wrap;"
    "overflow-wrap:anywhere;font-size:.85rem;margin:.2rem 0 .8rem}\n"
    "nav ol{columns:3 14rem;padding-left:1.5rem}nav li{break-inside:avoid}\n"
    "section.student{border-top:1px solid #d0d4dc;margin-top:1.5rem}\n"
    ".total{font-size:1.1rem}.muted{color:#5b6170}img.histogram{max-width:100%;height:auto;"
    "border:1px solid #e1e4ea}\n"
    "a{color:#0b57d0}\n"
    ".glance{display:grid;grid-template-columns:repeat(auto-fit,minmax(22rem,1fr));gap:0 2rem}\n"
    ".glance h2,#ranked{margin-top:1rem}ul.check,ul.late{padding-left:1.2rem;margin:.3rem 0}\n"
    "nav#toc p{margin:.3rem 0}nav#toc a{margin-right:.8rem}\n"
    "details>summary{cursor:pointer;margin:.4rem 0}.print{display:none}\n"
    "@media print{body{max-width:none;padding:0;font-size:10pt}nav,.back{display:none}"
    ".print{display:block}section.student:not(:target){display:none}"
    "section.student{break-before:page}"
    "h1,h2,h3,h4{break-after:avoid;page-break-after:avoid}"
    "tr,li,pre,img,figure,.fail{break-inside:avoid;page-break-inside:avoid}"
    "thead{display:table-header-group}img.histogram{max-height:8cm;width:auto}"
    "a{color:inherit;text-decoration:none}}\n";

static void page_head(gr_strbuf *b, const gr_class *c)
{
    int submitted = 0;
    for (int i = 0; i < c->n; i++)
        submitted += c->students[i].submitted;
    gr_sb_printf(b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                    "<title>attnlab class report</title>\n<style>\n%s</style>\n</head>\n<body>\n"
                    "<header><h1>Class report</h1>\n<p>%d students graded (%d in this run, %d "
                    "read back from an earlier run)", style, submitted, c->graded_now, c->resumed);
    if (c->n > submitted)
        gr_sb_printf(b, "; %d on the roster without a submission", c->n - submitted);
    gr_sb_append(b, ".");
    if (c->times_from) {
        gr_sb_append(b, " Hand-in times: from ");
        gr_classhtml_esc(b, c->times_from);
        gr_sb_append(b, ".");
    }
    gr_sb_append(b, "</p></header>\n");
}

static void toc(gr_strbuf *b, int similarity)
{
    gr_sb_append(b, "<nav id=\"toc\"><p><a href=\"#check\">Tests to check</a>"
                    "<a href=\"#late\">Late</a><a href=\"#ranked\">Students by final grade</a>"
                    "<a href=\"#scores\">Scores and distribution</a>"
                    "<a href=\"#items\">Item analysis</a>"
                    "<a href=\"#verdicts\">Verdicts across the class</a>"
                    "<a href=\"#misconceptions\">Misconceptions to reteach</a>"
                    "<a href=\"#clusters\">Mistakes not in the catalogue</a>");
    if (similarity)
        gr_sb_append(b, "<a href=\"#similarity\">Similar lab files</a>");
    gr_sb_append(b, "<a href=\"#students\">Students</a></p></nav>\n");
}

/* ---- scores ------------------------------------------------------------------------- */

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static void base64(gr_strbuf *b, const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i += 3) {
        unsigned v = (unsigned)p[i] << 16 | (i + 1 < n ? (unsigned)p[i + 1] << 8 : 0) |
                     (i + 2 < n ? p[i + 2] : 0);
        char q[5] = {b64[v >> 18 & 63], b64[v >> 12 & 63], i + 1 < n ? b64[v >> 6 & 63] : '=',
                     i + 2 < n ? b64[v & 63] : '=', 0};
        gr_sb_append(b, q);
    }
}

/* The histogram PNG as a data: URI, when gnuplot drew one. */
static void histogram(gr_strbuf *b, const char *out)
{
    char *path = gr_xasprintf("%s/histogram.png", out ? out : ".");
    size_t len = 0;
    char *png = out ? gr_read_file(path, &len) : NULL;
    if (png && len > 8 && memcmp(png, "\x89PNG", 4) == 0) {
        gr_sb_append(b, "<img class=\"histogram\" alt=\"histogram of the students' final "
                        "grades in percent of the maximum\" src=\"data:image/png;base64,");
        base64(b, (const unsigned char *)png, len);
        gr_sb_append(b, "\">\n");
    } else {
        gr_sb_append(b, "<p class=\"muted\">No histogram image (gnuplot draws it); the bands "
                        "are in the table below.</p>\n");
    }
    free(png);
    free(path);
}

static void stats_cells(gr_strbuf *b, gr_class_stats s)
{
    gr_sb_printf(b, "<td class=\"n\">%.2f</td><td class=\"n\">", s.mean);
    gr_classhtml_points(b, s.median);
    gr_sb_append(b, "</td><td class=\"n\">");
    gr_classhtml_points(b, s.min);
    gr_sb_append(b, "</td><td class=\"n\">");
    gr_classhtml_points(b, s.max);
    gr_sb_append(b, "</td><td class=\"n\">");
    gr_classhtml_points(b, s.max_points);
    gr_sb_append(b, "</td>");
}

static void section_scores(gr_strbuf *b, const gr_class *c, const gr_items *it, const char *out)
{
    gr_sb_append(b, "<section id=\"scores\"><h2>Scores and distribution</h2>\n");
    gr_strbuf w = {0};
    gr_warnings_block(&w, c, 0);
    if (w.len) {
        gr_sb_append(b, "<h3>Warnings</h3>\n<pre class=\"warnings\">");
        gr_classhtml_esc(b, w.s);
        gr_sb_append(b, "</pre>\n");
    }
    free(w.s);
    histogram(b, out);
    gr_sb_append(b, "<table class=\"labs\"><thead><tr><th>lab</th><th class=\"n\">attempted</th>"
                    "<th class=\"n\">missing</th><th class=\"n\">not started</th><th class=\"n\">"
                    "mean</th><th class=\"n\">median</th><th class=\"n\">min</th><th class=\"n\">"
                    "max</th><th class=\"n\">out of</th></tr></thead>\n<tbody>\n");
    for (int lab = 1; lab <= GR_N_LABS; lab++) {
        if (!c->labs[lab - 1])
            continue;
        gr_sb_printf(b, "<tr><td>%s</td><td class=\"n\">%d</td><td class=\"n\">%d</td>"
                        "<td class=\"n\">%d</td>", lab_dir(lab), it->attempted[lab - 1],
                     it->missing[lab - 1], it->not_started[lab - 1]);
        stats_cells(b, gr_classreport_stats(c, lab, 0));
        gr_sb_append(b, "</tr>\n");
    }
    gr_class_stats t = gr_classreport_stats(c, 0, 0);
    gr_sb_printf(b, "<tr class=\"sum\"><th>total</th><td class=\"n\" colspan=\"3\">%d students"
                    "</td>", t.n);
    stats_cells(b, t);
    gr_sb_append(b, "</tr>\n");
    if (c->course) {
        gr_sb_append(b, "<tr><th>after late penalties</th><td colspan=\"3\"></td>");
        stats_cells(b, gr_classreport_stats(c, 0, 1));
        gr_sb_append(b, "</tr>\n");
    }
    gr_class_stats f = gr_classreport_stats(c, 0, 1);   /* final grades: the late policy applied */
    gr_sb_append(b, "</tbody></table>\n<table class=\"bands\"><thead><tr><th>final grade</th>");
    for (int k = 0; k < GR_CLASS_BINS; k++)
        k == GR_CLASS_BINS - 1 ? gr_sb_append(b, "<th class=\"n\">100%</th>")
                               : gr_sb_printf(b, "<th class=\"n\">%d-%d%%</th>", 10 * k, 10 * k + 9);
    gr_sb_append(b, "</tr></thead><tbody><tr><th>students</th>");
    for (int k = 0; k < GR_CLASS_BINS; k++)
        gr_sb_printf(b, "<td class=\"n\">%d</td>", f.bins[k]);
    gr_sb_append(b, "</tr></tbody></table>\n</section>\n");
}

/* ---- item analysis -------------------------------------------------------------------- */

static const char items_head[] =
    "<table class=\"items\"><thead><tr><th>lab</th><th>test</th><th>shown</th>"
    "<th class=\"n\">points</th><th class=\"n\">attempted</th><th class=\"n\">"
    "passed</th><th class=\"n\">pass rate</th><th class=\"n\">r</th>"
    "<th class=\"n\">D</th><th>flags</th></tr></thead>\n<tbody>\n";

/* Test k's row; with id, anchored "item<k>" (the flagged table's rows are). */
static void item_row(gr_strbuf *b, const gr_items *it, int k, int id)
{
    const gr_item *m = &it->items[k];
    const char *cls = m->flags & GR_ITEM_NEGATIVE ? " class=\"neg\""
                      : m->flags & GR_ITEM_NONE_PASS ? " class=\"none\""
                      : m->flags & GR_ITEM_ALL_PASS ? " class=\"all\"" : "";
    gr_sb_append(b, "<tr");
    if (id)
        gr_sb_printf(b, " id=\"item%d\"", k);
    gr_sb_printf(b, "%s><td>%s</td><td class=\"test\">", cls, lab_dir(m->lab));
    gr_classhtml_esc(b, m->test);
    gr_sb_printf(b, "</td><td>%s</td><td class=\"n\">", gr_rubric_visibility_name(m->visibility));
    gr_classhtml_points(b, m->max_score);
    gr_sb_printf(b, "</td><td class=\"n\">%d</td><td class=\"n\">%d</td><td class=\"n rate\">",
                 m->attempted, m->passed);
    if (m->attempted)
        gr_sb_printf(b, "%.0f%%", 100.0 * m->passed / m->attempted);
    gr_sb_append(b, "</td><td class=\"n r\">");
    put_stat(b, m->r_pb);
    gr_sb_append(b, "</td><td class=\"n\">");
    put_stat(b, m->d_index);
    char flags[128];
    gr_sb_printf(b, "</td><td class=\"flag\">%s</td></tr>\n",
                 gr_items_flag_text(flags, sizeof flags, m->flags));
}

/* The tests to check in a table of their own, then every test, the same rows,
   in a <details> closed by default (tests.csv has each student's points). */
static void section_items(gr_strbuf *b, const gr_items *it)
{
    gr_sb_printf(b, "<section id=\"items\"><h2>Item analysis</h2>\n<p>Over the students who "
                    "attempted each lab (a missing file or the untouched stub says nothing of a "
                    "test). <b>Pass rate</b>: the share who passed. <b>r</b>: the point-biserial "
                    "correlation of the test's points with the rest of the lab's score; a good "
                    "test has r above 0.2. <b>D</b>: the pass rate of the top %.0f%% by the rest "
                    "of the lab less that of the bottom %.0f%%. A test passed by everyone or by "
                    "no one tells nothing apart; one with r below %.1f is passed more by weaker "
                    "students than by stronger ones: check its rubric entry.</p>\n",
                 100 * GR_ITEMS_GROUP, 100 * GR_ITEMS_GROUP, GR_ITEMS_NEGATIVE);
    int flagged = 0;
    for (int k = 0; k < it->n; k++) {
        if (!(it->items[k].flags & GR_ITEM_TO_CHECK))
            continue;
        if (flagged++ == 0)
            gr_sb_append(b, items_head);
        item_row(b, it, k, 1);
    }
    gr_sb_append(b, flagged ? "</tbody></table>\n"
                            : "<p>No test passed by no one or discriminating negatively.</p>\n");
    gr_sb_printf(b, "<details class=\"items\"><summary>Every test (%d), in rubric order "
                    "(tests.csv has each student's points)</summary>\n%s", it->n, items_head);
    for (int k = 0; k < it->n; k++)
        item_row(b, it, k, 0);
    gr_sb_append(b, "</tbody></table>\n</details>\n</section>\n");
}

/* ---- verdicts and misconceptions ---------------------------------------------------------- */

static void section_verdicts(gr_strbuf *b, const gr_class *c, const gr_items *it)
{
    gr_sb_append(b, "<section id=\"verdicts\"><h2>Verdicts across the class</h2>\n"
                    "<p>Besides wrong answers and untouched stubs: per lab, the students who got "
                    "each verdict on at least one test.</p>\n");
    if (it->n_verdicts == 0) {
        gr_sb_append(b, "<p>No time-out, crash, forbidden call, compile error or missing file."
                        "</p>\n</section>\n");
        return;
    }
    gr_sb_append(b, "<table class=\"verdicts\"><thead><tr><th>lab</th><th>verdict</th>"
                    "<th class=\"n\">students</th><th>who</th></tr></thead>\n<tbody>\n");
    for (int k = 0; k < it->n_verdicts; k++) {
        const gr_item_verdict *v = &it->verdicts[k];
        gr_sb_printf(b, "<tr><td>%s</td><td>%s</td><td class=\"n\">%d</td><td>", lab_dir(v->lab),
                     gr_result_verdict_name(v->verdict), v->n);
        student_links(b, c, v->students, v->n);
        gr_sb_append(b, "</td></tr>\n");
    }
    gr_sb_append(b, "</tbody></table>\n</section>\n");
}

static void section_misconceptions(gr_strbuf *b, const gr_class *c, const gr_items *it)
{
    gr_sb_append(b, "<section id=\"misconceptions\"><h2>Misconceptions to reteach</h2>\n"
                    "<p>Wrong answers that match a known misconception, ranked by the students "
                    "showing each among those who attempted the lab.</p>\n");
    if (it->n_shown == 0) {
        gr_sb_append(b, "<p>No wrong answer matched a known misconception.</p>\n</section>\n");
        return;
    }
    gr_sb_append(b, "<table class=\"misconceptions\"><thead><tr><th class=\"n\">students</th>"
                    "<th class=\"n\">of attempted</th><th>misconception</th><th>reteach</th>"
                    "<th>who</th></tr></thead>\n<tbody>\n");
    for (int k = 0; k < it->n_shown; k++) {
        const gr_item_shown *m = &it->shown[k];
        gr_sb_printf(b, "<tr><td class=\"n\">%d</td><td class=\"n\">%d</td><td><b>", m->n,
                     it->attempted[m->lab - 1]);
        gr_classhtml_esc(b, m->id);
        gr_sb_append(b, "</b>: ");
        gr_classhtml_esc(b, m->mc ? m->mc->name : "not in this attnlab's lab modules");
        if (m->mc && m->mc->explain) {
            gr_sb_append(b, "<br><span class=\"muted\">");
            gr_classhtml_esc(b, m->mc->explain);
            gr_sb_append(b, "</span>");
        }
        gr_sb_append(b, "</td><td>");
        char *handout = m->mc ? gr_layout_handout_at(m->mc->handout.lab, m->mc->handout.section)
                              : NULL;
        gr_classhtml_esc(b, handout ? handout : lab_dir(m->lab));
        free(handout);
        gr_sb_append(b, "</td><td>");
        student_links(b, c, m->students, m->n);
        gr_sb_append(b, "</td></tr>\n");
    }
    gr_sb_append(b, "</tbody></table>\n</section>\n");
}

/* ---- similarity ---------------------------------------------------------------------- */

/* Each identical group: "14 students handed in the same lab02-softmax file". */
static void similarity_groups(gr_strbuf *b, const gr_class *c, const gr_html_sim *sim)
{
    if (sim->n_groups == 0)
        return;
    gr_sb_append(b, "<ul class=\"same-file\">\n");
    for (int g = 0; g < sim->n_groups; g++) {
        const gr_html_group *x = &sim->groups[g];
        gr_sb_printf(b, "<li><b>%d students handed in the same %s file</b>, byte for byte: ",
                     x->n, lab_dir(x->lab));
        for (int k = 0; k < x->n; k++) {
            gr_sb_append(b, k ? ", " : "");
            gr_classhtml_student_link(b, c, c->students[x->who[k]].id);
        }
        gr_sb_append(b, "</li>\n");
    }
    gr_sb_append(b, "</ul>\n");
}

/* The pairs of a lab left out: "and 12 more pairs". */
static void similarity_more(gr_strbuf *b, const gr_class *c, const gr_html_sim *sim)
{
    for (int lab = 1; lab <= GR_N_LABS; lab++)
        if (c->labs[lab - 1] && sim->more[lab - 1])
            gr_sb_printf(b, "<p class=\"more\">%s: the %d most similar pairs above, and %ld "
                            "more at %.0f%% or more: <code>attnlab similarity SUBMISSIONS --lab "
                            "%d --top 0</code> lists them all.</p>\n", lab_dir(lab),
                         GR_HTML_SIM_TOP, sim->more[lab - 1], 100 * GR_HTML_SIM_MIN, lab);
}

static void section_similarity(gr_strbuf *b, const gr_class *c, const gr_html_sim *sim)
{
    gr_sb_printf(b, "<section id=\"similarity\"><h2>Similar lab files</h2>\n<p>Students who "
                    "handed in the same file, then pairs of one lab's different files sharing at "
                    "least %.0f%% of their fingerprints (Jaccard; the stub's own text left out, "
                    "and passages in more than %d files, as MOSS's -m does), most similar first; "
                    "a file several students handed in is named by the first of them. Evidence to "
                    "read, never a verdict: <code>attnlab similarity</code> shows the matching "
                    "lines.</p>\n", 100 * GR_HTML_SIM_MIN, GR_SIM_MAX_FILES);
    similarity_groups(b, c, sim);
    if (sim->n == 0) {
        gr_sb_append(b, "<p>No pair of different files.</p>\n</section>\n");
        return;
    }
    gr_sb_append(b, "<table class=\"similarity\"><thead><tr><th>lab</th><th>student</th>"
                    "<th>student</th><th class=\"n\">Jaccard</th><th class=\"n\">shared "
                    "fingerprints</th></tr></thead>\n<tbody>\n");
    for (int k = 0; k < sim->n; k++) {
        const gr_html_pair *p = &sim->pairs[k];
        gr_sb_printf(b, "<tr><td>%s</td><td>", lab_dir(p->lab));
        gr_classhtml_file_link(b, c, sim, p->lab, p->a);
        gr_sb_append(b, "</td><td>");
        gr_classhtml_file_link(b, c, sim, p->lab, p->b);
        gr_sb_printf(b, "</td><td class=\"n\">%.0f%%</td><td class=\"n\">%ld</td></tr>\n",
                     100 * p->jaccard, p->shared);
    }
    gr_sb_append(b, "</tbody></table>\n");
    similarity_more(b, c, sim);
    gr_sb_append(b, "</section>\n");
}

/* ---- the whole ------------------------------------------------------------------------ */

char *gr_classhtml_page(const gr_class *c, const gr_html_opts *o)
{
    gr_items it;
    gr_items_analyse(c, &it);
    gr_html_sim sim;
    gr_classhtml_sim_load(&sim, c, o);
    gr_strbuf b = {0};
    page_head(&b, c);
    toc(&b, o->submissions != NULL);
    gr_sb_append(&b, "<main>\n");
    gr_classhtml_glance(&b, c, &it);
    section_scores(&b, c, &it, o->out);
    section_items(&b, &it);
    section_verdicts(&b, c, &it);
    section_misconceptions(&b, c, &it);
    gr_clusters_html(&b, c);           /* the uncatalogued ones (clusters.h) */
    if (o->submissions)
        section_similarity(&b, c, &sim);
    gr_sb_append(&b, "<section id=\"students\"><h2>Students</h2>\n<p class=\"print\">Each "
                     "student's section prints on its own: open the report at the student's link "
                     "(report.html#s3) and print.</p>\n");
    for (int i = 0; i < c->n; i++)
        gr_classhtml_student(&b, c, i, &sim);
    gr_sb_append(&b, "</section>\n</main>\n<footer class=\"muted\"><p>Written by attnlab batch. "
                     "Self-contained: no script, nothing fetched.</p></footer>\n</body>\n</html>\n");
    gr_classhtml_sim_free(&sim);
    gr_items_free(&it);
    return gr_sb_take(&b);
}
