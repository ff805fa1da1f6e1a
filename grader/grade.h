/* grade.h: the grading loop shared by `attnlab grade`, `validate` and `plot`.
 *
 * For each selected lab: load its rubric, build the student's source into a test
 * executable (build.h), then for every rubric test derive the seed, make the case
 * (labmod.h), run it in the sandbox (sandbox.h), decide the verdict in the parent,
 * diagnose a wrong answer, and score it. A failing, crashing or hanging test never
 * stops the others; a lab that does not build never stops the other labs.
 */
#ifndef GR_GRADE_H
#define GR_GRADE_H

#include <stddef.h>
#include <stdio.h>
#include "labmod.h"
#include "result.h"
#include "confined/sandbox.h"
#include "confined/workdir.h"

typedef struct gr_grade_opts {
    const char *root;           /* the attnlab tree (labs/, lib/, data/) */
    const char *rubrics;        /* folder of labNN.yaml rubrics; NULL: root/data/rubrics */
    const char *only_test;      /* grade only the rubric test of this name, or NULL: all */
    const char *stub_dir;       /* prebuilt stub objects */
    const char *submission;     /* folder laid out like labs/ */
    const char *sources[GR_N_LABS];     /* optional: grade this file for lab i+1 instead */
    const char *student;        /* student id, part of every seed */
    const char *secret;         /* instructor secret, part of every seed */
    int labs[GR_N_LABS];                /* labs[i] != 0: grade lab i+1 */
    FILE *progress;             /* one line per lab as it is graded, or NULL */
    int jobs;                   /* labs graded at once in worker processes (pool.h); 0 or 1: one by one */
    int visible_only;           /* 1: only the rubric's visible tests (status, watch) */
    int first_failure;          /* 1: stop a lab at its first test that does not pass; the
                                   tests after it are left unrun (attnlab mutate) */
} gr_grade_opts;

/* How one case ended, judged in the parent (what a test result is made of). */
typedef struct gr_outcome {
    gr_verdict verdict;
    char *message;                    /* feedback for a person; NULL when passed */
    char *misconception;              /* id of the matched misconception, or NULL */
    char *output;                     /* bounded printable excerpt of what the child printed, or NULL */
    double seconds;                   /* wall time of the child */
    int answered;                     /* 1: the child's answer parsed: status and got hold it */
    int32_t status;                   /* what the student's function returned */
    void *got[PROTO_MAX_BUFS];        /* its OUT/INOUT buffers (NULL for IN ones) */
} gr_outcome;

/* Run case c of rubric test t in the sandbox with the test executable exe and
   judge it against c's expected outputs (diagnosing a wrong answer with mod's
   misconceptions). 0, or -1 when the case could not be run (err says why). */
int gr_run_case(const char *exe, const gr_lab_module *mod, const gr_rubric_test *t,
                const gr_case *c, gr_outcome *out, char *err, size_t errlen);

/* Append the paragraph a wrong answer's feedback ends with when mc matches it:
   "This is exactly what <name> gives. <explain>\nReread <handout>.\n" (the
   terminal report names a misconception once, so it cuts this paragraph off). */
void gr_misconception_advice(gr_strbuf *out, const gr_misconception *mc);

/* Append the feedback of a test stopped for time, after describe: at the CPU
   budget time_ms (SIGXCPU, or run's CPU time at or over it) or, when the
   CPU used is below it, at the sandbox's wall-clock backstop, saying so. */
void gr_timeout_message(gr_strbuf *msg, const char *describe, long time_ms,
                        const gr_sandbox_result *run);

/* Free what gr_run_case allocated in o. */
void gr_outcome_free(gr_outcome *o);

/* Why gr_grade could not grade: each a whole run's failure, never a student's
   (anything a submission does is a verdict on its own lab's tests). */
enum {
    GR_GRADE_BAD_INPUT = -1,  /* a rubric error: "data/rubrics/lab02.yaml:14:7: ..." */
    GR_GRADE_FAILED = -2,     /* the grader itself (missing stub objects, no work dir ...) */
    GR_GRADE_STOPPED = -3     /* a stop signal arrived (stop.h) */
};

/* Grade the selected labs into out (free with gr_report_free). 0 on success,
   else one of the codes above with err saying why and what to fix. */
int gr_grade(const gr_grade_opts *o, gr_report *out, char *err, size_t errlen);

/* Find the course data (root: data/rubrics, data/stubs, the contract headers
   labs/<dir>/labNN.h, lib/labsup.h ...) and the stub objects from where the
   running attnlab lives: PREFIX/share/attnlab and PREFIX/lib/attnlab/stub
   beside an installed PREFIX/bin/attnlab, else the source tree above the
   build folder and its build/grader/stub. ATTNLAB_ROOT, when set, names root.
   root is filled before the stub objects are looked for. 0, or -1 with err
   naming the paths tried. */
int gr_locate(char *root, size_t root_len, char *stub_dir, size_t stub_len,
              char *err, size_t errlen);

/* 1 when root's labs/ holds a lab file (labs/<dir>/labNN.c: a source tree or
   a student kit), 0 when it holds only the contract headers (an install). */
int gr_root_has_labs(const char *root);

/* The submission a command grades when given none (malloc'd): root's labs/
   when it holds lab files, else ./labs when it exists (an installed attnlab
   run from a student's folder). NULL with err saying to pass --submission. */
char *gr_default_submission(const char *root, char *err, size_t errlen);

/* Parse "--lab" values: "all", "N" or "N,M,...". 0, or -1 with err. */
int gr_parse_labs(const char *s, int labs[GR_N_LABS], char *err, size_t errlen);

#endif
