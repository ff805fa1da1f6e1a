/* case.c: building and freeing a gr_case, and the helpers every lab module
 * shares: test kinds, rubric sizes, random inputs, untouched outputs,
 * input-window text (see labmod.h). */
#include "base/labmod.h"
#include "engine/seed.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *add_buf(gr_case *c, proto_kind kind, proto_role role, long count)
{
    if (c->call.n_bufs >= PROTO_MAX_BUFS || count < 0)
        abort(); /* a lab module bug, not a user error */
    proto_buf *b = &c->call.bufs[c->call.n_bufs++];
    b->kind = kind;
    b->role = role;
    b->count = (uint64_t)count;
    b->data = gr_xcalloc((size_t)count, proto_kind_size(kind));
    return b->data;
}

float *gr_case_add_f32(gr_case *c, proto_role role, long count)
{
    return add_buf(c, PROTO_F32, role, count);
}

int32_t *gr_case_add_i32(gr_case *c, proto_role role, long count)
{
    return add_buf(c, PROTO_I32, role, count);
}

uint8_t *gr_case_add_u8(gr_case *c, proto_role role, long count)
{
    return add_buf(c, PROTO_U8, role, count);
}

void gr_case_add_int(gr_case *c, int64_t v)
{
    if (c->call.n_ints >= PROTO_MAX_INTS)
        abort();
    c->call.ints[c->call.n_ints++] = v;
}

void gr_case_add_real(gr_case *c, double v)
{
    if (c->call.n_reals >= PROTO_MAX_REALS)
        abort();
    c->call.reals[c->call.n_reals++] = v;
}

void *gr_case_alloc_like(const gr_case *c, int buf)
{
    if (buf < 0 || buf >= c->call.n_bufs)
        abort();
    const proto_buf *b = &c->call.bufs[buf];
    size_t bytes = (size_t)b->count * proto_kind_size(b->kind);
    void *p = gr_xcalloc(b->count ? (size_t)b->count : 1, proto_kind_size(b->kind));
    if (b->role == PROTO_INOUT)
        memcpy(p, b->data, bytes);
    return p;
}

void *gr_case_expect(gr_case *c, int buf)
{
    if (c->call.bufs[buf].role == PROTO_IN || c->expected[buf])
        abort();
    return c->expected[buf] = gr_case_alloc_like(c, buf);
}

void gr_case_set_shape(gr_case *c, int buf, int batch, int rows, int cols)
{
    c->shape[buf][0] = batch;
    c->shape[buf][1] = rows;
    c->shape[buf][2] = cols;
}

void gr_case_set_shape2(gr_case *c, int buf, int rows, int cols)
{
    gr_case_set_shape(c, buf, -1, rows, cols);
}

void gr_case_set_shape4(gr_case *c, int buf, int B, int H, int rows, int cols)
{
    gr_case_set_shape(c, buf, B * H, rows, cols);
    c->shape[buf][3] = H;
}

void gr_case_set_name(gr_case *c, int buf, const char *name)
{
    c->buf_name[buf] = name;
}

void gr_case_free(gr_case *c)
{
    for (int i = 0; i < c->call.n_bufs; i++) {
        free(c->call.bufs[i].data);
        free(c->expected[i]);
    }
    memset(c, 0, sizeof *c);
}

void gr_case_expect_untouched(gr_case *c)
{
    for (int i = 0; i < c->call.n_bufs; i++) {
        const proto_buf *b = &c->call.bufs[i];
        if (b->role == PROTO_IN)
            continue;
        void *e = gr_case_expect(c, i); /* INOUT: already a copy of what was sent */
        if (b->role == PROTO_OUT && b->kind == PROTO_F32)
            for (uint64_t k = 0; k < b->count; k++)
                ((float *)e)[k] = proto_out_fill(k);
        else if (b->role == PROTO_OUT)
            memset(e, 0x5A, (size_t)b->count * proto_kind_size(b->kind));
    }
}

int gr_case_expect_bad_arg(gr_case *c)
{
    c->expected_status = LAB_BAD_ARG;
    gr_case_expect_untouched(c);
    return 0;
}

void gr_case_set_names(gr_case *c, ...)
{
    va_list ap;
    va_start(ap, c);
    const char *name;
    for (int i = 0; (name = va_arg(ap, const char *)) != NULL; i++)
        gr_case_set_name(c, i, name);
    va_end(ap);
}

void gr_case_add_ints(gr_case *c, const int64_t *v, int n)
{
    for (int k = 0; k < n; k++)
        gr_case_add_int(c, v[k]);
}

/* ---- test kinds --------------------------------------------------------------- */

int gr_make_case_by_kind(const gr_case_kind *kinds, int n, int lab, const gr_rubric_test *t,
                         uint64_t seed, gr_case *c, char *err, size_t errlen)
{
    memset(c, 0, sizeof *c);
    for (int k = 0; k < n; k++)
        if (strcmp(t->kind, kinds[k].kind) == 0)
            return kinds[k].gen(&kinds[k], t, seed, c, err, errlen);
    gr_strbuf msg = {0};
    gr_sb_printf(&msg, "test %s: lab %d has no test kind \"%s\"; use ", t->name, lab, t->kind);
    for (int k = 0; k < n; k++)
        gr_sb_printf(&msg, "%s%s", k == 0 ? "" : k == n - 1 ? " or " : ", ", kinds[k].kind);
    gr_set_err(err, errlen, "%s", msg.s);
    free(msg.s);
    return -1;
}

/* ---- helpers the lab modules share ------------------------------------------- */

int gr_test_int(const gr_rubric_test *t, const char *key, int dflt, int lo, int hi,
                int *out, char *err, size_t errlen)
{
    double v = gr_rubric_test_param(t, key, dflt);
    if (v != floor(v) || v < lo || v > hi) {
        snprintf(err, errlen, "test %s: %s = %g is not allowed; use a whole number from %d to %d",
                 t->name, key, v, lo, hi);
        return -1;
    }
    *out = (int)v;
    return 0;
}

void gr_fill_normal(sup_rng *r, float *x, long n, double scale)
{
    sup_rng_fill_normal(r, x, n);
    if (scale != 1.0)
        for (long k = 0; k < n; k++)
            x[k] = (float)((double)x[k] * scale);
}

void gr_fill_scores(sup_rng *r, float *s, long n, float scale, float shift, double mask_frac)
{
    for (long k = 0; k < n; k++) {
        float v = shift + scale * sup_rng_normal(r);
        s[k] = (double)sup_rng_uniform(r) < mask_frac ? -INFINITY : v;
    }
}

uint64_t gr_test_seed(const gr_rubric_test *t, const char *secret, const char *student, int lab)
{
    double fixed = gr_rubric_test_param(t, "seed", -1.0);
    return fixed >= 0 ? (uint64_t)fixed : gr_seed(secret, student, lab, t->name);
}

uint64_t gr_draw_seed(sup_rng *r)
{
    return sup_rng_u64(r) >> 33;
}

void gr_case_float(gr_strbuf *out, float v, char conv, int prec)
{
    if (isnan(v))
        gr_sb_append(out, "nan");
    else if (isinf(v))
        gr_sb_append(out, v > 0 ? "inf" : "-inf");
    else
        gr_sb_printf(out, conv == 'g' || fabsf(v) >= 1e5f ? "%.*g" : "%.*f", prec, (double)v);
}

void gr_case_values(gr_strbuf *out, const float *x, long n, char conv, int prec)
{
    for (long j = 0; j < n && j < 8; j++) {
        gr_sb_append(out, " ");
        gr_case_float(out, x[j], conv, prec);
    }
    if (n > 8)
        gr_sb_append(out, " ...");
}

void gr_case_floats(gr_strbuf *out, const float *x, long n)
{
    long shown = n <= 8 ? n : 6;
    gr_sb_append(out, "[");
    for (long j = 0; j < shown; j++) {
        if (j)
            gr_sb_append(out, " ");
        gr_case_float(out, x[j], 'f', 4);
    }
    if (shown < n) {
        gr_sb_append(out, " ... ");
        gr_case_float(out, x[n - 1], 'f', 4);
        gr_sb_printf(out, "] (%ld values)", n);
    } else {
        gr_sb_append(out, "]");
    }
}

void gr_case_qk_rows(gr_strbuf *out, const float *Q, const float *K, long index,
                     int Tq, int Tk, int dq, int dk)
{
    long b = index / ((long)Tq * Tk), i = index / Tk % Tq, j = index % Tk;
    gr_sb_printf(out, "  Q[%ld][%ld] = ", b, i);
    gr_case_floats(out, Q + (b * Tq + i) * dq, dq);
    gr_sb_printf(out, "\n  K[%ld][%ld] = ", b, j);
    gr_case_floats(out, K + (b * Tk + j) * dk, dk);
    gr_sb_append(out, "\n");
}

void gr_format_ints(char *buf, size_t len, const int32_t *x, int n, int shown)
{
    size_t at = 0;
    at += (size_t)snprintf(buf + at, len - at, "{");
    for (int k = 0; k < n && k < shown && at < len; k++)
        at += (size_t)snprintf(buf + at, len - at, "%s%d", k ? ", " : "", (int)x[k]);
    if (at < len)
        snprintf(buf + at, len - at, "%s}", n > shown ? ", ..." : "");
}
