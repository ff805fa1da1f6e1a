/*
 * lab07.c: online softmax, attention tile by tile.          (12 points)
 *
 * YOUR NAME:
 *
 * Rules (the grader checks them; see README.md, section 7):
 *   - Write your code in this file only; do not add files, do not edit lab07.h.
 *   BEGIN RULES (generated from data/rubrics/lab07.yaml by attnlab rules)
 *   - Allowed headers: lab07.h, labsup.h, math.h, stdlib.h, string.h,
 *     stddef.h, stdint.h, stdio.h.
 *   - Allowed library functions:
 *     - math: expf, exp, logf, log, sqrtf, sqrt, fabsf, fabs, fmaxf, fmax,
 *       fminf, fmin.
 *     - memory: malloc, calloc, realloc, free, memset, memcpy.
 *     - output: printf, puts, putchar.
 *     - support code (labsup.h): sup_rng_seed, sup_rng_u64, sup_rng_uniform,
 *       sup_rng_normal, sup_rng_fill_normal, sup_rng_fill_uniform,
 *       sup_tensor_alloc, sup_tensor_free, sup_tensor_print,
 *       sup_print_matrix, sup_error.
 *   - INFINITY, NAN, isinf, isnan and isfinite are macros of math.h, not
 *     calls: use them freely.
 *   - Time limit: 2 s per test; 20 s for attention_memory_4096.
 *   - Memory limit: 1 MiB of heap per test.
 *   - Output limit: 64 KiB of printed output per test.
 *   - Otherwise: a header or a function not listed here gives every test of
 *     the lab "forbidden call" and 0 points; a test over a limit ends
 *     "timed out", "out of memory" or "output limit" and scores 0.
 *   END RULES
 *   - Free what you allocate.
 *   - MEMORY: the limit above holds at every moment; stack arrays of a few KiB
 *     at most. lab_online_attention is graded at T = 4096, where a T x T float
 *     matrix is 64 MiB: code that stores all the scores ends "out of memory".
 *   - What you print appears as a short excerpt in your grade report and never
 *     changes your score.
 *
 * Each function below says what it must compute and is worth the points shown.
 * Until you write it, it returns LAB_NOT_IMPLEMENTED. Delete the (void) lines
 * when you start: they only keep the compiler quiet about unused arguments.
 * The full contracts, with every edge case, are in lab07.h.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "lab07.h"

/*
 * lab_online_logsumexp - log(sum_j exp(S[r][j])) for each row, streaming.
 *                                                                     (4 points)
 *   Read each row tile entries at a time with a running max m and a running
 *   sum l of exp(s - m); rescale l by exp(m_old - m_new) when the max grows.
 *   A row of -inf gives -inf (not NaN).  LAB_BAD_ARG: rows, n or tile < 1.
 */
int lab_online_logsumexp(float *lse, const float *S, int rows, int n, int tile)
{
    (void)lse; (void)S; (void)rows; (void)n; (void)tile;
    return LAB_NOT_IMPLEMENTED;
}

/*
 * lab_online_attention - softmax(Q K^T / sqrt(d)) V without a T x T matrix.
 *                                                                     (8 points)
 *   Q, K (B, T, d), V (B, T, dv), O (B, T, dv). Stream the keys tile at a time
 *   per query row with a running max, a running sum and a running output that
 *   you rescale by exp(m_old - m_new). causal = 1: query i sees keys 0..i only.
 *   At most 1 MiB of heap.  LAB_BAD_ARG: a size < 1 or tile < 1.
 */
int lab_online_attention(float *O, const float *Q, const float *K, const float *V,
                         int B, int T, int d, int dv, int tile, int causal)
{
    (void)O; (void)Q; (void)K; (void)V; (void)B; (void)T; (void)d; (void)dv;
    (void)tile; (void)causal;
    return LAB_NOT_IMPLEMENTED;
}
