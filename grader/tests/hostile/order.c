/*
 * order.c (lab 1): a test the student cannot see reaching one they can see.
 * Each call prints the sizes it was given and, with @WHEN@ set, when it started
 * and ended by the time-stamp counter (no symbol, no system call). A call with
 * the sizes of dot_random (Tq 5, Tk 7) or dot_more_queries_than_keys (Tq 9,
 * Tk 2), tests not shown at submission whose inputs come from the secret,
 * first does what the suite puts in place of ARG: nothing, a spin of 2^31
 * ticks (about a second) or an endless loop, as it would for a bit of those
 * inputs. Every call then returns the undefined status 7: a wrong answer,
 * whose output the feedback shows.
 */
#include <stdio.h>

#include "lab01.h"

static int report(int B, int Tq, int Tk, int d)
{
    unsigned long long t0 = __builtin_ia32_rdtsc();
    if ((Tq == 5 && Tk == 7) || (Tq == 9 && Tk == 2)) {
        @ARG@
    }
    printf("sizes %d %d %d %d\n", B, Tq, Tk, d);
    if (@WHEN@)
        printf("ticks %llu %llu\n", t0, __builtin_ia32_rdtsc());
    return 7;
}

int lab_dot_scores(float *S, const float *Q, const float *K, int B, int Tq, int Tk, int d)
{
    (void)S; (void)Q; (void)K;
    return report(B, Tq, Tk, d);
}

int lab_scaled_dot_scores(float *S, const float *Q, const float *K, int B, int Tq, int Tk, int d)
{
    (void)S; (void)Q; (void)K;
    return report(B, Tq, Tk, d);
}
