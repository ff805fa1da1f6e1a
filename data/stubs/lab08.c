/*
 * lab08.c: the gradient through softmax.                    (10 points)
 *
 * YOUR NAME:
 *
 * Rules (the grader checks them; see README.md, section 7):
 *   - Write your code in this file only; do not add files, do not edit lab08.h.
 *   BEGIN RULES (generated from data/rubrics/lab08.yaml by attnlab rules)
 *   - Allowed headers: lab08.h, labsup.h, math.h, stdlib.h, string.h,
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
 *   - Free what you allocate.
 *   - What you print appears as a short excerpt in your grade report and never
 *     changes your score.
 *
 * Each function below says what it must compute and is worth the points shown.
 * Until you write it, it returns LAB_NOT_IMPLEMENTED. Delete the (void) lines
 * when you start: they only keep the compiler quiet about unused arguments.
 * The full contracts, with every edge case, are in lab08.h.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "lab08.h"

/*
 * lab_softmax_backward - dS = W * (dW - <W, dW>), row by row.         (5 points)
 *   W, dW, dS are (rows, n). dS may be the same array as dW.
 *   LAB_BAD_ARG: rows or n < 1.
 */
int lab_softmax_backward(float *dS, const float *W, const float *dW, int rows, int n)
{
    (void)dS; (void)W; (void)dW; (void)rows; (void)n;
    return LAB_NOT_IMPLEMENTED;
}

/*
 * lab_gradient_experiment - mean ||ds|| for raw and scaled scores.    (5 points)
 *   Seed the support RNG once with seed. For each d = dks[m], for each trial,
 *   draw q (d), K (T * d), g (T) with sup_rng_fill_normal in that order; score
 *   the T keys raw (q . k) and scaled (q . k / sqrt(d)); softmax each; take
 *   ds = softmax backward of g and its L2 norm. g_raw[m] and g_scaled[m] are
 *   the means over the trials.
 *   LAB_BAD_ARG: n_dk, T or trials < 1, or some dks[m] < 1.
 */
int lab_gradient_experiment(float *g_raw, float *g_scaled, const int *dks, int n_dk,
                            int T, int trials, uint64_t seed)
{
    (void)g_raw; (void)g_scaled; (void)dks; (void)n_dk; (void)T; (void)trials; (void)seed;
    return LAB_NOT_IMPLEMENTED;
}
