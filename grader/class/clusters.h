/* clusters.h: mistakes nobody has catalogued yet, found by the class itself.
 *
 * On a fixed-input test identical wrong code gives identical output, so the
 * grading loop keeps, for each wrong answer no misconception matched, a
 * digest of the rounded output, an excerpt and a relation to the expected
 * output (digest.h). Over a batch, students are grouped by (lab, test,
 * digest); groups of two or more students are clusters, and the clusters of
 * one lab made by exactly the same students are joined into one (one mistake
 * shows in every fixed test it breaks). Each cluster gives its lab, its
 * students, and per test the representative excerpt and relation; largest
 * first. attnlab batch (and merge) writes them into report.md and
 * report.html ("Mistakes not in the catalogue") and clusters.json, so the instructor can reteach each and add
 * it to the lab's catalogue (grader/labs/labNN.c).
 *
 * Clusters are a report and never change a grade: the digest is keyed with
 * the grading secret (nobody without it can aim for another student's
 * cluster), and joining a cluster does nothing to a score. Every text is
 * escaped for its medium (Markdown, terminal, JSON).
 */
#ifndef GR_CLUSTERS_H
#define GR_CLUSTERS_H

#include "class/class.h"

/* One test on which every student of a cluster answered alike. */
typedef struct gr_cluster_test {
    const char *test;            /* the rubric test's name (borrowed from the class) */
    const char *digest;          /* the output's digest */
    const char *excerpt;         /* the first mismatch, from the first student */
    const char *relation;        /* to the expected output, or NULL */
} gr_cluster_test;

typedef struct gr_cluster {
    int lab;
    int n_students;
    const char **students;       /* ids, sorted (borrowed from the class) */
    int n_tests;
    gr_cluster_test *tests;      /* in the rubric's order */
} gr_cluster;

typedef struct gr_clusters {
    gr_cluster *c;               /* most students first, then most tests, then lab */
    int n;
} gr_clusters;

/* The clusters of class c into out (free with gr_clusters_free); out borrows
   c's strings, so c must outlive it. */
void gr_clusters_find(const gr_class *c, gr_clusters *out);

void gr_clusters_free(gr_clusters *cl);

/* The report's section "Mistakes not in the catalogue": Markdown when md is
   1, else text for a terminal; at most GR_CLUSTERS_SHOWN clusters and
   GR_CLUSTER_IDS_SHOWN ids each (clusters.json has them all). */
#define GR_CLUSTERS_SHOWN 20
#define GR_CLUSTER_IDS_SHOWN 30
void gr_clusters_section(gr_strbuf *b, const gr_class *c, int md);

/* report.html's section (id "clusters"): every cluster, largest first, in a
   table of lab, size, each test's excerpt and relation, and the students
   linked to their sections; every text HTML-escaped (clusters_html.c). */
void gr_clusters_html(gr_strbuf *b, const gr_class *c);

/* clusters.json's text (malloc'd): {"clusters": [{"lab", "lab_name", "size",
   "students", "tests": [{"test", "digest", "excerpt", "relation"}]}], ...}. */
char *gr_clusters_json(const gr_clusters *cl);

/* Write out/clusters.json for class c, atomically. 0, or -1 with err. */
int gr_clusters_write(const gr_class *c, const char *out, char *err, size_t errlen);

#endif
