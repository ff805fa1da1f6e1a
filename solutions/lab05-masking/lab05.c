/*
 * lab05.c: pre-softmax versus post-softmax masking.        (12 points)
 * Reference solution.
 *
 * Dimensions: B batch, Tq queries, Tk keys, dv value size; in the experiment
 * T real keys (and queries) and d key size. All arrays are row-major float32.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "lab05.h"

/* The argument checks both attention functions share. */
static int check_args(const float *O, const float *S, const int *lengths, const float *V,
                      int B, int Tq, int Tk, int dv)
{
    if (!O || !S || !lengths || !V) return 0;
    if (B < 1 || Tq < 1 || Tk < 1 || dv < 1) return 0;
    for (int b = 0; b < B; b++)
        if (lengths[b] < 0 || lengths[b] > Tk) return 0;
    return 1;
}

int lab_attend_premask(float *O, const float *S, const int *lengths, const float *V,
                       int B, int Tq, int Tk, int dv)
{
    if (!check_args(O, S, lengths, V, B, Tq, Tk, dv)) return LAB_BAD_ARG;

    for (int b = 0; b < B; b++) {
        // The mask: only keys j < L are real. Setting the others to -inf and
        // taking exp gives exactly 0, which is the same as never looking at them,
        // so the loops below simply stop at L.
        int L = lengths[b];
        const float *Vb = V + (long)b * Tk * dv;
        for (int i = 0; i < Tq; i++) {
            const float *s = S + ((long)b * Tq + i) * Tk;
            float *o = O + ((long)b * Tq + i) * dv;
            for (int c = 0; c < dv; c++) o[c] = 0.0f;
            if (L == 0) continue;  // no real key: all weights 0, output 0 (never NaN)

            // pass 1: the max over the real keys, for numerical stability only
            float maxval = s[0];
            for (int j = 1; j < L; j++) if (s[j] > maxval) maxval = s[j];
            // pass 2: the normaliser
            float sum = 0.0f;
            for (int j = 0; j < L; j++) sum += expf(s[j] - maxval);
            // pass 3: O = sum_j w_j v_j, each weight w_j = exp(s_j - max) / sum
            for (int j = 0; j < L; j++) {
                float w = expf(s[j] - maxval) / sum;
                const float *v = Vb + (long)j * dv;
                for (int c = 0; c < dv; c++) o[c] += w * v[c];
            }
        }
    }
    return LAB_OK;
}

int lab_attend_postmask(float *O, float *rowsum, const float *S, const int *lengths,
                        const float *V, int B, int Tq, int Tk, int dv)
{
    if (!rowsum || !check_args(O, S, lengths, V, B, Tq, Tk, dv)) return LAB_BAD_ARG;

    for (int b = 0; b < B; b++) {
        int L = lengths[b];
        const float *Vb = V + (long)b * Tk * dv;
        for (int i = 0; i < Tq; i++) {
            const float *s = S + ((long)b * Tq + i) * Tk;
            float *o = O + ((long)b * Tq + i) * dv;
            // softmax over ALL Tk keys: the padding takes its share of the weight
            float maxval = s[0];
            for (int j = 1; j < Tk; j++) if (s[j] > maxval) maxval = s[j];
            float sum = 0.0f;
            for (int j = 0; j < Tk; j++) sum += expf(s[j] - maxval);
            // then zero the padded weights (j >= L) by leaving them out of the
            // output, and nothing is renormalised: the row keeps what is left
            float kept = 0.0f;
            for (int c = 0; c < dv; c++) o[c] = 0.0f;
            for (int j = 0; j < L; j++) {
                float w = expf(s[j] - maxval) / sum;
                kept += w;
                const float *v = Vb + (long)j * dv;
                for (int c = 0; c < dv; c++) o[c] += w * v[c];
            }
            rowsum[(long)b * Tq + i] = kept;
        }
    }
    return LAB_OK;
}

int lab_masking_experiment(float *rowsum, float *drift, const int *pads, int n_pads,
                           int T, int d, uint64_t seed)
{
    if (!rowsum || !drift || !pads || n_pads < 1 || T < 1 || d < 1) return LAB_BAD_ARG;
    int max_pad = 0;
    for (int m = 0; m < n_pads; m++) {
        if (pads[m] < 0) return LAB_BAD_ARG;
        if (pads[m] > max_pad) max_pad = pads[m];
    }
    int Tk_max = T + max_pad;

    // Keys and values are stored with room for the largest padding; for a pad
    // count p only the first T + p rows are used. Row t >= T is a copy of kp / vp.
    float *Q = malloc((size_t)T * d * sizeof(float));
    float *K = malloc((size_t)Tk_max * d * sizeof(float));
    float *V = malloc((size_t)Tk_max * d * sizeof(float));
    float *kp = malloc((size_t)d * sizeof(float));
    float *vp = malloc((size_t)d * sizeof(float));
    float *S = malloc((size_t)T * Tk_max * sizeof(float));
    float *O_pre = malloc((size_t)T * d * sizeof(float));
    float *O_post = malloc((size_t)T * d * sizeof(float));
    float *sums = malloc((size_t)T * sizeof(float));
    int rc = LAB_BAD_ARG;  // too large to allocate, until every block is there
    if (!Q || !K || !V || !kp || !vp || !S || !O_pre || !O_post || !sums) {
        goto done;  // one way out: the frees below serve both paths
    }

    // The draws, in the order the contract fixes: Q, K, V, kp, vp.
    sup_rng r;
    sup_rng_seed(&r, seed);
    sup_rng_fill_normal(&r, Q, (long)T * d);
    sup_rng_fill_normal(&r, K, (long)T * d);
    sup_rng_fill_normal(&r, V, (long)T * d);
    sup_rng_fill_normal(&r, kp, d);
    sup_rng_fill_normal(&r, vp, d);
    for (int t = T; t < Tk_max; t++) {
        memcpy(K + (long)t * d, kp, (size_t)d * sizeof(float));
        memcpy(V + (long)t * d, vp, (size_t)d * sizeof(float));
    }

    int lengths[1] = { T };
    float scale = 1.0f / sqrtf((float)d);
    for (int m = 0; m < n_pads; m++) {
        int Tk = T + pads[m];
        // scaled dot-product scores of the T queries against all Tk keys
        for (int i = 0; i < T; i++) {
            for (int j = 0; j < Tk; j++) {
                float dot = 0.0f;
                for (int c = 0; c < d; c++) dot += Q[(long)i * d + c] * K[(long)j * d + c];
                S[(long)i * Tk + j] = dot * scale;
            }
        }
        // Both calls cannot fail here: the sizes were checked above.
        lab_attend_premask(O_pre, S, lengths, V, 1, T, Tk, d);
        lab_attend_postmask(O_post, sums, S, lengths, V, 1, T, Tk, d);

        float mean = 0.0f, worst = 0.0f;
        for (int i = 0; i < T; i++) mean += sums[i];
        for (long n = 0; n < (long)T * d; n++) {
            float diff = fabsf(O_post[n] - O_pre[n]);
            if (diff > worst) worst = diff;
        }
        rowsum[m] = mean / (float)T;
        drift[m] = worst;
    }
    rc = LAB_OK;

done:
    free(Q); free(K); free(V); free(kp); free(vp);
    free(S); free(O_pre); free(O_post); free(sums);
    return rc;
}
