/* report_read.c: a results.json read back into a gr_report (see report.h).
 *
 * Read with Jansson, the library that wrote it (json.h): whatever the
 * writer put in a string (a student's folder name, a compiler's message) is
 * read back. The walk is lenient where the writer may grow (keys it does not
 * need are skipped) and strict where it reads: a test needs its extra_data
 * (lab, test, verdict), so a results.json from another grader, or one cut
 * short, is an error that names the file and the place, never a report with
 * guessed grades.
 */
#include "report/report.h"
#include "base/layout.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "engine/digest.h"
#include "engine/json.h"
#include "base/labmod.h"

/* The file being read and where its first error goes. */
typedef struct rd {
    const char *path;
    char *err;
    size_t errlen;
} rd;

/* Record "path: WHERE: what" and return -1. */
__attribute__((format(printf, 2, 3)))
static int fail(rd *d, const char *fmt, ...)
{
    char what[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    gr_set_err(d->err, d->errlen, "%s: %s", d->path, what);
    return -1;
}

/* The value of key in map, which must hold it: the value, or NULL with err. */
static json_t *need(rd *d, json_t *map, const char *key, const char *where)
{
    json_t *v = json_object_get(map, key);
    if (!v)
        fail(d, "%s has no \"%s\"; is this a results.json attnlab wrote?", where, key);
    return v;
}

/* A string a map must hold, copied. 0 or -1. */
static int need_string(rd *d, json_t *map, const char *key, const char *where, char **out)
{
    json_t *v = need(d, map, key, where);
    if (!v)
        return -1;
    if (!json_is_string(v))
        return fail(d, "%s: \"%s\" must be a string", where, key);
    *out = gr_xstrdup(json_string_value(v));
    return 0;
}

/* A number a map must hold. 0 or -1. */
static int need_number(rd *d, json_t *map, const char *key, const char *where, double *out)
{
    json_t *v = need(d, map, key, where);
    if (!v)
        return -1;
    if (!json_is_number(v))
        return fail(d, "%s: \"%s\" must be a number", where, key);
    *out = json_number_value(v);
    return 0;
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
static char *optional_string(json_t *x, const char *key, size_t max)
{
    const char *s = json_string_value(json_object_get(x, key));
    if (!s)
        return NULL;
    size_t n = strlen(s);
    if (n > max)
        for (n = max; n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80; n--)
            ;
    return gr_xasprintf("%.*s", (int)n, s);
}

/* The digest, excerpt and relation of an uncatalogued mistake (digest.h),
   when x holds a well-formed digest; anything else there is left out. */
static void read_cluster_fields(json_t *x, gr_test_result *t)
{
    char *digest = optional_string(x, "digest", GR_DIGEST_HEX + 1);
    if (!digest || strlen(digest) != GR_DIGEST_HEX ||
        strspn(digest, "0123456789abcdef") != GR_DIGEST_HEX) {
        free(digest);
        return;
    }
    t->digest = digest;
    t->excerpt = optional_string(x, "excerpt", GR_EXCERPT_MAX);
    t->relation = optional_string(x, "relation", GR_EXCERPT_MAX);
}

/* A lab number a map must hold, 1 to GR_N_LABS. 0 or -1. */
static int need_lab(rd *d, json_t *map, const char *where, long *lab)
{
    json_t *v = need(d, map, "lab", where);
    if (!v)
        return -1;
    if (!json_is_integer(v))
        return fail(d, "%s: lab must be 1 to %d, a whole number", where, GR_N_LABS);
    if (json_integer_value(v) < 1 || json_integer_value(v) > GR_N_LABS)
        return fail(d, "%s: lab must be 1 to %d, got %lld", where, GR_N_LABS,
                    (long long)json_integer_value(v));
    *lab = (long)json_integer_value(v);
    return 0;
}

/* The test's extra_data into t, and its lab number into *lab. 0 or -1. */
static int read_extra(rd *d, json_t *x, const char *where, gr_test_result *t, long *lab)
{
    char *verdict = NULL;
    if (need_lab(d, x, where, lab) != 0 || need_string(d, x, "test", where, &t->name) != 0 ||
        need_string(d, x, "verdict", where, &verdict) != 0)
        return -1;
    int vd = gr_result_verdict_from_name(verdict);
    if (vd < 0) {
        char *clean = gr_json_utf8_clean(verdict);
        fail(d, "%s: unknown verdict \"%.40s\"", where, clean);
        free(clean);
    }
    free(verdict);
    if (vd < 0)
        return -1;
    t->verdict = (gr_verdict)vd;
    json_t *m = json_object_get(x, "misconception");
    if (m && !json_is_null(m)) {
        if (!json_is_string(m) || !*json_string_value(m))
            return fail(d, "%s: misconception must be a name or null", where);
        t->misconception = gr_xstrdup(json_string_value(m));
    }
    read_cluster_fields(x, t);
    return 0;
}

/* A visibility's name ("hidden") into *vis. 0 or -1. */
static int read_visibility(rd *d, json_t *v, const char *where, gr_visibility *vis)
{
    const char *s = json_string_value(v);
    for (int k = GR_VISIBLE; s && k < GR_VISIBILITY_COUNT; k++)
        if (strcmp(s, gr_rubric_visibility_name((gr_visibility)k)) == 0) {
            *vis = (gr_visibility)k;
            return 0;
        }
    return fail(d, "%s: unknown visibility", where);
}

/* The lab's name from the test's "lab01-scores: dot_worked_example". */
static int read_lab_name(rd *d, json_t *obj, const char *where, gr_lab_result *l)
{
    char *full = NULL;
    if (need_string(d, obj, "name", where, &full) != 0)
        return -1;
    const char *colon = strstr(full, ": ");
    l->name = colon ? gr_xasprintf("%.*s", (int)(colon - full), full)
                    : gr_xstrdup(gr_layout_dir(l->lab));
    free(full);
    return 0;
}

/* The fields of test object obj into t and its lab number. 0 or -1. */
static int read_test_fields(rd *d, json_t *obj, const char *where, gr_test_result *t, long *lab)
{
    json_t *x = need(d, obj, "extra_data", where), *v;
    if (!x || read_extra(d, x, where, t, lab) != 0 ||
        need_number(d, obj, "score", where, &t->score) != 0 ||
        need_number(d, obj, "max_score", where, &t->max_score) != 0 ||
        need_string(d, obj, "output", where, &t->feedback) != 0)
        return -1;
    if ((v = json_object_get(obj, "visibility")) != NULL)
        return read_visibility(d, v, where, &t->visibility);
    return 0;
}

/* Test object number i (0-based) of the file into its lab of r. 0 or -1. */
static int read_test(rd *d, json_t *obj, int i, gr_report *r)
{
    char where[32];
    snprintf(where, sizeof where, "test %d", i + 1);
    if (!json_is_object(obj))
        return fail(d, "%s: expected a test object", where);
    if (json_object_get(json_object_get(obj, "extra_data"), "grade"))
        return 0;                 /* the grade's entry (report_json.c), no test */
    gr_test_result t;
    memset(&t, 0, sizeof t);
    long lab = 0;
    int rc = read_test_fields(d, obj, where, &t, &lab);
    gr_lab_result *l = rc == 0 ? lab_of(r, (int)lab) : NULL;
    if (l && !l->name)
        rc = read_lab_name(d, obj, where, l);
    if (rc != 0) {
        gr_result_test_free(&t);
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
static int read_score(rd *d, json_t *map, const char *key, int *has, double *x)
{
    json_t *v = json_object_get(map, key);
    *has = v && !json_is_null(v);
    if (!*has)
        return 0;
    if (!json_is_number(v))
        return fail(d, "a regrade: \"%s\" must be a number or null", key);
    *x = json_number_value(v);
    return 0;
}

/* One entry of extra_data's "regrades" (report.h) into g. 0 or -1. */
static int read_regrade(rd *d, json_t *m, gr_regrade *g)
{
    long lab = 0;
    if (!json_is_object(m))
        return fail(d, "regrades: expected {when, lab, test, old, new, reason}");
    if (need_lab(d, m, "a regrade", &lab) != 0)
        return -1;
    g->lab = (int)lab;
    static const char *const keys[] = {"when", "test", "reason"};
    char **out[] = {&g->when, &g->test, &g->reason};
    for (int k = 0; k < 3; k++) {
        char *s = NULL;
        if (need_string(d, m, keys[k], "a regrade", &s) != 0)
            return -1;
        *out[k] = bounded(s);
        free(s);
    }
    const char *change = json_string_value(json_object_get(m, "change"));
    if (change)
        g->change = bounded(change);
    if (read_score(d, m, "old", &g->has_old, &g->old_score) != 0 ||
        read_score(d, m, "new", &g->has_new, &g->new_score) != 0)
        return -1;
    return 0;
}

/* extra_data's "regrades" into r, at most 10,000 of them. 0 or -1. */
static int read_regrades(rd *d, json_t *v, gr_report *r)
{
    if (!json_is_array(v))
        return fail(d, "regrades: expected [{when: ..., lab: 1, test: ..., ...}]");
    size_t n = json_array_size(v);
    if (n > 10000)
        return fail(d, "regrades: %zu entries, more than the 10000 attnlab keeps", n);
    r->regrades = gr_xcalloc(n + 1, sizeof *r->regrades);
    for (size_t i = 0; i < n; i++) {
        int rc = read_regrade(d, json_array_get(v, i), &r->regrades[i]);
        r->n_regrades++;          /* freed with the report, whole or not */
        if (rc != 0)
            return -1;
    }
    return 0;
}


/* The document's root into r. 0 or -1. */
static int read_results(rd *d, json_t *root, gr_report *r)
{
    if (!json_is_object(root))
        return fail(d, "not a results.json: expected one JSON object");
    json_t *x = need(d, root, "extra_data", "the results"), *tests, *v;
    if (!x || need_string(d, x, "student", "extra_data", &r->student) != 0)
        return -1;
    r->confinement = optional_string(x, "toolchain_confinement", SIZE_MAX);
    r->sandbox = optional_string(x, "test_sandbox", SIZE_MAX);
    if ((v = json_object_get(root, "execution_time")) != NULL) {
        if (!json_is_number(v))
            return fail(d, "execution_time must be a number");
        r->seconds = json_number_value(v);
    }
    if ((v = json_object_get(x, "regrades")) != NULL && read_regrades(d, v, r) != 0)
        return -1;
    if (!(tests = need(d, root, "tests", "the results")))
        return -1;
    if (!json_is_array(tests))
        return fail(d, "tests: expected [{...}, {...}]");
    for (size_t i = 0; i < json_array_size(tests); i++)
        if (read_test(d, json_array_get(tests, i), (int)i, r) != 0)
            return -1;
    return 0;
}

/* root (taken) into out. 0, or -1 with err naming path. */
static int read_root(const char *path, json_t *root, gr_report *out, char *err, size_t errlen)
{
    rd d = {path, err, errlen};
    int rc = read_results(&d, root, out);
    json_decref(root);
    if (rc != 0)
        gr_result_free(out);
    return rc;
}

int gr_report_read_json(const char *path, gr_report *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    json_t *root = gr_json_load(path, GR_RESULTS_MAX, err, errlen);
    return root ? read_root(path, root, out, err, errlen) : -1;
}

int gr_report_parse_json(const char *name, const char *text, size_t len, gr_report *out,
                         char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    json_t *root = gr_json_parse(name, text, len, err, errlen);
    return root ? read_root(name, root, out, err, errlen) : -1;
}

int gr_report_is_of(const gr_report *r, const char *id)
{
    char *clean = gr_json_utf8_clean(id);
    int same = r->student && strcmp(r->student, clean) == 0;
    free(clean);
    return same;
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
                gr_result_test_free(&l->tests[k]);
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
