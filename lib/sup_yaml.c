/* sup_yaml.c: read and write tensors as YAML files, with libyaml.
 *
 * The format (labsup.h) is a mapping of names to tensors:
 *
 *     Q:
 *       shape: [2, 3]
 *       data: [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
 *
 * Reading loads the one document with the shared YAML reader
 * (sup_yamlread.h) and walks its nodes. Every tensor in the file is checked,
 * whichever one is asked for, so a bad file is reported the same way every
 * time. Each mistake is reported as "file:line:column: what is wrong" from
 * the start of the node at fault.
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
#include "sup_yamlread.h"

#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- reading: one tensor ---------------------------------------------------------- */

/* Parse one data value: YAML's .inf, -.inf, .nan or a number strtod accepts in
   full (yr_parse_real), within the float range. 0, or -1 with the error. */
static int parse_value(yr_doc *d, const yaml_node_t *node, const char *tname, float *out)
{
    if (node->type != YAML_SCALAR_NODE)
        return yr_fail_at(d, node, "the data of '%s' must be a flat list of numbers, found %s "
                          "inside it", tname, yr_kind_name(node));
    const char *s = yr_text(node);
    if (yr_is_quoted(node))
        return yr_fail_at(d, node, "'%s' in the data of '%s' is quoted, so YAML reads it as "
                          "text; write numbers without quotes", s, tname);
    double v = 0;
    yr_num r = yr_parse_real(s, &v);
    if (r == YR_NUM_BAD)
        return yr_fail_at(d, node, "'%s' in the data of '%s' is not a number (write e.g. 0.5, "
                          "-2, 1e-3, .inf, -.inf or .nan)", s, tname);
    /* A finite number that would round to inf as a float is out of range:
       that is |v| >= FLT_MAX + half an ulp = 2^128 - 2^103 (written 0x1.ffffffp127).
       3.4028235e38, FLT_MAX printed with 8 digits, is still in range. */
    if (r == YR_NUM_RANGE || (isfinite(v) && fabs(v) >= 0x1.ffffffp127))
        return yr_fail_at(d, node, "%s in the data of '%s' is outside the float range "
                          "(about +-3.4e38); write .inf or -.inf if you mean infinity", s, tname);
    *out = (float)v;
    return 0;
}

/* Parse one size of a shape: a whole number from 1 to INT_MAX. */
static int parse_size(yr_doc *d, const yaml_node_t *node, const char *tname, int *out)
{
    if (node->type != YAML_SCALAR_NODE || yr_is_quoted(node))
        return yr_fail_at(d, node, "the shape of '%s' must be a list of whole numbers, found %s",
                          tname, node->type == YAML_SCALAR_NODE ? "a quoted value"
                                                                : yr_kind_name(node));
    const char *s = yr_text(node);
    long v = 0;
    yr_num r = yr_parse_long(s, &v);
    if (r == YR_NUM_BAD)
        return yr_fail_at(d, node, "size '%s' in the shape of '%s' is not a whole number",
                          s, tname);
    if (r == YR_NUM_RANGE ? s[0] == '-' : v < 1)
        return yr_fail_at(d, node, "size %s in the shape of '%s' must be at least 1", s, tname);
    if (r == YR_NUM_RANGE || v > INT_MAX)
        return yr_fail_at(d, node, "size %s in the shape of '%s' is too large", s, tname);
    *out = (int)v;
    return 0;
}

/* Parse the shape node of tname: 1 to SUP_MAX_DIMS sizes into shape, their
   product into *size. 0, or -1 with the error. */
static int parse_shape(yr_doc *d, const yaml_node_t *node, const char *tname,
                       int shape[SUP_MAX_DIMS], int *ndim, long *size)
{
    if (node->type != YAML_SEQUENCE_NODE)
        return yr_fail_at(d, node, "the shape of '%s' must be a list of sizes like [2, 3], "
                          "found %s", tname, yr_kind_name(node));
    int n = yr_count(node);
    if (n < 1 || n > SUP_MAX_DIMS)
        return yr_fail_at(d, node, "the shape of '%s' has %d sizes; a tensor has 1 to %d",
                          tname, n, SUP_MAX_DIMS);
    long need = 1;
    for (int k = 0; k < n; k++) {
        const yaml_node_t *item = yr_item(d, node, k);
        if (!item || parse_size(d, item, tname, &shape[k]) != 0)
            return item ? -1 : yr_fail_at(d, node, "the YAML document is damaged");
        if (need > (LONG_MAX / 8) / shape[k])
            return yr_fail_at(d, node, "the shape of '%s' has too many elements", tname);
        need *= shape[k];
    }
    *ndim = n;
    *size = need;
    return 0;
}

/* A tensor's two keys, as the walk finds them. */
typedef struct tensor_nodes {
    const yaml_node_t *shape, *data;
} tensor_nodes;

static int rd_shape(yr_doc *d, const yaml_node_t *v, void *target)
{
    (void)d;
    ((tensor_nodes *)target)->shape = v;
    return 0;
}

static int rd_data(yr_doc *d, const yaml_node_t *v, void *target)
{
    (void)d;
    ((tensor_nodes *)target)->data = v;
    return 0;
}

/* Known keys only: shape and data, each once (their absence has its own words). */
static const yr_field tensor_fields[] = {
    {"shape", 0, rd_shape},
    {"data", 0, rd_data},
};

/* Parse the tensor called tname from its mapping node. The tensor, or NULL with
   the error in d. */
static sup_tensor *parse_tensor(yr_doc *d, const char *tname, const yaml_node_t *node)
{
    if (node->type != YAML_MAPPING_NODE) {
        yr_fail_at(d, node, "tensor '%s' must be a mapping with the keys shape and data, "
                   "found %s", tname, yr_kind_name(node));
        return NULL;
    }
    char where[96];
    snprintf(where, sizeof where, "tensor '%s'", tname);
    tensor_nodes kn = {NULL, NULL};
    if (yr_walk(d, node, where, where, tensor_fields, YR_N_FIELDS(tensor_fields), &kn) != 0)
        return NULL;
    if (!kn.shape) {
        yr_fail_at(d, node, "tensor '%s' has no shape; add e.g. shape: [2, 3]", tname);
        return NULL;
    }
    if (!kn.data) {
        yr_fail_at(d, node, "tensor '%s' has no data; add data: [...] with one number per "
                   "element", tname);
        return NULL;
    }
    int shape[SUP_MAX_DIMS], ndim = 0;
    long need = 0;
    if (parse_shape(d, kn.shape, tname, shape, &ndim, &need) != 0)
        return NULL;

    /* data: a flat list with exactly one number per element. */
    if (kn.data->type != YAML_SEQUENCE_NODE) {
        yr_fail_at(d, kn.data, "the data of '%s' must be a list of numbers like [1.0, 2.0], "
                   "found %s", tname, yr_kind_name(kn.data));
        return NULL;
    }
    long have = yr_count(kn.data);
    if (have != need) {
        char dims[64] = "";
        for (int k = 0; k < ndim; k++)
            snprintf(dims + strlen(dims), sizeof dims - strlen(dims), "%s%d",
                     k ? ", " : "", shape[k]);
        yr_fail_at(d, kn.data, "tensor '%s' has %ld data values but its shape [%s] needs %ld",
                   tname, have, dims, need);
        return NULL;
    }
    sup_tensor *t = sup_tensor_alloc(ndim, shape);
    if (!t) {
        yr_fail_at(d, node, "out of memory for the %ld values of tensor '%s'", need, tname);
        return NULL;
    }
    for (long n = 0; n < need; n++) {
        const yaml_node_t *item = yr_item(d, kn.data, (int)n);
        if (!item || parse_value(d, item, tname, &t->data[n]) != 0) {
            if (!item)
                yr_fail_at(d, kn.data, "the YAML document is damaged");
            sup_tensor_free(t);
            return NULL;
        }
    }
    return t;
}

/* ---- reading: the file ---------------------------------------------------------------- */

/* Check every tensor of the root mapping; hand back the one called name in
   *found (NULL when there is none). 0, or -1 with the error in d. */
static int parse_all(yr_doc *d, const yaml_node_t *root, const char *name, sup_tensor **found)
{
    *found = NULL;
    for (const yaml_node_pair_t *p = root->data.mapping.pairs.start;
         p < root->data.mapping.pairs.top; p++) {
        const yaml_node_t *key = yr_node(d, p->key), *val = yr_node(d, p->value);
        if (!key || !val)
            return yr_fail_at(d, root, "the YAML document is damaged");
        if (key->type != YAML_SCALAR_NODE || yr_text(key)[0] == '\0')
            return yr_fail_at(d, key, "a tensor name must be a plain word like Q, found %s",
                              key->type == YAML_SCALAR_NODE ? "an empty name"
                                                            : yr_kind_name(key));
        const char *tname = yr_text(key);
        const yaml_node_t *earlier = yr_earlier_key(d, root, p, tname);
        if (earlier)
            return yr_fail_at(d, key, "tensor '%s' is defined twice (first at line %zu); "
                              "rename or remove one", tname, yr_pos_of(earlier).line);
        sup_tensor *t = parse_tensor(d, tname, val);
        if (!t)
            return -1;
        if (strcmp(tname, name) == 0)
            *found = t;
        else
            sup_tensor_free(t);
    }
    return 0;
}

/* Report that the file has no tensor called name, listing the ones it has so a
   typo is easy to spot. */
static void no_such_tensor(yr_doc *d, const yaml_node_t *root, const char *name)
{
    char names[512] = "";
    for (const yaml_node_pair_t *p = root->data.mapping.pairs.start;
         p < root->data.mapping.pairs.top; p++) {
        size_t len = strlen(names);
        snprintf(names + len, sizeof names - len, "%s%s", len ? ", " : "",
                 yr_text(yr_node(d, p->key)));
    }
    yr_fail(d, "no tensor named '%s' (the file has: %s)", name, names[0] ? names : "none");
}

/* The tensor called name in the parsed document d, or NULL with the error in d. */
static sup_tensor *read_from_doc(yr_doc *d, const char *name)
{
    const yaml_node_t *root = yr_root(d);
    if (!root) {
        yr_fail(d, "the file is empty; it should map names to tensors, e.g. "
                "\"Q: {shape: [2], data: [1.0, 2.0]}\"");
        return NULL;
    }
    if (root->type != YAML_MAPPING_NODE) {
        yr_fail_at(d, root, "the file should map tensor names to tensors (Q: ...), found %s",
                   yr_kind_name(root));
        return NULL;
    }
    sup_tensor *found;
    if (parse_all(d, root, name, &found) != 0) {
        sup_tensor_free(found);      /* the named tensor may come before the error */
        return NULL;
    }
    /* One document per file: a second one is a mistake, not something to ignore. */
    if (yr_expect_end(d, "a second YAML document starts here; put all tensors in one "
                      "mapping") != 0) {
        sup_tensor_free(found);
        return NULL;
    }
    if (!found)
        no_such_tensor(d, root, name);
    return found;
}

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
    size_t len;
    char *text = yr_read_file(path, &len);
    if (!text) {
        sup_set_error("%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    char err[1024];
    yr_doc d;
    sup_tensor *found = NULL;
    if (yr_open(&d, path, text, len, err, sizeof err) == 0)
        found = read_from_doc(&d, name);
    if (!found)
        sup_set_error("%s", err);
    yr_close(&d);
    free(text);
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

/* Check every argument of sup_yaml_write_tensors before anything is written:
   an invalid one must not cost the old file. 0, or -1 with the error recorded. */
static int check_write_args(const char *path, const char *const *names,
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
    return 0;
}

int sup_yaml_write_tensors(const char *path, const char *const *names,
                           const sup_tensor *const *tensors, int n)
{
    if (check_write_args(path, names, tensors, n) != 0)
        return -1;
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
