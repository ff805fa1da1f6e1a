/* attn_rng.c: libattn's own generator, for dropout.
 *
 * The same generator as the support code's sup_rng (lib/sup_rng.c), draw for
 * draw, kept here so libattn needs nothing but libm: a seed gives attn_dropout
 * the same mask as a student's code drawing from sup_rng with that seed.
 *   u64      SplitMix64 (Steele, Lea & Flood 2014; the constants of Vigna's
 *            public-domain splitmix64.c)
 *   uniform  the top 24 bits of one u64, times 2^-24: a float in [0, 1) that
 *            is exact, so no rounding mode or library can change it
 * test_attn_rng.c checks both generators give the same sequences.
 */
#include "attn.h"

void attn_rng_seed(attn_rng *rng, uint64_t seed)
{
    rng->state = seed;
}

uint64_t attn_rng_u64(attn_rng *rng)
{
    /* Step the state by the golden-ratio increment, then scramble a copy:
       the xor-shift-multiply rounds spread every bit of z over the output. */
    uint64_t z = (rng->state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

float attn_rng_uniform(attn_rng *rng)
{
    /* 24 bits fit a float's significand exactly; 0x1p-24f is 2^-24. */
    return (float)(attn_rng_u64(rng) >> 40) * 0x1p-24f;
}
