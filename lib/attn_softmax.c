/* attn_softmax.c: the single conversion point from scores to weights, and the
 * functions that read weight rows (log-sum-exp, entropy, softmax backward).
 *
 * Rows are independent: rows rows of n entries each, row-major; for attention
 * rows = B * Tq and n = Tk, so softmax runs over the key axis.
 *
 * Numerics: exponentials, sums and logs are computed in double and rounded to
 * float once per output, so each weight is within about half a float ulp of
 * the exact value. A fully masked row (every score -inf) has no finite maximum
 * and exp(-inf - -inf) would be NaN; it gets all-zero weights instead and is
 * counted. A NaN score makes its whole row NaN.
 */
#include <math.h>

#include "attn.h"

/* Row maximum; NaN if any entry is NaN, -inf for an empty or fully masked row.
   (HUGE_VAL is the double infinity; INFINITY is a float.) */
static double row_max(const float *s, int n)
{
    double maxval = -HUGE_VAL;
    for (int j = 0; j < n; j++) {
        if (isnan(s[j])) return (double)NAN;
        if ((double)s[j] > maxval) maxval = (double)s[j];
    }
    return maxval;
}

long attn_softmax(float *W, const float *S, long rows, int n)
{
    long fully_masked = 0;
    for (long r = 0; r < rows; r++) {
        const float *s = S + r * n;  /* (n) scores */
        float *w = W + r * n;        /* (n) weights; may be the same memory as s */

        /* pass 1: the row max. Subtracting it changes nothing mathematically
           (the factor exp(-max) cancels between numerator and denominator) and
           is done only for numerical stability: every exponent becomes <= 0,
           so exp never overflows, and the largest term is exactly 1. */
        double maxval = row_max(s, n);
        if (maxval == -HUGE_VAL) {
            /* Every key is masked: no key to attend to. Zero weights, counted. */
            for (int j = 0; j < n; j++) w[j] = 0.0f;
            fully_masked++;
            continue;
        }

        /* pass 2: the normaliser, sum_j exp(s_j - max), in double. */
        double sum = 0.0;
        for (int j = 0; j < n; j++) sum += exp((double)s[j] - maxval);

        /* pass 3: each weight, recomputing its exponential rather than storing
           it in float, so each weight is rounded once. Masked scores give
           exp(-inf) = 0 exactly. Reading s[j] before writing w[j] makes W == S
           safe. */
        for (int j = 0; j < n; j++) w[j] = (float)(exp((double)s[j] - maxval) / sum);
    }
    return fully_masked;
}

float attn_logsumexp(const float *s, int n)
{
    /* log(sum_j exp(s_j)) = max + log(sum_j exp(s_j - max)): the same shift as
       softmax, for the same reason. It is also log of softmax's normaliser, so
       log w_j = s_j - logsumexp(s). */
    double maxval = row_max(s, n);
    if (maxval == -HUGE_VAL) return -INFINITY;
    if (isnan(maxval)) return NAN;
    double sum = 0.0;
    for (int j = 0; j < n; j++) sum += exp((double)s[j] - maxval);
    return (float)(maxval + log(sum));
}

void attn_logsumexp_rows(float *lse, const float *S, long rows, int n)
{
    for (long r = 0; r < rows; r++) lse[r] = attn_logsumexp(S + r * n, n);
}

void attn_entropy_rows(float *ent, const float *W, long rows, int n)
{
    /* ent[r] = -sum_j w_j log w_j, in nats: log n for a uniform row (attention
       spread evenly), 0 for a one-hot row (all attention on one key). Zero
       weights contribute nothing (w log w -> 0 as w -> 0). Testing w != 0
       rather than w > 0 lets a NaN weight reach the sum and propagate. */
    for (long r = 0; r < rows; r++) {
        const float *w = W + r * n;
        double sum = 0.0;
        for (int j = 0; j < n; j++)
            if (w[j] != 0.0f) sum -= (double)w[j] * log((double)w[j]);
        ent[r] = (float)sum;
    }
}

void attn_softmax_backward(float *dS, const float *W, const float *dW, long rows, int n)
{
    /* With w = softmax(s) and g = dL/dw, the Jacobian dw_j/ds_k = w_j (1[j=k] - w_k)
       gives dL/ds_k = w_k (g_k - <w, g>). Each gradient is scaled by its own
       weight: when one weight is near 1 all others are near 0 and g_k - <w, g>
       is near 0 for that one, so a saturated softmax passes almost no gradient
       back (|ds| <= 2 (1 - max w) max|g|). */
    for (long r = 0; r < rows; r++) {
        const float *w = W + r * n;
        const float *g = dW + r * n;
        float *ds = dS + r * n;       /* may be the same memory as g */

        /* pass 1: <w, g>, in double. */
        double wg = 0.0;
        for (int j = 0; j < n; j++) wg += (double)w[j] * (double)g[j];

        /* pass 2: ds_j = w_j (g_j - <w, g>); g[j] is read before ds[j] is written. */
        for (int j = 0; j < n; j++) ds[j] = (float)((double)w[j] * ((double)g[j] - wg));
    }
}
