/* learner.h: what `attnlab status` and `attnlab watch` share: the tree and
 * the submission, grading a lab's visible tests (fast, in parallel), the
 * saved progress (progress.h), and the words that say what to do next. */
#ifndef GR_LEARNER_H
#define GR_LEARNER_H

#include <limits.h>
#include <stdio.h>

#include "engine/grade.h"
#include "learn/progress.h"

typedef struct gr_learner {
    const char *cmd;                 /* "status", "watch": named in every message */
    char root[PATH_MAX];             /* the attnlab tree */
    char child_dir[PATH_MAX];         /* the grader's prebuilt child objects */
    char tree[PATH_MAX];             /* the submission's real path, the progress key */
    char *progress_path;             /* the progress file, or NULL when there is none */
    gr_progress progress;            /* this tree's records */
    gr_grade_opts opts;              /* visible tests only, one worker per core */
} gr_learner;

/* Set L up for command cmd: the tree at root and the child objects in child_dir
   (both NULL: found from where attnlab lives), the submission folder
   submission (NULL: gr_layout_default_submission), and its saved progress. A progress
   file that cannot be read is said on err and then ignored. 0, or
   GR_EXIT_USAGE after one line on err. */
int gr_learner_open(gr_learner *L, FILE *err, const char *cmd, const char *root,
                    const char *child_dir, const char *submission);

/* Grade the visible tests of the labs with want[lab - 1] set into r (in
   course order; a lab whose file is still the pristine stub is not built:
   every visible test is "not implemented" from its rubric alone), record
   them in the progress and save it (a failed save is said on err, never
   fatal). 0; GR_EXIT_FAILED or GR_EXIT_USAGE after one line on err; or the
   process ends by the signal that stopped it. */
int gr_learner_grade(gr_learner *L, FILE *err, const int want[GR_N_LABS], gr_report *r);

/* The folder that holds the lab's file, as grading finds it (intake.h):
   <submission>/<labNN-name> in the labs/ layout, <submission> for a flat
   lab01.c; the labs/ layout's when the file is missing or ambiguous (malloc'd). */
char *gr_learner_lab_dir(const gr_learner *L, int lab);

/* Print what to do next about lab lr, graded: where to start, why it does
   not build, or its first failing test with the misconception it looks like
   and the handout section to reread; each line behind indent. */
void gr_learner_hint(FILE *out, const gr_lab_result *lr, const char *indent);

void gr_learner_close(gr_learner *L);

/* What `attnlab grade` adds to the visible tests here, for a sentence ending
   "'attnlab grade' ...": "runs the hidden tests too" when the rubrics of L's
   tree hold a test that is not visible (the course's tree), else "grades the
   same visible tests; the course grades hidden ones too" (the student kit,
   whose rubrics hold the visible tests only). Static text. */
const char *gr_learner_grade_adds(const gr_learner *L);

#endif
