/*
 * lab11.c: positions before the scores, sinusoidal, learned and rotary, a complete solution (12 points).
 *
 * Angles in double (a position of 4000 times a frequency near 1 loses its
 * last digits in float), each result rounded once to float.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lab11.h"

/* The angle of pair i of d at position pos: pos * base^(-2i/d). */
static double angle(int pos, int i, int d, double base)
{
    return (double)pos * pow(base, -2.0 * (double)i / (double)d);
}

/* Rotate the d features of x by position pos, pairs as layout says. */
static void rotate(float *x, int pos, int d, double base, int layout)
{
    for (int i = 0; i < d / 2; i++) {
        int a = layout == LAB_ROPE_INTERLEAVED ? 2 * i : i;
        int b = layout == LAB_ROPE_INTERLEAVED ? 2 * i + 1 : i + d / 2;
        double th = angle(pos, i, d, base);
        double xa = x[a], xb = x[b];
        x[a] = (float)(xa * cos(th) - xb * sin(th));
        x[b] = (float)(xa * sin(th) + xb * cos(th));
    }
}

/* What a call that got no scratch memory returns, freeing what it did get. */
static int no_memory(void *a, void *b)
{
    free(a);
    free(b);
    return LAB_BAD_ARG;   /* no memory: nothing written */
}

static int rope_args_bad(int d, float base, int layout)
{
    return d < 2 || d % 2 != 0 || !(base > 1.0f) ||
           (layout != LAB_ROPE_INTERLEAVED && layout != LAB_ROPE_HALF);
}

int lab_add_sinusoidal(float *X, int B, int T, int d, float base)
{
    /* BEGIN SOLUTION lab_add_sinusoidal */
    if (B < 0 || T < 0 || d < 2 || d % 2 != 0 || !(base > 1.0f))
        return LAB_BAD_ARG;
    for (int b = 0; b < B; b++)
        for (int t = 0; t < T; t++) {
            float *x = X + ((long)b * T + t) * d;
            for (int i = 0; i < d / 2; i++) {
                double a = angle(t, i, d, (double)base);
                x[2 * i] = (float)((double)x[2 * i] + sin(a));
                x[2 * i + 1] = (float)((double)x[2 * i + 1] + cos(a));
            }
        }
    return LAB_OK;
    /* END SOLUTION lab_add_sinusoidal */
}

int lab_add_learned(float *X, const float *P, const int *pos, int B, int T, int d, int max_pos)
{
    /* BEGIN SOLUTION lab_add_learned */
    if (B < 0 || T < 0 || d < 1 || max_pos < 1)
        return LAB_BAD_ARG;
    long rows = (long)B * T;
    for (long r = 0; r < rows; r++)      /* every position checked before any is added */
        if (pos[r] < 0 || pos[r] >= max_pos)
            return LAB_BAD_ARG;
    for (long r = 0; r < rows; r++)
        for (int c = 0; c < d; c++)
            X[r * d + c] += P[(long)pos[r] * d + c];
    return LAB_OK;
    /* END SOLUTION lab_add_learned */
}

int lab_rope(float *X, const int *pos, int N, int d, float base, int layout)
{
    /* BEGIN SOLUTION lab_rope */
    if (N < 0 || rope_args_bad(d, base, layout))
        return LAB_BAD_ARG;
    for (int n = 0; n < N; n++)
        rotate(X + (long)n * d, pos[n], d, (double)base, layout);
    return LAB_OK;
    /* END SOLUTION lab_rope */
}

int lab_rope_decode(float *o, float *Kc, float *Vc, const float *qt, const float *kt, const float *vt, int t, int cap, int d, float base, int layout)
{
    /* BEGIN SOLUTION lab_rope_decode */
    if (t < 0 || t >= cap || rope_args_bad(d, base, layout))
        return LAB_BAD_ARG;
    float *q = malloc((size_t)d * sizeof *q);
    double *w = malloc(((size_t)t + 1) * sizeof *w);
    if (!q || !w)
        return no_memory(q, w);
    memcpy(q, qt, (size_t)d * sizeof *q);
    rotate(q, t, d, (double)base, layout);
    float *kc = Kc + (long)t * d;
    memcpy(kc, kt, (size_t)d * sizeof *kc);
    rotate(kc, t, d, (double)base, layout);        /* cached at its absolute position */
    memcpy(Vc + (long)t * d, vt, (size_t)d * sizeof *Vc);   /* values are not rotated */
    double mx = -INFINITY, sum = 0.0;
    for (int j = 0; j <= t; j++) {
        double s = 0.0;
        for (int c = 0; c < d; c++)
            s += (double)q[c] * (double)Kc[(long)j * d + c];
        w[j] = s / sqrt((double)d);
        mx = fmax(mx, w[j]);
    }
    for (int j = 0; j <= t; j++)
        sum += (w[j] = exp(w[j] - mx));
    for (int c = 0; c < d; c++) {
        double acc = 0.0;
        for (int j = 0; j <= t; j++)
            acc += w[j] * (double)Vc[(long)j * d + c];
        o[c] = (float)(acc / sum);
    }
    free(q);
    free(w);
    return LAB_OK;
    /* END SOLUTION lab_rope_decode */
}
