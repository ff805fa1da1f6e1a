/* labmod.h: what the grader knows about each lab, in the parent only.
 *
 * A lab module (grader/labs/labNN.c) turns a rubric test plus a seed into a
 * concrete call of the student's function and the expected outputs, computed
 * with libattn. Its misconceptions predict what a student holding a known wrong
 * idea would output for the same call, so a wrong answer can be named.
 */
#ifndef GR_LABMOD_H
#define GR_LABMOD_H

#include <stdint.h>
#include "protocol.h"
#include "rubric.h"

/* One concrete test: the call the child receives and what it should return. */
typedef struct gr_case {
    proto_call call;                      /* inputs and output sizes; bufs own their data */
    int32_t expected_status;              /* LAB_OK, or LAB_BAD_ARG for a contract-breaking input */
    void *expected[PROTO_MAX_BUFS];       /* expected content of each OUT/INOUT buffer, else NULL */
    char describe[256];                   /* one line for feedback: function, shapes, settings */
    int shape[PROTO_MAX_BUFS][4];         /* optional (rows, cols, ...) of each buffer, for windows; 0 = flat */
} gr_case;

/* A known mistake. predict fills out[i] (malloc'd, same layout as expected[i]) with
   what a student holding it would return for c, and returns 0; or returns -1 when
   the mistake does not apply to this case. */
typedef struct gr_misconception {
    const char *name;       /* "mask applied after softmax" */
    const char *explain;    /* one or two sentences: what the code does wrong and why it matters */
    const char *handout;    /* where to reread: "labs/lab05-masking/README.md, section 2" */
    int (*predict)(const gr_case *c, void *out[PROTO_MAX_BUFS]);
} gr_misconception;

typedef struct gr_lab_module {
    int number;                            /* 1..8 */
    const char *dir;                       /* "lab01-scores" */
    /* Build the case for rubric test t from seed. 0, or -1 with err for an unknown
       kind or bad sizes (a rubric error, reported with the test's line). */
    int (*make_case)(const gr_rubric_test *t, uint64_t seed, gr_case *c,
                     char *err, size_t errlen);
    const gr_misconception *misconceptions;
    int n_misconceptions;
} gr_lab_module;

/* The eight modules, indexed by lab number - 1. */
extern const gr_lab_module *const gr_lab_modules[8];

/* Free what make_case allocated in c. */
void gr_case_free(gr_case *c);

#endif
