/*
 * MUTANT (t5_sign): T5 buckets of i - j (query minus key).
 * lab06.c: position biases on scores, dropout on weights.   (14 points)
 * The reference solution with ONE planted mistake, graded by `attnlab validate`
 * to prove the grader names it.
 *
 * Dimensions: B batch * heads (heads fastest, h = b % H), H heads, Tq queries,
 * Tk keys, dv value size. All arrays are row-major float32.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "lab06.h"

/* Slope of head k (0-based) in a model with n heads, n a power of two:
   2^(-8 (k + 1) / n). There is no pow in the allowed calls; 2^x = e^(x ln 2). */
static float power_of_two_slope(int k, int n)
{
    double x = -8.0 * (k + 1) / n;
    return (float)exp(x * log(2.0));
}

int lab_alibi_slopes(float *slopes, int H)
{
    if (!slopes || H < 1) return LAB_BAD_ARG;
    // P = the largest power of two <= H
    int P = 1;
    while (P * 2 <= H) P *= 2;
    // the geometric sequence of P heads: 2^(-8/P), 2^(-16/P), ..., 2^-8
    for (int h = 0; h < P; h++) slopes[h] = power_of_two_slope(h, P);
    // H not a power of two: the rest are the slopes of 2P heads taken at the
    // even indices 0, 2, 4, ..., which fall between the ones above
    for (int t = 0; t < H - P; t++) slopes[P + t] = power_of_two_slope(2 * t, 2 * P);
    return LAB_OK;
}

int lab_alibi_bias(float *S, int B, int H, int Tq, int Tk)
{
    if (!S || B < 1 || H < 1 || Tq < 1 || Tk < 1 || B % H != 0) return LAB_BAD_ARG;
    float *m = malloc((size_t)H * sizeof(float));
    if (!m) return LAB_BAD_ARG;
    lab_alibi_slopes(m, H);
    for (int b = 0; b < B; b++) {
        int h = b % H;  // heads are the fastest-moving part of the batch index
        for (int i = 0; i < Tq; i++) {
            float *s = S + ((long)b * Tq + i) * Tk;
            // a linear penalty in the distance: key j is (j - i) positions
            // from query i, so keys in the past (j < i) lose m_h per step
            for (int j = 0; j < Tk; j++) s[j] += m[h] * (float)(j - i);
        }
    }
    free(m);
    return LAB_OK;
}

/* True when the bucket settings leave at least one exact bucket and a
   logarithmic range to spread over. */
static int bucket_settings_ok(int bidirectional, int num_buckets, int max_distance)
{
    int nb = bidirectional ? num_buckets / 2 : num_buckets;
    if (nb < 2) return 0;
    return max_distance > nb / 2;
}

/* T5's relative_position_bucket for one rel = key position - query position. */
static int t5_bucket(int rel, int bidirectional, int num_buckets, int max_distance)
{
    int nb = num_buckets, base = 0, n;
    if (bidirectional) {
        // half the buckets for keys ahead of the query, half for keys behind
        nb = num_buckets / 2;
        if (rel > 0) base = nb;
        n = rel < 0 ? -rel : rel;
    } else {
        // only the past counts; every key ahead shares bucket 0
        n = rel < 0 ? -rel : 0;
    }
    // near distances: one bucket each
    int max_exact = nb / 2;
    if (n < max_exact) return base + n;
    // far distances: buckets grow logarithmically up to max_distance, then
    // clamp. In float32, exactly as the contract (and T5's code) writes it:
    // the truncation to int must land on the same side of every boundary.
    float ratio = logf((float)n / (float)max_exact)
                / (float)log((double)max_distance / max_exact);
    int large = max_exact + (int)(ratio * (float)(nb - max_exact));
    if (large > nb - 1) large = nb - 1;
    return base + large;
}

int lab_t5_bucket(int *bucket, const int *rel, int n, int bidirectional,
                  int num_buckets, int max_distance)
{
    if (n < 0 || (n > 0 && (!bucket || !rel))) return LAB_BAD_ARG;
    if (!bucket_settings_ok(bidirectional, num_buckets, max_distance)) return LAB_BAD_ARG;
    for (int k = 0; k < n; k++)
        bucket[k] = t5_bucket(-rel[k], bidirectional, num_buckets, max_distance);
    return LAB_OK;
}

int lab_relpos_bias(float *S, const float *table, int B, int H, int Tq, int Tk,
                    int bidirectional, int num_buckets, int max_distance)
{
    if (!S || !table || B < 1 || H < 1 || Tq < 1 || Tk < 1 || B % H != 0) return LAB_BAD_ARG;
    if (!bucket_settings_ok(bidirectional, num_buckets, max_distance)) return LAB_BAD_ARG;
    for (int b = 0; b < B; b++) {
        const float *row = table + (long)(b % H) * num_buckets;  // this head's biases
        for (int i = 0; i < Tq; i++) {
            float *s = S + ((long)b * Tq + i) * Tk;
            for (int j = 0; j < Tk; j++)
                s[j] += row[t5_bucket(i - j, bidirectional, num_buckets, max_distance)];
        }
    }
    return LAB_OK;
}

int lab_dropout(float *W, float p, uint64_t seed, long n)
{
    // written so that a NaN p fails the check too
    if (!(p >= 0.0f && p < 1.0f) || n < 0 || (n > 0 && !W)) return LAB_BAD_ARG;
    sup_rng r;
    sup_rng_seed(&r, seed);
    for (long k = 0; k < n; k++) {
        // one draw per weight, always, so the same seed drops the same links
        float u = sup_rng_uniform(&r);
        // inverted dropout: survivors are scaled up by 1/(1-p) so that the
        // expected weight, (1-p) * W/(1-p) + p * 0 = W, does not change
        W[k] = (u < p) ? 0.0f : W[k] / (1.0f - p);
    }
    return LAB_OK;
}

int lab_attention_output(float *O, const float *W, const float *V,
                         int B, int Tq, int Tk, int dv)
{
    if (!O || !W || !V || B < 1 || Tq < 1 || Tk < 1 || dv < 1) return LAB_BAD_ARG;
    for (int b = 0; b < B; b++) {
        for (int i = 0; i < Tq; i++) {
            const float *w = W + ((long)b * Tq + i) * Tk;
            float *o = O + ((long)b * Tq + i) * dv;
            for (int c = 0; c < dv; c++) o[c] = 0.0f;
            // each output row mixes the value rows with the weights as coefficients
            for (int j = 0; j < Tk; j++) {
                const float *v = V + ((long)b * Tk + j) * dv;
                for (int c = 0; c < dv; c++) o[c] += w[j] * v[c];
            }
        }
    }
    return LAB_OK;
}
