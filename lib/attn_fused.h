/* attn_fused.h: inside the fused attention path (not part of the public API).
 *
 * attn_online.c drives: it packs the keys of one batch entry, fills one
 * fused_block per block of FUSED_QB queries and calls the kernel for the
 * instruction set this CPU runs best. The kernels, one per instruction set,
 * come from one template, attn_fused_kernel.h.
 */
#ifndef ATTN_FUSED_H
#define ATTN_FUSED_H

/* Block shape: FUSED_QB queries against tiles of FUSED_KB keys. For d = 64 a
   block's scaled queries, one tile of scores, the accumulators and one key
   tile are 12 + 12 + 12 + 16 KiB: at home in L2 next to the value tile, while
   each key and value loaded is used by 48 queries. FUSED_QB is a multiple of
   the micro-kernel's 6 rows, FUSED_KB of its 32 keys (two AVX-512 vectors). */
#define FUSED_QB 48
#define FUSED_KB 64

/* What is added to scores besides the dot product. */
typedef struct fused_bias {
    float alibi_slope;        /* ALiBi: slope * (j - i), or 0 */
} fused_bias;

/* One block of queries of one batch entry, and the block's work space. */
typedef struct fused_block {
    float *O;                 /* (nq, dv) the block's output rows */
    float *qs;                /* (FUSED_QB, d) queries times the score scale, 0 past nq */
    float *s;                 /* (FUSED_QB, FUSED_KB) one tile's scores, then weights */
    float *acc;               /* (FUSED_QB, dv) running output sums */
    float m[FUSED_QB];        /* running max per row */
    float l[FUSED_QB];        /* running sum per row */
    float alpha[FUSED_QB];    /* this tile's rescale factor per row */
    int nkeys[FUSED_QB];      /* keys each row may see (0 past nq) */
    int nq;                   /* real query rows, <= FUSED_QB */
    int rows;                 /* nq rounded up to the micro-kernel's 6 */
    int d, dv;
    int i0;                   /* position of the block's first query */
    fused_bias bias;
} fused_block;

/* The kernels: every query of fb against the packed keys kt (Tk_pad / FUSED_KB
   tiles, each a (d, FUSED_KB) channel-major block) and the values v (Tk, dv).
   Writes fb->O and returns how many of its rows had no visible key. */
long attn_fused_block_avx512(fused_block *fb, const float *kt, const float *v);
long attn_fused_block_avx2(fused_block *fb, const float *kt, const float *v);
long attn_fused_block_portable(fused_block *fb, const float *kt, const float *v);

#endif /* ATTN_FUSED_H */
