/* grade.h: the grading loop shared by `attnlab grade`, `validate` and `plot`.
 *
 * For each selected lab: load its rubric, build the student's source into a test
 * executable (build.h), then for every rubric test derive the seed, make the case
 * (labmod.h), run it in the sandbox (sandbox.h), decide the verdict in the parent,
 * diagnose a wrong answer, and score it. A failing, crashing or hanging test never
 * stops the others; a lab that does not build never stops the other labs.
 *
 * The tests run in two passes: every visible test of every selected lab (each
 * lab built first), then every other test (hidden, after_due_date,
 * after_published) of every lab, with the program the first pass built. So
 * nothing a test a student cannot see does, how long it takes or whether it
 * times out, can change a verdict or an output they see. Each pass counts its
 * own time-outs (two in a lab: that lab's other tests of the pass are not run);
 * the submission's wall-clock budget is one, which the visible pass spends first.
 */
#ifndef GR_GRADE_H
#define GR_GRADE_H

#include <stddef.h>
#include <stdio.h>
#include "base/labmod.h"
#include "base/result.h"
#include "confined/build.h"
#include "confined/sandbox.h"
#include "confined/workdir.h"
#include "base/status.h"

typedef struct gr_grade_opts {
    const char *root;           /* the attnlab tree (labs/, lib/, data/) */
    const char *rubrics;        /* folder of labNN.yaml rubrics; NULL: root/data/rubrics */
    const char *only_test;      /* grade only the rubric test of this name, or NULL: all */
    const char *child_dir;       /* prebuilt child objects */
    const char *submission;     /* folder laid out like labs/ */
    const char *sources[GR_N_LABS];     /* optional: grade this file for lab i+1 instead */
    const char *student;        /* student id, part of every seed */
    const char *secret;         /* instructor secret, part of every seed */
    int labs[GR_N_LABS];                /* labs[i] != 0: grade lab i+1 */
    FILE *progress;             /* one line per lab and pass as it is graded, or NULL */
    int jobs;                   /* labs graded at once in worker processes (pool.h); 0 or 1: one by one */
    int visible_only;           /* 1: only the rubric's visible tests (status, watch) */
    int first_failure;          /* 1: stop a lab at its first test that does not pass; the
                                   tests after it, hidden ones too, are left unrun (attnlab
                                   mutate) */
    const gr_build *built[GR_N_LABS];   /* optional: lab i+1's program already built and
                                   checked (a mutant of attnlab mutate's schema, mutschema.h):
                                   graded as it is, its source not built again */
    const int *order[GR_N_LABS];        /* optional: the order lab i+1's tests run in within
                                   each pass (a permutation of the rubric's: its visible tests
                                   run in their order, then its others); results stay in
                                   rubric order */
    gr_case *const *cases[GR_N_LABS];   /* optional: lab i+1's cases made already, one per
                                   rubric test (gr_grade_cases), for a caller that grades many
                                   programs of one student: each is made once, not per program */
} gr_grade_opts;

/* Make the case of every test of lab, in rubric order, as gr_grade would for
   o's student and secret: *out gets n of them (free with gr_grade_cases_free).
   0, or a GR_STATUS_* code with err set. */
int gr_grade_cases(const gr_grade_opts *o, int lab, gr_case ***out, int *n, char *err,
                   size_t errlen);
void gr_grade_cases_free(gr_case ***cases, int n);

/* Build src as lab's program the way gr_grade does (o's root, child_dir and
   rubrics) into work, for a caller that grades one program more than once
   (o->built). 0 (out filled, ok or not: free with gr_build_free), or a
   GR_STATUS_* code with err set. */
int gr_grade_build(const gr_grade_opts *o, int lab, const char *src, const char *work,
                   gr_build *out, char *err, size_t errlen);

/* Grade the selected labs into out (free with gr_result_free). 0 on success,
   else a GR_STATUS_* code (status.h) with err saying why and what to fix. */
int gr_grade(const gr_grade_opts *o, gr_report *out, char *err, size_t errlen);

#endif
