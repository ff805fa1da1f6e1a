/* test_doctor.c: `attnlab doctor` on this machine (everything make test
 * needs is here, so every needed row is ok and it exits 0), with an empty
 * PATH (every tool missing: exit 1 and one apt-get line naming each
 * package), with sandbox layers turned off (each named with what grading
 * loses), and its usage errors. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "cli/commands.h"

Suite *test_suite(void);

#define DOCTOR(...) CAPTURE(cmd_doctor_run, "doctor", __VA_ARGS__)

/* `attnlab doctor` with no arguments. */
static run_result doctor(void)
{
    return run_command(cmd_doctor_run, "doctor", 0, NULL);
}

#define ASSERT_HAS(out, s) ck_assert_msg(strstr((out), (s)) != NULL, "no '%s' in:\n%s", (s), (out))

START_TEST(this_machine_has_what_make_test_needs)
{
    run_result r = doctor();
    ck_assert_msg(r.rc == 0, "exit %d:\n%s", r.rc, r.out);
    static const char *const rows[] = {"compiler", "libc.a", "make", "pkg-config", "Check",
                                       "libyaml", "libseccomp", "nm"};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        char want[64];
        snprintf(want, sizeof want, "  ok       %-12s ", rows[i]);
        ASSERT_HAS(r.out, want);
    }
    ASSERT_HAS(r.out, "gnuplot");                   /* ok or missing, it has a row */
    ASSERT_HAS(r.out, "The compiler runs confined by: ");
    ASSERT_HAS(r.out, "rlimits");                   /* always on */
    ASSERT_HAS(r.out, "The tests run confined by: ");
    ASSERT_HAS(r.out, "Everything needed to build and grade is here.");
    ck_assert_str_eq(r.err, "");
    free_result(&r);
}
END_TEST

START_TEST(nothing_on_path_says_what_to_install)
{
    setenv("PATH", "/nonexistent", 1);
    unsetenv("ATTNLAB_CC");
    run_result r = doctor();
    ck_assert_int_eq(r.rc, 1);
    ASSERT_HAS(r.out, "  MISSING  compiler     'cc' does not run");
    ASSERT_HAS(r.out, "  MISSING  Check        make check and each lab's make test");
    ASSERT_HAS(r.out, "  MISSING  gnuplot      attnlab plot and make plots cannot draw");
    ASSERT_HAS(r.out, "apt-get install -y --no-install-recommends build-essential make "
                      "pkg-config check libyaml-dev libseccomp-dev libjansson-dev binutils gnuplot-nox\n");
    ASSERT_HAS(r.out, "Something needed is missing: install it, then run 'make'.");
    free_result(&r);
}
END_TEST

START_TEST(a_missing_layer_says_what_grading_loses)
{
    setenv("ATTNLAB_CONFINE_DISABLE", "namespace,landlock,seccomp", 1);
    run_result r = doctor();
    ck_assert_int_eq(r.rc, 0);                      /* weaker, not broken */
    ASSERT_HAS(r.out, "(ATTNLAB_CONFINE_DISABLE=namespace,landlock,seccomp turns some layers off");
    ASSERT_HAS(r.out, "weaker: no private namespaces");
    ASSERT_HAS(r.out, "weaker: no Landlock");
    ASSERT_HAS(r.out, "weaker: no seccomp for the toolchain");
    ck_assert_ptr_null(strstr(r.out, "Every layer is on"));
    free_result(&r);
}
END_TEST

START_TEST(usage_errors)
{
    run_result r = DOCTOR("--bogus");
    check_usage_error(&r, 0, "attnlab doctor: ", "'--bogus'");
    free_result(&r);
    r = DOCTOR("now");
    check_usage_error(&r, 1, "attnlab doctor: ", "unexpected argument 'now'");
    free_result(&r);
    r = DOCTOR("--help");
    ck_assert_int_eq(r.rc, 0);
    ASSERT_HAS(r.out, "usage: attnlab doctor\n");
    free_result(&r);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("doctor");
    TCase *tc = tcase_create("doctor");
    tcase_add_test(tc, this_machine_has_what_make_test_needs);
    tcase_add_test(tc, nothing_on_path_says_what_to_install);
    tcase_add_test(tc, a_missing_layer_says_what_grading_loses);
    tcase_add_test(tc, usage_errors);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);
    return s;
}
