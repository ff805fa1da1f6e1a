/*
 * lab07_forged_limit.c (lab 7): an attention that stores the whole causal
 * score matrix (32 MiB at T = 4096, against a 1 MiB heap limit) after forging
 * the heap limit the test program keeps in its own memory: it finds the word
 * that holds the limit (1 MiB) just below its own static data and writes
 * SIZE_MAX there. Only a limit the kernel holds (the sandbox's RLIMIT_DATA)
 * stops it; then the allocation fails and the memory test must not pass.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "lab07.h"

int lab_online_logsumexp(float *lse, const float *S, int rows, int n, int tile)
{
    (void)lse; (void)S; (void)rows; (void)n; (void)tile;
    return LAB_NOT_IMPLEMENTED;
}

/* The heap limit of the test program, wherever it keeps it near our own data:
   every word below anchor that holds the lab's limit is raised until an
   allocation over the limit succeeds. */
static size_t anchor = 1;

static void forge_heap_limit(void)
{
    size_t *volatile w = &anchor;   /* volatile: the compiler cannot see the bounds */
    for (int i = 1; i < 8192; i++) {
        if (w[-i] != ((size_t)1 << 20))
            continue;
        w[-i] = SIZE_MAX;
        void *probe = malloc((size_t)2 << 20);
        if (probe) {
            free(probe);
            return;
        }
        w[-i] = (size_t)1 << 20;
    }
}

int lab_online_attention(float *O, const float *Q, const float *K, const float *V,
                         int B, int T, int d, int dv, int tile, int causal)
{
    if (!O || !Q || !K || !V || B < 1 || T < 1 || d < 1 || dv < 1 || tile < 1)
        return LAB_BAD_ARG;
    (void)tile;
    forge_heap_limit();
    /* every score of a batch, kept: row i holds keys 0..i (causal) or all T */
    size_t row_len = (size_t)T, total = causal ? (size_t)T * (T + 1) / 2 : (size_t)T * T;
    float *S = malloc(total * sizeof *S);
    if (!S)
        return LAB_BAD_ARG;                       /* no way around the matrix */
    float scale = 1.0f / sqrtf((float)d);
    for (int b = 0; b < B; b++) {
        size_t at = 0;
        for (int i = 0; i < T; i++) {
            int nkeys = causal ? i + 1 : T;
            float *s = S + at, m = -INFINITY, l = 0.0f;
            for (int j = 0; j < nkeys; j++) {
                float dot = 0.0f;
                for (int c = 0; c < d; c++)
                    dot += Q[((long)b * T + i) * d + c] * K[((long)b * T + j) * d + c];
                s[j] = dot * scale;
                m = s[j] > m ? s[j] : m;
            }
            for (int j = 0; j < nkeys; j++) {
                s[j] = expf(s[j] - m);
                l += s[j];
            }
            float *o = O + ((long)b * T + i) * dv;
            for (int c = 0; c < dv; c++) {
                float acc = 0.0f;
                for (int j = 0; j < nkeys; j++)
                    acc += s[j] * V[((long)b * T + j) * dv + c];
                o[c] = acc / l;
            }
            at += causal ? (size_t)nkeys : row_len;
        }
    }
    free(S);
    return LAB_OK;
}
