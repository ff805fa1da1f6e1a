/* rubric.c: load and check a lab's rubric (see rubric.h for the format).
 *
 * The file is read whole, parsed by libyaml into one document (a tree of
 * scalar, sequence and mapping nodes), and the tree is walked into a
 * gr_rubric with the shared reader (lib/sup_yamlread.h). Each mapping is
 * walked against a table of the keys it may hold; a key not in the table is
 * an error, with the nearest known key suggested when it looks like a typo.
 * The names in sizes and params are checked the same way, against the
 * course's names (param_names below) and the lab's own (its param_names key). Scalars become numbers only through
 * strtol or strtod with the end pointer checked, so "2ms" or "two" is an
 * error, never 2 or 0. The first problem stops the load and is reported as
 * "path:line:column: what is wrong".
 */
#include "base/rubric.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sup_yamlread.h"
#include "base/util.h"

/* Defaults for a lab whose rubric gives no limits or a test with no tolerance. */
#define DEFAULT_TIME_MS      2000L
#define DEFAULT_MEMORY_BYTES (64L * 1024 * 1024)
#define DEFAULT_OUTPUT_BYTES (64L * 1024)
#define DEFAULT_ABS_TOL      1e-5
#define DEFAULT_REL_TOL      1e-5
#define LIMIT_UNSET          (-1L)     /* a test limit the lab default fills in */

/* What the handlers share beyond the document: which test is being read. */
typedef struct rb_ctx {
    int test_no;                        /* 1-based index of the test being read */
    const yaml_node_t *test_name_node;  /* where its name was written */
    gr_rubric *r;                       /* the rubric: its param_names, read before its tests */
} rb_ctx;

static int is_identifier(const char *s)
{
    if (!(isalpha((unsigned char)*s) || *s == '_'))
        return 0;
    for (; *s; s++)
        if (!(isalnum((unsigned char)*s) || *s == '_'))
            return 0;
    return 1;
}

static int has_control(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            return 1;
    return 0;
}

/* ---- limits ------------------------------------------------------------------ */

/* A positive limit in unit, stored as value * scale (bytes for mb and kb). */
static int read_limit(yr_doc *d, const yaml_node_t *v, const char *label, const char *unit,
                      long scale, long *out)
{
    long x = 0;
    if (yr_get_long(d, v, label, &x) != 0)
        return -1;
    if (x <= 0)
        return yr_fail_at(d, v, "%s: must be a positive number of %s, got %ld", label, unit, x);
    if (x > LONG_MAX / scale)
        return yr_fail_at(d, v, "%s: %ld %s is too large", label, x, unit);
    *out = x * scale;
    return 0;
}

static int rd_time_ms(yr_doc *d, const yaml_node_t *v, void *t)
{
    long *ms = &((gr_limits *)t)->time_ms;
    if (read_limit(d, v, "limits.time_ms", "milliseconds", 1, ms) != 0)
        return -1;
    if (*ms < GR_TIME_MS_FLOOR)
        return yr_fail_at(d, v, "limits.time_ms: %ld ms is below the floor of %ld ms: a test's "
                          "time covers starting its program as well as the call, on a machine "
                          "other jobs share, so a correct solution would fail on a busy one "
                          "(the course's labs give 2000 ms)", *ms, GR_TIME_MS_FLOOR);
    return 0;
}

static int rd_memory_mb(yr_doc *d, const yaml_node_t *v, void *t)
{
    return read_limit(d, v, "limits.memory_mb", "MiB", 1024L * 1024,
                      &((gr_limits *)t)->memory_bytes);
}

static int rd_output_kb(yr_doc *d, const yaml_node_t *v, void *t)
{
    return read_limit(d, v, "limits.output_kb", "KiB", 1024L, &((gr_limits *)t)->output_bytes);
}

static const yr_field limit_fields[] = {
    {"time_ms", 0, rd_time_ms},
    {"memory_mb", 0, rd_memory_mb},
    {"output_kb", 0, rd_output_kb},
};

static int read_limits(yr_doc *d, const yaml_node_t *v, gr_limits *lim, const char *where)
{
    return yr_walk(d, v, "limits", where, limit_fields, YR_N_FIELDS(limit_fields), lim);
}

/* ---- one test ------------------------------------------------------------------ */

static int rd_test_name(yr_doc *d, const yaml_node_t *v, void *target)
{
    gr_rubric_test *t = target;
    const char *s;
    if (yr_get_string(d, v, "name", YR_NONEMPTY, &s) != 0)
        return -1;
    if (has_control(s) || isspace((unsigned char)s[0]) || isspace((unsigned char)s[strlen(s) - 1]))
        return yr_fail_at(d, v, "name: \"%s\" has control characters or surrounding spaces; "
                       "use a plain name like dot_worked_example", s);
    t->name = gr_xstrdup(s);
    ((rb_ctx *)d->user)->test_name_node = v;
    return 0;
}

static int rd_kind(yr_doc *d, const yaml_node_t *v, void *target)
{
    gr_rubric_test *t = target;
    const char *s;
    if (yr_get_string(d, v, "kind", YR_NONEMPTY, &s) != 0)
        return -1;
    if (has_control(s))
        return yr_fail_at(d, v, "kind: has control characters; use the generator's name, like dot");
    t->kind = gr_xstrdup(s);
    return 0;
}

static int rd_points(yr_doc *d, const yaml_node_t *v, void *target)
{
    gr_rubric_test *t = target;
    if (yr_get_double(d, v, "points", &t->points) != 0)
        return -1;
    if (t->points < 0 || t->points > 1e6)
        return yr_fail_at(d, v, "points: must be 0 to 1000000, got %s", yr_text(v));
    /* thousandths at most: then every sum and late-penalised score is shown
       exactly (cells.h's gr_points_snap) */
    if (fabs(t->points * 1000 - nearbyint(t->points * 1000)) > 1e-6)
        return yr_fail_at(d, v, "points: at most three decimals (a multiple of 0.001), got %s",
                          yr_text(v));
    return 0;
}

static int rd_visibility(yr_doc *d, const yaml_node_t *v, void *target)
{
    gr_rubric_test *t = target;
    const char *s;
    if (yr_get_string(d, v, "visibility", YR_NONEMPTY, &s) != 0)
        return -1;
    for (int i = GR_VISIBLE; i < GR_VISIBILITY_COUNT; i++)
        if (strcmp(s, gr_rubric_visibility_name((gr_visibility)i)) == 0) {
            t->visibility = (gr_visibility)i;
            return 0;
        }
    return yr_fail_at(d, v, "visibility: \"%s\" is not one of visible, hidden, after_due_date, "
                      "after_published", s);
}

/* The course's size and param names, read by the generators of labs 1 to 10
   and the shared ones (gr_rubric_test_param, gr_test_int) and documented in
   the README's table and the man page: a name in a rubric's sizes or params
   must be one of them or one its lab declares (param_names:), so a typo is an
   error instead of a value nobody reads. A new lab declares its own names in
   its manifest and edits nothing here (gr_rubric_test_param stops on a name
   neither lists). */
static const char *const param_names[] = {
    "B", "H", "H_max", "H_min", "Hkv", "T", "Tk", "Tq", "b", "bad", "bad_pad", "batch",
    "bidirectional", "bottom_right", "bytes", "causal", "d", "density", "descending", "dk", "dk_max",
    "dk_min", "doubling_pads", "dq", "dropout", "dv", "empty", "empty_rows", "extra", "h",
    "inplace", "integers", "low", "low_rows", "mask_frac", "masked", "masked_rows", "max_distance", "max_pad",
    "n", "n_dk", "n_pads", "no_sink", "nonpow2", "num_buckets", "odd", "p", "p_tie",
    "pad_score", "q_scale", "range", "row_max", "rows", "scale", "seed", "shift", "sink_scale",
    "sink_shift", "tau", "tau_special", "tile", "trials", "window", "worked", "wscale",
};
#define N_PARAM_NAMES ((int)(sizeof param_names / sizeof *param_names))

static int is_param_name(const char *s)
{
    for (int i = 0; i < N_PARAM_NAMES; i++)
        if (strcmp(param_names[i], s) == 0)
            return 1;
    return 0;
}

static int is_own_name(const gr_param_name *own, int n_own, const char *s)
{
    for (int i = 0; i < n_own; i++)
        if (strcmp(own[i].name, s) == 0)
            return 1;
    return 0;
}

/* "unknown key" at k, the nearest of the course's and the lab's names suggested. */
static int unknown_name(yr_doc *d, const yaml_node_t *k, const char *section, const gr_rubric *r)
{
    const char *all[N_PARAM_NAMES + GR_MAX_OWN_NAMES];
    int n = 0;
    for (int i = 0; i < N_PARAM_NAMES; i++)
        all[n++] = param_names[i];
    for (int i = 0; i < r->n_own; i++)
        all[n++] = r->own[i].name;
    return yr_unknown_key(d, k, section, all, n);
}

int gr_rubric_param_known(const char *name)
{
    return name && is_param_name(name);
}

/* One value of sizes (whole) or params (real) into t's list of named values. */
static int read_value(yr_doc *d, const yaml_node_t *k, const yaml_node_t *v,
                      gr_rubric_test *t, int whole, const char *section)
{
    const char *name = yr_text(k);
    if (!is_identifier(name))
        return yr_fail_at(d, k, "%s: \"%s\" is not a name; use letters, digits and '_'",
                          section, name);
    const gr_rubric *r = ((rb_ctx *)d->user)->r;
    if (!is_param_name(name) && !is_own_name(r->own, r->n_own, name))
        return unknown_name(d, k, section, r);
    for (int i = 0; i < t->n_params; i++)
        if (strcmp(t->params[i].key, name) == 0)
            return yr_fail_at(d, k, "%s: \"%s\" is already given in %s; a name can appear once",
                              section, name, whole ? "params" : "sizes");
    if (t->n_params == GR_MAX_PARAMS)
        return yr_fail_at(d, k, "%s: \"%s\" is one value too many; sizes and params of a "
                          "test hold at most %d values together", section, name, GR_MAX_PARAMS);
    char label[96];
    snprintf(label, sizeof label, "%s.%s", section, name);
    double x = 0;
    if (whole) {
        long n = 0;
        if (yr_get_long(d, v, label, &n) != 0)
            return -1;
        x = (double)n;
    } else if (yr_get_double(d, v, label, &x) != 0) {
        return -1;
    }
    t->params[t->n_params].key = gr_xstrdup(name);
    t->params[t->n_params].value = x;
    t->n_params++;
    return 0;
}

/* sizes (whole numbers) and params (reals) share one list of named values. */
static int read_values(yr_doc *d, const yaml_node_t *map, gr_rubric_test *t, int whole,
                       const char *section)
{
    if (map->type != YAML_MAPPING_NODE)
        return yr_fail_at(d, map, "%s: expected a mapping like {B: 2, Tq: 3}, got %s",
                          section, yr_kind_name(map));
    for (const yaml_node_pair_t *p = map->data.mapping.pairs.start;
         p < map->data.mapping.pairs.top; p++) {
        const yaml_node_t *k;
        if (yr_key(d, map, p, section, &k) != 0 ||
            read_value(d, k, yr_node(d, p->value), t, whole, section) != 0)
            return -1;
    }
    return 0;
}

static int rd_sizes(yr_doc *d, const yaml_node_t *v, void *t)
{
    return read_values(d, v, t, 1, "sizes");
}

static int rd_params(yr_doc *d, const yaml_node_t *v, void *t)
{
    return read_values(d, v, t, 0, "params");
}

static int read_tol(yr_doc *d, const yaml_node_t *v, const char *label, double *out)
{
    if (yr_get_double(d, v, label, out) != 0)
        return -1;
    if (*out < 0)
        return yr_fail_at(d, v, "%s: must be 0 or more, got %s", label, yr_text(v));
    return 0;
}

static int rd_abs(yr_doc *d, const yaml_node_t *v, void *t)
{
    return read_tol(d, v, "tolerance.abs", &((gr_rubric_test *)t)->abs_tol);
}

static int rd_rel(yr_doc *d, const yaml_node_t *v, void *t)
{
    return read_tol(d, v, "tolerance.rel", &((gr_rubric_test *)t)->rel_tol);
}

static const yr_field tolerance_fields[] = {
    {"abs", 0, rd_abs},
    {"rel", 0, rd_rel},
};

static int rd_tolerance(yr_doc *d, const yaml_node_t *v, void *t)
{
    return yr_walk(d, v, "tolerance", "tolerance", tolerance_fields,
                   YR_N_FIELDS(tolerance_fields), t);
}

static int rd_test_limits(yr_doc *d, const yaml_node_t *v, void *target)
{
    char where[48];
    snprintf(where, sizeof where, "the limits of test %d", ((rb_ctx *)d->user)->test_no);
    return read_limits(d, v, &((gr_rubric_test *)target)->limits, where);
}

static const yr_field test_fields[] = {
    {"name", 1, rd_test_name},
    {"kind", 1, rd_kind},
    {"points", 1, rd_points},
    {"visibility", 0, rd_visibility},
    {"sizes", 0, rd_sizes},
    {"params", 0, rd_params},
    {"tolerance", 0, rd_tolerance},
    {"limits", 0, rd_test_limits},
};

/* ---- the rubric -------------------------------------------------------------------- */

static int rd_lab(yr_doc *d, const yaml_node_t *v, void *target)
{
    gr_rubric *r = target;
    long lab = 0;
    if (yr_get_long(d, v, "lab", &lab) != 0)
        return -1;
    if (lab < 1 || lab > 99)
        return yr_fail_at(d, v, "lab: must be a lab number from 1 to 99, got %ld", lab);
    r->lab = (int)lab;
    return 0;
}

static int rd_lab_name(yr_doc *d, const yaml_node_t *v, void *target)
{
    gr_rubric *r = target;
    const char *s;
    if (yr_get_string(d, v, "name", YR_NONEMPTY, &s) != 0)
        return -1;
    for (const char *p = s; *p; p++)
        if (!(isalnum((unsigned char)*p) || *p == '-' || *p == '_'))
            return yr_fail_at(d, v, "name: \"%s\" cannot name the lab's folder labs/labNN-%s; "
                           "use letters, digits, '-' and '_'", s, s);
    r->name = gr_xstrdup(s);
    return 0;
}

static int rd_budget(yr_doc *d, const yaml_node_t *v, void *target)
{
    return read_limit(d, v, "budget_s", "seconds", 1, &((gr_rubric *)target)->budget_s);
}

static int rd_source(yr_doc *d, const yaml_node_t *v, void *target)
{
    gr_rubric *r = target;
    const char *s;
    if (yr_get_string(d, v, "source", YR_NONEMPTY, &s) != 0)
        return -1;
    size_t n = strlen(s);
    if (strchr(s, '/') || s[0] == '.' || n < 3 || strcmp(s + n - 2, ".c") != 0 || has_control(s))
        return yr_fail_at(d, v, "source: must be the name of one C file in the lab folder, "
                       "like lab01.c, got \"%s\"", s);
    r->source = gr_xstrdup(s);
    return 0;
}

/* A list of words; check says what is wrong with one, or NULL when it is fine. */
static int read_list(yr_doc *d, const yaml_node_t *v, const char *label,
                     const char *(*check)(const char *), char ***items, int *n)
{
    int count = 0;
    if (yr_get_seq(d, v, label, "[a, b]", &count) != 0)
        return -1;
    *items = gr_xcalloc((size_t)count, sizeof **items);
    *n = count;     /* calloc'd, so a failure part-way frees cleanly */
    for (int i = 0; i < count; i++) {
        const yaml_node_t *item = yr_item(d, v, i);
        const char *s;
        if (!item)
            return yr_fail_at(d, v, "%s: the YAML document is damaged", label);
        if (yr_get_string(d, item, label, YR_NONEMPTY, &s) != 0)
            return -1;
        const char *why = check(s);
        if (why)
            return yr_fail_at(d, item, "%s: \"%s\" %s", label, s, why);
        (*items)[i] = gr_xstrdup(s);
    }
    return 0;
}

static const char *check_header(const char *s)
{
    for (const char *p = s; *p; p++)
        if (isspace((unsigned char)*p) || *p == '"' || *p == '<' || *p == '>' ||
            (unsigned char)*p < 0x20)
            return "is not a header name; write it bare, like math.h";
    return NULL;
}

static const char *check_symbol(const char *s)
{
    return is_identifier(s) ? NULL : "is not a C function or variable name";
}

static int rd_headers(yr_doc *d, const yaml_node_t *v, void *target)
{
    gr_rubric *r = target;
    return read_list(d, v, "allowed_headers", check_header, &r->allowed_headers, &r->n_headers);
}

static int rd_symbols(yr_doc *d, const yaml_node_t *v, void *target)
{
    gr_rubric *r = target;
    return read_list(d, v, "allowed_symbols", check_symbol, &r->allowed_symbols, &r->n_symbols);
}

static int rd_lab_limits(yr_doc *d, const yaml_node_t *v, void *target)
{
    return read_limits(d, v, &((gr_rubric *)target)->limits, "limits");
}

/* Test i (0-based) of the list, item, into t: the defaults, then what is written. */
static int read_test(yr_doc *d, const yaml_node_t *item, int i, gr_rubric_test *t)
{
    rb_ctx *c = d->user;
    t->visibility = GR_VISIBLE;
    t->abs_tol = DEFAULT_ABS_TOL;
    t->rel_tol = DEFAULT_REL_TOL;
    t->limits.time_ms = t->limits.memory_bytes = t->limits.output_bytes = LIMIT_UNSET;
    t->line = (int)yr_pos_of(item).line;
    t->own = c->r->own;
    t->n_own = c->r->n_own;
    c->test_no = i + 1;
    c->test_name_node = NULL;

    char where[32];
    snprintf(where, sizeof where, "test %d", i + 1);
    if (item->type != YAML_MAPPING_NODE)
        return yr_fail_at(d, item, "tests: test %d must be a mapping with name, kind and "
                          "points, got %s", i + 1, yr_kind_name(item));
    return yr_walk(d, item, where, where, test_fields, YR_N_FIELDS(test_fields), t);
}

static int rd_tests(yr_doc *d, const yaml_node_t *v, void *target)
{
    gr_rubric *r = target;
    if (v->type != YAML_SEQUENCE_NODE)
        return yr_fail_at(d, v, "tests: expected a list of tests (lines starting with '- '), "
                          "got %s", yr_kind_name(v));
    int count = yr_count(v);
    if (count == 0)
        return yr_fail_at(d, v, "tests: the list is empty; a rubric needs at least one test");
    r->tests = gr_xcalloc((size_t)count, sizeof *r->tests);
    r->n_tests = count;     /* calloc'd, so a failure part-way frees cleanly */
    for (int i = 0; i < count; i++) {
        const yaml_node_t *item = yr_item(d, v, i);
        gr_rubric_test *t = &r->tests[i];
        if (!item)
            return yr_fail_at(d, v, "tests: the YAML document is damaged (test %d has no node)",
                              i + 1);
        if (read_test(d, item, i, t) != 0)
            return -1;
        for (int j = 0; j < i; j++)
            if (strcmp(r->tests[j].name, t->name) == 0)
                return yr_fail_at(d, ((rb_ctx *)d->user)->test_name_node,
                                  "duplicate test name \"%s\" (first used by the test on line "
                                  "%d); test names must be unique in a lab",
                                  t->name, r->tests[j].line);
    }
    return 0;
}

/* One name the lab declares: a C name the course does not have, and one line. */
static int read_own_name(yr_doc *d, const yaml_node_t *k, const yaml_node_t *v, gr_rubric *r)
{
    const char *name = yr_text(k), *what;
    if (!is_identifier(name))
        return yr_fail_at(d, k, "param_names: \"%s\" is not a name; use letters, digits "
                          "and '_'", name);
    if (is_param_name(name))
        return yr_fail_at(d, k, "param_names: \"%s\" is one of the course's names (the "
                          "README's table of sizes and params); every lab may use it as it "
                          "is, so declare only names of the lab's own", name);
    if (r->n_own == GR_MAX_OWN_NAMES)
        return yr_fail_at(d, k, "param_names: \"%s\" is one name too many; a lab declares "
                          "at most %d", name, GR_MAX_OWN_NAMES);
    if (yr_get_string(d, v, "param_names", YR_NONEMPTY, &what) != 0)
        return -1;
    if (strchr(what, '\n') || has_control(what))
        return yr_fail_at(d, v, "param_names: what %s does is one line of text", name);
    r->own[r->n_own].name = gr_xstrdup(name);
    r->own[r->n_own].what = gr_xstrdup(what);
    r->n_own++;
    return 0;
}

/* param_names: {name: what it does, ...}, the sizes and params only this lab's
   generators read; before tests, which are checked against them. */
static int rd_param_names(yr_doc *d, const yaml_node_t *v, void *target)
{
    gr_rubric *r = target;
    if (r->tests)
        return yr_fail_at(d, v, "param_names: must come before tests, which use the names");
    if (v->type != YAML_MAPPING_NODE)
        return yr_fail_at(d, v, "param_names: expected a mapping like {base: what it does}, "
                          "got %s", yr_kind_name(v));
    r->own = gr_xcalloc(GR_MAX_OWN_NAMES, sizeof *r->own);
    for (const yaml_node_pair_t *p = v->data.mapping.pairs.start;
         p < v->data.mapping.pairs.top; p++) {
        const yaml_node_t *k;
        if (yr_key(d, v, p, "param_names", &k) != 0 ||
            read_own_name(d, k, yr_node(d, p->value), r) != 0)
            return -1;
    }
    return 0;
}

/* The rest of the lab's manifest (dir, title, functions) is read and checked at
   build time (grader/tools/manifest.c), which makes the grader's tables from it. */
static int rd_manifest(yr_doc *d, const yaml_node_t *v, void *target)
{
    (void)d, (void)v, (void)target;
    return 0;
}

static const yr_field rubric_fields[] = {
    {"lab", 1, rd_lab},
    {"name", 1, rd_lab_name},
    {"dir", 0, rd_manifest},
    {"title", 0, rd_manifest},
    {"source", 1, rd_source},
    {"functions", 0, rd_manifest},
    {"param_names", 0, rd_param_names},
    {"allowed_headers", 0, rd_headers},
    {"allowed_symbols", 0, rd_symbols},
    {"limits", 0, rd_lab_limits},
    {"budget_s", 0, rd_budget},
    {"tests", 1, rd_tests},
};

/* ---- loading ------------------------------------------------------------------------- */

int gr_rubric_load(const char *path, gr_rubric *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (err && errlen)
        err[0] = '\0';
    size_t len;
    char *buf = gr_read_file(path, &len);
    if (!buf) {
        gr_set_err(err, errlen, "%s: cannot read the rubric: %s", path, strerror(errno));
        return -1;
    }
    int rc = gr_rubric_parse(path, buf, len, out, err, errlen);
    free(buf);
    return rc;
}

/* A test's limits override the lab's key by key: fill in the keys it left out. */
static void inherit_limits(gr_rubric *r)
{
    for (int i = 0; i < r->n_tests; i++) {
        gr_limits *l = &r->tests[i].limits;
        if (l->time_ms == LIMIT_UNSET) l->time_ms = r->limits.time_ms;
        if (l->memory_bytes == LIMIT_UNSET) l->memory_bytes = r->limits.memory_bytes;
        if (l->output_bytes == LIMIT_UNSET) l->output_bytes = r->limits.output_bytes;
    }
}

int gr_rubric_parse(const char *path, const char *buf, size_t len, gr_rubric *out,
                    char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    gr_rubric r;
    memset(&r, 0, sizeof r);
    r.path = gr_xstrdup(path);
    r.limits.time_ms = DEFAULT_TIME_MS;
    r.limits.memory_bytes = DEFAULT_MEMORY_BYTES;
    r.limits.output_bytes = DEFAULT_OUTPUT_BYTES;
    r.budget_s = GR_DEFAULT_BUDGET_S;

    rb_ctx c = {0, NULL, &r};
    /* exactly one document: a second "---" is probably a pasting accident */
    const yr_spec spec = {
        "the rubric", "the rubric is empty; it needs lab, name, source and tests",
        "a rubric is one YAML document; remove this second one", rubric_fields,
        YR_N_FIELDS(rubric_fields), NULL, &c,
    };
    int rc = yr_load(path, buf, len, &spec, &r, err, errlen);
    if (rc == 0) {
        inherit_limits(&r);
        *out = r;
    } else {
        gr_rubric_free(&r);
    }
    return rc;
}

void gr_rubric_free(gr_rubric *r)
{
    if (!r)
        return;
    free(r->path);
    free(r->name);
    free(r->source);
    for (int i = 0; i < r->n_headers && r->allowed_headers; i++)
        free(r->allowed_headers[i]);
    free(r->allowed_headers);
    for (int i = 0; i < r->n_symbols && r->allowed_symbols; i++)
        free(r->allowed_symbols[i]);
    free(r->allowed_symbols);
    for (int i = 0; i < r->n_tests && r->tests; i++) {
        gr_rubric_test *t = &r->tests[i];
        free(t->name);
        free(t->kind);
        for (int k = 0; k < t->n_params; k++)
            free(t->params[k].key);
    }
    free(r->tests);
    for (int i = 0; i < r->n_own; i++) {
        free(r->own[i].name);
        free(r->own[i].what);
    }
    free(r->own);
    memset(r, 0, sizeof *r);
}

void gr_rubric_keep_visible(gr_rubric *r)
{
    int kept = 0;
    for (int i = 0; i < r->n_tests; i++) {
        gr_rubric_test *t = &r->tests[i];
        if (t->visibility == GR_VISIBLE) {
            r->tests[kept++] = *t;
            continue;
        }
        free(t->name);
        free(t->kind);
        for (int k = 0; k < t->n_params; k++)
            free(t->params[k].key);
    }
    r->n_tests = kept;
}

double gr_rubric_test_param(const gr_rubric_test *t, const char *key, double dflt)
{
    /* a rubric can never give a name the loader rejects: reading one is a grader bug */
    if (!is_param_name(key) && !is_own_name(t->own, t->n_own, key)) {
        fprintf(stderr, "attnlab: internal error: a test generator reads \"%s\", which is "
                "neither a course name (grader/base/rubric.c) nor in the lab's param_names; "
                "declare it in the lab's manifest (data/rubrics/labNN.yaml)\n", key);
        abort();
    }
    for (int i = 0; i < t->n_params; i++)
        if (strcmp(t->params[i].key, key) == 0)
            return t->params[i].value;
    return dflt;
}

const char *gr_rubric_visibility_name(gr_visibility v)
{
    switch (v) {
    case GR_VISIBLE:        return "visible";
    case GR_HIDDEN:         return "hidden";
    case GR_AFTER_DUE_DATE: return "after_due_date";
    case GR_AFTER_PUBLISHED: return "after_published";
    case GR_VISIBILITY_COUNT: break;
    }
    return "visible";
}

int gr_rubric_visibility_shown(gr_visibility v, int moment)
{
    switch (v) {
    case GR_VISIBLE:         return 1;
    case GR_AFTER_DUE_DATE:  return (moment & GR_SHOWN_DUE_PASSED) != 0;
    case GR_AFTER_PUBLISHED: return (moment & GR_SHOWN_PUBLISHED) != 0;
    case GR_HIDDEN:
    case GR_VISIBILITY_COUNT: break;
    }
    return 0;
}
