/* test_score_edits.c: masks, temperature, ALiBi and T5 relative position bias,
 * all acting on scores before softmax.
 */
#include <check.h>
#include <math.h>

#include "attn.h"
#include "expect.h"

Suite *test_suite(void);

/* s is -inf exactly: masks write -INFINITY, never a large negative constant. */
static int is_neg_inf(float s)
{
    return isinf(s) && s < 0.0f;
}

/* ------------------------------------------------------------------ */
/* Masks                                                                */
/* ------------------------------------------------------------------ */

START_TEST(causal_square)
{
    /* Tq = Tk = 3, scores 1..9: keys after the query become -inf.
         [1  -  -]
         [4  5  -]
         [7  8  9]  */
    float S[9];
    for (int n = 0; n < 9; n++) S[n] = (float)(n + 1);
    attn_causal_mask(S, 1, 3, 3);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            float s = S[i * 3 + j];
            if (j > i) expect(is_neg_inf(s), "S[%d][%d] = %g, expected -inf", i, j, (double)s);
            else expect_near("S", i * 3 + j, (double)s, (double)(i * 3 + j + 1), 0.0);
        }
}
END_TEST

START_TEST(causal_rectangular_and_batched)
{
    /* B = 2, Tq = 2, Tk = 4: row i keeps keys 0..i (top-left aligned) in every
       batch entry: rows [k - - -] and [k k - -]. */
    float S[16];
    for (int n = 0; n < 16; n++) S[n] = 0.5f;
    attn_causal_mask(S, 2, 2, 4);
    for (int b = 0; b < 2; b++)
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 4; j++) {
                float s = S[(b * 2 + i) * 4 + j];
                expect(j > i ? is_neg_inf(s) : s == 0.5f, "S[%d][%d][%d] = %g", b, i, j,
                              (double)s);
            }
}
END_TEST

START_TEST(padding_mask)
{
    /* B = 3, Tq = 2, Tk = 3, lengths [2, 0, 5]: batch 0 masks key 2, batch 1
       masks every key, batch 2 (length beyond Tk) masks nothing. */
    const int lengths[] = {2, 0, 5};
    float S[18];
    for (int n = 0; n < 18; n++) S[n] = (float)n;
    attn_padding_mask(S, lengths, 3, 2, 3);
    for (int b = 0; b < 3; b++)
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 3; j++) {
                int n = (b * 2 + i) * 3 + j;
                if (j >= lengths[b]) expect(is_neg_inf(S[n]), "S[%d][%d][%d] = %g, expected -inf", b, i, j, (double)S[n]);
                else expect_near("S", n, (double)S[n], (double)n, 0.0);
            }
}
END_TEST

START_TEST(bool_mask)
{
    /* Nonzero = blocked (any nonzero byte, not only 1). */
    const unsigned char mask[] = {0, 1, 0, 2, 0, 0, 255, 0};
    float S[8];
    for (int n = 0; n < 8; n++) S[n] = -1.0f;
    attn_bool_mask(S, mask, 2, 2, 2);
    for (int n = 0; n < 8; n++) {
        if (mask[n]) expect(is_neg_inf(S[n]), "S[%d] = %g, expected -inf", n, (double)S[n]);
        else expect_near("S", n, (double)S[n], -1.0, 0.0);
    }
}
END_TEST

/* ------------------------------------------------------------------ */
/* Temperature                                                          */
/* ------------------------------------------------------------------ */

START_TEST(temperature_divides)
{
    /* tau = 2 on the worked row [2, 1, -1, 0.5] -> [1, 0.5, -0.5, 0.25];
       a masked score stays -inf. */
    float S[] = {2, 1, -1, 0.5f, -INFINITY};
    const float want[] = {1, 0.5f, -0.5f, 0.25f};
    ck_assert_int_eq(attn_temperature(S, 2.0f, 5), 0);
    for (int n = 0; n < 4; n++) expect_near("S", n, (double)S[n], (double)want[n], 0.0);
    ck_assert(is_neg_inf(S[4]));
}
END_TEST

static const float BAD_TAU[] = {0.0f, -1.0f, -0.0f, NAN, -INFINITY};

START_TEST(temperature_rejects_bad_tau)
{
    /* tau must be > 0: anything else returns -1 and leaves S untouched. */
    float S[] = {2, 1, -1, 0.5f};
    ck_assert_int_eq(attn_temperature(S, BAD_TAU[_i], 4), -1);
    ck_assert(S[0] == 2.0f && S[1] == 1.0f && S[2] == -1.0f && S[3] == 0.5f);
}
END_TEST

/* ------------------------------------------------------------------ */
/* ALiBi                                                                */
/* ------------------------------------------------------------------ */

static void expect_slopes(int H, const double *want)
{
    float slopes[16];
    attn_alibi_slopes(slopes, H);
    for (int h = 0; h < H; h++)
        expect(fabs((double)slopes[h] - want[h]) <= 1e-7 * want[h],
                      "H = %d: slope[%d] = %.9g, expected %.9g", H, h, (double)slopes[h], want[h]);
}

START_TEST(alibi_slopes_8_heads)
{
    /* Press et al.: 2^(-8/8 (h+1)) = 1/2, 1/4, ..., 1/256. */
    const double want[8] = {1.0 / 2, 1.0 / 4, 1.0 / 8, 1.0 / 16,
                            1.0 / 32, 1.0 / 64, 1.0 / 128, 1.0 / 256};
    expect_slopes(8, want);
}
END_TEST

START_TEST(alibi_slopes_16_heads)
{
    /* 2^(-8/16 (h+1)) = 2^-0.5, 2^-1, 2^-1.5, ..., 2^-8. */
    double want[16];
    for (int h = 0; h < 16; h++) want[h] = pow(2.0, -0.5 * (h + 1));
    expect_slopes(16, want);
}
END_TEST

START_TEST(alibi_slopes_12_heads)
{
    /* 12 is not a power of two: the 8-head slopes, then every other 16-head
       slope (2^-0.5, 2^-1.5, 2^-2.5, 2^-3.5), 12 - 8 = 4 of them. */
    const double want[12] = {1.0 / 2, 1.0 / 4, 1.0 / 8, 1.0 / 16, 1.0 / 32, 1.0 / 64,
                             1.0 / 128, 1.0 / 256,
                             0.70710678118654752, 0.35355339059327376,
                             0.17677669529663688, 0.08838834764831844};
    expect_slopes(12, want);
}
END_TEST

START_TEST(alibi_slopes_small_counts)
{
    /* H = 1: 2^-8. H = 2: 2^-4, 2^-8. H = 6: the 4-head slopes
       2^-2, 2^-4, 2^-6, 2^-8, then 8-head slopes 0 and 2: 2^-1, 2^-3. */
    const double one[1] = {1.0 / 256};
    const double two[2] = {1.0 / 16, 1.0 / 256};
    const double six[6] = {1.0 / 4, 1.0 / 16, 1.0 / 64, 1.0 / 256, 1.0 / 2, 1.0 / 8};
    expect_slopes(1, one);
    expect_slopes(2, two);
    expect_slopes(6, six);
}
END_TEST

START_TEST(alibi_bias_hand_computed)
{
    /* B = 2 (two heads, H = 2, slopes 1/16 and 1/256), Tq = 2, Tk = 3, S = 0:
       head 0, row 0: 1/16 * [0, 1, 2]   = [0, 0.0625, 0.125]
       head 0, row 1: 1/16 * [-1, 0, 1]  = [-0.0625, 0, 0.0625]
       head 1, row 1: 1/256 * [-1, 0, 1] = [-0.00390625, 0, 0.00390625]
       All are exact in float. */
    float S[12] = {0};
    attn_alibi_bias(S, 2, 2, 2, 3);
    const float want[12] = {0, 0.0625f, 0.125f, -0.0625f, 0, 0.0625f,
                            0, 0.00390625f, 0.0078125f, -0.00390625f, 0, 0.00390625f};
    for (int n = 0; n < 12; n++) expect_near("S", n, (double)S[n], (double)want[n], 0.0);
}
END_TEST

START_TEST(alibi_bias_heads_fastest)
{
    /* B = 4 with H = 2 is batch 2 x heads 2, heads fastest: entries 0 and 2 are
       head 0, entries 1 and 3 head 1. Row 1, key 0 gets -slope. */
    float S[4 * 2 * 2] = {0};
    attn_alibi_bias(S, 4, 2, 2, 2);
    for (int b = 0; b < 4; b++) {
        double slope = b % 2 == 0 ? 1.0 / 16 : 1.0 / 256;
        expect_near("S[b][1][0]", b, (double)S[(b * 2 + 1) * 2 + 0], -slope, 0.0);
    }
}
END_TEST

START_TEST(alibi_bias_keeps_masked)
{
    /* -inf + finite bias is still -inf: a masked key stays masked. */
    float S[4] = {0};
    attn_causal_mask(S, 1, 2, 2);
    attn_alibi_bias(S, 1, 1, 2, 2);
    ck_assert(is_neg_inf(S[1]));
    ck_assert(S[2] < 0.0f && isfinite(S[2]));
}
END_TEST

/* ------------------------------------------------------------------ */
/* T5 relative position buckets and bias                                */
/* ------------------------------------------------------------------ */

/* One bucket case: rel, bidirectional, num_buckets, max_distance, expected. */
typedef struct bucket_case {
    int rel, bidirectional, num_buckets, max_distance, want;
} bucket_case;

/* Bidirectional, 32 buckets, max_distance 128: 16 buckets per side (keys after
   the query get +16), max_exact = 8; for n = |rel| >= 8 the bucket is
   8 + floor(ln(n/8) / ln(128/8) * (16 - 8)) = 8 + floor(8 ln(n/8) / ln 16):
     n = 8:   8 + floor(0)                         = 8
     n = 11:  8 + floor(8 * 0.31845 / 2.77259 = 0.919) = 8
     n = 12:  8 + floor(8 * 0.40547 / 2.77259 = 1.170) = 9
     n = 16:  8 + floor(8 * ln 2 / (4 ln 2) = 2)   = 10   (an exact boundary)
     n = 31:  8 + floor(8 * 1.35455 / 2.77259 = 3.908) = 11
     n = 32:  8 + 4                                = 12
     n = 64:  8 + 6                                = 14
     n = 127: 8 + floor(8 * 2.76474 / 2.77259 = 7.977) = 15
     n >= 128: clamped to 15.
   Unidirectional (causal), 32 buckets, max_distance 128: max_exact = 16, keys
   after the query share bucket 0, and for n >= 16 the bucket is
   16 + floor(16 ln(n/16) / ln 8):
     n = 16: 16;  n = 20: 16 + floor(16 * 0.22314 / 2.07944 = 1.717) = 17
     n = 32: 16 + floor(16/3 = 5.33) = 21;  n = 64: 16 + floor(32/3 = 10.67) = 26
     n = 127: 16 + floor(16 * 2.07158 / 2.07944 = 15.94) = 31;  n >= 128: 31. */
static const bucket_case BUCKETS[] = {
    {0, 1, 32, 128, 0},     {-1, 1, 32, 128, 1},    {1, 1, 32, 128, 17},
    {-7, 1, 32, 128, 7},    {-8, 1, 32, 128, 8},    {-11, 1, 32, 128, 8},
    {-12, 1, 32, 128, 9},   {-16, 1, 32, 128, 10},  {-31, 1, 32, 128, 11},
    {-32, 1, 32, 128, 12},  {-64, 1, 32, 128, 14},  {-127, 1, 32, 128, 15},
    {-128, 1, 32, 128, 15}, {-1000, 1, 32, 128, 15},
    {7, 1, 32, 128, 23},    {8, 1, 32, 128, 24},    {16, 1, 32, 128, 26},
    {127, 1, 32, 128, 31},  {1000, 1, 32, 128, 31},
    {0, 0, 32, 128, 0},     {5, 0, 32, 128, 0},     {-1, 0, 32, 128, 1},
    {-15, 0, 32, 128, 15},  {-16, 0, 32, 128, 16},  {-20, 0, 32, 128, 17},
    {-32, 0, 32, 128, 21},  {-64, 0, 32, 128, 26},  {-127, 0, 32, 128, 31},
    {-128, 0, 32, 128, 31}, {-500, 0, 32, 128, 31},
    /* too few buckets to split: -1 */
    {0, 1, 3, 128, -1},     {0, 0, 1, 128, -1},
};

START_TEST(t5_bucket_table)
{
    const bucket_case *c = &BUCKETS[_i];
    int got = attn_t5_bucket(c->rel, c->bidirectional, c->num_buckets, c->max_distance);
    expect(got == c->want, "attn_t5_bucket(rel %d, bidirectional %d, %d buckets, max %d) = %d, expected %d",
                  c->rel, c->bidirectional, c->num_buckets, c->max_distance, got, c->want);
}
END_TEST

START_TEST(t5_bucket_monotone)
{
    /* Buckets never decrease with distance, on either side, and stay in range. */
    for (int bidir = 0; bidir <= 1; bidir++) {
        int prev_before = -1, prev_after = -1;
        for (int n = 0; n < 1000; n++) {
            int before = attn_t5_bucket(-n, bidir, 32, 128);
            int after = attn_t5_bucket(n, bidir, 32, 128);
            expect(before >= prev_before && before >= 0 && before < 32,
                   "bidirectional %d: bucket(%d) = %d after bucket(%d) = %d", bidir, -n, before, 1 - n, prev_before);
            expect(after >= prev_after && after >= 0 && after < 32,
                   "bidirectional %d: bucket(%d) = %d after bucket(%d) = %d", bidir, n, after, n - 1, prev_after);
            prev_before = before;
            prev_after = after;
        }
    }
}
END_TEST

START_TEST(relpos_bias_hand_computed)
{
    /* Bidirectional, 8 buckets (4 per side, max_exact 2), max_distance 8, with
       B = 2 heads (H = 2), Tq = Tk = 3. Buckets of rel = j - i:
         rel -2 -> 2 + floor(2 ln(1) / ln 4) = 2;  rel -1 -> 1;  rel 0 -> 0
         rel  1 -> 4 + 1 = 5;                      rel  2 -> 4 + 2 = 6
       table[h][k] = 10 h + k, so head 0 adds the bucket, head 1 adds 10 more:
         row 0 (rel 0, 1, 2):   [0, 5, 6]
         row 1 (rel -1, 0, 1):  [1, 0, 5]
         row 2 (rel -2, -1, 0): [2, 1, 0] */
    float table[2 * 8];
    for (int h = 0; h < 2; h++)
        for (int k = 0; k < 8; k++) table[h * 8 + k] = (float)(10 * h + k);
    float S[2 * 9] = {0};
    attn_relpos_bias(S, table, 2, 2, 3, 3, 1, 8, 8);
    const float head0[9] = {0, 5, 6, 1, 0, 5, 2, 1, 0};
    for (int n = 0; n < 9; n++) {
        expect_near("S head 0", n, (double)S[n], (double)head0[n], 0.0);
        expect_near("S head 1", n, (double)S[9 + n], (double)(head0[n] + 10), 0.0);
    }
}
END_TEST

START_TEST(relpos_bias_bad_buckets_leave_S)
{
    /* 2 buckets cannot be split into two halves: S is left as it was. */
    float table[2] = {1, 2}, S[4] = {0, 1, 2, 3};
    attn_relpos_bias(S, table, 1, 1, 2, 2, 1, 2, 8);
    for (int n = 0; n < 4; n++) expect_near("S", n, (double)S[n], (double)n, 0.0);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("attn_score_edits");
    TCase *masks = tcase_create("masks");
    tcase_add_test(masks, causal_square);
    tcase_add_test(masks, causal_rectangular_and_batched);
    tcase_add_test(masks, padding_mask);
    tcase_add_test(masks, bool_mask);
    suite_add_tcase(s, masks);

    TCase *temp = tcase_create("temperature");
    tcase_add_test(temp, temperature_divides);
    tcase_add_loop_test(temp, temperature_rejects_bad_tau, 0,
                        (int)(sizeof BAD_TAU / sizeof BAD_TAU[0]));
    suite_add_tcase(s, temp);

    TCase *alibi = tcase_create("alibi");
    tcase_add_test(alibi, alibi_slopes_8_heads);
    tcase_add_test(alibi, alibi_slopes_16_heads);
    tcase_add_test(alibi, alibi_slopes_12_heads);
    tcase_add_test(alibi, alibi_slopes_small_counts);
    tcase_add_test(alibi, alibi_bias_hand_computed);
    tcase_add_test(alibi, alibi_bias_heads_fastest);
    tcase_add_test(alibi, alibi_bias_keeps_masked);
    suite_add_tcase(s, alibi);

    TCase *t5 = tcase_create("t5 relative position");
    tcase_add_loop_test(t5, t5_bucket_table, 0, (int)(sizeof BUCKETS / sizeof BUCKETS[0]));
    tcase_add_test(t5, t5_bucket_monotone);
    tcase_add_test(t5, relpos_bias_hand_computed);
    tcase_add_test(t5, relpos_bias_bad_buckets_leave_S);
    suite_add_tcase(s, t5);
    return s;
}
