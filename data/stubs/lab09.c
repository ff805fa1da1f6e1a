/*
 * lab09.c: masks and denominators in decoding.              (12 points)
 *
 * YOUR NAME:
 *
 * Rules (the grader checks them; see README.md, section 7):
 *   - Write your code in this file only; do not add files, do not edit lab09.h.
 *   BEGIN RULES (generated from data/rubrics/lab09.yaml by attnlab rules)
 *   - Allowed headers: lab09.h, labsup.h, math.h, stdlib.h, string.h,
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
 *   - Write masked scores as -INFINITY.
 *   - What you print appears as a short excerpt in your grade report and never
 *     changes your score.
 *
 * Each function below says what it must compute and is worth the points shown.
 * Until you write it, it returns LAB_NOT_IMPLEMENTED. Delete the (void) lines
 * when you start: they only keep the compiler quiet about unused arguments.
 * The full contracts, with every edge case, are in lab09.h.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "lab09.h"

/*
 * lab_causal_mask_aligned - causal mask for Tq != Tk, in place.      (3 points)
 *   S[b][i][j] = -INFINITY where j > last(i): last(i) = i top-left
 *   (bottom_right 0), i + Tk - Tq bottom-right (bottom_right 1).
 *   LAB_BAD_ARG: a size < 1, or bottom_right not 0 or 1.
 */
int lab_causal_mask_aligned(float *S, int B, int Tq, int Tk, int bottom_right)
{
    (void)S; (void)B; (void)Tq; (void)Tk; (void)bottom_right;
    return LAB_NOT_IMPLEMENTED;
}

/*
 * lab_sliding_window_mask - bottom-right sliding window, in place.   (3 points)
 *   Key j visible iff i' - window < j <= i', i' = i + Tk - Tq; every other
 *   score becomes -INFINITY.  LAB_BAD_ARG: a size < 1, or window < 1.
 */
int lab_sliding_window_mask(float *S, int B, int Tq, int Tk, int window)
{
    (void)S; (void)B; (void)Tq; (void)Tk; (void)window;
    return LAB_NOT_IMPLEMENTED;
}

/*
 * lab_sink_softmax - softmax with one sink logit per head.           (3 points)
 *   z = sink[b % H], m = max(z, max_j s_j);
 *   W = exp(s_j - m) / (exp(z - m) + sum_k exp(s_k - m)), Wsink = exp(z - m) / (same).
 *   Rows of W sum to 1 - Wsink. A -INFINITY sink is plain softmax (zero-row
 *   policy).  LAB_BAD_ARG: a size < 1, or B not a multiple of H.
 */
int lab_sink_softmax(float *W, float *Wsink, const float *S, const float *sink,
                     int B, int H, int Tq, int Tk)
{
    (void)W; (void)Wsink; (void)S; (void)sink; (void)B; (void)H; (void)Tq; (void)Tk;
    return LAB_NOT_IMPLEMENTED;
}

/*
 * lab_postmask_backward - dL/dS through W' = keep * softmax(S).      (3 points)
 *   g'_j = keep_j ? g_j : 0;  ds_j = w_j (g'_j - <w, g'>). A zeroed key gets
 *   -w_j <w, g'>, not 0.  LAB_BAD_ARG: rows or n < 1.
 */
int lab_postmask_backward(float *dS, const float *W, const float *dW,
                          const unsigned char *keep, int rows, int n)
{
    (void)dS; (void)W; (void)dW; (void)keep; (void)rows; (void)n;
    return LAB_NOT_IMPLEMENTED;
}
