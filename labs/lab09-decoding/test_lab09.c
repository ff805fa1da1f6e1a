/* test_lab09.c: the visible tests of lab 9. Run them with
 *     make -C labs/lab09-decoding test
 * Each test states where its expected numbers come from, so you can add your own
 * cases the same way (copy a START_TEST block and register it at the bottom).
 * The checks (EXPECT_OK, EXPECT_STATUS, EXPECT_CLOSE, lc_poison, ...) are the
 * same in every lab; labs/labcheck.h describes each one.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "lab09.h"
#include "labcheck.h"

#define NINF (-INFINITY)

/* ---- lab_causal_mask_aligned ------------------------------------------------------ */

START_TEST(test_causal_kv_cache)
{
    /* README section 3: Tq = 2 new queries, Tk = 4 keys (2 of them cached).
       Scores start at 1 .. 8.
         top-left     (last(i) = i):          [1 - - -]  [5 6 - -]
         bottom-right (last(i) = i + 4 - 2):  [1 2 3 -]  [5 6 7 8]
       Bottom-right lets the last query see every key, as decoding needs. */
    float S[8];
    for (int k = 0; k < 8; k++) S[k] = (float)(k + 1);
    EXPECT_OK("lab_causal_mask_aligned", lab_causal_mask_aligned(S, 1, 2, 4, 0));
    const float top_left[8] = { 1, NINF, NINF, NINF, 5, 6, NINF, NINF };
    EXPECT_CLOSE_WITH("S (top-left)", top_left, S, 8, 0.0f, LC_ABS | LC_INF);
    for (int k = 0; k < 8; k++) S[k] = (float)(k + 1);
    EXPECT_OK("lab_causal_mask_aligned", lab_causal_mask_aligned(S, 1, 2, 4, 1));
    const float bottom_right[8] = { 1, 2, 3, NINF, 5, 6, 7, 8 };
    EXPECT_CLOSE_WITH("S (bottom-right)", bottom_right, S, 8, 0.0f, LC_ABS | LC_INF);
}
END_TEST

START_TEST(test_causal_more_queries_than_keys)
{
    /* Tq = 3, Tk = 2, bottom-right: last(i) = i - 1, so row 0 sees no key at
       all (a fully masked row: softmax's zero-row policy takes over), row 1 sees
       key 0 and row 2 both. B = 2: the same pattern in each batch entry. */
    float S[2 * 3 * 2];
    for (int k = 0; k < 12; k++) S[k] = 0.5f;
    EXPECT_OK("lab_causal_mask_aligned", lab_causal_mask_aligned(S, 2, 3, 2, 1));
    const float want[12] = { NINF, NINF, 0.5f, NINF, 0.5f, 0.5f,
                             NINF, NINF, 0.5f, NINF, 0.5f, 0.5f };
    EXPECT_CLOSE_WITH("S", want, S, 12, 0.0f, LC_ABS | LC_INF);
}
END_TEST

START_TEST(test_causal_bad_args)
{
    /* bottom_right must be 0 or 1; S stays as it was. */
    float S[4];
    lc_poison(S, 4);
    EXPECT_STATUS("lab_causal_mask_aligned (bottom_right = 2)", LAB_BAD_ARG,
                  lab_causal_mask_aligned(S, 1, 2, 2, 2));
    EXPECT_STATUS("lab_causal_mask_aligned (Tk = 0)", LAB_BAD_ARG,
                  lab_causal_mask_aligned(S, 1, 2, 0, 1));
    ck_assert_msg(S[0] == LC_POISON && S[3] == LC_POISON,
                  "lab_causal_mask_aligned changed S although it returned LAB_BAD_ARG");
}
END_TEST

/* ---- lab_sliding_window_mask ----------------------------------------------------- */

START_TEST(test_window_worked)
{
    /* README section 4: window 2, Tq = 2, Tk = 5, so i' = i + 3.
         row 0, i' = 3: keys 2 and 3 (3 - 2 < j <= 3)
         row 1, i' = 4: keys 3 and 4 */
    float S[10];
    for (int k = 0; k < 10; k++) S[k] = (float)k;
    EXPECT_OK("lab_sliding_window_mask", lab_sliding_window_mask(S, 1, 2, 5, 2));
    const float want[10] = { NINF, NINF, 2, 3, NINF, NINF, NINF, NINF, 8, 9 };
    EXPECT_CLOSE_WITH("S", want, S, 10, 0.0f, LC_ABS | LC_INF);
}
END_TEST

START_TEST(test_window_counts)
{
    /* Property: each row keeps exactly min(window, i' + 1) keys, all in
       (i' - window, i']. Off by one either way changes the count. */
    enum { Tq = 4, Tk = 12 };
    float S[Tq * Tk];
    for (int w = 1; w <= 5; w++) {
        for (int k = 0; k < Tq * Tk; k++) S[k] = 1.0f;
        EXPECT_OK("lab_sliding_window_mask", lab_sliding_window_mask(S, 1, Tq, Tk, w));
        for (int i = 0; i < Tq; i++) {
            int last = i + Tk - Tq, kept = 0;
            for (int j = 0; j < Tk; j++)
                if (S[i * Tk + j] == 1.0f) {
                    kept++;
                    ck_assert_msg(j <= last && j > last - w, "window %d, row %d: key %d is "
                                  "visible but lies outside (%d, %d]", w, i, j, last - w, last);
                } else {
                    ck_assert_msg(isinf(S[i * Tk + j]) && S[i * Tk + j] < 0,
                                  "window %d: S[%d][%d] = %g, want 1 or -inf", w, i, j,
                                  (double)S[i * Tk + j]);
                }
            ck_assert_msg(kept == w, "window %d, row %d keeps %d keys, want %d", w, i, kept, w);
        }
    }
}
END_TEST

START_TEST(test_window_bad_args)
{
    float S[6];
    lc_poison(S, 6);
    EXPECT_STATUS("lab_sliding_window_mask (window = 0)", LAB_BAD_ARG,
                  lab_sliding_window_mask(S, 1, 2, 3, 0));
    ck_assert_msg(S[0] == LC_POISON, "lab_sliding_window_mask changed S although it "
                  "returned LAB_BAD_ARG");
}
END_TEST

/* ---- lab_sink_softmax ------------------------------------------------------------- */

START_TEST(test_sink_worked_row)
{
    /* README section 5: scores [2, 1, -1, -inf], sink z = 1.5; m = max(2, 1.5) = 2.
         exp(s - m)  = [1, 0.367879, 0.049787, 0]      exp(z - m) = 0.606531
         denominator = 1 + 0.367879 + 0.049787 + 0.606531 = 2.024197
         W = [0.494023, 0.181741, 0.024596, 0], Wsink = 0.299640
       The real weights sum to 0.700360 < 1 by design. Row 2 has every key masked:
       zero weights and Wsink = 1, with no special case needed. */
    const float S[8] = { 2, 1, -1, NINF, NINF, NINF, NINF, NINF };
    const float sink[1] = { 1.5f };
    float W[8], Z[2];
    lc_poison(W, 8);
    lc_poison(Z, 2);
    EXPECT_OK("lab_sink_softmax", lab_sink_softmax(W, Z, S, sink, 1, 1, 2, 4));
    const float wantW[8] = { 0.494023f, 0.181741f, 0.024596f, 0, 0, 0, 0, 0 };
    const float wantZ[2] = { 0.299640f, 1.0f };
    EXPECT_CLOSE("W", wantW, W, 8, 2e-6f);
    EXPECT_CLOSE("Wsink", wantZ, Z, 2, 2e-6f);
}
END_TEST

START_TEST(test_sink_large)
{
    /* A sink of 1000 beside scores near 0: exp(1000 - 2) overflows (even in
       double), so m must include the sink. Then W = exp(s - 1000) / ... = 0
       and Wsink = 1, never NaN. */
    const float S[3] = { 2, 1, -1 };
    const float sink[1] = { 1000.0f };
    float W[3], Z[1];
    EXPECT_OK("lab_sink_softmax", lab_sink_softmax(W, Z, S, sink, 1, 1, 1, 3));
    const float wantW[3] = { 0, 0, 0 }, wantZ[1] = { 1 };
    EXPECT_CLOSE("W", wantW, W, 3, 1e-6f);
    EXPECT_CLOSE("Wsink (did you leave the sink out of the max?)", wantZ, Z, 1, 1e-6f);
}
END_TEST

START_TEST(test_sink_per_head_and_no_sink)
{
    /* B = 4 = 2 sequences x 2 heads (h = b % 2). Head 0 has no sink (-inf):
       plain softmax, rows sum to 1, and a fully masked row is all zeros with
       Wsink 0. Head 1's sink is 0 beside scores [0, 0]: three equal terms, so
       W = [1/3, 1/3] and Wsink = 1/3. Tq = 1, Tk = 2. */
    const float S[8] = { 0, 0,   0, 0,   NINF, NINF,   NINF, NINF };
    const float sink[2] = { NINF, 0.0f };
    float W[8], Z[4];
    EXPECT_OK("lab_sink_softmax", lab_sink_softmax(W, Z, S, sink, 4, 2, 1, 2));
    const float third = 1.0f / 3.0f;
    const float wantW[8] = { 0.5f, 0.5f, third, third, 0, 0, 0, 0 };
    const float wantZ[4] = { 0, third, 0, 1 };
    EXPECT_CLOSE("W", wantW, W, 8, 1e-6f);
    EXPECT_CLOSE("Wsink", wantZ, Z, 4, 1e-6f);
    EXPECT_STATUS("lab_sink_softmax (B = 3, H = 2)", LAB_BAD_ARG,
                  lab_sink_softmax(W, Z, S, sink, 3, 2, 1, 2));
}
END_TEST

START_TEST(test_sink_rows_sum_to_one_with_the_sink)
{
    /* Property: W >= 0, and each row of W plus its Wsink sums to 1. */
    enum { B = 6, H = 3, Tq = 3, Tk = 10 };
    float S[B * Tq * Tk], W[B * Tq * Tk], Z[B * Tq];
    const float sink[H] = { -1.0f, 0.5f, 4.0f };
    sup_rng r;
    sup_rng_seed(&r, 9);
    sup_rng_fill_normal(&r, S, B * Tq * Tk);
    EXPECT_OK("lab_sink_softmax", lab_sink_softmax(W, Z, S, sink, B, H, Tq, Tk));
    for (int row = 0; row < B * Tq; row++) {
        double sum = (double)Z[row];
        for (int j = 0; j < Tk; j++) {
            ck_assert_msg(W[row * Tk + j] >= 0.0f, "W[%d] is negative", row * Tk + j);
            sum += (double)W[row * Tk + j];
        }
        ck_assert_msg(fabs(sum - 1.0) < 1e-5, "row %d: W plus Wsink sums to %.7f, want 1",
                      row, sum);
    }
}
END_TEST

/* ---- lab_postmask_backward --------------------------------------------------------- */

START_TEST(test_postmask_backward_worked_row)
{
    /* README section 6: w = softmax([2, 1, -1, 0.5])
                           = [0.609460, 0.224208, 0.030343, 0.135989],
       key 3 zeroed after softmax (keep [1, 1, 1, 0]), g = dL/dw' = [1, 0, 0, 5].
       g' = keep * g = [1, 0, 0, 0]; <w, g'> = 0.609460;
         ds = w * (g' - 0.609460) = [0.238019, -0.136646, -0.018493, -0.082880]
       The zeroed key gets -0.082880, not 0; its g of 5 plays no part. */
    const float W[4] = { 0.609460f, 0.224208f, 0.030343f, 0.135989f };
    const float g[4] = { 1, 0, 0, 5 };
    const unsigned char keep[4] = { 1, 1, 1, 0 };
    float dS[4];
    lc_poison(dS, 4);
    EXPECT_OK("lab_postmask_backward", lab_postmask_backward(dS, W, g, keep, 1, 4));
    const float want[4] = { 0.238019f, -0.136646f, -0.018493f, -0.082880f };
    EXPECT_CLOSE("dS", want, dS, 4, 2e-6f);
}
END_TEST

START_TEST(test_postmask_backward_keep_all_is_lab8)
{
    /* With every key kept, W' = W and the gradient is lab 8's softmax backward:
       w = [0.5, 0.25, 0.25], g = [1, 2, 4]: <w, g> = 0.5 + 0.5 + 1 = 2,
       ds = [0.5 * -1, 0.25 * 0, 0.25 * 2] = [-0.5, 0, 0.5]. Zeroing key 2
       instead: g' = [1, 2, 0], <w, g'> = 1, ds = [0, 0.25, -0.25]. */
    const float W[3] = { 0.5f, 0.25f, 0.25f }, g[3] = { 1, 2, 4 };
    const unsigned char all[3] = { 1, 1, 1 }, some[3] = { 1, 1, 0 };
    float dS[3];
    EXPECT_OK("lab_postmask_backward", lab_postmask_backward(dS, W, g, all, 1, 3));
    const float want_all[3] = { -0.5f, 0.0f, 0.5f };
    EXPECT_CLOSE("dS (keep all)", want_all, dS, 3, 1e-6f);
    EXPECT_OK("lab_postmask_backward", lab_postmask_backward(dS, W, g, some, 1, 3));
    const float want_some[3] = { 0.0f, 0.25f, -0.25f };
    EXPECT_CLOSE("dS (key 2 zeroed)", want_some, dS, 3, 1e-6f);
    EXPECT_STATUS("lab_postmask_backward (n = 0)", LAB_BAD_ARG,
                  lab_postmask_backward(dS, W, g, all, 1, 0));
}
END_TEST

static Suite *lab09_suite(void)
{
    Suite *s = suite_create("lab09");
    TCase *causal = tcase_create("causal");
    tcase_add_test(causal, test_causal_kv_cache);
    tcase_add_test(causal, test_causal_more_queries_than_keys);
    tcase_add_test(causal, test_causal_bad_args);
    suite_add_tcase(s, causal);
    TCase *window = tcase_create("window");
    tcase_add_test(window, test_window_worked);
    tcase_add_test(window, test_window_counts);
    tcase_add_test(window, test_window_bad_args);
    suite_add_tcase(s, window);
    TCase *sink = tcase_create("sink");
    tcase_add_test(sink, test_sink_worked_row);
    tcase_add_test(sink, test_sink_large);
    tcase_add_test(sink, test_sink_per_head_and_no_sink);
    tcase_add_test(sink, test_sink_rows_sum_to_one_with_the_sink);
    suite_add_tcase(s, sink);
    TCase *back = tcase_create("postmask backward");
    tcase_add_test(back, test_postmask_backward_worked_row);
    tcase_add_test(back, test_postmask_backward_keep_all_is_lab8);
    suite_add_tcase(s, back);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(lab09_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
