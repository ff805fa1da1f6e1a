/* test_batch.c: attnlab batch end to end, and the late policy (course.c).
 *
 * A class of 40 submissions is made in a temporary folder from the course's
 * own files: solutions (labs/ layout and flat), untouched stubs, the bundled
 * mutants of labs 1 and 5, and broken uploads. The built attnlab grades it;
 * every gradebook cell is checked against what that submission must score
 * (full marks, 0, or less than full), the late policy against hand-worked
 * lateness, the class report against the mutants' misconceptions. Then a run
 * is killed with SIGKILL part-way and run again: the gradebook it ends with
 * is the first run's, byte for byte, and the second run graded only the rest.
 */
#include <check.h>
#include <dirent.h>
#include <math.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "class/course.h"
#include "base/labmod.h"
#include "engine/mutants.h"
#include "report/report.h"
#include "rubricsum.h"
#include "base/util.h"

Suite *test_suite(void);

/* ---- the late policy ---------------------------------------------------------- */

START_TEST(times_parse_with_their_offsets)
{
    time_t t;
    /* 2025-02-07T23:59:00-05:00 is 2025-02-08 04:59:00 UTC = 1738990740 */
    ck_assert_int_eq(gr_parse_time("2025-02-07T23:59:00-05:00", &t), 0);
    ck_assert_int_eq((long)t, 1738990740L);
    ck_assert_int_eq(gr_parse_time("2025-02-08T04:59Z", &t), 0);
    ck_assert_int_eq((long)t, 1738990740L);
    ck_assert_int_eq(gr_parse_time("2025-02-08 06:59:00.365935+0200", &t), 0);
    ck_assert_int_eq((long)t, 1738990740L);
    const char *bad[] = {"2025-02-07", "2025-02-07T23:59:00", "2025-13-07T00:00Z",
                         "2025-02-07T23:59:00+5", "tomorrow", "2025-02-07T23:59Zx"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(gr_parse_time(bad[i], &t) == -1, "%s read as a time", bad[i]);
}
END_TEST

START_TEST(lateness_and_penalty)
{
    gr_course c;
    memset(&c, 0, sizeof c);
    c.has_due[0] = 1;
    c.due[0] = 1000000;
    c.grace_seconds = 600;
    c.penalty_percent = 10;
    c.max_late_days = 3;
    ck_assert_int_eq(gr_course_days_late(&c, NULL, 1, 1000000 - 5), 0);
    ck_assert_int_eq(gr_course_days_late(&c, NULL, 1, 1000000 + 600), 0);        /* within grace */
    ck_assert_int_eq(gr_course_days_late(&c, NULL, 1, 1000000 + 601), 1);
    ck_assert_int_eq(gr_course_days_late(&c, NULL, 1, 1000000 + 86400), 1);
    ck_assert_int_eq(gr_course_days_late(&c, NULL, 1, 1000000 + 86401), 2);
    ck_assert_int_eq(gr_course_days_late(&c, NULL, 2, 1000000 + 9 * 86400), 0); /* no due date */
    ck_assert(gr_course_adjust(&c, 8, 0) == 8);
    ck_assert(fabs(gr_course_adjust(&c, 8, 2) - 6.4) < 1e-12);
    ck_assert(gr_course_adjust(&c, 8, 4) == 0);                            /* past the maximum */
}
END_TEST

/* Write text to a new temporary course.yaml; its path (static). */
static const char *course_file(const char *text)
{
    static char path[] = "/tmp/attnlab-course-XXXXXX";
    strcpy(path, "/tmp/attnlab-course-XXXXXX");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    return path;
}

START_TEST(course_yaml_errors_name_the_place)
{
    /* bound: says goes on with the course's lab count (lab 99 is in no course) */
    static const struct { const char *text, *says; int bound; } cases[] = {
        {"due:\n  1: 2025-02-07 23:59\n", ":2:6: due date of lab 1", 0},
        {"due:\n  99: 2025-02-07T23:59Z\n", ":2:3: due: a key is a lab number from 1 to ", 1},
        {"due: {1: 2025-02-07T23:59Z}\ngrace_minute: 5\n", ":2:1: unknown key \"grace_minute\"", 0},
        {"due: {1: 2025-02-07T23:59Z}\nlate_penalty_percent: 150\n", ":2:23: late_penalty_percent", 0},
        {"due: {1: 2025-02-07T23:59Z}\nlate_penalty_percent: 12.25\n",
         ":2:23: late_penalty_percent: at most one decimal", 0},
        {"grace_minutes: 5\n", "due", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *path = course_file(cases[i].text);
        gr_course c;
        char err[512] = "";
        ck_assert_int_eq(gr_course_load(path, &c, err, sizeof err), -1);
        char *says = cases[i].bound ? gr_xasprintf("%s%d,", cases[i].says, GR_N_LABS)
                                    : gr_xstrdup(cases[i].says);
        ck_assert_msg(strstr(err, says) != NULL, "case %zu: %s", i, err);
        free(says);
        unlink(path);
    }
    const char *path = course_file("due: {1: 2025-02-07T23:59:00-05:00, 5: 2025-03-01T12:00Z}\n"
                                   "grace_minutes: 15\nlate_penalty_percent: 10\nmax_late_days: 3\n");
    gr_course c;
    char err[512] = "";
    ck_assert_msg(gr_course_load(path, &c, err, sizeof err) == 0, "%s", err);
    ck_assert(c.has_due[0] && c.has_due[4] && !c.has_due[1]);
    ck_assert_int_eq((long)c.due[0], 1738990740L);
    ck_assert_int_eq(c.grace_seconds, 900);
    ck_assert_int_eq(c.max_late_days, 3);
    unlink(path);
}
END_TEST

/* ---- a class of submissions ------------------------------------------------------ */

/* What a lab of a submission must score. */
enum { FULL, ZERO, LESS };

typedef struct expect {
    char id[64];
    int lab1, lab5;
    int late1;            /* days late for lab 1 under the test's policy */
} expect;

static char root[4096];          /* the course tree: the test runs from it */
static char tmp[64];             /* the temporary folder of this suite */
static expect ex[64];
static int n_ex;

static void put_file(const char *path, const char *text)
{
    ck_assert_msg(gr_write_file_atomic(path, text, strlen(text)) == 0, "cannot write %s", path);
}

static void copy_file(const char *from, const char *to)
{
    char *text = gr_read_file(from, NULL);
    ck_assert_msg(text != NULL, "cannot read %s", from);
    put_file(to, text);
    free(text);
}

static char *student_dir(const char *id, int lab1, int lab5)
{
    ck_assert_int_lt(n_ex, 64);
    expect *e = &ex[n_ex++];
    memset(e, 0, sizeof *e);
    snprintf(e->id, sizeof e->id, "%s", id);
    e->lab1 = lab1;
    e->lab5 = lab5;
    char *dir = gr_xasprintf("%s/sub/%s", tmp, id);
    ck_assert_int_eq(mkdir(dir, 0755), 0);
    return dir;
}

/* Lab lab's file from src (a labNN.c) into dir, in the labs/ layout or flat. */
static void put_lab(const char *dir, int lab, const char *src, int flat)
{
    const char *ldir = gr_lab_modules[lab - 1]->dir;
    char *to;
    if (flat) {
        to = gr_xasprintf("%s/lab%02d.c", dir, lab);
    } else {
        char *sub = gr_xasprintf("%s/%s", dir, ldir);
        ck_assert_int_eq(mkdir(sub, 0755), 0);
        to = gr_xasprintf("%s/lab%02d.c", sub, lab);
        free(sub);
    }
    copy_file(src, to);
    free(to);
}

static char *solution(int lab)
{
    return gr_xasprintf("%s/solutions/%s/lab%02d.c", root, gr_lab_modules[lab - 1]->dir, lab);
}

static char *stub(int lab)
{
    return gr_xasprintf("%s/data/stubs/lab%02d.c", root, lab);
}

/* Students from the mutants of lab (at most max), the other lab a solution. */
static void add_mutants(int lab, int max)
{
    char *manifest = gr_xasprintf("%s/data/mutants/lab%02d/manifest.yaml", root, lab);
    gr_mutant_set s;
    char err[1024];
    ck_assert_msg(gr_mutants_load(manifest, &s, err, sizeof err) == 0, "%s", err);
    char *sol = solution(lab), *other = solution(lab == 1 ? 5 : 1);
    char *work = gr_xasprintf("%s/mutants", tmp);
    mkdir(work, 0755);
    for (int i = 0; i < s.n && i < max; i++) {
        char *path, id[64];
        ck_assert_msg(gr_mutants_write(&s, &s.mutants[i], sol, work, &path, err, sizeof err) == 0,
                      "%s", err);
        int want = s.mutants[i].verdict == GR_PASSED ? FULL : LESS;
        snprintf(id, sizeof id, "mut%d_%s", lab, s.mutants[i].name);
        char *dir = student_dir(id, lab == 1 ? want : FULL, lab == 5 ? want : FULL);
        put_lab(dir, lab, path, i % 2);
        put_lab(dir, lab == 1 ? 5 : 1, other, i % 2);
        free(dir);
        free(path);
    }
    free(work);
    free(sol);
    free(other);
    free(manifest);
    gr_mutants_free(&s);
}

/* Set path's modification time to t. */
static void set_mtime(const char *path, time_t t)
{
    struct timespec ts[2] = {{t, 0}, {t, 0}};
    ck_assert_int_eq(utimensat(AT_FDCWD, path, ts, 0), 0);
}

static time_t due1;              /* lab 1's due date in the test's policy */

/* The class: 6 solutions in the labs/ layout, 6 flat, 4 stubs, 15 mutants, 5
   broken uploads, 4 late ones, and a file that is no student. */
static void make_class(void)
{
    char *s1 = solution(1), *s5 = solution(5), *t1 = stub(1), *t5 = stub(5);
    char *sub = gr_xasprintf("%s/sub", tmp);
    ck_assert_int_eq(mkdir(sub, 0755), 0);
    for (int i = 0; i < 12; i++) {
        char id[16];
        snprintf(id, sizeof id, "%s%02d", i < 6 ? "sol" : "flat", i);
        char *dir = student_dir(id, FULL, FULL);
        put_lab(dir, 1, s1, i >= 6);
        put_lab(dir, 5, s5, i >= 6);
        free(dir);
    }
    for (int i = 0; i < 4; i++) {
        char id[16];
        snprintf(id, sizeof id, "stub%d", i);
        char *dir = student_dir(id, ZERO, ZERO);
        put_lab(dir, 1, t1, i % 2);
        put_lab(dir, 5, t5, i % 2);
        free(dir);
    }
    add_mutants(1, 11);
    add_mutants(5, 4);

    /* broken uploads: nothing; a README only; code that does not compile; the
       lab folder a link out of the submission; lab 5 alone */
    free(student_dir("broken_empty", ZERO, ZERO));
    char *dir = student_dir("broken_readme", ZERO, ZERO), *p;
    put_file((p = gr_xasprintf("%s/README.txt", dir)), "my labs are attached\n");
    free(p);
    free(dir);
    dir = student_dir("broken_syntax", ZERO, FULL);
    put_file((p = gr_xasprintf("%s/lab01.c", dir)), "#include \"lab01.h\"\nint lab_dot_scores(\n");
    free(p);
    put_lab(dir, 5, s5, 1);
    free(dir);
    dir = student_dir("broken_link", ZERO, FULL);
    char *target = gr_xasprintf("%s/solutions/lab01-scores", root);
    ck_assert_int_eq(symlink(target, (p = gr_xasprintf("%s/lab01-scores", dir))), 0);
    free(p);
    free(target);
    put_lab(dir, 5, s5, 0);
    free(dir);
    dir = student_dir("only_lab5", ZERO, FULL);
    put_lab(dir, 5, s5, 1);
    free(dir);
    put_file((p = gr_xasprintf("%s/submissions.zip", sub)), "PK not a student\n");
    free(p);

    /* lateness for lab 1 (grace 60 minutes, 10% a day, at most 3 days), from
       the instructor's times file: 2 days 1 hour late: 3 days; 30 minutes
       late: on time; 1 day 2 hours late: 2 days; 5 days: 0. late_forged's
       own submission_metadata.json claims an early time and is never read */
    due1 = time(NULL) - 30 * 86400;
    static const struct { const char *id; long after; int days; } late[] = {
        {"late_file", 2 * 86400 + 3600, 3},
        {"late_grace", 30 * 60, 0},
        {"late_meta", 86400 + 7200, 2},
        {"late_toolate", 5 * 86400, 5},
        {"late_forged", 86400 + 60, 2},
    };
    gr_strbuf times = {0};
    for (size_t i = 0; i < sizeof late / sizeof late[0]; i++) {
        dir = student_dir(late[i].id, FULL, FULL);
        ex[n_ex - 1].late1 = late[i].days;
        put_lab(dir, 1, s1, 1);
        put_lab(dir, 5, s5, 1);
        time_t when = due1 + late[i].after;
        struct tm tm;
        char stamp[64];
        strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&when, &tm));
        gr_sb_printf(&times, "%s: %s\n", late[i].id, stamp);
        if (strcmp(late[i].id, "late_forged") == 0) {
            put_file((p = gr_xasprintf("%s/submission_metadata.json", dir)),
                     "{\"created_at\": \"2000-01-01T00:00:00Z\"}\n");
            free(p);
        }
        set_mtime((p = gr_xasprintf("%s/lab01.c", dir)), due1 - 86400);   /* never read */
        free(p);
        free(dir);
    }
    put_file((p = gr_xasprintf("%s/times.yaml", tmp)), times.s);
    free(p);
    free(times.s);
    free(sub);
    free(s1);
    free(s5);
    free(t1);
    free(t5);
}

static void setup(void)
{
    ck_assert_ptr_nonnull(getcwd(root, sizeof root));
    strcpy(tmp, "/tmp/attnlab-batch-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmp));
    n_ex = 0;
    make_class();
    struct tm tm;
    gmtime_r(&due1, &tm);
    char stamp[64], *text;
    strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", &tm);
    text = gr_xasprintf("due: {1: %s}\ngrace_minutes: 60\nlate_penalty_percent: 10\n"
                        "max_late_days: 3\n", stamp);
    put_file(gr_xasprintf("%s/course.yaml", tmp), text);
    free(text);
    put_file(gr_xasprintf("%s/roster.yaml", tmp),
             "students:\n"
             "  - {id: sol00, name: \"Lovelace, Ada\", email: ada@example.edu}\n"
             "  - {id: absent, name: \"Hopper, \\\"Amazing\\\" Grace\"}\n");
}

static void teardown(void)
{
    char *cmd = gr_xasprintf("rm -rf '%s'", tmp);
    ck_assert_int_eq(system(cmd), 0);
    free(cmd);
}

/* The built attnlab beside this test program's build folder. */
static char *attnlab(void)
{
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    ck_assert_int_gt(n, 0);
    exe[n] = '\0';
    *strrchr(exe, '/') = '\0';                 /* .../grader/tests */
    return gr_xasprintf("%s/../../attnlab", exe);
}

/* Start `attnlab batch` into out with stdout and stderr to out.log; its pid. */
static pid_t start_batch(const char *out)
{
    char *prog = attnlab(), *sub = gr_xasprintf("%s/sub", tmp);
    char *course = gr_xasprintf("%s/course.yaml", tmp), *roster = gr_xasprintf("%s/roster.yaml", tmp);
    char *times = gr_xasprintf("%s/times.yaml", tmp);
    char *log = gr_xasprintf("%s.log", out);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(fd, 1);
        dup2(fd, 2);
        setenv("ATTNLAB_SECRET", "batch-test-secret", 1);
        execl(prog, prog, "batch", sub, "--out", out, "--lab", "1,5", "--jobs", "2",
              "--course", course, "--roster", roster, "--times", times, (char *)NULL);
        _exit(127);
    }
    free(prog);
    free(sub);
    free(course);
    free(roster);
    free(times);
    free(log);
    return pid;
}

static int wait_status(pid_t pid)
{
    int st;
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    return st;
}

/* How many students of out have a results.json. */
static int results_in(const char *out)
{
    char *st = gr_xasprintf("%s/students", out);
    DIR *d = opendir(st);
    int n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        char *p = gr_xasprintf("%s/%s/results.json", st, e->d_name);
        n += access(p, F_OK) == 0;
        free(p);
    }
    if (d)
        closedir(d);
    free(st);
    return n;
}

/* The cell of the gradebook row of id in column col (0-based), copied. */
static char *cell(const char *csv, const char *id, int col)
{
    char *key = gr_xasprintf("\r\n\"%s\",", id);
    const char *row = strstr(csv, key);
    ck_assert_msg(row != NULL, "no gradebook row for %s", id);
    row += 2;
    free(key);
    for (int c = 0; c < col; c++) {
        if (*row == '"')                       /* a quoted cell: to its closing quote */
            for (row++; !(row[0] == '"' && row[1] != '"'); row += row[0] == '"' ? 2 : 1)
                ;
        row = strchr(row, ',');
        ck_assert_ptr_nonnull(row);
        row++;
    }
    return gr_xasprintf("%.*s", (int)strcspn(row, ",\r"), row);
}

static double num_cell(const char *csv, const char *id, int col)
{
    char *s = cell(csv, id, col);
    double v = atof(s);
    free(s);
    return v;
}

static void check_score(const char *id, const char *lab, double got, int want, double max)
{
    if (want == FULL)
        ck_assert_msg(got == max, "%s %s: %g, expected full marks %g", id, lab, got, max);
    else if (want == ZERO)
        ck_assert_msg(got == 0, "%s %s: %g, expected 0", id, lab, got);
    else
        ck_assert_msg(got >= 0 && got < max, "%s %s: %g, expected less than %g", id, lab, got, max);
}

/* Columns: id, name, email, lab01 raw, days late, lab01, lab05 raw, days late,
   lab05, total raw, total. */
START_TEST(a_class_grades_into_the_right_gradebook_and_resumes_after_kill)
{
    ck_assert_int_ge(n_ex, 30);
    char *out1 = gr_xasprintf("%s/out1", tmp), *out2 = gr_xasprintf("%s/out2", tmp);
    int st = wait_status(start_batch(out1));
    char *log = gr_read_file(gr_xasprintf("%s.log", out1), NULL);
    ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "batch failed:\n%s", log);
    ck_assert_ptr_nonnull(strstr(log, "skipped submissions.zip (not a folder)"));
    char *csv = gr_read_file(gr_xasprintf("%s/gradebook.csv", out1), NULL);
    ck_assert_ptr_nonnull(csv);
    const char *header = "Student ID,Name,Email,lab01-scores raw,lab01-scores days late,"
                         "lab01-scores,lab05-masking raw,lab05-masking days late,lab05-masking,"
                         "Total raw,Total\r\n";
    ck_assert_msg(strncmp(csv, header, strlen(header)) == 0, "header: %.200s", csv);
    double max1 = num_cell(csv, "sol00", 3), max5 = num_cell(csv, "sol00", 6);
    /* the rubric's points summed in binary (lab 5 has tests of 0.1 and 0.2) against
       the gradebook's exact decimals */
    ck_assert_msg(fabs(max1 - rubric_points(root, 1, 0, NULL)) < 1e-9 &&
                  fabs(max5 - rubric_points(root, 5, 0, NULL)) < 1e-9, "points possible %g and %g",
                  max1, max5);
    char *possible = gr_xasprintf("\r\nPoints possible,,,%g,,%g,%g,,%g,%g,%g\r\n", max1, max1,
                                  max5, max5, max1 + max5, max1 + max5);
    ck_assert_msg(strstr(csv, possible), "%s\nhas no %s", csv, possible);
    free(possible);
    for (int i = 0; i < n_ex; i++) {
        const expect *e = &ex[i];
        double r1 = num_cell(csv, e->id, 3), a1 = num_cell(csv, e->id, 5);
        double r5 = num_cell(csv, e->id, 6), a5 = num_cell(csv, e->id, 8);
        check_score(e->id, "lab 1", r1, e->lab1, max1);
        check_score(e->id, "lab 5", r5, e->lab5, max5);
        ck_assert_msg(num_cell(csv, e->id, 4) == e->late1, "%s: days late %g, expected %d",
                      e->id, num_cell(csv, e->id, 4), e->late1);
        double keep = e->late1 > 3 ? 0 : 1 - 0.1 * e->late1;
        ck_assert_msg(fabs(a1 - r1 * keep) < 0.006, "%s: lab 1 adjusted %g from %g", e->id, a1, r1);
        ck_assert(a5 == r5);
        ck_assert_msg(fabs(num_cell(csv, e->id, 9) - (r1 + r5)) < 0.006, "%s: total raw", e->id);
        ck_assert_msg(fabs(num_cell(csv, e->id, 10) - (a1 + a5)) < 0.006, "%s: total", e->id);
        /* what the student is sent opens with the gradebook's total, late or not */
        char *total = cell(csv, e->id, 10);
        char *first = gr_xasprintf("Final score: %s/22\n", total);
        char *fbt = gr_read_file(gr_xasprintf("%s/students/%s/feedback.txt", out1, e->id), NULL);
        ck_assert_msg(fbt && strncmp(fbt, first, strlen(first)) == 0, "%s: feedback starts "
                      "%.80s, gradebook total %s", e->id, fbt ? fbt : "(none)", total);
        ck_assert_msg(!e->late1 == !strstr(fbt, "\nLate penalty: lab01-scores handed in "),
                      "%s: %d days late, feedback %.300s", e->id, e->late1, fbt);
        free(total);
        free(first);
        free(fbt);
    }
    /* the roster: names with commas and quotes quoted, a student without a
       submission a row of empty cells */
    ck_assert_ptr_nonnull(strstr(csv, "\r\n\"sol00\",\"Lovelace, Ada\",\"ada@example.edu\",10,0,10,"));
    ck_assert_ptr_nonnull(strstr(csv, "\r\n\"absent\",\"Hopper, \"\"Amazing\"\" Grace\",,,,,,,,,\r\n"));

    /* misconceptions are data in results.json, and ranked in the report */
    char *js = gr_read_file(gr_xasprintf("%s/students/mut1_inv_dk/results.json", out1), NULL);
    ck_assert_ptr_nonnull(js);
    ck_assert_ptr_nonnull(strstr(js, "\"verdict\": \"wrong answer\",\n        \"misconception\": \"inv_dk\"\n"));
    char *md = gr_read_file(gr_xasprintf("%s/report.md", out1), NULL);
    ck_assert_ptr_nonnull(md);
    ck_assert_ptr_nonnull(strstr(md, "# Class report\n"));
    ck_assert_ptr_nonnull(strstr(md, gr_xasprintf("Hand-in times: from %s/times.yaml (5 of %d "
                                                  "students have one", tmp, n_ex)));
    ck_assert_ptr_nonnull(strstr(md, "| inv\\_dk |"));
    ck_assert_ptr_nonnull(strstr(md, "labs/lab01-scores/README.md"));
    ck_assert_ptr_nonnull(strstr(md, "## Tests most often failed"));
    ck_assert_ptr_nonnull(strstr(md, gr_xasprintf("(%d in this run, 0 read back", n_ex)));
    char *fb = gr_read_file(gr_xasprintf("%s/students/stub0/feedback.txt", out1), NULL);
    ck_assert_ptr_nonnull(fb);
    ck_assert_ptr_nonnull(strstr(fb, "not started"));

    /* killed with SIGKILL part-way, then run again: the same gradebook */
    pid_t pid = start_batch(out2);
    for (int i = 0; i < 6000 && results_in(out2) < 6; i++)
        usleep(10000);
    ck_assert_int_eq(kill(pid, SIGKILL), 0);
    wait_status(pid);
    int before = results_in(out2);
    ck_assert_msg(before >= 6 && before < n_ex, "%d graded when killed", before);
    char *gb2 = gr_xasprintf("%s/gradebook.csv", out2);
    ck_assert_int_eq(access(gb2, F_OK), -1);   /* no gradebook from a run that did not finish */
    st = wait_status(start_batch(out2));
    ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    char *csv2 = gr_read_file(gb2, NULL);
    ck_assert_ptr_nonnull(csv2);
    ck_assert_str_eq(csv2, csv);
    char *md2 = gr_read_file(gr_xasprintf("%s/report.md", out2), NULL);
    int now = -1, back = -1;
    const char *at = strstr(md2, "students graded (");
    ck_assert_ptr_nonnull(at);
    ck_assert_int_eq(sscanf(at, "students graded (%d in this run, %d read back", &now, &back), 2);
    ck_assert_msg(back >= before - 2 && now + back == n_ex, "%d now, %d read back, %d before",
                  now, back, before);

    /* run again with nothing changed: every grade read back, none made */
    st = wait_status(start_batch(out2));
    ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    md2 = gr_read_file(gr_xasprintf("%s/report.md", out2), NULL);
    ck_assert_ptr_nonnull(strstr(md2, gr_xasprintf("(0 in this run, %d read back", n_ex)));

    /* a student hands in lab 1 again (the stub becomes the solution): only that
       student is graded again, and says why; the gradebook has the new score */
    char *src = gr_xasprintf("%s/sub/stub0/lab01-scores/lab01.c", tmp);
    if (access(src, F_OK) != 0)
        src = gr_xasprintf("%s/sub/stub0/lab01.c", tmp);
    char *sol = gr_read_file(gr_xasprintf("%s/solutions/lab01-scores/lab01.c", root), NULL);
    ck_assert_ptr_nonnull(sol);
    ck_assert_int_eq(gr_write_file_atomic(src, sol, strlen(sol)), 0);
    st = wait_status(start_batch(out2));
    log = gr_read_file(gr_xasprintf("%s.log", out2), NULL);
    ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "batch failed:\n%s", log);
    ck_assert_msg(strstr(log, "regrading stub0: its files, a rubric or contract header, the "
                              "secret or attnlab itself changed since it was graded") != NULL,
                  "%s", log);
    md2 = gr_read_file(gr_xasprintf("%s/report.md", out2), NULL);
    ck_assert_ptr_nonnull(strstr(md2, gr_xasprintf("(1 in this run, %d read back", n_ex - 1)));
    csv2 = gr_read_file(gb2, NULL);
    ck_assert_msg(num_cell(csv2, "stub0", 3) == max1, "stub0 lab 1 after handing in: %g",
                  num_cell(csv2, "stub0", 3));
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("batch");
    TCase *tc = tcase_create("policy");
    tcase_add_test(tc, times_parse_with_their_offsets);
    tcase_add_test(tc, lateness_and_penalty);
    tcase_add_test(tc, course_yaml_errors_name_the_place);
    suite_add_tcase(s, tc);
    TCase *cls = tcase_create("class");
    tcase_add_checked_fixture(cls, setup, teardown);
    tcase_set_timeout(cls, 600);
    tcase_add_test(cls, a_class_grades_into_the_right_gradebook_and_resumes_after_kill);
    suite_add_tcase(s, cls);
    return s;
}
