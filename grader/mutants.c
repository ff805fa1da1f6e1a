/* mutants.c: loading data/mutants/labNN/manifest.yaml (see mutants.h). */
#include "mutants.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

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

/* One entry of the mutants list. */
static int load_mutant(yaml_document_t *doc, const yaml_node_t *item, const char *path,
                       const char *dir, gr_mutant *m, char *err, size_t errlen)
{
    if (item->type != YAML_MAPPING_NODE)
        return fail_at(err, errlen, path, item, "each mutant is a mapping with file, verdict and misconception", NULL);
    m->verdict = (gr_verdict)-1;
    for (yaml_node_pair_t *p = item->data.mapping.pairs.start; p < item->data.mapping.pairs.top; p++) {
        yaml_node_t *k = yaml_document_get_node(doc, p->key);
        yaml_node_t *v = yaml_document_get_node(doc, p->value);
        const char *key = scalar(k), *val = scalar(v);
        if (!key)
            return fail_at(err, errlen, path, k, "a key must be a plain word", NULL);
        if (!val)
            return fail_at(err, errlen, path, v, "expected a single value for ", key);
        if (strcmp(key, "file") == 0 && !m->file) {
            if (strchr(val, '/'))
                return fail_at(err, errlen, path, v, "file is a name in the manifest's folder, not a path: ", val);
            m->file = gr_xasprintf("%s/%s", dir, val);
        } else if (strcmp(key, "verdict") == 0 && (int)m->verdict < 0) {
            int vd = gr_verdict_from_name(val);
            if (vd < 0)
                return fail_at(err, errlen, path, v, "unknown verdict (use a name like 'wrong answer', 'crashed', 'timed out'): ", val);
            m->verdict = (gr_verdict)vd;
        } else if (strcmp(key, "misconception") == 0 && !m->misconception) {
            m->misconception = gr_xstrdup(val);
        } else {
            return fail_at(err, errlen, path, k, "unknown or repeated key (expected file, verdict, misconception): ", key);
        }
    }
    if (!m->file || (int)m->verdict < 0)
        return fail_at(err, errlen, path, item, "a mutant needs both file and verdict", NULL);
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
    char *dir = gr_xstrdup(path);
    char *slash = strrchr(dir, '/');
    if (slash) *slash = '\0'; else strcpy(dir, ".");

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
            if (!val || *end || lab < 1 || lab > 8) {
                fail_at(err, errlen, path, v, "lab must be a number from 1 to 8", NULL);
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
        if (load_mutant(&doc, item, path, dir, &out->mutants[i], err, errlen) != 0)
            goto out;
    }
    rc = 0;
out:
    if (rc != 0)
        gr_mutants_free(out);
    free(dir);
    yaml_document_delete(&doc);
    yaml_parser_delete(&parser);
    fclose(f);
    return rc;
}

void gr_mutants_free(gr_mutant_set *s)
{
    for (int i = 0; i < s->n; i++) {
        free(s->mutants[i].file);
        free(s->mutants[i].misconception);
    }
    free(s->mutants);
    memset(s, 0, sizeof *s);
}
