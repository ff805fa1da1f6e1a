/* test_output.c: weights x values, and the reference pipeline attn_forward. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "attn.h"
#include "labsup.h"
#include "expect.h"

Suite *test_suite(void);

static float *normals(long n, uint64_t seed)
{
    float *x = malloc((size_t)(n > 0 ? n : 1) * sizeof *x);
    ck_assert_ptr_nonnull(x);
    sup_rng rng;
    sup_rng_seed(&rng, seed);
    sup_rng_fill_normal(&rng, x, n);
    return x;
}

/* ------------------------------------------------------------------ */
/* attn_output                                                          */
/* ------------------------------------------------------------------ */

START_TEST(output_hand_computed)
{
    /* W = [[0.25, 0.75], [1, 0]], V = [[1, 2], [3, -4]]:
       O[0] = 0.25 [1, 2] + 0.75 [3, -4] = [0.25 + 2.25, 0.5 - 3] = [2.5, -2.5]
       O[1] = V[0] = [1, 2]   (a one-hot row copies one value row) */
    const float W[] = {0.25f, 0.75f, 1, 0}, V[] = {1, 2, 3, -4};
    float O[4];
    attn_output(O, W, V, 1, 2, 2, 2);
    const double want[4] = {2.5, -2.5, 1, 2};
    for (int n = 0; n < 4; n++) expect_near("O", n, (double)O[n], want[n], 0.0);
}
END_TEST

START_TEST(output_batched_layout)
{
    /* B = 2, Tq = 1, Tk = 2, dv = 1; each batch entry mixes its own values:
       b=0: 0.5 * 2 + 0.5 * 4 = 3;  b=1: 0.1 * 10 + 0.9 * 20 = 19 */
    const float W[] = {0.5f, 0.5f, 0.1f, 0.9f}, V[] = {2, 4, 10, 20};
    float O[2];
    attn_output(O, W, V, 2, 1, 2, 1);
    expect_near("O", 0, (double)O[0], 3.0, 0.0);
    expect_near("O", 1, (double)O[1], 19.0, 2e-6);
}
END_TEST

START_TEST(output_is_convex_combination)
{
    /* Softmax weights make each output channel lie between the smallest and
       the largest value of that channel. dv = 150 also crosses the 64-channel
       chunks of the accumulator. */
    enum { Tq = 6, Tk = 40, dv = 150 };
    float *S = normals(Tq * Tk, 1), *V = normals(Tk * dv, 2);
    float O[Tq * dv];
    attn_softmax(S, S, Tq, Tk);
    attn_output(O, S, V, 1, Tq, Tk, dv);
    for (int c = 0; c < dv; c++) {
        float lo = V[c], hi = V[c];
        for (int j = 1; j < Tk; j++) {
            if (V[j * dv + c] < lo) lo = V[j * dv + c];
            if (V[j * dv + c] > hi) hi = V[j * dv + c];
        }
        for (int i = 0; i < Tq; i++) {
            float o = O[i * dv + c];
            expect(o >= lo - 1e-6f && o <= hi + 1e-6f, "O[%d][%d] = %g outside [%g, %g]", i, c,
                   (double)o, (double)lo, (double)hi);
            /* and equals the plain sum, in double */
            double want = 0.0;
            for (int j = 0; j < Tk; j++) want += (double)S[i * Tk + j] * (double)V[j * dv + c];
            expect_near("O", i * dv + c, (double)o, want, 1e-6 * fabs(want) + 1e-7);
        }
    }
    free(S);
    free(V);
}
END_TEST

START_TEST(output_zero_weights_zero_output)
{
    const float W[3] = {0, 0, 0}, V[6] = {1, -2, 3, 4, 5, 6};
    float O[2] = {7, 7};
    attn_output(O, W, V, 1, 1, 3, 2);
    expect(O[0] == 0.0f && O[1] == 0.0f, "O = [%g, %g], expected zeros", (double)O[0], (double)O[1]);
}
END_TEST

/* ------------------------------------------------------------------ */
/* attn_forward                                                         */
/* ------------------------------------------------------------------ */

START_TEST(forward_hand_computed)
{
    /* q = [1, 0], keys [1, 0] and [0, 1], values 1 and 3 (dv = 1).
       plain:  scores [1, 0]; w = [e / (e + 1), 1 / (e + 1)] = [0.731059, 0.268941]
               O = 0.731059 * 1 + 0.268941 * 3 = 1.537883
       scaled: scores [1/sqrt 2, 0] = [0.707107, 0]; w0 = 1 / (1 + exp(-0.707107))
               = 0.669762; O = 0.669762 + 3 * 0.330238 = 1.660477 */
    const float Q[] = {1, 0}, K[] = {1, 0, 0, 1}, V[] = {1, 3};
    float O, W[2];
    attn_config cfg = {0};
    ck_assert_int_eq(attn_forward(&O, W, Q, K, V, 1, 1, 2, 2, 1, &cfg), 0);
    expect_near("W", 0, (double)W[0], 0.7310585786, 1e-7);
    expect_near("W", 1, (double)W[1], 0.2689414214, 1e-7);
    expect_near("O", 0, (double)O, 1.5378828427, 2e-7);
    cfg.scaled = 1;
    ck_assert_int_eq(attn_forward(&O, W, Q, K, V, 1, 1, 2, 2, 1, &cfg), 0);
    expect_near("W", 0, (double)W[0], 0.6697615493, 1e-7);
    expect_near("O", 0, (double)O, 1.6604769013, 2e-7);
    /* NULL config is plain dot-product attention */
    ck_assert_int_eq(attn_forward(&O, NULL, Q, K, V, 1, 1, 2, 2, 1, NULL), 0);
    expect_near("O", 0, (double)O, 1.5378828427, 2e-7);
}
END_TEST

START_TEST(forward_worked_row)
{
    /* d = 1, q = [1], keys [2], [1], [-1], [0.5]: dot scores [2, 1, -1, 0.5];
       key 4 is padding (length 3). V = I (dv = 4), so O is the weight row:
       [0.7054, 0.2595, 0.0351, 0]. */
    const float Q[] = {1}, K[] = {2, 1, -1, 0.5f};
    float V[16] = {0}, O[4], W[4];
    for (int j = 0; j < 4; j++) V[j * 4 + j] = 1.0f;
    const int lengths[1] = {3};
    attn_config cfg = {0};
    cfg.lengths = lengths;
    ck_assert_int_eq(attn_forward(O, W, Q, K, V, 1, 1, 4, 1, 4, &cfg), 0);
    const double want[4] = {0.7054, 0.2595, 0.0351, 0.0};
    for (int j = 0; j < 4; j++) {
        expect_near("W", j, (double)W[j], want[j], 5e-5);
        expect_near("O", j, (double)O[j], (double)W[j], 1e-7);
    }
    expect(W[3] == 0.0f && O[3] == 0.0f, "padding got weight %g, output %g", (double)W[3], (double)O[3]);
}
END_TEST

START_TEST(forward_temperature)
{
    /* The worked row with temperature 2 (key 4 still padding): scores / 2 =
       [1, 0.5, -0.5] -> exp = [2.718282, 1.648721, 0.606531],
       sum 4.973534 -> [0.546549, 0.331499, 0.121952]: flatter than tau = 1.
       Temperature 0 means none; temperature 1 is the same as none. */
    const float Q[] = {1}, K[] = {2, 1, -1, 0.5f};
    float V[16] = {0}, O[4], W[4], W0[4], W1[4];
    for (int j = 0; j < 4; j++) V[j * 4 + j] = 1.0f;
    const int lengths[1] = {3};
    attn_config cfg = {0};
    cfg.lengths = lengths;
    cfg.temperature = 2.0f;
    attn_forward(O, W, Q, K, V, 1, 1, 4, 1, 4, &cfg);
    const double want[3] = {0.5465493873, 0.3314989604, 0.1219516523};
    for (int j = 0; j < 3; j++) expect_near("W", j, (double)W[j], want[j], 1e-7);
    cfg.temperature = 0.0f;
    attn_forward(O, W0, Q, K, V, 1, 1, 4, 1, 4, &cfg);
    cfg.temperature = 1.0f;
    attn_forward(O, W1, Q, K, V, 1, 1, 4, 1, 4, &cfg);
    for (int j = 0; j < 4; j++) expect(W0[j] == W1[j], "W[%d]: tau 0 gives %g, tau 1 gives %g", j, (double)W0[j], (double)W1[j]);
    expect_near("W (tau 0)", 0, (double)W0[0], 0.7053845127, 1e-7);
}
END_TEST

START_TEST(forward_equals_step_by_step)
{
    /* Every option on: attn_forward must be exactly the documented steps in
       order: scaled scores, temperature, ALiBi, causal, padding, boolean mask,
       softmax, dropout, output. B = 4 counts batch 2 x heads 2. */
    enum { B = 4, H = 2, Tq = 5, Tk = 7, d = 8, dv = 3 };
    float *Q = normals(B * Tq * d, 1), *K = normals(B * Tk * d, 2), *V = normals(B * Tk * dv, 3);
    const int lengths[B] = {7, 4, 2, 0};
    unsigned char mask[B * Tq * Tk] = {0};
    for (int n = 0; n < B * Tq * Tk; n += 5) mask[n] = 1;
    attn_config cfg = {0};
    cfg.scaled = 1;
    cfg.temperature = 0.7f;
    cfg.causal = 1;
    cfg.lengths = lengths;
    cfg.mask = mask;
    cfg.alibi_heads = H;
    cfg.dropout_p = 0.2f;
    cfg.dropout_seed = 77;
    float O[B * Tq * dv], W[B * Tq * Tk], O2[B * Tq * dv], W2[B * Tq * Tk];
    long masked = attn_forward(O, W, Q, K, V, B, Tq, Tk, d, dv, &cfg);

    attn_scaled_dot_scores(W2, Q, K, B, Tq, Tk, d);
    attn_temperature(W2, 0.7f, B * Tq * Tk);
    attn_alibi_bias(W2, B, H, Tq, Tk);
    attn_causal_mask(W2, B, Tq, Tk);
    attn_padding_mask(W2, lengths, B, Tq, Tk);
    attn_bool_mask(W2, mask, B, Tq, Tk);
    long masked2 = attn_softmax(W2, W2, B * Tq, Tk);
    attn_dropout(W2, 0.2f, 77, B * Tq * Tk);
    attn_output(O2, W2, V, B, Tq, Tk, dv);

    ck_assert_int_eq(masked, masked2);
    ck_assert_int_ge(masked, Tq);          /* batch entry 3 has length 0 */
    for (int n = 0; n < B * Tq * Tk; n++) expect(W[n] == W2[n], "W[%d] = %.9g, step by step %.9g", n, (double)W[n], (double)W2[n]);
    for (int n = 0; n < B * Tq * dv; n++) expect(O[n] == O2[n], "O[%d] = %.9g, step by step %.9g", n, (double)O[n], (double)O2[n]);
    free(Q);
    free(K);
    free(V);
}
END_TEST

START_TEST(forward_rows_sum_to_one_masked_exactly_zero)
{
    /* Causal + padding, no dropout: each row of W sums to 1 within 1e-6 and
       every masked weight is exactly 0. */
    enum { B = 3, Tq = 9, Tk = 9, d = 4, dv = 2 };
    float *Q = normals(B * Tq * d, 4), *K = normals(B * Tk * d, 5), *V = normals(B * Tk * dv, 6);
    const int lengths[B] = {9, 5, 1};
    attn_config cfg = {0};
    cfg.scaled = 1;
    cfg.causal = 1;
    cfg.lengths = lengths;
    float O[B * Tq * dv], W[B * Tq * Tk];
    ck_assert_int_eq(attn_forward(O, W, Q, K, V, B, Tq, Tk, d, dv, &cfg), 0);
    for (int b = 0; b < B; b++)
        for (int i = 0; i < Tq; i++) {
            const float *w = W + (b * Tq + i) * Tk;
            double sum = 0.0;
            for (int j = 0; j < Tk; j++) {
                sum += (double)w[j];
                if (j > i || j >= lengths[b])
                    expect(w[j] == 0.0f, "masked W[%d][%d][%d] = %g, expected exactly 0", b, i, j, (double)w[j]);
                else expect(w[j] > 0.0f, "visible W[%d][%d][%d] = %g, expected > 0", b, i, j, (double)w[j]);
            }
            expect_near("row sum", b * Tq + i, sum, 1.0, 1e-6);
        }
    free(Q);
    free(K);
    free(V);
}
END_TEST

START_TEST(forward_fully_masked_rows)
{
    /* Batch entry 1 has no keys (length 0): its Tq rows get zero weights and a
       zero output, never NaN, and are counted. Causal with Tq > Tk leaves no
       row empty (key 0 is always visible), so the count is exactly Tq. */
    enum { B = 2, Tq = 3, Tk = 2, d = 2, dv = 2 };
    float *Q = normals(B * Tq * d, 7), *K = normals(B * Tk * d, 8), *V = normals(B * Tk * dv, 9);
    const int lengths[B] = {2, 0};
    attn_config cfg = {0};
    cfg.causal = 1;
    cfg.lengths = lengths;
    float O[B * Tq * dv], W[B * Tq * Tk];
    ck_assert_int_eq(attn_forward(O, W, Q, K, V, B, Tq, Tk, d, dv, &cfg), Tq);
    for (int n = Tq * Tk; n < B * Tq * Tk; n++) expect(W[n] == 0.0f, "W[%d] = %g, expected 0", n, (double)W[n]);
    for (int n = Tq * dv; n < B * Tq * dv; n++) expect(O[n] == 0.0f, "O[%d] = %g, expected 0", n, (double)O[n]);
    for (int n = 0; n < Tq * dv; n++) expect(isfinite(O[n]), "O[%d] = %g", n, (double)O[n]);
    /* and the same from a boolean mask that blocks everything */
    unsigned char all[B * Tq * Tk];
    memset(all, 1, sizeof all);
    attn_config block = {0};
    block.mask = all;
    ck_assert_int_eq(attn_forward(O, NULL, Q, K, V, B, Tq, Tk, d, dv, &block), B * Tq);
    for (int n = 0; n < B * Tq * dv; n++) expect(O[n] == 0.0f, "O[%d] = %g, expected 0", n, (double)O[n]);
    free(Q);
    free(K);
    free(V);
}
END_TEST

/* Bad configs: each returns -1 and writes nothing. */
static void bad_config(attn_config *cfg, int k)
{
    switch (k) {
    case 0: cfg->temperature = -1.0f; break;
    case 1: cfg->temperature = NAN; break;
    case 2: cfg->dropout_p = 1.0f; break;
    case 3: cfg->dropout_p = -0.5f; break;
    case 4: cfg->alibi_heads = 3; break;       /* B = 4 is not a multiple of 3 */
    default: cfg->alibi_heads = -1; break;
    }
}

START_TEST(forward_rejects_bad_config)
{
    enum { B = 4, T = 3, d = 2 };
    float *Q = normals(B * T * d, 1), *K = normals(B * T * d, 2), *V = normals(B * T * d, 3);
    float O[B * T * d], W[B * T * T];
    for (int n = 0; n < B * T * d; n++) O[n] = 42.0f;
    for (int n = 0; n < B * T * T; n++) W[n] = 42.0f;
    attn_config cfg = {0};
    bad_config(&cfg, _i);
    ck_assert_int_eq(attn_forward(O, W, Q, K, V, B, T, T, d, d, &cfg), -1);
    for (int n = 0; n < B * T * d; n++) expect(O[n] == 42.0f, "O[%d] was written", n);
    for (int n = 0; n < B * T * T; n++) expect(W[n] == 42.0f, "W[%d] was written", n);
    free(Q);
    free(K);
    free(V);
}
END_TEST

START_TEST(forward_without_W_matches)
{
    enum { B = 2, Tq = 4, Tk = 6, d = 5, dv = 3 };
    float *Q = normals(B * Tq * d, 1), *K = normals(B * Tk * d, 2), *V = normals(B * Tk * dv, 3);
    float O1[B * Tq * dv], O2[B * Tq * dv], W[B * Tq * Tk];
    attn_config cfg = {0};
    cfg.scaled = 1;
    cfg.causal = 1;
    attn_forward(O1, W, Q, K, V, B, Tq, Tk, d, dv, &cfg);
    attn_forward(O2, NULL, Q, K, V, B, Tq, Tk, d, dv, &cfg);
    for (int n = 0; n < B * Tq * dv; n++) expect(O1[n] == O2[n], "O[%d]: %g with W, %g without", n, (double)O1[n], (double)O2[n]);
    free(Q);
    free(K);
    free(V);
}
END_TEST

START_TEST(forward_nan_stays_in_its_row)
{
    /* A NaN in query 1 of batch entry 0 makes that output row NaN; every other
       row is finite. */
    enum { B = 2, Tq = 3, Tk = 4, d = 2, dv = 2 };
    float *Q = normals(B * Tq * d, 1), *K = normals(B * Tk * d, 2), *V = normals(B * Tk * dv, 3);
    Q[1 * d + 0] = NAN;
    float O[B * Tq * dv];
    attn_forward(O, NULL, Q, K, V, B, Tq, Tk, d, dv, NULL);
    for (int r = 0; r < B * Tq; r++)
        for (int c = 0; c < dv; c++) {
            float o = O[r * dv + c];
            if (r == 1) expect(isnan(o), "O[%d][%d] = %g, expected NaN", r, c, (double)o);
            else expect(isfinite(o), "O[%d][%d] = %g, expected finite", r, c, (double)o);
        }
    free(Q);
    free(K);
    free(V);
}
END_TEST

START_TEST(forward_padding_independent_of_batch)
{
    /* Masking scores makes a sequence's output independent of how much padding
       its batch adds: the same 3 keys padded to Tk = 3 and to Tk = 8 (padding
       keys and values set to arbitrary numbers) give the same output. */
    enum { d = 4, dv = 2 };
    float *Q = normals(2 * d, 1), *K8 = normals(8 * d, 2), *V8 = normals(8 * dv, 3);
    float O3[2 * dv], O8[2 * dv];
    const int len3[1] = {3}, len8[1] = {3};
    attn_config cfg = {0};
    cfg.scaled = 1;
    cfg.lengths = len3;
    attn_forward(O3, NULL, Q, K8, V8, 1, 2, 3, d, dv, &cfg);   /* first 3 keys only */
    cfg.lengths = len8;
    attn_forward(O8, NULL, Q, K8, V8, 1, 2, 8, d, dv, &cfg);
    for (int n = 0; n < 2 * dv; n++) expect_near("O (Tk 8 vs Tk 3)", n, (double)O8[n], (double)O3[n], 0.0);
    free(Q);
    free(K8);
    free(V8);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("attn_output");
    TCase *out = tcase_create("output");
    tcase_add_test(out, output_hand_computed);
    tcase_add_test(out, output_batched_layout);
    tcase_add_test(out, output_is_convex_combination);
    tcase_add_test(out, output_zero_weights_zero_output);
    suite_add_tcase(s, out);

    TCase *fwd = tcase_create("forward");
    tcase_add_test(fwd, forward_hand_computed);
    tcase_add_test(fwd, forward_worked_row);
    tcase_add_test(fwd, forward_temperature);
    tcase_add_test(fwd, forward_equals_step_by_step);
    tcase_add_test(fwd, forward_rows_sum_to_one_masked_exactly_zero);
    tcase_add_test(fwd, forward_fully_masked_rows);
    tcase_add_loop_test(fwd, forward_rejects_bad_config, 0, 6);
    tcase_add_test(fwd, forward_without_W_matches);
    tcase_add_test(fwd, forward_nan_stays_in_its_row);
    tcase_add_test(fwd, forward_padding_independent_of_batch);
    suite_add_tcase(s, fwd);
    return s;
}
