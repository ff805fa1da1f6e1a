/* test_rng.c: the support generator draws exactly the documented sequence.
 *
 * The known answers below were computed once, outside attnlab, from the
 * definitions in labsup.h (SplitMix64 with the constants 0x9E3779B97F4A7C15,
 * 0xBF58476D1CE4E5B9, 0x94D049BB133111EB; uniform = (u64 >> 40) * 2^-24;
 * normal = sqrt(-2 ln(1 - u1)) cos(2 pi u2) in double, rounded to float).
 * Any change to the generator changes them, and every experiment, drill and
 * per-student input with it, so these tests are exact on purpose.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "labsup.h"
#include "expect.h"

Suite *test_suite(void);

/* First four outputs of SplitMix64 for seed 0 and seed 42. */
static const uint64_t SEED0_U64[4] = {
    UINT64_C(0xe220a8397b1dcdaf), UINT64_C(0x6e789e6aa1b965f4),
    UINT64_C(0x06c45d188009454f), UINT64_C(0xf88bb8a8724c81ec),
};
static const uint64_t SEED42_U64[4] = {
    UINT64_C(0xbdd732262feb6e95), UINT64_C(0x28efe333b266f103),
    UINT64_C(0x47526757130f9f52), UINT64_C(0x581ce1ff0e4ae394),
};

START_TEST(u64_known_answers)
{
    sup_rng rng;
    sup_rng_seed(&rng, 0);
    for (int k = 0; k < 4; k++) {
        uint64_t got = sup_rng_u64(&rng);
        expect(got == SEED0_U64[k], "seed 0, draw %d: got 0x%016llx, expected 0x%016llx",
                      k, (unsigned long long)got, (unsigned long long)SEED0_U64[k]);
    }
    sup_rng_seed(&rng, 42);
    for (int k = 0; k < 4; k++) {
        uint64_t got = sup_rng_u64(&rng);
        expect(got == SEED42_U64[k], "seed 42, draw %d: got 0x%016llx, expected 0x%016llx",
                      k, (unsigned long long)got, (unsigned long long)SEED42_U64[k]);
    }
}
END_TEST

START_TEST(seed_restarts_the_sequence)
{
    /* The state is the seed: reseeding replays the stream from the start. */
    sup_rng rng;
    sup_rng_seed(&rng, 42);
    ck_assert(rng.state == 42);
    for (int k = 0; k < 10; k++) sup_rng_u64(&rng);
    sup_rng_seed(&rng, 42);
    ck_assert(sup_rng_u64(&rng) == SEED42_U64[0]);
}
END_TEST

START_TEST(uniform_known_answers)
{
    /* Seed 42: the top 24 bits of each u64 above, times 2^-24:
       0xbdd732 = 12441394 -> 12441394 / 16777216 = 0.741564869880676...
       0x28efe3 =  2682851 -> 0.159910380840301...
       0x475267 =  4674151 -> 0.278601109981536...
       0x581ce1 =  5774561 -> 0.344190657138824...
       Each is exact in float, so the comparison is exact. */
    static const long top24[4] = {12441394, 2682851, 4674151, 5774561};
    sup_rng rng;
    sup_rng_seed(&rng, 42);
    for (int k = 0; k < 4; k++) {
        float got = sup_rng_uniform(&rng);
        float want = ldexpf((float)top24[k], -24);
        expect(got == want, "uniform %d: got %.9g, expected %.9g", k, (double)got,
                      (double)want);
    }
}
END_TEST

START_TEST(normal_known_answers)
{
    /* Seed 7, four normals (eight draws), as hex floats so the test is exact.
       The first: u1 = 0.389829695..., u2 = 0.016788244...;
       sqrt(-2 ln(0.610170305)) = 0.993999, cos(2 pi 0.016788244) = 0.994442,
       product 0.98847427820945 in double, which rounds to
       0x1.fa194cp-1 = 0.988474249839783. */
    static const float want[4] = {0x1.fa194cp-1f, -0x1.dd3fe0p+0f, 0x1.00edcap-8f,
                                  -0x1.0efc8cp-1f};
    sup_rng rng;
    sup_rng_seed(&rng, 7);
    for (int k = 0; k < 4; k++) {
        float got = sup_rng_normal(&rng);
        expect(got == want[k], "normal %d: got %a (%.9g), expected %a (%.9g)", k,
                      (double)got, (double)got, (double)want[k], (double)want[k]);
    }
}
END_TEST

START_TEST(normal_uses_two_draws)
{
    /* A normal consumes exactly two u64 draws: the next u64 is the third. */
    sup_rng rng;
    sup_rng_seed(&rng, 0);
    sup_rng_normal(&rng);
    ck_assert(sup_rng_u64(&rng) == SEED0_U64[2]);
}
END_TEST

START_TEST(normal_formula)
{
    /* The normal is the documented formula applied to the two uniforms. */
    sup_rng a, b;
    sup_rng_seed(&a, 123);
    sup_rng_seed(&b, 123);
    for (int k = 0; k < 1000; k++) {
        double u1 = (double)sup_rng_uniform(&a);
        double u2 = (double)sup_rng_uniform(&a);
        float want = (float)(sqrt(-2.0 * log(1.0 - u1)) * cos(6.283185307179586 * u2));
        float got = sup_rng_normal(&b);
        expect(got == want, "normal %d: got %.9g, expected %.9g", k, (double)got,
                      (double)want);
    }
}
END_TEST

START_TEST(fill_normal_in_index_order)
{
    enum { N = 257 };
    float x[N];
    sup_rng a, b;
    sup_rng_seed(&a, 99);
    sup_rng_seed(&b, 99);
    sup_rng_fill_normal(&a, x, N);
    for (int k = 0; k < N; k++) {
        float want = sup_rng_normal(&b);
        expect(x[k] == want, "x[%d] = %.9g, expected the %d-th normal %.9g", k,
                      (double)x[k], k, (double)want);
    }
    /* and the generator has advanced by exactly 2N draws */
    ck_assert(sup_rng_u64(&a) == sup_rng_u64(&b));
}
END_TEST

START_TEST(fill_uniform_in_index_order)
{
    enum { N = 257 };
    float x[N];
    sup_rng a, b;
    sup_rng_seed(&a, 5);
    sup_rng_seed(&b, 5);
    sup_rng_fill_uniform(&a, x, N, -2.0f, 3.0f);
    for (int k = 0; k < N; k++) {
        /* lo + (hi - lo) u = -2 + 5u */
        float want = (float)(-2.0 + 5.0 * (double)sup_rng_uniform(&b));
        expect(x[k] == want, "x[%d] = %.9g, expected %.9g", k, (double)x[k],
                      (double)want);
        expect(x[k] >= -2.0f && x[k] < 3.0f, "x[%d] = %.9g is outside [-2, 3)", k, (double)x[k]);
    }
}
END_TEST

START_TEST(fill_uniform_never_reaches_hi)
{
    /* Between 2^24 and 2^24 + 2 there is no other float: lo + 2u rounds to hi
       for u > 1/2, and the documented range [lo, hi) forces every value to lo. */
    enum { N = 1000 };
    float x[N];
    float lo = 16777216.0f, hi = 16777218.0f;
    sup_rng rng;
    sup_rng_seed(&rng, 1);
    sup_rng_fill_uniform(&rng, x, N, lo, hi);
    for (int k = 0; k < N; k++)
        expect(x[k] == lo, "x[%d] = %.9g, expected %.9g (the only float in [lo, hi))", k,
                      (double)x[k], (double)lo);
}
END_TEST

START_TEST(uniform_range_and_mean)
{
    /* 1e6 uniforms: all in [0, 1); mean 1/2 and variance 1/12 within about
       5 standard errors (sd of the mean = sqrt(1/12 / 1e6) = 2.9e-4). */
    const long N = 1000000;
    sup_rng rng;
    sup_rng_seed(&rng, 2024);
    double sum = 0.0, sum2 = 0.0;
    for (long k = 0; k < N; k++) {
        float u = sup_rng_uniform(&rng);
        expect(u >= 0.0f && u < 1.0f, "uniform %ld = %.9g is outside [0, 1)", k, (double)u);
        sum += (double)u;
        sum2 += (double)u * (double)u;
    }
    double mean = sum / (double)N, var = sum2 / (double)N - mean * mean;
    expect(fabs(mean - 0.5) < 1.5e-3, "mean of 1e6 uniforms = %.6f", mean);
    expect(fabs(var - 1.0 / 12.0) < 1e-3, "variance of 1e6 uniforms = %.6f", var);
}
END_TEST

START_TEST(normal_mean_and_variance)
{
    /* 1e6 normals: mean 0 (standard error 1e-3) and variance 1 (standard
       error sqrt(2/1e6) = 1.4e-3); bounds at about 5 standard errors. */
    const long N = 1000000;
    float *x = malloc((size_t)N * sizeof *x);
    ck_assert_ptr_nonnull(x);
    sup_rng rng;
    sup_rng_seed(&rng, 2024);
    sup_rng_fill_normal(&rng, x, N);
    double sum = 0.0, sum2 = 0.0;
    for (long k = 0; k < N; k++) {
        expect(isfinite(x[k]), "normal %ld is %g", k, (double)x[k]);
        sum += (double)x[k];
        sum2 += (double)x[k] * (double)x[k];
    }
    free(x);
    double mean = sum / (double)N, var = sum2 / (double)N - mean * mean;
    printf("rng: 1e6 normals, mean %.5f, variance %.5f\n", mean, var);
    expect(fabs(mean) < 5e-3, "mean of 1e6 normals = %.6f, expected about 0", mean);
    expect(fabs(var - 1.0) < 7e-3, "variance of 1e6 normals = %.6f, expected about 1",
                  var);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("sup_rng");
    TCase *tc = tcase_create("known answers");
    tcase_add_test(tc, u64_known_answers);
    tcase_add_test(tc, seed_restarts_the_sequence);
    tcase_add_test(tc, uniform_known_answers);
    tcase_add_test(tc, normal_known_answers);
    tcase_add_test(tc, normal_uses_two_draws);
    tcase_add_test(tc, normal_formula);
    tcase_add_test(tc, fill_normal_in_index_order);
    tcase_add_test(tc, fill_uniform_in_index_order);
    tcase_add_test(tc, fill_uniform_never_reaches_hi);
    suite_add_tcase(s, tc);

    TCase *stats = tcase_create("statistics");
    tcase_add_test(stats, uniform_range_and_mean);
    tcase_add_test(stats, normal_mean_and_variance);
    suite_add_tcase(s, stats);
    return s;
}
