/* mutprog.c: the programs `attnlab mutate` grades its mutants in (see mutprog.h). */
#include "engine/mutprog.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "confined/build.h"
#include "base/layout.h"
#include "engine/mutschema.h"
#include "base/pool.h"
#include "base/rubric.h"
#include "base/util.h"

/* What the chunk workers share: the chunks are runs of fit[], a list of
   indices into in[]. */
typedef struct chunks {
    const gr_grade_opts *o;
    const char *work;
    const gr_mutprog_in *in;
    int *fit;
    int *first, *len;           /* chunk c is fit[first[c] .. first[c] + len[c]) */
    int n;
    gr_mutprog *out;            /* in the parent: what the workers built */
} chunks;

/* One part of chunk c: its mutants (indices into in[]) idx[0..n), all of one lab. */
typedef struct part {
    const chunks *cs;
    int chunk;
    int seq;                    /* parts tried so far in this chunk: names their files */
    gr_strbuf *report;          /* what the parent is told (see report_schema) */
} part;

/* Tell the parent of a built schema: "P\t<static bytes>\t<source>\t<program>\n",
   then "M <mutant> <selector>\n" for each of its mutants. */
static void report_schema(part *p, const char *source, const gr_build *b, const int *idx, int n)
{
    gr_sb_printf(p->report, "P\t%ld\t%s\t%s\n", b->static_bytes, source, b->exe);
    for (int k = 0; k < n; k++)
        gr_sb_printf(p->report, "M %d %d\n", idx[k], k);
}

/* Build the schema of idx[0..n). When it does not build, the mutants whose
   copies the compiler names an error in are left to be built alone (as a
   mutant that does not compile is) and the rest tried again; when no error
   names one (a refused directive, a failed link), the set is halved, down to
   single mutants. 0, or GR_STATUS_* with err set: the grader failed. */
static int build_part(part *p, const gr_rubric *rub, const gr_cfunc_list *fl, int *idx, int n,
                      char *err, size_t errlen)
{
    const gr_mutprog_in *in = p->cs->in;
    const gr_mutation **ms = gr_xcalloc((size_t)n, sizeof *ms);
    int (*lines)[2] = gr_xcalloc((size_t)n, sizeof *lines);
    for (int k = 0; k < n; k++)
        ms[k] = in[idx[k]].m;
    char *text = gr_mutschema_source(in[idx[0]].src, in[idx[0]].src_len, fl, ms, n, lines);
    free(ms);
    char *path = gr_xasprintf("%s/schema-%03d-%02d.c", p->cs->work, p->chunk, p->seq++);
    int rc = gr_write_file_atomic(path, text, strlen(text));
    free(text);
    int lab = in[idx[0]].lab;
    gr_paths paths = {p->cs->o->root, p->cs->o->child_dir, p->cs->work};
    gr_build b;
    if (rc != 0) {
        gr_set_err(err, errlen, "%s: cannot write the mutant schema", path);
        rc = GR_STATUS_FAILED;
    } else if (gr_build_lab(rub, gr_layout_dir(lab), path, &paths, &b, err, errlen) != 0) {
        rc = GR_STATUS_FAILED;
    } else if (b.ok) {
        report_schema(p, path, &b, idx, n);
        gr_build_free(&b);
    } else {
        int *broken = gr_xcalloc((size_t)n, sizeof *broken), left = 0;
        char *file = rub->source && *rub->source ? gr_xstrdup(rub->source) : gr_layout_name(lab, ".c");
        int found = n > 1 && b.log ? gr_mutschema_broken(b.log, file, lines, n, broken) : 0;
        free(file);
        gr_build_free(&b);
        for (int k = 0; k < n; k++)
            if (!broken[k])
                idx[left++] = idx[k];     /* the broken ones are built alone */
        free(broken);
        if (found > 0 && left > 0)
            rc = build_part(p, rub, fl, idx, left, err, errlen);
        else if (found == 0 && n > 1) {
            rc = build_part(p, rub, fl, idx, n / 2, err, errlen);
            if (rc == 0)
                rc = build_part(p, rub, fl, idx + n / 2, n - n / 2, err, errlen);
        }
    }
    free(path);
    free(lines);
    return rc;
}

/* In a worker: build chunk c, report its schemas. */
static int chunk_work(void *ctx, int c, gr_strbuf *out, char *err, size_t errlen)
{
    const chunks *cs = ctx;
    int *idx = cs->fit + cs->first[c], n = cs->len[c];
    int lab = cs->in[idx[0]].lab;
    gr_cfunc_list fl = {0};
    gr_mutgen_functions(cs->in[idx[0]].src, cs->in[idx[0]].src_len, &fl);
    char *path = gr_layout_rubric_from(cs->o->root, cs->o->rubrics, lab);
    gr_rubric rub;
    int rc = gr_rubric_load(path, &rub, err, errlen) == 0 ? 0 : GR_STATUS_BAD_INPUT;
    free(path);
    part p = {cs, c, 0, out};
    if (rc == 0) {
        rc = build_part(&p, &rub, &fl, idx, n, err, errlen);
        gr_rubric_free(&rub);
    }
    gr_mutgen_functions_free(&fl);
    return rc;
}

/* One line of a chunk's report, in the parent. 0, or -1: not a report line. */
static int take_line(gr_mutprog *p, const char *line, char *err, size_t errlen)
{
    long static_bytes;
    int used = 0, i, k;
    if (sscanf(line, "P\t%ld\t%n", &static_bytes, &used) == 1 && used > 0) {
        const char *tab = strchr(line + used, '\t');
        if (!tab)
            return -1;
        gr_mutprog_schema s = {gr_xasprintf("%.*s", (int)(tab - line - used), line + used), {0}};
        s.b.ok = 1;
        s.b.verdict = GR_PASSED;
        s.b.static_bytes = static_bytes;
        s.b.exe = gr_xstrdup(tab + 1);
        p->s = gr_xrealloc(p->s, (size_t)(p->n + 1) * sizeof *p->s);
        p->s[p->n++] = s;
        return 0;
    }
    if (sscanf(line, "M %d %d", &i, &k) == 2 && p->n > 0 && i >= 0 && i < p->n_in) {
        p->in_schema[i] = p->n - 1;
        p->selector[i] = k;
        return 0;
    }
    gr_set_err(err, errlen, "mutant schema: a worker reported '%.60s'", line);
    return -1;
}

static int chunk_done(void *ctx, int c, const char *bytes, size_t len, char *err, size_t errlen)
{
    (void)c;
    const chunks *cs = ctx;
    char *text = gr_xasprintf("%.*s", (int)len, bytes), *save = NULL;
    int rc = 0;
    for (char *line = strtok_r(text, "\n", &save); line && rc == 0; line = strtok_r(NULL, "\n", &save))
        rc = take_line(cs->out, line, err, errlen) == 0 ? 0 : GR_STATUS_FAILED;
    free(text);
    return rc;
}

static void chunk_name(void *ctx, int c, char *buf, size_t len)
{
    const chunks *cs = ctx;
    snprintf(buf, len, "the mutant schema of lab %d (chunk %d)", cs->in[cs->fit[cs->first[c]]].lab, c);
}

/* Cut the mutants that fit a schema into chunks: runs of one lab, at most
   GR_MUTPROG_CHUNK long. */
static void cut_chunks(chunks *cs, const gr_mutprog_in *in, int n)
{
    cs->fit = gr_xcalloc((size_t)n + 1, sizeof *cs->fit);
    cs->first = gr_xcalloc((size_t)n + 1, sizeof *cs->first);
    cs->len = gr_xcalloc((size_t)n + 1, sizeof *cs->len);
    int nfit = 0;
    for (int lab = 1; lab <= GR_N_LABS; lab++) {
        gr_cfunc_list fl = {0};
        for (int i = 0; i < n; i++) {
            if (in[i].lab != lab)
                continue;
            if (!fl.f)
                gr_mutgen_functions(in[i].src, in[i].src_len, &fl);
            if (!gr_mutschema_home(&fl, in[i].m))
                continue;
            if (cs->n == 0 || cs->len[cs->n - 1] == GR_MUTPROG_CHUNK ||
                in[cs->fit[cs->first[cs->n - 1]]].lab != lab)
                cs->first[cs->n++] = nfit;
            cs->fit[nfit++] = i;
            cs->len[cs->n - 1]++;
        }
        gr_mutgen_functions_free(&fl);
    }
}

int gr_mutprog_build(const gr_grade_opts *o, const char *work, const gr_mutprog_in *in, int n,
                     int jobs, gr_mutprog *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    double t0 = gr_now_seconds();
    out->n_in = n;
    out->in_schema = gr_xcalloc((size_t)n + 1, sizeof *out->in_schema);
    out->selector = gr_xcalloc((size_t)n + 1, sizeof *out->selector);
    for (int i = 0; i < n; i++)
        out->in_schema[i] = -1;
    chunks cs = {o, work, in, NULL, NULL, NULL, 0, out};
    cut_chunks(&cs, in, n);
    gr_pool_task t = {chunk_work, chunk_done, chunk_name, &cs};
    int rc = gr_pool_map(&t, cs.n, jobs, err, errlen);
    free(cs.fit);
    free(cs.first);
    free(cs.len);
    out->seconds = gr_now_seconds() - t0;
    return rc;
}

char *gr_mutprog_prepare(const gr_mutprog *p, const gr_mutprog_in *in, int i, const char *work,
                         gr_grade_opts *o, gr_build *b, char *err, size_t errlen)
{
    int lab = in[i].lab;
    if (p && p->in_schema && p->in_schema[i] >= 0) {
        const gr_mutprog_schema *s = &p->s[p->in_schema[i]];
        char *path = gr_xasprintf("%s/m%05d-test", work, i);
        size_t len;
        char *exe = gr_read_file(s->b.exe, &len);
        int rc = exe ? gr_mutschema_select(exe, len, p->selector[i], path, err, errlen) : -1;
        if (!exe)
            gr_set_err(err, errlen, "%s: cannot read a mutant schema's program", s->b.exe);
        free(exe);
        if (rc != 0) {
            free(path);
            return NULL;
        }
        *b = s->b;
        b->exe = path;
        o->built[lab - 1] = b;
        o->sources[lab - 1] = s->source;
        return path;
    }
    char *path = gr_xasprintf("%s/m%05d.c", work, i);
    char *text = gr_mutgen_apply(in[i].src, in[i].src_len, in[i].m);
    int rc = gr_write_file_atomic(path, text, strlen(text));
    free(text);
    if (rc != 0) {
        gr_set_err(err, errlen, "%s: cannot write a mutant", path);
        free(path);
        return NULL;
    }
    o->sources[lab - 1] = path;
    return path;
}

int gr_mutprog_count(const gr_mutprog *p)
{
    int n = 0;
    for (int i = 0; i < p->n_in; i++)
        n += p->in_schema[i] >= 0;
    return n;
}

void gr_mutprog_free(gr_mutprog *p)
{
    for (int i = 0; i < p->n; i++) {
        free(p->s[i].source);
        gr_build_free(&p->s[i].b);
    }
    free(p->s);
    free(p->in_schema);
    free(p->selector);
    memset(p, 0, sizeof *p);
}
