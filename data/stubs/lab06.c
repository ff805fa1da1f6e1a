/*
 * lab06.c: position biases on scores, dropout on weights.   (14 points)
 *
 * YOUR NAME:
 *
 * Rules (the grader checks them; see README.md, section 7):
 *   - Write your code in this file only; do not add files, do not edit lab06.h.
 *   BEGIN RULES (generated from data/rubrics/lab06.yaml by attnlab rules)
 *   - Allowed headers: lab06.h, labsup.h, math.h, stdlib.h, string.h,
 *     stddef.h, stdint.h, stdio.h.
 *   - Allowed library functions:
 *     - math: expf, exp, logf, log, sqrtf, sqrt, fabsf, fabs, fmaxf, fmax,
 *       fminf, fmin.
 *     - memory: malloc, calloc, realloc, free, memset, memcpy.
 *     - output: printf, puts, putchar.
 *     - support code (labsup.h): sup_rng_seed, sup_rng_u64, sup_rng_uniform,
 *       sup_rng_normal, sup_rng_fill_normal, sup_rng_fill_uniform,
 *       sup_tensor_alloc, sup_tensor_free, sup_tensor_print,
 *       sup_print_matrix, sup_error.
 *   - INFINITY, NAN, isinf, isnan and isfinite are macros of math.h, not
 *     calls: use them freely.
 *   - Time limit: 2 s per test.
 *   - Memory limit: 64 MiB of heap per test.
 *   - Output limit: 64 KiB of printed output per test.
 *   - Otherwise: a header or a function not listed here gives every test of
 *     the lab "forbidden call" and 0 points; a test over a limit ends
 *     "timed out", "out of memory" or "output limit" and scores 0.
 *   END RULES
 *   - No pow: write 2^x as exp(x * log(2)).
 *   - What you print appears as a short excerpt in your grade report and never
 *     changes your score.
 *
 * Each function below says what it must compute and is worth the points shown.
 * Until you write it, it returns LAB_NOT_IMPLEMENTED. Delete the (void) lines
 * when you start: they only keep the compiler quiet about unused arguments.
 * The full contracts, with every edge case, are in lab06.h.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "lab06.h"

/*
 * lab_alibi_slopes - one ALiBi slope per head.                        (2 points)
 *   H a power of two: slopes[h] = 2^(-8 (h + 1) / H). Otherwise the slopes of
 *   P = the largest power of two <= H, then every other slope of 2P heads
 *   (indices 0, 2, 4, ...), H - P of them.  LAB_BAD_ARG: H < 1.
 */
int lab_alibi_slopes(float *slopes, int H)
{
    (void)slopes; (void)H;
    return LAB_NOT_IMPLEMENTED;
}

/*
 * lab_alibi_bias - add m_h * (j - i) to every score, in place.        (2 points)
 *   S is (B, Tq, Tk) with B = batch * H, heads fastest (h = b % H).
 *   LAB_BAD_ARG: a size < 1, or B not a multiple of H.
 */
int lab_alibi_bias(float *S, int B, int H, int Tq, int Tk)
{
    (void)S; (void)B; (void)H; (void)Tq; (void)Tk;
    return LAB_NOT_IMPLEMENTED;
}

/*
 * lab_t5_bucket - T5's relative-position bucket of each rel = j - i.  (3 points)
 *   Exact buckets for short distances, log-spaced buckets up to max_distance,
 *   clamped beyond; split by sign when bidirectional. Follow the rule in
 *   lab06.h to the letter (float32 as written, (int) truncation).
 *   LAB_BAD_ARG: n < 0, too few buckets, or max_distance <= max_exact.
 */
int lab_t5_bucket(int *bucket, const int *rel, int n, int bidirectional,
                  int num_buckets, int max_distance)
{
    (void)bucket; (void)rel; (void)n; (void)bidirectional;
    (void)num_buckets; (void)max_distance;
    return LAB_NOT_IMPLEMENTED;
}

/*
 * lab_relpos_bias - add table[h][bucket(j - i)] to every score, in place.
 *                                                                     (2 points)
 *   table is (H, num_buckets); h = b % H. Same checks as the two above.
 */
int lab_relpos_bias(float *S, const float *table, int B, int H, int Tq, int Tk,
                    int bidirectional, int num_buckets, int max_distance)
{
    (void)S; (void)table; (void)B; (void)H; (void)Tq; (void)Tk;
    (void)bidirectional; (void)num_buckets; (void)max_distance;
    return LAB_NOT_IMPLEMENTED;
}

/*
 * lab_dropout - inverted dropout on weights, in place.                (3 points)
 *   Seed the support RNG with seed; for k = 0..n-1 draw u = sup_rng_uniform;
 *   W[k] = 0 when u < p, else W[k] / (1 - p).
 *   LAB_BAD_ARG (W untouched) unless 0 <= p < 1.
 */
int lab_dropout(float *W, float p, uint64_t seed, long n)
{
    (void)W; (void)p; (void)seed; (void)n;
    return LAB_NOT_IMPLEMENTED;
}

/*
 * lab_attention_output - O = W V for each batch entry.                (2 points)
 *   W (B, Tq, Tk), V (B, Tk, dv), O (B, Tq, dv).  LAB_BAD_ARG: a size < 1.
 */
int lab_attention_output(float *O, const float *W, const float *V,
                         int B, int Tq, int Tk, int dv)
{
    (void)O; (void)W; (void)V; (void)B; (void)Tq; (void)Tk; (void)dv;
    return LAB_NOT_IMPLEMENTED;
}
