/* test_student_kit.c: the kit students get holds no answers and works.
 *
 * scripts/student-kit.sh packs the kit from this build; it is unpacked in a
 * fresh folder. There its labs build (make check), its attnlab grades the
 * untouched stubs to 0 and the solutions to the visible maximum (the sum of
 * the visible tests' points in the tree's rubrics); and nothing inside holds
 * a line of a solution or mutant that the stubs lack, a mutant's file, a
 * hidden or later-shown test's name, or libattn's source.
 * Run from the top of the tree (make test-unit does).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixtures/fixture_kit.h"
#include "labmod.h"
#include "rubric.h"
#include "util.h"

Suite *test_suite(void);

static char *base, *kit;     /* base/fresh/attnlab-kit */
static int packed;

/* Every shell command's output goes to base/log (fixture_kit.h's fk_sh). */
static char *log_path;
#define sh(...) fk_sh(log_path, __VA_ARGS__)

/* Pack the kit from this build and unpack it in base/fresh (unchecked fixture). */
static void pack_and_unpack(void)
{
    if (base)
        return;
    if ((base = fk_suite_dir("kit")) == NULL)
        return;
    log_path = gr_xasprintf("%s/log", base);
    char *attnlab = fk_attnlab();
    if (!attnlab)
        return;
    *strrchr(attnlab, '/') = '\0';
    kit = gr_xasprintf("%s/fresh/attnlab-kit", base);
    packed = sh("cd %s && sh scripts/student-kit.sh %s %s/out", fk_root(), attnlab, base) == 0 &&
             sh("mkdir %s/fresh && tar -C %s/fresh -xzf %s/out/attnlab-kit.tar.gz", base, base, base) == 0;
    free(attnlab);
}

/* Points of the visible tests of every lab in the tree's rubrics. */
static double visible_max(void)
{
    double sum = 0;
    for (int lab = 1; lab <= GR_N_LABS; lab++) {
        char *path = gr_xasprintf("%s/data/rubrics/lab%02d.yaml", fk_root(), lab);
        gr_rubric r;
        char err[512];
        ck_assert_msg(gr_rubric_load(path, &r, err, sizeof err) == 0, "%s", err);
        for (int i = 0; i < r.n_tests; i++)
            if (r.tests[i].visibility == GR_VISIBLE)
                sum += r.tests[i].points;
        gr_rubric_free(&r);
        free(path);
    }
    return sum;
}

/* Grade the kit's labs with the kit's attnlab; score and max from results.json. */
static void kit_grade(double *score, double *max)
{
    ck_assert_int_eq(sh("%s/bin/attnlab grade --lab all --submission %s/labs --json %s/r.json -q",
                        kit, kit, base), 0);
    char *path = gr_xasprintf("%s/r.json", base);
    char *json = gr_read_file(path, NULL);
    ck_assert_ptr_nonnull(json);
    ck_assert_int_eq(sscanf(json, "{\n  \"score\": %lf,\n  \"max_score\": %lf,", score, max), 2);
    free(json);
    free(path);
}

START_TEST(kit_builds_and_grades_the_visible_tests)
{
    ck_assert_msg(packed, "the kit was not made: see %s/log", base);
    double want = visible_max(), score, max;
    ck_assert_double_gt(want, 0);

    /* untouched: every lab is still its stub, the grade is 0 */
    ck_assert_int_eq(sh("make -s -C %s check >%s/check1.txt", kit, base), 0);
    char *p = gr_xasprintf("%s/check1.txt", base);
    char *out = gr_read_file(p, NULL);
    ck_assert_msg(strstr(out, "lab01-scores: not started") &&
                  strstr(out, "check: 0 of 10 labs pass their visible tests"), "%s", out);
    free(out);
    free(p);
    kit_grade(&score, &max);
    ck_assert_double_eq(score, 0);
    ck_assert_double_eq_tol(max, want, 1e-9);

    /* the solutions in place: lab 1's visible tests pass, the grade is the visible maximum */
    ck_assert_int_eq(sh("cd %s/solutions && for d in lab[0-9][0-9]-*; do "
                        "cp $d/${d%%%%-*}.c %s/labs/$d/; done", fk_root(), kit), 0);
    ck_assert_int_eq(sh("make -s -C %s/labs/lab01-scores test", kit), 0);
    kit_grade(&score, &max);
    ck_assert_double_eq_tol(score, want, 1e-9);
    ck_assert_double_eq_tol(max, want, 1e-9);
}
END_TEST

START_TEST(kit_holds_no_answers)
{
    ck_assert_msg(packed, "the kit was not made: see %s/log", base);
    const char *root = fk_root();
    /* no folder or file of the answers */
    ck_assert_int_eq(sh("cd %s && test -z \"$(find . -path '*solutions*' -o -path '*mutants*' "
                        "-o -name 'attn*.c' -o -name 'attn*.h' -o -path './grader*')\"", kit), 0);
    ck_assert_int_eq(sh("test -z \"$(find %s -name manifest.yaml)\"", kit), 0);
    /* no line of a solution that the course's own lab files (handouts, stubs, visible
       tests) do not hold, and no mutant's planted mistake (the "to" text of its
       edits), as a whole line anywhere in the kit, the program's strings included
       (lines of 20 characters or more: braces and "return LAB_OK;" are everyone's) */
    ck_assert_int_eq(sh("cd %s && { find labs -type f ! -name 'lab[0-9][0-9].c' -exec cat {} +; "
                        "cat data/stubs/lab*.c; } | sed 's/^[ \\t]*//' >%s/course && "
                        "for d in labs/lab[0-9][0-9]-*; do n=$(basename $d); "
                        "sed 's/^[ \\t]*//' solutions/$n/${n%%%%-*}.c | awk 'length >= 20' | "
                        "grep -vxF -f %s/course; done >%s/answers && "
                        "sed -n 's/^ *to: \"\\(.*MISTAKE.*\\)\"$/\\1/p' data/mutants/*/manifest.yaml | "
                        "grep -v '\\\\' >>%s/answers", root, base, base, base, base), 0);
    ck_assert_int_eq(sh("test $(grep -c MISTAKE %s/answers) -gt 10 && test $(wc -l <%s/answers) -gt 100",
                        base, base), 0);                  /* the check checks something */
    ck_assert_int_eq(sh("{ find %s -type f ! -path '*/bin/*' -exec cat {} +; "
                        "find %s/bin -type f -exec strings {} +; } | sed 's/^[ \\t]*//' >%s/kit_lines",
                        kit, kit, base), 0);
    ck_assert_int_eq(sh("grep -qxF -f %s/answers %s/kit_lines", base, base), 1);
    /* no hidden, after_due_date or after_published test, by name, anywhere (the
       program included) */
    gr_strbuf names = {0};
    for (int lab = 1; lab <= GR_N_LABS; lab++) {
        char *path = gr_xasprintf("%s/data/rubrics/lab%02d.yaml", root, lab);
        gr_rubric r;
        char err[512];
        ck_assert_msg(gr_rubric_load(path, &r, err, sizeof err) == 0, "%s", err);
        for (int i = 0; i < r.n_tests; i++)
            if (r.tests[i].visibility != GR_VISIBLE)
                gr_sb_printf(&names, "%s\n", r.tests[i].name);
        gr_rubric_free(&r);
        free(path);
    }
    char *list = gr_sb_take(&names), *path = gr_xasprintf("%s/hidden_names", base);
    ck_assert_int_eq(gr_write_file_atomic(path, list, strlen(list)), 0);
    ck_assert_int_eq(sh("grep -rqwF -f %s %s", path, kit), 1);
    free(list);
    free(path);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("student_kit");
    TCase *tc = tcase_create("student_kit");
    tcase_add_unchecked_fixture(tc, pack_and_unpack, NULL);
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, kit_holds_no_answers);
    tcase_add_test(tc, kit_builds_and_grades_the_visible_tests);
    suite_add_tcase(s, tc);
    return s;
}
