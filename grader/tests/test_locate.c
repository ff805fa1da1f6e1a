/* test_locate.c: which course data and which submission a command uses when
 * it is given none (layout.c): a tree whose labs/ holds lab files grades its
 * own labs/; an installed copy (make install's share/attnlab: the contract
 * headers, no lab files) grades ./labs, and without one says to pass
 * --submission; status, rules --check and validate on an installed copy.
 * Run from the top of the tree. */
#include <check.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture.h"
#include "fixtures/fixture_kit.h"
#include "cli/commands.h"
#include "engine/grade.h"
#include "base/labmod.h"
#include "base/util.h"
#include "base/layout.h"

Suite *test_suite(void);

static char tree[PATH_MAX];     /* the source tree, where the suite starts */
static char *top, *installed, *here;  /* top/share: an installed-like root; top/here: empty */

static void make_dir(const char *path)
{
    ck_assert_msg(mkdir(path, 0755) == 0, "mkdir %s", path);
}

/* installed: labs/<dir>/labNN.h for every lab and nothing else in labs/;
   here: an empty folder, the current one during each test. */
static void setup(void)
{
    ck_assert_ptr_nonnull(getcwd(tree, sizeof tree));
    top = fk_mkdtemp("locate");
    ck_assert_ptr_nonnull(top);
    installed = gr_xasprintf("%s/share", top);
    here = gr_xasprintf("%s/here", top);
    make_dir(installed);
    make_dir(here);
    char *labs = gr_xasprintf("%s/labs", installed);
    make_dir(labs);
    for (int lab = 1; lab <= GR_N_LABS; lab++) {
        char *dir = gr_xasprintf("%s/%s", labs, gr_lab_modules[lab - 1]->dir);
        char *h = gr_xasprintf("%s/lab%02d.h", dir, lab);
        make_dir(dir);
        FILE *f = fopen(h, "w");
        ck_assert_ptr_nonnull(f);
        fclose(f);
        free(h);
        free(dir);
    }
    free(labs);
    ck_assert_int_eq(chdir(here), 0);
}

static void teardown(void)
{
    ck_assert_int_eq(chdir(tree), 0);
    fk_rm_rf(top);
    free(top);
    free(installed);
    free(here);
}

START_TEST(tree_grades_its_own_labs)
{
    char err[512] = "";
    ck_assert_int_eq(gr_layout_root_has_labs(tree), 1);
    char *sub = gr_layout_default_submission(tree, err, sizeof err);
    char *want = gr_xasprintf("%s/labs", tree);
    ck_assert_ptr_nonnull(sub);
    ck_assert_str_eq(sub, want);
    free(want);
    free(sub);
}
END_TEST

START_TEST(installed_grades_labs_here)
{
    char err[512] = "";
    ck_assert_int_eq(gr_layout_root_has_labs(installed), 0);
    /* no labs/ here: say what to pass */
    ck_assert_ptr_null(gr_layout_default_submission(installed, err, sizeof err));
    ck_assert_msg(strstr(err, "pass --submission DIR") && strstr(err, installed), "%s", err);
    ck_assert_ptr_null(strchr(err, '\n'));
    /* a student's folder with labs/ */
    make_dir("labs");
    char *sub = gr_layout_default_submission(installed, err, sizeof err);
    ck_assert_ptr_nonnull(sub);
    ck_assert_str_eq(sub, "labs");
    free(sub);
    /* one lab file is enough to make a tree of it */
    char *c = gr_xasprintf("%s/labs/%s/lab03.c", installed, gr_lab_modules[2]->dir);
    FILE *f = fopen(c, "w");
    ck_assert_ptr_nonnull(f);
    fclose(f);
    free(c);
    ck_assert_int_eq(gr_layout_root_has_labs(installed), 1);
}
END_TEST

static int status_installed(FILE *out, FILE *err, int argc, char **argv)
{
    return cmd_status_run(out, err, installed, "/nonexistent", argc, argv);
}

static int rules_installed(FILE *out, FILE *err, int argc, char **argv)
{
    return cmd_rules_run(out, err, installed, argc, argv);
}

START_TEST(commands_on_an_installed_copy)
{
    run_result r = CAPTURE(status_installed, "status");
    check_usage_error(&r, 0, "attnlab status: ", "pass --submission DIR");
    free_result(&r);
    r = CAPTURE(rules_installed, "rules", "--check");
    check_usage_error(&r, 1, "attnlab rules: ", "set ATTNLAB_ROOT to one");
    free_result(&r);
    r = CAPTURE(rules_installed, "rules", "--write", "--lab", "2");
    check_usage_error(&r, 2, "attnlab rules: ", "installed copy");
    free_result(&r);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("locate");
    TCase *tc = tcase_create("default submission");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, tree_grades_its_own_labs);
    tcase_add_test(tc, installed_grades_labs_here);
    tcase_add_test(tc, commands_on_an_installed_copy);
    suite_add_tcase(s, tc);
    return s;
}
