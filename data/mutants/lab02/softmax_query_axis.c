/*
 * lab02.c: masks and softmax, a MUTANT of the solution for `attnlab validate`:
 * the solution with one planted mistake, softmax down each column, over the queries
 * (misconception softmax_query_axis).
 *
 * Dimensions: B = batch, Tq = queries, Tk = keys. Scores S are (B, Tq, Tk),
 * row-major. Masks and temperature edit scores in place, before softmax;
 * softmax is the one place where scores become weights.
 */
#include <math.h>

#include "lab02.h"

int lab_softmax(float *W, const float *S, int rows, int n, int *n_masked_rows)
{
    // MISTAKE: normalise each column (over the rows, the query axis) instead of
    // each row. The fully masked rows are still counted correctly.
    if (rows < 0 || n < 1) {
        return LAB_BAD_ARG;
    }
    int full = 0;
    for (int r = 0; r < rows; r++) {
        int all = 1;
        for (int j = 0; j < n; j++) {
            if (S[(long)r * n + j] != -INFINITY) {
                all = 0;
            }
        }
        full += all;
    }
    for (int j = 0; j < n; j++) {
        float maxval = -INFINITY;
        for (int r = 0; r < rows; r++) {
            maxval = fmaxf(maxval, S[(long)r * n + j]);
        }
        double sum = 0.0;
        for (int r = 0; r < rows; r++) {
            float e = maxval == -INFINITY ? 0.0f : expf(S[(long)r * n + j] - maxval);
            W[(long)r * n + j] = e;
            sum += (double)e;
        }
        for (int r = 0; r < rows; r++) {
            W[(long)r * n + j] = sum > 0 ? (float)((double)W[(long)r * n + j] / sum) : 0.0f;
        }
    }
    if (n_masked_rows != NULL) {
        *n_masked_rows = full;
    }
    return LAB_OK;
}

int lab_causal_mask(float *S, int B, int Tq, int Tk)
{
    if (B < 0 || Tq < 0 || Tk < 0) {
        return LAB_BAD_ARG;
    }
    for (int b = 0; b < B; b++) {
        for (int i = 0; i < Tq; i++) {
            float *s = S + ((long)b * Tq + i) * Tk;
            // query i may look at keys 0 .. i; the future keys get -inf so that
            // softmax gives them exactly 0 weight
            for (int j = i + 1; j < Tk; j++) {
                s[j] = -INFINITY;
            }
        }
    }
    return LAB_OK;
}

int lab_padding_mask(float *S, const int *lengths, int B, int Tq, int Tk)
{
    if (B < 0 || Tq < 0 || Tk < 0) {
        return LAB_BAD_ARG;
    }
    // check every length first, so that a bad one leaves S untouched
    for (int b = 0; b < B; b++) {
        if (lengths[b] < 0 || lengths[b] > Tk) {
            return LAB_BAD_ARG;
        }
    }
    for (int b = 0; b < B; b++) {
        for (int i = 0; i < Tq; i++) {
            float *s = S + ((long)b * Tq + i) * Tk;
            // keys lengths[b] .. Tk-1 are padding for every query of element b
            for (int j = lengths[b]; j < Tk; j++) {
                s[j] = -INFINITY;
            }
        }
    }
    return LAB_OK;
}

int lab_bool_mask(float *S, const unsigned char *M, int B, int Tq, int Tk)
{
    if (B < 0 || Tq < 0 || Tk < 0) {
        return LAB_BAD_ARG;
    }
    // M has the shape of S, so one flat loop visits matching elements
    long total = (long)B * Tq * Tk;
    for (long k = 0; k < total; k++) {
        if (M[k] != 0) {
            S[k] = -INFINITY;
        }
    }
    return LAB_OK;
}

int lab_temperature(float *S, float tau, int n)
{
    // written so that NaN fails too: every comparison with NaN is false
    if (!(tau > 0.0f) || isinf(tau) || n < 0) {
        return LAB_BAD_ARG;
    }
    // dividing scores, before softmax, exactly where 1/sqrt(d) scales them;
    // -inf / tau is still -inf, so masks survive in either order
    for (int k = 0; k < n; k++) {
        S[k] = S[k] / tau;
    }
    return LAB_OK;
}
