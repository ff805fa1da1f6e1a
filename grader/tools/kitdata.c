/* kitdata.c: the expected values of the labs' visible tests, as data.
 *
 *   kitdata ROOT           write ROOT/labs/<lab>/expected_labNN.h for each lab
 *                          whose tests need numbers no hand can work out
 *   kitdata --check ROOT   exit 1, naming the file, when one is not what this
 *                          program makes (a test or this file changed alone)
 *
 * The student kit ships the visible tests, so they may hold no reference
 * implementation of any lab's function (a student on lab 2 could copy lab 7's
 * softmax from them). Where a test needs the answer on random inputs, this
 * program, which never ships, computes it in double precision from the very
 * inputs the test draws (the same sup_rng seeds and order), and the test reads
 * the numbers from its expected_labNN.h. make kit-data runs it;
 * test_student_kit runs --check.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "labsup.h"

/* One header being made: its text in a memory stream. */
typedef struct header {
    char *text;
    size_t len;
    FILE *f;
} header;

static void begin(header *h, int lab, const char *what)
{
    h->text = NULL;
    h->len = 0;
    h->f = open_memstream(&h->text, &h->len);
    if (!h->f) {
        perror("kitdata");
        exit(2);
    }
    fprintf(h->f,
            "/* expected_lab%02d.h: what test_lab%02d.c expects on random inputs:\n"
            " * %s. Made by `make kit-data` (grader/tools/kitdata.c, which does not ship) in\n"
            " * double precision from the same seeded inputs the tests draw: data, not\n"
            " * code, so the tests hold no reference implementation. Do not edit by\n"
            " * hand; change the test and kitdata.c together, then run make kit-data. */\n"
            "#ifndef EXPECTED_LAB%02d_H\n#define EXPECTED_LAB%02d_H\n",
            lab, lab, what, lab, lab);
}

/* static const float name[n] = {...}; with a comment line above it. */
static void array(header *h, const char *comment, const char *name, const float *x, int n)
{
    fprintf(h->f, "\n/* %s */\nstatic const float %s[%d] = {", comment, name, n);
    for (int i = 0; i < n; i++) {
        char num[32];                     /* 9 digits give the float back exactly */
        snprintf(num, sizeof num, "%.9g", (double)x[i]);
        fprintf(h->f, "%s%s%sf,", i % 6 ? " " : "\n    ", num, strpbrk(num, ".e") ? "" : ".0");
    }
    fputs("\n};\n", h->f);
}

/* ---- labs 1 and 3 ------------------------------------------------------------ */

/* The scores Q K^T / divisor in double, for inputs drawn from seed (Q, then K). */
static void dot_scores(float *S, int B, int Tq, int Tk, int d, unsigned seed, double divisor)
{
    float Q[128], K[128];       /* the largest: lab 1, 2 * 5 * 7 */
    sup_rng rng;
    sup_rng_seed(&rng, seed);
    sup_rng_fill_normal(&rng, Q, (long)B * Tq * d);
    sup_rng_fill_normal(&rng, K, (long)B * Tk * d);
    for (int b = 0; b < B; b++)
        for (int i = 0; i < Tq; i++)
            for (int j = 0; j < Tk; j++) {
                double dot = 0;
                for (int c = 0; c < d; c++)
                    dot += (double)Q[(b * Tq + i) * d + c] * (double)K[(b * Tk + j) * d + c];
                S[(b * Tq + i) * Tk + j] = (float)(dot / divisor);
            }
}

static void lab01(header *h)
{
    float S[2 * 3 * 5];
    dot_scores(S, 2, 3, 5, 7, 7, sqrt(7.0));
    array(h, "test_scaled_is_dot_over_sqrt_d: S for B = 2, Tq = 3, Tk = 5, d = 7, seed 7",
          "lab01_scaled", S, 2 * 3 * 5);
}

static void lab03(header *h)
{
    float S[2 * 3 * 4];
    dot_scores(S, 2, 3, 4, 5, 3, 1.0);
    array(h, "test_general_identity_random: the dot scores Q K^T for B = 2, Tq = 3, Tk = 4, "
          "d = 5, seed 3", "lab03_identity_scores", S, 2 * 3 * 4);
}

/* ---- lab 4 ------------------------------------------------------------------ */

/* Entropy in nats of the softmax of two scores. */
static double entropy2(double s0, double s1)
{
    double w0 = 1.0 / (1.0 + exp(s1 - s0)), w1 = 1.0 - w0, H = 0;
    if (w0 > 0)
        H -= w0 * log(w0);
    if (w1 > 0)
        H -= w1 * log(w1);
    return H;
}

static void normals(double *z, int n, unsigned seed)
{
    sup_rng rng;
    sup_rng_seed(&rng, seed);
    for (int k = 0; k < n; k++)
        z[k] = (double)sup_rng_normal(&rng);
}

/* Entropy in nats of the softmax of scale * s[0..n), stably, in double. */
static double entropy_n(const double *s, int n, double scale)
{
    double max = s[0], sum = 0, H = 0;
    for (int j = 1; j < n; j++)
        max = s[j] > max ? s[j] : max;
    for (int j = 0; j < n; j++)
        sum += exp(scale * (s[j] - max));
    for (int j = 0; j < n; j++) {
        double w = exp(scale * (s[j] - max)) / sum;
        H -= w > 0 ? w * log(w) : 0;
    }
    return H;
}

/* The experiment's mean entropies for dks[0..n_dk), T keys, trials and seed,
   in the contract's draw order (per d, per trial: the query, then the keys). */
static void experiment(float *H_raw, float *H_scaled, const int *dks, int n_dk, int T,
                       int trials, unsigned seed)
{
    sup_rng rng;
    sup_rng_seed(&rng, seed);
    for (int m = 0; m < n_dk; m++) {
        int d = dks[m];
        float *q = malloc((size_t)d * sizeof *q), *K = malloc((size_t)T * d * sizeof *K);
        double *s = malloc((size_t)T * sizeof *s), raw = 0, scaled = 0;
        if (!q || !K || !s) {
            perror("kitdata");
            exit(2);
        }
        for (int t = 0; t < trials; t++) {
            sup_rng_fill_normal(&rng, q, d);
            sup_rng_fill_normal(&rng, K, (long)T * d);
            for (int j = 0; j < T; j++) {
                double dot = 0;
                for (int c = 0; c < d; c++)
                    dot += (double)q[c] * (double)K[(long)j * d + c];
                s[j] = (double)(float)dot;         /* the contract's float scores */
            }
            raw += entropy_n(s, T, 1.0);
            scaled += entropy_n(s, T, 1.0 / sqrt((double)d));
        }
        H_raw[m] = (float)(raw / trials);
        H_scaled[m] = (float)(scaled / trials);
        free(q);
        free(K);
        free(s);
    }
}

static void lab04(header *h)
{
    double z[9];
    normals(z, 3, 42);
    float d1[1] = {(float)entropy2(z[0] * z[1], z[0] * z[2])};
    array(h, "test_experiment_draw_order_d1: H for d = 1, T = 2, one trial, seed 42",
          "lab04_draw_order_d1", d1, 1);
    normals(z, 9, 7);
    double s0 = z[3] * z[5] + z[4] * z[6], s1 = z[3] * z[7] + z[4] * z[8];
    float raw[2] = {(float)entropy2(z[0] * z[1], z[0] * z[2]), (float)entropy2(s0, s1)};
    float scaled[2] = {raw[0], (float)entropy2(s0 / sqrt(2.0), s1 / sqrt(2.0))};
    array(h, "test_experiment_draw_order_d2: H_raw for dks = {1, 2}, T = 2, seed 7",
          "lab04_draw_order_d2_raw", raw, 2);
    array(h, "... and H_scaled", "lab04_draw_order_d2_scaled", scaled, 2);
    normals(z, 6, 99);
    float mean[1] = {(float)((entropy2(z[0] * z[1], z[0] * z[2]) +
                              entropy2(z[3] * z[4], z[3] * z[5])) / 2)};
    array(h, "test_experiment_mean_over_trials: H_raw for d = 1, T = 2, 2 trials, seed 99",
          "lab04_mean_over_trials", mean, 1);
    const int large[2] = {1024, 2048};
    float large_raw[2], large_scaled[2];
    experiment(large_raw, large_scaled, large, 2, 64, 5, 111);
    array(h, "test_experiment_large_d_matches: H_raw for dks = {1024, 2048}, T = 64, "
          "5 trials, seed 111", "lab04_large_d_raw", large_raw, 2);
    array(h, "... and H_scaled", "lab04_large_d_scaled", large_scaled, 2);
}

/* ---- lab 5 ------------------------------------------------------------------ */

/* The masking experiment's draws, in the contract's order: Q, K, V (T x d
   each), then the pad key kp and value vp (d each). */
static void masking_draws(float *Q, float *K, float *V, float *kp, float *vp, int T, int d,
                          unsigned seed)
{
    sup_rng r;
    sup_rng_seed(&r, seed);
    sup_rng_fill_normal(&r, Q, (long)T * d);
    sup_rng_fill_normal(&r, K, (long)T * d);
    sup_rng_fill_normal(&r, V, (long)T * d);
    sup_rng_fill_normal(&r, kp, d);
    sup_rng_fill_normal(&r, vp, d);
}

static void lab05(header *h)
{
    enum { d = 4 };
    {   /* one query: rowsum = 1 / (1 + p e^(a - s)), drift = (1 - rowsum) max|v| */
        float q[d], k[d], v[d], kp[d], vp[d];
        masking_draws(q, k, v, kp, vp, 1, d, 7);
        double s = 0, a = 0, vmax = 0;
        for (int c = 0; c < d; c++) {
            s += (double)q[c] * (double)k[c] / 2.0;
            a += (double)q[c] * (double)kp[c] / 2.0;
            vmax = fmax(vmax, fabs((double)v[c]));
        }
        const int pads[3] = {0, 1, 3};
        float sum[3], drift[3];
        for (int m = 0; m < 3; m++) {
            double rs = 1.0 / (1.0 + pads[m] * exp(a - s));
            sum[m] = (float)rs;
            drift[m] = (float)((1.0 - rs) * vmax);
        }
        array(h, "test_experiment_one_query: rowsum for pads {0, 1, 3}, T = 1, d = 4, seed 7",
              "lab05_one_query_rowsum", sum, 3);
        array(h, "... and drift", "lab05_one_query_drift", drift, 3);
    }
    {   /* T = 3: section 3's closed form */
        enum { T = 3, N = 3 };
        float Q[T * d], K[T * d], V[T * d], kp[d], vp[d];
        masking_draws(Q, K, V, kp, vp, T, d, 11);
        double Z[T], pad[T], omax[T];
        for (int i = 0; i < T; i++) {
            double a = 0.0, o[d] = {0};
            for (int c = 0; c < d; c++)
                a += (double)Q[i * d + c] * (double)kp[c] / 2.0;
            pad[i] = exp(a);
            Z[i] = 0.0;
            for (int j = 0; j < T; j++) {
                double s = 0.0;
                for (int c = 0; c < d; c++)
                    s += (double)Q[i * d + c] * (double)K[j * d + c] / 2.0;
                Z[i] += exp(s);
                for (int c = 0; c < d; c++)
                    o[c] += exp(s) * (double)V[j * d + c];
            }
            omax[i] = 0.0;
            for (int c = 0; c < d; c++)
                omax[i] = fmax(omax[i], fabs(o[c] / Z[i]));
        }
        const int pads[N] = {0, 2, 5};
        float sum[N], drift[N];
        for (int m = 0; m < N; m++) {
            double mean = 0.0, worst = 0.0;
            for (int i = 0; i < T; i++) {
                double ri = Z[i] / (Z[i] + pads[m] * pad[i]);
                mean += ri / T;
                worst = fmax(worst, (1.0 - ri) * omax[i]);
            }
            sum[m] = (float)mean;
            drift[m] = (float)worst;
        }
        array(h, "test_experiment_closed_form: rowsum for pads {0, 2, 5}, T = 3, d = 4, seed 11",
              "lab05_closed_form_rowsum", sum, N);
        array(h, "... and drift", "lab05_closed_form_drift", drift, N);
    }
}

/* ---- lab 7 ------------------------------------------------------------------ */

/* The two-pass answer in double: rows first, first + step, ... of each batch
   (stored one after another in O, dv numbers each). */
static void two_pass(float *O, const float *Q, const float *K, const float *V, int B, int T,
                     int d, int dv, int causal, int step)
{
    double *w = malloc((size_t)T * sizeof *w);
    long row = 0;
    for (int b = 0; b < B; b++)
        for (int i = 0; i < T; i += step, row++) {
            int nkeys = causal ? i + 1 : T;
            double m = -HUGE_VAL, sum = 0.0;
            for (int j = 0; j < nkeys; j++) {
                double dot = 0.0;
                for (int c = 0; c < d; c++)
                    dot += (double)Q[((long)b * T + i) * d + c] * (double)K[((long)b * T + j) * d + c];
                w[j] = dot / sqrt((double)d);
                m = fmax(m, w[j]);
            }
            for (int j = 0; j < nkeys; j++)
                sum += w[j] = exp(w[j] - m);
            for (int c = 0; c < dv; c++) {
                double o = 0.0;
                for (int j = 0; j < nkeys; j++)
                    o += w[j] * (double)V[((long)b * T + j) * dv + c];
                O[row * dv + c] = (float)(o / sum);
            }
        }
    free(w);
}

static void lab07(header *h)
{
    {
        enum { B = 2, T = 37, d = 8, dv = 5 };
        static float Q[B * T * d], K[B * T * d], V[B * T * dv], O[B * T * dv];
        for (int causal = 0; causal < 2; causal++) {
            sup_rng r;
            sup_rng_seed(&r, 42);
            sup_rng_fill_normal(&r, Q, B * T * d);
            sup_rng_fill_normal(&r, K, B * T * d);
            sup_rng_fill_normal(&r, V, B * T * dv);
            two_pass(O, Q, K, V, B, T, d, dv, causal, 1);
            array(h, causal ? "... and causal" : "test_attention_matches_two_pass: O "
                  "(B = 2, T = 37, d = 8, dv = 5, seed 42), not causal",
                  causal ? "lab07_two_pass_causal" : "lab07_two_pass", O, B * T * dv);
        }
    }
    {
        enum { T = 1024, d = 64, dv = 64, STEP = 61, ROWS = (T + STEP - 1) / STEP };
        float *Q = malloc((size_t)T * d * sizeof *Q), *K = malloc((size_t)T * d * sizeof *K);
        float *V = malloc((size_t)T * dv * sizeof *V), *O = malloc((size_t)ROWS * dv * sizeof *O);
        sup_rng r;
        sup_rng_seed(&r, 4096);
        sup_rng_fill_normal(&r, Q, (long)T * d);
        sup_rng_fill_normal(&r, K, (long)T * d);
        sup_rng_fill_normal(&r, V, (long)T * dv);
        two_pass(O, Q, K, V, 1, T, d, dv, 1, STEP);
        array(h, "test_attention_memory: rows 0, 61, 122, ... of O (T = 1024, d = dv = 64, "
              "causal, seed 4096), 64 numbers each", "lab07_memory_rows", O, ROWS * dv);
        free(Q);
        free(K);
        free(V);
        free(O);
    }
}

/* ---- lab 8 ------------------------------------------------------------------ */

static void softmax_d(double *w, const double *s, int n)
{
    double m = s[0], sum = 0.0;
    for (int j = 1; j < n; j++)
        m = fmax(m, s[j]);
    for (int j = 0; j < n; j++)
        sum += w[j] = exp(s[j] - m);
    for (int j = 0; j < n; j++)
        w[j] /= sum;
}

static void lab08(header *h)
{
    {   /* finite differences of L(s) = <g, softmax(s)> */
        enum { R = 3, N = 6 };
        float s[R * N], G[R * N], W[R * N], want[R * N];
        sup_rng r;
        sup_rng_seed(&r, 8);
        sup_rng_fill_normal(&r, s, R * N);
        sup_rng_fill_normal(&r, G, R * N);
        for (int row = 0; row < R; row++) {
            double sd[N], w[N];
            for (int j = 0; j < N; j++)
                sd[j] = (double)s[row * N + j];
            softmax_d(w, sd, N);
            for (int j = 0; j < N; j++)
                W[row * N + j] = (float)w[j];
            for (int k = 0; k < N; k++) {
                const double step = 1e-4;
                double Lp = 0.0, Lm = 0.0;
                sd[k] += step;
                softmax_d(w, sd, N);
                for (int j = 0; j < N; j++)
                    Lp += (double)G[row * N + j] * w[j];
                sd[k] -= 2 * step;
                softmax_d(w, sd, N);
                for (int j = 0; j < N; j++)
                    Lm += (double)G[row * N + j] * w[j];
                sd[k] += step;
                want[row * N + k] = (float)((Lp - Lm) / (2 * step));
            }
        }
        array(h, "test_backward_matches_finite_differences: W, the softmax of 3 rows of 6 "
              "normal scores (seed 8, drawn before g)", "lab08_fd_weights", W, R * N);
        array(h, "... and dS measured by central differences (h = 1e-4) for g drawn next",
              "lab08_fd_dS", want, R * N);
    }
    {   /* softmax rows of scores 3 N(0, 1) */
        enum { R = 4, N = 10 };
        float W[R * N];
        sup_rng r;
        sup_rng_seed(&r, 21);
        for (int row = 0; row < R; row++) {
            double s[N], w[N];
            for (int j = 0; j < N; j++)
                s[j] = 3.0 * (double)sup_rng_normal(&r);
            softmax_d(w, s, N);
            for (int j = 0; j < N; j++)
                W[row * N + j] = (float)w[j];
        }
        array(h, "test_backward_properties: W, the softmax of 4 rows of 10 scores 3 N(0, 1) "
              "(seed 21)", "lab08_property_weights", W, R * N);
    }
    {   /* two keys: ||ds|| = sqrt(2) w0 w1 |g0 - g1| */
        const int dks[2] = {1, 4};
        float raw[2], scaled[2];
        sup_rng r;
        sup_rng_seed(&r, 3);
        for (int m = 0; m < 2; m++) {
            int d = dks[m];
            float q[4], K[8], g[2];
            sup_rng_fill_normal(&r, q, d);
            sup_rng_fill_normal(&r, K, 2L * d);
            sup_rng_fill_normal(&r, g, 2);
            double s0 = 0.0, s1 = 0.0;
            for (int c = 0; c < d; c++) {
                s0 += (double)q[c] * (double)K[c];
                s1 += (double)q[c] * (double)K[d + c];
            }
            for (int kind = 0; kind < 2; kind++) {
                double gap = kind == 0 ? s0 - s1 : (s0 - s1) / sqrt((double)d);
                double w0 = 1.0 / (1.0 + exp(-gap));
                double norm = sqrt(2.0) * w0 * (1.0 - w0) * fabs((double)g[0] - (double)g[1]);
                (kind == 0 ? raw : scaled)[m] = (float)norm;
            }
        }
        array(h, "test_experiment_two_keys: g_raw for dks = {1, 4}, T = 2, one trial, seed 3",
              "lab08_two_keys_raw", raw, 2);
        array(h, "... and g_scaled", "lab08_two_keys_scaled", scaled, 2);
    }
}

/* ---- the files ------------------------------------------------------------------ */

static const struct {
    int lab;
    const char *dir, *what;
    void (*make)(header *);
} files[] = {
    {1, "lab01-scores", "the scaled scores", lab01},
    {3, "lab03-learned", "the plain dot scores W = I must give", lab03},
    {4, "lab04-entropy", "the experiment's entropies", lab04},
    {5, "lab05-masking", "the experiment's row sums and drifts", lab05},
    {7, "lab07-online", "attention, online and two-pass alike", lab07},
    {8, "lab08-gradients", "gradients and softmax rows", lab08},
};

int main(int argc, char **argv)
{
    int check = argc == 3 && strcmp(argv[1], "--check") == 0;
    if (argc != 2 + check || (argc == 2 && argv[1][0] == '-')) {
        fprintf(stderr, "usage: kitdata [--check] ROOT\n");
        return 2;
    }
    const char *root = argv[1 + check];
    int stale = 0;
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        header h;
        begin(&h, files[i].lab, files[i].what);
        files[i].make(&h);
        fputs("\n#endif\n", h.f);
        fclose(h.f);
        char path[4096];
        snprintf(path, sizeof path, "%s/labs/%s/expected_lab%02d.h", root, files[i].dir,
                 files[i].lab);
        FILE *f = fopen(path, check ? "r" : "w");
        if (check) {
            char *old = h.len ? calloc(1, h.len + 2) : NULL;
            size_t n = f && old ? fread(old, 1, h.len + 1, f) : 0;
            if (!f || n != h.len || memcmp(old, h.text, h.len) != 0) {
                fprintf(stderr, "kitdata: %s is not what grader/tools/kitdata.c makes; run "
                        "make kit-data\n", path);
                stale = 1;
            }
            free(old);
        } else if (!f || fwrite(h.text, 1, h.len, f) != h.len) {
            fprintf(stderr, "kitdata: cannot write %s\n", path);
            stale = 1;
        }
        if (f && fclose(f) != 0 && !check)
            stale = 1;
        free(h.text);
    }
    return stale;
}
