/* fairness.h: does a submission's score depend on who hands it in?
 *
 * Every randomized test draws its inputs from a seed made of the secret and the
 * student id (seed.h), so the same code is graded on different numbers for
 * different students. A known mistake must cost the same points whoever makes
 * it: `attnlab validate` grades each bundled mutant under several (student,
 * secret) draws with this module and fails when the lab scores differ, or when
 * no test on fixed inputs (the same for every draw) catches the mistake.
 *
 * The source is built once. Each test's case is made for every draw; a draw
 * whose request is byte for byte the first draw's reuses that draw's result, so
 * only the tests whose inputs depend on the seed run again.
 */
#ifndef GR_FAIRNESS_H
#define GR_FAIRNESS_H

#include <stddef.h>
#include "engine/grade.h"

/* One draw: whose inputs. */
typedef struct gr_draw {
    const char *student;
    const char *secret;
} gr_draw;

/* What gr_fairness_grade finds. */
typedef struct gr_fairness {
    double *scores;         /* [n]: the lab score under each draw */
    double fixed_points;    /* points of the tests on the same inputs for every draw */
    int runs;               /* test runs made */
    char *varying;          /* tests whose points differ between draws ("a, b"), or NULL */
    char *fixed_failed;     /* tests on fixed inputs the source fails ("a, b"), or NULL */
} gr_fairness;

/* Grade lab `lab` of src (built once, under base's root, child_dir and rubrics,
   or base->built[lab - 1] as it is)
   under each of draws[0..n) into out (free with gr_fairness_free). A lab that
   does not build scores 0 everywhere and fails no test on fixed inputs. 0, or a
   GR_STATUS_* code (grade.h) with err set. */
int gr_fairness_grade(const gr_grade_opts *base, int lab, const char *src,
                      const gr_draw *draws, int n, gr_fairness *out, char *err, size_t errlen);

void gr_fairness_free(gr_fairness *f);

#endif
