/* batch_settings.h: a batch run against the class's recorded settings
 * (class.h, run.h), before anything is read or written.
 *
 * A new class folder records what the first batch is given. Later, a
 * setting the command line leaves off is the class's: the roster, course
 * policy and hand-in times from their copies in the folder, the rubrics
 * from the folder's rubrics/ when the class has --rubrics, the labs
 * recorded. A setting given otherwise than recorded (another roster, course
 * policy, times, rubrics folder, labs, secret or attnlab build) is refused,
 * one line per difference, unless --change names it; --change NAME without
 * its flag drops the setting. Each change asked for is a line of
 * regrades.log with the --reason given.
 */
#ifndef GR_BATCH_SETTINGS_H
#define GR_BATCH_SETTINGS_H

#include <stddef.h>
#include "class/batch_opts.h"
#include "class/class.h"
#include "class/course.h"

typedef struct gr_batch_settings {
    gr_batch_opts o;              /* the options in force: the command's, completed */
    gr_class_settings rec;        /* the class's record (empty for a new class) */
    gr_class_settings now;        /* this run's settings, as run.txt will record them */
    int have_rec;
    gr_course course;             /* the class's course policy, read from its copy ... */
    int has_course;               /* ... when the command gave none */
    char *kept[GR_SET_COUNT];     /* the copies in the folder the options point to */
} gr_batch_settings;

/* The options in force for o into bs (free with gr_batch_settings_free).
   0; -1 with err: a setting differs without --change (each difference on a
   line of its own), a copy is missing, or the record is damaged. */
int gr_batch_settings_apply(gr_batch_settings *bs, const gr_batch_opts *o, char *err,
                            size_t errlen);

/* As the batch starts writing: the files the settings name copied into the
   folder, each change asked for logged in regrades.log. 0, or -1 with err. */
int gr_batch_settings_keep(const gr_batch_settings *bs, char *err, size_t errlen);

/* Another command on the class in dir (grade --test, export) under its
   settings: of the settings has[k] names (roster and rubrics: o's option;
   secret and build: o->secret and this program), one the command leaves
   off is the class's (its copy in dir, whose path goes to kept[k],
   malloc'd, and to o), and one given otherwise than the class's is refused,
   err naming each difference. 0; 1 when dir holds no class record (nothing
   taken or checked); -1 with err. */
int gr_batch_settings_use(const char *dir, const char *command, gr_batch_opts *o,
                          const int has[GR_SET_COUNT], char *kept[GR_SET_COUNT], char *err,
                          size_t errlen);

void gr_batch_settings_free(gr_batch_settings *bs);

#endif
