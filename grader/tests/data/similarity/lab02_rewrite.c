/*
 * lab02.c: masks and softmax, written independently of the reference solution
 * (the similarity tests' "honest student": same contract, own structure).
 */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "lab02.h"

/* Largest element of x[0..n), -inf when every element is -inf. */
static float row_max(const float *x, int n)
{
    float m = x[0];
    int j = 1;
    while (j < n) {
        m = x[j] > m ? x[j] : m;
        ++j;
    }
    return m;
}

/* Softmax of one row into y (may alias x); returns 1 for a fully masked row. */
static int softmax_row(float *y, const float *x, int n)
{
    const float m = row_max(x, n);
    if (isinf(m) && m < 0) {
        memset(y, 0, sizeof(float) * (size_t)n);
        return 1;
    }
    double total = 0;
    for (float *p = y; p != y + n; ++p, ++x) {
        *p = expf(*x - m);
        total += *p;
    }
    const double inv = 1.0 / total;
    for (float *p = y; p != y + n; ++p)
        *p = (float)(inv * *p);
    return 0;
}

int lab_softmax(float *W, const float *S, int rows, int n, int *n_masked_rows)
{
    int empty = 0;
    if (n < 1 || rows < 0)
        return LAB_BAD_ARG;
    for (long off = 0; off < (long)rows * n; off += n)
        empty += softmax_row(W + off, S + off, n);
    if (n_masked_rows)
        *n_masked_rows = empty;
    return LAB_OK;
}

/* Write -inf into row[from..to). */
static void block(float *row, int from, int to)
{
    while (from < to)
        row[from++] = -INFINITY;
}

static int negative(int a, int b, int c)
{
    return (a | b | c) < 0;
}

int lab_causal_mask(float *S, int B, int Tq, int Tk)
{
    if (negative(B, Tq, Tk))
        return LAB_BAD_ARG;
    float *row = S;
    for (int t = 0; t < B * Tq; t++, row += Tk) {
        int q = t % Tq;               /* the query this row belongs to */
        block(row, q + 1 < Tk ? q + 1 : Tk, Tk);
    }
    return LAB_OK;
}

int lab_padding_mask(float *S, const int *lengths, int B, int Tq, int Tk)
{
    if (negative(B, Tq, Tk))
        return LAB_BAD_ARG;
    int b = 0;
    while (b < B && lengths[b] >= 0 && lengths[b] <= Tk)
        b++;
    if (b != B)
        return LAB_BAD_ARG;   /* one bad length: nothing written */
    float *row = S;
    for (int t = 0; t < B * Tq; t++, row += Tk)
        block(row, lengths[t / Tq], Tk);
    return LAB_OK;
}

int lab_bool_mask(float *S, const unsigned char *M, int B, int Tq, int Tk)
{
    if (negative(B, Tq, Tk))
        return LAB_BAD_ARG;
    const unsigned char *end = M + (size_t)B * (size_t)Tq * (size_t)Tk;
    while (M != end) {
        if (*M++)
            *S = -INFINITY;
        S++;
    }
    return LAB_OK;
}

int lab_temperature(float *S, float tau, int n)
{
    if (isnan(tau) || tau <= 0 || tau == INFINITY || n < 0)
        return LAB_BAD_ARG;
    const float scale = 1.0f / tau;
    for (float *end = S + n; S < end; S++)
        *S = *S * scale;
    return LAB_OK;
}
