/* test_shards.c: attnlab batch --shard K/N and attnlab merge, end to end.
 *
 * A class of lab 1 (solutions in both layouts, one found by a forgiving
 * rule, a stub, a mutant, an empty folder, a late hand-in, a roster student
 * with no folder) is graded four ways at once: as three shards, each its own
 * process as on three machines, and as one batch. The shards merged give the
 * single run's class files byte for byte (gradebook.csv, tests.csv,
 * report.md, report.html, clusters.json, histogram.dat, run.txt), in any order. Bad --shard specs, and shards that are not one run's
 * (another secret, rubric or course policy, a slice missing or given twice, a
 * folder that is no batch output, another N) are refused, leaving nothing.
 * A shard killed part-way through a new run is refused until it is run to the
 * end; the shards' regrades.log are joined in time order. merge --secret-file
 * reads the secret the shards were graded with from a file.
 * A Gradescope export whose group of four lands in more than one shard merges
 * to the single run's gradebook, every member with the group's grade.
 */
#include <check.h>
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "class/run.h"
#include "class/shard.h"
#include "base/labmod.h"
#include "engine/mutants.h"
#include "spawn.h"
#include "base/util.h"

Suite *test_suite(void);

static char root[4096];          /* the course tree: the test runs from it */
static char tmp[64];             /* this suite's temporary folder */

/* The class's folders (lab 1 each, as put_lab says), and the roster's absent one. */
static const char *const ids[] = {"ada", "alan", "barbara", "claude", "donald", "edsger",
                                  "frances", "grace", "john", "ken"};
#define N_IDS ((int)(sizeof ids / sizeof ids[0]))

static void put_file(const char *path, const char *text)
{
    ck_assert_msg(gr_write_file_atomic(path, text, strlen(text)) == 0, "cannot write %s", path);
}

static char *in_tmp(const char *name)
{
    return gr_xasprintf("%s/%s", tmp, name);
}

/* Run attnlab with args to the end; its exit status, its output in *out (malloc'd). */
static int run(char **out, const char *const *args)
{
    char *log = in_tmp("run.log");
    int rc = spawn_run(log, "shards-test-secret", args, out);
    free(log);
    return rc;
}

/* `attnlab batch` of the class into out (shard "K/N", or NULL: the whole class). */
static pid_t start_batch(const char *out, const char *shard, const char *secret, const char *course)
{
    char *sub = in_tmp("sub"), *roster = in_tmp("roster.yaml"), *times = in_tmp("times.yaml");
    char *log = gr_xasprintf("%s.log", out);
    const char *args[] = {"batch", sub, "--out", out, "--lab", "1", "--jobs", shard ? "1" : "2",
                          "--roster", roster, "--times", times, "--course", course,
                          shard ? "--shard" : NULL, shard, NULL};
    pid_t pid = spawn(log, secret, args);
    free(sub);
    free(roster);
    free(times);
    free(log);
    return pid;
}

static int by_text(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Whether the two files are the same bytes (both readable). */
static int same_file(const char *a, const char *b)
{
    size_t la = 0, lb = 0;
    char *x = gr_read_file(a, &la), *y = gr_read_file(b, &lb);
    int same = x && y && la == lb && memcmp(x, y, la) == 0;
    free(x);
    free(y);
    return same;
}

static int exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

/* Lab 1's solution as the student id's folder: the labs/ layout, flat, or
   flat in another case (found by a forgiving rule). */
static void put_lab(const char *id, const char *src, const char *rel)
{
    char *dir = gr_xasprintf("%s/sub/%s", tmp, id);
    ck_assert_int_eq(mkdir(dir, 0755), 0);
    if (strchr(rel, '/')) {
        char *sub = gr_xasprintf("%s/lab01-scores", dir);
        ck_assert_int_eq(mkdir(sub, 0755), 0);
        free(sub);
    }
    char *text = gr_read_file(src, NULL), *to = gr_xasprintf("%s/%s", dir, rel);
    ck_assert_msg(text != NULL, "cannot read %s", src);
    put_file(to, text);
    free(text);
    free(to);
    free(dir);
}

/* The first of lab 1's bundled mutants, written beside the class; its path. */
static char *a_mutant(const char *sol)
{
    char *manifest = gr_xasprintf("%s/data/mutants/lab01/manifest.yaml", root), *path = NULL;
    char *work = in_tmp("mutants"), err[1024];
    gr_mutant_set s;
    ck_assert_msg(gr_mutants_load(manifest, &s, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(mkdir(work, 0755), 0);
    ck_assert_msg(gr_mutants_write(&s, &s.mutants[0], sol, work, &path, err, sizeof err) == 0,
                  "%s", err);
    gr_mutants_free(&s);
    free(work);
    free(manifest);
    return path;
}

/* The class, its roster, hand-in times and a late policy for lab 1. */
static void make_class(void)
{
    char *sol = gr_xasprintf("%s/solutions/lab01-scores/lab01.c", root);
    char *stub = gr_xasprintf("%s/data/stubs/lab01.c", root), *sub = in_tmp("sub");
    char *mut = a_mutant(sol);
    ck_assert_int_eq(mkdir(sub, 0755), 0);
    for (int i = 0; i < N_IDS; i++) {
        const char *id = ids[i];
        if (strcmp(id, "edsger") == 0)
            put_lab(id, stub, "lab01.c");
        else if (strcmp(id, "frances") == 0)
            put_lab(id, mut, "lab01-scores/lab01.c");
        else if (strcmp(id, "grace") == 0)
            put_lab(id, sol, "Lab01.c");
        else if (strcmp(id, "john") == 0) {
            char *d = gr_xasprintf("%s/%s", sub, id);      /* empty */
            ck_assert_int_eq(mkdir(d, 0755), 0);
            free(d);
        } else
            put_lab(id, sol, i % 2 ? "lab01.c" : "lab01-scores/lab01.c");
    }
    time_t due = time(NULL) - 20 * 86400, late = due + 86400 + 3600;   /* 2 days late */
    char due_s[64], late_s[64], *p;
    struct tm tm;
    strftime(due_s, sizeof due_s, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&due, &tm));
    strftime(late_s, sizeof late_s, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&late, &tm));
    char *text = gr_xasprintf("due: {1: %s}\ngrace_minutes: 10\nlate_penalty_percent: 10\n", due_s);
    put_file((p = in_tmp("course.yaml")), text);
    free(p);
    free(text);
    text = gr_xasprintf("due: {1: %s}\ngrace_minutes: 10\nlate_penalty_percent: 25\n", due_s);
    put_file((p = in_tmp("course2.yaml")), text);
    free(p);
    free(text);
    text = gr_xasprintf("ken: %s\nada: %s\n", late_s, due_s);
    put_file((p = in_tmp("times.yaml")), text);
    free(p);
    free(text);
    put_file((p = in_tmp("roster.yaml")),
             "students:\n  - {id: ada, name: \"Lovelace, Ada\", email: ada@example.edu}\n"
             "  - {id: absent, name: \"=cmd|' /C calc'!A0\"}\n");
    free(p);
    free(sol);
    free(stub);
    free(sub);
    free(mut);
}

/* The class graded four ways at once: three shards and the whole. */
static void grade_class(void)
{
    ck_assert_ptr_nonnull(getcwd(root, sizeof root));
    strcpy(tmp, "/tmp/attnlab-shards-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmp));
    make_class();
    char *course = in_tmp("course.yaml"), *one = in_tmp("one"), *out[3];
    pid_t pid[4];
    for (int k = 0; k < 3; k++) {
        char spec[8];
        snprintf(spec, sizeof spec, "%d/3", k + 1);
        out[k] = gr_xasprintf("%s/sh%d", tmp, k + 1);
        pid[k] = start_batch(out[k], spec, "shards-test-secret", course);
    }
    pid[3] = start_batch(one, NULL, "shards-test-secret", course);
    for (int k = 0; k < 4; k++) {
        char *log = gr_xasprintf("%s.log", k < 3 ? out[k] : one), *text;
        int rc = spawn_exit(pid[k]);
        ck_assert_msg(rc == 0, "batch %d exited %d: %s", k, rc, (text = gr_read_file(log, NULL)));
        free(log);
    }
    for (int k = 0; k < 3; k++)
        free(out[k]);
    free(one);
    free(course);
}

static void remove_class(void)
{
    char *cmd = gr_xasprintf("rm -rf '%s'", tmp);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", tmp);
    free(cmd);
}

/* ---- the slicing rule ------------------------------------------------------------------ */

START_TEST(every_student_is_in_one_shard_by_their_id_alone)
{
    int count[4] = {0};
    for (int i = 0; i < N_IDS; i++) {
        int k = gr_shard_of(ids[i], 3);
        ck_assert(k >= 1 && k <= 3);
        count[k]++;
        ck_assert_int_eq(gr_shard_of(ids[i], 1), 1);
        ck_assert(gr_shard_has(k, 3, ids[i]) && !gr_shard_has(k % 3 + 1, 3, ids[i]));
    }
    /* the test class has a student in every shard, or the merge would test less */
    ck_assert(count[1] && count[2] && count[3]);
    int k, n;
    char err[256];
    ck_assert(gr_shard_parse("2/4", &k, &n, err, sizeof err) == 0 && k == 2 && n == 4);
    static const char *const bad[] = {"0/3", "4/3", "1/0", "3", "a/b", "1/3x", "-1/3", "1/-3",
                                      "", "/3", "1/", "1//3", " 1/3", "1/100001"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(gr_shard_parse(bad[i], &k, &n, err, sizeof err) == -1 &&
                      strstr(err, "--shard") != NULL, "'%s' read as a shard", bad[i]);
}
END_TEST

/* ---- batch and merge ---------------------------------------------------------------------- */

START_TEST(three_shards_merged_are_the_single_run_byte_for_byte)
{
    static const char *const files[] = {"gradebook.csv", "tests.csv", "report.md", "report.html",
                                        "clusters.json", "histogram.dat", "run.txt"};
    static const char *const orders[2][3] = {{"sh1", "sh2", "sh3"}, {"sh3", "sh1", "sh2"}};
    for (int o = 0; o < 2; o++) {
        char *sh[3], *out = gr_xasprintf("%s/merged%d", tmp, o), *text;
        for (int k = 0; k < 3; k++)
            sh[k] = in_tmp(orders[o][k]);
        const char *args[] = {"merge", sh[0], sh[1], sh[2], "--out", out, NULL};
        int rc = run(&text, args);
        ck_assert_msg(rc == 0, "merge exited %d: %s", rc, text);
        ck_assert_msg(strstr(text, "Class report") != NULL, "%s", text);
        free(text);
        for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
            char *a = gr_xasprintf("%s/one/%s", tmp, files[f]);
            char *b = gr_xasprintf("%s/%s", out, files[f]);
            ck_assert_msg(same_file(a, b), "%s differs from %s", b, a);
            free(a);
            free(b);
        }
        for (int i = 0; i < N_IDS; i++) {
            char *p = gr_xasprintf("%s/students/%s/results.json", out, ids[i]);
            ck_assert_msg(exists(p), "%s is missing", p);
            free(p);
        }
        for (int k = 0; k < 3; k++)
            free(sh[k]);
        free(out);
    }
    /* a shard writes no class files: only the merge knows the class */
    for (int k = 1; k <= 3; k++) {
        char *p = gr_xasprintf("%s/sh%d/gradebook.csv", tmp, k);
        ck_assert_msg(!exists(p), "%s written by a shard", p);
        free(p);
    }
    /* the gradebook holds what the class is: late, forgiven, roster, empty */
    char *p = in_tmp("one/gradebook.csv"), *csv = gr_read_file(p, NULL);
    ck_assert_ptr_nonnull(csv);
    ck_assert_msg(strstr(csv, "\"ken\",") && strstr(csv, "\"Lovelace, Ada\"") &&
                  strstr(csv, "\"absent\",\"'=cmd"), "%s", csv);
    free(csv);
    free(p);
}
END_TEST

/* merge --secret-file: the file's secret (a line end after it, as an editor
   saves it) is the ATTNLAB_SECRET the shards were graded with; a file that is
   missing, empty or another secret, or a secret given both ways, is refused
   before anything is written. */
START_TEST(the_secret_is_read_from_a_file)
{
    static const struct { const char *text, *env, *says; } cases[] = {
        {NULL, "", "cannot read the secret"},
        {"\n", "", "is empty; put the course's secret in it"},
        {"another-secret\n", "", "not the secret the shards were graded with"},
        {"shards-test-secret\n", "shards-test-secret", "ATTNLAB_SECRET and --secret-file"},
        {"shards-test-secret\r\n", "", NULL},
    };
    char *file = in_tmp("secret.txt"), *out = in_tmp("merged-secret-file");
    char *sh[3] = {in_tmp("sh1"), in_tmp("sh2"), in_tmp("sh3")};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        unlink(file);
        if (cases[i].text)
            put_file(file, cases[i].text);
        const char *args[] = {"merge", sh[0], sh[1], sh[2], "--out", out, "--secret-file", file,
                              "-q", NULL};
        char *text, *log = in_tmp("run.log");
        int rc = spawn_run(log, cases[i].env, args, &text);
        if (cases[i].says) {
            ck_assert_msg(rc == 2 && strstr(text, cases[i].says), "case %zu: exit %d: %s", i, rc,
                          text);
            ck_assert_msg(!exists(out), "case %zu: a refused merge wrote %s", i, out);
        } else {
            ck_assert_msg(rc == 0, "exit %d: %s", rc, text);
            char *a = in_tmp("one/gradebook.csv"), *b = gr_xasprintf("%s/gradebook.csv", out);
            ck_assert_msg(same_file(a, b), "%s differs from %s", b, a);
            free(a);
            free(b);
        }
        free(text);
        free(log);
    }
    for (int k = 0; k < 3; k++)
        free(sh[k]);
    free(file);
    free(out);
}
END_TEST

START_TEST(bad_shard_specs_are_refused)
{
    static const char *const bad[] = {"0/3", "4/3", "1/0", "junk", "1/3/5"};
    char *sub = in_tmp("sub"), *out = in_tmp("badspec");
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *text;
        const char *args[] = {"batch", sub, "--out", out, "--lab", "1", "--shard", bad[i], NULL};
        int rc = run(&text, args);
        ck_assert_msg(rc == 2 && strstr(text, "--shard"), "--shard %s: exit %d: %s", bad[i], rc,
                      text);
        ck_assert_msg(!exists(out), "--shard %s made %s", bad[i], out);
        free(text);
    }
    free(sub);
    free(out);
}
END_TEST

/* A copy of shard dir as name, its run.txt line starting with key replaced by line. */
/* A copy of the output tmp/dir as tmp/name (its path). */
static char *copied(const char *dir, const char *name)
{
    char *copy = in_tmp(name), *cmd = gr_xasprintf("cp -a '%s/%s' '%s'", tmp, dir, copy);
    ck_assert_int_eq(system(cmd), 0);
    free(cmd);
    return copy;
}

static char *forged(const char *dir, const char *name, const char *key, const char *line)
{
    char *copy = copied(dir, name);
    char *path = gr_xasprintf("%s/run.txt", copy), *text = gr_read_file(path, NULL);
    ck_assert_ptr_nonnull(text);
    gr_strbuf b = {0};
    char *save = NULL;
    for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
        gr_sb_printf(&b, "%s\n", strncmp(l, key, strlen(key)) == 0 ? line : l);
    put_file(path, b.s);
    free(b.s);
    free(text);
    free(path);
    return copy;
}

/* merge of the folders (names in tmp, NULL-terminated) is refused saying says,
   and leaves no output or temporary folder. */
static void refused(const char *says, const char *const *names)
{
    char *out = in_tmp("refused"), *text, *dirs[12];
    const char *args[16] = {"merge"};
    int n = 1;
    for (; *names && n < 12; names++, n++)
        args[n] = dirs[n] = gr_xasprintf("%s/%s", tmp, *names);
    args[n++] = "--out";
    args[n++] = out;
    args[n] = NULL;
    int rc = run(&text, args);
    ck_assert_msg(rc == 2 && strstr(text, says), "wanted exit 2 saying \"%s\": exit %d: %s", says,
                  rc, text);
    ck_assert_msg(!exists(out), "a refused merge wrote %s", out);
    DIR *d = opendir(tmp);
    for (struct dirent *e; d && (e = readdir(d)) != NULL;)
        ck_assert_msg(!strstr(e->d_name, ".merge-"), "a refused merge left %s", e->d_name);
    closedir(d);
    for (int i = 1; i < n - 2; i++)
        free(dirs[i]);
    free(text);
    free(out);
}

START_TEST(shards_of_other_runs_are_refused)
{
    /* shard 2 again under another secret and another course policy: really graded */
    char *other = in_tmp("sh2-other"), *course2 = in_tmp("course2.yaml");
    ck_assert_int_eq(spawn_exit(start_batch(other, "2/3", "another-secret", course2)), 0);
    refused("different secrets", (const char *const[]){"sh1", "sh2-other", "sh3", NULL});
    /* the same secret, another course policy: its secret line made shard 2's */
    char *sh2 = in_tmp("sh2/run.txt"), *text = gr_read_file(sh2, NULL), *s, *o2;
    ck_assert_ptr_nonnull(text);
    s = strstr(text, "\nsecret ");
    ck_assert_ptr_nonnull(s);
    char *line = gr_xasprintf("%.*s", (int)strcspn(s + 1, "\n"), s + 1);
    free(sh2);
    free(forged("sh2-other", "sh2-course", "secret ", line));
    refused("different course policies", (const char *const[]){"sh1", "sh2-course", "sh3", NULL});
    free(forged("sh2", "sh2-rubric", "rubrics ", "rubrics 0123456789abcdef0123456789abcdef"));
    refused("rubrics", (const char *const[]){"sh1", "sh2-rubric", "sh3", NULL});
    refused("shard 2/3 missing", (const char *const[]){"sh1", "sh3", NULL});
    refused("both shard 1/3", (const char *const[]){"sh1", "sh2", "sh1", "sh3", NULL});
    refused("sub is not the output of attnlab batch", (const char *const[]){"sh1", "sh2", "sub", NULL});
    refused("every shard of one class is cut into the same N", (const char *const[]){"one", "sh1", NULL});
    /* an output folder that holds something is never written over */
    char *full = in_tmp("full"), *keep = in_tmp("full/keep.txt"), *out;
    ck_assert_int_eq(mkdir(full, 0755), 0);
    put_file(keep, "mine\n");
    const char *args[] = {"merge", (s = in_tmp("sh1")), (sh2 = in_tmp("sh2")), (o2 = in_tmp("sh3")),
                          "--out", full, NULL};
    ck_assert_int_eq(run(&out, args), 2);
    ck_assert_msg(strstr(out, "not an empty folder") && same_file(keep, keep), "%s", out);
    free(out);
    free(s);
    free(sh2);
    free(o2);
    free(full);
    free(keep);
    free(line);
    free(text);
    free(other);
    free(course2);
}
END_TEST

START_TEST(a_shard_stopped_part_way_is_refused)
{
    /* run shard 1 again from scratch over a copy of its output, and kill it once
       it has started (its run.txt is gone): what is left is no batch output */
    char *dir = copied("sh1", "stopped"), *course = in_tmp("course.yaml");
    char *run_txt = gr_xasprintf("%s/run.txt", dir), *log = gr_xasprintf("%s.log", dir);
    char *sub = in_tmp("sub"), *roster = in_tmp("roster.yaml"), *times = in_tmp("times.yaml");
    const char *args[] = {"batch", sub, "--out", dir, "--lab", "1", "--jobs", "1", "--roster",
                          roster, "--times", times, "--course", course, "--shard", "1/3",
                          "--restart", NULL};
    pid_t pid = spawn(log, "shards-test-secret", args);
    for (int i = 0; i < 6000 && exists(run_txt); i++)
        usleep(10000);                  /* at most a minute for the run to start */
    ck_assert_msg(!exists(run_txt), "the run kept its old run.txt");
    kill(pid, SIGKILL);
    ck_assert_int_eq(spawn_exit(pid), -1);
    refused("stopped is not the output of attnlab batch", (const char *const[]){"stopped", "sh2", "sh3", NULL});
    free(run_txt);
    free(log);
    free(sub);
    free(roster);
    free(times);
    free(course);
    free(dir);
}
END_TEST

START_TEST(the_shards_regrade_logs_merge_in_time_order)
{
    static const char head[] = "when\tstudent\tlab\ttest\told\tnew\treason\tchange\n";
    static const char *const logs[3] = {
        "2026-03-02T10:00:00Z\tada\tlab01-scores\tdot_small\t0\t1\ttypo\t-\n"
        "2026-03-04T09:00:00Z\tken\tlab01-scores\tdot_small\t1\t1\tcheck\t-\n",
        NULL,
        "2026-03-03T08:00:00Z\tgrace\tlab01-scores\tscaled\t2\t3\tpoints\tpoints 2 -> 3\n"};
    char *dirs[3], *out = in_tmp("logged"), *text, *p;
    for (int k = 0; k < 3; k++) {
        char from[8], to[8];
        snprintf(from, sizeof from, "sh%d", k + 1);
        snprintf(to, sizeof to, "lg%d", k + 1);
        dirs[k] = copied(from, to);
        if (logs[k]) {
            char *text_k = gr_xasprintf("%s%s", head, logs[k]);
            put_file((p = gr_xasprintf("%s/regrades.log", dirs[k])), text_k);
            free(p);
            free(text_k);
        }
    }
    put_file((p = gr_xasprintf("%s/rubrics.state", dirs[0])), "attnlab rubrics.state 1\n");
    free(p);
    const char *args[] = {"merge", dirs[2], dirs[0], dirs[1], "--out", out, "-q", NULL};
    ck_assert_msg(run(&text, args) == 0, "%s", text);
    free(text);
    char *log = gr_read_file((p = gr_xasprintf("%s/regrades.log", out)), NULL);
    free(p);
    char *want = gr_xasprintf("%s%s%s%s", head,
                              "2026-03-02T10:00:00Z\tada\tlab01-scores\tdot_small\t0\t1\ttypo\t-\n",
                              logs[2],
                              "2026-03-04T09:00:00Z\tken\tlab01-scores\tdot_small\t1\t1\tcheck\t-\n");
    ck_assert_msg(log && strcmp(log, want) == 0, "regrades.log: %s", log ? log : "(none)");
    char *state = gr_read_file((p = gr_xasprintf("%s/rubrics.state", out)), NULL);
    ck_assert_msg(state && strcmp(state, "attnlab rubrics.state 1\n") == 0, "rubrics.state");
    free(p);
    free(state);
    free(want);
    free(log);
    for (int k = 0; k < 3; k++)
        free(dirs[k]);
    free(out);
}
END_TEST

/* The lines of the regrades.log at path without their time (malloc'd), sorted. */
static char *log_lines(const char *path)
{
    char *text = gr_read_file(path, NULL), *save = NULL, *lines[64];
    int n = 0;
    ck_assert_msg(text != NULL, "no %s", path);
    for (char *l = strtok_r(text, "\n", &save); l && n < 64; l = strtok_r(NULL, "\n", &save))
        lines[n++] = strchr(l, '\t') ? strchr(l, '\t') : l;
    qsort(lines + 1, (size_t)(n - 1), sizeof *lines, by_text);
    gr_strbuf b = {0};
    for (int i = 0; i < n; i++)
        gr_sb_printf(&b, "%s\n", lines[i]);
    free(text);
    return gr_sb_take(&b);
}

START_TEST(a_rubric_change_regraded_in_shards_merges_as_one_run)
{
    /* lab 1's first test worth 2 points, not 1: every shard and the whole class
       regraded in part (regrade.h), each logging its regrades */
    char *rub = in_tmp("rub"), *p, *text;
    char *cmd = gr_xasprintf("mkdir '%s' && cp '%s/data/rubrics/lab01.yaml' '%s/'", rub, root, rub);
    ck_assert_int_eq(system(cmd), 0);
    free(cmd);
    char *yaml = gr_read_file((p = gr_xasprintf("%s/lab01.yaml", rub)), NULL), *at;
    ck_assert_ptr_nonnull(yaml);
    ck_assert_ptr_nonnull(at = strstr(yaml, "kind: dot_worked\n    points: 1"));
    at[strlen("kind: dot_worked\n    points: ")] = '2';
    put_file(p, yaml);
    free(p);
    free(yaml);
    static const char *const from[4] = {"sh1", "sh2", "sh3", "one"};
    char *dirs[4], *course = in_tmp("course.yaml");
    pid_t pid[4];
    for (int k = 0; k < 4; k++) {
        char name[16], spec[8];
        snprintf(name, sizeof name, "rg-%s", from[k]);
        snprintf(spec, sizeof spec, "%d/3", k + 1);
        dirs[k] = copied(from[k], name);
        char *sub = in_tmp("sub"), *roster = in_tmp("roster.yaml"), *times = in_tmp("times.yaml");
        char *log = gr_xasprintf("%s.log", dirs[k]);
        const char *args[] = {"batch", sub, "--out", dirs[k], "--lab", "1", "--jobs", "1",
                              "--roster", roster, "--times", times, "--course", course,
                              "--rubrics", rub, "--change", "rubrics", "--reason", "worth 2",
                              k < 3 ? "--shard" : NULL, spec, NULL};
        pid[k] = spawn(log, "shards-test-secret", args);
        free(sub);
        free(roster);
        free(times);
        free(log);
    }
    for (int k = 0; k < 4; k++)
        ck_assert_int_eq(spawn_exit(pid[k]), 0);
    char *out = in_tmp("rg-merged");
    /* merge rebuilds every test's maximum from the rubrics: the course's are
       not those the shards had, and it says so (a shard's own copy of its
       rubrics is never taken: whoever returns the shard can write it) */
    const char *plain[] = {"merge", dirs[0], dirs[1], dirs[2], "--out", out, "-q", NULL};
    ck_assert_int_eq(run(&text, plain), 2);
    ck_assert_msg(strstr(text, "give merge the --rubrics DIR the batch had"), "%s", text);
    free(text);
    const char *args[] = {"merge", dirs[0], dirs[1], dirs[2], "--out", out, "--rubrics", rub,
                          "-q", NULL};
    ck_assert_msg(run(&text, args) == 0, "%s", text);
    free(text);
    static const char *const files[] = {"gradebook.csv", "report.md", "rubrics.state", "run.txt"};
    for (int f = 0; f < 4; f++) {
        char *a = gr_xasprintf("%s/%s", dirs[3], files[f]), *b = gr_xasprintf("%s/%s", out, files[f]);
        ck_assert_msg(same_file(a, b), "%s differs from %s", b, a);
        free(a);
        free(b);
    }
    /* the same regrades, each at its own time */
    char *la = log_lines((p = gr_xasprintf("%s/regrades.log", dirs[3])));
    free(p);
    char *lb = log_lines((p = gr_xasprintf("%s/regrades.log", out)));
    free(p);
    ck_assert_msg(strstr(la, "dot_worked_example") && strcmp(la, lb) == 0,
                  "single run:\n%s\nmerged:\n%s", la, lb);
    free(la);
    free(lb);
    for (int k = 0; k < 4; k++)
        free(dirs[k]);
    free(out);
    free(course);
    free(rub);
}
END_TEST

/* A Gradescope export with a group of three: its other submitters share the
   grade of the first, wherever the slicing rule puts each of them. */
static const char group_yml[] =
    "submission_1:\n  :submitters:\n  - :name: Ada\n    :email: ada@example.edu\n"
    "  :created_at: 2025-02-07 23:59:00.000000000 -05:00\n"
    "submission_2:\n  :submitters:\n  - :name: Bob\n    :email: bob@example.edu\n"
    "  :created_at: 2025-02-07 22:00:00.000000000 -05:00\n"
    "submission_3:\n  :submitters:\n  - :name: Carol\n    :email: carol@example.edu\n"
    "  - :name: Dan\n    :email: dan@example.edu\n  - :name: Eve\n    :email: eve@example.edu\n"
    "  - :name: Frank\n    :email: frank@example.edu\n"
    "  :created_at: 2025-02-07 21:00:00.000000000 -05:00\n";

START_TEST(a_group_split_across_shards_merges_whole)
{
    static const char *const members[] = {"dan@example.edu", "eve@example.edu",
                                           "frank@example.edu"};
    int apart = 0;
    for (int i = 0; i < 3; i++)
        apart += gr_shard_of(members[i], 3) != gr_shard_of("carol@example.edu", 3);
    ck_assert_msg(apart > 0, "the group would not be split: pick other names");
    char *gs = in_tmp("gs"), *p, *sol = gr_xasprintf("%s/solutions/lab01-scores/lab01.c", root);
    ck_assert_int_eq(mkdir(gs, 0755), 0);
    put_file((p = in_tmp("gs/submission_metadata.yml")), group_yml);
    free(p);
    for (int i = 1; i <= 3; i++) {
        char *d = gr_xasprintf("%s/submission_%d", gs, i), *text = gr_read_file(sol, NULL);
        ck_assert_int_eq(mkdir(d, 0755), 0);
        put_file((p = gr_xasprintf("%s/lab01.c", d)), i == 2 ? "int x;\n" : text);
        free(p);
        free(text);
        free(d);
    }
    pid_t pid[4];
    char *out[4];
    for (int k = 0; k < 4; k++) {
        char spec[8], *log;
        snprintf(spec, sizeof spec, "%d/3", k + 1);
        out[k] = gr_xasprintf("%s/g%d", tmp, k + 1);
        log = gr_xasprintf("%s.log", out[k]);
        const char *args[] = {"batch", gs, "--out", out[k], "--lab", "1", "--jobs", "1",
                              k < 3 ? "--shard" : NULL, spec, NULL};
        pid[k] = spawn(log, "shards-test-secret", args);
        free(log);
    }
    for (int k = 0; k < 4; k++)
        ck_assert_int_eq(spawn_exit(pid[k]), 0);
    char *merged = in_tmp("gmerged"), *text;
    const char *args[] = {"merge", out[0], out[1], out[2], "--out", merged, "-q", NULL};
    ck_assert_msg(run(&text, args) == 0, "%s", text);
    static const char *const files[] = {"gradebook.csv", "report.md", "run.txt"};
    for (int f = 0; f < 3; f++) {
        char *a = gr_xasprintf("%s/%s", out[3], files[f]), *b = gr_xasprintf("%s/%s", merged, files[f]);
        ck_assert_msg(same_file(a, b), "%s differs from %s", b, a);
        free(a);
        free(b);
    }
    /* every member of the group has the group's full marks: their row ends with
       the points-possible row's scores */
    char *csv = gr_read_file((p = gr_xasprintf("%s/gradebook.csv", merged)), NULL);
    ck_assert_ptr_nonnull(csv);
    const char *possible = strstr(csv, "Points possible,,,");
    ck_assert_ptr_nonnull(possible);
    possible += strlen("Points possible,,");              /* ",10,10" */
    size_t plen = strcspn(possible, "\r");
    for (int i = 0; i < 3; i++) {
        char *start = gr_xasprintf("\n\"%s\",", members[i]);
        const char *row = strstr(csv, start), *end = row ? strchr(row, '\r') : NULL;
        ck_assert_msg(end && (size_t)(end - row) > plen && strncmp(end - plen, possible, plen) == 0,
                      "%s lacks the group's full marks: %s", members[i], csv);
        free(start);
    }
    free(csv);
    free(p);
    free(text);
    free(merged);
    for (int k = 0; k < 4; k++)
        free(out[k]);
    free(sol);
    free(gs);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("shards");
    TCase *rule = tcase_create("rule");
    tcase_add_test(rule, every_student_is_in_one_shard_by_their_id_alone);
    suite_add_tcase(s, rule);
    TCase *cls = tcase_create("class");
    tcase_set_timeout(cls, 1800);
    tcase_add_unchecked_fixture(cls, grade_class, remove_class);
    tcase_add_test(cls, three_shards_merged_are_the_single_run_byte_for_byte);
    tcase_add_test(cls, bad_shard_specs_are_refused);
    tcase_add_test(cls, the_secret_is_read_from_a_file);
    tcase_add_test(cls, shards_of_other_runs_are_refused);
    tcase_add_test(cls, a_group_split_across_shards_merges_whole);
    tcase_add_test(cls, the_shards_regrade_logs_merge_in_time_order);
    tcase_add_test(cls, a_shard_stopped_part_way_is_refused);
    tcase_add_test(cls, a_rubric_change_regraded_in_shards_merges_as_one_run);
    suite_add_tcase(s, cls);
    return s;
}
