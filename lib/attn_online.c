/* attn_online.c: attention without the (Tq, Tk) matrix, by online softmax.
 *
 *   B = batch   Tq = queries   Tk = keys   d = query/key size   dv = value size
 *   Q (B, Tq, d)   K (B, Tk, d)   V (B, Tk, dv)   O (B, Tq, dv)
 *
 * The idea (Milakov & Gimelshein 2018; FlashAttention, Dao et al. 2022):
 * softmax needs the row max and the row sum before any weight is known, but
 * both can be kept as running values. After seeing some keys we hold
 *     m = max of the scores so far
 *     l = sum_j exp(s_j - m)            over the keys so far
 *     a = sum_j exp(s_j - m) V[j]       (a vector of dv)
 * and the answer is O = a / l. When a new tile of keys raises the max from m
 * to m', everything summed so far was relative to the old max, so l and a are
 * multiplied by exp(m - m') (<= 1) before the new terms are added. At the end
 * the result equals softmax(S) V exactly in real arithmetic, yet only one
 * tile of scores ever exists: the weights themselves are never stored, and
 * cannot be read back.
 *
 * Masking: a masked key contributes exp(-inf) = 0 to both l and a, so instead
 * of writing -inf and then adding zeros, a query simply stops at the last key
 * it may see: min(Tk, lengths[b]) with key padding, and also i + 1 with the
 * causal mask. A query with no key to see has l = 0: its output is zero and
 * it is counted, as in attn_softmax.
 *
 * Two versions with one contract:
 *   attn_online_attention  the readable reference: one query at a time, one
 *                          tile of keys at a time, in double;
 *   attn_fused_attention   the fast path: a block of queries against a tile
 *                          of keys, in float, loops shaped for vectorisation.
 * Both are tested against attn_forward (the full-matrix reference).
 */
#include <math.h>
#include <stdlib.h>

#include "attn.h"

/* Number of keys query i may see: the padding length, then the causal limit. */
static int visible_keys(int i, int Tk, int causal, const int *lengths, int b)
{
    int n = Tk;
    if (lengths != NULL && lengths[b] < n) n = lengths[b] < 0 ? 0 : lengths[b];
    if (causal && i + 1 < n) n = i + 1;
    return n;
}

/* ------------------------------------------------------------------ */
/* Reference: one query, one key tile at a time.                        */
/* ------------------------------------------------------------------ */

long attn_online_attention(float *O, const float *Q, const float *K, const float *V,
                           int B, int Tq, int Tk, int d, int dv, int tile,
                           int causal, const int *lengths)
{
    if (tile < 1 || B < 0 || Tq < 0 || Tk < 0 || d < 0 || dv < 0) return -1;
    float *s = malloc((size_t)tile * sizeof *s);                  /* (tile) scores */
    double *acc = malloc((size_t)(dv > 0 ? dv : 1) * sizeof *acc); /* (dv) running a */
    if (s == NULL || acc == NULL) {
        free(s);
        free(acc);
        return -1;
    }
    /* The same scores as attn_scaled_dot_scores: double dot, scaled, rounded. */
    double scale = d > 0 ? 1.0 / sqrt((double)d) : 1.0;
    long fully_masked = 0;

    for (int b = 0; b < B; b++) {
        for (int i = 0; i < Tq; i++) {
            const float *q = Q + ((long)b * Tq + i) * d;
            float *o = O + ((long)b * Tq + i) * dv;
            int nkeys = visible_keys(i, Tk, causal, lengths, b);

            double m = -HUGE_VAL;      /* running max (HUGE_VAL: the double infinity) */
            double l = 0.0;            /* running sum of exp(s - m) */
            for (int c = 0; c < dv; c++) acc[c] = 0.0;

            for (int j0 = 0; j0 < nkeys; j0 += tile) {
                int nt = nkeys - j0 < tile ? nkeys - j0 : tile;

                /* pass 1: this tile's scores and their max (NaN wins, so a NaN
                   score spreads through m, l and a to the whole output row) */
                double tile_max = -HUGE_VAL;
                for (int t = 0; t < nt; t++) {
                    const float *k = K + ((long)b * Tk + j0 + t) * d;
                    double dot = 0.0;
                    for (int c = 0; c < d; c++) dot += (double)q[c] * (double)k[c];
                    s[t] = (float)(dot * scale);
                    if (isnan(s[t]) || (double)s[t] > tile_max) tile_max = (double)s[t];
                }
                double m_new = isnan(m) || isnan(tile_max) ? (double)NAN
                             : (tile_max > m ? tile_max : m);
                if (m_new == -HUGE_VAL) continue;   /* every score so far is -inf */

                /* pass 2: rescale what was summed relative to the old max
                   (exp(-inf) = 0 on the first tile), then add this tile */
                double alpha = exp(m - m_new);
                l *= alpha;
                for (int c = 0; c < dv; c++) acc[c] *= alpha;
                for (int t = 0; t < nt; t++) {
                    double p = exp((double)s[t] - m_new);
                    const float *v = V + ((long)b * Tk + j0 + t) * dv;
                    l += p;
                    for (int c = 0; c < dv; c++) acc[c] += p * (double)v[c];
                }
                m = m_new;
            }

            /* O = a / l; no visible key (l = 0) gives a zero row, counted */
            if (l == 0.0) {
                for (int c = 0; c < dv; c++) o[c] = 0.0f;
                fully_masked++;
            } else {
                for (int c = 0; c < dv; c++) o[c] = (float)(acc[c] / l);
            }
        }
    }
    free(s);
    free(acc);
    return fully_masked;
}

/* ------------------------------------------------------------------ */
/* Fast path: query blocks x key tiles, fused, in float.                */
/* ------------------------------------------------------------------ */

/* Block shape: FQ query rows against a tile of FK keys. The (FQ, FK) score
   tile lives on the stack (2 KiB) and a packed key tile is 256 d bytes, both
   at home in L1. FK and FC are compile-time constants and multiples of the
   vector width, so the inner loops have fixed trip counts the compiler turns
   into whole vectors, with no scalar tail. */
#define FQ 8
#define FK 64
/* Keys (in the score loop) or value channels (in the output update) handled
   per vectorised chunk. */
#define FC 16

/* acc[c] = acc[c] * alpha for c < n; fixed-width chunks then a tail. */
static void scale_row(float *restrict acc, float alpha, int n)
{
    int c = 0;
    for (; c + FC <= n; c += FC)
        for (int cc = 0; cc < FC; cc++) acc[c + cc] *= alpha;
    for (; c < n; c++) acc[c] *= alpha;
}

/* acc[c] += p * v[c] for c < n; fixed-width chunks then a tail. */
static void axpy_row(float *restrict acc, float p, const float *restrict v, int n)
{
    int c = 0;
    for (; c + FC <= n; c += FC)
        for (int cc = 0; cc < FC; cc++) acc[c + cc] += p * v[c + cc];
    for (; c < n; c++) acc[c] += p * v[c];
}

long attn_fused_attention(float *O, const float *Q, const float *K, const float *V,
                          int B, int Tq, int Tk, int d, int dv,
                          int causal, const int *lengths)
{
    if (B < 0 || Tq < 0 || Tk < 0 || d < 0 || dv < 0) return -1;

    /* Work space, none of it (Tq, Tk):
         kt   K of one batch entry, packed tile by tile: for each tile of FK
              keys a contiguous (d, FK) block, channel-major, zero past Tk
              (Tk_pad is Tk rounded up to FK). The score loop then reads FC
              consecutive keys of one channel with one load, walks the tile's
              block in order, and never reads past the end
         qs   FQ query rows, pre-multiplied by 1/sqrt(d), (FQ, d)
         acc  FQ running output rows, (FQ, dv) */
    long Tk_pad = ((long)Tk + FK - 1) / FK * FK;
    float *kt = calloc((size_t)(d > 0 && Tk_pad > 0 ? (long)d * Tk_pad : 1), sizeof *kt);
    float *qs = malloc((size_t)FQ * (size_t)(d > 0 ? d : 1) * sizeof *qs);
    float *acc = malloc((size_t)FQ * (size_t)(dv > 0 ? dv : 1) * sizeof *acc);
    if (kt == NULL || qs == NULL || acc == NULL) {
        free(kt);
        free(qs);
        free(acc);
        return -1;
    }
    float scale = d > 0 ? (float)(1.0 / sqrt((double)d)) : 1.0f;
    long fully_masked = 0;

    for (int b = 0; b < B; b++) {
        const float *k_b = K + (long)b * Tk * d;   /* (Tk, d) */
        const float *v_b = V + (long)b * Tk * dv;  /* (Tk, dv) */
        for (int j = 0; j < Tk; j++)
            for (int c = 0; c < d; c++)
                kt[(long)(j / FK) * FK * d + (long)c * FK + j % FK] = k_b[(long)j * d + c];

        for (int i0 = 0; i0 < Tq; i0 += FQ) {
            int nq = Tq - i0 < FQ ? Tq - i0 : FQ;
            float m[FQ], l[FQ];           /* running max and sum per query row */
            int nkeys[FQ];                /* keys each row may see */
            int block_keys = 0;           /* keys any row of the block may see */
            for (int r = 0; r < nq; r++) {
                const float *q = Q + ((long)b * Tq + i0 + r) * d;
                for (int c = 0; c < d; c++) qs[r * d + c] = q[c] * scale;
                for (int c = 0; c < dv; c++) acc[r * dv + c] = 0.0f;
                m[r] = -INFINITY;
                l[r] = 0.0f;
                nkeys[r] = visible_keys(i0 + r, Tk, causal, lengths, b);
                if (nkeys[r] > block_keys) block_keys = nkeys[r];
            }

            for (int j0 = 0; j0 < block_keys; j0 += FK) {
                /* scores: s[r][t] = qs[r] . K[j0 + t] for all FK keys of the
                   tile (zero keys past Tk). FC consecutive keys are summed at
                   once in a small array the compiler keeps in vector
                   registers, channel by channel, so each step is one load of
                   FC key values and FC multiply-adds. */
                float s[FQ][FK];
                for (int r = 0; r < nq; r++) {
                    const float *q = qs + r * d;
                    for (int t0 = 0; t0 < FK; t0 += FC) {
                        float sum[FC] = {0};
                        const float *ktc = kt + (long)j0 * d + t0;  /* tile j0/FK, key t0 */
                        for (int c = 0; c < d; c++, ktc += FK) {
#pragma GCC unroll 16
                            for (int t = 0; t < FC; t++) sum[t] += q[c] * ktc[t];
                        }
                        for (int t = 0; t < FC; t++) s[r][t0 + t] = sum[t];
                    }
                }

                for (int r = 0; r < nq; r++) {
                    float *sr = s[r];
                    float *a = acc + r * dv;
                    /* keys this row may not see: past its limit (padding,
                       causal, or past Tk) */
                    int nt = nkeys[r] - j0;
                    if (nt <= 0) continue;
                    if (nt > FK) nt = FK;

                    /* running max over the visible part of the tile (NaN wins) */
                    float mt = m[r];
                    for (int t = 0; t < nt; t++)
                        if (sr[t] > mt || isnan(sr[t])) mt = sr[t];
                    if (isnan(m[r])) mt = m[r];
                    if (mt == -INFINITY) continue;

                    /* rescale the old sum and accumulator to the new max */
                    if (mt != m[r]) {
                        float alpha = expf(m[r] - mt);     /* 0 on the first tile */
                        l[r] *= alpha;
                        scale_row(a, alpha, dv);
                        m[r] = mt;
                    }
                    /* add this tile: p_t = exp(s_t - m), a += p_t V[j0 + t] */
                    float lsum = 0.0f;
                    for (int t = 0; t < nt; t++) {
                        float p = expf(sr[t] - mt);
                        lsum += p;
                        axpy_row(a, p, v_b + (long)(j0 + t) * dv, dv);
                    }
                    l[r] += lsum;
                }
            }

            for (int r = 0; r < nq; r++) {
                float *o = O + ((long)b * Tq + i0 + r) * dv;
                const float *a = acc + r * dv;
                if (l[r] == 0.0f) {
                    for (int c = 0; c < dv; c++) o[c] = 0.0f;
                    fully_masked++;
                } else {
                    float inv = 1.0f / l[r];
                    for (int c = 0; c < dv; c++) o[c] = a[c] * inv;
                }
            }
        }
    }
    free(kt);
    free(qs);
    free(acc);
    return fully_masked;
}
