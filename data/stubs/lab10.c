/*
 * lab10.c: heads and what is plotted.   (12 points)
 *
 * YOUR NAME:
 *
 * Rules (the grader checks them; see README.md, section 7):
 *   - Write your code in this file only; do not add files, do not edit lab10.h.
 *   BEGIN RULES (generated from data/rubrics/lab10.yaml by attnlab rules)
 *   - Allowed headers: lab10.h, labsup.h, math.h, stdlib.h, string.h,
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
 *   - What you print appears as a short excerpt in your grade report and never
 *     changes your score.
 *
 * Each function below says what it must compute and is worth the points shown.
 * Until you write it, it returns LAB_NOT_IMPLEMENTED. Delete the (void) lines
 * when you start: they only keep the compiler quiet about unused arguments.
 * The full contracts, with every edge case, are in lab10.h.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "lab10.h"

/*
 * lab_head_weights - one softmax per head, per query, over the keys.  (3 points)
 *   Q (B, H, Tq, d), K (B, H, Tk, d), W (B, H, Tq, Tk):
 *   W[b][h][i] = softmax_j(Q[b][h][i] . K[b][h][j] / sqrt(d)).
 *   LAB_BAD_ARG: a size < 1.
 */
int lab_head_weights(float *W, const float *Q, const float *K,
                     int B, int H, int Tq, int Tk, int d)
{
    (void)W; (void)Q; (void)K; (void)B; (void)H; (void)Tq; (void)Tk; (void)d;
    return LAB_NOT_IMPLEMENTED;
}

/*
 * lab_gqa_weights - grouped-query attention weights.                  (3 points)
 *   K is (B, Hkv, Tk, d); query head h reads key head h / (H / Hkv).
 *   LAB_BAD_ARG: a size < 1, or H not a multiple of Hkv.
 */
int lab_gqa_weights(float *W, const float *Q, const float *K,
                    int B, int H, int Hkv, int Tq, int Tk, int d)
{
    (void)W; (void)Q; (void)K; (void)B; (void)H; (void)Hkv; (void)Tq; (void)Tk; (void)d;
    return LAB_NOT_IMPLEMENTED;
}

/*
 * lab_head_average - average of the weights vs softmax of the mean score.
 *                                                                     (4 points)
 *   A = mean over heads of softmax(S[b][h]), M = softmax(mean over heads of
 *   S[b][h]), both (B, Tq, Tk); gap (B, Tq, 2) = max_j |A - M| and
 *   entropy(A) - entropy(M) of each row.  LAB_BAD_ARG: a size < 1.
 */
int lab_head_average(float *A, float *M, float *gap, const float *S,
                     int B, int H, int Tq, int Tk)
{
    (void)A; (void)M; (void)gap; (void)S; (void)B; (void)H; (void)Tq; (void)Tk;
    return LAB_NOT_IMPLEMENTED;
}

/*
 * lab_extract_head - W[b][h] as a (Tq, Tk) matrix for a heatmap.      (2 points)
 *   Row i is query i, column j is key j.
 *   LAB_BAD_ARG: a size < 1, b outside [0, B) or h outside [0, H).
 */
int lab_extract_head(float *Wh, const float *W, int B, int H, int Tq, int Tk,
                     int b, int h)
{
    (void)Wh; (void)W; (void)B; (void)H; (void)Tq; (void)Tk; (void)b; (void)h;
    return LAB_NOT_IMPLEMENTED;
}
