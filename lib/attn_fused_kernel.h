/* attn_fused_kernel.h: the fused attention kernel, written once for any vector width.
 *
 * Included by attn_fused_avx512.c, attn_fused_avx2.c and attn_fused_portable.c,
 * each compiled for its own instruction set, after defining
 *   VW            floats per vector (16, 8, 4)
 *   vf            the vector type (a GCC/Clang vector of VW floats)
 *   vi            the matching vector of VW int32
 *   VFMA(a, b, c) a * b + c, fused where the instruction set has it
 *   VBCAST(x)     a vector of VW copies of the float x
 *   VMAX(a, b)    lane by lane a > b ? a : b, so b where a is NaN
 *   VREG(v)       keep the vector v in a register from here on (an empty asm
 *                 statement): without it GCC folds the second key or value
 *                 vector into every FMA as a memory operand, 13 loads for 12
 *                 FMAs, and the loop waits on the load ports
 *   vhmax, vhsum  static inline functions: the largest lane (of a vector with
 *                 no NaN) and the sum of the lanes
 *   KERNEL        the name of the block function this file exports
 * One call computes one block of FUSED_QB queries of one batch entry against
 * every key it may see, tile by tile (FUSED_KB keys a tile), with the online
 * softmax of attn_online.c: no (Tq, Tk) matrix, only a (FUSED_QB, FUSED_KB)
 * tile of scores. The two products are register-blocked micro-kernels of
 * MR query rows x NR (two vectors) keys or channels, so each value loaded is
 * used MR or NR times from registers.
 */
#include <math.h>
#include <string.h>

#include "attn_fused.h"

#define MR 6            /* query rows per micro-kernel (FUSED_QB is a multiple) */
#define NR (2 * VW)     /* keys or channels per micro-kernel: two vectors */

/* Unaligned load and store (memcpy compiles to one vector move). */
static inline vf vload(const float *p)
{
    vf v;
    memcpy(&v, p, sizeof v);
    return v;
}

static inline void vstore(float *p, vf v)
{
    memcpy(p, &v, sizeof v);
}

/* Every lane x (one broadcast: {0} + x would cost an add, as -0 + 0 is +0). */
static inline vf vbcast(float x)
{
    return VBCAST(x);
}

/* exp(x) lane by lane for x <= 0 (scores minus their running max), relative
   error about 2e-7: 2^n * p(r) with n = round(x / ln 2), r = x - n ln 2 and p
   the degree-6 polynomial of Cephes' expf. exp(-inf) = 0, NaN stays NaN, and
   below x = -87.3 (where 2^n leaves float's normal range) the result is 0, an
   absolute error under 1.2e-38. */
static inline vf vexp(vf x)
{
    const vf magic = vbcast(12582912.0f);         /* 1.5 * 2^23: rounds to an integer */
    vf t = VFMA(x, vbcast(1.44269504088896341f), magic);
    vf n = t - magic;
    vf r = VFMA(n, vbcast(-0.693359375f), x);     /* ln 2 in two parts, exact first */
    r = VFMA(n, vbcast(2.12194440e-4f), r);
    vf p = vbcast(1.9875691500e-4f);
    p = VFMA(p, r, vbcast(1.3981999507e-3f));
    p = VFMA(p, r, vbcast(8.3334519073e-3f));
    p = VFMA(p, r, vbcast(4.1665795894e-2f));
    p = VFMA(p, r, vbcast(1.6666665459e-1f));
    p = VFMA(p, r, vbcast(5.0000001201e-1f));
    p = VFMA(p * r, r, r) + vbcast(1.0f);
    /* t's low mantissa bits hold n; 2^n is the float with exponent n + 127 */
    vf scale = (vf)(((vi)t - 0x4B400000 + 127) << 23);
    vi keep = ~(x < vbcast(-87.3f));              /* all ones (NaN too), or 0 (-inf, underflow) */
    return (vf)((vi)(p * scale) & keep);
}

/* Scores of MR query rows against NR keys: s[r][n0 + t] = qs[r] . key t.
   qs (MR, d) rows of the query block, kt (d, FUSED_KB) the packed tile. */
static inline void score_micro(float *s, const float *qs, const float *kt, int n0, int d)
{
    vf a00 = {0}, a01 = {0}, a10 = {0}, a11 = {0}, a20 = {0}, a21 = {0};
    vf a30 = {0}, a31 = {0}, a40 = {0}, a41 = {0}, a50 = {0}, a51 = {0};
    const float *k = kt + n0;
    for (int c = 0; c < d; c++, k += FUSED_KB) {
        vf k0 = vload(k), k1 = vload(k + VW), q;
        VREG(k0);
        VREG(k1);
        q = vbcast(qs[c]);         a00 = VFMA(q, k0, a00); a01 = VFMA(q, k1, a01);
        q = vbcast(qs[d + c]);     a10 = VFMA(q, k0, a10); a11 = VFMA(q, k1, a11);
        q = vbcast(qs[2 * d + c]); a20 = VFMA(q, k0, a20); a21 = VFMA(q, k1, a21);
        q = vbcast(qs[3 * d + c]); a30 = VFMA(q, k0, a30); a31 = VFMA(q, k1, a31);
        q = vbcast(qs[4 * d + c]); a40 = VFMA(q, k0, a40); a41 = VFMA(q, k1, a41);
        q = vbcast(qs[5 * d + c]); a50 = VFMA(q, k0, a50); a51 = VFMA(q, k1, a51);
    }
    float *o = s + n0;
    vstore(o, a00); vstore(o + VW, a01); o += FUSED_KB;
    vstore(o, a10); vstore(o + VW, a11); o += FUSED_KB;
    vstore(o, a20); vstore(o + VW, a21); o += FUSED_KB;
    vstore(o, a30); vstore(o + VW, a31); o += FUSED_KB;
    vstore(o, a40); vstore(o + VW, a41); o += FUSED_KB;
    vstore(o, a50); vstore(o + VW, a51);
}

/* acc[r][c0 .. c0 + NR) = alpha[r] acc[r][..] + sum_t p[r][t] V[t][c0 ..] for
   MR rows and nt keys: acc (MR, dv), p (MR, FUSED_KB), v (nt, dv). */
static inline void update_micro(float *acc, const float *p, const float *alpha,
                                const float *v, int c0, int nt, int dv)
{
    float *a = acc + c0;
    vf a00 = vload(a) * vbcast(alpha[0]), a01 = vload(a + VW) * vbcast(alpha[0]);
    vf a10 = vload(a + dv) * vbcast(alpha[1]), a11 = vload(a + dv + VW) * vbcast(alpha[1]);
    vf a20 = vload(a + 2 * dv) * vbcast(alpha[2]), a21 = vload(a + 2 * dv + VW) * vbcast(alpha[2]);
    vf a30 = vload(a + 3 * dv) * vbcast(alpha[3]), a31 = vload(a + 3 * dv + VW) * vbcast(alpha[3]);
    vf a40 = vload(a + 4 * dv) * vbcast(alpha[4]), a41 = vload(a + 4 * dv + VW) * vbcast(alpha[4]);
    vf a50 = vload(a + 5 * dv) * vbcast(alpha[5]), a51 = vload(a + 5 * dv + VW) * vbcast(alpha[5]);
    const float *vr = v + c0;
    for (int t = 0; t < nt; t++, vr += dv) {
        vf v0 = vload(vr), v1 = vload(vr + VW), w;
        VREG(v0);
        VREG(v1);
        w = vbcast(p[t]);                a00 = VFMA(w, v0, a00); a01 = VFMA(w, v1, a01);
        w = vbcast(p[FUSED_KB + t]);     a10 = VFMA(w, v0, a10); a11 = VFMA(w, v1, a11);
        w = vbcast(p[2 * FUSED_KB + t]); a20 = VFMA(w, v0, a20); a21 = VFMA(w, v1, a21);
        w = vbcast(p[3 * FUSED_KB + t]); a30 = VFMA(w, v0, a30); a31 = VFMA(w, v1, a31);
        w = vbcast(p[4 * FUSED_KB + t]); a40 = VFMA(w, v0, a40); a41 = VFMA(w, v1, a41);
        w = vbcast(p[5 * FUSED_KB + t]); a50 = VFMA(w, v0, a50); a51 = VFMA(w, v1, a51);
    }
    vstore(a, a00); vstore(a + VW, a01); a += dv;
    vstore(a, a10); vstore(a + VW, a11); a += dv;
    vstore(a, a20); vstore(a + VW, a21); a += dv;
    vstore(a, a30); vstore(a + VW, a31); a += dv;
    vstore(a, a40); vstore(a + VW, a41); a += dv;
    vstore(a, a50); vstore(a + VW, a51);
}

/* The same update for the channels past the last whole NR, one at a time. */
static void update_tail(float *acc, const float *p, const float *alpha, const float *v,
                        int c0, int nt, int dv)
{
    for (int r = 0; r < MR; r++)
        for (int c = c0; c < dv; c++) {
            float sum = acc[r * dv + c] * alpha[r];
            for (int t = 0; t < nt; t++) sum += p[r * FUSED_KB + t] * v[(long)t * dv + c];
            acc[r * dv + c] = sum;
        }
}

/* One row of the tile's scores becomes weights: keys from nt on are masked,
   the running max m and sum l move on, and *alpha receives exp(m_old - m_new),
   the factor the row's accumulator needs. A row with nothing visible so far
   gets zero weights and alpha 1. The max skips NaN scores (VMAX); a NaN still
   reaches the weights, the sum and so the whole output row, as vexp keeps it,
   and only a row whose sole visible scores are NaN needs the look below. Only
   the vectors holding visible keys are read; the rest of the row (stale
   scores near the causal diagonal or a padding limit) becomes zero weights. */
static void softmax_row(float *s, float *m, float *l, float *alpha, int nt, const fused_bias *bias,
                        int i, int j0)
{
    int nv = (nt + VW - 1) / VW * VW;      /* lanes in the vectors with a visible key */
    if (bias->alibi_slope != 0.0f)        /* ALiBi: slope * (j - i) */
        for (int t = 0; t < nt; t++) s[t] += bias->alibi_slope * (float)(j0 + t - i);
    for (int t = nt; t < nv; t++) s[t] = -INFINITY;
    memset(s + nv, 0, (size_t)(FUSED_KB - nv) * sizeof *s);
    vf mx = vbcast(-INFINITY);
    for (int t = 0; t < nv; t += VW)
        mx = VMAX(vload(s + t), mx);
    float mt = vhmax(mx);
    if (*m > mt || *m != *m)
        mt = *m;
    if (mt == -INFINITY) {                 /* nothing visible yet, or only NaN */
        for (int t = 0; t < nt; t++)
            if (s[t] != s[t]) mt = NAN;
        if (mt == -INFINITY) {
            memset(s, 0, (size_t)nv * sizeof *s);
            *alpha = 1.0f;
            return;
        }
    }
    *alpha = expf(*m - mt);                /* 0 the first time (m = -inf) */
    *m = mt;
    vf sum = {0}, mv = vbcast(mt);
    for (int t = 0; t < nv; t += VW) {
        vf p = vexp(vload(s + t) - mv);
        vstore(s + t, p);
        sum += p;
    }
    *l = *l * *alpha + vhsum(sum);
}

/* Keys of the tile (from j0, at most nt_max) that any of rows r0 .. r0 + MR may
   see: near the causal diagonal or a padding limit, fewer than the tile. */
static inline int group_keys(const fused_block *fb, int r0, int j0, int nt_max)
{
    int n = 0;
    for (int r = r0; r < r0 + MR; r++)
        if (fb->nkeys[r] - j0 > n) n = fb->nkeys[r] - j0;
    return n < nt_max ? n : nt_max;
}

/* Scores of the whole block against one tile, then weights, then the output
   update, MR rows at a time; rows (and keys) past the visible ones weigh 0,
   and a group of rows skips the key chunks none of them may see. */
static void block_tile(fused_block *fb, const float *kt, const float *v, int j0, int nt_max)
{
    float *s = fb->s;
    for (int r0 = 0; r0 < fb->rows; r0 += MR) {
        int nk = group_keys(fb, r0, j0, nt_max);
        for (int n0 = 0; n0 < nk; n0 += NR)
            score_micro(s + r0 * FUSED_KB, fb->qs + r0 * fb->d, kt, n0, fb->d);
    }
    for (int r = 0; r < fb->rows; r++) {
        int nt = fb->nkeys[r] - j0;
        nt = nt < 0 ? 0 : nt > FUSED_KB ? FUSED_KB : nt;
        softmax_row(s + r * FUSED_KB, &fb->m[r], &fb->l[r], &fb->alpha[r], nt, &fb->bias,
                    fb->i0 + r, j0);
    }
    int dv = fb->dv, c0 = 0;
    for (int r0 = 0; r0 < fb->rows; r0 += MR) {
        float *acc = fb->acc + r0 * dv;
        const float *p = s + r0 * FUSED_KB;
        int nk = group_keys(fb, r0, j0, nt_max);
        for (c0 = 0; c0 + NR <= dv; c0 += NR)
            update_micro(acc, p, fb->alpha + r0, v, c0, nk, dv);
        if (c0 < dv)
            update_tail(acc, p, fb->alpha + r0, v, c0, nk, dv);
    }
}

long KERNEL(fused_block *fb, const float *kt, const float *v)
{
    int keys = 0;                          /* keys any row of the block may see */
    for (int r = 0; r < fb->rows; r++) {
        fb->m[r] = -INFINITY;
        fb->l[r] = 0.0f;
        if (fb->nkeys[r] > keys) keys = fb->nkeys[r];
    }
    memset(fb->acc, 0, (size_t)fb->rows * (size_t)fb->dv * sizeof *fb->acc);
    /* Tiles past every row's last key (above the causal diagonal) are skipped. */
    for (int j0 = 0; j0 < keys; j0 += FUSED_KB) {
        int nt = keys - j0 < FUSED_KB ? keys - j0 : FUSED_KB;
        block_tile(fb, kt + (long)j0 * fb->d, v + (long)j0 * fb->dv, j0, nt);
    }
    long masked = 0;
    for (int r = 0; r < fb->nq; r++) {
        float *o = fb->O + (long)r * fb->dv;
        const float *a = fb->acc + (long)r * fb->dv;
        if (fb->l[r] == 0.0f) {            /* no visible key: zero row, counted */
            memset(o, 0, (size_t)fb->dv * sizeof *o);
            masked++;
        } else {
            float inv = 1.0f / fb->l[r];
            int c = 0;                     /* vectors: o and a may not alias, */
            for (; c + VW <= fb->dv; c += VW)  /* which the compiler cannot know */
                vstore(o + c, vload(a + c) * vbcast(inv));
            for (; c < fb->dv; c++) o[c] = a[c] * inv;
        }
    }
    return masked;
}
