/* sup_yaml.c: read and write tensors as YAML files, with libyaml.
 *
 * The format (labsup.h) is a mapping of names to tensors:
 *
 *     Q:
 *       shape: [2, 3]
 *       data: [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
 *
 * Reading loads the one document with yaml_parser_load and walks its nodes.
 * Every tensor in the file is checked, whichever one is asked for, so a bad
 * file is reported the same way every time. Each mistake is reported as
 * "file:line:column: what is wrong" from the start of the node at fault
 * (libyaml's marks are zero-based; people count from 1).
 *
 * Writing never leaves a half-written file: the text goes to a temporary file
 * in the same folder, is flushed to disk (fsync), and only then renamed over
 * the target, which the rename replaces in one step.
 *
 * Non-finite values use YAML's spellings: -.inf, .inf, .nan. Finite values are
 * written with the fewest digits that read back to the same float.
 */
#include "labsup.h"
#include "sup_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml.h>

/* ---- reading: helpers ------------------------------------------------------------ */

/* A reading in progress: the file and its loaded document. */
typedef struct yreader {
    const char *path;
    yaml_document_t *doc;
} yreader;

/* Record "path:line:column: message" at node's start. */
static void node_error(const yreader *r, const yaml_node_t *node, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void node_error(const yreader *r, const yaml_node_t *node, const char *fmt, ...)
{
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    sup_set_error("%s:%lu:%lu: %s", r->path,
                  (unsigned long)node->start_mark.line + 1,
                  (unsigned long)node->start_mark.column + 1, msg);
}

/* What kind of node this is, for messages: "a mapping", "a list", "a value". */
static const char *node_kind(const yaml_node_t *node)
{
    switch (node->type) {
    case YAML_MAPPING_NODE:  return "a mapping";
    case YAML_SEQUENCE_NODE: return "a list";
    case YAML_SCALAR_NODE:   return "a single value";
    default:                 return "nothing";
    }
}

static const char *scalar_text(const yaml_node_t *node)
{
    return (const char *)node->data.scalar.value;
}

/* A scalar written in quotes is a string in YAML, not a number. */
static int is_quoted(const yaml_node_t *node)
{
    return node->data.scalar.style == YAML_SINGLE_QUOTED_SCALAR_STYLE ||
           node->data.scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE;
}

/* Parse one data value: a number strtod accepts in full, or YAML's .inf, -.inf,
   .nan (any of the three capitalisations). 0, or -1 with the error recorded. */
static int parse_value(const yreader *r, const yaml_node_t *node, const char *tname,
                       float *out)
{
    static const char *const pos_inf[] = { ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF" };
    static const char *const neg_inf[] = { "-.inf", "-.Inf", "-.INF" };
    static const char *const nan_[]    = { ".nan", ".NaN", ".NAN" };
    const char *s = scalar_text(node);

    if (node->type != YAML_SCALAR_NODE) {
        node_error(r, node, "the data of '%s' must be a flat list of numbers, found %s "
                   "inside it", tname, node_kind(node));
        return -1;
    }
    if (is_quoted(node)) {
        node_error(r, node, "'%s' in the data of '%s' is quoted, so YAML reads it as text; "
                   "write numbers without quotes", s, tname);
        return -1;
    }
    for (size_t i = 0; i < sizeof pos_inf / sizeof *pos_inf; i++)
        if (strcmp(s, pos_inf[i]) == 0) { *out = INFINITY; return 0; }
    for (size_t i = 0; i < sizeof neg_inf / sizeof *neg_inf; i++)
        if (strcmp(s, neg_inf[i]) == 0) { *out = -INFINITY; return 0; }
    for (size_t i = 0; i < sizeof nan_ / sizeof *nan_; i++)
        if (strcmp(s, nan_[i]) == 0) { *out = NAN; return 0; }

    /* strtod must use every character: "1.5x" or "" is not a number. */
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end != '\0' || s[0] == ' ' || s[0] == '\t') {
        node_error(r, node, "'%s' in the data of '%s' is not a number (write e.g. 0.5, "
                   "-2, 1e-3, .inf, -.inf or .nan)", s, tname);
        return -1;
    }
    /* A finite number that would round to inf as a float is out of range:
       that is |v| >= FLT_MAX + half an ulp = 2^128 - 2^103 (written 0x1.ffffffp127).
       3.4028235e38, FLT_MAX printed with 8 digits, is still in range. */
    if ((errno == ERANGE && fabs(v) > 1.0) || (isfinite(v) && fabs(v) >= 0x1.ffffffp127)) {
        node_error(r, node, "%s in the data of '%s' is outside the float range "
                   "(about +-3.4e38); write .inf or -.inf if you mean infinity", s, tname);
        return -1;
    }
    *out = (float)v;
    return 0;
}

/* Parse one size of a shape: a whole number from 1 to INT_MAX. */
static int parse_size(const yreader *r, const yaml_node_t *node, const char *tname, int *out)
{
    if (node->type != YAML_SCALAR_NODE || is_quoted(node)) {
        node_error(r, node, "the shape of '%s' must be a list of whole numbers, found %s",
                   tname, node->type == YAML_SCALAR_NODE ? "a quoted value" : node_kind(node));
        return -1;
    }
    const char *s = scalar_text(node);
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end != '\0') {
        node_error(r, node, "size '%s' in the shape of '%s' is not a whole number", s, tname);
        return -1;
    }
    if (v < 1) {
        node_error(r, node, "size %ld in the shape of '%s' must be at least 1", v, tname);
        return -1;
    }
    if (errno == ERANGE || v > INT_MAX) {
        node_error(r, node, "size %s in the shape of '%s' is too large", s, tname);
        return -1;
    }
    *out = (int)v;
    return 0;
}

/* Parse the tensor called tname from its mapping node. The tensor, or NULL with
   the error recorded. */
static sup_tensor *parse_tensor(const yreader *r, const char *tname, yaml_node_t *node)
{
    if (node->type != YAML_MAPPING_NODE) {
        node_error(r, node, "tensor '%s' must be a mapping with the keys shape and data, "
                   "found %s", tname, node_kind(node));
        return NULL;
    }

    /* Known keys only: shape and data, each once. */
    yaml_node_t *shape_node = NULL, *data_node = NULL;
    for (yaml_node_pair_t *p = node->data.mapping.pairs.start;
         p < node->data.mapping.pairs.top; p++) {
        yaml_node_t *key = yaml_document_get_node(r->doc, p->key);
        yaml_node_t *val = yaml_document_get_node(r->doc, p->value);
        if (key->type != YAML_SCALAR_NODE) {
            node_error(r, key, "the keys of tensor '%s' must be the words shape and data, "
                       "found %s", tname, node_kind(key));
            return NULL;
        }
        const char *k = scalar_text(key);
        yaml_node_t **slot = strcmp(k, "shape") == 0 ? &shape_node
                           : strcmp(k, "data") == 0  ? &data_node : NULL;
        if (!slot) {
            node_error(r, key, "unknown key '%s' in tensor '%s' (a tensor has only shape "
                       "and data)", k, tname);
            return NULL;
        }
        if (*slot) {
            node_error(r, key, "'%s' appears twice in tensor '%s'; keep one", k, tname);
            return NULL;
        }
        *slot = val;
    }
    if (!shape_node) {
        node_error(r, node, "tensor '%s' has no shape; add e.g. shape: [2, 3]", tname);
        return NULL;
    }
    if (!data_node) {
        node_error(r, node, "tensor '%s' has no data; add data: [...] with one number per "
                   "element", tname);
        return NULL;
    }

    /* shape: a list of 1 to SUP_MAX_DIMS sizes. */
    if (shape_node->type != YAML_SEQUENCE_NODE) {
        node_error(r, shape_node, "the shape of '%s' must be a list of sizes like [2, 3], "
                   "found %s", tname, node_kind(shape_node));
        return NULL;
    }
    yaml_node_item_t *items = shape_node->data.sequence.items.start;
    long ndim = shape_node->data.sequence.items.top - items;
    if (ndim < 1 || ndim > SUP_MAX_DIMS) {
        node_error(r, shape_node, "the shape of '%s' has %ld sizes; a tensor has 1 to %d",
                   tname, ndim, SUP_MAX_DIMS);
        return NULL;
    }
    int shape[SUP_MAX_DIMS];
    long need = 1;
    for (long k = 0; k < ndim; k++) {
        if (parse_size(r, yaml_document_get_node(r->doc, items[k]), tname, &shape[k]) != 0)
            return NULL;
        if (need > (LONG_MAX / 8) / shape[k]) {
            node_error(r, shape_node, "the shape of '%s' has too many elements", tname);
            return NULL;
        }
        need *= shape[k];
    }

    /* data: a flat list with exactly one number per element. */
    if (data_node->type != YAML_SEQUENCE_NODE) {
        node_error(r, data_node, "the data of '%s' must be a list of numbers like "
                   "[1.0, 2.0], found %s", tname, node_kind(data_node));
        return NULL;
    }
    items = data_node->data.sequence.items.start;
    long have = data_node->data.sequence.items.top - items;
    if (have != need) {
        char dims[64] = "";
        for (long k = 0; k < ndim; k++)
            snprintf(dims + strlen(dims), sizeof dims - strlen(dims), "%s%d",
                     k ? ", " : "", shape[k]);
        node_error(r, data_node, "tensor '%s' has %ld data values but its shape [%s] "
                   "needs %ld", tname, have, dims, need);
        return NULL;
    }
    sup_tensor *t = sup_tensor_alloc((int)ndim, shape);
    if (!t)
        return NULL;
    for (long n = 0; n < need; n++) {
        if (parse_value(r, yaml_document_get_node(r->doc, items[n]), tname, &t->data[n]) != 0) {
            sup_tensor_free(t);
            return NULL;
        }
    }
    return t;
}

/* Record a libyaml syntax error as "path:line:column: ...". */
static void syntax_error(const char *path, const yaml_parser_t *p)
{
    if (p->error == YAML_READER_ERROR) {
        sup_set_error("%s: cannot read the file as UTF-8 text: %s (byte %lu)", path,
                      p->problem ? p->problem : "unknown problem",
                      (unsigned long)p->problem_offset);
    } else if (p->error == YAML_MEMORY_ERROR) {
        sup_set_error("%s: out of memory while reading the YAML", path);
    } else if (p->context) {
        sup_set_error("%s:%lu:%lu: YAML syntax error: %s (%s, which starts at line %lu)",
                      path, (unsigned long)p->problem_mark.line + 1,
                      (unsigned long)p->problem_mark.column + 1,
                      p->problem ? p->problem : "unknown problem", p->context,
                      (unsigned long)p->context_mark.line + 1);
    } else {
        sup_set_error("%s:%lu:%lu: YAML syntax error: %s", path,
                      (unsigned long)p->problem_mark.line + 1,
                      (unsigned long)p->problem_mark.column + 1,
                      p->problem ? p->problem : "unknown problem");
    }
}

/* ---- reading ----------------------------------------------------------------------- */

sup_tensor *sup_yaml_read_tensor(const char *path, const char *name)
{
    if (!path || !name) {
        sup_set_error("sup_yaml_read_tensor: %s is NULL; pass a file path and a tensor name",
                      !path ? "path" : "name");
        return NULL;
    }
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        sup_set_error("%s: is a folder, not a YAML file", path);
        return NULL;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        sup_set_error("%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }

    yaml_parser_t parser;
    yaml_document_t doc;
    sup_tensor *found = NULL;
    int have_doc = 0, failed = 0;
    if (!yaml_parser_initialize(&parser)) {
        fclose(f);
        sup_set_error("%s: out of memory starting the YAML parser", path);
        return NULL;
    }
    yaml_parser_set_input_file(&parser, f);
    if (!yaml_parser_load(&parser, &doc)) {
        syntax_error(path, &parser);
        goto done;
    }
    have_doc = 1;
    yreader r = { path, &doc };

    yaml_node_t *root = yaml_document_get_root_node(&doc);
    if (!root) {
        sup_set_error("%s: the file is empty; it should map names to tensors, e.g. "
                      "\"Q: {shape: [2], data: [1.0, 2.0]}\"", path);
        goto done;
    }
    if (root->type != YAML_MAPPING_NODE) {
        node_error(&r, root, "the file should map tensor names to tensors (Q: ...), "
                   "found %s", node_kind(root));
        goto done;
    }

    /* Check every tensor; keep the one asked for. */
    for (yaml_node_pair_t *p = root->data.mapping.pairs.start;
         p < root->data.mapping.pairs.top; p++) {
        yaml_node_t *key = yaml_document_get_node(&doc, p->key);
        if (key->type != YAML_SCALAR_NODE || scalar_text(key)[0] == '\0') {
            node_error(&r, key, "a tensor name must be a plain word like Q, found %s",
                       key->type == YAML_SCALAR_NODE ? "an empty name" : node_kind(key));
            failed = 1;
            break;
        }
        const char *tname = scalar_text(key);
        for (yaml_node_pair_t *q = root->data.mapping.pairs.start; q < p; q++) {
            yaml_node_t *earlier = yaml_document_get_node(&doc, q->key);
            if (strcmp(scalar_text(earlier), tname) == 0) {
                node_error(&r, key, "tensor '%s' is defined twice (first at line %lu); "
                           "rename or remove one", tname,
                           (unsigned long)earlier->start_mark.line + 1);
                failed = 1;
                break;
            }
        }
        if (failed)
            break;
        sup_tensor *t = parse_tensor(&r, tname, yaml_document_get_node(&doc, p->value));
        if (!t) {
            failed = 1;
            break;
        }
        if (strcmp(tname, name) == 0)
            found = t;
        else
            sup_tensor_free(t);
    }
    if (failed) {
        sup_tensor_free(found);
        found = NULL;
        goto done;
    }

    /* One document per file: a second one is a mistake, not something to ignore. */
    yaml_document_t extra;
    if (!yaml_parser_load(&parser, &extra)) {
        syntax_error(path, &parser);
        sup_tensor_free(found);
        found = NULL;
        goto done;
    }
    yaml_node_t *extra_root = yaml_document_get_root_node(&extra);
    int second_doc = extra_root != NULL;
    if (second_doc) {
        node_error(&r, extra_root, "a second YAML document starts here; put all tensors "
                   "in one mapping");
        sup_tensor_free(found);
        found = NULL;
    }
    yaml_document_delete(&extra);
    if (!found && !second_doc) {
        /* List what the file does have, so a typo is easy to spot. */
        char names[512] = "";
        for (yaml_node_pair_t *p = root->data.mapping.pairs.start;
             p < root->data.mapping.pairs.top; p++) {
            size_t len = strlen(names);
            snprintf(names + len, sizeof names - len, "%s%s", len ? ", " : "",
                     scalar_text(yaml_document_get_node(&doc, p->key)));
        }
        sup_set_error("%s: no tensor named '%s' (the file has: %s)", path, name,
                      names[0] ? names : "none");
    }

done:
    if (have_doc)
        yaml_document_delete(&doc);
    yaml_parser_delete(&parser);
    fclose(f);
    return found;
}

/* ---- writing ------------------------------------------------------------------------ */

/* A name written as a plain YAML key: a letter or _, then letters, digits, _ . -
   Anything else could need quoting or read back as a number or a boolean. */
static int plain_name(const char *s)
{
    if (!s || !(s[0] == '_' || (s[0] >= 'A' && s[0] <= 'Z') || (s[0] >= 'a' && s[0] <= 'z')))
        return 0;
    for (const char *c = s; *c; c++) {
        int ok = *c == '_' || *c == '.' || *c == '-' || (*c >= '0' && *c <= '9') ||
                 (*c >= 'A' && *c <= 'Z') || (*c >= 'a' && *c <= 'z');
        if (!ok)
            return 0;
    }
    /* YAML 1.1 reads these bare words as booleans or null. */
    static const char *const reserved[] = { "y", "Y", "yes", "Yes", "YES", "n", "N", "no",
        "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE", "on", "On", "ON",
        "off", "Off", "OFF", "null", "Null", "NULL" };
    for (size_t i = 0; i < sizeof reserved / sizeof *reserved; i++)
        if (strcmp(s, reserved[i]) == 0)
            return 0;
    return 1;
}

/* A float as YAML: the fewest significant digits (1 to 9) that read back to
   exactly v, always with a decimal point so YAML readers see a float, or
   .inf / -.inf / .nan. */
static void fmt_yaml_float(char buf[48], float v)
{
    if (isnan(v)) { strcpy(buf, ".nan"); return; }
    if (isinf(v)) { strcpy(buf, v > 0 ? ".inf" : "-.inf"); return; }
    for (int p = 1; p <= 9; p++) {       /* 9 digits always round-trip a float */
        snprintf(buf, 48, "%.*g", p, (double)v);
        if ((float)strtod(buf, NULL) == v)
            break;
    }
    if (!strchr(buf, '.')) {
        char *e = strchr(buf, 'e');
        if (e) {                          /* 1e+10 -> 1.0e+10 */
            memmove(e + 2, e, strlen(e) + 1);
            e[0] = '.';
            e[1] = '0';
        } else {                          /* 2 -> 2.0 */
            strcat(buf, ".0");
        }
    }
}

/* Check one tensor before anything is written. 0, or -1 with the error recorded. */
static int check_tensor(const char *name, const sup_tensor *t)
{
    if (!t || !t->data) {
        sup_set_error("sup_yaml_write_tensors: tensor '%s' is NULL or has no data", name);
        return -1;
    }
    if (t->ndim < 1 || t->ndim > SUP_MAX_DIMS) {
        sup_set_error("sup_yaml_write_tensors: tensor '%s' has ndim %d; a tensor has 1 to %d "
                      "dimensions", name, t->ndim, SUP_MAX_DIMS);
        return -1;
    }
    long size = 1;
    for (int k = 0; k < t->ndim; k++) {
        if (t->shape[k] < 1) {
            sup_set_error("sup_yaml_write_tensors: tensor '%s' has shape[%d] = %d; every "
                          "size must be at least 1", name, k, t->shape[k]);
            return -1;
        }
        size *= t->shape[k];
    }
    if (size != t->size) {
        sup_set_error("sup_yaml_write_tensors: tensor '%s' says size %ld but its shape holds "
                      "%ld; allocate it with sup_tensor_alloc", name, t->size, size);
        return -1;
    }
    return 0;
}

/* Write one tensor's YAML to f: data broken after each row of the last axis
   (and every 8 numbers), continuation lines indented under the '['. */
static void write_tensor(FILE *f, const char *name, const sup_tensor *t)
{
    fprintf(f, "%s:\n  shape: [", name);
    for (int k = 0; k < t->ndim; k++)
        fprintf(f, "%s%d", k ? ", " : "", t->shape[k]);
    fputs("]\n  data: [", f);
    int row = t->shape[t->ndim - 1];
    char buf[48];
    for (long n = 0; n < t->size; n++) {
        if (n > 0) {
            int wrap = n % row == 0 || (n % row) % 8 == 0;
            fputs(wrap ? ",\n         " : ", ", f);
        }
        fmt_yaml_float(buf, t->data[n]);
        fputs(buf, f);
    }
    fputs("]\n", f);
}

/* Best effort: make the rename itself durable by syncing the folder. */
static void sync_parent_dir(const char *path)
{
    char dir[4096];
    const char *slash = strrchr(path, '/');
    if (!slash)
        strcpy(dir, ".");
    else if (slash == path)
        strcpy(dir, "/");
    else if ((size_t)(slash - path) < sizeof dir)
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    else
        return;
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
}

int sup_yaml_write_tensors(const char *path, const char *const *names,
                           const sup_tensor *const *tensors, int n)
{
    if (!path || path[0] == '\0') {
        sup_set_error("sup_yaml_write_tensors: no path given; pass the file to write");
        return -1;
    }
    if (n < 1 || !names || !tensors) {
        sup_set_error("sup_yaml_write_tensors: nothing to write (n = %d); pass at least one "
                      "name and tensor", n);
        return -1;
    }
    /* Check everything first: an invalid argument must not cost the old file. */
    for (int i = 0; i < n; i++) {
        if (!plain_name(names[i])) {
            sup_set_error("sup_yaml_write_tensors: '%s' cannot be a tensor name; start with a "
                          "letter or _, then use letters, digits, _ . - (and not a YAML word "
                          "like yes, no or null)", names[i] ? names[i] : "(NULL)");
            return -1;
        }
        for (int j = 0; j < i; j++) {
            if (strcmp(names[i], names[j]) == 0) {
                sup_set_error("sup_yaml_write_tensors: the name '%s' is given twice; names "
                              "in one file must differ", names[i]);
                return -1;
            }
        }
        if (check_tensor(names[i], tensors[i]) != 0)
            return -1;
    }

    /* Keep the mode of a file being replaced; a new file gets rw-r--r--. */
    struct stat st;
    mode_t mode = 0644;
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            sup_set_error("cannot write '%s': it is a folder; give a file name", path);
            return -1;
        }
        mode = st.st_mode & 07777;
    }

    size_t tlen = strlen(path) + sizeof ".tmp.XXXXXX";
    char *tmp = malloc(tlen);
    if (!tmp) {
        sup_set_error("cannot write '%s': out of memory", path);
        return -1;
    }
    snprintf(tmp, tlen, "%s.tmp.XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        sup_set_error("cannot write '%s': %s (does the folder exist, and may you write in it?)",
                      path, strerror(errno));
        free(tmp);
        return -1;
    }
    FILE *f = fdopen(fd, "w");
    if (!f) {
        int e = errno;
        close(fd);
        unlink(tmp);
        free(tmp);
        sup_set_error("cannot write '%s': %s", path, strerror(e));
        return -1;
    }

    errno = 0;
    fputs("# tensors written by attnlab (sup_yaml_write_tensors)\n", f);
    for (int i = 0; i < n; i++)
        write_tensor(f, names[i], tensors[i]);

    /* Every step must succeed before the rename; any failure removes the
       temporary file and leaves path exactly as it was. */
    int err = 0;
    if (fflush(f) != 0 || ferror(f))
        err = errno ? errno : EIO;
    if (!err && (fchmod(fd, mode) != 0 || fsync(fd) != 0))
        err = errno;
    if (fclose(f) != 0 && !err)
        err = errno;
    if (!err && rename(tmp, path) != 0)
        err = errno;
    if (err) {
        unlink(tmp);
        free(tmp);
        sup_set_error("cannot write '%s': %s; the file was left as it was", path, strerror(err));
        return -1;
    }
    free(tmp);
    sync_parent_dir(path);
    return 0;
}
