/* test_hostile_merge.c: attnlab merge given a hostile batch output.
 *
 * A shard's folder may come back from a machine nobody watched. One real
 * batch output (a stub and an empty folder, lab 1) is copied and forged a
 * way per case: results.json with a score past its maximum, a negative one,
 * another student's name, 100 MB, a link, a link for the student's folder;
 * regrades.log a link;
 * run.txt as a link, a FIFO, with an id that climbs out of the folder, a NUL
 * escape, an unknown field, a class count that lies; results.json edited
 * ("every test passed, max_score 900"), unsigned, signed with a guessed secret,
 * or re-signed with the real one but other maxima or a test dropped; merge run
 * with another secret. Each merge is refused
 * (exit 2) saying what is wrong, within the test's time limit, and leaves no
 * output; the unforged copy merges.
 */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/report.h"
#include "spawn.h"
#include "base/util.h"

Suite *test_suite(void);

static char root[4096];
static char tmp[64];

static char *in_tmp(const char *name)
{
    return gr_xasprintf("%s/%s", tmp, name);
}

/* attnlab args... to the end: its exit status (-1: killed), output in *out. */
static int run(char **out, const char *const *args)
{
    char *log = in_tmp("run.log");
    int rc = spawn_run(log, "hostile-merge-secret", args, out);
    free(log);
    return rc;
}

/* Run the shell command cmd (malloc'd, freed). */
static void sh(char *cmd)
{
    ck_assert_msg(system(cmd) == 0, "%s failed", cmd);
    free(cmd);
}

/* One real batch output: a stub and an empty folder, lab 1. */
static void grade_good(void)
{
    ck_assert_ptr_nonnull(getcwd(root, sizeof root));
    strcpy(tmp, "/tmp/attnlab-hmerge-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmp));
    char *sub = in_tmp("sub"), *good = in_tmp("good"), *out;
    sh(gr_xasprintf("mkdir -p '%s/stub' '%s/empty'", sub, sub));
    char *stub = gr_xasprintf("%s/data/stubs/lab01.c", root);
    sh(gr_xasprintf("cp '%s' '%s/stub/lab01.c'", stub, sub));
    int rc = run(&out, (const char *const[]){"batch", sub, "--out", good, "--lab", "1", NULL});
    ck_assert_msg(rc == 0, "batch exited %d: %s", rc, out);
    free(out);
    free(stub);
    free(sub);
    free(good);
}

static void remove_all(void)
{
    char *cmd = gr_xasprintf("rm -rf '%s'", tmp);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", tmp);
    free(cmd);
}

/* A fresh copy of the good output as tmp/case (its path). */
static char *copy_good(void)
{
    char *dir = in_tmp("case"), *good = in_tmp("good");
    sh(gr_xasprintf("rm -rf '%s' && cp -a '%s' '%s'", dir, good, dir));
    free(good);
    return dir;
}

/* In dir's file rel, the first `from` replaced by `to`. */
static void replace(const char *dir, const char *rel, const char *from, const char *to)
{
    char *path = gr_xasprintf("%s/%s", dir, rel), *text = gr_read_file(path, NULL);
    ck_assert_msg(text != NULL, "cannot read %s", path);
    char *at = strstr(text, from);
    ck_assert_msg(at != NULL, "no \"%s\" in %s", from, path);
    char *forged = gr_xasprintf("%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
    ck_assert_int_eq(unlink(path), 0);
    ck_assert_int_eq(gr_write_file_atomic(path, forged, strlen(forged)), 0);
    free(forged);
    free(text);
    free(path);
}

/* merge of dir is refused saying says, and writes nothing. */
static void refused(const char *dir, const char *says)
{
    char *out = in_tmp("merged"), *text;
    int rc = run(&text, (const char *const[]){"merge", dir, "--out", out, NULL});
    ck_assert_msg(rc == 2 && strstr(text, says), "wanted exit 2 saying \"%s\": exit %d: %s", says,
                  rc, text);
    struct stat st;
    ck_assert_msg(lstat(out, &st) != 0, "a refused merge wrote %s", out);
    DIR *d = opendir(tmp);
    for (struct dirent *e; d && (e = readdir(d)) != NULL;)
        ck_assert_msg(!strstr(e->d_name, ".merge-"), "a refused merge left %s", e->d_name);
    closedir(d);
    free(text);
    free(out);
}

#define TEST_SCORE "\"score\": 0,\n      \"max_score\": 1,"

START_TEST(the_unforged_copy_merges)
{
    char *dir = copy_good(), *out = in_tmp("merged-whole"), *text;
    int rc = run(&text, (const char *const[]){"merge", dir, "--out", out, "-q", NULL});
    ck_assert_msg(rc == 0, "exit %d: %s", rc, text);
    char *cmd = gr_xasprintf("cmp -s '%s/gradebook.csv' '%s/good/gradebook.csv'", out, tmp);
    ck_assert_int_eq(system(cmd), 0);
    free(cmd);
    free(text);
    free(out);
    free(dir);
}
END_TEST

/* A forgery: in file rel of a batch output, from replaced by to; merge says says. */
typedef struct forgery {
    const char *from, *to, *says;
} forgery;

/* Each forgery of cases[0..n) on a fresh copy of the good output is refused. */
static void forgeries_refused(const char *rel, const forgery *cases, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char *dir = copy_good();
        replace(dir, rel, cases[i].from, cases[i].to);
        refused(dir, cases[i].says);
        free(dir);
    }
}

START_TEST(forged_results_are_refused)
{
    static const forgery cases[] = {
        {TEST_SCORE, "\"score\": 1e308,\n      \"max_score\": 1,", "scores 1e+308 of 1"},
        {TEST_SCORE, "\"score\": -5,\n      \"max_score\": 1,", "scores -5 of 1"},
        {TEST_SCORE, "\"score\": 0,\n      \"max_score\": 1e300,", "of 1e+300"},
        {"\"student\": \"stub\"", "\"student\": \"empty\"", "names another student"},
        {"\"tests\": [", "\"tests\": [[[[[[[[[[[[[[[[[[[[[[", "not a grade of this run"},
    };
    forgeries_refused("students/stub/results.json", cases, sizeof cases / sizeof cases[0]);
}
END_TEST

/* The good copy's results.json of student stub, read, changed by edit, and
   written again signed with secret (NULL: unsigned). */
static char *rewritten(void (*edit)(gr_report *), const char *secret)
{
    char *dir = copy_good(), *p = gr_xasprintf("%s/students/stub/results.json", dir), err[512];
    gr_report r;
    ck_assert_msg(gr_report_read_json(p, &r, err, sizeof err) == 0, "%s", err);
    if (edit)
        edit(&r);
    ck_assert_int_eq(gr_report_json(p, &r, secret), 0);
    gr_result_free(&r);
    free(p);
    return dir;
}

/* Every test passed, the first worth 900. */
static void all_passed_900(gr_report *r)
{
    gr_lab_result *l = &r->labs[0];
    for (int j = 0; j < l->n_tests; j++) {
        l->tests[j].verdict = GR_PASSED;
        l->tests[j].score = l->tests[j].max_score = j ? l->tests[j].max_score : 900;
    }
}

/* One test the rubric does not have. */
static void one_test_dropped(gr_report *r)
{
    r->labs[0].n_tests--;
    free(r->labs[0].tests[r->labs[0].n_tests].name);
    r->labs[0].tests[r->labs[0].n_tests].name = NULL;
}

START_TEST(shard_results_prove_themselves)
{
    /* edited in place ("every test passed, max_score 900"): the signature breaks */
    static const forgery edits[] = {
        {TEST_SCORE, "\"score\": 900,\n      \"max_score\": 900,", "signature does not verify"},
        {"\"verdict\": \"not implemented\"", "\"verdict\": \"passed\"", "signature does not verify"},
    };
    forgeries_refused("students/stub/results.json", edits, sizeof edits / sizeof edits[0]);
    /* unsigned, or signed with another secret */
    char *dir = rewritten(all_passed_900, NULL);
    refused(dir, "has no signature");
    free(dir);
    dir = rewritten(all_passed_900, "a guessed secret");
    refused(dir, "signature does not verify");
    free(dir);
    /* signed with the right secret (a leak of it): the rubric's maxima still hold */
    dir = rewritten(all_passed_900, "hostile-merge-secret");
    refused(dir, "is worth 900 (visible) where the rubric says");
    free(dir);
    dir = rewritten(one_test_dropped, "hostile-merge-secret");
    refused(dir, "is missing");
    free(dir);
    /* merge given another secret than the shards had */
    dir = copy_good();
    char *out = in_tmp("merged"), *log = in_tmp("run.log"), *text;
    int rc = spawn_run(log, "another secret", (const char *const[]){"merge", dir, "--out", out, NULL},
                       &text);
    ck_assert_msg(rc == 2 && strstr(text, "ATTNLAB_SECRET is not the secret"), "exit %d: %s", rc,
                  text);
    free(text);
    free(log);
    free(out);
    free(dir);
}
END_TEST

START_TEST(links_fifos_and_huge_files_are_refused)
{
    char *dir = copy_good(), *p = gr_xasprintf("%s/students/stub/results.json", dir);
    ck_assert_int_eq(truncate(p, (off_t)100 << 20), 0);       /* 100 MB, sparse */
    refused(dir, "more than the 64 MB");
    ck_assert_int_eq(unlink(p), 0);
    ck_assert_int_eq(symlink("/etc/passwd", p), 0);
    refused(dir, "symbolic link");
    free(p);
    free(dir);

    dir = copy_good();
    sh(gr_xasprintf("rm -rf '%s/students/stub' && ln -s /etc '%s/students/stub'", dir, dir));
    refused(dir, "symbolic link");
    free(dir);

    dir = copy_good();                              /* the audit log a link out */
    sh(gr_xasprintf("ln -s /etc/passwd '%s/regrades.log'", dir));
    refused(dir, "symbolic link");
    free(dir);

    dir = copy_good();
    p = gr_xasprintf("%s/run.txt", dir);
    ck_assert_int_eq(unlink(p), 0);
    ck_assert_int_eq(mkfifo(p, 0644), 0);           /* nobody writes: a read would block */
    refused(dir, "FIFO");
    ck_assert_int_eq(unlink(p), 0);
    ck_assert_int_eq(symlink("../good/run.txt", p), 0);
    refused(dir, "symbolic link");
    free(p);
    free(dir);
}
END_TEST

START_TEST(forged_run_records_are_refused)
{
    static const forgery cases[] = {
        {"student id=stub ", "student id=../../../tmp/x ", "safe id"},
        {"student id=stub ", "student id=st%00ub ", "bad %XX escape"},
        {"student id=stub ", "student id=stub colour=red ", "unknown field 'colour'"},
        {"student id=stub ", "student id=stub submitted=7 ", "not a number in range"},
        {"class 2 ", "class 99 ", "not the class of 99"},
        {"shard 1 1", "shard 2 1", "not K N"},
        {"attnlab run 1", "attnlab run 2", "not a run record"},
        {"\nend\n", "\n", "before its end line"},
    };
    forgeries_refused("run.txt", cases, sizeof cases / sizeof cases[0]);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("hostile_merge");
    TCase *tc = tcase_create("forged");
    tcase_set_timeout(tc, 300);
    tcase_add_unchecked_fixture(tc, grade_good, remove_all);
    tcase_add_test(tc, the_unforged_copy_merges);
    tcase_add_test(tc, forged_results_are_refused);
    tcase_add_test(tc, shard_results_prove_themselves);
    tcase_add_test(tc, links_fifos_and_huge_files_are_refused);
    tcase_add_test(tc, forged_run_records_are_refused);
    suite_add_tcase(s, tc);
    return s;
}
