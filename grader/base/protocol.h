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
 *   u32 n_reals, then n_reals x f64     (the child narrows to float where the contract says float)
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
 *
 * Before it reads the request the child writes u32 PROTO_READY_MAGIC on fd 4
 * (its constructors have run); the parent then notes which heap blocks exist
 * (they are the student's business) and only then sends the request. After
 * the response the child stops itself (SIGSTOP) instead of exiting, and the
 * parent judges what the call left behind from outside the child
 * (grader/confined/inspect.h): the blocks the kernel still has mapped in the
 * heap region, the slack after each block and the slack below each buffer.
 * Nothing the child keeps in its own memory decides a verdict.
 *
 * Where things are: both sides compute the same addresses from these
 * constants, so neither trusts the other's record of them.
 *   buffers  from PROTO_BUF_REGION: a PROT_NONE guard page, then each
 *            buffer's pages with its data ending exactly at the next guard
 *            page (proto_buf_next); the slack below the data holds
 *            proto_slack_byte's pattern
 *   heap     from PROTO_HEAP_REGION: every block the student allocates is a
 *            mapping of its own (proto_block_*), an unmapped page between
 *            two, so the kernel's list of mappings is the list of live blocks
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
#define PROTO_READY_MAGIC    0x41544c59u  /* "YLTA" */

#define PROTO_MAX_INTS  16
#define PROTO_MAX_REALS 8
#define PROTO_MAX_BUFS  12
#define PROTO_MAX_ELEMS (64L * 1024 * 1024)  /* per buffer, a sanity bound */

/* 64 GiB up, far above the program and its brk heap, and below 256 GiB, far
   under the top-down mmap area of a 39-bit address space (arm64 kernels such
   as the Raspberry Pi's) as of a 47-bit one */
#define PROTO_BUF_REGION   ((uintptr_t)0x1000000000)    /* the buffers: 12 x 256 MiB at most */
#define PROTO_HEAP_REGION  ((uintptr_t)0x2000000000)
#define PROTO_HEAP_BYTES   ((uintptr_t)1 << 37)         /* the heap region's size: 128 GiB */
#define PROTO_MAX_BLOCKS   4096   /* live blocks at once: each is a mapping, and a page at least */

/* Exit codes the test child uses for outcomes it detects itself. */
#define PROTO_EXIT_OK           0
#define PROTO_EXIT_OUT_OF_MEMORY 90  /* an allocation went over the memory limit */
#define PROTO_EXIT_BAD_REQUEST  91  /* the request did not parse (a grader bug) */
#define PROTO_EXIT_NO_SUCH_CALL 92  /* fn unknown to this lab's dispatch */
#define PROTO_EXIT_STACK_OVERFLOW 93 /* the stack grew past its limit (deep recursion, huge local array) */
#define PROTO_EXIT_TOO_MANY_BLOCKS 95 /* more than PROTO_MAX_BLOCKS blocks allocated at once */

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

/* The data of the next buffer of bytes bytes, from *cursor (PROTO_BUF_REGION
   for the first): after a guard page, ending at the page after its last
   byte, which is the next buffer's guard. Advances *cursor. */
/* The byte at offset off of the slack below buffer buf's data. Each 4-byte
   word there is a different number, its top byte 0x70..0x7F and the bit
   under it clear, so any float, int or double read there (little-endian) is
   huge and finite (1e29 to 2e38) and poisons what it touches. Because the
   words differ from place to place and from buffer to buffer, a write below
   one array of a value read below another (lse[-1] from S[-n..-1]) or from
   further down (x[-1] = x[-2]) changes the slack too. The child fills it,
   the parent checks it (confined/inspect.c). */
static inline unsigned char proto_slack_byte(int buf, size_t off)
{
    uint32_t h = (uint32_t)(off / 4) * 2654435761u ^ (uint32_t)(buf + 1) * 2246822519u;
    h ^= h >> 15;
    uint32_t word = 0x70000000u | (h & 0x0F7FFFFFu);
    return (unsigned char)(word >> (8 * (off % 4)));
}

static inline uintptr_t proto_buf_next(uintptr_t *cursor, size_t bytes, size_t pg)
{
    uintptr_t lo = *cursor + pg;
    *cursor = lo + (bytes + pg - 1) / pg * pg;
    return *cursor - bytes;
}

/* A heap block of n requested bytes is a mapping of proto_block_span(n)
   bytes whose data ends exactly at its end, so any read or write past the
   last byte faults (the kernel's judgement, not a canary's); its start is
   then aligned to the largest power of two that divides n, up to the page
   (malloc's 16 for every size a 16-aligned object's array can have; the
   C library's aligned allocations round n up to their alignment). The 16
   bytes below the data hold n for the child's free and realloc, then 8
   bytes of a huge float (1.3e36), so a value read below the block poisons
   what it touches (the student can rewrite them, and so only hurt their own
   program). The mapping's first page index
   modulo PROTO_BLOCK_CODES(pg) is proto_block_code(n): the mapping alone, as
   the kernel lists it, says n (proto_block_size). */
#define PROTO_BLOCK_CODES(pg) ((pg) + 16)

static inline size_t proto_block_span(size_t n, size_t pg)
{
    return (n + 16 + pg - 1) / pg * pg;
}

static inline size_t proto_block_code(size_t n, size_t pg)
{
    return proto_block_span(n, pg) - n;            /* 16 .. pg + 15 */
}

/* n for the mapping [start, end), or SIZE_MAX when it is no block's shape. */
static inline size_t proto_block_size(uintptr_t start, uintptr_t end, size_t pg)
{
    size_t code = (size_t)(start / pg % PROTO_BLOCK_CODES(pg)), span = (size_t)(end - start);
    size_t n = span >= code ? span - code : SIZE_MAX;
    return n != SIZE_MAX && proto_block_span(n, pg) == span ? n : SIZE_MAX;
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

/* What a request asks of the child, read from its bytes: each buffer's size
   in bytes (where the child's guarded buffers are) and the exact length of
   a correct response, which bounds what the parent reads. */
typedef struct proto_bound {
    size_t response_bytes;
    int n_bufs;
    size_t buf_bytes[PROTO_MAX_BUFS];
} proto_bound;

/* Parent: the bound of the request req (len bytes), as proto_encode_request
   wrote it: 0, or -1 when req is no well-formed request (the child then
   exits PROTO_EXIT_BAD_REQUEST). */
int proto_request_bound(const unsigned char *req, size_t len, proto_bound *bound);

/* The length of a correct response to call: what the child writes. */
size_t proto_response_bytes(const proto_call *call);

/* Free the data decode_response allocated. */
void proto_free_outputs(proto_buf out[PROTO_MAX_BUFS], int n_bufs);

#endif /* GR_PROTOCOL_H */
