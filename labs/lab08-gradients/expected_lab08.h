/* expected_lab08.h: what test_lab08.c expects on random inputs:
 * gradients and softmax rows. Made by `make kit-data` (grader/tools/kitdata.c, which does not ship) in
 * double precision from the same seeded inputs the tests draw: data, not
 * code, so the tests hold no reference implementation. Do not edit by
 * hand; change the test and kitdata.c together, then run make kit-data. */
#ifndef EXPECTED_LAB08_H
#define EXPECTED_LAB08_H

/* test_backward_matches_finite_differences: W, the softmax of 3 rows of 6 normal scores (seed 8, drawn before g) */
static const float lab08_fd_weights[18] = {
    0.109979108f, 0.0715079084f, 0.24529925f, 0.0676123723f, 0.217497617f, 0.288103729f,
    0.203379497f, 0.0383400545f, 0.15298675f, 0.0286609773f, 0.51039499f, 0.0662377551f,
    0.110968269f, 0.13929376f, 0.0621266142f, 0.423371196f, 0.222966358f, 0.0412738025f,
};

/* ... and dS measured by central differences (h = 1e-4) for g drawn next */
static const float lab08_fd_dS[18] = {
    0.029724976f, 0.0101594282f, -0.438554615f, 0.0302978754f, 0.0821686089f, 0.286203712f,
    0.0196634997f, 0.00239207735f, -0.0878342316f, 0.0268500801f, 0.0926368982f, -0.0537083186f,
    -0.0607560351f, -0.279411018f, -0.0252195764f, 0.196630374f, 0.113779195f, 0.0549770594f,
};

/* test_backward_properties: W, the softmax of 4 rows of 10 scores 3 N(0, 1) (seed 21) */
static const float lab08_property_weights[40] = {
    0.0112674264f, 0.000734270609f, 0.00176445406f, 0.968294024f, 0.00229187356f, 4.75458619e-05f,
    0.000123477119f, 0.000474464614f, 0.0149410022f, 6.14498858e-05f, 4.59063085e-05f, 0.00108322175f,
    0.0111346338f, 0.00534836063f, 0.000259972876f, 0.000202518408f, 0.00286514801f, 0.000136191753f,
    0.976069808f, 0.00285424455f, 0.0202335343f, 0.00252609118f, 0.801010907f, 0.162158608f,
    0.00112115568f, 0.00447369926f, 0.00020751117f, 0.00213971082f, 0.000179982701f, 0.00594877778f,
    0.0083528962f, 0.109540045f, 0.0937581658f, 0.00791739114f, 0.0290044006f, 0.26115647f,
    0.486661434f, 0.00231786422f, 0.00128801214f, 3.32398349e-06f,
};

/* test_experiment_two_keys: g_raw for dks = {1, 4}, T = 2, one trial, seed 3 */
static const float lab08_two_keys_raw[2] = {
    0.165654302f, 0.248985186f,
};

/* ... and g_scaled */
static const float lab08_two_keys_scaled[2] = {
    0.165654302f, 0.273357123f,
};

#endif
