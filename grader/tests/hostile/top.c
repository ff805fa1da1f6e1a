/*
 * top.c (lab 1): a stub whose functions return the undefined status 7 (a wrong
 * answer), with one attack on the build or on loading put at the top of the
 * file in place of the ARG placeholder: LTO sections and pragmas, a .interp
 * section, an enormous .bss, a malformed .note, entries in .init_array or
 * .preinit_array, a macro bomb, a 1 TiB static array. The grader must end each
 * in a named verdict without harm to anything else.
 */
#include "lab01.h"

@ARG@

int lab_dot_scores(float *S, const float *Q, const float *K, int B, int Tq, int Tk, int d)
{
    (void)S; (void)Q; (void)K; (void)B; (void)Tq; (void)Tk; (void)d;
    return 7;
}

int lab_scaled_dot_scores(float *S, const float *Q, const float *K, int B, int Tq, int Tk, int d)
{
    (void)S; (void)Q; (void)K; (void)B; (void)Tq; (void)Tk; (void)d;
    return 7;
}
