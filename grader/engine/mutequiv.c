/* mutequiv.c: reading a lab's data/mutants/labNN/equivalent.yaml (see
 * mutequiv.h) with the shared YAML reader, each entry walked against a table
 * of its keys. */
#include "engine/mutequiv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/labmod.h"
#include "base/layout.h"
#include "engine/mutants.h"
#include "sup_yamlread.h"
#include "base/util.h"

/* The file being read: its entries and the lab they belong to. */
typedef struct eq_file {
    gr_equiv_set *s;
    int lab;
} eq_file;

static int rd_text(yr_doc *d, const yaml_node_t *v, const char *label, char **out)
{
    const char *s;
    if (yr_get_string(d, v, label, YR_NONEMPTY, &s) != 0)
        return -1;
    if (strchr(s, '\n'))
        return yr_fail_at(d, v, "%s is one line", label);
    *out = gr_xstrdup(s);
    return 0;
}

static int rd_line(yr_doc *d, const yaml_node_t *v, void *target)
{
    return rd_text(d, v, "line", &((gr_equiv *)target)->line);
}

static int rd_mutation(yr_doc *d, const yaml_node_t *v, void *target)
{
    return rd_text(d, v, "mutation", &((gr_equiv *)target)->mutation);
}

static int rd_reason(yr_doc *d, const yaml_node_t *v, void *target)
{
    return rd_text(d, v, "reason", &((gr_equiv *)target)->reason);
}

static const yr_field entry_fields[] = {
    {"line", 1, rd_line},
    {"mutation", 1, rd_mutation},
    {"reason", 1, rd_reason},
};

static int rd_file_lab(yr_doc *d, const yaml_node_t *v, void *target)
{
    return gr_mutants_read_lab(d, v, &((eq_file *)target)->lab);
}

static int rd_equivalent(yr_doc *d, const yaml_node_t *v, void *target)
{
    gr_equiv_set *s = ((eq_file *)target)->s;
    int n = 0;
    if (yr_get_seq(d, v, "equivalent", "[{line: ..., mutation: ..., reason: ...}]", &n) != 0)
        return -1;
    s->e = gr_xcalloc((size_t)n + 1, sizeof *s->e);
    for (int i = 0; i < n; i++) {
        const yaml_node_t *item = yr_item(d, v, i);
        char where[32];
        snprintf(where, sizeof where, "entry %d", i + 1);
        s->n = i + 1;
        if (!item)
            return yr_fail_at(d, v, "equivalent: the YAML document is damaged");
        if (yr_walk(d, item, where, where, entry_fields, YR_N_FIELDS(entry_fields),
                    &s->e[i]) != 0)
            return -1;
        gr_equiv *e = &s->e[i];
        for (int j = 0; j < i; j++)
            if (strcmp(s->e[j].line, e->line) == 0 &&
                strcmp(s->e[j].mutation, e->mutation) == 0)
                return yr_fail_at(d, item, "entry %d names the same mutant as entry %d", i + 1,
                                  j + 1);
    }
    return 0;
}

static const yr_field file_fields[] = {
    {"lab", 1, rd_file_lab},
    {"equivalent", 1, rd_equivalent},
};

static const yr_spec file_spec = {
    "the list", "the file is empty; it needs lab: and a list equivalent:",
    "the list is one YAML document; remove this second one", file_fields,
    YR_N_FIELDS(file_fields), NULL, NULL,
};

/* path into out, each entry the file's lab; its lab: in *lab. */
static int load_file(const char *path, gr_equiv_set *out, int *lab, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    eq_file f = {out, 0};
    int rc = yr_load_file(path, &file_spec, &f, err, errlen);
    for (int i = 0; i < out->n; i++)
        out->e[i].lab = f.lab;
    *lab = f.lab;
    if (rc != 0)
        gr_mutequiv_free(out);
    return rc;
}

int gr_mutequiv_load(const char *path, gr_equiv_set *out, char *err, size_t errlen)
{
    int lab;
    return load_file(path, out, &lab, err, errlen);
}

/* Move b's entries to the end of a, leaving b empty. */
static void append(gr_equiv_set *a, gr_equiv_set *b)
{
    a->e = gr_xrealloc(a->e, (size_t)(a->n + b->n + 1) * sizeof *a->e);
    memcpy(a->e + a->n, b->e, (size_t)b->n * sizeof *b->e);
    a->n += b->n;
    free(b->e);
    memset(b, 0, sizeof *b);
}

int gr_mutequiv_load_labs(const char *root, const int *want, gr_equiv_set *out, char *err,
                          size_t errlen)
{
    memset(out, 0, sizeof *out);
    for (int l = 1; l <= GR_N_LABS; l++) {
        char *path = want[l - 1] ? gr_layout_equivalent(root, l) : NULL;
        gr_equiv_set one;
        int lab = 0, rc = 0;
        if (path && access(path, F_OK) == 0) {
            rc = load_file(path, &one, &lab, err, errlen);
            if (rc == 0 && lab != l) {
                gr_set_err(err, errlen, "%s: lab: %d, but the file is lab %d's", path, lab, l);
                gr_mutequiv_free(&one);
                rc = -1;
            }
            if (rc == 0)
                append(out, &one);
        }
        free(path);
        if (rc != 0) {
            gr_mutequiv_free(out);
            return -1;
        }
    }
    return 0;
}

gr_equiv *gr_mutequiv_find(gr_equiv_set *s, int lab, const char *line, const char *mutation)
{
    for (int i = 0; i < s->n; i++)
        if (s->e[i].lab == lab && strcmp(s->e[i].line, line) == 0 &&
            strcmp(s->e[i].mutation, mutation) == 0)
            return &s->e[i];
    return NULL;
}

void gr_mutequiv_free(gr_equiv_set *s)
{
    for (int i = 0; i < s->n; i++) {
        free(s->e[i].line);
        free(s->e[i].mutation);
        free(s->e[i].reason);
    }
    free(s->e);
    memset(s, 0, sizeof *s);
}
