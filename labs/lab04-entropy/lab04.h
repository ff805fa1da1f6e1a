/* lab04.h: the contract of lab 4, an experiment: the entropy of attention
 * weights versus d_k, for raw and for scaled dot-product scores. Do not edit
 * this file: the grader compiles your lab04.c against its own pristine copy.
 *
 * Dimensions are named once and used everywhere:
 *   T  = number of keys (one query against T keys)
 *   d  = size of the query and key vectors (d_k)
 *   rows, n = a (rows, n) row-major array of weights, one row per query
 *
 * The experiment draws its inputs from the support generator (labsup.h), in an
 * order fixed below, so that a seed fixes every number: your results are
 * reproducible, and the grader recomputes them exactly for its own seeds.
 */
#ifndef LAB04_H
#define LAB04_H

#include <stdint.h>

#include "labsup.h"

/* Entropy of each row of weights, in nats (natural log):
       H[r] = - sum_j W[r][j] * log(W[r][j])
   with 0 * log 0 = 0, so a weight of exactly 0 adds nothing: a masked key,
   or a finite score that underflowed (in float32 exp(s - max) is 0 once s is
   about 104 below its row's max; raw rows at d = 512 get there, README.md,
   section 2).
   W is (rows, n) row-major, rows of softmax weights (each in [0, 1], each row
   summing to 1, or all zeros for a fully masked row, whose entropy is 0);
   H has rows entries. Uniform weights give log n, the maximum; a one-hot row
   gives 0, the minimum.
   Sizes: rows >= 0 (0: nothing to do), n >= 1.
   Returns LAB_OK; LAB_BAD_ARG for rows < 0 or n < 1 (H untouched);
   LAB_NOT_IMPLEMENTED while the stub is untouched.
   Accuracy: |got - expected| <= 1e-5 + 1e-4 * expected; summing in float or in
   double both meet it for n up to 4096. */
int lab_row_entropy(float *H, const float *W, int rows, int n);

/* The experiment: mean entropy of softmax weights over trials random queries,
   for each d in dks, with raw scores q.k and with scaled scores q.k / sqrt(d).
   Exactly this procedure, in this order:

       sup_rng rng; sup_rng_seed(&rng, seed);      one generator, seeded once
       for m = 0 .. n_dk-1, with d = dks[m]:
           sum_raw = sum_scaled = 0
           for t = 0 .. trials-1:
               sup_rng_fill_normal(&rng, q, d)       the query: d normals
               sup_rng_fill_normal(&rng, K, T*d)     the keys: (T, d) row-major,
                                                     key j is K[j*d .. j*d + d-1]
               s[j] = q . K[j]        for j = 0 .. T-1   (raw scores)
               sum_raw    += entropy(softmax(s))
               sum_scaled += entropy(softmax(s / sqrt(d)))
           H_raw[m]    = sum_raw / trials
           H_scaled[m] = sum_scaled / trials

   The generator is never reseeded: the draws for dks[1] continue where those
   for dks[0] stopped. Both entropies of a trial use the same q and K. Softmax
   must be the stable one (subtract the max: raw scores at d = 512 reach 60 and
   more), and the entropy is the one of lab_row_entropy.
   H_raw and H_scaled have n_dk entries each; dks has n_dk entries.
   Returns LAB_OK; LAB_BAD_ARG, with the outputs untouched and nothing drawn, when
   n_dk < 1, T < 1, trials < 1 or any dks[m] < 1; LAB_NOT_IMPLEMENTED while the
   stub is untouched.
   Scratch memory (q, K, the scores) comes from malloc/calloc; free it before
   returning. Should an allocation fail, return LAB_BAD_ARG (the grader never
   makes one fail; an allocation over its limit ends the test as "out of memory").
   Accuracy: each mean within 1e-3 nats of the reference (which sums in double).
   Float dot products, softmax and entropy meet that easily; drawing in another
   order does not (the numbers change completely). */
int lab_entropy_experiment(float *H_raw, float *H_scaled, const int *dks, int n_dk,
                           int T, int trials, uint64_t seed);

#endif /* LAB04_H */
