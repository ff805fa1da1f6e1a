/* items.c: item analysis, verdicts and misconceptions across a class (see
 * items.h), and tests.csv. */
#include "class/items.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/cells.h"

/* ---- statistics ------------------------------------------------------------------ */

double gr_items_point_biserial(const double *x, const double *y, int n)
{
    if (n < 2)
        return NAN;
    double mx = 0, my = 0;
    for (int i = 0; i < n; i++) {
        mx += x[i];
        my += y[i];
    }
    mx /= n;
    my /= n;
    double sxy = 0, sxx = 0, syy = 0;
    for (int i = 0; i < n; i++) {
        sxy += (x[i] - mx) * (y[i] - my);
        sxx += (x[i] - mx) * (x[i] - mx);
        syy += (y[i] - my) * (y[i] - my);
    }
    /* sums of a few dozen scores of quarter points: variance below this is none */
    if (sxx < 1e-12 || syy < 1e-12)
        return NAN;
    return sxy / sqrt(sxx * syy);
}

static int descending(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x < y) - (x > y);
}

/* Mean x of the g places at one end of the ranking: sign 1 the highest ranks,
   -1 the lowest. Students strictly inside the group count whole; those tied
   at its edge share the places left equally. */
static double group_mean(const double *x, const double *rank, int n, int g, int sign)
{
    double *r = gr_xmalloc((size_t)n * sizeof *r);
    for (int i = 0; i < n; i++)
        r[i] = sign * rank[i];
    qsort(r, (size_t)n, sizeof *r, descending);
    double edge = r[g - 1];                  /* the g-th place from that end */
    free(r);
    int inside = 0, tied = 0;
    double sum_in = 0, sum_tied = 0;
    for (int i = 0; i < n; i++) {
        if (sign * rank[i] > edge) {
            inside++;
            sum_in += x[i];
        } else if (sign * rank[i] == edge) {
            tied++;
            sum_tied += x[i];
        }
    }
    return (sum_in + sum_tied * (double)(g - inside) / tied) / g;
}

double gr_items_upper_lower(const double *x, const double *rank, int n)
{
    if (n < 2)
        return NAN;
    int g = (int)lround(n * GR_ITEMS_GROUP);
    if (g < 1)
        g = 1;
    return group_mean(x, rank, n, g, 1) - group_mean(x, rank, n, g, -1);
}

/* ---- who attempted what -------------------------------------------------------------- */

static int file_not_taken(gr_verdict v)
{
    return v == GR_MISSING || v == GR_AMBIGUOUS || v == GR_UNREADABLE;
}

int gr_items_attempted(const gr_lab_result *l)
{
    if (!l)
        return 0;
    for (int j = 0; j < l->n_tests; j++)
        if (l->tests[j].verdict != GR_NOT_IMPLEMENTED && !file_not_taken(l->tests[j].verdict))
            return 1;
    return 0;
}

/* The test called name in l, or NULL. */
static const gr_test_result *test_in(const gr_lab_result *l, const char *name)
{
    for (int j = 0; l && j < l->n_tests; j++)
        if (strcmp(l->tests[j].name, name) == 0)
            return &l->tests[j];
    return NULL;
}

/* The fraction of t's points earned (its verdict when it is worth nothing). */
static double earned(const gr_test_result *t)
{
    if (t->max_score > 0)
        return t->score / t->max_score;
    return t->verdict == GR_PASSED;
}

/* ---- the items ------------------------------------------------------------------------ */

/* Every test of every lab, in lab order and then in the order the reports
   first list them. */
static void list_items(const gr_class *c, gr_items *it)
{
    for (int lab = 1; lab <= GR_N_LABS; lab++) {
        if (!c->labs[lab - 1])
            continue;
        for (int i = 0; i < c->n; i++) {
            const gr_lab_result *l = gr_class_lab(&c->students[i], lab);
            for (int j = 0; l && j < l->n_tests; j++) {
                const gr_test_result *t = &l->tests[j];
                int k = it->n - 1;
                while (k >= 0 && !(it->items[k].lab == lab && strcmp(it->items[k].test, t->name) == 0))
                    k--;
                if (k >= 0)
                    continue;
                it->items = gr_xrealloc(it->items, (size_t)(it->n + 1) * sizeof *it->items);
                gr_item *m = &it->items[it->n++];
                memset(m, 0, sizeof *m);
                m->lab = lab;
                m->test = t->name;
                m->max_score = t->max_score;
                m->visibility = t->visibility;
            }
        }
    }
}

/* Difficulty, discrimination and flags of m over the students who attempted
   its lab. */
static void analyse_item(const gr_class *c, gr_item *m)
{
    double *x = gr_xcalloc((size_t)c->n + 1, sizeof *x), *rest = gr_xcalloc((size_t)c->n + 1, sizeof *rest);
    int n = 0;
    double sum = 0;
    for (int i = 0; i < c->n; i++) {
        const gr_lab_result *l = gr_class_lab(&c->students[i], m->lab);
        const gr_test_result *t = test_in(l, m->test);
        if (!c->students[i].submitted || !t || !gr_items_attempted(l))
            continue;
        x[n] = earned(t);
        rest[n] = l->score - t->score;
        sum += x[n];
        m->verdicts[t->verdict]++;
        t->verdict == GR_PASSED ? m->passed++ : m->failed++;
        n++;
    }
    m->attempted = n;
    m->difficulty = n ? sum / n : (double)NAN;
    m->r_pb = gr_items_point_biserial(x, rest, n);
    m->d_index = gr_items_upper_lower(x, rest, n);
    if (n > 0 && m->passed == n)
        m->flags |= GR_ITEM_ALL_PASS;
    if (n > 0 && m->passed == 0)
        m->flags |= GR_ITEM_NONE_PASS;
    if (!isnan(m->r_pb) && m->r_pb < GR_ITEMS_NEGATIVE)
        m->flags |= GR_ITEM_NEGATIVE;
    free(x);
    free(rest);
}

/* ---- verdicts and misconceptions -------------------------------------------------------- */

/* The verdicts the class report summarises: every failure that is not a
   wrong answer or a stub (those are the items' and misconceptions' business). */
static int summarised(gr_verdict v)
{
    return v != GR_PASSED && v != GR_WRONG_ANSWER && v != GR_NOT_IMPLEMENTED;
}

static void add_student(const char ***ids, int *n, const char *id)
{
    if (*n > 0 && (*ids)[*n - 1] == id)       /* students come in class order: once each */
        return;
    *ids = gr_xrealloc(*ids, (size_t)(*n + 1) * sizeof **ids);
    (*ids)[(*n)++] = id;
}

static void list_verdicts(const gr_class *c, gr_items *it)
{
    for (int lab = 1; lab <= GR_N_LABS; lab++) {
        if (!c->labs[lab - 1])
            continue;
        for (int v = 0; v < GR_VERDICT_COUNT; v++) {
            if (!summarised((gr_verdict)v))
                continue;
            gr_item_verdict row = {lab, (gr_verdict)v, NULL, 0};
            for (int i = 0; i < c->n; i++) {
                const gr_lab_result *l = gr_class_lab(&c->students[i], lab);
                for (int j = 0; c->students[i].submitted && l && j < l->n_tests; j++)
                    if (l->tests[j].verdict == (gr_verdict)v)
                        add_student(&row.students, &row.n, c->students[i].id);
            }
            if (row.n == 0)
                continue;
            it->verdicts = gr_xrealloc(it->verdicts, (size_t)(it->n_verdicts + 1) * sizeof *it->verdicts);
            it->verdicts[it->n_verdicts++] = row;
        }
    }
}

static int by_students(const void *a, const void *b)
{
    const gr_item_shown *x = a, *y = b;
    if (x->n != y->n)
        return y->n - x->n;
    return x->lab != y->lab ? x->lab - y->lab : strcmp(x->id, y->id);
}

static void list_shown(const gr_class *c, gr_items *it)
{
    for (int i = 0; i < c->n; i++) {
        const gr_student *s = &c->students[i];
        for (int l = 0; s->submitted && l < s->report.n_labs; l++) {
            const gr_lab_result *lr = &s->report.labs[l];
            if (!gr_items_attempted(lr))
                continue;
            for (int j = 0; j < lr->n_tests; j++) {
                const char *id = lr->tests[j].misconception;
                if (!id)
                    continue;
                int k = 0;
                while (k < it->n_shown && !(it->shown[k].lab == lr->lab && strcmp(it->shown[k].id, id) == 0))
                    k++;
                if (k == it->n_shown) {
                    it->shown = gr_xrealloc(it->shown, (size_t)(k + 1) * sizeof *it->shown);
                    it->shown[k] = (gr_item_shown){lr->lab, id, gr_misconception_of(lr->lab, id), NULL, 0};
                    it->n_shown++;
                }
                add_student(&it->shown[k].students, &it->shown[k].n, s->id);
            }
        }
    }
    if (it->n_shown > 0)
        qsort(it->shown, (size_t)it->n_shown, sizeof *it->shown, by_students);
}

/* ---- the class ------------------------------------------------------------------------- */

void gr_items_analyse(const gr_class *c, gr_items *it)
{
    memset(it, 0, sizeof *it);
    for (int i = 0; i < c->n; i++) {
        const gr_student *s = &c->students[i];
        for (int lab = 1; s->submitted && lab <= GR_N_LABS; lab++) {
            if (!c->labs[lab - 1])
                continue;
            const gr_lab_result *l = gr_class_lab(s, lab);
            if (gr_items_attempted(l))
                it->attempted[lab - 1]++;
            else if (!l || l->n_tests == 0 || file_not_taken(l->tests[0].verdict))
                it->missing[lab - 1]++;
            else
                it->not_started[lab - 1]++;
        }
    }
    list_items(c, it);
    for (int k = 0; k < it->n; k++)
        analyse_item(c, &it->items[k]);
    list_verdicts(c, it);
    list_shown(c, it);
}

void gr_items_free(gr_items *it)
{
    for (int k = 0; k < it->n_verdicts; k++)
        free(it->verdicts[k].students);
    for (int k = 0; k < it->n_shown; k++)
        free(it->shown[k].students);
    free(it->items);
    free(it->verdicts);
    free(it->shown);
    memset(it, 0, sizeof *it);
}

const char *gr_items_flag_text(char *buf, size_t len, int flags)
{
    snprintf(buf, len, "%s%s%s%s%s", flags & GR_ITEM_ALL_PASS ? "passed by everyone" : "",
             (flags & GR_ITEM_ALL_PASS) && (flags & ~GR_ITEM_ALL_PASS) ? "; " : "",
             flags & GR_ITEM_NONE_PASS ? "passed by no one" : "",
             (flags & GR_ITEM_NONE_PASS) && (flags & GR_ITEM_NEGATIVE) ? "; " : "",
             flags & GR_ITEM_NEGATIVE ? "negative discrimination: check the rubric" : "");
    return buf;
}

/* ---- tests.csv ---------------------------------------------------------------------- */

char *gr_items_csv(const gr_class *c, const gr_items *it, int bom)
{
    gr_strbuf b = {0};
    if (bom)
        gr_sb_append(&b, GR_CSV_BOM);
    gr_sb_append(&b, "Student ID,Name,Email");
    double total = 0;
    for (int k = 0; k < it->n; k++) {
        char *name = gr_xasprintf("%s.%s", gr_lab_modules[it->items[k].lab - 1]->dir, it->items[k].test);
        gr_sb_append(&b, ",");
        gr_csv_text(&b, name);
        free(name);
        total += it->items[k].max_score;
    }
    gr_sb_append(&b, ",Total\r\nPoints possible,,");
    for (int k = 0; k < it->n; k++) {
        gr_sb_append(&b, ",");
        gr_csv_points(&b, it->items[k].max_score);
    }
    gr_sb_append(&b, ",");
    gr_csv_points(&b, total);
    gr_sb_append(&b, "\r\n");
    for (int i = 0; i < c->n; i++) {
        const gr_student *s = &c->students[i];
        gr_class_csv_student(&b, s);
        double sum = 0;
        for (int k = 0; k < it->n; k++) {
            const gr_test_result *t = test_in(gr_class_lab(s, it->items[k].lab), it->items[k].test);
            gr_sb_append(&b, ",");
            if (s->submitted) {             /* nothing handed in: empty, not a 0 grade */
                gr_csv_points(&b, t ? t->score : 0);
                sum += t ? t->score : 0;
            }
        }
        gr_sb_append(&b, ",");
        if (s->submitted)
            gr_csv_points(&b, sum);
        gr_sb_append(&b, "\r\n");
    }
    return gr_sb_take(&b);
}
