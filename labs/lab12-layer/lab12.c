/*
 * lab12.c: the whole layer, projections, heads, W_O and cross-attention (12 points).
 *
 * Your name:
 * Your student id:
 *
 * RULES (read them before you write a line; the grader enforces them)
 *
 *   - Write your answers in this file only, and only inside the functions
 *     below. You may add static helper functions. Do not edit lab12.h.
 *   BEGIN RULES (generated from data/rubrics/lab12.yaml by attnlab rules)
 *   - Allowed headers: lab12.h, labsup.h, math.h, stdlib.h, string.h,
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

#include "lab12.h"

/*
 * lab_split_heads (2 points)
 *
 *   Shapes: Xh (B, H, T, dh), X (B, T, H, dh).
 *   Handout: section 3.
 */
int lab_split_heads(float *Xh, const float *X, int B, int T, int H, int dh)
{
    (void)Xh; (void)X; (void)B; (void)T; (void)H; (void)dh;
    return LAB_NOT_IMPLEMENTED;
}

/*
 * lab_self_attention (5 points)
 *
 *   Shapes: O (B, T, d_model), A (B, H, T, T), X (B, T, d_model), W (4, d_model, d_model).
 *   Handout: section 4.
 */
int lab_self_attention(float *O, float *A, const float *X, const float *W, int B, int T, int d_model, int H, int causal, int average)
{
    (void)O; (void)A; (void)X; (void)W; (void)B; (void)T; (void)d_model; (void)H; (void)causal; (void)average;
    return LAB_NOT_IMPLEMENTED;
}

/*
 * lab_cross_attention (5 points)
 *
 *   Shapes: O (B, Tq, d_model), A (B, H, Tq, Tk), Y (B, Tq, d_model), S (B, Tk, d_model), W (4, d_model, d_model), keep (B, Tk).
 *   Handout: section 5.
 */
int lab_cross_attention(float *O, float *A, const float *Y, const float *S, const float *W, const unsigned char *keep, int B, int Tq, int Tk, int d_model, int H, int average)
{
    (void)O; (void)A; (void)Y; (void)S; (void)W; (void)keep; (void)B; (void)Tq; (void)Tk; (void)d_model; (void)H; (void)average;
    return LAB_NOT_IMPLEMENTED;
}
