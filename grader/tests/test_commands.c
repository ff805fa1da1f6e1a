/* test_commands.c: the built program's command table, run as a user runs it
 * (build/attnlab, from the repository root): every command listed by
 * `attnlab --help` answers --help with its usage on stdout and exit 0, and a
 * command the syllabus plans but attnlab lacks says what to use instead. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util.h"

Suite *test_suite(void);

/* Run build/attnlab with args (shell words); its exit status, stdout and stderr. */
static int run(const char *args, char **out, char **err)
{
    char o[] = "/tmp/attnlab-test-commands-out-XXXXXX", e[] = "/tmp/attnlab-test-commands-err-XXXXXX";
    ck_assert_msg(access("build/attnlab", X_OK) == 0, "build/attnlab is missing: run make first");
    int fo = mkstemp(o), fe = mkstemp(e);
    ck_assert(fo >= 0 && fe >= 0);
    char *cmd = gr_xasprintf("build/attnlab %s >%s 2>%s </dev/null", args, o, e);
    int st = system(cmd);
    free(cmd);
    *out = gr_read_file(o, NULL);
    *err = gr_read_file(e, NULL);
    ck_assert(*out && *err);
    close(fo);
    close(fe);
    unlink(o);
    unlink(e);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

START_TEST(every_listed_command_has_help)
{
    char *out, *err;
    ck_assert_int_eq(run("--help", &out, &err), 0);
    const char *p = strstr(out, "Commands:\n");
    ck_assert_ptr_nonnull(p);
    int n = 0;
    for (p = strchr(p, '\n') + 1; strncmp(p, "  ", 2) == 0; p = strchr(p, '\n') + 1) {
        char name[32];
        ck_assert_int_eq(sscanf(p, " %31s", name), 1);
        char *args = gr_xasprintf("%s --help", name), *o, *e;
        ck_assert_msg(run(args, &o, &e) == 0, "attnlab %s --help: %s", name, e);
        char *usage = gr_xasprintf("usage: attnlab %s", name);
        ck_assert_msg(strncmp(o, usage, strlen(usage)) == 0, "attnlab %s --help printed:\n%s", name, o);
        /* each says what its exit status means (the list's line defers to them) */
        ck_assert_msg(strstr(o, "Exit status: 0 "), "attnlab %s --help has no exit status", name);
        ck_assert_str_eq(e, "");
        free(usage);
        free(args);
        free(o);
        free(e);
        n++;
    }
    ck_assert_int_ge(n, 7);
    /* grade and batch exit 0 whatever the score: the list never says tests failing is 1 */
    ck_assert_msg(!strstr(out, "tests failed") && strstr(out, "grade and batch exit 0 whatever "
                  "the\nscore"), "%s", out);
    free(out);
    free(err);
}
END_TEST

/* One line on stderr, exit 2; a typo of a command suggests it. */
static const struct { const char *args, *says; } unknown[] = {
    { "grde", "'grde' is not a command (did you mean 'grade'?)" },
    { "dril", "'dril' is not a command (did you mean 'drill'?)" },
    { "simlarity", "'simlarity' is not a command (did you mean 'similarity'?)" },
    { "xyzzy", "'xyzzy' is not a command; see 'attnlab --help' for the list" },
    { "help xyzzy", "'xyzzy' is not a command" },
};

START_TEST(unknown_commands_suggest_the_right_one)
{
    char *out, *err;
    ck_assert_int_eq(run(unknown[_i].args, &out, &err), 2);
    ck_assert_str_eq(out, "");
    ck_assert_msg(strstr(err, unknown[_i].says) != NULL, "attnlab %s said: %s", unknown[_i].args, err);
    ck_assert_ptr_eq(strchr(err, '\n'), err + strlen(err) - 1);   /* one line */
    free(out);
    free(err);
}
END_TEST

/* check-lab: a lab number or exit 2; a tree whose build fails gets the build's
   log end and no other step (exit 1), each step's log kept under the tree. */
START_TEST(check_lab_says_what_failed)
{
    char *out, *err;
    ck_assert_int_eq(run("check-lab", &out, &err), 2);
    ck_assert_msg(strstr(err, "give one lab number"), "%s", err);
    free(out);
    free(err);
    ck_assert_int_eq(run("check-lab 99", &out, &err), 2);
    ck_assert_msg(strstr(err, "the lab is a number from 1 to"), "%s", err);
    free(out);
    free(err);
    char dir[] = "/tmp/attnlab-test-checklab-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char *mk = gr_xasprintf("%s/Makefile", dir);
    const char *broken = "all:\n\t@echo the build broke here; false\n%:\n\t@false\n";
    ck_assert_int_eq(gr_write_file_atomic(mk, broken, strlen(broken)), 0);
    setenv("ATTNLAB_ROOT", dir, 1);
    int rc = run("check-lab 1", &out, &err);
    unsetenv("ATTNLAB_ROOT");
    ck_assert_msg(rc == 1, "exit %d: %s%s", rc, out, err);
    ck_assert_msg(strstr(out, "build              FAIL") && strstr(out, "the build broke here") &&
                  strstr(out, "validate           not run: the build failed") &&
                  strstr(out, "test_stubs         not run") && strstr(out, "check-lab 1: FAILED"),
                  "%s", out);
    char *log = gr_xasprintf("%s/build/check-lab/lab01/build.log", dir);
    char *text = gr_read_file(log, NULL);
    ck_assert_msg(text && strstr(text, "the build broke here"), "%s: %s", log, text ? text : "none");
    char *rm = gr_xasprintf("rm -rf '%s'", dir);
    ck_assert_int_eq(system(rm), 0);
    free(rm);
    free(text);
    free(log);
    free(mk);
    free(out);
    free(err);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("commands");
    TCase *tc = tcase_create("commands");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, every_listed_command_has_help);
    tcase_add_test(tc, check_lab_says_what_failed);
    tcase_add_loop_test(tc, unknown_commands_suggest_the_right_one, 0,
                        (int)(sizeof unknown / sizeof unknown[0]));
    suite_add_tcase(s, tc);
    return s;
}
