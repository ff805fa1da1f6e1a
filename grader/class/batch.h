/* batch.h: grading a whole class (attnlab batch).
 *
 * SUBMISSIONS holds one folder per student, named by the student's id. Each
 * lab is found as intake.h says: the labs/ layout (ID/lab01-scores/lab01.c)
 * or a flat upload (ID/lab01.c, as Gradescope and LMS downloads give them),
 * in any case and inside a wrapping folder; every file of the student's is
 * read through gr_intake_read.
 * Students are graded in worker processes (pool.h), one student per worker;
 * each worker writes OUT/students/ID/feedback.txt and then results.json, each
 * atomically, so a results.json that exists is a whole grade, then a key of
 * what the grade was made from (attnlab itself, each lab's rubric, contract
 * header and the student's file, keyed with the secret). A run that is
 * stopped (Ctrl-C, kill, even kill -9) and started again reads back every
 * results.json whose key still holds (report_read.c) and grades the other
 * students: no grade is lost or made twice, and none outlives a resubmission,
 * a rubric fix, a new secret or a new attnlab.
 *
 * Ids and hand-in times come from the instructor's side only (handin.h),
 * never from a file in a student's folder. A Gradescope export (the folders
 * and, beside them, its submission_metadata.yml) names each student as
 * run_autograder does and gives each submission's time; else a folder's name
 * is the id. --times FILE gives the times in place of the export's; the lab
 * files' modification times count only with --file-times. A student with no
 * known time is not late. With a late policy (course.h), a class where more
 * than half would lose points for lateness, or any time after the batch
 * started, is refused before anything is graded or written, unless
 * accept_late.
 */
#ifndef GR_BATCH_H
#define GR_BATCH_H

#include <stdio.h>
#include <time.h>
#include "class/course.h"
#include "intake.h"
#include "labmod.h"
#include "result.h"

typedef struct gr_batch_opts {
    const char *root, *child_dir;  /* the attnlab tree and the child objects (gr_layout_locate) */
    const char *rubrics;          /* folder of rubrics, or NULL: the course's */
    const char *secret;           /* instructor secret, part of every seed */
    const char *submissions;      /* one folder per student */
    const char *out;              /* where results, gradebook and report go */
    const char *roster;           /* roster YAML, or NULL */
    const gr_course *course;      /* late policy, or NULL: none */
    int labs[GR_N_LABS];          /* labs[i] != 0: grade lab i+1 */
    int jobs;                     /* students graded at once */
    int restart;                  /* 1: regrade everyone, ignoring earlier results */
    const char *reason;           /* --reason: why, for each regrade recorded (regrade.h) */
    const char *lab_reason[GR_N_LABS];   /* --reason labNN=TEXT: one lab's, before reason */
    const char *times;            /* --times FILE, or NULL */
    int file_times;               /* 1: the lab files' modification times are the times */
    int accept_late;              /* 1: grade even when the guard rails would refuse */
    FILE *progress;               /* progress and notes, or NULL */
    int progress_bar;             /* 1: a bar redrawn in place (a terminal), 0: lines */
    int shard_k, shard_n;         /* --shard K/N: only the students of slice K (shard.h);
                                     0 0: the whole class */
    const char *course_file;      /* the course.yaml of course, copied into out (shard.h) */
} gr_batch_opts;

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

/* Grade every student of o->submissions into o->out and fill cls (free with
   gr_class_free). 0, or a GR_STATUS_* code (status.h) with err: a bad
   roster or rubric is GR_STATUS_BAD_INPUT, a stop GR_STATUS_STOPPED (every
   student graded so far keeps their results.json). */
int gr_batch_run(const gr_batch_opts *o, gr_class *cls, char *err, size_t errlen);

/* The digest a key is made of: two SipHash-2-4 values of data under fixed
   public keys, as 32 hex digits (malloc'd). */
char *gr_batch_digest(const char *data, size_t len);

/* The digest of the running attnlab program (malloc'd): a rebuilt grader may
   grade otherwise. */
char *gr_batch_program_digest(void);

/* Lab lab's rubric and contract header, tagged with their lengths, into m:
   what every key of the lab covers besides the student's file. */
void gr_batch_lab_files(gr_strbuf *m, const gr_batch_opts *o, int lab);

/* The lab result of lab in s's report, or NULL when it was not graded. */
const gr_lab_result *gr_student_lab(const gr_student *s, int lab);

/* s's score for lab after the late policy (the raw score without one). */
double gr_student_adjusted(const gr_class *c, const gr_student *s, int lab);

/* Append the warnings block to b (Markdown when md is 1, else text), nothing
   when all is well: empty submissions, those found by a forgiving rule
   (intake.h), folders not on the roster, roster students with no folder,
   each lab's missing files and the files not graded (ambiguous, or not a
   regular file), each line with its count and the first few ids. */
void gr_batch_warnings(gr_strbuf *b, const gr_class *c, int md);

/* Read the roster at path into c (class/roster.c): each student's name, email and the
   optional sis_user_id, sis_login_id and section (an LMS export's columns);
   roster students without a folder become rows of their own. 0, or -1 with
   "path:line:column: ..." in err. */
int gr_roster_load(const char *path, gr_class *c, char *err, size_t errlen);

void gr_class_free(gr_class *c);

#endif
