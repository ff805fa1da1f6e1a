/* test_online.c: streaming attention (online softmax) and the fused fast path
 * give the same outputs as the full-matrix reference attn_forward.
 *
 * Tolerance: max |O - O_ref| <= 1e-5 on outputs of order 1 (V is standard
 * normal). The streaming reference works in double and differs from
 * attn_forward only by summation order; the fused path computes scores and
 * sums in float, which costs a few float ulps of score and weight.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
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

/* Largest |a - b| over n entries; NaN in either counts as infinitely far. */
static double max_abs_diff(const float *a, const float *b, long n)
{
    double m = 0.0;
    for (long k = 0; k < n; k++) {
        double diff = fabs((double)a[k] - (double)b[k]);
        if (!(diff <= m)) m = isnan(diff) ? HUGE_VAL : diff;
    }
    return m;
}

/* One comparison: shapes, key tile of the streaming version, masks. */
typedef struct online_case {
    int B, Tq, Tk, d, dv, tile, causal, padded;
} online_case;

static const online_case CASES[] = {
    /*  B    Tq    Tk   d  dv  tile causal padded */
    {1, 1, 1, 1, 1, 1, 0, 0},
    {2, 5, 7, 3, 2, 3, 1, 0},
    {2, 33, 65, 16, 8, 7, 0, 1},
    {3, 100, 100, 8, 5, 7, 1, 1},
    {1, 50, 20, 8, 4, 6, 1, 0},          /* more queries than keys, causal */
    {1, 20, 150, 8, 4, 16, 1, 1},        /* more keys than queries */
    {2, 64, 64, 16, 16, 64, 0, 0},       /* one tile is the whole row */
    {2, 70, 130, 16, 17, 1000, 0, 1},    /* tile longer than the row; dv not a multiple of 16 */
    {1, 300, 300, 128, 40, 1, 1, 0},     /* tile of one key */
    {1, 1000, 1000, 64, 64, 7, 0, 0},    /* tile 7 does not divide 1000 */
    {1, 1000, 1000, 64, 64, 7, 1, 1},
    {4, 257, 257, 32, 32, 10, 1, 1},
};

/* Padding lengths for a case: from Tk down, never below 1. */
static void make_lengths(int *lengths, int B, int Tk)
{
    for (int b = 0; b < B; b++) {
        int len = Tk - (b + 1) * Tk / (B + 2);
        lengths[b] = len < 1 ? 1 : len;
    }
}

/* Runs attn_forward, the streaming reference and the fused path on one case
   and checks outputs within 1e-5 and equal fully masked counts. */
static void compare_case(const online_case *c, uint64_t seed, int verbose)
{
    long nq = (long)c->B * c->Tq, nk = (long)c->B * c->Tk;
    float *Q = normals(nq * c->d, seed), *K = normals(nk * c->d, seed + 1);
    float *V = normals(nk * c->dv, seed + 2);
    float *O_ref = malloc((size_t)(nq * c->dv) * sizeof(float));
    float *O_on = malloc((size_t)(nq * c->dv) * sizeof(float));
    float *O_fu = malloc((size_t)(nq * c->dv) * sizeof(float));
    int *lengths = malloc((size_t)c->B * sizeof(int));
    ck_assert(O_ref && O_on && O_fu && lengths);
    make_lengths(lengths, c->B, c->Tk);

    attn_config cfg = {0};
    cfg.scaled = 1;
    cfg.causal = c->causal;
    cfg.lengths = c->padded ? lengths : NULL;
    long n_ref = attn_forward(O_ref, NULL, Q, K, V, c->B, c->Tq, c->Tk, c->d, c->dv, &cfg);
    long n_on = attn_online_attention(O_on, Q, K, V, c->B, c->Tq, c->Tk, c->d, c->dv, c->tile,
                                      c->causal, cfg.lengths);
    long n_fu = attn_fused_attention(O_fu, Q, K, V, c->B, c->Tq, c->Tk, c->d, c->dv, c->causal,
                                     cfg.lengths);
    double d_on = max_abs_diff(O_on, O_ref, nq * c->dv);
    double d_fu = max_abs_diff(O_fu, O_ref, nq * c->dv);
    if (verbose)
        printf("online attention, B %d Tq %d Tk %d d %d tile %d%s%s: max |online - full| %.3g, "
               "max |fused - full| %.3g\n", c->B, c->Tq, c->Tk, c->d, c->tile,
               c->causal ? ", causal" : "", c->padded ? ", padded" : "", d_on, d_fu);
    expect(n_ref >= 0 && n_on == n_ref && n_fu == n_ref,
           "fully masked rows: forward %ld, online %ld, fused %ld", n_ref, n_on, n_fu);
    expect(d_on <= 1e-5, "B %d Tq %d Tk %d d %d tile %d causal %d padded %d: max |online - full| = %.3g > 1e-5",
           c->B, c->Tq, c->Tk, c->d, c->tile, c->causal, c->padded, d_on);
    expect(d_fu <= 1e-5, "B %d Tq %d Tk %d d %d causal %d padded %d: max |fused - full| = %.3g > 1e-5",
           c->B, c->Tq, c->Tk, c->d, c->causal, c->padded, d_fu);
    free(Q);
    free(K);
    free(V);
    free(O_ref);
    free(O_on);
    free(O_fu);
    free(lengths);
}

START_TEST(online_and_fused_match_forward)
{
    const online_case *c = &CASES[_i];
    compare_case(c, 100 + (uint64_t)_i, (long)c->Tq * c->Tk >= 1000000);
}
END_TEST

/* T = 4096, d = 64: the largest size, unmasked and causal + padded. */
static const online_case LARGE[] = {
    {1, 4096, 4096, 64, 64, 100, 0, 0},
    {1, 4096, 4096, 64, 64, 100, 1, 1},
};

START_TEST(online_and_fused_match_forward_4096)
{
    compare_case(&LARGE[_i], 500 + (uint64_t)_i, 1);
}
END_TEST

START_TEST(tile_size_does_not_matter)
{
    /* The same result, up to summation order, for every tile size. */
    enum { B = 2, T = 97, d = 16, dv = 8 };
    static const int TILES[] = {1, 2, 3, 5, 64, 97, 500};
    float *Q = normals(B * T * d, 1), *K = normals(B * T * d, 2), *V = normals(B * T * dv, 3);
    float O1[B * T * dv], O[B * T * dv];
    attn_online_attention(O1, Q, K, V, B, T, T, d, dv, 1, 1, NULL);
    for (int k = 1; k < 7; k++) {
        attn_online_attention(O, Q, K, V, B, T, T, d, dv, TILES[k], 1, NULL);
        double diff = max_abs_diff(O, O1, B * T * dv);
        expect(diff <= 1e-6, "tile %d vs tile 1: max difference %.3g", TILES[k], diff);
    }
    free(Q);
    free(K);
    free(V);
}
END_TEST

START_TEST(fully_masked_rows_zero_and_counted)
{
    /* Batch entry 0 has no keys (length 0): its 4 rows give zero output, are
       counted, and are never NaN; entry 1 is normal. Both paths agree with
       attn_forward. */
    enum { B = 2, Tq = 4, Tk = 5, d = 3, dv = 2 };
    const int lengths[B] = {0, 3};
    float *Q = normals(B * Tq * d, 1), *K = normals(B * Tk * d, 2), *V = normals(B * Tk * dv, 3);
    float O_on[B * Tq * dv], O_fu[B * Tq * dv], O_ref[B * Tq * dv];
    attn_config cfg = {0};
    cfg.scaled = 1;
    cfg.lengths = lengths;
    for (int causal = 0; causal <= 1; causal++) {
        cfg.causal = causal;
        ck_assert_int_eq(attn_forward(O_ref, NULL, Q, K, V, B, Tq, Tk, d, dv, &cfg), Tq);
        ck_assert_int_eq(attn_online_attention(O_on, Q, K, V, B, Tq, Tk, d, dv, 2, causal, lengths), Tq);
        ck_assert_int_eq(attn_fused_attention(O_fu, Q, K, V, B, Tq, Tk, d, dv, causal, lengths), Tq);
        for (int n = 0; n < Tq * dv; n++)
            expect(O_on[n] == 0.0f && O_fu[n] == 0.0f, "masked row output %d: online %g, fused %g, expected 0",
                   n, (double)O_on[n], (double)O_fu[n]);
        expect(max_abs_diff(O_on, O_ref, B * Tq * dv) <= 1e-6, "online differs from forward");
        expect(max_abs_diff(O_fu, O_ref, B * Tq * dv) <= 1e-6, "fused differs from forward");
    }
    free(Q);
    free(K);
    free(V);
}
END_TEST

START_TEST(first_query_copies_first_value_when_causal)
{
    /* Causal, query 0 sees key 0 only: its weight is 1 and the output is V[0]
       exactly, whatever the scores. */
    enum { T = 10, d = 4, dv = 3 };
    float *Q = normals(T * d, 4), *K = normals(T * d, 5), *V = normals(T * dv, 6);
    float O_on[T * dv], O_fu[T * dv];
    attn_online_attention(O_on, Q, K, V, 1, T, T, d, dv, 3, 1, NULL);
    attn_fused_attention(O_fu, Q, K, V, 1, T, T, d, dv, 1, NULL);
    for (int c = 0; c < dv; c++)
        expect(O_on[c] == V[c] && O_fu[c] == V[c], "O[0][%d]: online %.9g, fused %.9g, V[0][%d] = %.9g",
               c, (double)O_on[c], (double)O_fu[c], c, (double)V[c]);
    free(Q);
    free(K);
    free(V);
}
END_TEST

START_TEST(bad_tile_rejected)
{
    /* tile must be >= 1: -1 and O untouched. */
    float Q[2] = {1, 2}, K[2] = {1, 2}, V[2] = {3, 4}, O[2] = {42, 42};
    ck_assert_int_eq(attn_online_attention(O, Q, K, V, 1, 1, 1, 2, 2, 0, 0, NULL), -1);
    ck_assert_int_eq(attn_online_attention(O, Q, K, V, 1, 1, 1, 2, 2, -3, 0, NULL), -1);
    ck_assert(O[0] == 42.0f && O[1] == 42.0f);
}
END_TEST

START_TEST(nan_stays_in_its_row)
{
    /* A NaN in query 2 makes output row 2 NaN in both paths; others are finite. */
    enum { T = 12, d = 4, dv = 3 };
    float *Q = normals(T * d, 7), *K = normals(T * d, 8), *V = normals(T * dv, 9);
    Q[2 * d + 1] = NAN;
    float O_on[T * dv], O_fu[T * dv];
    attn_online_attention(O_on, Q, K, V, 1, T, T, d, dv, 5, 0, NULL);
    attn_fused_attention(O_fu, Q, K, V, 1, T, T, d, dv, 0, NULL);
    for (int i = 0; i < T; i++)
        for (int c = 0; c < dv; c++) {
            float on = O_on[i * dv + c], fu = O_fu[i * dv + c];
            if (i == 2) expect(isnan(on) && isnan(fu), "row 2: online %g, fused %g, expected NaN", (double)on, (double)fu);
            else expect(isfinite(on) && isfinite(fu), "row %d: online %g, fused %g, expected finite", i, (double)on, (double)fu);
        }
    free(Q);
    free(K);
    free(V);
}
END_TEST

START_TEST(large_scores_stay_finite)
{
    /* Queries scaled by 30: scores of size up to about 1000, where exp would
       overflow float without the running max. Both paths stay finite and match
       forward. The fused path rounds scores to float as it sums them, an
       absolute error of up to about |s| * 6e-8 = 6e-5 here, and a weight moves
       by that much relatively, so its bound at this scale is 2e-4 (1e-5 holds
       at the unit scale tested above). */
    enum { T = 200, d = 64, dv = 8 };
    float *Q = normals(T * d, 10), *K = normals(T * d, 11), *V = normals(T * dv, 12);
    for (int n = 0; n < T * d; n++) Q[n] *= 30.0f;
    float *O_ref = malloc(T * dv * sizeof(float)), *O_on = malloc(T * dv * sizeof(float));
    float *O_fu = malloc(T * dv * sizeof(float));
    ck_assert(O_ref && O_on && O_fu);
    attn_config cfg = {0};
    cfg.scaled = 1;
    cfg.causal = 1;
    attn_forward(O_ref, NULL, Q, K, V, 1, T, T, d, dv, &cfg);
    attn_online_attention(O_on, Q, K, V, 1, T, T, d, dv, 16, 1, NULL);
    attn_fused_attention(O_fu, Q, K, V, 1, T, T, d, dv, 1, NULL);
    double d_on = max_abs_diff(O_on, O_ref, T * dv), d_fu = max_abs_diff(O_fu, O_ref, T * dv);
    printf("online attention, scores x30: max |online - full| %.3g, max |fused - full| %.3g\n", d_on, d_fu);
    expect(d_on <= 1e-5, "max |online - full| = %.3g", d_on);
    expect(d_fu <= 2e-4, "max |fused - full| = %.3g", d_fu);
    free(Q);
    free(K);
    free(V);
    free(O_ref);
    free(O_on);
    free(O_fu);
}
END_TEST

/* attn_fused_forward with temperature and ALiBi (and causal, padding, several
   heads) against attn_forward with the same config. */
START_TEST(fused_forward_temperature_alibi)
{
    enum { B = 6, H = 3, Tq = 70, Tk = 90, d = 16, dv = 12 };
    float *Q = normals(B * Tq * d, 31), *K = normals(B * Tk * d, 32), *V = normals(B * Tk * dv, 33);
    float *O_ref = malloc(B * Tq * dv * sizeof(float)), *O_fu = malloc(B * Tq * dv * sizeof(float));
    ck_assert(O_ref && O_fu);
    int lengths[B];
    make_lengths(lengths, B, Tk);
    static const struct { int scaled; float tau; int causal, padded, heads; } C[] = {
        {1, 0.5f, 0, 0, 0}, {1, 2.0f, 1, 1, 0}, {1, 0.0f, 1, 0, H}, {0, 3.0f, 1, 1, H},
        {1, 0.7f, 0, 1, 1}, {1, 1.5f, 1, 1, 6},
    };
    for (int k = 0; k < 6; k++) {
        attn_config cfg = {0};
        cfg.scaled = C[k].scaled;
        cfg.temperature = C[k].tau;
        cfg.causal = C[k].causal;
        cfg.lengths = C[k].padded ? lengths : NULL;
        cfg.alibi_heads = C[k].heads;
        long n_ref = attn_forward(O_ref, NULL, Q, K, V, B, Tq, Tk, d, dv, &cfg);
        long n_fu = attn_fused_forward(O_fu, Q, K, V, B, Tq, Tk, d, dv, &cfg);
        double diff = max_abs_diff(O_fu, O_ref, B * Tq * dv);
        printf("fused forward, tau %g, alibi heads %d, causal %d, padded %d: max |fused - full| %.3g\n",
               (double)C[k].tau, C[k].heads, C[k].causal, C[k].padded, diff);
        expect(n_ref >= 0 && n_fu == n_ref, "case %d: fully masked rows %ld vs %ld", k, n_fu, n_ref);
        expect(diff <= 1e-5, "case %d: max |fused - full| = %.3g > 1e-5", k, diff);
    }
    /* What it does not support, and what attn_forward rejects: -1, O untouched. */
    unsigned char mask[1] = {0};
    attn_config bad[5] = {{0}};
    bad[0].mask = mask;
    bad[1].dropout_p = 0.1f;
    bad[2].temperature = -1.0f;
    bad[3].alibi_heads = 4;            /* does not divide B = 6 */
    bad[4].temperature = NAN;
    O_fu[0] = 42.0f;
    for (int k = 0; k < 5; k++)
        ck_assert_int_eq(attn_fused_forward(O_fu, Q, K, V, B, Tq, Tk, d, dv, &bad[k]), -1);
    ck_assert(O_fu[0] == 42.0f);
    free(Q);
    free(K);
    free(V);
    free(O_ref);
    free(O_fu);
}
END_TEST

/* Every kernel this CPU can run, against the reference, on the cases above
   and the NaN and fully masked properties: the instruction sets differ only in
   vector width, so each must give the reference's answer by itself. A kernel
   the CPU lacks is refused by attn_fused_set_isa, and that refusal is checked. */
static const attn_isa ISAS[] = { ATTN_ISA_PORTABLE, ATTN_ISA_AVX2, ATTN_ISA_AVX512 };

/* The kernel the CPU would pick, from its own feature flags. */
static attn_isa expected_best(void)
{
#if defined(__x86_64__)
    if (__builtin_cpu_supports("avx512f")) return ATTN_ISA_AVX512;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return ATTN_ISA_AVX2;
#endif
    return ATTN_ISA_PORTABLE;
}

START_TEST(each_isa_matches_forward)
{
    attn_isa isa = ISAS[_i];
    int runs = isa == ATTN_ISA_PORTABLE || expected_best() >= isa;
    ck_assert_int_eq(attn_fused_set_isa(isa), runs ? 0 : -1);
    if (!runs) {
        printf("fused kernel %s: this CPU cannot run it (refused)\n", attn_isa_name(isa));
        ck_assert_int_eq(attn_fused_set_isa(ATTN_ISA_AUTO), 0);
        return;
    }
    ck_assert_str_eq(attn_fused_isa(), attn_isa_name(isa));
    for (int k = 0; k < (int)(sizeof CASES / sizeof CASES[0]); k++)
        compare_case(&CASES[k], 900 + (uint64_t)k, 0);
    compare_case(&LARGE[1], 990, 1);

    /* NaN in one query row: that row only, NaN */
    enum { T = 50, d = 16, dv = 7 };
    float *Q = normals(T * d, 7), *K = normals(T * d, 8), *V = normals(T * dv, 9);
    float O[T * dv];
    Q[20 * d + 3] = NAN;
    /* and in row 0, whose only visible score (causal) is then NaN: the max
       skips NaN, so this row takes the kernel's separate look */
    Q[0] = NAN;
    ck_assert_int_eq(attn_fused_attention(O, Q, K, V, 1, T, T, d, dv, 1, NULL), 0);
    for (int i = 0; i < T; i++)
        for (int c = 0; c < dv; c++)
            expect(i == 20 || i == 0 ? isnan(O[i * dv + c]) : isfinite(O[i * dv + c]),
                   "%s: row %d channel %d = %g", attn_isa_name(isa), i, c, (double)O[i * dv + c]);
    /* a NaN key reaches every row that sees it (causal: rows 30 on), no other */
    Q[0] = 0.5f;
    Q[20 * d + 3] = 0.5f;
    K[30 * d + 5] = NAN;
    ck_assert_int_eq(attn_fused_attention(O, Q, K, V, 1, T, T, d, dv, 1, NULL), 0);
    for (int i = 0; i < T; i++)
        for (int c = 0; c < dv; c++)
            expect(i >= 30 ? isnan(O[i * dv + c]) : isfinite(O[i * dv + c]),
                   "%s: NaN key: row %d channel %d = %g", attn_isa_name(isa), i, c,
                   (double)O[i * dv + c]);
    free(Q);
    free(K);
    free(V);
    ck_assert_int_eq(attn_fused_set_isa(ATTN_ISA_AUTO), 0);
    ck_assert_str_eq(attn_fused_isa(), attn_isa_name(expected_best()));
}
END_TEST

/* Threads split (entry, query block) items, and each item is computed the
   same way whichever thread takes it: the output is bit for bit the one
   thread's, with causal masking, key padding (a fully masked entry among
   them) and ALiBi, for thread counts below, at and above the item count. */
START_TEST(threads_give_the_same_bits)
{
    enum { B = 6, Tq = 150, Tk = 170, d = 24, dv = 10 };
    float *Q = normals((long)B * Tq * d, 31), *K = normals((long)B * Tk * d, 32);
    float *V = normals((long)B * Tk * dv, 33);
    static float O1[B * Tq * dv], On[B * Tq * dv], F1[B * Tq * dv], Fn[B * Tq * dv];
    const int lengths[B] = { 170, 0, 1, 64, 65, 100 };
    attn_config cfg = { .scaled = 1, .causal = 1, .alibi_heads = 3 };
    ck_assert_int_eq(attn_fused_threads(), 1);
    long m1 = attn_fused_attention(O1, Q, K, V, B, Tq, Tk, d, dv, 1, lengths);
    ck_assert_int_eq(m1, Tq);                      /* entry 1 sees no key at all */
    ck_assert_int_ge(attn_fused_forward(F1, Q, K, V, B, Tq, Tk, d, dv, &cfg), 0);
    const int counts[] = { 2, 3, 7, 64 };          /* 6 entries x 4 blocks = 24 items */
    for (int k = 0; k < 4; k++) {
        ck_assert_int_eq(attn_fused_set_threads(counts[k]), 0);
        ck_assert_int_eq(attn_fused_threads(), counts[k]);
        ck_assert_int_eq(attn_fused_attention(On, Q, K, V, B, Tq, Tk, d, dv, 1, lengths), m1);
        ck_assert_int_ge(attn_fused_forward(Fn, Q, K, V, B, Tq, Tk, d, dv, &cfg), 0);
        expect(memcmp(O1, On, sizeof O1) == 0, "%d threads: outputs differ", counts[k]);
        expect(memcmp(F1, Fn, sizeof F1) == 0, "%d threads: ALiBi outputs differ", counts[k]);
    }
    ck_assert_int_eq(attn_fused_set_threads(0), -1);
    ck_assert_int_eq(attn_fused_set_threads(ATTN_MAX_THREADS + 1), -1);
    ck_assert_int_eq(attn_fused_threads(), 64);    /* refused calls change nothing */
    ck_assert_int_eq(attn_fused_set_threads(1), 0);
    free(Q);
    free(K);
    free(V);
}
END_TEST

/* Peak memory, Linux: the high-water mark of resident memory (VmHWM), reset
   to the current resident size by writing 5 to /proc/self/clear_refs, in KiB;
   -1 where either cannot be used. */
static long hwm_kib(int reset)
{
    if (reset) {
        FILE *f = fopen("/proc/self/clear_refs", "w");
        if (!f) return -1;
        int ok = fputs("5", f) >= 0;
        if (fclose(f) != 0 || !ok) return -1;
    }
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kib = -1;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "VmHWM: %ld kB", &kib) == 1) break;
    if (f) fclose(f);
    return kib;
}

/* T = 16384, d = 64: Q, K, V and O are 16 MiB, and the fused path adds its
   packed keys (d * T floats, 4 MiB) and a few KiB a block, nothing of T x T
   (1 GiB): the whole stays under 64 MiB. */
START_TEST(fused_memory_at_16384)
{
    enum { T = 16384, d = 64 };
    float *Q = normals((long)T * d, 41), *K = normals((long)T * d, 42), *V = normals((long)T * d, 43);
    float *O = calloc((size_t)T * d, sizeof *O);
    ck_assert_ptr_nonnull(O);
    memset(O, 1, (size_t)T * d * sizeof *O);       /* resident before the mark is reset */
    long before = hwm_kib(1);
    if (before < 0) {
        printf("fused memory: /proc/self/clear_refs or VmHWM unavailable, not measured\n");
    } else {
        ck_assert_int_eq(attn_fused_attention(O, Q, K, V, 1, T, T, d, d, 1, NULL), 0);
        long rise = hwm_kib(0) - before;
        printf("fused memory at T 16384, d 64: inputs and output 16384 KiB, the call %ld KiB more\n",
               rise);
        expect(rise <= 8 * 1024, "the fused path took %ld KiB at its peak; expected about 4096",
               rise);
        expect(16384 + rise < 64 * 1024, "%ld KiB in all", 16384 + rise);
        expect(isfinite(O[0]) && isfinite(O[(long)T * d - 1]), "outputs not finite");
    }
    free(Q);
    free(K);
    free(V);
    free(O);
}
END_TEST

START_TEST(isa_names)
{
    ck_assert_str_eq(attn_isa_name(ATTN_ISA_AUTO), "auto");
    ck_assert_str_eq(attn_isa_name(ATTN_ISA_PORTABLE), "portable");
    ck_assert_str_eq(attn_isa_name(ATTN_ISA_AVX2), "avx2");
    ck_assert_str_eq(attn_isa_name(ATTN_ISA_AVX512), "avx512");
    ck_assert_int_eq(attn_fused_set_isa((attn_isa)42), -1);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("attn_online");
    TCase *match = tcase_create("matches forward");
    tcase_set_timeout(match, 120);
    tcase_add_loop_test(match, online_and_fused_match_forward, 0,
                        (int)(sizeof CASES / sizeof CASES[0]));
    tcase_add_loop_test(match, online_and_fused_match_forward_4096, 0,
                        (int)(sizeof LARGE / sizeof LARGE[0]));
    suite_add_tcase(s, match);

    TCase *props = tcase_create("properties");
    tcase_add_test(props, tile_size_does_not_matter);
    tcase_add_test(props, fully_masked_rows_zero_and_counted);
    tcase_add_test(props, first_query_copies_first_value_when_causal);
    tcase_add_test(props, bad_tile_rejected);
    tcase_add_test(props, nan_stays_in_its_row);
    tcase_add_test(props, large_scores_stay_finite);
    tcase_add_test(props, fused_forward_temperature_alibi);
    suite_add_tcase(s, props);

    TCase *isa = tcase_create("each kernel");
    tcase_set_timeout(isa, 120);
    tcase_add_loop_test(isa, each_isa_matches_forward, 0, (int)(sizeof ISAS / sizeof ISAS[0]));
    tcase_add_test(isa, isa_names);
    tcase_add_test(isa, threads_give_the_same_bits);
    tcase_add_test(isa, fused_memory_at_16384);
    suite_add_tcase(s, isa);
    return s;
}
