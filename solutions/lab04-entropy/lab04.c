/*
 * lab04.c: experiment, entropy of attention weights versus d_k,
 * a complete solution.                                      (12 points)
 *
 * Dimensions: T = number of keys, d = query/key size (d_k).
 * One trial: a query q (d), keys K (T, d), scores s (T), weights w (T).
 */
#include <math.h>
#include <stdlib.h>

#include "lab04.h"

/* Entropy of one row of n weights, in nats, summed in double. A weight of 0
   adds nothing: w log w -> 0 as w -> 0, and log(0) itself would be -inf, so
   0 * log(0) would be NaN. Zeros are not only masked keys: in float32 a score
   about 104 below its row's max underflows to 0, and about half of the raw
   rows at d = 512 hold one. */
static double entropy(const float *w, int n)
{
    double H = 0.0;
    for (int j = 0; j < n; j++) {
        if (w[j] > 0.0f) {
            H -= (double)w[j] * log((double)w[j]);
        }
    }
    return H;
}

int lab_row_entropy(float *H, const float *W, int rows, int n)
{
    if (rows < 0 || n < 1) {
        return LAB_BAD_ARG;
    }
    for (int r = 0; r < rows; r++) {
        H[r] = (float)entropy(W + (long)r * n, n);
    }
    return LAB_OK;
}

/* w = softmax(scale * s) over n scores, stable: subtract the max first.
   (scale > 0, so the max of scale * s is scale * max s.) Raw scores at
   d = 512 have a standard deviation near 22.6, and expf overflows above 88. */
static void softmax(float *w, const float *s, int n, float scale)
{
    float maxval = s[0];
    for (int j = 1; j < n; j++) {
        if (s[j] > maxval) {
            maxval = s[j];
        }
    }
    double sum = 0.0;
    for (int j = 0; j < n; j++) {
        w[j] = expf(scale * s[j] - scale * maxval);
        sum += (double)w[j];
    }
    for (int j = 0; j < n; j++) {
        w[j] = (float)((double)w[j] / sum);
    }
}

int lab_entropy_experiment(float *H_raw, float *H_scaled, const int *dks, int n_dk,
                           int T, int trials, uint64_t seed)
{
    // check everything before drawing or writing anything
    if (n_dk < 1 || T < 1 || trials < 1) {
        return LAB_BAD_ARG;
    }
    int dmax = 0;
    for (int m = 0; m < n_dk; m++) {
        if (dks[m] < 1) {
            return LAB_BAD_ARG;
        }
        if (dks[m] > dmax) {
            dmax = dks[m];
        }
    }

    // scratch for the largest d, reused for every d
    float *q = malloc((size_t)dmax * sizeof *q);
    float *K = malloc((size_t)T * (size_t)dmax * sizeof *K);
    float *s = malloc((size_t)T * sizeof *s);
    float *w = malloc((size_t)T * sizeof *w);
    int rc = LAB_BAD_ARG;
    if (q == NULL || K == NULL || s == NULL || w == NULL) {
        goto done;  // one way out: the frees below serve both paths
    }

    // one generator for the whole experiment: the draws for each d continue
    // where the previous d stopped, so one seed fixes every number below
    sup_rng rng;
    sup_rng_seed(&rng, seed);
    for (int m = 0; m < n_dk; m++) {
        int d = dks[m];
        float inv_sqrt_d = 1.0f / sqrtf((float)d);
        double sum_raw = 0.0, sum_scaled = 0.0;
        for (int t = 0; t < trials; t++) {
            // the draw order of the contract: the query first, then the T keys
            sup_rng_fill_normal(&rng, q, d);
            sup_rng_fill_normal(&rng, K, (long)T * d);

            // raw scores: q . k_j, a sum of d unit-variance products, variance d
            for (int j = 0; j < T; j++) {
                const float *k = K + (long)j * d;
                double dot = 0.0;
                for (int c = 0; c < d; c++) {
                    dot += (double)q[c] * (double)k[c];
                }
                s[j] = (float)dot;
            }

            // the same scores, raw and scaled by 1/sqrt(d) (variance back to 1)
            softmax(w, s, T, 1.0f);
            sum_raw += entropy(w, T);
            softmax(w, s, T, inv_sqrt_d);
            sum_scaled += entropy(w, T);
        }
        H_raw[m] = (float)(sum_raw / trials);
        H_scaled[m] = (float)(sum_scaled / trials);
    }
    rc = LAB_OK;

done:
    free(q); free(K); free(s); free(w);
    return rc;
}
