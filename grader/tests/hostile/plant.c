/*
 * plant.c (lab 1): embeds a file from outside the submission at assembly time
 * under the label hostile_leak, by the spelling the suite puts in place of
 * the ARG placeholder (.incbin or .include in top-level or in-function asm,
 * a section name carrying a newline and directives, asm seen only under -O2),
 * then prints it from every test so that it would reach the report's excerpt.
 */
#include <stdio.h>

#include "lab01.h"

@ARG@

extern const char hostile_leak[];

int lab_dot_scores(float *S, const float *Q, const float *K, int B, int Tq, int Tk, int d)
{
    (void)S; (void)Q; (void)K; (void)B; (void)Tq; (void)Tk; (void)d;
    printf("%s\n", hostile_leak);
    return 7;
}

int lab_scaled_dot_scores(float *S, const float *Q, const float *K, int B, int Tq, int Tk, int d)
{
    (void)S; (void)Q; (void)K; (void)B; (void)Tq; (void)Tk; (void)d;
    printf("%s\n", hostile_leak);
    return 7;
}
