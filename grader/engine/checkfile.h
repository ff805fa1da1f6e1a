/* checkfile.h: a lab's Check file (labs/<dir>/test_labNN.c, what `make check`
 * and the lab's `make test` run) held to the rubric's visible tests (what
 * `grade`, `watch` and `status` run), so every student tool gives one verdict.
 *
 * The Check file stays hand-written, for teaching (worked numbers in its
 * comments, a student may copy a test); `attnlab validate` builds each
 * catalogued mutant (data/mutants) against it through the lab's own Makefile,
 * exactly as `make check` builds a student's file, and fails when it passes a
 * mutant the visible tests fail, or fails one they pass.
 */
#ifndef GR_CHECKFILE_H
#define GR_CHECKFILE_H

#include <stddef.h>
#include "engine/mutants.h"
#include "base/result.h"
#include "base/util.h"

/* How one source fared under the lab's Check file. */
typedef struct gr_checkfile_verdict {
    int passed;             /* 1: built, and every check passed */
    char summary[96];       /* "passed", "failing 1 of 18", "does not build" */
    char first[256];        /* the first failing check's line from Check, or "" */
} gr_checkfile_verdict;

/* Build src (a labNN.c) against lab's Check file under root in work (a folder
   of the caller's, which it fills) and run it, as `make check` does: 0 with
   *v filled, or -1 with err when make itself could not be run. The tests'
   and support code's objects go to obj_dir (made once, shared by the runs of
   one lab; NULL: work's own). */
int gr_checkfile_run(const char *root, int lab, const char *src, const char *work,
                     const char *obj_dir, gr_checkfile_verdict *v, char *err, size_t errlen);

/* 1 when every visible test of lr passed (what grade, watch and status call
   "passes"), else 0 (no visible test at all is 0 too). */
int gr_checkfile_visible_passed(const gr_lab_result *lr);

/* Run lab's Check file on each mutant srcs[i] of set (in jobs workers) and
   append to why a line for each whose Check verdict differs from the visible
   tests' in results[i] (its grade by the rubric). A mutant whose visible
   tests fail only as "forbidden call" is counted in *rules instead: the lab's
   rules (allowed headers, functions, no inline assembly) are held by the
   grader's confined build, which a Check file cannot run. The lab's solution
   must pass the Check file, so one that cannot build fails loudly rather than
   agree with every failing mutant. The number of mutants that disagree, or -1
   with err. */
int gr_checkfile_mutants(const char *root, int lab, const gr_mutant_set *set,
                         const char *const *srcs, const gr_lab_result *results,
                         const char *solution, int jobs, gr_strbuf *why, int *rules,
                         char *err, size_t errlen);

#endif
