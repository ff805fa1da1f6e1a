/* test_hostile_handin.c: hostile hand-in times and ids against the whole
 * `attnlab batch` program.
 *
 * A batch takes a student's id and hand-in time from the instructor's side
 * only (handin.h). Each case lays out a small class of lab 1 in a fresh folder
 * under this binary's temporary folder and runs
 *
 *   build/attnlab batch T/sub --out T/out --lab 1 [--course T/course.yaml] ...
 *
 * in a session of its own under a wall-clock cap, and asserts the verdict:
 *   - a student's folder holding its own submission_metadata.json and .yml
 *     (claiming an early time, another id) changes nothing: the export's time
 *     and id count, and a FIFO or a link to /dev/zero by that name is never
 *     opened (the batch finishes);
 *   - the export's own submission_metadata.yml as a FIFO, a link to /dev/zero,
 *     a directory or a file over the cap: the batch stops at once with exit 2
 *     and says what the file is, and writes nothing;
 *   - the export as Gradescope may write it: a "..." end marker drops no
 *     submission after it, one with no submitters is skipped with a warning,
 *     and the folder its zip unpacks into is found one level down (and said),
 *     but never a lone student's folder holding an "export" of its own.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fixtures/fixture_kit.h"
#include "base/util.h"

Suite *test_suite(void);

#define CAP_SECONDS 120           /* a batch of three lab 1 students that takes longer hangs */

static char *base;

static void lay_out(void)
{
    base = fk_suite_dir("hostile-handin");
    setenv("ATTNLAB_SECRET", "hostile-handin-secret", 1);
}

/* A fresh class folder T under base for case name, with students s0..s{n-1}
   each handing in lab 1's solution flat; T (malloc'd). */
static char *class_of(const char *name, int n, const char *prefix)
{
    ck_assert_ptr_nonnull(base);
    char *t = gr_xasprintf("%s/%s", base, name);
    char *sol = gr_xasprintf("%s/solutions/lab01-scores/lab01.c", fk_root());
    ck_assert_int_eq(fk_sh("/dev/null", "mkdir -p '%s/sub'", t), 0);
    for (int i = 0; i < n; i++)
        ck_assert_int_eq(fk_sh("/dev/null", "mkdir -p '%s/sub/%s%d' && cp '%s' '%s/sub/%s%d/lab01.c'",
                               t, prefix, i, sol, t, prefix, i), 0);
    free(sol);
    return t;
}

static void put(const char *path, const char *text)
{
    ck_assert_msg(gr_write_file_atomic(path, text, strlen(text)) == 0, "cannot write %s", path);
}

/* Run attnlab batch on t/sub into t/out with extra arguments (NULL-ended), in
   a session of its own, killed at CAP_SECONDS; its exit status (-1: killed
   or crashed), and what it printed in *out (malloc'd). */
static int batch_capped(const char *t, char **out, ...)
{
    char *prog = fk_attnlab(), *sub = gr_xasprintf("%s/sub", t), *dir = gr_xasprintf("%s/out", t);
    char *log = gr_xasprintf("%s/log", t);
    ck_assert_ptr_nonnull(prog);
    char word[] = "batch", o[] = "--out", l[] = "--lab", one[] = "1";
    char *argv[32] = {prog, word, sub, o, dir, l, one};
    int n = 7;
    va_list ap;
    va_start(ap, out);
    for (char *a; (a = va_arg(ap, char *)) != NULL && n < 31; )
        argv[n++] = a;
    va_end(ap);
    argv[n] = NULL;
    pid_t pid = fk_spawn_session(argv, log, NULL, NULL, 0);
    ck_assert_int_ge(pid, 0);
    int st = 0, done = fk_wait_capped(pid, CAP_SECONDS, &st);
    ck_assert_int_ge(done, 0);
    *out = gr_read_file(log, NULL);
    ck_assert_ptr_nonnull(*out);
    ck_assert_msg(done, "the batch hung past %d s:\n%s", CAP_SECONDS, *out);
    free(prog);
    free(sub);
    free(dir);
    free(log);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static char *read_in(const char *t, const char *rel)
{
    char *p = gr_xasprintf("%s/%s", t, rel);
    char *text = gr_read_file(p, NULL);
    ck_assert_msg(text != NULL, "no %s", p);
    free(p);
    return text;
}

/* The export's metadata for s0..s2: s0 two days late, the others on time. */
static void export_of_three(const char *t)
{
    char *p = gr_xasprintf("%s/sub/submission_metadata.yml", t);
    put(p, "s0:\n  :submitters:\n  - :name: Zed\n    :email: zed@example.edu\n"
           "  :created_at: 2025-02-09 12:00:00.000000000 +00:00\n"
           "s1:\n  :submitters:\n  - :email: one@example.edu\n  :created_at: 2025-02-07 12:00:00 +00:00\n"
           "s2:\n  :submitters:\n  - :email: two@example.edu\n  :created_at: 2025-02-07 12:00:00 +00:00\n");
    free(p);
    p = gr_xasprintf("%s/course.yaml", t);
    put(p, "due: {1: 2025-02-08T00:00Z}\nlate_penalty_percent: 10\n");
    free(p);
}

START_TEST(a_students_own_metadata_is_never_read)
{
    char *t = class_of("forged", 3, "s"), *p;
    export_of_three(t);
    /* s0 claims to have handed in early, as someone else */
    put((p = gr_xasprintf("%s/sub/s0/submission_metadata.json", t)),
        "{\"created_at\": \"2025-01-01T00:00:00Z\", \"users\": [{\"email\": \"one@example.edu\"}]}\n");
    free(p);
    put((p = gr_xasprintf("%s/sub/s0/submission_metadata.yml", t)),
        "s0:\n  :submitters:\n  - :email: one@example.edu\n  :created_at: 2025-01-01 00:00:00 Z\n");
    free(p);
    char *course = gr_xasprintf("%s/course.yaml", t), *log;
    int rc = batch_capped(t, &log, "--course", course, (char *)NULL);
    ck_assert_msg(rc == 0, "exit %d:\n%s", rc, log);
    char *csv = read_in(t, "out/gradebook.csv");
    ck_assert_msg(strstr(csv, "\r\n\"zed@example.edu\",\"Zed\",\"zed@example.edu\",10,2,8,10,8\r\n") &&
                  strstr(csv, "\r\n\"one@example.edu\",,\"one@example.edu\",10,0,10,10,10\r\n"), "%s", csv);
    free(csv);
    free(log);
    free(course);
    free(t);
}
END_TEST

START_TEST(a_pipe_or_device_in_a_students_folder_is_never_opened)
{
    /* no export: the folder's name is the id, and no time is known */
    char *t = class_of("nodes", 2, "s"), *p, *log;
    ck_assert_int_eq(mkfifo((p = gr_xasprintf("%s/sub/s0/submission_metadata.json", t)), 0644), 0);
    free(p);
    ck_assert_int_eq(symlink("/dev/zero", (p = gr_xasprintf("%s/sub/s1/submission_metadata.json", t))), 0);
    free(p);
    ck_assert_int_eq(mkfifo((p = gr_xasprintf("%s/sub/s1/submission_metadata.yml", t)), 0644), 0);
    free(p);
    char *course = gr_xasprintf("%s/course.yaml", t);
    put(course, "due: {1: 2025-02-08T00:00Z}\nlate_penalty_percent: 10\n");
    int rc = batch_capped(t, &log, "--course", course, (char *)NULL);
    ck_assert_msg(rc == 0, "exit %d:\n%s", rc, log);
    char *csv = read_in(t, "out/gradebook.csv");
    ck_assert_msg(strstr(csv, "\r\n\"s0\",,,10,0,10,10,10\r\n") && strstr(csv, "\r\n\"s1\",,,10,0,10,10,10\r\n"),
                  "%s", csv);
    free(csv);
    free(log);
    free(course);
    free(t);
}
END_TEST

/* The export's own metadata file made hostile (kind: 0 a FIFO, 1 a link to
   /dev/zero, 2 a folder, 3 over the cap): the batch stops with exit 2 saying
   says, writes nothing, and does not hang. */
static void export_file_refused(const char *name, const char *says, int kind)
{
    char *t = class_of(name, 1, "s"), *log;
    char *meta = gr_xasprintf("%s/sub/submission_metadata.yml", t);
    switch (kind) {
    case 0: ck_assert_int_eq(mkfifo(meta, 0644), 0); break;
    case 1: ck_assert_int_eq(symlink("/dev/zero", meta), 0); break;
    case 2: ck_assert_int_eq(mkdir(meta, 0755), 0); break;
    default:                                  /* sparse: 65 MiB on no disk */
        put(meta, "s0:\n");
        ck_assert_int_eq(truncate(meta, (off_t)65 << 20), 0);
        break;
    }
    int rc = batch_capped(t, &log, (char *)NULL);
    ck_assert_msg(rc == 2 && strstr(log, "cannot read the export's submission metadata") &&
                  strstr(log, says), "exit %d:\n%s", rc, log);
    char *out = gr_xasprintf("%s/out", t);
    ck_assert_int_eq(access(out, F_OK), -1);
    free(out);
    free(meta);
    free(log);
    free(t);
}

START_TEST(the_exports_metadata_as_a_fifo)
{
    export_file_refused("meta_fifo", "a FIFO", 0);
}
END_TEST

START_TEST(the_exports_metadata_as_a_link_to_dev_zero)
{
    export_file_refused("meta_zero", "a symbolic link", 1);
}
END_TEST

START_TEST(the_exports_metadata_as_a_folder_or_too_big)
{
    export_file_refused("meta_dir", "a directory", 2);
    export_file_refused("meta_big", "more than the", 3);
}
END_TEST

/* The metadata of s0..s2 written as meta, then batch with the course; the
   log in *log, the gradebook returned. */
static char *export_batch(const char *t, const char *meta, char **log)
{
    char *p = gr_xasprintf("%s/sub/submission_metadata.yml", t);
    put(p, meta);
    free(p);
    char *course = gr_xasprintf("%s/course.yaml", t);
    put(course, "due: {1: 2025-02-08T00:00Z}\nlate_penalty_percent: 10\n");
    int rc = batch_capped(t, log, "--course", course, (char *)NULL);
    ck_assert_msg(rc == 0, "exit %d:\n%s", rc, *log);
    free(course);
    return read_in(t, "out/gradebook.csv");
}

static const char zed_late[] = "\r\n\"zed@example.edu\",\"Zed\",\"zed@example.edu\",10,2,8,10,8\r\n";
static const char one_on_time[] = "\r\n\"one@example.edu\",,\"one@example.edu\",10,0,10,10,10\r\n";
static const char two_on_time[] = "\r\n\"two@example.edu\",,\"two@example.edu\",10,0,10,10,10\r\n";

START_TEST(an_end_marker_drops_no_one_after_it)
{
    /* "..." ends a document; the submissions after it (a bare document, then
       one opened with ---) are the export's too, with their ids and times */
    char *t = class_of("docs", 3, "s"), *log;
    char *csv = export_batch(t, "s0:\n  :submitters:\n  - :name: Zed\n    :email: zed@example.edu\n"
        "  :created_at: 2025-02-09 12:00:00.000000000 +00:00\n...\n"
        "s1:\n  :submitters:\n  - :email: one@example.edu\n  :created_at: 2025-02-07 12:00:00 +00:00\n"
        "...\n---\ns2:\n  :submitters:\n  - :email: two@example.edu\n"
        "  :created_at: 2025-02-07 12:00:00 +00:00\n...\n", &log);
    ck_assert_msg(strstr(csv, zed_late) && strstr(csv, one_on_time) && strstr(csv, two_on_time) &&
                  !strstr(csv, "\"s1\"") && !strstr(csv, "\"s2\""), "%s\n%s", csv, log);
    free(csv);
    free(log);
    free(t);
}
END_TEST

START_TEST(a_submission_without_submitters_is_skipped_with_a_warning)
{
    /* s1's student left the course: the batch grades the others, names the
       entry, and gives s1's folder to no one */
    char *t = class_of("nobody", 3, "s"), *log;
    char *csv = export_batch(t, "s0:\n  :submitters:\n  - :name: Zed\n    :email: zed@example.edu\n"
        "  :created_at: 2025-02-09 12:00:00.000000000 +00:00\n"
        "s1:\n  :submitters: []\n  :created_at: 2025-02-07 12:00:00 +00:00\n"
        "s2:\n  :submitters:\n  - :email: two@example.edu\n  :created_at: 2025-02-07 12:00:00 +00:00\n",
        &log);
    ck_assert_msg(strstr(csv, zed_late) && strstr(csv, two_on_time) && !strstr(csv, "\"s1\""),
                  "%s", csv);
    ck_assert_msg(strstr(log, "submission_metadata.yml:6:1: s1 has no submitters") &&
                  strstr(log, "not graded"), "%s", log);
    free(csv);
    free(log);
    free(t);
}
END_TEST

START_TEST(an_export_one_level_down_is_found_and_said)
{
    /* batch pointed at the folder the export's zip unpacks into */
    char *t = class_of("below", 3, "s"), *log;
    export_of_three(t);
    ck_assert_int_eq(fk_sh("/dev/null", "cd '%s' && mkdir x && mv sub x/assignment_7_export && "
                           "mv x sub", t), 0);
    char *course = gr_xasprintf("%s/course.yaml", t);
    int rc = batch_capped(t, &log, "--course", course, (char *)NULL);
    ck_assert_msg(rc == 0 && strstr(log, "holds one folder, a Gradescope export: grading ") &&
                  strstr(log, "/sub/assignment_7_export"), "exit %d:\n%s", rc, log);
    char *csv = read_in(t, "out/gradebook.csv");
    ck_assert_msg(strstr(csv, zed_late) && strstr(csv, one_on_time) && strstr(csv, two_on_time),
                  "%s", csv);
    free(csv);
    free(log);
    free(course);
    free(t);
}
END_TEST

START_TEST(a_lone_students_planted_export_is_not_taken_for_one)
{
    /* a class of one: the student's folder holds an "export" of its own
       (an on-time hand-in under another id); it is the student's folder,
       named by the instructor, so it stays one student, graded by its name */
    char *t = class_of("lone", 1, "s"), *p, *log;
    ck_assert_int_eq(fk_sh("/dev/null", "mkdir -p '%s/sub/s0/sub1' && cp '%s/sub/s0/lab01.c' "
                           "'%s/sub/s0/sub1/'", t, t, t), 0);
    put((p = gr_xasprintf("%s/sub/s0/submission_metadata.yml", t)),
        "sub1:\n  :submitters:\n  - :email: one@example.edu\n  :created_at: 2025-01-01 00:00:00 Z\n");
    free(p);
    int rc = batch_capped(t, &log, (char *)NULL);
    ck_assert_msg(rc == 0 && !strstr(log, "a Gradescope export: grading"), "exit %d:\n%s", rc, log);
    char *csv = read_in(t, "out/gradebook.csv");
    ck_assert_msg(strstr(csv, "\r\n\"s0\",") && !strstr(csv, "one@example.edu"), "%s", csv);
    free(csv);
    free(log);
    free(t);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("hostile_handin");
    TCase *tc = tcase_create("hostile_handin");
    tcase_add_unchecked_fixture(tc, lay_out, NULL);
    tcase_set_timeout(tc, 2 * CAP_SECONDS + 30);
    tcase_add_test(tc, a_students_own_metadata_is_never_read);
    tcase_add_test(tc, a_pipe_or_device_in_a_students_folder_is_never_opened);
    tcase_add_test(tc, the_exports_metadata_as_a_fifo);
    tcase_add_test(tc, the_exports_metadata_as_a_link_to_dev_zero);
    tcase_add_test(tc, the_exports_metadata_as_a_folder_or_too_big);
    tcase_add_test(tc, an_end_marker_drops_no_one_after_it);
    tcase_add_test(tc, a_submission_without_submitters_is_skipped_with_a_warning);
    tcase_add_test(tc, an_export_one_level_down_is_found_and_said);
    tcase_add_test(tc, a_lone_students_planted_export_is_not_taken_for_one);
    suite_add_tcase(s, tc);
    return s;
}
