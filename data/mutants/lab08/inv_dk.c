/*
 * MUTANT (inv_dk): the experiment scales scores by 1/d instead of 1/sqrt(d).
 * lab08.c: the gradient through softmax.                    (10 points)
 * The reference solution with ONE planted mistake, graded by `attnlab validate`
 * to prove the grader names it.
 *
 * Dimensions: rows x n for the backward pass; in the experiment T keys of size
 * d. All arrays are row-major float32.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "lab08.h"

int lab_softmax_backward(float *dS, const float *W, const float *dW, int rows, int n)
{
    if (!dS || !W || !dW || rows < 1 || n < 1) return LAB_BAD_ARG;
    for (int r = 0; r < rows; r++) {
        const float *w = W + (long)r * n;
        const float *g = dW + (long)r * n;
        float *ds = dS + (long)r * n;  // may be the same memory as g
        // pass 1: <w, g>, the weighted average of the upstream gradient.
        // It must be complete before pass 2 overwrites g when dS == dW.
        float wg = 0.0f;
        for (int j = 0; j < n; j++) wg += w[j] * g[j];
        // pass 2: the softmax Jacobian is dw_j/ds_k = w_j (1[j = k] - w_k), so
        // dL/ds_j = w_j (g_j - <w, g>): each key's gradient is its own weight
        // times how far its upstream gradient is above the weighted average
        for (int j = 0; j < n; j++) ds[j] = w[j] * (g[j] - wg);
    }
    return LAB_OK;
}

/* Softmax of one row of n scores into w (subtract the max for stability). */
static void softmax_row(float *w, const float *s, int n)
{
    float maxval = s[0];
    for (int j = 1; j < n; j++) if (s[j] > maxval) maxval = s[j];
    float sum = 0.0f;
    for (int j = 0; j < n; j++) {
        w[j] = expf(s[j] - maxval);
        sum += w[j];
    }
    for (int j = 0; j < n; j++) w[j] /= sum;
}

/* ||ds||_2 for the softmax of scores s (n entries) and upstream gradient g.
   w and ds are scratch rows of n floats. */
static float gradient_norm(float *w, float *ds, const float *s, const float *g, int n)
{
    softmax_row(w, s, n);
    lab_softmax_backward(ds, w, g, 1, n);
    float sq = 0.0f;
    for (int j = 0; j < n; j++) sq += ds[j] * ds[j];
    return sqrtf(sq);
}

int lab_gradient_experiment(float *g_raw, float *g_scaled, const int *dks, int n_dk,
                            int T, int trials, uint64_t seed)
{
    if (!g_raw || !g_scaled || !dks || n_dk < 1 || T < 1 || trials < 1) return LAB_BAD_ARG;
    int d_max = 0;
    for (int m = 0; m < n_dk; m++) {
        if (dks[m] < 1) return LAB_BAD_ARG;
        if (dks[m] > d_max) d_max = dks[m];
    }

    float *q = malloc((size_t)d_max * sizeof(float));          // (d)
    float *K = malloc((size_t)T * d_max * sizeof(float));      // (T, d)
    float *g = malloc((size_t)T * sizeof(float));              // (T) upstream gradient
    float *raw = malloc((size_t)T * sizeof(float));            // (T) raw scores
    float *scaled = malloc((size_t)T * sizeof(float));         // (T) scaled scores
    float *w = malloc((size_t)T * sizeof(float));              // (T) scratch weights
    float *ds = malloc((size_t)T * sizeof(float));             // (T) scratch gradient
    int rc = LAB_OK;
    if (!q || !K || !g || !raw || !scaled || !w || !ds) {
        rc = LAB_BAD_ARG;  // too large to allocate
        goto done;
    }

    sup_rng r;
    sup_rng_seed(&r, seed);  // once: every d continues the same stream
    for (int m = 0; m < n_dk; m++) {
        int d = dks[m];
        float scale = 1.0f / (float)d;
        float sum_raw = 0.0f, sum_scaled = 0.0f;
        for (int trial = 0; trial < trials; trial++) {
            // the draws, in the order the contract fixes: q, K, g
            sup_rng_fill_normal(&r, q, d);
            sup_rng_fill_normal(&r, K, (long)T * d);
            sup_rng_fill_normal(&r, g, T);
            // q . k has variance d for unit-variance components: raw scores
            // spread like sqrt(d), scaled ones stay near unit variance
            for (int j = 0; j < T; j++) {
                float dot = 0.0f;
                for (int c = 0; c < d; c++) dot += q[c] * K[(long)j * d + c];
                raw[j] = dot;
                scaled[j] = dot * scale;
            }
            sum_raw += gradient_norm(w, ds, raw, g, T);
            sum_scaled += gradient_norm(w, ds, scaled, g, T);
        }
        g_raw[m] = sum_raw / (float)trials;
        g_scaled[m] = sum_scaled / (float)trials;
    }

done:
    free(q); free(K); free(g); free(raw); free(scaled); free(w); free(ds);
    return rc;
}
