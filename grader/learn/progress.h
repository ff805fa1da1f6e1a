/* progress.h: a learner's progress through the labs, kept between runs, and
 * the pristine stubs it is measured from.
 *
 * `attnlab status` and `attnlab watch` grade a lab's visible tests, sort the
 * result into a state (passed, partly passed, does not build, not started)
 * and record it here, one record per lab of one tree. The records live in
 * one file under the XDG state directory:
 *
 *   $XDG_STATE_HOME/attnlab/progress.tsv    (default ~/.local/state/attnlab/)
 *
 *   # attnlab progress 1: tree lab state score max passed total first_passed updated runs
 *   /home/ada/attnlab/labs	1	passed	4	4	4	4	1714550400	1714553000	7
 *
 * tab-separated; tree is the submission folder's real path, so two copies of
 * the course keep two progresses; times are seconds since the epoch (0 for
 * never). Saving rewrites the file atomically and keeps other trees' lines.
 *
 * The pristine stubs: data/stubs/labNN.c is the one source of each lab's stub
 * text; labs/labNN-name/labNN.c is the copy a student edits. Whatever checks
 * that stubs fail cleanly (scripts/dev-check.sh, attnlab validate) reads the
 * pristine stub, so those checks never depend on a student's work; a lab
 * whose file is still the pristine stub, byte for byte, is not started.
 */
#ifndef GR_PROGRESS_H
#define GR_PROGRESS_H

#include <stddef.h>

#include "base/labmod.h"
#include "base/result.h"

/* Where a lab stands after its visible tests ran. */
typedef enum gr_lab_state {
    GR_LAB_NOT_STARTED = 0, /* the pristine stub, or every test says "not implemented" */
    GR_LAB_NO_BUILD,        /* compile error or forbidden call: no test could run */
    GR_LAB_PARTLY,          /* some visible tests pass or run, not all pass */
    GR_LAB_PASSED,          /* every visible test passes */
    GR_LAB_STATES
} gr_lab_state;

/* One lab's record. */
typedef struct gr_lab_progress {
    gr_lab_state state;
    double score, max_score;     /* visible points */
    int passed, total;           /* visible tests passed, and run */
    long long first_passed;      /* since when the lab passes (the first pass after its last
                                    failure), seconds since the epoch; 0 while it does not */
    long long updated;           /* when it was last graded; 0 never */
    int runs;                    /* how many times status or watch graded it */
} gr_lab_progress;

/* Every lab's record for one tree. */
typedef struct gr_progress {
    char *tree;                          /* the submission folder's real path */
    gr_lab_progress labs[GR_N_LABS];     /* indexed by lab number - 1 */
} gr_progress;

/* The words status prints for a state: "passed", "partly passed", "does not
   build", "not started". */
const char *gr_progress_state_name(gr_lab_state s);

/* The state of a lab from its graded visible tests. */
gr_lab_state gr_progress_state_of(const gr_lab_result *lr);

/* The progress file's path: $XDG_STATE_HOME/attnlab/progress.tsv, or
   $HOME/.local/state/attnlab/progress.tsv when XDG_STATE_HOME is unset or not
   absolute (as the XDG spec says). malloc'd; NULL with err when neither
   variable gives an absolute path. */
char *gr_progress_path(char *err, size_t errlen);

/* Load tree's records from path into p (p->tree is set to tree; labs without
   a record are zero: not started, never graded). A missing file is an empty
   progress. 0, or -1 with err ("path:line: what is wrong", and that deleting
   the file starts afresh). Free with gr_progress_free. */
int gr_progress_load(const char *path, const char *tree, gr_progress *p, char *err,
                     size_t errlen);

/* Write p's records to path, keeping the lines of other trees, creating the
   folders on the way; atomically. 0, or -1 with err. */
int gr_progress_save(const char *path, const gr_progress *p, char *err, size_t errlen);

/* Record lab lr->lab's graded visible tests at time now: state, points and
   tests, first_passed when it starts passing (0 again when it stops: status's
   "since" never outlives a regression), one more run. */
void gr_progress_record(gr_progress *p, const gr_lab_result *lr, long long now);

/* The lab to work on next: the first, in course order, that is begun but
   does not build or does not pass yet; else the first not started; 0 when
   every lab passes. */
int gr_progress_next(const gr_progress *p);

void gr_progress_free(gr_progress *p);

/* 1 when the file at path is lab lab's pristine stub byte for byte, 0 when
   it differs, -1 when either cannot be read (errno set): path is read only
   as a regular file of at most the stub's size, never through a link or a
   FIFO (a larger file differs, so -1 there says only "not the stub"). */
int gr_progress_stub_untouched(const char *root, int lab, const char *path);

#endif
