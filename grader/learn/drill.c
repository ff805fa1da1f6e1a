/* drill.c: loading the question banks of data/drills/ and judging answers
 * (see drill.h).
 *
 * A bank is read with the shared YAML reader (lib/sup_yamlread.h): each
 * mapping is walked against a table of its keys, so an unknown key, a key
 * given twice or a missing one is "path:line:column: ...". After the walk
 * each question is checked as a whole: its kind has what it needs (a choice
 * question an answer among its choices, a numeric one a tolerance and a
 * compute: that libattn agrees with), and it has an explanation and a lesson.
 */
#include "learn/drill_int.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/labmod.h"
#include "base/util.h"

static const char *const kind_names[] = { "choice", "true_false", "short", "numeric" };
#define N_KINDS 4

/* ---- freeing ------------------------------------------------------------------------- */

static void free_list(char **list, int n)
{
    for (int i = 0; i < n; i++)
        free(list[i]);
    free(list);
}

void gr_drill_question_free(gr_drill_question *q)
{
    free(q->id);
    free(q->prompt);
    free_list(q->choices, q->n_choices);
    free(q->answer_text);
    free_list(q->accept, q->n_accept);
    free_list(q->reject, q->n_reject);
    for (int i = 0; i < q->n_phrases; i++) {
        free(q->phrases[i].text);
        free(q->phrases[i].in);
    }
    free(q->phrases);
    free(q->hint);
    free(q->explanation);
    free(q->lesson);
    free(q->section);
    gr_drill_worked_free(q->worked);
    memset(q, 0, sizeof *q);
}

void gr_drill_bank_free(gr_drill_bank *b)
{
    for (int i = 0; i < b->n; i++)
        gr_drill_question_free(&b->q[i]);
    free(b->q);
    free(b->name);
    free(b->title);
    free(b->path);
    memset(b, 0, sizeof *b);
}

void gr_drill_banks_free(gr_drill_bank *banks, int n)
{
    for (int i = 0; i < n; i++)
        gr_drill_bank_free(&banks[i]);
    free(banks);
}


/* ---- one question ------------------------------------------------------------------- */

/* A question as read, before the checks that need all of it. */
typedef struct question_raw {
    gr_drill_question *q;
    const yaml_node_t *map, *kind, *answer, *decimals, *compute, *choices, *reject, *handout;
    int has_kind;
} question_raw;

/* Copy a non-empty string value into *out. */
static int rd_text(yr_doc *d, const yaml_node_t *v, const char *label, char **out)
{
    const char *s;
    if (yr_get_string(d, v, label, YR_NONEMPTY, &s) != 0)
        return -1;
    *out = gr_xstrdup(s);
    return 0;
}

/* A list of non-empty strings into a malloc'd array. */
static int rd_text_list(yr_doc *d, const yaml_node_t *v, const char *label, char ***out,
                        int *n)
{
    int m = 0;
    if (yr_get_seq(d, v, label, "[\"...\", \"...\"]", &m) != 0)
        return -1;
    *out = gr_xcalloc((size_t)m + 1, sizeof **out);
    for (int i = 0; i < m; i++) {
        *n = i;         /* calloc'd, so a failure part-way frees cleanly */
        if (rd_text(d, yr_item(d, v, i), label, &(*out)[i]) != 0)
            return -1;
    }
    *n = m;
    return 0;
}

static int rd_q_id(yr_doc *d, const yaml_node_t *v, void *t)
{
    question_raw *r = t;
    if (rd_text(d, v, "id", &r->q->id) != 0)
        return -1;
    for (const char *p = r->q->id; *p; p++)
        if (!(islower((unsigned char)*p) || isdigit((unsigned char)*p) || *p == '-'))
            return yr_fail_at(d, v, "id is a word of lower-case letters, digits and '-' "
                              "(progress is kept by it): %s", r->q->id);
    return 0;
}

static int rd_q_kind(yr_doc *d, const yaml_node_t *v, void *t)
{
    question_raw *r = t;
    const char *s;
    if (yr_get_string(d, v, "kind", YR_NONEMPTY, &s) != 0)
        return -1;
    for (int k = 0; k < N_KINDS; k++)
        if (strcmp(s, kind_names[k]) == 0) {
            r->q->kind = (gr_drill_kind)k;
            r->has_kind = 1;
            return 0;
        }
    const char *near = yr_nearest(s, kind_names, N_KINDS);
    if (near)
        return yr_fail_at(d, v, "unknown kind \"%s\"; did you mean \"%s\"?", s, near);
    return yr_fail_at(d, v, "unknown kind \"%s\"; the kinds are choice, true_false, short "
                      "and numeric", s);
}

static int rd_q_prompt(yr_doc *d, const yaml_node_t *v, void *t)
{
    return rd_text(d, v, "prompt", &((question_raw *)t)->q->prompt);
}

static int rd_q_answer(yr_doc *d, const yaml_node_t *v, void *t)
{
    question_raw *r = t;
    r->answer = v;
    return rd_text(d, v, "answer", &r->q->answer_text);
}

static int rd_q_decimals(yr_doc *d, const yaml_node_t *v, void *t)
{
    question_raw *r = t;
    double k;
    r->decimals = v;
    if (yr_get_double(d, v, "decimals", &k) != 0)
        return -1;
    if (!(k == floor(k) && k >= 0 && k <= 8))
        return yr_fail_at(d, v, "decimals is a whole number from 0 to 8 (how many decimals "
                          "the prompt asks for)");
    r->q->decimals = (int)k;
    return 0;
}

static int rd_q_compute(yr_doc *d, const yaml_node_t *v, void *t)
{
    (void)d;
    ((question_raw *)t)->compute = v;
    return 0;                   /* evaluated once the kind and answer are known */
}

static int rd_q_choices(yr_doc *d, const yaml_node_t *v, void *t)
{
    question_raw *r = t;
    r->choices = v;
    if (rd_text_list(d, v, "choices", &r->q->choices, &r->q->n_choices) != 0)
        return -1;
    if (r->q->n_choices < 2 || r->q->n_choices > 26)
        return yr_fail_at(d, v, "choices: give 2 to 26 choices, got %d", r->q->n_choices);
    for (int i = 0; i < r->q->n_choices; i++)
        for (int j = 0; j < i; j++)
            if (strcmp(r->q->choices[i], r->q->choices[j]) == 0)
                return yr_fail_at(d, yr_item(d, v, i), "choices %c and %c are the same text",
                                  'a' + j, 'a' + i);
    return 0;
}

static int rd_q_accept(yr_doc *d, const yaml_node_t *v, void *t)
{
    question_raw *r = t;
    return rd_text_list(d, v, "accept", &r->q->accept, &r->q->n_accept);
}

static int rd_q_reject(yr_doc *d, const yaml_node_t *v, void *t)
{
    question_raw *r = t;
    r->reject = v;
    return rd_text_list(d, v, "reject", &r->q->reject, &r->q->n_reject);
}

static int rd_q_hint(yr_doc *d, const yaml_node_t *v, void *t)
{
    return rd_text(d, v, "hint", &((question_raw *)t)->q->hint);
}

static int rd_p_phrase(yr_doc *d, const yaml_node_t *v, void *t)
{
    return rd_text(d, v, "phrase", &((gr_drill_phrase *)t)->text);
}

/* "lab 2 §5" (a handout's section) or "syllabus": where the phrase is. */
static int rd_p_in(yr_doc *d, const yaml_node_t *v, void *t)
{
    gr_drill_phrase *ph = t;
    if (rd_text(d, v, "in", &ph->in) != 0)
        return -1;
    int lab = 0, sec = 0, used = 0;
    if (strcmp(ph->in, "syllabus") == 0 ||
        (sscanf(ph->in, "lab %d §%d%n", &lab, &sec, &used) == 2 && ph->in[used] == '\0' &&
         lab >= 1 && lab <= GR_N_LABS && sec >= 1))
        return 0;
    return yr_fail_at(d, v, "in is where the phrase is: a handout section like \"lab 2 §5\" "
                      "(lab 1 to %d) or syllabus, got \"%s\"", GR_N_LABS, ph->in);
}

static const yr_field phrase_fields[] = {
    {"phrase", 1, rd_p_phrase},
    {"in", 1, rd_p_in},
};

/* handout: [{phrase: ..., in: ...}, ...]: the course text's own words for the answer. */
static int rd_q_handout(yr_doc *d, const yaml_node_t *v, void *t)
{
    question_raw *r = t;
    int m = 0;
    r->handout = v;
    if (yr_get_seq(d, v, "handout", "[{phrase: \"...\", in: lab 2 §5}]", &m) != 0)
        return -1;
    r->q->phrases = gr_xcalloc((size_t)m + 1, sizeof *r->q->phrases);
    for (int i = 0; i < m; i++) {
        r->q->n_phrases = i + 1;    /* calloc'd, so a failure part-way frees cleanly */
        if (yr_walk(d, yr_item(d, v, i), "handout", "a handout phrase", phrase_fields,
                    YR_N_FIELDS(phrase_fields), &r->q->phrases[i]) != 0)
            return -1;
    }
    return 0;
}

static int rd_q_explanation(yr_doc *d, const yaml_node_t *v, void *t)
{
    return rd_text(d, v, "explanation", &((question_raw *)t)->q->explanation);
}

/* "L2.3": lesson 3 of module M2 in syllabus.md. */
static int rd_q_lesson(yr_doc *d, const yaml_node_t *v, void *t)
{
    question_raw *r = t;
    if (rd_text(d, v, "lesson", &r->q->lesson) != 0)
        return -1;
    int mod = 0, les = 0, used = 0;
    if (sscanf(r->q->lesson, "L%d.%d%n", &mod, &les, &used) != 2 ||
        r->q->lesson[used] != '\0' || mod < 1 || mod > 99 || les < 1)
        return yr_fail_at(d, v, "lesson is a syllabus lesson id like L2.3 (module 1 to 99, "
                          "then the lesson): %s", r->q->lesson);
    return 0;
}

/* "lab 2 §4": section 4 of labs/lab02-*\/README.md. */
static int rd_q_section(yr_doc *d, const yaml_node_t *v, void *t)
{
    question_raw *r = t;
    if (rd_text(d, v, "section", &r->q->section) != 0)
        return -1;
    int lab = 0, sec = 0, used = 0;
    if (sscanf(r->q->section, "lab %d §%d%n", &lab, &sec, &used) != 2 ||
        r->q->section[used] != '\0' || lab < 1 || lab > GR_N_LABS || sec < 1)
        return yr_fail_at(d, v, "section is a handout section like \"lab 2 §4\" (lab 1 to "
                          "%d): %s", GR_N_LABS, r->q->section);
    return 0;
}

static const yr_field question_fields[] = {
    {"id", 1, rd_q_id},
    {"kind", 1, rd_q_kind},
    {"prompt", 1, rd_q_prompt},
    {"answer", 1, rd_q_answer},
    {"decimals", 0, rd_q_decimals},
    {"compute", 0, rd_q_compute},
    {"choices", 0, rd_q_choices},
    {"accept", 0, rd_q_accept},
    {"reject", 0, rd_q_reject},
    {"handout", 0, rd_q_handout},
    {"hint", 0, rd_q_hint},
    {"explanation", 1, rd_q_explanation},
    {"lesson", 1, rd_q_lesson},
    {"section", 0, rd_q_section},
};

/* The key node of map named name, or NULL (for errors at a field's key). */
static const yaml_node_t *key_node(yr_doc *d, const yaml_node_t *map, const char *name)
{
    return yr_earlier_key(d, map, map->data.mapping.pairs.top, name);
}

/* Fail at key name of r's mapping when the question's kind does not use it. */
static int reject_field(yr_doc *d, const question_raw *r, const char *name, int present)
{
    if (!present)
        return 0;
    const yaml_node_t *k = key_node(d, r->map, name);
    return yr_fail_at(d, k ? k : r->map, "%s is not used by a %s question; remove it", name,
                      kind_names[r->q->kind]);
}

/* Each reject: example is judged wrong (not malformed, not right): the proof
   that near-misses do not pass. */
static int check_rejects(yr_doc *d, const question_raw *r)
{
    const gr_drill_question *q = r->q;
    for (int i = 0; i < q->n_reject; i++) {
        char why[160];
        gr_drill_verdict v = gr_drill_judge(q, q->reject[i], why, sizeof why);
        if (v == GR_DRILL_RIGHT)
            return yr_fail_at(d, yr_item(d, r->reject, i), "reject: \"%s\" is judged right; "
                              "a near-miss must not be an accepted form", q->reject[i]);
        if (v != GR_DRILL_WRONG)
            return yr_fail_at(d, yr_item(d, r->reject, i), "reject: \"%s\" is not an answer "
                              "of this kind (%s)", q->reject[i], why);
    }
    return 0;
}

/* A short question says what form an answer takes (hint:, without giving the
   answer away) and accepts the course text's own words for it (handout:). */
static int check_short_help(yr_doc *d, const question_raw *r, const char *where)
{
    const gr_drill_question *q = r->q;
    if (!q->hint)
        return yr_fail_at(d, r->map, "%s is a short question without hint: say what form "
                          "an answer takes (\"one word: an operation\"), shown when an "
                          "answer is neither accepted nor rejected", where);
    if (!r->handout)
        return yr_fail_at(d, r->map, "%s is a short question without handout: list the "
                          "handouts' own words for the answer ({phrase: ..., in: lab 2 "
                          "§5}), so a learner who answers in them is right", where);
    char *hint = gr_drill_normalise(q->hint), *ans = gr_drill_normalise(q->answer_text);
    int gives = strstr(hint, ans) != NULL;
    free(hint);
    free(ans);
    if (gives)
        return yr_fail_at(d, key_node(d, r->map, "hint"), "the hint holds the answer \"%s\"; "
                          "say what form an answer takes, not what it is", q->answer_text);
    return 0;
}

/* Does text name "key K" (any case, a whole number: not "key 10" for 1)? */
static int names_key(const char *text, long k)
{
    char want[32];
    int n = snprintf(want, sizeof want, "key %ld", k);
    for (const char *p = strcasestr(text, want); p; p = strcasestr(p + 1, want))
        if ((p == text || !isalnum((unsigned char)p[-1])) && !isdigit((unsigned char)p[n]))
            return 1;
    return 0;
}

/* A numeric question: its prompt names its decimals, its answer is written
   with them, compute: rounds to it, and a compute: key is the key the prompt
   names, counted from 0. */
static int check_numeric(yr_doc *d, question_raw *r, const char *where)
{
    gr_drill_question *q = r->q;
    if (yr_get_double(d, r->answer, "answer", &q->value) != 0)
        return -1;
    if (!r->decimals)
        return yr_fail_at(d, r->map, "%s is numeric without decimals: say how many decimals "
                          "the prompt asks for (decimals: 4, or 0 for a whole number)", where);
    if (!r->compute)
        return yr_fail_at(d, r->map, "%s is numeric without compute: say how libattn "
                          "computes its answer (e.g. compute: {op: weight, scores: [2, 1], "
                          "key: 0})", where);
    int k = q->decimals;
    char asks[32];
    snprintf(asks, sizeof asks, k == 0 ? "(a whole number" : k == 1 ? "(1 decimal"
             : "(%d decimals", k);
    if (!strstr(q->prompt, asks))
        return yr_fail_at(d, r->map, "%s asks for %d decimals, so its prompt says \"%s)\"",
                          where, k, asks);
    const char *dot = strchr(q->answer_text, '.');
    size_t shown = dot ? strlen(dot + 1) : 0;
    if ((int)shown != k)
        return yr_fail_at(d, r->answer, "the answer %s has %zu decimals; write it with the %d "
                          "the question asks for", q->answer_text, shown, k);
    double want;
    if (gr_drill_compute(d, r->compute, &want) != 0)
        return -1;
    const yaml_node_t *key = yr_value(d, r->compute, "key");
    long k0;
    if (key && yr_get_long(d, key, "key", &k0) == 0 && !names_key(q->prompt, k0))
        return yr_fail_at(d, key, "compute: asks about key %ld, but the prompt does not name "
                          "\"key %ld\"; keys count from 0, in the prompt as in compute:", k0, k0);
    if (!gr_drill_rounds_to(want, q->value, k))
        return yr_fail_at(d, r->answer, "the answer %s is not what compute: gives, %.*f "
                          "(%.8g at %d decimals)", q->answer_text, k, want, want, k);
    return 0;
}

/* The checks that need the whole question: what its kind needs, and nothing else. */
static int check_question(yr_doc *d, question_raw *r, const char *where)
{
    gr_drill_question *q = r->q;
    if (q->kind != GR_DRILL_CHOICE && reject_field(d, r, "choices", r->choices != NULL) != 0)
        return -1;
    if (q->kind != GR_DRILL_SHORT &&
        (reject_field(d, r, "accept", q->accept != NULL) != 0 ||
         reject_field(d, r, "handout", r->handout != NULL) != 0 ||
         reject_field(d, r, "hint", q->hint != NULL) != 0))
        return -1;
    if (q->kind != GR_DRILL_SHORT && q->kind != GR_DRILL_NUMERIC &&
        reject_field(d, r, "reject", r->reject != NULL) != 0)
        return -1;
    if (q->kind != GR_DRILL_NUMERIC &&
        (reject_field(d, r, "decimals", r->decimals != NULL) != 0 ||
         reject_field(d, r, "compute", r->compute != NULL) != 0))
        return -1;

    switch (q->kind) {
    case GR_DRILL_CHOICE:
        if (!r->choices)
            return yr_fail_at(d, r->map, "%s is a choice question without choices: add "
                              "choices: [...]", where);
        for (int i = 0; i < q->n_choices; i++)
            if (strcmp(q->answer_text, q->choices[i]) == 0) {
                q->answer = i;
                return 0;
            }
        return yr_fail_at(d, r->answer, "the answer \"%s\" is not among the choices; copy "
                          "the right choice's text exactly", q->answer_text);
    case GR_DRILL_TRUE_FALSE:
        if (strcmp(q->answer_text, "true") != 0 && strcmp(q->answer_text, "false") != 0)
            return yr_fail_at(d, r->answer, "a true_false answer is true or false, got \"%s\"",
                              q->answer_text);
        q->answer = strcmp(q->answer_text, "true") == 0;
        return 0;
    case GR_DRILL_SHORT:
        if (!r->reject)
            return yr_fail_at(d, r->map, "%s is a short question without reject: list "
                              "near-misses it must refuse (a negation, the wrong axis, ...)",
                              where);
        if (check_short_help(d, r, where) != 0)
            return -1;
        return check_rejects(d, r);
    case GR_DRILL_NUMERIC:
        if (check_numeric(d, r, where) != 0)
            return -1;
        if (!r->reject)
            return yr_fail_at(d, r->map, "%s is numeric without reject: list plausible wrong "
                              "answers it must refuse (the mask ignored, the wrong key, ...)",
                              where);
        return check_rejects(d, r);
    }
    return 0;
}

/* ---- the bank -------------------------------------------------------------------------- */

typedef struct bank_ctx {
    gr_drill_bank *b;
    const char *expect_name;    /* from the file name */
} bank_ctx;

static int rd_bank(yr_doc *d, const yaml_node_t *v, void *t)
{
    gr_drill_bank *b = t;
    bank_ctx *c = d->user;
    if (rd_text(d, v, "bank", &b->name) != 0)
        return -1;
    if (strcmp(b->name, c->expect_name) != 0)
        return yr_fail_at(d, v, "bank is \"%s\" but the file is %s.yaml; the two must agree "
                          "(--bank NAME finds the file)", b->name, c->expect_name);
    return 0;
}

static int rd_title(yr_doc *d, const yaml_node_t *v, void *t)
{
    return rd_text(d, v, "title", &((gr_drill_bank *)t)->title);
}

static int rd_questions(yr_doc *d, const yaml_node_t *v, void *t)
{
    gr_drill_bank *b = t;
    int n = 0;
    if (yr_get_seq(d, v, "questions", "[{id: ..., kind: ..., prompt: ...}]", &n) != 0)
        return -1;
    if (n == 0)
        return yr_fail_at(d, v, "questions is empty; a bank needs at least one question");
    b->q = gr_xcalloc((size_t)n, sizeof *b->q);
    for (int i = 0; i < n; i++) {
        const yaml_node_t *item = yr_item(d, v, i);
        question_raw r = { .q = &b->q[i], .map = item };
        char where[32];
        snprintf(where, sizeof where, "question %d", i + 1);
        b->n = i + 1;           /* calloc'd, so a failure part-way frees cleanly */
        if (!item)
            return yr_fail_at(d, v, "questions: the YAML document is damaged");
        if (yr_walk(d, item, where, where, question_fields, YR_N_FIELDS(question_fields), &r) != 0)
            return -1;
        if (check_question(d, &r, where) != 0)
            return -1;
        r.q->line = (int)yr_pos_of(item).line;
        for (int j = 0; j < i; j++)
            if (strcmp(b->q[j].id, r.q->id) == 0)
                return yr_fail_at(d, item, "two questions have the id %s (the other is on "
                                  "line %d)", r.q->id, b->q[j].line);
    }
    return 0;
}

static const yr_field bank_fields[] = {
    {"bank", 1, rd_bank},
    {"title", 1, rd_title},
    {"questions", 1, rd_questions},
};

/* The bank's name as its file name gives it: "data/drills/masks.yaml" -> "masks". */
static char *name_of_path(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t len = strlen(base);
    if (len > 5 && strcmp(base + len - 5, ".yaml") == 0)
        len -= 5;
    char *s = gr_xmalloc(len + 1);
    memcpy(s, base, len);
    s[len] = '\0';
    return s;
}

int gr_drill_parse(const char *path, const char *text, size_t len, gr_drill_bank *out,
                   char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    char *expect = name_of_path(path);
    bank_ctx c = { out, expect };
    const yr_spec spec = {
        "the bank", "the bank is empty; it needs bank:, title: and questions:",
        "a bank is one YAML document; remove this second one", bank_fields,
        YR_N_FIELDS(bank_fields), NULL, &c,
    };
    int rc = yr_load(path, text, len, &spec, out, err, errlen);
    if (rc == 0) {
        out->path = gr_xstrdup(path);
        /* Progress is kept by bank/id, unique across banks. */
        for (int i = 0; i < out->n; i++) {
            char *full = gr_xasprintf("%s/%s", out->name, out->q[i].id);
            free(out->q[i].id);
            out->q[i].id = full;
        }
    } else {
        gr_drill_bank_free(out);
    }
    free(expect);
    return rc;
}

int gr_drill_load(const char *path, gr_drill_bank *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    size_t len;
    char *text = gr_read_file(path, &len);
    if (!text) {
        gr_set_err(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    int rc = gr_drill_parse(path, text, len, out, err, errlen);
    free(text);
    return rc;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int gr_drill_load_dir(const char *dir, gr_drill_bank **banks, int *n, char *err, size_t errlen)
{
    *banks = NULL;
    *n = 0;
    DIR *dp = opendir(dir);
    if (!dp) {
        gr_set_err(err, errlen, "%s: cannot open the banks' folder: %s", dir, strerror(errno));
        return -1;
    }
    char **names = NULL;
    int m = 0;
    for (struct dirent *e; (e = readdir(dp)) != NULL;) {
        size_t len = strlen(e->d_name);
        if (len > 5 && e->d_name[0] != '.' && strcmp(e->d_name + len - 5, ".yaml") == 0) {
            names = gr_xrealloc(names, (size_t)(m + 1) * sizeof *names);
            names[m++] = gr_xstrdup(e->d_name);
        }
    }
    closedir(dp);
    qsort(names, (size_t)m, sizeof *names, cmp_str);
    gr_drill_bank *b = gr_xcalloc((size_t)m + 1, sizeof *b);
    int rc = 0;
    for (int i = 0; i < m && rc == 0; i++) {
        char *path = gr_xasprintf("%s/%s", dir, names[i]);
        rc = gr_drill_load(path, &b[i], err, errlen);
        free(path);
        if (rc == 0)
            *n = i + 1;
    }
    free_list(names, m);
    if (rc != 0) {
        gr_drill_banks_free(b, *n);
        *n = 0;
        return -1;
    }
    if (m == 0) {
        free(b);
        gr_set_err(err, errlen, "%s: no banks (*.yaml) in this folder", dir);
        return -1;
    }
    *banks = b;
    return 0;
}

