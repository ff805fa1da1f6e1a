/*
 * lab11.c: positions before the scores, sinusoidal, learned and rotary (12 points).
 *
 * Your name:
 * Your student id:
 *
 * RULES (read them before you write a line; the grader enforces them)
 *
 *   - Write your answers in this file only, and only inside the functions
 *     below. You may add static helper functions. Do not edit lab11.h.
 *   BEGIN RULES (generated from data/rubrics/lab11.yaml by attnlab rules)
 *   - Allowed headers: lab11.h, labsup.h, math.h, stdlib.h, string.h,
 *     stddef.h, stdint.h, stdio.h.
 *   - Allowed library functions:
 *     - math: expf, exp, logf, log, sqrtf, sqrt, fabsf, fabs, fmaxf, fmax,
 *       fminf, fmin, sinf, sin, cosf, cos, sincosf, sincos, powf, pow,
 *       exp2f, exp2.
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
 *   - Every function returns LAB_NOT_IMPLEMENTED until you write it. Replace
 *     that line when you start; return LAB_OK when the outputs are written.
 *
 * Test as you go:   make test          (the visible tests, in this folder)
 * Grade:            make -C ../.. grade
 * The handout (README.md) explains everything below; sections are numbered.
 */
#include <math.h>

#include "lab11.h"

/*
 * lab_add_sinusoidal (2 points)
 *
 *   Shapes: X (B, T, d).
 *   Handout: section 3.
 */
int lab_add_sinusoidal(float *X, int B, int T, int d, float base)
{
    (void)X; (void)B; (void)T; (void)d; (void)base;
    return LAB_NOT_IMPLEMENTED;
}

/*
 * lab_add_learned (2 points)
 *
 *   Shapes: X (B, T, d), P (max_pos, d), pos (B, T).
 *   Handout: section 4.
 */
int lab_add_learned(float *X, const float *P, const int *pos, int B, int T, int d, int max_pos)
{
    (void)X; (void)P; (void)pos; (void)B; (void)T; (void)d; (void)max_pos;
    return LAB_NOT_IMPLEMENTED;
}

/*
 * lab_rope (4 points)
 *
 *   Shapes: X (N, d), pos (N).
 *   Handout: section 5.
 */
int lab_rope(float *X, const int *pos, int N, int d, float base, int layout)
{
    (void)X; (void)pos; (void)N; (void)d; (void)base; (void)layout;
    return LAB_NOT_IMPLEMENTED;
}

/*
 * lab_rope_decode (4 points)
 *
 *   Shapes: o (d), Kc (cap, d), Vc (cap, d), qt (d), kt (d), vt (d).
 *   Handout: section 6.
 */
int lab_rope_decode(float *o, float *Kc, float *Vc, const float *qt, const float *kt, const float *vt, int t, int cap, int d, float base, int layout)
{
    (void)o; (void)Kc; (void)Vc; (void)qt; (void)kt; (void)vt; (void)t; (void)cap; (void)d; (void)base; (void)layout;
    return LAB_NOT_IMPLEMENTED;
}
