/* run_lab05.c: run YOUR lab_masking_experiment and print its numbers next to the
 * prediction, as a table or as CSV for plotting. Not graded; do not edit.
 *
 *     make -C labs/lab05-masking run                   # table, seed 1
 *     make -C labs/lab05-masking run SEED=7 FORMAT=csv  # CSV with a header row
 *
 * The predicted columns need no attention code and no draw of the run: they
 * come from the distribution of the scores alone (README.md, section 3; the
 * support code's sup_predict_masking_*). A pad key scores a ~ N(0, 1) against
 * a query, the T real keys' exp-scores add up to about T e^(1/2), so a row
 * keeps 1 / (1 + (p/T) e^(a - 1/2)), averaged over a; the drift prediction is
 * the expected largest (1 - row sum) max|O| over the T rows. Your measured
 * numbers scatter around them from seed to seed.
 */
#include <math.h>
#include <stdio.h>
#include "lab05.h"
#include "labrun.h"

enum { T = 16, d = 32, N_PADS = 8 };
static const int pads[N_PADS] = { 0, 1, 2, 4, 8, 16, 32, 64 };

int main(int argc, char **argv)
{
    labrun r = labrun_options("run_lab05", argc, argv, NULL, 0);
    float rowsum[N_PADS], drift[N_PADS];
    int rc = lab_masking_experiment(rowsum, drift, pads, N_PADS, T, d, r.seed);
    if (rc == LAB_NOT_IMPLEMENTED)
        return labrun_stop(&r, "lab_masking_experiment is not implemented yet; "
                           "write it in lab05.c (README.md, section 5), then run again.");
    if (rc != LAB_OK)
        return labrun_stop(&r, "lab_masking_experiment returned %d for valid arguments "
                           "(T = %d, d = %d, pads 0..64); it should return LAB_OK.", rc, T, d);
    static const labrun_column cols[4] = {
        { "rowsum", "rowsum", 12, 6 },
        { "rowsum_predicted", "predicted", 12, 6 },
        { "drift", "drift", 12, 6 },
        { "drift_predicted", "predicted", 12, 6 },
    };
    labrun_note(&r, "lab 5: post-softmax masking, T = %d real keys, d = %d, seed %llu",
                T, d, (unsigned long long)r.seed);
    labrun_header(&r, "pads", cols, 4);
    for (int m = 0; m < N_PADS; m++) {
        const double v[4] = { (double)rowsum[m], sup_predict_masking_rowsum(pads[m], T),
                              (double)drift[m], sup_predict_masking_drift(pads[m], T, d) };
        labrun_row(&r, pads[m], v, cols, 4);
    }
    labrun_note(&r, "rowsum: mean row sum after the pads' weights are zeroed post-softmax "
                "(below 1: the\n        mass the pads took is lost; masking before softmax "
                "keeps every row at 1)\n"
                "drift:  max |O_post - O_pre|, how far post-softmax masking moves the output "
                "from\n        masking before softmax (0 with no pads)\n"
                "predicted: from the score distribution alone, the same for every seed");
    return 0;
}
