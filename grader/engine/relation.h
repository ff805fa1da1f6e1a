/* relation.h: how a wrong output relates to the expected one.
 *
 * A wrong answer that no catalogued misconception predicts may still be a
 * simple function of the right one: every value scaled or shifted by one
 * constant, the matrix transposed, its rows reordered or shifted. Named, such
 * a relation tells an instructor what the code does before reading it
 * ("every value is 0.25 x the expected": a division by n too many).
 *
 * Arrays are float32, row-major, mats matrices of rows x cols each (a flat
 * array is 1 x 1 x n). Two values agree within abs + rel * |value|, the
 * caller's tolerance raised to GR_REL_ABS and GR_REL_REL (a constant found
 * from one element carries that element's rounding); a NaN agrees with a
 * NaN, an infinity with the same infinity, and the finders that scale or
 * shift skip positions that are not finite in both.
 */
#ifndef GR_RELATION_H
#define GR_RELATION_H

#include <stddef.h>

#define GR_REL_ABS 1e-6   /* the least tolerance the finders use */
#define GR_REL_REL 1e-4

/* The shape the finders read an array with. */
typedef struct gr_rel_shape {
    long mats, rows, cols;
} gr_rel_shape;

/* The finders' tolerance: |got - want| <= abs + rel * |want|. */
typedef struct gr_rel_tol {
    double abs, rel;
} gr_rel_tol;

/* 1 with *c when got = c * want at every position (c != 1; some want is
   finite and not 0, and every non-finite want is matched exactly). */
int gr_relation_ratio(const float *want, const float *got, long n, gr_rel_tol tol, double *c);

/* 1 with *c when got = want + c at every position (c not within tolerance of 0). */
int gr_relation_shift(const float *want, const float *got, long n, gr_rel_tol tol, double *c);

/* 1 when got holds each matrix of want transposed (got[m][j][i] = want[m][i][j],
   laid out cols x rows); never for a single row or column. */
int gr_relation_transpose(const float *want, const float *got, gr_rel_shape sh, gr_rel_tol tol);

/* 1 with *k when every row of got is the row k further down in want (got
   row i = want row i + k, k != 0, within each matrix), cyclically (*cyclic 1:
   i + k wraps round) or for the rows that exist (*cyclic 0: at least half the
   rows and two of them compared, the rest of got ignored). */
int gr_relation_row_shift(const float *want, const float *got, gr_rel_shape sh, gr_rel_tol tol,
                          long *k, int *cyclic);

/* 1 when the rows of got are the rows of want in another order (each want row
   used once, within each matrix): perm[r] (r < rows * mats, allocated by the
   caller) is the want row that got row r holds. Work is bounded: 0 when
   rows * rows * cols * mats is over GR_REL_WORK. */
#define GR_REL_WORK (1L << 24)
int gr_relation_rows(const float *want, const float *got, gr_rel_shape sh, gr_rel_tol tol,
                     long *perm);

/* The first relation that holds, as a phrase into out ("every value is 0.25 x
   the expected", "the transpose of the expected", ...): 1, or 0 (out "") when
   none does. Tried in that order: ratio, shift, transpose, row shift, row
   permutation. out is always terminated and cut to outlen. */
int gr_relation_name(const float *want, const float *got, gr_rel_shape sh, gr_rel_tol tol,
                     char *out, size_t outlen);

#endif
