/* fuzz_response.c: the parent's decoder of a child's response
 * (proto_decode_response in grader/base/protocol.c) on any bytes.
 *
 * The child runs a student's code, so any bytes at all may come back: the
 * decoder must reject everything but an exact response to the call it made.
 * Input layout:
 *   byte 0        which call was made: 0..N_FIXED-1 picks one of the realistic
 *                 calls below; any other value builds one from the next bytes:
 *   [byte 1       number of buffers, mod PROTO_MAX_BUFS + 1
 *    3 bytes per buffer: kind (mod 3, + 1), role (mod 3, + 1), count (0..255)]
 *   the rest      the response, as the child wrote it
 * A response that decodes must be exactly the canonical encoding of what was
 * decoded (status, then each returned buffer's count and elements): the
 * decoder promises to accept nothing short, long or different.
 */
#include <string.h>

#include "base/protocol.h"
#include "fuzz.h"

/* Realistic calls, shaped like the labs make them (counts only; IN data is
   never read by the decoder). */
static void fixed_call(proto_call *c, int which)
{
    memset(c, 0, sizeof *c);
    switch (which) {
    case 0:     /* scores: S (OUT f32, 2*3*5), Q (IN f32, 2*3*4), K (IN f32, 2*5*4) */
        c->n_bufs = 3;
        c->bufs[0] = (proto_buf){PROTO_F32, PROTO_OUT, 30, NULL};
        c->bufs[1] = (proto_buf){PROTO_F32, PROTO_IN, 24, NULL};
        c->bufs[2] = (proto_buf){PROTO_F32, PROTO_IN, 40, NULL};
        break;
    case 1:     /* softmax in place: W (INOUT f32, 4), then the row flags (OUT i32, 1) */
        c->n_bufs = 2;
        c->bufs[0] = (proto_buf){PROTO_F32, PROTO_INOUT, 4, NULL};
        c->bufs[1] = (proto_buf){PROTO_I32, PROTO_OUT, 1, NULL};
        break;
    case 2:     /* masking: S (INOUT f32, 1*2*3), mask (IN u8, 2*3), kept (OUT u8, 6) */
        c->n_bufs = 3;
        c->bufs[0] = (proto_buf){PROTO_F32, PROTO_INOUT, 6, NULL};
        c->bufs[1] = (proto_buf){PROTO_U8, PROTO_IN, 6, NULL};
        c->bufs[2] = (proto_buf){PROTO_U8, PROTO_OUT, 6, NULL};
        break;
    default:    /* a call with no buffers back: only status and the end magic */
        c->n_bufs = 1;
        c->bufs[0] = (proto_buf){PROTO_F32, PROTO_IN, 8, NULL};
        break;
    }
}
#define N_FIXED 4

/* Build a call from the input's first bytes; returns how many it used. */
static size_t built_call(proto_call *c, const uint8_t *data, size_t size)
{
    memset(c, 0, sizeof *c);
    if (size < 2)
        return size;
    c->n_bufs = data[1] % (PROTO_MAX_BUFS + 1);
    size_t used = 2;
    for (int i = 0; i < c->n_bufs; i++, used += 3) {
        const uint8_t *b = data + used;
        if (used + 3 > size) {
            c->n_bufs = i;
            break;
        }
        c->bufs[i] = (proto_buf){(proto_kind)(b[0] % 3 + 1), (proto_role)(b[1] % 3 + 1),
                                 b[2], NULL};
    }
    return used > size ? size : used;
}

/* Append n bytes at *p (the canonical re-encoding). */
static void put(uint8_t **p, const void *src, size_t n)
{
    memcpy(*p, src, n);
    *p += n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    proto_call call;
    size_t used = 1;
    if (data[0] < N_FIXED)
        fixed_call(&call, data[0]);
    else
        used = built_call(&call, data, size);
    const uint8_t *resp = data + used;
    size_t len = size - used;

    int32_t status = 0;
    proto_buf out[PROTO_MAX_BUFS];
    char err[256];
    if (proto_decode_response(resp, len, &call, &status, out, err, sizeof err) != 0) {
        fuzz_check(strncmp(err, "bad response: ", 14) == 0, "a rejection has no reason");
        for (int i = 0; i < PROTO_MAX_BUFS; i++)
            fuzz_check(out[i].data == NULL, "a rejected response left a buffer allocated");
        return 0;
    }

    /* accepted: re-encode what was decoded; it must be the very same bytes */
    uint8_t *canon = malloc(len ? len : 1), *p = canon;
    uint32_t magic = PROTO_RESPONSE_MAGIC, n = 0, end = PROTO_END_MAGIC;
    for (int i = 0; i < call.n_bufs; i++)
        n += call.bufs[i].role != PROTO_IN ? 1u : 0u;
    size_t need = 16;
    for (int i = 0; i < call.n_bufs; i++)
        if (call.bufs[i].role != PROTO_IN)
            need += 8 + (size_t)call.bufs[i].count * proto_kind_size(call.bufs[i].kind);
    fuzz_check(need == len, "an accepted response has the wrong length for its call");
    put(&p, &magic, 4);
    put(&p, &status, 4);
    put(&p, &n, 4);
    for (int i = 0; i < call.n_bufs; i++) {
        if (call.bufs[i].role == PROTO_IN) {
            fuzz_check(out[i].data == NULL, "an IN buffer came back");
            continue;
        }
        fuzz_check(out[i].kind == call.bufs[i].kind && out[i].count == call.bufs[i].count,
                   "a returned buffer's kind or count differs from the call's");
        put(&p, &out[i].count, 8);
        size_t nbytes = (size_t)out[i].count * proto_kind_size(out[i].kind);
        if (nbytes)
            put(&p, out[i].data, nbytes);
    }
    put(&p, &end, 4);
    fuzz_check(memcmp(canon, resp, len) == 0, "an accepted response differs from its encoding");
    free(canon);
    proto_free_outputs(out, call.n_bufs);
    return 0;
}
