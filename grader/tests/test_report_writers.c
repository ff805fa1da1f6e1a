/* test_report_writers.c: results.json, JUnit XML and the file writing they
 * share, on the report built by hand in report_fixture.h. The JSON must pass a
 * strict validator written here (and python3's json module when python3 is
 * installed) with the right totals, fields and escapes; the JUnit XML must
 * have the right counts and no byte an XML parser refuses; a report is written
 * whole or not at all. The terminal report is test_reports.c's. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/grade.h"
#include "engine/judge.h"
#include "base/labmod.h"
#include "textcheck.h"
#include "engine/json.h"
#include "report/report.h"
#include "base/rubric.h"
#include "base/util.h"
#include "report_fixture.h"

Suite *test_suite(void);

/* ---- JSON ----------------------------------------------------------------------------- */

START_TEST(json_validator_rejects_bad_json)
{
    /* the validator itself must be able to fail, or the tests below prove nothing */
    ck_assert(json_valid("{\"a\": [1, -2.5e3, true, null, \"x\\u00e9\"]}"));
    ck_assert(!json_valid("{\"a\": 1,}"));
    ck_assert(!json_valid("{\"a\": \"tab\there\"}"));
    ck_assert(!json_valid("{\"a\": \"\xff\"}"));
    ck_assert(!json_valid("{\"a\": 01}"));
    ck_assert(!json_valid("{\"a\": nan}"));
    ck_assert(!json_valid("{\"a\": \"\\x41\"}"));
    ck_assert(!json_valid("{} {}"));
}
END_TEST

START_TEST(json_fields_totals_and_escapes)
{
    gr_report r;
    build_report(&r);
    char *json = gr_report_json_text(&r, NULL);
    ck_assert_msg(json_valid(json), "not valid JSON:\n%s", json);

    ck_assert_ptr_nonnull(strstr(json, "{\n  \"score\": 3.5,\n  \"max_score\": 16,\n"
                                       "  \"output\": "));
    /* no run time: a run's wall time counts the tests a student may not see */
    ck_assert_ptr_null(strstr(json, "execution_time"));
    /* the summary counts the visible tests only: lab01 2/(2+3), lab02 1.5/(1+1.5+1+0.5) */
    ck_assert_ptr_nonnull(strstr(json, "  \"output\": \"attnlab: 3.5/9.0 points on the tests you "
                                       "can see now\\nlab01-scores: 2.0/5.0\\n"
                                       "lab02-softmax: 1.5/4.0\\nMore tests are graded"));
    ck_assert_ptr_nonnull(strstr(json, "  \"visibility\": \"visible\",\n"
                                       "  \"stdout_visibility\": \"hidden\",\n"));
    ck_assert_int_eq(count_of(json, "\"number\": "), 8);
    ck_assert_int_eq(count_of(json, "\"status\": \"passed\""), 2);
    ck_assert_int_eq(count_of(json, "\"status\": \"failed\""), 6);

    ck_assert_ptr_nonnull(strstr(json,
        "    {\n"
        "      \"name\": \"lab01-scores: dot_worked_example\",\n"
        "      \"number\": \"1.1\",\n"
        "      \"score\": 2,\n"
        "      \"max_score\": 2,\n"
        "      \"status\": \"passed\",\n"
        "      \"visibility\": \"visible\",\n"
        "      \"output\": \"passed\\n\",\n"
        "      \"output_format\": \"text\",\n"
        "      \"extra_data\": {\n"
        "        \"lab\": 1,\n"
        "        \"test\": \"dot_worked_example\",\n"
        "        \"verdict\": \"passed\",\n"
        "        \"misconception\": null\n"
        "      }\n"
        "    },\n"));
    /* the misconception of a wrong answer is data too, not only text */
    ck_assert_ptr_nonnull(strstr(json, "\"verdict\": \"wrong answer\",\n"
                                       "        \"misconception\": \"1/d_k instead of 1/sqrt(d_k)\"\n"));
    /* the wrong answer: quotes, newline, tab and 0x01 escaped, 0xff as U+FFFD;
       the excerpt labelled and its ESC bytes escaped */
    ck_assert_ptr_nonnull(strstr(json,
        "      \"output\": \"wrong answer\\n"
        "S[0][1][2]: expected 0.5, got \\\"1.0\\\" (relative error 1)\\n"
        "input row:\\tq = [1, 2]\\u0001 \xef\xbf\xbd end\\n"
        "misconception: 1/d_k instead of 1/sqrt(d_k)\\n"
        "your program printed (first 37 bytes):\\n"
        "| Score: 100\\n"
        "| \\u001B[32mall tests passed\\u001B[0m\\n\",\n"));
    ck_assert_ptr_nonnull(strstr(json, "\"name\": \"lab01-scores: hidden_big\",\n"
                                       "      \"number\": \"1.3\",\n"
                                       "      \"score\": 0,\n"
                                       "      \"max_score\": 5,\n"
                                       "      \"status\": \"failed\",\n"
                                       "      \"visibility\": \"hidden\",\n"));
    ck_assert_ptr_nonnull(strstr(json, "\"number\": \"2.1\""));
    ck_assert_ptr_nonnull(strstr(json, "\"visibility\": \"after_due_date\""));
    ck_assert_ptr_nonnull(strstr(json, "\"number\": \"2.3\",\n      \"score\": 1.5,\n"
                                       "      \"max_score\": 1.5,\n"));
    ck_assert_ptr_nonnull(strstr(json, "\"max_score\": 0.5,"));
    /* after the last test, the grade as feedback.txt opens with it, shown once
       published and worth nothing itself, closes the array without a comma */
    ck_assert_ptr_nonnull(strstr(json, "\"misconception\": null\n      }\n    },\n    {\n"
                                       "      \"name\": \"Your grade\",\n"
                                       "      \"score\": 0,\n      \"max_score\": 0,\n"
                                       "      \"visibility\": \"after_published\",\n"
                                       "      \"output\": \"Final score: "));
    ck_assert_ptr_nonnull(strstr(json, "\"output\": \"Final score: 3.5/16\\nHidden tests: 2 tests, "
                                       "0 of 7 points earned (what they check is not shown)\\n"
                                       "9 of 16 points visible; 7 in hidden tests\\n\\n\",\n"));
    ck_assert_ptr_nonnull(strstr(json, "\"extra_data\": {\n        \"grade\": true\n      }\n    }\n  ]\n}\n"));

    /* the file holds exactly the text, and nothing is left beside it */
    char *dir = temp_dir();
    char *path = gr_xasprintf("%s/results.json", dir);
    ck_assert_int_eq(gr_report_json(path, &r, NULL), 0);
    size_t len;
    char *back = gr_read_file(path, &len);
    ck_assert_ptr_nonnull(back);
    ck_assert_str_eq(back, json);

    if (have_python3()) {
        /* an independent parser agrees, and the tests add up to the totals */
        char *cmd = gr_xasprintf(
            "python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); "
            "t=d[\"tests\"]; "
            "assert abs(sum(x[\"score\"] for x in t) - d[\"score\"]) < 1e-9; "
            "assert abs(sum(x[\"max_score\"] for x in t) - d[\"max_score\"]) < 1e-9; "
            "assert len(t) == 9 and t[8][\"name\"] == \"Your grade\"; "
            "assert t[1][\"output\"].count(\"\\ufffd\") == 1; "
            "assert \"\\x01\" in t[1][\"output\"] and \"\\x1b[32m\" in t[1][\"output\"]' %s",
            path);
        ck_assert_int_eq(system(cmd), 0);
        free(cmd);
    } else {
        fprintf(stderr, "test_reports: python3 not found; the second JSON parser is skipped\n");
    }
    ck_assert_int_eq(unlink(path), 0);
    ck_assert_int_eq(rmdir(dir), 0);        /* empty: no temporary file left */
    free(back);
    free(path);
    free(dir);
    free(json);
    gr_result_free(&r);
}
END_TEST

START_TEST(json_string_escapes)
{
    /* " \ / newline CR tab BS DEL, e-acute (c3 a9), euro (e2 82 ac), U+2028,
       an overlong '/' (c0 af), a lone surrogate (ed a0 80), a truncated euro:
       each invalid byte one U+FFFD, the rest as JSON escapes or as they are */
    json_t *v = gr_json_text("\"\\/\n\r\t\b\x7f\xc3\xa9\xe2\x82\xac\xe2\x80\xa8\xc0\xaf\xed\xa0\x80\xe2\x82");
    char *text = json_dumps(v, JSON_ENCODE_ANY);
    ck_assert_str_eq(text, "\"\\\"\\\\/\\n\\r\\t\\b\x7f\xc3\xa9\xe2\x82\xac\xe2\x80\xa8"
                           "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"
                           "\xef\xbf\xbd\xef\xbf\xbd\"");
    ck_assert(json_valid(text));
    free(text);
    json_decref(v);
    /* points without float noise, whole ones as integers */
    static const struct { double x; const char *text; } pts[] = {
        {12.999999999999996, "13"}, {9.59999999999999, "9.6"}, {0.1 + 0.2, "0.3"},
        {3.65, "3.65"}, {-0.0, "0"}, {1.0 / 0.0, "0"}, {1e300, "1e300"}};
    for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++) {
        json_t *n = gr_json_points(pts[i].x);
        char *t = json_dumps(n, JSON_ENCODE_ANY | JSON_REAL_PRECISION(15));
        ck_assert_msg(strcmp(t, pts[i].text) == 0, "%.17g printed %s, want %s", pts[i].x, t,
                      pts[i].text);
        free(t);
        json_decref(n);
    }
}
END_TEST

/* ---- JUnit ------------------------------------------------------------------------------ */

START_TEST(junit_counts_and_escapes)
{
    gr_report r;
    build_report(&r);
    char *xml = gr_report_junit_text(&r);

    /* lab01: wrong answer is a failure, crashed an error; lab02: not implemented and
       forbidden call are failures, timed out and out of memory errors */
    ck_assert_ptr_nonnull(strstr(xml, "<testsuites name=\"attnlab\" tests=\"8\" failures=\"3\" "
                                      "errors=\"3\" skipped=\"0\" time=\"2.400\">"));
    /* suite time = sum of its tests: 0.010 + 0.020 + 0.030 = 0.060 */
    ck_assert_ptr_nonnull(strstr(xml, "<testsuite name=\"lab01-scores\" tests=\"3\" failures=\"1\" "
                                      "errors=\"1\" skipped=\"0\" time=\"0.060\">"));
    /* 0.005 + 2.0 + 0.004 + 0 + 0.001 = 2.010 */
    ck_assert_ptr_nonnull(strstr(xml, "<testsuite name=\"lab02-softmax\" tests=\"5\" failures=\"2\" "
                                      "errors=\"2\" skipped=\"0\" time=\"2.010\">"));
    ck_assert_int_eq(count_of(xml, "<testcase "), 8);
    ck_assert_int_eq(count_of(xml, "<failure "), 3);
    ck_assert_int_eq(count_of(xml, "<error "), 3);
    ck_assert_ptr_nonnull(strstr(xml, "<testcase name=\"dot_worked_example\" classname=\"lab01-scores\" "
                                      "time=\"0.010\">\n      <properties><property "
                                      "name=\"visibility\" value=\"visible\"/></properties>\n"
                                      "    </testcase>\n"));
    ck_assert_ptr_nonnull(strstr(xml, "<property name=\"score\" value=\"1.5\"/>"));
    ck_assert_ptr_nonnull(strstr(xml, "<error message=\"crashed: killed by signal SIGSEGV "
                                      "(segmentation fault)\" type=\"crashed\">"));
    ck_assert_ptr_nonnull(strstr(xml, "<error message=\"timed out: over the time limit of 2000 ms\" "
                                      "type=\"timed out\">"));
    ck_assert_ptr_nonnull(strstr(xml, "<failure message=\"not implemented: lab_softmax returned "
                                      "LAB_NOT_IMPLEMENTED: the stub is untouched\" "
                                      "type=\"not implemented\">"));
    /* quotes as entities, 0x01 dropped, 0xff as U+FFFD, the message attribute
       holding the first line only */
    ck_assert_ptr_nonnull(strstr(xml, "<failure message=\"wrong answer: S[0][1][2]: expected 0.5, "
                                      "got &quot;1.0&quot; (relative error 1)\" type=\"wrong answer\">"));
    ck_assert_ptr_nonnull(strstr(xml, "input row:\tq = [1, 2] \xef\xbf\xbd end\n"));
    ck_assert_ptr_nonnull(strstr(xml, "| [32mall tests passed[0m\n"));
    for (const unsigned char *p = (const unsigned char *)xml; *p; p++)
        ck_assert_msg(*p >= 0x20 || *p == '\n' || *p == '\t',
                      "control byte 0x%02x in the XML", *p);

    char *dir = temp_dir();
    char *path = gr_xasprintf("%s/junit.xml", dir);
    ck_assert_int_eq(gr_report_junit(path, &r), 0);
    char *back = gr_read_file(path, NULL);
    ck_assert_str_eq(back, xml);
    if (have_python3()) {
        char *cmd = gr_xasprintf(
            "python3 -c 'import sys, xml.etree.ElementTree as E; t=E.parse(sys.argv[1]).getroot(); "
            "assert t.tag == \"testsuites\" and len(t) == 2; "
            "assert [s.get(\"tests\") for s in t] == [\"3\", \"5\"]; "
            "assert len(t.findall(\".//failure\")) == 3 and len(t.findall(\".//error\")) == 3' %s",
            path);
        ck_assert_int_eq(system(cmd), 0);
        free(cmd);
    }
    ck_assert_int_eq(unlink(path), 0);
    ck_assert_int_eq(rmdir(dir), 0);
    free(back);
    free(path);
    free(dir);
    free(xml);
    gr_result_free(&r);
}
END_TEST

START_TEST(xml_text_escapes)
{
    gr_strbuf b = {0};
    gr_report_junit_xml_text(&b, "a&b<c>d\"e'f\x01g\x1b[0m\th\ni\x7f\xff\xef\xbf\xbfj");
    ck_assert_str_eq(b.s, "a&amp;b&lt;c&gt;d&quot;e&apos;fg[0m\th\ni\xef\xbf\xbd\xef\xbf\xbdj");
    free(b.s);
}
END_TEST

/* ---- writing files ------------------------------------------------------------------------ */

START_TEST(write_into_missing_folder_fails_cleanly)
{
    gr_report r;
    build_report(&r);
    char *dir = temp_dir();
    char *path = gr_xasprintf("%s/no-such-folder/results.json", dir);
    errno = 0;
    ck_assert_int_eq(gr_report_json(path, &r, NULL), -1);
    ck_assert_int_eq(errno, ENOENT);
    errno = 0;
    ck_assert_int_eq(gr_report_junit(path, &r), -1);
    ck_assert_int_eq(errno, ENOENT);
    struct stat st;
    ck_assert_int_eq(stat(path, &st), -1);
    /* rmdir succeeds only on an empty folder: nothing was created anywhere */
    ck_assert_int_eq(rmdir(dir), 0);
    free(path);
    free(dir);
    gr_result_free(&r);
}
END_TEST

/* An existing report is replaced whole, never truncated or appended to. */
START_TEST(write_replaces_old_file)
{
    gr_report r;
    build_report(&r);
    char *dir = temp_dir();
    char *path = gr_xasprintf("%s/results.json", dir);
    ck_assert_int_eq(gr_write_file_atomic(path, "old contents that are longer than nothing", 42), 0);
    ck_assert_int_eq(gr_report_json(path, &r, NULL), 0);
    char *back = gr_read_file(path, NULL);
    ck_assert(json_valid(back));
    ck_assert_ptr_null(strstr(back, "old contents"));
    unlink(path);
    ck_assert_int_eq(rmdir(dir), 0);
    free(back);
    free(path);
    free(dir);
    gr_result_free(&r);
}
END_TEST

/* ---- helpers shared by the writers ---------------------------------------------------------- */

START_TEST(utf8_decoding)
{
    uint32_t cp = 0;
    ck_assert_int_eq(gr_utf8_decode((const unsigned char *)"A", 1, &cp), 1);
    ck_assert_uint_eq(cp, 0x41);
    ck_assert_int_eq(gr_utf8_decode((const unsigned char *)"\xc3\xa9", 2, &cp), 2);
    ck_assert_uint_eq(cp, 0xe9);                     /* e-acute */
    ck_assert_int_eq(gr_utf8_decode((const unsigned char *)"\xe2\x82\xac", 3, &cp), 3);
    ck_assert_uint_eq(cp, 0x20ac);                   /* euro sign */
    ck_assert_int_eq(gr_utf8_decode((const unsigned char *)"\xf0\x9f\x98\x80", 4, &cp), 4);
    ck_assert_uint_eq(cp, 0x1f600);
    ck_assert_int_eq(gr_utf8_decode((const unsigned char *)"\xf4\x8f\xbf\xbf", 4, &cp), 4);
    ck_assert_uint_eq(cp, 0x10ffff);                 /* the last code point */
    ck_assert_int_eq(gr_utf8_decode((const unsigned char *)"\xc0\xaf", 2, &cp), 0);         /* overlong */
    ck_assert_int_eq(gr_utf8_decode((const unsigned char *)"\xe0\x80\xaf", 3, &cp), 0);     /* overlong */
    ck_assert_int_eq(gr_utf8_decode((const unsigned char *)"\xed\xa0\x80", 3, &cp), 0);     /* surrogate */
    ck_assert_int_eq(gr_utf8_decode((const unsigned char *)"\xf4\x90\x80\x80", 4, &cp), 0); /* > U+10FFFF */
    ck_assert_int_eq(gr_utf8_decode((const unsigned char *)"\xe2\x82", 2, &cp), 0);         /* truncated */
    ck_assert_int_eq(gr_utf8_decode((const unsigned char *)"\x80", 1, &cp), 0);             /* continuation */
    ck_assert_int_eq(gr_utf8_decode((const unsigned char *)"\xff", 1, &cp), 0);
}
END_TEST

START_TEST(verdict_names)
{
    static const char *const names[GR_VERDICT_COUNT] = {
        "passed", "wrong answer", "not implemented", "compile error", "crashed",
        "timed out", "out of memory", "output limit", "forbidden call", "missing", "ambiguous",
        "unreadable file",
    };
    for (int v = 0; v < GR_VERDICT_COUNT; v++)
        ck_assert_str_eq(gr_result_verdict_name((gr_verdict)v), names[v]);
    ck_assert_str_eq(gr_result_verdict_name(GR_VERDICT_COUNT), "unknown verdict");
}
END_TEST

START_TEST(feedback_of_a_passed_test_is_one_word)
{
    gr_report r;
    build_report(&r);
    char *fb = gr_report_text_feedback(&r.labs[0], &r.labs[0].tests[0]);
    ck_assert_str_eq(fb, "passed\n");   /* its debug output is not repeated */
    free(fb);
    gr_result_free(&r);
    ck_assert_ptr_null(r.labs);
    ck_assert_int_eq(r.n_labs, 0);
    gr_result_free(&r);                  /* freeing twice is harmless */
}
END_TEST

/* A time-out says which limit stopped the test, and its figures agree: the
   CPU budget when the CPU time reached it (or SIGXCPU came), else the
   wall-clock backstop ("1.72 s of CPU" under "the time limit of 2000 ms of
   CPU time" was the backstop firing on a busy machine). */
START_TEST(timeout_message_names_the_limit)
{
    gr_sandbox_result run;
    memset(&run, 0, sizeof run);
    run.timed_out = 1;
    run.cpu_seconds = 1.72;
    run.seconds = 10.0;
    gr_strbuf b = {0};
    gr_judge_timeout_message(&b, "lab_x(n=3)", 2000, &run);
    ck_assert_str_eq(b.s, "lab_x(n=3)\nstopped by the wall-clock limit after 10.00 s, having "
                          "used only 1.72 s of its 2000 ms of CPU time: it was waiting rather "
                          "than computing (sleeping, or blocked reading input), or the machine "
                          "was overloaded");
    free(gr_sb_take(&b));
    run.cpu_seconds = 2.01;
    run.seconds = 2.3;
    gr_judge_timeout_message(&b, "lab_x(n=3)", 2000, &run);
    ck_assert_str_eq(b.s, "lab_x(n=3)\nstopped at the time limit of 2000 ms of CPU time (it "
                          "used 2.01 s of CPU in 2.30 s of wall clock): an endless loop, or far "
                          "more work than needed");
    free(gr_sb_take(&b));
    run.timed_out = 0;                    /* the kernel's SIGXCPU, whatever rusage rounds to */
    run.term_signal = SIGXCPU;
    run.cpu_seconds = 1.999;
    gr_judge_timeout_message(&b, "f()", 2000, &run);
    ck_assert_ptr_nonnull(strstr(b.s, "stopped at the time limit of 2000 ms of CPU time"));
    free(gr_sb_take(&b));
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("report writers");
    TCase *tc;
    tc = tcase_create("json");
    tcase_add_test(tc, json_validator_rejects_bad_json);
    tcase_add_test(tc, json_fields_totals_and_escapes);
    tcase_add_test(tc, json_string_escapes);
    suite_add_tcase(s, tc);

    tc = tcase_create("junit");
    tcase_add_test(tc, junit_counts_and_escapes);
    tcase_add_test(tc, xml_text_escapes);
    suite_add_tcase(s, tc);

    tc = tcase_create("files");
    tcase_add_test(tc, write_into_missing_folder_fails_cleanly);
    tcase_add_test(tc, write_replaces_old_file);
    suite_add_tcase(s, tc);

    tc = tcase_create("shared");
    tcase_add_test(tc, utf8_decoding);
    tcase_add_test(tc, verdict_names);
    tcase_add_test(tc, feedback_of_a_passed_test_is_one_word);
    tcase_add_test(tc, timeout_message_names_the_limit);
    suite_add_tcase(s, tc);
    return s;
}
