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
 * attn_softmax), so the table shows exactly what the answer key does. A few
 * lines after the table name what the row teaches (a negative score still gets
 * weight, a masked key gets exactly 0, a finite score far below the max
 * underflows to 0 in float32, ...). The computation and the printers live in
 * worked.c, shared with `attnlab drill`'s worked solutions; this file parses
 * the command line.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/commands.h"
#include "cli/opts.h"
#include "base/util.h"
#include "learn/worked.h"

static const gr_cmd_spec explain_cmd = {
    .name = "explain",
    .synopsis =
    "--scores \"S1 S2 ...\" [--mask \"M1 M2 ...\"] [--scale DK]\n"
    "                       [--temperature T] [--format table|csv]",
    .about =
    "Show softmax turning one row of attention scores into weights, step by step,\n"
    "computed by libattn, the course's answer key. A score is any real number (or\n"
    "-inf when masked); a weight is in [0, 1] and a row of weights sums to 1\n"
    "(up to rounding).\n",
    .after =
    "The table has one row per key (keys counted from 0) and one column per step,\n"
    "then a sum row and a few lines on what the row shows. The steps, in order:\n"
    "score, scaled, tempered, after mask, exp(s - m) where m is the largest score\n"
    "left, weight.\n"
    "\n"
    "CSV: a header row, then one row per key, in key order, always these columns:\n"
    "  key,raw_score,scaled_score,blocked,masked_score,shift,exp_shifted,weight\n"
    "  key           the key's index, counted from 0 as in the code\n"
    "  raw_score     the score as given\n"
    "  scaled_score  after --scale and --temperature (= raw_score without them)\n"
    "  blocked       the mask value, 0 or 1 (0 without --mask)\n"
    "  masked_score  after the mask: -inf where blocked\n"
    "  shift         m, the largest masked_score, subtracted before exp (same in every row)\n"
    "  exp_shifted   exp(masked_score - shift)\n"
    "  weight        the softmax weight from libattn\n"
    "Numbers have up to 9 significant digits; non-finite ones are inf, -inf, nan.\n"
    "\n"
    "Example, the course's worked row (keys 0 to 3; key 3, the fourth, is padding):\n"
    "  attnlab explain --scores \"2 1 -1 0.5\" --mask \"0 0 0 1\"\n"
    "  -> weights 0.7054 0.2595 0.0351 0.0000, sum 1.0000\n"
    "\n"
    "Exit status: 0 shown, 2 usage error.\n",
    .max_args = -1,
};

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
            usage_error(err, "the score of key %d, '%s', is not a plain decimal number "
                        "(write e.g. 2, -1, 0.5 or 1e-3; inf, -inf and nan are accepted)", j,
                        tok[j]);
            goto fail;
        }
        if (errno == ERANGE && isinf(s[j]) && !spells_inf(tok[j])) {
            usage_error(err, "the score of key %d, '%s', is too large for a float (the "
                        "largest is about 3.4e38); write inf or -inf if you mean infinity", j,
                        tok[j]);
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
            usage_error(err, "the mask value of key %d, '%s', must be 0 (attend) or 1 (blocked)",
                        j, tok[j]);
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

/* --scale DK into *(long *)to: a whole number from 1 on. */
static int scale_option(void *to, const char *v, char *why, size_t whylen)
{
    char *end;
    errno = 0;
    long dk = strtol(v, &end, 10);
    if (end == v || *end != '\0' || errno == ERANGE || dk < 1 || dk > 1000000000L)
        return gr_opt_fail(why, whylen, "--scale takes d_k, the key size, a whole number "
                           ">= 1 (got '%s')", v);
    *(long *)to = dk;
    return 0;
}

/* --temperature T into *(float *)to: a plain decimal, finite and above 0. */
static int temperature_option(void *to, const char *v, char *why, size_t whylen)
{
    char *end;
    float t = strtof(v, &end);
    if (end == v || *end != '\0' || !plain_decimal(v))
        return gr_opt_fail(why, whylen, "--temperature '%s' is not a plain decimal number; give T > 0, "
                           "e.g. 0.5 or 2", v);
    if (!(t > 0.0f) || isinf(t))
        return gr_opt_fail(why, whylen, "--temperature must be a finite number > 0 (got "
                           "'%s'): the scores are divided by it", v);
    *(float *)to = t;
    return 0;
}

/* Parse the whole command line. 0 ok, 1 when --help was shown, or -1 after a
   usage error. */
static int parse_args(FILE *out, FILE *err, int argc, char **argv, explain_opts *o)
{
    memset(o, 0, sizeof *o);
    const gr_opt opts[] = {
        GR_TEXT("scores", 0, &o->scores, "\"...\"",
                "the row of raw scores, separated by spaces or commas\n"
                "(required); inf, -inf and nan are accepted", .example = "\"2 1 -1 0.5\""),
        GR_TEXT("mask", 0, &o->mask, "\"...\"",
                "one 0 or 1 per score, 1 = blocked (padding, or a future\n"
                "key); blocked scores become -inf before softmax", .example = "\"0 0 0 1\""),
        GR_CALL("scale", 0, scale_option, &o->dk, "DK",
                "divide the scores by sqrt(DK), DK the key size d_k", .example = "64"),
        GR_CALL("temperature", 0, temperature_option, &o->temperature, "T",
                "divide the scores by T > 0 (after --scale if both given)", .example = "0.5"),
        GR_CALL("format", 0, gr_opt_table_or_csv, &o->csv, "FORMAT",
                "table (default) or csv", .example = "csv"),
    };
    int first, rc = gr_opts_parse(&explain_cmd, opts, GR_N_OPTS(opts), argc, argv, out, err,
                                  &first);
    if (rc != 0)
        return rc == GR_OPTS_HELP ? 1 : -1;
    if (first < argc)
        return usage_error(err, "unexpected argument '%s'; the scores go after "
                           "--scores, in quotes", argv[first]);
    if (!o->scores)
        return usage_error(err, "missing --scores; give the row of scores, e.g. "
                           "--scores \"2 1 -1 0.5\"");
    return 0;
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

    gr_worked_row r;
    gr_worked_compute(&r, raw, mask, n, o.dk, o.temperature);
    free(raw);
    free(mask);
    if (o.csv) {
        gr_worked_csv(out, &r);
        if (r.fully_masked)
            fputs("attnlab explain: every key is masked, so there is nothing to normalise "
                  "over; attnlab's policy gives all-zero weights (plain torch.softmax would "
                  "give nan)\n", err);
    } else {
        gr_worked_table(out, &r);
        gr_worked_lessons(out, &r);
    }
    gr_worked_free(&r);
    return GR_EXIT_OK;
}

int cmd_explain(int argc, char **argv)
{
    return cmd_explain_run(stdout, stderr, argc, argv);
}
