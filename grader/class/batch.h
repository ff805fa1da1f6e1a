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

#include <stddef.h>
#include "class/batch_opts.h"
#include "class/class.h"

/* Grade every student of o->submissions into o->out and fill cls (free with
   gr_class_free). 0, or a GR_STATUS_* code (status.h) with err: a bad
   roster or rubric is GR_STATUS_BAD_INPUT, a stop GR_STATUS_STOPPED (every
   student graded so far keeps their results.json). */
int gr_batch_run(const gr_batch_opts *o, gr_class *cls, char *err, size_t errlen);

#endif
