/* test_stubs.c: make test never depends on the student's work. In a copy of
 * the tree whose labs/ hold a student's finished lab 1 (the solution in place
 * of the stub) and a lab 3 that does not even compile, make test's stub
 * checks still pass: scripts/dev-check.sh and `attnlab validate` read the
 * pristine stubs in data/stubs/. In the same copy, make check reports the
 * student's labs one line each, and `attnlab rules --write` refreshes a
 * labs/ copy that is still the pristine stub but never one a student edited.
 * Runs the built attnlab (build/attnlab beside this test's build folder). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "capture.h"
#include "cli/commands.h"
#include "learner.h"
#include "learn/progress.h"
#include "base/layout.h"

Suite *test_suite(void);

static char *scratch, *tree;

/* A copy of what make test's stub checks read, with the student's work in
   labs/: lab 1 solved, lab 3 broken, the rest untouched. */
static void make_copy(void)
{
    scratch = scratch_dir("stubs");
    tree = gr_xasprintf("%s/tree", scratch);
    char *cmd = gr_xasprintf("mkdir '%s' && cp -r Makefile labs lib data solutions scripts '%s'",
                             tree, tree);
    ck_assert_int_eq(system(cmd), 0);
    free(cmd);
    char *labs = gr_xasprintf("%s/labs", tree);
    for (int lab = 1; lab <= GR_N_LABS; lab++) {   /* untouched, whatever this tree's labs/ hold */
        char *stub = gr_xasprintf("data/stubs/lab%02d.c", lab);
        put_lab(labs, lab, stub);
        free(stub);
    }
    put_lab(labs, 1, "solutions/lab01-scores/lab01.c");
    char *broken = gr_xasprintf("%s/lab03-learned/lab03.c", labs);
    put_text(broken, "int lab_not_even_c(\n");
    free(broken);
    free(labs);
}

static void drop_copy(void)
{
    remove_tree(scratch);
    free(scratch);
    free(tree);
}

/* Run cmd in the copy's top folder; its exit status and output (stdout and
   stderr together) in r. */
static run_result in_copy(const char *cmd)
{
    char *full = gr_xasprintf("cd '%s' && %s 2>&1", tree, cmd);
    FILE *p = popen(full, "r");
    ck_assert_ptr_nonnull(p);
    gr_strbuf b = {0};
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0)
        gr_sb_appendn(&b, buf, n);
    int status = pclose(p);
    free(full);
    run_result r = {WEXITSTATUS(status), gr_sb_take(&b), gr_xstrdup("")};
    return r;
}

/* cmd_rules_run on the copy, as a capture_fn. */
static int cmd_rules_run_copy(FILE *out, FILE *err, int argc, char **argv)
{
    return cmd_rules_run(out, err, tree, argc, argv);
}

#define ASSERT_HAS(out, s) ck_assert_msg(strstr((out), (s)) != NULL, "no '%s' in:\n%s", (s), (out))

START_TEST(dev_check_reads_the_pristine_stubs)
{
    run_result r = in_copy("sh scripts/dev-check.sh lab01-scores lab03-learned");
    ck_assert_msg(r.rc == 0, "dev-check failed on a student's finished lab:\n%s", r.out);
    ASSERT_HAS(r.out, "dev-check: 4 passed, 0 failed");
    free_result(&r);
}
END_TEST

START_TEST(validate_reads_the_pristine_stubs)
{
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    ck_assert_int_gt(n, 0);
    exe[n] = '\0';
    *strrchr(exe, '/') = '\0';                              /* .../grader/tests */
    char *cmd = gr_xasprintf("ATTNLAB_ROOT=. '%s/../../attnlab' validate --lab 1,3", exe);
    run_result r = in_copy(cmd);
    ck_assert_msg(r.rc == 0, "validate failed on a student's tree:\n%s", r.out);
    ASSERT_HAS(r.out, "ok    lab01-scores: stub data/stubs/lab01.c scores 0, not implemented");
    ASSERT_HAS(r.out, "ok    lab03-learned: stub data/stubs/lab03.c scores 0, not implemented");
    ASSERT_HAS(r.out, "validate: ");
    ASSERT_HAS(r.out, " 0 failed");
    free_result(&r);
    free(cmd);
}
END_TEST

START_TEST(make_check_reports_the_students_labs)
{
    run_result r = in_copy("make -s check");
    ck_assert_int_eq(r.rc, 0);                              /* a report, not an error */
    ASSERT_HAS(r.out, "lab01-scores: passed\n");
    ASSERT_HAS(r.out, "lab02-softmax: not started\n");
    ASSERT_HAS(r.out, "lab03-learned: does not build");
    char *count = gr_xasprintf("check: 1 of %d labs pass their visible tests\n", GR_N_LABS);
    ASSERT_HAS(r.out, count);
    free(count);
    free_result(&r);
    /* a wrong answer: failing N of M, Check's own counts */
    char *sol = read_text("solutions/lab01-scores/lab01.c");
    char *at = strstr(sol, "1.0 / sqrt((double)d)");
    ck_assert_ptr_nonnull(at);
    memcpy(at, "1.0 /     ((double)d)", 21);
    char *file = gr_xasprintf("%s/labs/lab01-scores/lab01.c", tree);
    put_text(file, sol);
    r = in_copy("sh scripts/check-labs.sh");
    ck_assert_int_eq(r.rc, 1);                              /* the script says not every lab passes */
    ck_assert_msg(strstr(r.out, "lab01-scores: failing ") && strstr(r.out, " of 12\n"), "%s", r.out);
    free_result(&r);
    free(file);
    free(sol);
}
END_TEST

/* A rubric change rewrites the pristine stub's rules block; the untouched
   labs/ copy follows, the student's edited copy does not. */
START_TEST(rules_write_spares_the_students_copy)
{
    for (int lab = 1; lab <= 2; lab++) {
        char *rubric = gr_xasprintf("%s/data/rubrics/lab%02d.yaml", tree, lab);
        char *text = read_text(rubric);
        char *at = strstr(text, "time_ms: 2000");
        ck_assert_msg(at != NULL, "lab %d's rubric has no 'time_ms: 2000'", lab);
        memcpy(at, "time_ms: 3000", 13);
        put_text(rubric, text);
        free(text);
        free(rubric);
    }
    char *student = read_text("solutions/lab01-scores/lab01.c");
    run_result r = CAPTURE(cmd_rules_run_copy, "rules", "--write", "--lab", "1,2");
    ck_assert_msg(r.rc == 0, "%s%s", r.out, r.err);
    ASSERT_HAS(r.out, "wrote  data/stubs/lab01.c\n");
    ASSERT_HAS(r.out, "wrote  data/stubs/lab02.c\n");
    ASSERT_HAS(r.out, "wrote  labs/lab02-softmax/lab02.c\n");
    ck_assert_ptr_null(strstr(r.out, "labs/lab01-scores/lab01.c"));
    free_result(&r);

    char *path = gr_xasprintf("%s/labs/lab02-softmax/lab02.c", tree);
    ck_assert_int_eq(gr_progress_stub_untouched(tree, 2, path), 1);
    char *stub_path = gr_layout_stub(tree, 2), *stub = read_text(stub_path);
    free(stub_path);
    ck_assert_ptr_nonnull(strstr(stub, "Time limit: 3 s per test."));
    free(path);
    path = gr_xasprintf("%s/labs/lab01-scores/lab01.c", tree);
    char *now = read_text(path);
    ck_assert_str_eq(now, student);                          /* the student's file, byte for byte */
    free(now);
    free(path);
    free(stub);
    free(student);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("stubs");
    TCase *tc = tcase_create("stubs");
    tcase_add_checked_fixture(tc, make_copy, drop_copy);
    tcase_add_test(tc, dev_check_reads_the_pristine_stubs);
    tcase_add_test(tc, validate_reads_the_pristine_stubs);
    tcase_add_test(tc, make_check_reports_the_students_labs);
    tcase_add_test(tc, rules_write_spares_the_students_copy);
    tcase_set_timeout(tc, 300);
    suite_add_tcase(s, tc);
    return s;
}
