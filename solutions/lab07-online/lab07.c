/*
 * lab07.c: online softmax, attention tile by tile.          (12 points)
 * Reference solution.
 *
 * Dimensions: B batch, T sequence length (queries = keys = T), d query/key
 * size, dv value size, tile keys read at a time. All arrays row-major float32.
 *
 * The idea in one paragraph: softmax needs the row max and the row sum before
 * any weight is known, but both can be kept as running values. After some keys
 *     m = the max score so far
 *     l = sum_j exp(s_j - m)          over the keys so far
 *     a = sum_j exp(s_j - m) v_j      (dv values)
 * When a new tile raises the max to m', everything summed so far was relative to
 * the old max, so l and a are multiplied by exp(m - m') <= 1 before the new
 * terms are added. At the end O = a / l, exactly softmax(s) V in real
 * arithmetic, yet only one tile of scores ever exists.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "lab07.h"

int lab_online_logsumexp(float *lse, const float *S, int rows, int n, int tile)
{
    if (!lse || !S || rows < 1 || n < 1 || tile < 1) return LAB_BAD_ARG;
    for (int r = 0; r < rows; r++) {
        const float *s = S + (long)r * n;
        float m = -INFINITY;  // running max
        float l = 0.0f;       // running sum of exp(s - m)
        for (int j0 = 0; j0 < n; j0 += tile) {
            int nt = n - j0 < tile ? n - j0 : tile;  // the last tile may be short
            // the tile's max
            float tile_max = -INFINITY;
            for (int t = 0; t < nt; t++)
                if (s[j0 + t] > tile_max) tile_max = s[j0 + t];
            // a tile of -inf adds nothing, and exp(-inf - -inf) would be NaN
            if (tile_max == -INFINITY) continue;
            float m_new = tile_max > m ? tile_max : m;
            // rescale the old sum to the new max (exp(-inf) = 0 on the first tile)
            l *= expf(m - m_new);
            for (int t = 0; t < nt; t++) l += expf(s[j0 + t] - m_new);
            m = m_new;
        }
        // log(sum exp(s)) = m + log(sum exp(s - m)); a fully masked row never
        // moved m off -inf and gets -inf, as log(0) should
        lse[r] = (m == -INFINITY) ? -INFINITY : m + logf(l);
    }
    return LAB_OK;
}

int lab_online_attention(float *O, const float *Q, const float *K, const float *V,
                         int B, int T, int d, int dv, int tile, int causal)
{
    if (!O || !Q || !K || !V || B < 1 || T < 1 || d < 1 || dv < 1 || tile < 1)
        return LAB_BAD_ARG;
    // The only memory we need: one tile of scores and one output accumulator.
    // At T = 4096, d = dv = 64, tile = 64 that is 512 bytes, against 64 MiB for
    // the full T x T score matrix.
    int tile_len = tile < T ? tile : T;
    float *s = malloc((size_t)tile_len * sizeof(float));  // (tile) scores
    float *acc = malloc((size_t)dv * sizeof(float));      // (dv) running output a
    int rc = LAB_BAD_ARG;
    if (!s || !acc) {
        goto done;  // one way out: the frees below serve both paths
    }
    float scale = 1.0f / sqrtf((float)d);

    for (int b = 0; b < B; b++) {
        for (int i = 0; i < T; i++) {
            const float *q = Q + ((long)b * T + i) * d;
            float *o = O + ((long)b * T + i) * dv;
            // causal: keys after the query are masked; exp(-inf) = 0 would add
            // nothing, so the loop simply stops at key i
            int nkeys = causal ? i + 1 : T;

            float m = -INFINITY, l = 0.0f;
            for (int c = 0; c < dv; c++) acc[c] = 0.0f;

            for (int j0 = 0; j0 < nkeys; j0 += tile_len) {
                int nt = nkeys - j0 < tile_len ? nkeys - j0 : tile_len;
                // pass 1: this tile's scaled dot-product scores and their max
                float tile_max = -INFINITY;
                for (int t = 0; t < nt; t++) {
                    const float *k = K + ((long)b * T + j0 + t) * d;
                    float dot = 0.0f;
                    for (int c = 0; c < d; c++) dot += q[c] * k[c];
                    s[t] = dot * scale;
                    if (s[t] > tile_max) tile_max = s[t];
                }
                // pass 2: move the running values to the new max, then add the tile
                float m_new = tile_max > m ? tile_max : m;
                float alpha = expf(m - m_new);  // 0 on the first tile, <= 1 after
                l *= alpha;
                for (int c = 0; c < dv; c++) acc[c] *= alpha;
                for (int t = 0; t < nt; t++) {
                    float p = expf(s[t] - m_new);
                    const float *v = V + ((long)b * T + j0 + t) * dv;
                    l += p;
                    for (int c = 0; c < dv; c++) acc[c] += p * v[c];
                }
                m = m_new;
            }
            // the division by the softmax sum happens once, at the end;
            // l >= 1 here because the key with the max score adds exp(0) = 1
            for (int c = 0; c < dv; c++) o[c] = acc[c] / l;
        }
    }
    rc = LAB_OK;

done:
    free(s);
    free(acc);
    return rc;
}
