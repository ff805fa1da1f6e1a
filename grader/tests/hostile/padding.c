/*
 * padding.c (lab 1): correct scores, plus 63 MiB of heap held in every call
 * under lab 1's 64 MiB limit, while two one-byte static arrays aligned to
 * 16 MiB, each alone in its section, make the linker pad the program's data
 * by about 25 MiB between sections. Section sizes say 2 bytes of static data; the linked program's writable segments say what
 * the padding really takes, and with it counted the heap no longer fits: every
 * test must end out of memory.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lab01.h"

static _Alignas(1 << 24) char pad_a[1] = {1};   /* .data */
static _Alignas(1 << 24) char pad_b[1];         /* .bss */

/* 63 MiB, written, held while the scores are computed. */
static char *hog(void)
{
    char *p = malloc((size_t)63 << 20);
    if (p) {
        memset(p, 1, (size_t)63 << 20);
        pad_a[0] = p[1];
        pad_b[0] = p[2];
    }
    return p;
}

static int scores(float *S, const float *Q, const float *K, int B, int Tq, int Tk, int d, double scale)
{
    char *held = hog();
    if (!held)
        return LAB_BAD_ARG;
    if (B < 0 || Tq < 0 || Tk < 0 || d < 1) {
        free(held);
        return LAB_BAD_ARG;
    }
    for (long b = 0; b < B; b++)
        for (long i = 0; i < Tq; i++)
            for (long j = 0; j < Tk; j++) {
                double sum = 0.0;
                for (long c = 0; c < d; c++)
                    sum += (double)Q[(b * Tq + i) * d + c] * K[(b * Tk + j) * d + c];
                S[(b * Tq + i) * Tk + j] = (float)(scale * sum);
            }
    if ((long)B * Tq * Tk > 0)
        S[0] += (float)(held[(size_t)62 << 20] - 1 + pad_a[0] - pad_b[0]);   /* + 0: keeps it all live */
    free(held);
    return LAB_OK;
}

int lab_dot_scores(float *S, const float *Q, const float *K, int B, int Tq, int Tk, int d)
{
    return scores(S, Q, K, B, Tq, Tk, d, 1.0);
}

int lab_scaled_dot_scores(float *S, const float *Q, const float *K, int B, int Tq, int Tk, int d)
{
    return scores(S, Q, K, B, Tq, Tk, d, 1.0 / sqrt((double)d));
}
