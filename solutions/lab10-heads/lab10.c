/*
 * lab10.c: heads and what is plotted.   (12 points)
 * Reference solution.
 *
 * Dimensions: B batch, H query heads, Hkv key heads, Tq queries, Tk keys,
 * d query/key size. Q (B, H, Tq, d), K (B, H or Hkv, Tk, d), W and S
 * (B, H, Tq, Tk), batch slowest, then head. All arrays are row-major float32.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "lab10.h"

/* Softmax of one row of n scores, in place: subtract the max (for stability
   only), exponentiate, divide by the sum. */
static void softmax_row(float *w, int n)
{
    float mx = w[0];
    for (int j = 1; j < n; j++) mx = fmaxf(mx, w[j]);
    double sum = 0.0;
    for (int j = 0; j < n; j++) {
        w[j] = expf(w[j] - mx);
        sum += w[j];
    }
    for (int j = 0; j < n; j++) w[j] = (float)(w[j] / sum);
}

/* Entropy of one distribution of n weights, in nats; 0 log 0 counts as 0. */
static double entropy(const float *w, int n)
{
    double h = 0.0;
    for (int j = 0; j < n; j++)
        if (w[j] > 0.0f) h -= (double)w[j] * log((double)w[j]);
    return h;
}

/* One head: w (Tq, Tk) = softmax over keys of q (Tq, d) k (Tk, d)^T / sqrt(d). */
static void head_softmax(float *w, const float *q, const float *k, int Tq, int Tk, int d)
{
    float scale = 1.0f / sqrtf((float)d);
    for (int i = 0; i < Tq; i++) {
        float *row = w + (long)i * Tk;
        for (int j = 0; j < Tk; j++) {
            float dot = 0.0f;
            for (int c = 0; c < d; c++) dot += q[(long)i * d + c] * k[(long)j * d + c];
            row[j] = dot * scale;
        }
        softmax_row(row, Tk);  // over this head's keys, and nothing else
    }
}

int lab_head_weights(float *W, const float *Q, const float *K,
                     int B, int H, int Tq, int Tk, int d)
{
    if (!W || !Q || !K || B < 1 || H < 1 || Tq < 1 || Tk < 1 || d < 1) return LAB_BAD_ARG;
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            long bh = (long)b * H + h;  // plane (b, h): batch slowest, then head
            head_softmax(W + bh * Tq * Tk, Q + bh * Tq * d, K + bh * Tk * d, Tq, Tk, d);
        }
    return LAB_OK;
}

int lab_gqa_weights(float *W, const float *Q, const float *K,
                    int B, int H, int Hkv, int Tq, int Tk, int d)
{
    if (!W || !Q || !K || B < 1 || H < 1 || Hkv < 1 || Tq < 1 || Tk < 1 || d < 1 || H % Hkv != 0)
        return LAB_BAD_ARG;
    int group = H / Hkv;  // query heads per key head
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            int kv = h / group;  // heads 0..group-1 share key head 0, and so on
            long bh = (long)b * H + h;
            head_softmax(W + bh * Tq * Tk, Q + bh * Tq * d, K + ((long)b * Hkv + kv) * Tk * d,
                         Tq, Tk, d);
        }
    return LAB_OK;
}

int lab_head_average(float *A, float *M, float *gap, const float *S,
                     int B, int H, int Tq, int Tk)
{
    if (!A || !M || !gap || !S || B < 1 || H < 1 || Tq < 1 || Tk < 1) return LAB_BAD_ARG;
    float *w = malloc((size_t)Tk * sizeof(float));
    if (!w) return LAB_BAD_ARG;
    for (int b = 0; b < B; b++)
        for (int i = 0; i < Tq; i++) {
            float *a = A + ((long)b * Tq + i) * Tk, *m = M + ((long)b * Tq + i) * Tk;
            memset(a, 0, (size_t)Tk * sizeof(float));
            memset(m, 0, (size_t)Tk * sizeof(float));
            for (int h = 0; h < H; h++) {
                const float *s = S + (((long)b * H + h) * Tq + i) * Tk;
                memcpy(w, s, (size_t)Tk * sizeof(float));
                softmax_row(w, Tk);
                for (int j = 0; j < Tk; j++) a[j] += w[j] / (float)H;  // average the weights
                for (int j = 0; j < Tk; j++) m[j] += s[j] / (float)H;  // average the scores ...
            }
            softmax_row(m, Tk);  // ... then one softmax of the mean
            float *g = gap + ((long)b * Tq + i) * 2;
            g[0] = 0.0f;
            for (int j = 0; j < Tk; j++) g[0] = fmaxf(g[0], fabsf(a[j] - m[j]));
            g[1] = (float)(entropy(a, Tk) - entropy(m, Tk));
        }
    free(w);
    return LAB_OK;
}

int lab_extract_head(float *Wh, const float *W, int B, int H, int Tq, int Tk,
                     int b, int h)
{
    if (!Wh || !W || B < 1 || H < 1 || Tq < 1 || Tk < 1) return LAB_BAD_ARG;
    if (b < 0 || b >= B || h < 0 || h >= H) return LAB_BAD_ARG;
    const float *w = W + ((long)b * H + h) * Tq * Tk;  // plane (b, h)
    for (int i = 0; i < Tq; i++)
        for (int j = 0; j < Tk; j++) Wh[(long)i * Tk + j] = w[(long)i * Tk + j];
    return LAB_OK;
}
