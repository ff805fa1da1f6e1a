/* sup_predict.c: what the course's experiments predict from the distribution of
 * the scores alone, with no attention code and no draw of the run (labsup.h).
 * The derivations are in the handouts: lab 4 section 4 (entropy), lab 5
 * section 3 (post-softmax masking). Each is an integral over standard normal
 * densities, done here by the midpoint rule on a fine grid.
 *
 * Not linked into the sandboxed test child (it needs libm).
 */
#include <math.h>

#include "labsup.h"

#define SQRT_2PI 2.50662827463100050242
#define PI 3.14159265358979323846
#define E 2.71828182845904523536

static double normal_pdf(double z)
{
    return exp(-0.5 * z * z) / SQRT_2PI;
}

static double normal_cdf(double z)
{
    return 0.5 * erfc(-z / sqrt(2.0));
}

/* c(T) = (pi^2 / 6) T (T - 1) int phi(z)^2 Phi(z)^(T-2) dz. The second
   factor is the density at 0 of the gap between the two largest of T standard
   normals; pi^2 / 6 is the integral over x >= 0 of the entropy of two weights
   whose scores differ by x. */
double sup_predict_entropy_c(int T)
{
    if (T < 2)
        return 0.0;
    const double h = 1e-3;
    double sum = 0.0;
    for (double z = -10.0 + h / 2; z < 10.0; z += h) {
        double p = normal_pdf(z);
        sum += p * p * pow(normal_cdf(z), T - 2);
    }
    return PI * PI / 6.0 * T * (T - 1.0) * sum * h;
}

double sup_predict_entropy_raw(int T, int d)
{
    return d < 1 ? (double)NAN : sup_predict_entropy_c(T) / sqrt((double)d);
}

/* The post-mask row sum of a query whose pad score is a: Z / (Z + p e^a) with
   Z = T e^(1/2), the mean of T exp-scores of variance 1. */
static double row_kept(double a, int p, int T)
{
    return 1.0 / (1.0 + (double)p / T * exp(a - 0.5));
}

double sup_predict_masking_rowsum(int p, int T)
{
    if (T < 1 || p < 0)
        return NAN;
    const double h = 1e-3;
    double sum = 0.0;
    for (double a = -10.0 + h / 2; a < 10.0; a += h)
        sum += normal_pdf(a) * row_kept(a, p, T);
    return sum * h;
}

/* P(max_c |O_c| <= y) for d entries N(0, s^2). */
static double max_abs_cdf(double y, double s, int d)
{
    return y <= 0.0 ? 0.0 : pow(2.0 * normal_cdf(y / s) - 1.0, d);
}

/* P((1 - r(a)) m <= x) for a ~ N(0, 1) and m the largest |O_c| of a row. */
static double row_drift_cdf(double x, int p, int T, int d, double s)
{
    const double h = 0.05;
    double sum = 0.0;
    for (double a = -8.0 + h / 2; a < 8.0; a += h)
        sum += normal_pdf(a) * max_abs_cdf(x / (1.0 - row_kept(a, p, T)), s, d);
    return sum * h;
}

/* E max over T rows of (1 - r_i) m_i, the rows taken as independent: each O
   entry is a weighted mean of d standard normal values, of variance sum w^2,
   about e / T for T weights from exp-scores of variance 1. */
double sup_predict_masking_drift(int p, int T, int d)
{
    if (T < 1 || d < 1 || p < 0)
        return NAN;
    if (p == 0)
        return 0.0;
    const double s = sqrt(E / T), h = 0.01;
    double mean = 0.0;
    for (double x = h / 2; x < 50.0 * s; x += h) {
        double tail = 1.0 - pow(row_drift_cdf(x, p, T, d, s), T);
        if (tail < 1e-12)
            break;
        mean += tail * h;
    }
    return mean;
}
