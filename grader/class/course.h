/* course.h: a course's late policy (course.yaml), applied by attnlab batch.
 *
 *     # course.yaml
 *     due:                          # lab number: due date, ISO 8601 with its UTC offset
 *       1: 2025-02-07T23:59:00-05:00
 *       2: 2025-02-14T23:59:00-05:00
 *     grace_minutes: 15             # this late still counts as on time
 *     late_penalty_percent: 10      # per day late, of the lab's score
 *     max_late_days: 3              # later than this the lab scores 0
 *
 * A lab submitted after due + grace is late by ceil((submitted - due) / 1 day)
 * days and keeps (100 - days * penalty)% of its score (never below 0); more
 * than max_late_days days late, it keeps nothing. A lab with no due date is
 * never late. Every key but due is optional (0 grace, 0 penalty, no maximum).
 *
 *     extensions:                   # per student: lab number: extra days
 *       s001: {1: 2}                # s001's lab 1 is due 2 days later
 *
 * An extension names a student by the id the gradebook uses (batch.h) and a
 * lab that has a due date; days may be fractional (0.5 is 12 hours).
 * data/course.example.yaml is a complete example.
 */
#ifndef GR_COURSE_H
#define GR_COURSE_H

#include <stddef.h>
#include <time.h>
#include "base/labmod.h"

/* One student's extra days for one lab (extensions: in course.yaml). */
typedef struct gr_extension {
    char *id;                     /* the student's id, as the gradebook names them */
    int lab;
    double days;                  /* added to the lab's due date for this student */
    int line, column;             /* where the id is in course.yaml, for messages */
    int lab_line, lab_column;     /* where the lab number is */
} gr_extension;

typedef struct gr_course {
    int has_due[GR_N_LABS];       /* lab i+1 has a due date */
    time_t due[GR_N_LABS];        /* seconds since the epoch (UTC) */
    long grace_seconds;
    double penalty_percent;       /* of the lab's score, per day late */
    int max_late_days;            /* -1: no maximum */
    gr_extension *ext;            /* per-student extensions */
    int n_ext;
    char *path;                   /* the file read, for messages */
} gr_course;

/* Load a course.yaml. 0, or -1 with "path:line:column: what is wrong" in err
   (nothing to free then). Free with gr_course_free. */
int gr_course_load(const char *path, gr_course *out, char *err, size_t errlen);
void gr_course_free(gr_course *c);

/* Read an ISO 8601 time with its offset, "2025-02-07T23:59:00-05:00",
   "2025-02-07 23:59Z" or Gradescope's "2025-02-07T23:59:00.123456-05:00"
   (seconds and their fraction optional, 'T' or a space, Z or +HH:MM, -HHMM).
   0 with *t, or -1. */
int gr_parse_time(const char *s, time_t *t);

/* Days lab is late for student id (NULL: no extension applies) when
   submitted at `submitted` under c: 0 when on time (within the grace and the
   student's extension, or no due date). */
int gr_course_days_late(const gr_course *c, const char *id, int lab, time_t submitted);

/* raw, adjusted for days_late days late under c. */
double gr_course_adjust(const gr_course *c, double raw, int days_late);

#endif
