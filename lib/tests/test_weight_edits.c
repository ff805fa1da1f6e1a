/* test_weight_edits.c: dropout on weights and post-softmax masking, the edits
 * that act after softmax.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "attn.h"
#include "labsup.h"
#include "expect.h"

Suite *test_suite(void);

static double row_sum(const float *w, int n)
{
    double sum = 0.0;
    for (int j = 0; j < n; j++) sum += (double)w[j];
    return sum;
}

/* n weights: rows of 8 from softmax of uniform scores in [-3, 3). */
static float *random_weights(long n, uint64_t seed)
{
    float *w = malloc((size_t)n * sizeof *w);
    ck_assert_ptr_nonnull(w);
    sup_rng rng;
    sup_rng_seed(&rng, seed);
    sup_rng_fill_uniform(&rng, w, n, -3.0f, 3.0f);
    attn_softmax(w, w, n / 8, 8);
    return w;
}

/* ------------------------------------------------------------------ */
/* Dropout                                                              */
/* ------------------------------------------------------------------ */

START_TEST(dropout_p0_is_identity)
{
    /* p = 0: u < 0 never holds, and w / (1 - 0) = w exactly. */
    enum { N = 1024 };
    float *w = random_weights(N, 1), before[N];
    memcpy(before, w, sizeof before);
    ck_assert_int_eq(attn_dropout(w, 0.0f, 7, N), 0);
    for (int k = 0; k < N; k++) expect(w[k] == before[k], "W[%d] changed from %.9g to %.9g", k, (double)before[k], (double)w[k]);
    free(w);
}
END_TEST

START_TEST(dropout_hand_computed)
{
    /* Seed 42, p = 0.25: the first uniforms are 0.7416, 0.1599, 0.2786, 0.3442
       (see test_rng.c), so only the second (0.1599 < 0.25) is dropped. Kept
       weights are divided by 1 - p = 0.75:
       [0.75, 0.3, 0.15, 0.375] -> [1.0, 0, 0.2, 0.5] */
    float w[4] = {0.75f, 0.3f, 0.15f, 0.375f};
    ck_assert_int_eq(attn_dropout(w, 0.25f, 42, 4), 0);
    const double want[4] = {1.0, 0.0, 0.2, 0.5};
    for (int k = 0; k < 4; k++) expect_near("W", k, (double)w[k], want[k], 1e-7);
    expect(w[1] == 0.0f, "the dropped weight is %g, expected exactly 0", (double)w[1]);
}
END_TEST

START_TEST(dropout_drops_only_below_p)
{
    /* The rule is u < p: a draw equal to p is kept. With seed 42 the first
       uniform is exactly 12441394 * 2^-24 (test_rng.c); taking that as p keeps
       weight 0 and scales it: 0.5 / (1 - p). The second draw (0.1599) drops. */
    float p = ldexpf(12441394.0f, -24);
    float w[2] = {0.5f, 0.5f};
    ck_assert_int_eq(attn_dropout(w, p, 42, 2), 0);
    expect(w[0] == 0.5f / (1.0f - p), "W[0] = %.9g: a draw equal to p must be kept and scaled", (double)w[0]);
    expect(w[1] == 0.0f, "W[1] = %.9g: a draw below p must be dropped", (double)w[1]);
}
END_TEST

static const float PS[] = {0.1f, 0.3f, 0.5f};

START_TEST(dropout_scales_kept_exactly)
{
    /* Every weight is either exactly 0 (dropped) or exactly w / (1 - p) in
       float, and which it is follows the documented draws: u_n < p drops. */
    float p = PS[_i];
    enum { N = 4096 };
    float *w = random_weights(N, 2), before[N];
    memcpy(before, w, sizeof before);
    ck_assert_int_eq(attn_dropout(w, p, 99, N), 0);
    sup_rng rng;
    sup_rng_seed(&rng, 99);
    for (int k = 0; k < N; k++) {
        int dropped = sup_rng_uniform(&rng) < p;
        float want = dropped ? 0.0f : before[k] / (1.0f - p);
        expect(w[k] == want, "p = %g, W[%d] = %.9g, expected %.9g (%s)", (double)p, k,
               (double)w[k], (double)want, dropped ? "dropped" : "kept, scaled by 1/(1-p)");
    }
    free(w);
}
END_TEST

START_TEST(dropout_keeps_fraction_1_minus_p)
{
    /* Over 1e6 draws the kept fraction is within 0.5% (relative) of 1 - p.
       Its standard error is sqrt(p (1-p) / 1e6): 3e-4 at p = 0.1 and 5e-4 at
       p = 0.5, against tolerances of 4.5e-3 and 2.5e-3. The mean weight is
       kept too: inverted scaling makes E[dropout(w)] = w. */
    float p = PS[_i];
    const long N = 1000000;
    float *w = malloc((size_t)N * sizeof *w);
    ck_assert_ptr_nonnull(w);
    for (long k = 0; k < N; k++) w[k] = 0.125f;
    ck_assert_int_eq(attn_dropout(w, p, 2024, N), 0);
    long kept = 0;
    double sum = 0.0;
    for (long k = 0; k < N; k++) {
        kept += w[k] != 0.0f;
        sum += (double)w[k];
    }
    free(w);
    double frac = (double)kept / (double)N, keep = 1.0 - (double)p;
    expect(fabs(frac - keep) <= 0.005 * keep, "p = %g: kept fraction %.5f, expected %.5f within 0.5%%",
           (double)p, frac, keep);
    expect(fabs(sum / (double)N - 0.125) <= 0.005 * 0.125 / keep,
           "p = %g: mean weight after dropout %.6f, expected about 0.125", (double)p, sum / (double)N);
}
END_TEST

START_TEST(dropout_same_seed_same_mask)
{
    enum { N = 2048 };
    float *a = random_weights(N, 3), *b = random_weights(N, 3), *c = random_weights(N, 3);
    attn_dropout(a, 0.3f, 5, N);
    attn_dropout(b, 0.3f, 5, N);
    attn_dropout(c, 0.3f, 6, N);
    int differ = 0;
    for (int k = 0; k < N; k++) {
        expect(a[k] == b[k], "same seed, different W[%d]: %.9g vs %.9g", k, (double)a[k], (double)b[k]);
        differ += (a[k] == 0.0f) != (c[k] == 0.0f);
    }
    /* Two independent masks at p = 0.3 disagree on 2 * 0.3 * 0.7 = 42% of entries. */
    expect(differ > N / 4, "seeds 5 and 6 gave nearly the same mask (%d of %d entries differ)", differ, N);
    free(a);
    free(b);
    free(c);
}
END_TEST

static const float BAD_P[] = {-0.1f, 1.0f, 1.5f, NAN, INFINITY};

START_TEST(dropout_rejects_bad_p)
{
    /* p must be in [0, 1): otherwise -1 and W untouched. */
    float w[4] = {0.1f, 0.2f, 0.3f, 0.4f};
    ck_assert_int_eq(attn_dropout(w, BAD_P[_i], 1, 4), -1);
    ck_assert(w[0] == 0.1f && w[1] == 0.2f && w[2] == 0.3f && w[3] == 0.4f);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Post-softmax masking                                                 */
/* ------------------------------------------------------------------ */

START_TEST(postmask_rows_sum_below_one)
{
    /* The worked row without a mask: softmax([2, 1, -1, 0.5]) =
       [7.389056, 2.718282, 0.367879, 1.648721] / 12.123938
       = [0.609460, 0.224208, 0.030343, 0.135989].
       Zeroing the padded key afterwards leaves 1 - 0.135989 = 0.864011:
       the padding kept its share of the mass. */
    float W[4] = {2, 1, -1, 0.5f};
    const int lengths[1] = {3};
    attn_softmax(W, W, 1, 4);
    attn_postmask(W, lengths, 1, 1, 4);
    const double want[4] = {0.6094600376, 0.2242078180, 0.0303432286, 0.0};
    for (int j = 0; j < 4; j++) expect_near("W", j, (double)W[j], want[j], 1e-7);
    expect_near("row sum", 0, row_sum(W, 4), 0.8640110842, 1e-6);
}
END_TEST

START_TEST(postmask_renorm_equals_premask)
{
    /* Renormalising the post-masked row gives the weights of masking the
       scores: [0.609460, 0.224208, 0.030343] / 0.864011
       = [0.705385, 0.259496, 0.035119], the worked row. */
    float post[4] = {2, 1, -1, 0.5f}, pre[4] = {2, 1, -1, 0.5f};
    const int lengths[1] = {3};
    attn_softmax(post, post, 1, 4);
    attn_postmask_renorm(post, lengths, 1, 1, 4);
    attn_padding_mask(pre, lengths, 1, 1, 4);
    attn_softmax(pre, pre, 1, 4);
    for (int j = 0; j < 4; j++) expect_near("renormalised W", j, (double)post[j], (double)pre[j], 1e-7);
    expect(post[3] == 0.0f, "padded weight %g, expected exactly 0", (double)post[3]);
    expect_near("W", 0, (double)post[0], 0.7053845127, 1e-7);
}
END_TEST

START_TEST(postmask_renorm_empty_row_stays_zero)
{
    /* Length 0: nothing is left to renormalise; the row stays all zeros. */
    float W[6] = {0.5f, 0.25f, 0.25f, 0.2f, 0.3f, 0.5f};
    const int lengths[2] = {0, 2};
    attn_postmask_renorm(W, lengths, 2, 1, 3);
    for (int j = 0; j < 3; j++) expect(W[j] == 0.0f, "W[0][%d] = %g, expected 0", j, (double)W[j]);
    /* second row: [0.2, 0.3] / 0.5 = [0.4, 0.6] */
    expect_near("W[1]", 0, (double)W[3], 0.4, 1e-7);
    expect_near("W[1]", 1, (double)W[4], 0.6, 1e-7);
    expect(W[5] == 0.0f, "W[1][2] = %g, expected 0", (double)W[5]);
}
END_TEST

START_TEST(postmask_depends_on_batch_padding)
{
    /* The batch-composition bug: one sequence with 3 real keys, padded to
       Tk = 4 in one batch and to Tk = 8 in another (padding scores 0, as a
       zero key gives). Masking scores gives the same weights either way;
       masking weights gives rows that sum to less, the more padding there is. */
    float s4[4] = {2, 1, -1, 0}, s8[8] = {2, 1, -1, 0, 0, 0, 0, 0};
    float pre4[4], pre8[8], post4[4], post8[8];
    const int lengths[1] = {3};
    memcpy(pre4, s4, sizeof s4);
    memcpy(pre8, s8, sizeof s8);
    attn_padding_mask(pre4, lengths, 1, 1, 4);
    attn_padding_mask(pre8, lengths, 1, 1, 8);
    attn_softmax(pre4, pre4, 1, 4);
    attn_softmax(pre8, pre8, 1, 8);
    attn_softmax(post4, s4, 1, 4);
    attn_softmax(post8, s8, 1, 8);
    attn_postmask(post4, lengths, 1, 1, 4);
    attn_postmask(post8, lengths, 1, 1, 8);
    for (int j = 0; j < 3; j++) expect_near("pre-masked W, Tk 8 vs 4", j, (double)pre8[j], (double)pre4[j], 0.0);
    /* sums: exp(2) + exp(1) + exp(-1) = 10.475217;
       padding keys score 0, exp(0) = 1 each, so the row's normaliser grows by
       one per padding key:
       Tk = 4: 10.475217 / 11.475217 = 0.912856; Tk = 8: 10.475217 / 15.475217 = 0.676903 */
    expect_near("post-masked sum, Tk 4", 0, row_sum(post4, 4), 0.9128557, 1e-6);
    expect_near("post-masked sum, Tk 8", 0, row_sum(post8, 8), 0.6769028, 1e-6);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("attn_weight_edits");
    TCase *dropout = tcase_create("dropout");
    tcase_add_test(dropout, dropout_p0_is_identity);
    tcase_add_test(dropout, dropout_hand_computed);
    tcase_add_test(dropout, dropout_drops_only_below_p);
    tcase_add_loop_test(dropout, dropout_scales_kept_exactly, 0, (int)(sizeof PS / sizeof PS[0]));
    tcase_add_loop_test(dropout, dropout_keeps_fraction_1_minus_p, 0, (int)(sizeof PS / sizeof PS[0]));
    tcase_add_test(dropout, dropout_same_seed_same_mask);
    tcase_add_loop_test(dropout, dropout_rejects_bad_p, 0, (int)(sizeof BAD_P / sizeof BAD_P[0]));
    suite_add_tcase(s, dropout);

    TCase *post = tcase_create("post-softmax masking");
    tcase_add_test(post, postmask_rows_sum_below_one);
    tcase_add_test(post, postmask_renorm_equals_premask);
    tcase_add_test(post, postmask_renorm_empty_row_stays_zero);
    tcase_add_test(post, postmask_depends_on_batch_padding);
    suite_add_tcase(s, post);
    return s;
}
