/*
 * lab10.c: heads and what is plotted.   (12 points)
 *
 * YOUR NAME:
 *
 * Rules (the grader checks them; see README.md, section 7):
 *   - Write your code in this file only; do not add files, do not edit lab10.h.
 *   - Allowed headers: lab10.h, labsup.h, math.h, stdlib.h, string.h, stddef.h,
 *     stdint.h, and stdio.h for printf debugging only.
 *   - Allowed calls: expf logf sqrtf fabsf fmaxf fminf exp log sqrt fabs fmax
 *     fmin isinf isnan, malloc calloc realloc free, memset memcpy, printf.
 *   - No file I/O, no processes, no networking: the grader's sandbox stops the
 *     test with "forbidden call".
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
