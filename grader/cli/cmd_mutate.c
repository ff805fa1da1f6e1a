/* cmd_mutate.c: `attnlab mutate`, measuring the tests by mutation.
 *
 * Every solution in solutions/ is mutated mechanically (mutgen.h: one small
 * edit a mutant), each mutant is graded by the grading engine exactly as a
 * submission would be, and a mutant is killed when any test fails. The mutants
 * listed in data/mutation/equivalent.yaml (mutequiv.h) are not graded; any
 * other that passes every test is a survivor, and a survivor fails the run:
 * a test is missing, or the list needs a reviewed entry. A mutant that does
 * not compile tells nothing of the tests and is counted apart.
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "grade.h"
#include "labmod.h"
#include "mutequiv.h"
#include "mutgen.h"
#include "mutschema.h"
#include "rubric.h"
#include "pool.h"
#include "seed.h"
#include "stop.h"
#include "util.h"
#include "layout.h"

static const char mutate_usage[] =
    "usage: attnlab mutate [--lab N|all] [--list] [--jobs N] [--part I/N] [--no-schema]\n"
    "                      [--verbose]\n"
    "\n"
    "Measure the tests by mutation: make the classic mechanical mutants of each\n"
    "solution in solutions/ (relational, logical and arithmetic operators,\n"
    "constants, loop bounds, deleted statements, -INFINITY, expf/sqrtf/logf/fabsf\n"
    "replaced by their argument, fmaxf/fminf, swapped arguments), grade each as a\n"
    "submission, and print per lab how many were killed (a test failed), how many\n"
    "are equivalent (listed with a reason in data/mutation/equivalent.yaml, not\n"
    "graded), how many did not compile, and every survivor with file:line and\n"
    "its mutation. Comments and strings are never mutated.\n"
    "\n"
    "  --lab N|all      which labs (default all)\n"
    "  --list           list the mutants and their names, grade nothing\n"
    "  -j, --jobs N     mutants graded at once (default 2)\n"
    "  --part I/N       only every N-th mutant from the I-th (0 <= I < N), for a\n"
    "                   quick deterministic sample\n"
    "  --equivalent F   the reviewed list (default data/mutation/equivalent.yaml)\n"
    "  -v, --verbose    name the test that killed each mutant\n"
    "  --no-schema      build every mutant alone (the default builds a lab's mutants\n"
    "                   once, as one program that runs the one it is told to)\n"
    "\n"
    "Exit status: 0 no survivor, 1 a survivor (or a mutant the grader could not\n"
    "grade), 2 usage or data error.\n";

enum { M_KILLED = 'K', M_SURVIVED = 'S', M_STILLBORN = 'C' };

typedef struct job {
    int lab;
    const gr_mutation *m;
    const char *src;            /* the lab's solution text */
    size_t src_len;
    int schema;                 /* index in run.schemas of the program holding it, -1: built alone */
    int k;                      /* its selector in that program */
    char result;                /* M_*, 0 until graded */
    char *detail;               /* the killing test and verdict */
} job;

/* A program holding many mutants of one lab (mutschema.h). */
typedef struct schema {
    char *source;               /* its source in the work folder */
    char *exe;                  /* the program's bytes */
    size_t exe_len;
    gr_build b;                 /* its build (b.exe: the program in the work folder) */
} schema;

typedef struct run {
    const gr_grade_opts *base;
    char *work;
    job *jobs;
    int n;
    int verbose;
    int alone;                  /* 1: build every mutant alone (--no-schema) */
    schema *schemas;
    int n_schemas;
} run;

/* Write job i's program: its schema's with the selector set, or its own source
   to be built. The path to grade, into o (built or sources). */
static char *mutant_program(run *r, int i, gr_grade_opts *o, gr_build *b, char *err,
                            size_t errlen)
{
    job *j = &r->jobs[i];
    if (j->schema >= 0) {
        const schema *s = &r->schemas[j->schema];
        char *path = gr_xasprintf("%s/m%05d-test", r->work, i);
        if (gr_mutschema_select(s->exe, s->exe_len, j->k, path, err, errlen) != 0) {
            free(path);
            return NULL;
        }
        *b = s->b;
        b->exe = path;
        o->built[j->lab - 1] = b;
        o->sources[j->lab - 1] = s->source;
        return path;
    }
    char *text = gr_mutation_apply(j->src, j->src_len, j->m);
    char *path = gr_xasprintf("%s/m%05d.c", r->work, i);
    int rc = gr_write_file_atomic(path, text, strlen(text));
    free(text);
    if (rc != 0) {
        gr_set_err(err, errlen, "%s: cannot write a mutant", path);
        free(path);
        return NULL;
    }
    o->sources[j->lab - 1] = path;
    return path;
}

/* In a worker: write mutant i, grade it, send "K test verdict", "S" or "C". */
static int mutate_work(void *ctx, int i, gr_strbuf *out, char *err, size_t errlen)
{
    run *r = ctx;
    job *j = &r->jobs[i];
    gr_grade_opts o = *r->base;
    memset(o.labs, 0, sizeof o.labs);
    memset(o.sources, 0, sizeof o.sources);
    memset(o.built, 0, sizeof o.built);
    gr_build b;
    char *path = mutant_program(r, i, &o, &b, err, errlen);
    int rc = GR_STATUS_FAILED;
    if (!path)
        goto out;
    o.labs[j->lab - 1] = 1;
    o.jobs = 1;
    o.first_failure = 1;  /* one failing test kills a mutant */
    gr_report rep;
    rc = gr_grade(&o, &rep, err, errlen);
    if (rc != 0)
        goto out;
    const gr_lab_result *lr = &rep.labs[0];
    const gr_test_result *bad = NULL;
    int compiled = 0;
    for (int t = 0; t < lr->n_tests; t++) {
        if (lr->tests[t].verdict != GR_COMPILE_ERROR)
            compiled = 1;
        if (lr->tests[t].verdict != GR_PASSED && !bad)
            bad = &lr->tests[t];
    }
    if (!compiled)
        gr_sb_append(out, "C");
    else if (bad)
        gr_sb_printf(out, "K%s: %s", bad->name, gr_result_verdict_name(bad->verdict));
    else
        gr_sb_append(out, "S");
    gr_result_free(&rep);
out:
    if (path)
        unlink(path);
    free(path);
    return rc;
}

static int mutate_done(void *ctx, int i, const char *bytes, size_t len, char *err, size_t errlen)
{
    run *r = ctx;
    if (len == 0) {
        gr_set_err(err, errlen, "mutant %d: the worker sent no result", i);
        return GR_STATUS_FAILED;
    }
    job *j = &r->jobs[i];
    j->result = bytes[0];
    j->detail = gr_xasprintf("%.*s", (int)(len - 1), bytes + 1);
    /* a survivor is news at once on stderr (the whole run takes minutes); the
       sorted list follows on stdout at the end */
    if (j->result == M_SURVIVED)
        fprintf(stderr, "survived: lab %d line %d: %s  [%s]\n", j->lab, j->m->line, j->m->what,
                j->m->line_text);
    return 0;
}

static void mutate_name(void *ctx, int i, char *buf, size_t len)
{
    run *r = ctx;
    snprintf(buf, len, "lab %d mutant at line %d (%s)", r->jobs[i].lab, r->jobs[i].m->line,
             r->jobs[i].m->what);
}

/* Build the schema of one lab's mutants js[0..n) into r->schemas. When it does
   not build, the mutants whose copies the compiler names an error in are left
   to be built alone (as a mutant that does not compile is) and the rest tried
   again; when no error names one (a refused directive, a failed link), the
   set is halved, down to single mutants. 0, or GR_STATUS_FAILED with err set. */
static int build_schema(run *r, const gr_cfunc_list *fl, const gr_rubric *rub, job **js, int n,
                        char *err, size_t errlen)
{
    const gr_mutation **ms = gr_xcalloc((size_t)n, sizeof *ms);
    int (*lines)[2] = gr_xcalloc((size_t)n, sizeof *lines);
    for (int k = 0; k < n; k++)
        ms[k] = js[k]->m;
    char *text = gr_mutschema_source(js[0]->src, js[0]->src_len, fl, ms, n, lines);
    free(ms);
    char *path = gr_xasprintf("%s/schema%03d.c", r->work, r->n_schemas);
    int rc = gr_write_file_atomic(path, text, strlen(text));
    free(text);
    gr_paths paths = {r->base->root, r->base->stub_dir, r->work};
    gr_build b;
    if (rc != 0 || gr_build_lab(rub, gr_lab_modules[js[0]->lab - 1]->dir, path, &paths, &b,
                                err, errlen) != 0) {
        if (rc != 0)
            gr_set_err(err, errlen, "%s: cannot write the mutant schema", path);
        free(path);
        free(lines);
        return GR_STATUS_FAILED;
    }
    schema s = {path, NULL, 0, b};
    if (b.ok && (s.exe = gr_read_file(b.exe, &s.exe_len)) != NULL) {
        r->schemas = gr_xrealloc(r->schemas, (size_t)(r->n_schemas + 1) * sizeof *r->schemas);
        r->schemas[r->n_schemas] = s;
        for (int k = 0; k < n; k++)
            js[k]->schema = r->n_schemas, js[k]->k = k;
        r->n_schemas++;
        free(lines);
        return 0;
    }
    int *broken = gr_xcalloc((size_t)n, sizeof *broken), left = 0;
    char *file = gr_xasprintf("lab%02d.c", js[0]->lab);
    int found = n > 1 && b.log ? gr_mutschema_broken(b.log, file, lines, n, broken) : 0;
    free(file);
    gr_build_free(&b);
    free(path);
    free(lines);
    for (int k = 0; k < n; k++)
        if (!broken[k])
            js[left++] = js[k];           /* the broken ones are built alone */
    free(broken);
    if (found > 0)
        rc = left > 0 ? build_schema(r, fl, rub, js, left, err, errlen) : 0;
    else if (n > 1)
        rc = build_schema(r, fl, rub, js, n / 2, err, errlen);
    return rc || found > 0 || n == 1 ? rc : build_schema(r, fl, rub, js + n / 2, n - n / 2, err, errlen);
}

/* Put every job whose mutation lies in a function the schema can forward into
   a schema of its lab; the others are built alone. 0, or a GR_STATUS_* code. */
static int build_schemas(run *r, char *err, size_t errlen)
{
    int rc = 0;
    for (int lab = 1; lab <= GR_N_LABS && rc == 0; lab++) {
        job **js = gr_xcalloc((size_t)r->n + 1, sizeof *js);
        int n = 0;
        gr_cfunc_list fl = {0};
        for (int i = 0; i < r->n; i++) {
            if (r->jobs[i].lab != lab)
                continue;
            if (!fl.f)
                gr_mutgen_functions(r->jobs[i].src, r->jobs[i].src_len, &fl);
            if (gr_mutschema_home(&fl, r->jobs[i].m))
                js[n++] = &r->jobs[i];
        }
        char *path = gr_layout_rubric_from(r->base->root, NULL, lab);
        gr_rubric rub;
        if (n > 0 && (rc = gr_rubric_load(path, &rub, err, errlen)) == 0) {
            rc = build_schema(r, &fl, &rub, js, n, err, errlen);
            gr_rubric_free(&rub);
        } else if (n > 0) {
            rc = GR_STATUS_BAD_INPUT;
        }
        free(path);
        gr_mutgen_functions_free(&fl);
        free(js);
    }
    return rc;
}

static int count_in_schemas(const run *r)
{
    int n = 0;
    for (int i = 0; i < r->n; i++)
        n += r->jobs[i].schema >= 0;
    return n;
}

static void free_schemas(run *r)
{
    for (int i = 0; i < r->n_schemas; i++) {
        free(r->schemas[i].source);
        free(r->schemas[i].exe);
        gr_build_free(&r->schemas[i].b);
    }
    free(r->schemas);
}

/* The solution of each lab and its mutants. */
typedef struct lab_src {
    char *path;             /* solutions/DIR/labNN.c, relative to root */
    char *text;
    size_t len;
    gr_mutation_list muts;
    int equivalent, killed, survived, stillborn, graded;
} lab_src;

static int parse_part(const char *s, int *part, int *parts)
{
    char tail;
    return sscanf(s, "%d/%d%c", part, parts, &tail) == 2 && *parts >= 1 && *part >= 0 &&
                   *part < *parts ? 0 : -1;
}

/* Grade the selected mutants, print the per-lab counts and the survivors. */
static int grade_mutants(const gr_grade_opts *o, lab_src *labs, const int *want, gr_equiv_set *eq,
                         int part, int parts, int jobs, int verbose, int alone)
{
    char err[1024];
    run r = {o, NULL, NULL, 0, verbose, alone, NULL, 0};
    int total = 0;
    for (int l = 0; l < GR_N_LABS; l++)
        total += want[l] ? labs[l].muts.n : 0;
    r.jobs = gr_xcalloc((size_t)total + 1, sizeof *r.jobs);
    int index = 0;
    for (int l = 0; l < GR_N_LABS; l++) {
        for (int k = 0; want[l] && k < labs[l].muts.n; k++, index++) {
            const gr_mutation *m = &labs[l].muts.m[k];
            gr_equiv *e = gr_equiv_find(eq, l + 1, m->line_text, m->what);
            if (e)
                e->used++;
            if (index % parts != part)
                continue;
            if (e) {
                labs[l].equivalent++;
                continue;
            }
            r.jobs[r.n++] = (job){l + 1, m, labs[l].text, labs[l].len, -1, 0, 0, NULL};
        }
    }
    if (!(r.work = gr_work_dir_make("mutate", err, sizeof err))) {
        fprintf(stderr, "attnlab mutate: %s\n", err);
        free(r.jobs);
        return 2;
    }
    gr_pool_task t = {mutate_work, mutate_done, mutate_name, &r};
    double t0 = gr_now_seconds();
    int rc = alone ? 0 : build_schemas(&r, err, sizeof err);
    if (rc == 0 && verbose && !alone)
        printf("mutate: %d programs hold %d mutants, built in %.1f s\n", r.n_schemas,
               count_in_schemas(&r), gr_now_seconds() - t0);
    if (rc == 0)
        rc = gr_pool_map(&t, r.n, jobs, err, sizeof err);
    free_schemas(&r);
    gr_work_dir_remove(r.work);
    if (rc != 0) {
        fprintf(stderr, "attnlab mutate: %s\n", err);
        if (gr_stop_requested())
            gr_stop_reraise();
        return rc == GR_STATUS_BAD_INPUT ? 2 : 1;
    }
    int survivors = 0;
    for (int i = 0; i < r.n; i++) {
        job *j = &r.jobs[i];
        lab_src *ls = &labs[j->lab - 1];
        ls->graded++;
        if (j->result == M_KILLED)
            ls->killed++;
        else if (j->result == M_STILLBORN)
            ls->stillborn++;
        else {
            ls->survived++;
            survivors++;
            printf("SURVIVED  %s:%d: %s\n          %s\n", ls->path, j->m->line, j->m->what,
                   j->m->line_text);
        }
        if (verbose && j->result == M_KILLED)
            printf("killed    %s:%d: %s  by %s\n", ls->path, j->m->line, j->m->what, j->detail);
    }
    int sum[5] = {0};
    for (int l = 0; l < GR_N_LABS; l++) {
        if (!want[l])
            continue;
        lab_src *ls = &labs[l];
        printf("%-16s %4d mutants: %4d killed, %3d equivalent, %3d did not compile, %3d survived\n",
               gr_layout_dir(l + 1), ls->graded + ls->equivalent, ls->killed, ls->equivalent,
               ls->stillborn, ls->survived);
        sum[0] += ls->graded + ls->equivalent, sum[1] += ls->killed, sum[2] += ls->equivalent;
        sum[3] += ls->stillborn, sum[4] += ls->survived;
    }
    if (parts == 1)
        for (int i = 0; i < eq->n; i++)
            if (want[eq->e[i].lab - 1] && !eq->e[i].used)
                printf("warning: the equivalent entry for lab %d names no mutant of the "
                       "solution (line \"%s\", %s): remove or update it\n", eq->e[i].lab,
                       eq->e[i].line, eq->e[i].mutation);
    int live = sum[1] + sum[4];
    printf("mutate: %d mutants, %d killed, %d equivalent, %d did not compile, %d survived; "
           "%.1f%% of %d non-equivalent killed, in %.0f s\n", sum[0], sum[1], sum[2], sum[3],
           sum[4], live ? 100.0 * sum[1] / live : 100.0, live, gr_now_seconds() - t0);
    printf("mutate: %d passed, %d failed\n", sum[1], sum[4]);   /* killed, survived */
    for (int i = 0; i < r.n; i++)
        free(r.jobs[i].detail);
    free(r.jobs);
    return survivors ? 1 : 0;
}

static void list_mutants(const lab_src *ls, int lab, gr_equiv_set *eq)
{
    for (int k = 0; k < ls->muts.n; k++) {
        const gr_mutation *m = &ls->muts.m[k];
        printf("%s:%d: %s%s\n    %s\n", ls->path, m->line, m->what,
               gr_equiv_find(eq, lab, m->line_text, m->what) ? "  (equivalent)" : "",
               m->line_text);
    }
}

int cmd_mutate(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"lab", required_argument, 0, 'l'}, {"list", no_argument, 0, 'L'},
        {"jobs", required_argument, 0, 'j'}, {"part", required_argument, 0, 'p'},
        {"equivalent", required_argument, 0, 'e'}, {"verbose", no_argument, 0, 'v'},
        {"no-schema", no_argument, 0, 'S'}, {"help", no_argument, 0, 'h'}, {0, 0, 0, 0},
    };
    const char *labs_arg = "all", *equiv_path = NULL;
    int list = 0, jobs = 2, part = 0, parts = 1, verbose = 0, alone = 0, ch;
    optind = 0;
    opterr = 0;
    while ((ch = getopt_long(argc, argv, "+j:v", longopts, NULL)) != -1) {
        switch (ch) {
        case 'l': labs_arg = optarg; break;
        case 'L': list = 1; break;
        case 'j':
            jobs = atoi(optarg);
            if (jobs < 1 || jobs > 64)
                return gr_usage_error("mutate", "--jobs takes a number from 1 to 64, got '%s'", optarg);
            break;
        case 'p':
            if (parse_part(optarg, &part, &parts) != 0)
                return gr_usage_error("mutate", "--part takes I/N with 0 <= I < N, got '%s'", optarg);
            break;
        case 'e': equiv_path = optarg; break;
        case 'v': verbose = 1; break;
        case 'S': alone = 1; break;
        case 'h': fputs(mutate_usage, stdout); return 0;
        default:  return gr_bad_option("mutate", argv[optind - 1]);
        }
    }
    if (optind < argc)
        return gr_usage_error("mutate", "unexpected argument '%s'", argv[optind]);

    char err[1024], root[PATH_MAX], stub_dir[PATH_MAX];
    gr_grade_opts o;
    memset(&o, 0, sizeof o);
    if (gr_layout_parse_labs(labs_arg, o.labs, err, sizeof err) != 0)
        return gr_usage_error("mutate", "%s", err);
    int want[GR_N_LABS];
    memcpy(want, o.labs, sizeof want);
    if (gr_layout_locate(root, sizeof root, stub_dir, sizeof stub_dir, err, sizeof err) != 0) {
        fprintf(stderr, "attnlab mutate: %s\n", err);
        return 2;
    }
    char *eq_default = gr_xasprintf("%s/data/mutation/equivalent.yaml", root);
    gr_equiv_set eq;
    int rc = gr_equiv_load(equiv_path ? equiv_path : eq_default, &eq, err, sizeof err);
    free(eq_default);
    if (rc != 0) {
        fprintf(stderr, "attnlab mutate: %s\n", err);
        return 2;
    }
    lab_src labs[GR_N_LABS];
    memset(labs, 0, sizeof labs);
    rc = 0;
    for (int l = 0; l < GR_N_LABS && rc == 0; l++) {
        if (!want[l])
            continue;
        labs[l].path = gr_layout_solution(NULL, l + 1);
        char *full = gr_xasprintf("%s/%s", root, labs[l].path);
        labs[l].text = gr_read_file(full, &labs[l].len);
        if (!labs[l].text) {
            fprintf(stderr, "attnlab mutate: cannot read %s (mutate needs a source tree with "
                    "its solutions/)\n", full);
            rc = 2;
        } else {
            gr_mutgen(labs[l].text, labs[l].len, &labs[l].muts);
        }
        free(full);
    }
    if (rc == 0 && list) {
        for (int l = 0; l < GR_N_LABS; l++)
            if (want[l])
                list_mutants(&labs[l], l + 1, &eq);
    } else if (rc == 0) {
        o.root = root;
        o.stub_dir = stub_dir;
        o.submission = root;
        o.student = "mutate";
        o.secret = GR_PRACTICE_SECRET;  /* the same inputs on every machine */
        gr_stop_install();
        rc = grade_mutants(&o, labs, want, &eq, part, parts, jobs, verbose, alone);
    }
    for (int l = 0; l < GR_N_LABS; l++) {
        free(labs[l].path);
        free(labs[l].text);
        gr_mutation_list_free(&labs[l].muts);
    }
    gr_equiv_free(&eq);
    return rc;
}
