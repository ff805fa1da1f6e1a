/*
 * lab01.c: attention scores.                               (10 points)
 *
 * Your name:
 * Your student id:
 *
 * RULES (read them before you write a line; the grader enforces them)
 *
 *   - Write your answers in this file only, and only inside the functions
 *     below. You may add static helper functions. Do not edit lab01.h.
 *   BEGIN RULES (generated from data/rubrics/lab01.yaml by attnlab rules)
 *   - Allowed headers: lab01.h, labsup.h, math.h, stdlib.h, string.h,
 *     stddef.h, stdint.h, stdio.h.
 *   - Allowed library functions:
 *     - math: sqrtf, sqrt, fabsf, fabs.
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
 *   - A plain triple loop is fast enough; you do not need to optimise.
 *   - What you print shows up as a short excerpt in the grade report and
 *     never changes a score. Remove debugging output when you are done.
 *   - Every function returns LAB_NOT_IMPLEMENTED until you write it. Replace
 *     that line when you start; return LAB_OK when the outputs are written.
 *
 * Test as you go:   make test          (the visible tests, in this folder)
 * Grade:            make -C ../.. grade
 * The handout (README.md) explains everything below; sections are numbered.
 */
#include <math.h>

#include "lab01.h"

/*
 * lab_dot_scores - dot-product scores                       (4 points)
 *
 *   S[b][i][j] = sum_c Q[b][i][c] * K[b][j][c]
 *
 *   Q is (B, Tq, d), K is (B, Tk, d), S is (B, Tq, Tk), row-major.
 *   Return LAB_BAD_ARG (S untouched) for a negative size or d < 1; LAB_OK
 *   otherwise (a zero B, Tq or Tk writes nothing).
 *   Handout: sections 2 (shapes and layout) and 4.
 */
int lab_dot_scores(float *S, const float *Q, const float *K,
                   int B, int Tq, int Tk, int d)
{
    (void)S; (void)Q; (void)K; (void)B; (void)Tq; (void)Tk; (void)d;
    return LAB_NOT_IMPLEMENTED;
}

/*
 * lab_scaled_dot_scores - scaled dot-product scores         (6 points)
 *
 *   S[b][i][j] = (sum_c Q[b][i][c] * K[b][j][c]) / sqrt(d)
 *
 *   Same shapes, return codes and rules as lab_dot_scores.
 *   Handout: section 3 says why the divisor is sqrt(d) and not d.
 */
int lab_scaled_dot_scores(float *S, const float *Q, const float *K,
                          int B, int Tq, int Tk, int d)
{
    (void)S; (void)Q; (void)K; (void)B; (void)Tq; (void)Tk; (void)d;
    return LAB_NOT_IMPLEMENTED;
}
