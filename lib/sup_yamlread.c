/* sup_yamlread.c: read one YAML document into C structs through tables of
 * known keys (see sup_yamlread.h).
 *
 * The text is parsed by libyaml into one document (a tree of scalar, sequence
 * and mapping nodes) with yaml_parser_load; callers walk the tree with field
 * tables and typed getters. A problem is written to the caller's buffer as
 * "path:line:column: what is wrong" and -1 is returned all the way up, so the
 * first mistake stops the walk and is the one reported.
 */
#include "sup_yamlread.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Field tables longer than this are not expected; their names are gathered
   on the stack for suggestions. */
#define YR_MAX_FIELDS 32

/* ---- errors ------------------------------------------------------------------ */

yr_pos yr_pos_of_mark(yaml_mark_t m)
{
    yr_pos p = {m.line + 1, m.column + 1};     /* libyaml counts from 0 */
    return p;
}

yr_pos yr_pos_of(const yaml_node_t *n)
{
    return yr_pos_of_mark(n->start_mark);
}

__attribute__((format(printf, 3, 0)))
static int vfail(yr_doc *d, yaml_mark_t m, const char *fmt, va_list ap)
{
    if (!d->err || d->errlen == 0)
        return -1;
    yr_pos p = yr_pos_of_mark(m);
    int k = snprintf(d->err, d->errlen, "%s:%zu:%zu: ", d->path, p.line, p.column);
    if (k >= 0 && (size_t)k < d->errlen)
        vsnprintf(d->err + k, d->errlen - (size_t)k, fmt, ap);
    return -1;
}

int yr_fail_mark(yr_doc *d, yaml_mark_t m, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(d, m, fmt, ap);
    va_end(ap);
    return -1;
}

int yr_fail(yr_doc *d, const char *fmt, ...)
{
    if (!d->err || d->errlen == 0)
        return -1;
    int k = snprintf(d->err, d->errlen, "%s: ", d->path);
    va_list ap;
    va_start(ap, fmt);
    if (k >= 0 && (size_t)k < d->errlen)
        vsnprintf(d->err + k, d->errlen - (size_t)k, fmt, ap);
    va_end(ap);
    return -1;
}

int yr_fail_at(yr_doc *d, const yaml_node_t *n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(d, n->start_mark, fmt, ap);
    va_end(ap);
    return -1;
}

/* ---- documents --------------------------------------------------------------------- */

/* The zero-based mark of byte offset in d's text, for reader errors that carry
   an offset rather than a mark. */
static yaml_mark_t offset_mark(const yr_doc *d, size_t offset)
{
    yaml_mark_t m = {offset, 0, 0};
    for (size_t i = 0; i < offset && i < d->len; i++) {
        if (d->text[i] == '\n')
            m.line++, m.column = 0;
        else
            m.column++;
    }
    return m;
}

/* Report what stopped the parser: not UTF-8, out of memory, or a syntax error. */
static int syntax_error(yr_doc *d)
{
    const yaml_parser_t *p = &d->parser;
    const char *problem = p->problem ? p->problem : "unreadable YAML";
    yaml_mark_t start = {0, 0, 0};
    switch (p->error) {
    case YAML_MEMORY_ERROR:
        return yr_fail_mark(d, start, "out of memory while reading the YAML");
    case YAML_READER_ERROR:
        return yr_fail_mark(d, offset_mark(d, p->problem_offset),
                            "the file is not UTF-8 text (%s); save it as UTF-8", problem);
    default:
        if (p->context)
            return yr_fail_mark(d, p->problem_mark,
                                "YAML syntax error: %s (%s, which starts at line %zu)",
                                problem, p->context, yr_pos_of_mark(p->context_mark).line);
        return yr_fail_mark(d, p->problem_mark, "YAML syntax error: %s", problem);
    }
}

int yr_open(yr_doc *d, const char *path, const char *text, size_t len, char *err,
            size_t errlen)
{
    memset(d, 0, sizeof *d);
    d->path = path;
    d->text = text;
    d->len = len;
    d->err = err;
    d->errlen = errlen;
    if (err && errlen)
        err[0] = '\0';
    if (!yaml_parser_initialize(&d->parser)) {
        yaml_mark_t start = {0, 0, 0};
        return yr_fail_mark(d, start, "out of memory starting the YAML parser");
    }
    d->have_parser = 1;
    yaml_parser_set_input_string(&d->parser, (const unsigned char *)text, len);
    if (!yaml_parser_load(&d->parser, &d->doc))
        return syntax_error(d);
    d->have_doc = 1;
    return 0;
}

const yaml_node_t *yr_root(yr_doc *d)
{
    return d->have_doc ? yaml_document_get_root_node(&d->doc) : NULL;
}

int yr_expect_end(yr_doc *d, const char *message)
{
    yaml_document_t extra;
    if (!yaml_parser_load(&d->parser, &extra))
        return syntax_error(d);
    const yaml_node_t *second = yaml_document_get_root_node(&extra);
    int rc = second ? yr_fail_at(d, second, "%s", message) : 0;
    yaml_document_delete(&extra);
    return rc;
}

int yr_next(yr_doc *d)
{
    if (d->have_doc)
        yaml_document_delete(&d->doc);
    d->have_doc = 0;
    if (!yaml_parser_load(&d->parser, &d->doc))
        return syntax_error(d);
    d->have_doc = 1;
    return 0;
}

void yr_close(yr_doc *d)
{
    if (d->have_doc)
        yaml_document_delete(&d->doc);
    if (d->have_parser)
        yaml_parser_delete(&d->parser);
    d->have_doc = d->have_parser = 0;
}

char *yr_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    struct stat st;
    size_t cap = fstat(fileno(f), &st) == 0 && st.st_size > 0 ? (size_t)st.st_size + 1 : 4096;
    size_t have = 0;
    char *buf = malloc(cap);
    int e = buf ? 0 : ENOMEM;
    /* the size is a hint only: the file may grow or not be regular */
    while (!e) {
        have += fread(buf + have, 1, cap - have - 1, f);
        if (ferror(f)) {
            e = errno ? errno : EIO;
        } else if (feof(f)) {
            break;
        } else if (have == cap - 1) {
            char *bigger = realloc(buf, cap * 2);
            if (bigger)
                buf = bigger, cap *= 2;
            else
                e = ENOMEM;
        }
    }
    fclose(f);
    if (e) {
        free(buf);
        errno = e;
        return NULL;
    }
    buf[have] = '\0';
    if (len)
        *len = have;
    return buf;
}

/* ---- nodes --------------------------------------------------------------------------- */

const yaml_node_t *yr_node(yr_doc *d, int index)
{
    return yaml_document_get_node(&d->doc, index);
}

const char *yr_text(const yaml_node_t *n)
{
    return (const char *)n->data.scalar.value;
}

const char *yr_kind_name(const yaml_node_t *n)
{
    switch (n->type) {
    case YAML_SEQUENCE_NODE: return "a list";
    case YAML_MAPPING_NODE:  return "a mapping (key: value lines)";
    default:                 return "a single value";
    }
}

int yr_is_quoted(const yaml_node_t *n)
{
    return n->type == YAML_SCALAR_NODE &&
           (n->data.scalar.style == YAML_SINGLE_QUOTED_SCALAR_STYLE ||
            n->data.scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE);
}

int yr_is_null(const yaml_node_t *n)
{
    if (n->type != YAML_SCALAR_NODE)
        return 0;
    if (n->data.scalar.length == 0)
        return 1;
    if (n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
        return 0;
    const char *s = yr_text(n);
    return !strcmp(s, "~") || !strcmp(s, "null") || !strcmp(s, "Null") || !strcmp(s, "NULL");
}

int yr_count(const yaml_node_t *n)
{
    if (n->type != YAML_SEQUENCE_NODE)
        return 0;
    return (int)(n->data.sequence.items.top - n->data.sequence.items.start);
}

const yaml_node_t *yr_item(yr_doc *d, const yaml_node_t *n, int i)
{
    if (i < 0 || i >= yr_count(n))
        return NULL;
    return yr_node(d, n->data.sequence.items.start[i]);
}

/* ---- conversions and typed getters ------------------------------------------------ */

yr_num yr_parse_long(const char *s, long *out)
{
    char *end;
    errno = 0;
    long x = strtol(s, &end, 10);
    if (end == s || *end != '\0' || isspace((unsigned char)s[0]))
        return YR_NUM_BAD;
    if (errno == ERANGE)
        return YR_NUM_RANGE;
    *out = x;
    return YR_NUM_OK;
}

yr_num yr_parse_real(const char *s, double *out)
{
    static const char *const inf[] = {".inf", ".Inf", ".INF"};
    static const char *const nan_[] = {".nan", ".NaN", ".NAN"};
    const char *u = s[0] == '-' || s[0] == '+' ? s + 1 : s;
    for (int i = 0; i < 3; i++) {
        if (strcmp(u, inf[i]) == 0) {
            *out = s[0] == '-' ? -INFINITY : INFINITY;
            return YR_NUM_OK;
        }
        if (s == u && strcmp(s, nan_[i]) == 0) {
            *out = NAN;
            return YR_NUM_OK;
        }
    }
    char *end;
    errno = 0;
    double x = strtod(s, &end);
    if (end == s || *end != '\0' || isspace((unsigned char)s[0]))
        return YR_NUM_BAD;
    if (errno == ERANGE && fabs(x) > 1.0)    /* overflow; an underflow is just tiny */
        return YR_NUM_RANGE;
    *out = x;
    return YR_NUM_OK;
}

int yr_get_string(yr_doc *d, const yaml_node_t *v, const char *label, yr_empty empty,
                  const char **out)
{
    if (v->type != YAML_SCALAR_NODE)
        return yr_fail_at(d, v, "%s: expected text, got %s", label, yr_kind_name(v));
    if (empty == YR_NONEMPTY && yr_is_null(v))
        return yr_fail_at(d, v, "%s: has no value; write it after the colon", label);
    if (strlen(yr_text(v)) != v->data.scalar.length)
        return yr_fail_at(d, v, "%s: contains a NUL character; remove it", label);
    *out = yr_text(v);
    return 0;
}

/* Common checks of a scalar that must be a number; what names the kind wanted. */
static int number_text(yr_doc *d, const yaml_node_t *v, const char *label, const char *what)
{
    if (v->type != YAML_SCALAR_NODE)
        return yr_fail_at(d, v, "%s: expected %s, got %s", label, what, yr_kind_name(v));
    if (yr_is_null(v))
        return yr_fail_at(d, v, "%s: has no value; give %s", label, what);
    if (yr_is_quoted(v))
        return yr_fail_at(d, v, "%s: expected %s, got the quoted text \"%s\"; remove the quotes",
                          label, what, yr_text(v));
    return 0;
}

int yr_get_long(yr_doc *d, const yaml_node_t *v, const char *label, long *out)
{
    if (number_text(d, v, label, "a whole number") != 0)
        return -1;
    switch (yr_parse_long(yr_text(v), out)) {
    case YR_NUM_OK:    return 0;
    case YR_NUM_RANGE: return yr_fail_at(d, v, "%s: %s is too large", label, yr_text(v));
    default:
        return yr_fail_at(d, v, "%s: expected a whole number, got \"%s\"", label, yr_text(v));
    }
}

int yr_get_double(yr_doc *d, const yaml_node_t *v, const char *label, double *out)
{
    if (number_text(d, v, label, "a number") != 0)
        return -1;
    double x = 0;
    yr_num r = yr_parse_real(yr_text(v), &x);
    if (r == YR_NUM_BAD)
        return yr_fail_at(d, v, "%s: expected a number, got \"%s\"", label, yr_text(v));
    if (r == YR_NUM_RANGE || !isfinite(x))
        return yr_fail_at(d, v, "%s: must be a finite number, got \"%s\"", label, yr_text(v));
    *out = x;
    return 0;
}

int yr_get_seq(yr_doc *d, const yaml_node_t *v, const char *label, const char *like, int *n)
{
    if (v->type != YAML_SEQUENCE_NODE)
        return yr_fail_at(d, v, "%s: expected a list like %s, got %s", label, like,
                          yr_kind_name(v));
    *n = yr_count(v);
    return 0;
}

/* ---- mappings ------------------------------------------------------------------------ */

const yaml_node_t *yr_earlier_key(yr_doc *d, const yaml_node_t *map,
                                  const yaml_node_pair_t *upto, const char *name)
{
    for (const yaml_node_pair_t *p = map->data.mapping.pairs.start; p < upto; p++) {
        const yaml_node_t *k = yr_node(d, p->key);
        if (k && k->type == YAML_SCALAR_NODE && strcmp(yr_text(k), name) == 0)
            return k;
    }
    return NULL;
}

int yr_key(yr_doc *d, const yaml_node_t *map, const yaml_node_pair_t *p, const char *where,
           const yaml_node_t **key)
{
    const yaml_node_t *k = yr_node(d, p->key);
    if (!k || !yr_node(d, p->value))
        return yr_fail_at(d, map, "%s: the YAML document is damaged (a pair without a node)",
                          where);
    if (k->type != YAML_SCALAR_NODE)
        return yr_fail_at(d, k, "a key in %s must be a plain word, got %s", where,
                          yr_kind_name(k));
    if (k->data.scalar.length == 0 || strlen(yr_text(k)) != k->data.scalar.length)
        return yr_fail_at(d, k, "a key in %s is empty; write a name before the colon", where);
    const yaml_node_t *first = yr_earlier_key(d, map, p, yr_text(k));
    if (first)
        return yr_fail_at(d, k, "duplicate key \"%s\" in %s (first given on line %zu); keep one",
                          yr_text(k), where, yr_pos_of(first).line);
    *key = k;
    return 0;
}

int yr_unknown_key(yr_doc *d, const yaml_node_t *key, const char *where,
                   const char *const *names, int n)
{
    const char *near = yr_nearest(yr_text(key), names, n);
    if (near)
        return yr_fail_at(d, key, "unknown key \"%s\" in %s; did you mean \"%s\"?",
                          yr_text(key), where, near);
    /* list the known keys into a local buffer: the message is cut at errlen anyway */
    char known[1024];
    size_t used = 0;
    known[0] = '\0';
    for (int i = 0; i < n && used < sizeof known; i++) {
        int k = snprintf(known + used, sizeof known - used, "%s%s", i ? ", " : "", names[i]);
        used += k > 0 ? (size_t)k : 0;
    }
    return yr_fail_at(d, key, "unknown key \"%s\" in %s; the known keys are %s",
                      yr_text(key), where, known);
}

int yr_walk(yr_doc *d, const yaml_node_t *map, const char *label, const char *where,
            const yr_field *fields, int n, void *target)
{
    if (map->type != YAML_MAPPING_NODE)
        return yr_fail_at(d, map, "%s: expected a mapping (key: value lines), got %s",
                          label, yr_kind_name(map));
    const char *names[YR_MAX_FIELDS];
    int n_names = n < YR_MAX_FIELDS ? n : YR_MAX_FIELDS;
    for (int f = 0; f < n_names; f++)
        names[f] = fields[f].key;
    for (const yaml_node_pair_t *p = map->data.mapping.pairs.start;
         p < map->data.mapping.pairs.top; p++) {
        const yaml_node_t *k;
        if (yr_key(d, map, p, where, &k) != 0)
            return -1;
        int f = 0;
        while (f < n && strcmp(fields[f].key, yr_text(k)) != 0)
            f++;
        if (f == n)
            return yr_unknown_key(d, k, where, names, n_names);
        if (fields[f].read(d, yr_node(d, p->value), target) != 0)
            return -1;
    }
    for (int f = 0; f < n; f++)
        if (fields[f].required && !yr_earlier_key(d, map, map->data.mapping.pairs.top,
                                                  fields[f].key))
            return yr_fail_at(d, map, "%s is missing the required key \"%s\"", where,
                              fields[f].key);
    return 0;
}

/* ---- suggestions ---------------------------------------------------------------------- */

/* Optimal string alignment: insertions, deletions, substitutions (ignoring
   case) and transpositions of neighbours each cost 1. */
int yr_edit_distance(const char *a, const char *b)
{
    enum { N = 40 };
    size_t la = strlen(a), lb = strlen(b);
    if (la >= N || lb >= N)
        return 1000;
    int dist[N][N];
    for (size_t i = 0; i <= la; i++)
        dist[i][0] = (int)i;
    for (size_t j = 0; j <= lb; j++)
        dist[0][j] = (int)j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            int cost = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
            int best = dist[i - 1][j] + 1;
            if (dist[i][j - 1] + 1 < best) best = dist[i][j - 1] + 1;
            if (dist[i - 1][j - 1] + cost < best) best = dist[i - 1][j - 1] + cost;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                dist[i - 2][j - 2] + 1 < best)
                best = dist[i - 2][j - 2] + 1;
            dist[i][j] = best;
        }
    return dist[la][lb];
}

const char *yr_nearest(const char *unknown, const char *const *names, int n)
{
    const char *best = NULL;
    int best_d = 1000;
    size_t lu = strlen(unknown);
    for (int i = 0; i < n; i++) {
        size_t lk = strlen(names[i]);
        int dist = yr_edit_distance(unknown, names[i]);
        int close = dist <= (lk <= 4 ? 1 : 2);
        /* "memory" for "memory_mb", "time" for "time_ms" */
        if (!close && lu >= 3 && lu < lk && strncmp(names[i], unknown, lu) == 0)
            close = 1, dist = (int)(lk - lu);
        if (close && dist < best_d)
            best = names[i], best_d = dist;
    }
    return best;
}

const yaml_node_t *yr_value(yr_doc *d, const yaml_node_t *map, const char *key)
{
    if (!map || map->type != YAML_MAPPING_NODE)
        return NULL;
    for (const yaml_node_pair_t *p = map->data.mapping.pairs.start;
         p < map->data.mapping.pairs.top; p++) {
        const yaml_node_t *k = yr_node(d, p->key);
        if (k && k->type == YAML_SCALAR_NODE && strcmp(yr_text(k), key) == 0)
            return yr_node(d, p->value);
    }
    return NULL;
}

/* ---- loading a whole input ------------------------------------------------------------ */

int yr_load(const char *path, const char *text, size_t len, const yr_spec *s, void *target,
            char *err, size_t errlen)
{
    yr_doc d;
    int rc = yr_open(&d, path, text, len, err, errlen);
    d.user = s->user;
    const yaml_node_t *root = rc == 0 ? yr_root(&d) : NULL;
    if (rc == 0 && !root && s->empty) {
        yaml_mark_t start = {0, 0, 0};
        rc = yr_fail_mark(&d, start, "%s", s->empty);
    }
    if (rc == 0 && s->one_doc)
        rc = yr_expect_end(&d, s->one_doc);
    if (rc == 0)
        rc = s->fields ? yr_walk(&d, root, s->what, s->what, s->fields, s->n_fields, target)
                       : s->read(&d, root, target);
    yr_close(&d);
    return rc;
}

int yr_load_file(const char *path, const yr_spec *s, void *target, char *err, size_t errlen)
{
    size_t len;
    char *text = yr_read_file(path, &len);
    if (!text) {
        if (err && errlen)
            snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    int rc = yr_load(path, text, len, s, target, err, errlen);
    free(text);
    return rc;
}
