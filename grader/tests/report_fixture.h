/* report_fixture.h: the report the report-writer suites share, built by hand:
 * two labs and a mix of verdicts (see test_reports.c), and a temporary folder.
 * Functions are static inline so that a suite using part of them builds clean. */
#ifndef GR_TEST_REPORT_FIXTURE_H
#define GR_TEST_REPORT_FIXTURE_H

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "engine/grade.h"
#include "report/report.h"
#include "base/util.h"

/* ---- the report -------------------------------------------------------------- */

static inline void set_test(gr_test_result *t, const char *name, gr_verdict v, double score,
                     double max, gr_visibility vis, const char *message, double seconds)
{
    t->name = gr_xstrdup(name);
    t->verdict = v;
    t->score = score;
    t->max_score = max;
    t->visibility = vis;
    t->message = message ? gr_xstrdup(message) : NULL;
    t->seconds = seconds;
}

#define WRONG_MESSAGE "S[0][1][2]: expected 0.5, got \"1.0\" (relative error 1)\n" \
                      "input row:\tq = [1, 2]\x01 \xff end"
/* 11 + 5 + 16 + 4 + 1 = 37 bytes */
#define STUDENT_OUTPUT "Score: 100\n\x1b[32mall tests passed\x1b[0m\n"

/* lab01-scores: 2 of 10 points; lab02-softmax: 1.5 of 6; total 3.5 of 16. */
static inline void build_report(gr_report *r)
{
    memset(r, 0, sizeof *r);
    r->student = gr_xstrdup("s1234");
    r->seconds = 2.4;
    r->n_labs = 2;
    r->labs = gr_xcalloc(2, sizeof *r->labs);

    gr_lab_result *l = &r->labs[0];
    l->lab = 1;
    l->name = gr_xstrdup("lab01-scores");
    l->n_tests = 3;
    l->tests = gr_xcalloc(3, sizeof *l->tests);
    set_test(&l->tests[0], "dot_worked_example", GR_PASSED, 2, 2, GR_VISIBLE, NULL, 0.010);
    l->tests[0].student_output = gr_xstrdup("debug: hello\n");   /* passed: not shown */
    set_test(&l->tests[1], "scaled_random", GR_WRONG_ANSWER, 0, 3, GR_VISIBLE, WRONG_MESSAGE, 0.020);
    l->tests[1].misconception = gr_xstrdup("1/d_k instead of 1/sqrt(d_k)");
    l->tests[1].student_output = gr_xstrdup(STUDENT_OUTPUT);
    set_test(&l->tests[2], "hidden_big", GR_CRASHED, 0, 5, GR_HIDDEN,
             "killed by signal SIGSEGV (segmentation fault)", 0.030);
    l->score = 2;         /* 2 + 0 + 0 */
    l->max_score = 10;    /* 2 + 3 + 5 */

    l = &r->labs[1];
    l->lab = 2;
    l->name = gr_xstrdup("lab02-softmax");
    l->n_tests = 5;
    l->tests = gr_xcalloc(5, sizeof *l->tests);
    set_test(&l->tests[0], "softmax_row", GR_NOT_IMPLEMENTED, 0, 2, GR_AFTER_DUE_DATE,
             "lab_softmax returned LAB_NOT_IMPLEMENTED: the stub is untouched", 0.005);
    set_test(&l->tests[1], "causal_mask", GR_TIMED_OUT, 0, 1, GR_VISIBLE,
             "over the time limit of 2000 ms", 2.0);
    set_test(&l->tests[2], "temperature", GR_PASSED, 1.5, 1.5, GR_VISIBLE, NULL, 0.004);
    set_test(&l->tests[3], "no_printf", GR_FORBIDDEN_CALL, 0, 1, GR_VISIBLE,
             "lab02.c calls printf, which the rules do not allow", 0);
    set_test(&l->tests[4], "huge_alloc", GR_OUT_OF_MEMORY, 0, 0.5, GR_VISIBLE,
             "asked for more than the 64 MiB limit", 0.001);
    l->score = 1.5;       /* 0 + 0 + 1.5 + 0 + 0 */
    l->max_score = 6;     /* 2 + 1 + 1.5 + 1 + 0.5 */

    r->score = 3.5;
    r->max_score = 16;
}


static inline int have_python3(void)
{
    return system("command -v python3 >/dev/null 2>&1") == 0;
}

/* A fresh empty folder under /tmp. */
static inline char *temp_dir(void)
{
    char *dir = gr_xstrdup("/tmp/attnlab-test-reports-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    return dir;
}

#endif
