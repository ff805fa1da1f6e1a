/* validate.h: attnlab validate's checks (cmd_validate.c), which batch also
 * runs on each lab whose rubric changed before it regrades anyone.
 */
#ifndef GR_CLI_VALIDATE_H
#define GR_CLI_VALIDATE_H

#include <stdio.h>
#include "base/labmod.h"

typedef struct gr_validate_opts {
    const char *rubrics;      /* folder of labNN.yaml rubrics, or NULL: the course's */
    int labs[GR_N_LABS];      /* labs[i] != 0: validate lab i+1 */
    int students;             /* student ids each mutant is graded for */
    int jobs;                 /* mutants graded at once */
    int verbose;              /* the full report of every failing check */
    FILE *out;                /* each check's line ("ok  ..." or "FAIL ..."), the summary */
    int course_checks;        /* 1: the handouts' rules blocks and each function's points
                                 against the manifest built in, which only the course's own
                                 rubrics must match (not a regrade's) */
} gr_validate_opts;

/* Validate the labs of v: rules blocks and each function's points (with
   course_checks), solutions full marks, stubs 0, every catalogued mutant
   with its verdict and misconception, fairness over ids. 0 with the checks
   counted in *passed and *failed, or -1 with err (no source tree, a rubric
   or manifest that does not load, a stop). */
int gr_validate(const gr_validate_opts *v, int *passed, int *failed, char *err, size_t errlen);

#endif
