/*
 * lab02.c: masks and softmax, a complete solution.         (14 points)
 *
 * Dimensions: B = batch, Tq = queries, Tk = keys. Scores S are (B, Tq, Tk),
 * row-major. Masks and temperature edit scores in place, before softmax;
 * softmax is the one place where scores become weights.
 *
 * A weight is exactly 0 where its score is -inf. In exact arithmetic every
 * finite score gets a positive weight; in float32, expf(s - max) underflows
 * to 0 too once s is more than about 104 below its row's max.
 */
#include <math.h>

#include "lab02.h"

int lab_softmax(float *W, const float *S, int rows, int n, int *n_masked_rows)
{
    if (rows < 0 || n < 1) {
        return LAB_BAD_ARG;
    }
    int masked = 0;
    for (int r = 0; r < rows; r++) {
        const float *s = S + (long)r * n;
        float *w = W + (long)r * n;   // may be the same memory as s

        // pass 1: the row max. Softmax does not change when the whole row is
        // shifted, so we subtract the max only for numerical stability: every
        // exponent is then <= 0 and exp cannot overflow (expf(89) is already inf).
        float maxval = -INFINITY;
        for (int j = 0; j < n; j++) {
            if (s[j] > maxval) {
                maxval = s[j];
            }
        }
        if (maxval == -INFINITY) {
            // every key is masked: exp(-inf - (-inf)) would be exp(NaN). The
            // course's policy is a row of zeros, counted, never NaN.
            for (int j = 0; j < n; j++) {
                w[j] = 0.0f;
            }
            masked++;
            continue;
        }

        // pass 2: exponentials and their sum. A masked score gives
        // expf(-inf) = 0 exactly; any finite score gives a positive number.
        // Reading s[j] and then writing w[j] at the same j is safe in place.
        double sum = 0.0;
        for (int j = 0; j < n; j++) {
            float e = expf(s[j] - maxval);
            w[j] = e;
            sum += (double)e;
        }

        // pass 3: normalise. sum >= 1 because the max itself contributes
        // exp(0) = 1, so there is no division by zero here.
        for (int j = 0; j < n; j++) {
            w[j] = (float)((double)w[j] / sum);
        }
    }
    if (n_masked_rows != NULL) {
        *n_masked_rows = masked;
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
