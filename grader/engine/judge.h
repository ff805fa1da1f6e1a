/* judge.h: one case run in the sandbox and judged in the parent: how the
 * child ended and what it answered become a verdict and its feedback (the
 * grading loop, grade.h, runs every case through it; experiment.h and
 * fairness.h run single cases).
 */
#ifndef GR_JUDGE_H
#define GR_JUDGE_H

#include <stddef.h>
#include <stdint.h>
#include "base/labmod.h"
#include "base/result.h"
#include "base/util.h"
#include "confined/sandbox.h"

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
int gr_judge_case(const char *exe, const gr_lab_module *mod, const gr_rubric_test *t,
                  const gr_case *c, gr_outcome *out, char *err, size_t errlen);

/* Append the paragraph the terminal explains misconception mc with: "This is
   exactly what <name> gives. <explain>\nReread <handout>.\n" (under the one
   test it explains, or once below the tests it explains). A test's message
   never holds it: the reports compose it from the test's misconception id. */
void gr_judge_misconception_advice(gr_strbuf *out, const gr_misconception *mc);

/* Append the feedback of a test stopped for time, after describe: at the CPU
   budget time_ms (SIGXCPU, or run's CPU time at or over it) or, when the
   CPU used is below it, at the sandbox's wall-clock backstop, saying so. */
void gr_judge_timeout_message(gr_strbuf *msg, const char *describe, long time_ms,
                              const gr_sandbox_result *run);

/* Free what gr_judge_case allocated in o. */
void gr_judge_outcome_free(gr_outcome *o);

#endif
