/* test_lab12.c: the visible tests of lab 12. Run them with
 *     make -C labs/lab12-layer test
 * Each test states where its expected numbers come from, so you can add your own
 * cases the same way (copy a START_TEST block and register it at the bottom).
 * The checks (EXPECT_OK, EXPECT_STATUS, EXPECT_CLOSE, lc_poison, ...) are the
 * same in every lab; labs/labcheck.h describes each one.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "lab12.h"
#include "labcheck.h"

/* ---- lab_split_heads ---- */

START_TEST(test_split_heads_writes_its_outputs)
{
    /* TODO(new-lab): the handout's worked example, with its numbers worked by
       hand (EXPECT_CLOSE), and the contract's LAB_BAD_ARG cases (EXPECT_STATUS).
       Until then: on small inputs the call succeeds and writes every output. */
    const int B = 3;
    const int T = 4;
    const int H = 5;
    const int dh = 3;
    sup_rng rng;
    sup_rng_seed(&rng, 1);
    float *Xh = calloc((size_t)((long)B * H * T * dh), sizeof *Xh);
    ck_assert_ptr_nonnull(Xh);
    lc_poison(Xh, (long)B * H * T * dh);
    float *X = calloc((size_t)((long)B * T * H * dh), sizeof *X);
    ck_assert_ptr_nonnull(X);
    sup_rng_fill_normal(&rng, X, (long)B * T * H * dh);
    EXPECT_OK("lab_split_heads", lab_split_heads(Xh, X, B, T, H, dh));
    for (long k = 0; k < (long)B * H * T * dh; k++)
        ck_assert_msg(Xh[k] != LC_POISON && !isnan(Xh[k]), "Xh[%ld] was not written", k);
    free(Xh);
    free(X);
}
END_TEST

/* ---- lab_self_attention ---- */

START_TEST(test_self_attention_writes_its_outputs)
{
    /* TODO(new-lab): the handout's worked example, with its numbers worked by
       hand (EXPECT_CLOSE), and the contract's LAB_BAD_ARG cases (EXPECT_STATUS).
       Until then: on small inputs the call succeeds and writes every output. */
    const int B = 3;
    const int T = 4;
    const int d_model = 5;
    const int H = 3;
    const int causal = 4;
    const int average = 5;
    sup_rng rng;
    sup_rng_seed(&rng, 1);
    float *O = calloc((size_t)((long)B * T * d_model), sizeof *O);
    ck_assert_ptr_nonnull(O);
    lc_poison(O, (long)B * T * d_model);
    float *A = calloc((size_t)((long)B * H * T * T), sizeof *A);
    ck_assert_ptr_nonnull(A);
    lc_poison(A, (long)B * H * T * T);
    float *X = calloc((size_t)((long)B * T * d_model), sizeof *X);
    ck_assert_ptr_nonnull(X);
    sup_rng_fill_normal(&rng, X, (long)B * T * d_model);
    float *W = calloc((size_t)((long)4 * d_model * d_model), sizeof *W);
    ck_assert_ptr_nonnull(W);
    sup_rng_fill_normal(&rng, W, (long)4 * d_model * d_model);
    EXPECT_OK("lab_self_attention", lab_self_attention(O, A, X, W, B, T, d_model, H, causal, average));
    for (long k = 0; k < (long)B * T * d_model; k++)
        ck_assert_msg(O[k] != LC_POISON && !isnan(O[k]), "O[%ld] was not written", k);
    for (long k = 0; k < (long)B * H * T * T; k++)
        ck_assert_msg(A[k] != LC_POISON && !isnan(A[k]), "A[%ld] was not written", k);
    free(O);
    free(A);
    free(X);
    free(W);
}
END_TEST

/* ---- lab_cross_attention ---- */

START_TEST(test_cross_attention_writes_its_outputs)
{
    /* TODO(new-lab): the handout's worked example, with its numbers worked by
       hand (EXPECT_CLOSE), and the contract's LAB_BAD_ARG cases (EXPECT_STATUS).
       Until then: on small inputs the call succeeds and writes every output. */
    const int B = 3;
    const int Tq = 4;
    const int Tk = 5;
    const int d_model = 3;
    const int H = 4;
    const int average = 5;
    sup_rng rng;
    sup_rng_seed(&rng, 1);
    float *O = calloc((size_t)((long)B * Tq * d_model), sizeof *O);
    ck_assert_ptr_nonnull(O);
    lc_poison(O, (long)B * Tq * d_model);
    float *A = calloc((size_t)((long)B * H * Tq * Tk), sizeof *A);
    ck_assert_ptr_nonnull(A);
    lc_poison(A, (long)B * H * Tq * Tk);
    float *Y = calloc((size_t)((long)B * Tq * d_model), sizeof *Y);
    ck_assert_ptr_nonnull(Y);
    sup_rng_fill_normal(&rng, Y, (long)B * Tq * d_model);
    float *S = calloc((size_t)((long)B * Tk * d_model), sizeof *S);
    ck_assert_ptr_nonnull(S);
    sup_rng_fill_normal(&rng, S, (long)B * Tk * d_model);
    float *W = calloc((size_t)((long)4 * d_model * d_model), sizeof *W);
    ck_assert_ptr_nonnull(W);
    sup_rng_fill_normal(&rng, W, (long)4 * d_model * d_model);
    unsigned char *keep = calloc((size_t)((long)B * Tk), sizeof *keep);
    ck_assert_ptr_nonnull(keep);
    for (long k = 0; k < (long)B * Tk; k++)
        keep[k] = (unsigned char)(k % 2);
    EXPECT_OK("lab_cross_attention", lab_cross_attention(O, A, Y, S, W, keep, B, Tq, Tk, d_model, H, average));
    for (long k = 0; k < (long)B * Tq * d_model; k++)
        ck_assert_msg(O[k] != LC_POISON && !isnan(O[k]), "O[%ld] was not written", k);
    for (long k = 0; k < (long)B * H * Tq * Tk; k++)
        ck_assert_msg(A[k] != LC_POISON && !isnan(A[k]), "A[%ld] was not written", k);
    free(O);
    free(A);
    free(Y);
    free(S);
    free(W);
    free(keep);
}
END_TEST

static Suite *lab12_suite(void)
{
    Suite *s = suite_create("lab12");
    TCase *tc = tcase_create("lab12");
    tcase_add_test(tc, test_split_heads_writes_its_outputs);
    tcase_add_test(tc, test_self_attention_writes_its_outputs);
    tcase_add_test(tc, test_cross_attention_writes_its_outputs);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(lab12_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
