/* cmd_mutate.c: `attnlab mutate`, measuring the tests by mutation.
 *
 * Every solution in solutions/ is mutated mechanically (mutgen.h: one small
 * edit a mutant), each mutant is graded by the grading engine exactly as a
 * submission would be, and a mutant is killed when any test fails. The mutants
 * listed in each lab's data/mutants/labNN/equivalent.yaml (mutequiv.h) are not graded; any
 * other that passes every test is a survivor, and a survivor fails the run:
 * a test is missing, or the list needs a reviewed entry. A mutant that does
 * not compile tells nothing of the tests and is counted apart.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/opts.h"
#include "engine/grade.h"
#include "base/labmod.h"
#include "engine/mutequiv.h"
#include "engine/mutgen.h"
#include "engine/mutprog.h"
#include "base/pool.h"
#include "engine/seed.h"
#include "base/stop.h"
#include "base/util.h"
#include "base/layout.h"

static const gr_cmd_spec mutate_cmd = {
    .name = "mutate",
    .synopsis =
    "[--lab N|all] [--list] [--jobs N] [--part I/N] [--no-schema]\n"
    "                      [--verbose]",
    .about =
    "Measure the tests by mutation: make the classic mechanical mutants of each\n"
    "solution in solutions/ (relational, logical and arithmetic operators,\n"
    "constants, loop bounds, deleted statements, -INFINITY, expf/sqrtf/logf/fabsf\n"
    "replaced by their argument, fmaxf/fminf, swapped arguments), grade each as a\n"
    "submission, and print per lab how many were killed (a test failed), how many\n"
    "are equivalent (listed with a reason in the lab's\n"
    "data/mutants/labNN/equivalent.yaml, not graded), how many did not compile,\n"
    "and every survivor with file:line and its mutation. Comments and strings\n"
    "are never mutated.\n",
    .after =
    "Exit status: 0 no survivor, 1 a survivor (or a mutant the grader could not\n"
    "grade), 2 usage or data error.\n",
    .max_args = 0,
    .in_order = 1,
    .column = 19,
};

enum { M_KILLED = 'K', M_SURVIVED = 'S', M_STILLBORN = 'C' };

typedef struct job {
    char result;                /* M_*, 0 until graded */
    char *detail;               /* the killing test and verdict */
} job;

typedef struct run {
    const gr_grade_opts *base;
    char *work;
    gr_mutprog_in *in;          /* [n]: the mutants graded */
    job *jobs;                  /* [n]: what became of them */
    int n;
    int verbose;
    gr_mutprog progs;           /* the schemas they are graded in (mutprog.h) */
    /* per lab, how many mutants each test has killed so far: a worker is forked
       per mutant, so each runs the lab's best killers first (the verdict is the
       same in any order; only the tests run before the first failure differ) */
    int *kills[GR_N_LABS];
    int n_tests[GR_N_LABS];
} run;

/* The order to run lab's tests in: the most kills so far first, then the
   rubric's order; NULL before the lab's rubric is known. */
static int *kill_order(const run *r, int lab)
{
    const int *kills = r->kills[lab - 1];
    int n = r->n_tests[lab - 1];
    if (!kills || n == 0)
        return NULL;
    int *order = gr_xcalloc((size_t)n, sizeof *order);
    for (int i = 0; i < n; i++) {       /* insertion sort: stable, n is a few dozen */
        int k = i;
        while (k > 0 && kills[order[k - 1]] < kills[i]) {
            order[k] = order[k - 1];
            k--;
        }
        order[k] = i;
    }
    return order;
}

/* In a worker: write mutant i, grade it, send "K<index> test: verdict", "S" or "C". */
static int mutate_work(void *ctx, int i, gr_strbuf *out, char *err, size_t errlen)
{
    run *r = ctx;
    int lab = r->in[i].lab;
    gr_grade_opts o = *r->base;
    memset(o.labs, 0, sizeof o.labs);
    memset(o.sources, 0, sizeof o.sources);
    memset(o.built, 0, sizeof o.built);
    gr_build b;
    char *path = gr_mutprog_prepare(&r->progs, r->in, i, r->work, &o, &b, err, errlen);
    if (!path)
        return GR_STATUS_FAILED;
    o.labs[lab - 1] = 1;
    o.jobs = 1;
    o.first_failure = 1;  /* one failing test kills a mutant */
    int *order = kill_order(r, lab);
    o.order[lab - 1] = order;
    gr_report rep;
    int rc = gr_grade(&o, &rep, err, errlen);
    free(order);
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
        gr_sb_printf(out, "K%d %s: %s", (int)(bad - lr->tests), bad->name,
                     gr_result_verdict_name(bad->verdict));
    else
        gr_sb_append(out, "S");
    gr_result_free(&rep);
out:
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
    const gr_mutprog_in *in = &r->in[i];
    j->result = bytes[0];
    const char *detail = bytes + 1, *end = bytes + len;
    if (j->result == M_KILLED) {          /* "K<test index> <test>: <verdict>" */
        char *after;
        long t = strtol(detail, &after, 10);
        if (after < end && *after == ' ' && t >= 0 && t < r->n_tests[in->lab - 1]) {
            r->kills[in->lab - 1][t]++;
            detail = after + 1;
        }
    }
    j->detail = gr_xasprintf("%.*s", (int)(end - detail), detail);
    /* a survivor is news at once on stderr (the whole run takes minutes); the
       sorted list follows on stdout at the end */
    if (j->result == M_SURVIVED)
        fprintf(stderr, "survived: lab %d line %d: %s  [%s]\n", in->lab, in->m->line, in->m->what,
                in->m->line_text);
    return 0;
}

static void mutate_name(void *ctx, int i, char *buf, size_t len)
{
    run *r = ctx;
    snprintf(buf, len, "lab %d mutant at line %d (%s)", r->in[i].lab, r->in[i].m->line,
             r->in[i].m->what);
}

/* The solution of each lab and its mutants. */
typedef struct lab_src {
    char *path;             /* solutions/DIR/labNN.c, relative to root */
    char *text;
    size_t len;
    gr_mutation_list muts;
    int equivalent, killed, survived, stillborn, graded;
} lab_src;

/* --part I/N into to[0] = I, to[1] = N. */
static int part_option(void *to, const char *value, char *why, size_t whylen)
{
    int *pp = to, part, parts;
    char tail;
    if (sscanf(value, "%d/%d%c", &part, &parts, &tail) != 2 || parts < 1 || part < 0 ||
        part >= parts)
        return gr_opt_fail(why, whylen, "--part takes I/N with 0 <= I < N, got '%s'", value);
    pp[0] = part;
    pp[1] = parts;
    return 0;
}

/* The mutants of the wanted labs to grade into r (every parts-th from part on,
   the reviewed equivalents counted and left out). */
static void collect_mutants(run *r, lab_src *labs, const int *want, gr_equiv_set *eq, int part,
                            int parts)
{
    int total = 0, index = 0;
    for (int l = 0; l < GR_N_LABS; l++)
        total += want[l] ? labs[l].muts.n : 0;
    r->in = gr_xcalloc((size_t)total + 1, sizeof *r->in);
    r->jobs = gr_xcalloc((size_t)total + 1, sizeof *r->jobs);
    for (int l = 0; l < GR_N_LABS; l++) {
        for (int k = 0; want[l] && k < labs[l].muts.n; k++, index++) {
            const gr_mutation *m = &labs[l].muts.m[k];
            gr_equiv *e = gr_mutequiv_find(eq, l + 1, m->line_text, m->what);
            if (e)
                e->used++;
            if (index % parts != part)
                continue;
            if (e) {
                labs[l].equivalent++;
                continue;
            }
            r->in[r->n++] = (gr_mutprog_in){l + 1, m, labs[l].text, labs[l].len};
        }
    }
}

/* Each wanted lab's cases, made once here for every mutant (the workers are
   forked from this process), its number of tests and a kill count per test. */
static int make_cases(run *r, gr_grade_opts *base, const int *want, gr_case **cases[GR_N_LABS],
                      char *err, size_t errlen)
{
    for (int l = 0; l < GR_N_LABS; l++) {
        if (!want[l])
            continue;
        int rc = gr_grade_cases(base, l + 1, &cases[l], &r->n_tests[l], err, errlen);
        if (rc != 0)
            return rc;
        base->cases[l] = cases[l];
        r->kills[l] = gr_xcalloc((size_t)r->n_tests[l] + 1, sizeof *r->kills[l]);
    }
    return 0;
}

/* Print every survivor (and with verbose every kill), then the per-lab counts;
   the number of survivors. */
static int report_mutants(const run *r, lab_src *labs, const int *want, const gr_equiv_set *eq,
                          int parts, double seconds)
{
    int survivors = 0;
    for (int i = 0; i < r->n; i++) {
        const job *j = &r->jobs[i];
        const gr_mutation *m = r->in[i].m;
        lab_src *ls = &labs[r->in[i].lab - 1];
        ls->graded++;
        if (j->result == M_KILLED)
            ls->killed++;
        else if (j->result == M_STILLBORN)
            ls->stillborn++;
        else {
            ls->survived++;
            survivors++;
            printf("SURVIVED  %s:%d: %s\n          %s\n", ls->path, m->line, m->what, m->line_text);
        }
        if (r->verbose && j->result == M_KILLED)
            printf("killed    %s:%d: %s  by %s\n", ls->path, m->line, m->what, j->detail);
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
           sum[4], live ? 100.0 * sum[1] / live : 100.0, live, seconds);
    printf("mutate: %d passed, %d failed\n", sum[1], sum[4]);   /* killed, survived */
    return survivors;
}

/* Grade the selected mutants, print the per-lab counts and the survivors. */
static int grade_mutants(const gr_grade_opts *o, lab_src *labs, const int *want, gr_equiv_set *eq,
                         int part, int parts, int jobs, int verbose, int alone)
{
    char err[1024];
    run r;
    memset(&r, 0, sizeof r);
    gr_grade_opts base = *o;
    gr_case **cases[GR_N_LABS] = {0};
    r.base = &base;
    r.verbose = verbose;
    collect_mutants(&r, labs, want, eq, part, parts);
    double t0 = gr_now_seconds();
    int rc = make_cases(&r, &base, want, cases, err, sizeof err);
    if (rc == 0 && !(r.work = gr_workdir_make("mutate", err, sizeof err)))
        rc = GR_STATUS_FAILED;
    if (rc == 0 && !alone)
        rc = gr_mutprog_build(o, r.work, r.in, r.n, jobs, &r.progs, err, sizeof err);
    if (rc == 0 && verbose && !alone)
        printf("mutate: %d programs hold %d of %d mutants, built in %.1f s\n", r.progs.n,
               gr_mutprog_count(&r.progs), r.n, r.progs.seconds);
    gr_pool_task t = {mutate_work, mutate_done, mutate_name, &r};
    if (rc == 0)
        rc = gr_pool_map(&t, r.n, jobs, err, sizeof err);
    gr_mutprog_free(&r.progs);
    if (r.work)
        gr_workdir_remove(r.work);
    int survivors = rc == 0 ? report_mutants(&r, labs, want, eq, parts, gr_now_seconds() - t0) : 0;
    for (int i = 0; i < r.n; i++)
        free(r.jobs[i].detail);
    for (int l = 0; l < GR_N_LABS; l++) {
        free(r.kills[l]);
        gr_grade_cases_free(&cases[l], r.n_tests[l]);
    }
    free(r.jobs);
    free(r.in);
    if (rc != 0) {
        fprintf(stderr, "attnlab mutate: %s\n", err);
        if (gr_stop_requested())
            gr_stop_reraise();
        return rc == GR_STATUS_BAD_INPUT ? 2 : 1;
    }
    return survivors ? 1 : 0;
}

static void list_mutants(const lab_src *ls, int lab, gr_equiv_set *eq)
{
    for (int k = 0; k < ls->muts.n; k++) {
        const gr_mutation *m = &ls->muts.m[k];
        printf("%s:%d: %s%s\n    %s\n", ls->path, m->line, m->what,
               gr_mutequiv_find(eq, lab, m->line_text, m->what) ? "  (equivalent)" : "",
               m->line_text);
    }
}

int cmd_mutate(int argc, char **argv)
{
    const char *labs_arg = "all", *equiv_path = NULL;
    int list = 0, jobs = 2, part_of[2] = {0, 1}, verbose = 0, alone = 0;
    const gr_opt opts[] = {
        GR_TEXT("lab", 0, &labs_arg, "N|all",
                "which labs (default all)"),
        GR_FLAG("list", 0, &list,
                "list the mutants and their names, grade nothing"),
        GR_INT("jobs", 'j', &jobs, "N",
                "mutants graded at once (default 2)",
               1, 64, "a number from 1 to 64"),
        GR_CALL("part", 0, part_option, part_of, "I/N",
                "only every N-th mutant from the I-th (0 <= I < N), for a\n"
                "quick deterministic sample"),
        GR_TEXT("equivalent", 0, &equiv_path, "F",
                "one lab's reviewed list instead of each lab's own"),
        GR_FLAG("verbose", 'v', &verbose,
                "name the test that killed each mutant"),
        GR_FLAG("no-schema", 0, &alone,
                "build every mutant alone (the default builds a lab's mutants\n"
                "once, as one program that runs the one it is told to)"),
    };
    int first, rc = gr_opts_parse(&mutate_cmd, opts, GR_N_OPTS(opts), argc, argv, stdout, stderr,
                                  &first);
    if (rc != 0)
        return rc == GR_OPTS_HELP ? GR_EXIT_OK : rc;
    int part = part_of[0], parts = part_of[1];

    char err[1024], root[PATH_MAX], child_dir[PATH_MAX];
    gr_grade_opts o;
    memset(&o, 0, sizeof o);
    if (gr_layout_parse_labs(labs_arg, o.labs, err, sizeof err) != 0)
        return gr_usage_error("mutate", "%s", err);
    int want[GR_N_LABS];
    memcpy(want, o.labs, sizeof want);
    if (gr_layout_locate(root, sizeof root, child_dir, sizeof child_dir, err, sizeof err) != 0) {
        fprintf(stderr, "attnlab mutate: %s\n", err);
        return 2;
    }
    gr_equiv_set eq;
    rc = equiv_path ? gr_mutequiv_load(equiv_path, &eq, err, sizeof err)
                        : gr_mutequiv_load_labs(root, want, &eq, err, sizeof err);
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
        o.child_dir = child_dir;
        o.submission = root;
        o.student = "mutate";
        o.secret = GR_PRACTICE_SECRET;  /* the same inputs on every machine */
        gr_stop_install();
        rc = grade_mutants(&o, labs, want, &eq, part, parts, jobs, verbose, alone);
    }
    for (int l = 0; l < GR_N_LABS; l++) {
        free(labs[l].path);
        free(labs[l].text);
        gr_mutgen_list_free(&labs[l].muts);
    }
    gr_mutequiv_free(&eq);
    return rc;
}
