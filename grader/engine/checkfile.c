/* checkfile.c: see checkfile.h. */
#include "engine/checkfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "confined/tool.h"
#include "confined/workdir.h"
#include "base/layout.h"
#include "base/pool.h"

#define CHECK_SECONDS 300          /* one build and run of a Check file */
#define CHECK_LOG     (4 << 20)    /* output kept: what the code printed, then the summary */

extern char **environ;

/* The caller's environment without what would change the lab's build or
   Check's run (an enclosing make's flags, CFLAGS, CK_*), and a time limit
   per check of 2 s, so a mutant that hangs fails its checks soon. */
static char **check_env(void)
{
    static const char *drop[] = {"MAKEFLAGS=", "MFLAGS=", "MAKELEVEL=", "MAKEOVERRIDES=",
                                 "CFLAGS=", "CK_"};
    size_t n = 0;
    while (environ[n])
        n++;
    char **env = gr_xcalloc(n + 2, sizeof *env);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        int keep = 1;
        for (size_t d = 0; d < sizeof drop / sizeof *drop; d++)
            keep &= strncmp(environ[i], drop[d], strlen(drop[d])) != 0;
        if (keep)
            env[k++] = environ[i];
    }
    static char timeout[] = "CK_DEFAULT_TIMEOUT=2";
    env[k] = timeout;
    return env;
}

/* The verdict from Check's output: its summary line "94%: Checks: 18,
   Failures: 1, Errors: 0" and its first failing check ("file:line:F:..."). */
static void read_log(const char *log, int exit_ok, gr_checkfile_verdict *v)
{
    const char *sum = log ? strstr(log, "%: Checks: ") : NULL;
    int checks = 0, failures = 0, errors = 0;
    v->passed = exit_ok && sum;
    if (!sum || sscanf(sum, "%%: Checks: %d, Failures: %d, Errors: %d", &checks, &failures,
                       &errors) != 3) {
        snprintf(v->summary, sizeof v->summary, "%s",
                 exit_ok ? "printed no Check summary" : "does not build");
        return;
    }
    if (v->passed)
        snprintf(v->summary, sizeof v->summary, "passed %d checks", checks);
    else
        snprintf(v->summary, sizeof v->summary, "failing %d of %d", failures + errors, checks);
    const char *f = strstr(sum, ":F:"), *e = strstr(sum, ":E:");
    const char *bad = f && (!e || f < e) ? f : e;
    if (!bad)
        return;
    while (bad > log && bad[-1] != '\n')
        bad--;
    snprintf(v->first, sizeof v->first, "%.*s", (int)strcspn(bad, "\n"), bad);
}

int gr_checkfile_run(const char *root, int lab, const char *src, const char *work,
                     const char *obj_dir, gr_checkfile_verdict *v, char *err, size_t errlen)
{
    memset(v, 0, sizeof *v);
    size_t len = 0;
    char *text = gr_read_file(src, &len);
    char *name = gr_layout_name(lab, ".c"), *copy = gr_xasprintf("%s/%s", work, name);
    int rc = text && gr_write_file_atomic(copy, text, len) == 0 ? 0 : -1;
    if (rc != 0)
        gr_set_err(err, errlen, "cannot copy %s to %s", src, copy);
    free(text);
    free(name);
    free(copy);
    if (rc != 0)
        return -1;
    char *folder = gr_layout_folder(root, lab);
    char *src_dir = gr_xasprintf("SRC_DIR=%s", work), *out = gr_xasprintf("OUT=%s/out", work);
    char *objs = gr_xasprintf("OBJ_DIR=%s", obj_dir ? obj_dir : "$(OUT)");
    /* ATTNLAB= : the Check file's verdict alone; make test's rules step is
       attnlab rules --source, gr_grade_build itself, whose verdict rules_only reads */
    const char *argv[] = {"make", "-s", "-C", folder, "test", src_dir, out, objs, "ATTNLAB=",
                          NULL};
    char **env = check_env();
    const gr_tool_opts o = {.env = env, .seconds = CHECK_SECONDS, .log_bytes = CHECK_LOG,
                            .path_search = 1};
    gr_tool_run tr;
    if (gr_tool_exec(argv, &o, &tr) != 0) {
        gr_set_err(err, errlen, "cannot run make for %s's Check file: %s", folder, tr.why);
        rc = -1;
    } else {
        read_log(tr.log, gr_tool_ok(&tr), v);
        free(tr.log);
    }
    free(env);
    free(folder);
    free(src_dir);
    free(out);
    free(objs);
    return rc;
}

int gr_checkfile_visible_passed(const gr_lab_result *lr)
{
    int visible = 0;
    for (int i = 0; i < lr->n_tests; i++) {
        if (lr->tests[i].visibility != GR_VISIBLE)
            continue;
        visible++;
        if (lr->tests[i].verdict != GR_PASSED)
            return 0;
    }
    return visible > 0;
}

/* ---- every mutant of a lab, in workers ---------------------------------------- */

typedef struct mutants_task {
    const char *root;
    int lab;
    const gr_mutant_set *set;
    const char *const *srcs;
    const char *objs;               /* the tests' objects, built with the solution's */
    gr_checkfile_verdict *verdicts;
} mutants_task;

static int mutant_work(void *ctx, int i, gr_strbuf *out, char *err, size_t errlen)
{
    const mutants_task *mt = ctx;
    char *work = gr_workdir_make("check", err, errlen);
    if (!work)
        return -1;
    gr_checkfile_verdict v;
    int rc = gr_checkfile_run(mt->root, mt->lab, mt->srcs[i], work, mt->objs, &v, err, errlen);
    gr_workdir_remove(work);
    if (rc == 0)
        gr_sb_appendn(out, (const char *)&v, sizeof v);
    return rc;
}

static int mutant_done(void *ctx, int i, const char *bytes, size_t len, char *err,
                       size_t errlen)
{
    mutants_task *mt = ctx;
    if (len != sizeof mt->verdicts[i]) {
        gr_set_err(err, errlen, "the worker running the Check file on mutant %s sent %zu bytes",
                   mt->set->mutants[i].name, len);
        return -1;
    }
    memcpy(&mt->verdicts[i], bytes, len);
    mt->verdicts[i].summary[sizeof mt->verdicts[i].summary - 1] = '\0';
    mt->verdicts[i].first[sizeof mt->verdicts[i].first - 1] = '\0';
    return 0;
}

static void mutant_name(void *ctx, int i, char *buf, size_t len)
{
    const mutants_task *mt = ctx;
    snprintf(buf, len, "the Check file of lab %d on mutant %s", mt->lab, mt->set->mutants[i].name);
}

/* The visible tests of lr that failed, "a, b (verdict)", into why. */
static void visible_failures(gr_strbuf *why, const gr_lab_result *lr)
{
    int n = 0;
    for (int i = 0; i < lr->n_tests; i++) {
        const gr_test_result *t = &lr->tests[i];
        if (t->visibility == GR_VISIBLE && t->verdict != GR_PASSED)
            gr_sb_printf(why, "%s%s (%s)", n++ ? ", " : "", t->name,
                         gr_result_verdict_name(t->verdict));
    }
}

/* 1 when lr's visible tests fail only as "forbidden call": the lab's rules,
   which the grader's build holds and a Check file cannot see (make test asks
   the grader's build for them: attnlab rules --source; a raw system call the
   sandbox stops at run time is seen by grade alone). */
static int rules_only(const gr_lab_result *lr)
{
    int failed = 0;
    for (int i = 0; i < lr->n_tests; i++) {
        const gr_test_result *t = &lr->tests[i];
        if (t->visibility != GR_VISIBLE || t->verdict == GR_PASSED)
            continue;
        if (t->verdict != GR_FORBIDDEN_CALL)
            return 0;
        failed = 1;
    }
    return failed;
}

/* The solution through the Check file, its objects left in objs for the
   mutants: 0 when it passes, else -1 with err (a harness that fails
   everything would agree with every failing mutant). */
static int solution_passes(const char *root, int lab, const char *solution, const char *objs,
                           char *err, size_t errlen)
{
    char *work = gr_workdir_make("check", err, errlen);
    if (!work)
        return -1;
    gr_checkfile_verdict v;
    int rc = gr_checkfile_run(root, lab, solution, work, objs, &v, err, errlen);
    gr_workdir_remove(work);
    if (rc == 0 && !v.passed) {
        gr_set_err(err, errlen, "the solution %s fails the Check file of lab %d (%s): %s",
                   solution, lab, v.summary, v.first);
        rc = -1;
    }
    return rc;
}

int gr_checkfile_mutants(const char *root, int lab, const gr_mutant_set *set,
                         const char *const *srcs, const gr_lab_result *results,
                         const char *solution, int jobs, gr_strbuf *why, int *rules,
                         char *err, size_t errlen)
{
    *rules = 0;
    char *objs = gr_workdir_make("check-objs", err, errlen);
    if (!objs || solution_passes(root, lab, solution, objs, err, errlen) != 0) {
        gr_workdir_remove(objs);
        return -1;
    }
    mutants_task mt = {root, lab, set, srcs, objs,
                       gr_xcalloc((size_t)set->n + 1, sizeof *mt.verdicts)};
    gr_pool_task task = {mutant_work, mutant_done, mutant_name, &mt};
    int rc = gr_pool_map(&task, set->n, jobs, err, errlen), differ = 0;
    for (int i = 0; rc == 0 && i < set->n; i++) {
        const gr_checkfile_verdict *v = &mt.verdicts[i];
        int visible = gr_checkfile_visible_passed(&results[i]);
        if (v->passed == visible)
            continue;
        if (rules_only(&results[i])) {
            (*rules)++;
            continue;
        }
        differ++;
        gr_sb_printf(why, "      mutant %s: the Check file %s, the visible tests %s",
                     set->mutants[i].name, v->summary, visible ? "pass" : "fail: ");
        if (!visible)
            visible_failures(why, &results[i]);
        gr_sb_append(why, "\n");
        if (v->first[0])
            gr_sb_printf(why, "        %s\n", v->first);
    }
    free(mt.verdicts);
    gr_workdir_remove(objs);
    return rc == 0 ? differ : -1;
}
