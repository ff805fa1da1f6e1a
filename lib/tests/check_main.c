/* check_main.c: the one main() of every Check suite in attnlab.
   Each test_*.c defines test_suite(); this runs it and exits non-zero on failure.

   One suite, one case, one test:
     build/grader/tests/test_batch                        the suite
     CK_RUN_CASE=class build/grader/tests/test_batch      one test case (Check's own)
     ATTNLAB_TEST=NAME build/grader/tests/test_batch      one test function, START_TEST(NAME)
   Check selects no finer than a test case, so the test programs are linked with
   --wrap=_tcase_add_test and the tests not named ATTNLAB_TEST are never added. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

Suite *test_suite(void);

void __real__tcase_add_test(TCase *tc, const TTest *ttest, int sig, int allowed_exit_value,
                            int start, int end);
void __wrap__tcase_add_test(TCase *tc, const TTest *ttest, int sig, int allowed_exit_value,
                            int start, int end);

static int added;                /* tests added that ATTNLAB_TEST names */

void __wrap__tcase_add_test(TCase *tc, const TTest *ttest, int sig, int allowed_exit_value,
                            int start, int end)
{
    const char *only = getenv("ATTNLAB_TEST");
    if (only && *only && strcmp(only, ttest->name) != 0)
        return;
    added++;
    __real__tcase_add_test(tc, ttest, sig, allowed_exit_value, start, end);
}

int main(void)
{
    SRunner *sr = srunner_create(test_suite());
    const char *only = getenv("ATTNLAB_TEST");
    if (only && *only && added == 0) {
        fprintf(stderr, "ATTNLAB_TEST=%s: this suite has no test of that name "
                "(a name inside START_TEST(...))\n", only);
        srunner_free(sr);
        return EXIT_FAILURE;
    }
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
