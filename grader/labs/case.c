/* case.c: building and freeing a gr_case (see labmod.h). */
#include "../labmod.h"

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
