/* run_lab08.c: run YOUR lab_gradient_experiment and print its numbers as a
 * table or as CSV for plotting. Not graded; do not edit.
 *
 *     make -C labs/lab08-gradients run                   # table, seed 1
 *     make -C labs/lab08-gradients run SEED=7 FORMAT=csv  # CSV with a header row
 *
 * Settings: T = 64 keys, 200 trials per d_k, d_k = 8, 16, ..., 512.
 * Reference points to read the columns against (README.md, section 4):
 *   - a uniform weight row (w_j = 1/T) gives ||ds|| close to 1/sqrt(T) = 0.125;
 *   - a one-hot row gives ||ds|| = 0 exactly;
 *   - once raw scores saturate, their mean ||ds|| falls roughly like
 *     1/sqrt(d_k): the ratio column roughly halves every two doublings.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lab08.h"

enum { T = 64, TRIALS = 200, N_DK = 7 };
static const int dks[N_DK] = { 8, 16, 32, 64, 128, 256, 512 };

static void usage(FILE *f)
{
    fprintf(f, "usage: run_lab08 [--seed S] [--format table|csv]\n");
}

int main(int argc, char **argv)
{
    uint64_t seed = 1;
    int csv = 0;
    for (int k = 1; k < argc; k++) {
        if (strcmp(argv[k], "--seed") == 0 && k + 1 < argc) {
            char *end;
            seed = strtoull(argv[++k], &end, 10);
            if (*argv[k] == '\0' || *end != '\0') {
                fprintf(stderr, "run_lab08: the seed '%s' is not a whole number; "
                        "give one like SEED=7.\n", argv[k]);
                return 2;
            }
        } else if (strcmp(argv[k], "--format") == 0 && k + 1 < argc) {
            k++;
            if (strcmp(argv[k], "csv") == 0) csv = 1;
            else if (strcmp(argv[k], "table") == 0) csv = 0;
            else {
                fprintf(stderr, "run_lab08: unknown format '%s'; use FORMAT=table or FORMAT=csv.\n",
                        argv[k]);
                return 2;
            }
        } else if (strcmp(argv[k], "--help") == 0) {
            usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "run_lab08: unknown argument '%s'.\n", argv[k]);
            usage(stderr);
            return 2;
        }
    }

    float g_raw[N_DK], g_scaled[N_DK];
    int rc = lab_gradient_experiment(g_raw, g_scaled, dks, N_DK, T, TRIALS, seed);
    if (rc == LAB_NOT_IMPLEMENTED) {
        fprintf(stderr, "run_lab08: lab_gradient_experiment is not implemented yet; "
                "write it in lab08.c (README.md, section 4), then run again.\n");
        return 1;
    }
    if (rc != LAB_OK) {
        fprintf(stderr, "run_lab08: lab_gradient_experiment returned %d for valid arguments "
                "(T = %d, trials = %d, d_k 8..512); it should return LAB_OK.\n", rc, T, TRIALS);
        return 1;
    }

    if (csv) {
        printf("d_k,g_raw,g_scaled,ratio\n");
        for (int m = 0; m < N_DK; m++)
            printf("%d,%.6f,%.6f,%.6f\n", dks[m], (double)g_raw[m], (double)g_scaled[m],
                   (double)(g_raw[m] / g_scaled[m]));
        return 0;
    }
    printf("lab 8: mean ||ds|| of softmax backward, T = %d keys, %d trials, seed %llu\n",
           T, TRIALS, (unsigned long long)seed);
    printf("%6s  %12s  %12s  %12s\n", "d_k", "g_raw", "g_scaled", "raw/scaled");
    for (int m = 0; m < N_DK; m++)
        printf("%6d  %12.6f  %12.6f  %12.4f\n", dks[m], (double)g_raw[m], (double)g_scaled[m],
               (double)(g_raw[m] / g_scaled[m]));
    printf("for comparison: a uniform row gives about 1/sqrt(T) = %.4f, a one-hot row 0\n",
           1.0 / sqrt((double)T));
    return 0;
}
