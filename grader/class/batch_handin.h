/* batch_handin.h: the batch's student ids, hand-in times and late-policy
 * guard rails, all from the instructor's side (handin.h); batch.c's steps
 * between listing the folders and grading. Nothing here reads a file inside
 * a student's folder.
 */
#ifndef GR_BATCH_HANDIN_H
#define GR_BATCH_HANDIN_H

#include <time.h>
#include "class/batch_opts.h"
#include "class/class.h"
#include "class/handin.h"

/* Name each student of a Gradescope export by the submitter rule (handin.h)
   instead of the folder's name, and add every other submitter of a group
   submission as a student sharing the first one's grade; a submission with
   no submitter is dropped, with a warning on o->progress. 0, or -1 with err
   (one student in two submissions). */
int gr_batch_handin_ids(const gr_batch_opts *o, gr_class *c, const gr_handin *x, char *err, size_t errlen);

/* Names and emails from the export for the students the roster did not name. */
void gr_batch_handin_export_names(gr_class *c, const gr_handin *x);

/* Hand-in times from t (--times) or else the export x (either may be NULL),
   and c->times_from saying where they came from. 0, or -1 with err when t
   names a student who is not in the class. */
int gr_batch_handin_times(gr_class *c, const gr_handin *x, const gr_times *t, char *err, size_t errlen);

/* Days late of every lab under o->course (extensions checked against the
   class), then the guard rails: more than half of the students late, or a
   hand-in time after start (the batch's own start), refuse unless
   o->accept_late. 0, or -1 with err saying the cause and the fix. */
int gr_batch_handin_late(const gr_batch_opts *o, gr_class *c, time_t start, char *err, size_t errlen);

#endif
