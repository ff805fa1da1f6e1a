/* manifest.c: reading a lab's manifest (see manifest.h); the checks against the
 * course tree are in manifest_check.c. */
#include "manifest.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sup_yamlread.h"

static mf_pos pos_of(const yaml_node_t *n)
{
    yr_pos p = yr_pos_of(n);
    return (mf_pos){(int)p.line, (int)p.column};
}

static int is_ident(const char *s)
{
    if (!(isalpha((unsigned char)*s) || *s == '_'))
        return 0;
    for (; *s; s++)
        if (!(isalnum((unsigned char)*s) || *s == '_'))
            return 0;
    return 1;
}

/* A scalar that is a C identifier of fewer than MF_NAME_LEN characters, into out. */
static int get_ident(yr_doc *d, const yaml_node_t *v, const char *label, char *out)
{
    const char *s;
    if (yr_get_string(d, v, label, YR_NONEMPTY, &s) != 0)
        return -1;
    if (strlen(s) >= MF_NAME_LEN || !is_ident(s))
        return yr_fail_at(d, v, "%s: \"%s\" is not a C name (letters, digits and _, "
                          "at most %d characters)", label, s, MF_NAME_LEN - 1);
    strcpy(out, s);
    return 0;
}

/* ---- signatures ------------------------------------------------------------------ */

/* The wire kind of a C type: buffers by what they point to, scalars by whether
   they are whole numbers. 0 for a type the child cannot carry. */
static char kind_of(const char *type, int pointer)
{
    static const char *const ints[] = {"int", "long", "unsigned", "int32_t", "int64_t",
                                       "uint32_t", "uint64_t", "size_t", "long long"};
    if (pointer) {
        if (strcmp(type, "float") == 0)
            return 'f';
        if (strcmp(type, "int") == 0 || strcmp(type, "int32_t") == 0)
            return 'i';
        if (strcmp(type, "unsigned char") == 0 || strcmp(type, "uint8_t") == 0)
            return 'u';
        return 0;
    }
    if (strcmp(type, "float") == 0 || strcmp(type, "double") == 0)
        return 'r';
    for (size_t k = 0; k < sizeof ints / sizeof ints[0]; k++)
        if (strcmp(type, ints[k]) == 0)
            return 'n';
    return 0;
}

/* One parameter "const float *S" into a: its words but const, the last one its
   name, the others its type, and the stars between them. 0, or -1 with why. */
static int parse_param(const char *text, mf_arg *a, char *why, size_t whylen)
{
    char type[128] = "", word[128] = "";
    int pointer = 0, word_after_star = 0;
    const char *p = text;
    a->name[0] = '\0';
    for (;;) {
        while (isspace((unsigned char)*p))
            p++;
        if (*p == '*') {
            if (!word[0]) {
                snprintf(why, whylen, "parameter \"%s\": a type comes before the '*'", text);
                return -1;
            }
            pointer++;
            p++;
            continue;
        }
        size_t n = 0;
        while (isalnum((unsigned char)p[n]) || p[n] == '_')
            n++;
        if (n == 0 && *p) {
            snprintf(why, whylen, "parameter \"%s\": unexpected '%c'", text, *p);
            return -1;
        }
        if (n == 0)
            break;
        if (n >= sizeof word) {
            snprintf(why, whylen, "parameter \"%s\": a word too long", text);
            return -1;
        }
        if (n == 5 && strncmp(p, "const", 5) == 0) {
            p += n;
            continue;
        }
        if (word[0]) {   /* the word before was part of the type */
            if (word_after_star || strlen(type) + strlen(word) + 2 >= sizeof type) {
                snprintf(why, whylen, "parameter \"%s\": expected TYPE NAME or TYPE *NAME",
                         text);
                return -1;
            }
            if (type[0])
                strcat(type, " ");
            strcat(type, word);
        }
        memcpy(word, p, n);
        word[n] = '\0';
        word_after_star = pointer > 0;
        p += n;
    }
    if (!word[0] || !type[0] || strlen(word) >= MF_NAME_LEN) {
        snprintf(why, whylen, "parameter \"%s\" needs a type and a name (of at most %d "
                 "characters)", text, MF_NAME_LEN - 1);
        return -1;
    }
    strcpy(a->name, word);
    if (pointer > 1 || !(a->kind = kind_of(type, pointer))) {
        snprintf(why, whylen, "parameter \"%s\": the test child carries float, int or "
                 "int32_t, unsigned char or uint8_t arrays, and int, long, int64_t, "
                 "uint64_t, float or double values, not %s%s", text, type,
                 pointer > 1 ? " **" : pointer ? " *" : "");
        return -1;
    }
    snprintf(a->type, sizeof a->type, "%s", type);
    return 0;
}

/* "int NAME(PARAMS)" into f's name and args: 0, or -1 with why. */
static int parse_signature(const char *sig, mf_function *f, char *why, size_t whylen)
{
    const char *p = sig;
    while (isspace((unsigned char)*p))
        p++;
    if (strncmp(p, "int", 3) != 0 || !isspace((unsigned char)p[3])) {
        snprintf(why, whylen, "a student function returns int (LAB_OK or an error code): "
                 "the signature must start with \"int \"");
        return -1;
    }
    p += 3;
    while (isspace((unsigned char)*p))
        p++;
    const char *open = strchr(p, '('), *close = strrchr(p, ')');
    if (!open || !close || close < open) {
        snprintf(why, whylen, "expected \"int NAME(TYPE NAME, ...)\"");
        return -1;
    }
    for (const char *q = close + 1; *q; q++)
        if (!isspace((unsigned char)*q) && *q != ';') {
            snprintf(why, whylen, "text after the closing parenthesis");
            return -1;
        }
    size_t nlen = (size_t)(open - p);
    while (nlen > 0 && isspace((unsigned char)p[nlen - 1]))
        nlen--;
    char name[MF_NAME_LEN];
    if (nlen == 0 || nlen >= sizeof name) {
        snprintf(why, whylen, "the function's name is missing or too long");
        return -1;
    }
    memcpy(name, p, nlen);
    name[nlen] = '\0';
    if (!is_ident(name) || strncmp(name, "lab_", 4) != 0) {
        snprintf(why, whylen, "\"%s\": a student function's name is lab_ and a C name", name);
        return -1;
    }
    if (f->name[0] && strcmp(f->name, name) != 0) {
        snprintf(why, whylen, "the signature declares %s, not %s", name, f->name);
        return -1;
    }
    strcpy(f->name, name);
    f->n_args = 0;
    const char *a = open + 1;
    while (a < close) {
        const char *end = memchr(a, ',', (size_t)(close - a));
        if (!end)
            end = close;
        char param[256];
        size_t plen = (size_t)(end - a);
        if (plen >= sizeof param || f->n_args == MF_MAX_ARGS) {
            snprintf(why, whylen, "too many or too long parameters (at most %d)", MF_MAX_ARGS);
            return -1;
        }
        memcpy(param, a, plen);
        param[plen] = '\0';
        if (parse_param(param, &f->args[f->n_args], why, whylen) != 0)
            return -1;
        for (int k = 0; k < f->n_args; k++)
            if (strcmp(f->args[k].name, f->args[f->n_args].name) == 0) {
                snprintf(why, whylen, "two parameters called %s", f->args[k].name);
                return -1;
            }
        f->n_args++;
        a = end + 1;
    }
    return 0;
}

static mf_arg *arg_named(mf_function *f, const char *name)
{
    for (int k = 0; k < f->n_args; k++)
        if (strcmp(f->args[k].name, name) == 0)
            return &f->args[k];
    return NULL;
}

/* ---- one function ------------------------------------------------------------------ */

typedef struct fn_ctx {
    mf_function *f;
    const yaml_node_t *sig, *shapes, *variants;
} fn_ctx;

static int rd_fname(yr_doc *d, const yaml_node_t *v, void *t)
{
    return get_ident(d, v, "name", ((fn_ctx *)t)->f->name);
}

static int rd_sig(yr_doc *d, const yaml_node_t *v, void *t)
{
    fn_ctx *c = t;
    const char *s;
    if (yr_get_string(d, v, "signature", YR_NONEMPTY, &s) != 0)
        return -1;
    c->sig = v;
    c->f->sig_at = pos_of(v);
    c->f->signature = strdup(s);
    return c->f->signature ? 0 : yr_fail_at(d, v, "out of memory");
}

static int rd_shapes(yr_doc *d, const yaml_node_t *v, void *t)
{
    if (v->type != YAML_MAPPING_NODE)
        return yr_fail_at(d, v, "shapes: expected a mapping {ARRAY: [SIZE, ...]}, got %s",
                          yr_kind_name(v));
    ((fn_ctx *)t)->shapes = v;
    return 0;
}

static int rd_handout(yr_doc *d, const yaml_node_t *v, void *t)
{
    fn_ctx *c = t;
    long n;
    if (yr_get_long(d, v, "handout", &n) != 0)
        return -1;
    if (n < 1 || n > 99)
        return yr_fail_at(d, v, "handout: section %ld? sections are numbered from 1", n);
    c->f->handout = (int)n;
    c->f->handout_at = pos_of(v);
    return 0;
}

static int rd_uses(yr_doc *d, const yaml_node_t *v, void *t)
{
    mf_function *f = ((fn_ctx *)t)->f;
    int n;
    if (yr_get_seq(d, v, "uses", "[lab_row_entropy]", &n) != 0)
        return -1;
    if (n > MF_MAX_USES)
        return yr_fail_at(d, v, "uses: at most %d functions", MF_MAX_USES);
    f->uses_at = pos_of(v);
    for (int i = 0; i < n; i++)
        if (get_ident(d, yr_item(d, v, i), "uses", f->uses[i]) != 0)
            return -1;
    f->n_uses = n;
    return 0;
}

static int rd_points(yr_doc *d, const yaml_node_t *v, void *t)
{
    mf_function *f = ((fn_ctx *)t)->f;
    if (yr_get_double(d, v, "points", &f->points) != 0)
        return -1;
    if (f->points < 0)
        return yr_fail_at(d, v, "points: must not be negative");
    f->points_at = pos_of(v);
    return 0;
}

static int rd_variants(yr_doc *d, const yaml_node_t *v, void *t)
{
    int n;
    if (yr_get_seq(d, v, "variants", "[{suffix: inplace, same: {W: S}}]", &n) != 0)
        return -1;
    if (n > MF_MAX_VARIANTS)
        return yr_fail_at(d, v, "variants: at most %d", MF_MAX_VARIANTS);
    ((fn_ctx *)t)->variants = v;
    return 0;
}

static const yr_field fn_fields[] = {
    {"name", 1, rd_fname},       {"signature", 1, rd_sig}, {"shapes", 0, rd_shapes},
    {"handout", 1, rd_handout},  {"uses", 0, rd_uses},     {"points", 1, rd_points},
    {"variants", 0, rd_variants},
};

/* A buffer of f named by scalar v (for shapes and variants). */
static mf_arg *buffer_at(yr_doc *d, mf_function *f, const yaml_node_t *v, const char *label)
{
    const char *s;
    if (yr_get_string(d, v, label, YR_NONEMPTY, &s) != 0)
        return NULL;
    mf_arg *a = arg_named(f, s);
    if (!a || a->kind == 'n' || a->kind == 'r') {
        yr_fail_at(d, v, "%s: %s is no array argument of %s", label, s, f->name);
        return NULL;
    }
    return a;
}

static int read_shapes(yr_doc *d, mf_function *f, const yaml_node_t *m)
{
    for (const yaml_node_pair_t *p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top;
         p++) {
        const yaml_node_t *k, *v = yr_node(d, p->value);
        if (yr_key(d, m, p, "shapes", &k) != 0)
            return -1;
        mf_arg *a = buffer_at(d, f, k, "shapes");
        int n;
        if (!a || yr_get_seq(d, v, "shapes", "[B, Tq, Tk]", &n) != 0)
            return -1;
        if (n < 1 || n > MF_MAX_DIMS)
            return yr_fail_at(d, v, "shapes: %s needs 1 to %d sizes", a->name, MF_MAX_DIMS);
        for (int i = 0; i < n; i++) {
            const yaml_node_t *e = yr_item(d, v, i);
            const char *s;
            long num;
            if (yr_get_string(d, e, "shapes", YR_NONEMPTY, &s) != 0)
                return -1;
            mf_arg *size = arg_named(f, s);
            if (!(size && size->kind == 'n') &&
                !(yr_parse_long(s, &num) == YR_NUM_OK && num >= 0 && num < 1000000000L))
                return yr_fail_at(d, e, "shapes: %s's size \"%s\" is neither a whole number "
                                  "nor an integer argument of %s", a->name, s, f->name);
            snprintf(a->dims[i], MF_NAME_LEN, "%s", s);
        }
        a->n_dims = n;
    }
    return 0;
}

static int read_variant(yr_doc *d, mf_function *f, const yaml_node_t *v, mf_variant *out)
{
    if (v->type != YAML_MAPPING_NODE)
        return yr_fail_at(d, v, "variants: expected a mapping {suffix: ..., same: {A: B}} "
                          "or {suffix: ..., null: A}, got %s", yr_kind_name(v));
    const yaml_node_t *suffix = yr_value(d, v, "suffix"), *same = yr_value(d, v, "same"),
                      *null = yr_value(d, v, "null");
    int n_keys = (int)(v->data.mapping.pairs.top - v->data.mapping.pairs.start);
    if (!suffix || !!same + !!null != 1 || n_keys != 2)
        return yr_fail_at(d, v, "a variant has a suffix and exactly one of same: {A: B} "
                          "(A is passed B's array) and null: A (A is passed NULL)");
    if (get_ident(d, suffix, "suffix", out->suffix) != 0)
        return -1;
    for (char *c = out->suffix; *c; c++)
        *c = (char)toupper((unsigned char)*c);
    if (null) {
        const mf_arg *a = buffer_at(d, f, null, "null");
        if (!a)
            return -1;
        strcpy(out->null, a->name);
        return 0;
    }
    if (same->type != YAML_MAPPING_NODE ||
        same->data.mapping.pairs.top - same->data.mapping.pairs.start != 1)
        return yr_fail_at(d, same, "same: expected one pair {A: B}, A passed B's array");
    const yaml_node_pair_t *p = same->data.mapping.pairs.start;
    const mf_arg *a = buffer_at(d, f, yr_node(d, p->key), "same"),
                 *b = a ? buffer_at(d, f, yr_node(d, p->value), "same") : NULL;
    if (!b)
        return -1;
    if (a == b || a->kind != b->kind)
        return yr_fail_at(d, same, "same: %s and %s must be two arrays of one type",
                          a->name, b->name);
    strcpy(out->same, a->name);
    strcpy(out->same_as, b->name);
    return 0;
}

static int read_function(yr_doc *d, const yaml_node_t *v, mf_function *f)
{
    fn_ctx c = {f, NULL, NULL, NULL};
    f->at = pos_of(v);
    if (yr_walk(d, v, "functions", "a function", fn_fields, YR_N_FIELDS(fn_fields), &c) != 0)
        return -1;
    char why[512];
    if (parse_signature(f->signature, f, why, sizeof why) != 0)
        return yr_fail_at(d, c.sig, "signature: %s", why);
    if (c.shapes && read_shapes(d, f, c.shapes) != 0)
        return -1;
    for (int i = 0; c.variants && i < yr_count(c.variants); i++) {
        if (read_variant(d, f, yr_item(d, c.variants, i), &f->variants[i]) != 0)
            return -1;
        f->n_variants = i + 1;
    }
    return 0;
}

/* ---- the lab --------------------------------------------------------------------- */

static int rd_functions(yr_doc *d, const yaml_node_t *v, mf_lab *lab)
{
    int n;
    if (yr_get_seq(d, v, "functions", "[{name: lab_x, signature: ...}]", &n) != 0)
        return -1;
    if (n < 1 || n > MF_MAX_FUNCS)
        return yr_fail_at(d, v, "functions: a lab has 1 to %d student functions", MF_MAX_FUNCS);
    lab->functions_at = pos_of(v);
    for (int i = 0; i < n; i++) {
        if (read_function(d, yr_item(d, v, i), &lab->fns[i]) != 0)
            return -1;
        lab->n_fns = i + 1;
        for (int j = 0; j < i; j++)
            if (strcmp(lab->fns[j].name, lab->fns[i].name) == 0)
                return yr_fail_at(d, yr_item(d, v, i), "%s is listed twice", lab->fns[i].name);
    }
    return 0;
}

/* The sum of the tests' points (what the syllabus and the functions' points add to). */
static int sum_tests(yr_doc *d, const yaml_node_t *v, mf_lab *lab)
{
    int n;
    if (yr_get_seq(d, v, "tests", "[{name: ..., points: 1}]", &n) != 0)
        return -1;
    for (int i = 0; i < n; i++) {
        const yaml_node_t *p = yr_value(d, yr_item(d, v, i), "points");
        double pts = 0;
        if (p && yr_get_double(d, p, "points", &pts) != 0)
            return -1;
        lab->test_points += pts;
    }
    return 0;
}

static int read_lab(yr_doc *d, const yaml_node_t *root, mf_lab *lab)
{
    static const char *const keys[] = {"lab", "name", "dir", "title", "source", "functions"};
    if (!root || root->type != YAML_MAPPING_NODE)
        return yr_fail(d, "expected a rubric: a mapping that starts with the lab's manifest "
                       "(lab, name, dir, title, source, functions)");
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
        if (!yr_value(d, root, keys[k]))
            return yr_fail_at(d, root, "the manifest is missing the key \"%s\"", keys[k]);
    const yaml_node_t *v = yr_value(d, root, "lab");
    long num;
    const char *s;
    if (yr_get_long(d, v, "lab", &num) != 0)
        return -1;
    if (num < 1 || num > 99)
        return yr_fail_at(d, v, "lab: %ld? labs are numbered 1 to 99", num);
    lab->lab = (int)num;
    lab->lab_at = pos_of(v);
    if (get_ident(d, yr_value(d, root, "name"), "name", lab->name) != 0)
        return -1;
    v = yr_value(d, root, "dir");
    if (yr_get_string(d, v, "dir", YR_NONEMPTY, &s) != 0)
        return -1;
    snprintf(lab->dir, sizeof lab->dir, "lab%02d-%.40s", lab->lab, lab->name);
    if (strcmp(s, lab->dir) != 0)
        return yr_fail_at(d, v, "dir: \"%s\", but lab %d called %s lives in %s", s, lab->lab,
                          lab->name, lab->dir);
    v = yr_value(d, root, "title");
    if (yr_get_string(d, v, "title", YR_NONEMPTY, &s) != 0)
        return -1;
    if (strpbrk(s, "\"\\\n"))
        return yr_fail_at(d, v, "title: no quotes, backslashes or line breaks");
    if (!(lab->title = strdup(s)))
        return yr_fail_at(d, v, "out of memory");
    v = yr_value(d, root, "source");
    if (yr_get_string(d, v, "source", YR_NONEMPTY, &s) != 0)
        return -1;
    snprintf(lab->source, sizeof lab->source, "lab%02d.c", lab->lab);
    if (strcmp(s, lab->source) != 0)
        return yr_fail_at(d, v, "source: \"%s\", but lab %d's file is %s", s, lab->lab,
                          lab->source);
    if (rd_functions(d, yr_value(d, root, "functions"), lab) != 0)
        return -1;
    v = yr_value(d, root, "tests");
    return v ? sum_tests(d, v, lab) : 0;
}

int mf_parse(const char *path, const char *text, size_t len, mf_lab *out, char *err,
             size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->path = strdup(path);
    yr_doc d;
    int rc = yr_open(&d, path, text, len, err, errlen);
    if (rc == 0)
        rc = read_lab(&d, yr_root(&d), out);
    yr_close(&d);
    return rc;
}

int mf_load(const char *path, mf_lab *out, char *err, size_t errlen)
{
    size_t len;
    char *text = yr_read_file(path, &len);
    if (!text) {
        memset(out, 0, sizeof *out);
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        return -1;
    }
    int rc = mf_parse(path, text, len, out, err, errlen);
    free(text);
    return rc;
}

void mf_free(mf_lab *lab)
{
    free(lab->path);
    free(lab->title);
    for (int i = 0; i < MF_MAX_FUNCS; i++)
        free(lab->fns[i].signature);
    memset(lab, 0, sizeof *lab);
}

void mf_call_name(const mf_lab *lab, const mf_function *f, int v, char *out, size_t len)
{
    int n = snprintf(out, len, "LAB%02d_", lab->lab);
    for (const char *c = f->name + 4; *c && n + 1 < (int)len; c++)
        out[n++] = (char)toupper((unsigned char)*c);
    out[n < (int)len ? n : (int)len - 1] = '\0';
    if (v >= 0 && (size_t)n < len)
        snprintf(out + n, len - (size_t)n, "_%s", f->variants[v].suffix);
}
