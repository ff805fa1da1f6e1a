/* lab01_dispatch.c: the child side of lab 1 (scores). Unpacks a call built by
 * grader/labs/lab01.c into the student's function. No answers live here. */
#include "dispatch.h"
#include "lab01_calls.h"
#include "../../labs/lab01-scores/lab01.h"

int stub_dispatch(const proto_call *call, int *no_such_call)
{
    const proto_buf *buf = call->bufs;
    const int64_t *n = call->ints;
    switch (call->fn) {
    case LAB01_DOT_SCORES:
    case LAB01_SCALED_DOT_SCORES: {
        if (!stub_call_shape(call, 4, 0, "fff"))
            break;
        int B = (int)n[0], Tq = (int)n[1], Tk = (int)n[2], d = (int)n[3];
        /* the parent sizes every buffer for the call; refuse anything smaller */
        if ((int64_t)buf[0].count < stub_elems(B, Tq, Tk) || (int64_t)buf[1].count < stub_elems(B, Tq, d) ||
            (int64_t)buf[2].count < stub_elems(B, Tk, d))
            break;
        if (call->fn == LAB01_DOT_SCORES)
            return lab_dot_scores(buf[0].data, buf[1].data, buf[2].data, B, Tq, Tk, d);
        return lab_scaled_dot_scores(buf[0].data, buf[1].data, buf[2].data, B, Tq, Tk, d);
    }
    default:
        break;
    }
    *no_such_call = 1;
    return 0;
}
