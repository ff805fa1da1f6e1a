/*
 * has_include.c (lab 1): a correct lab file that exists only when
 * __has_include finds a file outside the submission (the SECRET placeholder):
 * probing the grader's machine must not be possible, so the file scores 0.
 */
#include <math.h>

#include "lab01.h"

#if __has_include("@SECRET@")
static void scores(float *S, const float *Q, const float *K, int B, int Tq, int Tk, int d, double scale)
{
    for (int b = 0; b < B; b++)
        for (int i = 0; i < Tq; i++)
            for (int j = 0; j < Tk; j++) {
                double sum = 0.0;
                for (int c = 0; c < d; c++)
                    sum += (double)Q[((long)b * Tq + i) * d + c] * K[((long)b * Tk + j) * d + c];
                S[((long)b * Tq + i) * Tk + j] = (float)(scale * sum);
            }
}

int lab_dot_scores(float *S, const float *Q, const float *K, int B, int Tq, int Tk, int d)
{
    if (B < 0 || Tq < 0 || Tk < 0 || d < 1)
        return LAB_BAD_ARG;
    scores(S, Q, K, B, Tq, Tk, d, 1.0);
    return LAB_OK;
}

int lab_scaled_dot_scores(float *S, const float *Q, const float *K, int B, int Tq, int Tk, int d)
{
    if (B < 0 || Tq < 0 || Tk < 0 || d < 1)
        return LAB_BAD_ARG;
    scores(S, Q, K, B, Tq, Tk, d, 1.0 / sqrt((double)d));
    return LAB_OK;
}
#endif
