/* newlab_spec.c: the description of a new lab (see newlab.h): each function's
 * C signature parsed into its arguments, the shapes of its arrays from
 * --shape or a description file, and the checks that the generated code will
 * compile and the manifest will load. */
#include "cli/newlab.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sup_yamlread.h"
#include "base/util.h"

#define DEFAULT_POINTS 2.0

/* Names the generated module and tests use for their own variables: an
   argument may not take one. */
static const char *const reserved[] = {"gc", "test", "rng", "seed", "kind", "err", "errlen",
                                       "count", "k", "r"};

static int is_ident(const char *s, size_t n)
{
    if (n == 0 || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
        return 0;
    for (size_t i = 1; i < n; i++)
        if (!(isalnum((unsigned char)s[i]) || s[i] == '_'))
            return 0;
    return 1;
}

/* The kind of a C type: an array's element ('f', 'i', 'u') or a scalar's ('n',
   'r'); 0 for a type the test child cannot carry. */
static char kind_of(const char *type, int pointer)
{
    static const char *const whole[] = {"int", "long", "int32_t", "int64_t", "size_t"};
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
    for (size_t i = 0; i < sizeof whole / sizeof *whole; i++)
        if (strcmp(type, whole[i]) == 0)
            return 'n';
    return 0;
}

/* One argument "const float *W" (text[0..n)) into a. 0, or -1 with err. */
static int parse_arg(const char *text, size_t n, nl_arg *a, char *err, size_t errlen)
{
    char words[6][NL_NAME_LEN];
    int n_words = 0, stars = 0, is_const = 0;
    for (size_t i = 0; i < n;) {
        if (isspace((unsigned char)text[i])) {
            i++;
        } else if (text[i] == '*') {
            stars++;
            i++;
        } else {
            size_t j = i;
            while (j < n && (isalnum((unsigned char)text[j]) || text[j] == '_'))
                j++;
            if (j == i || j - i >= NL_NAME_LEN || n_words == 6) {
                gr_set_err(err, errlen, "the argument '%.*s' is not a C type and name", (int)n, text);
                return -1;
            }
            if (j - i == 5 && strncmp(text + i, "const", 5) == 0)
                is_const = 1;
            else
                snprintf(words[n_words++], NL_NAME_LEN, "%.*s", (int)(j - i), text + i);
            i = j;
        }
    }
    if (n_words < 2 || stars > 1) {
        gr_set_err(err, errlen, "the argument '%.*s' is not a type and a name (arrays are "
                   "'float *x', at most one '*')", (int)n, text);
        return -1;
    }
    memset(a, 0, sizeof *a);
    snprintf(a->name, sizeof a->name, "%s", words[n_words - 1]);
    for (int w = 0; w < n_words - 1; w++) {
        size_t len = strlen(a->type);
        snprintf(a->type + len, sizeof a->type - len, "%s%s", w ? " " : "", words[w]);
    }
    a->kind = kind_of(a->type, stars);
    a->out = stars && !is_const;
    if (!a->kind) {
        gr_set_err(err, errlen, "the argument '%.*s': the test child carries arrays of float, "
                   "int (int32_t) and unsigned char (uint8_t), and scalars int, long, "
                   "int32_t, int64_t, size_t, float and double", (int)n, text);
        return -1;
    }
    return 0;
}

int nl_add_function(nl_lab *lab, const char *signature, char *err, size_t errlen)
{
    if (lab->n_fns == NL_MAX_FUNCS) {
        gr_set_err(err, errlen, "at most %d functions a lab", NL_MAX_FUNCS);
        return -1;
    }
    const char *s = signature, *open = strchr(s, '('), *close = strrchr(s, ')');
    while (isspace((unsigned char)*s))
        s++;
    const char *tail = close ? close + 1 : NULL;
    while (tail && (isspace((unsigned char)*tail) || *tail == ';'))
        tail++;
    if (strncmp(s, "int", 3) != 0 || !isspace((unsigned char)s[3]) || !open || !close ||
        close < open || *tail || strchr(s, '\n')) {
        gr_set_err(err, errlen, "'%s' is not a signature like 'int lab_row_sums(float *out, "
                   "const float *W, int rows, int n)': every lab function returns int "
                   "(LAB_OK, LAB_BAD_ARG)", signature);
        return -1;
    }
    const char *name = s + 3, *name_end = open;
    while (isspace((unsigned char)*name))
        name++;
    while (name_end > name && isspace((unsigned char)name_end[-1]))
        name_end--;
    size_t len = (size_t)(name_end - name);
    if (!is_ident(name, len) || len < 5 || strncmp(name, "lab_", 4) != 0 || len >= NL_NAME_LEN) {
        gr_set_err(err, errlen, "the function '%.*s': a lab function's name starts with lab_ "
                   "and is a C name of at most %d characters", (int)len, name, NL_NAME_LEN - 1);
        return -1;
    }
    nl_fn *f = &lab->fns[lab->n_fns];
    memset(f, 0, sizeof *f);
    snprintf(f->name, sizeof f->name, "%.*s", (int)len, name);
    f->points = DEFAULT_POINTS;
    for (const char *p = open + 1; p < close;) {
        const char *comma = memchr(p, ',', (size_t)(close - p));
        const char *end = comma ? comma : close;
        if (f->n_args == NL_MAX_ARGS) {
            gr_set_err(err, errlen, "%s: at most %d arguments", f->name, NL_MAX_ARGS);
            return -1;
        }
        if (parse_arg(p, (size_t)(end - p), &f->args[f->n_args], err, errlen) != 0)
            return -1;
        f->n_args++;
        p = end + 1;
    }
    f->signature = gr_xasprintf("%.*s", (int)(close + 1 - s), s);
    lab->n_fns++;
    return 0;
}

static nl_arg *arg_named(nl_fn *f, const char *name, size_t len)
{
    for (int i = 0; i < f->n_args; i++)
        if (strlen(f->args[i].name) == len && strncmp(f->args[i].name, name, len) == 0)
            return &f->args[i];
    return NULL;
}

/* Set array a's shape from dims[0..n) (each text[0..lens[i])). 0, or -1 with err. */
static int shape_of(nl_fn *f, nl_arg *a, const char *const *dims, const size_t *lens, int n,
                    char *err, size_t errlen)
{
    if (a->kind == 'n' || a->kind == 'r') {
        gr_set_err(err, errlen, "%s: %s is not an array: only arrays have a shape", f->name, a->name);
        return -1;
    }
    if (n < 1 || n > NL_MAX_DIMS) {
        gr_set_err(err, errlen, "%s: the shape of %s has 1 to %d sizes", f->name, a->name,
                   NL_MAX_DIMS);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        if (lens[i] == 0 || lens[i] >= NL_NAME_LEN) {
            gr_set_err(err, errlen, "%s: the shape of %s has an empty or overlong size", f->name,
                       a->name);
            return -1;
        }
        snprintf(a->dims[i], NL_NAME_LEN, "%.*s", (int)lens[i], dims[i]);
    }
    a->n_dims = n;
    return 0;
}

int nl_set_shape(nl_lab *lab, const char *spec, char *err, size_t errlen)
{
    if (lab->n_fns == 0) {
        gr_set_err(err, errlen, "--shape '%s' comes after the --function it shapes", spec);
        return -1;
    }
    nl_fn *f = &lab->fns[lab->n_fns - 1];
    const char *eq = strchr(spec, '=');
    nl_arg *a = eq ? arg_named(f, spec, (size_t)(eq - spec)) : NULL;
    if (!a) {
        gr_set_err(err, errlen, "--shape '%s' is not ARRAY=SIZE,SIZE,... for an array argument "
                   "of %s", spec, f->name);
        return -1;
    }
    const char *dims[NL_MAX_DIMS + 1];
    size_t lens[NL_MAX_DIMS + 1];
    int n = 0;
    for (const char *p = eq + 1; n <= NL_MAX_DIMS; n++) {
        size_t len = strcspn(p, ",");
        dims[n] = p;
        lens[n] = len;
        if (!p[len]) {
            n++;
            break;
        }
        p += len + 1;
    }
    return shape_of(f, a, dims, lens, n, err, errlen);
}

/* ---- the description file ------------------------------------------------------ */

typedef struct fn_read {
    nl_lab *lab;
    int fn;                     /* the function being read, once its signature is */
    const yaml_node_t *shapes;  /* read after the signature, whatever the order */
    const yaml_node_t *name;    /* the manifest's name, checked against the signature's */
    double points;
    int has_points;
} fn_read;

static int rd_signature(yr_doc *d, const yaml_node_t *v, void *t)
{
    fn_read *r = t;
    const char *sig;
    char why[512];
    if (yr_get_string(d, v, "signature", YR_NONEMPTY, &sig) != 0)
        return -1;
    if (nl_add_function(r->lab, sig, why, sizeof why) != 0)
        return yr_fail_at(d, v, "%s", why);
    r->fn = r->lab->n_fns - 1;
    return 0;
}

static int rd_shapes(yr_doc *d, const yaml_node_t *v, void *t)
{
    if (v->type != YAML_MAPPING_NODE)
        return yr_fail_at(d, v, "shapes: expected a mapping like {out: [rows], W: [rows, n]}, "
                          "got %s", yr_kind_name(v));
    ((fn_read *)t)->shapes = v;
    return 0;
}

static int rd_name(yr_doc *d, const yaml_node_t *v, void *t)
{
    const char *s;
    if (yr_get_string(d, v, "name", YR_NONEMPTY, &s) != 0)
        return -1;
    ((fn_read *)t)->name = v;
    return 0;
}

static int rd_points(yr_doc *d, const yaml_node_t *v, void *t)
{
    fn_read *r = t;
    if (yr_get_double(d, v, "points", &r->points) != 0)
        return -1;
    if (!(r->points > 0) || r->points > 1000)
        return yr_fail_at(d, v, "points: a function is worth more than 0 and at most 1000 "
                          "points, got %g", r->points);
    r->has_points = 1;
    return 0;
}

/* Every shape of r->shapes onto function r->fn. */
static int read_shapes(yr_doc *d, fn_read *r)
{
    nl_fn *f = &r->lab->fns[r->fn];
    for (const yaml_node_pair_t *p = r->shapes->data.mapping.pairs.start;
         p < r->shapes->data.mapping.pairs.top; p++) {
        const yaml_node_t *key, *v = yr_node(d, p->value);
        if (yr_key(d, r->shapes, p, "shapes", &key) != 0)
            return -1;
        nl_arg *a = arg_named(f, yr_text(key), strlen(yr_text(key)));
        if (!a)
            return yr_fail_at(d, key, "shapes: %s has no argument %s", f->name, yr_text(key));
        int n;
        if (yr_get_seq(d, v, yr_text(key), "[rows, n]", &n) != 0)
            return -1;
        const char *dims[NL_MAX_DIMS];
        size_t lens[NL_MAX_DIMS];
        for (int i = 0; i < n && i < NL_MAX_DIMS; i++) {
            const yaml_node_t *item = yr_item(d, v, i);
            if (item->type != YAML_SCALAR_NODE)
                return yr_fail_at(d, item, "%s: a size is an int argument's name or a number",
                                  yr_text(key));
            dims[i] = yr_text(item);
            lens[i] = strlen(dims[i]);
        }
        char why[256];
        if (shape_of(f, a, dims, lens, n, why, sizeof why) != 0)
            return yr_fail_at(d, v, "%s", why);
    }
    return 0;
}

static int rd_function(yr_doc *d, const yaml_node_t *item, nl_lab *lab)
{
    static const yr_field fields[] = {
        {"name", 0, rd_name},
        {"signature", 1, rd_signature},
        {"shapes", 0, rd_shapes},
        {"points", 0, rd_points},
    };
    fn_read r = {.lab = lab, .fn = -1};
    if (yr_walk(d, item, "functions", "a function", fields, YR_N_FIELDS(fields), &r) != 0)
        return -1;
    if (r.name && strcmp(yr_text(r.name), lab->fns[r.fn].name) != 0)
        return yr_fail_at(d, r.name, "name: %s, but the signature declares %s", yr_text(r.name),
                          lab->fns[r.fn].name);
    if (r.has_points)
        lab->fns[r.fn].points = r.points;
    return r.shapes ? read_shapes(d, &r) : 0;
}

static int rd_functions(yr_doc *d, const yaml_node_t *v, void *t)
{
    int n;
    if (yr_get_seq(d, v, "functions", "[{signature: ..., shapes: {...}}]", &n) != 0)
        return -1;
    if (n == 0)
        return yr_fail_at(d, v, "functions: list at least one function");
    for (int i = 0; i < n; i++)
        if (rd_function(d, yr_item(d, v, i), t) != 0)
            return -1;
    return 0;
}

static int rd_title(yr_doc *d, const yaml_node_t *v, void *t)
{
    nl_lab *lab = t;
    const char *s;
    if (yr_get_string(d, v, "title", YR_NONEMPTY, &s) != 0)
        return -1;
    if (strlen(s) > 120 || strpbrk(s, "\n\"\\"))
        return yr_fail_at(d, v, "title: one line of at most 120 characters, without quotes "
                          "or backslashes");
    free(lab->title);
    lab->title = gr_xstrdup(s);
    return 0;
}

int nl_load_description(const char *path, nl_lab *lab, char *err, size_t errlen)
{
    static const yr_field fields[] = {
        {"title", 0, rd_title},
        {"functions", 1, rd_functions},
    };
    size_t len;
    char *text = yr_read_file(path, &len);
    if (!text) {
        gr_set_err(err, errlen, "cannot read the description %s", path);
        return -1;
    }
    yr_doc d;
    int rc = yr_open(&d, path, text, len, err, errlen);
    if (rc == 0 && !yr_root(&d))
        rc = yr_fail(&d, "the description is empty; it needs functions: [...]");
    if (rc == 0)
        rc = yr_walk(&d, yr_root(&d), "the description", "the description", fields,
                     YR_N_FIELDS(fields), lab);
    if (rc == 0)
        rc = yr_expect_end(&d, "one description a file");
    yr_close(&d);
    free(text);
    return rc;
}

/* ---- checks ---------------------------------------------------------------------- */

static int check_function(const nl_fn *f, char *err, size_t errlen)
{
    int outs = 0;
    for (int i = 0; i < f->n_args; i++) {
        const nl_arg *a = &f->args[i];
        for (size_t r = 0; r < sizeof reserved / sizeof *reserved; r++)
            if (strcmp(a->name, reserved[r]) == 0) {
                gr_set_err(err, errlen, "%s: rename the argument %s: the generated grader "
                           "code uses that name for its own variable", f->name, a->name);
                return -1;
            }
        for (int j = 0; j < i; j++)
            if (strcmp(a->name, f->args[j].name) == 0) {
                gr_set_err(err, errlen, "%s: two arguments are named %s", f->name, a->name);
                return -1;
            }
    }
    for (int i = 0; i < f->n_args; i++) {
        const nl_arg *a = &f->args[i];
        if (a->kind == 'n' || a->kind == 'r')
            continue;
        outs += a->out;
        if (a->n_dims == 0) {
            gr_set_err(err, errlen, "%s: give the shape of the array %s (--shape %s=rows,n, "
                       "or shapes: {%s: [rows, n]} in the description)", f->name, a->name,
                       a->name, a->name);
            return -1;
        }
        for (int k = 0; k < a->n_dims; k++) {
            char *end;
            long v = strtol(a->dims[k], &end, 10);
            if (*end == '\0' && v >= 1)
                continue;
            const nl_arg *dim = NULL;
            for (int j = 0; j < f->n_args; j++)
                if (strcmp(f->args[j].name, a->dims[k]) == 0)
                    dim = &f->args[j];
            if (!dim || dim->kind != 'n') {
                gr_set_err(err, errlen, "%s: the size '%s' of %s is neither an int argument "
                           "of the function nor a whole number above 0", f->name, a->dims[k],
                           a->name);
                return -1;
            }
        }
    }
    if (outs == 0) {
        gr_set_err(err, errlen, "%s: a lab function writes its answer into an array: make one "
                   "array argument not const", f->name);
        return -1;
    }
    return 0;
}

int nl_check(const nl_lab *lab, char *err, size_t errlen)
{
    if (lab->n_fns == 0) {
        gr_set_err(err, errlen, "describe the lab's functions: --function \"SIGNATURE\" "
                   "(with --shape ARRAY=SIZES), or --from FILE");
        return -1;
    }
    for (int i = 0; i < lab->n_fns; i++) {
        for (int j = 0; j < i; j++)
            if (strcmp(lab->fns[i].name, lab->fns[j].name) == 0) {
                gr_set_err(err, errlen, "the function %s is given twice", lab->fns[i].name);
                return -1;
            }
        if (check_function(&lab->fns[i], err, errlen) != 0)
            return -1;
    }
    return 0;
}

double nl_points(const nl_lab *lab)
{
    double sum = 0;
    for (int i = 0; i < lab->n_fns; i++)
        sum += lab->fns[i].points;
    return sum;
}

void nl_free(nl_lab *lab)
{
    for (int i = 0; i < lab->n_fns; i++)
        free(lab->fns[i].signature);
    free(lab->title);
    memset(lab, 0, sizeof *lab);
}
