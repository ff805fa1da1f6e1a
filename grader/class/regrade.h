/* regrade.h: every regrade recorded, and a rubric change regrading only what
 * it changed.
 *
 * A regrade is a test whose score changed after the student was graded:
 * `attnlab grade --test NAME --json .../results.json` (always recorded, the
 * score changed or not), or `attnlab batch` run again after a lab's rubric or
 * contract header changed (`--rubrics DIR`, or an edited rubric). Each is
 * kept twice:
 *   - in the student's results.json, extra_data "regrades": [{when, lab,
 *     test, old, new, reason, change}] (result.h's gr_regrade), kept across
 *     later gradings;
 *   - as one line of DIR/regrades.log, tab-separated under a header line:
 *     when (UTC), student, lab, test, old, new, reason, change ("-" for a
 *     score the test did not have: added or removed).
 * A batch's rubric change is a line of its own in regrades.log too, before
 * its students' ("-" for student, test and scores): the lab, its reason and
 * every setting that changed, old and new ("limits.time_ms 20000 -> 20").
 * The reason is --reason TEXT (batch: --reason labNN=TEXT for one lab, and
 * a plain one only when one lab changed), else "no reason given".
 * Recording a regrade, and the one-student merge of grade --test, are
 * report/regrades.h's.
 * A change of the class's settings (batch --change, batch_settings.h) is a
 * line of its own, student "*" (report/regrades.h's gr_regrades_class_line).
 *
 * Batch keeps DIR/rubrics.state: per lab, a digest of its rubric and
 * contract header and its tests' points and tolerances. Run again, a lab
 * whose digest changed is regraded alone for each student whose own files,
 * the secret and attnlab are as they were (the key file's second line, a
 * key without the rubrics); their other labs keep their results. Which tests
 * changed (added, removed, points, tolerance, other settings) is said on the
 * progress stream and in each regrade's "change".
 */
#ifndef GR_REGRADE_H
#define GR_REGRADE_H

#include <stddef.h>
#include <stdio.h>
#include "class/batch_opts.h"
#include "class/class.h"
#include "base/labmod.h"
#include "base/result.h"
#include "report/regrades.h"

/* One test of a lab's rubric, as rubrics.state keeps it. */
typedef struct gr_rubric_snap_test {
    char *name;
    double points, abs_tol, rel_tol;
} gr_rubric_snap_test;

/* The rubrics of the labs graded, as rubrics.state keeps them. */
typedef struct gr_rubric_snap {
    int have[GR_N_LABS];
    char *digest[GR_N_LABS];          /* of the rubric's and contract header's bytes */
    gr_rubric_snap_test *tests[GR_N_LABS];
    int n_tests[GR_N_LABS];
    char **set[GR_N_LABS];            /* every setting of the rubric, "key value" as written:
                                         "limits.time_ms 2000", "tests.NAME.points 0.5" (a
                                         list's mappings keyed by name); none in a state file
                                         written before settings were kept */
    int n_set[GR_N_LABS];
} gr_rubric_snap;

/* The rubrics of the labs o grades, now (o's root and rubrics). 0, or -1
   with err (a rubric that does not load). */
int gr_regrade_snap_make(const gr_batch_opts *o, gr_rubric_snap *s, char *err, size_t errlen);

/* dir/rubrics.state into s: 0, or -1 when there is none or it is damaged
   (then every lab counts as unknown, and nothing is regraded in part). */
int gr_regrade_snap_read(const char *dir, gr_rubric_snap *s);

/* s into dir/rubrics.state, atomically: 0, or -1 with errno. */
int gr_regrade_snap_write(const char *dir, const gr_rubric_snap *s);

void gr_regrade_snap_free(gr_rubric_snap *s);

/* What changed in lab's rubric between old and now (malloc'd), or NULL when
   the digests are the same: every setting that changed with its old and new
   value, "limits.time_ms 20000 -> 20; tests.softmax_random.points 0.5 -> 1;
   tests.causal added" ("(none)" for a key one side lacks), or "no setting:
   the rubric's comments or the contract header"; from a state file without
   settings, the tests only: "softmax_random points 2 -> 3; causal added;
   padding removed", else "the rubric's other settings or the contract
   header". */
char *gr_regrade_lab_change(const gr_rubric_snap *old, const gr_rubric_snap *now, int lab);

/* What a batch run regrades in part. */
typedef struct gr_regrade_plan {
    gr_rubric_snap old, now;
    int changed[GR_N_LABS];           /* 1: lab's rubric or header changed since last run */
    int any;
    const char *reason[GR_N_LABS];    /* each lab's --reason, or NULL */
    char when[32];
} gr_regrade_plan;

/* The plan of batch run o (into o->out): the rubrics now against its
   rubrics.state; each changed lab said on progress (NULL: quiet). 0, or -1
   with err. Free with gr_regrade_plan_free. */
int gr_regrade_plan_make(gr_regrade_plan *p, const gr_batch_opts *o, FILE *progress, char *err,
                         size_t errlen);

void gr_regrade_plan_free(gr_regrade_plan *p);

/* Which labs of o have a rubric or contract header other than at the last
   batch into o->out (changed[lab - 1] = 1), nothing said or written: their
   count, or -1 with err (a rubric that does not load). */
int gr_regrade_changed(const gr_batch_opts *o, int changed[GR_N_LABS], char *err, size_t errlen);

/* r holds the changed labs of student id, just regraded: merge them into the
   student's results.json under dir (their other labs as they were), record
   a regrade for each test whose score changed, and leave the merged report
   in r. *log gets the lines for regrades.log (malloc'd, or NULL). 0, or -1
   with err (results.json does not read back). */
int gr_regrade_merge(const gr_regrade_plan *p, const char *dir, const char *id, gr_report *r,
                     char **log, char *err, size_t errlen);

#endif
