/*
 * lab02.c: masks and softmax.                              (14 points)
 *
 * Your name:
 * Your student id:
 *
 * RULES (read them before you write a line; the grader enforces them)
 *
 *   - Write your answers in this file only, and only inside the functions
 *     below. You may add static helper functions. Do not edit lab02.h.
 *   BEGIN RULES (generated from data/rubrics/lab02.yaml by attnlab rules)
 *   - Allowed headers: lab02.h, labsup.h, math.h, stdlib.h, string.h,
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
 *   - What you print shows up as a short excerpt in the grade report and
 *     never changes a score. Remove debugging output when you are done.
 *   - A masked score is -INFINITY. Never a large negative constant.
 *   - Every function returns LAB_NOT_IMPLEMENTED until you write it. Replace
 *     that line when you start; return LAB_OK when the outputs are written.
 *
 * Test as you go:   make test          (the visible tests, in this folder)
 * Grade:            make -C ../.. grade
 * The handout (README.md) explains everything below; sections are numbered.
 */
#include <math.h>

#include "lab02.h"

/*
 * lab_softmax - row softmax, numerically stable             (6 points)
 *
 *   W[r][j] = exp(S[r][j] - max_k S[r][k]) / sum_k exp(S[r][k] - max_k S[r][k])
 *
 *   S and W are (rows, n); W may equal S. A row of all -inf becomes all
 *   zeros and is counted into *n_masked_rows (when not NULL).
 *   LAB_BAD_ARG for rows < 0 or n < 1.
 *   Handout: sections 2 (softmax), 3 (stability) and 5 (fully masked rows).
 */
int lab_softmax(float *W, const float *S, int rows, int n, int *n_masked_rows)
{
    (void)W; (void)S; (void)rows; (void)n; (void)n_masked_rows;
    return LAB_NOT_IMPLEMENTED;
}

/*
 * lab_causal_mask - query i sees keys 0 .. i                (2 points)
 *
 *   S[b][i][j] = -inf for j > i, in place. LAB_BAD_ARG for a negative size.
 *   Handout: section 4.
 */
int lab_causal_mask(float *S, int B, int Tq, int Tk)
{
    (void)S; (void)B; (void)Tq; (void)Tk;
    return LAB_NOT_IMPLEMENTED;
}

/*
 * lab_padding_mask - hide the padding keys                  (3 points)
 *
 *   S[b][i][j] = -inf for j >= lengths[b], in place. LAB_BAD_ARG (S untouched)
 *   for a negative size or a length < 0 or > Tk.
 *   Handout: section 4.
 */
int lab_padding_mask(float *S, const int *lengths, int B, int Tq, int Tk)
{
    (void)S; (void)lengths; (void)B; (void)Tq; (void)Tk;
    return LAB_NOT_IMPLEMENTED;
}

/*
 * lab_bool_mask - block where the mask says so              (1 point)
 *
 *   S[n] = -inf where M[n] != 0, in place. LAB_BAD_ARG for a negative size.
 *   Handout: section 4.
 */
int lab_bool_mask(float *S, const unsigned char *M, int B, int Tq, int Tk)
{
    (void)S; (void)M; (void)B; (void)Tq; (void)Tk;
    return LAB_NOT_IMPLEMENTED;
}

/*
 * lab_temperature - divide the scores by tau                (2 points)
 *
 *   S[k] = S[k] / tau for k < n, in place. LAB_BAD_ARG (S untouched) unless
 *   0 < tau < infinity, or when n < 0.
 *   Handout: section 6.
 */
int lab_temperature(float *S, float tau, int n)
{
    (void)S; (void)tau; (void)n;
    return LAB_NOT_IMPLEMENTED;
}
