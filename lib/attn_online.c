/* attn_online.c: attention without the (Tq, Tk) matrix, by online softmax.
 *
 *   B = batch   Tq = queries   Tk = keys   d = query/key size   dv = value size
 *   Q (B, Tq, d)   K (B, Tk, d)   V (B, Tk, dv)   O (B, Tq, dv)
 *
 * The idea (Milakov & Gimelshein 2018; FlashAttention, Dao et al. 2022):
 * softmax needs the row max and the row sum before any weight is known, but
 * both can be kept as running values. After seeing some keys we hold
 *     m = max of the scores so far
 *     l = sum_j exp(s_j - m)            over the keys so far
 *     a = sum_j exp(s_j - m) V[j]       (a vector of dv)
 * and the answer is O = a / l. When a new tile of keys raises the max from m
 * to m', everything summed so far was relative to the old max, so l and a are
 * multiplied by exp(m - m') (<= 1) before the new terms are added. At the end
 * the result equals softmax(S) V exactly in real arithmetic, yet only one
 * tile of scores ever exists: the weights themselves are never stored, and
 * cannot be read back.
 *
 * Masking: a masked key contributes exp(-inf) = 0 to both l and a, so instead
 * of writing -inf and then adding zeros, a query simply stops at the last key
 * it may see: min(Tk, lengths[b]) with key padding, and also i + 1 with the
 * causal mask. A query with no key to see has l = 0: its output is zero and
 * it is counted, as in attn_softmax.
 *
 * Two versions with one contract:
 *   attn_online_attention  the readable reference: one query at a time, one
 *                          tile of keys at a time, in double;
 *   attn_fused_attention   the fast path: a block of queries against a tile
 *                          of keys, in float, loops shaped for vectorisation.
 * Both are tested against attn_forward (the full-matrix reference).
 */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "attn.h"
#include "attn_fused.h"

/* Number of keys query i may see: the padding length, then the causal limit. */
static int visible_keys(int i, int Tk, int causal, const int *lengths, int b)
{
    int n = Tk;
    if (lengths != NULL && lengths[b] < n) n = lengths[b] < 0 ? 0 : lengths[b];
    if (causal && i + 1 < n) n = i + 1;
    return n;
}

/* ------------------------------------------------------------------ */
/* Reference: one query, one key tile at a time.                        */
/* ------------------------------------------------------------------ */

long attn_online_attention(float *O, const float *Q, const float *K, const float *V,
                           int B, int Tq, int Tk, int d, int dv, int tile,
                           int causal, const int *lengths)
{
    if (tile < 1 || B < 0 || Tq < 0 || Tk < 0 || d < 0 || dv < 0) return -1;
    float *s = malloc((size_t)tile * sizeof *s);                  /* (tile) scores */
    double *acc = malloc((size_t)(dv > 0 ? dv : 1) * sizeof *acc); /* (dv) running a */
    if (s == NULL || acc == NULL) {
        free(s);
        free(acc);
        return -1;
    }
    /* The same scores as attn_scaled_dot_scores: double dot, scaled, rounded. */
    double scale = d > 0 ? 1.0 / sqrt((double)d) : 1.0;
    long fully_masked = 0;

    for (int b = 0; b < B; b++) {
        for (int i = 0; i < Tq; i++) {
            const float *q = Q + ((long)b * Tq + i) * d;
            float *o = O + ((long)b * Tq + i) * dv;
            int nkeys = visible_keys(i, Tk, causal, lengths, b);

            double m = -HUGE_VAL;      /* running max (HUGE_VAL: the double infinity) */
            double l = 0.0;            /* running sum of exp(s - m) */
            for (int c = 0; c < dv; c++) acc[c] = 0.0;

            for (int j0 = 0; j0 < nkeys; j0 += tile) {
                int nt = nkeys - j0 < tile ? nkeys - j0 : tile;

                /* pass 1: this tile's scores and their max (NaN wins, so a NaN
                   score spreads through m, l and a to the whole output row) */
                double tile_max = -HUGE_VAL;
                for (int t = 0; t < nt; t++) {
                    const float *k = K + ((long)b * Tk + j0 + t) * d;
                    double dot = 0.0;
                    for (int c = 0; c < d; c++) dot += (double)q[c] * (double)k[c];
                    s[t] = (float)(dot * scale);
                    if (isnan(s[t]) || (double)s[t] > tile_max) tile_max = (double)s[t];
                }
                double m_new = isnan(m) || isnan(tile_max) ? (double)NAN
                             : (tile_max > m ? tile_max : m);
                if (m_new == -HUGE_VAL) continue;   /* every score so far is -inf */

                /* pass 2: rescale what was summed relative to the old max
                   (exp(-inf) = 0 on the first tile), then add this tile */
                double alpha = exp(m - m_new);
                l *= alpha;
                for (int c = 0; c < dv; c++) acc[c] *= alpha;
                for (int t = 0; t < nt; t++) {
                    double p = exp((double)s[t] - m_new);
                    const float *v = V + ((long)b * Tk + j0 + t) * dv;
                    l += p;
                    for (int c = 0; c < dv; c++) acc[c] += p * (double)v[c];
                }
                m = m_new;
            }

            /* O = a / l; no visible key (l = 0) gives a zero row, counted */
            if (l == 0.0) {
                for (int c = 0; c < dv; c++) o[c] = 0.0f;
                fully_masked++;
            } else {
                for (int c = 0; c < dv; c++) o[c] = (float)(acc[c] / l);
            }
        }
    }
    free(s);
    free(acc);
    return fully_masked;
}

/* ------------------------------------------------------------------ */
/* Fast path: query blocks x key tiles, fused, in float.                */
/* ------------------------------------------------------------------ */

/* The kernel for each instruction set, and the one in use (0: not chosen yet). */
typedef long (*fused_kernel)(fused_block *fb, const float *kt, const float *v);
static attn_isa fused_isa_now;

/* Whether this CPU (and its OS) can run the kernel for isa. */
static int isa_supported(attn_isa isa)
{
    switch (isa) {
    case ATTN_ISA_PORTABLE: return 1;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    case ATTN_ISA_AVX2: return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    case ATTN_ISA_AVX512: return __builtin_cpu_supports("avx512f");
#endif
    default: return 0;
    }
}

/* The best instruction set this CPU runs. */
static attn_isa best_isa(void)
{
    if (isa_supported(ATTN_ISA_AVX512)) return ATTN_ISA_AVX512;
    if (isa_supported(ATTN_ISA_AVX2)) return ATTN_ISA_AVX2;
    return ATTN_ISA_PORTABLE;
}

int attn_fused_set_isa(attn_isa isa)
{
    if (isa == ATTN_ISA_AUTO) isa = best_isa();
    if (!isa_supported(isa)) return -1;
    fused_isa_now = isa;
    return 0;
}

const char *attn_fused_isa(void)
{
    if (fused_isa_now == ATTN_ISA_AUTO) fused_isa_now = best_isa();
    return attn_isa_name(fused_isa_now);
}

const char *attn_isa_name(attn_isa isa)
{
    switch (isa) {
    case ATTN_ISA_PORTABLE: return "portable";
    case ATTN_ISA_AVX2: return "avx2";
    case ATTN_ISA_AVX512: return "avx512";
    default: return "auto";
    }
}

/* The kernel of the instruction set in use. */
static fused_kernel current_kernel(void)
{
    if (fused_isa_now == ATTN_ISA_AUTO) fused_isa_now = best_isa();
    if (fused_isa_now == ATTN_ISA_AVX512) return attn_fused_block_avx512;
    if (fused_isa_now == ATTN_ISA_AVX2) return attn_fused_block_avx2;
    return attn_fused_block_portable;
}

/* Pack the keys of one batch entry, k (Tk, d), into kt tile by tile: each
   tile of FUSED_KB keys becomes a contiguous (d, FUSED_KB) block, channel-major,
   zero past Tk. The score micro-kernel then reads consecutive keys of one
   channel with one vector load and walks each tile's block in order. kt has
   d * Tk_pad floats, Tk_pad = Tk rounded up to FUSED_KB. */
static void pack_keys(float *kt, const float *k, int Tk, int d)
{
    for (int j0 = 0; j0 < Tk; j0 += FUSED_KB) {
        float *tile = kt + (long)j0 * d;
        int nt = Tk - j0 < FUSED_KB ? Tk - j0 : FUSED_KB;
        for (int t = 0; t < nt; t++)
            for (int c = 0; c < d; c++) tile[c * FUSED_KB + t] = k[(long)(j0 + t) * d + c];
        for (int c = 0; c < d && nt < FUSED_KB; c++)
            for (int t = nt; t < FUSED_KB; t++) tile[c * FUSED_KB + t] = 0.0f;
    }
}

/* Fill the block's queries (times scale, zero rows up to a whole micro-kernel)
   and each row's visible key count, for queries i0 .. i0 + nq of entry b. */
static void load_block(fused_block *fb, const float *q, float scale, int i0, int nq,
                       int Tk, int causal, const int *lengths, int b)
{
    fb->i0 = i0;
    fb->nq = nq;
    fb->rows = (nq + 5) / 6 * 6;
    for (int r = 0; r < fb->rows; r++) {
        float *qs = fb->qs + (long)r * fb->d;
        for (int c = 0; c < fb->d; c++) qs[c] = r < nq ? q[(long)r * fb->d + c] * scale : 0.0f;
        fb->nkeys[r] = r < nq ? visible_keys(i0 + r, Tk, causal, lengths, b) : 0;
    }
}

/* Work space of the fused path: packed keys, queries, one score tile and the
   accumulators. NULL when memory runs out; free with free_space. */
static float *alloc_space(fused_block *fb, int Tk, int d, int dv)
{
    long Tk_pad = ((long)Tk + FUSED_KB - 1) / FUSED_KB * FUSED_KB;
    size_t nkt = (size_t)d * (size_t)Tk_pad, nqs = (size_t)FUSED_QB * (size_t)d;
    size_t ns = (size_t)FUSED_QB * FUSED_KB, nacc = (size_t)FUSED_QB * (size_t)dv;
    float *kt = malloc((nkt + nqs + ns + nacc + 1) * sizeof *kt);
    if (kt == NULL) return NULL;
    fb->qs = kt + nkt;
    fb->s = fb->qs + nqs;
    fb->acc = fb->s + ns;
    fb->d = d;
    fb->dv = dv;
    return kt;
}

/* Threads of the fused path (attn_fused_set_threads); 1 until set. */
static int fused_threads_now = 1;

int attn_fused_set_threads(int n)
{
    if (n < 1 || n > ATTN_MAX_THREADS) return -1;
    fused_threads_now = n;
    return 0;
}

int attn_fused_threads(void)
{
    return fused_threads_now;
}

/* One call of the fused path, shared by its threads: the arguments, and the
   next (entry, query block) item to take, entry-major. */
typedef struct fused_job {
    float *O;
    const float *Q, *K, *V;
    int B, Tq, Tk, d, dv, causal;
    float scale;
    const int *lengths;
    const float *slopes;       /* (B) ALiBi slope of each entry, or NULL */
    fused_kernel kernel;
    long n_items;              /* B * blocks per entry */
    atomic_long next;
} fused_job;

/* What one thread did: the fully masked rows it saw, or -1 (out of memory). */
typedef struct fused_worker {
    fused_job *job;
    long masked;
    pthread_t thread;
} fused_worker;

/* Take items until none are left, each thread with its own work space; the
   keys of an entry are packed again only when the entry changes. Taking items
   one at a time balances causal blocks, whose cost grows with their position. */
static void *fused_work(void *arg)
{
    fused_worker *w = arg;
    const fused_job *j = w->job;
    fused_block fb;
    memset(&fb, 0, sizeof fb);
    float *kt = alloc_space(&fb, j->Tk, j->d, j->dv);
    w->masked = kt == NULL ? -1 : 0;
    int blocks = (j->Tq + FUSED_QB - 1) / FUSED_QB, packed = -1;
    for (long it; kt != NULL && (it = atomic_fetch_add(&w->job->next, 1)) < j->n_items;) {
        int b = (int)(it / blocks), i0 = (int)(it % blocks) * FUSED_QB;
        if (b != packed) {
            pack_keys(kt, j->K + (long)b * j->Tk * j->d, j->Tk, j->d);
            fb.bias.alibi_slope = j->slopes != NULL ? j->slopes[b] : 0.0f;
            packed = b;
        }
        int nq = j->Tq - i0 < FUSED_QB ? j->Tq - i0 : FUSED_QB;
        load_block(&fb, j->Q + ((long)b * j->Tq + i0) * j->d, j->scale, i0, nq, j->Tk,
                   j->causal, j->lengths, b);
        fb.O = j->O + ((long)b * j->Tq + i0) * j->dv;
        w->masked += j->kernel(&fb, kt, j->V + (long)b * j->Tk * j->dv);
    }
    free(kt);
    return NULL;
}

/* The fused path with a score scale and optional ALiBi slopes (B of them,
   one per batch entry, or NULL): every other entry point comes here. Runs on
   attn_fused_threads() threads, the calling one among them, never more
   threads than items. */
static long fused_run(float *O, const float *Q, const float *K, const float *V,
                      int B, int Tq, int Tk, int d, int dv, float scale,
                      int causal, const int *lengths, const float *slopes)
{
    if (B < 0 || Tq < 0 || Tk < 0 || d < 0 || dv < 0) return -1;
    fused_job job = { O, Q, K, V, B, Tq, Tk, d, dv, causal, scale, lengths, slopes,
                      current_kernel(), (long)B * ((Tq + FUSED_QB - 1) / FUSED_QB), 0 };
    int n = fused_threads_now;
    if (n > job.n_items) n = job.n_items > 0 ? (int)job.n_items : 1;
    fused_worker w[ATTN_MAX_THREADS];
    int started = 1;                       /* w[0] is this thread */
    for (int t = 0; t < n; t++) w[t] = (fused_worker){ &job, 0, 0 };
    while (started < n && pthread_create(&w[started].thread, NULL, fused_work, &w[started]) == 0)
        started++;                         /* no thread to be had: fewer do the work */
    fused_work(&w[0]);
    /* A thread without work space took no item, so the others did them all:
       only when every thread lacked memory is there no result. */
    long fully_masked = 0;
    int failed = 0;
    for (int t = 0; t < started; t++) {
        if (t > 0) pthread_join(w[t].thread, NULL);
        if (w[t].masked < 0) failed++;
        else fully_masked += w[t].masked;
    }
    return failed == started ? -1 : fully_masked;
}

long attn_fused_attention(float *O, const float *Q, const float *K, const float *V,
                          int B, int Tq, int Tk, int d, int dv,
                          int causal, const int *lengths)
{
    float scale = d > 0 ? (float)(1.0 / sqrt((double)d)) : 1.0f;
    return fused_run(O, Q, K, V, B, Tq, Tk, d, dv, scale, causal, lengths, NULL);
}

long attn_fused_forward(float *O, const float *Q, const float *K, const float *V,
                        int B, int Tq, int Tk, int d, int dv, const attn_config *cfg)
{
    static const attn_config plain = {0};
    if (cfg == NULL) cfg = &plain;
    /* The settings attn_forward rejects, then the two this path does not have. */
    if (!(cfg->temperature >= 0.0f) || cfg->alibi_heads < 0 || B < 0) return -1;
    if (cfg->alibi_heads > 0 && B % cfg->alibi_heads != 0) return -1;
    if (cfg->mask != NULL || cfg->dropout_p != 0.0f) return -1;

    /* Scale and temperature both divide the score: fold them into the queries. */
    double scale = cfg->scaled && d > 0 ? 1.0 / sqrt((double)d) : 1.0;
    if (cfg->temperature > 0.0f) scale /= (double)cfg->temperature;
    float *slopes = NULL;                  /* (B) ALiBi slope of each batch entry */
    if (cfg->alibi_heads > 0) {
        int H = cfg->alibi_heads;
        if ((slopes = malloc((size_t)(B > 0 ? B : 1) * sizeof *slopes)) == NULL) return -1;
        attn_alibi_slopes(slopes, H);      /* the first H entries: one per head */
        for (int b = H; b < B; b++) slopes[b] = slopes[b % H];
    }
    long n = fused_run(O, Q, K, V, B, Tq, Tk, d, dv, (float)scale, cfg->causal, cfg->lengths,
                       slopes);
    free(slopes);
    return n;
}
