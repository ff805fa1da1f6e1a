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
#include "lab08.h"
#include "labrun.h"

enum { T = 64, TRIALS = 200, N_DK = 7 };
static const int dks[N_DK] = { 8, 16, 32, 64, 128, 256, 512 };

int main(int argc, char **argv)
{
    labrun r = labrun_options("run_lab08", argc, argv, NULL, 0);
    float g_raw[N_DK], g_scaled[N_DK];
    int rc = lab_gradient_experiment(g_raw, g_scaled, dks, N_DK, T, TRIALS, r.seed);
    if (rc == LAB_NOT_IMPLEMENTED)
        return labrun_stop(&r, "lab_gradient_experiment is not implemented yet; "
                           "write it in lab08.c (README.md, section 4), then run again.");
    if (rc != LAB_OK)
        return labrun_stop(&r, "lab_gradient_experiment returned %d for valid arguments "
                           "(T = %d, trials = %d, d_k 8..512); it should return LAB_OK.",
                           rc, T, TRIALS);

    static const labrun_column cols[3] = {
        { "g_raw", "g_raw", 12, 6 },
        { "g_scaled", "g_scaled", 12, 6 },
        { "ratio", "raw/scaled", 12, 4 },
    };
    labrun_note(&r, "lab 8: mean ||ds|| of softmax backward, T = %d keys, %d trials, seed %llu",
                T, TRIALS, (unsigned long long)r.seed);
    labrun_header(&r, "d_k", cols, 3);
    for (int m = 0; m < N_DK; m++) {
        const double v[3] = { (double)g_raw[m], (double)g_scaled[m],
                              (double)(g_raw[m] / g_scaled[m]) };
        labrun_row(&r, dks[m], v, cols, 3);
    }
    labrun_note(&r, "for comparison: a uniform row gives about 1/sqrt(T) = %.4f, a one-hot row 0",
                1.0 / sqrt((double)T));
    return 0;
}
