/* attn_heads.c: attention with heads, and what one can (and cannot) plot of it.
 *
 * Every head has its own weights: softmax runs per head, over the key axis.
 * Averaging those weights over the heads gives a valid distribution, but not
 * the one softmax makes of the heads' averaged scores; this file computes both
 * and the gap between them. Grouped-query attention shares one key/value head
 * among H / Hkv query heads, and a heatmap shows one head of one batch entry.
 *
 *   B = batch   H = query heads   Hkv = key/value heads   Tq = queries
 *   Tk = keys   d = query/key size
 *   Q is (B, H, Tq, d), K is (B, Hkv, Tk, d), W and S are (B, H, Tq, Tk),
 *   averaged weights are (B, Tq, Tk), one head is (Tq, Tk); all row-major.
 */
#include <math.h>

#include "attn.h"

int attn_gqa_kv_head(int h, int H, int Hkv)
{
    if (H < 1 || Hkv < 1 || H % Hkv != 0 || h < 0 || h >= H) return -1;
    /* Query heads come in Hkv consecutive groups of H / Hkv, each group reading
       one kv head: heads 0 .. H/Hkv - 1 read kv head 0, and so on. (h % Hkv
       would deal the heads out round-robin instead, which is right only when
       Hkv == 1 or Hkv == H.) */
    return h / (H / Hkv);
}

int attn_head_weights(float *W, const float *Q, const float *K,
                      int B, int H, int Hkv, int Tq, int Tk, int d)
{
    if (B < 1 || H < 1 || Hkv < 1 || H % Hkv != 0 || Tq < 1 || Tk < 1 || d < 1) return -1;
    for (int b = 0; b < B; b++) {
        for (int h = 0; h < H; h++) {
            int kv = attn_gqa_kv_head(h, H, Hkv);
            const float *q = Q + ((long)b * H + h) * Tq * d;     /* (Tq, d) */
            const float *k = K + ((long)b * Hkv + kv) * Tk * d;  /* (Tk, d) */
            float *w = W + ((long)b * H + h) * Tq * Tk;          /* (Tq, Tk) */
            /* one head is ordinary attention: scaled scores, then softmax over
               each row, i.e. over this head's keys and nothing else */
            attn_scaled_dot_scores(w, q, k, 1, Tq, Tk, d);
            attn_softmax(w, w, Tq, Tk);
        }
    }
    return 0;
}

void attn_head_mean_weights(float *A, const float *W, int B, int H, int Tq, int Tk)
{
    /* A convex combination of distributions is a distribution: every A row is
       non-negative and sums to 1, whatever the heads did. */
    long plane = (long)Tq * Tk;
    for (int b = 0; b < B; b++) {
        for (long n = 0; n < plane; n++) {
            double sum = 0.0;
            for (int h = 0; h < H; h++) sum += (double)W[((long)b * H + h) * plane + n];
            A[(long)b * plane + n] = (float)(sum / H);
        }
    }
}

long attn_softmax_of_mean_scores(float *M, const float *S, int B, int H, int Tq, int Tk)
{
    /* The mean score first (in double), then one softmax: a key masked (-inf)
       in any head is masked in the mean. */
    long plane = (long)Tq * Tk;
    for (int b = 0; b < B; b++) {
        for (long n = 0; n < plane; n++) {
            double sum = 0.0;
            for (int h = 0; h < H; h++) sum += (double)S[((long)b * H + h) * plane + n];
            M[(long)b * plane + n] = (float)(sum / H);
        }
    }
    return attn_softmax(M, M, (long)B * Tq, Tk);
}

void attn_weight_gap(float *max_abs, float *dH, const float *A, const float *M,
                     long rows, int n)
{
    for (long r = 0; r < rows; r++) {
        const float *a = A + r * n, *m = M + r * n;
        double gap = 0.0;
        for (int j = 0; j < n && !isnan(gap); j++) {
            double diff = fabs((double)a[j] - (double)m[j]);
            if (isnan(diff) || diff > gap) gap = diff;  /* NaN propagates */
        }
        max_abs[r] = (float)gap;
        /* H(A) - H(M) in nats: > 0 when the averaged weights are the flatter
           of the two, < 0 when they are the sharper */
        float hA, hM;
        attn_entropy_rows(&hA, a, 1, n);
        attn_entropy_rows(&hM, m, 1, n);
        dH[r] = hA - hM;
    }
}

int attn_extract_head(float *Wh, const float *W, int B, int H, int Tq, int Tk, int b, int h)
{
    if (B < 1 || H < 1 || Tq < 1 || Tk < 1 || b < 0 || b >= B || h < 0 || h >= H) return -1;
    /* batch slowest, then head: (b, h) is plane b * H + h of Tq * Tk weights,
       already row i = query i, column j = key j, as a heatmap wants it */
    const float *w = W + ((long)b * H + h) * Tq * Tk;
    for (long n = 0; n < (long)Tq * Tk; n++) Wh[n] = w[n];
    return 0;
}
