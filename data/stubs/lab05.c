/*
 * lab05.c: pre-softmax versus post-softmax masking.        (12 points)
 *
 * YOUR NAME:
 *
 * Rules (the grader checks them; see README.md, section 7):
 *   - Write your code in this file only; do not add files, do not edit lab05.h.
 *   BEGIN RULES (generated from data/rubrics/lab05.yaml by attnlab rules)
 *   - Allowed headers: lab05.h, labsup.h, math.h, stdlib.h, string.h,
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
 *   - Time limit: 2 s per test.
 *   - Memory limit: 64 MiB of heap per test.
 *   - Output limit: 64 KiB of printed output per test.
 *   - Otherwise: a header or a function not listed here gives every test of
 *     the lab "forbidden call" and 0 points; a test over a limit ends
 *     "timed out", "out of memory" or "output limit" and scores 0.
 *   END RULES
 *   - Free what you allocate.
 *   - What you print appears as a short excerpt in your grade report and never
 *     changes your score.
 *
 * Each function below says what it must compute and is worth the points shown.
 * Until you write it, it returns LAB_NOT_IMPLEMENTED. Delete the (void) lines
 * when you start: they only keep the compiler quiet about unused arguments.
 * The full contracts, with every edge case, are in lab05.h.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "lab05.h"

/*
 * lab_attend_premask - mask the SCORES, then softmax, then O = W V.   (4 points)
 *   Keys j >= lengths[b] get the score -inf before softmax, so their weight is
 *   exactly 0 and the real keys' weights still sum to 1. A row with no real key
 *   (lengths[b] == 0) gives an all-zero output row, never NaN.
 *   S (B, Tq, Tk), lengths (B), V (B, Tk, dv), O (B, Tq, dv).
 *   LAB_BAD_ARG: a size < 1, a NULL pointer, a length < 0 or > Tk.
 */
int lab_attend_premask(float *O, const float *S, const int *lengths, const float *V,
                       int B, int Tq, int Tk, int dv)
{
    (void)O; (void)S; (void)lengths; (void)V; (void)B; (void)Tq; (void)Tk; (void)dv;
    return LAB_NOT_IMPLEMENTED;
}

/*
 * lab_attend_postmask - softmax over ALL keys, then zero the padded WEIGHTS.
 *                                                                     (3 points)
 *   This is the bug the lab studies, written on purpose: do not renormalise.
 *   rowsum (B, Tq) receives what is left of each row's weight after zeroing.
 *   Same shapes and LAB_BAD_ARG conditions as lab_attend_premask.
 */
int lab_attend_postmask(float *O, float *rowsum, const float *S, const int *lengths,
                        const float *V, int B, int Tq, int Tk, int dv)
{
    (void)O; (void)rowsum; (void)S; (void)lengths; (void)V;
    (void)B; (void)Tq; (void)Tk; (void)dv;
    return LAB_NOT_IMPLEMENTED;
}

/*
 * lab_masking_experiment - row sums and output drift as padding grows. (5 points)
 *   Seed the support RNG with seed; draw Q (T,d), K (T,d), V (T,d), kp (d),
 *   vp (d) with sup_rng_fill_normal in that order. For each pad count
 *   p = pads[m]: append p copies of kp to the keys and of vp to the values,
 *   compute scaled dot scores q.k / sqrt(d), run both functions above with
 *   lengths = { T }, and store
 *     rowsum[m] = mean over the T queries of the post-mask row sums,
 *     drift[m]  = max over queries and components of |O_post - O_pre|.
 *   LAB_BAD_ARG: n_pads, T or d < 1, a NULL pointer, or a negative pad.
 */
int lab_masking_experiment(float *rowsum, float *drift, const int *pads, int n_pads,
                           int T, int d, uint64_t seed)
{
    (void)rowsum; (void)drift; (void)pads; (void)n_pads; (void)T; (void)d; (void)seed;
    return LAB_NOT_IMPLEMENTED;
}
