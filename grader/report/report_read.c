/* report_read.c: a results.json read back into a gr_report (see report.h).
 *
 * JSON is YAML's flow style, so the shared reader (lib/sup_yamlread.h) parses
 * it and reports file:line:column. The walk is lenient where the writer may
 * grow (keys it does not need are skipped) and strict where it reads: a test
 * needs its extra_data (lab, test, verdict), so a results.json from another
 * grader, or one cut short, is an error that names the place, never a
 * report with guessed grades.
 */
#include "report/report.h"
#include "layout.h"

#include <stdlib.h>
#include <string.h>

#include "digest.h"
#include "labmod.h"
#include "sup_yamlread.h"

/* The value of a key map must hold: 0 with *v, or -1 naming the key. */
static int need(yr_doc *d, const yaml_node_t *map, const char *key, const char *where,
                const yaml_node_t **v)
{
    *v = yr_value(d, map, key);
    if (!*v)
        return yr_fail_at(d, map, "%s has no \"%s\"; is this a results.json attnlab wrote?",
                          where, key);
    return 0;
}

/* A string a map must hold, copied. 0 or -1. */
static int need_string(yr_doc *d, const yaml_node_t *map, const char *key, const char *where,
                       char **out)
{
    const yaml_node_t *v;
    const char *s;
    if (need(d, map, key, where, &v) != 0 || yr_get_string(d, v, key, YR_MAY_BE_EMPTY, &s) != 0)
        return -1;
    *out = gr_xstrdup(s);
    return 0;
}

/* A number a map must hold. 0 or -1. */
static int need_number(yr_doc *d, const yaml_node_t *map, const char *key, const char *where,
                       double *out)
{
    const yaml_node_t *v;
    return need(d, map, key, where, &v) != 0 ? -1 : yr_get_double(d, v, key, out);
}

/* Free the strings of one test (not the struct). */
static void test_free(gr_test_result *t)
{
    free(t->name);
    free(t->message);
    free(t->misconception);
    free(t->student_output);
    free(t->feedback);
    free(t->digest);
    free(t->excerpt);
    free(t->relation);
}

/* The lab of report r numbered lab, added at the end when it is new. */
static gr_lab_result *lab_of(gr_report *r, int lab)
{
    for (int i = 0; i < r->n_labs; i++)
        if (r->labs[i].lab == lab)
            return &r->labs[i];
    r->labs = gr_xrealloc(r->labs, (size_t)(r->n_labs + 1) * sizeof *r->labs);
    gr_lab_result *l = &r->labs[r->n_labs++];
    memset(l, 0, sizeof *l);
    l->lab = lab;
    return l;
}

/* Optional string key of x, cut to max bytes (at a UTF-8 boundary), or NULL. */
static char *optional_string(yr_doc *d, const yaml_node_t *x, const char *key, size_t max)
{
    const yaml_node_t *v = yr_value(d, x, key);
    const char *s;
    if (!v || yr_is_null(v) || yr_get_string(d, v, key, YR_MAY_BE_EMPTY, &s) != 0)
        return NULL;
    size_t n = strlen(s);
    if (n > max)
        for (n = max; n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80; n--)
            ;
    return gr_xasprintf("%.*s", (int)n, s);
}

/* The digest, excerpt and relation of an uncatalogued mistake (digest.h),
   when x holds a well-formed digest; anything else there is left out. */
static void read_cluster_fields(yr_doc *d, const yaml_node_t *x, gr_test_result *t)
{
    char *digest = optional_string(d, x, "digest", GR_DIGEST_HEX + 1);
    if (!digest || strlen(digest) != GR_DIGEST_HEX ||
        strspn(digest, "0123456789abcdef") != GR_DIGEST_HEX) {
        free(digest);
        return;
    }
    t->digest = digest;
    t->excerpt = optional_string(d, x, "excerpt", GR_EXCERPT_MAX);
    t->relation = optional_string(d, x, "relation", GR_EXCERPT_MAX);
}

/* The test's extra_data into t, and its lab number into *lab. 0 or -1. */
static int read_extra(yr_doc *d, const yaml_node_t *x, const char *where, gr_test_result *t,
                      long *lab)
{
    const yaml_node_t *v;
    const char *s;
    if (need(d, x, "lab", where, &v) != 0 || yr_get_long(d, v, "lab", lab) != 0)
        return -1;
    if (*lab < 1 || *lab > GR_N_LABS)
        return yr_fail_at(d, v, "lab must be 1 to %d, got %ld", GR_N_LABS, *lab);
    if (need_string(d, x, "test", where, &t->name) != 0)
        return -1;
    if (need(d, x, "verdict", where, &v) != 0 || yr_get_string(d, v, "verdict", YR_NONEMPTY, &s) != 0)
        return -1;
    int vd = gr_result_verdict_from_name(s);
    if (vd < 0)
        return yr_fail_at(d, v, "unknown verdict \"%s\"", s);
    t->verdict = (gr_verdict)vd;
    v = yr_value(d, x, "misconception");
    if (v && !yr_is_null(v)) {
        if (yr_get_string(d, v, "misconception", YR_NONEMPTY, &s) != 0)
            return -1;
        t->misconception = gr_xstrdup(s);
    }
    read_cluster_fields(d, x, t);
    return 0;
}

/* A visibility's name ("hidden") into *vis. 0 or -1. */
static int read_visibility(yr_doc *d, const yaml_node_t *v, gr_visibility *vis)
{
    const char *s;
    if (yr_get_string(d, v, "visibility", YR_NONEMPTY, &s) != 0)
        return -1;
    for (int k = GR_VISIBLE; k < GR_VISIBILITY_COUNT; k++)
        if (strcmp(s, gr_rubric_visibility_name((gr_visibility)k)) == 0) {
            *vis = (gr_visibility)k;
            return 0;
        }
    return yr_fail_at(d, v, "unknown visibility \"%s\"", s);
}

/* Test object number i (0-based) of the file into its lab of r. 0 or -1. */
static int read_test(yr_doc *d, const yaml_node_t *obj, int i, gr_report *r)
{
    char where[32];
    snprintf(where, sizeof where, "test %d", i + 1);
    if (!obj || obj->type != YAML_MAPPING_NODE)
        return yr_fail_at(d, obj, "%s: expected a test object, got %s", where,
                          obj ? yr_kind_name(obj) : "nothing");
    gr_test_result t;
    memset(&t, 0, sizeof t);
    const yaml_node_t *x, *v;
    long lab = 0;
    int rc = need(d, obj, "extra_data", where, &x);
    if (rc == 0 && yr_value(d, x, "grade"))
        return 0;                 /* the grade's entry (report_json.c), no test */
    if (rc == 0)
        rc = read_extra(d, x, where, &t, &lab);
    if (rc == 0)
        rc = need_number(d, obj, "score", where, &t.score);
    if (rc == 0)
        rc = need_number(d, obj, "max_score", where, &t.max_score);
    if (rc == 0)
        rc = need_string(d, obj, "output", where, &t.feedback);
    if (rc == 0 && (v = yr_value(d, obj, "visibility")) != NULL)
        rc = read_visibility(d, v, &t.visibility);
    gr_lab_result *l = NULL;
    if (rc == 0) {
        l = lab_of(r, (int)lab);
        if (!l->name) {
            /* "lab01-scores: dot_worked_example": the lab's name before ": " */
            char *full = NULL;
            rc = need_string(d, obj, "name", where, &full);
            const char *colon = full ? strstr(full, ": ") : NULL;
            l->name = colon ? gr_xasprintf("%.*s", (int)(colon - full), full)
                            : gr_xstrdup(gr_layout_dir(lab));
            free(full);
        }
    }
    if (rc != 0) {
        test_free(&t);
        return -1;
    }
    l->tests = gr_xrealloc(l->tests, (size_t)(l->n_tests + 1) * sizeof *l->tests);
    t.number = i + 1;
    l->tests[l->n_tests++] = t;
    l->score += t.score;
    l->max_score += t.max_score;
    r->score += t.score;
    r->max_score += t.max_score;
    return 0;
}

/* A regrade's text, at most 1000 bytes kept: the file is the instructor's,
   but an edited one must not make every later report huge. */
static char *bounded(const char *s)
{
    return strlen(s) > 1000 ? gr_xasprintf("%.1000s...", s) : gr_xstrdup(s);
}

/* A regrade's score: a number, or null (*has 0). 0 or -1. */
static int read_score(yr_doc *d, const yaml_node_t *map, const char *key, int *has, double *x)
{
    const yaml_node_t *v = yr_value(d, map, key);
    *has = v && !yr_is_null(v);
    return *has ? yr_get_double(d, v, key, x) : 0;
}

/* One entry of extra_data's "regrades" (report.h) into g. 0 or -1. */
static int read_regrade(yr_doc *d, const yaml_node_t *m, gr_regrade *g)
{
    const yaml_node_t *v;
    const char *s;
    long lab = 0;
    if (!m || m->type != YAML_MAPPING_NODE)
        return yr_fail_at(d, m, "regrades: expected {when, lab, test, old, new, reason}");
    if (need(d, m, "lab", "a regrade", &v) != 0 || yr_get_long(d, v, "lab", &lab) != 0)
        return -1;
    if (lab < 1 || lab > GR_N_LABS)
        return yr_fail_at(d, v, "lab must be 1 to %d, got %ld", GR_N_LABS, lab);
    g->lab = (int)lab;
    static const char *const keys[] = {"when", "test", "reason"};
    char **out[] = {&g->when, &g->test, &g->reason};
    for (int k = 0; k < 3; k++) {
        if (need(d, m, keys[k], "a regrade", &v) != 0 ||
            yr_get_string(d, v, keys[k], YR_MAY_BE_EMPTY, &s) != 0)
            return -1;
        *out[k] = bounded(s);
    }
    if ((v = yr_value(d, m, "change")) && !yr_is_null(v)) {
        if (yr_get_string(d, v, "change", YR_MAY_BE_EMPTY, &s) != 0)
            return -1;
        g->change = bounded(s);
    }
    if (read_score(d, m, "old", &g->has_old, &g->old_score) != 0 ||
        read_score(d, m, "new", &g->has_new, &g->new_score) != 0)
        return -1;
    return 0;
}

/* extra_data's "regrades" into r, at most 10,000 of them. 0 or -1. */
static int read_regrades(yr_doc *d, const yaml_node_t *v, gr_report *r)
{
    int n = 0;
    if (yr_get_seq(d, v, "regrades", "[{when: ..., lab: 1, test: ..., ...}]", &n) != 0)
        return -1;
    if (n > 10000)
        return yr_fail_at(d, v, "regrades: %d entries, more than the 10000 attnlab keeps", n);
    r->regrades = gr_xcalloc((size_t)n + 1, sizeof *r->regrades);
    for (int i = 0; i < n; i++) {
        int rc = read_regrade(d, yr_item(d, v, i), &r->regrades[i]);
        r->n_regrades++;          /* freed with the report, whole or not */
        if (rc != 0)
            return -1;
    }
    return 0;
}

/* The document's root into r. 0 or -1. */
static int read_results(yr_doc *d, const yaml_node_t *root, void *target)
{
    gr_report *r = target;
    if (!root || root->type != YAML_MAPPING_NODE)
        return yr_fail(d, "not a results.json: expected one JSON object");
    const yaml_node_t *x, *tests, *v;
    const char *s;
    if (need(d, root, "extra_data", "the results", &x) != 0 ||
        need_string(d, x, "student", "extra_data", &r->student) != 0)
        return -1;
    if ((v = yr_value(d, x, "toolchain_confinement")) && yr_get_string(d, v, "toolchain_confinement", YR_MAY_BE_EMPTY, &s) == 0)
        r->confinement = gr_xstrdup(s);
    if ((v = yr_value(d, x, "test_sandbox")) && yr_get_string(d, v, "test_sandbox", YR_MAY_BE_EMPTY, &s) == 0)
        r->sandbox = gr_xstrdup(s);
    if ((v = yr_value(d, root, "execution_time")) && yr_get_double(d, v, "execution_time", &r->seconds) != 0)
        return -1;
    if ((v = yr_value(d, x, "regrades")) && read_regrades(d, v, r) != 0)
        return -1;
    int n = 0;
    if (need(d, root, "tests", "the results", &tests) != 0 ||
        yr_get_seq(d, tests, "tests", "[{...}, {...}]", &n) != 0)
        return -1;
    for (int i = 0; i < n; i++)
        if (read_test(d, yr_item(d, tests, i), i, r) != 0)
            return -1;
    return 0;
}

int gr_report_read_json(const char *path, gr_report *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    static const yr_spec spec = {"the results", NULL, NULL, NULL, 0, read_results, NULL};
    int rc = yr_load_file(path, &spec, out, err, errlen);
    if (rc != 0)
        gr_result_free(out);
    return rc;
}

/* ---- merging a regrade ------------------------------------------------------ */

/* A copy of test t of lab, its feedback composed now (it may quote the lab's
   compiler output, which the lab it joins does not hold). */
static gr_test_result copy_test(const gr_lab_result *lab, const gr_test_result *t)
{
    gr_test_result c = *t;
    c.name = gr_xstrdup(t->name);
    c.message = t->message ? gr_xstrdup(t->message) : NULL;
    c.misconception = t->misconception ? gr_xstrdup(t->misconception) : NULL;
    c.student_output = t->student_output ? gr_xstrdup(t->student_output) : NULL;
    c.digest = t->digest ? gr_xstrdup(t->digest) : NULL;
    c.excerpt = t->excerpt ? gr_xstrdup(t->excerpt) : NULL;
    c.relation = t->relation ? gr_xstrdup(t->relation) : NULL;
    c.feedback = gr_report_text_feedback(lab, t);
    return c;
}

void gr_report_read_merge(gr_report *into, const gr_report *from)
{
    for (int i = 0; i < from->n_labs; i++) {
        const gr_lab_result *fl = &from->labs[i];
        gr_lab_result *l = lab_of(into, fl->lab);
        if (!l->name)
            l->name = gr_xstrdup(fl->name);
        for (int j = 0; j < fl->n_tests; j++) {
            int k = 0;
            while (k < l->n_tests && strcmp(l->tests[k].name, fl->tests[j].name) != 0)
                k++;
            if (k == l->n_tests) {
                l->tests = gr_xrealloc(l->tests, (size_t)(l->n_tests + 1) * sizeof *l->tests);
                l->n_tests++;
            } else {
                test_free(&l->tests[k]);
            }
            l->tests[k] = copy_test(fl, &fl->tests[j]);
        }
    }
    /* totals and numbers again, lab by lab, as the grading loop makes them */
    int number = 0;
    into->score = into->max_score = 0;
    for (int i = 0; i < into->n_labs; i++) {
        gr_lab_result *l = &into->labs[i];
        l->score = l->max_score = 0;
        for (int j = 0; j < l->n_tests; j++) {
            l->tests[j].number = ++number;
            l->score += l->tests[j].score;
            l->max_score += l->tests[j].max_score;
        }
        into->score += l->score;
        into->max_score += l->max_score;
    }
}
