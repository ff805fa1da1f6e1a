/* test_settings.c: the class folder remembers its settings (batch_settings.h,
 * class.h, run.h), and points possible come from the rubrics in force.
 *
 * End to end on a class of three (s001 hands in lab 1's solution two days
 * late, s002 the stub on time, "absent" is on the roster only), graded with
 * a roster, a late policy and hand-in times:
 *   - the regrade the README once showed (`batch ... --rubrics fixed/
 *     --reason ...` without --roster and --course) is refused, naming the
 *     rubrics; asked for with --change rubrics, it keeps the late columns
 *     and the roster student, and regrades.log records the change;
 *   - each flag given otherwise than recorded (roster, course, times, labs,
 *     secret) is refused on a line of its own, and nothing is written;
 *   - --change roster without --roster drops the roster, logged;
 *   - grade --test after a --rubrics batch grades under those rubrics, and
 *     another --rubrics or secret is refused;
 *   - export takes the class's roster, and refuses another;
 *   - a results.json graded out of other maxima than the rubrics in force is
 *     graded again, and the gradebook's and Canvas's points possible are the
 *     rubric's;
 *   - attnlab override sets a test's points and adjusts a lab, refuses what
 *     does not fit, and the overrides reach the gradebook, the feedback and
 *     Canvas, and stay through a rubric change's regrade;
 *   - the README's instructor commands on graded/ (batch, grade --test, the
 *     regrade, the exports) run as written, in order.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fixtures/fixture_kit.h"
#include "base/util.h"

Suite *test_suite(void);

static char *dir, *attnlab;

/* Lab 1 due 2026-01-01, 10% a day; s001 two days late. */
static void setup(void)
{
    dir = fk_mkdtemp("settings");
    attnlab = fk_attnlab();
    const char *root = fk_root();
    char *log = gr_xasprintf("%s/setup.log", dir);
    ck_assert_int_eq(fk_sh(log, "cd %s && mkdir -p sub/s001 sub/s002 fixed && "
                           "cp %s/solutions/lab01-scores/lab01.c sub/s001/ && "
                           "cp %s/data/stubs/lab01.c sub/s002/ && "
                           "cp %s/data/rubrics/lab01.yaml fixed/ && "
                           "sed -i '0,/points: 1$/s//points: 2/' fixed/lab01.yaml && "
                           "printf 'students:\\n  - {id: s001, name: Ada, email: ada@example.edu}\\n"
                           "  - {id: s002, name: Bob}\\n  - {id: absent, name: Cy}\\n' > roster.yaml && "
                           "printf 'students:\\n  - {id: s001, name: Ada}\\n' > roster2.yaml && "
                           "printf 'due: {1: 2026-01-01T00:00:00Z}\\nlate_penalty_percent: 20\\n' "
                           "> course2.yaml && "
                           "printf 'due: {1: 2026-01-01T00:00:00Z}\\ngrace_minutes: 60\\n"
                           "late_penalty_percent: 10\\nmax_late_days: 3\\n' > course.yaml && "
                           "printf 's001: 2026-01-03T00:00:00Z\\ns002: 2025-12-31T00:00:00Z\\n' "
                           "> times.yaml", dir, root, root, root), 0);
    free(log);
}

static void teardown(void)
{
    fk_rm_rf(dir);
    free(dir);
    free(attnlab);
}

/* attnlab ARGS in dir under the class's secret (or secret), output to out.log: its exit. */
static int run_as(const char *secret, const char *args)
{
    char *log = gr_xasprintf("%s/out.log", dir);
    int rc = fk_sh(log, "cd %s && ATTNLAB_SECRET=%s %s %s", dir, secret, attnlab, args);
    free(log);
    return rc;
}
static int run(const char *args) { return run_as("settings-test", args); }

/* dir/name's text (malloc'd; "" when missing). */
static char *text_of(const char *name)
{
    char *path = gr_xasprintf("%s/%s", dir, name), *t = gr_read_file(path, NULL);
    free(path);
    return t ? t : gr_xstrdup("");
}

static void said(const char *needle)
{
    char *log = text_of("out.log");
    ck_assert_msg(strstr(log, needle), "'%s' not in:\n%s", needle, log);
    free(log);
}

#define FIRST "batch sub --out out --lab 1 --roster roster.yaml --course course.yaml " \
              "--times times.yaml --accept-late -q"

START_TEST(the_readme_regrade_keeps_the_roster_and_late_policy)
{
    ck_assert_int_eq(run(FIRST), 0);
    char *gb = text_of("out/gradebook.csv");
    ck_assert_ptr_nonnull(strstr(gb, "\"s001\",\"Ada\",\"ada@example.edu\",10,2,8,10,8\r\n"));
    /* the old README's regrade: --rubrics without --roster and --course */
    ck_assert_int_eq(run("batch sub --out out --rubrics fixed --reason 'lab 1 fix' -q"), 2);
    said("this class was graded with the course's rubrics (no --rubrics); this batch has "
         "--rubrics fixed: leave --rubrics out to use the class's, or pass --change rubrics "
         "--reason TEXT");
    char *gb2 = text_of("out/gradebook.csv");
    ck_assert_str_eq(gb2, gb);                 /* refused before anything was written */
    ck_assert_int_eq(run("batch sub --out out --rubrics fixed --change rubrics "
                         "--reason 'lab 1 fix' -q"), 0);
    free(gb2);
    gb2 = text_of("out/gradebook.csv");
    /* the late columns and the roster student stay; lab 1 is out of 11 now */
    ck_assert_msg(strstr(gb2, "Points possible,,,11,,11,11,11\r\n") &&
                  strstr(gb2, "\"absent\",\"Cy\",,,,,,\r\n") &&
                  strstr(gb2, "\"s001\",\"Ada\",\"ada@example.edu\",11,2,8.8,11,8.8\r\n"), "%s", gb2);
    char *rl = text_of("out/regrades.log");
    ck_assert_msg(strstr(rl, "\t*\t-\t-\t-\t-\tlab 1 fix\trubrics: the course's rubrics (no "
                             "--rubrics) -> --rubrics fixed\n"), "%s", rl);
    /* later runs take the rubrics from the folder: nothing to grade */
    ck_assert_int_eq(run("batch sub --out out"), 0);
    said("2 graded before, 0 to grade");
    free(rl);
    free(gb2);
    free(gb);
}
END_TEST

START_TEST(each_flag_that_differs_is_named_and_nothing_is_written)
{
    ck_assert_int_eq(run(FIRST), 0);
    char *record = text_of("out/run.txt");
    ck_assert_int_eq(run_as("another-secret", "batch sub --out out --lab 1,2 --roster roster2.yaml "
                            "--course course2.yaml --file-times -q"), 2);
    said("this class was graded with --roster roster.yaml (digest ");
    said("); this batch has --roster roster2.yaml (digest ");
    said("pass --change roster --reason TEXT to grade with this one");
    said("this class was graded with --course course.yaml (digest ");
    said("this class was graded with --times times.yaml (digest ");
    said("this batch has --file-times");
    said("this class was graded with --lab 1; this batch has --lab 1,2");
    said("this class was graded with the ATTNLAB_SECRET of digest ");
    int lines = 0;
    char *log = text_of("out.log");
    for (const char *at = log; (at = strstr(at, "this class was graded with")); at++)
        lines++;
    ck_assert_int_eq(lines, 5);                 /* roster, course, times, labs, secret */
    char *after = text_of("out/run.txt");
    ck_assert_str_eq(after, record);
    ck_assert_int_eq(run("batch sub --out out --change roster -q"), 2);
    said("--change roster needs --reason TEXT");
    free(after);
    free(log);
    free(record);
}
END_TEST

START_TEST(a_change_without_its_flag_drops_the_setting)
{
    ck_assert_int_eq(run(FIRST), 0);
    ck_assert_int_eq(run("batch sub --out out --change roster --reason 'roster withdrawn' -q"), 0);
    char *gb = text_of("out/gradebook.csv"), *rl = text_of("out/regrades.log");
    ck_assert_msg(!strstr(gb, "absent") && strstr(gb, "\"s001\",,,10,2,8,10,8\r\n"), "%s", gb);
    ck_assert_msg(strstr(rl, "\troster withdrawn\troster: --roster roster.yaml (digest "), "%s", rl);
    ck_assert_msg(access(gr_xasprintf("%s/out/roster.yaml", dir), F_OK) != 0, "the copy stayed");
    free(gb);
    free(rl);
}
END_TEST

START_TEST(grade_test_grades_under_the_rubrics_in_force)
{
    ck_assert_int_eq(run("batch sub --out out --lab 1 --rubrics fixed -q"), 0);
    ck_assert_int_eq(run("grade --lab 1 --test dot_worked_example --submission sub/s002 "
                         "--student s002 --json out/students/s002/results.json -q"), 0);
    said("0/11 points in all");                /* the fixed rubric's 11, not the course's 10 */
    ck_assert_int_eq(run("grade --lab 1 --test dot_worked_example --submission sub/s002 "
                         "--student s002 --json out/students/s002/results.json "
                         "--rubrics fixed -q"), 0);
    char *course = gr_xasprintf("--rubrics %s/data/rubrics", fk_root());
    char *args = gr_xasprintf("grade --lab 1 --test dot_worked_example --submission sub/s002 "
                              "--student s002 --json out/students/s002/results.json %s -q", course);
    ck_assert_int_eq(run_as("another-secret", args), 2);
    said("this class was graded with --rubrics fixed; this grade --test has --rubrics ");
    said("or change the class's with attnlab batch ... --change rubrics --reason TEXT");
    said("this class was graded with the ATTNLAB_SECRET of digest ");
    ck_assert_int_eq(run("batch sub --out out -q"), 0);
    char *gb = text_of("out/gradebook.csv");
    ck_assert_msg(strstr(gb, "Points possible,,,11,11\r\n"), "%s", gb);
    free(gb);
    free(args);
    free(course);
}
END_TEST

START_TEST(export_takes_the_class_roster)
{
    ck_assert_int_eq(run(FIRST), 0);
    ck_assert_int_eq(run("export out --format generic --out grades.csv"), 0);
    char *csv = text_of("grades.csv");
    ck_assert_msg(strstr(csv, "ada@example.edu") && strstr(csv, "Cy"), "%s", csv);
    ck_assert_int_eq(run("export out --format generic --out grades.csv --roster roster2.yaml"), 2);
    said("this class was graded with --roster roster.yaml (digest ");
    said("this export has --roster roster2.yaml");
    free(csv);
}
END_TEST

START_TEST(points_possible_are_the_rubrics_not_a_students)
{
    ck_assert_int_eq(run("batch sub --out out --lab 1 -q"), 0);
    /* s001's results.json as if graded under a rubric worth more: its key still holds */
    char *js = text_of("out/students/s001/results.json");
    char *forged = fk_replace(js, "      \"max_score\": 1,\n", "      \"max_score\": 3,\n");
    ck_assert_str_ne(forged, js);
    char *path = gr_xasprintf("%s/out/students/s001/results.json", dir);
    ck_assert_int_eq(gr_write_file_atomic(path, forged, strlen(forged)), 0);
    ck_assert_int_eq(run("batch sub --out out --export canvas"), 0);
    said("regrading s001: its lab01-scores was graded out of ");
    said(" points, and the rubrics in force give 10");
    char *gb = text_of("out/gradebook.csv"), *canvas = text_of("out/canvas.csv");
    ck_assert_msg(strstr(gb, "Points possible,,,10,10\r\n"), "%s", gb);
    ck_assert_msg(strstr(canvas, "\r\nPoints Possible,,,,,10\r\n"), "%s", canvas);
    free(canvas);
    free(gb);
    free(path);
    free(forged);
    free(js);
}
END_TEST

START_TEST(an_override_is_kept_across_regrades_and_shown_everywhere)
{
    ck_assert_int_eq(run(FIRST), 0);
    ck_assert_int_eq(run("override out --student s002 --lab 1 --test dot_worked_example "
                         "--points 1 --reason 'appeal: right idea'"), 0);
    said("s002 lab01-scores: 0 -> 1 points");
    ck_assert_int_eq(run("override out --student s002 --lab 1 --adjust 0.5 --reason bonus"), 0);
    said("s002 lab01-scores: 1 -> 1.5 points");
    /* refused, nothing recorded: above the maximum, below 0, no such student or test */
    ck_assert_int_eq(run("override out --student s002 --lab 1 --points 11 --reason x"), 2);
    said("--points 11: lab01-scores is out of 0 to 10 points");
    ck_assert_int_eq(run("override out --student s002 --lab 1 --adjust -2 --reason x"), 2);
    said("the override would put lab01-scores at -0.5 of its 10 points");
    ck_assert_int_eq(run("override out --student zed --lab 1 --points 1 --reason x"), 2);
    ck_assert_int_eq(run("override out --student s002 --lab 1 --test nope --points 1 "
                         "--reason x"), 2);
    said("has no test nope in lab01-scores");
    ck_assert_int_eq(run("override out --student s002 --lab 1 --points 1"), 2);
    char *ov = text_of("out/overrides.txt");
    int lines = 0;
    for (const char *at = ov; (at = strchr(at, '\n')); at++)
        lines++;
    ck_assert_int_eq(lines, 3);                 /* the header and the two overrides */
    /* the next batch grades nobody and shows both */
    ck_assert_int_eq(run("batch sub --out out --export canvas"), 0);
    said("3 students; 2 graded before, 0 to grade");
    char *gb = text_of("out/gradebook.csv"), *fb = text_of("out/students/s002/feedback.txt");
    char *canvas = text_of("out/canvas.csv"), *rl = text_of("out/regrades.log");
    ck_assert_msg(strstr(gb, "\"s002\",\"Bob\",,1.5,0,1.5,1.5,1.5\r\n"), "%s", gb);
    ck_assert_msg(strstr(fb, "Final score: 1.5/10\nOverride: lab01-scores test dot_worked_example "
                             "set to 1 points (appeal: right idea)\nOverride: lab01-scores plus "
                             "0.5 points (bonus)\n"), "%s", fb);
    ck_assert_msg(strstr(canvas, "\"Bob\",,\"s002\",,,1.5\r\n"), "%s", canvas);
    ck_assert_msg(strstr(rl, "\ts002\tlab01-scores\tdot_worked_example\t0\t1\tappeal: right "
                             "idea\toverride: dot_worked_example set to 1 points\n") &&
                  strstr(rl, "\ts002\tlab01-scores\t(lab score)\t1\t1.5\tbonus\toverride: "
                             "+0.5 points\n"), "%s", rl);
    /* a rubric change regrades lab 1 (out of 11 now): the overrides stay */
    ck_assert_int_eq(run("batch sub --out out --rubrics fixed --change rubrics --reason fix -q"), 0);
    free(gb);
    gb = text_of("out/gradebook.csv");
    ck_assert_msg(strstr(gb, "Points possible,,,11,,11,11,11\r\n") &&
                  strstr(gb, "\"s002\",\"Bob\",,1.5,0,1.5,1.5,1.5\r\n"), "%s", gb);
    free(rl);
    free(canvas);
    free(fb);
    free(gb);
    free(ov);
}
END_TEST

/* The instructors' commands of the README that work on graded/ (batch,
   grade, override, export; not the sharded ones), each joined across its trailing
   backslashes and without its comment, in order (malloc'd, NULL-ended). */
static char **readme_commands(int *n)
{
    char *path = gr_xasprintf("%s/README.md", fk_root()), *text = gr_read_file(path, NULL);
    ck_assert_ptr_nonnull(text);
    char *sec = strstr(text, "### Instructors"), *end = sec ? strstr(sec + 4, "\n### ") : NULL;
    ck_assert_ptr_nonnull(sec);
    if (end)
        *end = '\0';
    char **cmds = gr_xcalloc(64, sizeof *cmds), *save = NULL;
    gr_strbuf cmd = {0};
    int in_sh = 0;
    *n = 0;
    for (char *l = strtok_r(sec, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        if (strncmp(l, "```", 3) == 0) {
            in_sh = !in_sh && strcmp(l, "```sh") == 0;
            continue;
        }
        if (!in_sh || (!cmd.len && strncmp(l, "build/attnlab ", 14) != 0))
            continue;
        char *hash = strstr(l, "   #");
        if (hash)
            *hash = '\0';
        size_t len = strlen(l);
        int more = len && l[len - 1] == '\\';
        gr_sb_appendn(&cmd, l, more ? len - 1 : len);
        if (more)
            continue;
        char *c = gr_sb_take(&cmd);
        if (strstr(c, "graded/") && !strstr(c, "...") && !strstr(c, "--shard") &&
            (strstr(c, "attnlab batch ") || strstr(c, "attnlab grade ") ||
             strstr(c, "attnlab override ") || strstr(c, "attnlab export ")) && *n < 63)
            cmds[(*n)++] = c;
        else
            free(c);
    }
    free(text);
    free(path);
    return cmds;
}

START_TEST(the_readme_commands_run_as_written)
{
    /* a class of one, s123, handing in every lab's stub flat */
    char *log = gr_xasprintf("%s/readme.log", dir);
    ck_assert_int_eq(fk_sh(log, "cd %s && mkdir -p build submissions/s123 && ln -s %s build/attnlab && "
                           "ln -s submissions/s123 s123 && cp %s/data/stubs/lab*.c submissions/s123/ && "
                           "cp -r %s/data/rubrics fixed-rubrics && "
                           "printf 'students:\\n  - {id: s123, name: Ada}\\n' > roster.yaml",
                           dir, attnlab, fk_root(), fk_root()), 0);
    int n = 0;
    char **cmds = readme_commands(&n);
    ck_assert_int_ge(n, 7);     /* batch, two grade --test, an override, the regrade, the exports */
    for (int i = 0; i < n; i++) {
        int rc = fk_sh(log, "cd %s && ATTNLAB_SECRET=settings-test %s", dir, cmds[i]);
        char *out = text_of("readme.log");
        size_t len = strlen(out);
        ck_assert_msg(rc == 0, "README's %s failed:\n%s", cmds[i], out + (len > 800 ? len - 800 : 0));
        free(out);
        free(cmds[i]);
    }
    free(cmds);
    free(log);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("settings");
    TCase *tc = tcase_create("class");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, the_readme_regrade_keeps_the_roster_and_late_policy);
    tcase_add_test(tc, each_flag_that_differs_is_named_and_nothing_is_written);
    tcase_add_test(tc, a_change_without_its_flag_drops_the_setting);
    tcase_add_test(tc, grade_test_grades_under_the_rubrics_in_force);
    tcase_add_test(tc, export_takes_the_class_roster);
    tcase_add_test(tc, points_possible_are_the_rubrics_not_a_students);
    tcase_add_test(tc, an_override_is_kept_across_regrades_and_shown_everywhere);
    tcase_add_test(tc, the_readme_commands_run_as_written);
    suite_add_tcase(s, tc);
    return s;
}
