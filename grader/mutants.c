/* mutants.c: loading data/mutants/labNN/manifest.yaml and writing each mutant
 * as the solution with its edits applied (see mutants.h). */
#include "mutants.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "labmod.h"
#include "util.h"

int gr_verdict_from_name(const char *s)
{
    for (int v = 0; v < GR_VERDICT_COUNT; v++)
        if (strcmp(s, gr_verdict_name((gr_verdict)v)) == 0)
            return v;
    return -1;
}

/* Report "path:line:column: message" at node n (libyaml marks are zero-based). */
static int fail_at(char *err, size_t errlen, const char *path, const yaml_node_t *n,
                   const char *msg, const char *detail)
{
    snprintf(err, errlen, "%s:%zu:%zu: %s%s", path, n->start_mark.line + 1,
             n->start_mark.column + 1, msg, detail ? detail : "");
    return -1;
}

static const char *scalar(const yaml_node_t *n)
{
    return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

static int fail_mark(char *err, size_t errlen, const char *path, size_t line, size_t column,
                     const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* Report "path:line:column: ..." at a 1-based mark. */
static int fail_mark(char *err, size_t errlen, const char *path, size_t line, size_t column,
                     const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(err, errlen, "%s:%zu:%zu: %s", path, line, column, msg);
    return -1;
}

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

/* One entry of a mutant's edits list: a mapping with from and to. */
static int load_edit(yaml_document_t *doc, const yaml_node_t *item, const char *path,
                     gr_mutant_edit *e, char *err, size_t errlen)
{
    if (item->type != YAML_MAPPING_NODE)
        return fail_at(err, errlen, path, item, "each edit is a mapping with from and to", NULL);
    for (yaml_node_pair_t *p = item->data.mapping.pairs.start; p < item->data.mapping.pairs.top; p++) {
        yaml_node_t *k = yaml_document_get_node(doc, p->key);
        yaml_node_t *v = yaml_document_get_node(doc, p->value);
        const char *key = scalar(k), *val = scalar(v);
        if (!key)
            return fail_at(err, errlen, path, k, "a key must be a plain word", NULL);
        if (strcmp(key, "from") == 0 && !e->from && val) {
            if (!*val)
                return fail_at(err, errlen, path, v, "edit 'from' text is empty; copy the text to replace from the solution", NULL);
            e->from = gr_xstrdup(val);
            e->line = v->start_mark.line + 1;
            e->column = v->start_mark.column + 1;
        } else if (strcmp(key, "to") == 0 && !e->to && val) {
            e->to = gr_xstrdup(val);
        } else if (!val && (strcmp(key, "from") == 0 || strcmp(key, "to") == 0)) {
            return fail_at(err, errlen, path, v, "expected text (a quoted string or a | block) for ", key);
        } else {
            return fail_at(err, errlen, path, k, "unknown or repeated key in an edit (expected from, to): ", key);
        }
    }
    if (!e->from || !e->to)
        return fail_at(err, errlen, path, item, "an edit needs both from and to; missing ", e->from ? "to" : "from");
    return 0;
}

/* One entry of the mutants list. */
static int load_mutant(yaml_document_t *doc, const yaml_node_t *item, const char *path,
                       gr_mutant *m, char *err, size_t errlen)
{
    if (item->type != YAML_MAPPING_NODE)
        return fail_at(err, errlen, path, item, "each mutant is a mapping with name, why, edits, verdict and misconception", NULL);
    m->verdict = (gr_verdict)-1;
    for (yaml_node_pair_t *p = item->data.mapping.pairs.start; p < item->data.mapping.pairs.top; p++) {
        yaml_node_t *k = yaml_document_get_node(doc, p->key);
        yaml_node_t *v = yaml_document_get_node(doc, p->value);
        const char *key = scalar(k), *val = scalar(v);
        if (!key)
            return fail_at(err, errlen, path, k, "a key must be a plain word", NULL);
        if (strcmp(key, "edits") == 0) {
            if (m->edits)
                return fail_at(err, errlen, path, k, "unknown or repeated key (expected name, why, edits, verdict, misconception): ", key);
            if (v->type != YAML_SEQUENCE_NODE || v->data.sequence.items.top == v->data.sequence.items.start)
                return fail_at(err, errlen, path, v, "edits is a list of at least one edit (from: ..., to: ...)", NULL);
            int n = (int)(v->data.sequence.items.top - v->data.sequence.items.start);
            m->edits = gr_xcalloc((size_t)n, sizeof *m->edits);
            for (int i = 0; i < n; i++) {
                m->n_edits = i + 1;
                yaml_node_t *e = yaml_document_get_node(doc, v->data.sequence.items.start[i]);
                if (load_edit(doc, e, path, &m->edits[i], err, errlen) != 0)
                    return -1;
            }
            continue;
        }
        if (!val)
            return fail_at(err, errlen, path, v, "expected a single value for ", key);
        if (strcmp(key, "name") == 0 && !m->name) {
            if (!is_word(val))
                return fail_at(err, errlen, path, v, "name is a word of letters, digits, '_' and '-': ", val);
            m->name = gr_xstrdup(val);
        } else if (strcmp(key, "why") == 0 && !m->why) {
            if (!*val || strchr(val, '\n'))
                return fail_at(err, errlen, path, v, "why is one line that says what the planted mistake is", NULL);
            m->why = gr_xstrdup(val);
        } else if (strcmp(key, "verdict") == 0 && (int)m->verdict < 0) {
            int vd = gr_verdict_from_name(val);
            if (vd < 0)
                return fail_at(err, errlen, path, v, "unknown verdict (use a name like 'wrong answer', 'crashed', 'timed out'): ", val);
            m->verdict = (gr_verdict)vd;
        } else if (strcmp(key, "misconception") == 0 && !m->misconception) {
            m->misconception = gr_xstrdup(val);
        } else {
            return fail_at(err, errlen, path, k, "unknown or repeated key (expected name, why, edits, verdict, misconception): ", key);
        }
    }
    const char *missing = !m->name ? "name" : !m->why ? "why" : !m->edits ? "edits"
                        : (int)m->verdict < 0 ? "verdict" : NULL;
    if (missing)
        return fail_at(err, errlen, path, item, "a mutant needs name, why, edits and verdict; missing ", missing);
    return 0;
}

int gr_mutants_load(const char *path, gr_mutant_set *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    yaml_parser_t parser;
    yaml_document_t doc;
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_file(&parser, f);
    if (!yaml_parser_load(&parser, &doc)) {
        snprintf(err, errlen, "%s:%zu:%zu: %s", path, parser.problem_mark.line + 1,
                 parser.problem_mark.column + 1, parser.problem ? parser.problem : "YAML syntax error");
        yaml_parser_delete(&parser);
        fclose(f);
        return -1;
    }
    int rc = -1;
    yaml_node_t *root = yaml_document_get_root_node(&doc);
    const yaml_node_t *list = NULL;
    if (!root || root->type != YAML_MAPPING_NODE) {
        snprintf(err, errlen, "%s:1:1: a manifest is a mapping with keys lab and mutants", path);
        goto out;
    }
    for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top; p++) {
        yaml_node_t *k = yaml_document_get_node(&doc, p->key);
        yaml_node_t *v = yaml_document_get_node(&doc, p->value);
        const char *key = scalar(k);
        if (key && strcmp(key, "lab") == 0) {
            char *end;
            const char *val = scalar(v);
            long lab = val ? strtol(val, &end, 10) : 0;
            if (!val || *end || lab < 1 || lab > GR_N_LABS) {
                fail_at(err, errlen, path, v, "lab must be the number of one of the course's labs", NULL);
                goto out;
            }
            out->lab = (int)lab;
        } else if (key && strcmp(key, "mutants") == 0 && v->type == YAML_SEQUENCE_NODE) {
            list = v;
        } else {
            fail_at(err, errlen, path, k, "unknown key or wrong type (expected lab: N and a list mutants:)", NULL);
            goto out;
        }
    }
    if (!out->lab || !list) {
        snprintf(err, errlen, "%s:1:1: a manifest needs lab and mutants", path);
        goto out;
    }
    int n = (int)(list->data.sequence.items.top - list->data.sequence.items.start);
    out->mutants = gr_xcalloc((size_t)n, sizeof *out->mutants);
    for (int i = 0; i < n; i++) {
        yaml_node_t *item = yaml_document_get_node(&doc, list->data.sequence.items.start[i]);
        out->n = i + 1;
        if (load_mutant(&doc, item, path, &out->mutants[i], err, errlen) != 0)
            goto out;
        for (int j = 0; j < i; j++)
            if (strcmp(out->mutants[j].name, out->mutants[i].name) == 0) {
                fail_at(err, errlen, path, item, "two mutants are named ", out->mutants[i].name);
                goto out;
            }
    }
    out->path = gr_xstrdup(path);
    rc = 0;
out:
    if (rc != 0)
        gr_mutants_free(out);
    yaml_document_delete(&doc);
    yaml_parser_delete(&parser);
    fclose(f);
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

int gr_mutant_write(const gr_mutant_set *s, const gr_mutant *m, const char *solution,
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
                fail_mark(err, errlen, s->path, e->line, e->column,
                          "edit 'from' text does not occur in %s%s; copy it exactly from there",
                          solution, i ? " (after the edits before it)" : "");
            else
                fail_mark(err, errlen, s->path, e->line, e->column,
                          "edit 'from' text occurs %d times in %s; make it unique", n, solution);
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
