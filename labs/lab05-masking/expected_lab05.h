/* expected_lab05.h: what test_lab05.c expects on random inputs:
 * the experiment's row sums and drifts. Made by `make kit-data` (grader/tools/kitdata.c, which does not ship) in
 * double precision from the same seeded inputs the tests draw: data, not
 * code, so the tests hold no reference implementation. Do not edit by
 * hand; change the test and kitdata.c together, then run make kit-data. */
#ifndef EXPECTED_LAB05_H
#define EXPECTED_LAB05_H

/* test_experiment_one_query: rowsum for pads {0, 1, 3}, T = 1, d = 4, seed 7 */
static const float lab05_one_query_rowsum[3] = {
    1.0f, 0.306226641f, 0.128259957f,
};

/* ... and drift */
static const float lab05_one_query_drift[3] = {
    0.0f, 0.814575195f, 1.02353001f,
};

/* test_experiment_closed_form: rowsum for pads {0, 2, 5}, T = 3, d = 4, seed 11 */
static const float lab05_closed_form_rowsum[3] = {
    1.0f, 0.497924894f, 0.286941141f,
};

/* ... and drift */
static const float lab05_closed_form_drift[3] = {
    0.0f, 1.25671041f, 1.81074238f,
};

#endif
