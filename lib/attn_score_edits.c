/* attn_score_edits.c: everything that changes scores before softmax.
 *
 * Masks, temperature and position biases all act on SCORES, never on weights:
 * softmax then turns the edited row into weights that still sum to 1.
 *   - a mask writes -inf, so exp(-inf) = 0 gives a weight of exactly 0 and the
 *     remaining keys share all of the mass;
 *   - temperature divides, like the 1/sqrt(d) scaling, changing how peaked the
 *     row is without changing its order;
 *   - ALiBi and relative position biases add, shifting preferences before
 *     normalisation.
 *
 *   B = batch (or batch * heads, heads fastest)   H = heads
 *   Tq = queries   Tk = keys   S is (B, Tq, Tk), edited in place.
 */
#include <math.h>

#include "attn.h"

void attn_causal_mask(float *S, int B, int Tq, int Tk)
{
    /* Query i may look at keys 0..i only: a key after the query is the future. */
    for (int b = 0; b < B; b++)
        for (int i = 0; i < Tq; i++) {
            float *s = S + ((long)b * Tq + i) * Tk;
            for (int j = i + 1; j < Tk; j++) s[j] = -INFINITY;
        }
}

void attn_padding_mask(float *S, const int *lengths, int B, int Tq, int Tk)
{
    /* Sequence b has lengths[b] real keys; the keys after them are padding.
       A length of 0 (or less) masks the whole row: softmax counts it. */
    for (int b = 0; b < B; b++) {
        int first_pad = lengths[b] < 0 ? 0 : lengths[b];
        for (int i = 0; i < Tq; i++) {
            float *s = S + ((long)b * Tq + i) * Tk;
            for (int j = first_pad; j < Tk; j++) s[j] = -INFINITY;
        }
    }
}

void attn_bool_mask(float *S, const unsigned char *mask, int B, int Tq, int Tk)
{
    long n = (long)B * Tq * Tk;
    for (long idx = 0; idx < n; idx++)
        if (mask[idx]) S[idx] = -INFINITY;
}

int attn_temperature(float *S, float tau, long n)
{
    /* !(tau > 0) also rejects NaN. */
    if (!(tau > 0.0f)) return -1;
    for (long idx = 0; idx < n; idx++) S[idx] /= tau;
    return 0;
}

/* Slopes of the power-of-two rule for P heads: 2^(-8(h+1)/P), h = 0..P-1. */
static double alibi_pow2_slope(int h, int P)
{
    return pow(2.0, -8.0 * (double)(h + 1) / (double)P);
}

void attn_alibi_slopes(float *slopes, int H)
{
    if (H <= 0) return;
    /* P = the largest power of two <= H. */
    int P = 1;
    while (P * 2 <= H) P *= 2;
    /* The first P heads take the power-of-two slopes for P heads... */
    for (int h = 0; h < P; h++) slopes[h] = (float)alibi_pow2_slope(h, P);
    /* ...and the remaining H - P heads take every other slope of 2P heads:
       2P's slopes interleave P's (slope 2k+1 of 2P equals slope k of P), so
       the even-indexed ones are exactly the slopes P does not have yet. */
    for (int h = P; h < H; h++) slopes[h] = (float)alibi_pow2_slope(2 * (h - P), 2 * P);
}

void attn_alibi_bias(float *S, int B, int H, int Tq, int Tk)
{
    /* Score (i, j) gets m_h * (j - i): zero on the diagonal, more negative the
       further key j lies before query i. Unlike a learned position table the
       penalty is linear in distance, which is what lets ALiBi extrapolate to
       sequences longer than those seen in training. Keys after the query
       (j > i) would get a bonus instead: ALiBi is meant to go with a causal
       mask. Head h's slope is recomputed per batch entry, by the same rule as
       attn_alibi_slopes, so no array of H slopes is needed. */
    if (H <= 0) return;
    for (int b = 0; b < B; b++) {
        int h = b % H;
        int P = 1;
        while (P * 2 <= H) P *= 2;
        float m = h < P ? (float)alibi_pow2_slope(h, P)
                        : (float)alibi_pow2_slope(2 * (h - P), 2 * P);
        for (int i = 0; i < Tq; i++) {
            float *s = S + ((long)b * Tq + i) * Tk;
            for (int j = 0; j < Tk; j++) s[j] += m * (float)(j - i);
        }
    }
}

int attn_t5_bucket(int rel, int bidirectional, int num_buckets, int max_distance)
{
    /* T5's relative_position_bucket (Raffel et al. 2020, as in Mesh TensorFlow
       and Hugging Face transformers). rel = key position - query position. */
    if (num_buckets < (bidirectional ? 4 : 2)) return -1;
    int bucket = 0;
    long n;                              /* distance, >= 0 (long: |INT_MIN| fits) */
    if (bidirectional) {
        /* Half the buckets for keys after the query, half for the rest. */
        num_buckets /= 2;
        if (rel > 0) bucket += num_buckets;
        n = rel < 0 ? -(long)rel : (long)rel;
    } else {
        /* Causal use: keys after the query all share bucket 0. */
        n = rel < 0 ? -(long)rel : 0;
    }
    /* The first half of the buckets hold distances 0, 1, ..., max_exact - 1
       exactly; the other half cover max_exact .. max_distance on a log scale,
       and everything at or beyond max_distance shares the last bucket. */
    int max_exact = num_buckets / 2;
    if (n < max_exact) return bucket + (int)n;
    if (n >= max_distance) return bucket + num_buckets - 1;
    /* In float32, as the published implementations compute it: the truncation
       to int then lands on the same side of every bucket boundary. */
    float ratio = logf((float)n / (float)max_exact)
                / (float)log((double)max_distance / (double)max_exact);
    int large = max_exact + (int)(ratio * (float)(num_buckets - max_exact));
    if (large > num_buckets - 1) large = num_buckets - 1;
    return bucket + large;
}

void attn_relpos_bias(float *S, const float *table, int B, int H, int Tq, int Tk,
                      int bidirectional, int num_buckets, int max_distance)
{
    /* A learned scalar per (head, bucket) added to the score: every pair at the
       same relative distance (same bucket) gets the same shift. */
    if (H <= 0 || attn_t5_bucket(0, bidirectional, num_buckets, max_distance) < 0) return;
    for (int b = 0; b < B; b++) {
        const float *row = table + (long)(b % H) * num_buckets;  /* (num_buckets) */
        for (int i = 0; i < Tq; i++) {
            float *s = S + ((long)b * Tq + i) * Tk;
            for (int j = 0; j < Tk; j++)
                s[j] += row[attn_t5_bucket(j - i, bidirectional, num_buckets, max_distance)];
        }
    }
}
