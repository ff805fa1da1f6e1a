/* attn_weight_edits.c: what changes WEIGHTS, after softmax.
 *
 * Attention dropout belongs here: it drops mixing links between a query and a
 * key, which only makes sense once the scores have become mixing coefficients.
 * Post-softmax masking is here too, as the course's counter-example: zeroing
 * weights after normalisation leaves rows summing to less than 1, by an amount
 * that depends on how much padding the batch has.
 *
 *   B = batch   Tq = queries   Tk = keys   W is (B, Tq, Tk), edited in place.
 */
#include "attn.h"

int attn_dropout(float *W, float p, uint64_t seed, long n)
{
    /* Check p before touching W: !(p >= 0) also rejects NaN. */
    if (!(p >= 0.0f) || !(p < 1.0f)) return -1;
    /* Inverted dropout: a kept weight is divided by the keep probability 1 - p,
       so the expected weight, (1 - p) * w / (1 - p) + p * 0 = w, is unchanged
       and nothing needs rescaling at inference time, when dropout is off.
       One uniform is drawn per weight, in index order, whatever p is, so the
       mask for a seed depends only on p and n. */
    float keep = 1.0f - p;
    attn_rng rng;
    attn_rng_seed(&rng, seed);
    for (long idx = 0; idx < n; idx++) {
        float u = attn_rng_uniform(&rng);
        W[idx] = u < p ? 0.0f : W[idx] / keep;
    }
    return 0;
}

void attn_postmask(float *W, const int *lengths, int B, int Tq, int Tk)
{
    /* The bug: the padded keys already took their share of the mass inside
       softmax, and zeroing them afterwards does not give it back. */
    for (int b = 0; b < B; b++) {
        int first_pad = lengths[b] < 0 ? 0 : lengths[b];
        for (int i = 0; i < Tq; i++) {
            float *w = W + ((long)b * Tq + i) * Tk;
            for (int j = first_pad; j < Tk; j++) w[j] = 0.0f;
        }
    }
}

void attn_postmask_renorm(float *W, const int *lengths, int B, int Tq, int Tk)
{
    /* Zero, then divide by what is left: mathematically the same weights as
       masking the scores before softmax (the common factor cancels), but it
       pays for a softmax over the padding and can lose precision when the
       padding held most of the mass. Masking scores is the right place. */
    attn_postmask(W, lengths, B, Tq, Tk);
    for (long r = 0; r < (long)B * Tq; r++) {
        float *w = W + r * Tk;
        double sum = 0.0;
        for (int j = 0; j < Tk; j++) sum += (double)w[j];
        if (sum == 0.0) continue;             /* nothing left: stays all zeros */
        for (int j = 0; j < Tk; j++) w[j] = (float)((double)w[j] / sum);
    }
}
