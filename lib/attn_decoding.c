/* attn_decoding.c: masks and denominators of decoding (lab 9).
 *
 * Decoding with a KV cache asks Tq new queries to attend to Tk >= Tq keys, so
 * "causal" needs an alignment: which key is on query i's diagonal.
 *   - top-left (PyTorch SDPA's is_causal): key j is masked when j > i;
 *   - bottom-right (decoding, FlashAttention 2.1+): the LAST query sits on the
 *     LAST key, so key j is masked when j > i + Tk - Tq.
 * A sliding window is one more -inf pattern on the same bottom-right diagonal.
 * A sink logit is one more term in the softmax DENOMINATOR with no value, so
 * the real weights of a row sum to less than 1 by design. And zeroing weights
 * after softmax (lab 5's bug) still sends gradient to the zeroed keys.
 *
 *   B = batch (or batch * heads, heads fastest)   H = heads
 *   Tq = queries   Tk = keys   S, W are (B, Tq, Tk); sink is (H); Wsink is (B, Tq).
 */
#include <math.h>

#include "attn.h"

/* The last key query i may see: i top-left, i + Tk - Tq bottom-right. It is
   negative for the first Tq - Tk rows when Tq > Tk (bottom-right): those rows
   see no key at all. */
static long last_visible_key(int i, int Tq, int Tk, int bottom_right)
{
    return bottom_right ? (long)i + Tk - Tq : (long)i;
}

void attn_causal_mask_aligned(float *S, int B, int Tq, int Tk, int bottom_right)
{
    for (int b = 0; b < B; b++)
        for (int i = 0; i < Tq; i++) {
            float *s = S + ((long)b * Tq + i) * Tk;
            long last = last_visible_key(i, Tq, Tk, bottom_right);
            for (int j = 0; j < Tk; j++)
                if (j > last) s[j] = -INFINITY;
        }
}

int attn_sliding_window_mask(float *S, int B, int Tq, int Tk, int window)
{
    if (window < 1) return -1;
    /* Visible: last - window < j <= last, exactly window keys ending on the
       diagonal (fewer near the start). The left edge is strict: window = 1
       keeps the diagonal key alone. */
    for (int b = 0; b < B; b++)
        for (int i = 0; i < Tq; i++) {
            float *s = S + ((long)b * Tq + i) * Tk;
            long last = last_visible_key(i, Tq, Tk, 1);
            for (int j = 0; j < Tk; j++)
                if (j > last || j <= last - window) s[j] = -INFINITY;
        }
    return 0;
}

long attn_sink_softmax(float *W, float *Wsink, const float *S, const float *sink,
                       int B, int H, int Tq, int Tk)
{
    /* w_j = exp(s_j - m) / (exp(sink - m) + sum_k exp(s_k - m)), m the max over
       the scores AND the sink: every exponent is then <= 0, even when the sink
       dwarfs the scores (leaving it out of m overflows exp(sink - m)). A row
       with every score -inf still has the sink: all its mass goes there and
       its weights are 0 with no special case. Only a -inf sink (no sink) on
       such a row needs the zero-row policy of attn_softmax. */
    long empty = 0;
    for (int b = 0; b < B; b++) {
        double z = (double)sink[b % H];
        for (int i = 0; i < Tq; i++) {
            long r = (long)b * Tq + i;
            const float *s = S + r * Tk;     /* (Tk) scores */
            float *w = W + r * Tk;           /* (Tk) weights */

            /* pass 1: the max over the sink and the scores; NaN wins. */
            double m = z;
            int all_masked = 1;
            for (int j = 0; j < Tk; j++) {
                if (isnan(s[j]) || isnan(m)) m = (double)NAN;
                else if ((double)s[j] > m) m = (double)s[j];
                if (!(isinf(s[j]) && s[j] < 0.0f)) all_masked = 0;
            }
            empty += all_masked;
            if (m == -HUGE_VAL) {
                /* No sink and nothing to attend to: the zero-row policy. */
                for (int j = 0; j < Tk; j++) w[j] = 0.0f;
                if (Wsink) Wsink[r] = 0.0f;
                continue;
            }

            /* pass 2: the denominator, sink first, in double. */
            double denom = exp(z - m);
            for (int j = 0; j < Tk; j++) denom += exp((double)s[j] - m);

            /* pass 3: the weights; what they leave of 1 is the sink's. */
            for (int j = 0; j < Tk; j++) w[j] = (float)(exp((double)s[j] - m) / denom);
            if (Wsink) Wsink[r] = (float)(exp(z - m) / denom);
        }
    }
    return empty;
}

void attn_postmask_backward(float *dS, const float *W, const float *dW,
                            const unsigned char *keep, long rows, int n)
{
    /* W' = keep * W with W = softmax(S): the chain rule goes through the
       zeroing first (g' = keep * g, so a zeroed weight passes no upstream
       gradient), then through softmax, whose every weight depends on every
       score: ds_j = w_j (g'_j - <w, g'>). A zeroed key keeps its w_j > 0 and
       gets -w_j <w, g'>, not 0: unlike a -inf mask on scores, zeroing after
       softmax still trains the masked key. */
    for (long r = 0; r < rows; r++) {
        const float *w = W + r * n, *g = dW + r * n;
        const unsigned char *k = keep + r * n;
        float *ds = dS + r * n;

        /* pass 1: <w, g'>, in double. */
        double wg = 0.0;
        for (int j = 0; j < n; j++)
            if (k[j]) wg += (double)w[j] * (double)g[j];

        /* pass 2: ds_j = w_j (g'_j - <w, g'>). */
        for (int j = 0; j < n; j++) {
            double gj = k[j] ? (double)g[j] : 0.0;
            ds[j] = (float)((double)w[j] * (gj - wg));
        }
    }
}
