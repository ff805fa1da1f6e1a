/* test_lab07.c: the visible tests of lab 7. Run them with
 *     make -C labs/lab07-online test
 * Each test states where its expected numbers come from, so you can add your own
 * cases the same way (copy a START_TEST block and register it at the bottom).
 * The checks (EXPECT_OK, EXPECT_STATUS, EXPECT_CLOSE, lc_poison, ...) are the
 * same in every lab; labs/labcheck.h describes each one.
 *
 * The memory test measures your heap: the lab's Makefile links with
 * -Wl,--wrap=malloc (and calloc, realloc, free), so every allocation in lab07.c
 * passes through the counters below before reaching the C library.
 */
#include <check.h>
#include <malloc.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "lab07.h"
#include "labcheck.h"
#include "expected_lab07.h"

/* ---- heap accounting ------------------------------------------------------ */

void *__real_malloc(size_t size);
void *__real_calloc(size_t count, size_t size);
void *__real_realloc(void *p, size_t size);
void __real_free(void *p);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t count, size_t size);
void *__wrap_realloc(void *p, size_t size);
void __wrap_free(void *p);

static int counting;      /* 1 while the function under test runs */
static long live_bytes;   /* heap held now, counted from when counting began */
static long peak_bytes;   /* the most held at once */

static void heap_add(long bytes)
{
    if (!counting) return;
    live_bytes += bytes;
    if (live_bytes > peak_bytes) peak_bytes = live_bytes;
}

void *__wrap_malloc(size_t size)
{
    void *p = __real_malloc(size);
    if (p) heap_add((long)malloc_usable_size(p));
    return p;
}

void *__wrap_calloc(size_t count, size_t size)
{
    void *p = __real_calloc(count, size);
    if (p) heap_add((long)malloc_usable_size(p));
    return p;
}

void *__wrap_realloc(void *p, size_t size)
{
    long old = p ? (long)malloc_usable_size(p) : 0;
    void *q = __real_realloc(p, size);
    if (q) {
        heap_add(-old);
        heap_add((long)malloc_usable_size(q));
    }
    return q;
}

void __wrap_free(void *p)
{
    if (p) heap_add(-(long)malloc_usable_size(p));
    __real_free(p);
}

static void heap_count_start(void)
{
    live_bytes = peak_bytes = 0;
    counting = 1;
}

static long heap_count_stop(void)
{
    counting = 0;
    return peak_bytes;
}

/* ---- lab_online_logsumexp ----------------------------------------------------- */

START_TEST(test_lse_worked_row)
{
    /* Looped over tile = 1 .. 5: the answer must not depend on the tile size.
       Row 0, the worked row: log(e^2 + e^1 + e^-1 + e^0.5)
         = log(7.389056 + 2.718282 + 0.367879 + 1.648721) = log(12.123938) = 2.495182
       Row 1, its 4th key masked: log(10.475217) = 2.349012
       (log of softmax's normaliser: weight_j = exp(s_j - lse), e^(2 - 2.349012) = 0.7054) */
    int tile = _i;
    const float S[8] = { 2.0f, 1.0f, -1.0f, 0.5f,   2.0f, 1.0f, -1.0f, -INFINITY };
    float lse[2];
    lc_poison(lse, 2);
    EXPECT_OK("lab_online_logsumexp", lab_online_logsumexp(lse, S, 2, 4, tile));
    const float want[2] = { 2.495182f, 2.349012f };
    ck_assert_msg(lc_first_mismatch(want, lse, 2, 1e-5f, LC_REL) < 0,
                  "tile %d: lse = [%.6f, %.6f], expected [2.495182, 2.349012]",
                  tile, (double)lse[0], (double)lse[1]);
}
END_TEST

START_TEST(test_lse_rescales_when_the_max_grows)
{
    /* Scores 0, 1, 2, 3, 4, 5 with tile 2: the max grows with every tile, so the
       running sum must be rescaled by exp(m_old - m_new) each time.
       log(sum_k e^k, k = 0..5) = 5 + log(1 + e^-1 + ... + e^-5) = 5.456193 */
    const float S[6] = { 0, 1, 2, 3, 4, 5 };
    float lse[1];
    EXPECT_OK("lab_online_logsumexp", lab_online_logsumexp(lse, S, 1, 6, 2));
    const float want[1] = { 5.456193f };
    EXPECT_CLOSE_REL("lse (tile 2, growing max)", want, lse, 1, 1e-5f);
}
END_TEST

START_TEST(test_lse_large_and_masked)
{
    /* Row 0: [1000, 1000, 999]; exp(1000) overflows a float, so subtract the max:
       1000 + log(1 + 1 + e^-1) = 1000 + log(2.367879) = 1000.861995
       Row 1: [-1000, -1000, -inf]: -1000 + log 2 = -999.306853 (exp(-1000)
       underflows to 0, so again only the max shift saves it)
       Row 2: every score -inf: log(0) = -inf, never NaN
       Row 3: [-inf, -inf, 3, 1], tile 2: the first tile is all masked, then
       3 + log(1 + e^-2) = 3.126928 */
    const float S[9] = { 1000, 1000, 999,  -1000, -1000, -INFINITY,
                         -INFINITY, -INFINITY, -INFINITY };
    float lse[3];
    lc_poison(lse, 3);
    EXPECT_OK("lab_online_logsumexp", lab_online_logsumexp(lse, S, 3, 3, 2));
    const float want[3] = { 1000.861995f, -999.306853f, -INFINITY };
    EXPECT_CLOSE_WITH("lse", want, lse, 3, 1e-6f, LC_REL | LC_INF);
    const float S4[4] = { -INFINITY, -INFINITY, 3.0f, 1.0f };
    EXPECT_OK("lab_online_logsumexp", lab_online_logsumexp(lse, S4, 1, 4, 2));
    const float want4[1] = { 3.126928f };
    EXPECT_CLOSE_HINT("lse (first tile masked)", want4, lse, 1, 1e-6f, LC_REL,
                      "NaN here? While the running max is still -inf, a tile of -inf scores "
                      "must be skipped: -inf - (-inf) is NaN, and one NaN poisons the row (the "
                      "grader calls this mistake 'a fully masked first tile not skipped')");
}
END_TEST

START_TEST(test_lse_bad_args)
{
    const float S[2] = { 1, 2 };
    float lse[1] = { 7.0f };
    EXPECT_STATUS("lab_online_logsumexp (tile = 0)", LAB_BAD_ARG,
                  lab_online_logsumexp(lse, S, 1, 2, 0));
    ck_assert_msg(lse[0] == 7.0f, "lab_online_logsumexp wrote lse although it returned LAB_BAD_ARG");
}
END_TEST

/* ---- lab_online_attention ----------------------------------------------------- */

START_TEST(test_attention_by_hand)
{
    /* B = 1, T = 2, d = 1 (so sqrt(d) = 1), dv = 1.
       Q = [1, 2], K = [1, 0], V = [10, 0].
       Query 0 scores [1*1, 1*0] = [1, 0]: w_0 = e/(e + 1) = 0.731059, O = 7.310586
       Query 1 scores [2, 0]:              w_0 = e^2/(e^2 + 1) = 0.880797, O = 8.807971
       Causal: query 0 sees only key 0, so w = [1] and O = 10; query 1 is unchanged.
       Looped over tile = 1, 2, 3 (a tile longer than T is one tile). */
    int tile = _i;
    const float Q[2] = { 1, 2 }, K[2] = { 1, 0 }, V[2] = { 10, 0 };
    float O[2];
    lc_poison(O, 2);
    EXPECT_OK("lab_online_attention", lab_online_attention(O, Q, K, V, 1, 2, 1, 1, tile, 0));
    const float want[2] = { 7.310586f, 8.807971f };
    EXPECT_CLOSE_REL("O (not causal)", want, O, 2, 1e-5f);
    lc_poison(O, 2);
    EXPECT_OK("lab_online_attention", lab_online_attention(O, Q, K, V, 1, 2, 1, 1, tile, 1));
    const float want_causal[2] = { 10.0f, 8.807971f };
    EXPECT_CLOSE_REL("O (causal)", want_causal, O, 2, 1e-5f);
}
END_TEST

START_TEST(test_attention_is_scaled)
{
    /* d = 4, so scores are divided by sqrt(4) = 2.
       Query 0 = (2, 0, 0, 0): dots with K = (2,0,0,0), (0,0,0,0) are [4, 0],
       scaled [2, 0]: w_0 = e^2/(e^2 + 1) = 0.880797, and V = [1, 0] gives O = 0.880797.
       (Unscaled it would be e^4/(e^4 + 1) = 0.982014.)
       Query 1 = 0: scores [0, 0], w = [0.5, 0.5], O = 0.5. */
    const float Q[8] = { 2, 0, 0, 0,  0, 0, 0, 0 };
    const float K[8] = { 2, 0, 0, 0,  0, 0, 0, 0 };
    const float V[2] = { 1, 0 };
    float O[2];
    lc_poison(O, 2);
    EXPECT_OK("lab_online_attention", lab_online_attention(O, Q, K, V, 1, 2, 4, 1, 1, 0));
    const float want[2] = { 0.880797f, 0.5f };
    EXPECT_CLOSE_REL("O", want, O, 2, 1e-5f);
}
END_TEST

START_TEST(test_attention_low_scores)
{
    /* B = 1, T = 2, d = 1, dv = 1; every score of query 0 is far below 0.
       Q = [-200, -0.5], K = [1, 1.5], V = [10, 0].
       Query 0 scores [-200, -300]: w_0 = 1/(1 + e^-100) = 1 in float, O = 10. A
       running max started at 0 instead of -inf (or no max at all) takes
       exp(-200) and exp(-300), both 0 in float, and divides 0 by 0.
       Query 1 scores [-0.5, -0.75]: w_0 = 1/(1 + e^-0.25) = 0.562177, O = 5.621765. */
    const float Q[2] = { -200, -0.5f }, K[2] = { 1, 1.5f }, V[2] = { 10, 0 };
    float O[2];
    lc_poison(O, 2);
    EXPECT_OK("lab_online_attention", lab_online_attention(O, Q, K, V, 1, 2, 1, 1, 1, 0));
    const float want[2] = { 10.0f, 5.621765f };
    EXPECT_CLOSE_REL("O (query 0: scores near -200, the running max must start at -inf)", want,
                     O, 2, 1e-5f);
}
END_TEST

/* Table for the random comparison: tile sizes (T = 37), each run with and
   without the causal mask. */
static const int random_tiles[5] = { 1, 5, 16, 37, 100 };

START_TEST(test_attention_matches_two_pass)
{
    /* Random Q, K, V (B = 2, T = 37, d = 8, dv = 5): the online result must equal
       the two-pass softmax(Q K^T / sqrt(d)) V, for every tile size (the last
       tile is shorter unless tile divides T). The two-pass answers for these
       inputs, worked out in double by the course, are in expected_lab07.h. */
    enum { B = 2, T = 37, d = 8, dv = 5 };
    int tile = random_tiles[_i / 2], causal = _i % 2;
    float Q[B * T * d], K[B * T * d], V[B * T * dv], O[B * T * dv];
    const float *want = causal ? lab07_two_pass_causal : lab07_two_pass;
    sup_rng r;
    sup_rng_seed(&r, 42);
    sup_rng_fill_normal(&r, Q, B * T * d);
    sup_rng_fill_normal(&r, K, B * T * d);
    sup_rng_fill_normal(&r, V, B * T * dv);
    lc_poison(O, B * T * dv);
    EXPECT_OK("lab_online_attention", lab_online_attention(O, Q, K, V, B, T, d, dv, tile, causal));
    long k = lc_first_mismatch(want, O, B * T * dv, 1e-4f, LC_REL);
    ck_assert_msg(k < 0, "tile %d, causal %d: O[b=%ld][i=%ld][c=%ld] expected %.6f, got %.6f",
                  tile, causal, k / (T * dv), k / dv % T, k % dv,
                  k < 0 ? 0.0 : (double)want[k], k < 0 ? 0.0 : (double)O[k]);
}
END_TEST

START_TEST(test_attention_memory)
{
    /* T = 1024, d = dv = 64, tile 64. A T x T float matrix is 4 MiB here (64 MiB
       at the graded T = 4096): storing all the scores breaks the 1 MiB rule.
       Online softmax needs one tile of scores and one accumulator row. The
       output is checked on every 61st row against the two-pass answer
       (expected_lab07.h). */
    enum { T = 1024, d = 64, dv = 64 };
    float *Q = malloc((size_t)T * d * sizeof(float));
    float *K = malloc((size_t)T * d * sizeof(float));
    float *V = malloc((size_t)T * dv * sizeof(float));
    float *O = malloc((size_t)T * dv * sizeof(float));
    sup_rng r;
    sup_rng_seed(&r, 4096);
    sup_rng_fill_normal(&r, Q, (long)T * d);
    sup_rng_fill_normal(&r, K, (long)T * d);
    sup_rng_fill_normal(&r, V, (long)T * dv);
    lc_poison(O, (long)T * dv);

    heap_count_start();
    int rc = lab_online_attention(O, Q, K, V, 1, T, d, dv, 64, 1);
    long peak = heap_count_stop();
    EXPECT_OK("lab_online_attention", rc);
    ck_assert_msg(peak <= 1024L * 1024,
                  "lab_online_attention held %.2f MiB of heap at its peak (T = %d); the limit "
                  "is 1 MiB. Stream the keys tile by tile instead of storing scores "
                  "(README.md, section 4).", (double)peak / (1024.0 * 1024.0), T);

    for (int i = 0; i < T; i += 61) {
        const float *want = lab07_memory_rows + (long)(i / 61) * dv;
        long k = lc_first_mismatch(want, O + (long)i * dv, dv, 1e-4f, LC_REL);
        ck_assert_msg(k < 0, "causal, T = %d, tile 64: O[%d][%ld] expected %.6f, got %.6f",
                      T, i, k, k < 0 ? 0.0 : (double)want[k],
                      k < 0 ? 0.0 : (double)O[(long)i * dv + k]);
    }
    free(Q); free(K); free(V); free(O);
}
END_TEST

START_TEST(test_attention_bad_args)
{
    const float Q[2] = { 1, 2 }, K[2] = { 1, 0 }, V[2] = { 10, 0 };
    float O[2];
    lc_poison(O, 2);
    EXPECT_STATUS("lab_online_attention (tile = 0)", LAB_BAD_ARG,
                  lab_online_attention(O, Q, K, V, 1, 2, 1, 1, 0, 0));
    EXPECT_STATUS("lab_online_attention (T = 0)", LAB_BAD_ARG,
                  lab_online_attention(O, Q, K, V, 1, 0, 1, 1, 4, 0));
    ck_assert_msg(O[0] == LC_POISON, "lab_online_attention wrote O although it returned LAB_BAD_ARG");
}
END_TEST

static Suite *lab07_suite(void)
{
    Suite *s = suite_create("lab07");
    TCase *lse = tcase_create("logsumexp");
    tcase_add_loop_test(lse, test_lse_worked_row, 1, 6);
    tcase_add_test(lse, test_lse_rescales_when_the_max_grows);
    tcase_add_test(lse, test_lse_large_and_masked);
    tcase_add_test(lse, test_lse_bad_args);
    suite_add_tcase(s, lse);
    TCase *att = tcase_create("attention");
    tcase_set_timeout(att, 20);  /* the memory test does 1024 x 1024 x 128 multiply-adds */
    tcase_add_loop_test(att, test_attention_by_hand, 1, 4);
    tcase_add_test(att, test_attention_is_scaled);
    tcase_add_test(att, test_attention_low_scores);
    tcase_add_loop_test(att, test_attention_matches_two_pass, 0, 10);
    tcase_add_test(att, test_attention_memory);
    tcase_add_test(att, test_attention_bad_args);
    suite_add_tcase(s, att);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(lab07_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
