/* test_report_read.c: a results.json read back (report_read.c) and a regrade
 * merged into it: what batch's resume and grade --test stand on.
 *
 * The property: writing a report, reading it back and writing it again gives
 * the same bytes, for feedback holding quotes, newlines, control bytes and
 * UTF-8; a merge replaces exactly the regraded test and sums again.
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/json.h"
#include "report/report.h"
#include "base/util.h"

Suite *test_suite(void);

/* A report of two labs: passed, wrong answer with a misconception and odd
   bytes, a compile error with a compiler log, hidden and after_due_date tests. */
static void make_report(gr_report *r)
{
    memset(r, 0, sizeof *r);
    r->student = gr_xstrdup("s042");
    r->confinement = gr_xstrdup("user nobody, Landlock");
    r->sandbox = gr_xstrdup("seccomp");
    r->seconds = 3.4;
    r->n_labs = 2;
    r->labs = gr_xcalloc(2, sizeof *r->labs);
    static const struct { int lab; const char *name; } labs[] = {{1, "lab01-scores"}, {5, "lab05-masking"}};
    for (int i = 0; i < 2; i++) {
        gr_lab_result *l = &r->labs[i];
        l->lab = labs[i].lab;
        l->name = gr_xstrdup(labs[i].name);
        l->n_tests = 3;
        l->tests = gr_xcalloc(3, sizeof *l->tests);
        l->compile_log = i ? gr_xstrdup("lab05.c:3:1: error: expected ';'") : NULL;
        for (int j = 0; j < 3; j++) {
            gr_test_result *t = &l->tests[j];
            t->name = gr_xasprintf("t%d_%d", i, j);
            t->max_score = 0.25 + j;
            t->visibility = (gr_visibility)j;
            t->verdict = i ? GR_COMPILE_ERROR : j == 0 ? GR_PASSED : GR_WRONG_ANSWER;
            t->score = t->verdict == GR_PASSED ? t->max_score : 0;
            if (t->verdict == GR_WRONG_ANSWER) {
                t->message = gr_xstrdup("S[0][1]: expected 0.7054, got \"0.6\"\n\ttab \x01 \xe2\x80\x94 \xff");
                t->misconception = gr_xstrdup(j == 1 ? "postmask" : "inv_dk");
                t->student_output = gr_xstrdup("debug: \x1b[31mred\x1b[0m\n");
            }
            l->score += t->score;
            l->max_score += t->max_score;
        }
        r->score += l->score;
        r->max_score += l->max_score;
    }
}

static char *temp_path(void)
{
    char *p = gr_xstrdup("/tmp/attnlab-results-XXXXXX");
    int fd = mkstemp(p);
    ck_assert_int_ge(fd, 0);
    close(fd);
    return p;
}

START_TEST(written_read_and_written_again_is_the_same)
{
    gr_report r, back;
    make_report(&r);
    char *path = temp_path(), err[512] = "";
    ck_assert_int_eq(gr_report_json(path, &r, NULL), 0);
    ck_assert_msg(gr_report_read_json(path, &back, err, sizeof err) == 0, "%s", err);
    ck_assert_str_eq(back.student, "s042");
    ck_assert_int_eq(back.n_labs, 2);
    ck_assert_int_eq(back.labs[1].lab, 5);
    ck_assert_str_eq(back.labs[1].name, "lab05-masking");
    ck_assert(back.score == r.score && back.max_score == r.max_score);
    ck_assert_str_eq(back.labs[0].tests[1].misconception, "postmask");
    ck_assert_ptr_null(back.labs[0].tests[0].misconception);
    ck_assert_int_eq(back.labs[0].tests[2].verdict, GR_WRONG_ANSWER);
    ck_assert_int_eq(back.labs[1].tests[2].visibility, GR_AFTER_DUE_DATE);
    /* the same bytes (an invalid byte was written as U+FFFD, and reads back so) */
    char *a = gr_report_json_text(&r, NULL), *b = gr_report_json_text(&back, NULL);
    size_t k = 0;
    while (a[k] && a[k] == b[k])
        k++;
    ck_assert_msg(a[k] == b[k], "differs at byte %zu: wrote '%.60s', again '%.60s'", k, a + k, b + k);
    free(a);
    free(b);
    gr_result_free(&back);
    gr_result_free(&r);
    unlink(path);
    free(path);
}
END_TEST

START_TEST(a_regrade_replaces_one_test_and_sums_again)
{
    gr_report r, re;
    make_report(&r);
    /* the regrade: lab 1's t0_2 now passes */
    memset(&re, 0, sizeof re);
    re.student = gr_xstrdup("s042");
    re.n_labs = 1;
    re.labs = gr_xcalloc(1, sizeof *re.labs);
    re.labs[0].lab = 1;
    re.labs[0].name = gr_xstrdup("lab01-scores");
    re.labs[0].n_tests = 1;
    re.labs[0].tests = gr_xcalloc(1, sizeof *re.labs[0].tests);
    re.labs[0].tests[0].name = gr_xstrdup("t0_2");
    re.labs[0].tests[0].max_score = re.labs[0].tests[0].score = 2.25;
    double before = r.score;
    gr_report_read_merge(&r, &re);
    ck_assert_int_eq(r.labs[0].n_tests, 3);
    ck_assert_int_eq(r.labs[0].tests[2].verdict, GR_PASSED);
    ck_assert_ptr_null(r.labs[0].tests[2].misconception);
    ck_assert(r.score == before + 2.25);
    ck_assert(r.labs[0].score == 0.25 + 2.25);
    ck_assert_int_eq(r.labs[1].tests[0].number, 4);   /* numbered again through the run */
    /* a test the file did not have is added to its lab */
    free(re.labs[0].tests[0].name);
    re.labs[0].tests[0].name = gr_xstrdup("new_test");
    gr_report_read_merge(&r, &re);
    ck_assert_int_eq(r.labs[0].n_tests, 4);
    ck_assert(r.max_score == 0.25 + 1.25 + 2.25 + 2.25 + 0.25 + 1.25 + 2.25);
    gr_result_free(&r);
    gr_result_free(&re);
}
END_TEST

START_TEST(a_file_not_from_attnlab_is_an_error_at_its_place)
{
    static const struct { const char *text, *says; } cases[] = {
        {"{\"tests\": []}\n", ": the results has no \"extra_data\""},
        {"{\"extra_data\": {\"student\": \"s1\"},\n \"tests\": [{\"score\": 1}]}\n",
         ": test 1 has no \"extra_data\""},
        {"{\"extra_data\": {\"student\": \"s1\"}, \"tests\": [{\"score\": 1, \"max_score\": 1,"
         " \"output\": \"\", \"extra_data\": {\"lab\": 1, \"test\": \"a\", \"verdict\": \"great\"}}]}\n",
         "unknown verdict \"great\""},
        {"[1, 2", ":1:5: "},   /* a JSON error: line and column */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *path = temp_path(), err[512] = "";
        ck_assert_int_eq(gr_write_file_atomic(path, cases[i].text, strlen(cases[i].text)), 0);
        gr_report r;
        ck_assert_int_eq(gr_report_read_json(path, &r, err, sizeof err), -1);
        ck_assert_msg(strncmp(err, path, strlen(path)) == 0, "case %zu: %s", i, err);
        if (strcmp(cases[i].says, "path") != 0)
            ck_assert_msg(strstr(err, cases[i].says) != NULL, "case %zu: %s", i, err);
        unlink(path);
        free(path);
    }
}
END_TEST

/* ---- any bytes in, the same grammar out ------------------------------------------------ */

static uint64_t rng_next(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

/* 1 to max random bytes, none NUL; a third of the draws from the bytes that
   broke the old reader (C1 controls, U+FFFE, lone continuation bytes). */
static char *random_bytes(uint64_t *x, int max)
{
    static const char *const nasty[] = {"\xc2\x80", "\xc2\x9f", "\xef\xbf\xbe", "\xef\xbf\xbf",
                                        "\x80", "\xff", "\xed\xa0\x80", "\"", "\\", "\n"};
    int n = 1 + (int)(rng_next(x) % (uint64_t)max);
    gr_strbuf b = {0};
    for (int i = 0; i < n; i++) {
        uint64_t r = rng_next(x);
        if (r % 3 == 0)
            gr_sb_append(&b, nasty[(r >> 8) % (sizeof nasty / sizeof nasty[0])]);
        else {
            char c = (char)(1 + (r >> 8) % 255);
            gr_sb_appendn(&b, &c, 1);
        }
    }
    return gr_sb_take(&b);
}

/* The report of make_report with random bytes for the student's id, the lab
   names, test names, messages, compiler log and program output. */
static void random_report(gr_report *r, uint64_t *x)
{
    make_report(r);
    free(r->student);
    r->student = random_bytes(x, 24);
    for (int i = 0; i < r->n_labs; i++) {
        gr_lab_result *l = &r->labs[i];
        free(l->compile_log);
        l->compile_log = random_bytes(x, 200);
        for (int j = 0; j < l->n_tests; j++) {
            gr_test_result *t = &l->tests[j];
            free(t->name);
            free(t->message);
            free(t->student_output);
            t->name = random_bytes(x, 30);
            t->message = random_bytes(x, 300);
            t->student_output = random_bytes(x, 300);
        }
    }
}

START_TEST(any_bytes_written_are_read_back)
{
    uint64_t x = 0x9e3779b97f4a7c15u;
    char *path = temp_path();
    for (int round = 0; round < 300; round++) {
        gr_report r, back;
        random_report(&r, &x);
        char err[512] = "";
        ck_assert_int_eq(gr_report_json(path, &r, "s3cret"), 0);
        ck_assert_msg(gr_report_read_json(path, &back, err, sizeof err) == 0, "round %d: %s",
                      round, err);
        char *id = gr_json_utf8_clean(r.student);
        ck_assert_str_eq(back.student, id);
        ck_assert_int_eq(back.labs[0].n_tests, 3);
        ck_assert(back.score == r.score && back.max_score == r.max_score);
        ck_assert_msg(gr_report_json_signature(path, "s3cret", err, sizeof err) == 0, "%s", err);
        /* what was read writes the same file again */
        char *a = gr_report_json_text(&r, "s3cret"), *b = gr_report_json_text(&back, "s3cret");
        ck_assert_msg(strcmp(a, b) == 0, "round %d: read back, the file differs", round);
        free(a);
        free(b);
        free(id);
        gr_result_free(&back);
        gr_result_free(&r);
    }
    unlink(path);
    free(path);
}
END_TEST

/* path's text with the first from replaced by to. */
static void edit_file(const char *path, const char *from, const char *to)
{
    char *text = gr_read_file(path, NULL), *at = strstr(text, from);
    ck_assert_msg(at != NULL, "no %s in %s", from, path);
    char *edited = gr_xasprintf("%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
    ck_assert_int_eq(gr_write_file_atomic(path, edited, strlen(edited)), 0);
    free(text);
    free(edited);
}

START_TEST(a_signature_proves_the_file_and_the_secret)
{
    gr_report r;
    make_report(&r);
    char *path = temp_path(), err[512] = "";
    ck_assert_int_eq(gr_report_json(path, &r, "course secret"), 0);
    ck_assert_msg(gr_report_json_signature(path, "course secret", err, sizeof err) == 0, "%s", err);
    /* another secret, one changed score, a changed maximum: refused, naming the file */
    ck_assert_int_eq(gr_report_json_signature(path, "another secret", err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, path));
    ck_assert_ptr_nonnull(strstr(err, "does not verify"));
    edit_file(path, "\"score\": 0,", "\"score\": 1,");
    ck_assert_int_eq(gr_report_json_signature(path, "course secret", err, sizeof err), -1);
    ck_assert_int_eq(gr_report_json(path, &r, "course secret"), 0);
    edit_file(path, "\"max_score\": 2.25", "\"max_score\": 900");
    ck_assert_int_eq(gr_report_json_signature(path, "course secret", err, sizeof err), -1);
    /* unsigned, or the signature taken out */
    ck_assert_int_eq(gr_report_json(path, &r, NULL), 0);
    ck_assert_int_eq(gr_report_json_signature(path, "course secret", err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "has no signature"));
    /* layout is not content: the same JSON indented otherwise still verifies */
    ck_assert_int_eq(gr_report_json(path, &r, "course secret"), 0);
    edit_file(path, "{\n  \"score\"", "{ \"score\"");
    ck_assert_msg(gr_report_json_signature(path, "course secret", err, sizeof err) == 0, "%s", err);
    gr_result_free(&r);
    unlink(path);
    free(path);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("report_read");
    TCase *tc = tcase_create("report_read");
    /* 300 rounds of writing, fsync and reading: seconds on a loaded machine, and a
     * property test, not a timing one */
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, written_read_and_written_again_is_the_same);
    tcase_add_test(tc, a_regrade_replaces_one_test_and_sums_again);
    tcase_add_test(tc, a_file_not_from_attnlab_is_an_error_at_its_place);
    tcase_add_test(tc, any_bytes_written_are_read_back);
    tcase_add_test(tc, a_signature_proves_the_file_and_the_secret);
    suite_add_tcase(s, tc);
    return s;
}
