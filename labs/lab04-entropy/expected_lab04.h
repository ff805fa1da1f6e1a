/* expected_lab04.h: what test_lab04.c expects on random inputs:
 * the experiment's entropies. Made by `make kit-data` (grader/tools/kitdata.c, which does not ship) in
 * double precision from the same seeded inputs the tests draw: data, not
 * code, so the tests hold no reference implementation. Do not edit by
 * hand; change the test and kitdata.c together, then run make kit-data. */
#ifndef EXPECTED_LAB04_H
#define EXPECTED_LAB04_H

/* test_experiment_draw_order_d1: H for d = 1, T = 2, one trial, seed 42 */
static const float lab04_draw_order_d1[1] = {
    0.654920578f,
};

/* test_experiment_draw_order_d2: H_raw for dks = {1, 2}, T = 2, seed 7 */
static const float lab04_draw_order_d2_raw[2] = {
    0.398129404f, 0.287636667f,
};

/* ... and H_scaled */
static const float lab04_draw_order_d2_scaled[2] = {
    0.398129404f, 0.432047307f,
};

/* test_experiment_mean_over_trials: H_raw for d = 1, T = 2, 2 trials, seed 99 */
static const float lab04_mean_over_trials[1] = {
    0.622582793f,
};

/* test_experiment_large_d_matches: H_raw for dks = {1024, 2048}, T = 64, 5 trials, seed 111 */
static const float lab04_large_d_raw[2] = {
    0.0291629173f, 0.246731013f,
};

/* ... and H_scaled */
static const float lab04_large_d_scaled[2] = {
    3.68003607f, 3.59248805f,
};

#endif
