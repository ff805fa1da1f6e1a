/* cmd_checklab.c: `attnlab check-lab N`, every check make test and make
 * mutation hold one lab to, for that lab, in minutes instead of make test's
 * whole run.
 *
 * Each step is a command of the source tree run from its top (make, attnlab,
 * dev-check, a Check suite), its output kept in build/check-lab/labNN/STEP.log;
 * a step that fails prints the end of its log and the run goes on, so one run
 * says everything that is wrong. The suites are make test's; with ATTNLAB_LAB=N
 * test_lab_modules checks lab N alone (the others hold every lab to their rule
 * in seconds, a failure naming the lab).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/opts.h"
#include "base/labmod.h"
#include "base/layout.h"
#include "base/util.h"

static const gr_cmd_spec checklab_cmd = {
    .name = "check-lab",
    .synopsis = "N",
    .about =
    "Run every check make test (and make mutation) holds lab N to, from the top\n"
    "of a source tree: build the program and the suites below; validate --lab N\n"
    "(rules blocks, points, solution full marks, stub 0, every catalogued mutant\n"
    "diagnosed on a visible test and scored the same for 8 student ids); mutate\n"
    "--lab N (every mechanical mutant killed or a reviewed equivalent); the\n"
    "dev-check of its folder; and the Check suites of the content rules (module,\n"
    "README row, rules blocks, drills, the student kit, the stubs, the lab's own\n"
    "suite). Each step prints ok or FAIL with its time; a failure prints the end\n"
    "of its log (build/check-lab/labNN/STEP.log) and the steps go on.\n",
    .after =
    "Exit status: 0 every step passed, 1 a step failed, 2 usage error.\n",
    .max_args = 1,
};

/* The Check suites that hold a lab to a content rule (doc/adding-a-lab.md
   says which rule each holds). */
static const char *const rule_suites[] = {
    "test_lab_modules",   /* misconceptions described, diagnosable, distinct; tests seeded */
    "test_readme_labs",   /* the README's row: functions, libattn calls, drill banks */
    "test_rules",         /* rules blocks of stub and handout, 72 columns */
    "test_drill",         /* every bank loads; its lessons and sections exist */
    "test_drill_trust",   /* drills at chance by letter, length, slogans; phrases cited */
    "test_student_kit",   /* no hidden test's name or reference code in the kit */
    "test_stubs",         /* dev-check and validate read the pristine stubs */
};
#define N_RULE_SUITES ((int)(sizeof rule_suites / sizeof *rule_suites))

/* Run cmd (a shell line) from root, output to log; print its verdict and time,
   and the end of the log when it fails. 0 when it passed. */
static int run_step(const char *root, const char *name, const char *cmd, const char *log)
{
    printf("%-18s ", name);
    fflush(stdout);
    double t0 = gr_now_seconds();
    char *line = gr_xasprintf("cd '%s' && { %s; } >'%s' 2>&1", root, cmd, log);
    int st = system(line);
    free(line);
    int ok = st == 0;
    printf("%s  %.0f s\n", ok ? "ok  " : "FAIL", gr_now_seconds() - t0);
    if (!ok) {
        char *tail = gr_xasprintf("tail -n 25 '%s' | sed 's/^/    /'", log);
        fflush(stdout);
        if (system(tail) != 0)
            printf("    (see %s)\n", log);
        free(tail);
        printf("    the whole log: %s\n", log);
    }
    return ok ? 0 : 1;
}

/* The steps of lab's check, from root, logs under logs; how many failed. */
static int check_lab(const char *root, int lab, const char *logs)
{
    const char *dir = gr_layout_dir(lab);
    char *own = gr_xasprintf("test_lab%02d", lab), *own_src = gr_xasprintf(
        "%s/grader/tests/%s.c", root, own);
    int has_own = access(own_src, F_OK) == 0;   /* a lab's own suite is optional */
    gr_strbuf suites = {0};
    for (int i = 0; i < N_RULE_SUITES; i++)
        gr_sb_printf(&suites, " build/grader/tests/%s", rule_suites[i]);
    if (has_own)
        gr_sb_printf(&suites, " build/grader/tests/%s", own);

    struct { char *name, *cmd; } steps[N_RULE_SUITES + 5];
    int n = 0;
    steps[n].name = gr_xstrdup("build");
    steps[n++].cmd = gr_xasprintf("make -s all%s", suites.s);
    steps[n].name = gr_xstrdup("validate");
    steps[n++].cmd = gr_xasprintf("build/attnlab validate --lab %d", lab);
    steps[n].name = gr_xstrdup("mutate");
    steps[n++].cmd = gr_xasprintf("build/attnlab mutate --lab %d", lab);
    steps[n].name = gr_xstrdup("dev-check");
    steps[n++].cmd = gr_xasprintf("sh scripts/dev-check.sh %s", dir);
    for (int i = 0; i < N_RULE_SUITES + has_own; i++) {
        const char *s = i < N_RULE_SUITES ? rule_suites[i] : own;
        steps[n].name = gr_xstrdup(s);
        steps[n++].cmd = gr_xasprintf("ATTNLAB_BUILD_CACHE=build/build-cache ATTNLAB_LAB=%d "
                                      "build/grader/tests/%s", lab, s);
    }
    int failed = 0;
    for (int i = 0; i < n; i++) {
        char *log = gr_xasprintf("%s/%s.log", logs, steps[i].name);
        if (i > 0 && failed)     /* nothing runs on a program that did not build */
            printf("%-18s not run: the build failed\n", steps[i].name);
        else
            failed += run_step(root, steps[i].name, steps[i].cmd, log);
        free(log);
        free(steps[i].name);
        free(steps[i].cmd);
    }
    free(suites.s);
    free(own);
    free(own_src);
    return failed;
}

int cmd_checklab(int argc, char **argv)
{
    int first, rc = gr_opts_parse(&checklab_cmd, NULL, 0, argc, argv, stdout, stderr, &first);
    if (rc != 0)
        return rc == GR_OPTS_HELP ? GR_EXIT_OK : rc;
    if (first >= argc)
        return gr_usage_error("check-lab", "give one lab number, like 'attnlab check-lab 11'");
    const char *arg = argv[first];
    char *end;
    long lab = strtol(arg, &end, 10);
    if (*end || end == arg || lab < 1 || lab > GR_N_LABS)
        return gr_usage_error("check-lab", "the lab is a number from 1 to %d, got '%s' (a lab "
                              "just added: run make first)", GR_N_LABS, arg);
    char root[4096], child_dir[4096], err[1024];
    if (gr_layout_locate(root, sizeof root, child_dir, sizeof child_dir, err, sizeof err) != 0) {
        fprintf(stderr, "attnlab check-lab: %s\n", err);
        return 2;
    }
    char *mk = gr_xasprintf("%s/Makefile", root), *text = gr_read_file(mk, NULL);
    free(mk);
    free(text);
    if (!text) {
        fprintf(stderr, "attnlab check-lab: %s is no source tree (no Makefile): check-lab "
                "runs the tree's make, suites and scripts\n", root);
        return 2;
    }
    char *logs = gr_xasprintf("%s/build/check-lab/lab%02d", root, (int)lab);
    char *mkdir = gr_xasprintf("mkdir -p '%s'", logs);
    rc = system(mkdir);
    free(mkdir);
    if (rc != 0) {
        fprintf(stderr, "attnlab check-lab: cannot make %s\n", logs);
        free(logs);
        return 2;
    }
    printf("attnlab check-lab %ld (%s), from %s:\n", lab, gr_layout_dir((int)lab), root);
    double t0 = gr_now_seconds();
    int failed = check_lab(root, (int)lab, logs);
    printf("check-lab %ld: %s in %.0f s\n", lab, failed ? "FAILED" : "every check passed",
           gr_now_seconds() - t0);
    if (failed)
        printf("check-lab %ld: %d step%s failed; logs in %s\n", lab, failed,
               failed == 1 ? "" : "s", logs);
    free(logs);
    return failed ? 1 : 0;
}
