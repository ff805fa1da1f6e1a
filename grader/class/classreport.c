/* classreport.c: the gradebook, the class report and its histogram (see
 * classreport.h). Statistics are over the students with a submission; the
 * roster's students without one are gradebook rows with empty lab cells. */
#include "class/classreport.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cells.h"
#include "report/report.h"
#include "gnuplot.h"
#include "util.h"

#define N_BINS 11            /* 0-9 %, 10-19 %, ..., 90-99 %, and 100 % (full marks) */
#define TOP_TESTS 10         /* the tests most often failed, listed */

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
typedef struct stats {
    int n;
    double mean, median, min, max, max_points;
    int bins[N_BINS];
} stats;

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

/* The maximum points of lab, from the first student graded in it. */
static double lab_max(const gr_class *c, int lab)
{
    for (int i = 0; i < c->n; i++) {
        const gr_lab_result *l = gr_student_lab(&c->students[i], lab);
        if (l)
            return l->max_score;
    }
    return 0;
}

/* Scores of every submitted student for lab (0: the total), raw or adjusted. */
static stats class_stats(const gr_class *c, int lab, int adjusted)
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
            const gr_lab_result *lr = gr_student_lab(s, l);
            sum += adjusted ? gr_student_adjusted(c, s, l) : lr ? lr->score : 0;
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
        const char *dir = gr_lab_modules[lab - 1]->dir;
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

char *gr_gradebook_csv(const gr_class *c, int bom)
{
    gr_strbuf b = {0};
    if (bom)
        gr_sb_append(&b, GR_CSV_BOM);
    gradebook_header(&b, c);
    gradebook_possible(&b, c);
    for (int i = 0; i < c->n; i++) {
        const gr_student *s = &c->students[i];
        gr_csv_text(&b, s->id);
        gr_sb_append(&b, ",");
        gr_csv_text(&b, s->name);
        gr_sb_append(&b, ",");
        gr_csv_text(&b, s->email);
        double raw = 0, adj = 0;
        for (int lab = 1; lab <= GR_N_LABS; lab++) {
            if (!c->labs[lab - 1])
                continue;
            const gr_lab_result *l = gr_student_lab(s, lab);
            if (!s->submitted) {          /* nothing handed in: empty cells, not a 0 grade */
                gr_sb_append(&b, c->course ? ",,," : ",");
                continue;
            }
            double r = l ? l->score : 0, a = gr_student_adjusted(c, s, lab);
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

char *gr_feedback_header(const gr_class *c, const gr_student *s)
{
    double total = 0, max = 0;
    gr_strbuf late = {0};
    char p1[GR_POINTS_LEN], p2[GR_POINTS_LEN];
    for (int lab = 1; lab <= GR_N_LABS; lab++) {
        if (!c->labs[lab - 1])
            continue;
        const gr_lab_result *l = gr_student_lab(s, lab);
        double adj = gr_student_adjusted(c, s, lab);
        total += adj;
        max += lab_max(c, lab);
        if (c->course && s->days_late[lab - 1] > 0)
            gr_sb_printf(&late, "Late penalty: %s handed in %d day%s late, %s points taken "
                         "(%s before the penalty)\n", gr_lab_modules[lab - 1]->dir,
                         s->days_late[lab - 1], s->days_late[lab - 1] == 1 ? "" : "s",
                         gr_points(p1, (l ? l->score : 0) - adj), gr_points(p2, l ? l->score : 0));
    }
    char *head = gr_report_grade_header(&s->report, total, max, late.s);
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

/* Append t to b as a Markdown table, or as columns padded to their widest
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
            if (markdown)
                gr_sb_printf(b, "| %s ", cell);
            else
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
        stats s = class_stats(c, lab, 0);
        score_row(&t, gr_lab_modules[lab - 1]->dir, s);
        dist_row(&d, gr_lab_modules[lab - 1]->dir, s);
    }
    stats total = class_stats(c, 0, 0);
    score_row(&t, "total", total);
    dist_row(&d, "total", total);
    if (c->course)
        score_row(&t, "total after late penalties", class_stats(c, 0, 1));
    table_put(b, &t, md);
    heading(b, md, "Distribution (students per band of the lab's maximum)");
    table_put(b, &d, md);
}

/* How many students failed each test: entries (lab, test) sorted by count. */
typedef struct failed {
    int lab;
    const char *test;
    int students;
    int verdicts[GR_VERDICT_COUNT];
} failed;

static int by_students(const void *a, const void *b)
{
    const failed *x = a, *y = b;
    if (x->students != y->students)
        return y->students - x->students;
    return x->lab != y->lab ? x->lab - y->lab : strcmp(x->test, y->test);
}

static void section_failed(gr_strbuf *b, const gr_class *c, int md)
{
    failed *f = NULL;
    int n = 0;
    for (int i = 0; i < c->n; i++) {
        const gr_report *r = &c->students[i].report;
        for (int l = 0; l < r->n_labs; l++)
            for (int j = 0; j < r->labs[l].n_tests; j++) {
                const gr_test_result *t = &r->labs[l].tests[j];
                /* a lab whose file was not taken says nothing of a test: Warnings lists it */
                if (t->verdict == GR_PASSED || t->verdict == GR_MISSING ||
                    t->verdict == GR_AMBIGUOUS || t->verdict == GR_UNREADABLE)
                    continue;
                int k = 0;
                while (k < n && !(f[k].lab == r->labs[l].lab && strcmp(f[k].test, t->name) == 0))
                    k++;
                if (k == n) {
                    f = gr_xrealloc(f, (size_t)(n + 1) * sizeof *f);
                    memset(&f[n], 0, sizeof *f);
                    f[n].lab = r->labs[l].lab;
                    f[n++].test = t->name;
                }
                f[k].students++;
                f[k].verdicts[t->verdict]++;
            }
    }
    if (n > 0)                       /* qsort's array may not be NULL */
        qsort(f, (size_t)n, sizeof *f, by_students);
    heading(b, md, "Tests most often failed");
    if (n == 0)
        gr_sb_append(b, md ? "Every test passed in every lab file graded.\n"
                            : "  every test passed in every lab file graded\n");
    table t = {NULL, 0, 4};
    const char *h[] = {"students", "lab", "test", "most common verdict"};
    if (n)
        row_add(&t, h);
    for (int k = 0; k < n && k < TOP_TESTS; k++) {
        int v = 0;
        for (int j = 1; j < GR_VERDICT_COUNT; j++)
            if (f[k].verdicts[j] > f[k].verdicts[v])
                v = j;
        char *cnt = gr_xasprintf("%d", f[k].students);
        const char *cells[] = {cnt, gr_lab_modules[f[k].lab - 1]->dir, f[k].test,
                               gr_verdict_name((gr_verdict)v)};
        row_add(&t, cells);
        free(cnt);
    }
    if (n)
        table_put(b, &t, md);
    free(f);
}

/* The misconception with this id in lab's module, or NULL. */
static const gr_misconception *misconception_of(int lab, const char *id)
{
    const gr_lab_module *m = gr_lab_modules[lab - 1];
    for (int i = 0; i < m->n_misconceptions; i++)
        if (strcmp(m->misconceptions[i].id, id) == 0)
            return &m->misconceptions[i];
    return NULL;
}

/* Students showing each misconception (each student counted once). */
typedef struct shown {
    int lab;
    const char *id;
    int students;
    int last;            /* the last student counted, so one is counted once */
} shown;

static int by_shown(const void *a, const void *b)
{
    const shown *x = a, *y = b;
    if (x->students != y->students)
        return y->students - x->students;
    return x->lab != y->lab ? x->lab - y->lab : strcmp(x->id, y->id);
}

static void section_misconceptions(gr_strbuf *b, const gr_class *c, int md)
{
    shown *m = NULL;
    int n = 0;
    for (int i = 0; i < c->n; i++) {
        const gr_report *r = &c->students[i].report;
        for (int l = 0; l < r->n_labs; l++)
            for (int j = 0; j < r->labs[l].n_tests; j++) {
                const char *id = r->labs[l].tests[j].misconception;
                if (!id)
                    continue;
                int k = 0;
                while (k < n && !(m[k].lab == r->labs[l].lab && strcmp(m[k].id, id) == 0))
                    k++;
                if (k == n) {
                    m = gr_xrealloc(m, (size_t)(n + 1) * sizeof *m);
                    m[n] = (shown){r->labs[l].lab, id, 0, -1};
                    n++;
                }
                if (m[k].last != i) {
                    m[k].students++;
                    m[k].last = i;
                }
            }
    }
    if (n > 0)                       /* qsort's array may not be NULL */
        qsort(m, (size_t)n, sizeof *m, by_shown);
    heading(b, md, "Misconceptions diagnosed (students showing each, and what to reteach)");
    if (n == 0)
        gr_sb_append(b, md ? "No wrong answer matched a known misconception.\n"
                           : "  no wrong answer matched a known misconception\n");
    table t = {NULL, 0, 4};
    const char *h[] = {"students", "misconception", "what it is", "reteach"};
    if (n)
        row_add(&t, h);
    for (int k = 0; k < n; k++) {
        const gr_misconception *mc = misconception_of(m[k].lab, m[k].id);
        char *cnt = gr_xasprintf("%d", m[k].students);
        const char *cells[] = {cnt, m[k].id, mc ? mc->name : "(not in this attnlab's lab modules)",
                               mc ? mc->handout : gr_lab_modules[m[k].lab - 1]->dir};
        row_add(&t, cells);
        free(cnt);
    }
    if (n)
        table_put(b, &t, md);
    free(m);
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
            const gr_lab_result *l = gr_student_lab(s, lab);
            late += s->days_late[lab - 1] > 0;
            lost += (l ? l->score : 0) - gr_student_adjusted(c, s, lab);
        }
        char *nl = gr_xasprintf("%d", late), *pl = num(lost);
        const char *cells[] = {gr_lab_modules[lab - 1]->dir, nl, pl};
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
    gr_sb_printf(b, "%sHand-in times: from %s", md ? "\n" : "  ", c->times_from);
    if (with)
        gr_sb_printf(b, " (%d of %d students have one; the others are not late)", with, submitted);
    gr_sb_append(b, md ? ".\n" : "\n");
}

char *gr_class_report(const gr_class *c, int md)
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
    gr_batch_warnings(&b, c, md);
    section_times(&b, c, md);
    section_scores(&b, c, md);
    section_failed(&b, c, md);
    section_misconceptions(&b, c, md);
    section_late(&b, c, md);
    return gr_sb_take(&b);
}

/* ---- the histogram ------------------------------------------------------------------------ */

int gr_class_histogram(FILE *err, const gr_class *c, const char *root, const char *out)
{
    stats s = class_stats(c, 0, 0);
    gr_strbuf b = {0};
    gr_sb_append(&b, "# attnlab batch: students per band of the total, in percent of the maximum\n"
                     "# band_low band_high students\n");
    for (int k = 0; k < N_BINS; k++)
        gr_sb_printf(&b, "%d %d %d\n", 10 * k, k == N_BINS - 1 ? 100 : 10 * k + 9, s.bins[k]);
    char *dat = gr_xasprintf("%s/histogram.dat", out), *png = gr_xasprintf("%s/histogram.png", out);
    int rc = gr_write_file_atomic(dat, b.s, b.len);
    if (rc != 0)
        fprintf(err, "attnlab batch: cannot write %s: %s\n", dat, strerror(errno));
    char note[200], p1[GR_POINTS_LEN], p2[GR_POINTS_LEN];
    snprintf(note, sizeof note, "%d students; mean %.2f, median %s of %s points", s.n, s.mean,
             gr_points(p1, s.median), gr_points(p2, s.max_points));
    const char *args[] = {note, NULL};
    if (rc == 0)
        rc = gr_gnuplot_draw(err, "batch", "batch ... (it resumes)", root, "histogram", dat, png, args);
    free(b.s);
    free(dat);
    free(png);
    return rc;
}
