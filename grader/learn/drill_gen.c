/* drill_gen.c: numeric drills that libattn generates from a seed, so they never
 * repeat, and their worked solutions (see drill.h).
 *
 * Each drill draws small numbers a person can work with (one decimal), asks
 * one thing, and keeps what its worked solution prints: the same table as
 * `attnlab explain` (worked.h) and, for entropy and gradients, the sum term
 * by term. Every answer is libattn's.
 */
#include "learn/drill.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attn.h"
#include "base/util.h"
#include "learn/worked.h"

#define GEN_MAX 5           /* keys of a generated row */
#define SC_T 2              /* scorer drill: Tq = Tk = 2 */
#define SC_D 4              /*               d = 4 */
#define N_SCORERS 4
#define GEN_WRONG 4         /* plausible wrong answers kept per drill */
#define GEN_TRIES 200       /* draws before a drill is kept whatever its margins */

/* What a generated drill's worked solution prints. */
typedef struct gr_drill_worked {
    int kind;
    gr_worked_row row;              /* every kind but the scorer */
    float g[GEN_MAX], ds[GEN_MAX];  /* gradient: upstream g and dS */
    double wg;                      /* gradient: <w, g> */
    int key;                        /* the key asked about, 0-based */
    double wrong[GEN_WRONG];        /* plausible wrong answers, none rounding to the answer */
    const char *wrong_name[GEN_WRONG];
    int n_wrong;
    double from_shown;              /* the answer from the prompt's rounded numbers (or NAN) */
    float S[N_SCORERS][SC_T * SC_T];   /* scorer: each candidate's matrix */
    int truth;                      /* scorer: the candidate that made the matrix */
} gr_drill_worked;

static const char *const gen_ids[GR_GEN_COUNT] = {
    "generated/weights", "generated/scorer", "generated/entropy", "generated/temperature",
    "generated/gradient",
};

static const char *const scorer_names[N_SCORERS] = {
    "dot q.k", "scaled dot q.k / sqrt(d)", "q.k / d (divided by d)", "Luong general q^T W k",
};

const char *gr_drill_gen_id(int k)
{
    return k >= 0 && k < GR_GEN_COUNT ? gen_ids[k] : NULL;
}

void gr_drill_worked_free(gr_drill_worked *w)
{
    if (!w)
        return;
    if (w->kind != GR_GEN_SCORER)
        gr_worked_free(&w->row);
    free(w);
}

/* ---- drawing ---------------------------------------------------------------------- */

/* A whole number in [lo, hi]. */
static int draw_int(attn_rng *rng, int lo, int hi)
{
    int v = lo + (int)(attn_rng_uniform(rng) * (float)(hi - lo + 1));
    return v > hi ? hi : v;
}

/* n scores with one decimal in [-lim, lim], not all equal. */
static void draw_scores(attn_rng *rng, float *s, int n, int lim)
{
    do {
        for (int j = 0; j < n; j++)
            s[j] = (float)draw_int(rng, -10 * lim, 10 * lim) / 10.0f;
    } while (n > 1 && s[0] == s[1] && s[1] == s[n - 1]);
}

/* "[2.0, 1.0, -1.0]" into buf: decimals places, or as short as %g when < 0. */
static const char *fmt_list(char *buf, size_t len, const float *v, int n, int decimals)
{
    size_t k = (size_t)snprintf(buf, len, "[");
    for (int j = 0; j < n && k < len; j++)
        k += (size_t)(decimals < 0 ? snprintf(buf + k, len - k, "%s%g", j ? ", " : "", (double)v[j])
                      : snprintf(buf + k, len - k, "%s%.*f", j ? ", " : "", decimals, (double)v[j]));
    if (k < len)
        snprintf(buf + k, len - k, "]");
    return buf;
}

/* Fill the fields every numeric drill shares. */
static void set_numeric(gr_drill_question *q, int k, double value, int decimals,
                        const char *lesson, const char *section)
{
    q->id = gr_xstrdup(gen_ids[k]);
    q->kind = GR_DRILL_NUMERIC;
    q->value = value;
    q->decimals = decimals;
    q->answer_text = gr_xasprintf("%.*f", decimals, value);
    q->lesson = gr_xstrdup(lesson);
    q->section = gr_xstrdup(section);
}

static void add_wrong(gr_drill_worked *w, const char *name, double value)
{
    if (w->n_wrong < GEN_WRONG) {
        w->wrong_name[w->n_wrong] = name;
        w->wrong[w->n_wrong++] = value;
    }
}

/* Softmax in double of s / scale over the keys not in mask (NULL: none), into out. */
static void softmax_d(double *out, const float *s, const unsigned char *mask, int n,
                      double scale)
{
    double m = -INFINITY, sum = 0.0;
    for (int j = 0; j < n; j++)
        if (!mask || !mask[j])
            m = fmax(m, (double)s[j] / scale);
    for (int j = 0; j < n; j++) {
        out[j] = mask && mask[j] ? 0.0 : exp((double)s[j] / scale - m);
        sum += out[j];
    }
    for (int j = 0; j < n; j++)
        out[j] /= sum;
}

/* x as the prompt shows it, at decimals places. */
static double shown(double x, int decimals)
{
    double p = pow(10.0, decimals);
    return round(x * p) / p;
}

/* ---- the five kinds ---------------------------------------------------------------- */

static void gen_weights(gr_drill_question *q, gr_drill_worked *w, attn_rng *rng)
{
    float s[GEN_MAX];
    unsigned char mask[GEN_MAX] = {0};
    int n = draw_int(rng, 3, GEN_MAX), masked = -1;
    draw_scores(rng, s, n, 3);
    long dk = draw_int(rng, 0, 1) ? 4 : 0;
    if (draw_int(rng, 0, 1)) {
        masked = draw_int(rng, 0, n - 1);
        mask[masked] = 1;
    }
    /* Mostly a key that attends; now and then the masked one, whose answer is 0. */
    do
        w->key = draw_int(rng, 0, n - 1);
    while (w->key == masked && draw_int(rng, 0, 3) != 0);
    gr_worked_compute(&w->row, s, masked >= 0 ? mask : NULL, n, dk, 0.0f);
    char list[160], what[64] = "", scale[128] = "";
    if (masked >= 0)
        snprintf(what, sizeof what, " Key %d is masked (padding).", masked);
    if (dk)
        snprintf(scale, sizeof scale, " They are dot products q . k with d_k = %ld; the "
                 "attention is scaled dot-product attention.", dk);
    q->prompt = gr_xasprintf("A row of %d scores, keys 0 to %d: %s.%s%s What is the weight of "
                             "key %d after softmax? (4 decimals)", n, n - 1,
                             fmt_list(list, sizeof list, s, n, 1), scale, what, w->key);
    q->explanation = gr_xstrdup("Softmax works over the keys of the row: weight = exp(s - m) "
                                "/ sum, with m the largest score left (scaled by 1/sqrt(d_k) "
                                "first when the scores are raw dot products). A masked key's "
                                "score becomes -inf, so its weight is exactly 0 and the others "
                                "share all of the weight; a negative score still gets a "
                                "positive weight. Keys count from 0.");
    set_numeric(q, GR_GEN_WEIGHTS, (double)w->row.w[w->key], 4,
                masked >= 0 ? "L2.3" : "L2.1", masked >= 0 ? "lab 2 §4" : "lab 2 §2");
    double d[GEN_MAX], sc = dk ? sqrt((double)dk) : 1.0;
    if (masked >= 0) {
        softmax_d(d, s, NULL, n, sc);
        add_wrong(w, "the mask ignored", d[w->key]);
    }
    if (dk) {
        softmax_d(d, s, masked >= 0 ? mask : NULL, n, 1.0);
        add_wrong(w, "no 1/sqrt(d_k) scale", d[w->key]);
    }
    if (w->key > 0)
        add_wrong(w, "key counted from 1 (the key before)", (double)w->row.w[w->key - 1]);
    if (w->key < n - 1)
        add_wrong(w, "the key after", (double)w->row.w[w->key + 1]);
    w->from_shown = NAN;
}

/* Each candidate's (Tq, Tk) matrix for Q, K (SC_T, SC_D) and W (SC_D, SC_D). */
static void scorer_candidates(float S[N_SCORERS][SC_T * SC_T], const float *Q, const float *K,
                              const float *W)
{
    attn_dot_scores(S[0], Q, K, 1, SC_T, SC_T, SC_D);
    attn_scaled_dot_scores(S[1], Q, K, 1, SC_T, SC_T, SC_D);
    attn_dot_scores(S[2], Q, K, 1, SC_T, SC_T, SC_D);
    attn_temperature(S[2], (float)SC_D, SC_T * SC_T);
    attn_general_scores(S[3], Q, W, K, 1, SC_T, SC_T, SC_D, SC_D);
}

/* Every two candidates differ at entry (0, 0), so one entry decides. */
static int candidates_differ(float S[N_SCORERS][SC_T * SC_T])
{
    for (int a = 0; a < N_SCORERS; a++)
        for (int b = 0; b < a; b++)
            if (S[a][0] == S[b][0])
                return 0;
    return 1;
}

static void append_matrix(gr_strbuf *sb, const char *name, const float *M, int rows, int cols)
{
    for (int i = 0; i < rows; i++) {
        gr_sb_printf(sb, "\n  %-2s %s", i == 0 ? name : "", "[");
        for (int j = 0; j < cols; j++)
            gr_sb_printf(sb, "%s%g", j ? ", " : "", (double)M[i * cols + j]);
        gr_sb_append(sb, "]");
    }
}

static void gen_scorer(gr_drill_question *q, gr_drill_worked *w, attn_rng *rng)
{
    float Q[SC_T * SC_D], K[SC_T * SC_D], W[SC_D * SC_D];
    do {
        for (int i = 0; i < SC_T * SC_D; i++) {
            Q[i] = (float)draw_int(rng, -2, 2);
            K[i] = (float)draw_int(rng, -2, 2);
        }
        for (int i = 0; i < SC_D * SC_D; i++)
            W[i] = (float)draw_int(rng, -1, 1);
        scorer_candidates(w->S, Q, K, W);
    } while (!candidates_differ(w->S));
    w->truth = draw_int(rng, 0, N_SCORERS - 1);

    gr_strbuf sb = {0};
    gr_sb_printf(&sb, "Queries Q (%d x %d), keys K (%d x %d) and a matrix W (%d x %d):",
                 SC_T, SC_D, SC_T, SC_D, SC_D, SC_D);
    append_matrix(&sb, "Q", Q, SC_T, SC_D);
    append_matrix(&sb, "K", K, SC_T, SC_D);
    append_matrix(&sb, "W", W, SC_D, SC_D);
    gr_sb_append(&sb, "\nWhich scoring function produced this score matrix S (Tq x Tk)?");
    append_matrix(&sb, "S", w->S[w->truth], SC_T, SC_T);
    q->prompt = gr_sb_take(&sb);
    q->id = gr_xstrdup(gen_ids[GR_GEN_SCORER]);
    q->kind = GR_DRILL_CHOICE;
    q->n_choices = N_SCORERS;
    q->choices = gr_xcalloc(N_SCORERS, sizeof *q->choices);
    for (int c = 0; c < N_SCORERS; c++)
        q->choices[c] = gr_xstrdup(scorer_names[c]);
    q->answer = w->truth;
    q->answer_text = gr_xstrdup(scorer_names[w->truth]);
    q->explanation = gr_xasprintf("Compute S[0][0] each way from query 0 and key 0 and compare. "
                                  "Every scoring function makes scores of the same shape "
                                  "(Tq, Tk), and none of them makes weights; with d = %d, "
                                  "sqrt(d) = 2 and dividing by d = %d are different scales.",
                                  SC_D, SC_D);
    q->lesson = gr_xstrdup("L3.1");
    q->section = gr_xstrdup("lab 3 §2");
}

static void gen_entropy(gr_drill_question *q, gr_drill_worked *w, attn_rng *rng)
{
    float s[GEN_MAX], h;
    int n = draw_int(rng, 3, 4);
    draw_scores(rng, s, n, 2);
    gr_worked_compute(&w->row, s, NULL, n, 0, 0.0f);
    attn_entropy_rows(&h, w->row.w, 1, n);
    char l1[160], l2[160];
    q->prompt = gr_xasprintf("The scores %s give the weights %s. What is the entropy of this "
                             "row of weights, in nats (natural log)? (3 decimals)",
                             fmt_list(l1, sizeof l1, s, n, 1),
                             fmt_list(l2, sizeof l2, w->row.w, n, 4));
    q->explanation = gr_xasprintf("H = -sum w ln w over the keys, with 0 ln 0 = 0. It lies "
                                  "between 0 (one-hot) and ln %d = %.4f (uniform): the lower it "
                                  "is, the fewer keys the query attends to.", n, log((double)n));
    set_numeric(q, GR_GEN_ENTROPY, (double)h, 3, "L4.1", "lab 4 §2");
    add_wrong(w, "log base 2 (bits, not nats)", (double)h / log(2.0));
    add_wrong(w, "the minus sign left out", -(double)h);
    w->from_shown = 0.0;
    for (int j = 0; j < n; j++) {
        double x = shown((double)w->row.w[j], 4);
        w->from_shown -= x > 0.0 ? x * log(x) : 0.0;
    }
}

static void gen_temperature(gr_drill_question *q, gr_drill_worked *w, attn_rng *rng)
{
    float s[GEN_MAX];
    int n = draw_int(rng, 3, 4);
    draw_scores(rng, s, n, 3);
    gr_worked_compute(&w->row, s, NULL, n, 0, 2.0f);
    float before = 0.0f, after = 0.0f;
    for (int j = 0; j < n; j++) {
        before = fmaxf(before, w->row.w_raw[j]);
        after = fmaxf(after, w->row.w[j]);
    }
    char list[160];
    q->prompt = gr_xasprintf("The scores %s give a largest weight of %.4f. What is the "
                             "largest weight at temperature 2? (4 decimals)",
                             fmt_list(list, sizeof list, s, n, 1), (double)before);
    q->explanation = gr_xstrdup("Temperature divides the scores before softmax, in the same "
                                "place as 1/sqrt(d_k): T = 2 halves every score, so the "
                                "differences between them halve and the weights flatten; the "
                                "largest weight gets smaller.");
    set_numeric(q, GR_GEN_TEMPERATURE, (double)after, 4, "L2.5", "lab 2 §6");
    double d[GEN_MAX], mx = 0.0;
    softmax_d(d, s, NULL, n, 0.5);
    for (int j = 0; j < n; j++)
        mx = fmax(mx, d[j]);
    add_wrong(w, "the temperature left out", (double)before);
    add_wrong(w, "the scores multiplied by T", mx);
    w->from_shown = NAN;
}

static void gen_gradient(gr_drill_question *q, gr_drill_worked *w, attn_rng *rng)
{
    float s[GEN_MAX];
    int n = 3;
    draw_scores(rng, s, n, 2);
    for (int j = 0; j < n; j++)
        w->g[j] = (float)draw_int(rng, -2, 2);
    if (w->g[0] == w->g[1] && w->g[1] == w->g[2])
        w->g[draw_int(rng, 0, n - 1)] += 1.0f;     /* a constant g passes no gradient */
    gr_worked_compute(&w->row, s, NULL, n, 0, 0.0f);
    attn_softmax_backward(w->ds, w->row.w, w->g, 1, n);
    w->wg = 0.0;
    for (int j = 0; j < n; j++)
        w->wg += (double)w->row.w[j] * (double)w->g[j];
    w->key = draw_int(rng, 0, n - 1);
    char l1[160], l2[160], l3[160];
    q->prompt = gr_xasprintf("The scores %s (keys 0 to %d) give the weights %s. The gradient "
                             "reaching the weights is g = %s. What is dS for key %d, the "
                             "gradient of the loss with respect to its score? (4 decimals)",
                             fmt_list(l1, sizeof l1, s, n, 1), n - 1,
                             fmt_list(l2, sizeof l2, w->row.w, n, 5),
                             fmt_list(l3, sizeof l3, w->g, n, -1), w->key);
    q->explanation = gr_xstrdup("Softmax backward: dS_j = w_j (g_j - <w, g>). The entries of "
                                "dS sum to 0, and a key whose weight is near 0 (or a row near "
                                "one-hot) passes almost no gradient.");
    int k = w->key;
    set_numeric(q, GR_GEN_GRADIENT, (double)w->ds[k], 4, "L8.1", "lab 8 §2");
    if (k > 0)
        add_wrong(w, "key counted from 1 (the key before)", (double)w->ds[k - 1]);
    if (k < n - 1)
        add_wrong(w, "the key after", (double)w->ds[k + 1]);
    add_wrong(w, "<w, g> left out", (double)w->row.w[k] * (double)w->g[k]);
    add_wrong(w, "the sign flipped", -(double)w->ds[k]);
    double wg = 0.0;
    for (int j = 0; j < n; j++)
        wg += shown((double)w->row.w[j], 5) * (double)w->g[j];
    w->from_shown = shown((double)w->row.w[k], 5) * ((double)w->g[k] - wg);
}

/* A numeric drill is kept when its answer is not within a tenth of a last
   digit of a rounding boundary, the prompt's rounded numbers give the same
   answer, and no plausible wrong answer rounds to it. */
static int fair(const gr_drill_question *q, const gr_drill_worked *w)
{
    double u = q->value * pow(10.0, q->decimals);
    if (fabs(u - floor(u) - 0.5) < 0.1)
        return 0;
    if (!isnan(w->from_shown) && !gr_drill_rounds_to(w->from_shown, q->value, q->decimals))
        return 0;
    for (int i = 0; i < w->n_wrong; i++)
        if (gr_drill_rounds_to(w->wrong[i], q->value, q->decimals))
            return 0;
    return 1;
}

int gr_drill_gen_wrong(const gr_drill_question *q, double *vals, const char **names, int cap)
{
    const gr_drill_worked *w = q->worked;
    int n = 0;
    for (int i = 0; w && i < w->n_wrong && n < cap; i++, n++) {
        vals[n] = w->wrong[i];
        names[n] = w->wrong_name[i];
    }
    return n;
}

void gr_drill_generate(gr_drill_question *q, int k, uint64_t seed)
{
    memset(q, 0, sizeof *q);
    gr_drill_worked *w = gr_xcalloc(1, sizeof *w);
    attn_rng rng;
    attn_rng_seed(&rng, seed ^ (0x9E3779B97F4A7C15ULL * (uint64_t)(k + 1)));
    if (k < 0 || k >= GR_GEN_COUNT)
        k = GR_GEN_GRADIENT;
    for (int tries = 0;; tries++) {
        w->kind = k;
        switch (k) {
        case GR_GEN_WEIGHTS:     gen_weights(q, w, &rng); break;
        case GR_GEN_SCORER:      gen_scorer(q, w, &rng); break;
        case GR_GEN_ENTROPY:     gen_entropy(q, w, &rng); break;
        case GR_GEN_TEMPERATURE: gen_temperature(q, w, &rng); break;
        default:                 gen_gradient(q, w, &rng); break;
        }
        if (k == GR_GEN_SCORER || fair(q, w) || tries == GEN_TRIES)
            break;
        gr_drill_question_free(q);          /* the rng moves on: the next draw differs */
        gr_worked_free(&w->row);
        memset(w, 0, sizeof *w);
    }
    q->worked = w;
}

/* ---- worked solutions ------------------------------------------------------------ */

static void worked_scorer(FILE *out, const gr_drill_worked *w)
{
    fputs("Each candidate's score matrix from the same Q, K and W (computed by libattn):\n", out);
    for (int c = 0; c < N_SCORERS; c++) {
        fprintf(out, "  %-26s [", scorer_names[c]);
        for (int i = 0; i < SC_T * SC_T; i++)
            fprintf(out, "%s%g", i == 0 ? "" : i % SC_T == 0 ? "; " : ", ", (double)w->S[c][i]);
        fprintf(out, "]%s\n", c == w->truth ? "   <- S" : "");
    }
}

static void worked_entropy(FILE *out, const gr_drill_worked *w)
{
    char b1[48], b2[48], b3[48];
    double h = 0.0;
    fputs("\nEntropy, term by term: -w ln w\n", out);
    for (int j = 0; j < w->row.n; j++) {
        double x = (double)w->row.w[j], t = x > 0.0 ? -x * log(x) : 0.0;
        h += t;
        fprintf(out, "  key %d   -%s * ln %s = %s\n", j, gr_worked_num(b1, x),
                gr_worked_num(b2, x), gr_worked_num(b3, t));
    }
    fprintf(out, "  H = %.4f nats (uniform over %d keys would be ln %d = %.4f)\n", h, w->row.n,
            w->row.n, log((double)w->row.n));
}

static void worked_gradient(FILE *out, const gr_drill_worked *w)
{
    char b1[48], b2[48], b3[48];
    fprintf(out, "\nBackward: <w, g> = ");
    for (int j = 0; j < w->row.n; j++)
        fprintf(out, "%s%s * %g", j ? " + " : "", gr_worked_num(b1, (double)w->row.w[j]),
                (double)w->g[j]);
    fprintf(out, " = %s\n", gr_worked_num(b1, w->wg));
    for (int j = 0; j < w->row.n; j++)
        fprintf(out, "  dS_%d = w_%d (g_%d - <w, g>) = %s * (%g - %s) = %s%s\n", j, j,
                j, gr_worked_num(b1, (double)w->row.w[j]), (double)w->g[j],
                gr_worked_num(b2, w->wg), gr_worked_num(b3, (double)w->ds[j]),
                j == w->key ? "   <- asked" : "");
}

void gr_drill_print_worked(FILE *out, const gr_drill_question *q)
{
    const gr_drill_worked *w = q->worked;
    if (!w)
        return;
    fputs("\nWorked solution:\n", out);
    if (w->kind == GR_GEN_SCORER) {
        worked_scorer(out, w);
        return;
    }
    gr_worked_table(out, &w->row);
    if (w->kind == GR_GEN_ENTROPY)
        worked_entropy(out, w);
    else if (w->kind == GR_GEN_GRADIENT)
        worked_gradient(out, w);
    else
        gr_worked_lessons(out, &w->row);
}
