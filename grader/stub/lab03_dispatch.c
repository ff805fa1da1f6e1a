/* lab03_dispatch.c: the child side of lab 3 (learned scores). Unpacks a call
 * built by grader/labs/lab03.c into the student's function. No answers live here. */
#include "dispatch.h"
#include "lab03_calls.h"
#include "../../labs/lab03-learned/lab03.h"

/* The product of sizes, negative ones counted as 0 (a contract-breaking call
   still gets buffers, just no elements it may touch). */
static int64_t elems(int64_t a, int64_t b, int64_t c)
{
    return (a > 0 ? a : 0) * (b > 0 ? b : 0) * (c > 0 ? c : 0);
}

/* True when buffer b holds at least n elements. */
static int holds(const proto_buf *b, int64_t n)
{
    return (int64_t)b->count >= n;
}

int stub_dispatch(const proto_call *call, int *no_such_call)
{
    const proto_buf *buf = call->bufs;
    const int64_t *n = call->ints;
    switch (call->fn) {
    case LAB03_GENERAL_SCORES: {
        if (!stub_call_shape(call, 5, 0, "ffff"))
            break;
        int B = (int)n[0], Tq = (int)n[1], Tk = (int)n[2], dq = (int)n[3], dk = (int)n[4];
        if (!holds(&buf[0], elems(B, Tq, Tk)) || !holds(&buf[1], elems(B, Tq, dq)) ||
            !holds(&buf[2], elems(dq, dk, 1)) || !holds(&buf[3], elems(B, Tk, dk)))
            break;
        return lab_general_scores(buf[0].data, buf[1].data, buf[2].data, buf[3].data,
                                  B, Tq, Tk, dq, dk);
    }
    case LAB03_ADDITIVE_SCORES: {
        if (!stub_call_shape(call, 6, 0, "ffffff"))
            break;
        int B = (int)n[0], Tq = (int)n[1], Tk = (int)n[2], dq = (int)n[3], dk = (int)n[4],
            h = (int)n[5];
        if (!holds(&buf[0], elems(B, Tq, Tk)) || !holds(&buf[1], elems(B, Tq, dq)) ||
            !holds(&buf[2], elems(B, Tk, dk)) || !holds(&buf[3], elems(h, dq, 1)) ||
            !holds(&buf[4], elems(h, dk, 1)) || !holds(&buf[5], elems(h, 1, 1)))
            break;
        return lab_additive_scores(buf[0].data, buf[1].data, buf[2].data, buf[3].data,
                                   buf[4].data, buf[5].data, B, Tq, Tk, dq, dk, h);
    }
    default:
        break;
    }
    *no_such_call = 1;
    return 0;
}
