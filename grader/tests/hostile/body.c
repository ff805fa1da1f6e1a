/*
 * body.c (lab 1): both lab functions open with the misbehaviour the suite puts
 * in place of the ARG placeholder (abort, exit, signal, a trap, stack and heap
 * overflow, a memory bomb, an output flood, binary output, NaN and infinity,
 * writing the inputs, a fake response through stdout's descriptor), then
 * return the undefined status 7, so a misbehaviour that does nothing is a
 * wrong answer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab01.h"

int lab_dot_scores(float *S, const float *Q, const float *K, int B, int Tq, int Tk, int d)
{
    (void)S; (void)Q; (void)K; (void)B; (void)Tq; (void)Tk; (void)d;
    @ARG@
    return 7;
}

int lab_scaled_dot_scores(float *S, const float *Q, const float *K, int B, int Tq, int Tk, int d)
{
    (void)S; (void)Q; (void)K; (void)B; (void)Tq; (void)Tk; (void)d;
    @ARG@
    return 7;
}
