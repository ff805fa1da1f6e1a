/* test_mutants.c: the mutant manifest loader (data/mutants/labNN/manifest.yaml)
 * and the writing of a mutant from the solution and its edits. A good manifest
 * must load into exactly the values written; each mistake must fail with one
 * message at the exact line and column; an edit whose from text is missing
 * from the solution, or occurs twice, must fail at that edit. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/checkfile.h"
#include "base/labmod.h"
#include "base/layout.h"
#include "engine/mutants.h"
#include "base/util.h"

Suite *test_suite(void);

static char dir[64];

static void make_dir(void)
{
    snprintf(dir, sizeof dir, "/tmp/attnlab-test-mutants-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void remove_dir(void)
{
    char *cmd = gr_xasprintf("rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
    free(cmd);
}

/* Write text to dir/name and return its path (static buffer). */
static const char *put(const char *name, const char *text)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    ck_assert_int_eq(gr_write_file_atomic(path, text, strlen(text)), 0);
    return path;
}

static const char solution[] =
    "#include <math.h>\n"
    "\n"
    "int lab_scale(int d)\n"
    "{\n"
    "    return 1 / d;\n"
    "}\n"
    "\n"
    "int lab_twice(int d)\n"
    "{\n"
    "    return 1 / d;\n"
    "}\n";

static const char good[] =
    "# a comment\n"
    "lab: 1\n"
    "mutants:\n"
    "  - name: inv_dk\n"
    "    why: scaled by d\n"
    "    edits:\n"
    "      - from: \"int lab_scale(int d)\\n{\\n    return 1 / d;\"\n"
    "        to: \"int lab_scale(int d)\\n{\\n    return d;   // MISTAKE\"\n"
    "      - from: |-\n"
    "          #include <math.h>\n"
    "        to: |-\n"
    "          #include <math.h>\n"
    "          #include <stdio.h>\n"
    "    verdict: wrong answer\n"
    "    misconception: inv_dk\n"
    "  - name: crash\n"
    "    why: 'reads NULL: \"crashed\"'\n"
    "    edits:\n"
    "      - from: \"int lab_twice\"\n"
    "        to: \"\"\n"
    "    verdict: crashed\n";

START_TEST(good_manifest_loads_and_writes)
{
    make_dir();
    gr_mutant_set s;
    char err[512];
    char *path = gr_xstrdup(put("manifest.yaml", good));
    ck_assert_msg(gr_mutants_load(path, &s, err, sizeof err) == 0, "%s", err);
    ck_assert_str_eq(s.path, path);
    ck_assert_int_eq(s.lab, 1);
    ck_assert_int_eq(s.n, 2);
    const gr_mutant *m = &s.mutants[0];
    ck_assert_str_eq(m->name, "inv_dk");
    ck_assert_str_eq(m->why, "scaled by d");
    ck_assert_int_eq(m->verdict, GR_WRONG_ANSWER);
    ck_assert_str_eq(m->misconception, "inv_dk");
    ck_assert_int_eq(m->n_edits, 2);
    ck_assert_str_eq(m->edits[0].from, "int lab_scale(int d)\n{\n    return 1 / d;");
    ck_assert_int_eq(m->edits[0].line, 7);
    ck_assert_int_eq(m->edits[0].column, 15);
    ck_assert_str_eq(m->edits[1].from, "#include <math.h>");
    ck_assert_str_eq(m->edits[1].to, "#include <math.h>\n#include <stdio.h>");
    ck_assert_int_eq(m->edits[1].line, 9);
    ck_assert_int_eq(m->edits[1].column, 15);
    ck_assert_str_eq(s.mutants[1].name, "crash");
    ck_assert_str_eq(s.mutants[1].why, "reads NULL: \"crashed\"");
    ck_assert_int_eq(s.mutants[1].verdict, GR_CRASHED);
    ck_assert_ptr_null(s.mutants[1].misconception);
    ck_assert_str_eq(s.mutants[1].edits[0].to, "");

    char *sol = gr_xstrdup(put("lab01.c", solution));
    char *out;
    ck_assert_msg(gr_mutants_write(&s, m, sol, dir, &out, err, sizeof err) == 0, "%s", err);
    char *want = gr_xasprintf("%s/inv_dk.c", dir);
    ck_assert_str_eq(out, want);
    char *text = gr_read_file(out, NULL);
    ck_assert_str_eq(text,
                     "#include <math.h>\n#include <stdio.h>\n\nint lab_scale(int d)\n{\n"
                     "    return d;   // MISTAKE\n}\n\nint lab_twice(int d)\n{\n    return 1 / d;\n}\n");
    free(text);
    free(out);
    free(want);
    free(sol);
    free(path);
    gr_mutants_free(&s);
    ck_assert_int_eq(s.n, 0);
    remove_dir();
}
END_TEST

/* Load text as a manifest and expect it to fail with exactly message. */
static void load_fails(const char *text, const char *message)
{
    make_dir();
    gr_mutant_set s;
    char err[512], want[600];
    const char *path = put("manifest.yaml", text);
    snprintf(want, sizeof want, "%s%s", path, message);
    ck_assert_int_eq(gr_mutants_load(path, &s, err, sizeof err), -1);
    ck_assert_str_eq(err, want);
    ck_assert_int_eq(s.n, 0);
    ck_assert_ptr_null(s.mutants);
    remove_dir();
}

#define HEAD "lab: 1\nmutants:\n  - name: inv_dk\n"

START_TEST(unknown_key)
{
    load_fails(HEAD "    why: w\n    file: inv_dk.c\n",
               ":5:5: unknown key \"file\" in mutant 1; the known keys are name, why, edits, verdict, "
               "misconception");
}
END_TEST

START_TEST(repeated_key)
{
    load_fails(HEAD "    why: w\n    why: again\n",
               ":5:5: duplicate key \"why\" in mutant 1 (first given on line 4); keep one");
}
END_TEST

START_TEST(missing_key)
{
    load_fails(HEAD "    edits:\n      - from: a\n        to: b\n    verdict: crashed\n",
               ":3:5: mutant 1 is missing the required key \"why\"");
    load_fails(HEAD "    why: w\n    edits:\n      - from: a\n        to: b\n",
               ":3:5: mutant 1 is missing the required key \"verdict\"");
}
END_TEST

START_TEST(empty_from)
{
    load_fails(HEAD "    why: w\n    edits:\n      - from: \"\"\n        to: b\n    verdict: crashed\n",
               ":6:15: edit 'from' text is empty; copy the text to replace from the solution");
}
END_TEST

START_TEST(bad_edits)
{
    load_fails(HEAD "    why: w\n    edits:\n      - from: a\n        too: b\n    verdict: crashed\n",
               ":7:9: unknown key \"too\" in edit 1 of mutant 1; did you mean \"to\"?");
    load_fails(HEAD "    why: w\n    edits:\n      - from: a\n    verdict: crashed\n",
               ":6:9: edit 1 of mutant 1 is missing the required key \"to\"");
    load_fails(HEAD "    why: w\n    edits: []\n    verdict: crashed\n",
               ":5:12: edits is a list of at least one edit (from: ..., to: ...)");
}
END_TEST

START_TEST(bad_values)
{
    load_fails("lab: 1\nmutants:\n  - name: ../x\n",
               ":3:11: name is a word of letters, digits, '_' and '-': ../x");
    load_fails(HEAD "    why: w\n    verdict: wrong\n",
               ":5:14: unknown verdict (use a name like 'wrong answer', 'crashed', 'timed out'): wrong");
    load_fails(HEAD "    why: |\n      two\n      lines\n",
               ":4:10: why is one line that says what the planted mistake is");
    load_fails(HEAD "    why: w\n    edits:\n      - {from: a, to: b}\n    verdict: crashed\n"
               "  - name: inv_dk\n    why: w\n    edits:\n      - {from: a, to: b}\n    verdict: crashed\n",
               ":8:5: two mutants are named inv_dk");
}
END_TEST

/* The manifest itself: its lab, its list, one document, syntax as file:line:column. */
START_TEST(bad_manifest)
{
    char *beyond = gr_xasprintf(":1:6: lab must be the number of one of the course's labs, "
                                "1 to %d, got 99", GR_N_LABS);   /* 99: in no course */
    load_fails("lab: 99\nmutants: []\n", beyond);
    free(beyond);
    load_fails("lab: one\nmutants: []\n", ":1:6: lab: expected a whole number, got \"one\"");
    load_fails("lab: 1\n", ":1:1: the manifest is missing the required key \"mutants\"");
    load_fails("lab: 1\nmutant: []\n",
               ":2:1: unknown key \"mutant\" in the manifest; did you mean \"mutants\"?");
    load_fails("lab: 1\nmutants: {name: x}\n",
               ":2:10: mutants: expected a list like [{name: ..., why: ...}], got a mapping "
               "(key: value lines)");
    load_fails("- lab\n", ":1:1: the manifest: expected a mapping (key: value lines), got a list");
    load_fails("", ":1:1: the manifest is empty; it needs lab: N and a list mutants:");
    load_fails("lab: 1\nmutants: []\n---\nlab: 2\n",
               ":4:1: a manifest is one YAML document; remove this second one");
    /* libyaml stops at the unclosed '[' when the file ends: line 3, column 1 */
    load_fails("lab: 1\nmutants: [\n",
               ":3:1: YAML syntax error: did not find expected node content (while parsing a "
               "flow node, which starts at line 3)");
    load_fails(HEAD "    why: w\n    misconception:\n",
               ":5:19: misconception: has no value; write it after the colon");
}
END_TEST

/* Write the first mutant of text against the solution and expect the error
   "MANIFEST" pre "SOLUTION" post. */
static void write_fails(const char *text, const char *pre, const char *post)
{
    make_dir();
    gr_mutant_set s;
    char err[512];
    char *path = gr_xstrdup(put("manifest.yaml", text));
    char *sol = gr_xstrdup(put("lab01.c", solution));
    ck_assert_msg(gr_mutants_load(path, &s, err, sizeof err) == 0, "%s", err);
    char *want = gr_xasprintf("%s%s%s%s", path, pre, sol, post);
    char unset[] = "unset";
    char *out = unset;
    ck_assert_int_eq(gr_mutants_write(&s, &s.mutants[0], sol, dir, &out, err, sizeof err), -1);
    ck_assert_ptr_null(out);
    ck_assert_str_eq(err, want);
    char *mutant = gr_xasprintf("%s/inv_dk.c", dir);
    ck_assert_int_ne(access(mutant, F_OK), 0);
    free(mutant);
    free(want);
    gr_mutants_free(&s);
    free(sol);
    free(path);
    remove_dir();
}

START_TEST(from_missing)
{
    write_fails(HEAD "    why: w\n    edits:\n      - from: \"return 2 / d;\"\n        to: x\n    verdict: crashed\n",
                ":6:15: edit 'from' text does not occur in ", "; copy it exactly from there");
    /* the second edit sees the text the first one made */
    write_fails(HEAD "    why: w\n    edits:\n      - from: \"<math.h>\"\n        to: \"<stdio.h>\"\n"
                "      - from: \"<math.h>\"\n        to: x\n    verdict: crashed\n",
                ":8:15: edit 'from' text does not occur in ", " (after the edits before it); copy it exactly from there");
}
END_TEST

START_TEST(from_twice)
{
    write_fails(HEAD "    why: w\n    edits:\n      - from: \"return 1 / d;\"\n        to: x\n    verdict: crashed\n",
                ":6:15: edit 'from' text occurs 2 times in ", "; make it unique");
}
END_TEST

START_TEST(missing_file_says_so)
{
    gr_mutant_set s;
    char err[512];
    ck_assert_int_eq(gr_mutants_load("/nonexistent/manifest.yaml", &s, err, sizeof err), -1);
    ck_assert_str_eq(err, "/nonexistent/manifest.yaml: cannot open: No such file or directory");
}
END_TEST

/* The Check file side of validate (checkfile.h): lab 2's solution passes its
   18 checks; the catalogued no_max_sub fails exactly one,
   test_softmax_large_scores_are_stable, built against the solution's test
   objects; a visible test that fails makes the visible verdict fail, a hidden
   one does not, and no visible test at all is no pass. */
START_TEST(check_file_verdicts)
{
    make_dir();
    char err[512], *src = NULL, *objs = gr_xasprintf("%s/objs", dir);
    char *sol = gr_layout_solution(".", 2), *manifest = gr_layout_mutant_manifest(".", 2);
    gr_checkfile_verdict v;
    ck_assert_msg(gr_checkfile_run(".", 2, sol, dir, objs, &v, err, sizeof err) == 0, "%s", err);
    ck_assert_msg(v.passed && strcmp(v.summary, "passed 18 checks") == 0, "%s", v.summary);
    gr_mutant_set set;
    ck_assert_msg(gr_mutants_load(manifest, &set, err, sizeof err) == 0, "%s", err);
    ck_assert_str_eq(set.mutants[0].name, "no_max_sub");
    ck_assert_msg(gr_mutants_write(&set, &set.mutants[0], sol, dir, &src, err, sizeof err) == 0,
                  "%s", err);
    ck_assert_msg(gr_checkfile_run(".", 2, src, dir, objs, &v, err, sizeof err) == 0, "%s", err);
    ck_assert_msg(!v.passed && strcmp(v.summary, "failing 1 of 18") == 0, "%s", v.summary);
    ck_assert_msg(strstr(v.first, ":F:lab_softmax:test_softmax_large_scores_are_stable:"), "%s",
                  v.first);

    gr_test_result t[2] = {{.visibility = GR_VISIBLE}, {.visibility = GR_HIDDEN,
                                                        .verdict = GR_WRONG_ANSWER}};
    gr_lab_result lr = {.tests = t, .n_tests = 2};
    ck_assert_int_eq(gr_checkfile_visible_passed(&lr), 1);
    t[0].verdict = GR_CRASHED;
    ck_assert_int_eq(gr_checkfile_visible_passed(&lr), 0);
    lr.tests = t + 1;
    lr.n_tests = 1;
    ck_assert_int_eq(gr_checkfile_visible_passed(&lr), 0);
    gr_mutants_free(&set);
    free(src);
    free(sol);
    free(manifest);
    free(objs);
    remove_dir();
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("mutants");
    TCase *tc = tcase_create("manifest");
    tcase_add_test(tc, good_manifest_loads_and_writes);
    tcase_add_test(tc, unknown_key);
    tcase_add_test(tc, repeated_key);
    tcase_add_test(tc, missing_key);
    tcase_add_test(tc, empty_from);
    tcase_add_test(tc, bad_edits);
    tcase_add_test(tc, bad_values);
    tcase_add_test(tc, bad_manifest);
    tcase_add_test(tc, from_missing);
    tcase_add_test(tc, from_twice);
    tcase_add_test(tc, missing_file_says_so);
    suite_add_tcase(s, tc);
    tc = tcase_create("check_file");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, check_file_verdicts);
    suite_add_tcase(s, tc);
    return s;
}
