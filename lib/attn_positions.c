/* attn_positions.c: where a token is, before the scores. Absolute encodings
 * (sinusoidal, learned) are added to the inputs; rotary embeddings (RoPE)
 * rotate the queries and keys, so the score of a query at m and a key at n
 * depends on m - n alone. Angles and products in double, each result rounded
 * once to float. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "attn.h"

/* The angle of pair i (0 <= i < d/2) at position pos: pos * base^(-2i/d). */
static double rope_angle(int pos, int i, int d, double base)
{
    return (double)pos * pow(base, -2.0 * (double)i / (double)d);
}

int attn_add_sinusoidal(float *X, int B, int T, int d, float base)
{
    if (B < 0 || T < 0 || d < 2 || d % 2 != 0 || !(base > 1.0f))
        return -1;
    for (int t = 0; t < T; t++)
        for (int i = 0; i < d / 2; i++) {
            double a = rope_angle(t, i, d, (double)base);
            double s = sin(a), c = cos(a);
            for (int b = 0; b < B; b++) {
                float *x = X + ((long)b * T + t) * d;
                x[2 * i] = (float)((double)x[2 * i] + s);
                x[2 * i + 1] = (float)((double)x[2 * i + 1] + c);
            }
        }
    return 0;
}

int attn_add_learned(float *X, const float *P, const int *pos, int B, int T, int d,
                     int max_pos)
{
    if (B < 0 || T < 0 || d < 1 || max_pos < 1)
        return -1;
    for (long r = 0; r < (long)B * T; r++)
        if (pos[r] < 0 || pos[r] >= max_pos)
            return -1;
    for (long r = 0; r < (long)B * T; r++) {
        const float *p = P + (long)pos[r] * d;
        float *x = X + r * d;
        for (int c = 0; c < d; c++)
            x[c] += p[c];
    }
    return 0;
}

/* The two elements pair i of a row of d rotates together, as layout pairs them. */
static void rope_pair(int layout, int i, int d, int *a, int *b)
{
    if (layout == ATTN_ROPE_INTERLEAVED) {
        *a = 2 * i;
        *b = 2 * i + 1;
    } else {
        *a = i;
        *b = i + d / 2;
    }
}

static int rope_bad(int N, int d, float base, int layout)
{
    return N < 0 || d < 2 || d % 2 != 0 || !(base > 1.0f) ||
           (layout != ATTN_ROPE_INTERLEAVED && layout != ATTN_ROPE_HALF);
}

/* Rotate one row x of d at position pos. */
static void rope_row(float *x, int pos, int d, double base, int layout)
{
    for (int i = 0; i < d / 2; i++) {
        int a, b;
        rope_pair(layout, i, d, &a, &b);
        double th = rope_angle(pos, i, d, base), c = cos(th), s = sin(th);
        double x0 = x[a], x1 = x[b];
        x[a] = (float)(x0 * c - x1 * s);
        x[b] = (float)(x0 * s + x1 * c);
    }
}

int attn_rope(float *X, const int *pos, int N, int d, float base, int layout)
{
    if (rope_bad(N, d, base, layout))
        return -1;
    for (long n = 0; n < N; n++)
        rope_row(X + n * d, pos[n], d, (double)base, layout);
    return 0;
}

/* o = softmax_j(q . Kc[j] / sqrt(d)) V over keys 0..t, in double. -1 when
   out of memory. */
static int attend_one(float *o, const float *q, const float *Kc, const float *Vc, int t, int d)
{
    double *w = malloc(((size_t)t + 1) * sizeof *w), mx = -INFINITY, sum = 0.0;
    if (!w)
        return -1;
    for (int j = 0; j <= t; j++) {
        double dot = 0.0;
        for (int c = 0; c < d; c++)
            dot += (double)q[c] * (double)Kc[(long)j * d + c];
        w[j] = dot / sqrt((double)d);
        mx = w[j] > mx ? w[j] : mx;
    }
    for (int j = 0; j <= t; j++)
        sum += (w[j] = exp(w[j] - mx));
    for (int c = 0; c < d; c++) {
        double acc = 0.0;
        for (int j = 0; j <= t; j++)
            acc += w[j] / sum * (double)Vc[(long)j * d + c];
        o[c] = (float)acc;
    }
    free(w);
    return 0;
}

int attn_rope_decode(float *o, float *Kc, float *Vc, const float *q, const float *k,
                     const float *v, int t, int d, float base, int layout)
{
    if (t < 0 || rope_bad(1, d, base, layout))
        return -1;
    float *qr = malloc((size_t)d * sizeof *qr);
    if (!qr)
        return -1;
    memcpy(qr, q, (size_t)d * sizeof *qr);
    rope_row(qr, t, d, (double)base, layout);
    float *kt = Kc + (long)t * d;
    memcpy(kt, k, (size_t)d * sizeof *kt);
    rope_row(kt, t, d, (double)base, layout);          /* cached at its absolute position */
    memcpy(Vc + (long)t * d, v, (size_t)d * sizeof *Vc);   /* values are never rotated */
    int rc = attend_one(o, qr, Kc, Vc, t, d);
    free(qr);
    return rc;
}
