/* lab03_dispatch.c: the child side of lab 3 (learned scores). Unpacks a call
 * built by grader/labs/lab03.c into the student's function. No answers live here. */
#include "dispatch.h"
#include "lab03_calls.h"
#include "../../labs/lab03-learned/lab03.h"

int stub_dispatch(const proto_call *call, int *no_such_call)
{
    const proto_buf *buf = call->bufs;
    const int64_t *n = call->ints;
    switch (call->fn) {
    case LAB03_GENERAL_SCORES: {
        if (!stub_call_shape(call, 5, 0, "ffff"))
            break;
        int B = (int)n[0], Tq = (int)n[1], Tk = (int)n[2], dq = (int)n[3], dk = (int)n[4];
        if (!stub_holds(&buf[0], stub_elems(B, Tq, Tk)) || !stub_holds(&buf[1], stub_elems(B, Tq, dq)) ||
            !stub_holds(&buf[2], stub_elems(dq, dk, 1)) || !stub_holds(&buf[3], stub_elems(B, Tk, dk)))
            break;
        return lab_general_scores(buf[0].data, buf[1].data, buf[2].data, buf[3].data,
                                  B, Tq, Tk, dq, dk);
    }
    case LAB03_ADDITIVE_SCORES: {
        if (!stub_call_shape(call, 6, 0, "ffffff"))
            break;
        int B = (int)n[0], Tq = (int)n[1], Tk = (int)n[2], dq = (int)n[3], dk = (int)n[4],
            h = (int)n[5];
        if (!stub_holds(&buf[0], stub_elems(B, Tq, Tk)) || !stub_holds(&buf[1], stub_elems(B, Tq, dq)) ||
            !stub_holds(&buf[2], stub_elems(B, Tk, dk)) || !stub_holds(&buf[3], stub_elems(h, dq, 1)) ||
            !stub_holds(&buf[4], stub_elems(h, dk, 1)) || !stub_holds(&buf[5], stub_elems(h, 1, 1)))
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
