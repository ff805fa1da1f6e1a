/* rubricsum.h: a lab's points and tests as its rubric has them now, for tests
 * that check a report's totals without writing them down (they move whenever a
 * rubric gains a test).
 *   rubric_points(".", 2, 1, &n)   lab 2's visible points, n its visible tests
 */
#ifndef TEST_RUBRICSUM_H
#define TEST_RUBRICSUM_H

#include <check.h>
#include <stdlib.h>

#include "base/rubric.h"
#include "base/util.h"

/* The points of lab's tests under root/data/rubrics (the visible ones only when
   visible_only); their count into *n_tests when not NULL. */
static inline double rubric_points(const char *root, int lab, int visible_only, int *n_tests)
{
    char *path = gr_xasprintf("%s/data/rubrics/lab%02d.yaml", root, lab), err[512];
    gr_rubric r;
    ck_assert_msg(gr_rubric_load(path, &r, err, sizeof err) == 0, "%s", err);
    double sum = 0;
    int n = 0;
    for (int i = 0; i < r.n_tests; i++)
        if (!visible_only || r.tests[i].visibility == GR_VISIBLE) {
            sum += r.tests[i].points;
            n++;
        }
    if (n_tests)
        *n_tests = n;
    gr_rubric_free(&r);
    free(path);
    return sum;
}

#endif
