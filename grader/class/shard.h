/* shard.h: a class graded in slices on many machines (attnlab batch --shard
 * K/N), and the record of what a batch output holds (DIR/run.txt), which
 * attnlab merge reads (merge.h).
 *
 * The slicing rule: student ID is in shard 1 + (h(ID) mod N), h the
 * SipHash-2-4 of the id's bytes under the fixed key "attnlab shard 1\0"
 * (gr_shard_of). A student's shard follows from their id and N alone: not
 * from which other folders a machine sees, the roster, the locale or the
 * order of a directory listing, so N machines given the same N agree on
 * who is whose without talking to each other, and a merge can check every
 * student is where the rule puts them.
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
 *   class N DIGEST                the whole class: how many ids, and their digest
 *   times_from, roster_read, graded   the class report's own facts
 *   submissions                   the students' folders (report.html's similar
 *                                 pairs read them)
 *   student id=... ...            one per student of the slice, then a lab
 *   lab N ...                     line per lab: hand-in time, days late, where
 *                                 its file was found (intake.h)
 *   end
 * With a late policy, out/course.yaml is a copy of the course.yaml read.
 */
#ifndef GR_SHARD_H
#define GR_SHARD_H

#include "class/batch.h"

/* Read "K/N" (1 <= K <= N <= GR_SHARD_MAX) into *k and *n. 0, or -1 with err
   saying what to give. */
#define GR_SHARD_MAX 100000
int gr_shard_parse(const char *spec, int *k, int *n, char *err, size_t errlen);

/* The shard (1..n) of student id among n. */
int gr_shard_of(const char *id, int n);

/* 1 when id is in slice k of n (always when n is 0 or 1). */
int gr_shard_has(int k, int n, const char *id);

/* What identifies a run and which slice of which class an output holds. */
typedef struct gr_run {
    int k, n;                     /* shard k of n; 1 1: the whole class */
    char *program, *secret, *rubrics, *course, *roster, *times;   /* digests (secret: its check
                                                                     value), or "none" */
    int labs[GR_N_LABS];          /* the labs graded */
    int class_n;                  /* students in the whole class ... */
    char *class_ids;              /* ... and the digest of their ids, sorted */
    char *submissions;            /* read back: the students' folders as the run saw them
                                     (its real path), or NULL; not part of its identity */
} gr_run;

/* What run.txt records of the secret: its check value (a keyed hash that
   says whether two runs used the same secret, never the secret itself), and
   the digest of the rubrics and contract headers of o's labs. */
char *gr_run_secret_check(const char *secret);
char *gr_run_rubrics_digest(const gr_batch_opts *o);

/* The gr_run of the batch o that graded c (slice o->shard_k of o->shard_n). */
void gr_run_identify(const gr_batch_opts *o, const gr_class *c, gr_run *r);

/* Write out/run.txt atomically: r, c's class facts and c's students in r's
   slice; with a late policy, out/course.yaml from course_file. 0, or -1 with err. */
int gr_run_write(const char *out, const gr_run *r, const gr_class *c, const char *course_file,
                 char *err, size_t errlen);

/* Remove out/run.txt as a run starts, so that a run stopped part-way leaves
   an output merge refuses until it is run to the end. 0, or -1 with err. */
int gr_run_clear(const char *out, char *err, size_t errlen);

/* Read dir/run.txt into r and its students into c (appended, reports left
   empty; c's class facts set). 0; 1 when dir has no run.txt (not a batch
   output); -1 with err ("dir/run.txt:LINE: what is wrong") when it is damaged. */
int gr_run_read(const char *dir, gr_run *r, gr_class *c, char *err, size_t errlen);

/* The first way a and b were graded differently, in words ("secrets
   (ATTNLAB_SECRET)"), or NULL when they are one run's shards. */
const char *gr_run_differs(const gr_run *a, const gr_run *b);

void gr_run_free(gr_run *r);

#endif
