/* gradmedian.c: how far lab 8's typical raw gradient lies below its mean, seed
 * by seed. The saturation experiment prints the mean ||ds|| over its trials;
 * at large d_k that mean is carried by the few trials whose top two raw scores
 * nearly tie, and the median trial is far below it. This program redraws the
 * experiment's trials exactly as lab08.h fixes them (one sup_rng per seed; per
 * d and trial: q, K, g) and prints mean / median of the raw norms at one d_k.
 *
 *   gradmedian [N [FIRST [D]]]   seeds FIRST .. FIRST + N - 1 (default 400
 *                                seeds from 1), d_k = D (default 512)
 *
 * One line per seed ("seed ratio"), then min, median and max over the seeds.
 * T = 64 keys, 200 trials and d_k = 8, 16, ..., 512, the sizes of `make run`
 * and `attnlab experiment saturation`; the arithmetic is double precision.
 * Never shipped: scripts/seed-ranges.sh saturation runs it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "labsup.h"

enum { T = 64, TRIALS = 200, N_DK = 7, DK_MAX = 512 };

/* ||ds|| of softmax backward for raw scores q . k_j and upstream gradient g. */
static double raw_norm(const float *q, const float *K, const float *g, int d)
{
    double s[T], w[T], m = -INFINITY, z = 0.0, wg = 0.0, norm = 0.0;
    for (int j = 0; j < T; j++) {
        s[j] = 0.0;
        for (int c = 0; c < d; c++)
            s[j] += (double)q[c] * (double)K[j * d + c];
        m = fmax(m, s[j]);
    }
    for (int j = 0; j < T; j++)
        z += w[j] = exp(s[j] - m);
    for (int j = 0; j < T; j++)
        wg += (w[j] /= z) * (double)g[j];
    for (int j = 0; j < T; j++) {
        double ds = w[j] * ((double)g[j] - wg);
        norm += ds * ds;
    }
    return sqrt(norm);
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, by_value);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* mean / median of the raw norms at d_k = dk for one seed. */
static double ratio(unsigned long long seed, int dk)
{
    static float q[DK_MAX], K[T * DK_MAX], g[T];
    double norms[TRIALS], mean = 0.0;
    sup_rng r;
    sup_rng_seed(&r, seed);
    for (int d = 8; d <= DK_MAX; d *= 2)
        for (int t = 0; t < TRIALS; t++) {
            sup_rng_fill_normal(&r, q, d);
            sup_rng_fill_normal(&r, K, (long)T * d);
            sup_rng_fill_normal(&r, g, T);
            if (d == dk) {
                norms[t] = raw_norm(q, K, g, d);
                mean += norms[t] / TRIALS;
            }
        }
    return mean / median(norms, TRIALS);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 400, dk = argc > 3 ? atoi(argv[3]) : DK_MAX;
    unsigned long long first = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
    int power = dk >= 8 && dk <= DK_MAX && (dk & (dk - 1)) == 0;
    if (n < 1 || !power) {
        fprintf(stderr, "usage: gradmedian [N [FIRST [D]]], N >= 1, D one of 8, 16, ..., 512\n");
        return 2;
    }
    double *all = malloc((size_t)n * sizeof *all);
    if (!all)
        return 1;
    for (int i = 0; i < n; i++) {
        all[i] = ratio(first + (unsigned long long)i, dk);
        printf("%llu %.4g\n", first + (unsigned long long)i, all[i]);
    }
    double mid = median(all, n);
    printf("mean / median of the raw ||ds|| at d_k = %d, T = %d, %d trials, over %d seeds "
           "(%llu to %llu): min %.3g, median %.3g, max %.3g\n", dk, T, TRIALS, n, first,
           first + (unsigned long long)n - 1, all[0], mid, all[n - 1]);
    free(all);
    return 0;
}
