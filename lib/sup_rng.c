/* sup_rng.c: the deterministic generator students and the grader share.
 *
 * Every draw is defined bit for bit, so a seed gives the same numbers on every
 * machine and compiler: experiments are reproducible and graders can
 * regenerate a student's inputs from the seed alone.
 *   u64      SplitMix64 (Steele, Lea & Flood 2014; the constants of Vigna's
 *            public-domain splitmix64.c)
 *   uniform  the top 24 bits of one u64, times 2^-24: a float in [0, 1) that is
 *            exact, so no rounding mode or library can change it
 *   normal   Box-Muller from two uniforms, cosine branch only (the sine branch
 *            is thrown away, so each normal costs exactly two draws), computed
 *            in double and rounded to float once
 * This file compiles as plain C11 (no _GNU_SOURCE), as lab builds need.
 */
#include <math.h>

#include "labsup.h"

void sup_rng_seed(sup_rng *rng, uint64_t seed)
{
    rng->state = seed;
}

uint64_t sup_rng_u64(sup_rng *rng)
{
    /* Step the state by the golden-ratio increment, then scramble a copy:
       the xor-shift-multiply rounds spread every bit of z over the output. */
    uint64_t z = (rng->state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

float sup_rng_uniform(sup_rng *rng)
{
    /* 24 bits fit a float's significand exactly; 0x1p-24f is 2^-24. */
    return (float)(sup_rng_u64(rng) >> 40) * 0x1p-24f;
}

float sup_rng_normal(sup_rng *rng)
{
    /* u1 may be 0, so use 1 - u1 in (0, 1]: the log is finite. */
    static const double two_pi = 6.283185307179586476925286766559;
    double u1 = (double)sup_rng_uniform(rng);
    double u2 = (double)sup_rng_uniform(rng);
    return (float)(sqrt(-2.0 * log(1.0 - u1)) * cos(two_pi * u2));
}

void sup_rng_fill_normal(sup_rng *rng, float *x, long n)
{
    for (long i = 0; i < n; i++) x[i] = sup_rng_normal(rng);
}

void sup_rng_fill_uniform(sup_rng *rng, float *x, long n, float lo, float hi)
{
    /* lo + (hi - lo) u, in double. Rounding to float can land exactly on hi
       when u is close to 1; such a value is moved to the float just below hi,
       so the range stays [lo, hi) as documented. */
    for (long i = 0; i < n; i++) {
        double u = (double)sup_rng_uniform(rng);
        float v = (float)((double)lo + ((double)hi - (double)lo) * u);
        if (v >= hi && hi > lo) v = nextafterf(hi, lo);
        x[i] = v;
    }
}
