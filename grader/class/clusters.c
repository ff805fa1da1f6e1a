/* clusters.c: uncatalogued mistakes grouped across a class (see clusters.h). */
#include "class/clusters.h"
#include "base/layout.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/cells.h"
#include "engine/json.h"
#include "report/report.h"

/* One uncatalogued wrong answer of one student. */
typedef struct entry {
    int lab, order;              /* order: the test's place in its lab */
    const gr_test_result *t;
    int student;                 /* index into the class (sorted by id) */
} entry;

static int by_output(const void *a, const void *b)
{
    const entry *x = a, *y = b;
    int d;
    if (x->lab != y->lab)
        return x->lab - y->lab;
    if ((d = strcmp(x->t->name, y->t->name)) != 0)
        return d;
    if ((d = strcmp(x->t->digest, y->t->digest)) != 0)
        return d;
    return x->student - y->student;
}

static entry *collect(const gr_class *c, int *n)
{
    entry *e = NULL;
    *n = 0;
    for (int i = 0; i < c->n; i++) {
        const gr_student *s = &c->students[i];
        if (!s->submitted || s->same_as)      /* a group's other member: the same files */
            continue;
        for (int l = 0; l < s->report.n_labs; l++) {
            const gr_lab_result *lr = &s->report.labs[l];
            for (int j = 0; j < lr->n_tests; j++) {
                const gr_test_result *t = &lr->tests[j];
                if (!t->digest || !t->name || t->verdict != GR_WRONG_ANSWER)
                    continue;
                e = gr_xrealloc(e, (size_t)(*n + 1) * sizeof *e);
                e[(*n)++] = (entry){lr->lab, j, t, i};
            }
        }
    }
    return e;
}

/* A (lab, test, digest) shared by two or more students. */
typedef struct group {
    const entry *first;
    int *students, n;            /* ascending */
} group;

/* Groups of one lab and the same students next to each other. */
static int by_students(const void *a, const void *b)
{
    const group *x = a, *y = b;
    if (x->first->lab != y->first->lab)
        return x->first->lab - y->first->lab;
    if (x->n != y->n)
        return x->n - y->n;
    for (int i = 0; i < x->n; i++)
        if (x->students[i] != y->students[i])
            return x->students[i] - y->students[i];
    return 0;
}

static group *groups_of(const entry *e, int n, int *ng)
{
    group *g = NULL;
    *ng = 0;
    for (int i = 0, j; i < n; i = j) {
        for (j = i + 1; j < n && e[j].lab == e[i].lab && strcmp(e[j].t->name, e[i].t->name) == 0 &&
                        strcmp(e[j].t->digest, e[i].t->digest) == 0; j++)
            ;
        int *st = gr_xcalloc((size_t)(j - i), sizeof *st), k = 0;
        for (int m = i; m < j; m++)
            if (k == 0 || st[k - 1] != e[m].student)
                st[k++] = e[m].student;
        if (k < 2) {
            free(st);
            continue;
        }
        g = gr_xrealloc(g, (size_t)(*ng + 1) * sizeof *g);
        g[(*ng)++] = (group){&e[i], st, k};
    }
    return g;
}


static int by_size(const void *a, const void *b)
{
    const gr_cluster *x = a, *y = b;
    if (x->n_students != y->n_students)
        return y->n_students - x->n_students;
    if (x->n_tests != y->n_tests)
        return y->n_tests - x->n_tests;
    if (x->lab != y->lab)
        return x->lab - y->lab;
    int d = strcmp(x->tests[0].test, y->tests[0].test);
    return d ? d : strcmp(x->tests[0].digest, y->tests[0].digest);
}

/* One cluster from the groups g[0..n) (one lab, the same students). */
static gr_cluster join(const gr_class *c, const group *g, int n)
{
    gr_cluster k = {g[0].first->lab, g[0].n, gr_xcalloc((size_t)g[0].n, sizeof(char *)), n,
                    gr_xcalloc((size_t)n, sizeof(gr_cluster_test))};
    for (int s = 0; s < g[0].n; s++)
        k.students[s] = c->students[g[0].students[s]].id;
    int *order = gr_xcalloc((size_t)n, sizeof *order);
    for (int i = 0; i < n; i++) {
        const gr_test_result *t = g[i].first->t;
        order[i] = g[i].first->order;
        k.tests[i] = (gr_cluster_test){t->name, t->digest, t->excerpt, t->relation};
    }
    /* the rubric's order: insertion sort by each test's place in the lab */
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && order[j - 1] > order[j]; j--) {
            int o = order[j]; order[j] = order[j - 1]; order[j - 1] = o;
            gr_cluster_test t = k.tests[j]; k.tests[j] = k.tests[j - 1]; k.tests[j - 1] = t;
        }
    free(order);
    return k;
}

void gr_clusters_find(const gr_class *c, gr_clusters *out)
{
    memset(out, 0, sizeof *out);
    int n, ng;
    entry *e = collect(c, &n);
    if (n > 1)
        qsort(e, (size_t)n, sizeof *e, by_output);
    group *g = groups_of(e, n, &ng);
    if (ng > 1)
        qsort(g, (size_t)ng, sizeof *g, by_students);
    for (int i = 0, j; i < ng; i = j) {
        for (j = i + 1; j < ng && by_students(&g[i], &g[j]) == 0; j++)
            ;
        out->c = gr_xrealloc(out->c, (size_t)(out->n + 1) * sizeof *out->c);
        out->c[out->n++] = join(c, &g[i], j - i);
    }
    if (out->n > 1)
        qsort(out->c, (size_t)out->n, sizeof *out->c, by_size);
    for (int i = 0; i < ng; i++)
        free(g[i].students);
    free(g);
    free(e);
}
void gr_clusters_free(gr_clusters *cl)
{
    for (int i = 0; i < cl->n; i++) {
        free(cl->c[i].students);
        free(cl->c[i].tests);
    }
    free(cl->c);
    memset(cl, 0, sizeof *cl);
}

/* ---- the report's section ------------------------------------------------------ */

/* s for the medium: a Markdown code span, or text safe on a terminal. */
static void put_text(gr_strbuf *b, const char *s, int md)
{
    if (md)
        gr_md_code(b, s);
    else
        gr_report_term_text(b, s ? s : "");
}

static void put_cluster(gr_strbuf *b, const gr_cluster *k, int number, int md)
{
    const char *lab = gr_layout_dir(k->lab);
    gr_sb_printf(b, md ? "\n### %d. %s: %d students, %d test%s\n\n" : "\n  %d. %s: %d students, %d test%s\n",
                 number, lab, k->n_students, k->n_tests, k->n_tests == 1 ? "" : "s");
    for (int i = 0; i < k->n_tests; i++) {
        const gr_cluster_test *t = &k->tests[i];
        gr_sb_append(b, md ? "- " : "     - ");
        put_text(b, t->test, md);
        gr_sb_append(b, ": ");
        put_text(b, t->excerpt && *t->excerpt ? t->excerpt : "(no excerpt)", md);
        if (t->relation && md) {
            gr_sb_append(b, "; **");
            gr_md_text(b, t->relation);
            gr_sb_append(b, "**");
        } else if (t->relation) {
            gr_sb_append(b, "; ");
            gr_report_term_text(b, t->relation);
        }
        gr_sb_append(b, "\n");
    }
    gr_sb_append(b, md ? "- students: " : "     students: ");
    for (int s = 0; s < k->n_students && s < GR_CLUSTER_IDS_SHOWN; s++) {
        gr_sb_append(b, s ? ", " : "");
        put_text(b, k->students[s], md);
    }
    if (k->n_students > GR_CLUSTER_IDS_SHOWN)
        gr_sb_printf(b, " and %d more (clusters.json lists them all)",
                     k->n_students - GR_CLUSTER_IDS_SHOWN);
    gr_sb_append(b, "\n");
}

void gr_clusters_section(gr_strbuf *b, const gr_class *c, int md)
{
    gr_clusters cl;
    gr_clusters_find(c, &cl);
    gr_sb_append(b, md ? "\n## Mistakes not in the catalogue\n\n" : "\nMistakes not in the catalogue\n");
    gr_sb_append(b, md ? "" : "  ");
    gr_sb_append(b, "Wrong answers on fixed-input tests that matched no known misconception, "
                    "grouped by identical output (rounded to 4 significant digits): each "
                    "cluster is one mistake two or more students made, to reteach and to add "
                    "to the lab's catalogue. Clusters never change a grade.\n");
    if (cl.n == 0)
        gr_sb_append(b, md ? "\nNo two students made the same uncatalogued mistake.\n"
                           : "  no two students made the same uncatalogued mistake\n");
    for (int i = 0; i < cl.n && i < GR_CLUSTERS_SHOWN; i++)
        put_cluster(b, &cl.c[i], i + 1, md);
    if (cl.n > GR_CLUSTERS_SHOWN)
        gr_sb_printf(b, "%s%d smaller clusters more in clusters.json.\n", md ? "\n" : "  ",
                     cl.n - GR_CLUSTERS_SHOWN);
    gr_clusters_free(&cl);
}

/* ---- clusters.json ------------------------------------------------------------------ */

/* One cluster's tests: each one's name, digest, excerpt and relation. */
static json_t *cluster_tests(const gr_cluster *k)
{
    json_t *a = json_array();
    for (int j = 0; j < k->n_tests; j++) {
        const gr_cluster_test *t = &k->tests[j];
        json_t *o = json_object();
        gr_json_put(o, "test", gr_json_text(t->test));
        gr_json_put(o, "digest", gr_json_text(t->digest));
        gr_json_put(o, "excerpt", gr_json_text(t->excerpt));
        gr_json_put(o, "relation", t->relation ? gr_json_text(t->relation) : json_null());
        json_array_append_new(a, o);
    }
    return a;
}

char *gr_clusters_json(const gr_clusters *cl)
{
    json_t *root = json_object(), *all = json_array();
    gr_json_put(root, "note", gr_json_text("uncatalogued wrong answers on fixed-input tests, "
                                           "grouped by identical rounded output; clusters never "
                                           "change a grade"));
    for (int i = 0; i < cl->n; i++) {
        const gr_cluster *k = &cl->c[i];
        json_t *o = json_object(), *students = json_array();
        gr_json_put(o, "lab", json_integer(k->lab));
        gr_json_put(o, "lab_name", gr_json_text(gr_layout_dir(k->lab)));
        gr_json_put(o, "size", json_integer(k->n_students));
        for (int s = 0; s < k->n_students; s++)
            json_array_append_new(students, gr_json_text(k->students[s]));
        gr_json_put(o, "students", students);
        gr_json_put(o, "tests", cluster_tests(k));
        json_array_append_new(all, o);
    }
    gr_json_put(root, "clusters", all);
    char *text = gr_json_dump(root);
    json_decref(root);
    return text;
}

int gr_clusters_write(const gr_class *c, const char *out, char *err, size_t errlen)
{
    gr_clusters cl;
    gr_clusters_find(c, &cl);
    char *text = gr_clusters_json(&cl), *path = gr_xasprintf("%s/clusters.json", out);
    gr_clusters_free(&cl);
    int rc = gr_write_file_atomic(path, text, strlen(text));
    if (rc != 0)
        gr_set_err(err, errlen, "cannot write %s: %s", path, strerror(errno));
    free(text);
    free(path);
    return rc;
}
