/* test_manifest.c: the lab manifest reader and its checks (grader/tools/manifest.c,
 * manifest_check.c) on small hostile manifests, each failing with one message at
 * the file, line and column of the mistake; and the course's own rubrics, which
 * must pass every check. Run from the top of the tree (make test-unit does). */
#include <check.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tools/manifest.h"

Suite *test_suite(void);

/* A one-function manifest of lab `lab`; extra goes under the function, tests
   after it. */
static char *manifest(int lab, const char *sig, const char *extra, const char *tests)
{
    static char buf[4096];
    snprintf(buf, sizeof buf,
             "lab: %d\nname: toy\ndir: lab%02d-toy\ntitle: a toy\nsource: lab%02d.c\n"
             "functions:\n"
             "  - name: lab_row_sums\n"
             "    signature: \"%s\"\n"
             "    handout: 2\n"
             "%s"
             "tests:\n%s",
             lab, lab, lab, sig, extra, tests);
    return buf;
}

#define SIG "int lab_row_sums(float *out, const float *W, int rows, int n)"
#define ONE_TEST "  - {name: t, kind: k, points: 2}\n"

static int parse(const char *text, mf_lab *lab, char *err, size_t errlen)
{
    return mf_parse("toy.yaml", text, strlen(text), lab, err, errlen);
}

START_TEST(good_manifest_reads_every_field)
{
    const char *text =
        "lab: 2\nname: softmax\ndir: lab02-softmax\ntitle: masks\nsource: lab02.c\n"
        "functions:\n"
        "  - name: lab_softmax\n"
        "    signature: \"int lab_softmax(float *W, const  float*S, int rows, int n, "
        "int *count)\"\n"
        "    shapes: {W: [rows, n], count: [1]}\n"
        "    handout: 2\n    points: 1.5\n"
        "    variants:\n"
        "      - {suffix: inplace, same: {W: S}}\n"
        "      - {suffix: nocount, null: count}\n"
        "  - name: lab_scale\n"
        "    signature: \"int lab_scale(float *S, float tau, uint64_t seed, long n)\"\n"
        "    handout: 3\n    uses: [lab_softmax]\n    points: 0.5\n"
        "tests:\n  - {name: a, points: 1.5}\n  - {name: b, points: 0.5}\n";
    mf_lab lab;
    char err[512] = "";
    ck_assert_msg(parse(text, &lab, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(lab.lab, 2);
    ck_assert_str_eq(lab.dir, "lab02-softmax");
    ck_assert_int_eq(lab.n_fns, 2);
    const mf_function *f = &lab.fns[0];
    ck_assert_int_eq(f->n_args, 5);
    ck_assert_int_eq(f->args[0].kind, 'f');
    ck_assert_int_eq(f->args[1].kind, 'f');
    ck_assert_str_eq(f->args[1].name, "S");
    ck_assert_int_eq(f->args[2].kind, 'n');
    ck_assert_int_eq(f->args[4].kind, 'i');
    ck_assert_int_eq(f->args[0].n_dims, 2);
    ck_assert_str_eq(f->args[0].dims[1], "n");
    ck_assert_int_eq(f->n_variants, 2);
    ck_assert_str_eq(f->variants[0].same, "W");
    ck_assert_str_eq(f->variants[0].same_as, "S");
    ck_assert_str_eq(f->variants[1].null, "count");
    char name[64];
    mf_call_name(&lab, f, -1, name, sizeof name);
    ck_assert_str_eq(name, "LAB02_SOFTMAX");
    mf_call_name(&lab, f, 0, name, sizeof name);
    ck_assert_str_eq(name, "LAB02_SOFTMAX_INPLACE");
    f = &lab.fns[1];
    ck_assert_int_eq(f->args[1].kind, 'r');
    ck_assert_str_eq(f->args[2].type, "uint64_t");
    ck_assert_int_eq(f->args[3].kind, 'n');
    ck_assert_str_eq(f->uses[0], "lab_softmax");
    ck_assert(lab.test_points == 2.0);
    mf_free(&lab);
}
END_TEST

/* Each bad manifest fails with the message's start (file:line:column) and a
   phrase of it. */
static void expect_error(const char *text, const char *where, const char *says)
{
    mf_lab lab;
    char err[1024] = "";
    ck_assert_msg(parse(text, &lab, err, sizeof err) != 0, "accepted:\n%s", text);
    ck_assert_msg(strncmp(err, where, strlen(where)) == 0, "want %s, got: %s", where, err);
    ck_assert_msg(strstr(err, says) != NULL, "want \"%s\" in: %s", says, err);
    mf_free(&lab);
}

START_TEST(bad_signatures_are_refused_at_their_line)
{
    expect_error(manifest(1, "void lab_row_sums(float *out)", "    points: 2\n", ONE_TEST),
                 "toy.yaml:8:16:", "must start with \"int \"");
    expect_error(manifest(1, "int lab_row_sums(float **out, int n)", "    points: 2\n", ONE_TEST),
                 "toy.yaml:8:16:", "not float **");
    expect_error(manifest(1, "int lab_row_sums(char *out, int n)", "    points: 2\n", ONE_TEST),
                 "toy.yaml:8:16:", "not char *");
    expect_error(manifest(1, "int lab_other(float *out, int n)", "    points: 2\n", ONE_TEST),
                 "toy.yaml:8:16:", "declares lab_other, not lab_row_sums");
    expect_error(manifest(1, "int lab_row_sums(float *out, int out)", "    points: 2\n",
                          ONE_TEST), "toy.yaml:8:16:", "two parameters called out");
    expect_error(manifest(1, "int lab_row_sums(float *, int n)", "    points: 2\n", ONE_TEST),
                 "toy.yaml:8:16:", "needs a type and a name");
}
END_TEST

START_TEST(bad_shapes_and_variants_are_refused)
{
    expect_error(manifest(1, SIG, "    shapes: {out: [rows, m]}\n    points: 2\n", ONE_TEST),
                 "toy.yaml:10:", "size \"m\" is neither");
    expect_error(manifest(1, SIG, "    shapes: {rows: [1]}\n    points: 2\n", ONE_TEST),
                 "toy.yaml:10:14:", "rows is no array argument");
    expect_error(manifest(1, SIG, "    points: 2\n    variants: [{suffix: x, null: W, "
                          "same: {out: W}}]\n", ONE_TEST),
                 "toy.yaml:11:", "exactly one of");
    expect_error(manifest(1, SIG, "    points: 2\n    poitns: 3\n", ONE_TEST), "toy.yaml:11:",
                 "did you mean \"points\"");
    expect_error("lab: 1\nname: toy\ndir: lab01-toy\ntitle: t\nsource: lab01.c\n",
                 "toy.yaml:1:1:", "missing the key \"functions\"");
}
END_TEST

START_TEST(dir_and_source_must_follow_the_number)
{
    char text[4096];
    snprintf(text, sizeof text, "%s", manifest(3, SIG, "    points: 2\n", ONE_TEST));
    char *dir = strstr(text, "lab03-toy");
    dir[4] = '4';
    expect_error(text, "toy.yaml:3:6:", "lives in lab03-toy");
}
END_TEST

static void load_ok(const char *text, const char *path, mf_lab *lab)
{
    char err[1024] = "";
    ck_assert_msg(mf_parse(path, text, strlen(text), lab, err, sizeof err) == 0, "%s", err);
}

START_TEST(a_gap_in_the_lab_numbers_names_the_file)
{
    mf_lab labs[3];
    load_ok(manifest(3, SIG, "    points: 2\n", ONE_TEST), "lab03.yaml", &labs[0]);
    load_ok(manifest(1, SIG, "    points: 2\n", ONE_TEST), "lab01.yaml", &labs[1]);
    char err[1024] = "";
    ck_assert_int_eq(mf_check_numbers(labs, 2, err, sizeof err), -1);
    ck_assert_msg(strncmp(err, "lab03.yaml:1:6: lab 3, but there is no lab 2", 44) == 0, "%s",
                  err);
    load_ok(manifest(2, SIG, "    points: 2\n", ONE_TEST), "lab02.yaml", &labs[2]);
    ck_assert_msg(mf_check_numbers(labs, 3, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(labs[0].lab, 1);   /* sorted by number */
    for (int i = 0; i < 3; i++)
        mf_free(&labs[i]);
    load_ok(manifest(1, SIG, "    points: 2\n", ONE_TEST), "a.yaml", &labs[0]);
    load_ok(manifest(1, SIG, "    points: 2\n", ONE_TEST), "b.yaml", &labs[1]);
    ck_assert_int_eq(mf_check_numbers(labs, 2, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "b.yaml:1:6: lab 1 again") != NULL, "%s", err);
    mf_free(&labs[0]);
    mf_free(&labs[1]);
}
END_TEST

/* A toy course tree in a fresh folder: lab 1's header and handout. */
static char *toy_tree(const char *header, const char *handout)
{
    static char root[64];
    snprintf(root, sizeof root, "/tmp/test_manifest.XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(root));
    char path[256];
    snprintf(path, sizeof path, "%s/labs", root);
    ck_assert_int_eq(mkdir(path, 0755), 0);
    snprintf(path, sizeof path, "%s/labs/lab01-toy", root);
    ck_assert_int_eq(mkdir(path, 0755), 0);
    snprintf(path, sizeof path, "%s/labs/lab01-toy/lab01.h", root);
    FILE *f = fopen(path, "w");
    fputs(header, f);
    fclose(f);
    snprintf(path, sizeof path, "%s/labs/lab01-toy/README.md", root);
    f = fopen(path, "w");
    fputs(handout, f);
    fclose(f);
    return root;
}

static void rm_tree(const char *root)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    ck_assert_int_eq(system(cmd), 0);
}

#define HEADER "/* lab01.h: lab_row_sums(out, W) is ... */\n#include <stdint.h>\n\n" \
               "/* Row sums. */\nint lab_row_sums(float *out,\n                 const float *W, " \
               "int rows, int n);\n"
#define HANDOUT "# Lab 1\n\n## 1. Story\n\n## 2. Row sums\n"

static int check_tree(const char *text, const char *header, const char *handout, char *err,
                      size_t errlen)
{
    mf_lab lab;
    load_ok(text, "toy.yaml", &lab);
    char *root = toy_tree(header, handout);
    int rc = mf_check_tree(root, &lab, err, errlen);
    rm_tree(root);
    mf_free(&lab);
    return rc;
}

START_TEST(the_tree_agrees_with_a_good_manifest)
{
    char err[1024] = "";
    ck_assert_msg(check_tree(manifest(1, SIG, "    points: 2\n", ONE_TEST), HEADER, HANDOUT,
                             err, sizeof err) == 0, "%s", err);
}
END_TEST

START_TEST(a_header_that_disagrees_is_named_with_its_line)
{
    char err[1024] = "";
    const char *text = manifest(1, "int lab_row_sums(float *out, const float *W, int n)",
                                "    points: 2\n", ONE_TEST);
    ck_assert_int_eq(check_tree(text, HEADER, HANDOUT, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "toy.yaml:8:16: the signature of lab_row_sums is not what ") == err
                  && strstr(err, "lab01.h:5 declares"), "%s", err);
    ck_assert_int_eq(check_tree(manifest(1, SIG, "    points: 2\n", ONE_TEST),
                                HEADER "int lab_extra(int n);\n", HANDOUT, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "toy.yaml:7:3: ") == err &&
                  strstr(err, "lab01.h:7 declares a function the manifest does not list: "
                         "int lab_extra(int n)"), "%s", err);
    ck_assert_int_eq(check_tree(manifest(1, SIG, "    points: 2\n", ONE_TEST),
                                "/* int lab_row_sums(float *out); */\n", HANDOUT, err,
                                sizeof err), -1);
    ck_assert_msg(strstr(err, "toy.yaml:8:16: lab_row_sums is not declared"), "%s", err);
}
END_TEST

START_TEST(points_that_do_not_add_up_are_refused)
{
    char err[1024] = "";
    ck_assert_int_eq(check_tree(manifest(1, SIG, "    points: 3\n", ONE_TEST), HEADER, HANDOUT,
                                err, sizeof err), -1);
    ck_assert_msg(strcmp(err, "toy.yaml:7:3: the functions' points add up to 3, the tests' "
                         "to 2") == 0, "%s", err);
}
END_TEST

START_TEST(an_unknown_use_or_section_is_refused)
{
    char err[1024] = "";
    ck_assert_int_eq(check_tree(manifest(1, SIG, "    uses: [lab_nothing]\n    points: 2\n",
                                         ONE_TEST), HEADER, HANDOUT, err, sizeof err), -1);
    ck_assert_msg(strcmp(err, "toy.yaml:10:11: uses: lab_nothing is no function of lab 1") == 0,
                  "%s", err);
    ck_assert_int_eq(check_tree(manifest(1, SIG, "    uses: [lab_row_sums]\n    points: 2\n",
                                         ONE_TEST), HEADER, HANDOUT, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "the function itself"), "%s", err);
    ck_assert_int_eq(check_tree(manifest(1, SIG, "    points: 2\n", ONE_TEST), HEADER,
                                "# Lab 1\n\n## 1. Story\n\n### 2. not a section\n", err,
                                sizeof err), -1);
    ck_assert_msg(strstr(err, "toy.yaml:9:14: handout: ") == err &&
                  strstr(err, "has no section \"## 2. ...\""), "%s", err);
}
END_TEST

static int check_syllabus(const char *syllabus, char *warn, size_t wl, char *err, size_t el)
{
    mf_lab lab;
    load_ok(manifest(1, SIG, "    points: 2\n", ONE_TEST), "toy.yaml", &lab);
    char path[] = "/tmp/test_manifest_syllabus.XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, syllabus, strlen(syllabus)), (ssize_t)strlen(syllabus));
    close(fd);
    int rc = mf_check_syllabus(path, &lab, 1, warn, wl, err, el);
    unlink(path);
    mf_free(&lab);
    return rc;
}

START_TEST(the_syllabus_points_are_checked)
{
    char warn[512], err[512];
    ck_assert_int_eq(check_syllabus("# Course\n\n### Lab 1: toy\n\n- **Points: 2.**\n\n"
                                    "  | `lab_row_sums` | 2 | §2 |\n", warn, sizeof warn,
                                    err, sizeof err), 0);
    ck_assert_str_eq(warn, "");
    ck_assert_int_eq(check_syllabus("### Lab 1: toy\n\n- **Points: 3.**\n", warn, sizeof warn,
                                    err, sizeof err), -1);
    ck_assert_msg(strstr(err, ":3:1: lab 1 is worth 3 points here, 2 in toy.yaml"), "%s", err);
    ck_assert_int_eq(check_syllabus("### Lab 1: toy\n\n  | `lab_row_sums` | 1.5 | §2 |\n", warn,
                                    sizeof warn, err, sizeof err), -1);
    ck_assert_msg(strstr(err, ":3:1: lab_row_sums is worth 1.5 points here"), "%s", err);
    ck_assert_int_eq(check_syllabus("### Lab 1: toy\n\n  | `lab_nope` | 2 |\n", warn,
                                    sizeof warn, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "lab_nope is no function of lab 1"), "%s", err);
    /* a lab the syllabus does not list yet: a warning, not an error */
    ck_assert_int_eq(check_syllabus("### Lab 2: other\n\n- **Points: 9.**\n", warn, sizeof warn,
                                    err, sizeof err), 0);
    ck_assert_msg(strstr(warn, "warning: lab 1 (toy.yaml) has no section"), "%s", warn);
}
END_TEST

/* The course's own rubrics pass every check labgen makes. */
START_TEST(the_course_manifests_pass)
{
    glob_t g;
    ck_assert_int_eq(glob("data/rubrics/lab*.yaml", 0, NULL, &g), 0);
    ck_assert_int_ge((int)g.gl_pathc, 1);
    mf_lab *labs = calloc(g.gl_pathc, sizeof *labs);
    char err[2048] = "", warn[2048] = "";
    for (size_t i = 0; i < g.gl_pathc; i++) {
        ck_assert_msg(mf_load(g.gl_pathv[i], &labs[i], err, sizeof err) == 0, "%s", err);
        ck_assert_msg(mf_check_tree(".", &labs[i], err, sizeof err) == 0, "%s", err);
    }
    ck_assert_msg(mf_check_numbers(labs, (int)g.gl_pathc, err, sizeof err) == 0, "%s", err);
    ck_assert_msg(mf_check_syllabus("syllabus.md", labs, (int)g.gl_pathc, warn, sizeof warn,
                                    err, sizeof err) == 0, "%s", err);
    for (size_t i = 0; i < g.gl_pathc; i++)
        mf_free(&labs[i]);
    free(labs);
    globfree(&g);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("manifest");
    TCase *tc = tcase_create("manifest");
    tcase_add_test(tc, good_manifest_reads_every_field);
    tcase_add_test(tc, bad_signatures_are_refused_at_their_line);
    tcase_add_test(tc, bad_shapes_and_variants_are_refused);
    tcase_add_test(tc, dir_and_source_must_follow_the_number);
    tcase_add_test(tc, a_gap_in_the_lab_numbers_names_the_file);
    tcase_add_test(tc, the_tree_agrees_with_a_good_manifest);
    tcase_add_test(tc, a_header_that_disagrees_is_named_with_its_line);
    tcase_add_test(tc, points_that_do_not_add_up_are_refused);
    tcase_add_test(tc, an_unknown_use_or_section_is_refused);
    tcase_add_test(tc, the_syllabus_points_are_checked);
    tcase_add_test(tc, the_course_manifests_pass);
    suite_add_tcase(s, tc);
    return s;
}
