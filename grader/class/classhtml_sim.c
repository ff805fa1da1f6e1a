/* classhtml_sim.c: the similar lab files report.html lists (see classhtml.h):
 * each lab's files compared as attnlab similarity compares them
 * (similarity.h), students named by the class's ids, a file handed in by
 * several students one group, and the pairs of different files at
 * GR_HTML_SIM_MIN or more, GR_HTML_SIM_TOP per lab and a count of the rest. */
#include "class/classhtml_parts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "class/similarity.h"

/* The index in names[0..n) of name, or -1. */
static int name_index(char *const *names, int n, const char *name)
{
    for (int k = 0; k < n; k++)
        if (strcmp(names[k], name) == 0)
            return k;
    return -1;
}

/* The class index of the student whose folder is name, or -1. */
static int who_of(char *const *names, const int *who, int n, const char *name)
{
    int k = name_index(names, n, name);
    return k < 0 ? -1 : who[k];
}

/* Each identical file of l with its students into sim->groups, largest first. */
static void lab_groups(gr_html_sim *sim, const gr_sim_lab *l, char *const *names, const int *who,
                       int n)
{
    int *order, n_groups = gr_sim_groups(l, &order);
    for (int o = 0; o < n_groups; o++) {
        const gr_sim_doc *doc = &l->docs[order[o]];
        gr_html_group g = {l->lab, gr_xcalloc((size_t)doc->n_same + 1, sizeof(int)), 0};
        for (int i = 0; i <= doc->n_same; i++) {
            int k = who_of(names, who, n, i ? doc->same[i - 1] : doc->student);
            if (k >= 0)
                g.who[g.n++] = k;
        }
        if (g.n < 2) {
            free(g.who);
            continue;
        }
        sim->groups = gr_xrealloc(sim->groups, (size_t)(sim->n_groups + 1) * sizeof *sim->groups);
        sim->groups[sim->n_groups++] = g;
    }
    free(order);
}

/* One lab's pairs at GR_HTML_SIM_MIN or more into sim, the first
   GR_HTML_SIM_TOP listed and the rest counted. */
static void lab_pairs(gr_html_sim *sim, const gr_sim_lab *l, char *const *names, const int *who, int n)
{
    int listed = 0;
    for (long p = 0; p < l->n_pairs; p++) {
        const gr_sim_pair *q = &l->pairs[p];
        if (q->jaccard < GR_HTML_SIM_MIN)
            break;                           /* most similar first */
        int a = who_of(names, who, n, l->docs[q->a].student), b = who_of(names, who, n, l->docs[q->b].student);
        if (a < 0 || b < 0)
            continue;
        if (listed++ >= GR_HTML_SIM_TOP) {
            sim->more[l->lab - 1]++;
            continue;
        }
        sim->pairs = gr_xrealloc(sim->pairs, (size_t)(sim->n + 1) * sizeof *sim->pairs);
        sim->pairs[sim->n++] = (gr_html_pair){l->lab, a, b, q->jaccard, q->shared};
    }
}

void gr_classhtml_sim_load(gr_html_sim *sim, const gr_class *c, const gr_html_opts *o)
{
    memset(sim, 0, sizeof *sim);
    if (!o->submissions || !o->root)
        return;
    char **names = gr_xcalloc((size_t)c->n + 1, sizeof *names);
    int *who = gr_xcalloc((size_t)c->n + 1, sizeof *who), n = 0;
    for (int i = 0; i < c->n; i++)
        if (c->students[i].submitted && c->students[i].folder) {
            names[n] = c->students[i].folder;
            who[n++] = i;
        }
    /* files skipped (links, too large) are the warnings block's and the verdicts' news */
    char *skipped = NULL;
    size_t len = 0;
    FILE *warn = open_memstream(&skipped, &len);
    for (int lab = 1; warn && lab <= GR_N_LABS; lab++) {
        if (!c->labs[lab - 1])
            continue;
        gr_sim_lab l;
        char err[512];
        if (gr_sim_lab_load(&l, o->root, o->submissions, names, n, lab, GR_SIM_K, GR_SIM_W,
                            GR_SIM_MAX_FILES, warn, err, sizeof err) != 0)
            continue;
        lab_groups(sim, &l, names, who, n);
        lab_pairs(sim, &l, names, who, n);
        gr_sim_lab_free(&l);
    }
    if (warn)
        fclose(warn);
    free(skipped);
    free(names);
    free(who);
}

void gr_classhtml_sim_free(gr_html_sim *sim)
{
    for (int g = 0; g < sim->n_groups; g++)
        free(sim->groups[g].who);
    free(sim->groups);
    free(sim->pairs);
    memset(sim, 0, sizeof *sim);
}

const gr_html_group *gr_classhtml_group_of(const gr_html_sim *sim, int lab, int i)
{
    for (int g = 0; g < sim->n_groups; g++)
        for (int k = 0; sim->groups[g].lab == lab && k < sim->groups[g].n; k++)
            if (sim->groups[g].who[k] == i)
                return &sim->groups[g];
    return NULL;
}

void gr_classhtml_file_link(gr_strbuf *b, const gr_class *c, const gr_html_sim *sim, int lab, int i)
{
    const gr_html_group *g = gr_classhtml_group_of(sim, lab, i);
    gr_classhtml_student_link(b, c, c->students[g ? g->who[0] : i].id);
    if (g)
        gr_sb_printf(b, " <span class=\"muted\">+%d with the same file</span>", g->n - 1);
}
