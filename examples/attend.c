/* attend.c: a program that uses an installed libattn, as any project would.
 *
 *   cc attend.c $(pkg-config --cflags --libs attn) -o attend && ./attend [T]
 *
 * Causal attention over one sequence of T tokens (default 256), d = 32, with
 * inputs drawn from libattn's own generator: the reference path (attn_forward,
 * the whole T x T weight matrix) against the fused fast path, which never
 * stores a weight. Prints the weights' row sums, the kernel the fused path
 * chose and the largest output difference; exits 1 if the two disagree by more
 * than 1e-5, 2 on a bad T.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <attn.h>

/* n uniforms in [-1, 1) from gen. */
static void fill(float *x, long n, attn_rng *gen)
{
    for (long k = 0; k < n; k++) x[k] = 2.0f * attn_rng_uniform(gen) - 1.0f;
}

int main(int argc, char **argv)
{
    int T = argc > 1 ? atoi(argv[1]) : 256;
    const int d = 32;
    if (T < 1 || T > 4096) {
        fprintf(stderr, "attend: T must be a whole number from 1 to 4096 (got '%s')\n", argv[1]);
        return 2;
    }
    float *Q = malloc(sizeof(float) * (size_t)T * d), *K = malloc(sizeof(float) * (size_t)T * d);
    float *V = malloc(sizeof(float) * (size_t)T * d), *W = malloc(sizeof(float) * (size_t)T * T);
    float *O_ref = malloc(sizeof(float) * (size_t)T * d), *O_fast = malloc(sizeof(float) * (size_t)T * d);
    if (!Q || !K || !V || !W || !O_ref || !O_fast) {
        fprintf(stderr, "attend: out of memory\n");
        return 1;
    }
    attn_rng gen;
    attn_rng_seed(&gen, 7);
    fill(Q, (long)T * d, &gen);
    fill(K, (long)T * d, &gen);
    fill(V, (long)T * d, &gen);

    attn_config cfg = {0};
    cfg.scaled = 1;
    cfg.causal = 1;
    attn_forward(O_ref, W, Q, K, V, 1, T, T, d, d, &cfg);
    attn_fused_attention(O_fast, Q, K, V, 1, T, T, d, d, 1, NULL);

    double worst_sum = 0.0, diff = 0.0;
    for (int i = 0; i < T; i++) {
        double sum = 0.0;
        for (int j = 0; j < T; j++) sum += W[(long)i * T + j];
        if (fabs(sum - 1.0) > worst_sum) worst_sum = fabs(sum - 1.0);
    }
    for (long k = 0; k < (long)T * d; k++)
        if (fabs((double)O_ref[k] - O_fast[k]) > diff) diff = fabs((double)O_ref[k] - O_fast[k]);
    printf("T %d, d %d, causal: weight rows sum to 1 within %.2g; fused kernel %s; "
           "max |fused - reference| %.3g\n", T, d, worst_sum, attn_fused_isa(), diff);
    free(Q), free(K), free(V), free(W), free(O_ref), free(O_fast);
    return diff <= 1e-5 ? 0 : 1;
}
