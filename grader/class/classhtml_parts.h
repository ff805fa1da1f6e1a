/* classhtml_parts.h: what the two halves of report.html share (classhtml.c
 * writes the class-wide sections, classhtml_glance.c the first screen,
 * classhtml_student.c each student's,
 * classhtml_sim.c finds the similar pairs). Internal to the class report. */
#ifndef GR_CLASSHTML_PARTS_H
#define GR_CLASSHTML_PARTS_H

#include "class/classhtml.h"
#include "class/items.h"
#include "base/util.h"

/* Two different files of one lab that are similar, each named by its first
   student (the others who handed in the same file are its group's). */
typedef struct gr_html_pair {
    int lab;
    int a, b;              /* indexes into the class's students */
    double jaccard;
    long shared;
} gr_html_pair;

/* Students of one lab who handed in exactly the same file. */
typedef struct gr_html_group {
    int lab;
    int *who;              /* indexes into the class's students; who[0] names it in pairs */
    int n;                 /* 2 or more */
} gr_html_group;

typedef struct gr_html_sim {
    gr_html_pair *pairs;   /* Jaccard >= GR_HTML_SIM_MIN, per lab most similar first */
    int n;
    gr_html_group *groups; /* per lab in student order */
    int n_groups;
    long more[GR_N_LABS];  /* pairs of lab i+1 at GR_HTML_SIM_MIN or more not listed */
} gr_html_sim;

/* Pairs listed per lab, most similar first; the section says how many more. */
#define GR_HTML_SIM_TOP 100

/* The similar pairs and identical groups of every lab graded, from
   o->submissions (none without; classhtml_sim.c). */
void gr_classhtml_sim_load(gr_html_sim *sim, const gr_class *c, const gr_html_opts *o);
void gr_classhtml_sim_free(gr_html_sim *sim);

/* The group of lab that student i is in, or NULL. */
const gr_html_group *gr_classhtml_group_of(const gr_html_sim *sim, int lab, int i);

/* Student i's file of lab as a pair names it: its group's first student, or i. */
void gr_classhtml_file_link(gr_strbuf *b, const gr_class *c, const gr_html_sim *sim, int lab, int i);

/* The first screen: tests to check, the late list, the class ranked by final
   grade (classhtml_glance.c). */
void gr_classhtml_glance(gr_strbuf *b, const gr_class *c, const gr_items *it);

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
