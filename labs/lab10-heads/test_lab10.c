/* test_lab10.c: the visible tests of lab 10. Run them with
 *     make -C labs/lab10-heads test
 * Each test states where its expected numbers come from, so you can add your own
 * cases the same way (copy a START_TEST block and register it at the bottom).
 * The checks (EXPECT_OK, EXPECT_STATUS, EXPECT_CLOSE, lc_poison, ...) are the
 * same in every lab; labs/labcheck.h describes each one.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "lab10.h"
#include "labcheck.h"

/* n standard normals from seed. */
static void fill_normal(float *x, long n, uint64_t seed)
{
    sup_rng r;
    sup_rng_seed(&r, seed);
    sup_rng_fill_normal(&r, x, n);
}

/* ---- lab_head_weights ------------------------------------------------------------ */

START_TEST(test_head_weights_by_hand)
{
    /* B = 1, H = 2, Tq = 1, Tk = 2, d = 4.
       head 0: q = (1, 1, 1, 1), keys (1, 1, 1, 1) and (0, 0, 0, 0):
               scores 4 / sqrt(4) = 2 and 0 -> e^2 / (e^2 + 1) = 0.880797, 0.119203
       head 1: q = 0: scores 0 and 0 -> 0.5, 0.5
       Each head has its own softmax: head 1 stays flat whatever head 0 does. */
    const float Q[2 * 4] = { 1, 1, 1, 1,  0, 0, 0, 0 };
    const float K[2 * 2 * 4] = { 1, 1, 1, 1,  0, 0, 0, 0,   1, 1, 1, 1,  0, 0, 0, 0 };
    float W[4];
    lc_poison(W, 4);
    EXPECT_OK("lab_head_weights", lab_head_weights(W, Q, K, 1, 2, 1, 2, 4));
    const float want[4] = { 0.880797f, 0.119203f, 0.5f, 0.5f };
    EXPECT_CLOSE("W", want, W, 4, 1e-5f);
}
END_TEST

START_TEST(test_head_weights_rows_sum_to_one)
{
    /* Softmax runs over the KEY axis of each (b, h, i) row: every row sums to 1.
       (Over the head axis, the H weights of one (b, i, j) would sum to 1
       instead; over the query axis, each column would.) */
    enum { B = 2, H = 3, Tq = 4, Tk = 5, d = 8 };
    float Q[B * H * Tq * d], K[B * H * Tk * d], W[B * H * Tq * Tk];
    fill_normal(Q, B * H * Tq * d, 1);
    fill_normal(K, B * H * Tk * d, 2);
    EXPECT_OK("lab_head_weights", lab_head_weights(W, Q, K, B, H, Tq, Tk, d));
    for (int r = 0; r < B * H * Tq; r++) {
        float sum = 0.0f;
        for (int j = 0; j < Tk; j++) sum += W[r * Tk + j];
        ck_assert_msg(fabsf(sum - 1.0f) < 1e-5f, "row %d (b = %d, h = %d, i = %d) of W sums "
                      "to %g, not 1: softmax over the keys of each row", r, r / (H * Tq),
                      r / Tq % H, r % Tq, (double)sum);
    }
}
END_TEST

START_TEST(test_head_weights_scaled)
{
    /* d = 16, one query (2, 0, ..., 0), keys (1, 0, ..., 0) and 0: the dot
       products are 2 and 0, divided by sqrt(16) = 4: scores 0.5 and 0, so
       weights e^0.5 / (e^0.5 + 1) = 0.622459 and 0.377541. Without the
       1/sqrt(d) they would be 0.880797 and 0.119203. */
    float Q[16] = { 2 }, K[2 * 16] = { 1 }, W[2];
    EXPECT_OK("lab_head_weights", lab_head_weights(W, Q, K, 1, 1, 1, 2, 16));
    const float want[2] = { 0.622459f, 0.377541f };
    EXPECT_CLOSE("W", want, W, 2, 1e-5f);
    EXPECT_STATUS("lab_head_weights (d = 0)", LAB_BAD_ARG, lab_head_weights(W, Q, K, 1, 1, 1, 2, 0));
}
END_TEST

/* ---- lab_gqa_weights ------------------------------------------------------------- */

START_TEST(test_gqa_groups)
{
    /* H = 4 query heads, Hkv = 2 key heads: groups of H / Hkv = 2, so heads 0 and
       1 read key head 0, heads 2 and 3 key head 1 (h / 2 = 0, 0, 1, 1; not
       h % 2 = 0, 1, 0, 1). The test repeats each key head for its group and
       compares with lab_head_weights, which must give the same weights. */
    enum { B = 2, H = 4, Hkv = 2, Tq = 3, Tk = 4, d = 4 };
    float Q[B * H * Tq * d], K[B * Hkv * Tk * d], Krep[B * H * Tk * d];
    float W[B * H * Tq * Tk], want[B * H * Tq * Tk];
    fill_normal(Q, B * H * Tq * d, 3);
    fill_normal(K, B * Hkv * Tk * d, 4);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            memcpy(Krep + (b * H + h) * Tk * d, K + (b * Hkv + h / (H / Hkv)) * Tk * d,
                   sizeof(float) * Tk * d);
    EXPECT_OK("lab_head_weights", lab_head_weights(want, Q, Krep, B, H, Tq, Tk, d));
    lc_poison(W, B * H * Tq * Tk);
    EXPECT_OK("lab_gqa_weights", lab_gqa_weights(W, Q, K, B, H, Hkv, Tq, Tk, d));
    EXPECT_CLOSE("W", want, W, B * H * Tq * Tk, 1e-6f);
}
END_TEST

START_TEST(test_gqa_multi_query_and_bad_groups)
{
    /* Hkv = 1 (multi-query): every head reads key head 0, so with equal queries
       all heads get equal weights. H = 6 with Hkv = 4 does not divide:
       LAB_BAD_ARG and W untouched. */
    enum { H = 3, Tq = 2, Tk = 3, d = 2 };
    float Q[H * Tq * d], K[Tk * d], W[H * Tq * Tk];
    for (int h = 0; h < H; h++) fill_normal(Q + h * Tq * d, Tq * d, 5);
    fill_normal(K, Tk * d, 6);
    EXPECT_OK("lab_gqa_weights", lab_gqa_weights(W, Q, K, 1, H, 1, Tq, Tk, d));
    EXPECT_CLOSE("W of head 1", W, W + Tq * Tk, Tq * Tk, 1e-7f);
    EXPECT_CLOSE("W of head 2", W, W + 2 * Tq * Tk, Tq * Tk, 1e-7f);
    float big[6 * 4];
    lc_poison(big, 24);
    EXPECT_STATUS("lab_gqa_weights (H = 6, Hkv = 4)", LAB_BAD_ARG,
                  lab_gqa_weights(big, big, big, 1, 6, 4, 1, 1, 1));
    ck_assert_msg(big[0] == LC_POISON, "lab_gqa_weights wrote W although it returned LAB_BAD_ARG");
}
END_TEST

/* ---- lab_head_average ------------------------------------------------------------ */

START_TEST(test_average_worked_example)
{
    /* README.md, section 3: 2 heads, 3 keys.
         head 0 scores [2, 0, 0] -> weights [0.786986, 0.106507, 0.106507]
         head 1 scores [0, 0, 2] -> weights [0.106507, 0.106507, 0.786986]
         A = average of the weights   = [0.446747, 0.106507, 0.446747]
         M = softmax([1, 0, 1])       = [0.422319, 0.155362, 0.422319]
         gap: max |A - M| = 0.048855; entropy(A) - entropy(M)
              = 0.958472 - 1.017357 = -0.058886 (A is the sharper here) */
    const float S[2 * 3] = { 2, 0, 0,  0, 0, 2 };
    float A[3], M[3], gap[2];
    lc_poison(A, 3);
    EXPECT_OK("lab_head_average", lab_head_average(A, M, gap, S, 1, 2, 1, 3));
    const float wantA[3] = { 0.446747f, 0.106507f, 0.446747f };
    const float wantM[3] = { 0.422319f, 0.155362f, 0.422319f };
    const float wantgap[2] = { 0.048855f, -0.058886f };
    EXPECT_CLOSE("A", wantA, A, 3, 1e-5f);
    EXPECT_CLOSE("M", wantM, M, 3, 1e-5f);
    EXPECT_CLOSE("gap", wantgap, gap, 2, 2e-5f);
}
END_TEST

START_TEST(test_average_can_be_flatter)
{
    /* head 0 sure of key 0 (scores [6, 0, 0]), head 1 uniform ([0, 0, 0]):
         A = [0.664200, 0.167900, 0.167900]   (the uniform head dilutes it)
         M = softmax([3, 0, 0]) = [0.909443, 0.045279, 0.045279]
       entropy(A) - entropy(M) = 0.870969 - 0.366594 = +0.504375: A is flatter. */
    const float S[2 * 3] = { 6, 0, 0,  0, 0, 0 };
    float A[3], M[3], gap[2];
    EXPECT_OK("lab_head_average", lab_head_average(A, M, gap, S, 1, 2, 1, 3));
    const float wantgap[2] = { 0.245243f, 0.504375f };
    EXPECT_CLOSE("gap", wantgap, gap, 2, 2e-5f);
}
END_TEST

START_TEST(test_average_is_a_distribution)
{
    /* Random scores, B = 2, H = 4: every row of A and of M sums to 1, yet they
       differ. With H = 1 they are the same thing and the gap is 0. */
    enum { B = 2, H = 4, Tq = 3, Tk = 6 };
    float S[B * H * Tq * Tk], A[B * Tq * Tk], M[B * Tq * Tk], gap[B * Tq * 2];
    fill_normal(S, B * H * Tq * Tk, 7);
    for (int k = 0; k < B * H * Tq * Tk; k++) S[k] *= 2.0f;
    EXPECT_OK("lab_head_average", lab_head_average(A, M, gap, S, B, H, Tq, Tk));
    for (int r = 0; r < B * Tq; r++) {
        float sa = 0.0f, sm = 0.0f;
        for (int j = 0; j < Tk; j++) { sa += A[r * Tk + j]; sm += M[r * Tk + j]; }
        ck_assert_msg(fabsf(sa - 1.0f) < 1e-5f && fabsf(sm - 1.0f) < 1e-5f,
                      "row %d: A sums to %g, M to %g; both are distributions", r,
                      (double)sa, (double)sm);
        ck_assert_msg(gap[2 * r] > 1e-3f, "row %d: max |A - M| = %g; with 4 random heads "
                      "they should differ", r, (double)gap[2 * r]);
    }
    EXPECT_OK("lab_head_average", lab_head_average(A, M, gap, S, 1, 1, Tq, Tk));
    EXPECT_CLOSE("A (H = 1)", M, A, Tq * Tk, 1e-6f);
    EXPECT_STATUS("lab_head_average (H = 0)", LAB_BAD_ARG,
                  lab_head_average(A, M, gap, S, 1, 0, Tq, Tk));
}
END_TEST

/* ---- lab_extract_head ------------------------------------------------------------ */

START_TEST(test_extract_head_plane)
{
    /* W[n] = n with B = 2, H = 3, Tq = 2, Tk = 4. Plane (b, h) starts at
       (b * H + h) * Tq * Tk, so (b, h) = (1, 2) is plane 5: 40 .. 47, row i =
       query i: [[40 41 42 43] [44 45 46 47]]. (Plane (h, b) = (2, 1) read as
       h * B + b would be plane 5 too by chance; (b, h) = (0, 2) tells them
       apart: plane 2, 16 .. 23, where h * B + b = 4 would give 32 .. 39.) */
    enum { B = 2, H = 3, Tq = 2, Tk = 4 };
    float W[B * H * Tq * Tk], Wh[Tq * Tk], want[Tq * Tk];
    for (int n = 0; n < B * H * Tq * Tk; n++) W[n] = (float)n;
    lc_poison(Wh, Tq * Tk);
    EXPECT_OK("lab_extract_head", lab_extract_head(Wh, W, B, H, Tq, Tk, 1, 2));
    for (int n = 0; n < Tq * Tk; n++) want[n] = (float)(40 + n);
    EXPECT_CLOSE("Wh of (b, h) = (1, 2)", want, Wh, Tq * Tk, 0.0f);
    EXPECT_OK("lab_extract_head", lab_extract_head(Wh, W, B, H, Tq, Tk, 0, 2));
    for (int n = 0; n < Tq * Tk; n++) want[n] = (float)(16 + n);
    EXPECT_CLOSE("Wh of (b, h) = (0, 2)", want, Wh, Tq * Tk, 0.0f);
}
END_TEST

START_TEST(test_extract_head_bad_index)
{
    /* b must be in [0, B) and h in [0, H); Wh untouched otherwise. */
    float W[2 * 2 * 1 * 1] = { 1, 2, 3, 4 }, Wh[1] = { LC_POISON };
    EXPECT_STATUS("lab_extract_head (h = H)", LAB_BAD_ARG, lab_extract_head(Wh, W, 2, 2, 1, 1, 0, 2));
    EXPECT_STATUS("lab_extract_head (b = -1)", LAB_BAD_ARG, lab_extract_head(Wh, W, 2, 2, 1, 1, -1, 0));
    ck_assert_msg(Wh[0] == LC_POISON, "lab_extract_head wrote Wh although it returned LAB_BAD_ARG");
}
END_TEST

static Suite *lab10_suite(void)
{
    Suite *s = suite_create("lab10");
    TCase *heads = tcase_create("heads");
    tcase_add_test(heads, test_head_weights_by_hand);
    tcase_add_test(heads, test_head_weights_rows_sum_to_one);
    tcase_add_test(heads, test_head_weights_scaled);
    suite_add_tcase(s, heads);
    TCase *gqa = tcase_create("gqa");
    tcase_add_test(gqa, test_gqa_groups);
    tcase_add_test(gqa, test_gqa_multi_query_and_bad_groups);
    suite_add_tcase(s, gqa);
    TCase *average = tcase_create("average");
    tcase_add_test(average, test_average_worked_example);
    tcase_add_test(average, test_average_can_be_flatter);
    tcase_add_test(average, test_average_is_a_distribution);
    suite_add_tcase(s, average);
    TCase *extract = tcase_create("extract");
    tcase_add_test(extract, test_extract_head_plane);
    tcase_add_test(extract, test_extract_head_bad_index);
    suite_add_tcase(s, extract);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(lab10_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
