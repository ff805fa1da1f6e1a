/* attn_output.c: weights times values, and the whole reference pipeline.
 *
 *   B = batch   Tq = queries   Tk = keys   d = query/key size   dv = value size
 *   Q (B, Tq, d)   K (B, Tk, d)   V (B, Tk, dv)
 *   S, W (B, Tq, Tk)   O (B, Tq, dv)
 *
 * attn_forward is the reference every faster path is checked against: it
 * materialises the whole (Tq, Tk) weight matrix and runs each step the course
 * teaches as its own function, in the order the course teaches them.
 */
#include <stdlib.h>

#include "attn.h"

/* Output channels accumulated at a time (a small double array on the stack). */
#define OUT_CHUNK 64

void attn_output(float *O, const float *W, const float *V, int B, int Tq, int Tk, int dv)
{
    /* O[i] = sum_j W[i][j] V[j]: a convex combination of the value rows, since
       the weights of a row are >= 0 and sum to 1. Each output lies inside the
       range of the values it mixes; a fully masked row (all weights 0) gives a
       zero output.
       Loop order: for each query row, walk the keys and add w * V[j] to an
       accumulator, so V is read row by row (contiguously). The accumulator is
       double, OUT_CHUNK channels at a time. */
    for (int b = 0; b < B; b++) {
        const float *v_b = V + (long)b * Tk * dv;                 /* (Tk, dv) */
        for (int i = 0; i < Tq; i++) {
            const float *w = W + ((long)b * Tq + i) * Tk;         /* (Tk) */
            float *o = O + ((long)b * Tq + i) * dv;               /* (dv) */
            for (int c0 = 0; c0 < dv; c0 += OUT_CHUNK) {
                int nc = dv - c0 < OUT_CHUNK ? dv - c0 : OUT_CHUNK;
                double acc[OUT_CHUNK] = {0};
                for (int j = 0; j < Tk; j++) {
                    const float *v = v_b + (long)j * dv + c0;
                    double wj = (double)w[j];
                    for (int c = 0; c < nc; c++) acc[c] += wj * (double)v[c];
                }
                for (int c = 0; c < nc; c++) o[c0 + c] = (float)acc[c];
            }
        }
    }
}

long attn_forward(float *O, float *W, const float *Q, const float *K, const float *V,
                  int B, int Tq, int Tk, int d, int dv, const attn_config *cfg)
{
    static const attn_config plain = {0};
    if (cfg == NULL) cfg = &plain;

    /* Check the whole config before writing anything. */
    if (B < 0 || Tq < 0 || Tk < 0 || d < 0 || dv < 0) return -1;
    if (!(cfg->temperature >= 0.0f)) return -1;           /* negative or NaN */
    if (!(cfg->dropout_p >= 0.0f) || !(cfg->dropout_p < 1.0f)) return -1;
    if (cfg->alibi_heads < 0 || (cfg->alibi_heads > 0 && B % cfg->alibi_heads != 0))
        return -1;

    long n = (long)B * Tq * Tk;
    float *S = W;                        /* scores become weights in place */
    if (S == NULL) {
        S = malloc((size_t)(n > 0 ? n : 1) * sizeof *S);
        if (S == NULL) return -1;
    }

    /* 1. scores: q.k, or q.k / sqrt(d) */
    if (cfg->scaled) attn_scaled_dot_scores(S, Q, K, B, Tq, Tk, d);
    else attn_dot_scores(S, Q, K, B, Tq, Tk, d);

    /* 2. edits on scores: temperature, position bias, masks */
    if (cfg->temperature > 0.0f && cfg->temperature != 1.0f)
        attn_temperature(S, cfg->temperature, n);
    if (cfg->alibi_heads > 0) attn_alibi_bias(S, B, cfg->alibi_heads, Tq, Tk);
    if (cfg->causal) attn_causal_mask(S, B, Tq, Tk);
    if (cfg->lengths) attn_padding_mask(S, cfg->lengths, B, Tq, Tk);
    if (cfg->mask) attn_bool_mask(S, cfg->mask, B, Tq, Tk);

    /* 3. softmax: scores -> weights, in place */
    long fully_masked = attn_softmax(S, S, (long)B * Tq, Tk);

    /* 4. edits on weights: dropout (p was checked above, so this cannot fail) */
    if (cfg->dropout_p > 0.0f) attn_dropout(S, cfg->dropout_p, cfg->dropout_seed, n);

    /* 5. output = weights x values */
    attn_output(O, S, V, B, Tq, Tk, dv);

    if (W == NULL) free(S);
    return fully_masked;
}
