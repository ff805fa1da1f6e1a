/*
 * lab12.c: the whole layer, projections, heads, W_O and cross-attention, a complete solution (12 points).
 *
 * TODO(new-lab): the reference solution, written as the handout teaches it
 * (the student's file is data/stubs/lab12.c). Replace each function's body
 * between its BEGIN SOLUTION and END SOLUTION lines.
 */
#include <math.h>

#include "lab12.h"

int lab_split_heads(float *Xh, const float *X, int B, int T, int H, int dh)
{
    /* BEGIN SOLUTION lab_split_heads */
    (void)Xh; (void)X; (void)B; (void)T; (void)H; (void)dh;
    return LAB_NOT_IMPLEMENTED;
    /* END SOLUTION lab_split_heads */
}

int lab_self_attention(float *O, float *A, const float *X, const float *W, int B, int T, int d_model, int H, int causal, int average)
{
    /* BEGIN SOLUTION lab_self_attention */
    (void)O; (void)A; (void)X; (void)W; (void)B; (void)T; (void)d_model; (void)H; (void)causal; (void)average;
    return LAB_NOT_IMPLEMENTED;
    /* END SOLUTION lab_self_attention */
}

int lab_cross_attention(float *O, float *A, const float *Y, const float *S, const float *W, const unsigned char *keep, int B, int Tq, int Tk, int d_model, int H, int average)
{
    /* BEGIN SOLUTION lab_cross_attention */
    (void)O; (void)A; (void)Y; (void)S; (void)W; (void)keep; (void)B; (void)Tq; (void)Tk; (void)d_model; (void)H; (void)average;
    return LAB_NOT_IMPLEMENTED;
    /* END SOLUTION lab_cross_attention */
}
