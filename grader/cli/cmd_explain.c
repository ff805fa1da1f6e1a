/* cmd_explain.c: `attnlab explain`, softmax of one row of scores, step by step.
 *
 * A self-learner gives a row of raw scores (and optionally a mask, a d_k to
 * scale by, a temperature) and sees every step that turns SCORES into WEIGHTS,
 * one row per key, one column per step:
 *
 *   score -> scaled (/ sqrt(d_k)) -> tempered (/ T) -> after mask (-inf)
 *         -> exp(s - m) -> weight = exp(s - m) / sum
 *
 * Every number comes from libattn (attn_temperature, attn_bool_mask,
 * attn_softmax), so the table shows exactly what the answer key does; only
 * the exp(s - m) column, which attn_softmax keeps to itself, is recomputed here
 * in double to show the step. A few lines after the table name what the row
 * teaches (a negative score still gets weight, a masked key gets exactly 0, a
 * finite score far below the max underflows to 0 in float32, ...).
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "attn.h"
#include "cli/commands.h"
#include "util.h"

static const char explain_usage[] =
    "usage: attnlab explain --scores \"S1 S2 ...\" [--mask \"M1 M2 ...\"] [--scale DK]\n"
    "                       [--temperature T] [--format table|csv]\n"
    "\n"
    "Show softmax turning one row of attention scores into weights, step by step,\n"
    "computed by libattn, the course's answer key. A score is any real number (or\n"
    "-inf when masked); a weight is in [0, 1] and a row of weights sums to 1\n"
    "(up to rounding).\n"
    "\n"
    "  --scores \"...\"     the row of raw scores, separated by spaces or commas\n"
    "                     (required); inf, -inf and nan are accepted\n"
    "  --mask \"...\"       one 0 or 1 per score, 1 = blocked (padding, or a future\n"
    "                     key); blocked scores become -inf before softmax\n"
    "  --scale DK         divide the scores by sqrt(DK), DK the key size d_k\n"
    "  --temperature T    divide the scores by T > 0 (after --scale if both given)\n"
    "  --format FORMAT    table (default) or csv\n"
    "  -h, --help         show this help\n"
    "\n"
    "The table has one row per key and one column per step, then a sum row and a\n"
    "few lines on what the row shows. The steps, in order: score, scaled, tempered,\n"
    "after mask, exp(s - m) where m is the largest score left, weight.\n"
    "\n"
    "CSV: a header row, then one row per key, in key order, always these columns:\n"
    "  key,raw_score,scaled_score,blocked,masked_score,shift,exp_shifted,weight\n"
    "  key           1-based key index\n"
    "  raw_score     the score as given\n"
    "  scaled_score  after --scale and --temperature (= raw_score without them)\n"
    "  blocked       the mask value, 0 or 1 (0 without --mask)\n"
    "  masked_score  after the mask: -inf where blocked\n"
    "  shift         m, the largest masked_score, subtracted before exp (same in every row)\n"
    "  exp_shifted   exp(masked_score - shift)\n"
    "  weight        the softmax weight from libattn\n"
    "Numbers have up to 9 significant digits; non-finite ones are inf, -inf, nan.\n"
    "\n"
    "Example, the course's worked row (key 4 is padding):\n"
    "  attnlab explain --scores \"2 1 -1 0.5\" --mask \"0 0 0 1\"\n"
    "  -> weights 0.7054 0.2595 0.0351 0.0000, sum 1.0000\n"
    "\n"
    "Exit status: 0 shown, 2 usage error.\n";

/* ---- usage errors ------------------------------------------------------------------ */

/* One line on err in the format every attnlab command uses. Returns -1, so a
   parser can report and fail in one statement; the command then exits 2. */
static int usage_error(FILE *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int usage_error(FILE *err, const char *fmt, ...)
{
    va_list ap;
    fputs("attnlab explain: ", err);
    va_start(ap, fmt);
    vfprintf(err, fmt, ap);
    va_end(ap);
    fputs(" (see 'attnlab explain --help')\n", err);
    return -1;
}

/* ---- parsing the command line -------------------------------------------------------- */

typedef struct explain_opts {
    const char *scores;      /* --scores text, required */
    const char *mask;        /* --mask text, or NULL */
    long dk;                 /* --scale: d_k >= 1, or 0 for no scaling */
    float temperature;       /* --temperature: T > 0, or 0 for none */
    int csv;                 /* --format csv */
} explain_opts;

/* Separators inside --scores and --mask: spaces, tabs, commas, and the brackets
   of a pasted list like [2, 1, -1, 0.5]. */
static const char list_seps[] = " \t\r\n,[]";

/* Split text into tokens; returns how many, and points tok[i] into a private
   copy (*copy, to free). */
static int split_list(const char *text, char ***tok, char **copy)
{
    size_t len = strlen(text);
    *copy = gr_xstrdup(text);
    *tok = gr_xmalloc((len / 2 + 1) * sizeof **tok);   /* a token and a separator need 2 chars */
    int n = 0;
    for (char *p = *copy;;) {
        p += strspn(p, list_seps);
        if (!*p)
            break;
        (*tok)[n++] = p;
        p += strcspn(p, list_seps);
        if (*p)
            *p++ = '\0';
    }
    return n;
}

/* The 1-based number of the first empty comma-separated field of text
   ("2,,1", "2, 1,", ", 2"), or 0 when none is empty or text has no comma.
   Spaces and brackets do not count as a field's content. */
static int empty_field(const char *text)
{
    if (!strchr(text, ','))
        return 0;
    int field = 1, filled = 0;
    for (const char *p = text;; p++) {
        if (*p == ',' || *p == '\0') {
            if (!filled)
                return field;
            if (!*p)
                return 0;
            field++;
            filled = 0;
        } else if (!strchr(list_seps, *p)) {
            filled = 1;
        }
    }
}

/* Is tok a plain decimal number: an optional sign, then digits with an
   optional fraction and exponent ("2", "-0.5", ".5", "1e-3"), or inf,
   infinity or nan in any case? strtof also takes hex ("0x10") and
   "nan(...)", which no one means in a row of scores. */
static int plain_decimal(const char *tok)
{
    const char *p = tok + (*tok == '+' || *tok == '-');
    if (strcasecmp(p, "inf") == 0 || strcasecmp(p, "infinity") == 0 || strcasecmp(p, "nan") == 0)
        return 1;
    size_t whole = strspn(p, "0123456789");
    p += whole;
    size_t frac = 0;
    if (*p == '.') {
        frac = strspn(p + 1, "0123456789");
        p += 1 + frac;
    }
    if (whole + frac == 0)
        return 0;
    if (*p == 'e' || *p == 'E') {
        p += 1 + (p[1] == '+' || p[1] == '-');
        size_t exp = strspn(p, "0123456789");
        if (exp == 0)
            return 0;
        p += exp;
    }
    return *p == '\0';
}

/* Is tok an explicit infinity as strtof spells it ("inf", "-Infinity", ...)? */
static int spells_inf(const char *tok)
{
    if (*tok == '+' || *tok == '-')
        tok++;
    return (tok[0] == 'i' || tok[0] == 'I');
}

/* Parse --scores into a malloc'd array; returns n, or -1 after a usage error. */
static int parse_scores(FILE *err, const char *text, float **out)
{
    char **tok, *copy;
    int n = split_list(text, &tok, &copy);
    if (n == 0) {
        free(tok);
        free(copy);
        return usage_error(err, "--scores is empty; give one or more numbers, e.g. "
                           "--scores \"2 1 -1 0.5\"");
    }
    int empty = empty_field(text);
    if (empty) {
        free(tok);
        free(copy);
        return usage_error(err, "--scores has an empty field (number %d): write one number "
                           "between each pair of commas, e.g. --scores \"2, 1, -1, 0.5\"", empty);
    }
    float *s = gr_xmalloc((size_t)n * sizeof *s);
    for (int j = 0; j < n; j++) {
        char *end;
        errno = 0;
        s[j] = strtof(tok[j], &end);
        if (end == tok[j] || *end != '\0' || !plain_decimal(tok[j])) {
            usage_error(err, "score %d '%s' is not a plain decimal number (write e.g. 2, -1, "
                        "0.5 or 1e-3; inf, -inf and nan are accepted)", j + 1, tok[j]);
            goto fail;
        }
        if (errno == ERANGE && isinf(s[j]) && !spells_inf(tok[j])) {
            usage_error(err, "score %d '%s' is too large for a float (the largest is about "
                        "3.4e38); write inf or -inf if you mean infinity", j + 1, tok[j]);
            goto fail;
        }
    }
    free(tok);
    free(copy);
    *out = s;
    return n;
fail:
    free(s);
    free(tok);
    free(copy);
    return -1;
}

/* Parse --mask into a malloc'd array of n 0/1 values; 0, or -1 after a usage error. */
static int parse_mask(FILE *err, const char *text, int n, unsigned char **out)
{
    char **tok, *copy;
    int m = split_list(text, &tok, &copy);
    int rc = -1;
    unsigned char *mask = NULL;
    if (m != n) {
        usage_error(err, "--mask has %d value%s but --scores has %d; give one 0 or 1 per "
                    "score", m, m == 1 ? "" : "s", n);
        goto done;
    }
    int empty = empty_field(text);
    if (empty) {
        usage_error(err, "--mask has an empty field (number %d): write 0 or 1 between each "
                    "pair of commas", empty);
        goto done;
    }
    mask = gr_xmalloc((size_t)n);
    for (int j = 0; j < n; j++) {
        if (strcmp(tok[j], "0") != 0 && strcmp(tok[j], "1") != 0) {
            usage_error(err, "mask value %d '%s' must be 0 (attend) or 1 (blocked)",
                        j + 1, tok[j]);
            free(mask);
            mask = NULL;
            goto done;
        }
        mask[j] = (unsigned char)(tok[j][0] == '1');
    }
    *out = mask;
    rc = 0;
done:
    free(tok);
    free(copy);
    return rc;
}

/* Match "--name VALUE" or "--name=VALUE" at argv[*i]. Returns 1 and sets *val
   (advancing *i past a separate value), 0 when argv[*i] is another option, and
   -1 after a usage error (the value is missing). */
static int option_value(FILE *err, int argc, char **argv, int *i, const char *name,
                        const char *example, const char **val)
{
    const char *a = argv[*i];
    size_t len = strlen(name);
    if (strncmp(a, name, len) != 0)
        return 0;
    if (a[len] == '=') {
        *val = a + len + 1;
        return 1;
    }
    if (a[len] != '\0')
        return 0;
    if (*i + 1 >= argc) {
        usage_error(err, "%s needs a value, e.g. %s %s", name, name, example);
        return -1;
    }
    *val = argv[++*i];
    return 1;
}

/* Parse the whole command line. 0 ok, 1 when --help was shown, or -1 after a
   usage error. */
static int parse_args(FILE *out, FILE *err, int argc, char **argv, explain_opts *o)
{
    memset(o, 0, sizeof *o);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = NULL;
        int r;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(explain_usage, out);
            return 1;
        }
        if ((r = option_value(err, argc, argv, &i, "--scores", "\"2 1 -1 0.5\"", &v)) != 0) {
            if (r < 0)
                return -1;
            o->scores = v;
        } else if ((r = option_value(err, argc, argv, &i, "--mask", "\"0 0 0 1\"", &v)) != 0) {
            if (r < 0)
                return -1;
            o->mask = v;
        } else if ((r = option_value(err, argc, argv, &i, "--scale", "64", &v)) != 0) {
            if (r < 0)
                return -1;
            char *end;
            errno = 0;
            long dk = strtol(v, &end, 10);
            if (end == v || *end != '\0' || errno == ERANGE || dk < 1 || dk > 1000000000L)
                return usage_error(err, "--scale takes d_k, the key size, a whole number "
                                   ">= 1 (got '%s')", v);
            o->dk = dk;
        } else if ((r = option_value(err, argc, argv, &i, "--temperature", "0.5", &v)) != 0) {
            if (r < 0)
                return -1;
            char *end;
            float t = strtof(v, &end);
            if (end == v || *end != '\0' || !plain_decimal(v))
                return usage_error(err, "--temperature '%s' is not a plain decimal number; give T > 0, "
                                   "e.g. 0.5 or 2", v);
            if (!(t > 0.0f) || isinf(t))
                return usage_error(err, "--temperature must be a finite number > 0 (got "
                                   "'%s'): the scores are divided by it", v);
            o->temperature = t;
        } else if ((r = option_value(err, argc, argv, &i, "--format", "csv", &v)) != 0) {
            if (r < 0)
                return -1;
            if (strcmp(v, "table") == 0)
                o->csv = 0;
            else if (strcmp(v, "csv") == 0)
                o->csv = 1;
            else
                return usage_error(err, "--format must be table or csv (got '%s')", v);
        } else if (a[0] == '-' && a[1] != '\0') {
            return usage_error(err, "unknown option '%s'", a);
        } else {
            return usage_error(err, "unexpected argument '%s'; the scores go after "
                               "--scores, in quotes", a);
        }
    }
    if (!o->scores)
        return usage_error(err, "missing --scores; give the row of scores, e.g. "
                           "--scores \"2 1 -1 0.5\"");
    return 0;
}

/* ---- the computation ------------------------------------------------------------------ */

/* One row, every step kept so the table can show it. Arrays have n entries. */
typedef struct explain_row {
    int n;
    float *raw;              /* scores as given */
    float *scaled;           /* after --scale only */
    float *edited;           /* after --scale and --temperature */
    unsigned char *mask;     /* 1 = blocked; all 0 without --mask */
    float *masked;           /* after the mask: what softmax sees */
    double m;                /* the shift: largest masked score (nan if any is nan) */
    double *ex;              /* exp(masked - m), in double */
    double ex_sum;
    float *w;                /* weights from attn_softmax */
    double w_sum;
    long fully_masked;       /* what attn_softmax returned: 1 if every key is -inf */
    float *w_nomask;         /* weights without the mask, for comparison */
    float *w_raw;            /* weights of the raw scores with the mask (no scale/T) */
} explain_row;

/* Run the row through libattn, step by step. */
static void compute_row(explain_row *r, const explain_opts *o, float *raw,
                        unsigned char *mask, int n)
{
    size_t fn = (size_t)n;
    r->n = n;
    r->raw = raw;
    r->mask = mask ? mask : gr_xcalloc(fn, 1);
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
    if (o->dk > 0)
        attn_temperature(r->scaled, sqrtf((float)o->dk), n);
    memcpy(r->edited, r->scaled, fn * sizeof(float));
    if (o->temperature > 0.0f)
        attn_temperature(r->edited, o->temperature, n);

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

static void free_row(explain_row *r)
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

/* A number for the table: 4 decimals, or inf / -inf / nan; scientific when
   huge, and when tiny but not 0, so 3.4e-11 never shows as 0.0000, the
   look of a weight that is exactly 0. */
static const char *fmt_num(char buf[48], double v)
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
    return fmt_num(buf, (double)v);
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

static void print_csv(FILE *out, const explain_row *r)
{
    char b[7][48];
    fputs("key,raw_score,scaled_score,blocked,masked_score,shift,exp_shifted,weight\n", out);
    for (int j = 0; j < r->n; j++)
        fprintf(out, "%d,%s,%s,%d,%s,%s,%s,%s\n", j + 1, fmt_csvf(b[0], r->raw[j]),
                fmt_csvf(b[1], r->edited[j]), r->mask[j], fmt_csvf(b[2], r->masked[j]),
                fmt_csv(b[3], r->m), fmt_csv(b[4], r->ex[j]), fmt_csvf(b[5], r->w[j]));
}

/* Print text wrapped at 78 columns: first line after lead, the rest indented
   to line up under it. A '~' is a space the line may not break at, so a
   formula like exp(s~-~m) stays whole. */
static void print_wrapped(FILE *out, const char *lead, const char *text)
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
            fputc(p[i] == '~' ? ' ' : p[i], out);
        col += (int)w;
        p += w;
    }
    fputc('\n', out);
}

/* Table columns, left to right; optional ones appear only when their step ran. */
enum { C_KEY, C_SCORE, C_SCALED, C_TEMPERED, C_MASK, C_AFTER, C_EXP, C_WEIGHT, C_COUNT };

/* The text of cell (row j, column c); row n is the sum row. */
static const char *cell(char buf[48], const explain_row *r, int c, int j)
{
    if (j == r->n) {                        /* sum row */
        if (c == C_KEY)
            return "sum";
        if (c == C_EXP)
            return fmt_num(buf, r->ex_sum);
        if (c == C_WEIGHT)
            return fmt_num(buf, r->w_sum);
        return "";
    }
    switch (c) {
    case C_KEY:      snprintf(buf, 48, "%d", j + 1); return buf;
    case C_SCORE:    return fmt_numf(buf, r->raw[j]);
    case C_SCALED:   return fmt_numf(buf, r->scaled[j]);
    case C_TEMPERED: return fmt_numf(buf, r->edited[j]);
    case C_MASK:     return r->mask[j] ? "1" : "0";
    case C_AFTER:    return fmt_numf(buf, r->masked[j]);
    case C_EXP:      return fmt_num(buf, r->ex[j]);
    case C_WEIGHT:   return fmt_numf(buf, r->w[j]);
    default:         return "";
    }
}

/* A short note at the end of a key's row: why its weight is what it is. */
static const char *row_note(const explain_row *r, int j)
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

static void print_table(FILE *out, const explain_row *r, const explain_opts *o, int has_mask)
{
    static const char *const head[C_COUNT] = {
        "key", "score", "scaled", "tempered", "mask", "after mask", "exp(s - m)", "weight"
    };
    int show[C_COUNT] = { 1, 1, o->dk > 0, o->temperature > 0.0f, has_mask, has_mask, 1, 1 };
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
    print_wrapped(out, "  score       ", "the raw scores as given: any real number.");
    if (o->dk > 0) {
        snprintf(line, sizeof line, "score / sqrt(d_k) = score / %s (d_k = %ld): keeps the "
                 "scores' spread near 1, so softmax stays out of saturation.",
                 fmt_num(b1, sqrt((double)o->dk)), o->dk);
        print_wrapped(out, "  scaled      ", line);
    }
    if (o->temperature > 0.0f) {
        snprintf(line, sizeof line, "divided by the temperature T = %s: T < 1 sharpens the "
                 "weights, T > 1 flattens them.", fmt_numf(b1, o->temperature));
        print_wrapped(out, "  tempered    ", line);
    }
    if (has_mask)
        print_wrapped(out, "  after mask  ", "blocked keys (mask 1) get the score -inf, so "
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
                 "do not change.", fmt_num(b1, r->m));
    print_wrapped(out, "  exp(s - m)  ", line);
    if (r->fully_masked)
        snprintf(line, sizeof line, "nothing to normalise over (the sum is %s): attnlab's "
                 "policy gives all-zero weights.", fmt_num(b1, r->ex_sum));
    else if (isnan(r->w_sum))
        snprintf(line, sizeof line, "exp(s~-~m) / %s, the sum of the column before: "
                 "nan in, nan out.", fmt_num(b1, r->ex_sum));
    else
        snprintf(line, sizeof line, "exp(s~-~m) / %s, the sum of the column before; the "
                 "weights sum to %s.", fmt_num(b1, r->ex_sum), fmt_num(b2, r->w_sum));
    print_wrapped(out, "  weight      ", line);
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

/* What a row holds, for choosing its lessons. */
typedef struct row_facts {
    int any_nan_w;                  /* some weight is nan */
    int nan_key, inf_key, neg_key, under_key;   /* first such key, or -1 */
    int n_masked, n_ninf;           /* keys masked, keys whose own score is -inf */
    int first_masked, first_ninf;
} row_facts;

static void row_facts_of(const explain_row *r, row_facts *f)
{
    *f = (row_facts){0, -1, -1, -1, -1, 0, 0, -1, -1};
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
    }
}

/* A nan or inf score: what it does to the row. 1 when said. */
static int lesson_nan_inf(FILE *out, const explain_row *r, const row_facts *f)
{
    char line[1024], b1[48];
    if (f->nan_key >= 0 && f->any_nan_w) {
        snprintf(line, sizeof line, "Key %d's score is nan, and nan spreads: it makes the max "
                 "and the sum nan, so every weight of the row is nan. One bad score poisons its "
                 "whole row; attnlab lets it show rather than hide it.", f->nan_key + 1);
    } else if (f->inf_key >= 0 && f->any_nan_w) {
        snprintf(line, sizeof line, "Key %d's score is inf, so m = inf and s~-~m = inf~-~"
                 "inf = nan: the row's weights are nan. A large but finite score would "
                 "instead take almost all of the weight.", f->inf_key + 1);
    } else if (f->inf_key >= 0) {
        snprintf(line, sizeof line, "Key %d's score is inf: libattn gives it weight %s.",
                 f->inf_key + 1, fmt_numf(b1, r->w[f->inf_key]));
    } else {
        return 0;
    }
    print_wrapped(out, "- ", line);
    return 1;
}

/* Finite scores: a negative one still gets weight; an exact 0 is underflow. */
static int lesson_finite(FILE *out, const explain_row *r, const row_facts *f, int shown)
{
    char line[1024], b1[48], b2[48];
    if (f->any_nan_w)
        return 0;
    if (f->neg_key >= 0) {
        snprintf(line, sizeof line, "Key %d's score is %s, yet its weight is %s > 0: a "
                 "negative score is not negative attention. Softmax gives every finite score "
                 "a positive weight; a lower score only means a smaller share.", f->neg_key + 1,
                 fmt_numf(b1, r->masked[f->neg_key]), fmt_numf(b2, r->w[f->neg_key]));
    } else if (f->under_key >= 0) {
        snprintf(line, sizeof line, "Key %d's score is finite, yet its weight is exactly 0: "
                 "it is %s below the row's max, and in float32 exp(x) rounds to 0 below "
                 "x~=~-103.97 (in float16 below x~=~-17.33). In exact arithmetic its weight "
                 "is %.3g, positive: only a mask gives exactly 0 by design.", f->under_key + 1,
                 fmt_num(b1, r->m - (double)r->masked[f->under_key]),
                 r->ex[f->under_key] / r->ex_sum);
    } else if (!r->fully_masked && f->n_masked + f->n_ninf < r->n && shown < 3) {
        snprintf(line, sizeof line, "Every finite score got a positive weight. In exact "
                 "arithmetic softmax gives exactly 0 only to a score of -inf; in float32 a "
                 "score more than about 104 below the row's max would underflow to 0 too.");
    } else {
        return 0;
    }
    print_wrapped(out, "- ", line);
    return 1;
}

/* Masked keys: exactly 0, and the rest share everything (and what the weights
   would be without the mask, for a short row). */
static int lesson_masked(FILE *out, const explain_row *r, const row_facts *f)
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
             "and the other %d key%s share all of the weight (sum %s).%s", k + 1,
             f->n_masked > 0 ? " is masked: its score became -inf"
                             : "'s score is -inf, exactly what a mask writes",
             left, left == 1 ? "" : "s", fmt_num(b1, r->w_sum), without);
    print_wrapped(out, "- ", line);
    return 1;
}

/* Scaling and temperature act on scores: flatter or sharper weights. */
static void lesson_scaling(FILE *out, const explain_row *r, const explain_opts *o)
{
    char line[1024], b1[48], b2[48];
    float now = max_weight(r->w, r->n), before = max_weight(r->w_raw, r->n);
    const char *what = o->dk > 0 && o->temperature > 0.0f ? "Scaling and temperature act"
                     : o->dk > 0 ? "Scaling acts" : "Temperature acts";
    if (now == before)
        snprintf(line, sizeof line, "%s on scores, before softmax: here it leaves the "
                 "weights as they were (largest %s).", what, fmt_numf(b1, now));
    else
        snprintf(line, sizeof line, "%s on scores, before softmax: the weights are %s, "
                 "the largest is %s instead of %s for the raw scores.", what,
                 now < before ? "flatter" : "sharper", fmt_numf(b1, now), fmt_numf(b2, before));
    print_wrapped(out, "- ", line);
}

/* At most three lessons the row shows, most important first. */
static void print_lessons(FILE *out, const explain_row *r, const explain_opts *o)
{
    row_facts f;
    row_facts_of(r, &f);
    int shown = 0;
    fputs("\nWhat this row shows:\n", out);
    if (r->fully_masked) {
        print_wrapped(out, "- ", "Every key is masked, so there is nothing to normalise "
                      "over. Plain softmax would compute exp(-inf~-~(-inf)) = nan for every "
                      "key (torch.softmax gives NaN here); attnlab's policy, like that of "
                      "PyTorch's SDPA (since PyTorch 2.5, 2024; earlier versions gave NaN) and "
                      "of FlashAttention, gives all-zero weights instead and reports the row, so "
                      "this row sums to 0, not 1.");
        shown++;
    }
    shown += lesson_nan_inf(out, r, &f);
    shown += lesson_finite(out, r, &f, shown);
    if (!r->fully_masked && !f.any_nan_w && (f.n_masked > 0 || f.n_ninf > 0) && shown < 3)
        shown += lesson_masked(out, r, &f);
    if ((o->dk > 0 || o->temperature > 0.0f) && !r->fully_masked && !f.any_nan_w && shown < 3) {
        lesson_scaling(out, r, o);
        shown++;
    }
    if (shown == 0)
        print_wrapped(out, "- ", "Each weight is exp(s - m) divided by the row's sum, so "
                      "the weights are in [0, 1] and sum to 1, up to rounding.");
}

/* ---- the command ------------------------------------------------------------------------ */

int cmd_explain_run(FILE *out, FILE *err, int argc, char **argv)
{
    explain_opts o;
    int p = parse_args(out, err, argc, argv, &o);
    if (p != 0)
        return p > 0 ? GR_EXIT_OK : GR_EXIT_USAGE;

    float *raw = NULL;
    unsigned char *mask = NULL;
    int n = parse_scores(err, o.scores, &raw);
    if (n < 0)
        return GR_EXIT_USAGE;
    if (o.mask && parse_mask(err, o.mask, n, &mask) != 0) {
        free(raw);
        return GR_EXIT_USAGE;
    }

    explain_row r;
    memset(&r, 0, sizeof r);
    compute_row(&r, &o, raw, mask, n);       /* r owns raw and mask from here */
    if (o.csv) {
        print_csv(out, &r);
        if (r.fully_masked)
            fputs("attnlab explain: every key is masked, so there is nothing to normalise "
                  "over; attnlab's policy gives all-zero weights (plain torch.softmax would "
                  "give nan)\n", err);
    } else {
        print_table(out, &r, &o, o.mask != NULL);
        print_lessons(out, &r, &o);
    }
    free_row(&r);
    return GR_EXIT_OK;
}

int cmd_explain(int argc, char **argv)
{
    return cmd_explain_run(stdout, stderr, argc, argv);
}
