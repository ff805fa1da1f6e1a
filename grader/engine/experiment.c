/* experiment.c: the course's experiments as numbers: the lab module's case for
 * the standard run, its expected outputs as the reference, and a student's lab
 * file run on the same case (see experiment.h). */
#include "engine/experiment.h"
#include "base/layout.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "confined/build.h"
#include "engine/compare.h"
#include "engine/grade.h"
#include "engine/intake.h"
#include "labsup.h"
#include "base/rubric.h"
#include "base/util.h"


/* ---- the experiments -------------------------------------------------------------- */

static void entropy_columns(gr_exp_run *r);
static void masking_columns(gr_exp_run *r);
static void saturation_columns(gr_exp_run *r);

/* What the grader needs beyond the public part: the module's test kind, the
   sizes of the lab's `make run` (run_labNN.c) in the module's own size names,
   and how the run CSV's columns are made. */
typedef struct exp_def {
    gr_experiment pub;                        /* first: a gr_experiment * is an exp_def * */
    const char *kind;                         /* the module's experiment kind */
    struct { const char *key; double value; } sizes[4];
    int takes_seed;                           /* 1: the module runs the experiment with {seed: S} itself */
    const char *x_name;                       /* the x column: "d_k" or "pads" */
    int third_is_d;                           /* the call's third int: 1 the key size d, 0 trials */
    void (*columns)(gr_exp_run *r);           /* the run CSV's columns after x, in its order */
} exp_def;

static const exp_def defs[] = {
    { { "entropy", 4, "entropy of the attention weights vs d_k, raw and scaled scores",
        { "H_raw", "H_scaled" },
        "H_raw, H_scaled: mean entropy of a row of weights (nats) for raw q.k and scaled\n"
        "q.k/sqrt(d_k) scores; ln T is uniform weights, 0 one-hot.\n"
        "pred_scaled = ln T - 1/2: scores of variance 1 (lab 4 handout, section 4).\n"
        "pred_raw = c(T)/sqrt(d_k): derived, the large-d_k limit for raw scores, whose\n"
        "top two nearly tie (section 4; c(64) = 3.855); H_raw approaches it from above.\n" },
      "experiment", { { "dk_min", 8 }, { "dk_max", 512 }, { "T", 64 }, { "trials", 200 } },
      1, "d_k", 0, entropy_columns },
    { { "masking", 5, "post-softmax masking: row sum and output drift vs pad keys",
        { "rowsum", "drift" },
        "rowsum: mean row sum of the weights masked after softmax (1 when masking is right).\n"
        "drift: max |O_post - O_pre|, how far the output moved (0 when masking is right).\n"
        "*_predicted: from the score distribution alone, no draw of this seed (lab 5\n"
        "handout, section 3): the mean of 1 / (1 + (p/T) e^(a - 1/2)) over a ~ N(0, 1),\n"
        "and the expected largest (1 - row sum) max|O| over T independent rows.\n" },
      "experiment", { { "T", 16 }, { "d", 32 }, { "n_pads", 8 }, { "doubling_pads", 1 } },
      1, "pads", 1, masking_columns },
    { { "saturation", 8, "gradient through softmax vs d_k, raw and scaled scores",
        { "g_raw", "g_scaled" },
        "g_raw, g_scaled: mean ||ds|| of softmax backward, ds = w (g - <w, g>), for raw\n"
        "and scaled scores; ratio = g_raw / g_scaled.\n"
        "uniform = 1/sqrt(T): ||ds|| of a uniform row (lab 8 handout, section 3); a\n"
        "one-hot row gives 0, and saturated raw rows head there as d_k grows.\n" },
      "experiment", { { "n_dk", 7 }, { "T", 64 }, { "trials", 200 }, { "dk_min", 8 } },
      1, "d_k", 0, saturation_columns },
};
#define N_DEFS ((int)(sizeof defs / sizeof defs[0]))

const gr_experiment *gr_experiment_find(const char *name)
{
    for (int i = 0; i < N_DEFS; i++)
        if (strcmp(defs[i].pub.name, name) == 0)
            return &defs[i].pub;
    return NULL;
}

const char *gr_experiment_names(void)
{
    return "entropy, masking or saturation";
}

/* ---- the table's columns ------------------------------------------------------------- */

/* Append a column called name; its index. */
static int add_col(gr_exp_run *r, const char *name)
{
    if (r->n_cols >= GR_EXP_MAX_COLS)
        abort(); /* a table above is too wide: a bug here */
    r->col[r->n_cols] = name;
    return r->n_cols++;
}

/* Append the case's expected output k (the reference numbers). */
static void add_output(gr_exp_run *r, int k)
{
    int c = add_col(r, r->e->out[k]);
    const float *want = r->c.expected[k];
    for (int i = 0; i < r->n_rows; i++)
        r->v[c][i] = (double)want[i];
    r->out_col[k] = c;
}

/* Lab 4 handout, section 4: H ~ ln T - v/2 for scores of variance v, so
   scaled scores (v = 1) give ln T - 1/2; raw ones (v = d_k) leave that
   formula's range, and their curve is the large-d_k limit c(T)/sqrt(d_k). */
static void entropy_columns(gr_exp_run *r)
{
    add_output(r, 0);
    add_output(r, 1);
    int raw = add_col(r, "pred_raw"), scaled = add_col(r, "pred_scaled");
    for (int i = 0; i < r->n_rows; i++) {
        r->v[raw][i] = sup_predict_entropy_raw(r->T, (int)r->v[0][i]);
        r->v[scaled][i] = log((double)r->T) - 0.5;
    }
}

/* Lab 5 handout, section 3: the predictions use T, d and the pad count only,
   never this seed's draws, so a wrong derivation shows as a gap to the
   measured columns (test_experiment holds the gap over seeds). */
static void masking_columns(gr_exp_run *r)
{
    add_output(r, 0);
    int rowsum = add_col(r, "rowsum_predicted");
    add_output(r, 1);
    int drift = add_col(r, "drift_predicted");
    for (int m = 0; m < r->n_rows; m++) {
        int p = (int)r->v[0][m];
        r->v[rowsum][m] = sup_predict_masking_rowsum(p, r->T);
        r->v[drift][m] = sup_predict_masking_drift(p, r->T, r->d);
    }
}

/* Lab 8: the run's ratio column, and the handout's (section 3) other extreme:
   a uniform row over T keys gives ||ds|| of about 1/sqrt(T). */
static void saturation_columns(gr_exp_run *r)
{
    add_output(r, 0);
    add_output(r, 1);
    int ratio = add_col(r, "ratio"), uniform = add_col(r, "uniform");
    for (int i = 0; i < r->n_rows; i++) {
        r->v[ratio][i] = r->v[r->out_col[0]][i] / r->v[r->out_col[1]][i];
        r->v[uniform][i] = 1.0 / sqrt((double)r->T);
    }
}

/* ---- the reference ----------------------------------------------------------------- */

/* A rubric test made in memory: its strings live here, not in a rubric. */
typedef struct mem_test {
    gr_rubric_test t;
    char name[48], kind[32];
    char keys[GR_MAX_PARAMS][16];
} mem_test;

static void mem_test_init(mem_test *m, const exp_def *def, uint64_t seed)
{
    memset(m, 0, sizeof *m);
    snprintf(m->name, sizeof m->name, "%s_reference", def->pub.name);
    snprintf(m->kind, sizeof m->kind, "%s", def->kind);
    m->t.name = m->name;
    m->t.kind = m->kind;
    m->t.points = 1;
    m->t.visibility = GR_VISIBLE;
    int n = 0;
    for (size_t k = 0; k < sizeof def->sizes / sizeof def->sizes[0] && def->sizes[k].key; k++) {
        snprintf(m->keys[n], sizeof m->keys[n], "%s", def->sizes[k].key);
        m->t.params[n].key = m->keys[n];
        m->t.params[n].value = def->sizes[k].value;
        n++;
    }
    if (def->takes_seed) {
        snprintf(m->keys[n], sizeof m->keys[n], "seed");
        m->t.params[n].key = m->keys[n];
        m->t.params[n].value = (double)seed;
        n++;
    }
    m->t.n_params = n;
}

/* The x values for a header: "8, 16, ..., 512" when they double, else all of
   them ("0, 3, 9, 17"). */
static void x_values(char *buf, size_t len, const gr_exp_run *r)
{
    int doubling = r->n_rows >= 3;
    for (int i = 1; i < r->n_rows; i++)
        doubling &= r->v[0][i] == 2 * r->v[0][i - 1];
    if (doubling) {
        snprintf(buf, len, "%g, %g, ..., %g", r->v[0][0], r->v[0][1], r->v[0][r->n_rows - 1]);
        return;
    }
    size_t at = 0;
    buf[0] = '\0';
    for (int i = 0; i < r->n_rows && at < len; i++)
        at += (size_t)snprintf(buf + at, len - at, "%s%g", i ? ", " : "", r->v[0][i]);
}

int gr_experiment_reference(const gr_experiment *e, uint64_t seed, gr_exp_run *out,
                            char *err, size_t errlen)
{
    const exp_def *def = (const exp_def *)e;
    memset(out, 0, sizeof *out);
    out->e = e;
    out->seed = seed;

    mem_test m;
    mem_test_init(&m, def, seed);
    const gr_lab_module *mod = gr_lab_modules[e->lab - 1];
    char cerr[512];
    if (mod->make_case(&m.t, seed, &out->c, cerr, sizeof cerr) != 0) {
        snprintf(err, errlen, "lab %d's module refused the %s run's sizes: %s", e->lab,
                 e->name, cerr);
        gr_case_free(&out->c);
        return -1;
    }
    /* Every experiment call: outputs 0 and 1, the x values (int32) as buffer 2;
       ints {count, T, trials or d, seed}. */
    const gr_case *c = &out->c;
    if (c->call.n_bufs < 3 || !c->expected[0] || !c->expected[1] ||
        c->call.bufs[2].kind != PROTO_I32 || c->call.bufs[2].count < 1 ||
        c->call.bufs[2].count > GR_EXP_MAX_ROWS || c->call.bufs[0].count != c->call.bufs[2].count ||
        c->call.n_ints < 4 || c->expected_status != LAB_OK) {
        snprintf(err, errlen, "lab %d's module built a %s case of an unexpected shape "
                 "(a grader bug)", e->lab, def->kind);
        gr_case_free(&out->c);
        return -1;
    }
    out->n_rows = (int)c->call.bufs[2].count;
    out->T = (int)c->call.ints[1];
    if (def->third_is_d)
        out->d = (int)c->call.ints[2];
    else
        out->trials = (int)c->call.ints[2];
    out->exp_seed = (uint64_t)c->call.ints[3];
    add_col(out, def->x_name);
    const int32_t *x = c->call.bufs[2].data;
    for (int i = 0; i < out->n_rows; i++)
        out->v[0][i] = x[i];
    def->columns(out);

    char xs[96], seeds[96];
    x_values(xs, sizeof xs, out);
    if (out->exp_seed == seed)
        snprintf(seeds, sizeof seeds, "seed %llu", (unsigned long long)seed);
    else
        snprintf(seeds, sizeof seeds, "seed %llu (the experiment's own seed %llu)",
                 (unsigned long long)seed, (unsigned long long)out->exp_seed);
    if (def->third_is_d)
        snprintf(out->settings, sizeof out->settings, "T = %d keys, d = %d, pads %s, %s",
                 out->T, out->d, xs, seeds);
    else
        snprintf(out->settings, sizeof out->settings, "T = %d keys, %d trials, d_k = %s, %s",
                 out->T, out->trials, xs, seeds);
    return 0;
}

void gr_experiment_free(gr_exp_run *r)
{
    gr_case_free(&r->c);
}

/* ---- the student's numbers ------------------------------------------------------------ */

/* The rubric test whose tolerance and limits a student's run of kind is held to:
   the first of that kind that is not a contract-breaking one (those carry a
   param named bad...). NULL when the rubric has none. */
static const gr_rubric_test *rubric_experiment(const gr_rubric *r, const char *kind)
{
    for (int i = 0; i < r->n_tests; i++) {
        const gr_rubric_test *t = &r->tests[i];
        if (strcmp(t->kind, kind) != 0)
            continue;
        int bad = 0;
        for (int k = 0; k < t->n_params; k++)
            bad |= strncmp(t->params[k].key, "bad", 3) == 0;
        if (!bad)
            return t;
    }
    return NULL;
}

/* The first line of s, at most 300 bytes, as a new string. */
static char *first_line(const char *s)
{
    if (!s || !*s)
        return gr_xstrdup("(no message)");
    size_t n = strcspn(s, "\n");
    return gr_xasprintf("%.*s", (int)(n > 300 ? 300 : n), s);
}

/* The last line of a grader message (its first line names the call), at most
   300 bytes, as a new string. */
static char *last_line(const char *s)
{
    if (!s || !*s)
        return gr_xstrdup("(no message)");
    size_t n = strlen(s);
    while (n > 0 && s[n - 1] == '\n')
        n--;
    size_t start = n;
    while (start > 0 && s[start - 1] != '\n')
        start--;
    size_t len = n - start;
    return gr_xasprintf("%.*s", (int)(len > 300 ? 300 : len), s + start);
}

/* Say in one line what the judged run means for the student's curve, and keep
   the numbers whenever the function answered LAB_OK. */
static void describe_outcome(const gr_exp_run *ref, const gr_student_case *sc,
                             gr_exp_student *out)
{
    const gr_case *c = &ref->c;
    const gr_outcome *oc = &sc->oc;
    out->verdict = oc->verdict;
    if (oc->answered && oc->status == LAB_OK) {
        out->have = 1;
        for (int k = 0; k < 2; k++)
            for (int i = 0; i < ref->n_rows; i++) {
                double v = (double)((const float *)oc->got[k])[i];
                out->y[k][i] = isfinite(v) ? v : (double)NAN;
            }
    }
    if (oc->verdict == GR_PASSED)
        return;
    if (oc->verdict != GR_WRONG_ANSWER || !out->have) {
        out->why = last_line(oc->message);
        return;
    }
    gr_mismatch m;
    gr_compare(c, c->expected, oc->got, sc->abs_tol, sc->rel_tol, &m);
    const float *w = c->expected[m.buf], *g = oc->got[m.buf];
    gr_strbuf b = {0};
    gr_sb_printf(&b, "%ld of %ld numbers differ from the answer key; the first at %s = %g: "
                 "%s = %.6g, expected %.6g", m.n_wrong, m.n_total, ref->col[0],
                 ref->v[0][m.index], ref->e->out[m.buf], (double)g[m.index],
                 (double)w[m.index]);
    const gr_misconception *mc = gr_experiment_case_misconception(ref->e->lab, sc);
    if (mc) {
        char *handout = gr_layout_handout_at(mc->handout.lab, mc->handout.section);
        gr_sb_printf(&b, "; this is what %s gives (%s)", mc->name, handout);
        free(handout);
    }
    out->why = gr_sb_take(&b);
}

const gr_misconception *gr_experiment_case_misconception(int lab, const gr_student_case *sc)
{
    const gr_lab_module *mod = gr_lab_modules[lab - 1];
    for (int k = 0; sc->ran && sc->oc.misconception && k < mod->n_misconceptions; k++)
        if (strcmp(mod->misconceptions[k].id, sc->oc.misconception) == 0)
            return &mod->misconceptions[k];
    return NULL;
}

int gr_experiment_case_run(int lab, const char *kind, const gr_case *c, const gr_exp_paths *paths,
                           gr_student_case *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->verdict = GR_CRASHED;
    const gr_lab_module *mod = gr_lab_modules[lab - 1];
    char *path = gr_layout_rubric_from(paths->root, NULL, lab);
    gr_rubric r;
    int rc = gr_rubric_load(path, &r, err, errlen);
    free(path);
    if (rc != 0)
        return -1;
    const gr_rubric_test *t = rubric_experiment(&r, kind);
    if (!t) {
        snprintf(err, errlen, "%s has no %s test to take limits and tolerance from", r.path, kind);
        gr_rubric_free(&r);
        return -1;
    }
    out->abs_tol = t->abs_tol;
    out->rel_tol = t->rel_tol;

    /* the lab's file as grading finds it, read as grading reads it (intake.h) */
    gr_intake in;
    if (gr_intake_scan(paths->submission, &in, err, errlen) != 0) {
        gr_rubric_free(&r);
        return -1;
    }
    out->source = gr_intake_take(paths->submission, &in, lab, &out->verdict, &out->why);
    if (!out->source) {
        const char *rel = in.labs[lab - 1].rel;
        out->source = rel ? gr_xasprintf("%s/%s", paths->submission, rel)
                          : gr_xasprintf("%s/%s/%s", paths->submission, mod->dir, r.source);
        gr_intake_free(&in);
        gr_rubric_free(&r);
        return 0;
    }
    gr_intake_free(&in);

    char *work = gr_workdir_make("plot", err, errlen);
    if (!work) {
        gr_rubric_free(&r);
        return -1;
    }
    rc = 0;
    gr_paths bp = { .root = paths->root, .child_dir = paths->child_dir, .work_dir = work };
    gr_build b;
    if (gr_build_lab(&r, mod->dir, out->source, &bp, &b, err, errlen) != 0) {
        rc = -1;
    } else if (!b.ok) {
        out->verdict = b.verdict;
        out->why = first_line(b.message ? b.message : "the lab did not build");
    } else if ((rc = gr_judge_case(b.exe, mod, t, c, &out->oc, err, errlen)) == 0) {
        out->ran = 1;
        out->verdict = out->oc.verdict;
        if (out->verdict != GR_PASSED)
            out->why = last_line(out->oc.message);
    }
    gr_build_free(&b);
    gr_workdir_remove(work);
    gr_rubric_free(&r);
    return rc;
}

void gr_experiment_case_free(gr_student_case *s)
{
    if (s->ran)
        gr_judge_outcome_free(&s->oc);
    free(s->why);
    free(s->source);
    memset(s, 0, sizeof *s);
}

int gr_experiment_student_run(const gr_exp_run *ref, const gr_exp_paths *paths,
                              gr_exp_student *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->verdict = GR_CRASHED;
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < GR_EXP_MAX_ROWS; i++)
            out->y[k][i] = (double)NAN;

    const exp_def *def = (const exp_def *)ref->e;
    gr_student_case sc;
    if (gr_experiment_case_run(ref->e->lab, def->kind, &ref->c, paths, &sc, err, errlen) != 0) {
        gr_experiment_case_free(&sc);
        return -1;
    }
    if (sc.ran) {
        describe_outcome(ref, &sc, out);
    } else {
        out->verdict = sc.verdict;
        out->why = sc.why;
        sc.why = NULL;
    }
    out->source = sc.source;
    sc.source = NULL;
    gr_experiment_case_free(&sc);
    return 0;
}

void gr_experiment_student_free(gr_exp_student *s)
{
    free(s->why);
    free(s->source);
    s->why = s->source = NULL;
}
