/* attn_scores.c: the four scoring functions of the course, batched.
 *
 * A score is a raw compatibility between one query and one key: any real
 * number. Nothing here normalises; that is softmax's job (attn_softmax.c).
 *
 *   B  = batch            Tq = queries         Tk = keys
 *   d  = query/key size   dq, dk = sizes when query and key differ (Luong, Bahdanau)
 *   h  = hidden size of the additive (Bahdanau) scorer
 *
 * Q is (B, Tq, d), K is (B, Tk, d), S is (B, Tq, Tk), all row-major.
 *
 * Every sum accumulates in double and is rounded to float once, at the end.
 * With float accumulation a length-d dot product carries a rounding error that
 * grows with d; in double it is below float resolution for any d the course
 * uses, so the answer key is the correctly rounded score (up to one rounding).
 */
#include <math.h>

#include "attn.h"

/* Dot product of two rows of length d, accumulated in double. */
static double dot_row(const float *a, const float *b, int d)
{
    double sum = 0.0;
    for (int c = 0; c < d; c++) sum += (double)a[c] * (double)b[c];
    return sum;
}

void attn_dot_scores(float *S, const float *Q, const float *K,
                     int B, int Tq, int Tk, int d)
{
    for (int b = 0; b < B; b++) {
        for (int i = 0; i < Tq; i++) {
            const float *q = Q + ((long)b * Tq + i) * d;      /* (d) */
            float *s = S + ((long)b * Tq + i) * Tk;           /* (Tk) */
            for (int j = 0; j < Tk; j++) {
                const float *k = K + ((long)b * Tk + j) * d;  /* (d) */
                s[j] = (float)dot_row(q, k, d);
            }
        }
    }
}

void attn_scaled_dot_scores(float *S, const float *Q, const float *K,
                            int B, int Tq, int Tk, int d)
{
    /* q.k is a sum of d products; for unit-variance components its variance is
       d. Dividing by sqrt(d) brings the variance back to 1, which keeps softmax
       out of saturation. The division happens in double, before the one
       rounding to float. */
    double scale = d > 0 ? 1.0 / sqrt((double)d) : 1.0;
    for (int b = 0; b < B; b++) {
        for (int i = 0; i < Tq; i++) {
            const float *q = Q + ((long)b * Tq + i) * d;
            float *s = S + ((long)b * Tq + i) * Tk;
            for (int j = 0; j < Tk; j++) {
                const float *k = K + ((long)b * Tk + j) * d;
                s[j] = (float)(dot_row(q, k, d) * scale);
            }
        }
    }
}

void attn_general_scores(float *S, const float *Q, const float *W, const float *K,
                         int B, int Tq, int Tk, int dq, int dk)
{
    /* Luong's "general" score q^T W k: a learned bilinear form, so queries and
       keys may even have different sizes. Written as the double sum
       sum_a sum_c q[a] W[a][c] k[c]; the inner sum is (W k)[a]. This costs
       dq*dk per pair, plain to read and fine at course sizes. */
    for (int b = 0; b < B; b++) {
        for (int i = 0; i < Tq; i++) {
            const float *q = Q + ((long)b * Tq + i) * dq;     /* (dq) */
            float *s = S + ((long)b * Tq + i) * Tk;
            for (int j = 0; j < Tk; j++) {
                const float *k = K + ((long)b * Tk + j) * dk; /* (dk) */
                double sum = 0.0;
                for (int a = 0; a < dq; a++) {
                    const float *w_a = W + (long)a * dk;      /* row a of W, (dk) */
                    sum += (double)q[a] * dot_row(w_a, k, dk);
                }
                s[j] = (float)sum;
            }
        }
    }
}

void attn_additive_scores(float *S, const float *Q, const float *K,
                          const float *Wq, const float *Wk, const float *v,
                          int B, int Tq, int Tk, int dq, int dk, int h)
{
    /* Bahdanau's additive score v . tanh(Wq q + Wk k): a one-hidden-layer
       network of size h reads the pair. For hidden unit u the pre-activation is
       (Wq q)[u] + (Wk k)[u]; tanh squashes it to (-1, 1), so every score lies
       in [-sum|v|, +sum|v|] however large q and k are. */
    for (int b = 0; b < B; b++) {
        for (int i = 0; i < Tq; i++) {
            const float *q = Q + ((long)b * Tq + i) * dq;
            float *s = S + ((long)b * Tq + i) * Tk;
            for (int j = 0; j < Tk; j++) {
                const float *k = K + ((long)b * Tk + j) * dk;
                double sum = 0.0;
                for (int u = 0; u < h; u++) {
                    double pre = dot_row(Wq + (long)u * dq, q, dq)
                               + dot_row(Wk + (long)u * dk, k, dk);
                    sum += (double)v[u] * tanh(pre);
                }
                s[j] = (float)sum;
            }
        }
    }
}
