/* test_explain.c: `attnlab explain` as a self-learner sees it. The worked row
 * and its variants are run through cmd_explain_run (and once through
 * cmd_explain with stdout redirected) and the text is checked: the weights,
 * their sum, the named max, -inf for masked keys, the all-masked policy, nan
 * propagation, the CSV layout, and exit status 2 with one line for each usage
 * error. */
#include <check.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "capture.h"

Suite *test_suite(void);

/* ---- running the command ------------------------------------------------------------- */

#define EXPLAIN(...) CAPTURE(cmd_explain_run, "explain", __VA_ARGS__)

/* The line of out that starts with prefix (after leading spaces), copied. */
static char *line_starting(const char *out, const char *prefix)
{
    for (const char *p = out; *p;) {
        const char *end = strchr(p, '\n');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        const char *q = p;
        while (*q == ' ' && q < p + len)
            q++;
        if (strncmp(q, prefix, strlen(prefix)) == 0) {
            char *line = strndup(p, len);
            ck_assert_ptr_nonnull(line);
            return line;
        }
        if (!end)
            break;
        p = end + 1;
    }
    ck_abort_msg("no line starting with '%s' in:\n%s", prefix, out);
    return NULL;
}

/* True when out contains phrase, counting any run of spaces and line breaks
   as one space (the lessons are word-wrapped). */
static int has(const char *out, const char *phrase)
{
    size_t n = strlen(out);
    char *flat = malloc(n + 1);
    ck_assert_ptr_nonnull(flat);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        int space = out[i] == ' ' || out[i] == '\n';
        if (space && k > 0 && flat[k - 1] == ' ')
            continue;
        flat[k++] = space ? ' ' : out[i];
    }
    flat[k] = '\0';
    int found = strstr(flat, phrase) != NULL;
    free(flat);
    return found;
}

#define ASSERT_HAS(out, phrase) \
    ck_assert_msg(has(out, phrase), "output lacks '%s':\n%s", phrase, out)

/* Assert that line (spaces collapsed) equals want, e.g. "0 2.0000 0 2.0000 1.0000 0.7054". */
static void assert_words(const char *line, const char *want)
{
    char got[512];
    size_t k = 0;
    for (const char *p = line; *p && k < sizeof got - 1; p++) {
        if (*p == ' ' && (k == 0 || got[k - 1] == ' '))
            continue;
        got[k++] = *p;
    }
    while (k > 0 && got[k - 1] == ' ')
        k--;
    got[k] = '\0';
    ck_assert_msg(strcmp(got, want) == 0, "line '%s'\n  expected '%s'", got, want);
}

static void assert_row(const char *out, const char *key, const char *want)
{
    char *line = line_starting(out, key);
    assert_words(line, want);
    free(line);
}

/* ---- the worked row -------------------------------------------------------------------- */

/* scores [2, 1, -1, 0.5], key 3 (the fourth) padding. By hand: m = 2, so
     exp(2-2) = 1, exp(1-2) = 0.3679, exp(-1-2) = 0.0498, exp(-inf) = 0,
     sum = 1.4177, weights 1/1.4177 = 0.7054, 0.3679/1.4177 = 0.2595,
     0.0498/1.4177 = 0.0351, 0/1.4177 = 0, summing to 1.0000. */
START_TEST(worked_row_table)
{
    run_result r = EXPLAIN("--scores", "2 1 -1 0.5", "--mask", "0 0 0 1");
    ck_assert_int_eq(r.rc, 0);
    ck_assert_str_eq(r.err, "");
    assert_row(r.out, "key", "key score mask after mask exp(s - m) weight");
    assert_row(r.out, "0 ", "0 2.0000 0 2.0000 1.0000 0.7054");
    assert_row(r.out, "1 ", "1 1.0000 0 1.0000 0.3679 0.2595");
    assert_row(r.out, "2 ", "2 -1.0000 0 -1.0000 0.0498 0.0351");
    assert_row(r.out, "3 ", "3 0.5000 1 -inf 0.0000 0.0000 masked");
    assert_row(r.out, "sum", "sum 1.4177 1.0000");
    /* The max subtracted is named, and the division is spelled out. */
    ASSERT_HAS(r.out, "m = 2.0000, the largest score left");
    ASSERT_HAS(r.out, "exp(s - m) / 1.4177, the sum of the column before; the weights sum "
                      "to 1.0000");
    free_result(&r);
}
END_TEST

/* The lessons the worked row teaches: the -1 still gets weight, the masked key
   gets exactly 0 and the rest renormalise. Without the mask (by hand):
   exp(0)+exp(-1)+exp(-3)+exp(-1.5) = 1+0.3679+0.0498+0.2231 = 1.6408, so
   0.6095 0.2242 0.0303 0.1360. */
START_TEST(worked_row_lessons)
{
    run_result r = EXPLAIN("--scores", "2 1 -1 0.5", "--mask", "0 0 0 1");
    ASSERT_HAS(r.out, "Key 2's score is -1.0000, yet its weight is 0.0351 > 0");
    ASSERT_HAS(r.out, "a negative score is not negative attention");
    ASSERT_HAS(r.out, "Key 3 is masked: its score became -inf, exp(-inf) = 0, so its weight "
                      "is exactly 0, and the other 3 keys share all of the weight (sum 1.0000)");
    ASSERT_HAS(r.out, "Without the mask the weights would be 0.6095 0.2242 0.0303 0.1360");
    free_result(&r);
}
END_TEST

/* Commas and brackets work as separators, and --opt=value as well as --opt value. */
START_TEST(worked_row_pasted_list)
{
    run_result r = EXPLAIN("--scores=[2, 1, -1, 0.5]", "--mask=0,0,0,1");
    ck_assert_int_eq(r.rc, 0);
    assert_row(r.out, "sum", "sum 1.4177 1.0000");
    assert_row(r.out, "2 ", "2 -1.0000 0 -1.0000 0.0498 0.0351");
    free_result(&r);
}
END_TEST

/* Scores 4x the worked row with d_k = 16: sqrt(16) = 4 brings them back to
   [2, 1, -1, 0.5], so the weights are the worked row's. */
START_TEST(scale_divides_by_sqrt_dk)
{
    run_result r = EXPLAIN("--scores", "8 4 -4 2", "--mask", "0 0 0 1", "--scale", "16");
    ck_assert_int_eq(r.rc, 0);
    assert_row(r.out, "key", "key score scaled mask after mask exp(s - m) weight");
    assert_row(r.out, "0 ", "0 8.0000 2.0000 0 2.0000 1.0000 0.7054");
    assert_row(r.out, "2 ", "2 -4.0000 -1.0000 0 -1.0000 0.0498 0.0351");
    assert_row(r.out, "3 ", "3 2.0000 0.5000 1 -inf 0.0000 0.0000 masked");
    ASSERT_HAS(r.out, "score / sqrt(d_k) = score / 4.0000 (d_k = 16)");
    /* Raw scores (no scaling) with the mask: max weight
       1/(1 + e^-4 + e^-12) = 1/(1 + 0.018316 + 0.000006) = 1/1.018322 = 0.9820. */
    ASSERT_HAS(r.out, "the weights are flatter, the largest is 0.7054 instead of 0.9820");
    free_result(&r);
}
END_TEST

/* Temperature 0.5 doubles the scores: [1, 0.5, -0.5, 0.25] / 0.5 = the worked row. */
START_TEST(temperature_divides_scores)
{
    run_result r = EXPLAIN("--scores", "1 0.5 -0.5 0.25", "--mask", "0 0 0 1",
                           "--temperature", "0.5");
    ck_assert_int_eq(r.rc, 0);
    assert_row(r.out, "key", "key score tempered mask after mask exp(s - m) weight");
    assert_row(r.out, "0 ", "0 1.0000 2.0000 0 2.0000 1.0000 0.7054");
    assert_row(r.out, "1 ", "1 0.5000 1.0000 0 1.0000 0.3679 0.2595");
    assert_row(r.out, "sum", "sum 1.4177 1.0000");
    /* T < 1 sharpens: at T = 1 the largest weight is
       1/(1 + e^-0.5 + e^-1.5) = 1/(1 + 0.60653 + 0.22313) = 1/1.82966 = 0.5465. */
    ASSERT_HAS(r.out, "sharper, the largest is 0.7054 instead of 0.5465");
    free_result(&r);
}
END_TEST

/* Without a mask there is no mask column; every finite score gets weight > 0.
   [1, 2, 3]: exp(-2) + exp(-1) + 1 = 0.1353 + 0.3679 + 1 = 1.5032,
   weights 0.0900 0.2447 0.6652. */
START_TEST(no_mask_every_finite_score_positive)
{
    run_result r = EXPLAIN("--scores", "1 2 3");
    ck_assert_int_eq(r.rc, 0);
    assert_row(r.out, "key", "key score exp(s - m) weight");
    assert_row(r.out, "0 ", "0 1.0000 0.1353 0.0900");
    assert_row(r.out, "2 ", "2 3.0000 1.0000 0.6652");
    assert_row(r.out, "sum", "sum 1.5032 1.0000");
    ASSERT_HAS(r.out, "Every finite score got a positive weight");
    /* ... but only in exact arithmetic: float32 underflows far below the max. */
    ASSERT_HAS(r.out, "In exact arithmetic softmax gives exactly 0 only to a score of -inf; "
                      "in float32 a score more than about 104 below the row's max would "
                      "underflow to 0 too");
    free_result(&r);
}
END_TEST

/* A finite score 200 below the max: exp(-200) = 1.38e-87 is far below the
   smallest float32 (2^-149 = 1.4e-45; exp(x) rounds to 0 below x = -103.97),
   so the weight is exactly 0 with no mask. By hand the true weight is
   exp(-200) / (1 + exp(-200)) = 1.3839e-87. */
START_TEST(far_below_the_max_underflows)
{
    run_result r = EXPLAIN("--scores", "0 -200");
    ck_assert_int_eq(r.rc, 0);
    assert_row(r.out, "0 ", "0 0.0000 1.0000 1.0000");
    /* exp(s - m) in double is tiny, not 0; the float32 weight is exactly 0 */
    assert_row(r.out, "1 ", "1 -200.0000 1.3839e-87 0.0000 underflowed to 0");
    ASSERT_HAS(r.out, "Key 1's score is finite, yet its weight is exactly 0: it is 200.0000 "
                      "below the row's max, and in float32 exp(x) rounds to 0 below x = -103.97 "
                      "(in float16 below x = -17.33)");
    ASSERT_HAS(r.out, "In exact arithmetic its weight is e^-200.0000 / 1.0000, about 1.38e-87, "
                      "positive: only a mask gives "
                      "exactly 0 by design");
    free_result(&r);
}
END_TEST

/* Tiny weights are shown in scientific notation, never as 0.0000, which is
   how an exactly-0 (masked) weight looks. By hand, with m = 16:
   exp(-8) = 3.3546e-04, exp(-24) = 3.7751e-11, exp(-12) = 6.1442e-06, sum
   1.00034161; key 3's weight 3.7751e-11 / 1.00034161 = 3.7738e-11. */
/* Past a gap of about 745 exp is 0 in double too: the exact weight is still
   positive, and said so in log space. */
START_TEST(far_past_double_is_still_positive)
{
    run_result r = EXPLAIN("--scores", "0 -1000 1");
    ck_assert_int_eq(r.rc, 0);
    ASSERT_HAS(r.out, "In exact arithmetic its weight is e^-1001.0000 / 1.3679, about "
                      "1.37e-435, positive");
    free_result(&r);
}
END_TEST

/* A row of -1e30 is not masked: uniform weights, and the lesson says why. */
START_TEST(huge_negative_score_is_not_a_mask)
{
    run_result r = EXPLAIN("--scores", "-1e30 -1e30 -1e30");
    ck_assert_int_eq(r.rc, 0);
    assert_row(r.out, "0 ", "0 -1.0000e+30 1.0000 0.3333");
    ASSERT_HAS(r.out, "Key 0's score, -1.0000e+30, is finite: it is not a mask.");
    ASSERT_HAS(r.out, "the keys share the weight uniformly: a padded row attends to its "
                      "padding");
    ck_assert_msg(!has(r.out, "negative attention"), "%s", r.out);
    free_result(&r);
}
END_TEST

START_TEST(tiny_weights_in_scientific_notation)
{
    run_result r = EXPLAIN("--scores", "16 8 -8 4");
    ck_assert_int_eq(r.rc, 0);
    assert_row(r.out, "2 ", "2 -8.0000 3.7751e-11 3.7738e-11");
    assert_row(r.out, "3 ", "3 4.0000 6.1442e-06 6.1421e-06");
    assert_row(r.out, "1 ", "1 8.0000 0.0003 0.0003");
    ASSERT_HAS(r.out, "its weight is 3.7738e-11 > 0");
    ck_assert_ptr_null(strstr(r.out, "0.0000 > 0"));
    free_result(&r);
    /* plain decimals of every form are read: sign, no leading digit, exponent.
       m = 2: exp(-1.5) = 0.2231, exp(-3) = 0.0498, sum 1.4960 */
    r = EXPLAIN("--scores", "[+2, .5, -1e0, 5E-1]");
    ck_assert_int_eq(r.rc, 0);
    assert_row(r.out, "1 ", "1 0.5000 0.2231 0.1491");
    assert_row(r.out, "2 ", "2 -1.0000 0.0498 0.0333");
    assert_row(r.out, "3 ", "3 0.5000 0.2231 0.1491");
    free_result(&r);
}
END_TEST

/* ---- edge rows ------------------------------------------------------------------------------ */

START_TEST(all_masked_gives_zero_row_and_says_why)
{
    run_result r = EXPLAIN("--scores", "2 1 -1 0.5", "--mask", "1 1 1 1");
    ck_assert_int_eq(r.rc, 0);
    assert_row(r.out, "0 ", "0 2.0000 1 -inf nan 0.0000 masked");
    assert_row(r.out, "3 ", "3 0.5000 1 -inf nan 0.0000 masked");
    assert_row(r.out, "sum", "sum nan 0.0000");
    ASSERT_HAS(r.out, "m = -inf: every score is -inf, so s - m = -inf - (-inf) = nan");
    ASSERT_HAS(r.out, "Every key is masked, so there is nothing to normalise over");
    ASSERT_HAS(r.out, "(torch.softmax gives NaN here)");
    ASSERT_HAS(r.out, "PyTorch's SDPA (since PyTorch 2.5, 2024; earlier versions gave NaN)");
    ASSERT_HAS(r.out, "gives all-zero weights instead");
    ASSERT_HAS(r.out, "this row sums to 0, not 1");
    free_result(&r);
}
END_TEST

/* A nan score spreads to every weight of its row (libattn's policy: NaN propagates). */
START_TEST(nan_score_poisons_row)
{
    run_result r = EXPLAIN("--scores", "2 nan -1 0.5");
    ck_assert_int_eq(r.rc, 0);
    assert_row(r.out, "0 ", "0 2.0000 nan nan");
    assert_row(r.out, "1 ", "1 nan nan nan nan score");
    assert_row(r.out, "sum", "sum nan nan");
    ASSERT_HAS(r.out, "m = nan");
    ASSERT_HAS(r.out, "Key 1's score is nan, and nan spreads");
    free_result(&r);
}
END_TEST

/* A -inf score is exactly what a mask writes: weight 0, the rest sum to 1.
   [1, -inf, 1]: weights 0.5 0 0.5. */
START_TEST(minus_inf_score_acts_as_mask)
{
    run_result r = EXPLAIN("--scores", "1 -inf 1");
    ck_assert_int_eq(r.rc, 0);
    assert_row(r.out, "0 ", "0 1.0000 1.0000 0.5000");
    assert_row(r.out, "1 ", "1 -inf 0.0000 0.0000 -inf score: acts as a mask");
    assert_row(r.out, "sum", "sum 2.0000 1.0000");
    ASSERT_HAS(r.out, "Key 1's score is -inf, exactly what a mask writes, exp(-inf) = 0, so "
                      "its weight is exactly 0, and the other 2 keys share all of the weight");
    free_result(&r);
}
END_TEST

/* +inf: the shift m is inf and inf - inf is nan for that key. */
START_TEST(plus_inf_score_is_shown)
{
    run_result r = EXPLAIN("--scores", "inf 1");
    ck_assert_int_eq(r.rc, 0);
    /* exp(inf - inf) = nan for key 0; exp(1 - inf) = 0 for key 1. */
    char *line = line_starting(r.out, "0 ");
    ck_assert_msg(has(line, "0 inf nan "), "row 0: %s", line);
    free(line);
    line = line_starting(r.out, "1 ");
    ck_assert_msg(has(line, "1 1.0000 0.0000 "), "row 1: %s", line);
    free(line);
    ASSERT_HAS(r.out, "m = inf");
    ASSERT_HAS(r.out, "Key 0's score is inf");
    free_result(&r);
}
END_TEST

/* ---- CSV ----------------------------------------------------------------------------------- */

/* Header row, then one row per key with 8 fields; the numbers are those of the table. */
START_TEST(csv_one_row_per_key)
{
    run_result r = EXPLAIN("--scores", "2 1 -1 0.5", "--mask", "0 0 0 1", "--format", "csv");
    ck_assert_int_eq(r.rc, 0);
    ck_assert_str_eq(r.err, "");
    const double want_w[4] = { 0.7054, 0.2595, 0.0351, 0.0 };
    const double want_e[4] = { 1.0, 0.3679, 0.0498, 0.0 };
    char *save = NULL, *line = strtok_r(r.out, "\n", &save);
    ck_assert_str_eq(line, "key,raw_score,scaled_score,blocked,masked_score,shift,"
                           "exp_shifted,weight");
    double sum = 0.0;
    for (int j = 0; j < 4; j++) {
        line = strtok_r(NULL, "\n", &save);
        ck_assert_ptr_nonnull(line);
        char *f[8], *s2 = NULL;
        int n = 0;
        for (char *t = strtok_r(line, ",", &s2); t && n < 8; t = strtok_r(NULL, ",", &s2))
            f[n++] = t;
        ck_assert_int_eq(n, 8);
        ck_assert_int_eq(atoi(f[0]), j);             /* keys count from 0 */
        ck_assert_double_eq_tol(strtod(f[5], NULL), 2.0, 1e-12);   /* shift m = 2 */
        ck_assert_double_eq_tol(strtod(f[6], NULL), want_e[j], 5e-5);
        ck_assert_double_eq_tol(strtod(f[7], NULL), want_w[j], 5e-5);
        sum += strtod(f[7], NULL);
        if (j == 3) {
            ck_assert_str_eq(f[3], "1");
            ck_assert_str_eq(f[4], "-inf");
            ck_assert_str_eq(f[7], "0");             /* masked: exactly 0 */
        } else {
            ck_assert_str_eq(f[3], "0");
        }
    }
    ck_assert_ptr_null(strtok_r(NULL, "\n", &save));   /* no sum row, no trailer */
    ck_assert_double_eq_tol(sum, 1.0, 1e-6);
    free_result(&r);
}
END_TEST

START_TEST(csv_all_masked_notes_on_stderr)
{
    run_result r = EXPLAIN("--scores", "1 2", "--mask", "1 1", "--format", "csv");
    ck_assert_int_eq(r.rc, 0);
    ck_assert_ptr_nonnull(strstr(r.out, "0,1,1,1,-inf,-inf,nan,0\n"));
    ck_assert_ptr_nonnull(strstr(r.err, "every key is masked"));
    free_result(&r);
}
END_TEST

/* ---- usage errors --------------------------------------------------------------------------- */

/* Each wrong command line: exit 2, nothing on stdout, exactly one line on
   stderr that starts with "attnlab explain: " and contains the words below. */
static const struct {
    const char *args[8];
    int n;
    const char *says;
} usage_cases[] = {
    { { "--scores", "2 x 1" }, 2, "the score of key 1, 'x', is not a plain decimal number" },
    { { "--scores", "0x10 1" }, 2, "the score of key 0, '0x10', is not a plain decimal number" },
    { { "--scores", "2 nan(7)" }, 2, "the score of key 1, 'nan(7)', is not a plain decimal number" },
    { { "--scores", "2, 0x1p3" }, 2, "the score of key 1, '0x1p3', is not a plain decimal number" },
    { { "--scores", "2,,1" }, 2, "--scores has an empty field (number 2)" },
    { { "--scores", "[2, 1,]" }, 2, "--scores has an empty field (number 3)" },
    { { "--scores", ", 2" }, 2, "--scores has an empty field (number 1)" },
    { { "--scores", "2 1", "--mask", "0,,1" }, 4, "--mask has an empty field (number 2)" },
    { { "--scores", "2 1", "--temperature", "0x2" }, 4, "--temperature '0x2' is not a plain decimal number" },
    { { "--scores", "2 1 -1 0.5", "--mask", "0 0 1" }, 4,
      "--mask has 3 values but --scores has 4" },
    { { "--scores", "2 1", "--mask", "0 2" }, 4, "the mask value of key 1, '2', must be 0 (attend) or 1 (blocked)" },
    { { "--scores", "2 1", "--temperature", "0" }, 4, "--temperature must be a finite number > 0 (got '0')" },
    { { "--scores", "2 1", "--temperature", "-1" }, 4, "--temperature must be a finite number > 0 (got '-1')" },
    { { "--scores", "2 1", "--temperature", "abc" }, 4, "--temperature 'abc' is not a plain decimal number" },
    { { "--scores", "2 1", "--frobnicate" }, 3, "unknown option '--frobnicate'" },
    { { "--mask", "0 1" }, 2, "missing --scores" },
    { { "--scores" }, 1, "--scores needs a value" },
    { { "--scores", "" }, 2, "--scores is empty" },
    { { "--scores", "1e40 2" }, 2, "the score of key 0, '1e40', is too large for a float" },
    { { "--scores", "2 1", "--format", "xml" }, 4, "--format must be table or csv (got 'xml')" },
    { { "--scores", "2 1", "--scale", "0" }, 4, "--scale takes d_k, the key size, a whole number >= 1" },
    { { "--scores", "2", "1" }, 3, "unexpected argument '1'" },
};

START_TEST(usage_error_one_line_exit_2)
{
    run_result r = run_command(cmd_explain_run, "explain", usage_cases[_i].n, usage_cases[_i].args);
    check_usage_error(&r, _i, "attnlab explain: ", usage_cases[_i].says);
    free_result(&r);
}
END_TEST

START_TEST(help_shows_usage_and_csv_layout)
{
    run_result r = EXPLAIN("--help");
    ck_assert_int_eq(r.rc, 0);
    ck_assert_str_eq(r.err, "");
    ck_assert_int_eq(strncmp(r.out, "usage: attnlab explain --scores", 31), 0);
    ck_assert_ptr_nonnull(strstr(r.out, "key,raw_score,scaled_score,blocked,masked_score,"
                                        "shift,exp_shifted,weight"));
    ck_assert_msg(has(r.out, "a row of weights sums to 1 (up to rounding)"),
                  "help lacks the rounding caveat:\n%s", r.out);
    free_result(&r);
}
END_TEST

/* cmd_explain itself writes to the process's stdout and stderr. */
START_TEST(cmd_explain_writes_stdout)
{
    char path[] = "/tmp/attnlab-test-explain-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    fflush(stdout);
    int saved = dup(STDOUT_FILENO);
    ck_assert_int_ge(saved, 0);
    ck_assert_int_ge(dup2(fd, STDOUT_FILENO), 0);

    char a0[] = "explain", a1[] = "--scores", a2[] = "2 1 -1 0.5", a3[] = "--mask", a4[] = "0 0 0 1";
    char *argv[] = { a0, a1, a2, a3, a4, NULL };
    int rc = cmd_explain(5, argv);
    fflush(stdout);
    dup2(saved, STDOUT_FILENO);
    close(saved);

    FILE *f = fdopen(fd, "r");
    ck_assert_ptr_nonnull(f);
    fseek(f, 0, SEEK_END);
    char *out = slurp(f);
    unlink(path);
    ck_assert_int_eq(rc, 0);
    assert_row(out, "0 ", "0 2.0000 0 2.0000 1.0000 0.7054");
    assert_row(out, "sum", "sum 1.4177 1.0000");
    free(out);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("explain");
    TCase *tc = tcase_create("worked row");
    tcase_add_test(tc, worked_row_table);
    tcase_add_test(tc, worked_row_lessons);
    tcase_add_test(tc, worked_row_pasted_list);
    tcase_add_test(tc, scale_divides_by_sqrt_dk);
    tcase_add_test(tc, temperature_divides_scores);
    tcase_add_test(tc, no_mask_every_finite_score_positive);
    suite_add_tcase(s, tc);

    tc = tcase_create("edge rows");
    tcase_add_test(tc, all_masked_gives_zero_row_and_says_why);
    tcase_add_test(tc, nan_score_poisons_row);
    tcase_add_test(tc, minus_inf_score_acts_as_mask);
    tcase_add_test(tc, plus_inf_score_is_shown);
    tcase_add_test(tc, far_below_the_max_underflows);
    tcase_add_test(tc, far_past_double_is_still_positive);
    tcase_add_test(tc, huge_negative_score_is_not_a_mask);
    tcase_add_test(tc, tiny_weights_in_scientific_notation);
    suite_add_tcase(s, tc);

    tc = tcase_create("csv");
    tcase_add_test(tc, csv_one_row_per_key);
    tcase_add_test(tc, csv_all_masked_notes_on_stderr);
    suite_add_tcase(s, tc);

    tc = tcase_create("usage");
    tcase_add_loop_test(tc, usage_error_one_line_exit_2, 0,
                        (int)(sizeof usage_cases / sizeof usage_cases[0]));
    tcase_add_test(tc, help_shows_usage_and_csv_layout);
    tcase_add_test(tc, cmd_explain_writes_stdout);
    suite_add_tcase(s, tc);
    return s;
}
