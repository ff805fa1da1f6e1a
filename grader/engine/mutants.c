/* mutants.c: loading data/mutants/labNN/manifest.yaml and writing each mutant
 * as the solution with its edits applied (see mutants.h).
 *
 * The manifest is read with the shared YAML reader (lib/sup_yamlread.h): each
 * mapping is walked against a table of its keys, so an unknown key, a key
 * given twice or a missing one is reported as "path:line:column: ...". */
#include "engine/mutants.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/labmod.h"
#include "sup_yamlread.h"
#include "base/util.h"

/* What the handlers share beyond the document. */
typedef struct mu_ctx {
    int mutant_no;          /* 1-based index of the mutant being read */
} mu_ctx;

/* A mutant's name becomes a file name: letters, digits, '_' and '-' only. */
static int is_word(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!(isalnum((unsigned char)*s) || *s == '_' || *s == '-'))
            return 0;
    return 1;
}

/* ---- one edit: from, to ------------------------------------------------------ */

static int rd_from(yr_doc *d, const yaml_node_t *v, void *target)
{
    gr_mutant_edit *e = target;
    const char *s;
    if (yr_get_string(d, v, "from", YR_MAY_BE_EMPTY, &s) != 0)
        return -1;
    if (!*s)
        return yr_fail_at(d, v, "edit 'from' text is empty; copy the text to replace from "
                          "the solution");
    yr_pos at = yr_pos_of(v);
    e->from = gr_xstrdup(s);
    e->line = at.line;
    e->column = at.column;
    return 0;
}

static int rd_to(yr_doc *d, const yaml_node_t *v, void *target)
{
    gr_mutant_edit *e = target;
    const char *s;
    if (yr_get_string(d, v, "to", YR_MAY_BE_EMPTY, &s) != 0)
        return -1;
    e->to = gr_xstrdup(s);
    return 0;
}

static const yr_field edit_fields[] = {
    {"from", 1, rd_from},
    {"to", 1, rd_to},
};

/* ---- one mutant ------------------------------------------------------------------ */

static int rd_name(yr_doc *d, const yaml_node_t *v, void *target)
{
    gr_mutant *m = target;
    const char *s;
    if (yr_get_string(d, v, "name", YR_NONEMPTY, &s) != 0)
        return -1;
    if (!is_word(s))
        return yr_fail_at(d, v, "name is a word of letters, digits, '_' and '-': %s", s);
    m->name = gr_xstrdup(s);
    return 0;
}

static int rd_why(yr_doc *d, const yaml_node_t *v, void *target)
{
    gr_mutant *m = target;
    const char *s;
    if (yr_get_string(d, v, "why", YR_MAY_BE_EMPTY, &s) != 0)
        return -1;
    if (!*s || strchr(s, '\n'))
        return yr_fail_at(d, v, "why is one line that says what the planted mistake is");
    m->why = gr_xstrdup(s);
    return 0;
}

static int rd_edits(yr_doc *d, const yaml_node_t *v, void *target)
{
    gr_mutant *m = target;
    mu_ctx *c = d->user;
    int n = yr_count(v);
    if (v->type != YAML_SEQUENCE_NODE || n == 0)
        return yr_fail_at(d, v, "edits is a list of at least one edit (from: ..., to: ...)");
    m->edits = gr_xcalloc((size_t)n, sizeof *m->edits);
    for (int i = 0; i < n; i++) {
        const yaml_node_t *item = yr_item(d, v, i);
        char where[48];
        snprintf(where, sizeof where, "edit %d of mutant %d", i + 1, c->mutant_no);
        m->n_edits = i + 1;     /* calloc'd, so a failure part-way frees cleanly */
        if (!item || yr_walk(d, item, where, where, edit_fields, YR_N_FIELDS(edit_fields),
                             &m->edits[i]) != 0)
            return item ? -1 : yr_fail_at(d, v, "edits: the YAML document is damaged");
    }
    return 0;
}

static int rd_verdict(yr_doc *d, const yaml_node_t *v, void *target)
{
    gr_mutant *m = target;
    const char *s;
    if (yr_get_string(d, v, "verdict", YR_NONEMPTY, &s) != 0)
        return -1;
    int vd = gr_result_verdict_from_name(s);
    if (vd < 0)
        return yr_fail_at(d, v, "unknown verdict (use a name like 'wrong answer', 'crashed', "
                          "'timed out'): %s", s);
    m->verdict = (gr_verdict)vd;
    return 0;
}

static int rd_misconception(yr_doc *d, const yaml_node_t *v, void *target)
{
    gr_mutant *m = target;
    const char *s;
    if (yr_get_string(d, v, "misconception", YR_NONEMPTY, &s) != 0)
        return -1;
    m->misconception = gr_xstrdup(s);
    return 0;
}

static const yr_field mutant_fields[] = {
    {"name", 1, rd_name},
    {"why", 1, rd_why},
    {"edits", 1, rd_edits},
    {"verdict", 1, rd_verdict},
    {"misconception", 0, rd_misconception},
};

/* ---- the manifest ------------------------------------------------------------------ */

int gr_mutants_read_lab(yr_doc *d, const yaml_node_t *v, int *lab)
{
    long n = 0;
    if (yr_get_long(d, v, "lab", &n) != 0)
        return -1;
    if (n < 1 || n > GR_N_LABS)
        return yr_fail_at(d, v, "lab must be the number of one of the course's labs, 1 to %d, "
                          "got %ld", GR_N_LABS, n);
    *lab = (int)n;
    return 0;
}

static int rd_lab(yr_doc *d, const yaml_node_t *v, void *target)
{
    return gr_mutants_read_lab(d, v, &((gr_mutant_set *)target)->lab);
}

static int rd_mutants(yr_doc *d, const yaml_node_t *v, void *target)
{
    gr_mutant_set *s = target;
    int n = 0;
    if (yr_get_seq(d, v, "mutants", "[{name: ..., why: ...}]", &n) != 0)
        return -1;
    s->mutants = gr_xcalloc((size_t)n, sizeof *s->mutants);
    for (int i = 0; i < n; i++) {
        const yaml_node_t *item = yr_item(d, v, i);
        gr_mutant *m = &s->mutants[i];
        char where[32];
        snprintf(where, sizeof where, "mutant %d", i + 1);
        s->n = i + 1;           /* calloc'd, so a failure part-way frees cleanly */
        ((mu_ctx *)d->user)->mutant_no = i + 1;
        if (!item)
            return yr_fail_at(d, v, "mutants: the YAML document is damaged");
        if (yr_walk(d, item, where, where, mutant_fields, YR_N_FIELDS(mutant_fields), m) != 0)
            return -1;
        for (int j = 0; j < i; j++)
            if (strcmp(s->mutants[j].name, m->name) == 0)
                return yr_fail_at(d, item, "two mutants are named %s", m->name);
    }
    return 0;
}

static const yr_field manifest_fields[] = {
    {"lab", 1, rd_lab},
    {"mutants", 1, rd_mutants},
};

int gr_mutants_load(const char *path, gr_mutant_set *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    mu_ctx c = {0};
    const yr_spec spec = {
        "the manifest", "the manifest is empty; it needs lab: N and a list mutants:",
        "a manifest is one YAML document; remove this second one", manifest_fields,
        YR_N_FIELDS(manifest_fields), NULL, &c,
    };
    int rc = yr_load_file(path, &spec, out, err, errlen);
    if (rc == 0)
        out->path = gr_xstrdup(path);
    else
        gr_mutants_free(out);
    return rc;
}

/* How many times needle occurs in hay, overlapping ones counted; at the first in *first. */
static int occurrences(const char *hay, const char *needle, const char **first)
{
    int n = 0;
    *first = NULL;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle)) {
        if (!n)
            *first = p;
        n++;
    }
    return n;
}

int gr_mutants_write(const gr_mutant_set *s, const gr_mutant *m, const char *solution,
                    const char *work_dir, char **out_path, char *err, size_t errlen)
{
    *out_path = NULL;
    char *text = gr_read_file(solution, NULL);
    if (!text) {
        gr_set_err(err, errlen, "%s: cannot read the solution %s: %s", s->path, solution, strerror(errno));
        return -1;
    }
    for (int i = 0; i < m->n_edits; i++) {
        const gr_mutant_edit *e = &m->edits[i];
        const char *at;
        int n = occurrences(text, e->from, &at);
        if (n != 1) {
            if (n == 0)
                gr_set_err(err, errlen, "%s:%zu:%zu: edit 'from' text does not occur in %s%s; "
                           "copy it exactly from there", s->path, e->line, e->column,
                           solution, i ? " (after the edits before it)" : "");
            else
                gr_set_err(err, errlen, "%s:%zu:%zu: edit 'from' text occurs %d times in %s; "
                           "make it unique", s->path, e->line, e->column, n, solution);
            free(text);
            return -1;
        }
        gr_strbuf b = {0};
        gr_sb_appendn(&b, text, (size_t)(at - text));
        gr_sb_append(&b, e->to);
        gr_sb_append(&b, at + strlen(e->from));
        free(text);
        text = gr_sb_take(&b);
    }
    char *path = gr_xasprintf("%s/%s.c", work_dir, m->name);
    if (gr_write_file_atomic(path, text, strlen(text)) != 0) {
        gr_set_err(err, errlen, "%s: cannot write mutant %s: %s", path, m->name, strerror(errno));
        free(path);
        free(text);
        return -1;
    }
    free(text);
    *out_path = path;
    return 0;
}

void gr_mutants_free(gr_mutant_set *s)
{
    for (int i = 0; i < s->n; i++) {
        gr_mutant *m = &s->mutants[i];
        for (int j = 0; j < m->n_edits; j++) {
            free(m->edits[j].from);
            free(m->edits[j].to);
        }
        free(m->edits);
        free(m->name);
        free(m->why);
        free(m->misconception);
    }
    free(s->mutants);
    free(s->path);
    memset(s, 0, sizeof *s);
}
