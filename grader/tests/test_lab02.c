/* test_lab02.c: the grader's lab 2 module (grader/labs/lab02.c) against its
 * rubric (data/rubrics/lab02.yaml). Run from the repository root.
 *
 * What must hold for the grading of lab 2 to be fair:
 *   - every rubric test builds, is the same for a seed and changes with it
 *     (except the handout's fixed worked row);
 *   - points per function add up to the stub's and handout's (6 + 2 + 3 + 1 + 2);
 *   - the expected outputs obey the contract: the worked row's weights, rows
 *     summing to 1, masked weights exactly 0 and finite scores' weights above 0,
 *     fully masked rows all zeros and counted, masks writing -inf exactly where
 *     the rule says and nowhere else, temperature dividing, and rejected calls
 *     leaving everything untouched;
 *   - every misconception can be told from the right answer on some test, and
 *     no two can be confused on any test.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../compare.h"
#include "../labmod.h"
#include "../rubric.h"
#include "../stub/lab02_calls.h"
#include "labsup.h"

#define RUBRIC "data/rubrics/lab02.yaml"
#define MOD gr_lab02_module
#define DISTINCT_SEEDS 3

Suite *test_suite(void);

static gr_rubric rubric;

static void load_rubric(void)
{
    char err[512];
    ck_assert_msg(gr_rubric_load(RUBRIC, &rubric, err, sizeof err) == 0, "%s", err);
}

static void free_rubric(void)
{
    gr_rubric_free(&rubric);
}

/* Build the case of rubric test k for seed, failing the test on an error. */
static void build(int k, uint64_t seed, gr_case *c)
{
    char err[512] = "";
    memset(c, 0, sizeof *c);
    int rc = MOD.make_case(&rubric.tests[k], seed, c, err, sizeof err);
    ck_assert_msg(rc == 0, "%s: make_case failed: %s", rubric.tests[k].name, err);
}

static size_t buf_bytes(const proto_buf *b)
{
    return (size_t)b->count * proto_kind_size(b->kind);
}

/* The request bytes of a case: what the child would receive. */
static unsigned char *request(const gr_case *c, size_t *len)
{
    unsigned char *bytes = NULL;
    ck_assert_msg(proto_encode_request(&c->call, &bytes, len) == 0, "%s: the case does not encode",
                  c->describe);
    return bytes;
}

/* 1 when two cases send the same request and expect the same answer. */
static int same_case(const gr_case *a, const gr_case *b)
{
    size_t la, lb;
    unsigned char *ra = request(a, &la), *rb = request(b, &lb);
    int same = la == lb && memcmp(ra, rb, la) == 0 && a->expected_status == b->expected_status;
    for (int i = 0; same && i < a->call.n_bufs; i++) {
        if (!a->expected[i] != !b->expected[i])
            same = 0;
        else if (a->expected[i])
            same = memcmp(a->expected[i], b->expected[i], buf_bytes(&a->call.bufs[i])) == 0;
    }
    free(ra);
    free(rb);
    return same;
}

/* Tests whose inputs are fixed numbers (the handout's worked row). */
static int fixed_inputs(const gr_rubric_test *t)
{
    return strstr(t->kind, "_worked") != NULL || gr_test_param(t, "worked", 0) != 0;
}

/* ---- every rubric test ------------------------------------------------------- */

START_TEST(test_every_test_builds_and_is_seeded)
{
    for (int k = 0; k < rubric.n_tests; k++) {
        gr_case a, b, other;
        build(k, 42, &a);
        build(k, 42, &b);
        build(k, 43, &other);
        ck_assert_msg(same_case(&a, &b), "%s: two builds with seed 42 differ", rubric.tests[k].name);
        if (!fixed_inputs(&rubric.tests[k]))
            ck_assert_msg(!same_case(&a, &other), "%s: seeds 42 and 43 give the same inputs",
                          rubric.tests[k].name);
        ck_assert_msg(a.describe[0] != '\0', "%s: no description", rubric.tests[k].name);
        /* every output buffer has an expected content */
        for (int i = 0; i < a.call.n_bufs; i++)
            ck_assert_msg((a.call.bufs[i].role == PROTO_IN) == (a.expected[i] == NULL),
                          "%s: buffer %d has the wrong expected content", rubric.tests[k].name, i);
        gr_case_free(&a);
        gr_case_free(&b);
        gr_case_free(&other);
    }
}
END_TEST

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
    double pts[5] = {0};
    for (int k = 0; k < rubric.n_tests; k++) {
        gr_case c;
        build(k, 1, &c);
        pts[function_of(c.call.fn)] += rubric.tests[k].points;
        gr_case_free(&c);
    }
    for (int f = 0; f < 5; f++)
        ck_assert_double_eq_tol(pts[f], want[f], 1e-9);
}
END_TEST

START_TEST(test_bad_rubric_tests_are_refused)
{
    char name[] = "x", unknown[] = "no_such_kind", bad_kind[] = "temperature_bad", tau[] = "tau";
    gr_rubric_test t = { .name = name, .kind = unknown };
    gr_case c;
    char err[512] = "";
    memset(&c, 0, sizeof c);
    ck_assert_int_eq(MOD.make_case(&t, 1, &c, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "no_such_kind") != NULL, "error does not name the kind: %s", err);
    gr_case_free(&c);
    /* a temperature_bad test with a valid tau cannot be built */
    gr_rubric_test bad = { .name = name, .kind = bad_kind, .n_params = 1 };
    bad.params[0].key = tau;
    bad.params[0].value = 2;
    ck_assert_int_eq(MOD.make_case(&bad, 1, &c, err, sizeof err), -1);
    gr_case_free(&c);
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
           1.640796 -> [.6095 .2242 .0303 .1360]. With key 4 masked the sum is
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
                ck_assert(isnan(W[x]));
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
        ck_assert_msg(blocked > 0, "%s: the mask blocks nothing", c.describe);
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

/* ---- misconceptions -------------------------------------------------------------- */

/* Run misconception m on case c: 1 and pred filled when it applies. */
static int predict(int m, const gr_case *c, void *pred[PROTO_MAX_BUFS])
{
    memset(pred, 0, PROTO_MAX_BUFS * sizeof pred[0]);
    if (MOD.misconceptions[m].predict(c, pred) != 0) {
        for (int i = 0; i < PROTO_MAX_BUFS; i++)
            ck_assert_msg(pred[i] == NULL, "%s: returned -1 but left a prediction",
                          MOD.misconceptions[m].id);
        return 0;
    }
    for (int i = 0; i < c->call.n_bufs; i++)
        ck_assert_msg((c->call.bufs[i].role == PROTO_IN) == (pred[i] == NULL),
                      "%s on %s: buffer %d predicted wrongly", MOD.misconceptions[m].id,
                      c->describe, i);
    return 1;
}

static void free_pred(void *pred[PROTO_MAX_BUFS])
{
    for (int i = 0; i < PROTO_MAX_BUFS; i++)
        free(pred[i]);
}

START_TEST(test_misconceptions_are_described)
{
    ck_assert_int_gt(MOD.n_misconceptions, 0);
    for (int m = 0; m < MOD.n_misconceptions; m++) {
        const gr_misconception *mc = &MOD.misconceptions[m];
        ck_assert(mc->id && mc->name && mc->explain && mc->handout && mc->predict);
        ck_assert_msg(strstr(mc->handout, "README.md, section ") != NULL, "%s: handout", mc->id);
        for (int o = 0; o < m; o++)
            ck_assert_str_ne(mc->id, MOD.misconceptions[o].id);
    }
}
END_TEST

/* Each misconception changes the output of at least one rubric test (for
   three seeds), so a student holding it can be told so. */
START_TEST(test_misconceptions_are_diagnosable)
{
    for (int m = 0; m < MOD.n_misconceptions; m++)
        for (uint64_t seed = 1; seed <= 3; seed++) {
            int shown = 0;
            for (int k = 0; k < rubric.n_tests && !shown; k++) {
                gr_case c;
                void *pred[PROTO_MAX_BUFS];
                build(k, seed, &c);
                const gr_rubric_test *t = &rubric.tests[k];
                if (predict(m, &c, pred))
                    shown = gr_compare(&c, c.expected, pred, t->abs_tol, t->rel_tol, NULL) > 0;
                free_pred(pred);
                gr_case_free(&c);
            }
            ck_assert_msg(shown, "misconception %s never changes a rubric test's output (seed %d)",
                          MOD.misconceptions[m].id, (int)seed);
        }
}
END_TEST

/* On no rubric test do two misconceptions both depart from the expected
   output and agree with each other: a diagnosis is never ambiguous.
   DISTINCT_SEEDS seeds of every test. */
START_TEST(test_misconceptions_are_distinct)
{
    for (uint64_t seed = 1; seed <= DISTINCT_SEEDS; seed++)
        for (int k = 0; k < rubric.n_tests; k++) {
            const gr_rubric_test *t = &rubric.tests[k];
            gr_case c;
            build(k, seed, &c);
            void *pred[32][PROTO_MAX_BUFS];
            int wrong[32] = {0};
            ck_assert_int_le(MOD.n_misconceptions, 32);
            for (int m = 0; m < MOD.n_misconceptions; m++)
                if (predict(m, &c, pred[m]))
                    wrong[m] = gr_compare(&c, c.expected, pred[m], t->abs_tol, t->rel_tol, NULL) > 0;
            for (int a = 0; a < MOD.n_misconceptions; a++)
                for (int b = 0; b < a; b++)
                    if (wrong[a] && wrong[b])
                        ck_assert_msg(gr_compare(&c, pred[a], pred[b], t->abs_tol, t->rel_tol, NULL) > 0,
                                      "%s: misconceptions %s and %s predict the same output", t->name,
                                      MOD.misconceptions[a].id, MOD.misconceptions[b].id);
            for (int m = 0; m < MOD.n_misconceptions; m++)
                free_pred(pred[m]);
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
        gr_strbuf out = {0};
        MOD.input_window(&c, 0, 7, &out); /* W[1][3], the masked key of the worked row */
        char *s = gr_sb_take(&out);
        ck_assert_msg(strstr(s, "scores row [1]: 2.0000 1.0000 -1.0000 -inf") != NULL, "%s", s);
        free(s);
        gr_case_free(&c);
    }
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("lab02 module");
    TCase *tc = tcase_create("rubric");
    tcase_add_checked_fixture(tc, load_rubric, free_rubric);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_every_test_builds_and_is_seeded);
    tcase_add_test(tc, test_points_per_function);
    tcase_add_test(tc, test_bad_rubric_tests_are_refused);
    tcase_add_test(tc, test_worked_row);
    tcase_add_test(tc, test_softmax_rows);
    tcase_add_test(tc, test_masks);
    tcase_add_test(tc, test_temperature);
    tcase_add_test(tc, test_misconceptions_are_described);
    tcase_add_test(tc, test_misconceptions_are_diagnosable);
    tcase_add_test(tc, test_misconceptions_are_distinct);
    tcase_add_test(tc, test_input_window);
    suite_add_tcase(s, tc);
    return s;
}
