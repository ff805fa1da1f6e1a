/* test_positions.c: lab 11's answer key, positions before the scores.
 * Hand-computed values (sin 1 = 0.841471, cos 1 = 0.540302, an angle of
 * 10000^(-1/2) = 0.01 for pair 1 of d = 4), then the properties that make
 * RoPE what it is: q_m . k_n depends on m - n alone, a rotation keeps the
 * norm, position 0 is no rotation, and a decoding step with a cache of keys
 * rotated at their absolute positions is the attention over every key rotated
 * at once.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "attn.h"
#include "expect.h"
#include "labsup.h"

Suite *test_suite(void);

#define S1 0.8414709848f      /* sin 1 */
#define C1 0.5403023059f      /* cos 1 */
#define S01 0.0099998333f     /* sin 0.01 */
#define C01 0.9999500004f     /* cos 0.01 */

static void expect_row(const char *what, const float *got, const float *want, int n)
{
    for (int i = 0; i < n; i++)
        expect_near(what, i, got[i], want[i], 1e-6);
}

START_TEST(sinusoidal_by_hand)
{
    /* d = 4, two positions, zero inputs, two batch entries: PE itself twice */
    float X[2 * 2 * 4] = {0};
    ck_assert_int_eq(attn_add_sinusoidal(X, 2, 2, 4, 10000.0f), 0);
    const float want[8] = {0, 1, 0, 1, S1, C1, S01, C01};
    expect_row("X[0]", X, want, 8);
    expect_row("X[1]", X + 8, want, 8);
    /* added, not written: an input of 1 becomes 1 + PE */
    float Y[4] = {1, 1, 1, 1};
    ck_assert_int_eq(attn_add_sinusoidal(Y, 1, 1, 4, 10000.0f), 0);
    const float want1[4] = {1, 2, 1, 2};
    expect_row("Y", Y, want1, 4);
    /* an odd d, base 1 or below, a negative size: refused, X untouched */
    float Z[3] = {7, 7, 7};
    ck_assert_int_eq(attn_add_sinusoidal(Z, 1, 1, 3, 10000.0f), -1);
    ck_assert_int_eq(attn_add_sinusoidal(Z, 1, 1, 2, 1.0f), -1);
    ck_assert_int_eq(attn_add_sinusoidal(Z, -1, 1, 2, 10000.0f), -1);
    ck_assert(Z[0] == 7 && Z[1] == 7 && Z[2] == 7);
}
END_TEST

START_TEST(learned_by_hand)
{
    const float P[3 * 2] = {1, 2, 10, 20, 100, 200};
    const int pos[2] = {2, 0};
    float X[2 * 2] = {0.5f, 0.5f, 1, 1};
    ck_assert_int_eq(attn_add_learned(X, P, pos, 1, 2, 2, 3), 0);
    const float want[4] = {100.5f, 200.5f, 2, 3};
    expect_row("X", X, want, 4);
    /* a position the table has no row for: refused before anything is added */
    const int far[2] = {0, 3};
    float Y[4] = {5, 5, 5, 5};
    ck_assert_int_eq(attn_add_learned(Y, P, far, 1, 2, 2, 3), -1);
    ck_assert(Y[0] == 5 && Y[1] == 5 && Y[2] == 5 && Y[3] == 5);
    const int neg[2] = {-1, 0};
    ck_assert_int_eq(attn_add_learned(Y, P, neg, 1, 2, 2, 3), -1);
}
END_TEST

START_TEST(rope_by_hand_both_layouts)
{
    const int pos[2] = {1, 0};
    /* interleaved: pairs (0,1) by angle 1 and (2,3) by 0.01; position 0 is no rotation */
    float X[8] = {1, 0, 1, 0, 1, 0, 1, 0};
    ck_assert_int_eq(attn_rope(X, pos, 2, 4, 10000.0f, ATTN_ROPE_INTERLEAVED), 0);
    const float want_i[8] = {C1, S1, C01, S01, 1, 0, 1, 0};
    expect_row("interleaved", X, want_i, 8);
    /* half-split (rotate_half): pairs (0,2) by angle 1 and (1,3) by 0.01 */
    float Y[4] = {1, 0, 1, 0};
    ck_assert_int_eq(attn_rope(Y, pos, 1, 4, 10000.0f, ATTN_ROPE_HALF), 0);
    const float want_h[4] = {C1 - S1, 0, S1 + C1, 0};
    expect_row("half", Y, want_h, 4);
    /* refused, untouched: odd d, an unknown layout, base 1 */
    float Z[4] = {3, 3, 3, 3};
    ck_assert_int_eq(attn_rope(Z, pos, 1, 3, 10000.0f, ATTN_ROPE_HALF), -1);
    ck_assert_int_eq(attn_rope(Z, pos, 1, 4, 10000.0f, 2), -1);
    ck_assert_int_eq(attn_rope(Z, pos, 1, 4, 1.0f, ATTN_ROPE_HALF), -1);
    ck_assert(Z[0] == 3 && Z[3] == 3);
}
END_TEST

static double dot(const float *a, const float *b, int d)
{
    double s = 0;
    for (int c = 0; c < d; c++)
        s += (double)a[c] * (double)b[c];
    return s;
}

/* q rotated at m, k at n: their dot product. */
static double rotated_dot(const float *q, const float *k, int m, int n, int d, int layout)
{
    float qr[64], kr[64];
    memcpy(qr, q, (size_t)d * sizeof *qr);
    memcpy(kr, k, (size_t)d * sizeof *kr);
    ck_assert_int_eq(attn_rope(qr, &m, 1, d, 10000.0f, layout), 0);
    ck_assert_int_eq(attn_rope(kr, &n, 1, d, 10000.0f, layout), 0);
    return dot(qr, kr, d);
}

/* The relative-position identity: q_m . k_n = q_{m+s} . k_{n+s} for every shift s,
   in both layouts, on random q and k; and each rotation keeps the norm. */
START_TEST(rope_scores_depend_on_m_minus_n)
{
    sup_rng r;
    sup_rng_seed(&r, 11);
    const int d = 64;
    float q[64], k[64];
    for (int layout = 0; layout < 2; layout++)
        for (int trial = 0; trial < 20; trial++) {
            sup_rng_fill_normal(&r, q, d);
            sup_rng_fill_normal(&r, k, d);
            int m = (int)(sup_rng_u64(&r) % 500), n = (int)(sup_rng_u64(&r) % 500);
            double base = rotated_dot(q, k, m, n, d, layout);
            for (int s = 1; s < 2000; s += 397) {
                double moved = rotated_dot(q, k, m + s, n + s, d, layout);
                expect(fabs(moved - base) <= 1e-4 * (1 + fabs(base)), "layout %d: q_%d . k_%d = "
                       "%.7g but shifted by %d %.7g", layout, m, n, base, s, moved);
            }
            /* and not of m and n alone: another gap gives another score */
            expect(fabs(rotated_dot(q, k, m + 1, n, d, layout) - base) > 1e-6,
                   "layout %d: the gap changed and the score did not", layout);
            float qr[64];
            memcpy(qr, q, sizeof qr);
            ck_assert_int_eq(attn_rope(qr, &m, 1, d, 10000.0f, layout), 0);
            expect(fabs(sqrt(dot(qr, qr, d)) - sqrt(dot(q, q, d))) < 1e-4, "the norm changed");
        }
}
END_TEST

/* Decoding by hand, d = 2: key 0 = (1, 0) cached at position 0 (no rotation),
   then q = k = (1, 0) at t = 1 (angle 1): q.k0 = cos 1, q.k1 = 1, scores over
   sqrt 2, weights 0.419444 and 0.580556 of v0 = (1, 0), v1 = (0, 1). */
START_TEST(decode_by_hand)
{
    float Kc[4] = {1, 0, 9, 9}, Vc[4] = {1, 0, 9, 9}, o[2];
    const float q[2] = {1, 0}, k[2] = {1, 0}, v[2] = {0, 1};
    ck_assert_int_eq(attn_rope_decode(o, Kc, Vc, q, k, v, 1, 2, 10000.0f, ATTN_ROPE_HALF), 0);
    const float want_o[2] = {0.4194442f, 0.5805558f}, want_k[2] = {C1, S1}, want_v[2] = {0, 1};
    expect_row("o", o, want_o, 2);
    expect_row("Kc[1]", Kc + 2, want_k, 2);
    expect_row("Vc[1]", Vc + 2, want_v, 2);
    /* t = 0: one key, weight 1: o is v */
    ck_assert_int_eq(attn_rope_decode(o, Kc, Vc, q, k, v, 0, 2, 10000.0f, ATTN_ROPE_HALF), 0);
    expect_row("o", o, want_v, 2);
    ck_assert_int_eq(attn_rope_decode(o, Kc, Vc, q, k, v, -1, 2, 10000.0f, ATTN_ROPE_HALF), -1);
}
END_TEST

/* A cache filled step by step gives at each step the attention of the rotated
   query over every key rotated at once at its position (attn_rope). */
START_TEST(decode_matches_rotating_everything)
{
    sup_rng r;
    sup_rng_seed(&r, 5);
    enum { T = 9, D = 8 };
    float K[T * D], V[T * D], Q[T * D], Kc[T * D], Vc[T * D], o[D];
    sup_rng_fill_normal(&r, K, T * D);
    sup_rng_fill_normal(&r, V, T * D);
    sup_rng_fill_normal(&r, Q, T * D);
    int pos[T];
    for (int t = 0; t < T; t++)
        pos[t] = t;
    float Kr[T * D];
    memcpy(Kr, K, sizeof Kr);
    ck_assert_int_eq(attn_rope(Kr, pos, T, D, 500.0f, ATTN_ROPE_INTERLEAVED), 0);
    for (int t = 0; t < T; t++) {
        ck_assert_int_eq(attn_rope_decode(o, Kc, Vc, Q + t * D, K + t * D, V + t * D, t, D,
                                          500.0f, ATTN_ROPE_INTERLEAVED), 0);
        float qr[D];
        memcpy(qr, Q + t * D, sizeof qr);
        ck_assert_int_eq(attn_rope(qr, &t, 1, D, 500.0f, ATTN_ROPE_INTERLEAVED), 0);
        double w[T], mx = -INFINITY, sum = 0;
        for (int j = 0; j <= t; j++) {
            w[j] = dot(qr, Kr + j * D, D) / sqrt((double)D);
            mx = fmax(mx, w[j]);
        }
        for (int j = 0; j <= t; j++)
            sum += (w[j] = exp(w[j] - mx));
        for (int c = 0; c < D; c++) {
            double want = 0;
            for (int j = 0; j <= t; j++)
                want += w[j] / sum * (double)V[j * D + c];
            expect_near("o", c, o[c], want, 1e-5);
        }
    }
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("positions");
    TCase *tc = tcase_create("positions");
    tcase_add_test(tc, sinusoidal_by_hand);
    tcase_add_test(tc, learned_by_hand);
    tcase_add_test(tc, rope_by_hand_both_layouts);
    tcase_add_test(tc, rope_scores_depend_on_m_minus_n);
    tcase_add_test(tc, decode_by_hand);
    tcase_add_test(tc, decode_matches_rotating_everything);
    suite_add_tcase(s, tc);
    return s;
}
