/* protocol.h: the wire format between attnlab (the parent) and one sandboxed
 * test child (the student's code linked with grader/child/).
 *
 * One child runs one call. The parent writes a request on the child's fd 3
 * (PROTO_FD_REQUEST) and closes it; the child writes one response on fd 4
 * (PROTO_FD_RESPONSE). The child's stdout and stderr go to a third pipe that
 * the parent reads only as a bounded, labelled excerpt: nothing a student
 * prints is ever parsed. Expected values never enter the child.
 * Integers and floats are in host byte order (parent and child share a machine).
 *
 * Request:
 *   u32 PROTO_REQUEST_MAGIC
 *   u32 fn                         index into the lab's call table (labNN_calls.h)
 *   u32 n_ints,  then n_ints  x i64
 *   u32 n_reals, then n_reals x f64     (the stub narrows to float where the contract says float)
 *   u32 n_bufs,  then per buffer:
 *        u32 kind (proto_kind), u32 role (proto_role), u64 count,
 *        then count elements when role is IN or INOUT (OUT buffers start as NaN
 *        for F32 and as 0x5A bytes otherwise, so an unwritten element shows)
 *   u32 PROTO_END_MAGIC
 * Response:
 *   u32 PROTO_RESPONSE_MAGIC
 *   i32 status                     what the student's function returned
 *   u32 n, then for each OUT or INOUT buffer in request order: u64 count, elements
 *   u32 PROTO_END_MAGIC
 * The parent parses strictly: wrong magic, wrong counts, short or trailing bytes
 * are a bad response, never trusted.
 * Leak record (instead of the response, with exit code PROTO_EXIT_LEAKED): the
 * call returned with blocks it allocated still live, against every contract's
 * rule that scratch memory is freed before returning:
 *   u32 PROTO_LEAK_MAGIC, u64 bytes (as requested), u64 blocks, u32 PROTO_END_MAGIC
 */
#ifndef GR_PROTOCOL_H
#define GR_PROTOCOL_H

#include <stddef.h>
#include <stdint.h>

#define PROTO_FD_REQUEST  3
#define PROTO_FD_RESPONSE 4

#define PROTO_REQUEST_MAGIC  0x41544c51u  /* "QLTA" */
#define PROTO_RESPONSE_MAGIC 0x41544c52u  /* "RLTA" */
#define PROTO_END_MAGIC      0x454e4421u  /* "!DNE" */
#define PROTO_LEAK_MAGIC     0x41544c4cu  /* "LLTA" */
#define PROTO_LEAK_BYTES     24           /* a leak record's size */

#define PROTO_MAX_INTS  16
#define PROTO_MAX_REALS 8
#define PROTO_MAX_BUFS  12
#define PROTO_MAX_ELEMS (64L * 1024 * 1024)  /* per buffer, a sanity bound */

/* Exit codes the stub uses for outcomes it detects itself. */
#define PROTO_EXIT_OK           0
#define PROTO_EXIT_OUT_OF_MEMORY 90  /* an allocation went over the memory limit */
#define PROTO_EXIT_BAD_REQUEST  91  /* the request did not parse (a grader bug) */
#define PROTO_EXIT_NO_SUCH_CALL 92  /* fn unknown to this lab's dispatch */
#define PROTO_EXIT_STACK_OVERFLOW 93 /* the stack grew past its limit (deep recursion, huge local array) */
#define PROTO_EXIT_LEAKED       94  /* returned with scratch memory still allocated (a leak record follows) */

typedef enum proto_kind { PROTO_F32 = 1, PROTO_I32 = 2, PROTO_U8 = 3 } proto_kind;
typedef enum proto_role { PROTO_IN = 1, PROTO_OUT = 2, PROTO_INOUT = 3 } proto_role;

/* One array argument. data holds count elements of kind (float, int32_t, uint8_t). */
typedef struct proto_buf {
    proto_kind kind;
    proto_role role;
    uint64_t count;
    void *data;
} proto_buf;

/* One call of a student's function, as both sides see it. */
typedef struct proto_call {
    uint32_t fn;
    int n_ints;
    int64_t ints[PROTO_MAX_INTS];
    int n_reals;
    double reals[PROTO_MAX_REALS];
    int n_bufs;
    proto_buf bufs[PROTO_MAX_BUFS];
} proto_call;

/* Size in bytes of one element of kind. */
size_t proto_kind_size(proto_kind kind);

/* What element k of an F32 OUT buffer holds before the call (the child fills
   it, the parent expects it back where the call must write nothing): 1e30,
   NaN and -1e30 in turn. An element never written shows, and no one value
   hides a missing first value (fmaxf(NaN, x) is x, and so is
   fmaxf(-1e30f, x), but not fmaxf(1e30f, x)); element 0 is 1e30. */
static inline float proto_out_fill(uint64_t k)
{
    return k % 3 == 0 ? 1e30f : k % 3 == 1 ? __builtin_nanf("") : -1e30f;
}

/* Parent: serialise a call into a malloc'd request. 0, or -1 on a malformed call. */
int proto_encode_request(const proto_call *call, unsigned char **bytes, size_t *len);

/* Parent: parse a child's response for call. On success returns 0, sets *status and
   fills out[i] (malloc'd data, same kind and count as call->bufs[i]) for every OUT
   or INOUT buffer i; IN buffers get data NULL. On failure returns -1 and writes why
   into err. */
int proto_decode_response(const unsigned char *bytes, size_t len, const proto_call *call,
                          int32_t *status, proto_buf out[PROTO_MAX_BUFS],
                          char *err, size_t errlen);

/* Parent: parse a leak record (the response of a child that exited
   PROTO_EXIT_LEAKED) into *bytes and *blocks. 0, or -1 with why in err. */
int proto_decode_leak(const unsigned char *bytes, size_t len, uint64_t *leak_bytes,
                      uint64_t *leak_blocks, char *err, size_t errlen);

/* Free the data decode_response allocated. */
void proto_free_outputs(proto_buf out[PROTO_MAX_BUFS], int n_bufs);

#endif /* GR_PROTOCOL_H */
