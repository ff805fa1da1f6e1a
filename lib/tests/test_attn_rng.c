/* test_attn_rng.c: libattn's own generator draws exactly what the support
 * code's sup_rng draws, and attn_dropout's mask follows it.
 *
 * attn_rng is a copy of sup_rng kept inside libattn (so libattn needs only
 * libm); a seed must still give students, the grader and attn_dropout the same
 * numbers. Checked: SplitMix64's published first outputs for seed 0, equal
 * u64 and uniform sequences over many seeds, and a dropout mask rebuilt by
 * hand from sup_rng_uniform.
 */
#include <check.h>
#include <stdint.h>

#include "attn.h"
#include "labsup.h"
#include "expect.h"

Suite *test_suite(void);

START_TEST(splitmix64_known_values)
{
    /* SplitMix64 from state 0: the first outputs of Vigna's splitmix64.c. */
    attn_rng rng;
    attn_rng_seed(&rng, 0);
    ck_assert_uint_eq(attn_rng_u64(&rng), UINT64_C(0xE220A8397B1DCDAF));
    ck_assert_uint_eq(attn_rng_u64(&rng), UINT64_C(0x6E789E6AA1B965F4));
    ck_assert_uint_eq(attn_rng_u64(&rng), UINT64_C(0x06C45D188009454F));
}
END_TEST

START_TEST(same_sequence_as_sup_rng)
{
    static const uint64_t SEEDS[] = { 0, 1, 42, 20240611, UINT64_MAX, UINT64_C(0x9E3779B97F4A7C15) };
    for (int k = 0; k < 6; k++) {
        attn_rng a;
        sup_rng s;
        attn_rng_seed(&a, SEEDS[k]);
        sup_rng_seed(&s, SEEDS[k]);
        for (int n = 0; n < 10000; n++) {
            uint64_t x = attn_rng_u64(&a), y = sup_rng_u64(&s);
            expect(x == y, "seed %d, draw %d: attn_rng_u64 %016llx, sup_rng_u64 %016llx",
                   k, n, (unsigned long long)x, (unsigned long long)y);
            float u = attn_rng_uniform(&a), v = sup_rng_uniform(&s);
            expect(u == v && u >= 0.0f && u < 1.0f, "seed %d, draw %d: uniform %.9g vs %.9g",
                   k, n, (double)u, (double)v);
        }
    }
}
END_TEST

START_TEST(dropout_mask_follows_sup_rng)
{
    /* The mask attn_dropout draws for a seed is the one sup_rng_uniform gives:
       dropped where u < p, the rest divided by 1 - p. */
    enum { N = 1000 };
    float W[N], expect_w[N];
    const float p = 0.3f;
    sup_rng s;
    sup_rng_seed(&s, 77);
    for (int n = 0; n < N; n++) {
        W[n] = 0.5f + (float)n / N;
        float u = sup_rng_uniform(&s);
        expect_w[n] = u < p ? 0.0f : W[n] / (1.0f - p);
    }
    ck_assert_int_eq(attn_dropout(W, p, 77, N), 0);
    int dropped = 0;
    for (int n = 0; n < N; n++) {
        expect(W[n] == expect_w[n], "weight %d: %.9g, expected %.9g", n, (double)W[n],
               (double)expect_w[n]);
        dropped += W[n] == 0.0f;
    }
    /* about 300 of 1000; 4 standard deviations is 58 */
    ck_assert_msg(dropped > 242 && dropped < 358, "%d of %d dropped at p = 0.3", dropped, N);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("attn_rng");
    TCase *tc = tcase_create("same as sup_rng");
    tcase_add_test(tc, splitmix64_known_values);
    tcase_add_test(tc, same_sequence_as_sup_rng);
    tcase_add_test(tc, dropout_mask_follows_sup_rng);
    suite_add_tcase(s, tc);
    return s;
}
