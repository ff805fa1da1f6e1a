/* lab09_dispatch.c: the child's side of lab 9. Unpacks a call (numbered in
 * lab09_calls.h) into the student's function; no answers live here. */
#include "dispatch.h"
#include "lab09_calls.h"
#include "../../labs/lab09-decoding/lab09.h"

int stub_dispatch(const proto_call *call, int *no_such_call)
{
    const proto_buf *buf = call->bufs;
    const int64_t *n = call->ints;
    switch (call->fn) {
    case LAB09_CAUSAL_MASK:
        if (!stub_call_shape(call, 4, 0, "f") || !stub_holds(&buf[0], stub_elems(n[0], n[1], n[2])))
            break;
        return lab_causal_mask_aligned(buf[0].data, (int)n[0], (int)n[1], (int)n[2], (int)n[3]);
    case LAB09_SLIDING_WINDOW:
        if (!stub_call_shape(call, 4, 0, "f") || !stub_holds(&buf[0], stub_elems(n[0], n[1], n[2])))
            break;
        return lab_sliding_window_mask(buf[0].data, (int)n[0], (int)n[1], (int)n[2], (int)n[3]);
    case LAB09_SINK_SOFTMAX:
        if (!stub_call_shape(call, 4, 0, "ffff") ||
            !stub_holds(&buf[0], stub_elems(n[0], n[2], n[3])) ||
            !stub_holds(&buf[1], stub_elems(n[0], n[2], 1)) ||
            !stub_holds(&buf[2], stub_elems(n[0], n[2], n[3])) ||
            !stub_holds(&buf[3], stub_elems(n[1], 1, 1)))
            break;
        return lab_sink_softmax(buf[0].data, buf[1].data, buf[2].data, buf[3].data,
                                (int)n[0], (int)n[1], (int)n[2], (int)n[3]);
    case LAB09_POSTMASK_BACKWARD:
        if (!stub_call_shape(call, 2, 0, "fffu") || !stub_holds(&buf[0], stub_elems(n[0], n[1], 1)) ||
            !stub_holds(&buf[1], stub_elems(n[0], n[1], 1)) ||
            !stub_holds(&buf[2], stub_elems(n[0], n[1], 1)) ||
            !stub_holds(&buf[3], stub_elems(n[0], n[1], 1)))
            break;
        return lab_postmask_backward(buf[0].data, buf[1].data, buf[2].data, buf[3].data,
                                     (int)n[0], (int)n[1]);
    }
    *no_such_call = 1;
    return 0;
}
