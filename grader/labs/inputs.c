/* inputs.c: inputs and sizes several lab modules make the same way: score
 * tensors, softmax weight rows, the sizes of row-wise and backward-pass tests,
 * experiment seeds, and the calls of the score functions of labs 1 and 3
 * (see labmod.h). */
#include "base/labmod.h"

#include <stdio.h>
#include <string.h>

#include "attn.h"

/* ---- scores and weights -------------------------------------------------------- */

float *gr_case_add_scores(gr_case *c, sup_rng *r, int B, int Tq, int Tk)
{
    int buf = c->call.n_bufs;
    float *S = gr_case_add_f32(c, PROTO_INOUT, (long)B * Tq * Tk);
    gr_case_set_name(c, buf, "S");
    gr_case_set_shape(c, buf, B, Tq, Tk);
    sup_rng_fill_normal(r, S, (long)B * Tq * Tk);
    return S;
}

void gr_fill_weights(sup_rng *r, float *W, long rows, int n, double scale)
{
    gr_fill_normal(r, W, rows * n, scale);
    attn_softmax(W, W, rows, n);
}

/* ---- sizes ------------------------------------------------------------------------ */

int gr_test_rows(const gr_rubric_test *t, gr_case_variant what, int *rows, int *n,
                 char *err, size_t errlen)
{
    if (what == GR_VARIANT_BAD) {
        if (gr_test_int(t, "rows", 2, -8, 8, rows, err, errlen) ||
            gr_test_int(t, "n", 4, -8, 8, n, err, errlen))
            return -1;
        if (*rows >= 0 && *n >= 1) {
            snprintf(err, errlen, "%s %s test needs rows < 0 or n < 1",
                     t->kind[0] && strchr("aeiou", t->kind[0]) ? "an" : "a", t->kind);
            return -1;
        }
        return 0;
    }
    if (gr_test_int(t, "rows", 4, 0, 1 << 20, rows, err, errlen) ||   /* 0 rows: nothing to do */
        gr_test_int(t, "n", 8, 1, 1 << 16, n, err, errlen))
        return -1;
    if ((long)*rows * *n > GR_MAX_ELEMS) {
        snprintf(err, errlen, "rows * n must be at most %ld", GR_MAX_ELEMS);
        return -1;
    }
    return 0;
}

int gr_backward_sizes(const gr_rubric_test *t, gr_case_variant what, int *worked, int *rows,
                      int *n, char *err, size_t errlen)
{
    if (what == GR_VARIANT_BAD) {
        *worked = 0;
        if (gr_test_int(t, "rows", 2, -4, 64, rows, err, errlen) ||
            gr_test_int(t, "n", 4, -4, 64, n, err, errlen))
            return -1;
        if (*rows >= 1 && *n >= 1) {
            snprintf(err, errlen, "a %s test needs rows < 1 or n < 1", t->kind);
            return -1;
        }
        return 0;
    }
    *worked = gr_rubric_test_param(t, "worked", 0) != 0;
    if (gr_test_int(t, "rows", *worked ? 2 : 3, 1, 4096, rows, err, errlen) ||
        gr_test_int(t, "n", *worked ? 4 : 6, 1, 4096, n, err, errlen))
        return -1;
    if (*worked && (*rows != 2 || *n != 4)) {
        snprintf(err, errlen, "test %s: the worked rows need rows = 2, n = 4", t->name);
        return -1;
    }
    return 0;
}

uint64_t gr_experiment_seed(const gr_rubric_test *t, sup_rng *r)
{
    uint64_t seed = gr_draw_seed(r);  /* drawn either way: the draws after it stay put */
    double fixed = gr_rubric_test_param(t, "seed", -1.0);
    return fixed >= 0 ? (uint64_t)fixed : seed;
}

void gr_test_descending(const gr_rubric_test *t, int32_t *x, int n)
{
    if (gr_rubric_test_param(t, "descending", 0) == 0)
        return;
    for (int m = 0; m < n / 2; m++) {
        int32_t v = x[m];
        x[m] = x[n - 1 - m];
        x[n - 1 - m] = v;
    }
}

/* ---- the score functions (labs 1 and 3) ---------------------------------------- */

int gr_scores_variant_fits(const gr_rubric_test *t, gr_case_variant what, int bad,
                           const char *needs, int B, int Tq, int Tk, char *err, size_t errlen)
{
    if (what == GR_VARIANT_BAD && !bad) {
        snprintf(err, errlen, "a %s test needs %s", t->kind, needs);
        return -1;
    }
    if (what == GR_VARIANT_EMPTY && !(B == 0 || Tq == 0 || Tk == 0)) {
        snprintf(err, errlen, "a %s test needs B, Tq or Tk equal to 0", t->kind);
        return -1;
    }
    return 0;
}

float *gr_scores_add_out(gr_case *c, sup_rng *r, int B, int Tq, int Tk, int untouched)
{
    int buf = c->call.n_bufs;
    long nS = (long)(B > 0 ? B : 0) * (Tq > 0 ? Tq : 0) * (Tk > 0 ? Tk : 0);
    float *S;
    if (untouched) {
        S = gr_case_add_f32(c, PROTO_INOUT, nS > 4 ? nS : 4);
        gr_fill_normal(r, S, nS > 4 ? nS : 4, 1.0);
    } else {
        S = gr_case_add_f32(c, PROTO_OUT, nS);
        gr_case_set_shape(c, buf, B, Tq, Tk);
    }
    gr_case_set_name(c, buf, "S");
    return S;
}

const char *gr_scores_expect_nothing(gr_case *c, gr_case_variant what)
{
    gr_case_expect_untouched(c);
    c->expected_status = what == GR_VARIANT_BAD ? LAB_BAD_ARG : LAB_OK;
    return what == GR_VARIANT_BAD ? "sizes break the contract, expect LAB_BAD_ARG and S untouched"
                                  : "nothing to compute, expect LAB_OK and S untouched";
}
