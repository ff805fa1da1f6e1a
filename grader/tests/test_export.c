/* test_export.c: a batch's gradebook as the CSV an LMS imports (export.c).
 *
 * A known class (hostile ids among them) is written as attnlab batch writes
 * its gradebook.csv, then exported: the Canvas file must be exactly Canvas's
 * documented import layout (Student, ID, SIS User ID, SIS Login ID, Section,
 * the assignment; the Points Possible row second) with the roster's SIS ids,
 * Moodle's and the generic one likewise, every formula-like cell text. A
 * missing, damaged or hostile gradebook is an error that names the place,
 * and nothing is written. Last, attnlab batch --export canvas on real
 * submissions.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "class/classreport.h"
#include "base/cells.h"
#include "class/export.h"
#include "fixtures/fixture_kit.h"
#include "base/util.h"

Suite *test_suite(void);

/* ---- a known class ------------------------------------------------------------------ */

static const struct { const char *id, *name, *email; double score; int submitted; } people[] = {
    {"=SUM(1,2)", NULL, NULL, 10, 1},
    {"@A1", "\tTab", "=HYPERLINK(\"http://x.invalid\",\"click\")", 2.5, 1},
    {"ada", "Lovelace, Ada", "ada@example.edu", 7.5, 1},
    {"bob", "Bob", "bob@example.edu", 0, 1},
    {"cy", "Cy", "cy@example.edu", 0, 0},          /* on the roster, nothing handed in */
};
#define N_PEOPLE ((int)(sizeof people / sizeof people[0]))

static const char roster_yaml[] =
    "students:\n"
    "  - {id: ada, name: \"Lovelace, Ada\", email: ada@example.edu, sis_user_id: \"20231001\",\n"
    "     sis_login_id: alovelace, section: \"CS 101 - A\"}\n"
    "  - {id: bob, name: Bob, email: bob@example.edu, sis_user_id: \"+20231002\"}\n"
    "  - {id: cy, name: Cy, email: cy@example.edu}\n";

/* DIR/gradebook.csv of the class above (lab 1, 10 points), as batch writes it. */
static void write_gradebook(const char *dir)
{
    gr_class c;
    memset(&c, 0, sizeof c);
    c.labs[0] = 1;
    c.lab_max[0] = 10;
    c.n = N_PEOPLE;
    c.students = gr_xcalloc((size_t)c.n, sizeof *c.students);
    for (int i = 0; i < c.n; i++) {
        gr_student *s = &c.students[i];
        s->id = gr_xstrdup(people[i].id);
        s->name = people[i].name ? gr_xstrdup(people[i].name) : NULL;
        s->email = people[i].email ? gr_xstrdup(people[i].email) : NULL;
        s->submitted = people[i].submitted;
        if (!s->submitted)
            continue;
        gr_report *r = &s->report;
        r->labs = gr_xcalloc(1, sizeof *r->labs);
        r->n_labs = 1;
        r->labs[0].lab = 1;
        r->labs[0].name = gr_xstrdup("lab01-scores");
        r->labs[0].score = r->score = people[i].score;
        r->labs[0].max_score = r->max_score = 10;
    }
    char *csv = gr_classreport_gradebook_csv(&c, 1), *path = gr_xasprintf("%s/gradebook.csv", dir);
    ck_assert_int_eq(gr_write_file_atomic(path, csv, strlen(csv)), 0);
    free(path);
    free(csv);
    gr_class_free(&c);
}

static char *roster_file(const char *dir)
{
    char *path = gr_xasprintf("%s/roster.yaml", dir);
    ck_assert_int_eq(gr_write_file_atomic(path, roster_yaml, strlen(roster_yaml)), 0);
    return path;
}

/* The export of the class in format f, as written to DIR/<format>.csv. */
static char *export_of(gr_export_format f, const char *assignment)
{
    char *dir = fk_mkdtemp("export"), err[512], *written = NULL;
    write_gradebook(dir);
    char *roster = roster_file(dir);
    int rc = gr_export_write(dir, roster, f, assignment, NULL, &written, err, sizeof err);
    ck_assert_msg(rc == 0, "%s", err);
    char *want = gr_xasprintf("%s/%s", dir, gr_export_file_name(f));
    ck_assert_str_eq(written, want);
    char *text = gr_read_file(written, NULL);
    ck_assert_ptr_nonnull(text);
    free(want);
    free(written);
    free(roster);
    fk_rm_rf(dir);
    free(dir);
    return text;
}

START_TEST(canvas_is_the_documented_import_layout)
{
    char *csv = export_of(GR_LMS_CANVAS, "attnlab labs (4711)");
    ck_assert_str_eq(csv,
        "Student,ID,SIS User ID,SIS Login ID,Section,\"attnlab labs (4711)\"\r\n"
        "Points Possible,,,,,10\r\n"
        "\"'=SUM(1,2)\",,\"'=SUM(1,2)\",,,10\r\n"
        "\"'\tTab\",,\"'@A1\",,,2.5\r\n"
        "\"Lovelace, Ada\",,\"20231001\",\"alovelace\",\"CS 101 - A\",7.5\r\n"
        "\"Bob\",,\"'+20231002\",,,0\r\n"
        "\"Cy\",,\"cy\",,,\r\n");
    free(csv);
}
END_TEST

START_TEST(moodle_has_an_identifier_and_a_grade)
{
    char *csv = export_of(GR_LMS_MOODLE, "attnlab");
    ck_assert_str_eq(csv,
        "Email address,ID number,\"attnlab\"\r\n"
        ",\"'=SUM(1,2)\",10\r\n"
        "\"'=HYPERLINK(\"\"http://x.invalid\"\",\"\"click\"\")\",\"'@A1\",2.5\r\n"
        "\"ada@example.edu\",\"20231001\",7.5\r\n"
        "\"bob@example.edu\",\"'+20231002\",0\r\n"
        "\"cy@example.edu\",\"cy\",\r\n");
    free(csv);
}
END_TEST

START_TEST(generic_has_points_possible_and_percent)
{
    char *csv = export_of(GR_LMS_GENERIC, "attnlab");
    ck_assert_str_eq(csv,
        "id,email,name,points,possible,percent\r\n"
        "\"'=SUM(1,2)\",,,10,10,100\r\n"
        "\"'@A1\",\"'=HYPERLINK(\"\"http://x.invalid\"\",\"\"click\"\")\",\"'\tTab\",2.5,10,25\r\n"
        "\"ada\",\"ada@example.edu\",\"Lovelace, Ada\",7.5,10,75\r\n"
        "\"bob\",\"bob@example.edu\",\"Bob\",0,10,0\r\n"
        "\"cy\",\"cy@example.edu\",\"Cy\",,,\r\n");
    free(csv);
}
END_TEST

/* With a late policy the gradebook has raw, days late and adjusted columns:
   the export takes the final Total, the penalty applied. */
START_TEST(the_total_after_late_penalties_is_exported)
{
    static const char gb[] =
        GR_CSV_BOM "Student ID,Name,Email,lab01-scores raw,lab01-scores days late,lab01-scores,"
        "Total raw,Total\r\n"
        "Points possible,,,10,,10,10,10\r\n"
        "late,,,8.75,2,7,8.75,7\r\n";
    gr_export_book b;
    char err[256];
    ck_assert_msg(gr_export_book_parse(gb, sizeof gb - 1, "gradebook.csv", &b, err, sizeof err) == 0,
                  "%s", err);
    ck_assert_int_eq(b.n, 1);
    ck_assert(b.possible == 10 && b.rows[0].graded && b.rows[0].points == 7);
    char *csv = gr_export_csv(&b, NULL, GR_LMS_GENERIC, "attnlab");
    ck_assert_str_eq(csv, "id,email,name,points,possible,percent\r\n\"late\",,,7,10,70\r\n");
    free(csv);
    gr_export_book_free(&b);
}
END_TEST

/* ---- what is not a gradebook -------------------------------------------------------- */

static const struct { const char *text, *says; } broken[] = {
    {"", "empty"},
    {"id,score\r\n1,2\r\n", ":1: not a gradebook"},
    {"Student ID,Name,Email,lab01-scores,Total\r\n", ":2: the second row"},
    {"Student ID,Name,Email,lab01-scores,Total\r\nPoints possible,,,10,10\r\n\"s1,,,10,10\r\n",
     ":3: a quoted cell is never closed"},
    {"Student ID,Name,Email,lab01-scores,Total\r\nPoints possible,,,10,10\r\ns1,,,10\r\n",
     ":3: 4 cells where the header has 5"},
    {"Student ID,Name,Email,lab01-scores,Total\r\nPoints possible,,,10,10\r\ns1,,,10,=1+1\r\n",
     ":3: the total is not a number"},
    {"Student ID,Name,Email,lab01-scores,Total\r\nPoints possible,,,10,10\r\ns1,,,10,1e400\r\n",
     ":3: the total is not a number"},
    {"Student ID,Name,Email,lab01-scores,Total\r\nPoints possible,,,10,nan\r\n",
     ":2: the total's points possible is not a number"},
    {"Student ID,Name,Email,lab01-scores,Total\r\nPoints possible,,,10,10\r\n,,,10,10\r\n",
     ":3: a row without a student id"},
    {"Student ID,Name,Email,lab01-scores,Total\r\nPoints possible,,,10,10\r\n\"a\"b,,,1,1\r\n",
     ":3: text after a quoted cell"},
};

START_TEST(a_damaged_gradebook_is_an_error_and_nothing_is_written)
{
    char *dir = fk_mkdtemp("export-bad"), err[512] = "";
    char *gb = gr_xasprintf("%s/gradebook.csv", dir), *out = gr_xasprintf("%s/canvas.csv", dir);
    ck_assert_int_eq(gr_write_file_atomic(gb, broken[_i].text, strlen(broken[_i].text)), 0);
    int rc = gr_export_write(dir, NULL, GR_LMS_CANVAS, "attnlab", NULL, NULL, err, sizeof err);
    ck_assert_int_eq(rc, -1);
    ck_assert_msg(strstr(err, broken[_i].says) != NULL, "case %d: [%s]", _i, err);
    ck_assert_msg(strstr(err, gb) != NULL, "the error names the file: [%s]", err);
    ck_assert_int_ne(access(out, F_OK), 0);
    free(gb);
    free(out);
    fk_rm_rf(dir);
    free(dir);
}
END_TEST

START_TEST(a_folder_without_a_gradebook_is_an_error)
{
    char *dir = fk_mkdtemp("export-none"), err[512] = "";
    ck_assert_int_eq(gr_export_write(dir, NULL, GR_LMS_MOODLE, "a", NULL, NULL, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "holds no gradebook") && strstr(err, "attnlab batch"), "%s", err);
    char *out = gr_xasprintf("%s/moodle.csv", dir);
    ck_assert_int_ne(access(out, F_OK), 0);
    /* a gradebook that is a folder (or a link, a FIFO) is named as what it is */
    char *gb = gr_xasprintf("%s/gradebook.csv", dir);
    ck_assert_int_eq(mkdir(gb, 0755), 0);
    ck_assert_int_eq(gr_export_write(dir, NULL, GR_LMS_MOODLE, "a", NULL, NULL, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "a directory"), "%s", err);
    ck_assert_int_ne(access(out, F_OK), 0);
    free(gb);
    free(out);
    fk_rm_rf(dir);
    free(dir);
}
END_TEST

START_TEST(a_bad_roster_is_an_error_and_nothing_is_written)
{
    char *dir = fk_mkdtemp("export-roster"), err[512] = "";
    write_gradebook(dir);
    char *roster = gr_xasprintf("%s/roster.yaml", dir), *out = gr_xasprintf("%s/canvas.csv", dir);
    const char *yaml = "students:\n  - {id: ada, sis_user_id: [1, 2]}\n";
    ck_assert_int_eq(gr_write_file_atomic(roster, yaml, strlen(yaml)), 0);
    ck_assert_int_eq(gr_export_write(dir, roster, GR_LMS_CANVAS, "a", NULL, NULL, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "roster.yaml:2:") && strstr(err, "sis_user_id"), "%s", err);
    ck_assert_int_ne(access(out, F_OK), 0);
    free(roster);
    free(out);
    fk_rm_rf(dir);
    free(dir);
}
END_TEST

/* An id listed twice is named at its second listing, however far apart the two
   are and whether or not a folder has the id too. */
START_TEST(a_roster_listing_an_id_twice_names_the_second)
{
    char *dir = fk_mkdtemp("export-roster"), err[512] = "";
    write_gradebook(dir);
    char *roster = gr_xasprintf("%s/roster.yaml", dir);
    const char *yaml = "students:\n  - {id: s002}\n  - {id: s001}\n  - {id: s003}\n"
                       "  - {id: s001, name: again}\n  - {id: s002, name: again}\n";
    ck_assert_int_eq(gr_write_file_atomic(roster, yaml, strlen(yaml)), 0);
    ck_assert_int_eq(gr_export_write(dir, roster, GR_LMS_CANVAS, "a", NULL, NULL, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "roster.yaml:5:") && strstr(err, "student s001 is on the roster twice"),
                  "%s", err);
    free(roster);
    fk_rm_rf(dir);
    free(dir);
}
END_TEST

/* ---- attnlab batch --export and attnlab export ---------------------------------------- */

START_TEST(batch_exports_for_canvas)
{
    char *dir = fk_mkdtemp("export-batch"), *attnlab = fk_attnlab();
    char *log = gr_xasprintf("%s/log", dir);
    ck_assert_int_eq(fk_sh(log, "mkdir -p '%s/sub/=SUM(1,2)' %s/sub/ada %s/sub/stub && "
                           "cp %s/solutions/lab01-scores/lab01.c '%s/sub/=SUM(1,2)/' && "
                           "cp %s/solutions/lab01-scores/lab01.c %s/sub/ada/ && "
                           "cp %s/data/stubs/lab01.c %s/sub/stub/", dir, dir, dir, fk_root(), dir,
                           fk_root(), dir, fk_root(), dir), 0);
    char *roster = roster_file(dir);
    ck_assert_msg(fk_sh(log, "ATTNLAB_SECRET=export-test %s batch %s/sub --out %s/out --lab 1 "
                        "--roster %s --export canvas -q", attnlab, dir, dir, roster) == 0,
                  "batch failed: see %s", log);
    char *path = gr_xasprintf("%s/out/canvas.csv", dir), *csv = gr_read_file(path, NULL);
    ck_assert_ptr_nonnull(csv);
    ck_assert_str_eq(csv,
        "Student,ID,SIS User ID,SIS Login ID,Section,\"attnlab\"\r\n"
        "Points Possible,,,,,10\r\n"
        "\"'=SUM(1,2)\",,\"'=SUM(1,2)\",,,10\r\n"
        "\"Lovelace, Ada\",,\"20231001\",\"alovelace\",\"CS 101 - A\",10\r\n"
        "\"Bob\",,\"'+20231002\",,,\r\n"
        "\"Cy\",,\"cy\",,,\r\n"
        "\"stub\",,\"stub\",,,0\r\n");
    /* the command on the same folder, to a file and to standard output: the same bytes */
    char *out2 = gr_xasprintf("%s/again.csv", dir);
    ck_assert_int_eq(fk_sh(log, "%s export %s/out --format canvas --roster %s --out %s",
                           attnlab, dir, roster, out2), 0);
    char *again = gr_read_file(out2, NULL);
    ck_assert_ptr_nonnull(again);
    ck_assert_str_eq(again, csv);
    ck_assert_int_eq(fk_sh(log, "%s export %s/out --format canvas --roster %s --out - > %s",
                           attnlab, dir, roster, out2), 0);
    free(again);
    again = gr_read_file(out2, NULL);
    ck_assert_str_eq(again, csv);
    /* a wrong format is a usage error */
    ck_assert_int_eq(fk_sh(log, "%s export %s/out --format blackboard", attnlab, dir), 2);
    free(again);
    free(out2);
    free(csv);
    free(path);
    free(roster);
    free(log);
    free(attnlab);
    fk_rm_rf(dir);
    free(dir);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("export");
    TCase *tc = tcase_create("formats");
    tcase_add_test(tc, canvas_is_the_documented_import_layout);
    tcase_add_test(tc, moodle_has_an_identifier_and_a_grade);
    tcase_add_test(tc, generic_has_points_possible_and_percent);
    tcase_add_test(tc, the_total_after_late_penalties_is_exported);
    suite_add_tcase(s, tc);

    tc = tcase_create("errors");
    tcase_add_loop_test(tc, a_damaged_gradebook_is_an_error_and_nothing_is_written, 0,
                        (int)(sizeof broken / sizeof broken[0]));
    tcase_add_test(tc, a_folder_without_a_gradebook_is_an_error);
    tcase_add_test(tc, a_bad_roster_is_an_error_and_nothing_is_written);
    tcase_add_test(tc, a_roster_listing_an_id_twice_names_the_second);
    suite_add_tcase(s, tc);

    tc = tcase_create("batch");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, batch_exports_for_canvas);
    suite_add_tcase(s, tc);
    return s;
}
