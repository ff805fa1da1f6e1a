/* classreport.c: the gradebook, the class report and its histogram (see
 * classreport.h). Statistics are over the students with a submission; the
 * roster's students without one are gradebook rows with empty lab cells. */
#include "class/classreport.h"
#include "class/items.h"
#include "class/clusters.h"
#include "class/warnings.h"
#include "base/layout.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/cells.h"
#include "report/report.h"
#include "engine/gnuplot.h"
#include "base/util.h"

#define N_BINS GR_CLASS_BINS
#define TOP_TESTS 10         /* the tests most often failed, listed */
#define IDS_SHOWN 5          /* ids a cell names before "and N more" */

/* ---- numbers ---------------------------------------------------------------- */

/* A mean for a report cell: 2 decimals, no trailing zeros ("7.33", "10"); the
   scores themselves are written exactly (gr_points). */
static void put_mean(gr_strbuf *b, double x)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%.2f", x);
    char *end = buf + strlen(buf) - 1;
    while (*end == '0')
        *end-- = '\0';
    if (*end == '.')
        *end = '\0';
    gr_sb_append(b, strcmp(buf, "-0") == 0 ? "0" : buf);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Mean, median, min, max and the distribution of x[0..n) (sorted in place)
   in percent of max (bins of N_BINS). */
typedef gr_class_stats stats;

static stats stats_of(double *x, int n, double max_points)
{
    stats s;
    memset(&s, 0, sizeof s);
    s.n = n;
    s.max_points = max_points;
    if (n == 0)
        return s;
    qsort(x, (size_t)n, sizeof *x, cmp_double);
    double sum = 0;
    for (int i = 0; i < n; i++) {
        sum += x[i];
        double pct = max_points > 0 ? 100.0 * x[i] / max_points : 0;
        int bin = pct >= 100 - 1e-9 ? N_BINS - 1 : (int)(pct / 10);
        s.bins[bin < 0 ? 0 : bin]++;
    }
    s.mean = sum / n;
    s.median = n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
    s.min = x[0];
    s.max = x[n - 1];
    return s;
}

/* The points possible of lab: its rubric's (class.h), whoever was graded. */
static double lab_max(const gr_class *c, int lab)
{
    return c->lab_max[lab - 1];
}

gr_class_stats gr_classreport_stats(const gr_class *c, int lab, int adjusted)
{
    double *x = gr_xcalloc((size_t)c->n + 1, sizeof *x);
    double max = 0;
    int n = 0;
    for (int l = 1; l <= GR_N_LABS; l++)
        if (c->labs[l - 1] && (lab == 0 || l == lab))
            max += lab_max(c, l);
    for (int i = 0; i < c->n; i++) {
        const gr_student *s = &c->students[i];
        if (!s->submitted)
            continue;
        double sum = 0;
        for (int l = 1; l <= GR_N_LABS; l++) {
            if (!c->labs[l - 1] || (lab != 0 && l != lab))
                continue;
            const gr_lab_result *lr = gr_class_lab(s, l);
            sum += adjusted ? gr_class_adjusted(c, s, l) : lr ? gr_class_raw(c, s, l) : 0;
        }
        x[n++] = sum;
    }
    stats st = stats_of(x, n, max);
    free(x);
    return st;
}

/* ---- the gradebook -------------------------------------------------------------- */

static void csv_score(gr_strbuf *b, double x)
{
    gr_sb_append(b, ",");
    gr_csv_points(b, x);
}

/* The header's cells: the lab columns, and with a late policy their raw and
   days late twins; then the total(s). */
static void gradebook_header(gr_strbuf *b, const gr_class *c)
{
    gr_sb_append(b, "Student ID,Name,Email");
    for (int lab = 1; lab <= GR_N_LABS; lab++) {
        if (!c->labs[lab - 1])
            continue;
        const char *dir = gr_layout_dir(lab);
        if (c->course)
            gr_sb_printf(b, ",%s raw,%s days late", dir, dir);
        gr_sb_printf(b, ",%s", dir);
    }
    gr_sb_append(b, c->course ? ",Total raw,Total\r\n" : ",Total\r\n");
}

/* The points-possible row (the LMS import convention): each lab's maximum,
   the days late columns empty, the total's maximum. */
static void gradebook_possible(gr_strbuf *b, const gr_class *c)
{
    gr_sb_append(b, "Points possible,,");
    double total = 0;
    for (int lab = 1; lab <= GR_N_LABS; lab++) {
        if (!c->labs[lab - 1])
            continue;
        double max = lab_max(c, lab);
        total += max;
        if (c->course) {
            csv_score(b, max);
            gr_sb_append(b, ",");
        }
        csv_score(b, max);
    }
    if (c->course)
        csv_score(b, total);
    csv_score(b, total);
    gr_sb_append(b, "\r\n");
}

char *gr_classreport_gradebook_csv(const gr_class *c, int bom)
{
    gr_strbuf b = {0};
    if (bom)
        gr_sb_append(&b, GR_CSV_BOM);
    gradebook_header(&b, c);
    gradebook_possible(&b, c);
    for (int i = 0; i < c->n; i++) {
        const gr_student *s = &c->students[i];
        gr_class_csv_student(&b, s);
        double raw = 0, adj = 0;
        for (int lab = 1; lab <= GR_N_LABS; lab++) {
            if (!c->labs[lab - 1])
                continue;
            if (!s->submitted) {          /* nothing handed in: empty cells, not a 0 grade */
                gr_sb_append(&b, c->course ? ",,," : ",");
                continue;
            }
            double r = gr_class_raw(c, s, lab), a = gr_class_adjusted(c, s, lab);
            if (c->course) {
                csv_score(&b, r);
                gr_sb_printf(&b, ",%d", s->days_late[lab - 1]);
            }
            csv_score(&b, a);
            raw += r;
            adj += a;
        }
        if (!s->submitted) {
            gr_sb_append(&b, c->course ? ",,\r\n" : ",\r\n");
            continue;
        }
        if (c->course)
            csv_score(&b, raw);
        csv_score(&b, adj);
        gr_sb_append(&b, "\r\n");
    }
    return gr_sb_take(&b);
}

/* ---- a student's feedback ---------------------------------------------------------- */

char *gr_classreport_feedback_header(const gr_class *c, const gr_student *s)
{
    double total = 0, max = 0;
    gr_strbuf late = {0};
    char p1[GR_POINTS_LEN], p2[GR_POINTS_LEN];
    for (int lab = 1; lab <= GR_N_LABS; lab++) {
        if (!c->labs[lab - 1])
            continue;
        double adj = gr_class_adjusted(c, s, lab);
        total += adj;
        max += lab_max(c, lab);
        if (c->course && s->days_late[lab - 1] > 0)
            gr_sb_printf(&late, "Late penalty: %s handed in %d day%s late, %s points taken "
                         "(%s before the penalty)\n", gr_layout_dir(lab),
                         s->days_late[lab - 1], s->days_late[lab - 1] == 1 ? "" : "s",
                         gr_points(p1, gr_class_raw(c, s, lab) - adj),
                         gr_points(p2, gr_class_raw(c, s, lab)));
    }
    for (int k = 0; k < c->n_overrides; k++) {       /* each grade set by hand, and why */
        const gr_class_override *o = &c->overrides[k];
        if (strcmp(o->student, s->id) != 0 || !c->labs[o->lab - 1])
            continue;
        gr_sb_printf(&late, "Override: %s%s%s %s %s points (%s)\n", gr_layout_dir(o->lab),
                     o->test ? " test " : "", o->test ? o->test : "",
                     o->adjust ? (o->value < 0 ? "minus" : "plus") : "set to",
                     gr_points(p1, o->adjust && o->value < 0 ? -o->value : o->value), o->reason);
    }
    char *head = gr_report_text_grade_header(&s->report, total, max, late.s);
    free(late.s);
    return head;
}

/* ---- tables: Markdown or aligned text ------------------------------------------- */

#define MAX_COLS 16

/* Rows of cells, the first the header. */
typedef struct table {
    char **cells;        /* rows * cols */
    int rows, cols;
} table;

static void row_add(table *t, const char *const *cells)
{
    t->cells = gr_xrealloc(t->cells, (size_t)(t->rows + 1) * (size_t)t->cols * sizeof *t->cells);
    for (int j = 0; j < t->cols; j++)
        t->cells[t->rows * t->cols + j] = gr_xstrdup(cells[j] ? cells[j] : "");
    t->rows++;
}

/* Append t to b as a Markdown table (every cell gr_md_text, so an id or a
   test name is one cell of plain text), or as columns padded to their widest
   cell with a rule under the header; then free t. */
static void table_put(gr_strbuf *b, table *t, int markdown)
{
    int w[MAX_COLS] = {0};
    for (int i = 0; i < t->rows * t->cols; i++) {
        int n = (int)strlen(t->cells[i]);
        if (n > w[i % t->cols])
            w[i % t->cols] = n;
    }
    for (int r = 0; r < t->rows; r++) {
        for (int j = 0; j < t->cols; j++) {
            const char *cell = t->cells[r * t->cols + j];
            if (markdown) {
                gr_sb_append(b, "| ");
                gr_md_text(b, cell);
                gr_sb_append(b, " ");
            } else
                gr_sb_printf(b, "  %-*s", j == t->cols - 1 ? 0 : w[j], cell);
        }
        gr_sb_append(b, markdown ? "|\n" : "\n");
        if (r == 0) {
            for (int j = 0; j < t->cols; j++) {
                if (markdown) {
                    gr_sb_append(b, "|---");
                } else {
                    gr_sb_append(b, "  ");
                    for (int k = 0; k < w[j]; k++)
                        gr_sb_append(b, "-");
                }
            }
            gr_sb_append(b, markdown ? "|\n" : "\n");
        }
    }
    for (int i = 0; i < t->rows * t->cols; i++)
        free(t->cells[i]);
    free(t->cells);
    memset(t, 0, sizeof *t);
}

static void heading(gr_strbuf *b, int markdown, const char *title)
{
    gr_sb_printf(b, markdown ? "\n## %s\n\n" : "\n%s\n", title);
}

/* ---- the report's sections ------------------------------------------------------------- */

/* A score as a cell's text, exactly. */
static char *num(double x)
{
    char buf[GR_POINTS_LEN];
    return gr_xstrdup(gr_points(buf, x));
}

/* A mean as a cell's text, to 2 decimals. */
static char *mean_num(double x)
{
    gr_strbuf b = {0};
    put_mean(&b, x);
    return gr_sb_take(&b);
}

/* One row of the scores table. */
static void score_row(table *t, const char *what, stats s)
{
    char *cells[7] = {gr_xstrdup(what), gr_xasprintf("%d", s.n), mean_num(s.mean), num(s.median),
                      num(s.min), num(s.max), num(s.max_points)};
    row_add(t, (const char *const *)cells);
    for (int j = 0; j < 7; j++)
        free(cells[j]);
}

static void dist_row(table *t, const char *what, stats s)
{
    char *cells[N_BINS + 1];
    cells[0] = gr_xstrdup(what);
    for (int k = 0; k < N_BINS; k++)
        cells[k + 1] = gr_xasprintf("%d", s.bins[k]);
    row_add(t, (const char *const *)cells);
    for (int j = 0; j <= N_BINS; j++)
        free(cells[j]);
}

static void section_scores(gr_strbuf *b, const gr_class *c, int md)
{
    heading(b, md, "Scores (points)");
    table t = {NULL, 0, 7}, d = {NULL, 0, N_BINS + 1};
    const char *hs[] = {"lab", "students", "mean", "median", "min", "max", "out of"};
    row_add(&t, hs);
    const char *hd[N_BINS + 1] = {"lab"};
    char *labels[N_BINS];
    for (int k = 0; k < N_BINS; k++)
        hd[k + 1] = labels[k] = k == N_BINS - 1 ? gr_xstrdup("100%")
                                                : gr_xasprintf("%d-%d%%", 10 * k, 10 * k + 9);
    row_add(&d, hd);
    for (int k = 0; k < N_BINS; k++)
        free(labels[k]);
    for (int lab = 1; lab <= GR_N_LABS; lab++) {
        if (!c->labs[lab - 1])
            continue;
        stats s = gr_classreport_stats(c, lab, 0);
        score_row(&t, gr_layout_dir(lab), s);
        dist_row(&d, gr_layout_dir(lab), s);
    }
    stats total = gr_classreport_stats(c, 0, 0);
    score_row(&t, "total", total);
    dist_row(&d, "total", total);
    if (c->course) {
        score_row(&t, "total after late penalties", gr_classreport_stats(c, 0, 1));
        dist_row(&d, "total after late penalties", gr_classreport_stats(c, 0, 1));
    }
    table_put(b, &t, md);
    heading(b, md, "Distribution (students per band of the lab's maximum)");
    table_put(b, &d, md);
}

/* The students of a list as "a, b, c, d, e and 3 more". */
static char *id_list(const char *const *ids, int n)
{
    gr_strbuf b = {0};
    gr_sb_append(&b, "");
    for (int k = 0; k < n && k < IDS_SHOWN; k++)
        gr_sb_printf(&b, "%s%s", k ? ", " : "", ids[k]);
    if (n > IDS_SHOWN)
        gr_sb_printf(&b, " and %d more", n - IDS_SHOWN);
    return gr_sb_take(&b);
}

/* Most failed first: the share of those who attempted the lab that failed,
   then how many students that is, then the points at stake. */
static int by_failed(const void *a, const void *b)
{
    const gr_item *x = *(const gr_item *const *)a, *y = *(const gr_item *const *)b;
    double fx = (double)x->failed / x->attempted, fy = (double)y->failed / y->attempted;
    if (fx != fy)
        return fx < fy ? 1 : -1;
    if (x->failed != y->failed)
        return y->failed - x->failed;
    if (x->max_score != y->max_score)
        return x->max_score < y->max_score ? 1 : -1;
    return x->lab != y->lab ? x->lab - y->lab : strcmp(x->test, y->test);
}

/* The tests most often failed by the students who attempted their lab: a lab
   handed in empty, missing or as the untouched stub says nothing of a test
   (the warnings and the verdicts list those). */
static void section_failed(gr_strbuf *b, const gr_items *it, int md)
{
    const gr_item **f = gr_xcalloc((size_t)it->n + 1, sizeof *f);
    int n = 0;
    for (int k = 0; k < it->n; k++)
        if (it->items[k].failed > 0)
            f[n++] = &it->items[k];
    if (n > 0)
        qsort(f, (size_t)n, sizeof *f, by_failed);
    heading(b, md, "Tests most often failed (by the students who attempted the lab)");
    if (n == 0)
        gr_sb_append(b, md ? "Every test passed in every lab attempted.\n"
                            : "  every test passed in every lab attempted\n");
    table t = {NULL, 0, 6};
    const char *h[] = {"failed", "of attempted", "lab", "test", "points", "most common verdict"};
    if (n)
        row_add(&t, h);
    for (int k = 0; k < n && k < TOP_TESTS; k++) {
        int v = 1;
        for (int j = 1; j < GR_VERDICT_COUNT; j++)
            if (f[k]->verdicts[j] > f[k]->verdicts[v])
                v = j;
        char *cnt = gr_xasprintf("%d", f[k]->failed), *of = gr_xasprintf("%d", f[k]->attempted);
        char *pts = num(f[k]->max_score);
        const char *cells[] = {cnt, of, gr_layout_dir(f[k]->lab), f[k]->test, pts,
                               gr_result_verdict_name((gr_verdict)v)};
        row_add(&t, cells);
        free(cnt);
        free(of);
        free(pts);
    }
    if (n)
        table_put(b, &t, md);
    free(f);
}

/* Item analysis in brief (report.html has every test): the tests stronger
   students fail more than weaker ones, then how many tell no one apart. */
static void section_items(gr_strbuf *b, const gr_items *it, int md)
{
    heading(b, md, "Tests to check (item analysis over the students who attempted the lab)");
    table t = {NULL, 0, 5};
    const char *h[] = {"lab", "test", "passed", "of attempted", "r with the rest of the lab"};
    int all = 0, none = 0;
    for (int k = 0; k < it->n; k++) {
        const gr_item *m = &it->items[k];
        all += (m->flags & GR_ITEM_ALL_PASS) != 0;
        none += (m->flags & GR_ITEM_NONE_PASS) != 0;
        if (!(m->flags & GR_ITEM_NEGATIVE))
            continue;
        if (t.rows == 0)
            row_add(&t, h);
        char *p = gr_xasprintf("%d", m->passed), *of = gr_xasprintf("%d", m->attempted);
        char *r = gr_xasprintf("%.2f", m->r_pb);
        const char *cells[] = {gr_layout_dir(m->lab), m->test, p, of, r};
        row_add(&t, cells);
        free(p);
        free(of);
        free(r);
    }
    if (t.rows) {
        gr_sb_printf(b, "%sDiscriminating negatively (stronger students fail them more than weaker "
                        "ones; check their rubric entries):\n%s", md ? "" : "  ", md ? "\n" : "");
        table_put(b, &t, md);
    } else {
        gr_sb_append(b, md ? "No test discriminates negatively.\n" : "  no test discriminates negatively\n");
    }
    gr_sb_printf(b, "%s%d of %d tests passed by everyone who attempted their lab, %d by no one "
                    "(they tell no student apart)%s", md ? "\n" : "  ", all, it->n, none,
                 none ? ": " : ".\n");
    for (int k = 0, n = 0; none && k < it->n; k++)
        if (it->items[k].flags & GR_ITEM_NONE_PASS) {   /* likely broken: named */
            gr_sb_printf(b, "%s%s ", n++ ? ", " : "", gr_layout_dir(it->items[k].lab));
            md ? gr_md_text(b, it->items[k].test) : gr_sb_append(b, it->items[k].test);
        }
    if (none)
        gr_sb_append(b, ".\n");
}

/* Time-outs, crashes, forbidden calls, compile errors, limits and missing
   files: per lab, how many students got each, and who. */
static void section_verdicts(gr_strbuf *b, const gr_items *it, int md)
{
    heading(b, md, "Verdicts across the class (besides wrong answers)");
    if (it->n_verdicts == 0) {
        gr_sb_append(b, md ? "No time-out, crash, forbidden call, compile error or missing file.\n"
                           : "  no time-out, crash, forbidden call, compile error or missing file\n");
        return;
    }
    table t = {NULL, 0, 4};
    const char *h[] = {"lab", "verdict", "students", "who"};
    row_add(&t, h);
    for (int k = 0; k < it->n_verdicts; k++) {
        const gr_item_verdict *v = &it->verdicts[k];
        char *cnt = gr_xasprintf("%d", v->n), *who = id_list(v->students, v->n);
        const char *cells[] = {gr_layout_dir(v->lab), gr_result_verdict_name(v->verdict), cnt, who};
        row_add(&t, cells);
        free(cnt);
        free(who);
    }
    table_put(b, &t, md);
}

static void section_misconceptions(gr_strbuf *b, const gr_items *it, int md)
{
    heading(b, md, "Misconceptions diagnosed (students showing each, of those who attempted "
                   "the lab, and what to reteach)");
    if (it->n_shown == 0) {
        gr_sb_append(b, md ? "No wrong answer matched a known misconception.\n"
                           : "  no wrong answer matched a known misconception\n");
        return;
    }
    table t = {NULL, 0, 6};
    const char *h[] = {"students", "of attempted", "misconception", "what it is", "reteach", "who"};
    row_add(&t, h);
    for (int k = 0; k < it->n_shown; k++) {
        const gr_item_shown *m = &it->shown[k];
        char *cnt = gr_xasprintf("%d", m->n), *of = gr_xasprintf("%d", it->attempted[m->lab - 1]);
        char *who = id_list(m->students, m->n);
        char *handout = m->mc ? gr_layout_handout_at(m->mc->handout.lab, m->mc->handout.section)
                              : NULL;
        const char *cells[] = {cnt, of, m->id, m->mc ? m->mc->name : "(not in this attnlab's lab modules)",
                               handout ? handout : gr_layout_dir(m->lab), who};
        row_add(&t, cells);
        free(cnt);
        free(of);
        free(who);
        free(handout);
    }
    table_put(b, &t, md);
}

static void section_late(gr_strbuf *b, const gr_class *c, int md)
{
    if (!c->course)
        return;
    heading(b, md, "Late submissions (course policy)");
    table t = {NULL, 0, 3};
    const char *h[] = {"lab", "late", "points lost"};
    row_add(&t, h);
    for (int lab = 1; lab <= GR_N_LABS; lab++) {
        if (!c->labs[lab - 1])
            continue;
        int late = 0;
        double lost = 0;
        for (int i = 0; i < c->n; i++) {
            const gr_student *s = &c->students[i];
            late += s->days_late[lab - 1] > 0;
            lost += gr_class_raw(c, s, lab) - gr_class_adjusted(c, s, lab);
        }
        char *nl = gr_xasprintf("%d", late), *pl = num(lost);
        const char *cells[] = {gr_layout_dir(lab), nl, pl};
        row_add(&t, cells);
        free(nl);
        free(pl);
    }
    table_put(b, &t, md);
}

/* Where the hand-in times came from, and how many students have one. */
static void section_times(gr_strbuf *b, const gr_class *c, int md)
{
    int with = 0, submitted = 0;
    for (int i = 0; i < c->n; i++) {
        int any = 0;
        for (int lab = 0; lab < GR_N_LABS; lab++)
            any |= c->students[i].have_when[lab];
        with += any;
        submitted += c->students[i].submitted;
    }
    if (!c->times_from)
        return;
    gr_sb_append(b, md ? "\nHand-in times: from " : "  Hand-in times: from ");
    if (md)
        gr_md_text(b, c->times_from);
    else
        gr_sb_append(b, c->times_from);
    if (with)
        gr_sb_printf(b, " (%d of %d students have one; the others are not late)", with, submitted);
    gr_sb_append(b, md ? ".\n" : "\n");
}

char *gr_classreport_text(const gr_class *c, int md)
{
    gr_strbuf b = {0};
    int submitted = 0, missing = 0;
    for (int i = 0; i < c->n; i++)
        c->students[i].submitted ? submitted++ : missing++;
    gr_sb_printf(&b, md ? "# Class report\n\n" : "Class report\n");
    gr_sb_printf(&b, "%s%d students graded (%d in this run, %d read back from an earlier run)",
                 md ? "" : "  ", submitted, c->graded_now, c->resumed);
    if (missing)
        gr_sb_printf(&b, "; %d on the roster without a submission", missing);
    gr_sb_append(&b, md ? ".\n" : "\n");
    gr_warnings_block(&b, c, md);
    section_times(&b, c, md);
    section_scores(&b, c, md);
    gr_items it;
    gr_items_analyse(c, &it);
    section_failed(&b, &it, md);
    section_items(&b, &it, md);
    section_verdicts(&b, &it, md);
    section_misconceptions(&b, &it, md);
    gr_clusters_section(&b, c, md);
    gr_items_free(&it);
    section_late(&b, c, md);
    return gr_sb_take(&b);
}

/* ---- the histogram ------------------------------------------------------------------------ */

int gr_classreport_histogram(FILE *err, const gr_class *c, const char *root, const char *out)
{
    stats s = gr_classreport_stats(c, 0, 1);    /* final grades: a 0 for lateness is a 0 */
    gr_strbuf b = {0};
    gr_sb_append(&b, "# attnlab batch: students per band of the final grade (after the late "
                     "policy), in percent of the maximum\n"
                     "# band_low band_high students\n");
    for (int k = 0; k < N_BINS; k++)
        gr_sb_printf(&b, "%d %d %d\n", 10 * k, k == N_BINS - 1 ? 100 : 10 * k + 9, s.bins[k]);
    char *dat = gr_xasprintf("%s/histogram.dat", out), *png = gr_xasprintf("%s/histogram.png", out);
    int rc = gr_write_file_atomic(dat, b.s, b.len);
    if (rc != 0)
        fprintf(err, "attnlab batch: cannot write %s: %s\n", dat, strerror(errno));
    char note[200], p1[GR_POINTS_LEN], p2[GR_POINTS_LEN];
    snprintf(note, sizeof note, "%d students' final grades%s; mean %.2f, median %s of %s points",
             s.n, c->course ? " (after the late policy)" : "", s.mean,
             gr_points(p1, s.median), gr_points(p2, s.max_points));
    const char *args[] = {note, NULL};
    if (rc == 0)
        rc = gr_gnuplot_draw(err, "batch", "batch ... (it resumes)", root, "histogram", dat, png, args);
    free(b.s);
    free(dat);
    free(png);
    return rc;
}
