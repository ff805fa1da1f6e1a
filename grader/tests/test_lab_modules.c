/* test_lab_modules.c: what every lab module must do, checked for every lab
 * (the registry labgen makes from data/rubrics, see labmod.h) against their rubrics.
 * Run from the repository root.
 *
 * What must hold for the grading of any lab to be fair:
 *   - every misconception is described and cites a section of a handout that
 *     exists;
 *   - an unknown test kind is refused, with an error naming it and every kind
 *     the rubric uses;
 *   - every rubric test builds, encodes, expects something of exactly its
 *     outputs, is the same for a seed and changes with it, except tests whose
 *     inputs the rubric fixes, which must not change;
 *   - for each of several seeds, every misconception changes the output of some
 *     rubric test, so a student holding it can be told so;
 *   - on no rubric test do two misconceptions both depart from the expected
 *     output and agree with each other: a diagnosis is never ambiguous;
 *   - a misconception's prediction, fed back as a student's output, is diagnosed
 *     as that misconception, and the right answer as none.
 * Each test_labNN.c checks what its lab's expected outputs must satisfy.
 * Every check runs once per lab; a failure names the lab, test, seed and
 * misconception.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/compare.h"
#include "base/labmod.h"
#include "base/layout.h"
#include "base/rubric.h"

Suite *test_suite(void);

/* What the checks need to know of a lab beyond its module and rubric. */
typedef struct lab_spec {
    const char *fixed_by;    /* tests with this param (>= 0) have fixed inputs ... */
    const char *fixed_kind;  /* ... when of this kind (NULL: any kind) */
    const char *slow_by[2];  /* a test is slow when these params' product (a missing */
    double slow_above;       /* param counts 0, a NULL name 1) is above slow_above */
    const char *also_cites;  /* another lab's folder whose handout may be cited */
} lab_spec;

static const lab_spec specs[GR_N_LABS] = {
    /* lab 4: {seed: S} fixes an experiment (the course's run); every experiment
       draws millions of normals per prediction; inv_dk cites lab 1's scaling. */
    [3] = { .fixed_by = "seed", .slow_by = { "trials", NULL }, .slow_above = 0,
            .also_cites = "lab01-scores" },
    /* lab 6: slopes for a given H are a function of H alone */
    [5] = { .fixed_by = "H", .fixed_kind = "slopes" },
    /* lab 7: the memory wall, T = 4096: a second per prediction */
    [6] = { .slow_by = { "T", NULL }, .slow_above = 1023 },
    /* lab 8: the experiment at the run sizes (200 trials, 7 d_k) */
    [7] = { .slow_by = { "trials", "n_dk" }, .slow_above = 1000 },
    /* lab 9: every test seeded per student but the worked rows (params worked) */
    [8] = { .fixed_by = NULL },
    /* lab 10: every test seeded per student but the worked averages (params worked) */
    [9] = { .fixed_by = NULL },
};

/* Seeds: of the builds (compared with the next four), of the diagnosability
   check, of the distinctness check (slow tests: the first two), of diagnose. */
#define BUILD_SEED 42
static const uint64_t diagnosable_seeds[] = { 1, 2, 3, 5 };
static const uint64_t distinct_seeds[] = { 1, 11, 2, 3, 12, 13 };
#define SLOW_DISTINCT_SEEDS 2
#define DIAGNOSE_SEED 9
#define MAX_MISCONCEPTIONS 32

typedef struct lab {
    int number;
    const gr_lab_module *mod;
    const lab_spec *spec;
    gr_rubric rubric;
} lab;

static void open_lab(lab *L, int i)
{
    char path[64], err[512];
    L->number = i + 1;
    L->mod = gr_lab_modules[i];
    L->spec = &specs[i];
    ck_assert_msg(L->mod->number == L->number, "gr_lab_modules[%d] is lab %d's module", i,
                  L->mod->number);
    snprintf(path, sizeof path, "data/rubrics/lab%02d.yaml", L->number);
    ck_assert_msg(gr_rubric_load(path, &L->rubric, err, sizeof err) == 0, "lab %d: %s", L->number, err);
    ck_assert_msg(L->rubric.lab == L->number && L->rubric.n_tests > 0,
                  "lab %d: %s holds no tests of lab %d", L->number, path, L->number);
    ck_assert_int_le(L->mod->n_misconceptions, MAX_MISCONCEPTIONS);
}

/* "lab 4, test experiment_small, seed 11", for messages. */
static const char *where(const lab *L, int k, uint64_t seed)
{
    static char buf[160];
    snprintf(buf, sizeof buf, "lab %d, test %s, seed %llu", L->number, L->rubric.tests[k].name,
             (unsigned long long)seed);
    return buf;
}

/* Tests whose inputs the rubric fixes: the worked examples, a rubric seed
   (gr_test_seed), and the lab's own. */
static int fixed_inputs(const lab *L, const gr_rubric_test *t)
{
    const lab_spec *s = L->spec;
    if (strstr(t->kind, "_worked") || gr_rubric_test_param(t, "worked", 0) != 0 ||
        gr_rubric_test_param(t, "seed", -1) >= 0)
        return 1;
    return s->fixed_by && gr_rubric_test_param(t, s->fixed_by, -1) >= 0 &&
           (!s->fixed_kind || strcmp(t->kind, s->fixed_kind) == 0);
}

static int slow(const lab *L, const gr_rubric_test *t)
{
    const lab_spec *s = L->spec;
    if (!s->slow_by[0])
        return 0;
    double work = gr_rubric_test_param(t, s->slow_by[0], 0);
    if (s->slow_by[1])
        work *= gr_rubric_test_param(t, s->slow_by[1], 0);
    return work > s->slow_above;
}

/* Build the case of rubric test k for seed, failing the check on an error. */
static void build(const lab *L, int k, uint64_t seed, gr_case *c)
{
    char err[512] = "";
    memset(c, 0, sizeof *c);
    /* a rubric seed is the seed of every student's case, as grading makes it */
    double fixed = gr_rubric_test_param(&L->rubric.tests[k], "seed", -1);
    int rc = L->mod->make_case(&L->rubric.tests[k], fixed >= 0 ? (uint64_t)fixed : seed, c,
                               err, sizeof err);
    ck_assert_msg(rc == 0, "%s: make_case failed: %s", where(L, k, seed), err);
}

static size_t buf_bytes(const proto_buf *b)
{
    return (size_t)b->count * proto_kind_size(b->kind);
}

/* The request bytes of a case: the call and inputs the child would receive. */
static unsigned char *request(const gr_case *c, size_t *len)
{
    unsigned char *bytes = NULL;
    ck_assert_msg(proto_encode_request(&c->call, &bytes, len) == 0, "%s: the case does not encode",
                  c->describe);
    return bytes;
}

/* 1 when two cases send the same request; with `answer`, also expect the same. */
static int same_case(const gr_case *a, const gr_case *b, int answer)
{
    size_t la, lb;
    unsigned char *ra = request(a, &la), *rb = request(b, &lb);
    int same = la == lb && memcmp(ra, rb, la) == 0;
    free(ra);
    free(rb);
    if (!answer || !same)
        return same;
    same = a->expected_status == b->expected_status;
    for (int i = 0; same && i < a->call.n_bufs; i++) {
        if (!a->expected[i] != !b->expected[i])
            same = 0;
        else if (a->expected[i])
            same = memcmp(a->expected[i], b->expected[i], buf_bytes(&a->call.bufs[i])) == 0;
    }
    return same;
}

/* Run misconception m on case c of test k: 1 and pred filled (a prediction for
   every output buffer, none for inputs) when it applies; 0 and pred empty when not. */
static int predict(const lab *L, int m, int k, uint64_t seed, const gr_case *c,
                   void *pred[PROTO_MAX_BUFS])
{
    const gr_misconception *mc = &L->mod->misconceptions[m];
    memset(pred, 0, PROTO_MAX_BUFS * sizeof pred[0]);
    if (mc->predict(c, pred) != 0) {
        for (int i = 0; i < PROTO_MAX_BUFS; i++)
            ck_assert_msg(pred[i] == NULL, "%s: misconception %s returned -1 but left a prediction",
                          where(L, k, seed), mc->id);
        return 0;
    }
    for (int i = 0; i < c->call.n_bufs; i++)
        ck_assert_msg((c->call.bufs[i].role == PROTO_IN) == (pred[i] == NULL),
                      "%s: misconception %s predicts buffer %d wrongly (every output needs a "
                      "prediction, no input has one)", where(L, k, seed), mc->id, i);
    return 1;
}

static void free_pred(void *pred[PROTO_MAX_BUFS])
{
    for (int i = 0; i < PROTO_MAX_BUFS; i++) {
        free(pred[i]);
        pred[i] = NULL;
    }
}

/* 1 when misconception m applies to c and departs from its expected output. */
static int departs(const lab *L, int m, int k, uint64_t seed, const gr_case *c,
                   void *pred[PROTO_MAX_BUFS])
{
    const gr_rubric_test *t = &L->rubric.tests[k];
    return predict(L, m, k, seed, c, pred) &&
           gr_compare(c, c->expected, pred, t->abs_tol, t->rel_tol, NULL) > 0;
}

/* ---- misconceptions are described ------------------------------------------- */

/* 1 when handout is "labs/DIR/README.md, section N" and that README has a
   heading "## N.". */
static int cites_section(const char *handout, const char *dir)
{
    char prefix[128], path[128], heading[32], line[512];
    snprintf(prefix, sizeof prefix, "labs/%s/README.md, section ", dir);
    if (strncmp(handout, prefix, strlen(prefix)) != 0)
        return 0;
    char *end;
    long n = strtol(handout + strlen(prefix), &end, 10);
    if (n < 1 || *end != '\0')
        return 0;
    snprintf(path, sizeof path, "labs/%s/README.md", dir);
    snprintf(heading, sizeof heading, "## %ld.", n);
    FILE *f = fopen(path, "r");
    int found = 0;
    while (f && !found && fgets(line, sizeof line, f))
        found = strncmp(line, heading, strlen(heading)) == 0;
    if (f)
        fclose(f);
    return found;
}

START_TEST(test_misconceptions_are_described)
{
    lab L;
    open_lab(&L, _i);
    ck_assert_msg(L.mod->n_misconceptions > 0, "lab %d has no misconceptions", L.number);
    for (int m = 0; m < L.mod->n_misconceptions; m++) {
        const gr_misconception *mc = &L.mod->misconceptions[m];
        ck_assert_msg(mc->id && mc->name && mc->explain && mc->handout.section && mc->predict,
                      "lab %d: misconception %d is incomplete", L.number, m);
        char *handout = gr_layout_handout_at(mc->handout.lab, mc->handout.section);
        ck_assert_msg(handout, "lab %d: misconception %s cites lab %d, no lab of the course",
                      L.number, mc->id, mc->handout.lab);
        ck_assert_msg(cites_section(handout, L.mod->dir) ||
                      (L.spec->also_cites && cites_section(handout, L.spec->also_cites)),
                      "lab %d: misconception %s cites \"%s\", not an existing section of "
                      "labs/%s/README.md", L.number, mc->id, handout, L.mod->dir);
        free(handout);
        for (int o = 0; o < m; o++)
            ck_assert_msg(strcmp(mc->id, L.mod->misconceptions[o].id) != 0,
                          "lab %d: two misconceptions are called %s", L.number, mc->id);
    }
    gr_rubric_free(&L.rubric);
}
END_TEST

/* ---- an unknown kind is refused ------------------------------------------------ */

/* 1 when word stands in text on its own (not inside a longer name). */
static int names_word(const char *text, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = strstr(text, word); p; p = strstr(p + 1, word)) {
        int before = p > text && (p[-1] == '_' || (p[-1] >= 'a' && p[-1] <= 'z'));
        int after = p[n] == '_' || (p[n] >= 'a' && p[n] <= 'z');
        if (!before && !after)
            return 1;
    }
    return 0;
}

START_TEST(test_unknown_kind_is_refused)
{
    lab L;
    open_lab(&L, _i);
    char name[] = "typo", kind[] = "no_such_kind", err[512] = "";
    gr_rubric_test t = { .name = name, .kind = kind };
    gr_case c;
    memset(&c, 0, sizeof c);
    ck_assert_msg(L.mod->make_case(&t, 1, &c, err, sizeof err) == -1,
                  "lab %d: test kind %s accepted", L.number, kind);
    gr_case_free(&c);
    ck_assert_msg(names_word(err, kind), "lab %d: the error does not name the kind: %s", L.number, err);
    for (int k = 0; k < L.rubric.n_tests; k++)
        ck_assert_msg(names_word(err, L.rubric.tests[k].kind),
                      "lab %d: the error for an unknown kind does not name the rubric's kind %s: %s",
                      L.number, L.rubric.tests[k].kind, err);
    gr_rubric_free(&L.rubric);
}
END_TEST

/* ---- the manifest (data/rubrics/labNN.yaml's top block) ------------------------ */

/* The module agrees with the lab's manifest, and each function's tests are worth
   its points there: moving a point from one function's test elsewhere is caught. */
START_TEST(test_points_follow_the_manifest)
{
    lab L;
    open_lab(&L, _i);
    const gr_lab_info *info = &gr_labs[_i];
    ck_assert_int_eq(info->number, L.number);
    ck_assert_str_eq(info->dir, L.mod->dir);
    ck_assert_str_eq(info->name, L.rubric.name);
    char err[1024] = "";
    ck_assert_msg(gr_lab_function_points_check(L.number, &L.rubric, err, sizeof err) == 0,
                  "lab %d: %s", L.number, err);
    L.rubric.tests[0].points += 0.5;
    ck_assert_int_eq(gr_lab_function_points_check(L.number, &L.rubric, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "are worth") && strstr(err, "its manifest says"), "%s", err);
    gr_rubric_free(&L.rubric);
}
END_TEST

/* ---- every rubric test builds and is seeded ---------------------------------- */

START_TEST(test_every_test_builds_and_is_seeded)
{
    lab L;
    open_lab(&L, _i);
    for (int k = 0; k < L.rubric.n_tests; k++) {
        const gr_rubric_test *t = &L.rubric.tests[k];
        int fixed = fixed_inputs(&L, t);
        gr_case a, b;
        build(&L, k, BUILD_SEED, &a);
        build(&L, k, BUILD_SEED, &b);
        ck_assert_msg(same_case(&a, &b, 1), "%s: two builds differ", where(&L, k, BUILD_SEED));
        ck_assert_msg(a.describe[0] != '\0', "%s: no description", where(&L, k, BUILD_SEED));
        ck_assert_msg(a.expected_status == LAB_OK || a.expected_status == LAB_BAD_ARG,
                      "%s: expects status %d", where(&L, k, BUILD_SEED), (int)a.expected_status);
        for (int i = 0; i < a.call.n_bufs; i++)
            ck_assert_msg((a.call.bufs[i].role == PROTO_IN) == (a.expected[i] == NULL),
                          "%s: buffer %d has the wrong expected content (every output needs "
                          "one, no input has one)", where(&L, k, BUILD_SEED), i);
        /* Every other seed gives other inputs, except where the rubric fixes
           them: then it gives the very same case. */
        for (uint64_t s = BUILD_SEED + 1; s <= BUILD_SEED + 4; s++) {
            gr_case x;
            build(&L, k, s, &x);
            if (fixed)
                ck_assert_msg(same_case(&a, &x, 1), "%s: fixed inputs differ from seed %d's",
                              where(&L, k, s), BUILD_SEED);
            else
                ck_assert_msg(!same_case(&a, &x, 0), "%s: the same inputs as seed %d",
                              where(&L, k, s), BUILD_SEED);
            gr_case_free(&x);
        }
        gr_case_free(&a);
        gr_case_free(&b);
    }
    gr_rubric_free(&L.rubric);
}
END_TEST

/* ---- misconceptions can be told apart --------------------------------------------- */

START_TEST(test_misconceptions_are_diagnosable)
{
    lab L;
    open_lab(&L, _i);
    for (int m = 0; m < L.mod->n_misconceptions; m++)
        for (size_t q = 0; q < sizeof diagnosable_seeds / sizeof diagnosable_seeds[0]; q++) {
            uint64_t seed = diagnosable_seeds[q];
            int shown = 0;
            for (int k = 0; k < L.rubric.n_tests && !shown; k++) {
                gr_case c;
                void *pred[PROTO_MAX_BUFS];
                build(&L, k, seed, &c);
                shown = departs(&L, m, k, seed, &c, pred);
                free_pred(pred);
                gr_case_free(&c);
            }
            ck_assert_msg(shown, "lab %d: misconception %s changes no rubric test's output (seed %llu)",
                          L.number, L.mod->misconceptions[m].id, (unsigned long long)seed);
        }
    gr_rubric_free(&L.rubric);
}
END_TEST

START_TEST(test_misconceptions_are_distinct)
{
    lab L;
    open_lab(&L, _i);
    int n = L.mod->n_misconceptions;
    for (size_t q = 0; q < sizeof distinct_seeds / sizeof distinct_seeds[0]; q++)
        for (int k = 0; k < L.rubric.n_tests; k++) {
            const gr_rubric_test *t = &L.rubric.tests[k];
            uint64_t seed = distinct_seeds[q];
            if (q >= SLOW_DISTINCT_SEEDS && slow(&L, t))
                continue;
            gr_case c;
            void *pred[MAX_MISCONCEPTIONS][PROTO_MAX_BUFS];
            int wrong[MAX_MISCONCEPTIONS];
            build(&L, k, seed, &c);
            for (int m = 0; m < n; m++)
                wrong[m] = departs(&L, m, k, seed, &c, pred[m]);
            for (int a = 0; a < n; a++)
                for (int b = 0; b < a; b++)
                    if (wrong[a] && wrong[b])
                        ck_assert_msg(gr_compare(&c, pred[a], pred[b], t->abs_tol, t->rel_tol, NULL) > 0 &&
                                      gr_compare(&c, pred[b], pred[a], t->abs_tol, t->rel_tol, NULL) > 0,
                                      "%s: misconceptions %s and %s predict the same output",
                                      where(&L, k, seed), L.mod->misconceptions[b].id,
                                      L.mod->misconceptions[a].id);
            for (int m = 0; m < n; m++)
                free_pred(pred[m]);
            gr_case_free(&c);
        }
    gr_rubric_free(&L.rubric);
}
END_TEST

/* A student holding a misconception is named: feeding its prediction back as the
   student's output, gr_compare_diagnose finds exactly that misconception. Slow tests
   are left to the check above. */
START_TEST(test_diagnose_names_the_misconception)
{
    lab L;
    open_lab(&L, _i);
    for (int k = 0; k < L.rubric.n_tests; k++) {
        const gr_rubric_test *t = &L.rubric.tests[k];
        if (slow(&L, t))
            continue;
        gr_case c;
        build(&L, k, DIAGNOSE_SEED, &c);
        for (int m = 0; m < L.mod->n_misconceptions; m++) {
            void *pred[PROTO_MAX_BUFS];
            if (departs(&L, m, k, DIAGNOSE_SEED, &c, pred)) {
                const gr_misconception *got = gr_compare_diagnose(L.mod, &c, pred, t->abs_tol, t->rel_tol);
                ck_assert_msg(got == &L.mod->misconceptions[m], "%s: %s diagnosed as %s",
                              where(&L, k, DIAGNOSE_SEED), L.mod->misconceptions[m].id,
                              got ? got->id : "nothing");
            }
            free_pred(pred);
        }
        const gr_misconception *got = gr_compare_diagnose(L.mod, &c, c.expected, t->abs_tol, t->rel_tol);
        ck_assert_msg(got == NULL, "%s: the right answer diagnosed as %s", where(&L, k, DIAGNOSE_SEED),
                      got ? got->id : "");
        gr_case_free(&c);
    }
    gr_rubric_free(&L.rubric);
}
END_TEST

/* The labs checked: every one, or lab N alone with ATTNLAB_LAB=N (attnlab
   check-lab N); *first is 0-based, *end one past the last. */
static void labs_checked(int *first, int *end)
{
    const char *only = getenv("ATTNLAB_LAB");
    int n = only ? atoi(only) : 0;
    *first = n >= 1 && n <= GR_N_LABS ? n - 1 : 0;
    *end = n >= 1 && n <= GR_N_LABS ? n : GR_N_LABS;
}

Suite *test_suite(void)
{
    Suite *s = suite_create("lab modules");
    TCase *tc = tcase_create("every lab");
    int a, e;
    labs_checked(&a, &e);
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, test_misconceptions_are_described, a, e);
    tcase_add_loop_test(tc, test_unknown_kind_is_refused, a, e);
    tcase_add_loop_test(tc, test_every_test_builds_and_is_seeded, a, e);
    tcase_add_loop_test(tc, test_points_follow_the_manifest, a, e);
    tcase_add_loop_test(tc, test_misconceptions_are_diagnosable, a, e);
    tcase_add_loop_test(tc, test_misconceptions_are_distinct, a, e);
    tcase_add_loop_test(tc, test_diagnose_names_the_misconception, a, e);
    suite_add_tcase(s, tc);
    return s;
}
