/*
 * lab04.c: experiment, entropy of attention weights versus d_k.  (12 points)
 *
 * Your name:
 * Your student id:
 *
 * RULES (read them before you write a line; the grader enforces them)
 *
 *   - Write your answers in this file only, and only inside the functions
 *     below. You may add static helper functions (a softmax, a dot product).
 *     Do not edit lab04.h.
 *   BEGIN RULES (generated from data/rubrics/lab04.yaml by attnlab rules)
 *   - Allowed headers: lab04.h, labsup.h, math.h, stdlib.h, string.h,
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
 *   - What you print shows up as a short excerpt in the grade report and
 *     never changes a score. Remove debugging output when you are done.
 *   - Every function returns LAB_NOT_IMPLEMENTED until you write it. Replace
 *     that line when you start; return LAB_OK when the outputs are written.
 *
 * Test as you go:   make test          (the visible tests, in this folder)
 * See your curve:   make run           (make run FORMAT=csv for plotting)
 * Grade:            make -C ../.. grade
 * The handout (README.md) explains everything below; sections are numbered.
 */
#include <math.h>
#include <stdlib.h>

#include "lab04.h"

/*
 * lab_row_entropy - entropy of each row of weights, in nats  (4 points)
 *
 *   H[r] = - sum_j W[r][j] * log(W[r][j]),   with 0 * log 0 = 0
 *
 *   Weights of exactly 0 really occur: masked keys, and in float32 any score
 *   about 104 below its row's max, which the experiment's raw rows at
 *   d = 512 reach in about half the trials. log(0) is -inf and 0 * -inf is
 *   NaN, so skip them.
 *   W is (rows, n), H has rows entries. LAB_BAD_ARG for rows < 0 or n < 1.
 *   Handout: section 2.
 */
int lab_row_entropy(float *H, const float *W, int rows, int n)
{
    (void)H; (void)W; (void)rows; (void)n;
    return LAB_NOT_IMPLEMENTED;
}

/*
 * lab_entropy_experiment - raw versus scaled, for each d_k    (8 points)
 *
 *   Seed one generator; for each d = dks[m], for each trial: draw q (d
 *   normals), then K (T*d normals); raw scores s_j = q . k_j, scaled scores
 *   s_j / sqrt(d); add the entropy of each softmax. H_raw[m] and H_scaled[m]
 *   are the means over trials. The exact order is in lab04.h: follow it.
 *   LAB_BAD_ARG (nothing drawn, outputs untouched) for n_dk < 1, T < 1,
 *   trials < 1 or any dks[m] < 1.
 *   Handout: sections 3, 4 and 5.
 */
int lab_entropy_experiment(float *H_raw, float *H_scaled, const int *dks, int n_dk,
                           int T, int trials, uint64_t seed)
{
    (void)H_raw; (void)H_scaled; (void)dks; (void)n_dk; (void)T; (void)trials; (void)seed;
    return LAB_NOT_IMPLEMENTED;
}
