/* test_layout.c: every path of a lab comes from layout.h, under a tree or an
 * installed share folder or relative to the tree; a number that is no lab
 * gets NULL, never a path; scripts/check-layers.sh, which holds the grader's
 * layers apart, and scripts/check-paths.sh, which keeps lab paths in layout.c,
 * pass on the tree and name the file and line of a planted include that
 * climbs or a planted path, and scripts/check-prefixes.sh of a public function
 * not named for its file. Run from the top of the tree. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixtures/fixture_kit.h"
#include "base/labmod.h"
#include "base/layout.h"
#include "base/util.h"

Suite *test_suite(void);

#define NO_LAB 100000   /* a lab number no course will reach */

/* got equals want, both freed (got may be NULL: then it fails naming want). */
static void check_path(char *got, char *want)
{
    ck_assert_msg(got && strcmp(got, want) == 0, "got %s, want %s", got ? got : "NULL", want);
    free(got);
    free(want);
}

START_TEST(every_path_of_a_lab)
{
    const char *root = "/srv/attnlab";
    const char *dir = gr_lab_modules[1]->dir;      /* lab 2's folder, as the course defines it */
    ck_assert_str_eq(gr_layout_dir(2), dir);
    check_path(gr_layout_name(2, ".c"), gr_xstrdup("lab02.c"));
    check_path(gr_layout_name(2, ""), gr_xstrdup("lab02"));
    check_path(gr_layout_folder(root, 2), gr_xasprintf("/srv/attnlab/labs/%s", dir));
    check_path(gr_layout_student(root, 2), gr_xasprintf("/srv/attnlab/labs/%s/lab02.c", dir));
    check_path(gr_layout_contract(root, 2), gr_xasprintf("/srv/attnlab/labs/%s/lab02.h", dir));
    check_path(gr_layout_handout(root, 2), gr_xasprintf("/srv/attnlab/labs/%s/README.md", dir));
    check_path(gr_layout_kit_expected(root, 2),
               gr_xasprintf("/srv/attnlab/labs/%s/expected_lab02.h", dir));
    check_path(gr_layout_stub(root, 2), gr_xstrdup("/srv/attnlab/data/stubs/lab02.c"));
    check_path(gr_layout_rubric(root, 2), gr_xstrdup("/srv/attnlab/data/rubrics/lab02.yaml"));
    check_path(gr_layout_mutants(root, 2), gr_xstrdup("/srv/attnlab/data/mutants/lab02"));
    check_path(gr_layout_mutant_manifest(root, 2),
               gr_xstrdup("/srv/attnlab/data/mutants/lab02/manifest.yaml"));
    check_path(gr_layout_solution(root, 2), gr_xasprintf("/srv/attnlab/solutions/%s/lab02.c", dir));
    /* the last lab too: the number is two digits wide whatever the course's size */
    check_path(gr_layout_stub(root, GR_N_LABS), gr_xasprintf("/srv/attnlab/data/stubs/lab%02d.c",
                                                             GR_N_LABS));
}
END_TEST

START_TEST(a_lab_the_course_does_not_have_yet)
{
    /* new-lab writes lab 99's files before any table knows it */
    ck_assert_ptr_null(gr_layout_dir(99));
    check_path(gr_layout_path_of("/t", "lab99-rowsum", 99, GR_LAYOUT_VISIBLE_TESTS),
               gr_xstrdup("/t/labs/lab99-rowsum/test_lab99.c"));
    check_path(gr_layout_path_of(NULL, "lab99-rowsum", 99, GR_LAYOUT_SOLUTION_MAKEFILE),
               gr_xstrdup("solutions/lab99-rowsum/Makefile"));
    check_path(gr_layout_path_of(NULL, "lab99-rowsum", 99, GR_LAYOUT_MODULE),
               gr_xstrdup("grader/labs/lab99.c"));
    check_path(gr_layout_path_of("/t", "", 99, GR_LAYOUT_RUBRIC), gr_xstrdup("/t/data/rubrics/lab99.yaml"));
    ck_assert_ptr_null(gr_layout_path_of("/t", "x", 99, (gr_layout_file)1000));
}
END_TEST

START_TEST(relative_to_the_tree)
{
    /* no root: the path as messages name it; "" the same */
    check_path(gr_layout_rubric(NULL, 1), gr_xstrdup("data/rubrics/lab01.yaml"));
    check_path(gr_layout_rubric("", 1), gr_xstrdup("data/rubrics/lab01.yaml"));
    check_path(gr_layout_handout(NULL, 1), gr_xasprintf("labs/%s/README.md", gr_lab_modules[0]->dir));
    check_path(gr_layout_folder_of(NULL, "stubs"), gr_xstrdup("data/stubs"));
    check_path(gr_layout_folder_of(".", "labs"), gr_xstrdup("./labs"));
    ck_assert_ptr_null(gr_layout_folder_of(".", "handouts"));
}
END_TEST

START_TEST(installed_root)
{
    /* make install lays the course data out as the tree under PREFIX/share/attnlab */
    const char *share = "/usr/local/share/attnlab";
    check_path(gr_layout_rubric(share, 3), gr_xstrdup("/usr/local/share/attnlab/data/rubrics/lab03.yaml"));
    check_path(gr_layout_stub(share, 3), gr_xstrdup("/usr/local/share/attnlab/data/stubs/lab03.c"));
    check_path(gr_layout_contract(share, 3),
               gr_xasprintf("/usr/local/share/attnlab/labs/%s/lab03.h", gr_lab_modules[2]->dir));
    check_path(gr_layout_folder_of(share, "rubrics"), gr_xstrdup("/usr/local/share/attnlab/data/rubrics"));
}
END_TEST

START_TEST(no_such_lab)
{
    int bad[] = { 0, -1, GR_N_LABS + 1, NO_LAB };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int lab = bad[i];
        ck_assert_ptr_null(gr_layout_dir(lab));
        ck_assert_ptr_null(gr_layout_name(lab, ".c"));
        ck_assert_ptr_null(gr_layout_folder(".", lab));
        ck_assert_ptr_null(gr_layout_student(".", lab));
        ck_assert_ptr_null(gr_layout_contract(".", lab));
        ck_assert_ptr_null(gr_layout_handout(NULL, lab));
        ck_assert_ptr_null(gr_layout_kit_expected(".", lab));
        ck_assert_ptr_null(gr_layout_stub(".", lab));
        ck_assert_ptr_null(gr_layout_rubric(".", lab));
        ck_assert_ptr_null(gr_layout_mutants(".", lab));
        ck_assert_ptr_null(gr_layout_mutant_manifest(".", lab));
        ck_assert_ptr_null(gr_layout_solution(".", lab));
    }
    int labs[GR_N_LABS];
    char err[256] = "", *arg = gr_xasprintf("%d", NO_LAB);
    ck_assert_int_eq(gr_layout_parse_labs(arg, labs, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "--lab takes") && strstr(err, arg), "%s", err);
    free(arg);
    ck_assert_int_eq(gr_layout_parse_labs("1,2", labs, err, sizeof err), 0);
    ck_assert_int_eq(labs[0] + labs[1], 2);
}
END_TEST

/* ---- scripts/check-layers.sh ------------------------------------------------------ */

static void write_file(const char *dir, const char *rel, const char *text)
{
    char *path = gr_xasprintf("%s/%s", dir, rel);
    char *slash = strrchr(path, '/');
    *slash = '\0';
    ck_assert_int_eq(fk_sh("/dev/null", "mkdir -p '%s'", path), 0);
    *slash = '/';
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
    free(path);
}

/* Run scripts/check-SCRIPT.sh on dir (after opt, e.g. "--root "): its exit
   status, its output in *out (malloc'd). */
static int check_script_opt(const char *script, const char *opt, const char *dir, char **out)
{
    char *tmp = fk_mkdtemp("layers-log");
    ck_assert_ptr_nonnull(tmp);
    char *log = gr_xasprintf("%s/out", tmp);
    int rc = fk_sh(log, "sh scripts/check-%s.sh %s'%s'", script, opt, dir);
    size_t len;
    *out = gr_read_file(log, &len);
    ck_assert_ptr_nonnull(*out);
    fk_rm_rf(tmp);
    free(tmp);
    free(log);
    return rc;
}

static int check_script(const char *script, const char *dir, char **out)
{
    return check_script_opt(script, "", dir, out);
}

START_TEST(layers_hold_in_the_tree)
{
    char *out;
    ck_assert_msg(check_script("layers", ".", &out) == 0, "%s", out);
    ck_assert_ptr_nonnull(strstr(out, " 0 failed"));
    free(out);
}
END_TEST

START_TEST(a_climbing_include_is_named)
{
    char *top = fk_mkdtemp("layers");
    ck_assert_ptr_nonnull(top);
    write_file(top, "lib/attn.h", "int attn(void);\n");
    write_file(top, "grader/base/util.h", "#include \"attn.h\"\n");
    write_file(top, "grader/engine/grade.h", "#include \"base/util.h\"\n");
    write_file(top, "grader/cli/cli.h", "#include \"engine/grade.h\"\n");
    write_file(top, "grader/report/report.h", "#include \"engine/grade.h\"\n");
    write_file(top, "grader/confined/build.c", "#include <stdio.h>\n#include \"base/util.h\"\n");
    char *out;
    ck_assert_msg(check_script("layers", top, &out) == 0, "%s", out);
    free(out);

    /* the sandbox reaching up to a command, and the base up to the engine */
    write_file(top, "grader/confined/build.c",
               "#include <stdio.h>\n#include \"base/util.h\"\n#include \"../cli/cli.h\"\n");
    write_file(top, "grader/base/util.h", "#include \"attn.h\"\n#  include \"engine/grade.h\"\n");
    ck_assert_int_ne(check_script("layers", top, &out), 0);
    ck_assert_msg(strstr(out, "grader/confined/build.c:3: #include \"../cli/cli.h\" climbs from "
                              "the confined layer up to the cli layer"), "%s", out);
    ck_assert_msg(strstr(out, "grader/base/util.h:2: "), "%s", out);
    ck_assert_msg(strstr(out, "layers: 4 passed, 2 failed"), "%s", out);
    free(out);
    fk_rm_rf(top);
    free(top);
}
END_TEST

/* ---- scripts/check-paths.sh ------------------------------------------------------- */

START_TEST(no_lab_path_spelled_in_the_tree)
{
    char *out;
    ck_assert_msg(check_script("paths", ".", &out) == 0, "%s", out);
    ck_assert_ptr_nonnull(strstr(out, " 0 failed"));
    free(out);
}
END_TEST

START_TEST(a_spelled_lab_path_is_named)
{
    char *top = fk_mkdtemp("paths");
    ck_assert_ptr_nonnull(top);
    /* help text and comments may name the layout in general; layout.c spells it */
    write_file(top, "grader/cli/cmd_x.c",
               "static const char *help = \"the rubric, data/rubrics/labNN.yaml, and "
               "labs/labNN-name/README.md\";\n"
               "/* \"%s/data/stubs/lab%02d.c\" in a comment */\n");
    write_file(top, "grader/base/layout.c", "char *p(void) { return x(\"%s/data/stubs/lab%02d.c\"); }\n");
    char *out;
    ck_assert_msg(check_script("paths", top, &out) == 0, "%s", out);
    free(out);

    write_file(top, "grader/class/y.c",
               "int a;\n"
               "char *s = gr_xasprintf(\"%s/solutions/%s/lab%02d.c\", root, dir, lab);\n"
               "const char *h = \"see labs/lab04-entropy/README.md\";\n");
    ck_assert_int_ne(check_script("paths", top, &out), 0);
    ck_assert_msg(strstr(out, "grader/class/y.c:2: \"%s/solutions/%s/lab%02d.c\" spells a lab path"),
                  "%s", out);
    ck_assert_msg(strstr(out, "grader/class/y.c:3: "), "%s", out);
    ck_assert_msg(strstr(out, "paths: 1 passed, 1 failed"), "%s", out);
    free(out);
    fk_rm_rf(top);
    free(top);
}
END_TEST

/* ---- scripts/check-prefixes.sh ---------------------------------------------------- */

START_TEST(prefixes_hold_in_the_tree)
{
    char *out;
    ck_assert_msg(check_script_opt("prefixes", "--root ", ".", &out) == 0, "%s", out);
    ck_assert_ptr_nonnull(strstr(out, " 0 failed"));
    free(out);
}
END_TEST

/* Every folder of grader/ is checked but tests/, a new one too; an exception
   names its folder, so base/util.c's gr_xmalloc excuses no other util.c, and
   an exception whose function is gone is named. */
START_TEST(a_misnamed_function_is_named)
{
    char *top = fk_mkdtemp("prefixes");
    ck_assert_ptr_nonnull(top);
    size_t len;
    char *util = gr_read_file("grader/base/util.c", &len);
    ck_assert_ptr_nonnull(util);
    write_file(top, "grader/base/util.c", util);
    free(util);
    write_file(top, "grader/engine/judge.c", "int gr_judge(void);\nint gr_judge_run(void)\n{\n}\n"
                                             "static int gr_helper(void)\n{\n}\n");
    write_file(top, "grader/engine/judge_more.c", "int gr_judge_more(void)\n{\n}\n");
    write_file(top, "grader/tests/test_x.c", "int gr_anything(void)\n{\n}\n");
    char *out;
    ck_assert_msg(check_script_opt("prefixes", "--root ", top, &out) == 0, "%s", out);
    ck_assert_msg(strstr(out, "prefixes: 3 passed, 0 failed"), "%s", out);
    free(out);

    const char *xmalloc = "void *gr_xmalloc(size_t n)\n{\n}\n";
    write_file(top, "grader/base/util.c", xmalloc);
    write_file(top, "grader/engine/util.c", xmalloc);
    write_file(top, "grader/newlayer/thing.c", "int x;\nchar *gr_other(int n)\n{\n}\n");
    ck_assert_int_ne(check_script_opt("prefixes", "--root ", top, &out), 0);
    ck_assert_msg(strstr(out, "grader/engine/util.c:1: gr_xmalloc is public in grader/engine/util.c "
                              "but not named gr_util_..."), "%s", out);
    ck_assert_msg(strstr(out, "grader/newlayer/thing.c:2: gr_other "), "%s", out);
    ck_assert_msg(strstr(out, "grader/base/util.c: the exception gr_sb_ names no public function"),
                  "%s", out);
    ck_assert_msg(!strstr(out, "the exception gr_xmalloc "), "%s", out);
    ck_assert_msg(strstr(out, "prefixes: 2 passed, 3 failed"), "%s", out);
    free(out);
    fk_rm_rf(top);
    free(top);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("layout");
    TCase *tc = tcase_create("paths");
    tcase_add_test(tc, every_path_of_a_lab);
    tcase_add_test(tc, a_lab_the_course_does_not_have_yet);
    tcase_add_test(tc, relative_to_the_tree);
    tcase_add_test(tc, installed_root);
    tcase_add_test(tc, no_such_lab);
    suite_add_tcase(s, tc);
    tc = tcase_create("layers");
    tcase_add_test(tc, layers_hold_in_the_tree);
    tcase_add_test(tc, a_climbing_include_is_named);
    tcase_add_test(tc, no_lab_path_spelled_in_the_tree);
    tcase_add_test(tc, a_spelled_lab_path_is_named);
    tcase_add_test(tc, prefixes_hold_in_the_tree);
    tcase_add_test(tc, a_misnamed_function_is_named);
    suite_add_tcase(s, tc);
    return s;
}
