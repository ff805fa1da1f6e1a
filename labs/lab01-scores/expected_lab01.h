/* expected_lab01.h: what test_lab01.c expects on random inputs:
 * the scaled scores. Made by `make kit-data` (grader/tools/kitdata.c, which does not ship) in
 * double precision from the same seeded inputs the tests draw: data, not
 * code, so the tests hold no reference implementation. Do not edit by
 * hand; change the test and kitdata.c together, then run make kit-data. */
#ifndef EXPECTED_LAB01_H
#define EXPECTED_LAB01_H

/* test_scaled_is_dot_over_sqrt_d: S for B = 2, Tq = 3, Tk = 5, d = 7, seed 7 */
static const float lab01_scaled[30] = {
    -0.363176495f, 0.707974851f, -1.27657998f, -0.0384133533f, -0.36337176f, -0.384916782f,
    -2.50441337f, -0.626828015f, 0.363595128f, -2.13474321f, -1.14355135f, -0.273366302f,
    2.89196181f, 0.144846573f, -2.25632095f, 0.113249131f, 0.381691903f, -0.889987648f,
    0.352858037f, 1.22277403f, -2.02437067f, 1.97563374f, -1.78695273f, 0.464857459f,
    1.64831042f, 0.597883821f, 0.351624191f, -0.248712927f, -0.133902892f, 0.167963907f,
};

#endif
