/* batch_opts.h: what one attnlab batch run is asked to do (its command
 * line). The driver (batch.h) runs it; the steps beside it (shard, regrade,
 * the hand-in times, the key of a grade) read it, so it has a header of its
 * own and none of them includes the driver.
 */
#ifndef GR_BATCH_OPTS_H
#define GR_BATCH_OPTS_H

#include <stdio.h>
#include "class/class.h"
#include "class/course.h"
#include "base/labmod.h"

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
    const char *times_name;       /* how the report names it: the file the class was first
                                     given when times is its copy (batch_settings.h), or NULL */
    int file_times;               /* 1: the lab files' modification times are the times */
    int accept_late;              /* 1: grade even when the guard rails would refuse */
    FILE *progress;               /* progress and notes, or NULL */
    int progress_bar;             /* 1: a bar redrawn in place (a terminal), 0: lines */
    int shard_k, shard_n;         /* --shard K/N: only the students of slice K (shard.h);
                                     0 0: the whole class */
    const char *course_file;      /* the course.yaml of course, copied into out (run.h) */
    int labs_given;               /* 1: --lab was given; 0: the class's recorded labs, or all */
    int change[GR_SET_COUNT];     /* --change NAME: setting NAME may differ from what the
                                     class recorded (class.h), recorded with reason */
    /* Called with the options in force (the command's, completed from the class's
       record) before anything is graded or written: 0 to go on, else refused,
       said on stderr. batch's proof of a changed rubric (validate, a layer
       above); NULL: none. */
    int (*before_grading)(const struct gr_batch_opts *o);
} gr_batch_opts;

#endif
