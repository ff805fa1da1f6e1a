/* test_decoding.c: lab 9's answer key: causal alignment for Tq != Tk, the
 * sliding window, the sink logit and the backward of post-softmax masking.
 * The worked numbers are the ones labs/lab09-decoding/README.md quotes.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "attn.h"
#include "expect.h"

Suite *test_suite(void);

/* Visible pattern of one (Tq, Tk) mask as a string of rows, 'k' kept, '-' masked,
   rows separated by '|': "k--|kk-". */
static void pattern(char *out, const float *S, int Tq, int Tk)
{
    int at = 0;
    for (int i = 0; i < Tq; i++) {
        if (i) out[at++] = '|';
        for (int j = 0; j < Tk; j++) {
            float s = S[i * Tk + j];
            out[at++] = (isinf(s) && s < 0.0f) ? '-' : 'k';
        }
    }
    out[at] = '\0';
}

/* Fill n scores with 0.5 (any finite value: the masks only write -inf). */
static void fill(float *S, int n)
{
    for (int k = 0; k < n; k++) S[k] = 0.5f;
}

/* ------------------------------------------------------------------ */
/* Causal alignment                                                     */
/* ------------------------------------------------------------------ */

START_TEST(causal_kv_cache_worked)
{
    /* The handout's KV-cache example: Tq = 2 new queries, Tk = 4 keys (2 cached).
       Top-left keeps keys 0..i:            k--- / kk--
       Bottom-right keeps keys 0..i + 2:    kkk- / kkkk  (the last query sees all) */
    float S[8];
    char got[32];
    fill(S, 8);
    attn_causal_mask_aligned(S, 1, 2, 4, 0);
    pattern(got, S, 2, 4);
    ck_assert_str_eq(got, "k---|kk--");
    fill(S, 8);
    attn_causal_mask_aligned(S, 1, 2, 4, 1);
    pattern(got, S, 2, 4);
    ck_assert_str_eq(got, "kkk-|kkkk");
}
END_TEST

START_TEST(causal_more_queries_than_keys)
{
    /* Tq = 3, Tk = 2, bottom-right: last(i) = i - 1, so row 0 sees nothing
       (fully masked: the zero-row policy takes over in softmax), row 1 key 0,
       row 2 both. Top-left: k- / kk / kk. */
    float S[6];
    char got[32];
    fill(S, 6);
    attn_causal_mask_aligned(S, 1, 3, 2, 1);
    pattern(got, S, 3, 2);
    ck_assert_str_eq(got, "--|k-|kk");
    fill(S, 6);
    attn_causal_mask_aligned(S, 1, 3, 2, 0);
    pattern(got, S, 3, 2);
    ck_assert_str_eq(got, "k-|kk|kk");
    float W[6];
    expect(attn_softmax(W, S, 3, 2) == 0, "top-left leaves no row empty");
    fill(S, 6);
    attn_causal_mask_aligned(S, 1, 3, 2, 1);
    expect(attn_softmax(W, S, 3, 2) == 1, "bottom-right with Tq > Tk empties row 0");
    expect(W[0] == 0.0f && W[1] == 0.0f, "the empty row's weights are zeros, not NaN");
}
END_TEST

START_TEST(causal_square_alignments_agree)
{
    /* Tq == Tk: both alignments are the plain causal mask (attn_causal_mask). */
    enum { B = 2, T = 5 };
    float a[B * T * T], b[B * T * T], c[B * T * T];
    for (int k = 0; k < B * T * T; k++) a[k] = b[k] = c[k] = (float)k;
    attn_causal_mask_aligned(a, B, T, T, 0);
    attn_causal_mask_aligned(b, B, T, T, 1);
    attn_causal_mask(c, B, T, T);
    for (int k = 0; k < B * T * T; k++)
        expect(a[k] == c[k] && b[k] == c[k], "S[%d]: %g, %g, want %g", k, (double)a[k],
               (double)b[k], (double)c[k]);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Sliding window                                                       */
/* ------------------------------------------------------------------ */

START_TEST(window_worked)
{
    /* The handout's window: w = 2, Tq = 2, Tk = 5, i' = i + 3.
       Row 0 (i' = 3): keys 2, 3.  Row 1 (i' = 4): keys 3, 4. */
    float S[10];
    char got[32];
    fill(S, 10);
    ck_assert_int_eq(attn_sliding_window_mask(S, 1, 2, 5, 2), 0);
    pattern(got, S, 2, 5);
    ck_assert_str_eq(got, "--kk-|---kk");
}
END_TEST

START_TEST(window_counts_and_edges)
{
    /* Property: every row keeps exactly min(w, i' + 1) keys (none when i' < 0),
       all of them at or before i'; w >= Tk is the bottom-right causal mask;
       w = 1 keeps the diagonal alone. */
    enum { B = 2, Tq = 6, Tk = 9 };
    float S[B * Tq * Tk], C[B * Tq * Tk];
    for (int w = 1; w <= Tk + 1; w++) {
        fill(S, B * Tq * Tk);
        ck_assert_int_eq(attn_sliding_window_mask(S, B, Tq, Tk, w), 0);
        for (int b = 0; b < B; b++)
            for (int i = 0; i < Tq; i++) {
                int last = i + Tk - Tq, kept = 0;
                for (int j = 0; j < Tk; j++) {
                    int vis = !isinf(S[(b * Tq + i) * Tk + j]);
                    kept += vis;
                    if (vis) expect(j <= last && j > last - w, "w %d row %d key %d visible", w, i, j);
                }
                expect(kept == (w < last + 1 ? w : last + 1), "w %d row %d keeps %d", w, i, kept);
            }
    }
    fill(S, B * Tq * Tk);
    fill(C, B * Tq * Tk);
    attn_sliding_window_mask(S, B, Tq, Tk, Tk);
    attn_causal_mask_aligned(C, B, Tq, Tk, 1);
    for (int k = 0; k < B * Tq * Tk; k++) expect(S[k] == C[k], "S[%d] differs from causal", k);
    /* Tq > Tk: the first Tq - Tk rows are empty whatever the window. */
    float E[4 * 2];
    fill(E, 8);
    attn_sliding_window_mask(E, 1, 4, 2, 1);
    char got[32];
    pattern(got, E, 4, 2);
    ck_assert_str_eq(got, "--|--|k-|-k");
}
END_TEST

START_TEST(window_rejects_zero)
{
    float S[4] = { 1, 2, 3, 4 };
    ck_assert_int_eq(attn_sliding_window_mask(S, 1, 2, 2, 0), -1);
    for (int k = 0; k < 4; k++) expect_near("S", k, S[k], k + 1, 0.0);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Sink logit                                                           */
/* ------------------------------------------------------------------ */

START_TEST(sink_worked_row)
{
    /* The handout's row: scores [2, 1, -1, -inf], sink 1.5. m = max(2, 1.5) = 2.
         exp(s - m) = [1, 0.367879, 0.049787, 0], exp(sink - m) = 0.606531
         denominator = 2.024197
         W = [0.494023, 0.181741, 0.024596, 0], sink 0.299640; W sums to 0.700360.
       Row 2 has every key masked: zero weights, all mass on the sink. */
    const float S[8] = { 2, 1, -1, -INFINITY, -INFINITY, -INFINITY, -INFINITY, -INFINITY };
    const float sink = 1.5f;
    float W[8], Z[2];
    ck_assert_int_eq(attn_sink_softmax(W, Z, S, &sink, 1, 1, 2, 4), 1);
    const double want[4] = { 0.494023, 0.181741, 0.024596, 0.0 };
    for (int j = 0; j < 4; j++) expect_near("W", j, W[j], want[j], 1e-6);
    expect_near("Wsink", 0, Z[0], 0.299640, 1e-6);
    for (int j = 4; j < 8; j++) expect(W[j] == 0.0f, "W[%d] = %g, want 0", j, (double)W[j]);
    expect(Z[1] == 1.0f, "empty row: Wsink %g, want 1", (double)Z[1]);
}
END_TEST

START_TEST(sink_large_is_stable)
{
    /* A sink of 1000 beside scores near 0: exp(1000 - 2) overflows even in
       double, so m must include the sink. Then every weight is exp(-998) = 0
       and the sink holds 1, with no NaN anywhere. */
    const float S[3] = { 2, 1, -1 };
    const float sink = 1000.0f;
    float W[3], Z[1];
    attn_sink_softmax(W, Z, S, &sink, 1, 1, 1, 3);
    for (int j = 0; j < 3; j++) expect(W[j] == 0.0f, "W[%d] = %g", j, (double)W[j]);
    expect(Z[0] == 1.0f, "Wsink = %g", (double)Z[0]);
}
END_TEST

START_TEST(sink_properties)
{
    /* Per head h = b % H; each row: W >= 0, W + Wsink sums to 1, and the weights
       are softmax(s) scaled by 1 - Wsink (the sink only shrinks the row, it
       never reorders it). A -inf sink is plain softmax. */
    enum { B = 6, H = 3, Tq = 4, Tk = 7 };
    float S[B * Tq * Tk], W[B * Tq * Tk], P[B * Tq * Tk], Z[B * Tq];
    const float sink[H] = { -0.5f, 0.0f, 3.0f };
    for (int k = 0; k < B * Tq * Tk; k++) S[k] = sinf((float)k * 1.7f) * 2.0f;
    ck_assert_int_eq(attn_sink_softmax(W, Z, S, sink, B, H, Tq, Tk), 0);
    attn_softmax(P, S, B * Tq, Tk);
    for (int r = 0; r < B * Tq; r++) {
        double sum = (double)Z[r];
        for (int j = 0; j < Tk; j++) {
            sum += (double)W[r * Tk + j];
            expect_near("W", r * Tk + j, W[r * Tk + j], (double)P[r * Tk + j] * (1.0 - (double)Z[r]), 1e-6);
        }
        expect_near("row sum", r, sum, 1.0, 1e-6);
    }
    /* heads fastest: b = 2 and b = 5 share the sink of head 2 */
    expect(Z[2 * Tq] > Z[0] && Z[2 * Tq] > Z[1 * Tq], "head 2 has the largest sink");
    const float none = -INFINITY;
    float S1[4] = { 1, 2, -INFINITY, 0 }, W1[4], Z1[1], P1[4];
    attn_sink_softmax(W1, Z1, S1, &none, 1, 1, 1, 4);
    attn_softmax(P1, S1, 1, 4);
    for (int j = 0; j < 4; j++) expect_near("W", j, W1[j], P1[j], 1e-7);
    expect(Z1[0] == 0.0f, "no sink, no share");
    float S2[2] = { -INFINITY, -INFINITY }, W2[2], Z2[1];
    ck_assert_int_eq(attn_sink_softmax(W2, Z2, S2, &none, 1, 1, 1, 2), 1);
    expect(W2[0] == 0.0f && W2[1] == 0.0f && Z2[0] == 0.0f, "-inf sink, empty row: zeros");
}
END_TEST

START_TEST(sink_nan_propagates)
{
    const float S[4] = { 1, NAN, 0, 0 }, sink[1] = { 0 };
    float W[4], Z[2];
    attn_sink_softmax(W, Z, S, sink, 1, 1, 2, 2);
    expect(isnan(W[0]) && isnan(W[1]) && isnan(Z[0]), "NaN score: row 0 NaN");
    expect(!isnan(W[2]) && !isnan(Z[1]), "row 1 is untouched by row 0's NaN");
    const float nan_sink = NAN;
    attn_sink_softmax(W, Z, S + 2, &nan_sink, 1, 1, 1, 2);
    expect(isnan(W[0]) && isnan(Z[0]), "NaN sink: NaN row");
}
END_TEST

/* ------------------------------------------------------------------ */
/* Post-mask backward                                                   */
/* ------------------------------------------------------------------ */

START_TEST(postmask_backward_worked)
{
    /* The handout's row: w = softmax([2, 1, -1, 0.5]) = [0.609460, 0.224208,
       0.030343, 0.135989]; key 3 zeroed after softmax (keep [1, 1, 1, 0]);
       g = [1, 0, 0, 5], so g' = [1, 0, 0, 0] and <w, g'> = 0.609460:
         ds = [0.609460 * 0.390540, 0.224208 * -0.609460, 0.030343 * -0.609460,
               0.135989 * -0.609460]
            = [0.238019, -0.136646, -0.018493, -0.082880]
       The zeroed key gets -0.082880, not 0. */
    const float s[4] = { 2, 1, -1, 0.5f }, g[4] = { 1, 0, 0, 5 };
    const unsigned char keep[4] = { 1, 1, 1, 0 };
    float w[4], ds[4];
    attn_softmax(w, s, 1, 4);
    attn_postmask_backward(ds, w, g, keep, 1, 4);
    const double want[4] = { 0.238019, -0.136646, -0.018493, -0.082880 };
    for (int j = 0; j < 4; j++) expect_near("ds", j, ds[j], want[j], 1e-6);
}
END_TEST

START_TEST(postmask_backward_properties)
{
    /* keep all ones is lab 8's softmax backward; rows of ds sum to 0 always;
       it equals softmax_backward with g' = keep * g. */
    enum { R = 5, N = 9 };
    float w[R * N], g[R * N], gk[R * N], ds[R * N], ref[R * N];
    unsigned char keep[R * N], all[R * N];
    for (int k = 0; k < R * N; k++) {
        w[k] = cosf((float)k) * 3.0f;
        g[k] = sinf((float)k * 0.37f);
        keep[k] = (unsigned char)(k % 3 != 1);
        all[k] = 1;
        gk[k] = keep[k] ? g[k] : 0.0f;
    }
    attn_softmax(w, w, R, N);
    attn_postmask_backward(ds, w, g, all, R, N);
    attn_softmax_backward(ref, w, g, R, N);
    for (int k = 0; k < R * N; k++) expect_near("ds (keep all)", k, ds[k], ref[k], 1e-7);
    attn_postmask_backward(ds, w, g, keep, R, N);
    attn_softmax_backward(ref, w, gk, R, N);
    for (int r = 0; r < R; r++) {
        double sum = 0.0;
        for (int j = 0; j < N; j++) {
            int k = r * N + j;
            sum += (double)ds[k];
            expect_near("ds", k, ds[k], ref[k], 1e-7);
            if (!keep[k]) expect(ds[k] != 0.0f, "zeroed key %d got exactly 0", k);
        }
        expect_near("row sum", r, sum, 0.0, 1e-6);
    }
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("attn_decoding");
    TCase *causal = tcase_create("causal alignment");
    tcase_add_test(causal, causal_kv_cache_worked);
    tcase_add_test(causal, causal_more_queries_than_keys);
    tcase_add_test(causal, causal_square_alignments_agree);
    suite_add_tcase(s, causal);

    TCase *window = tcase_create("sliding window");
    tcase_add_test(window, window_worked);
    tcase_add_test(window, window_counts_and_edges);
    tcase_add_test(window, window_rejects_zero);
    suite_add_tcase(s, window);

    TCase *sink = tcase_create("sink");
    tcase_add_test(sink, sink_worked_row);
    tcase_add_test(sink, sink_large_is_stable);
    tcase_add_test(sink, sink_properties);
    tcase_add_test(sink, sink_nan_propagates);
    suite_add_tcase(s, sink);

    TCase *back = tcase_create("postmask backward");
    tcase_add_test(back, postmask_backward_worked);
    tcase_add_test(back, postmask_backward_properties);
    suite_add_tcase(s, back);
    return s;
}
