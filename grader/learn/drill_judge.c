/* drill_judge.c: judging a learner's answer to a drill question, and the
 * order a choice question's choices are shown in (see drill.h).
 *
 * Free text is matched as a whole after normalising, never as a fragment; a
 * numeric answer is right exactly when it rounds to the answer at the
 * question's decimals. What is neither right nor known to be wrong is
 * GR_DRILL_UNKNOWN, and the session asks it again once with a hint.
 */
#include "learn/drill_int.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attn.h"
#include "base/util.h"

/* ---- judging an answer --------------------------------------------------------------- */

/* s lower-cased, spaces collapsed, trimmed, and a final '.' dropped, into a
   malloc'd string: "  Over the  KEYS. " -> "over the keys". */
char *gr_drill_normalise(const char *s)
{
    char *out = gr_xmalloc(strlen(s) + 1);
    size_t k = 0;
    for (; *s; s++) {
        int space = isspace((unsigned char)*s);
        if (space && (k == 0 || out[k - 1] == ' '))
            continue;
        out[k++] = space ? ' ' : (char)tolower((unsigned char)*s);
    }
    while (k > 0 && (out[k - 1] == ' ' || out[k - 1] == '.'))
        k--;
    out[k] = '\0';
    return out;
}

/* A plain decimal number ("0.25", "-1.5e-3", "3"): no hex, no inf or nan. */
static int parse_number(const char *s, double *out)
{
    for (const char *p = s; *p; p++)
        if (!(isdigit((unsigned char)*p) || strchr("+-.eE", *p)))
            return -1;
    char *end;
    errno = 0;
    *out = strtod(s, &end);
    if (end == s || *end != '\0' || errno == ERANGE || !isfinite(*out))
        return -1;
    return 0;
}

static gr_drill_verdict judge_choice(const gr_drill_question *q, const char *a, char *why,
                                     size_t whylen)
{
    int pick = -1;
    size_t len = strlen(a);
    char *end;
    long num = strtol(a, &end, 10);
    if (len == 1 && a[0] >= 'a' && a[0] < 'a' + q->n_choices)
        pick = a[0] - 'a';
    else if (len == 2 && a[1] == ')' && a[0] >= 'a' && a[0] < 'a' + q->n_choices)
        pick = a[0] - 'a';
    else if (end != a && *end == '\0' && num >= 1 && num <= q->n_choices)
        pick = (int)num - 1;
    for (int i = 0; pick < 0 && i < q->n_choices; i++) {
        char *c = gr_drill_normalise(q->choices[i]);
        if (strcmp(c, a) == 0)
            pick = i;
        free(c);
    }
    if (pick < 0) {
        gr_set_err(why, whylen, "give a letter from a to %c (or the choice's number, 1 to %d)",
                   'a' + q->n_choices - 1, q->n_choices);
        return GR_DRILL_MALFORMED;
    }
    return pick == q->answer ? GR_DRILL_RIGHT : GR_DRILL_WRONG;
}

static gr_drill_verdict judge_true_false(const gr_drill_question *q, const char *a, char *why,
                                         size_t whylen)
{
    static const char *const yes[] = { "true", "t", "yes", "y" };
    static const char *const no[] = { "false", "f", "no", "n" };
    for (int i = 0; i < 4; i++) {
        if (strcmp(a, yes[i]) == 0)
            return q->answer == 1 ? GR_DRILL_RIGHT : GR_DRILL_WRONG;
        if (strcmp(a, no[i]) == 0)
            return q->answer == 0 ? GR_DRILL_RIGHT : GR_DRILL_WRONG;
    }
    gr_set_err(why, whylen, "give true or false (t or f)");
    return GR_DRILL_MALFORMED;
}

/* Does the normalised answer a equal text, normalised? */
static int same(const char *text, const char *a)
{
    char *s = gr_drill_normalise(text);
    int eq = strcmp(s, a) == 0;
    free(s);
    return eq;
}

/* Is a the answer shown, an accepted form or a course phrase? */
static int accepted(const gr_drill_question *q, const char *a)
{
    if (same(q->answer_text, a))
        return 1;
    for (int i = 0; i < q->n_accept; i++)
        if (same(q->accept[i], a))
            return 1;
    for (int i = 0; i < q->n_phrases; i++)
        if (same(q->phrases[i].text, a))
            return 1;
    return 0;
}

/* Matched whole, never as a fragment: right when accepted, wrong when a reject:
   form or "not" before an accepted one, else unknown (asked again with the hint):
   a learner's own right words are never marked wrong for want of a form. */
static gr_drill_verdict judge_short(const gr_drill_question *q, const char *a, char *why,
                                    size_t whylen)
{
    if (accepted(q, a))
        return GR_DRILL_RIGHT;
    for (int i = 0; i < q->n_reject; i++)
        if (same(q->reject[i], a))
            return GR_DRILL_WRONG;
    if (strncmp(a, "not ", 4) == 0 && accepted(q, a + 4))
        return GR_DRILL_WRONG;
    gr_set_err(why, whylen, "%s", q->hint ? q->hint : "give the answer in other words");
    return GR_DRILL_UNKNOWN;
}

/* How many decimals the number a is written with ("0.61" 2, "3" 0, "1e-3" -1: unknown). */
static int decimals_of(const char *a)
{
    if (strpbrk(a, "eE"))
        return -1;
    const char *dot = strchr(a, '.');
    return dot ? (int)strlen(dot + 1) : 0;
}

/* A number: right when it rounds to the answer; one written with fewer decimals
   than asked that rounds to it at its own ("0.61" for 0.6095) is unknown. */
static gr_drill_verdict judge_number(const gr_drill_question *q, const char *a, char *why,
                                     size_t whylen)
{
    double x;
    if (parse_number(a, &x) != 0) {
        gr_set_err(why, whylen, "give a plain decimal number, e.g. 0.25 or -1.5e-3");
        return GR_DRILL_MALFORMED;
    }
    if (gr_drill_rounds_to(x, q->value, q->decimals))
        return GR_DRILL_RIGHT;
    int k = decimals_of(a);
    if (k >= 0 && k < q->decimals && gr_drill_rounds_to(q->value, x, k)) {
        gr_set_err(why, whylen, "the question asks for %d decimals; give the number to %d",
                   q->decimals, q->decimals);
        return GR_DRILL_UNKNOWN;
    }
    return GR_DRILL_WRONG;
}

/* x at k decimals into buf, with -0 written as 0 ("-0.0000" rounds to the answer 0). */
static void at_decimals(char *buf, size_t len, double x, int k)
{
    snprintf(buf, len, "%.*f", k, x);
    if (buf[0] == '-' && strspn(buf + 1, "0.") == strlen(buf + 1))
        memmove(buf, buf + 1, strlen(buf));
}

int gr_drill_rounds_to(double x, double value, int decimals)
{
    char a[64], b[64];
    if (!isfinite(x) || !isfinite(value) || fabs(x) > 1e15 || fabs(value) > 1e15)
        return x == value;
    at_decimals(a, sizeof a, x, decimals);
    at_decimals(b, sizeof b, value, decimals);
    return strcmp(a, b) == 0;
}

gr_drill_verdict gr_drill_judge(const gr_drill_question *q, const char *line, char *why,
                                size_t whylen)
{
    gr_set_err(why, whylen, "%s", "");
    char *a = gr_drill_normalise(line);
    gr_drill_verdict v;
    if (!*a) {
        v = GR_DRILL_BLANK;
    } else if (q->kind == GR_DRILL_CHOICE) {
        v = judge_choice(q, a, why, whylen);
    } else if (q->kind == GR_DRILL_TRUE_FALSE) {
        v = judge_true_false(q, a, why, whylen);
    } else if (q->kind == GR_DRILL_SHORT) {
        v = judge_short(q, a, why, whylen);
    } else {
        v = judge_number(q, a, why, whylen);
    }
    free(a);
    return v;
}

/* ---- showing a choice question --------------------------------------------------------- */

gr_drill_question gr_drill_present(const gr_drill_question *q, uint64_t seed, char **order)
{
    gr_drill_question shown = *q;
    if (q->kind != GR_DRILL_CHOICE || q->n_choices < 2)
        return shown;
    int perm[26], n = q->n_choices;
    for (int i = 0; i < n; i++)
        perm[i] = i;
    attn_rng rng;
    attn_rng_seed(&rng, seed ^ 0xC2B2AE3D27D4EB4FULL);
    for (int i = n - 1; i > 0; i--) {          /* Fisher-Yates */
        int j = (int)(attn_rng_uniform(&rng) * (float)(i + 1));
        j = j > i ? i : j;
        int t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    for (int i = 0; i < n; i++) {
        order[i] = q->choices[perm[i]];
        if (perm[i] == q->answer)
            shown.answer = i;
    }
    shown.choices = order;
    return shown;
}

int gr_drill_length_tells(const gr_drill_bank *b, int *longest, int *shortest)
{
    int n = 0;
    *longest = *shortest = 0;
    for (int i = 0; i < b->n; i++) {
        const gr_drill_question *q = &b->q[i];
        if (q->kind != GR_DRILL_CHOICE)
            continue;
        n++;
        size_t right = strlen(q->choices[q->answer]);
        int is_longest = 1, is_shortest = 1;
        for (int c = 0; c < q->n_choices; c++) {
            size_t len = strlen(q->choices[c]);
            if (c != q->answer && len > right)
                is_longest = 0;
            if (c != q->answer && len < right)
                is_shortest = 0;
        }
        *longest += is_longest;
        *shortest += is_shortest;
    }
    return n;
}
