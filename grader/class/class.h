/* class.h: the model of a class: its students (one gradebook row each,
 * roster facts, hand-in times, the report read back), the class as graded
 * (the labs, the late policy, where the times came from), and each
 * student's score after the late policy. Everything that writes about a
 * class (the gradebook, the reports, the exports, a merge) reads this model
 * and nothing of the batch driver (batch.h) that fills it.
 */
#ifndef GR_CLASS_H
#define GR_CLASS_H

#include <time.h>
#include "class/course.h"
#include "intake.h"
#include "labmod.h"
#include "result.h"
#include "util.h"

/* One row of the gradebook. */
typedef struct gr_student {
    char *id;                     /* the folder's name, or an export's submitter id */
    char *folder;                 /* the submission folder's name, or NULL: none */
    char *same_as;                /* a group's other submitter: the id graded, else NULL */
    char *name, *email;           /* from the roster (or an export), or NULL */
    char *sis_user_id, *sis_login_id, *section;   /* from the roster, or NULL (export.h) */
    int on_roster;
    int submitted;                /* 0: on the roster without a folder */
    int resumed;                  /* its results.json was read from an earlier run */
    time_t when[GR_N_LABS];       /* when each lab was submitted ... */
    int have_when[GR_N_LABS];     /* ... when known */
    int days_late[GR_N_LABS];     /* under the course policy, 0 without one */
    gr_report report;             /* read back from its results.json */
    char *not_graded;             /* why its results could not be read back (the class goes
                                     on, its row empty, a warning names it), or NULL */
    gr_intake intake;             /* where each lab's file was found (submitted only) */
} gr_student;

typedef struct gr_class {
    gr_student *students;         /* sorted by id */
    int n;
    int labs[GR_N_LABS];          /* the labs graded */
    const gr_course *course;      /* the policy applied, or NULL */
    char *times_from;             /* where the hand-in times came from, for the report */
    int graded_now, resumed;      /* how many were graded by this run, read back */
    int roster;                   /* 1: a roster was read (a folder not on it is noted) */
    double seconds;               /* wall time of this run */
    const char *submissions;      /* the students' folders (batch's, borrowed), or NULL (a
                                     merge): report.html's similar pairs read them */
} gr_class;

/* The lab result of lab in s's report, or NULL when it was not graded. */
const gr_lab_result *gr_class_lab(const gr_student *s, int lab);

/* s's score for lab after the late policy (the raw score without one). */
double gr_class_adjusted(const gr_class *c, const gr_student *s, int lab);

/* A row's first three cells: the student's id, name and email (gr_csv_text),
   as every class CSV starts its rows. */
void gr_class_csv_student(gr_strbuf *b, const gr_student *s);

void gr_class_free(gr_class *c);

#endif
