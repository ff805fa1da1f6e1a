/* test_handin.c: student ids and hand-in times from the instructor's side
 * (handin.c, batch_handin.c), course.yaml's extensions, and the late policy's
 * guard rails: the readers unit by unit, then `attnlab batch` on small classes
 * of lab 1 laid out in a temporary folder: a Gradescope export (submission
 * folders and, beside them, submission_metadata.yml as Gradescope writes it,
 * a group submission included), a copied class folder whose file times are
 * all "now", and times files that name a time after the batch started or a
 * student who is not in the class.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "class/course.h"
#include "class/handin.h"
#include "fixtures/fixture_kit.h"
#include "base/util.h"

Suite *test_suite(void);

static char *base;               /* this binary's folder, removed when it exits */

static void lay_out(void)
{
    base = fk_suite_dir("handin");
    setenv("ATTNLAB_SECRET", "handin-test-secret", 1);
}

/* Write text to base/rel, its folders made; the path (malloc'd). */
static char *put(const char *rel, const char *text)
{
    ck_assert_ptr_nonnull(base);
    char *path = gr_xasprintf("%s/%s", base, rel);
    char *dir = gr_xstrdup(path);
    *strrchr(dir, '/') = '\0';
    ck_assert_int_eq(fk_sh("/dev/null", "mkdir -p '%s'", dir), 0);
    ck_assert_msg(gr_write_file_atomic(path, text, strlen(text)) == 0, "cannot write %s", path);
    free(dir);
    return path;
}

/* A time as ISO 8601 UTC, in one of four static buffers used in turn (so
   several may be arguments of one call). */
static const char *iso(time_t t)
{
    static char stamps[4][32];
    static int next;
    char *stamp = stamps[next++ % 4];
    struct tm tm;
    strftime(stamp, sizeof stamps[0], "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&t, &tm));
    return stamp;
}

/* ---- the readers -------------------------------------------------------------------- */

START_TEST(ruby_times_parse)
{
    time_t t;
    /* Ruby's Time#to_yaml, as Gradescope's export writes :created_at */
    ck_assert_int_eq(gr_parse_time("2025-02-07 23:59:00.365935000 -05:00", &t), 0);
    ck_assert_int_eq((long)t, 1738990740L);
    ck_assert_int_eq(gr_parse_time("2025-02-08 04:59:00 Z", &t), 0);
    ck_assert_int_eq((long)t, 1738990740L);
    ck_assert_int_eq(gr_parse_time("2025-02-07 23:59:00  -05:00", &t), -1);
    ck_assert_int_eq(gr_parse_time("2025-02-07 23:59:00 ", &t), -1);
}
END_TEST

static const char export_yml[] =
    "submission_101:\n"
    "  :submitters:\n"
    "  - :name: Ada Lovelace\n"
    "    :sid: '100'\n"
    "    :email: ada@example.edu\n"
    "  :created_at: 2025-02-07 23:59:00.365935000 -05:00\n"
    "  :score: 10.0\n"
    "  :history: []\n"
    "submission_102:\n"
    "  :submitters:\n"
    "  - :name: Bob\n"
    "    :sid: 200\n"
    "    :email: ''\n"
    "  - :name: Carol\n"
    "    :sid: '201'\n"
    "    :email: carol@example.edu\n"
    "  :created_at: 2025-02-09 11:00:00.000000000 +00:00\n"
    "submission_103:\n"
    "  :submitters:\n"
    "  - :name: Dan\n"
    "    :email: dan@example.edu\n";

START_TEST(export_reads_gradescopes_format)
{
    free(put("u_export/submission_metadata.yml", export_yml));
    char *dir = gr_xasprintf("%s/u_export", base), err[512] = "";
    gr_handin x;
    ck_assert_msg(gr_handin_load(dir, &x, err, sizeof err) == 1, "%s", err);
    ck_assert_int_eq(x.n, 3);
    const gr_handin_sub *a = gr_handin_find(&x, "submission_101");
    ck_assert_ptr_nonnull(a);
    ck_assert_str_eq(a->who[0].id, "ada@example.edu");
    ck_assert_str_eq(a->who[0].name, "Ada Lovelace");
    ck_assert(a->have_created && (long)a->created == 1738990740L);
    const gr_handin_sub *g = gr_handin_find(&x, "submission_102");
    ck_assert_int_eq(g->n_who, 2);
    ck_assert_str_eq(g->who[0].id, "200");                /* no email: the sid */
    ck_assert_str_eq(g->who[1].id, "carol@example.edu");
    const gr_handin_sub *d = gr_handin_find(&x, "submission_103");
    ck_assert(!d->have_created);                          /* no time known */
    ck_assert_ptr_null(gr_handin_find(&x, "submission_104"));
    gr_handin_free(&x);

    /* no submission_metadata.yml: not an export, not an error */
    char *plain = gr_xasprintf("%s/u_plain", base);
    ck_assert_int_eq(mkdir(plain, 0755), 0);
    ck_assert_int_eq(gr_handin_load(plain, &x, err, sizeof err), 0);
    free(plain);
    free(dir);
}
END_TEST

START_TEST(export_every_document_is_read)
{
    /* "..." ends a document, "---" opens one, and an empty one holds no one:
       each submission in all of them, one with no submitters kept with none */
    static const char text[] = "---\ns1:\n  :submitters:\n  - :sid: '1'\n...\n"
                               "s2:\n  :submitters: []\n...\n---\n---\ns3:\n  :submitters:\n"
                               "  - :sid: '3'\n  :created_at: 2025-02-07 23:59:00 -05:00\n...\n";
    gr_handin x;
    char err[512] = "";
    ck_assert_msg(gr_handin_parse("m.yml", text, sizeof text - 1, &x, err, sizeof err) == 0,
                  "%s", err);
    ck_assert_int_eq(x.n, 3);
    ck_assert_str_eq(gr_handin_find(&x, "s1")->who[0].id, "1");
    const gr_handin_sub *none = gr_handin_find(&x, "s2");
    ck_assert(none->n_who == 0 && none->line == 6 && none->column == 1);
    const gr_handin_sub *last = gr_handin_find(&x, "s3");
    ck_assert(last->n_who == 1 && last->have_created && (long)last->created == 1738990740L);
    gr_handin_free(&x);
}
END_TEST

START_TEST(export_errors_name_the_place)
{
    static const struct { const char *text, *says; } cases[] = {
        {"s1:\n  :created_at: 2025-02-07 23:59:00 -05:00\n", ":1:1: s1: no :submitters list"},
        {"s1:\n  :submitters:\n  - :name: X\n", ":3:5: s1: a submitter with neither :email nor :sid"},
        {"s1:\n  :submitters:\n  - :email: a/b\n", ":3:5: s1: \"a/b\" cannot name a student"},
        {"s1:\n  :submitters:\n  - :sid: 1\n  :created_at: yesterday\n",
         ":4:16: s1: :created_at is not a time"},
        {"../up:\n  :submitters:\n  - :sid: 1\n", ":1:1: \"../up\" is not a submission folder's name"},
        {"- a\n- b\n", "expected a mapping of submission folder"},
        {"s1: [\n", "YAML syntax error"},
        {"s1:\n  :submitters: []\n...\ns1:\n  :submitters: []\n",
         ":4:1: s1 is named twice (first on line 1)"},
        {"s1:\n  :submitters:\n  - :sid: 1\n---\n- a\n", ":5:1: expected a mapping"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *rel = gr_xasprintf("u_bad%zu/submission_metadata.yml", i);
        free(put(rel, cases[i].text));
        char *dir = gr_xasprintf("%s/u_bad%zu", base, i), err[512] = "";
        gr_handin x;
        ck_assert_int_eq(gr_handin_load(dir, &x, err, sizeof err), -1);
        ck_assert_msg(strstr(err, cases[i].says) && strstr(err, "submission_metadata.yml:"),
                      "case %zu: %s", i, err);
        free(dir);
        free(rel);
    }
}
END_TEST

START_TEST(times_files_in_yaml_and_csv)
{
    char *y = put("u_times/t.yaml", "s001: 2025-02-07T23:59:00-05:00\n\"002\": 2025-02-08T04:59Z\n");
    char *c = put("u_times/t.csv", "id,time\r\ns001,2025-02-07T23:59:00-05:00\r\n\r\n"
                                   "\"002\", 2025-02-08T04:59Z\r\n");
    const char *paths[] = {y, c};
    for (int i = 0; i < 2; i++) {
        gr_times t;
        char err[512] = "";
        ck_assert_msg(gr_times_load(paths[i], &t, err, sizeof err) == 0, "%s", err);
        ck_assert_int_eq(t.n, 2);
        ck_assert_int_eq((long)gr_times_find(&t, "s001")->when, 1738990740L);
        ck_assert_int_eq((long)gr_times_find(&t, "002")->when, 1738990740L);
        ck_assert_ptr_null(gr_times_find(&t, "s003"));
        gr_times_free(&t);
    }
    static const struct { const char *name, *text, *says; } bad[] = {
        {"b1.yaml", "s001: 2025-02-07\n", ":1:7: s001: \"2025-02-07\" is not an ISO 8601 time"},
        {"b2.yaml", "s001: 2025-02-07T23:59Z\ns001: 2025-02-07T23:59Z\n", ":2:1:"},
        {"b3.yaml", "[s001]\n", "expected a mapping of student id to hand-in time"},
        {"b4.csv", "s001,2025-02-07T23:59Z\ns001,2025-02-08T23:59Z\n",
         ":2:1: s001 has a time already, on line 1"},
        {"b5.csv", "s001,2025-02-07T23:59Z\ns002,soon\n", ":2:6: \"soon\" is not an ISO 8601"},
        {"b6.csv", "s001\n", ":1:1: expected id,time"},
        {"b7.csv", "a/b,2025-02-07T23:59Z\n", ":1:1: \"a/b\" is not a student id"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *rel = gr_xasprintf("u_times/%s", bad[i].name);
        char *path = put(rel, bad[i].text), err[512] = "";
        gr_times t;
        ck_assert_int_eq(gr_times_load(path, &t, err, sizeof err), -1);
        ck_assert_msg(strstr(err, bad[i].says) && strstr(err, bad[i].name), "%s: %s", bad[i].name, err);
        free(rel);
        free(path);
    }
    free(y);
    free(c);
}
END_TEST

START_TEST(course_example_and_extensions)
{
    char *path = gr_xasprintf("%s/data/course.example.yaml", fk_root()), err[512] = "";
    gr_course c;
    ck_assert_msg(gr_course_load(path, &c, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(c.n_ext, 3);
    ck_assert_int_eq(c.grace_seconds, 15 * 60);
    /* s001 has 2 more days for lab 1: 1 day 20 minutes after the due date is
       on time for them, 2 days late for anyone else */
    time_t t = c.due[0] + 86400 + 20 * 60;
    ck_assert_int_eq(gr_course_days_late(&c, "s001", 1, t), 0);
    ck_assert_int_eq(gr_course_days_late(&c, "s002", 1, t), 2);
    ck_assert_int_eq(gr_course_days_late(&c, "s001", 2, c.due[1] + 3600), 1);
    /* half a day is 12 hours (and the 15 minutes' grace) */
    ck_assert_int_eq(gr_course_days_late(&c, "ada@example.edu", 3, c.due[2] + 12 * 3600 + 900), 0);
    ck_assert_int_eq(gr_course_days_late(&c, "ada@example.edu", 3, c.due[2] + 12 * 3600 + 901), 1);
    gr_course_free(&c);
    free(path);

    static const struct { const char *text, *says; } bad[] = {
        {"due: {1: 2025-02-07T23:59Z}\nextensions: [s001]\n", ":2:13: extensions: expected a mapping"},
        {"due: {1: 2025-02-07T23:59Z}\nextensions:\n  s001: 2\n", ":3:9: extensions: s001: expected a mapping"},
        {"due: {1: 2025-02-07T23:59Z}\nextensions:\n  s001: {99: 2}\n", ":3:10: extensions: s001: a key is a lab number"},   /* 99: in no course */
        {"due: {1: 2025-02-07T23:59Z}\nextensions:\n  s001: {1: -2}\n", ":3:13: extensions: s001: lab 1: a number of days"},
        {"due: {1: 2025-02-07T23:59Z}\nextensions:\n  s001: {1: two}\n", ":3:13: extension days"},
        {"extensions:\n  s001: {2: 1}\ndue: {1: 2025-02-07T23:59Z}\n", ":2:10: extensions: s001: lab 2 has no due date"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *rel = gr_xasprintf("u_course/c%zu.yaml", i);
        char *p = put(rel, bad[i].text);
        ck_assert_int_eq(gr_course_load(p, &c, err, sizeof err), -1);
        ck_assert_msg(strstr(err, bad[i].says) != NULL, "case %zu: %s", i, err);
        free(rel);
        free(p);
    }
}
END_TEST

/* ---- attnlab batch -------------------------------------------------------------------- */

/* Run attnlab batch with args (NULL-terminated) ; its exit status, and its
   output in *out (malloc'd). */
static int batch(char **out, ...)
{
    char *prog = fk_attnlab(), *log = gr_xasprintf("%s/batch.log", base);
    ck_assert_ptr_nonnull(prog);
    char word[] = "batch";
    char *argv[32] = {prog, word};
    int n = 2;
    va_list ap;
    va_start(ap, out);
    for (char *a; (a = va_arg(ap, char *)) != NULL && n < 31; )
        argv[n++] = a;
    va_end(ap);
    argv[n] = NULL;
    unlink(log);
    int rc = fk_run(argv, log);
    *out = gr_read_file(log, NULL);
    ck_assert_ptr_nonnull(*out);
    free(log);
    free(prog);
    return rc;
}

/* Copy the course's lab 1 solution (or stub) to base/rel. */
static void lab1(const char *rel, int solution)
{
    char *text = gr_read_file(gr_xasprintf("%s/%s", fk_root(), solution ?
                              "solutions/lab01-scores/lab01.c" : "data/stubs/lab01.c"), NULL);
    ck_assert_ptr_nonnull(text);
    free(put(rel, text));
    free(text);
}

static char *file_of(const char *rel)
{
    char *p = gr_xasprintf("%s/%s", base, rel);
    char *text = gr_read_file(p, NULL);
    ck_assert_msg(text != NULL, "no %s", p);
    free(p);
    return text;
}

START_TEST(export_names_students_as_the_fleet_and_times_its_submissions)
{
    /* due 2025-02-08T00:00Z, 10% a day. Ada hands in 12 hours late with a day's
       extension: on time. Bob and Carol's group hands in 1 day 11 hours late:
       2 days, both of them, one grade. Dan has no time: not late. Bob's and
       Dan's folders hold metadata of their own claiming early times: unread. */
    lab1("ex/submission_101/lab01.c", 1);
    lab1("ex/submission_102/lab01-scores/lab01.c", 1);
    lab1("ex/submission_103/lab01.c", 0);
    free(put("ex/submission_102/submission_metadata.yml",
             "submission_102:\n  :submitters:\n  - :email: bob@x\n  :created_at: 2000-01-01 00:00:00 Z\n"));
    free(put("ex/submission_103/submission_metadata.json", "{\"created_at\": \"2000-01-01T00:00:00Z\"}\n"));
    free(put("ex/submission_metadata.yml",
             "submission_101:\n  :submitters:\n  - :name: Ada Lovelace\n    :sid: '100'\n"
             "    :email: ada@example.edu\n  :created_at: 2025-02-08 12:00:00.5 +00:00\n"
             "submission_102:\n  :submitters:\n  - :name: Bob\n    :sid: '200'\n    :email: ''\n"
             "  - :name: Carol\n    :sid: '201'\n    :email: carol@example.edu\n"
             "  :created_at: 2025-02-09 11:00:00.000000000 +00:00\n"
             "submission_103:\n  :submitters:\n  - :name: Dan\n    :email: dan@example.edu\n"));
    char *course = put("ex_course.yaml", "due: {1: 2025-02-08T00:00Z}\nlate_penalty_percent: 10\n"
                                         "extensions:\n  ada@example.edu: {1: 1}\n");
    char *sub = gr_xasprintf("%s/ex", base), *out = gr_xasprintf("%s/ex_out", base), *log;
    int rc = batch(&log, sub, "--out", out, "--lab", "1", "--jobs", "2", "--course", course,
                   (char *)NULL);
    ck_assert_msg(rc == 0, "batch failed:\n%s", log);
    char *csv = file_of("ex_out/gradebook.csv");
    ck_assert_msg(strstr(csv, "\r\n\"ada@example.edu\",\"Ada Lovelace\",\"ada@example.edu\",10,0,10,10,10\r\n") &&
                  strstr(csv, "\r\n\"200\",\"Bob\",,10,2,8,10,8\r\n") &&
                  strstr(csv, "\r\n\"carol@example.edu\",\"Carol\",\"carol@example.edu\",10,2,8,10,8\r\n") &&
                  strstr(csv, "\r\n\"dan@example.edu\",\"Dan\",\"dan@example.edu\",0,0,0,0,0\r\n"), "%s", csv);
    ck_assert_ptr_null(strstr(csv, "submission_10"));
    /* graded once per submission, under the id the fleet uses */
    char *js = file_of("ex_out/students/ada@example.edu/results.json");
    ck_assert_ptr_nonnull(strstr(js, "\"student\": \"ada@example.edu\""));
    ck_assert_int_eq(access(gr_xasprintf("%s/students/200/results.json", out), F_OK), 0);
    ck_assert_int_eq(access(gr_xasprintf("%s/students/carol@example.edu", out), F_OK), -1);
    char *md = file_of("ex_out/report.md");
    ck_assert_msg(strstr(md, gr_xasprintf("Hand-in times: from %s/submission\\_metadata.yml (3 of 4 "
                                          "students have one; the others are not late).", sub)), "%s", md);
    free(csv);
    free(js);
    free(md);
    free(log);

    /* an extension for someone not in the class is an error at its place */
    char *bad = put("ex_course2.yaml", "due: {1: 2025-02-08T00:00Z}\nextensions:\n  submission_101: {1: 1}\n");
    rc = batch(&log, sub, "--out", out, "--lab", "1", "--course", bad, "--change", "course",
               "--reason", "another policy", (char *)NULL);
    ck_assert_msg(rc == 2 && strstr(log, "ex_course2.yaml:3:3: extensions: submission_101 is not in "
                                         "this class"), "%d: %s", rc, log);
    free(log);
    free(bad);
    free(course);
    free(sub);
    free(out);
}
END_TEST

START_TEST(a_copied_class_is_refused_until_accepted)
{
    /* a copied folder: every file's time is now, 30 days after the due date */
    for (int i = 0; i < 3; i++)
        lab1(gr_xasprintf("copy/s%d/lab01.c", i), 1);
    char *course = put("copy_course.yaml",
                       gr_xasprintf("due: {1: %s}\nlate_penalty_percent: 10\n", iso(time(NULL) - 30 * 86400)));
    char *sub = gr_xasprintf("%s/copy", base), *out = gr_xasprintf("%s/copy_out", base), *log;
    int rc = batch(&log, sub, "--out", out, "--lab", "1", "--course", course, "--file-times", (char *)NULL);
    ck_assert_msg(rc == 2 && strstr(log, "refusing to grade: 3 of 3 students would lose points for "
                                         "lateness") && strstr(log, "--accept-late") &&
                  strstr(log, "--file-times"), "%d: %s", rc, log);
    ck_assert_int_eq(access(out, F_OK), -1);             /* nothing written */
    free(log);

    /* no source of times given: no one is late, and the report says why */
    rc = batch(&log, sub, "--out", out, "--lab", "1", "--course", course, (char *)NULL);
    ck_assert_msg(rc == 0, "%s", log);
    char *csv = file_of("copy_out/gradebook.csv");
    ck_assert_msg(strstr(csv, "\r\n\"s0\",,,10,0,10,10,10\r\n"), "%s", csv);
    char *md = file_of("copy_out/report.md");
    ck_assert_ptr_nonnull(strstr(md, "Hand-in times: from nowhere, so no one is late"));
    free(log);
    free(csv);
    free(md);

    /* accepted: graded as late as the file times say */
    rc = batch(&log, sub, "--out", out, "--lab", "1", "--course", course, "--file-times",
               "--accept-late", "--change", "times", "--reason", "the file times are right",
               (char *)NULL);
    ck_assert_msg(rc == 0, "%s", log);
    csv = file_of("copy_out/gradebook.csv");
    ck_assert_msg(strstr(csv, "\r\n\"s1\",,,10,30,0,10,0\r\n"), "%s", csv);
    md = file_of("copy_out/report.md");
    ck_assert_ptr_nonnull(strstr(md, "Hand-in times: from the lab files' modification times \\(--file-times\\)"));
    free(log);
    free(csv);
    free(md);

    /* a time after the batch started is refused too; an unknown id is an error */
    char *times = put("copy_times.yaml", gr_xasprintf("s0: %s\n", iso(time(NULL) + 86400)));
    char *out2 = gr_xasprintf("%s/copy_out2", base);
    rc = batch(&log, sub, "--out", out2, "--lab", "1", "--course", course, "--times", times, (char *)NULL);
    ck_assert_msg(rc == 2 && strstr(log, "refusing to grade: s0 handed lab 1 in at ") &&
                  strstr(log, "after this batch started"), "%d: %s", rc, log);
    ck_assert_int_eq(access(out2, F_OK), -1);
    free(log);
    free(times);
    times = put("copy_times.csv", "id,time\ns0,2025-01-01T00:00Z\nzed,2025-01-01T00:00Z\n");
    rc = batch(&log, sub, "--out", out2, "--lab", "1", "--times", times, (char *)NULL);
    ck_assert_msg(rc == 2 && strstr(log, "copy_times.csv:3:1: zed is not in this class"), "%d: %s", rc, log);
    free(log);
    rc = batch(&log, sub, "--out", out2, "--times", times, "--file-times", (char *)NULL);
    ck_assert_msg(rc == 2 && strstr(log, "give one"), "%d: %s", rc, log);
    ck_assert_int_eq(access(out2, F_OK), -1);
    free(log);
    free(times);
    free(course);
    free(sub);
    free(out);
    free(out2);
}
END_TEST

/* Only students who would lose points count toward the guard rail: not a
   lab they did not hand in (0 either way), not lateness a policy without a
   penalty forgives. */
START_TEST(the_guard_rail_counts_only_points_lost)
{
    for (int i = 0; i < 3; i++)
        lab1(gr_xasprintf("only1/s%d/Lab01.c", i), 1);
    time_t now = time(NULL);
    char *times = put("only1_times.csv", gr_xasprintf("s0,%s\ns1,%s\ns2,%s\n", iso(now - 86400),
                                                      iso(now - 86400), iso(now - 86400)));
    char *course = put("only1_course.yaml", gr_xasprintf("due: {1: %s, 2: %s}\nlate_penalty_percent: 10\n",
                                                         iso(now + 86400), iso(now - 30 * 86400)));
    char *sub = gr_xasprintf("%s/only1", base), *out = gr_xasprintf("%s/only1_out", base), *log;
    int rc = batch(&log, sub, "--out", out, "--lab", "1,2", "--course", course, "--times", times,
                   (char *)NULL);
    ck_assert_msg(rc == 0, "%s", log);
    char *csv = file_of("only1_out/gradebook.csv");
    ck_assert_msg(strstr(csv, "\r\n\"s2\",,,10,0,10,0,29,0,10,10\r\n"), "%s", csv);
    free(csv);
    free(log);
    free(course);

    /* late by the times, but the policy takes nothing */
    course = put("only1_course2.yaml", gr_xasprintf("due: {1: %s}\n", iso(now - 30 * 86400)));
    rc = batch(&log, sub, "--out", out, "--lab", "1", "--course", course, "--times", times,
               "--change", "course,labs", "--reason", "lab 2 dropped, no penalty", (char *)NULL);
    ck_assert_msg(rc == 0, "%s", log);
    free(log);
    free(course);
    free(times);
    free(sub);
    free(out);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("handin");
    TCase *tc = tcase_create("readers");
    tcase_add_unchecked_fixture(tc, lay_out, NULL);
    tcase_add_test(tc, ruby_times_parse);
    tcase_add_test(tc, export_reads_gradescopes_format);
    tcase_add_test(tc, export_every_document_is_read);
    tcase_add_test(tc, export_errors_name_the_place);
    tcase_add_test(tc, times_files_in_yaml_and_csv);
    tcase_add_test(tc, course_example_and_extensions);
    suite_add_tcase(s, tc);
    TCase *b = tcase_create("batch");
    tcase_add_unchecked_fixture(b, lay_out, NULL);
    tcase_set_timeout(b, 300);
    tcase_add_test(b, export_names_students_as_the_fleet_and_times_its_submissions);
    tcase_add_test(b, a_copied_class_is_refused_until_accepted);
    tcase_add_test(b, the_guard_rail_counts_only_points_lost);
    suite_add_tcase(s, b);
    return s;
}
