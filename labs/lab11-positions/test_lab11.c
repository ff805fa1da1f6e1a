/* test_lab11.c: the visible tests of lab 11. Run them with
 *     make -C labs/lab11-positions test
 * Each test states where its expected numbers come from, so you can add your own
 * cases the same way (copy a START_TEST block and register it at the bottom).
 * The checks (EXPECT_OK, EXPECT_STATUS, EXPECT_CLOSE, lc_poison, ...) are the
 * same in every lab; labs/labcheck.h describes each one.
 * The numbers are the handout's worked example (README section 2): d = 4,
 * base 10000, so pair 0 turns by 1 radian a position and pair 1 by
 * 10000^(-2/4) = 0.01; sin 1 = 0.841471, cos 1 = 0.540302.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "lab11.h"
#include "labcheck.h"

/* ---- lab_add_sinusoidal ------------------------------------------------------------ */

START_TEST(test_sinusoidal_worked)
{
    /* README section 3: three positions of d = 4, zero inputs, so X becomes PE:
         t = 0: sin 0, cos 0, sin 0, cos 0                  = 0, 1, 0, 1
         t = 1: sin 1, cos 1, sin 0.01, cos 0.01            = 0.841471, 0.540302, 0.010000, 0.999950
         t = 2: sin 2, cos 2, sin 0.02, cos 0.02            = 0.909297, -0.416147, 0.019999, 0.999800 */
    float X[12] = {0};
    EXPECT_OK("lab_add_sinusoidal", lab_add_sinusoidal(X, 1, 3, 4, 10000.0f));
    const float want[12] = {0, 1, 0, 1, 0.841471f, 0.540302f, 0.010000f, 0.999950f,
                            0.909297f, -0.416147f, 0.019999f, 0.999800f};
    EXPECT_CLOSE("X", want, X, 12, 1e-5f);
}
END_TEST

START_TEST(test_sinusoidal_is_added)
{
    /* an input of 1 everywhere at position 0 becomes 1 + (0, 1, 0, 1) */
    float X[4] = {1, 1, 1, 1};
    EXPECT_OK("lab_add_sinusoidal", lab_add_sinusoidal(X, 1, 1, 4, 10000.0f));
    const float want[4] = {1, 2, 1, 2};
    EXPECT_CLOSE("X", want, X, 4, 1e-6f);
    /* an odd d has no pairs: LAB_BAD_ARG, X untouched */
    float Y[3] = {7, 7, 7};
    EXPECT_STATUS("lab_add_sinusoidal", LAB_BAD_ARG, lab_add_sinusoidal(Y, 1, 1, 3, 10000.0f));
    const float same[3] = {7, 7, 7};
    EXPECT_CLOSE("X (untouched)", same, Y, 3, 0.0f);
}
END_TEST

/* ---- lab_add_learned ------------------------------------------------------------------ */

START_TEST(test_learned_worked)
{
    /* README section 4: a table of 3 rows of d = 2, P = (1, 2), (10, 20), (100, 200);
       two tokens at positions 2 and 0 (a position is not an index):
         X[0] = (0.5, 0.5) + P[2] = (100.5, 200.5),  X[1] = (1, 1) + P[0] = (2, 3) */
    const float P[6] = {1, 2, 10, 20, 100, 200};
    const int pos[2] = {2, 0};
    float X[4] = {0.5f, 0.5f, 1, 1};
    EXPECT_OK("lab_add_learned", lab_add_learned(X, P, pos, 1, 2, 2, 3));
    const float want[4] = {100.5f, 200.5f, 2, 3};
    EXPECT_CLOSE("X", want, X, 4, 1e-6f);
    /* position 3: the table has no row 3; LAB_BAD_ARG, X untouched */
    const int far[2] = {0, 3};
    float Y[4] = {5, 5, 5, 5};
    EXPECT_STATUS("lab_add_learned", LAB_BAD_ARG, lab_add_learned(Y, P, far, 1, 2, 2, 3));
    const float same[4] = {5, 5, 5, 5};
    EXPECT_CLOSE("X (untouched)", same, Y, 4, 0.0f);
}
END_TEST

/* ---- lab_rope -------------------------------------------------------------------------- */

START_TEST(test_rope_worked_both_layouts)
{
    /* README section 5: x = (1, 0, 1, 0) at position 1.
       Interleaved, pairs (0,1) by 1 and (2,3) by 0.01:
         (cos 1, sin 1, cos 0.01, sin 0.01) = (0.540302, 0.841471, 0.999950, 0.010000)
       Half-split (rotate_half), pairs (0,2) by 1 and (1,3) by 0.01:
         (cos 1 - sin 1, 0, sin 1 + cos 1, 0) = (-0.301169, 0, 1.381773, 0) */
    const int pos[1] = {1};
    float X[4] = {1, 0, 1, 0};
    EXPECT_OK("lab_rope", lab_rope(X, pos, 1, 4, 10000.0f, LAB_ROPE_INTERLEAVED));
    const float inter[4] = {0.540302f, 0.841471f, 0.999950f, 0.010000f};
    EXPECT_CLOSE("X (interleaved)", inter, X, 4, 1e-5f);
    float Y[4] = {1, 0, 1, 0};
    EXPECT_OK("lab_rope", lab_rope(Y, pos, 1, 4, 10000.0f, LAB_ROPE_HALF));
    const float half[4] = {-0.301169f, 0, 1.381773f, 0};
    EXPECT_CLOSE("X (half)", half, Y, 4, 1e-5f);
}
END_TEST

START_TEST(test_rope_depends_on_m_minus_n)
{
    /* README section 5: with d = 2 (one pair, angle = position), q = k = (1, 0):
       q at 3 and k at 1, or q at 5 and k at 3, both give q.k = cos(3 - 1) = cos 2
       = -0.416147, and q at 1, k at 1 gives cos 0 = 1. */
    float Q[6] = {1, 0, 1, 0, 1, 0}, K[6] = {1, 0, 1, 0, 1, 0};
    const int qpos[3] = {3, 5, 1}, kpos[3] = {1, 3, 1};
    EXPECT_OK("lab_rope", lab_rope(Q, qpos, 3, 2, 10000.0f, LAB_ROPE_HALF));
    EXPECT_OK("lab_rope", lab_rope(K, kpos, 3, 2, 10000.0f, LAB_ROPE_HALF));
    const float dots[3] = {Q[0] * K[0] + Q[1] * K[1], Q[2] * K[2] + Q[3] * K[3],
                           Q[4] * K[4] + Q[5] * K[5]};
    const float want[3] = {-0.416147f, -0.416147f, 1.0f};
    EXPECT_CLOSE("q.k", want, dots, 3, 1e-5f);
    /* d = 3 cannot be paired: LAB_BAD_ARG, X untouched */
    float Z[3] = {2, 2, 2};
    EXPECT_STATUS("lab_rope", LAB_BAD_ARG, lab_rope(Z, qpos, 1, 3, 10000.0f, LAB_ROPE_HALF));
    const float same[3] = {2, 2, 2};
    EXPECT_CLOSE("X (untouched)", same, Z, 3, 0.0f);
}
END_TEST

/* ---- lab_rope_decode ------------------------------------------------------------------ */

START_TEST(test_rope_decode_worked)
{
    /* README section 6, d = 2: key 0 = (1, 0) and value 0 = (1, 0) cached at position 0
       (rotated by 0: as they came). The token at t = 1 has q = k = (1, 0), v = (0, 1).
       Rotated by 1: q = k = (cos 1, sin 1); scores q.K0 / sqrt 2 = 0.382051 and
       q.K1 / sqrt 2 = 1 / sqrt 2 = 0.707107; weights 0.419444 and 0.580556, so
       o = 0.419444 (1, 0) + 0.580556 (0, 1). The cache's row 1 holds the rotated
       key (0.540302, 0.841471) and the value as it came. */
    float o[2], Kc[4] = {1, 0, 9, 9}, Vc[4] = {1, 0, 9, 9};
    const float q[2] = {1, 0}, k[2] = {1, 0}, v[2] = {0, 1};
    EXPECT_OK("lab_rope_decode", lab_rope_decode(o, Kc, Vc, q, k, v, 1, 2, 2, 10000.0f,
                                                 LAB_ROPE_HALF));
    const float want_o[2] = {0.419444f, 0.580556f};
    EXPECT_CLOSE("o", want_o, o, 2, 1e-5f);
    const float want_K[4] = {1, 0, 0.540302f, 0.841471f}, want_V[4] = {1, 0, 0, 1};
    EXPECT_CLOSE("Kc", want_K, Kc, 4, 1e-5f);
    EXPECT_CLOSE("Vc", want_V, Vc, 4, 0.0f);
    /* t = cap: no row for the new key; LAB_BAD_ARG */
    EXPECT_STATUS("lab_rope_decode", LAB_BAD_ARG,
                  lab_rope_decode(o, Kc, Vc, q, k, v, 2, 2, 2, 10000.0f, LAB_ROPE_HALF));
}
END_TEST

static Suite *lab11_suite(void)
{
    Suite *s = suite_create("lab11");
    TCase *tc = tcase_create("lab11");
    tcase_add_test(tc, test_sinusoidal_worked);
    tcase_add_test(tc, test_sinusoidal_is_added);
    tcase_add_test(tc, test_learned_worked);
    tcase_add_test(tc, test_rope_worked_both_layouts);
    tcase_add_test(tc, test_rope_depends_on_m_minus_n);
    tcase_add_test(tc, test_rope_decode_worked);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(lab11_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
