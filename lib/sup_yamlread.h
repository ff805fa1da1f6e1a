/* sup_yamlread.h: read one YAML document into C structs through tables of
 * known keys. Students need not read this header: it is the reader that the
 * YAML tensor I/O (sup_yaml_*, labsup.h) and the grader's rubric and mutant
 * manifest loaders share. It lives in lib/ so that the support code needs
 * nothing from the grader; its prefix is yr_ ("YAML reader").
 *
 * Use, for a file whose document is one mapping of known keys:
 *     static const yr_spec spec = {"the rubric", "the rubric is empty; ...",
 *                                  "a rubric is one YAML document; ...", fields, n};
 *     rc = yr_load_file(path, &spec, &out, err, errlen);
 * or step by step, for a document of another shape:
 *     yr_doc d;
 *     if (yr_open(&d, path, text, len, err, errlen) != 0)    // syntax errors
 *         return -1;
 *     const yaml_node_t *root = yr_root(&d);                  // NULL: empty file
 *     rc = yr_walk(&d, root, "the rubric", "the rubric", fields, n, &out);
 *     yr_close(&d);
 *
 * A field table lists the keys a mapping may hold; a handler reads each value.
 * An unknown key is an error naming the nearest known key when it looks like
 * a typo, a key given twice is an error naming the line of the first, and a
 * required key that is missing is an error at the mapping. Typed getters turn
 * scalars into numbers only through strtol or strtod with the end pointer
 * checked, so "2ms" is an error, never 2.
 *
 * Errors: the first one is written to the caller's buffer as
 * "path:line:column: what is wrong", line and column counted from 1 (libyaml
 * counts from 0; yr_pos_of_mark is the one place that adds 1), and every
 * function that can fail returns -1 so a caller can `return yr_fail_at(...)`.
 */
#ifndef SUP_YAMLREAD_H
#define SUP_YAMLREAD_H

#include <stddef.h>
#include <yaml.h>

/* A position people read: line and column counted from 1. */
typedef struct yr_pos {
    size_t line, column;
} yr_pos;

/* One document being read. Fields are for the module; user is the caller's. */
typedef struct yr_doc {
    const char *path;           /* names the input in messages */
    const char *text;           /* the input, for positions of encoding errors */
    size_t len;
    yaml_parser_t parser;
    yaml_document_t doc;
    int have_parser, have_doc;  /* what yr_close must free */
    char *err;                  /* where the first error goes (may be NULL) */
    size_t errlen;
    void *user;                 /* the caller's context, for its handlers */
} yr_doc;

/* ---- documents -------------------------------------------------------------- */

/* Parse the first document of text[0..len) (need not end in NUL); path only
   names it in messages. 0, or -1 with the error (a YAML syntax error, text
   that is not UTF-8) in err. Call yr_close either way. */
int yr_open(yr_doc *d, const char *path, const char *text, size_t len, char *err,
            size_t errlen);

/* The root node of the document, or NULL when the input holds no document. */
const yaml_node_t *yr_root(yr_doc *d);

/* Check that no second document follows the first: 0, or -1 with message
   reported at the second document's root (or the syntax error before it). */
int yr_expect_end(yr_doc *d, const char *message);

/* Put the next document in place of this one (yr_root is NULL after the
   last): 0, or -1 with the syntax error before it. */
int yr_next(yr_doc *d);

/* Free the parser and the document (safe after a failed yr_open, and twice). */
void yr_close(yr_doc *d);

/* Read a whole file into a NUL-terminated malloc'd buffer, its length in *len;
   NULL with errno set when it cannot be read. */
char *yr_read_file(const char *path, size_t *len);

/* ---- errors --------------------------------------------------------------------- */

/* libyaml's zero-based mark as people count: line and column from 1. */
yr_pos yr_pos_of_mark(yaml_mark_t m);

/* Where node n starts, counted from 1. */
yr_pos yr_pos_of(const yaml_node_t *n);

/* Report "path:line:column: fmt..." at mark m; returns -1. */
int yr_fail_mark(yr_doc *d, yaml_mark_t m, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Report "path: fmt..." for a problem of the whole input; returns -1. */
int yr_fail(yr_doc *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Report fmt at the start of node n; returns -1. */
int yr_fail_at(yr_doc *d, const yaml_node_t *n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* ---- nodes ----------------------------------------------------------------------- */

/* Node number index of the document, or NULL. */
const yaml_node_t *yr_node(yr_doc *d, int index);

/* The text of scalar n (NUL-terminated). */
const char *yr_text(const yaml_node_t *n);

/* How n looks to the person who wrote it: "a list", "a mapping (key: value
   lines)", "a single value"; for "expected X, got Y". */
const char *yr_kind_name(const yaml_node_t *n);

/* Scalar n was written in quotes (so YAML reads it as text, not a number). */
int yr_is_quoted(const yaml_node_t *n);

/* `key:` with nothing after it, `key: ~` or `key: null`. */
int yr_is_null(const yaml_node_t *n);

/* Number of items of sequence n, and item i of it (NULL if out of range). */
int yr_count(const yaml_node_t *n);
const yaml_node_t *yr_item(yr_doc *d, const yaml_node_t *n, int i);

/* ---- conversions and typed getters --------------------------------------------- */

/* What a conversion found. */
typedef enum yr_num {
    YR_NUM_OK = 0,      /* *out holds the value */
    YR_NUM_BAD,         /* not a number: strtol/strtod did not use every character */
    YR_NUM_RANGE        /* a number too large for the type */
} yr_num;

/* s as a whole number (base 10), every character used. */
yr_num yr_parse_long(const char *s, long *out);

/* s as a real: YAML's .inf, -.inf, +.inf, .nan (three capitalisations each)
   or anything strtod accepts in full; an underflow to 0 is fine. */
yr_num yr_parse_real(const char *s, double *out);

/* How much text a string getter accepts. */
typedef enum yr_empty {
    YR_NONEMPTY = 0,    /* "label: has no value" for an empty or null value */
    YR_MAY_BE_EMPTY     /* "" (or nothing) is a value too */
} yr_empty;

/* A scalar that must be text without a NUL byte inside. Not copied: valid
   until yr_close. 0, or -1 with "label: ..." reported at v. */
int yr_get_string(yr_doc *d, const yaml_node_t *v, const char *label, yr_empty empty,
                  const char **out);

/* An unquoted whole number. 0, or -1 with "label: expected a whole number ...". */
int yr_get_long(yr_doc *d, const yaml_node_t *v, const char *label, long *out);

/* An unquoted finite real. 0, or -1 with "label: expected a number ...". */
int yr_get_double(yr_doc *d, const yaml_node_t *v, const char *label, double *out);

/* A sequence; like shows one ("[a, b]") in the message. Its length in *n. */
int yr_get_seq(yr_doc *d, const yaml_node_t *v, const char *label, const char *like,
               int *n);

/* ---- mappings ---------------------------------------------------------------------- */

/* A handler reads the value v of one known key into target: 0 or -1. */
typedef int (*yr_handler)(yr_doc *d, const yaml_node_t *v, void *target);

/* One key a mapping may hold. */
typedef struct yr_field {
    const char *key;
    int required;           /* missing is an error at the mapping */
    yr_handler read;
} yr_field;

/* The number of entries of a field table. */
#define YR_N_FIELDS(fields) ((int)(sizeof(fields) / sizeof((fields)[0])))

/* Walk mapping map against fields[0..n): every key known, none twice, every
   required key present; each value handed to its field's handler in the
   order written. label names map in "label: expected a mapping"; where names
   it in the other messages ("the rubric", "test 2"). 0 or -1. */
int yr_walk(yr_doc *d, const yaml_node_t *map, const char *label, const char *where,
            const yr_field *fields, int n, void *target);

/* The key of pair p of map: a non-empty scalar not given earlier in map.
   0 with it in *key, or -1 with the error at the key. */
int yr_key(yr_doc *d, const yaml_node_t *map, const yaml_node_pair_t *p, const char *where,
           const yaml_node_t **key);

/* The value of key in mapping map, or NULL when map is no mapping or holds no
   such key: for reading a few keys of a document that holds many more (a
   results.json, Gradescope's submission metadata) without a field table. */
const yaml_node_t *yr_value(yr_doc *d, const yaml_node_t *map, const char *key);

/* The key node of a pair of map before upto whose text is name, or NULL. */
const yaml_node_t *yr_earlier_key(yr_doc *d, const yaml_node_t *map,
                                  const yaml_node_pair_t *upto, const char *name);

/* Report "unknown key \"K\" in where; did you mean \"N\"?" at key, or, with no
   near name, "...; the known keys are a, b, c" from names[0..n). Returns -1. */
int yr_unknown_key(yr_doc *d, const yaml_node_t *key, const char *where,
                   const char *const *names, int n);

/* ---- loading a whole input ------------------------------------------------------ */

/* What a loader expects of its input's one document, for yr_load. */
typedef struct yr_spec {
    const char *what;       /* names the top mapping in messages: "the manifest" */
    const char *empty;      /* the error, at 1:1, for an input with no document;
                               NULL hands read a NULL root instead */
    const char *one_doc;    /* the error at a second document; NULL lets one follow */
    const yr_field *fields; /* the top mapping's keys, walked with yr_walk ... */
    int n_fields;
    int (*read)(yr_doc *d, const yaml_node_t *root, void *target);  /* ... or this */
    void *user;             /* d->user while the handlers run */
} yr_spec;

/* Parse text[0..len) (path names it in messages) and read its document into
   target as s says: the empty check, the one-document check, then the field
   table or s->read. 0, or -1 with "path:line:column: ..." in err. */
int yr_load(const char *path, const char *text, size_t len, const yr_spec *s, void *target,
            char *err, size_t errlen);

/* yr_load of the file at path; "path: cannot open: why" when it cannot be read. */
int yr_load_file(const char *path, const yr_spec *s, void *target, char *err, size_t errlen);

/* ---- suggestions --------------------------------------------------------------------- */

/* Edit distance for "did you mean": "tolerence" is 1 from "tolerance", "poitns"
   1 from "points" (a swap of neighbours counts once, case is ignored). Strings
   of 40 characters or more give 1000. */
int yr_edit_distance(const char *a, const char *b);

/* The name of names[0..n) that unknown was probably meant to be, or NULL: at
   most 1 edit away for names of up to 4 characters, 2 for longer ones, or a
   prefix of at least 3 characters ("memory" for "memory_mb"). */
const char *yr_nearest(const char *unknown, const char *const *names, int n);

#endif /* SUP_YAMLREAD_H */
