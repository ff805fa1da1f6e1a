/* attn_layer.c: the whole attention layer (lab 12). Projections X W_Q,
 * X W_K, X W_V, a split of the d_model features into H heads of dh = d_model
 * / H (head h owns features h*dh .. h*dh + dh - 1), scaled dot-product
 * attention per head, the heads concatenated back in head order, then W_O.
 * Self-attention reads queries, keys and values from one sequence; cross-
 * attention its queries from the decoder and its keys and values from the
 * encoder's output. Sums in double, each output rounded once to float.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "attn.h"

int attn_split_heads(float *Xh, const float *X, int B, int T, int H, int dh)
{
    if (B < 0 || T < 0 || H < 1 || dh < 1)
        return -1;
    for (long bt = 0; bt < (long)B * T; bt++)
        for (int h = 0; h < H; h++)
            memcpy(Xh + (((bt / T) * H + h) * T + bt % T) * dh, X + (bt * H + h) * dh,
                   (size_t)dh * sizeof *Xh);
    return 0;
}

int attn_merge_heads(float *X, const float *Xh, int B, int T, int H, int dh)
{
    if (B < 0 || T < 0 || H < 1 || dh < 1)
        return -1;
    for (long bt = 0; bt < (long)B * T; bt++)
        for (int h = 0; h < H; h++)
            memcpy(X + (bt * H + h) * dh, Xh + (((bt / T) * H + h) * T + bt % T) * dh,
                   (size_t)dh * sizeof *X);
    return 0;
}

/* P = X W for rows rows of d (X float, W one (d, d) block), in double. */
static void project(double *P, const float *X, const float *W, long rows, int d)
{
    for (long r = 0; r < rows; r++)
        for (int o = 0; o < d; o++) {
            double s = 0;
            for (int i = 0; i < d; i++)
                s += (double)X[r * d + i] * (double)W[(long)i * d + o];
            P[r * d + o] = s;
        }
}

/* One head's weights of query row q against the Tk key rows K (stride d, dh
   features from the head's offset), w[j] = 0 where blocked; all zero when
   every key is blocked. */
static void head_row(double *w, const double *q, const double *K, const unsigned char *keep,
                     int i, int Tk, int d, int dh, int causal)
{
    double mx = -(double)INFINITY, sum = 0;
    for (int j = 0; j < Tk; j++) {
        int open = (!causal || j <= i) && (!keep || keep[j]);
        double s = 0;
        for (int c = 0; open && c < dh; c++)
            s += q[c] * K[(long)j * d + c];
        w[j] = open ? s / sqrt((double)dh) : -(double)INFINITY;
        mx = fmax(mx, w[j]);
    }
    for (int j = 0; j < Tk; j++)
        sum += (w[j] = isinf(mx) ? 0 : exp(w[j] - mx));
    for (int j = 0; j < Tk; j++)
        w[j] = sum > 0 ? w[j] / sum : 0;
}

/* The attention of batch entry b, every head, into C (Tq, d) concatenated in
   head order and, when A is not NULL, the weights: per head, or their mean
   (summed in avg, (Tq, Tk), and rounded once). */
static void attend(double *C, float *A, const double *Q, const double *K, const double *V,
                   const unsigned char *keep, int Tq, int Tk, int d, int H, int causal,
                   int average, double *w, double *avg)
{
    int dh = d / H;
    memset(C, 0, (size_t)Tq * d * sizeof *C);
    memset(avg, 0, (size_t)Tq * Tk * sizeof *avg);
    for (int h = 0; h < H; h++)
        for (int i = 0; i < Tq; i++) {
            head_row(w, Q + (long)i * d + h * dh, K + h * dh, keep, i, Tk, d, dh, causal);
            for (int j = 0; j < Tk; j++) {
                for (int c = 0; c < dh; c++)
                    C[(long)i * d + h * dh + c] += w[j] * V[(long)j * d + h * dh + c];
                avg[(long)i * Tk + j] += w[j];
                if (A && !average)
                    A[((long)h * Tq + i) * Tk + j] = (float)w[j];
            }
        }
    for (long k = 0; A && average && k < (long)Tq * Tk; k++)
        A[k] = (float)(avg[k] / H);
}

int attn_mha(float *O, float *A, const float *Xq, const float *Xkv, const float *W,
             const unsigned char *keep, int B, int Tq, int Tk, int d_model, int H,
             int causal, int average)
{
    if (B < 0 || Tq < 0 || Tk < 0 || d_model < 1 || H < 1 || d_model % H != 0 ||
        (causal != 0 && causal != 1) || (average != 0 && average != 1))
        return -1;
    long dd = (long)d_model * d_model, nq = (long)Tq * d_model, nk = (long)Tk * d_model;
    size_t n = (size_t)nq * 2 + (size_t)nk * 2 + (size_t)Tk + (size_t)Tq * Tk + 1;
    double *Q = malloc(n * sizeof *Q);
    if (!Q)
        return -1;
    double *C = Q + nq, *K = C + nq, *V = K + nk, *w = V + nk, *avg = w + Tk;
    for (int b = 0; b < B; b++) {
        project(Q, Xq + b * nq, W, Tq, d_model);
        project(K, Xkv + b * nk, W + dd, Tk, d_model);
        project(V, Xkv + b * nk, W + 2 * dd, Tk, d_model);
        float *Ab = !A ? NULL : A + (long)b * (average ? 1 : H) * Tq * Tk;
        attend(C, Ab, Q, K, V, keep ? keep + (long)b * Tk : NULL, Tq, Tk, d_model, H, causal,
               average, w, avg);
        for (long r = 0; r < Tq; r++)
            for (int o = 0; o < d_model; o++) {
                double s = 0;
                for (int c = 0; c < d_model; c++)
                    s += C[r * d_model + c] * (double)W[3 * dd + (long)c * d_model + o];
                O[b * nq + r * d_model + o] = (float)s;
            }
    }
    free(Q);
    return 0;
}
