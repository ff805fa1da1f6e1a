/* test_lab03.c: the grader's lab 3 module (grader/labs/lab03.c) against its
 * rubric (data/rubrics/lab03.yaml). Run from the repository root.
 *
 * What must hold for the grading of lab 3 to be fair:
 *   - every rubric test builds, is the same for a seed and changes with it
 *     (except the handout's fixed worked examples);
 *   - points per function add up to the stub's and handout's (6 + 8);
 *   - the expected scores obey the contract: the handout's worked numbers,
 *     q^T W k recomputed here as (q^T W) . k, additive scores recomputed and
 *     bounded by sum |v[u]|, and S left untouched by a rejected or empty call;
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
#include "../stub/lab03_calls.h"
#include "labsup.h"

#define RUBRIC "data/rubrics/lab03.yaml"
#define MOD gr_lab03_module
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

/* Tests whose inputs are fixed numbers (the handout's examples). */
static int fixed_inputs(const gr_rubric_test *t)
{
    return strstr(t->kind, "_worked") != NULL;
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

START_TEST(test_points_per_function)
{
    /* the stub and handout: lab_general_scores 6, lab_additive_scores 8 */
    double pts[LAB03_N_CALLS] = {0};
    for (int k = 0; k < rubric.n_tests; k++) {
        gr_case c;
        build(k, 1, &c);
        pts[c.call.fn] += rubric.tests[k].points;
        gr_case_free(&c);
    }
    ck_assert_double_eq_tol(pts[LAB03_GENERAL_SCORES], 6.0, 1e-9);
    ck_assert_double_eq_tol(pts[LAB03_ADDITIVE_SCORES], 8.0, 1e-9);
}
END_TEST

START_TEST(test_bad_rubric_tests_are_refused)
{
    char name[] = "x", unknown[] = "no_such_kind", kind[] = "additive_bad", key[] = "h";
    gr_rubric_test t = { .name = name, .kind = unknown };
    gr_case c;
    char err[512] = "";
    memset(&c, 0, sizeof c);
    ck_assert_int_eq(MOD.make_case(&t, 1, &c, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "no_such_kind") != NULL, "error does not name the kind: %s", err);
    gr_case_free(&c);
    /* an additive_bad test whose sizes are all fine cannot be built */
    gr_rubric_test bad = { .name = name, .kind = kind, .n_params = 1 };
    bad.params[0].key = key;
    bad.params[0].value = 4;
    ck_assert_int_eq(MOD.make_case(&bad, 1, &c, err, sizeof err), -1);
    gr_case_free(&c);
}
END_TEST

/* ---- the expected outputs obey the contract ------------------------------------- */

START_TEST(test_worked_examples)
{
    for (int k = 0; k < rubric.n_tests; k++) {
        if (!fixed_inputs(&rubric.tests[k]))
            continue;
        gr_case c;
        build(k, 7, &c);
        const float *S = c.expected[0];
        if (c.call.fn == LAB03_GENERAL_SCORES) {
            /* handout section 3: q0^T W = [1, 2, 0], q1^T W = [0, 1, -1];
               k0 = [1, 1, 1]: 3 and 0; k1 = [2, 0, 1]: 2 + 0 + 0 = 2 and 0 + 0 - 1 = -1 */
            const float want[4] = {3, 2, 0, -1};
            for (int j = 0; j < 4; j++)
                ck_assert_double_eq_tol((double)S[j], (double)want[j], 1e-6);
        } else {
            /* handout section 4: score = tanh(q) - tanh(k); tanh(.5) = .462117,
               tanh(1) = .761594, tanh(-2) = -.964028, tanh(0) = 0 */
            const double want[4] = {0.462117 - 0.761594, 0.462117, -0.964028 - 0.761594, -0.964028};
            for (int j = 0; j < 4; j++)
                ck_assert_double_eq_tol((double)S[j], want[j], 2e-6);
        }
        gr_case_free(&c);
    }
}
END_TEST

START_TEST(test_expected_scores)
{
    int saturated = 0;
    for (int k = 0; k < rubric.n_tests; k++) {
        gr_case c;
        build(k, 99, &c);
        const int64_t *n = c.call.ints;
        int B = (int)n[0], Tq = (int)n[1], Tk = (int)n[2], dq = (int)n[3], dk = (int)n[4];
        int additive = c.call.fn == LAB03_ADDITIVE_SCORES, h = additive ? (int)n[5] : 1;
        const float *S = c.expected[0];
        if (c.expected_status != LAB_OK || B < 1 || Tq < 1 || Tk < 1) {
            /* a rejected or empty call: S must come back exactly as sent */
            ck_assert_int_eq(c.call.bufs[0].role, PROTO_INOUT);
            ck_assert(memcmp(S, c.call.bufs[0].data, buf_bytes(&c.call.bufs[0])) == 0);
            ck_assert_int_eq(c.expected_status, B < 0 || Tq < 0 || Tk < 0 || dq < 1 || dk < 1 || h < 1
                                                    ? LAB_BAD_ARG : LAB_OK);
            gr_case_free(&c);
            continue;
        }
        const float *Q = c.call.bufs[1].data;
        const float *K = c.call.bufs[additive ? 2 : 3].data;
        for (int b = 0; b < B; b++)
            for (int i = 0; i < Tq; i++)
                for (int j = 0; j < Tk; j++) {
                    const float *q = Q + ((long)b * Tq + i) * dq, *kv = K + ((long)b * Tk + j) * dk;
                    double want = 0, bound = 0;
                    if (!additive) {
                        /* (q^T W) . k, the other order of the same double sum */
                        const float *W = c.call.bufs[2].data;
                        for (int x = 0; x < dk; x++) {
                            double qW = 0;
                            for (int a = 0; a < dq; a++)
                                qW += (double)q[a] * (double)W[(long)a * dk + x];
                            want += qW * (double)kv[x];
                        }
                    } else {
                        const float *Wq = c.call.bufs[3].data, *Wk = c.call.bufs[4].data,
                                    *v = c.call.bufs[5].data;
                        for (int u = 0; u < h; u++) {
                            double pre = 0;
                            for (int a = 0; a < dq; a++)
                                pre += (double)Wq[(long)u * dq + a] * (double)q[a];
                            for (int x = 0; x < dk; x++)
                                pre += (double)Wk[(long)u * dk + x] * (double)kv[x];
                            saturated += fabs(pre) > 5;
                            want += (double)v[u] * tanh(pre);
                            bound += fabs((double)v[u]);
                        }
                    }
                    double got = (double)S[((long)b * Tq + i) * Tk + j];
                    ck_assert_msg(fabs(got - want) <= 1e-5 * (1 + fabs(want)),
                                  "%s: S[%d][%d][%d] = %g, recomputed %g", c.describe, b, i, j, got, want);
                    if (additive)
                        ck_assert_msg(fabs(got) <= bound * (1 + 1e-6), "%s: |S| above sum |v|", c.describe);
                }
        gr_case_free(&c);
    }
    ck_assert_msg(saturated > 0, "no additive test drives tanh into saturation");
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

/* The input window names the query and key rows behind a score. */
START_TEST(test_input_window)
{
    for (int k = 0; k < rubric.n_tests; k++) {
        if (strcmp(rubric.tests[k].name, "general_worked_example") != 0)
            continue;
        gr_case c;
        build(k, 1, &c);
        gr_strbuf out = {0};
        MOD.input_window(&c, 0, 3, &out); /* S[0][1][1] = q1^T W k1 */
        char *s = gr_sb_take(&out);
        ck_assert_msg(strstr(s, "Q[0][1] = [0.0000 1.0000]") != NULL, "%s", s);
        ck_assert_msg(strstr(s, "K[0][1] = [2.0000 0.0000 1.0000]") != NULL, "%s", s);
        free(s);
        gr_case_free(&c);
    }
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("lab03 module");
    TCase *tc = tcase_create("rubric");
    tcase_add_checked_fixture(tc, load_rubric, free_rubric);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_every_test_builds_and_is_seeded);
    tcase_add_test(tc, test_points_per_function);
    tcase_add_test(tc, test_bad_rubric_tests_are_refused);
    tcase_add_test(tc, test_worked_examples);
    tcase_add_test(tc, test_expected_scores);
    tcase_add_test(tc, test_misconceptions_are_described);
    tcase_add_test(tc, test_misconceptions_are_diagnosable);
    tcase_add_test(tc, test_misconceptions_are_distinct);
    tcase_add_test(tc, test_input_window);
    suite_add_tcase(s, tc);
    return s;
}
