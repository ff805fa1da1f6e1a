/*
 * lab03.c: learned scores.                                 (14 points)
 *
 * Your name:
 * Your student id:
 *
 * RULES (read them before you write a line; the grader enforces them)
 *
 *   - Write your answers in this file only, and only inside the functions
 *     below. You may add static helper functions. Do not edit lab03.h.
 *   BEGIN RULES (generated from data/rubrics/lab03.yaml by attnlab rules)
 *   - Allowed headers: lab03.h, labsup.h, math.h, stdlib.h, string.h,
 *     stddef.h, stdint.h, stdio.h.
 *   - Allowed library functions:
 *     - math: tanhf, tanh, sqrtf, sqrt, fabsf, fabs.
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
 * Grade:            make -C ../.. grade
 * The handout (README.md) explains everything below; sections are numbered.
 */
#include <math.h>
#include <stdlib.h>

#include "lab03.h"

/*
 * lab_general_scores - Luong general scores q^T W k         (6 points)
 *
 *   S[b][i][j] = sum_a sum_c Q[b][i][a] * W[a][c] * K[b][j][c]
 *
 *   Q is (B, Tq, dq), W is (dq, dk), K is (B, Tk, dk), S is (B, Tq, Tk).
 *   LAB_BAD_ARG (S untouched) for a negative size or dq, dk < 1.
 *   Handout: sections 2 and 3.
 */
int lab_general_scores(float *S, const float *Q, const float *W, const float *K,
                       int B, int Tq, int Tk, int dq, int dk)
{
    (void)S; (void)Q; (void)W; (void)K; (void)B; (void)Tq; (void)Tk; (void)dq; (void)dk;
    return LAB_NOT_IMPLEMENTED;
}

/*
 * lab_additive_scores - Bahdanau additive scores            (8 points)
 *
 *   S[b][i][j] = sum_u v[u] * tanh( (Wq Q[b][i])[u] + (Wk K[b][j])[u] )
 *
 *   Wq is (h, dq), Wk is (h, dk), v is (h); S is (B, Tq, Tk).
 *   LAB_BAD_ARG (S untouched) for a negative size or dq, dk, h < 1.
 *   Handout: sections 2 and 4.
 */
int lab_additive_scores(float *S, const float *Q, const float *K,
                        const float *Wq, const float *Wk, const float *v,
                        int B, int Tq, int Tk, int dq, int dk, int h)
{
    (void)S; (void)Q; (void)K; (void)Wq; (void)Wk; (void)v;
    (void)B; (void)Tq; (void)Tk; (void)dq; (void)dk; (void)h;
    return LAB_NOT_IMPLEMENTED;
}
