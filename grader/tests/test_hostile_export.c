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
 */
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "class/export.h"
#include "fixtures/fixture_kit.h"
#include "util.h"

Suite *test_suite(void);

#define HEAD "Student ID,Name,Email,lab01-scores,Total\r\nPoints possible,,,10,10\r\n"

/* Export dir with the gradebook as made; the error must hold says and no
   canvas.csv may appear. */
static void expect_refused(const char *dir, const char *says)
{
    char err[1024] = "", *out = gr_xasprintf("%s/canvas.csv", dir);
    int rc = gr_lms_export(dir, NULL, GR_LMS_CANVAS, "attnlab", NULL, NULL, err, sizeof err);
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
    ck_assert_msg(gr_lms_export(dir, NULL, GR_LMS_CANVAS, "=evil()", NULL, &written, err,
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

Suite *test_suite(void)
{
    Suite *s = suite_create("hostile_export");
    TCase *tc = tcase_create("gradebook");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, oversized_link_and_fifo_gradebooks);
    tcase_add_test(tc, huge_and_broken_cells);
    tcase_add_test(tc, a_large_class_of_formula_ids);
    suite_add_tcase(s, tc);
    return s;
}
