/*
 * lab09.c: masks and denominators in decoding.              (12 points)
 * Reference solution.
 *
 * Dimensions: B batch * heads (heads fastest, h = b % H), H heads, Tq queries,
 * Tk keys; rows x n for the backward pass. All arrays are row-major float32.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "lab09.h"

/* The last key query i may see: i top-left, i + Tk - Tq bottom-right, where
   the last query sits on the last key. Negative when a row sees no key. */
static int last_key(int i, int Tq, int Tk, int bottom_right)
{
    return bottom_right ? i + Tk - Tq : i;
}

int lab_causal_mask_aligned(float *S, int B, int Tq, int Tk, int bottom_right)
{
    if (!S || B < 1 || Tq < 1 || Tk < 1 || (bottom_right != 0 && bottom_right != 1))
        return LAB_BAD_ARG;
    for (int b = 0; b < B; b++)
        for (int i = 0; i < Tq; i++) {
            float *s = S + ((long)b * Tq + i) * Tk;
            int last = last_key(i, Tq, Tk, bottom_right);
            // keys after the query's own position are its future
            for (int j = 0; j < Tk; j++)
                if (j > last) s[j] = -INFINITY;
        }
    return LAB_OK;
}

int lab_sliding_window_mask(float *S, int B, int Tq, int Tk, int window)
{
    if (!S || B < 1 || Tq < 1 || Tk < 1 || window < 1) return LAB_BAD_ARG;
    for (int b = 0; b < B; b++)
        for (int i = 0; i < Tq; i++) {
            float *s = S + ((long)b * Tq + i) * Tk;
            int last = last_key(i, Tq, Tk, 1);
            // visible: last - window < j <= last, window keys ending on the
            // query's own position; the left edge is strict
            for (int j = 0; j < Tk; j++)
                if (j > last || j <= last - window) s[j] = -INFINITY;
        }
    return LAB_OK;
}

int lab_sink_softmax(float *W, float *Wsink, const float *S, const float *sink,
                     int B, int H, int Tq, int Tk)
{
    if (!W || !Wsink || !S || !sink || B < 1 || H < 1 || Tq < 1 || Tk < 1 || B % H != 0)
        return LAB_BAD_ARG;
    for (int b = 0; b < B; b++) {
        float z = sink[b % H];  // one sink per head, heads fastest
        for (int i = 0; i < Tq; i++) {
            long r = (long)b * Tq + i;
            const float *s = S + r * Tk;
            float *w = W + r * Tk;
            // pass 1: the max over the sink and the scores, so that every
            // exponent below is <= 0 however large the sink is; NaN sticks
            float m = z;
            for (int j = 0; j < Tk; j++)
                if (s[j] > m || isnan(s[j])) m = s[j];
            if (m == -INFINITY) {
                // no sink (z = -inf) and every key masked: zero weights
                for (int j = 0; j < Tk; j++) w[j] = 0.0f;
                Wsink[r] = 0.0f;
                continue;
            }
            // pass 2: the denominator has one more term than softmax's, the sink's
            float denom = expf(z - m);
            for (int j = 0; j < Tk; j++) denom += expf(s[j] - m);
            // pass 3: real keys share what the sink leaves
            for (int j = 0; j < Tk; j++) w[j] = expf(s[j] - m) / denom;
            Wsink[r] = expf(z - m) / denom;
        }
    }
    return LAB_OK;
}

int lab_postmask_backward(float *dS, const float *W, const float *dW,
                          const unsigned char *keep, int rows, int n)
{
    if (!dS || !W || !dW || !keep || rows < 1 || n < 1) return LAB_BAD_ARG;
    for (int r = 0; r < rows; r++) {
        const float *w = W + (long)r * n, *g = dW + (long)r * n;
        const unsigned char *k = keep + (long)r * n;
        float *ds = dS + (long)r * n;
        // pass 1: <w, g'> with g' = keep * g: a zeroed weight took no part in
        // the loss, so its upstream gradient stops at the zeroing
        float wg = 0.0f;
        for (int j = 0; j < n; j++)
            if (k[j]) wg += w[j] * g[j];
        // pass 2: back through softmax, ds_j = w_j (g'_j - <w, g'>); a zeroed
        // key still has w_j > 0, so it gets -w_j <w, g'>
        for (int j = 0; j < n; j++) {
            float gj = k[j] ? g[j] : 0.0f;
            ds[j] = w[j] * (gj - wg);
        }
    }
    return LAB_OK;
}
