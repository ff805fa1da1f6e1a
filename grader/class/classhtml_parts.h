/* classhtml_parts.h: what the two halves of report.html share (classhtml.c
 * writes the class-wide sections, classhtml_student.c each student's and
 * finds the similar pairs). Internal to the class report. */
#ifndef GR_CLASSHTML_PARTS_H
#define GR_CLASSHTML_PARTS_H

#include "class/classhtml.h"
#include "class/items.h"
#include "util.h"

/* Two students whose files of one lab are similar. */
typedef struct gr_html_pair {
    int lab;
    int a, b;              /* indexes into the class's students */
    double jaccard;
    long shared;
} gr_html_pair;

typedef struct gr_html_sim {
    gr_html_pair *pairs;   /* Jaccard >= GR_HTML_SIM_MIN, per lab most similar first */
    int n;
} gr_html_sim;

/* The similar pairs of every lab graded, from o->submissions (none without). */
void gr_classhtml_sim_load(gr_html_sim *sim, const gr_class *c, const gr_html_opts *o);
void gr_classhtml_sim_free(gr_html_sim *sim);

/* Student i's section, anchored "s<i>". */
void gr_classhtml_student(gr_strbuf *b, const gr_class *c, int i, const gr_html_sim *sim);

/* s escaped for HTML text and attributes (NULL: nothing). */
void gr_classhtml_esc(gr_strbuf *b, const char *s);
/* A score exactly (gr_points). */
void gr_classhtml_points(gr_strbuf *b, double x);
/* The index of the student with this id, or -1. */
int gr_classhtml_student_index(const gr_class *c, const char *id);
/* The id, escaped, as a link to the student's section. */
void gr_classhtml_student_link(gr_strbuf *b, const gr_class *c, const char *id);

#endif
