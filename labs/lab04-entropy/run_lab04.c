/* run_lab04.c: run your lab_entropy_experiment on the handout's settings and
 * print your numbers beside the analytic predictions (make run). Not graded,
 * and not yours to edit: it only calls your code.
 *
 *   run_lab04 [--seed N] [--format table|csv] [--T N] [--trials N]
 *
 * Defaults: seed 1, table, T = 64 keys, 200 trials, d_k = 8, 16, ..., 512.
 * CSV has a header row and one row per d_k, for plotting:
 *   d_k,H_raw,H_scaled,pred_raw,pred_scaled
 * pred_raw    = c(T) / sqrt(d_k)   the large-d_k limit for raw scores (labsup.h)
 * pred_scaled = ln T - 1/2         the small-variance formula with variance 1
 */
#include <math.h>
#include <stdio.h>

#include "lab04.h"
#include "labrun.h"
#include "labsup.h"

static const int dks[] = {8, 16, 32, 64, 128, 256, 512};
#define N_DK ((int)(sizeof dks / sizeof dks[0]))

int main(int argc, char **argv)
{
    int T = 64, trials = 200;
    const labrun_count counts[2] = {
        { "--T", "a number of keys", 100000, &T },
        { "--trials", "a number", 1000000, &trials },
    };
    labrun r = labrun_options("run_lab04", argc, argv, counts, 2);

    float H_raw[N_DK], H_scaled[N_DK];
    int rc = lab_entropy_experiment(H_raw, H_scaled, dks, N_DK, T, trials, r.seed);
    if (rc == LAB_NOT_IMPLEMENTED)
        return labrun_stop(&r, "lab_entropy_experiment is not implemented yet (it returned "
                           "LAB_NOT_IMPLEMENTED); write it in lab04.c, then make run again.");
    if (rc != LAB_OK)
        return labrun_stop(&r, "lab_entropy_experiment returned %d for T = %d, trials = %d "
                           "and d_k from 8 to 512, which are all valid: check its argument "
                           "checks against lab04.h.", rc, T, trials);

    const double logT = log((double)T);
    labrun_note(&r, "Entropy of attention weights versus d_k: your lab_entropy_experiment\n"
                "T = %d keys, %d trials, seed %llu. Entropies in nats: ln T = %.4f is\n"
                "uniform weights, 0 is one-hot. Predictions (handout, section 4): ln T - 1/2\n"
                "scaled, c(T)/sqrt(d_k) raw (the large-d_k limit, approached from above).\n",
                T, trials, (unsigned long long)r.seed, logT);
    if (r.csv)
        printf("d_k,H_raw,H_scaled,pred_raw,pred_scaled\n");
    else
        printf("%6s  %9s  %9s   %9s  %11s\n", "d_k", "H_raw", "pred_raw", "H_scaled", "pred_scaled");
    for (int m = 0; m < N_DK; m++) {
        double pred_raw = sup_predict_entropy_raw(T, dks[m]);
        double pred_scaled = logT - 0.5;
        if (r.csv) {
            printf("%d,%.6f,%.6f,%.6f,%.6f\n", dks[m], (double)H_raw[m], (double)H_scaled[m],
                   pred_raw, pred_scaled);
        } else {
            printf("%6d  %9.4f  %9.4f   %9.4f  %11.4f\n", dks[m], (double)H_raw[m], pred_raw,
                   (double)H_scaled[m], pred_scaled);
        }
    }
    return 0;
}
