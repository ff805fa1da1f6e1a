/* test_clusters.c: mistakes nobody has catalogued, found by the class.
 *
 * The relation finders on hand-made arrays (ratio, shift, transpose, rows
 * shifted or permuted, and arrays where none holds); the digest's rounding,
 * keying and canonical special values; a results.json whose digest fields are
 * malformed or too long read back bounded; and a class of lab 2: the
 * solution, two students with a catalogued mistake (no max subtraction),
 * three with one no misconception predicts (every weight divided by n once
 * more), one with another (the sum starts at 1), batched by the built
 * attnlab: exactly one cluster, of those three, its relation named on each
 * test, in report.md, report.html (as written and as headless Chromium
 * renders it, when chromium is installed) and clusters.json, and a student id
 * that is markup shown as text in each.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "class/clusters.h"
#include "engine/digest.h"
#include "fixtures/fixture_kit.h"
#include "base/labmod.h"
#include "base/layout.h"
#include "engine/relation.h"
#include "report/report.h"
#include "spawn.h"
#include "sup_yamlread.h"
#include "base/util.h"

Suite *test_suite(void);

static const gr_rel_tol TOL = {1e-6, 1e-4};

/* ---- the relation finders ------------------------------------------------------ */

START_TEST(ratio_and_shift_are_named_with_their_constant)
{
    const float want[6] = {0.5f, 0.25f, 0.0f, 0.125f, -INFINITY, 0.125f};
    float half[6], plus[6];
    for (int k = 0; k < 6; k++) {
        half[k] = want[k] * 0.5f;
        plus[k] = want[k] + 0.1f;
    }
    double c;
    ck_assert_int_eq(gr_relation_ratio(want, half, 6, TOL, &c), 1);
    ck_assert_double_eq_tol(c, 0.5, 1e-9);
    ck_assert_int_eq(gr_relation_shift(want, half, 6, TOL, &c), 0);
    ck_assert_int_eq(gr_relation_shift(want, plus, 6, TOL, &c), 1);
    ck_assert_double_eq_tol(c, 0.1, 1e-6);
    ck_assert_int_eq(gr_relation_ratio(want, plus, 6, TOL, &c), 0);
    ck_assert_int_eq(gr_relation_ratio(want, want, 6, TOL, &c), 0);   /* c = 1 is no mistake */
    ck_assert_int_eq(gr_relation_shift(want, want, 6, TOL, &c), 0);   /* nor c = 0 */
    half[4] = 0.0f;                                   /* a masked -inf not kept: no ratio */
    ck_assert_int_eq(gr_relation_ratio(want, half, 6, TOL, &c), 0);

    char out[GR_EXCERPT_MAX];
    gr_rel_shape sh = {1, 2, 3};
    half[4] = -INFINITY;
    ck_assert_int_eq(gr_relation_name(want, half, sh, TOL, out, sizeof out), 1);
    ck_assert_str_eq(out, "every value is 0.5 x the expected");
    ck_assert_int_eq(gr_relation_name(want, plus, sh, TOL, out, sizeof out), 1);
    ck_assert_str_eq(out, "every value is the expected + 0.1");
}
END_TEST

START_TEST(transpose_of_square_and_oblong_matrices)
{
    /* two matrices of 2 x 3; got holds each as 3 x 2 */
    const float want[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    const float got[12] = {1, 4, 2, 5, 3, 6, 7, 10, 8, 11, 9, 12};
    gr_rel_shape sh = {2, 2, 3};
    ck_assert_int_eq(gr_relation_transpose(want, got, sh, TOL), 1);
    char out[GR_EXCERPT_MAX];
    ck_assert_int_eq(gr_relation_name(want, got, sh, TOL, out, sizeof out), 1);
    ck_assert_str_eq(out, "the transpose of the expected (its last two dimensions swapped)");
    const float sq[4] = {1, 2, 3, 4}, sqt[4] = {1, 3, 2, 4}, other[4] = {1, 3, 2, 5};
    ck_assert_int_eq(gr_relation_transpose(sq, sqt, (gr_rel_shape){1, 2, 2}, TOL), 1);
    ck_assert_int_eq(gr_relation_transpose(sq, other, (gr_rel_shape){1, 2, 2}, TOL), 0);
    /* a single row is its own transpose's layout: never named */
    ck_assert_int_eq(gr_relation_transpose(sq, sq, (gr_rel_shape){1, 1, 4}, TOL), 0);
}
END_TEST

START_TEST(rows_shifted_or_permuted)
{
    /* 4 rows of 2: got rows are want rows 1, 2, 3, 0 (shifted by 1, wrapping) */
    const float want[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    const float cyc[8] = {3, 4, 5, 6, 7, 8, 1, 2};
    const float down[8] = {9, 9, 1, 2, 3, 4, 5, 6};   /* row i = want row i - 1, row 0 junk */
    const float perm[8] = {5, 6, 1, 2, 7, 8, 3, 4};   /* rows 2, 0, 3, 1 */
    gr_rel_shape sh = {1, 4, 2};
    long k, p[4];
    int cyclic;
    ck_assert_int_eq(gr_relation_row_shift(want, cyc, sh, TOL, &k, &cyclic), 1);
    ck_assert_int_eq(k, 1);
    ck_assert_int_eq(cyclic, 1);
    ck_assert_int_eq(gr_relation_row_shift(want, down, sh, TOL, &k, &cyclic), 1);
    ck_assert_int_eq(k, -1);
    ck_assert_int_eq(cyclic, 0);
    ck_assert_int_eq(gr_relation_row_shift(want, perm, sh, TOL, &k, &cyclic), 0);
    ck_assert_int_eq(gr_relation_rows(want, perm, sh, TOL, p), 1);
    ck_assert(p[0] == 2 && p[1] == 0 && p[2] == 3 && p[3] == 1);
    ck_assert_int_eq(gr_relation_rows(want, want, sh, TOL, p), 0);   /* nothing moved */
    ck_assert_int_eq(gr_relation_rows(want, down, sh, TOL, p), 0);   /* a row no want row is */
    char out[GR_EXCERPT_MAX];
    ck_assert_int_eq(gr_relation_name(want, cyc, sh, TOL, out, sizeof out), 1);
    ck_assert_str_eq(out, "the expected rows shifted by 1, wrapping round: row i holds expected row i + 1");
    ck_assert_int_eq(gr_relation_name(want, down, sh, TOL, out, sizeof out), 1);
    ck_assert_str_eq(out, "the expected rows shifted by -1: row i holds expected row i - 1");
    ck_assert_int_eq(gr_relation_name(want, perm, sh, TOL, out, sizeof out), 1);
    ck_assert_str_eq(out, "the expected rows in another order: rows 2, 0, 3, 1 of the expected");
}
END_TEST

START_TEST(no_relation_is_invented)
{
    const float want[6] = {0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.6f};
    const float got[6] = {0.3f, 0.1f, 0.9f, 0.4f, 0.5f, 0.2f};
    const float nan6[6] = {NAN, NAN, NAN, NAN, NAN, NAN};
    char out[GR_EXCERPT_MAX] = "x";
    ck_assert_int_eq(gr_relation_name(want, got, (gr_rel_shape){1, 2, 3}, TOL, out, sizeof out), 0);
    ck_assert_str_eq(out, "");
    ck_assert_int_eq(gr_relation_name(want, nan6, (gr_rel_shape){1, 2, 3}, TOL, out, sizeof out), 0);
    ck_assert_int_eq(gr_relation_name(nan6, nan6, (gr_rel_shape){1, 2, 3}, TOL, out, sizeof out), 0);
    /* a permutation search too large is declined, not run */
    long rows = 1L << 13;
    float *big = gr_xcalloc((size_t)rows * 4, sizeof *big);
    long *p = gr_xcalloc((size_t)rows, sizeof *p);
    ck_assert_int_eq(gr_relation_rows(big, big, (gr_rel_shape){1, rows, 4}, TOL, p), 0);
    free(big);
    free(p);
}
END_TEST

/* ---- the digest ------------------------------------------------------------------ */

/* A case of one OUT buffer of n floats, expected want. */
static void one_buffer_case(gr_case *c, const float *want, int n)
{
    memset(c, 0, sizeof *c);
    float *w = gr_case_add_f32(c, PROTO_OUT, n);
    (void)w;
    memcpy(gr_case_expect(c, 0), want, (size_t)n * sizeof *want);
    gr_case_set_shape2(c, 0, 2, n / 2);
    gr_case_set_name(c, 0, "W");
}

static void digest_of(const gr_case *c, float *got, const char *secret, char *hex)
{
    void *bufs[PROTO_MAX_BUFS] = {got};
    gr_digest_output(c, LAB_OK, bufs, secret, 2, "t", hex);
}

START_TEST(digest_rounds_float_noise_and_is_keyed)
{
    const float want[4] = {0.7054f, 0.2595f, 0.0351f, 0.0f};
    float got[4] = {0.35270f, 0.12975f, 0.01755f, 0.0f};
    gr_case c;
    one_buffer_case(&c, want, 4);
    char a[GR_DIGEST_HEX + 1], b[GR_DIGEST_HEX + 1];
    digest_of(&c, got, "s", a);
    ck_assert_int_eq((int)strlen(a), GR_DIGEST_HEX);
    got[0] = nextafterf(got[0], 1.0f);                /* one ulp of float noise */
    got[3] = -0.0f;                                   /* and a negative zero */
    digest_of(&c, got, "s", b);
    ck_assert_str_eq(a, b);
    got[0] = 0.3528f;                                  /* the fourth digit: another output */
    digest_of(&c, got, "s", b);
    ck_assert_str_ne(a, b);
    got[0] = 0.35270f;
    digest_of(&c, got, "another secret", b);          /* keyed: unpredictable without it */
    ck_assert_str_ne(a, b);
    /* every NaN is one NaN, whatever its payload and sign */
    uint32_t q = 0x7fc00001u, s = 0xffc12345u;
    memcpy(&got[1], &q, 4);
    digest_of(&c, got, "s", a);
    memcpy(&got[1], &s, 4);
    digest_of(&c, got, "s", b);
    ck_assert_str_eq(a, b);
    gr_case_free(&c);
}
END_TEST

START_TEST(excerpt_names_the_first_mismatch_and_the_relation)
{
    const float want[4] = {0.6095f, 0.2242f, 0.0303f, 0.1360f};
    float got[4];
    for (int k = 0; k < 4; k++)
        got[k] = want[k] * 0.25f;
    gr_case c;
    one_buffer_case(&c, want, 4);
    void *bufs[PROTO_MAX_BUFS] = {got};
    char *rel;
    char *ex = gr_digest_excerpt(&c, LAB_OK, bufs, 1e-6, 1e-4, &rel);
    ck_assert_str_eq(ex, "W[0][0]: expected 0.6095, got 0.1524 (4 of 4 values wrong)");
    ck_assert_str_eq(rel, "W: every value is 0.25 x the expected");
    ck_assert_uint_le(strlen(ex), GR_EXCERPT_MAX);
    free(ex);
    free(rel);
    ex = gr_digest_excerpt(&c, LAB_BAD_ARG, bufs, 1e-6, 1e-4, &rel);
    ck_assert_str_eq(ex, "returned -2, expected 0");   /* LAB_BAD_ARG */
    ck_assert_ptr_null(rel);
    free(ex);
    gr_case_free(&c);
}
END_TEST

/* A results.json of one wrong test whose extra_data holds the given tail. */
static char *results_with(const char *tmpdir, const char *extra_tail)
{
    char *path = gr_xasprintf("%s/results.json", tmpdir);
    char *text = gr_xasprintf(
        "{\"score\": 0, \"max_score\": 1, \"extra_data\": {\"student\": \"s\"},\n"
        " \"tests\": [{\"name\": \"lab02-softmax: softmax_worked_row\", \"score\": 0,"
        " \"max_score\": 1, \"output\": \"wrong answer\\n\", \"extra_data\": {\"lab\": 2,"
        " \"test\": \"softmax_worked_row\", \"verdict\": \"wrong answer\","
        " \"misconception\": null%s}}]}\n", extra_tail);
    ck_assert_int_eq(gr_write_file_atomic(path, text, strlen(text)), 0);
    free(text);
    return path;
}

START_TEST(read_back_digests_are_checked_and_bounded)
{
    char tmpdir[] = "/tmp/attnlab-clusters-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
    gr_strbuf long_ex = {0};
    for (int i = 0; i < 2000; i++)
        gr_sb_append(&long_ex, "\\u00e9");            /* 2 bytes each once read */
    static const char *const forged[] = {
        ", \"digest\": \"not hex at all, but 32 bytes long!\"",
        ", \"digest\": \"4414E3A3B4314858EFA6CF4AD7E9D83F\"",
        ", \"digest\": \"4414e3a3\"",
        ", \"digest\": 12",
        ", \"digest\": [\"4414e3a3b4314858efa6cf4ad7e9d83f\"]",
    };
    for (size_t i = 0; i < sizeof forged / sizeof forged[0]; i++) {
        char *path = results_with(tmpdir, forged[i]), err[512];
        gr_report r;
        ck_assert_msg(gr_report_read_json(path, &r, err, sizeof err) == 0, "%s", err);
        ck_assert_msg(r.labs[0].tests[0].digest == NULL, "forged digest %zu kept", i);
        gr_result_free(&r);
        free(path);
    }
    char *tail = gr_xasprintf(", \"digest\": \"4414e3a3b4314858efa6cf4ad7e9d83f\", "
                              "\"excerpt\": \"%s\", \"relation\": \"%s\"", long_ex.s, long_ex.s);
    char *path = results_with(tmpdir, tail), err[512];
    gr_report r;
    ck_assert_msg(gr_report_read_json(path, &r, err, sizeof err) == 0, "%s", err);
    const gr_test_result *t = &r.labs[0].tests[0];
    ck_assert_str_eq(t->digest, "4414e3a3b4314858efa6cf4ad7e9d83f");
    ck_assert_uint_le(strlen(t->excerpt), GR_EXCERPT_MAX);
    ck_assert_uint_le(strlen(t->relation), GR_EXCERPT_MAX);
    ck_assert_uint_eq(strlen(t->excerpt) % 2, 0);     /* cut between characters */
    gr_result_free(&r);
    free(path);
    free(tail);
    free(long_ex.s);
    char *cmd = gr_xasprintf("rm -rf '%s'", tmpdir);
    ck_assert_int_eq(system(cmd), 0);
    free(cmd);
}
END_TEST

/* ---- grouping a class, by hand ------------------------------------------------------ */

/* One uncatalogued wrong answer: student, lab, test (its place in the lab), digest. */
typedef struct planted {
    const char *id, *same_as;
    int lab, place;
    const char *test, *digest;
} planted;

/* A class of the students of p[0..n) in order (ids sorted), each lab's tests
   in their places, all wrong with the digest given (NULL: none). */
static void hand_class(gr_class *c, const planted *p, int n)
{
    memset(c, 0, sizeof *c);
    c->students = gr_xcalloc((size_t)n, sizeof *c->students);
    for (int i = 0; i < n; i++) {
        int k = 0;
        while (k < c->n && strcmp(c->students[k].id, p[i].id) != 0)
            k++;
        gr_student *s = &c->students[k];
        if (k == c->n) {
            c->n++;
            s->id = gr_xstrdup(p[i].id);
            s->same_as = p[i].same_as ? gr_xstrdup(p[i].same_as) : NULL;
            s->submitted = 1;
        }
        gr_report *r = &s->report;
        int l = 0;
        while (l < r->n_labs && r->labs[l].lab != p[i].lab)
            l++;
        if (l == r->n_labs) {
            r->labs = gr_xrealloc(r->labs, (size_t)(l + 1) * sizeof *r->labs);
            memset(&r->labs[l], 0, sizeof r->labs[l]);
            r->labs[l].lab = p[i].lab;
            r->labs[l].tests = gr_xcalloc(4, sizeof *r->labs[l].tests);
            r->labs[l].n_tests = 4;
            for (int j = 0; j < 4; j++)
                r->labs[l].tests[j].name = gr_xasprintf("t%d", j);
            r->n_labs++;
        }
        gr_test_result *t = &r->labs[l].tests[p[i].place];
        free(t->name);
        t->name = gr_xstrdup(p[i].test);
        t->verdict = GR_WRONG_ANSWER;
        t->digest = p[i].digest ? gr_xstrdup(p[i].digest) : NULL;
        t->excerpt = gr_xasprintf("excerpt of %s", p[i].id);
    }
}

static void hand_class_free(gr_class *c)
{
    for (int i = 0; i < c->n; i++) {
        free(c->students[i].id);
        free(c->students[i].same_as);
        gr_result_free(&c->students[i].report);
    }
    free(c->students);
}

START_TEST(clusters_group_by_output_and_join_the_same_students)
{
    static const planted p[] = {
        /* a, b, c alike on two tests of lab 2 (listed out of the rubric's order) */
        {"a", NULL, 2, 3, "late", "d2"}, {"a", NULL, 2, 1, "early", "d1"},
        {"b", NULL, 2, 1, "early", "d1"}, {"b", NULL, 2, 3, "late", "d2"},
        {"c", NULL, 2, 1, "early", "d1"}, {"c", NULL, 2, 3, "late", "d2"},
        /* d, e another output of "early"; f the first output of "early" only */
        {"d", NULL, 2, 1, "early", "d3"}, {"e", NULL, 2, 1, "early", "d3"},
        {"f", NULL, 2, 1, "early", "d1"},
        /* a group's other member: a's files, never counted twice */
        {"g", "a", 2, 1, "early", "d1"},
        /* the same digest text in another lab is another mistake; one alone is none */
        {"h", NULL, 3, 1, "early", "d1"}, {"i", NULL, 2, 2, "mid", "d9"},
        {"j", NULL, 2, 2, "mid", NULL},
    };
    gr_class c;
    hand_class(&c, p, (int)(sizeof p / sizeof p[0]));
    gr_clusters cl;
    gr_clusters_find(&c, &cl);
    ck_assert_int_eq(cl.n, 3);
    /* largest first: early/d1 of a, b, c, f; late/d2 of a, b, c; early/d3 of d, e */
    ck_assert_int_eq(cl.c[0].n_students, 4);
    ck_assert_int_eq(cl.c[0].n_tests, 1);
    ck_assert_str_eq(cl.c[0].tests[0].digest, "d1");
    ck_assert_str_eq(cl.c[0].students[3], "f");
    ck_assert_int_eq(cl.c[1].n_students, 3);
    ck_assert_str_eq(cl.c[1].tests[0].test, "late");
    ck_assert_int_eq(cl.c[2].n_students, 2);
    ck_assert_str_eq(cl.c[2].students[0], "d");
    gr_clusters_free(&cl);
    hand_class_free(&c);

    /* without f, a, b, c made one mistake seen on two tests: one cluster, in
       the rubric's order */
    static const planted q[] = {
        {"a", NULL, 2, 3, "late", "d2"}, {"a", NULL, 2, 1, "early", "d1"},
        {"b", NULL, 2, 3, "late", "d2"}, {"b", NULL, 2, 1, "early", "d1"},
    };
    hand_class(&c, q, 4);
    gr_clusters_find(&c, &cl);
    ck_assert_int_eq(cl.n, 1);
    ck_assert_int_eq(cl.c[0].n_tests, 2);
    ck_assert_str_eq(cl.c[0].tests[0].test, "early");
    ck_assert_str_eq(cl.c[0].tests[1].test, "late");
    char *json = gr_clusters_json(&cl);
    ck_assert_ptr_nonnull(strstr(json, "\"size\": 2"));
    ck_assert_ptr_nonnull(strstr(json, "\"students\": [\n        \"a\",\n        \"b\"\n      ]"));
    free(json);
    gr_clusters_free(&cl);
    hand_class_free(&c);
}
END_TEST

/* ---- a class of lab 2 -------------------------------------------------------------- */

static char root[4096];
static char tmp[64];

/* The solution of lab 2 with from replaced by to (which must occur once) into
   tmp/sub/id/lab02.c. */
static void student(const char *id, const char *from, const char *to)
{
    char *src = gr_layout_solution(root, 2);
    char *text = gr_read_file(src, NULL);
    ck_assert_ptr_nonnull(text);
    gr_strbuf b = {0};
    char *at = from ? strstr(text, from) : NULL;
    if (from) {
        ck_assert_msg(at && !strstr(at + 1, from), "'%s' is not once in %s", from, src);
        gr_sb_appendn(&b, text, (size_t)(at - text));
        gr_sb_append(&b, to);
        gr_sb_append(&b, at + strlen(from));
    } else {
        gr_sb_append(&b, text);
    }
    char *dir = gr_xasprintf("%s/sub/%s", tmp, id), *file = gr_xasprintf("%s/lab02.c", dir);
    ck_assert_int_eq(mkdir(dir, 0755), 0);
    ck_assert_int_eq(gr_write_file_atomic(file, b.s, b.len), 0);
    free(b.s);
    free(text);
    free(src);
    free(dir);
    free(file);
}

#define NORM "w[j] = (float)((double)w[j] / sum);"
#define HOSTILE_ID "divn`<b>c|"            /* markup as a student's id */

static void class_setup(void)
{
    ck_assert_ptr_nonnull(getcwd(root, sizeof root));
    strcpy(tmp, "/tmp/attnlab-clusters-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmp));
    char *sub = gr_xasprintf("%s/sub", tmp);
    ck_assert_int_eq(mkdir(sub, 0755), 0);
    free(sub);
    student("sol1", NULL, NULL);
    student("sol2", NULL, NULL);
    /* catalogued: lab02.c's no_max_sub names it, so it is in no cluster */
    student("nomax1", "float e = expf(s[j] - maxval);", "float e = expf(s[j]);");
    student("nomax2", "float e = expf(s[j] - maxval);", "float e = expf(s[j]);");
    /* uncatalogued: every weight divided by n once more (1/n x the expected) */
    student("divn_a", NORM, "w[j] = (float)((double)w[j] / sum / n);");
    student("divn_b", NORM, "w[j] = (float)((double)w[j] / sum / n);");
    student(HOSTILE_ID, NORM, "w[j] = (float)((double)w[j] / sum / n);");
    /* another, made once: the sum starts at 1 */
    student("sumone", "double sum = 0.0;", "double sum = 1.0;");
}

static void class_teardown(void)
{
    char *cmd = gr_xasprintf("rm -rf '%s'", tmp);
    ck_assert_int_eq(system(cmd), 0);
    free(cmd);
}

/* attnlab batch of tmp/sub into tmp/out (lab 2): its exit status, and the
   log in *log (to free). */
static int run_batch(char **log)
{
    char *sub = gr_xasprintf("%s/sub", tmp), *out = gr_xasprintf("%s/out", tmp);
    char *path = gr_xasprintf("%s/batch.log", tmp);
    const char *args[] = {"batch", sub, "--out", out, "--lab", "2", "--jobs", "2", NULL};
    int rc = spawn_run(path, "clusters-test-secret", args, log);
    free(sub);
    free(out);
    free(path);
    return rc;
}

static char *out_file(const char *name)
{
    char *path = gr_xasprintf("%s/out/%s", tmp, name);
    char *text = gr_read_file(path, NULL);
    ck_assert_msg(text != NULL, "cannot read %s", path);
    free(path);
    return text;
}

/* Student id's uncatalogued mistakes: the tests of their results.json with a digest. */
static int digests_of(const char *id)
{
    char *path = gr_xasprintf("%s/out/students/%s/results.json", tmp, id), err[512];
    gr_report r;
    ck_assert_msg(gr_report_read_json(path, &r, err, sizeof err) == 0, "%s", err);
    int n = 0;
    for (int l = 0; l < r.n_labs; l++)
        for (int j = 0; j < r.labs[l].n_tests; j++)
            n += r.labs[l].tests[j].digest != NULL;
    gr_result_free(&r);
    free(path);
    return n;
}

/* report.html's section: one cluster (one row), its relation, the hostile id
   as text, linked to the student's section. */
static void check_html(const char *page, const char *what)
{
    ck_assert_msg(strstr(page, "<a href=\"#clusters\">"), "%s: no entry in the contents", what);
    const char *sec = strstr(page, "<section id=\"clusters\">");
    ck_assert_msg(sec != NULL, "%s: no clusters section", what);
    const char *body = strstr(sec, "<tbody>"), *end = body ? strstr(body, "</tbody>") : NULL;
    ck_assert_msg(body && end, "%s: no clusters table", what);
    int rows = 0;
    for (const char *p = body; (p = strstr(p, "<tr>")) != NULL && p < end; p++)
        rows++;
    ck_assert_msg(rows == 1, "%s: %d cluster rows", what, rows);
    ck_assert_msg(strstr(sec, "every value is 0.25 x the expected"), "%s: the relation", what);
    ck_assert_msg(strstr(sec, "divn`&lt;b&gt;c|</a>"), "%s: the id as text", what);
    ck_assert_msg(!strstr(page, "divn`<b>"), "%s: an element a student's id made", what);
}

/* tmp/out/report.html as headless Chromium's DOM (malloc'd), or NULL without
   chromium (said on stderr: the written page is still checked). */
static char *chromium_dom(void)
{
    if (system("command -v chromium >/dev/null 2>&1") != 0) {
        fprintf(stderr, "test_clusters: SKIP the browser check: no chromium on PATH "
                        "(scripts/install-deps.sh browser)\n");
        return NULL;
    }
    char *log = gr_xasprintf("%s/chromium.log", tmp), *dom_path = gr_xasprintf("%s/dom.html", tmp);
    int st = fk_sh(log, "HOME='%s' timeout -s KILL 60 chromium --headless --no-sandbox "
                   "--disable-gpu --user-data-dir='%s/profile' --dump-dom 'file://%s/out/report.html' "
                   ">'%s'", tmp, tmp, tmp, dom_path);
    ck_assert_msg(st == 0, "chromium --dump-dom did not finish (status %d): see %s", st, log);
    char *dom = gr_read_file(dom_path, NULL);
    ck_assert_msg(dom && strstr(dom, "</html>"), "no DOM from chromium");
    free(log);
    free(dom_path);
    return dom;
}

START_TEST(a_planted_mistake_is_one_cluster_of_three)
{
    char *log;
    int rc = run_batch(&log);
    ck_assert_msg(rc == 0, "attnlab batch exited %d:\n%s", rc, log);
    free(log);
    char *json = out_file("clusters.json"), *md = out_file("report.md");
    /* exactly one cluster, of the three who divided by n */
    char *path = gr_xasprintf("%s/out/clusters.json", tmp), err[512];
    yr_doc d;
    ck_assert_msg(yr_open(&d, path, json, strlen(json), err, sizeof err) == 0, "%s", err);
    const yaml_node_t *cl = yr_value(&d, yr_root(&d), "clusters");
    int n = 0;
    ck_assert_int_eq(yr_get_seq(&d, cl, "clusters", "[...]", &n), 0);
    ck_assert_msg(n == 1, "%d clusters:\n%s", n, json);
    const yaml_node_t *k = yr_item(&d, cl, 0);
    long size = 0;
    ck_assert_int_eq(yr_get_long(&d, yr_value(&d, k, "size"), "size", &size), 0);
    ck_assert_int_eq(size, 3);
    const yaml_node_t *ids = yr_value(&d, k, "students");
    const char *want_ids[3] = {"divn_a", "divn_b", HOSTILE_ID}, *s;
    for (int i = 0; i < 3; i++) {
        ck_assert_int_eq(yr_get_string(&d, yr_item(&d, ids, i), "id", YR_NONEMPTY, &s), 0);
        ck_assert_str_eq(s, want_ids[i]);
    }
    /* every fixed-input softmax test it breaks, the worked row first, each
       with its 1/n named (n = 4 on the worked row, 5 on softmax_small) */
    const yaml_node_t *tests = yr_value(&d, k, "tests");
    ck_assert_int_eq(yr_get_seq(&d, tests, "tests", "[...]", &n), 0);
    ck_assert_int_ge(n, 2);
    static const char *const want_rel[2][2] = {
        {"softmax_worked_row", "W: every value is 0.25 x the expected"},
        {"softmax_small", "W: every value is 0.2 x the expected"},
    };
    for (int i = 0; i < 2; i++) {
        const yaml_node_t *t = yr_item(&d, tests, i);
        ck_assert_int_eq(yr_get_string(&d, yr_value(&d, t, "test"), "test", YR_NONEMPTY, &s), 0);
        ck_assert_str_eq(s, want_rel[i][0]);
        ck_assert_int_eq(yr_get_string(&d, yr_value(&d, t, "relation"), "rel", YR_NONEMPTY, &s), 0);
        ck_assert_str_eq(s, want_rel[i][1]);
        ck_assert_int_eq(yr_get_string(&d, yr_value(&d, t, "excerpt"), "ex", YR_NONEMPTY, &s), 0);
        ck_assert_msg(strstr(s, "expected ") && strstr(s, ", got "), "excerpt: %s", s);
    }
    yr_close(&d);
    /* the catalogued mistake keeps no digest, the one-off keeps its own */
    ck_assert_int_eq(digests_of("nomax1"), 0);
    ck_assert_int_eq(digests_of("sol1"), 0);
    ck_assert_int_gt(digests_of("sumone"), 0);
    /* the report's section, the hostile id as text in a code span */
    ck_assert_ptr_nonnull(strstr(md, "## Mistakes not in the catalogue"));
    ck_assert_ptr_nonnull(strstr(md, "### 1. lab02-softmax: 3 students"));
    ck_assert_ptr_nonnull(strstr(md, "**W: every value is 0.25 x the expected**"));
    ck_assert_ptr_nonnull(strstr(md, "`divn'<b>c|`"));
    ck_assert_ptr_null(strstr(md, "### 2."));
    ck_assert_msg(strstr(md, "divn`") == NULL, "a backtick of an id closed its code span");
    /* and report.html's, as written and as Chromium renders it */
    char *html = out_file("report.html");
    check_html(html, "report.html");
    char *dom = chromium_dom();
    if (dom)
        check_html(dom, "Chromium's DOM");
    free(dom);
    free(html);
    free(json);
    free(md);
    free(path);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("clusters");
    TCase *tc = tcase_create("relations");
    tcase_add_test(tc, ratio_and_shift_are_named_with_their_constant);
    tcase_add_test(tc, transpose_of_square_and_oblong_matrices);
    tcase_add_test(tc, rows_shifted_or_permuted);
    tcase_add_test(tc, no_relation_is_invented);
    tcase_add_test(tc, digest_rounds_float_noise_and_is_keyed);
    tcase_add_test(tc, excerpt_names_the_first_mismatch_and_the_relation);
    tcase_add_test(tc, read_back_digests_are_checked_and_bounded);
    tcase_add_test(tc, clusters_group_by_output_and_join_the_same_students);
    suite_add_tcase(s, tc);
    TCase *cls = tcase_create("class");
    tcase_add_checked_fixture(cls, class_setup, class_teardown);
    tcase_set_timeout(cls, 600);
    tcase_add_test(cls, a_planted_mistake_is_one_cluster_of_three);
    suite_add_tcase(s, cls);
    return s;
}
