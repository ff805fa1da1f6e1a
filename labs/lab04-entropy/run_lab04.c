/* run_lab04.c: run your lab_entropy_experiment on the handout's settings and
 * print your numbers beside the analytic predictions (make run). Not graded,
 * and not yours to edit: it only calls your code.
 *
 *   run_lab04 [--seed N] [--format table|csv] [--T N] [--trials N]
 *
 * Defaults: seed 1, table, T = 64 keys, 200 trials, d_k = 8, 16, ..., 512.
 * CSV has a header row and one row per d_k, for plotting:
 *   d_k,H_raw,H_scaled,pred_raw,pred_scaled
 * pred_raw    = max(0, ln T - d_k/2)   the small-variance formula with variance d_k
 * pred_scaled = ln T - 1/2             the same formula with variance 1
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab04.h"

static const int dks[] = {8, 16, 32, 64, 128, 256, 512};
#define N_DK ((int)(sizeof dks / sizeof dks[0]))

static void usage(FILE *f)
{
    fprintf(f, "usage: run_lab04 [--seed N] [--format table|csv] [--T N] [--trials N]\n"
               "  (from make: make run SEED=N FORMAT=csv)\n");
}

/* Parse a whole decimal number into *out; 0, or -1 when text is not one. */
static int parse_u64(const char *text, uint64_t *out)
{
    char *end = NULL;
    errno = 0;
    if (text == NULL || *text == '\0' || *text == '-') return -1;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno != 0 || *end != '\0') return -1;
    *out = (uint64_t)v;
    return 0;
}

/* Parse a positive int no larger than max into *out; 0 or -1. */
static int parse_count(const char *text, int max, int *out)
{
    uint64_t v;
    if (parse_u64(text, &v) != 0 || v < 1 || v > (uint64_t)max) return -1;
    *out = (int)v;
    return 0;
}

int main(int argc, char **argv)
{
    uint64_t seed = 1;
    int T = 64, trials = 200, csv = 0;

    for (int a = 1; a < argc; a += 2) {   // every option but --help takes a value
        const char *opt = argv[a], *val = a + 1 < argc ? argv[a + 1] : NULL;
        if (strcmp(opt, "--help") == 0 || strcmp(opt, "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (val == NULL) {
            fprintf(stderr, "run_lab04: '%s' needs a value after it\n", opt);
            usage(stderr);
            return 2;
        } else if (strcmp(opt, "--seed") == 0) {
            if (parse_u64(val, &seed) != 0) {
                fprintf(stderr, "run_lab04: --seed needs a whole number >= 0, got '%s'\n",
                        val);
                return 2;
            }
        } else if (strcmp(opt, "--format") == 0) {
            if (val == NULL || (strcmp(val, "table") != 0 && strcmp(val, "csv") != 0)) {
                fprintf(stderr, "run_lab04: --format is 'table' or 'csv', got '%s'\n",
                        val);
                return 2;
            }
            csv = strcmp(val, "csv") == 0;
        } else if (strcmp(opt, "--T") == 0) {
            if (parse_count(val, 100000, &T) != 0) {
                fprintf(stderr, "run_lab04: --T needs a number of keys from 1 to 100000, "
                        "got '%s'\n", val);
                return 2;
            }
        } else if (strcmp(opt, "--trials") == 0) {
            if (parse_count(val, 1000000, &trials) != 0) {
                fprintf(stderr, "run_lab04: --trials needs a number from 1 to 1000000, "
                        "got '%s'\n", val);
                return 2;
            }
        } else {
            fprintf(stderr, "run_lab04: unknown option '%s'\n", opt);
            usage(stderr);
            return 2;
        }
    }

    float H_raw[N_DK], H_scaled[N_DK];
    int rc = lab_entropy_experiment(H_raw, H_scaled, dks, N_DK, T, trials, seed);
    if (rc == LAB_NOT_IMPLEMENTED) {
        fprintf(stderr, "run_lab04: lab_entropy_experiment is not implemented yet (it returned "
                "LAB_NOT_IMPLEMENTED); write it in lab04.c, then make run again.\n");
        return 1;
    }
    if (rc != LAB_OK) {
        fprintf(stderr, "run_lab04: lab_entropy_experiment returned %d for T = %d, trials = %d "
                "and d_k from 8 to 512, which are all valid: check its argument checks "
                "against lab04.h.\n", rc, T, trials);
        return 1;
    }

    const double logT = log((double)T);
    if (csv) {
        printf("d_k,H_raw,H_scaled,pred_raw,pred_scaled\n");
    } else {
        printf("Entropy of attention weights versus d_k: your lab_entropy_experiment\n");
        printf("T = %d keys, %d trials, seed %llu. Entropies in nats: ln T = %.4f is\n",
               T, trials, (unsigned long long)seed, logT);
        printf("uniform weights, 0 is one-hot. Predictions: ln T - var/2 (handout, section 4).\n\n");
        printf("%6s  %9s  %9s   %9s  %11s\n", "d_k", "H_raw", "pred_raw", "H_scaled", "pred_scaled");
    }
    for (int m = 0; m < N_DK; m++) {
        double pred_raw = fmax(0.0, logT - dks[m] / 2.0);
        double pred_scaled = logT - 0.5;
        if (csv) {
            printf("%d,%.6f,%.6f,%.6f,%.6f\n", dks[m], (double)H_raw[m], (double)H_scaled[m],
                   pred_raw, pred_scaled);
        } else {
            printf("%6d  %9.4f  %9.4f   %9.4f  %11.4f\n", dks[m], (double)H_raw[m], pred_raw,
                   (double)H_scaled[m], pred_scaled);
        }
    }
    return 0;
}
