/* attn.h: libattn, the course's answer key.
 *
 * Every operation the course teaches, batched, row-major float32.
 * Dimensions are named once and used everywhere:
 *   B  = batch (or batch * heads)     Tq = number of queries
 *   Tk = number of keys               d  = query/key size (d_k)
 *   dv = value size                   H  = number of heads
 * Shapes: Q is (B, Tq, d), K is (B, Tk, d), V is (B, Tk, dv),
 *         scores S and weights W are (B, Tq, Tk), output O is (B, Tq, dv).
 * Argument order follows llm.c: outputs first, then inputs, then dimensions.
 *
 * The line the course draws: a SCORE is any real number (or -inf when masked);
 * a WEIGHT is what softmax makes of a row of scores, in [0, 1], summing to 1
 * (up to rounding: a float row may sum to 1.0000001).
 * Functions below are grouped by which side of that line they act on.
 *
 * Numerics policy
 *   - float32 in and out; sums, exponentials and logs accumulate in double
 *     where accuracy needs it (softmax, log-sum-exp, entropy, dot products).
 *   - A fully masked row (every score -inf) gives all-zero weights and a zero
 *     output row, never NaN; functions that can meet one return how many there
 *     were. (PyTorch's SDPA since 2.5, 2024, and FlashAttention do the same;
 *     plain torch.softmax, and SDPA before 2.5, give NaN.)
 *   - A weight is exactly 0 where its score is -inf, and also, by underflow,
 *     where a finite score is more than about 104 below its row's max (the
 *     float32 limit: exp(x) rounds to 0 below x = -103.97).
 *   - NaN inputs propagate to the rows they touch.
 *   - Masks write -INFINITY, never a large negative constant.
 */
#ifndef ATTN_H
#define ATTN_H

#include <stdint.h>

/* ------------------------------------------------------------------ */
/* Scores: (B, Tq, Tk), any real number.                                */
/* ------------------------------------------------------------------ */

/* Dot-product scores: S[b][i][j] = sum_c Q[b][i][c] * K[b][j][c]. */
void attn_dot_scores(float *S, const float *Q, const float *K,
                     int B, int Tq, int Tk, int d);

/* Scaled dot-product scores: the dot score divided by sqrt(d). */
void attn_scaled_dot_scores(float *S, const float *Q, const float *K,
                            int B, int Tq, int Tk, int d);

/* Luong general scores: S[b][i][j] = Q[b][i]^T W K[b][j].
   Q is (B, Tq, dq), K is (B, Tk, dk), W is (dq, dk) shared by the batch. */
void attn_general_scores(float *S, const float *Q, const float *W, const float *K,
                         int B, int Tq, int Tk, int dq, int dk);

/* Bahdanau additive scores: S[b][i][j] = v . tanh(Wq Q[b][i] + Wk K[b][j]).
   Q is (B, Tq, dq), K is (B, Tk, dk), Wq is (h, dq), Wk is (h, dk), v is (h). */
void attn_additive_scores(float *S, const float *Q, const float *K,
                          const float *Wq, const float *Wk, const float *v,
                          int B, int Tq, int Tk, int dq, int dk, int h);

/* ------------------------------------------------------------------ */
/* Edits on scores (before softmax). All act in place on S.             */
/* ------------------------------------------------------------------ */

/* Causal mask: S[b][i][j] = -inf wherever key j is after query i (j > i). */
void attn_causal_mask(float *S, int B, int Tq, int Tk);

/* Key-padding mask: S[b][i][j] = -inf wherever j >= lengths[b] (lengths has B entries).
   A length of 0 or less masks every key of that batch entry; one of Tk or more, none. */
void attn_padding_mask(float *S, const int *lengths, int B, int Tq, int Tk);

/* Boolean mask: S[k] = -inf wherever mask[k] is nonzero (1 = blocked); mask is (B, Tq, Tk). */
void attn_bool_mask(float *S, const unsigned char *mask, int B, int Tq, int Tk);

/* Temperature: S[k] /= tau for each of the n scores, k in [0, n). Returns 0, or -1
   if tau is not > 0 (S untouched). */
int attn_temperature(float *S, float tau, long n);

/* ALiBi slopes for H heads: slope h is 2^(-8(h+1)/H) when H is a power of two.
   Otherwise, with P the largest power of two below H: the P slopes of P heads,
   then slopes 0, 2, 4, ..., 2(H - P - 1) of 2P heads (counting from 0), that is
   2^(-8(2k+1)/(2P)) for k = 0 .. H - P - 1. slopes has H entries. */
void attn_alibi_slopes(float *slopes, int H);

/* ALiBi bias: S[b][i][j] += m_h * (j - i) with h = b % H, so S is (B, Tq, Tk)
   where B counts batch * heads, heads fastest. Keys further before the query get
   lower scores (pair it with a causal mask: keys after it would get a bonus).
   H <= 0 leaves S untouched. */
void attn_alibi_bias(float *S, int B, int H, int Tq, int Tk);

/* T5 relative-position bucket of rel = j - i (key position minus query position),
   num_buckets buckets, exact below num_buckets/2 (or /4 each side when
   bidirectional), logarithmic up to max_distance, clamped beyond; computed in
   float32 like the published T5 code. Returns the bucket in [0, num_buckets), or
   -1 if num_buckets is below 2 (below 4 when bidirectional): too few to split. */
int attn_t5_bucket(int rel, int bidirectional, int num_buckets, int max_distance);

/* Relative position bias: S[b][i][j] += table[h][bucket(j - i)], h = b % H,
   table is (H, num_buckets). Bucket parameters attn_t5_bucket rejects, or H <= 0,
   leave S untouched. */
void attn_relpos_bias(float *S, const float *table, int B, int H, int Tq, int Tk,
                      int bidirectional, int num_buckets, int max_distance);

/* ------------------------------------------------------------------ */
/* Softmax: scores -> weights, the single conversion point.             */
/* ------------------------------------------------------------------ */

/* Row softmax over the last axis (the key axis, dim -1): W[r] = exp(S[r] - max) / sum,
   for rows rows of n. W may equal S (in place). A row whose scores are all -inf
   becomes all zeros.
   Returns the number of such fully masked rows. */
long attn_softmax(float *W, const float *S, long rows, int n);

/* Log-sum-exp of one row of n scores: log(sum_j exp(s_j)); -inf for a fully masked row. */
float attn_logsumexp(const float *s, int n);

/* Row log-sum-exp: lse[r] = attn_logsumexp(S + r*n, n) for each of rows rows. */
void attn_logsumexp_rows(float *lse, const float *S, long rows, int n);

/* Entropy of each weight row in nats: ent[r] = -sum_j W[r][j] log W[r][j],
   0 log 0 = 0; ent has rows entries. */
void attn_entropy_rows(float *ent, const float *W, long rows, int n);

/* Softmax backward: dS[r][j] = W[r][j] * (dW[r][j] - <W[r], dW[r]>).
   Its size is bounded by 2 (1 - max_j W[r][j]) * max|dW|. dS may equal dW. */
void attn_softmax_backward(float *dS, const float *W, const float *dW, long rows, int n);

/* ------------------------------------------------------------------ */
/* Edits on weights (after softmax).                                    */
/* ------------------------------------------------------------------ */

/* libattn's generator (SplitMix64), for dropout: the same sequence, draw for draw,
   as the support code's sup_rng with the same seed, but inside libattn, which so
   needs only libm. */
typedef struct attn_rng {
    uint64_t state;
} attn_rng;

/* Start the generator at seed. */
void attn_rng_seed(attn_rng *rng, uint64_t seed);

/* The next 64 random bits. */
uint64_t attn_rng_u64(attn_rng *rng);

/* A float in [0, 1): the top 24 bits of the next attn_rng_u64 times 2^-24, exact. */
float attn_rng_uniform(attn_rng *rng);

/* Inverted dropout, in place: for n = 0, 1, ..., draw u = attn_rng_uniform from a
   generator seeded with seed (the same draws as sup_rng_uniform); drop (W[n] = 0) when u < p, else W[n] /= (1 - p),
   in float. One draw per weight whatever p is. Returns 0, or -1 if p is not in
   [0, 1) (W untouched). */
int attn_dropout(float *W, float p, uint64_t seed, long n);

/* Post-softmax masking, the bug lab 5 studies: zero W[b][i][j] for j >= lengths[b].
   Rows then sum to less than 1. */
void attn_postmask(float *W, const int *lengths, int B, int Tq, int Tk);

/* Post-softmax masking, renormalised: zero the padded weights then divide each row
   by its remaining sum (a row with nothing left stays all zeros). */
void attn_postmask_renorm(float *W, const int *lengths, int B, int Tq, int Tk);

/* ------------------------------------------------------------------ */
/* Output and whole pipelines.                                          */
/* ------------------------------------------------------------------ */

/* Output = weights x values: O[b][i][c] = sum_j W[b][i][j] * V[b][j][c]. */
void attn_output(float *O, const float *W, const float *V, int B, int Tq, int Tk, int dv);

/* What attn_forward does to scores before softmax and to weights after it.
   Zero-initialise and set what you need: {0} is plain dot-product attention. */
typedef struct attn_config {
    int scaled;                  /* 1: divide scores by sqrt(d) */
    float temperature;           /* > 0 divides scores; 0 means 1 (no temperature) */
    int causal;                  /* 1: causal mask */
    const int *lengths;          /* B key lengths for key padding, or NULL */
    const unsigned char *mask;   /* (B, Tq, Tk) boolean mask (1 = blocked), or NULL */
    int alibi_heads;             /* H > 0: add ALiBi bias with H heads (B counts batch*H) */
    float dropout_p;             /* in [0, 1): inverted dropout on weights */
    uint64_t dropout_seed;       /* seed of the dropout generator */
} attn_config;

/* Reference attention, step by step, in this order: scores (dot, or scaled),
   temperature, ALiBi bias, causal mask, padding mask, boolean mask, softmax,
   dropout, output. W receives the weights (B, Tq, Tk) actually multiplied by V
   (after dropout) if not NULL; otherwise a scratch matrix is allocated. cfg may
   be NULL (plain dot-product attention). Returns the number of fully masked rows,
   or -1, with nothing written, on a bad config (temperature < 0 or NaN, dropout_p
   outside [0, 1), alibi_heads < 0 or not dividing B) or when memory runs out. */
long attn_forward(float *O, float *W, const float *Q, const float *K, const float *V,
                  int B, int Tq, int Tk, int d, int dv, const attn_config *cfg);

/* Online (streaming) attention, the readable reference of the streaming idea.
   Settings it supports, exactly: scaled dot-product scores (always divided by
   sqrt(d)), the causal mask (causal 1: query i sees keys 0..i), and key padding
   (lengths has B entries, NULL for none: key j is visible iff j < lengths[b]).
   When B counts batch x heads, lengths holds one entry per (batch, head) pair:
   each batch entry's length repeated for each of its heads, heads fastest. No
   temperature, ALiBi, boolean mask or dropout (attn_fused_forward has the first
   two). Keys are processed tile keys at a time with a running max, running sum
   and rescaled accumulator, in double; never stores a Tq x Tk matrix. Matches
   attn_forward with the same settings. Returns the fully masked row count, or
   -1 (O untouched) if tile < 1 or memory runs out. */
long attn_online_attention(float *O, const float *Q, const float *K, const float *V,
                           int B, int Tq, int Tk, int d, int dv, int tile,
                           int causal, const int *lengths);

/* Fast path: blocked, fused online-softmax attention (query blocks x key tiles),
   the same settings, contract and result as attn_online_attention (scaled dot,
   causal, key padding with lengths as there), written for speed: float
   arithmetic with explicit SIMD (the kernel attn_fused_isa names), within 1e-5 of
   attn_forward at unit-scale inputs; working memory d * Tk floats (K packed tile
   by tile) plus a few KiB per block, for each thread (attn_fused_set_threads).
   Tiles above the causal diagonal are skipped.
   Returns the fully masked row count, or -1 if memory runs out. */
long attn_fused_attention(float *O, const float *Q, const float *K, const float *V,
                          int B, int Tq, int Tk, int d, int dv,
                          int causal, const int *lengths);

/* The fast path with more of attn_forward's settings: cfg's scaled, temperature,
   causal, lengths (as in attn_online_attention) and alibi_heads (ALiBi with H
   heads, head h = b % H, slopes as attn_alibi_slopes), in attn_forward's order
   and meaning; cfg NULL is plain dot-product attention. A boolean mask or
   dropout is not supported: with cfg->mask set or dropout_p nonzero it returns -1
   and writes nothing, as it does for a config attn_forward rejects. Otherwise
   returns the fully masked row count (-1 if memory runs out). Scale and
   temperature are folded into the queries, so scores differ from attn_forward's
   by float rounding (within 1e-5 of it at unit-scale inputs). */
long attn_fused_forward(float *O, const float *Q, const float *K, const float *V,
                        int B, int Tq, int Tk, int d, int dv, const attn_config *cfg);

/* Instruction sets the fused path has a kernel for. */
typedef enum attn_isa {
    ATTN_ISA_AUTO = 0,        /* the best this CPU runs (the default) */
    ATTN_ISA_PORTABLE,        /* 4-float vectors: SSE2 on x86-64, NEON on arm64 */
    ATTN_ISA_AVX2,            /* 8-float vectors with FMA (x86-64 with AVX2 and FMA) */
    ATTN_ISA_AVX512           /* 16-float vectors (x86-64 with AVX-512F) */
} attn_isa;

/* Choose the fused path's kernel for the whole process (call it before any
   thread runs the fused path). Returns 0, or -1 (choice unchanged) when this CPU
   cannot run isa. All kernels give the same results up to float rounding. */
int attn_fused_set_isa(attn_isa isa);

/* Name of the kernel the fused path uses now: "avx512", "avx2" or "portable". */
const char *attn_fused_isa(void);

/* Name of isa: "auto", "portable", "avx2" or "avx512". */
const char *attn_isa_name(attn_isa isa);

/* Threads of the fused path (attn_fused_attention, attn_fused_forward): n
   threads, the caller's among them, take (batch entry, block of queries)
   items one at a time, so B counting batch x heads spreads heads and query
   blocks over cores; each thread has its own working memory (as above) and
   the results are the same whatever n. 1 (the default) runs on the calling
   thread alone. Returns 0, or -1 (nothing changed) unless 1 <= n <=
   ATTN_MAX_THREADS. A process-wide setting, like attn_fused_set_isa: set it
   before calls, not during them. */
#define ATTN_MAX_THREADS 256
int attn_fused_set_threads(int n);

/* The number of threads the fused path uses. */
int attn_fused_threads(void);

/* ------------------------------------------------------------------ */
/* Decoding: masks and denominators (lab 9).                            */
/* ------------------------------------------------------------------ */

/* Causal mask for Tq != Tk, in place: S[b][i][j] = -inf wherever j > last(i), with
   last(i) = i top-left (bottom_right 0, PyTorch's is_causal) or i + Tk - Tq
   bottom-right (bottom_right 1, decoding with a KV cache: the last query sees
   every key). Bottom-right with Tq > Tk masks the first Tq - Tk rows entirely. */
void attn_causal_mask_aligned(float *S, int B, int Tq, int Tk, int bottom_right);

/* Sliding-window mask, bottom-right aligned, in place: key j stays visible iff
   i' - window < j <= i' with i' = i + Tk - Tq; every other score becomes -inf.
   Returns 0, or -1 if window < 1 (S untouched). */
int attn_sliding_window_mask(float *S, int B, int Tq, int Tk, int window);

/* Softmax with a sink logit: one extra score per head (sink has H entries, head
   h = b % H) that joins the denominator but has no value:
     W[b][i][j] = exp(s_j - m) / (exp(sink_h - m) + sum_k exp(s_k - m)),
   m the max over the row's scores and the sink. Rows sum to 1 - Wsink < 1 by
   design; Wsink (B, Tq, may be NULL) receives the sink's share. A row whose
   scores are all -inf gets zero weights and Wsink 1; a -inf sink is plain
   softmax (zero-row policy, Wsink 0). Returns the number of rows whose scores
   were all -inf. NaN scores or sinks propagate to their rows. */
long attn_sink_softmax(float *W, float *Wsink, const float *S, const float *sink,
                       int B, int H, int Tq, int Tk);

/* Backward of post-softmax masking W' = keep * W, W = softmax(S) (keep is (rows, n),
   nonzero = kept): given dW = dL/dW', dS[r][j] = W[r][j] (g'_j - <W[r], g'>) with
   g' = keep * dW[r]. A zeroed key gets -W[r][j] <W[r], g'>, not 0. */
void attn_postmask_backward(float *dS, const float *W, const float *dW,
                            const unsigned char *keep, long rows, int n);

/* ------------------------------------------------------------------ */
/* Heads (lab 10): per-head weights, their average, one head's heatmap. */
/* Q is (B, H, Tq, d), K is (B, Hkv, Tk, d), S and W are (B, H, Tq, Tk): */
/* batch slowest, then head. Averages over heads are (B, Tq, Tk).       */
/* ------------------------------------------------------------------ */

/* The key/value head query head h reads in grouped-query attention with H query
   heads and Hkv kv heads: h / (H / Hkv). Returns -1 unless H % Hkv == 0 and
   0 <= h < H (Hkv = H is plain multi-head, Hkv = 1 multi-query attention). */
int attn_gqa_kv_head(int h, int H, int Hkv);

/* Per-head weights: W[b][h] = softmax over keys of Q[b][h] K[b][kv]^T / sqrt(d),
   kv = attn_gqa_kv_head(h, H, Hkv). Returns 0, or -1 (W untouched) when a size
   is < 1 or H % Hkv != 0. */
int attn_head_weights(float *W, const float *Q, const float *K,
                      int B, int H, int Hkv, int Tq, int Tk, int d);

/* Average of the heads' weights: A[b][i][j] = (1/H) sum_h W[b][h][i][j]. Each
   row of A is a distribution when the rows of W are. */
void attn_head_mean_weights(float *A, const float *W, int B, int H, int Tq, int Tk);

/* Softmax of the heads' mean scores: M[b][i] = softmax_j((1/H) sum_h S[b][h][i][j]),
   in general NOT attn_head_mean_weights of the heads' softmaxes. Returns the
   number of fully masked rows (all-zero, as attn_softmax). */
long attn_softmax_of_mean_scores(float *M, const float *S, int B, int H, int Tq, int Tk);

/* The gap between two weight matrices, rows rows of n: max_abs[r] = max_j
   |A[r][j] - M[r][j]|, dH[r] = entropy(A[r]) - entropy(M[r]) in nats. */
void attn_weight_gap(float *max_abs, float *dH, const float *A, const float *M,
                     long rows, int n);

/* One head for a heatmap: Wh (Tq, Tk) = W[b][h], row i query i, column j key j.
   Returns 0, or -1 (Wh untouched) when a size is < 1 or (b, h) is out of range. */
int attn_extract_head(float *Wh, const float *W, int B, int H, int Tq, int Tk, int b, int h);

/* ------------------------------------------------------------------ */
/* Positions (lab 11): absolute encodings added to the inputs, rotary
   embeddings applied to q and k; both act before the scores.          */
/* ------------------------------------------------------------------ */

/* Sinusoidal encoding (Vaswani et al. 2017, section 3.5) added to the inputs:
   X[b][t][2i] += sin(t * base^(-2i/d)), X[b][t][2i+1] += cos(the same angle),
   X (B, T, d), positions 0..T-1 (base 10000 in the paper). Returns 0, or -1
   (X untouched) unless B, T >= 0, d even and >= 2, base > 1. */
int attn_add_sinusoidal(float *X, int B, int T, int d, float base);

/* Learned absolute encoding added to the inputs: X[r] += P[pos[r]] for each of
   the B*T rows r of X (B, T, d); P is (max_pos, d), pos (B, T). Returns 0, or
   -1 (X untouched) when a size is out of range or a position is not in
   [0, max_pos) (a table has no row for it; GPT-2's has 1024). */
int attn_add_learned(float *X, const float *P, const int *pos, int B, int T, int d,
                     int max_pos);

/* Which elements of a row RoPE rotates together (pair i of d/2). */
enum {
    ATTN_ROPE_INTERLEAVED = 0,   /* (2i, 2i+1): RoFormer, GPT-J (rotate_every_two) */
    ATTN_ROPE_HALF = 1           /* (i, i + d/2): GPT-NeoX, Hugging Face Llama (rotate_half) */
};

/* Rotary position embedding (Su et al. 2021) in place: row n of X (N, d), at
   position pos[n], has each pair (a, b) of layout rotated by the angle
   pos[n] * base^(-2i/d): (a, b) -> (a cos - b sin, a sin + b cos). Applied to
   queries and keys alike, it makes q_m . k_n a function of m - n. Returns 0,
   or -1 (X untouched) unless N >= 0, d even and >= 2, base > 1 and layout
   one of the two. */
int attn_rope(float *X, const int *pos, int N, int d, float base, int layout);

/* One decoding step with a cache, the new token at absolute position t: q and
   k are rotated at t, k written rotated into row t of Kc (rows 0..t-1 hold the
   earlier keys, rotated at their own positions when they were written), v into
   row t of Vc unrotated, and o = softmax_j(q . Kc[j] / sqrt(d)) Vc over j in
   0..t. Kc and Vc have at least t + 1 rows of d. Returns 0, or -1 (nothing
   written) on attn_rope's conditions, t < 0 or no memory. */
int attn_rope_decode(float *o, float *Kc, float *Vc, const float *q, const float *k,
                     const float *v, int t, int d, float base, int layout);

/* ------------------------------------------------------------------ */
/* The whole layer (lab 12): W_Q, W_K, W_V, heads, concat, W_O.        */
/* X is (B, T, d_model); a head is dh = d_model / H features of it.    */
/* ------------------------------------------------------------------ */

/* Split into heads: Xh[b][h][t][j] = X[b][t][h*dh + j], X (B, T, H*dh), Xh
   (B, H, T, dh) (PyTorch's view(B, T, H, dh).transpose(1, 2)). Returns 0, or
   -1 (nothing written) unless B, T >= 0 and H, dh >= 1. */
int attn_split_heads(float *Xh, const float *X, int B, int T, int H, int dh);

/* The concat, attn_split_heads undone: X[b][t][h*dh + j] = Xh[b][h][t][j]. */
int attn_merge_heads(float *X, const float *Xh, int B, int T, int H, int dh);

/* Multi-head attention: Q = Xq W[0], K = Xkv W[1], V = Xkv W[2] (W is four
   (d_model, d_model) blocks, x W with rows the inputs: PyTorch's Linear holds
   the transpose), per head softmax_j(q_i . k_j / sqrt(dh)) over the keys left
   open (causal: j <= i; keep (B, Tk): keep[b][j] nonzero, NULL for all), the
   heads concatenated in order, O = concat W[3] (B, Tq, d_model). A (NULL for
   none) gets the weights per head (B, H, Tq, Tk), or with average their mean
   over the heads (B, Tq, Tk), as nn.MultiheadAttention by default. A row with
   no key open has weights 0 and output 0. Self-attention passes Xq = Xkv.
   Returns 0, or -1 (nothing written) on a negative B, Tq or Tk, d_model or H
   below 1, H not dividing d_model, causal or average not 0 or 1, no memory. */
int attn_mha(float *O, float *A, const float *Xq, const float *Xkv, const float *W,
             const unsigned char *keep, int B, int Tq, int Tk, int d_model, int H,
             int causal, int average);

#endif /* ATTN_H */
