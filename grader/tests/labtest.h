/* labtest.h: what the suites of the grader's lab modules (test_lab01.c,
 * test_lab02.c, ...) share: the lab's rubric, loaded by a fixture, and building
 * the case of one of its tests, which fails the Check test on any error.
 * Run the suites from the repository root (rubric paths are relative to it).
 *
 * Before including this header, define
 *   RUBRIC  the lab's rubric file: "data/rubrics/lab05.yaml"
 *   MOD     the lab's module:      gr_lab05_module
 *
 * It gives the suite:
 *   rubric                      the loaded rubric, for every test of the suite
 *   load_rubric, free_rubric    the fixture that loads and frees it:
 *                               tcase_add_checked_fixture(tc, load_rubric, free_rubric)
 *   build(k, seed, &c)          c = the case of rubric.tests[k] for seed
 *   find_test(name)             the rubric test called name (fails when there is none)
 *   build_named(name, seed, &c) c = the case of the rubric test called name
 *   refuse_case(&t, err, n)     make_case must refuse test t (return -1); err
 *                               (n bytes) then says why
 *   refuse_param(kind, key, value, err, n)
 *                               refuse_case for a test of kind whose one
 *                               parameter is key = value
 *   check_points_per_function(want, n, map)
 *                               the rubric's points, summed by the function each
 *                               test calls (map(fn), or fn itself when map is
 *                               NULL, always below n), equal want[0..n)
 *   window_text(&c, buf, i)     the module's input window for output element i
 *                               of buffer buf, a string to free()
 *   is_worked(t)                t runs one of the handout's worked examples
 *                               (its kind has "_worked" in it)
 *   buf_bytes(&b)               the bytes of a protocol buffer's data
 *   exposes(name, id, seed)     misconception id's prediction for test name's case
 *                               of seed fails that test (the mistake shows)
 *   assert_exposed(name, id, n) exposes(name, id, seed) for every seed below n:
 *                               the mistake costs every student the test
 *   NEAR(x, want, tol)          ck_assert_double_eq_tol with floats widened
 *   check_hidden_shown_visible() every misconception a hidden test can show (its
 *                               prediction departs from the expected output),
 *                               some visible test of the same function shows too
 *
 * A case from build or build_named is the caller's: gr_case_free it.
 */
#ifndef ATTNLAB_LABTEST_H
#define ATTNLAB_LABTEST_H

#include <check.h>
#include <math.h>
#include <string.h>
#include <stdlib.h>

#include "engine/compare.h"
#include "base/labmod.h"
#include "base/rubric.h"

#if !defined(RUBRIC) || !defined(MOD)
#error "define RUBRIC (the rubric file) and MOD (the lab module) before including labtest.h"
#endif

/* |x - want| <= tol, with floats widened explicitly. */
#define NEAR(x, want, tol) ck_assert_double_eq_tol((double)(x), (double)(want), (double)(tol))

static gr_rubric rubric;

static inline void load_rubric(void)
{
    char err[512];
    ck_assert_msg(gr_rubric_load(RUBRIC, &rubric, err, sizeof err) == 0, "%s", err);
}

static inline void free_rubric(void)
{
    gr_rubric_free(&rubric);
}

/* Build c, the case of test t for seed, failing the test on an error. */
static inline void build_test(const gr_rubric_test *t, uint64_t seed, gr_case *c)
{
    char err[512] = "";
    memset(c, 0, sizeof *c);
    int rc = MOD.make_case(t, seed, c, err, sizeof err);
    ck_assert_msg(rc == 0, "%s: make_case failed: %s", t->name, err);
}

/* Build the case of rubric test k for seed, failing the test on an error. */
static inline void build(int k, uint64_t seed, gr_case *c)
{
    build_test(&rubric.tests[k], seed, c);
}

/* The rubric test called name; the test fails when the rubric has none. */
static inline const gr_rubric_test *find_test(const char *name)
{
    for (int k = 0; k < rubric.n_tests; k++)
        if (strcmp(rubric.tests[k].name, name) == 0) return &rubric.tests[k];
    ck_abort_msg("rubric has no test %s", name);
    return NULL;
}

/* Build the case of the rubric test called name for seed. */
static inline void build_named(const char *name, uint64_t seed, gr_case *c)
{
    build_test(find_test(name), seed, c);
}

/* make_case must refuse t (seed 1) with -1; err (errlen bytes) holds its reason. */
static inline void refuse_case(const gr_rubric_test *t, char *err, size_t errlen)
{
    gr_case c;
    memset(&c, 0, sizeof c);
    ck_assert_int_eq(MOD.make_case(t, 1, &c, err, errlen), -1);
    gr_case_free(&c);
}

/* make_case must refuse a test named "bad" of kind with the one parameter
   key = value (seed 1); err (errlen bytes) holds its reason. */
static inline void refuse_param(const char *kind, const char *key, double value,
                                char *err, size_t errlen)
{
    char name[] = "bad", kind_s[64], key_s[64];
    ck_assert(strlen(kind) < sizeof kind_s && strlen(key) < sizeof key_s);
    strcpy(kind_s, kind);
    strcpy(key_s, key);
    gr_rubric_test t = { .name = name, .kind = kind_s, .n_params = 1 };
    t.params[0].key = key_s;
    t.params[0].value = value;
    refuse_case(&t, err, errlen);
}

/* The rubric's points per function: every test's case (seed 1) names the
   function it calls, map(fn) or fn itself (map NULL) below n_fns, and the
   points of the tests of function f add up to want[f]. */
static inline void check_points_per_function(const double *want, int n_fns,
                                             int (*map)(uint32_t fn))
{
    double got[32] = { 0 };
    ck_assert_int_le(n_fns, 32);
    for (int k = 0; k < rubric.n_tests; k++) {
        gr_case c;
        build(k, 1, &c);
        int f = map ? map(c.call.fn) : (int)c.call.fn;
        ck_assert_msg(f >= 0 && f < n_fns, "%s: function %d of %d", rubric.tests[k].name, f, n_fns);
        got[f] += rubric.tests[k].points;
        gr_case_free(&c);
    }
    for (int f = 0; f < n_fns; f++)
        ck_assert_msg(fabs(got[f] - want[f]) < 1e-9, "function %d: %g points, want %g",
                      f, got[f], want[f]);
}

/* Does misconception m's prediction depart from test k's expected output (seed)? */
static inline int shows_on(const gr_misconception *m, int k, uint64_t seed, uint32_t *fn)
{
    gr_case c;
    build(k, seed, &c);
    void *pred[PROTO_MAX_BUFS] = { 0 };
    long wrong = 0;
    *fn = c.call.fn;
    if (m->predict && m->predict(&c, pred) == 0)
        wrong = gr_compare(&c, c.expected, pred, rubric.tests[k].abs_tol,
                           rubric.tests[k].rel_tol, NULL);
    for (int b = 0; b < PROTO_MAX_BUFS; b++) free(pred[b]);
    gr_case_free(&c);
    return wrong > 0;
}

/* A student whose mistake only a hidden test catches would read, on the first
   failing visible test, a diagnosis that does not name it: so every
   misconception a hidden test shows, a visible test of its function shows. */
static inline void check_hidden_shown_visible(void)
{
    for (int m = 0; m < MOD.n_misconceptions; m++)
        for (int k = 0; k < rubric.n_tests; k++) {
            uint32_t fn, vfn;
            if (rubric.tests[k].visibility == GR_VISIBLE ||
                !shows_on(&MOD.misconceptions[m], k, 5, &fn))
                continue;
            int seen = 0;
            for (int v = 0; v < rubric.n_tests && !seen; v++)
                seen = rubric.tests[v].visibility == GR_VISIBLE &&
                       shows_on(&MOD.misconceptions[m], v, 5, &vfn) && vfn == fn;
            ck_assert_msg(seen, "%s shows on the hidden test %s but on no visible test of "
                          "its function", MOD.misconceptions[m].id, rubric.tests[k].name);
        }
}

/* What the module's input window says about output element index of buffer
   buf of c, as a string to free(). */
static inline char *window_text(const gr_case *c, int buf, long index)
{
    gr_strbuf sb = { 0 };
    ck_assert_ptr_nonnull(MOD.input_window);
    MOD.input_window(c, buf, index, &sb);
    return gr_sb_take(&sb);
}

/* A test of the handout's worked numbers: its kind has "_worked" in it. */
static inline int is_worked(const gr_rubric_test *t)
{
    return strstr(t->kind, "_worked") != NULL;
}

/* The bytes of b's data: count elements of its kind. */
static inline size_t buf_bytes(const proto_buf *b)
{
    return (size_t)b->count * proto_kind_size(b->kind);
}

/* 1 when misconception id's prediction for the case of test name under seed
   differs from the expected output beyond the test's tolerance: a student
   holding it loses the test on those inputs. The test fails when the module
   has no such misconception or it does not apply. */
static inline int exposes(const char *name, const char *id, uint64_t seed)
{
    const gr_rubric_test *t = find_test(name);
    const gr_misconception *m = NULL;
    for (int i = 0; i < MOD.n_misconceptions && !m; i++)
        if (strcmp(MOD.misconceptions[i].id, id) == 0) m = &MOD.misconceptions[i];
    ck_assert_msg(m != NULL, "no misconception %s", id);
    gr_case c;
    void *pred[PROTO_MAX_BUFS] = { 0 };
    build_test(t, seed, &c);
    ck_assert_msg(m->predict(&c, pred) == 0, "%s does not apply to %s", id, name);
    long wrong = gr_compare(&c, c.expected, pred, t->abs_tol, t->rel_tol, NULL);
    for (int i = 0; i < PROTO_MAX_BUFS; i++) free(pred[i]);
    gr_case_free(&c);
    return wrong > 0;
}

/* Every seed below n exposes misconception id on test name: what the mistake
   costs does not depend on whose inputs they are. */
static inline void assert_exposed(const char *name, const char *id, uint64_t n)
{
    for (uint64_t seed = 0; seed < n; seed++)
        ck_assert_msg(exposes(name, id, seed), "%s: seed %llu hides %s", name,
                      (unsigned long long)seed, id);
}

#endif
