/* protocol.c: the parent's half of the wire format in protocol.h.
 *
 * The parent encodes one call into a request and decodes the child's response;
 * the sandbox asks it how long a correct response to a request is
 * (proto_request_bound), so the request's layout is read back here only.
 * Decoding trusts nothing: the child runs a student's code, so every magic,
 * count and length is checked against the call the parent itself made, and
 * anything short, long or different is a bad response with a reason.
 * (The child's half, reading requests and writing responses, is in
 * grader/child/child_main.c: it streams straight into guarded buffers.)
 */
#include "base/protocol.h"
#include "base/util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t proto_kind_size(proto_kind kind)
{
    switch (kind) {
    case PROTO_F32: return sizeof(float);
    case PROTO_I32: return sizeof(int32_t);
    case PROTO_U8:  return sizeof(uint8_t);
    }
    return 0;
}

static int role_ok(proto_role role)
{
    return role == PROTO_IN || role == PROTO_OUT || role == PROTO_INOUT;
}

/* Does buffer b travel back in the response? */
static int role_returns(proto_role role)
{
    return role == PROTO_OUT || role == PROTO_INOUT;
}

/* Does buffer b carry its elements in the request? */
static int role_sends(proto_role role)
{
    return role == PROTO_IN || role == PROTO_INOUT;
}

/* ---- encoding ------------------------------------------------------------- */

typedef struct writer {
    unsigned char *p;
} writer;

static void put(writer *w, const void *src, size_t n)
{
    if (n)
        memcpy(w->p, src, n);
    w->p += n;
}

static void put_u32(writer *w, uint32_t v) { put(w, &v, sizeof v); }
static void put_u64(writer *w, uint64_t v) { put(w, &v, sizeof v); }

int proto_encode_request(const proto_call *call, unsigned char **bytes, size_t *len)
{
    *bytes = NULL;
    *len = 0;
    if (!call || call->n_ints < 0 || call->n_ints > PROTO_MAX_INTS || call->n_reals < 0 ||
        call->n_reals > PROTO_MAX_REALS || call->n_bufs < 0 || call->n_bufs > PROTO_MAX_BUFS)
        return -1;

    /* pass 1: check every buffer and add up the size */
    size_t total = 4 + 4 + 4 + 8 * (size_t)call->n_ints + 4 + 8 * (size_t)call->n_reals + 4;
    for (int i = 0; i < call->n_bufs; i++) {
        const proto_buf *b = &call->bufs[i];
        size_t es = proto_kind_size(b->kind);
        if (es == 0 || !role_ok(b->role) || b->count > (uint64_t)PROTO_MAX_ELEMS)
            return -1;
        total += 4 + 4 + 8;
        if (role_sends(b->role)) {
            if (b->count > 0 && !b->data)
                return -1;
            total += (size_t)b->count * es;
        }
    }
    total += 4;

    /* pass 2: write it */
    unsigned char *buf = gr_xmalloc(total);
    writer w = {buf};
    put_u32(&w, PROTO_REQUEST_MAGIC);
    put_u32(&w, call->fn);
    put_u32(&w, (uint32_t)call->n_ints);
    for (int i = 0; i < call->n_ints; i++)
        put(&w, &call->ints[i], 8);
    put_u32(&w, (uint32_t)call->n_reals);
    for (int i = 0; i < call->n_reals; i++)
        put(&w, &call->reals[i], 8);
    put_u32(&w, (uint32_t)call->n_bufs);
    for (int i = 0; i < call->n_bufs; i++) {
        const proto_buf *b = &call->bufs[i];
        put_u32(&w, (uint32_t)b->kind);
        put_u32(&w, (uint32_t)b->role);
        put_u64(&w, b->count);
        if (role_sends(b->role))
            put(&w, b->data, (size_t)b->count * proto_kind_size(b->kind));
    }
    put_u32(&w, PROTO_END_MAGIC);

    *bytes = buf;
    *len = (size_t)(w.p - buf);
    return 0;
}

/* ---- decoding ------------------------------------------------------------- */

typedef struct reader {
    const unsigned char *p;
    size_t left;
} reader;

static int take(reader *r, void *dst, size_t n)
{
    if (r->left < n)
        return -1;
    if (n && dst)                          /* dst NULL: skip n bytes */
        memcpy(dst, r->p, n);
    r->p += n;
    r->left -= n;
    return 0;
}

size_t proto_response_bytes(const proto_call *call)
{
    size_t n = 4 + 4 + 4 + 4;                      /* magic, status, n, end magic */
    for (int i = 0; i < call->n_bufs; i++)
        if (role_returns(call->bufs[i].role))
            n += 8 + (size_t)call->bufs[i].count * proto_kind_size(call->bufs[i].kind);
    return n;
}

/* The shape of the request in r (fn, scalars, each buffer's kind, role and
   count; no element data) into call: 0, or -1 when it is malformed. */
static int read_request_shape(reader *r, proto_call *call)
{
    uint32_t magic, n, kind, role;
    memset(call, 0, sizeof *call);
    if (take(r, &magic, 4) || magic != PROTO_REQUEST_MAGIC || take(r, &call->fn, 4) ||
        take(r, &n, 4) || n > PROTO_MAX_INTS || take(r, call->ints, 8 * (size_t)n))
        return -1;
    call->n_ints = (int)n;
    if (take(r, &n, 4) || n > PROTO_MAX_REALS || take(r, call->reals, 8 * (size_t)n))
        return -1;
    call->n_reals = (int)n;
    if (take(r, &n, 4) || n > PROTO_MAX_BUFS)
        return -1;
    call->n_bufs = (int)n;
    for (uint32_t i = 0; i < n; i++) {
        proto_buf *b = &call->bufs[i];
        if (take(r, &kind, 4) || take(r, &role, 4) || take(r, &b->count, 8))
            return -1;
        b->kind = (proto_kind)kind;
        b->role = (proto_role)role;
        size_t es = proto_kind_size(b->kind);
        if (es == 0 || !role_ok(b->role) || b->count > (uint64_t)PROTO_MAX_ELEMS)
            return -1;
        size_t bytes = (size_t)b->count * es;
        if (role_sends(b->role) && take(r, NULL, bytes))
            return -1;
    }
    return take(r, &magic, 4) || magic != PROTO_END_MAGIC || r->left != 0 ? -1 : 0;
}

int proto_request_bound(const unsigned char *req, size_t len, proto_bound *bound)
{
    memset(bound, 0, sizeof *bound);
    reader r = {req, req ? len : 0};
    proto_call call;
    if (read_request_shape(&r, &call) != 0)
        return -1;
    bound->response_bytes = proto_response_bytes(&call);
    bound->n_bufs = call.n_bufs;
    for (int i = 0; i < call.n_bufs; i++)
        bound->buf_bytes[i] = (size_t)call.bufs[i].count * proto_kind_size(call.bufs[i].kind);
    return 0;
}

int proto_decode_response(const unsigned char *bytes, size_t len, const proto_call *call,
                          int32_t *status, proto_buf out[PROTO_MAX_BUFS],
                          char *err, size_t errlen)
{
    memset(out, 0, sizeof(proto_buf) * PROTO_MAX_BUFS);
    if (!call || call->n_bufs < 0 || call->n_bufs > PROTO_MAX_BUFS) {
        gr_set_err(err, errlen, "bad response: the call it answers is malformed");
        return -1;
    }
    for (int i = 0; i < call->n_bufs; i++) {
        out[i].kind = call->bufs[i].kind;
        out[i].role = call->bufs[i].role;
        out[i].count = call->bufs[i].count;
        out[i].data = NULL;
    }
    reader r = {bytes, bytes ? len : 0};
    uint32_t magic, n, end;
    int32_t st;

    if (take(&r, &magic, 4) != 0) {
        gr_set_err(err, errlen, "bad response: %zu bytes, too short to hold a header", len);
        goto fail;
    }
    if (magic != PROTO_RESPONSE_MAGIC) {
        gr_set_err(err, errlen, "bad response: starts with 0x%08x, not the response magic", magic);
        goto fail;
    }
    uint32_t expect_n = 0;
    for (int i = 0; i < call->n_bufs; i++)
        expect_n += role_returns(call->bufs[i].role) ? 1u : 0u;
    if (take(&r, &st, 4) != 0 || take(&r, &n, 4) != 0) {
        gr_set_err(err, errlen, "bad response: cut short in the header");
        goto fail;
    }
    if (n != expect_n) {
        gr_set_err(err, errlen, "bad response: %u output buffers, the call has %u", n, expect_n);
        goto fail;
    }
    for (int i = 0; i < call->n_bufs; i++) {
        if (!role_returns(call->bufs[i].role))
            continue;
        uint64_t count;
        if (take(&r, &count, 8) != 0) {
            gr_set_err(err, errlen, "bad response: cut short before buffer %d", i);
            goto fail;
        }
        if (count != call->bufs[i].count) {
            gr_set_err(err, errlen, "bad response: buffer %d has %llu elements, the call has %llu", i,
                (unsigned long long)count, (unsigned long long)call->bufs[i].count);
            goto fail;
        }
        size_t nbytes = (size_t)count * proto_kind_size(call->bufs[i].kind);
        if (r.left < nbytes) {
            gr_set_err(err, errlen, "bad response: cut short inside buffer %d (%zu of %zu bytes)", i,
                r.left, nbytes);
            goto fail;
        }
        out[i].data = gr_xmalloc(nbytes);
        take(&r, out[i].data, nbytes);
    }
    if (take(&r, &end, 4) != 0) {
        gr_set_err(err, errlen, "bad response: cut short before the end magic");
        goto fail;
    }
    if (end != PROTO_END_MAGIC) {
        gr_set_err(err, errlen, "bad response: ends with 0x%08x, not the end magic", end);
        goto fail;
    }
    if (r.left != 0) {
        gr_set_err(err, errlen, "bad response: %zu trailing bytes after the end magic", r.left);
        goto fail;
    }
    *status = st;
    return 0;

fail:
    proto_free_outputs(out, call->n_bufs);
    return -1;
}

void proto_free_outputs(proto_buf out[PROTO_MAX_BUFS], int n_bufs)
{
    if (!out)
        return;
    if (n_bufs > PROTO_MAX_BUFS)
        n_bufs = PROTO_MAX_BUFS;
    for (int i = 0; i < n_bufs; i++) {
        free(out[i].data);
        out[i].data = NULL;
    }
}
