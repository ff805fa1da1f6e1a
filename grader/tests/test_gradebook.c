/* test_gradebook.c: the cells every report writes (cells.c) and the gradebook
 * and feedback header made from a class (classreport.c).
 *
 * A CSV cell a spreadsheet would evaluate (=SUM(1,2), +1, -1+2, @A1, a roster
 * email =HYPERLINK(...), a tab or CR first, x;=2+5;y for a reader that splits
 * on ';') is written as text, quoted as every text cell is, and reads back
 * exactly (gr_csv_untext); numbers stay numbers, scores print exactly; text
 * in Markdown (gr_md_text) has no markup left and reads back as itself. The gradebook of a class with such ids is
 * then opened with LibreOffice headless, as an instructor would open it, and
 * converted to flat ODS: no cell may hold a formula, every hostile id must be
 * text and every score a number; so is one attnlab batch writes for folders
 * named like formulas. Without soffice (Debian's libreoffice-calc-nogui) the
 * LibreOffice checks say so and pass; CI installs it.
 */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calc.h"
#include "base/cells.h"
#include "class/classreport.h"
#include "fixtures/fixture_kit.h"
#include "base/labmod.h"
#include "base/rubric.h"
#include "base/layout.h"
#include "class/course.h"
#include "base/util.h"

Suite *test_suite(void);

/* ---- cells ------------------------------------------------------------------------ */

static const struct { const char *in, *out; } text_cases[] = {
    {"alice", "\"alice\""},           /* every text cell quoted */
    {"", ""},
    {"=SUM(1,2)", "\"'=SUM(1,2)\""},
    {"+1", "\"'+1\""},
    {"-1+2", "\"'-1+2\""},
    {"@A1", "\"'@A1\""},
    {"\tx", "\"'\tx\""},
    {"\rx", "\"'\rx\""},
    {"=HYPERLINK(\"http://x.invalid\",\"click\")", "\"'=HYPERLINK(\"\"http://x.invalid\"\",\"\"click\"\")\""},
    {"-3", "\"-3\""},                 /* a negative number stays a number */
    {"-2.5", "\"-2.5\""},
    {"-", "\"'-\""},
    {"-1e3", "\"'-1e3\""},
    {"Lovelace, Ada", "\"Lovelace, Ada\""},
    {"say \"hi\"", "\"say \"\"hi\"\"\""},
    {"two\nlines", "\"two\nlines\""},
    {"a=b", "\"a=b\""},               /* only a = where a cell can start is a formula */
    {"Zoë", "\"Zoë\""},
    /* where a reader splitting on ';', ',', a tab or a line end starts a cell */
    {"x;=2+5;y", "\"x;'=2+5;y\""},
    {"a, =1", "\"a, '=1\""},
    {"a;-3;4.5", "\"a;-3;4.5\""},
    {"a;-1+2", "\"a;'-1+2\""},
    {"a\t@x", "\"a\t'@x\""},
    {"two\n=lines", "\"two\n'=lines\""},
    {"\t=1", "\"'\t'=1\""},
    {" =1", "\" '=1\""},
    {"a=b;c", "\"a=b;c\""},
    /* an apostrophe of its own gets another, so the reader gets it back */
    {"'quoted", "\"''quoted\""},
    {"a;'b", "\"a;''b\""},
    {"O'Brien", "\"O'Brien\""},
    /* a double quote first, which a reader may unquote, hides no formula */
    {"x;\"=1+2", "\"x;\"\"'=1+2\""},
    {"\"@A1\"", "\"\"\"'@A1\"\"\""},
};

START_TEST(text_cells_are_neutralised_and_quoted)
{
    gr_strbuf b = {0};
    gr_csv_text(&b, text_cases[_i].in);
    char *got = gr_sb_take(&b);
    ck_assert_msg(strcmp(got, text_cases[_i].out) == 0, "cell %d: got [%s], want [%s]", _i, got,
                  text_cases[_i].out);
    free(got);
}
END_TEST

/* in written as a cell (gr_csv_text), then read back: quotes off, "" as ",
   then gr_csv_untext (malloc'd). */
static char *read_back(const char *in)
{
    gr_strbuf b = {0};
    gr_csv_text(&b, in);
    char *cell = b.s ? gr_sb_take(&b) : gr_xstrdup(""), *w = cell;
    for (const char *r = cell + (*cell == '"'); *r; r++) {
        if (*r == '"' && r[1] != '"')
            break;                         /* the closing quote */
        r += *r == '"';
        *w++ = *r;
    }
    *w = '\0';
    return gr_csv_untext(cell);
}

START_TEST(text_cells_read_back_exactly)
{
    char *got = read_back(text_cases[_i].in);
    ck_assert_msg(strcmp(got, text_cases[_i].in) == 0, "cell %d: read back [%s]", _i, got);
    free(got);
}
END_TEST

/* Up to 15 characters drawn from alphabet (rand()), into in. */
static void random_text(char in[16], const char *alphabet)
{
    int n = rand() % 15, k = (int)strlen(alphabet);
    for (int j = 0; j < n; j++)
        in[j] = alphabet[rand() % k];
    in[n] = '\0';
}

/* 20,000 random texts over the characters that matter (separators, leads,
   quotes, spaces): each reads back exactly, and no piece of a written cell
   that a reader splitting on , ; tab CR or LF makes starts like a formula
   (spaces skipped; a plain number such as -3 allowed). */
START_TEST(random_text_cells_are_safe_and_read_back)
{
    srand(2026);
    for (int k = 0; k < 20000; k++) {
        char in[16];
        random_text(in, " ,;\t\r\n'\"=+-@a1.");
        char *got = read_back(in);
        ck_assert_msg(strcmp(got, in) == 0, "[%s] read back as [%s]", in, got);
        free(got);
        gr_strbuf b = {0};
        gr_csv_text(&b, in);
        for (const char *p = b.s ? b.s : ""; *p;) {
            size_t len = strcspn(p, ",;\t\r\n");
            const char *q = p;
            while (q < p + len && (*q == ' ' || *q == '"'))
                q++;
            char *piece = gr_xasprintf("%.*s", (int)(p + len - q), q);
            char *end = piece + strlen(piece);
            while (end > piece && end[-1] == '"')
                *--end = '\0';
            int number = piece[0] == '-' && piece[1] >= '0' && piece[1] <= '9' &&
                         strspn(piece + 1, "0123456789.") == strlen(piece + 1) &&
                         strchr(piece, '.') == strrchr(piece, '.') && end[-1] != '.';
            ck_assert_msg(!strchr("=+-@", piece[0]) || !piece[0] || number,
                          "[%s] written [%s]: a piece [%s] a spreadsheet evaluates", in, b.s, piece);
            free(piece);
            p += len + (p[len] != '\0');
        }
        free(b.s);
    }
}
END_TEST

/* 20,000 random texts over Markdown's markup, HTML's and control bytes, in
   gr_md_text: no markup character is left bare (each behind a backslash, or
   < > & as an entity), and undoing those escapes gives the text, control
   bytes as spaces: one line of plain text, one table cell. */
START_TEST(random_markdown_text_is_plain)
{
    srand(2027);
    for (int k = 0; k < 20000; k++) {
        char in[16];
        random_text(in, "\\`*_[]()!|#~$<>&;a \n\t\x1b");
        gr_strbuf b = {0};
        gr_md_text(&b, in);
        char *md = b.s ? b.s : gr_xstrdup(""), *back = gr_xcalloc(strlen(md) + 1, 1), *w = back;
        for (const char *p = md; *p; p++) {
            static const char *const ents[] = {"&lt;", "&gt;", "&amp;"};
            int e = 0;
            while (e < 3 && strncmp(p, ents[e], strlen(ents[e])) != 0)
                e++;
            ck_assert_msg(!strchr("`*_[]()!|#~$<>&", *p) || e < 3, "[%s] as [%s]: %c bare", in,
                          md, *p);
            ck_assert_msg((unsigned char)*p >= 0x20, "[%s] as [%s]: a control byte", in, md);
            if (*p == '\\')
                *w++ = *++p;                       /* an escaped character */
            else if (e < 3) {
                *w++ = "<>&"[e];
                p += strlen(ents[e]) - 1;
            } else
                *w++ = *p;
        }
        for (char *p = in; *p; p++)
            *p = (unsigned char)*p < 0x20 ? ' ' : *p;
        ck_assert_msg(strcmp(back, in) == 0, "[%s] read back as [%s]", in, back);
        free(back);
        free(md);
    }
}
END_TEST

START_TEST(null_is_an_empty_cell)
{
    gr_strbuf b = {0};
    gr_csv_text(&b, NULL);
    gr_csv_points(&b, -2.5);
    char *got = gr_sb_take(&b);
    ck_assert_str_eq(got, "-2.5");
    free(got);
}
END_TEST

START_TEST(points_print_exactly)
{
    char buf[GR_POINTS_LEN];
    ck_assert_str_eq(gr_points(buf, 6.25), "6.25");
    ck_assert_str_eq(gr_points(buf, 112.5), "112.5");
    ck_assert_str_eq(gr_points(buf, 10), "10");
    ck_assert_str_eq(gr_points(buf, 5.625), "5.625");        /* 6.25 less 10% */
    ck_assert_str_eq(gr_points(buf, 0.1 + 0.2), "0.3");      /* no float noise */
    ck_assert_str_eq(gr_points(buf, -0.0), "0");
    ck_assert_str_eq(gr_points(buf, -1.75), "-1.75");
    ck_assert_str_eq(gr_points(buf, 1e-7), "0");
    ck_assert_str_eq(gr_points1(buf, 6.25), "6.25");
    ck_assert_str_eq(gr_points1(buf, 10), "10.0");
    ck_assert_str_eq(gr_points1(buf, 0), "0.0");
}
END_TEST

/* The exact decimal of n millionths, as gr_points writes a number. */
static void exact(char buf[GR_POINTS_LEN], long long n)
{
    long long whole = (n < 0 ? -n : n) / 1000000, frac = (n < 0 ? -n : n) % 1000000;
    int len = snprintf(buf, GR_POINTS_LEN, "%s%lld.%06lld", n < 0 ? "-" : "", whole, frac);
    while (buf[len - 1] == '0')
        buf[--len] = '\0';
    if (buf[len - 1] == '.')
        buf[len - 1] = '\0';
}

/* Every lab's maximum, and the score of 2,000 "mutants" per lab (each passes a
   random subset of the tests), summed test by test in doubles as grading sums
   them, raw and late (a random penalty in tenths of a percent for 0 to 3
   days), is printed as the exact decimal that integer millionths give. */
START_TEST(every_sum_of_rubric_points_prints_exactly)
{
    uint64_t x = 0x2545f4914f6cdd1du;
    for (int lab = 1; lab <= GR_N_LABS; lab++) {
        char *path = gr_layout_rubric(fk_root(), lab), err[512];
        gr_rubric r;
        ck_assert_msg(gr_rubric_load(path, &r, err, sizeof err) == 0, "%s", err);
        for (int m = 0; m <= 2000; m++) {
            double sum = 0;
            long long milli = 0;            /* the exact sum, in thousandths */
            for (int t = 0; t < r.n_tests; t++) {
                x ^= x << 13, x ^= x >> 7, x ^= x << 17;
                if (m == 0 || (x & 1)) {      /* m == 0: every test, the lab's maximum */
                    sum += r.tests[t].points;
                    milli += llround(r.tests[t].points * 1000);
                }
            }
            char got[GR_POINTS_LEN], want[GR_POINTS_LEN];
            exact(want, milli * 1000);
            ck_assert_msg(strcmp(gr_points(got, sum), want) == 0, "lab %d: %.17g printed %s, "
                          "not %s", lab, sum, got, want);
            gr_course c = {.penalty_percent = (double)(x % 1001) / 10, .max_late_days = -1};
            int days = (int)((x >> 20) % 4);
            long long keep = 1000 - (long long)(x % 1001) * days;      /* in thousandths */
            exact(want, keep > 0 ? milli * keep : 0);
            ck_assert_msg(strcmp(gr_points(got, gr_course_adjust(&c, sum, days)), want) == 0,
                          "lab %d, %g%% x %d days late: %s, not %s", lab, c.penalty_percent, days,
                          got, want);
        }
        gr_rubric_free(&r);
        free(path);
    }
}
END_TEST

/* ---- a class in memory -------------------------------------------------------------- */

/* Lab 1's result with n_vis visible and n_hid hidden tests of 1 point, the
   first `passed` of them passed. */
static void add_lab1(gr_report *r, int n_vis, int n_hid, int passed)
{
    r->labs = gr_xcalloc(1, sizeof *r->labs);
    r->n_labs = 1;
    gr_lab_result *l = &r->labs[0];
    l->lab = 1;
    l->name = gr_xstrdup("lab01-scores");
    l->n_tests = n_vis + n_hid;
    l->tests = gr_xcalloc((size_t)l->n_tests, sizeof *l->tests);
    for (int j = 0; j < l->n_tests; j++) {
        gr_test_result *t = &l->tests[j];
        t->name = gr_xasprintf("t%d", j);
        t->max_score = 1.25;
        t->score = j < passed ? 1.25 : 0;
        t->verdict = j < passed ? GR_PASSED : GR_WRONG_ANSWER;
        t->visibility = j < n_vis ? GR_VISIBLE : GR_HIDDEN;
        l->score += t->score;
        l->max_score += t->max_score;
    }
    r->score = l->score;
    r->max_score = l->max_score;
}

static const struct { const char *id, *name, *email; int passed; } roster[] = {
    {"+1", NULL, NULL, 8},
    {"-1+2", NULL, NULL, 5},
    {"-7", NULL, NULL, 0},
    {"=SUM(1,2)", NULL, NULL, 8},
    {"@A1", "\tTab", "\rCR", 3},
    {"alice", "Zoë Ąłń", "=HYPERLINK(\"http://x.invalid\",\"click\")", 7},
    {"bob", "Lovelace, Ada", "bob@example.edu", 6},
};
#define N_ROSTER ((int)(sizeof roster / sizeof roster[0]))

/* The class above: lab 1 of 4 visible and 4 hidden tests of 1.25 points;
   with course, alice is 2 days late under 10% a day. */
static void make_class(gr_class *c, gr_course *course)
{
    memset(c, 0, sizeof *c);
    c->labs[0] = 1;
    c->lab_max[0] = 10;             /* the rubric's: 8 tests of 1.25 */
    c->n = N_ROSTER;
    c->students = gr_xcalloc((size_t)c->n, sizeof *c->students);
    for (int i = 0; i < c->n; i++) {
        gr_student *s = &c->students[i];
        s->id = gr_xstrdup(roster[i].id);
        s->name = roster[i].name ? gr_xstrdup(roster[i].name) : NULL;
        s->email = roster[i].email ? gr_xstrdup(roster[i].email) : NULL;
        s->submitted = 1;
        add_lab1(&s->report, 4, 4, roster[i].passed);
    }
    if (course) {
        memset(course, 0, sizeof *course);
        course->has_due[0] = 1;
        course->penalty_percent = 10;
        course->max_late_days = -1;
        c->course = course;
        c->students[5].days_late[0] = 2;
    }
}

START_TEST(gradebook_has_points_possible_and_safe_cells)
{
    gr_class c;
    gr_course course;
    make_class(&c, &course);
    char *csv = gr_classreport_gradebook_csv(&c, 0);
    ck_assert_msg(strncmp(csv, "Student ID,Name,Email,lab01-scores raw,lab01-scores days late,"
                               "lab01-scores,Total raw,Total\r\nPoints possible,,,10,,10,10,10\r\n",
                          strlen("Student ID,Name,Email,lab01-scores raw,lab01-scores days late,"
                                 "lab01-scores,Total raw,Total\r\nPoints possible,,,10,,10,10,10\r\n")) == 0,
                  "%s", csv);
    ck_assert_ptr_nonnull(strstr(csv, "\r\n\"'=SUM(1,2)\",,,10,0,10,10,10\r\n"));
    ck_assert_ptr_nonnull(strstr(csv, "\r\n\"-7\",,,0,0,0,0,0\r\n"));
    ck_assert_ptr_nonnull(strstr(csv, "\r\n\"'@A1\",\"'\tTab\",\"'\rCR\",3.75,0,3.75,3.75,3.75\r\n"));
    /* 8.75 raw, 2 days late at 10% a day: 7 */
    ck_assert_ptr_nonnull(strstr(csv, "\r\n\"alice\",\"Zoë Ąłń\",\"'=HYPERLINK(\"\"http://x.invalid\"\","
                                      "\"\"click\"\")\",8.75,2,7,8.75,7\r\n"));
    ck_assert_ptr_nonnull(strstr(csv, "\r\n\"bob\",\"Lovelace, Ada\",\"bob@example.edu\",7.5,0,7.5,7.5,7.5\r\n"));
    free(csv);
    csv = gr_classreport_gradebook_csv(&c, 1);
    ck_assert_int_eq(strncmp(csv, "\xEF\xBB\xBFStudent ID,", 14), 0);
    free(csv);
    gr_class_free(&c);
}
END_TEST

START_TEST(feedback_header_is_the_gradebook_total)
{
    gr_class c;
    gr_course course;
    make_class(&c, &course);
    char *h = gr_classreport_feedback_header(&c, &c.students[5]);
    ck_assert_str_eq(h, "Final score: 7/10\n"
                        "Late penalty: lab01-scores handed in 2 days late, 1.75 points taken "
                        "(8.75 before the penalty)\n"
                        "Hidden tests: 4 tests, 3.75 of 5 points earned (what they check is "
                        "not shown)\n"
                        "5 of 10 points visible; 5 in hidden tests\n\n");
    free(h);
    c.course = NULL;                      /* no policy: no late line */
    h = gr_classreport_feedback_header(&c, &c.students[4]);
    ck_assert_str_eq(h, "Final score: 3.75/10\n"
                        "Hidden tests: 4 tests, 0 of 5 points earned (what they check is "
                        "not shown)\n"
                        "5 of 10 points visible; 5 in hidden tests\n\n");
    free(h);
    gr_class_free(&c);
}
END_TEST

/* ---- opened in LibreOffice ---------------------------------------------------------- */

/* The cell in column i (0-based) of the row whose first cell's text is first,
   in the .fods text (a run of equal cells is one tag with
   table:number-columns-repeated): its opening tag and text. */
static void fods_cell(const char *fods, const char *first, int i, char *tag, size_t taglen,
                      char *text, size_t textlen)
{
    char *key = gr_xasprintf("<text:p>%s</text:p>", first);
    const char *at = strstr(fods, key);
    ck_assert_msg(at != NULL, "no row for %s in the converted sheet", first);
    free(key);
    const char *row = at;
    while (row > fods && strncmp(row, "<table:table-row", 16) != 0)
        row--;
    const char *cell = row, *end = NULL;
    for (int col = 0; col <= i;) {
        cell = strstr(cell + 1, "<table:table-cell");
        ck_assert_ptr_nonnull(cell);
        end = strchr(cell, '>');
        const char *rep = strstr(cell, "table:number-columns-repeated=\"");
        col += rep && rep < end ? atoi(rep + 31) : 1;
    }
    snprintf(tag, taglen, "%.*s", (int)(end - cell + 1), cell);
    text[0] = '\0';
    if (end[-1] != '/') {
        const char *p = strstr(end, "<text:p>"), *q = p ? strstr(p, "</text:p>") : NULL;
        const char *close = strstr(end, "</table:table-cell>");
        if (p && q && p < close)
            snprintf(text, textlen, "%.*s", (int)(q - p - 8), p + 8);
    }
}

START_TEST(libreoffice_evaluates_no_cell)
{
    if (!calc_have()) {
        fprintf(stderr, "test_gradebook: SKIP libreoffice_evaluates_no_cell: no soffice on "
                        "PATH (apt-get install libreoffice-calc-nogui to run it)\n");
        return;
    }
    char *dir = fk_mkdtemp("gradebook");
    ck_assert_ptr_nonnull(dir);
    gr_class c;
    gr_course course;
    make_class(&c, &course);
    char *csv = gr_classreport_gradebook_csv(&c, 1);
    char *path = gr_xasprintf("%s/gradebook.csv", dir);
    ck_assert_int_eq(gr_write_file_atomic(path, csv, strlen(csv)), 0);
    /* the same ids written raw: the check must see LibreOffice evaluate them */
    char *raw = gr_xasprintf("%s/raw.csv", dir);
    const char *unsafe = "id,v\r\n=SUM(1,2),1\r\n";
    ck_assert_int_eq(gr_write_file_atomic(raw, unsafe, strlen(unsafe)), 0);
    char *control = calc_open(dir, "raw", ',', dir);
    ck_assert_msg(strstr(control, "table:formula") != NULL,
                  "LibreOffice evaluated no formula in a raw CSV: the check proves nothing");
    free(control);

    char *fods = calc_open(dir, "gradebook", ',', dir);
    ck_assert_msg(strstr(fods, "table:formula") == NULL, "a gradebook cell became a formula");
    char tag[512], text[512];
    for (int i = 0; i < N_ROSTER; i++) {
        const char *id = roster[i].id;
        int hostile = strchr("=+@\t\r", id[0]) || strcmp(id, "-1+2") == 0;
        char *want = hostile ? gr_xasprintf("&apos;%s", id) : gr_xstrdup(id);
        fods_cell(fods, want, 0, tag, sizeof tag, text, sizeof text);
        /* -7 is the one id that is a number, and stays one */
        ck_assert_msg(strstr(tag, strcmp(id, "-7") == 0 ? "office:value-type=\"float\""
                                                        : "office:value-type=\"string\""),
                      "id %s: %s", id, tag);
        /* the lab's score and the total are numbers */
        fods_cell(fods, want, 5, tag, sizeof tag, text, sizeof text);
        ck_assert_msg(strstr(tag, "office:value-type=\"float\""), "id %s, lab cell: %s", id, tag);
        fods_cell(fods, want, 7, tag, sizeof tag, text, sizeof text);
        ck_assert_msg(strstr(tag, "office:value-type=\"float\""), "id %s, total: %s", id, tag);
        free(want);
    }
    fods_cell(fods, "alice", 1, tag, sizeof tag, text, sizeof text);
    ck_assert_str_eq(text, "Zoë Ąłń");                      /* UTF-8 read as UTF-8 */
    fods_cell(fods, "alice", 2, tag, sizeof tag, text, sizeof text);
    ck_assert_msg(strncmp(text, "&apos;=HYPERLINK(", 17) == 0, "email: %s", text);
    fods_cell(fods, "alice", 7, tag, sizeof tag, text, sizeof text);
    ck_assert_msg(strstr(tag, "office:value=\"7\""), "alice's total: %s", tag);
    free(fods);
    free(csv);
    free(path);
    free(raw);
    gr_class_free(&c);
    fk_rm_rf(dir);
    free(dir);
}
END_TEST

/* attnlab batch itself, on folders named like formulas and a roster whose
   email is one: its gradebook.csv keeps every id and the email as text, in
   the file and (with soffice) once LibreOffice has opened it. */
START_TEST(batch_gradebook_of_hostile_ids)
{
    static const char *const ids[] = {"=SUM(1,2)", "+1", "-1+2", "@A1", "alice"};
    char *dir = fk_mkdtemp("gradebook-batch"), *attnlab = fk_attnlab();
    ck_assert_ptr_nonnull(dir);
    ck_assert_ptr_nonnull(attnlab);
    char *log = gr_xasprintf("%s/log", dir);
    for (int i = 0; i < 5; i++)
        ck_assert_int_eq(fk_sh(log, "mkdir -p '%s/sub/%s' && cp %s/solutions/lab01-scores/lab01.c "
                               "'%s/sub/%s/'", dir, ids[i], fk_root(), dir, ids[i]), 0);
    char *roster_path = gr_xasprintf("%s/roster.yaml", dir);
    const char *yaml = "students:\n  - {id: alice, name: \"Zoë\", "
                       "email: \"=HYPERLINK(\\\"http://x.invalid\\\",\\\"click\\\")\"}\n";
    ck_assert_int_eq(gr_write_file_atomic(roster_path, yaml, strlen(yaml)), 0);
    ck_assert_msg(fk_sh(log, "ATTNLAB_SECRET=gradebook-test %s batch %s/sub --out %s/out --lab 1 "
                        "--roster %s --csv-bom -q", attnlab, dir, dir, roster_path) == 0,
                  "batch failed: see %s", log);
    char *path = gr_xasprintf("%s/out/gradebook.csv", dir);
    char *csv = gr_read_file(path, NULL);
    ck_assert_ptr_nonnull(csv);
    ck_assert_msg(strncmp(csv, "\xEF\xBB\xBFStudent ID,Name,Email,lab01-scores,Total\r\n"
                               "Points possible,,,10,10\r\n", 56) == 0, "%s", csv);
    ck_assert_ptr_nonnull(strstr(csv, "\r\n\"'=SUM(1,2)\",,,10,10\r\n"));
    ck_assert_ptr_nonnull(strstr(csv, "\r\n\"'+1\",,,10,10\r\n"));
    ck_assert_ptr_nonnull(strstr(csv, "\r\n\"'-1+2\",,,10,10\r\n"));
    ck_assert_ptr_nonnull(strstr(csv, "\r\n\"'@A1\",,,10,10\r\n"));
    ck_assert_ptr_nonnull(strstr(csv, "\r\n\"alice\",\"Zoë\",\"'=HYPERLINK(\"\"http://x.invalid\"\",\"\""
                                      "click\"\")\",10,10\r\n"));
    /* feedback opens with the gradebook's total */
    char *fb_path = gr_xasprintf("%s/out/students/=SUM(1,2)/feedback.txt", dir);
    char *fb = gr_read_file(fb_path, NULL);
    ck_assert_msg(fb && strncmp(fb, "Final score: 10/10\n", 19) == 0, "%s", fb ? fb : "(none)");
    if (calc_have()) {
        char *out = gr_xasprintf("%s/out", dir), *fods = calc_open(out, "gradebook", ',', out);
        ck_assert_msg(strstr(fods, "table:formula") == NULL, "a gradebook cell became a formula");
        free(fods);
        free(out);
    }
    free(fb);
    free(fb_path);
    free(csv);
    free(path);
    free(roster_path);
    free(log);
    free(attnlab);
    fk_rm_rf(dir);
    free(dir);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("gradebook");
    TCase *tc = tcase_create("cells");
    tcase_add_loop_test(tc, text_cells_are_neutralised_and_quoted, 0,
                        (int)(sizeof text_cases / sizeof text_cases[0]));
    tcase_add_loop_test(tc, text_cells_read_back_exactly, 0,
                        (int)(sizeof text_cases / sizeof text_cases[0]));
    tcase_add_test(tc, random_text_cells_are_safe_and_read_back);
    tcase_add_test(tc, random_markdown_text_is_plain);
    tcase_add_test(tc, null_is_an_empty_cell);
    tcase_add_test(tc, points_print_exactly);
    tcase_add_test(tc, every_sum_of_rubric_points_prints_exactly);
    suite_add_tcase(s, tc);

    tc = tcase_create("class");
    tcase_add_test(tc, gradebook_has_points_possible_and_safe_cells);
    tcase_add_test(tc, feedback_header_is_the_gradebook_total);
    suite_add_tcase(s, tc);

    tc = tcase_create("libreoffice");
    tcase_set_timeout(tc, 600);           /* soffice starts slowly on a busy machine */
    tcase_add_test(tc, libreoffice_evaluates_no_cell);
    tcase_add_test(tc, batch_gradebook_of_hostile_ids);
    suite_add_tcase(s, tc);
    return s;
}
