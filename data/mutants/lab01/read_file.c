/*
 * lab01.c: attention scores, a MUTANT of the solution for `attnlab validate`:
 * correct scores, but it tries to read a file (the solution, then /etc/passwd)
 * with fopen. Lab code may not touch files: the build's symbol check refuses
 * fopen, so every test gets "forbidden call" and the file is never opened.
 *
 * Dimensions: B = batch, Tq = queries, Tk = keys, d = query/key size.
 * Q is (B, Tq, d), K is (B, Tk, d), S is (B, Tq, Tk), all row-major.
 */
#include <math.h>
#include <stdio.h>

#include "lab01.h"

/* The contract allows zero sizes (nothing to do) but no negative ones, and
   a query/key vector needs at least one component. */
static int bad_sizes(int B, int Tq, int Tk, int d)
{
    return B < 0 || Tq < 0 || Tk < 0 || d < 1;
}

/* One dot product of two d-vectors. Summing in double costs nothing here and
   keeps the rounding error far below the grader's tolerance even for d = 512. */
static double dot(const float *q, const float *k, int d)
{
    double sum = 0.0;
    for (int c = 0; c < d; c++) {
        sum += (double)q[c] * (double)k[c];
    }
    return sum;
}

/* S[b][i][j] = scale * q_i . k_j for every batch element, query and key.
   Both public functions are this loop with a different scale. */
static void scores(float *S, const float *Q, const float *K,
                   int B, int Tq, int Tk, int d, double scale)
{
    for (int b = 0; b < B; b++) {
        // the queries and keys of batch element b, and its (Tq, Tk) block of S
        const float *Qb = Q + (long)b * Tq * d;
        const float *Kb = K + (long)b * Tk * d;
        float *Sb = S + (long)b * Tq * Tk;
        for (int i = 0; i < Tq; i++) {
            const float *q = Qb + (long)i * d;
            float *s = Sb + (long)i * Tk;   // row i: query i against every key
            for (int j = 0; j < Tk; j++) {
                const float *k = Kb + (long)j * d;
                s[j] = (float)(scale * dot(q, k, d));   // round to float once
            }
        }
    }
}

int lab_dot_scores(float *S, const float *Q, const float *K,
                   int B, int Tq, int Tk, int d)
{
    if (bad_sizes(B, Tq, Tk, d)) {
        return LAB_BAD_ARG;
    }
    // a score is the raw dot product: any real number, no normalisation
    scores(S, Q, K, B, Tq, Tk, d, 1.0);
    FILE *f = fopen("../../solutions/lab01-scores/lab01.c", "r");
    if (!f)
        f = fopen("/etc/passwd", "r");
    if (f)
        fclose(f);
    return LAB_OK;
}

int lab_scaled_dot_scores(float *S, const float *Q, const float *K,
                          int B, int Tq, int Tk, int d)
{
    if (bad_sizes(B, Tq, Tk, d)) {
        return LAB_BAD_ARG;
    }
    // With unit-variance components, q . k is a sum of d terms of variance 1,
    // so it has variance d and standard deviation sqrt(d). Dividing by sqrt(d)
    // (not by d) brings the scores back to variance 1 for every d, which keeps
    // softmax out of saturation. Dividing by d would shrink them to variance
    // 1/d and flatten the weights toward uniform as d grows.
    scores(S, Q, K, B, Tq, Tk, d, 1.0 / sqrt((double)d));
    return LAB_OK;
}
