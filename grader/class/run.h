/* run.h: the record of what a batch output holds and what it was graded
 * from (DIR/run.txt), which attnlab merge reads (merge.h) and a later batch
 * checks its settings against.
 *
 * Every batch (sharded or not) removes run.txt as it starts and writes it
 * last, atomically: one line
 * per fact, `key value`, each text value percent-encoded (a byte below 0x21,
 * 0x7f or '%' as %XX) so that any id or file name reads back as it was.
 *   attnlab run 1                 the format
 *   shard K N                     which slice (1 1: the whole class)
 *   program, secret, rubrics,     what identifies the run: digests of attnlab
 *   course, roster, times, labs   itself, the secret's check value (keyed: it
 *                                 tells nothing of the secret), every graded lab's rubric and
 *                                 contract header, course.yaml, the roster, the
 *                                 hand-in times' sources, and the labs graded
 *   setting NAME GIVEN VALUE      the class's settings (class.h), one line each:
 *                                 as the command line gave it and what is
 *                                 compared, "-" for none
 *   class N DIGEST                the whole class: how many ids, and their digest
 *   times_from, roster_read, graded   the class report's own facts
 *   submissions                   the students' folders (report.html's similar
 *                                 pairs read them)
 *   student id=... ...            one per student of the slice, then a lab
 *   lab N ...                     line per lab: hand-in time, days late, where
 *                                 its file was found (intake.h)
 *   end
 * Beside it, copies of what the settings name (gr_run_settings_keep): the
 * roster (roster.yaml), course policy (course.yaml), hand-in times
 * (times.yaml or times.csv) and --rubrics DIR (rubrics/labNN.yaml), so a
 * later batch, grade --test or export takes them from the folder (merge
 * takes no rubrics from a shard: shardproof.h). While a batch runs, run.started
 * holds its record without students (the settings of a batch stopped
 * part-way are still the class's); the finished run.txt replaces it.
 */
#ifndef GR_RUN_H
#define GR_RUN_H

#include <stddef.h>
#include "class/batch_opts.h"
#include "class/class.h"

/* What identifies a run and which slice of which class an output holds. */
typedef struct gr_run {
    int k, n;                     /* shard k of n; 1 1: the whole class */
    char *program, *secret, *rubrics, *course, *roster, *times;   /* digests, or "none" */
    int labs[GR_N_LABS];          /* the labs graded */
    int class_n;                  /* students in the whole class ... */
    char *class_ids;              /* ... and the digest of their ids, sorted */
    char *submissions;            /* read back: the students' folders as the run saw them
                                     (its real path), or NULL; not part of its identity */
    gr_class_settings set;        /* the class's settings (class.h) */
} gr_run;

/* The files a class's settings name, copied into its folder. */
typedef struct gr_run_files {
    const char *root;             /* the attnlab tree (the course's rubrics) */
    const char *roster, *course, *times, *rubrics;   /* each NULL: none */
    int labs[GR_N_LABS];          /* the labs whose rubrics are kept */
} gr_run_files;

/* The settings of batch o as its options give them (class.h). */
void gr_run_settings_of(const gr_batch_opts *o, gr_class_settings *s);

/* The copy in dir of setting k's file (malloc'd): dir/roster.yaml,
   dir/course.yaml, dir/times.yaml (times.csv when given ends in .csv),
   dir/rubrics; NULL for a setting without one. */
char *gr_run_settings_kept(const char *dir, gr_setting k, const char *given);

/* Copy f's files into out (gr_run_settings_kept), removing the copies of a setting
   that is none now. 0, or -1 with err. */
int gr_run_settings_keep(const char *out, const gr_run_files *f, char *err, size_t errlen);

/* The settings recorded in dir (run.txt, else run.started) into s. 0; 1 when
   dir holds no record (s empty); -1 with err when it is damaged. */
int gr_run_settings_load(const char *dir, gr_class_settings *s, char *err, size_t errlen);

/* Write out/run.started: r's record without students, while a batch runs.
   0, or -1 with err. */
int gr_run_start(const char *out, const gr_run *r, char *err, size_t errlen);

/* What run.txt records of the secret: its check value (a keyed hash that
   says whether two runs used the same secret, never the secret itself), and
   the digest of the rubrics and contract headers of o's labs. */
char *gr_run_secret_check(const char *secret);
char *gr_run_rubrics_digest(const gr_batch_opts *o);

/* The gr_run of the batch o that graded c (slice o->shard_k of o->shard_n). */
void gr_run_identify(const gr_batch_opts *o, const gr_class *c, gr_run *r);

/* Write out/run.txt atomically: r, c's class facts and c's students in r's
   slice, then remove out/run.started. 0, or -1 with err. */
int gr_run_write(const char *out, const gr_run *r, const gr_class *c, char *err, size_t errlen);

/* Remove out/run.txt as a run starts, so that a run stopped part-way leaves
   an output merge refuses until it is run to the end. 0, or -1 with err. */
int gr_run_clear(const char *out, char *err, size_t errlen);

/* Read dir/run.txt into r and its students into c (appended, reports left
   empty; c's class facts set). 0; 1 when dir has no run.txt (not a batch
   output); -1 with err ("dir/run.txt:LINE: what is wrong") when it is damaged. */
int gr_run_read(const char *dir, gr_run *r, gr_class *c, char *err, size_t errlen);

/* The same of dir/run.started, the record of a batch under way or stopped. */
int gr_run_read_started(const char *dir, gr_run *r, gr_class *c, char *err, size_t errlen);

/* The first way a and b were graded differently, in words ("secrets
   (ATTNLAB_SECRET)"), or NULL when they are one run's shards. */
const char *gr_run_differs(const gr_run *a, const gr_run *b);

void gr_run_free(gr_run *r);

#endif
