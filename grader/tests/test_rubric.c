/* test_rubric.c: the rubric loader on good and bad fixture rubrics
 * (grader/tests/data/). Good rubrics must load into exactly the values written,
 * with the documented defaults where nothing is written; each bad rubric must
 * fail with one message pointing at the exact line and column of the mistake.
 * Run from the top of the tree (make test-unit does), so data paths resolve. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/rubric.h"

Suite *test_suite(void);

/* grader/tests/data/NAME, found next to this source file. */
static char *data_path(const char *name)
{
    static char buf[1024];
    const char *here = __FILE__;
    const char *slash = strrchr(here, '/');
    int dir = slash ? (int)(slash - here) : 0;
    snprintf(buf, sizeof buf, "%.*s%sdata/%s", dir, here, slash ? "/" : "", name);
    return buf;
}

START_TEST(good_rubric_loads_every_field)
{
    gr_rubric r;
    char err[512];
    const char *path = data_path("rubric_good.yaml");
    ck_assert_msg(gr_rubric_load(path, &r, err, sizeof err) == 0, "%s", err);

    ck_assert_str_eq(r.path, path);
    ck_assert_int_eq(r.lab, 1);
    ck_assert_str_eq(r.name, "scores");
    ck_assert_str_eq(r.source, "lab01.c");
    ck_assert_int_eq(r.n_headers, 7);
    ck_assert_str_eq(r.allowed_headers[0], "lab01.h");
    ck_assert_str_eq(r.allowed_headers[6], "string.h");
    ck_assert_int_eq(r.n_symbols, 7);
    ck_assert_str_eq(r.allowed_symbols[0], "sqrtf");
    ck_assert_str_eq(r.allowed_symbols[6], "memcpy");

    /* lab limits: 3000 ms; 32 MiB = 32 * 1048576 = 33554432 B; 16 KiB = 16384 B */
    ck_assert_int_eq(r.limits.time_ms, 3000);
    ck_assert_int_eq(r.limits.memory_bytes, 33554432L);
    ck_assert_int_eq(r.limits.output_bytes, 16384L);
    ck_assert_int_eq(r.budget_s, 45);

    ck_assert_int_eq(r.n_tests, 3);
    const gr_rubric_test *t = &r.tests[0];
    ck_assert_str_eq(t->name, "dot_worked_example");
    ck_assert_str_eq(t->kind, "dot");
    ck_assert_double_eq(t->points, 2.0);
    ck_assert_int_eq(t->visibility, GR_VISIBLE);
    ck_assert_int_eq(t->line, 9);
    /* sizes then params, merged in the order written */
    ck_assert_int_eq(t->n_params, 5);
    ck_assert_str_eq(t->params[0].key, "B");
    ck_assert_str_eq(t->params[3].key, "d");
    ck_assert_str_eq(t->params[4].key, "scale");
    ck_assert_double_eq(gr_rubric_test_param(t, "B", -1), 2.0);
    ck_assert_double_eq(gr_rubric_test_param(t, "Tq", -1), 3.0);
    ck_assert_double_eq(gr_rubric_test_param(t, "Tk", -1), 5.0);
    ck_assert_double_eq(gr_rubric_test_param(t, "d", -1), 4.0);
    ck_assert_double_eq(gr_rubric_test_param(t, "scale", -1), 0.5);
    ck_assert_double_eq(gr_rubric_test_param(t, "H", 7.0), 7.0);   /* absent: the default */
    ck_assert_double_eq(t->abs_tol, 1.0e-6);
    ck_assert_double_eq(t->rel_tol, 2.0e-6);
    /* time overridden to 1000 ms; memory and output inherited from the lab */
    ck_assert_int_eq(t->limits.time_ms, 1000);
    ck_assert_int_eq(t->limits.memory_bytes, 33554432L);
    ck_assert_int_eq(t->limits.output_bytes, 16384L);

    t = &r.tests[1];
    ck_assert_str_eq(t->name, "scaled_hidden");
    ck_assert_str_eq(t->kind, "scaled_dot");
    ck_assert_double_eq(t->points, 3.5);
    ck_assert_int_eq(t->visibility, GR_HIDDEN);
    ck_assert_int_eq(t->line, 17);
    ck_assert_int_eq(t->n_params, 4);
    ck_assert_double_eq(gr_rubric_test_param(t, "d", -1), 64.0);
    ck_assert_double_eq(t->abs_tol, 1e-5);    /* defaults */
    ck_assert_double_eq(t->rel_tol, 1e-5);
    /* memory 8 MiB = 8388608 B, output 1 KiB = 1024 B, time from the lab */
    ck_assert_int_eq(t->limits.time_ms, 3000);
    ck_assert_int_eq(t->limits.memory_bytes, 8388608L);
    ck_assert_int_eq(t->limits.output_bytes, 1024L);

    t = &r.tests[2];
    ck_assert_double_eq(t->points, 0.0);       /* zero points is allowed */
    ck_assert_int_eq(t->visibility, GR_AFTER_DUE_DATE);
    ck_assert_double_eq(t->abs_tol, 1e-5);     /* only rel was given */
    ck_assert_double_eq(t->rel_tol, 0.0);
    ck_assert_int_eq(t->n_params, 0);

    gr_rubric_free(&r);
    ck_assert_ptr_null(r.tests);
    gr_rubric_free(&r);                         /* freeing twice is harmless */
}
END_TEST

START_TEST(minimal_rubric_gets_defaults)
{
    gr_rubric r;
    char err[512];
    ck_assert_msg(gr_rubric_load(data_path("rubric_minimal.yaml"), &r, err, sizeof err) == 0,
                  "%s", err);
    ck_assert_int_eq(r.lab, 2);
    ck_assert_str_eq(r.name, "masks-and_softmax");
    ck_assert_int_eq(r.n_headers, 0);
    ck_assert_int_eq(r.n_symbols, 0);
    /* defaults: 2000 ms, 64 MiB = 67108864 B, 64 KiB = 65536 B */
    ck_assert_int_eq(r.limits.time_ms, 2000);
    ck_assert_int_eq(r.limits.memory_bytes, 67108864L);
    ck_assert_int_eq(r.limits.output_bytes, 65536L);
    ck_assert_int_eq(r.budget_s, GR_DEFAULT_BUDGET_S);
    ck_assert_int_eq(r.n_tests, 1);
    ck_assert_int_eq(r.tests[0].limits.time_ms, 2000);
    ck_assert_int_eq(r.tests[0].limits.memory_bytes, 67108864L);
    ck_assert_int_eq(r.tests[0].limits.output_bytes, 65536L);
    ck_assert_int_eq(r.tests[0].visibility, GR_VISIBLE);
    ck_assert_double_eq(r.tests[0].abs_tol, 1e-5);
    ck_assert_double_eq(r.tests[0].rel_tol, 1e-5);
    ck_assert_int_eq(r.tests[0].line, 5);
    gr_rubric_free(&r);
}
END_TEST

/* Each bad rubric, where its one mistake is (1-based line:column, counted by
   hand in the fixture), and a piece of the message that says what to fix. */
static const struct bad_case {
    const char *file;
    const char *where;
    const char *says;
} bad[] = {
    /* "    tolerence:" -> key at column 5 of line 8 */
    {"bad_typo.yaml", "8:5", "unknown key \"tolerence\" in test 1; did you mean \"tolerance\"?"},
    {"bad_unknown.yaml", "4:1", "unknown key \"deadline\" in the rubric; the known keys are lab, name"},
    {"bad_limit_typo.yaml", "4:10", "unknown key \"time\" in limits; did you mean \"time_ms\"?"},
    /* "    points: " is 12 characters -> value at column 13 */
    {"bad_type_points.yaml", "7:13", "points: expected a number, got \"two\""},
    {"bad_quoted_number.yaml", "1:6", "lab: expected a whole number, got the quoted text \"1\""},
    /* "    sizes: {B: 2, " is 18 characters -> 2.5 at column 23 after "Tq: " */
    {"bad_size_real.yaml", "8:23", "sizes.Tq: expected a whole number, got \"2.5\""},
    {"bad_missing_tests.yaml", "1:1", "the rubric is missing the required key \"tests\""},
    /* the second test's mapping starts after "  - " on line 8 */
    {"bad_missing_points.yaml", "8:5", "test 2 is missing the required key \"points\""},
    {"bad_dup_key.yaml", "8:5", "duplicate key \"points\" in test 1 (first given on line 7)"},
    /* "    name: " is 10 characters -> the repeated name at column 11 */
    {"bad_dup_test.yaml", "9:11", "duplicate test name \"same\" (first used by the test on line 5)"},
    /* "  - {name: t1, kind: dot, " is 26 characters, "points: " 8 more -> column 35 */
    {"bad_neg_points.yaml", "5:35", "points: must be 0 to 1000000, got -1"},
    /* thousandths at most, so every sum is shown exactly (cells.h) */
    {"bad_points_decimals.yaml", "5:35", "points: at most three decimals (a multiple of 0.001), got 0.1234"},
    {"bad_neg_tol.yaml", "8:33", "tolerance.rel: must be 0 or more, got -1e-3"},
    {"bad_zero_limit.yaml", "6:14", "limits.memory_mb: must be a positive number of MiB, got 0"},
    {"bad_test_limit.yaml", "8:23", "limits.time_ms: must be a positive number of milliseconds, got -5"},
    {"bad_huge_memory.yaml", "4:21", "limits.memory_mb: 99999999999999 MiB is too large"},
    /* a TA's 20000 -> 20: "limits: {time_ms: " is 18 characters -> column 19 */
    {"bad_time_floor.yaml", "4:19", "limits.time_ms: 20 ms is below the floor of 250 ms"},
    {"bad_test_time_floor.yaml", "8:23", "limits.time_ms: 1 ms is below the floor of 250 ms"},
    {"bad_zero_budget.yaml", "4:11", "budget_s: must be a positive number of seconds, got 0"},
    {"bad_visibility.yaml", "8:17", "visibility: \"secret\" is not one of visible, hidden, after_due_date, after_published"},
    /* 8 sizes + 8 params fit; "seed" is the 17th: "    params: {" is 13 characters,
       5 entries of 7 ("dq: 1, ") and 3 of 8 ("odd: 6, ") follow -> column 13 + 59 + 1 */
    {"bad_too_many.yaml", "9:73", "params: \"seed\" is one value too many; sizes and params of a test hold at most 16"},
    /* names in sizes and params are those the generators read: a typo is caught */
    {"bad_param_typo.yaml", "9:14", "unknown key \"sclae\" in params; did you mean \"scale\"?"},
    {"bad_size_unknown.yaml", "10:7", "unknown key \"queries\" in sizes; the known keys are B, H, H_max"},
    {"bad_size_param_clash.yaml", "9:14", "params: \"B\" is already given in sizes"},
    /* a lab's own names (param_names): offered for a typo, no course name, before the
       tests, each with what it does ("param_names: {base: " is 20 characters) */
    {"bad_own_typo.yaml", "9:14", "unknown key \"bsae\" in params; did you mean \"base\"?"},
    {"bad_own_course_name.yaml", "4:41", "param_names: \"scale\" is one of the course's names"},
    {"bad_own_after_tests.yaml", "6:14", "param_names: must come before tests"},
    {"bad_own_no_what.yaml", "4:21", "param_names: has no value"},
    /* libyaml's problem_mark: the under-indented "points" on line 7, column 4 */
    {"bad_syntax.yaml", "7:4", "YAML syntax error: did not find expected '-' indicator"},
    {"bad_empty.yaml", "1:1", "the rubric is empty; it needs lab, name, source and tests"},
    {"bad_two_docs.yaml", "7:1", "a rubric is one YAML document; remove this second one"},
    {"bad_root_list.yaml", "1:1", "the rubric: expected a mapping (key: value lines), got a list"},
    {"bad_empty_tests.yaml", "4:8", "tests: the list is empty"},
    {"bad_source.yaml", "3:9", "source: must be the name of one C file in the lab folder"},
    {"bad_headers.yaml", "4:18", "allowed_headers: expected a list like [a, b], got a single value"},
    {"bad_lab_range.yaml", "1:6", "lab: must be a lab number from 1 to 99, got 0"},
    {"bad_no_value.yaml", "2:6", "name: has no value"},
    /* byte 0xff after "name: sc" (8 characters) */
    {"bad_utf8.yaml", "2:9", "the file is not UTF-8 text"},
};

/* A lab's own names are sizes and params of its tests like the course's, and
   what each does is kept. */
START_TEST(lab_declares_its_own_names)
{
    gr_rubric r;
    char err[512];
    ck_assert_msg(gr_rubric_load(data_path("rubric_own_names.yaml"), &r, err, sizeof err) == 0,
                  "%s", err);
    ck_assert_int_eq(r.n_own, 2);
    ck_assert_str_eq(r.own[1].name, "max_pos");
    ck_assert_str_eq(r.own[1].what, "rows of the learned position table");
    const gr_rubric_test *t = &r.tests[0];
    ck_assert_double_eq(gr_rubric_test_param(t, "max_pos", -1), 16.0);
    ck_assert_double_eq(gr_rubric_test_param(t, "base", -1), 10000.0);
    ck_assert_double_eq(gr_rubric_test_param(t, "T", -1), 4.0);
    ck_assert_double_eq(gr_rubric_test_param(t, "scale", 3.0), 3.0);   /* a course name, absent */
    ck_assert(gr_rubric_param_known("scale") && !gr_rubric_param_known("base"));
    gr_rubric_free(&r);
}
END_TEST

START_TEST(bad_rubric_is_pinpointed)
{
    const struct bad_case *b = &bad[_i];
    const char *path = data_path(b->file);
    gr_rubric r;
    memset(&r, 0x5a, sizeof r);      /* garbage in: the loader must zero it */
    char err[512], want[1100];
    ck_assert_int_eq(gr_rubric_load(path, &r, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s:%s: ", path, b->where);
    ck_assert_msg(strncmp(err, want, strlen(want)) == 0,
                  "%s: expected the message to start \"%s\", got \"%s\"", b->file, want, err);
    ck_assert_msg(strstr(err, b->says) != NULL,
                  "%s: expected the message to say \"%s\", got \"%s\"", b->file, b->says, err);
    ck_assert_msg(strchr(err, '\n') == NULL, "one message, one line: \"%s\"", err);
    /* nothing is handed out on failure; freeing the result is still safe */
    ck_assert_ptr_null(r.tests);
    ck_assert_ptr_null(r.name);
    ck_assert_int_eq(r.n_tests, 0);
    gr_rubric_free(&r);
}
END_TEST

START_TEST(missing_file_says_so)
{
    gr_rubric r;
    char err[512];
    ck_assert_int_eq(gr_rubric_load("/nonexistent/attnlab/lab09.yaml", &r, err, sizeof err), -1);
    ck_assert_str_eq(err, "/nonexistent/attnlab/lab09.yaml: cannot read the rubric: "
                          "No such file or directory");
}
END_TEST

/* A short buffer truncates the message but never overruns; NULL err is fine. */
START_TEST(short_error_buffer)
{
    gr_rubric r;
    char err[12];
    memset(err, 'x', sizeof err);
    ck_assert_int_eq(gr_rubric_load(data_path("bad_typo.yaml"), &r, err, 8), -1);
    ck_assert_int_eq(strlen(err), 7);
    ck_assert_int_eq(err[8], 'x');
    ck_assert_int_eq(gr_rubric_load(data_path("bad_typo.yaml"), &r, NULL, 0), -1);
}
END_TEST

START_TEST(visibility_names)
{
    ck_assert_str_eq(gr_rubric_visibility_name(GR_VISIBLE), "visible");
    ck_assert_str_eq(gr_rubric_visibility_name(GR_HIDDEN), "hidden");
    ck_assert_str_eq(gr_rubric_visibility_name(GR_AFTER_DUE_DATE), "after_due_date");
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("rubric");
    TCase *tc = tcase_create("good");
    tcase_add_test(tc, good_rubric_loads_every_field);
    tcase_add_test(tc, minimal_rubric_gets_defaults);
    tcase_add_test(tc, visibility_names);
    tcase_add_test(tc, lab_declares_its_own_names);
    suite_add_tcase(s, tc);

    tc = tcase_create("bad");
    tcase_add_loop_test(tc, bad_rubric_is_pinpointed, 0, (int)(sizeof bad / sizeof *bad));
    tcase_add_test(tc, missing_file_says_so);
    tcase_add_test(tc, short_error_buffer);
    suite_add_tcase(s, tc);
    return s;
}
