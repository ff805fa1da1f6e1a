/* test_heads.c: per-head weights, grouped-query key sharing, the average of
 * weights against the softmax of averaged scores, and one head's extraction
 * (attn_heads.c), with the numbers lab 10's handout works by hand.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "attn.h"
#include "labsup.h"
#include "expect.h"

Suite *test_suite(void);

/* n standard normals from seed, times scale. */
static float *normals(long n, uint64_t seed, float scale)
{
    float *x = malloc((size_t)n * sizeof *x);
    ck_assert_ptr_nonnull(x);
    sup_rng rng;
    sup_rng_seed(&rng, seed);
    sup_rng_fill_normal(&rng, x, n);
    for (long k = 0; k < n; k++) x[k] *= scale;
    return x;
}

/* ------------------------------------------------------------------ */
/* Grouped-query key sharing                                            */
/* ------------------------------------------------------------------ */

START_TEST(gqa_kv_head_table)
{
    /* H = 8 query heads, Hkv = 2 kv heads: groups of 4, so heads 0-3 read kv 0
       and heads 4-7 kv 1. h % Hkv would give 0, 1, 0, 1, ... instead.
       Hkv = 8 is plain multi-head (head h reads kv h); Hkv = 1 multi-query. */
    const int want2[8] = {0, 0, 0, 0, 1, 1, 1, 1};
    for (int h = 0; h < 8; h++) {
        ck_assert_int_eq(attn_gqa_kv_head(h, 8, 2), want2[h]);
        ck_assert_int_eq(attn_gqa_kv_head(h, 8, 8), h);
        ck_assert_int_eq(attn_gqa_kv_head(h, 8, 1), 0);
    }
    /* H = 12, Hkv = 4: groups of 3 */
    ck_assert_int_eq(attn_gqa_kv_head(5, 12, 4), 1);
    ck_assert_int_eq(attn_gqa_kv_head(11, 12, 4), 3);
    /* 6 heads cannot share 4 kv heads evenly; h outside [0, H) has no kv head */
    ck_assert_int_eq(attn_gqa_kv_head(0, 6, 4), -1);
    ck_assert_int_eq(attn_gqa_kv_head(8, 8, 2), -1);
    ck_assert_int_eq(attn_gqa_kv_head(-1, 8, 2), -1);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Per-head weights                                                     */
/* ------------------------------------------------------------------ */

START_TEST(head_weights_hand_computed)
{
    /* B = 1, H = 2, Tq = 1, Tk = 2, d = 4. Head 0: q = (1, 1, 1, 1), keys
       (1, 1, 1, 1) and 0: scores 4 / sqrt(4) = 2 and 0 -> weights
       e^2 / (e^2 + 1) = 0.880797, 0.119203. Head 1: q = 0: scores 0, 0 ->
       0.5, 0.5. Softmax is per head: head 1's flat row is not pulled toward
       head 0's. */
    const float Q[2 * 4] = {1, 1, 1, 1, 0, 0, 0, 0};
    const float K[2 * 2 * 4] = {1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0};
    float W[4];
    ck_assert_int_eq(attn_head_weights(W, Q, K, 1, 2, 2, 1, 2, 4), 0);
    const double want[4] = {0.880797, 0.119203, 0.5, 0.5};
    for (int k = 0; k < 4; k++) expect_near("W", k, (double)W[k], want[k], 1e-6);
}
END_TEST

START_TEST(head_weights_rows_are_distributions)
{
    /* Every (b, h, i) row is non-negative and sums to 1: softmax over the key
       axis. A softmax over heads or over queries would not give that. */
    enum { B = 2, H = 3, Tq = 5, Tk = 7, d = 8 };
    float *Q = normals((long)B * H * Tq * d, 1, 1.5f), *K = normals((long)B * H * Tk * d, 2, 1.5f);
    float W[B * H * Tq * Tk];
    ck_assert_int_eq(attn_head_weights(W, Q, K, B, H, H, Tq, Tk, d), 0);
    for (int r = 0; r < B * H * Tq; r++) {
        double sum = 0.0;
        for (int j = 0; j < Tk; j++) {
            expect(W[r * Tk + j] >= 0.0f, "W row %d has a negative weight", r);
            sum += (double)W[r * Tk + j];
        }
        expect_near("row sum", r, sum, 1.0, 1e-6);
    }
    free(Q);
    free(K);
}
END_TEST

START_TEST(gqa_equals_repeated_kv_heads)
{
    /* GQA with Hkv kv heads is multi-head attention whose K repeats each kv head
       H / Hkv times in a row (what repeat_kv / repeat_interleave does).
       H = 6, Hkv = 2: heads 0-2 see kv 0, heads 3-5 kv 1. */
    enum { B = 2, H = 6, Hkv = 2, Tq = 3, Tk = 4, d = 5 };
    float *Q = normals((long)B * H * Tq * d, 3, 1.0f), *K = normals((long)B * Hkv * Tk * d, 4, 1.0f);
    float Krep[B * H * Tk * d], W[B * H * Tq * Tk], Wrep[B * H * Tq * Tk];
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            memcpy(Krep + ((long)b * H + h) * Tk * d, K + ((long)b * Hkv + h / (H / Hkv)) * Tk * d,
                   sizeof(float) * Tk * d);
    ck_assert_int_eq(attn_head_weights(W, Q, K, B, H, Hkv, Tq, Tk, d), 0);
    ck_assert_int_eq(attn_head_weights(Wrep, Q, Krep, B, H, H, Tq, Tk, d), 0);
    for (int k = 0; k < B * H * Tq * Tk; k++) expect(W[k] == Wrep[k], "W[%d] differs", k);
    /* a bad grouping is refused and W stays as it was */
    W[0] = -1.0f;
    ck_assert_int_eq(attn_head_weights(W, Q, K, B, H, 4, Tq, Tk, d), -1);
    ck_assert(W[0] == -1.0f);
    free(Q);
    free(K);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Average of weights vs softmax of averaged scores                     */
/* ------------------------------------------------------------------ */

START_TEST(average_worked_example)
{
    /* Lab 10's handout, section 3: 2 heads, 3 keys.
         head 0 scores [2, 0, 0] -> weights [0.786986, 0.106507, 0.106507]
         head 1 scores [0, 0, 2] -> weights [0.106507, 0.106507, 0.786986]
       average of the weights  A = [0.446747, 0.106507, 0.446747], H = 0.958472
       softmax of mean scores  M = softmax([1, 0, 1])
                                 = [e, 1, e] / (2e + 1)
                                 = [0.422319, 0.155362, 0.422319],  H = 1.017357
       gap: max |A - M| = 0.048855 (the middle key), H(A) - H(M) = -0.058886:
       here the averaged weights are the sharper of the two. */
    const float S[2 * 3] = {2, 0, 0, 0, 0, 2};
    float W[6], A[3], M[3], gap, dH;
    attn_softmax(W, S, 2, 3);
    attn_head_mean_weights(A, W, 1, 2, 1, 3);
    ck_assert_int_eq(attn_softmax_of_mean_scores(M, S, 1, 2, 1, 3), 0);
    const double wantA[3] = {0.446747, 0.106507, 0.446747};
    const double wantM[3] = {0.422319, 0.155362, 0.422319};
    for (int j = 0; j < 3; j++) {
        expect_near("A", j, (double)A[j], wantA[j], 1e-6);
        expect_near("M", j, (double)M[j], wantM[j], 1e-6);
    }
    attn_weight_gap(&gap, &dH, A, M, 1, 3);
    expect_near("max |A - M|", 0, (double)gap, 0.048855, 1e-6);
    expect_near("H(A) - H(M)", 0, (double)dH, -0.058886, 1e-6);
}
END_TEST

START_TEST(average_can_be_flatter)
{
    /* The other direction: head 0 sure of key 0 (scores [6, 0, 0]), head 1
       uniform ([0, 0, 0]). Mean scores [3, 0, 0] keep head 0's certainty:
       M = [0.909443, 0.045279, 0.045279], H = 0.366594; averaging the
       weights dilutes it: A = [0.664200, 0.167900, 0.167900], H = 0.870969.
       H(A) - H(M) = +0.504375, and max |A - M| = 0.245243. */
    const float S[2 * 3] = {6, 0, 0, 0, 0, 0};
    float W[6], A[3], M[3], gap, dH;
    attn_softmax(W, S, 2, 3);
    attn_head_mean_weights(A, W, 1, 2, 1, 3);
    attn_softmax_of_mean_scores(M, S, 1, 2, 1, 3);
    attn_weight_gap(&gap, &dH, A, M, 1, 3);
    expect_near("max |A - M|", 0, (double)gap, 0.245243, 1e-6);
    expect_near("H(A) - H(M)", 0, (double)dH, 0.504375, 1e-6);
}
END_TEST

START_TEST(average_rows_are_distributions)
{
    /* Random heads: every row of A and of M sums to 1, and they differ;
       with one head, or identical heads, they are equal. */
    enum { B = 2, H = 4, Tq = 3, Tk = 6 };
    float *S = normals((long)B * H * Tq * Tk, 5, 2.0f);
    float W[B * H * Tq * Tk], A[B * Tq * Tk], M[B * Tq * Tk], gap[B * Tq], dH[B * Tq];
    attn_softmax(W, S, (long)B * H * Tq, Tk);
    attn_head_mean_weights(A, W, B, H, Tq, Tk);
    attn_softmax_of_mean_scores(M, S, B, H, Tq, Tk);
    attn_weight_gap(gap, dH, A, M, (long)B * Tq, Tk);
    for (int r = 0; r < B * Tq; r++) {
        double sa = 0.0, sm = 0.0;
        for (int j = 0; j < Tk; j++) sa += (double)A[r * Tk + j], sm += (double)M[r * Tk + j];
        expect_near("row sum of A", r, sa, 1.0, 1e-6);
        expect_near("row sum of M", r, sm, 1.0, 1e-6);
        expect(gap[r] > 1e-3f, "row %d: A and M agree to %g; random heads should not", r, (double)gap[r]);
    }
    /* H = 1: the mean of one head is that head, so A == M up to rounding */
    attn_head_mean_weights(A, W, 1, 1, Tq, Tk);
    attn_softmax_of_mean_scores(M, S, 1, 1, Tq, Tk);
    attn_weight_gap(gap, dH, A, M, Tq, Tk);
    for (int r = 0; r < Tq; r++) expect(gap[r] < 1e-7f && fabsf(dH[r]) < 1e-6f, "row %d differs", r);
    free(S);
}
END_TEST

START_TEST(gap_propagates_nan)
{
    const float A[3] = {0.5f, NAN, 0.5f}, M[3] = {0.4f, 0.2f, 0.4f};
    float gap, dH;
    attn_weight_gap(&gap, &dH, A, M, 1, 3);
    expect(isnan(gap) && isnan(dH), "NaN weights gave gap %g, dH %g", (double)gap, (double)dH);
}
END_TEST

/* ------------------------------------------------------------------ */
/* One head for a heatmap                                               */
/* ------------------------------------------------------------------ */

START_TEST(extract_head_plane)
{
    /* W[n] = n for B = 2, H = 3, Tq = 2, Tk = 4: plane (b, h) starts at
       (b * 3 + h) * 8. (b, h) = (1, 2) is plane 5: 40 .. 47, row-major. */
    enum { B = 2, H = 3, Tq = 2, Tk = 4 };
    float W[B * H * Tq * Tk], Wh[Tq * Tk];
    for (int n = 0; n < B * H * Tq * Tk; n++) W[n] = (float)n;
    ck_assert_int_eq(attn_extract_head(Wh, W, B, H, Tq, Tk, 1, 2), 0);
    for (int n = 0; n < Tq * Tk; n++) expect(Wh[n] == (float)(40 + n), "Wh[%d] = %g", n, (double)Wh[n]);
    Wh[0] = -7.0f;
    ck_assert_int_eq(attn_extract_head(Wh, W, B, H, Tq, Tk, 2, 0), -1);
    ck_assert_int_eq(attn_extract_head(Wh, W, B, H, Tq, Tk, 0, 3), -1);
    ck_assert(Wh[0] == -7.0f);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("heads");
    TCase *tc = tcase_create("heads");
    tcase_add_test(tc, gqa_kv_head_table);
    tcase_add_test(tc, head_weights_hand_computed);
    tcase_add_test(tc, head_weights_rows_are_distributions);
    tcase_add_test(tc, gqa_equals_repeated_kv_heads);
    tcase_add_test(tc, average_worked_example);
    tcase_add_test(tc, average_can_be_flatter);
    tcase_add_test(tc, average_rows_are_distributions);
    tcase_add_test(tc, gap_propagates_nan);
    tcase_add_test(tc, extract_head_plane);
    suite_add_tcase(s, tc);
    return s;
}
