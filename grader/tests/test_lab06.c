/* test_lab06.c: the grader's lab 6 module (grader/labs/lab06.c) against its
 * rubric (data/rubrics/lab06.yaml). Run from the repository root.
 *
 * What must hold for the grading of lab 6 to be fair (what every lab must do,
 * seeding and misconceptions, is in test_lab_modules.c):
 *   - points per function add up to what the stub and handout promise;
 *   - the expected outputs obey the contract (the handout's slopes and buckets,
 *     biases zero on the diagonal, -inf kept, dropout zero or w / (1 - p),
 *     outputs convex combinations of value rows).
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lab06_calls.h"
#include "attn.h"
#include "labsup.h"

#define RUBRIC "data/rubrics/lab06.yaml"
#define MOD gr_lab06_module
#include "labtest.h"

Suite *test_suite(void);

/* ---- the rubric ---------------------------------------------------------------- */

START_TEST(test_rubric_points_per_function)
{
    /* The stub promises slopes 2, bias 2, buckets 3, relpos 2, dropout 3,
       output 2: 14 in all. */
    const double want[LAB06_N_CALLS] = { 2, 2, 3, 2, 3, 2 };
    ck_assert_int_eq(rubric.lab, 6);
    check_points_per_function(want, LAB06_N_CALLS, NULL);
}
END_TEST

START_TEST(test_rubric_visible_and_hidden)
{
    int visible[LAB06_N_CALLS] = { 0 }, hidden[LAB06_N_CALLS] = { 0 };
    for (int k = 0; k < rubric.n_tests; k++) {
        gr_case c;
        build(k, 1, &c);
        if (rubric.tests[k].visibility == GR_VISIBLE) visible[c.call.fn]++;
        else hidden[c.call.fn]++;
        /* float outputs need a tolerance; bucket indices compare exactly */
        if (c.call.bufs[0].kind == PROTO_F32)
            ck_assert_msg(rubric.tests[k].abs_tol > 0 && rubric.tests[k].rel_tol > 0,
                          "%s: give a tolerance", rubric.tests[k].name);
        gr_case_free(&c);
    }
    for (int f = 0; f < LAB06_N_CALLS; f++)
        ck_assert_msg(visible[f] >= 1 && hidden[f] >= 1,
                      "function %d needs a visible and a hidden test", f);
}
END_TEST

/* ---- cases: errors say what to fix ----------------------------------------------- */

START_TEST(test_case_errors_say_what_to_fix)
{
    char err[256] = "";
    /* 8 buckets, bidirectional: max_exact 2, so no log range */
    refuse_param("relpos", "max_distance", 2, err, sizeof err);
    ck_assert_msg(strstr(err, "max_distance") && strstr(err, "use"), "%s", err);
}
END_TEST

/* ---- expected values --------------------------------------------------------------- */

START_TEST(test_expected_slopes_eight_heads)
{
    /* H = 8 is a power of two: 2^(-8(h+1)/8) = 2^-(h+1) = 1/2, 1/4, ..., 1/256. */
    gr_case c;
    build_named("slopes_eight_heads", 1, &c);
    const float *m = c.expected[0];
    for (int h = 0; h < 8; h++)
        NEAR(m[h], 1.0 / (double)(2 << h), 1e-9);
    gr_case_free(&c);
}
END_TEST

START_TEST(test_expected_slopes_interleaved)
{
    /* Every drawn H is not a power of two; with P the largest power of two <= H,
       the first P slopes are 2^(-8(h+1)/P) and the rest 2^(-8(2t+1)/(2P)), so all
       lie in (0, 1), all differ, and the first P fall from 2^(-8/P) to 2^-8. */
    for (uint64_t s = 1; s <= 8; s++) {
        gr_case c;
        build_named("slopes_interleaved", s, &c);
        int H = (int)c.call.ints[0], P = 1;
        while (P * 2 <= H) P *= 2;
        ck_assert_int_ne(P, H);
        const float *m = c.expected[0];
        NEAR(m[P - 1], 1.0 / 256.0, 1e-9);
        NEAR(m[P], pow(2.0, -8.0 / (2 * P)), 1e-7);
        for (int a = 0; a < H; a++) {
            ck_assert(m[a] > 0.0f && m[a] < 1.0f);
            for (int b = a + 1; b < H; b++) ck_assert(m[a] != m[b]);
        }
        gr_case_free(&c);
    }
}
END_TEST

START_TEST(test_expected_alibi_bias)
{
    /* alibi_small: batch 2, H = 4 (slopes 1/4, 1/16, 1/64, 1/256), Tq = Tk = 5.
       The bias added to S[b][i][j] is m_{b % 4} * (j - i): 0 on the diagonal,
       e.g. b = 5 (head 1), i = 4, j = 0: (1/16) * (0 - 4) = -0.25. */
    gr_case c;
    build_named("alibi_small", 3, &c);
    const float *in = c.call.bufs[0].data, *out = c.expected[0];
    const double m[4] = { 0.25, 0.0625, 0.015625, 0.00390625 };
    for (int b = 0; b < 8; b++)
        for (int i = 0; i < 5; i++)
            for (int j = 0; j < 5; j++) {
                int k = (b * 5 + i) * 5 + j;
                NEAR(out[k] - in[k], m[b % 4] * (j - i), 1e-6);
            }
    NEAR(out[(5 * 5 + 4) * 5 + 0] - in[(5 * 5 + 4) * 5 + 0], -0.25, 1e-6);
    gr_case_free(&c);
    /* causal: -inf above the diagonal stays -inf, finite stays finite */
    build_named("alibi_causal_minus_inf", 3, &c);
    in = c.call.bufs[0].data;
    out = c.expected[0];
    for (long k = 0; k < (long)c.call.bufs[0].count; k++)
        ck_assert(isinf(in[k]) ? (isinf(out[k]) && out[k] < 0) : isfinite(out[k]));
    gr_case_free(&c);
}
END_TEST

START_TEST(test_expected_t5_worked_rows)
{
    /* Encoder setting: bidirectional, 32 buckets, max_distance 128: nb = 16 a side,
       max_exact = 8. rel -3 -> 3; +3 -> 16 + 3 = 19;
       -20 -> 8 + (int)(ln 2.5 / ln 16 * 8) = 8 + (int)2.64 = 10;
       -127 -> 8 + (int)(ln 15.875 / ln 16 * 8) = 8 + (int)7.98 = 15;
       -1000 -> 8 + 13 = 21, clamped to 15; 0 -> 0; +1 -> 17; -8 -> 8 + 0 = 8;
       +8 -> 16 + 8 = 24; +16 -> 16 + 8 + (int)(ln 2 / ln 16 * 8) = 16 + 8 + 2 = 26. */
    const int32_t want[10] = { 3, 19, 10, 15, 15, 0, 17, 8, 24, 26 };
    gr_case c;
    build_named("t5_worked_rows", 1, &c);
    ck_assert_int_eq((int)c.call.bufs[0].count, 10);
    const int32_t *got = c.expected[0];
    for (int k = 0; k < 10; k++) ck_assert_int_eq(got[k], want[k]);
    gr_case_free(&c);
}
END_TEST

START_TEST(test_expected_t5_properties)
{
    /* Buckets lie in [0, num_buckets); keys ahead get the upper half when
       bidirectional and bucket 0 one-directional; within a side the bucket never
       falls as the distance grows; every distance >= max_distance shares the last
       bucket of its side. The 9-bucket decoder test holds the handout's float32
       case: distance 16 -> bucket 6 (double arithmetic gives 5). */
    const char *names[2] = { "t5_encoder", "t5_decoder_float32" };
    for (int q = 0; q < 2; q++) {
        gr_case c;
        build_named(names[q], (uint64_t)_i + 1, &c);
        int n = (int)c.call.ints[0], bidir = (int)c.call.ints[1], nbk = (int)c.call.ints[2],
            maxd = (int)c.call.ints[3];
        int nb = bidir ? nbk / 2 : nbk;
        const int32_t *rel = c.call.bufs[1].data, *bk = c.expected[0];
        for (int a = 0; a < n; a++) {
            ck_assert(bk[a] >= 0 && bk[a] < nbk);
            if (rel[a] > 0) ck_assert(bidir ? bk[a] >= nb : bk[a] == 0);
            long da = rel[a] < 0 ? -(long)rel[a] : rel[a];
            if (da >= maxd && (bidir || rel[a] < 0))
                ck_assert_int_eq(bk[a], (rel[a] > 0 ? nb : 0) + nb - 1);
            for (int b = 0; b < n; b++) {
                long db = rel[b] < 0 ? -(long)rel[b] : rel[b];
                if ((rel[a] > 0) == (rel[b] > 0) && da < db)
                    ck_assert(bk[a] <= bk[b]);
            }
            if (!bidir && rel[a] == -16) ck_assert_int_eq(bk[a], 6);
        }
        gr_case_free(&c);
    }
}
END_TEST

START_TEST(test_expected_relpos_diagonal)
{
    /* rel = 0 on the diagonal: bucket 0, so S[b][i][i] gains table[b % H][0]. */
    gr_case c;
    build_named("relpos_decoder", 2, &c);
    int B = (int)c.call.ints[0], H = (int)c.call.ints[1], Tq = (int)c.call.ints[2],
        Tk = (int)c.call.ints[3], nbk = (int)c.call.ints[5];
    const float *in = c.call.bufs[0].data, *table = c.call.bufs[1].data, *out = c.expected[0];
    for (int b = 0; b < B; b++)
        for (int i = 0; i < Tq && i < Tk; i++) {
            long k = ((long)b * Tq + i) * Tk + i;
            NEAR(out[k] - in[k], table[(b % H) * nbk], 1e-6);
        }
    gr_case_free(&c);
}
END_TEST

START_TEST(test_expected_dropout)
{
    /* Each weight is either dropped (exactly 0) or kept and divided by 1 - p; for
       p = 0.1 over 1600 weights about 160 drop (3 sigma = 36). p = 0 changes
       nothing; p = 1 is refused and W comes back untouched. */
    gr_case c;
    build_named("dropout_large", (uint64_t)_i + 1, &c);
    const float *in = c.call.bufs[0].data, *out = c.expected[0];
    long n = (long)c.call.bufs[0].count, dropped = 0;
    float p = (float)c.call.reals[0];
    for (long k = 0; k < n; k++) {
        if (out[k] == 0.0f) { dropped++; continue; }
        NEAR(out[k], in[k] / (1.0f - p), 1e-6 * (double)out[k]);
    }
    ck_assert_int_ge(dropped, 124);
    ck_assert_int_le(dropped, 196);
    gr_case_free(&c);
    build_named("dropout_eval_mode", 1, &c);
    ck_assert(memcmp(c.expected[0], c.call.bufs[0].data, buf_bytes(&c.call.bufs[0])) == 0);
    gr_case_free(&c);
    build_named("dropout_p_one", 1, &c);
    ck_assert_int_eq(c.expected_status, LAB_BAD_ARG);
    ck_assert(memcmp(c.expected[0], c.call.bufs[0].data, buf_bytes(&c.call.bufs[0])) == 0);
    gr_case_free(&c);
}
END_TEST

START_TEST(test_expected_output_convex)
{
    /* W rows are softmax rows, so every O[b][i][c] lies between the smallest and
       largest V[b][j][c] over j (a convex combination of value rows). */
    const char *names[2] = { "output_small", "output_rect" };
    for (int q = 0; q < 2; q++) {
        gr_case c;
        build_named(names[q], (uint64_t)_i + 1, &c);
        int B = (int)c.call.ints[0], Tq = (int)c.call.ints[1], Tk = (int)c.call.ints[2],
            dv = (int)c.call.ints[3];
        const float *V = c.call.bufs[2].data, *O = c.expected[0];
        for (int b = 0; b < B; b++)
            for (int i = 0; i < Tq; i++)
                for (int ch = 0; ch < dv; ch++) {
                    float lo = INFINITY, hi = -INFINITY;
                    for (int j = 0; j < Tk; j++) {
                        lo = fminf(lo, V[((long)b * Tk + j) * dv + ch]);
                        hi = fmaxf(hi, V[((long)b * Tk + j) * dv + ch]);
                    }
                    float o = O[((long)b * Tq + i) * dv + ch];
                    ck_assert(o >= lo - 1e-6f && o <= hi + 1e-6f);
                }
        gr_case_free(&c);
    }
}
END_TEST

START_TEST(test_input_window_names_the_draw)
{
    /* A dropout mismatch shows the weight's input and its uniform draw. */
    gr_case c;
    build_named("dropout_small", 1, &c);
    char *s = window_text(&c, 0, 3);
    ck_assert_msg(strstr(s, "W[0][0][3] was ") && strstr(s, "draw #3") && strstr(s, "p = 0.25"),
                  "%s", s);
    free(s);
    gr_case_free(&c);
    /* A bucket mismatch shows rel and the settings. */
    build_named("t5_worked_rows", 1, &c);
    s = window_text(&c, 0, 2);
    ck_assert_msg(strstr(s, "rel[2] = -20") && strstr(s, "max_exact = 8"), "%s", s);
    free(s);
    gr_case_free(&c);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("grader lab06");
    TCase *tc = tcase_create("lab06");
    tcase_add_unchecked_fixture(tc, load_rubric, free_rubric);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_rubric_points_per_function);
    tcase_add_test(tc, test_rubric_visible_and_hidden);
    tcase_add_test(tc, test_case_errors_say_what_to_fix);
    tcase_add_test(tc, test_expected_slopes_eight_heads);
    tcase_add_test(tc, test_expected_slopes_interleaved);
    tcase_add_test(tc, test_expected_alibi_bias);
    tcase_add_test(tc, test_expected_t5_worked_rows);
    tcase_add_loop_test(tc, test_expected_t5_properties, 0, 2);
    tcase_add_test(tc, test_expected_relpos_diagonal);
    tcase_add_loop_test(tc, test_expected_dropout, 0, 3);
    tcase_add_loop_test(tc, test_expected_output_convex, 0, 3);
    tcase_add_test(tc, test_input_window_names_the_draw);
    suite_add_tcase(s, tc);
    return s;
}
