/* compare.c: see compare.h. All comparison happens here, in the parent. */
#include "engine/compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One F32 element: an expected NaN needs a NaN, an expected inf needs the same
   inf, anything else passes within abs + rel * |expected|. */
static int f32_ok(float want, float got, double abs_tol, double rel_tol)
{
    if (isnan(want))
        return isnan(got);
    if (isinf(want) || isinf(got) || isnan(got))
        return want == got;
    return fabs((double)got - (double)want) <= abs_tol + rel_tol * fabs((double)want);
}

static int elem_ok(const proto_buf *b, const void *want, const void *got, long k,
                   double abs_tol, double rel_tol)
{
    switch (b->kind) {
    case PROTO_F32:
        return f32_ok(((const float *)want)[k], ((const float *)got)[k], abs_tol, rel_tol);
    case PROTO_I32:
        return ((const int32_t *)want)[k] == ((const int32_t *)got)[k];
    case PROTO_U8:
        return ((const uint8_t *)want)[k] == ((const uint8_t *)got)[k];
    }
    return 0;
}

long gr_compare(const gr_case *c, void *const want[PROTO_MAX_BUFS],
                void *const got[PROTO_MAX_BUFS], double abs_tol, double rel_tol,
                gr_mismatch *m)
{
    long wrong = 0, total = 0;
    gr_mismatch first = { .buf = -1, .index = -1 };
    for (int i = 0; i < c->call.n_bufs; i++) {
        const proto_buf *b = &c->call.bufs[i];
        if (b->role == PROTO_IN)
            continue;
        long n = (long)b->count;
        total += n;
        if (!want[i] || !got[i]) { /* nothing to compare against: all wrong */
            if (first.buf < 0) { first.buf = i; first.index = 0; }
            wrong += n;
            continue;
        }
        for (long k = 0; k < n; k++) {
            if (elem_ok(b, want[i], got[i], k, abs_tol, rel_tol))
                continue;
            if (first.buf < 0) { first.buf = i; first.index = k; }
            wrong++;
        }
    }
    first.n_wrong = wrong;
    first.n_total = total;
    if (m)
        *m = first;
    return wrong;
}

/* ---- explaining a mismatch ------------------------------------------------ */

void gr_compare_value(gr_strbuf *out, const proto_buf *b, const void *data, long k, int digits)
{
    switch (b->kind) {
    case PROTO_F32: {
        float v = ((const float *)data)[k];
        if (isnan(v))      gr_sb_append(out, "nan");
        else if (isinf(v)) gr_sb_append(out, v > 0 ? "inf" : "-inf");
        else               gr_sb_printf(out, "%.*g", digits, (double)v);
        break;
    }
    case PROTO_I32: gr_sb_printf(out, "%d", (int)((const int32_t *)data)[k]); break;
    case PROTO_U8:  gr_sb_printf(out, "%u", (unsigned)((const uint8_t *)data)[k]); break;
    }
}

void gr_compare_index_name(gr_strbuf *out, const gr_case *c, int buf, long k)
{
    const char *name = c->buf_name[buf];
    if (name)
        gr_sb_append(out, name);
    else
        gr_sb_printf(out, "output #%d", buf + 1);
    const int *sh = c->shape[buf];
    long rows = sh[1], cols = sh[2], heads = sh[3], plane = rows > 0 && cols > 0 ? k / (rows * cols) : 0;
    if ((rows <= 0 || cols <= 0) && c->call.bufs[buf].count == 1 && name)
        return;                          /* one value: "*n_masked_rows", not "*n_masked_rows[0]" */
    if (rows <= 0 || cols <= 0)
        gr_sb_printf(out, "[%ld]", k);
    else if (sh[0] < 0)
        gr_sb_printf(out, "[%ld][%ld]", k / cols, k % cols);
    else if (heads > 0)
        gr_sb_printf(out, "[%ld][%ld][%ld][%ld]", plane / heads, plane % heads, k / cols % rows,
                     k % cols);
    else
        gr_sb_printf(out, "[%ld][%ld][%ld]", plane, k / cols % rows, k % cols);
}

void gr_compare_explain(const gr_lab_module *mod, const gr_case *c,
                        void *const got[PROTO_MAX_BUFS], const gr_mismatch *m,
                        gr_strbuf *out)
{
    int i = m->buf;
    long k = m->index;
    const proto_buf *b = &c->call.bufs[i];
    const void *want = c->expected[i];

    gr_sb_printf(out, "%s\n", c->describe);
    gr_sb_printf(out, "%ld of %ld output values wrong; the first is ", m->n_wrong, m->n_total);
    gr_compare_index_name(out, c, i, k);
    gr_sb_append(out, ":\n  expected ");
    gr_compare_value(out, b, want, k, 6);
    gr_sb_append(out, ", got ");
    gr_compare_value(out, b, got[i], k, 6);
    if (b->kind == PROTO_F32) {
        double w = (double)((const float *)want)[k], g = (double)((const float *)got[i])[k];
        if (isfinite(w) && isfinite(g) && w != 0)
            gr_sb_printf(out, " (relative error %.3g)", fabs(g - w) / fabs(w));
    }
    gr_sb_append(out, "\n");

    /* The output row around the mismatch: up to 4 values each side. */
    long cols = c->shape[i][2] > 0 ? c->shape[i][2] : (long)b->count;
    long row0 = k - k % cols, lo = k - 4, hi = k + 4;
    if (lo < row0) lo = row0;
    if (hi > row0 + cols - 1) hi = row0 + cols - 1;
    if (hi > lo) {
        gr_sb_append(out, "  row around it, from ");
        gr_compare_index_name(out, c, i, lo);
        gr_sb_append(out, ":\n    expected:");
        for (long j = lo; j <= hi; j++) { gr_sb_append(out, " "); gr_compare_value(out, b, want, j, 6); }
        gr_sb_append(out, "\n    got:     ");
        for (long j = lo; j <= hi; j++) { gr_sb_append(out, " "); gr_compare_value(out, b, got[i], j, 6); }
        gr_sb_append(out, "\n");
    }
    if (mod->input_window)
        mod->input_window(c, i, k, out);
}

/* ---- misconceptions --------------------------------------------------------- */

const gr_misconception *gr_compare_diagnose(const gr_lab_module *mod, const gr_case *c,
                                            void *const got[PROTO_MAX_BUFS],
                                            double abs_tol, double rel_tol)
{
    const gr_misconception *found = NULL;
    for (int m = 0; m < mod->n_misconceptions && !found; m++) {
        const gr_misconception *mc = &mod->misconceptions[m];
        void *pred[PROTO_MAX_BUFS] = {0};
        if (mc->predict(c, pred) == 0) {
            /* A match must reproduce the student's output and be a real
               departure from the expected one on this case. */
            int same_as_student = gr_compare(c, pred, got, abs_tol, rel_tol, NULL) == 0;
            int differs = gr_compare(c, c->expected, pred, abs_tol, rel_tol, NULL) > 0;
            if (same_as_student && differs)
                found = mc;
        }
        for (int i = 0; i < PROTO_MAX_BUFS; i++)
            free(pred[i]);
    }
    return found;
}
