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
#include "engine/intake.h"
#include "base/labmod.h"
#include "base/result.h"
#include "base/util.h"

/* A grade set by hand (attnlab override, override.h): a lab's or one test's
   points, or an adjustment added to the lab's score, with its reason. */
typedef struct gr_class_override {
    char *when, *student, *test;  /* test NULL: the lab's score */
    char *reason;
    int lab;
    int adjust;                   /* 1: value is added to the lab; 0: value is the score */
    double value;
} gr_class_override;

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
    double lab_max[GR_N_LABS];    /* each lab's points possible under the rubrics in force
                                     (its rubric's points added up), never a student's */
    const gr_course *course;      /* the policy applied, or NULL */
    gr_course *own_course;        /* the policy read from the class folder, freed with the
                                     class (course points to it), or NULL */
    char *times_from;             /* where the hand-in times came from, for the report */
    int graded_now, resumed;      /* how many were graded by this run, read back */
    int roster;                   /* 1: a roster was read (a folder not on it is noted) */
    double seconds;               /* wall time of this run */
    const char *submissions;      /* the students' folders (batch's, borrowed), or NULL (a
                                     merge): report.html's similar pairs read them */
    gr_class_override *overrides; /* in the order they were made (override.h) */
    int n_overrides;
} gr_class;

/* What a class is graded under. The first batch records each in the class
 * folder (run.txt's setting lines, run.h, and copies of the files beside
 * it: roster.yaml, course.yaml, times.yaml or times.csv, rubrics/), and
 * every later command takes them from there: a setting left off a command
 * line is the recorded one, and one given otherwise than recorded is
 * refused, naming the difference, unless the command asks for the change
 * (batch --change NAME --reason TEXT, recorded in regrades.log). */
typedef enum gr_setting {
    GR_SET_ROSTER,      /* --roster FILE: the file's digest */
    GR_SET_COURSE,      /* --course FILE: the late policy's digest */
    GR_SET_TIMES,       /* --times FILE's digest, or "file-times" (--file-times) */
    GR_SET_RUBRICS,     /* --rubrics DIR (its real path), or "course": where rubrics come
                           from; an edited rubric of the same source is a regrade (regrade.h) */
    GR_SET_LABS,        /* --lab: the labs graded, "1 2 5" */
    GR_SET_SECRET,      /* ATTNLAB_SECRET's keyed digest (run.h) */
    GR_SET_BUILD,       /* the attnlab program's digest (key.h) */
    GR_SET_COUNT
} gr_setting;

typedef struct gr_class_settings {
    char *given[GR_SET_COUNT];    /* as the command line gave it (a file or folder name,
                                     "file-times", the labs), or NULL: none */
    char *value[GR_SET_COUNT];    /* what is compared (see gr_setting), or NULL: none */
} gr_class_settings;

/* A setting's name ("roster", as --change takes it) and the flag or source
   that gives it ("--roster", "ATTNLAB_SECRET"). */
const char *gr_class_setting_name(gr_setting k);
const char *gr_class_setting_flag(gr_setting k);

/* The setting named name, or -1. */
int gr_class_setting_of(const char *name);

/* How setting k of s reads in a message: "--roster roster.yaml (digest
   1a2b3c4d)", "no --roster" (malloc'd). */
char *gr_class_setting_said(const gr_class_settings *s, gr_setting k);

/* Append to why one line for each setting given[k] of now that differs from
   rec (the class's record), unless change[k]: what the class was graded
   with, what this command has, and how to go on. Returns how many. */
int gr_class_settings_differ(const gr_class_settings *rec, const gr_class_settings *now,
                             const int given[GR_SET_COUNT], const int change[GR_SET_COUNT],
                             const char *command, gr_strbuf *why);

/* Setting k of to set to from's (both strings copied; from NULL: none). */
void gr_class_setting_copy(gr_class_settings *to, const gr_class_settings *from, gr_setting k);

void gr_class_settings_free(gr_class_settings *s);

/* The lab result of lab in s's report, or NULL when it was not graded. */
const gr_lab_result *gr_class_lab(const gr_student *s, int lab);

/* s's score for lab as graded, after the overrides of it: the latest points
   of each test overridden replace its score, the latest points of the lab
   replace the sum, and each adjustment made after those is added. */
double gr_class_raw(const gr_class *c, const gr_student *s, int lab);

/* s's score for lab after the overrides and the late policy. */
double gr_class_adjusted(const gr_class *c, const gr_student *s, int lab);

/* A row's first three cells: the student's id, name and email (gr_csv_text),
   as every class CSV starts its rows. */
void gr_class_csv_student(gr_strbuf *b, const gr_student *s);

void gr_class_free(gr_class *c);

#endif
