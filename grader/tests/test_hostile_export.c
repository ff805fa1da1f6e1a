/* test_hostile_export.c: the files of a batch's output folder read back by
 * attnlab export (export.c).
 *
 * The folder is the instructor's, but its gradebook.csv holds ids that
 * students chose (folder names, Gradescope emails) and may have been edited
 * by hand: a gradebook over the size cap, a link to /dev/zero, a FIFO, a
 * cell of a megabyte, a row of 100,000 cells, a NUL byte, a quote never
 * closed, each gets an error naming the place (never a hang
 * or a crash), and nothing is written; 50,000 students with formula-like ids
 * export with every id kept as text.
 *
 * A student's results.json edited to hold hostile regrades (regrade.h): a
 * reason of a megabyte with line ends, tabs and terminal escapes keeps each
 * regrades.log line one line of bounded length; 20,000 entries, a lab out
 * of range or a reason that is a list are errors naming the place, and
 * `attnlab grade --test` then changes nothing.
 */
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "class/export.h"
#include "class/regrade.h"
#include "report/report.h"
#include "fixtures/fixture_kit.h"
#include "base/util.h"

Suite *test_suite(void);

#define HEAD "Student ID,Name,Email,lab01-scores,Total\r\nPoints possible,,,10,10\r\n"

/* Export dir with the gradebook as made; the error must hold says and no
   canvas.csv may appear. */
static void expect_refused(const char *dir, const char *says)
{
    char err[1024] = "", *out = gr_xasprintf("%s/canvas.csv", dir);
    int rc = gr_export_write(dir, NULL, GR_LMS_CANVAS, "attnlab", NULL, NULL, err, sizeof err);
    ck_assert_int_eq(rc, -1);
    ck_assert_msg(strstr(err, says) != NULL, "want [%s] in [%s]", says, err);
    ck_assert_msg(strlen(err) < 600, "a bounded error: %zu bytes", strlen(err));
    ck_assert_int_ne(access(out, F_OK), 0);
    free(out);
}

/* dir/gradebook.csv made of HEAD and then n copies of piece. */
static char *write_repeated(const char *dir, const char *head, const char *piece, size_t n,
                            const char *tail)
{
    char *path = gr_xasprintf("%s/gradebook.csv", dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(head, f);
    for (size_t i = 0; i < n; i++)
        fputs(piece, f);
    fputs(tail, f);
    ck_assert_int_eq(fclose(f), 0);
    return path;
}

START_TEST(oversized_link_and_fifo_gradebooks)
{
    char *dir = fk_mkdtemp("hostile-export"), *gb = gr_xasprintf("%s/gradebook.csv", dir);
    int fd = open(gb, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(ftruncate(fd, (off_t)65 << 20), 0);      /* sparse: 65 MiB */
    close(fd);
    expect_refused(dir, "at most 64 MiB");
    unlink(gb);
    ck_assert_int_eq(symlink("/dev/zero", gb), 0);
    expect_refused(dir, "symbolic link");
    unlink(gb);
    ck_assert_int_eq(mkfifo(gb, 0644), 0);                    /* no writer: must not block */
    expect_refused(dir, "FIFO");
    free(gb);
    fk_rm_rf(dir);
    free(dir);
}
END_TEST

START_TEST(huge_and_broken_cells)
{
    char *dir = fk_mkdtemp("hostile-export");
    free(write_repeated(dir, HEAD "s1,", "x", 1u << 20, ",,10,10\r\n"));
    expect_refused(dir, "gradebook.csv:3: a cell of more than 4096 bytes");
    free(write_repeated(dir, HEAD "s1", ",", 100000, "\r\n"));
    expect_refused(dir, "gradebook.csv:3: more than 1024 cells in a row");
    free(write_repeated(dir, HEAD "\"s1", ",,,", 300, "\r\n"));
    expect_refused(dir, "gradebook.csv:3: a quoted cell is never closed");
    char *gb = gr_xasprintf("%s/gradebook.csv", dir);
    static const char nul[] = HEAD "s\0001,,,10,10\r\n";
    ck_assert_int_eq(gr_write_file_atomic(gb, nul, sizeof nul - 1), 0);
    expect_refused(dir, "gradebook.csv:3: a NUL byte in a cell");
    /* a total a spreadsheet would compute, or far out of range */
    free(write_repeated(dir, HEAD, "s1,,,10,\"=1+1\"\r\n", 1, ""));
    expect_refused(dir, "gradebook.csv:3: the total is not a number");
    free(write_repeated(dir, HEAD, "s1,,,10,1e300\r\n", 1, ""));
    expect_refused(dir, "gradebook.csv:3: the total is not a number");
    free(gb);
    fk_rm_rf(dir);
    free(dir);
}
END_TEST

START_TEST(a_large_class_of_formula_ids)
{
    char *dir = fk_mkdtemp("hostile-export");
    /* ids as gr_csv_text wrote them: neutralised, quoted */
    free(write_repeated(dir, HEAD, "\"'=cmd|' /C calc'!A0\",\"'@SUM(1)\",\"'+1\",10,7.5\r\n",
                        50000, ""));
    char err[512], *written = NULL;
    ck_assert_msg(gr_export_write(dir, NULL, GR_LMS_CANVAS, "=evil()", NULL, &written, err,
                                sizeof err) == 0, "%s", err);
    char *csv = gr_read_file(written, NULL);
    ck_assert_ptr_nonnull(csv);
    ck_assert_int_eq(strncmp(csv, "Student,ID,SIS User ID,SIS Login ID,Section,\"'=evil()\"\r\n"
                                  "Points Possible,,,,,10\r\n", 79), 0);
    /* every row: the name cell and the id cell as text, the grade a number */
    const char *row = "\"'@SUM(1)\",,\"'=cmd|' /C calc'!A0\",,,7.5\r\n";
    size_t n = 0;
    for (const char *p = csv; (p = strstr(p, row)) != NULL; p += strlen(row))
        n++;
    ck_assert_int_eq((int)n, 50000);
    free(csv);
    free(written);
    fk_rm_rf(dir);
    free(dir);
}
END_TEST

/* ---- results.json ------------------------------------------------------------------- */

/* Student s1's report: lab 1's dot_worked_example at score of 1 point. */
static void one_test(gr_report *r, double score)
{
    memset(r, 0, sizeof *r);
    r->student = gr_xstrdup("s1");
    r->n_labs = 1;
    r->labs = gr_xcalloc(1, sizeof *r->labs);
    r->labs[0].lab = 1;
    r->labs[0].name = gr_xstrdup("lab01-scores");
    r->labs[0].n_tests = 1;
    r->labs[0].tests = gr_xcalloc(1, sizeof *r->labs[0].tests);
    r->labs[0].tests[0].name = gr_xstrdup("dot_worked_example");
    r->labs[0].tests[0].max_score = 1;
    r->labs[0].tests[0].score = score;
    r->labs[0].tests[0].verdict = score == 1 ? GR_PASSED : GR_WRONG_ANSWER;
    r->labs[0].score = r->score = score;
    r->labs[0].max_score = r->max_score = 1;
}

/* dir/students/s1/results.json: one_test at 0, extra_data's regrades the
   text given. Returns its path. */
static char *results_with(const char *dir, const char *regrades)
{
    gr_report r;
    one_test(&r, 0);
    char *json = gr_report_json_text(&r, NULL), *with = gr_xasprintf("\"test_sandbox\": \"\", \"regrades\": %s",
                                                                regrades);
    char *text = fk_replace(json, "\"test_sandbox\": \"\"", with);
    char *sd = gr_xasprintf("%s/students/s1", dir), *path = gr_xasprintf("%s/results.json", sd);
    ck_assert_int_eq(fk_sh("/dev/null", "mkdir -p '%s'", sd), 0);
    ck_assert_int_eq(gr_write_file_atomic(path, text, strlen(text)), 0);
    free(sd);
    free(text);
    free(with);
    free(json);
    gr_result_free(&r);
    return path;
}

/* regrades.log is tab-separated and an instructor may open it in a
   spreadsheet: an id, a test or a reason that starts like a formula is kept
   as text there (cells.h's gr_tsv_text). */
START_TEST(regrades_log_runs_no_formula)
{
    gr_report r, from;
    one_test(&r, 0);
    one_test(&from, 1);
    char *log = gr_regrades_test(&r, &from, "=HYPERLINK(\"https://x\",\"y\")");
    char *all = gr_regrades_log_lines("@SUM(1)", &r, 0);
    int fields = 0;
    for (char *p = all; *p;) {
        size_t n = strcspn(p, "\t\n");
        int number = n > 0 && strspn(p, "-0123456789.") == n;
        ck_assert_msg(number || !strchr("=+-@", *p) || (n == 1 && *p == '-'),
                      "a field starts like a formula: %.*s", (int)n, p);
        fields++;
        p += n + (p[n] != '\0');
    }
    ck_assert_int_eq(fields, 8);
    ck_assert_ptr_nonnull(strstr(all, "\t'@SUM(1)\t"));
    ck_assert_ptr_nonnull(strstr(all, "\t'=HYPERLINK(\"https://x\",\"y\")\t"));
    free(all);
    free(log);
    gr_result_free(&from);
    gr_result_free(&r);
}
END_TEST

START_TEST(hostile_regrades_stay_bounded)
{
    char *dir = fk_mkdtemp("hostile-regrade");
    gr_strbuf b = {0};
    gr_sb_append(&b, "[{\"when\": \"2026\\n\\u001b[2J\", \"lab\": 1, \"test\": \"t\\tx\", "
                     "\"old\": 1, \"new\": null, \"change\": null, \"reason\": \"");
    for (int i = 0; i < (1 << 20) / 8; i++)
        gr_sb_append(&b, "a\\nb\\tc\\u001b");
    gr_sb_append(&b, "\"}]");
    char *path = results_with(dir, b.s);
    free(b.s);
    gr_report r;
    char err[512];
    ck_assert_msg(gr_report_read_json(path, &r, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(r.n_regrades, 1);
    ck_assert_int_le((int)strlen(r.regrades[0].reason), 1003);
    /* a --test regrade on top: every log line one line, bounded */
    gr_report from;
    one_test(&from, 1);
    char *log = gr_regrades_test(&r, &from, "fix\n\033[31mred");
    ck_assert_int_eq(r.n_regrades, 2);
    char *all = gr_regrades_log_lines("s1", &r, 0);
    int lines = 0;
    for (const char *p = all; *p; p++)
        lines += *p == '\n';
    ck_assert_int_eq(lines, 2);
    ck_assert_int_lt((int)strlen(all), 1300);
    ck_assert_ptr_null(strchr(all, '\033'));
    ck_assert_ptr_nonnull(strstr(log, "\t0\t1\tfix  [31mred\t-\n"));
    char *json = gr_report_json_text(&r, NULL);
    ck_assert_int_lt((int)strlen(json), 8000);
    free(json);
    free(all);
    free(log);
    gr_result_free(&from);
    gr_result_free(&r);
    free(path);
    fk_rm_rf(dir);
    free(dir);
}
END_TEST

static const struct { const char *regrades, *says; } bad_regrades[] = {
    {"[{\"when\": \"w\", \"lab\": 99, \"test\": \"t\", \"reason\": \"r\"}]",
     "lab must be 1 to"},
    {"[{\"when\": \"w\", \"lab\": 1, \"test\": \"t\", \"reason\": [1, 2]}]", "reason"},
    {"{\"when\": \"w\"}", "regrades"},
    {"[{\"lab\": 1, \"test\": \"t\", \"reason\": \"r\"}]", "has no \"when\""},
    {"[{\"when\": \"w\", \"lab\": 1, \"test\": \"t\", \"reason\": \"r\", \"old\": 1e999}]",
     "1e999"},   /* Jansson refuses the number where it stands */
};

START_TEST(damaged_regrades_are_an_error)
{
    char *dir = fk_mkdtemp("hostile-regrade");
    char *path = results_with(dir, bad_regrades[_i].regrades);
    gr_report r;
    char err[512] = "";
    ck_assert_int_eq(gr_report_read_json(path, &r, err, sizeof err), -1);
    ck_assert_msg(strstr(err, bad_regrades[_i].says) && strstr(err, "results.json:"),
                  "case %d: %s", _i, err);
    free(path);
    fk_rm_rf(dir);
    free(dir);
}
END_TEST

/* 20,000 regrades: refused, and attnlab grade --test changes nothing. */
START_TEST(too_many_regrades_and_grade_changes_nothing)
{
    char *dir = fk_mkdtemp("hostile-regrade"), *attnlab = fk_attnlab();
    gr_strbuf b = {0};
    gr_sb_append(&b, "[");
    for (int i = 0; i < 20000; i++)
        gr_sb_printf(&b, "%s{\"when\": \"w\", \"lab\": 1, \"test\": \"t\", \"reason\": \"r\"}",
                     i ? "," : "");
    gr_sb_append(&b, "]");
    char *path = results_with(dir, b.s), *before = gr_read_file(path, NULL);
    free(b.s);
    char *log = gr_xasprintf("%s/log", dir);
    ck_assert_int_eq(fk_sh(log, "mkdir -p %s/sub && cp %s/solutions/lab01-scores/lab01.c %s/sub/",
                           dir, fk_root(), dir), 0);
    int rc = fk_sh(log, "%s grade --lab 1 --test dot_worked_example --submission %s/sub "
                   "--student s1 --json %s --reason x -q", attnlab, dir, path);
    ck_assert_int_eq(rc, 1);
    char *said = gr_read_file(log, NULL), *after = gr_read_file(path, NULL);
    ck_assert_msg(strstr(said, "more than the 10000 attnlab keeps"), "%s", said);
    ck_assert_str_eq(after, before);
    char *rl = gr_xasprintf("%s/regrades.log", dir);
    ck_assert_int_ne(access(rl, F_OK), 0);
    free(rl);
    free(said);
    free(after);
    free(before);
    free(log);
    free(path);
    free(attnlab);
    fk_rm_rf(dir);
    free(dir);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("hostile_export");
    TCase *tc = tcase_create("gradebook");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, oversized_link_and_fifo_gradebooks);
    tcase_add_test(tc, huge_and_broken_cells);
    tcase_add_test(tc, a_large_class_of_formula_ids);
    suite_add_tcase(s, tc);

    tc = tcase_create("results_json");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, hostile_regrades_stay_bounded);
    tcase_add_test(tc, regrades_log_runs_no_formula);
    tcase_add_loop_test(tc, damaged_regrades_are_an_error, 0,
                        (int)(sizeof bad_regrades / sizeof bad_regrades[0]));
    tcase_add_test(tc, too_many_regrades_and_grade_changes_nothing);
    suite_add_tcase(s, tc);
    return s;
}
