/* worked.c: one row of scores through libattn, step by step, and its printers
 * (see worked.h). `attnlab explain` prints them for a row the user gives;
 * `attnlab drill` prints them as the worked solution of a generated drill.
 */
#include "learn/worked.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attn.h"
#include "base/util.h"

/* ---- the computation ------------------------------------------------------------------ */

void gr_worked_compute(gr_worked_row *r, const float *raw, const unsigned char *mask, int n,
                       long dk, float temperature)
{
    size_t fn = (size_t)n;
    memset(r, 0, sizeof *r);
    r->n = n;
    r->dk = dk;
    r->temperature = temperature;
    r->has_mask = mask != NULL;
    r->raw = gr_xmalloc(fn * sizeof(float));
    memcpy(r->raw, raw, fn * sizeof(float));
    r->mask = gr_xcalloc(fn, 1);
    if (mask)
        memcpy(r->mask, mask, fn);
    r->scaled = gr_xcalloc(fn, sizeof(float));
    r->edited = gr_xcalloc(fn, sizeof(float));
    r->masked = gr_xcalloc(fn, sizeof(float));
    r->ex = gr_xcalloc(fn, sizeof(double));
    r->w = gr_xcalloc(fn, sizeof(float));
    r->w_nomask = gr_xcalloc(fn, sizeof(float));
    r->w_raw = gr_xcalloc(fn, sizeof(float));

    /* Edits on scores: scale by 1/sqrt(d_k) and temperature are both a division
       of the scores, so both go through attn_temperature. */
    memcpy(r->scaled, raw, fn * sizeof(float));
    if (r->dk > 0)
        attn_temperature(r->scaled, sqrtf((float)r->dk), n);
    memcpy(r->edited, r->scaled, fn * sizeof(float));
    if (r->temperature > 0.0f)
        attn_temperature(r->edited, r->temperature, n);

    /* The mask writes -inf on scores, one row of one batch: (B, Tq, Tk) = (1, 1, n). */
    memcpy(r->masked, r->edited, fn * sizeof(float));
    attn_bool_mask(r->masked, r->mask, 1, 1, n);

    /* The single conversion point: scores -> weights. */
    r->fully_masked = attn_softmax(r->w, r->masked, 1, n);

    /* What attn_softmax does inside, shown: subtract the max m (only so exp
       cannot overflow; it cancels in the division), exponentiate, sum.
       A nan anywhere makes m nan, as it makes every weight nan. */
    r->m = -(double)INFINITY;
    for (int j = 0; j < n; j++) {
        double s = (double)r->masked[j];
        if (isnan(s)) {
            r->m = (double)NAN;
            break;
        }
        if (s > r->m)
            r->m = s;
    }
    r->ex_sum = 0.0;
    r->w_sum = 0.0;
    for (int j = 0; j < n; j++) {
        r->ex[j] = exp((double)r->masked[j] - r->m);
        r->ex_sum += r->ex[j];
        r->w_sum += (double)r->w[j];
    }

    /* For comparison: the same row without the mask, and with the mask but
       without scaling or temperature. */
    attn_softmax(r->w_nomask, r->edited, 1, n);
    memcpy(r->w_raw, raw, fn * sizeof(float));
    attn_bool_mask(r->w_raw, r->mask, 1, 1, n);
    attn_softmax(r->w_raw, r->w_raw, 1, n);
}

void gr_worked_free(gr_worked_row *r)
{
    free(r->raw);
    free(r->mask);
    free(r->scaled);
    free(r->edited);
    free(r->masked);
    free(r->ex);
    free(r->w);
    free(r->w_nomask);
    free(r->w_raw);
}

/* ---- printing ------------------------------------------------------------------------- */

const char *gr_worked_num(char buf[48], double v)
{
    if (isnan(v))
        return "nan";
    if (isinf(v))
        return v > 0 ? "inf" : "-inf";
    int sci = fabs(v) >= 1e7 || (v != 0 && fabs(v) < 0.5e-4);
    snprintf(buf, 48, sci ? "%.4e" : "%.4f", v);
    return buf;
}

/* The same for a float (every float is exactly a double). */
static const char *fmt_numf(char buf[48], float v)
{
    return gr_worked_num(buf, (double)v);
}

/* A number for CSV: enough digits to read back the same float, or inf / -inf / nan. */
static const char *fmt_csv(char buf[48], double v)
{
    if (isnan(v))
        return "nan";
    if (isinf(v))
        return v > 0 ? "inf" : "-inf";
    snprintf(buf, 48, "%.9g", v);
    return buf;
}

static const char *fmt_csvf(char buf[48], float v)
{
    return fmt_csv(buf, (double)v);
}

void gr_worked_csv(FILE *out, const gr_worked_row *r)
{
    char b[7][48];
    fputs("key,raw_score,scaled_score,blocked,masked_score,shift,exp_shifted,weight\n", out);
    for (int j = 0; j < r->n; j++)
        fprintf(out, "%d,%s,%s,%d,%s,%s,%s,%s\n", j, fmt_csvf(b[0], r->raw[j]),
                fmt_csvf(b[1], r->edited[j]), r->mask[j], fmt_csvf(b[2], r->masked[j]),
                fmt_csv(b[3], r->m), fmt_csv(b[4], r->ex[j]), fmt_csvf(b[5], r->w[j]));
}

/* text wrapped at 78 columns after lead, breaking only at spaces; with glue, a
   '~' is a space that never breaks (the worked steps' formulas, exp(s~-~m)),
   else every character is printed as it is. */
static void wrap(FILE *out, const char *lead, const char *text, int glue)
{
    const int width = 78;
    int indent = (int)strlen(lead), col = indent;
    fputs(lead, out);
    const char *p = text;
    while (*p) {
        while (*p == ' ')
            p++;
        size_t w = strcspn(p, " ");
        if (w == 0)
            break;
        if (col > indent && col + 1 + (int)w > width) {
            fprintf(out, "\n%*s", indent, "");
            col = indent;
        }
        if (col > indent) {
            fputc(' ', out);
            col++;
        }
        for (size_t i = 0; i < w; i++)
            fputc(glue && p[i] == '~' ? ' ' : p[i], out);
        col += (int)w;
        p += w;
    }
    fputc('\n', out);
}

void gr_worked_print_wrapped(FILE *out, const char *lead, const char *text)
{
    wrap(out, lead, text, 0);
}

/* The worked steps' own text, where '~' glues a formula. */
static void print_glued(FILE *out, const char *lead, const char *text)
{
    wrap(out, lead, text, 1);
}

/* Table columns, left to right; optional ones appear only when their step ran. */
enum { C_KEY, C_SCORE, C_SCALED, C_TEMPERED, C_MASK, C_AFTER, C_EXP, C_WEIGHT, C_COUNT };

/* The text of cell (row j, column c); row n is the sum row. */
static const char *cell(char buf[48], const gr_worked_row *r, int c, int j)
{
    if (j == r->n) {                        /* sum row */
        if (c == C_KEY)
            return "sum";
        if (c == C_EXP)
            return gr_worked_num(buf, r->ex_sum);
        if (c == C_WEIGHT)
            return gr_worked_num(buf, r->w_sum);
        return "";
    }
    switch (c) {
    case C_KEY:      snprintf(buf, 48, "%d", j); return buf;     /* from 0, as in the code */
    case C_SCORE:    return fmt_numf(buf, r->raw[j]);
    case C_SCALED:   return fmt_numf(buf, r->scaled[j]);
    case C_TEMPERED: return fmt_numf(buf, r->edited[j]);
    case C_MASK:     return r->mask[j] ? "1" : "0";
    case C_AFTER:    return fmt_numf(buf, r->masked[j]);
    case C_EXP:      return gr_worked_num(buf, r->ex[j]);
    case C_WEIGHT:   return fmt_numf(buf, r->w[j]);
    default:         return "";
    }
}

/* A short note at the end of a key's row: why its weight is what it is. */
static const char *row_note(const gr_worked_row *r, int j)
{
    if (r->mask[j])
        return "masked";
    if (isnan(r->raw[j]))
        return "nan score";
    if (isinf(r->raw[j]))
        return r->raw[j] > 0 ? "inf score" : "-inf score: acts as a mask";
    if (r->w[j] == 0.0f && !isnan(r->m))
        return "underflowed to 0";
    return "";
}

void gr_worked_table(FILE *out, const gr_worked_row *r)
{
    static const char *const head[C_COUNT] = {
        "key", "score", "scaled", "tempered", "mask", "after mask", "exp(s - m)", "weight"
    };
    int show[C_COUNT] = { 1, 1, r->dk > 0, r->temperature > 0.0f, r->has_mask, r->has_mask,
                           1, 1 };
    int width[C_COUNT];
    char buf[48];

    /* Column widths: the widest of the header and every cell, sum row included. */
    for (int c = 0; c < C_COUNT; c++) {
        width[c] = (int)strlen(head[c]);
        for (int j = 0; show[c] && j <= r->n; j++) {
            int w = (int)strlen(cell(buf, r, c, j));
            if (w > width[c])
                width[c] = w;
        }
    }

    fprintf(out, "Softmax of one row of %d score%s, step by step (computed by libattn)\n\n",
            r->n, r->n == 1 ? "" : "s");
    for (int j = -1; j <= r->n; j++) {      /* -1 is the header row */
        fputs(" ", out);
        for (int c = 0; c < C_COUNT; c++)
            if (show[c])
                fprintf(out, " %*s", width[c] + 1, j < 0 ? head[c] : cell(buf, r, c, j));
        if (j >= 0 && j < r->n && row_note(r, j)[0])
            fprintf(out, "   %s", row_note(r, j));
        fputc('\n', out);
    }

    /* How to read each column, with the numbers this row used. */
    char line[512], b1[48], b2[48];
    fputs("\nStep by step:\n", out);
    print_glued(out, "  score       ", "the raw scores as given: any real number.");
    if (r->dk > 0) {
        snprintf(line, sizeof line, "score / sqrt(d_k) = score / %s (d_k = %ld): keeps the "
                 "scores' spread near 1, so softmax stays out of saturation.",
                 gr_worked_num(b1, sqrt((double)r->dk)), r->dk);
        print_glued(out, "  scaled      ", line);
    }
    if (r->temperature > 0.0f) {
        snprintf(line, sizeof line, "divided by the temperature T = %s: T < 1 sharpens the "
                 "weights, T > 1 flattens them.", fmt_numf(b1, r->temperature));
        print_glued(out, "  tempered    ", line);
    }
    if (r->has_mask)
        print_glued(out, "  after mask  ", "blocked keys (mask 1) get the score -inf, so "
                      "that exp gives exactly 0 there.");
    if (isnan(r->m))
        snprintf(line, sizeof line, "m = nan: a nan score makes the max nan, and then every "
                 "s - m is nan.");
    else if (isinf(r->m) && r->m < 0)
        snprintf(line, sizeof line, "m = -inf: every score is -inf, so s~-~m = -inf~-~(-inf) "
                 "= nan for every key.");
    else if (isinf(r->m))
        snprintf(line, sizeof line, "m = inf: s~-~m is inf~-~inf = nan for an inf score and "
                 "-inf (exp~0) for the others.");
    else
        snprintf(line, sizeof line, "m = %s, the largest score left, is subtracted before exp "
                 "only so that exp cannot overflow; it cancels in the division, so the weights "
                 "do not change.", gr_worked_num(b1, r->m));
    print_glued(out, "  exp(s - m)  ", line);
    if (r->fully_masked)
        snprintf(line, sizeof line, "nothing to normalise over (the sum is %s): attnlab's "
                 "policy gives all-zero weights.", gr_worked_num(b1, r->ex_sum));
    else if (isnan(r->w_sum))
        snprintf(line, sizeof line, "exp(s~-~m) / %s, the sum of the column before: "
                 "nan in, nan out.", gr_worked_num(b1, r->ex_sum));
    else
        snprintf(line, sizeof line, "exp(s~-~m) / %s, the sum of the column before; the "
                 "weights sum to %s.", gr_worked_num(b1, r->ex_sum), gr_worked_num(b2, r->w_sum));
    print_glued(out, "  weight      ", line);
}

/* The largest weight of a row (nan if any is nan). */
static float max_weight(const float *w, int n)
{
    float mx = 0.0f;
    for (int j = 0; j < n; j++) {
        if (isnan(w[j]))
            return NAN;
        if (w[j] > mx)
            mx = w[j];
    }
    return mx;
}

/* A finite score this low is a stand-in for a mask (-1e4, -1e9, -FLT_MAX). */
#define FAKE_MASK -1e4f

/* What a row holds, for choosing its lessons. */
typedef struct row_facts {
    int any_nan_w;                  /* some weight is nan */
    int nan_key, inf_key, neg_key, under_key;   /* first such key, or -1 */
    int fake_key;                   /* first unmasked finite score <= FAKE_MASK, or -1 */
    int n_fake;
    int n_masked, n_ninf;           /* keys masked, keys whose own score is -inf */
    int first_masked, first_ninf;
} row_facts;

static void row_facts_of(const gr_worked_row *r, row_facts *f)
{
    *f = (row_facts){0, -1, -1, -1, -1, -1, 0, 0, 0, -1, -1};
    for (int j = 0; j < r->n; j++) {
        float s = r->masked[j];
        if (isnan(r->w[j]))
            f->any_nan_w = 1;
        if (isnan(s) && f->nan_key < 0)
            f->nan_key = j;
        if (isinf(s) && s > 0 && f->inf_key < 0)
            f->inf_key = j;
        if (r->mask[j]) {
            if (f->n_masked++ == 0)
                f->first_masked = j;
        } else if (isinf(s) && s < 0) {
            if (f->n_ninf++ == 0)
                f->first_ninf = j;
        }
        if (isfinite(s) && s < 0.0f && r->w[j] > 0.0f && f->neg_key < 0)
            f->neg_key = j;
        if (isfinite(s) && r->w[j] == 0.0f && f->under_key < 0)
            f->under_key = j;
        if (!r->mask[j] && isfinite(s) && s <= FAKE_MASK && f->n_fake++ == 0)
            f->fake_key = j;
    }
}

/* A nan or inf score: what it does to the row. 1 when said. */
static int lesson_nan_inf(FILE *out, const gr_worked_row *r, const row_facts *f)
{
    char line[1024], b1[48];
    if (f->nan_key >= 0 && f->any_nan_w) {
        snprintf(line, sizeof line, "Key %d's score is nan, and nan spreads: it makes the max "
                 "and the sum nan, so every weight of the row is nan. One bad score poisons its "
                 "whole row; attnlab lets it show rather than hide it.", f->nan_key);
    } else if (f->inf_key >= 0 && f->any_nan_w) {
        snprintf(line, sizeof line, "Key %d's score is inf, so m = inf and s~-~m = inf~-~"
                 "inf = nan: the row's weights are nan. A large but finite score would "
                 "instead take almost all of the weight.", f->inf_key);
    } else if (f->inf_key >= 0) {
        snprintf(line, sizeof line, "Key %d's score is inf: libattn gives it weight %s.",
                 f->inf_key, fmt_numf(b1, r->w[f->inf_key]));
    } else {
        return 0;
    }
    print_glued(out, "- ", line);
    return 1;
}

/* Finite scores: a negative one still gets weight; an exact 0 is underflow. */
static int lesson_finite(FILE *out, const gr_worked_row *r, const row_facts *f, int shown)
{
    char line[1024], b1[48], b2[48], b3[48];
    if (f->any_nan_w)
        return 0;
    if (f->neg_key >= 0) {
        snprintf(line, sizeof line, "Key %d's score is %s, yet its weight is %s > 0: a "
                 "negative score is not negative attention. Softmax gives every finite score "
                 "a positive weight; a lower score only means a smaller share.", f->neg_key,
                 fmt_numf(b1, r->masked[f->neg_key]), fmt_numf(b2, r->w[f->neg_key]));
    } else if (f->under_key >= 0) {
        /* In log space: exp of a gap past about 745 is 0 in double too. */
        double gap = r->m - (double)r->masked[f->under_key];
        double l10 = -gap / log(10.0) - log10(r->ex_sum), e10 = floor(l10);
        snprintf(line, sizeof line, "Key %d's score is finite, yet its weight is exactly 0: "
                 "it is %s below the row's max, and in float32 exp(x) rounds to 0 below "
                 "x~=~-103.97 (in float16 below x~=~-17.33). In exact arithmetic its weight "
                 "is e^-%s / %s, about %.2fe%.0f, positive: only a mask gives exactly 0 by "
                 "design.", f->under_key, gr_worked_num(b1, gap), gr_worked_num(b2, gap),
                 gr_worked_num(b3, r->ex_sum), pow(10.0, l10 - e10), e10);
    } else if (!r->fully_masked && f->n_masked + f->n_ninf < r->n && shown < 3) {
        snprintf(line, sizeof line, "Every finite score got a positive weight. In exact "
                 "arithmetic softmax gives exactly 0 only to a score of -inf; in float32 a "
                 "score more than about 104 below the row's max would underflow to 0 too.");
    } else {
        return 0;
    }
    print_glued(out, "- ", line);
    return 1;
}

/* A huge negative finite score is not a mask: in a row where every key has
   one, the max subtraction makes them all 0 and the weights come out uniform. */
static int lesson_fake_mask(FILE *out, const gr_worked_row *r, const row_facts *f)
{
    char line[1024], b1[48];
    if (f->fake_key < 0 || f->any_nan_w)
        return 0;
    int all = f->n_fake + f->n_masked + f->n_ninf == r->n;
    snprintf(line, sizeof line, "Key %d's score, %s, is finite: it is not a mask. Code that "
             "writes -1e9 or the lowest float instead of -inf gets a weight of 0 only while "
             "another key scores far higher. %s", f->fake_key,
             fmt_numf(b1, r->masked[f->fake_key]),
             all ? "Here every key scores that low, so subtracting the max makes them equal "
                   "and the keys share the weight uniformly: a padded row attends to its "
                   "padding. -inf, with the zero-row policy, gives all-zero weights instead."
                 : "Softmax still counts it, as it counts any finite score.");
    print_glued(out, "- ", line);
    return 1;
}

/* Masked keys: exactly 0, and the rest share everything (and what the weights
   would be without the mask, for a short row). */
static int lesson_masked(FILE *out, const gr_worked_row *r, const row_facts *f)
{
    char line[1024], b1[48], b3[48];
    int n = r->n, k = f->n_masked > 0 ? f->first_masked : f->first_ninf;
    int left = n - f->n_masked - f->n_ninf;
    char without[512] = "";
    if (f->n_masked > 0 && n <= 8) {          /* a longer list would bury the point */
        size_t len = (size_t)snprintf(without, sizeof without, " Without the mask the "
                                      "weights would be");
        for (int j = 0; j < n && len < sizeof without - 48; j++)
            len += (size_t)snprintf(without + len, sizeof without - len, " %s",
                                    fmt_numf(b3, r->w_nomask[j]));
        snprintf(without + len, sizeof without - len, ".");
    }
    snprintf(line, sizeof line, "Key %d%s, exp(-inf) = 0, so its weight is exactly 0, "
             "and the other %d key%s share all of the weight (sum %s).%s", k,
             f->n_masked > 0 ? " is masked: its score became -inf"
                             : "'s score is -inf, exactly what a mask writes",
             left, left == 1 ? "" : "s", gr_worked_num(b1, r->w_sum), without);
    print_glued(out, "- ", line);
    return 1;
}

/* Scaling and temperature act on scores: flatter or sharper weights. */
static void lesson_scaling(FILE *out, const gr_worked_row *r)
{
    char line[1024], b1[48], b2[48];
    float now = max_weight(r->w, r->n), before = max_weight(r->w_raw, r->n);
    const char *what = r->dk > 0 && r->temperature > 0.0f ? "Scaling and temperature act"
                     : r->dk > 0 ? "Scaling acts" : "Temperature acts";
    if (now == before)
        snprintf(line, sizeof line, "%s on scores, before softmax: here it leaves the "
                 "weights as they were (largest %s).", what, fmt_numf(b1, now));
    else
        snprintf(line, sizeof line, "%s on scores, before softmax: the weights are %s, "
                 "the largest is %s instead of %s for the raw scores.", what,
                 now < before ? "flatter" : "sharper", fmt_numf(b1, now), fmt_numf(b2, before));
    print_glued(out, "- ", line);
}

void gr_worked_lessons(FILE *out, const gr_worked_row *r)
{
    row_facts f;
    row_facts_of(r, &f);
    int shown = 0;
    fputs("\nWhat this row shows:\n", out);
    if (r->fully_masked) {
        print_glued(out, "- ", "Every key is masked, so there is nothing to normalise "
                      "over. Plain softmax would compute exp(-inf~-~(-inf)) = nan for every "
                      "key (torch.softmax gives NaN here); attnlab's policy, like that of "
                      "PyTorch's SDPA (since PyTorch 2.5, 2024; earlier versions gave NaN) and "
                      "of FlashAttention, gives all-zero weights instead and reports the row, so "
                      "this row sums to 0, not 1.");
        shown++;
    }
    shown += lesson_nan_inf(out, r, &f);
    shown += lesson_fake_mask(out, r, &f);
    if (f.fake_key < 0)             /* its own lesson says why such a key gets weight */
        shown += lesson_finite(out, r, &f, shown);
    if (!r->fully_masked && !f.any_nan_w && (f.n_masked > 0 || f.n_ninf > 0) && shown < 3)
        shown += lesson_masked(out, r, &f);
    if ((r->dk > 0 || r->temperature > 0.0f) && !r->fully_masked && !f.any_nan_w && shown < 3) {
        lesson_scaling(out, r);
        shown++;
    }
    if (shown == 0)
        print_glued(out, "- ", "Each weight is exp(s - m) divided by the row's sum, so "
                      "the weights are in [0, 1] and sum to 1, up to rounding.");
}
