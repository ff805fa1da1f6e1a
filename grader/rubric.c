/* rubric.c: load and check a lab's rubric (see rubric.h for the format).
 *
 * The file is read whole, parsed by libyaml into one document (a tree of
 * scalar, sequence and mapping nodes), and the tree is walked into a
 * gr_rubric. Each mapping is walked against a table of the keys it may hold;
 * a key not in the table is an error, with the nearest known key suggested
 * when it looks like a typo. Scalars become numbers only through strtol or
 * strtod with the end pointer checked, so "2ms" or "two" is an error, never 2
 * or 0. The first problem stops the load and is reported as
 * "path:line:column: what is wrong", the position taken from the node's
 * start_mark (libyaml counts from 0, people count from 1).
 */
#include "rubric.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "util.h"

/* Defaults for a lab whose rubric gives no limits or a test with no tolerance. */
#define DEFAULT_TIME_MS      2000L
#define DEFAULT_MEMORY_BYTES (64L * 1024 * 1024)
#define DEFAULT_OUTPUT_BYTES (64L * 1024)
#define DEFAULT_ABS_TOL      1e-5
#define DEFAULT_REL_TOL      1e-5
#define LIMIT_UNSET          (-1L)     /* a test limit the lab default fills in */

typedef struct rb_ctx {
    const char *path;
    yaml_document_t *doc;
    char *err;
    size_t errlen;
    gr_rubric *r;
    int test_no;                        /* 1-based index of the test being read */
    const yaml_node_t *test_name_node;  /* where its name was written */
} rb_ctx;

/* ---- errors ------------------------------------------------------------- */

__attribute__((format(printf, 4, 0)))
static int vfail(rb_ctx *c, size_t line, size_t col, const char *fmt, va_list ap)
{
    if (!c->err || c->errlen == 0)
        return -1;
    int k = snprintf(c->err, c->errlen, "%s:%zu:%zu: ", c->path, line + 1, col + 1);
    if (k >= 0 && (size_t)k < c->errlen)
        vsnprintf(c->err + k, c->errlen - (size_t)k, fmt, ap);
    return -1;
}

/* Report fmt at zero-based (line, col); returns -1 so callers can `return fail..`. */
__attribute__((format(printf, 4, 5)))
static int fail_mark(rb_ctx *c, size_t line, size_t col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(c, line, col, fmt, ap);
    va_end(ap);
    return -1;
}

/* Report fmt at the start of node n. */
__attribute__((format(printf, 3, 4)))
static int fail_at(rb_ctx *c, const yaml_node_t *n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(c, n->start_mark.line, n->start_mark.column, fmt, ap);
    va_end(ap);
    return -1;
}

/* ---- nodes and scalars ------------------------------------------------------ */

static const yaml_node_t *node(rb_ctx *c, int index)
{
    return yaml_document_get_node(c->doc, index);
}

static const char *text(const yaml_node_t *n)
{
    return (const char *)n->data.scalar.value;
}

/* How a node looks to the person who wrote it, for "expected X, got Y". */
static const char *kind_name(const yaml_node_t *n)
{
    switch (n->type) {
    case YAML_SEQUENCE_NODE: return "a list";
    case YAML_MAPPING_NODE:  return "a mapping (key: value lines)";
    default:                 return "a single value";
    }
}

static int is_quoted(const yaml_node_t *n)
{
    return n->data.scalar.style == YAML_SINGLE_QUOTED_SCALAR_STYLE ||
           n->data.scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE;
}

/* `key:` with nothing after it, `key: ~` or `key: null`. */
static int is_null(const yaml_node_t *n)
{
    if (n->type != YAML_SCALAR_NODE)
        return 0;
    if (n->data.scalar.length == 0)
        return 1;
    if (n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
        return 0;
    const char *s = text(n);
    return !strcmp(s, "~") || !strcmp(s, "null") || !strcmp(s, "Null") || !strcmp(s, "NULL");
}

/* A scalar that must be text: non-empty, no NUL byte inside. Not copied. */
static int want_text(rb_ctx *c, const yaml_node_t *v, const char *label, const char **out)
{
    if (v->type != YAML_SCALAR_NODE)
        return fail_at(c, v, "%s: expected text, got %s", label, kind_name(v));
    if (is_null(v))
        return fail_at(c, v, "%s: has no value; write it after the colon", label);
    if (strlen(text(v)) != v->data.scalar.length)
        return fail_at(c, v, "%s: contains a NUL character; remove it", label);
    *out = text(v);
    return 0;
}

/* Common checks of a scalar that must be a number; what names the kind wanted. */
static int want_number_text(rb_ctx *c, const yaml_node_t *v, const char *label,
                            const char *what)
{
    if (v->type != YAML_SCALAR_NODE)
        return fail_at(c, v, "%s: expected %s, got %s", label, what, kind_name(v));
    if (is_null(v))
        return fail_at(c, v, "%s: has no value; give %s", label, what);
    if (is_quoted(v))
        return fail_at(c, v, "%s: expected %s, got the quoted text \"%s\"; remove the quotes",
                       label, what, text(v));
    return 0;
}

static int want_long(rb_ctx *c, const yaml_node_t *v, const char *label, long *out)
{
    if (want_number_text(c, v, label, "a whole number") != 0)
        return -1;
    const char *s = text(v);
    char *end;
    errno = 0;
    long x = strtol(s, &end, 10);
    if (end == s || *end != '\0' || isspace((unsigned char)s[0]))
        return fail_at(c, v, "%s: expected a whole number, got \"%s\"", label, s);
    if (errno == ERANGE)
        return fail_at(c, v, "%s: %s is too large", label, s);
    *out = x;
    return 0;
}

static int want_double(rb_ctx *c, const yaml_node_t *v, const char *label, double *out)
{
    if (want_number_text(c, v, label, "a number") != 0)
        return -1;
    const char *s = text(v);
    char *end;
    errno = 0;
    double x = strtod(s, &end);
    if (end == s || *end != '\0' || isspace((unsigned char)s[0]))
        return fail_at(c, v, "%s: expected a number, got \"%s\"", label, s);
    if (!isfinite(x) || (errno == ERANGE && fabs(x) > 1.0))
        return fail_at(c, v, "%s: must be a finite number, got \"%s\"", label, s);
    *out = x;
    return 0;
}

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

/* ---- key tables ------------------------------------------------------------- */

/* A handler reads the value v of one known key into target. */
typedef int (*rb_handler)(rb_ctx *c, const yaml_node_t *v, void *target);

typedef struct rb_field {
    const char *key;
    int required;
    rb_handler read;
} rb_field;

/* The known key an unknown one was probably meant to be, or NULL. */
static const char *nearest_key(const char *unknown, const rb_field *fields, int n)
{
    const char *best = NULL;
    int best_d = 1000;
    size_t lu = strlen(unknown);
    for (int i = 0; i < n; i++) {
        size_t lk = strlen(fields[i].key);
        int d = gr_edit_distance(unknown, fields[i].key);
        int close = d <= (lk <= 4 ? 1 : 2);
        /* "memory" for "memory_mb", "time" for "time_ms" */
        if (!close && lu >= 3 && lu < lk && strncmp(fields[i].key, unknown, lu) == 0)
            close = 1, d = (int)(lk - lu);
        if (close && d < best_d)
            best = fields[i].key, best_d = d;
    }
    return best;
}

/* The key node of an earlier pair of map whose key text is name, or NULL. */
static const yaml_node_t *earlier_key(rb_ctx *c, const yaml_node_t *map,
                                      const yaml_node_pair_t *upto, const char *name)
{
    for (const yaml_node_pair_t *p = map->data.mapping.pairs.start; p < upto; p++) {
        const yaml_node_t *k = node(c, p->key);
        if (k && k->type == YAML_SCALAR_NODE && strcmp(text(k), name) == 0)
            return k;
    }
    return NULL;
}

/* The key of one pair, which must be a plain scalar. */
static int pair_key(rb_ctx *c, const yaml_node_t *map, const yaml_node_pair_t *p,
                    const char *where, const yaml_node_t **key)
{
    const yaml_node_t *k = node(c, p->key);
    if (k->type != YAML_SCALAR_NODE)
        return fail_at(c, k, "a key in %s must be a plain word, got %s", where, kind_name(k));
    if (k->data.scalar.length == 0 || strlen(text(k)) != k->data.scalar.length)
        return fail_at(c, k, "a key in %s is empty; write a name before the colon", where);
    const yaml_node_t *first = earlier_key(c, map, p, text(k));
    if (first)
        return fail_at(c, k, "duplicate key \"%s\" in %s (first given on line %zu); keep one",
                       text(k), where, first->start_mark.line + 1);
    *key = k;
    return 0;
}

/* Walk mapping map against fields: every key known, none twice, every required
   key present. where names the mapping in messages ("the rubric", "test 2"). */
static int walk_mapping(rb_ctx *c, const yaml_node_t *map, const char *label,
                        const char *where, const rb_field *fields, int n_fields,
                        void *target)
{
    if (map->type != YAML_MAPPING_NODE)
        return fail_at(c, map, "%s: expected a mapping (key: value lines), got %s",
                       label, kind_name(map));
    for (const yaml_node_pair_t *p = map->data.mapping.pairs.start;
         p < map->data.mapping.pairs.top; p++) {
        const yaml_node_t *k;
        if (pair_key(c, map, p, where, &k) != 0)
            return -1;
        int f = 0;
        while (f < n_fields && strcmp(fields[f].key, text(k)) != 0)
            f++;
        if (f == n_fields) {
            const char *near = nearest_key(text(k), fields, n_fields);
            if (near)
                return fail_at(c, k, "unknown key \"%s\" in %s; did you mean \"%s\"?",
                               text(k), where, near);
            gr_strbuf known = {0};
            for (int i = 0; i < n_fields; i++)
                gr_sb_printf(&known, "%s%s", i ? ", " : "", fields[i].key);
            fail_at(c, k, "unknown key \"%s\" in %s; the known keys are %s",
                    text(k), where, known.s);
            free(known.s);
            return -1;
        }
        if (fields[f].read(c, node(c, p->value), target) != 0)
            return -1;
    }
    for (int f = 0; f < n_fields; f++) {
        if (!fields[f].required)
            continue;
        const yaml_node_pair_t *top = map->data.mapping.pairs.top;
        if (!earlier_key(c, map, top, fields[f].key))
            return fail_at(c, map, "%s is missing the required key \"%s\"", where, fields[f].key);
    }
    return 0;
}

/* ---- limits ------------------------------------------------------------------ */

/* A positive limit in unit, stored as value * scale (bytes for mb and kb). */
static int read_limit(rb_ctx *c, const yaml_node_t *v, const char *label, const char *unit,
                      long scale, long *out)
{
    long x = 0;
    if (want_long(c, v, label, &x) != 0)
        return -1;
    if (x <= 0)
        return fail_at(c, v, "%s: must be a positive number of %s, got %ld", label, unit, x);
    if (x > LONG_MAX / scale)
        return fail_at(c, v, "%s: %ld %s is too large", label, x, unit);
    *out = x * scale;
    return 0;
}

static int rd_time_ms(rb_ctx *c, const yaml_node_t *v, void *t)
{
    return read_limit(c, v, "limits.time_ms", "milliseconds", 1, &((gr_limits *)t)->time_ms);
}

static int rd_memory_mb(rb_ctx *c, const yaml_node_t *v, void *t)
{
    return read_limit(c, v, "limits.memory_mb", "MiB", 1024L * 1024,
                      &((gr_limits *)t)->memory_bytes);
}

static int rd_output_kb(rb_ctx *c, const yaml_node_t *v, void *t)
{
    return read_limit(c, v, "limits.output_kb", "KiB", 1024L, &((gr_limits *)t)->output_bytes);
}

static const rb_field limit_fields[] = {
    {"time_ms", 0, rd_time_ms},
    {"memory_mb", 0, rd_memory_mb},
    {"output_kb", 0, rd_output_kb},
};

static int read_limits(rb_ctx *c, const yaml_node_t *v, gr_limits *lim, const char *where)
{
    return walk_mapping(c, v, "limits", where, limit_fields,
                        (int)(sizeof limit_fields / sizeof *limit_fields), lim);
}

/* ---- one test ------------------------------------------------------------------ */

static int rd_test_name(rb_ctx *c, const yaml_node_t *v, void *target)
{
    gr_rubric_test *t = target;
    const char *s;
    if (want_text(c, v, "name", &s) != 0)
        return -1;
    if (has_control(s) || isspace((unsigned char)s[0]) || isspace((unsigned char)s[strlen(s) - 1]))
        return fail_at(c, v, "name: \"%s\" has control characters or surrounding spaces; "
                       "use a plain name like dot_worked_example", s);
    t->name = gr_xstrdup(s);
    c->test_name_node = v;
    return 0;
}

static int rd_kind(rb_ctx *c, const yaml_node_t *v, void *target)
{
    gr_rubric_test *t = target;
    const char *s;
    if (want_text(c, v, "kind", &s) != 0)
        return -1;
    if (has_control(s))
        return fail_at(c, v, "kind: has control characters; use the generator's name, like dot");
    t->kind = gr_xstrdup(s);
    return 0;
}

static int rd_points(rb_ctx *c, const yaml_node_t *v, void *target)
{
    gr_rubric_test *t = target;
    if (want_double(c, v, "points", &t->points) != 0)
        return -1;
    if (t->points < 0)
        return fail_at(c, v, "points: must be 0 or more, got %s", text(v));
    return 0;
}

static int rd_visibility(rb_ctx *c, const yaml_node_t *v, void *target)
{
    gr_rubric_test *t = target;
    const char *s;
    if (want_text(c, v, "visibility", &s) != 0)
        return -1;
    for (int i = GR_VISIBLE; i <= GR_AFTER_DUE_DATE; i++)
        if (strcmp(s, gr_visibility_name((gr_visibility)i)) == 0) {
            t->visibility = (gr_visibility)i;
            return 0;
        }
    return fail_at(c, v, "visibility: \"%s\" is not one of visible, hidden, after_due_date", s);
}

/* sizes (whole numbers) and params (reals) share one list of named values. */
static int read_values(rb_ctx *c, const yaml_node_t *map, gr_rubric_test *t, int whole,
                       const char *section)
{
    if (map->type != YAML_MAPPING_NODE)
        return fail_at(c, map, "%s: expected a mapping like {B: 2, Tq: 3}, got %s",
                       section, kind_name(map));
    for (const yaml_node_pair_t *p = map->data.mapping.pairs.start;
         p < map->data.mapping.pairs.top; p++) {
        const yaml_node_t *k;
        if (pair_key(c, map, p, section, &k) != 0)
            return -1;
        const char *name = text(k);
        if (!is_identifier(name))
            return fail_at(c, k, "%s: \"%s\" is not a name; use letters, digits and '_'",
                           section, name);
        for (int i = 0; i < t->n_params; i++)
            if (strcmp(t->params[i].key, name) == 0)
                return fail_at(c, k, "%s: \"%s\" is already given in %s; a name can appear once",
                               section, name, whole ? "params" : "sizes");
        if (t->n_params == GR_MAX_PARAMS)
            return fail_at(c, k, "%s: \"%s\" is one value too many; sizes and params of a "
                           "test hold at most %d values together", section, name, GR_MAX_PARAMS);
        char label[96];
        snprintf(label, sizeof label, "%s.%s", section, name);
        const yaml_node_t *v = node(c, p->value);
        double x = 0;
        if (whole) {
            long n = 0;
            if (want_long(c, v, label, &n) != 0)
                return -1;
            x = (double)n;
        } else if (want_double(c, v, label, &x) != 0) {
            return -1;
        }
        t->params[t->n_params].key = gr_xstrdup(name);
        t->params[t->n_params].value = x;
        t->n_params++;
    }
    return 0;
}

static int rd_sizes(rb_ctx *c, const yaml_node_t *v, void *t)
{
    return read_values(c, v, t, 1, "sizes");
}

static int rd_params(rb_ctx *c, const yaml_node_t *v, void *t)
{
    return read_values(c, v, t, 0, "params");
}

static int read_tol(rb_ctx *c, const yaml_node_t *v, const char *label, double *out)
{
    if (want_double(c, v, label, out) != 0)
        return -1;
    if (*out < 0)
        return fail_at(c, v, "%s: must be 0 or more, got %s", label, text(v));
    return 0;
}

static int rd_abs(rb_ctx *c, const yaml_node_t *v, void *t)
{
    return read_tol(c, v, "tolerance.abs", &((gr_rubric_test *)t)->abs_tol);
}

static int rd_rel(rb_ctx *c, const yaml_node_t *v, void *t)
{
    return read_tol(c, v, "tolerance.rel", &((gr_rubric_test *)t)->rel_tol);
}

static const rb_field tolerance_fields[] = {
    {"abs", 0, rd_abs},
    {"rel", 0, rd_rel},
};

static int rd_tolerance(rb_ctx *c, const yaml_node_t *v, void *t)
{
    return walk_mapping(c, v, "tolerance", "tolerance", tolerance_fields,
                        (int)(sizeof tolerance_fields / sizeof *tolerance_fields), t);
}

static int rd_test_limits(rb_ctx *c, const yaml_node_t *v, void *target)
{
    char where[48];
    snprintf(where, sizeof where, "the limits of test %d", c->test_no);
    return read_limits(c, v, &((gr_rubric_test *)target)->limits, where);
}

static const rb_field test_fields[] = {
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

static int rd_lab(rb_ctx *c, const yaml_node_t *v, void *target)
{
    gr_rubric *r = target;
    long lab = 0;
    if (want_long(c, v, "lab", &lab) != 0)
        return -1;
    if (lab < 1 || lab > 99)
        return fail_at(c, v, "lab: must be a lab number from 1 to 99, got %ld", lab);
    r->lab = (int)lab;
    return 0;
}

static int rd_lab_name(rb_ctx *c, const yaml_node_t *v, void *target)
{
    gr_rubric *r = target;
    const char *s;
    if (want_text(c, v, "name", &s) != 0)
        return -1;
    for (const char *p = s; *p; p++)
        if (!(isalnum((unsigned char)*p) || *p == '-' || *p == '_'))
            return fail_at(c, v, "name: \"%s\" cannot name the lab's folder labs/labNN-%s; "
                           "use letters, digits, '-' and '_'", s, s);
    r->name = gr_xstrdup(s);
    return 0;
}

static int rd_source(rb_ctx *c, const yaml_node_t *v, void *target)
{
    gr_rubric *r = target;
    const char *s;
    if (want_text(c, v, "source", &s) != 0)
        return -1;
    size_t n = strlen(s);
    if (strchr(s, '/') || s[0] == '.' || n < 3 || strcmp(s + n - 2, ".c") != 0 || has_control(s))
        return fail_at(c, v, "source: must be the name of one C file in the lab folder, "
                       "like lab01.c, got \"%s\"", s);
    r->source = gr_xstrdup(s);
    return 0;
}

/* A list of words; check says what is wrong with one, or NULL when it is fine. */
static int read_list(rb_ctx *c, const yaml_node_t *v, const char *label,
                     const char *(*check)(const char *), char ***items, int *n)
{
    if (v->type != YAML_SEQUENCE_NODE)
        return fail_at(c, v, "%s: expected a list like [a, b], got %s", label, kind_name(v));
    int count = (int)(v->data.sequence.items.top - v->data.sequence.items.start);
    *items = gr_xcalloc((size_t)count, sizeof **items);
    *n = count;     /* calloc'd, so a failure part-way frees cleanly */
    for (int i = 0; i < count; i++) {
        const yaml_node_t *item = node(c, v->data.sequence.items.start[i]);
        const char *s;
        if (want_text(c, item, label, &s) != 0)
            return -1;
        const char *why = check(s);
        if (why)
            return fail_at(c, item, "%s: \"%s\" %s", label, s, why);
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

static int rd_headers(rb_ctx *c, const yaml_node_t *v, void *target)
{
    gr_rubric *r = target;
    return read_list(c, v, "allowed_headers", check_header, &r->allowed_headers, &r->n_headers);
}

static int rd_symbols(rb_ctx *c, const yaml_node_t *v, void *target)
{
    gr_rubric *r = target;
    return read_list(c, v, "allowed_symbols", check_symbol, &r->allowed_symbols, &r->n_symbols);
}

static int rd_lab_limits(rb_ctx *c, const yaml_node_t *v, void *target)
{
    return read_limits(c, v, &((gr_rubric *)target)->limits, "limits");
}

static int rd_tests(rb_ctx *c, const yaml_node_t *v, void *target)
{
    gr_rubric *r = target;
    if (v->type != YAML_SEQUENCE_NODE)
        return fail_at(c, v, "tests: expected a list of tests (lines starting with '- '), got %s",
                       kind_name(v));
    int count = (int)(v->data.sequence.items.top - v->data.sequence.items.start);
    if (count == 0)
        return fail_at(c, v, "tests: the list is empty; a rubric needs at least one test");
    r->tests = gr_xcalloc((size_t)count, sizeof *r->tests);
    r->n_tests = count;     /* calloc'd, so a failure part-way frees cleanly */
    for (int i = 0; i < count; i++) {
        const yaml_node_t *item = node(c, v->data.sequence.items.start[i]);
        gr_rubric_test *t = &r->tests[i];
        t->visibility = GR_VISIBLE;
        t->abs_tol = DEFAULT_ABS_TOL;
        t->rel_tol = DEFAULT_REL_TOL;
        t->limits.time_ms = t->limits.memory_bytes = t->limits.output_bytes = LIMIT_UNSET;
        t->line = (int)item->start_mark.line + 1;
        c->test_no = i + 1;
        c->test_name_node = NULL;

        char where[32];
        snprintf(where, sizeof where, "test %d", i + 1);
        if (item->type != YAML_MAPPING_NODE)
            return fail_at(c, item, "tests: test %d must be a mapping with name, kind and "
                           "points, got %s", i + 1, kind_name(item));
        if (walk_mapping(c, item, where, where, test_fields,
                         (int)(sizeof test_fields / sizeof *test_fields), t) != 0)
            return -1;
        for (int j = 0; j < i; j++)
            if (strcmp(r->tests[j].name, t->name) == 0)
                return fail_at(c, c->test_name_node, "duplicate test name \"%s\" (first used "
                               "by the test on line %d); test names must be unique in a lab",
                               t->name, r->tests[j].line);
    }
    return 0;
}

static const rb_field rubric_fields[] = {
    {"lab", 1, rd_lab},
    {"name", 1, rd_lab_name},
    {"source", 1, rd_source},
    {"allowed_headers", 0, rd_headers},
    {"allowed_symbols", 0, rd_symbols},
    {"limits", 0, rd_lab_limits},
    {"tests", 1, rd_tests},
};

/* ---- loading ------------------------------------------------------------------------- */

/* Zero-based line and column of byte offset in text, for reader errors that
   carry an offset rather than a mark. */
static void offset_mark(const char *s, size_t len, size_t offset, size_t *line, size_t *col)
{
    *line = *col = 0;
    for (size_t i = 0; i < offset && i < len; i++) {
        if (s[i] == '\n')
            (*line)++, *col = 0;
        else
            (*col)++;
    }
}

static int syntax_error(rb_ctx *c, const yaml_parser_t *p, const char *buf, size_t len)
{
    const char *problem = p->problem ? p->problem : "unreadable YAML";
    switch (p->error) {
    case YAML_MEMORY_ERROR:
        return fail_mark(c, 0, 0, "out of memory while reading the rubric");
    case YAML_READER_ERROR: {
        size_t line, col;
        offset_mark(buf, len, p->problem_offset, &line, &col);
        return fail_mark(c, line, col, "the file is not UTF-8 text (%s); save it as UTF-8",
                         problem);
    }
    default:
        if (p->context)
            return fail_mark(c, p->problem_mark.line, p->problem_mark.column,
                             "YAML syntax error: %s (%s, which starts at line %zu)",
                             problem, p->context, p->context_mark.line + 1);
        return fail_mark(c, p->problem_mark.line, p->problem_mark.column,
                         "YAML syntax error: %s", problem);
    }
}

int gr_rubric_load(const char *path, gr_rubric *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (err && errlen)
        err[0] = '\0';

    size_t len;
    char *buf = gr_read_file(path, &len);
    if (!buf) {
        if (err && errlen)
            snprintf(err, errlen, "%s: cannot read the rubric: %s", path, strerror(errno));
        return -1;
    }
    int rc = gr_rubric_parse(path, buf, len, out, err, errlen);
    free(buf);
    return rc;
}

int gr_rubric_parse(const char *path, const char *buf, size_t len, gr_rubric *out,
                    char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (err && errlen)
        err[0] = '\0';

    gr_rubric r;
    memset(&r, 0, sizeof r);
    r.path = gr_xstrdup(path);
    r.limits.time_ms = DEFAULT_TIME_MS;
    r.limits.memory_bytes = DEFAULT_MEMORY_BYTES;
    r.limits.output_bytes = DEFAULT_OUTPUT_BYTES;

    yaml_parser_t parser;
    yaml_document_t doc, extra;
    int have_doc = 0, rc = -1;
    rb_ctx c = {path, &doc, err, errlen, &r, 0, NULL};

    if (!yaml_parser_initialize(&parser)) {
        fail_mark(&c, 0, 0, "out of memory while reading the rubric");
        gr_rubric_free(&r);
        return -1;
    }
    yaml_parser_set_input_string(&parser, (const unsigned char *)buf, len);

    if (!yaml_parser_load(&parser, &doc)) {
        syntax_error(&c, &parser, buf, len);
        goto done;
    }
    have_doc = 1;

    const yaml_node_t *root = yaml_document_get_root_node(&doc);
    if (!root) {
        fail_mark(&c, 0, 0, "the rubric is empty; it needs lab, name, source and tests");
        goto done;
    }
    /* exactly one document: a second "---" is probably a pasting accident */
    if (!yaml_parser_load(&parser, &extra)) {
        syntax_error(&c, &parser, buf, len);
        goto done;
    }
    const yaml_node_t *second = yaml_document_get_root_node(&extra);
    if (second) {
        fail_at(&c, second, "a rubric is one YAML document; remove this second one");
        yaml_document_delete(&extra);
        goto done;
    }
    yaml_document_delete(&extra);

    if (walk_mapping(&c, root, "the rubric", "the rubric", rubric_fields,
                     (int)(sizeof rubric_fields / sizeof *rubric_fields), &r) != 0)
        goto done;

    /* a test's limits override the lab's key by key */
    for (int i = 0; i < r.n_tests; i++) {
        gr_limits *l = &r.tests[i].limits;
        if (l->time_ms == LIMIT_UNSET) l->time_ms = r.limits.time_ms;
        if (l->memory_bytes == LIMIT_UNSET) l->memory_bytes = r.limits.memory_bytes;
        if (l->output_bytes == LIMIT_UNSET) l->output_bytes = r.limits.output_bytes;
    }
    rc = 0;

done:
    if (have_doc)
        yaml_document_delete(&doc);
    yaml_parser_delete(&parser);
    if (rc == 0)
        *out = r;
    else
        gr_rubric_free(&r);
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
    memset(r, 0, sizeof *r);
}

double gr_test_param(const gr_rubric_test *t, const char *key, double dflt)
{
    for (int i = 0; i < t->n_params; i++)
        if (strcmp(t->params[i].key, key) == 0)
            return t->params[i].value;
    return dflt;
}

const char *gr_visibility_name(gr_visibility v)
{
    switch (v) {
    case GR_VISIBLE:        return "visible";
    case GR_HIDDEN:         return "hidden";
    case GR_AFTER_DUE_DATE: return "after_due_date";
    }
    return "visible";
}
