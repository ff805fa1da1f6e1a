/* test_lab02.c: the grader's lab 2 module (grader/labs/lab02.c) against its
 * rubric (data/rubrics/lab02.yaml). Run from the repository root.
 *
 * What must hold for the grading of lab 2 to be fair (what every lab must do,
 * seeding and misconceptions, is in test_lab_modules.c):
 *   - points per function add up to the stub's and handout's (6 + 2 + 3 + 1 + 2);
 *   - the expected outputs obey the contract: the worked row's weights, rows
 *     summing to 1, masked weights exactly 0 and finite scores' weights above 0,
 *     fully masked rows all zeros and counted, masks writing -inf exactly where
 *     the rule says and nowhere else, temperature dividing, and rejected calls
 *     leaving everything untouched.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lab02_calls.h"
#include "labsup.h"

#define RUBRIC "data/rubrics/lab02.yaml"
#define MOD gr_lab02_module
#include "labtest.h"

Suite *test_suite(void);

/* Tests whose inputs are fixed numbers (the handout's worked row). */
static int fixed_inputs(const gr_rubric_test *t)
{
    return is_worked(t) || gr_rubric_test_param(t, "worked", 0) != 0;
}

/* ---- the rubric -------------------------------------------------------------- */

/* Which contract function a call exercises: 0 softmax, 1 causal, 2 padding,
   3 bool, 4 temperature. */
static int function_of(uint32_t fn)
{
    switch (fn) {
    case LAB02_CAUSAL_MASK:  return 1;
    case LAB02_PADDING_MASK: return 2;
    case LAB02_BOOL_MASK:    return 3;
    case LAB02_TEMPERATURE:  return 4;
    default:                 return 0;
    }
}

START_TEST(test_points_per_function)
{
    /* the stub and handout: softmax 6, causal 2, padding 3, bool 1, temperature 2 */
    const double want[5] = {6, 2, 3, 1, 2};
    check_points_per_function(want, 5, function_of);
}
END_TEST

START_TEST(test_bad_rubric_tests_are_refused)
{
    /* a temperature_bad test with a valid tau cannot be built */
    char err[512] = "";
    refuse_param("temperature_bad", "tau", 2, err, sizeof err);
}
END_TEST

/* ---- the expected outputs obey the contract ------------------------------------- */

/* Where a softmax case keeps its scores, weights and count. */
static const float *softmax_scores(const gr_case *c)
{
    return c->call.bufs[c->call.fn == LAB02_SOFTMAX_INPLACE ? 0 : 1].data;
}

static int count_buf(const gr_case *c)
{
    return c->call.fn == LAB02_SOFTMAX ? 2 : c->call.fn == LAB02_SOFTMAX_INPLACE ? 1 : -1;
}

START_TEST(test_worked_row)
{
    for (int k = 0; k < rubric.n_tests; k++) {
        if (strcmp(rubric.tests[k].kind, "softmax_worked") != 0)
            continue;
        gr_case c;
        build(k, 3, &c);
        const float *W = c.expected[0];
        /* [2, 1, -1, 0.5]: exp(s - 2) = [1, .367879, .049787, .223130], sum
           1.640796 -> [.6095 .2242 .0303 .1360]. With key 3 masked the sum is
           1.417667 -> [.7054 .2595 .0351 0]. */
        const float plain[4] = {0.6095f, 0.2242f, 0.0303f, 0.1360f};
        const float padded[4] = {0.7054f, 0.2595f, 0.0351f, 0.0f};
        for (int j = 0; j < 4; j++) {
            ck_assert_double_eq_tol((double)W[j], (double)plain[j], 1e-4);
            ck_assert_double_eq_tol((double)W[4 + j], (double)padded[j], 1e-4);
        }
        ck_assert_msg(W[7] == 0.0f, "the masked key's weight is not exactly 0");
        ck_assert_int_eq(*(const int32_t *)c.expected[2], 0);
        gr_case_free(&c);
    }
}
END_TEST

START_TEST(test_softmax_rows)
{
    int large = 0, full = 0;
    for (int k = 0; k < rubric.n_tests; k++) {
        gr_case c;
        build(k, 11, &c);
        if (function_of(c.call.fn) != 0) {
            gr_case_free(&c);
            continue;
        }
        int rows = (int)c.call.ints[0], n = (int)c.call.ints[1];
        const float *W = c.expected[0];
        int cb = count_buf(&c);
        if (c.expected_status != LAB_OK) {
            /* rejected: W and the count come back as the child starts them */
            for (uint64_t x = 0; x < c.call.bufs[0].count; x++)
                ck_assert(isnan(proto_out_fill(x)) ? isnan(W[x]) : W[x] == proto_out_fill(x));
            if (cb >= 0)
                ck_assert_int_eq(*(const int32_t *)c.expected[cb], 0x5A5A5A5A);
            ck_assert(rows < 0 || n < 1);
            gr_case_free(&c);
            continue;
        }
        const float *S = softmax_scores(&c);
        int32_t masked = 0;
        for (int r = 0; r < rows; r++) {
            const float *s = S + (long)r * n, *w = W + (long)r * n;
            int all = 1;
            double sum = 0;
            for (int j = 0; j < n; j++) {
                large |= fabsf(s[j]) >= 1e4f && isfinite(s[j]);
                if (s[j] == -INFINITY) {
                    ck_assert_msg(w[j] == 0.0f, "%s: a masked weight is not exactly 0", c.describe);
                } else {
                    all = 0;
                    ck_assert_msg(w[j] > 0.0f && w[j] <= 1.0f, "%s: weight %g of a finite score",
                                  c.describe, (double)w[j]);
                }
                sum += (double)w[j];
            }
            if (all) {
                ck_assert(sum == 0.0);
                masked++;
            } else {
                ck_assert_msg(fabs(sum - 1.0) < 1e-5, "%s: row %d sums to %g", c.describe, r, sum);
            }
        }
        full += masked > 0;
        if (cb >= 0)
            ck_assert_int_eq(*(const int32_t *)c.expected[cb], masked);
        gr_case_free(&c);
    }
    ck_assert_msg(large, "no softmax test has scores of magnitude 1e4");
    ck_assert_msg(full >= 3, "too few softmax tests have fully masked rows");
}
END_TEST

/* Blocked by the contract's rule? (computed here, independently of the module) */
static int contract_blocks(const gr_case *c, int b, int i, int j)
{
    int Tq = (int)c->call.ints[1], Tk = (int)c->call.ints[2];
    switch (c->call.fn) {
    case LAB02_CAUSAL_MASK:  return j > i;
    case LAB02_PADDING_MASK: return j >= ((const int32_t *)c->call.bufs[1].data)[b];
    default:                 return ((const uint8_t *)c->call.bufs[1].data)[((long)b * Tq + i) * Tk + j] != 0;
    }
}

START_TEST(test_masks)
{
    int zero_len = 0, full_len = 0, big_bytes = 0;
    for (int k = 0; k < rubric.n_tests; k++) {
        gr_case c;
        build(k, 13, &c);
        int f = function_of(c.call.fn);
        if (f < 1 || f > 3) {
            gr_case_free(&c);
            continue;
        }
        const float *S = c.call.bufs[0].data, *want = c.expected[0];
        if (c.expected_status != LAB_OK) {
            ck_assert(memcmp(S, want, buf_bytes(&c.call.bufs[0])) == 0);
            gr_case_free(&c);
            continue;
        }
        int B = (int)c.call.ints[0], Tq = (int)c.call.ints[1], Tk = (int)c.call.ints[2];
        int blocked = 0;
        for (int b = 0; b < B; b++) {
            if (f == 2) {
                int len = ((const int32_t *)c.call.bufs[1].data)[b];
                ck_assert(len >= 0 && len <= Tk);
                zero_len |= len == 0 && B >= 3;
                full_len |= len == Tk && B >= 3;
            }
            for (int i = 0; i < Tq; i++)
                for (int j = 0; j < Tk; j++) {
                    long x = ((long)b * Tq + i) * Tk + j;
                    if (contract_blocks(&c, b, i, j)) {
                        ck_assert_msg(want[x] == -INFINITY, "%s: [%d][%d][%d] not -inf", c.describe, b, i, j);
                        blocked++;
                    } else {
                        ck_assert_msg(want[x] == S[x] || (isnan(want[x]) && isnan(S[x])),
                                      "%s: [%d][%d][%d] changed", c.describe, b, i, j);
                    }
                }
        }
        ck_assert_msg(blocked > 0 || (long)B * Tq * Tk == 0, "%s: the mask blocks nothing",
                      c.describe);
        if (f == 3)
            for (uint64_t x = 0; x < c.call.bufs[1].count; x++)
                big_bytes |= ((const uint8_t *)c.call.bufs[1].data)[x] > 1;
        gr_case_free(&c);
    }
    ck_assert_msg(zero_len && full_len, "no padding test has a length 0 and a length Tk");
    ck_assert_msg(big_bytes, "no bool test blocks with a byte other than 1");
}
END_TEST

START_TEST(test_temperature)
{
    for (int k = 0; k < rubric.n_tests; k++) {
        gr_case c;
        build(k, 17, &c);
        if (c.call.fn != LAB02_TEMPERATURE) {
            gr_case_free(&c);
            continue;
        }
        const float *S = c.call.bufs[0].data, *want = c.expected[0];
        float tau = (float)c.call.reals[0];
        int n = (int)c.call.ints[0];
        if (c.expected_status != LAB_OK) {
            ck_assert_msg(!(tau > 0.0f) || isinf(tau) || n < 0, "%s: a valid tau rejected", c.describe);
            ck_assert(memcmp(S, want, buf_bytes(&c.call.bufs[0])) == 0);
        } else {
            ck_assert(tau > 0.0f && isfinite(tau));
            for (int x = 0; x < n; x++)
                ck_assert(want[x] == S[x] / tau); /* -inf / tau stays -inf */
        }
        if (fixed_inputs(&rubric.tests[k])) {
            /* [2, 1, -1, 0.5] / 2 = [1, 0.5, -0.5, 0.25] */
            const float w[4] = {1, 0.5f, -0.5f, 0.25f};
            for (int x = 0; x < 4; x++)
                ck_assert(want[x] == w[x]);
        }
        gr_case_free(&c);
    }
}
END_TEST

/* The input window shows the score row behind a weight. */
START_TEST(test_input_window)
{
    for (int k = 0; k < rubric.n_tests; k++) {
        if (strcmp(rubric.tests[k].kind, "softmax_worked") != 0)
            continue;
        gr_case c;
        build(k, 1, &c);
        char *s = window_text(&c, 0, 7); /* W[1][3], the masked key of the worked row */
        ck_assert_msg(strstr(s, "scores row [1]: 2.0000 1.0000 -1.0000 -inf") != NULL, "%s", s);
        free(s);
        gr_case_free(&c);
    }
}
END_TEST

/* Whatever the student's seed, the padding tests catch padding applied to query
   rows (some length is in [1, Tk - 1]: make_one_partial) and a masked score of 0.
   Without it 1 student in 125 kept padding_batched's points for the first. */
START_TEST(test_padding_exposes_the_axis_for_every_seed)
{
    static const char *const tests[] = { "padding_batched", "padding_rectangular" };
    for (int i = 0; i < 2; i++) {
        assert_exposed(tests[i], "padding_query_axis", 1000);
        assert_exposed(tests[i], "mask_zero", 1000);
    }
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("lab02 module");
    TCase *tc = tcase_create("rubric");
    tcase_add_checked_fixture(tc, load_rubric, free_rubric);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_points_per_function);
    tcase_add_test(tc, test_bad_rubric_tests_are_refused);
    tcase_add_test(tc, test_worked_row);
    tcase_add_test(tc, test_softmax_rows);
    tcase_add_test(tc, test_masks);
    tcase_add_test(tc, test_temperature);
    tcase_add_test(tc, test_input_window);
    tcase_add_test(tc, test_padding_exposes_the_axis_for_every_seed);
    suite_add_tcase(s, tc);
    return s;
}
