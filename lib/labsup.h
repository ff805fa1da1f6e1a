/* labsup.h: support code students may use in their labs. It holds no answers.
 *
 *   sup_rng_*     a deterministic generator: the same uniforms and normals for a
 *                 seed on every machine, so experiments are reproducible and gradable
 *   sup_tensor_*  allocate, fill and print small tensors
 *   sup_yaml_*    read and write tensors as YAML files (needs libyaml)
 *   LAB_*         the return codes every lab contract uses
 *
 * Errors: functions that can fail return -1 (or NULL) and sup_error() says why,
 * as one sentence (file:line:column first for YAML input).
 */
#ifndef LABSUP_H
#define LABSUP_H

#include <stdint.h>
#include <stdio.h>

/* Return codes of every lab function. */
#define LAB_OK               0   /* done, outputs written */
#define LAB_NOT_IMPLEMENTED (-1) /* the stub is untouched */
#define LAB_BAD_ARG         (-2) /* an argument breaks the contract (e.g. tau <= 0) */

/* ---- deterministic RNG -------------------------------------------------
 * SplitMix64: state += 0x9E3779B97F4A7C15, then the standard output mix.
 * Uniforms use the top 24 bits of one output: u in [0, 1) exactly representable.
 * Normals use two outputs (Box-Muller, cosine branch, computed in double then
 * rounded), so the sequence of draws is fixed and documented. */
typedef struct sup_rng {
    uint64_t state;
} sup_rng;

/* Seed a generator: the state becomes seed. */
void sup_rng_seed(sup_rng *rng, uint64_t seed);

/* Next raw 64-bit output. */
uint64_t sup_rng_u64(sup_rng *rng);

/* Uniform float in [0, 1): (u64 >> 40) * 2^-24. One draw. */
float sup_rng_uniform(sup_rng *rng);

/* Standard normal float: u1 = uniform, u2 = uniform (two draws),
   sqrt(-2 ln(1 - u1)) * cos(2 pi u2). */
float sup_rng_normal(sup_rng *rng);

/* Fill x[0..n) with standard normals, in index order. */
void sup_rng_fill_normal(sup_rng *rng, float *x, long n);

/* Fill x[0..n) with uniforms in [lo, hi), in index order. */
void sup_rng_fill_uniform(sup_rng *rng, float *x, long n, float lo, float hi);

/* ---- tensors ---------------------------------------------------------- */
#define SUP_MAX_DIMS 4

typedef struct sup_tensor {
    int ndim;                  /* 1 to SUP_MAX_DIMS */
    int shape[SUP_MAX_DIMS];   /* sizes, outermost first */
    long size;                 /* product of the shape */
    float *data;               /* size floats, row-major */
} sup_tensor;

/* Allocate a zeroed tensor of the given shape; NULL on a bad shape or no memory. */
sup_tensor *sup_tensor_alloc(int ndim, const int *shape);

/* Free a tensor from sup_tensor_alloc (NULL is fine). */
void sup_tensor_free(sup_tensor *t);

/* Print a tensor to f with a name, as nested rows, 4 decimals; -inf and nan spelled out. */
void sup_tensor_print(FILE *f, const char *name, const sup_tensor *t);

/* Print a plain float array as a (rows, cols) matrix, same format as sup_tensor_print. */
void sup_print_matrix(FILE *f, const char *name, const float *x, int rows, int cols);

/* ---- YAML tensor I/O (libyaml) ------------------------------------------
 * File format: a mapping of names to tensors,
 *     Q:
 *       shape: [2, 3]
 *       data: [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
 * with -.inf / .inf / .nan for non-finite values. */

/* Read tensor name from a YAML file; NULL on error (sup_error() gives file:line:column). */
sup_tensor *sup_yaml_read_tensor(const char *path, const char *name);

/* Write n named tensors to path atomically (temporary file, then rename). 0 or -1. */
int sup_yaml_write_tensors(const char *path, const char *const *names,
                           const sup_tensor *const *tensors, int n);

/* The reason for the last failure of a sup_ function, one sentence. */
const char *sup_error(void);

/* ---- predictions (sup_predict.c) ----------------------------------------
 * What an experiment should measure, from the score distribution alone.
 * Lab 4: raw scores q . k over T keys have spread sqrt(d); the mean entropy of
 * the weights tends to c(T) / sqrt(d) as d grows, approached
 * from above. Lab 5: p pad keys each scoring a ~ N(0, 1) leave a row sum of
 * 1 / (1 + (p / T) e^(a - 1/2)), averaged over a; the drift is the expected
 * largest (1 - row sum) max|O| over T rows of d outputs, rows independent.
 * NaN for sizes out of range. */
double sup_predict_entropy_c(int T);
double sup_predict_entropy_raw(int T, int d);
double sup_predict_masking_rowsum(int p, int T);
double sup_predict_masking_drift(int p, int T, int d);

#endif /* LABSUP_H */
