/* lab02_dispatch.c: the child side of lab 2 (masks and softmax). Unpacks a call
 * built by grader/labs/lab02.c into the student's function. No answers live here. */
#include "dispatch.h"
#include "lab02_calls.h"
#include "../../labs/lab02-softmax/lab02.h"

int stub_dispatch(const proto_call *call, int *no_such_call)
{
    const proto_buf *buf = call->bufs;
    const int64_t *n = call->ints;
    switch (call->fn) {
    case LAB02_SOFTMAX:
        if (!stub_call_shape(call, 2, 0, "ffi") || !stub_holds(&buf[0], stub_elems(n[0], n[1], 1)) ||
            !stub_holds(&buf[1], stub_elems(n[0], n[1], 1)) || !stub_holds(&buf[2], 1))
            break;
        return lab_softmax(buf[0].data, buf[1].data, (int)n[0], (int)n[1], buf[2].data);
    case LAB02_SOFTMAX_INPLACE:
        /* W == S: the same memory for both, as the contract allows */
        if (!stub_call_shape(call, 2, 0, "fi") || !stub_holds(&buf[0], stub_elems(n[0], n[1], 1)) ||
            !stub_holds(&buf[1], 1))
            break;
        return lab_softmax(buf[0].data, buf[0].data, (int)n[0], (int)n[1], buf[1].data);
    case LAB02_SOFTMAX_NOCOUNT:
        if (!stub_call_shape(call, 2, 0, "ff") || !stub_holds(&buf[0], stub_elems(n[0], n[1], 1)) ||
            !stub_holds(&buf[1], stub_elems(n[0], n[1], 1)))
            break;
        return lab_softmax(buf[0].data, buf[1].data, (int)n[0], (int)n[1], NULL);
    case LAB02_CAUSAL_MASK:
        if (!stub_call_shape(call, 3, 0, "f") || !stub_holds(&buf[0], stub_elems(n[0], n[1], n[2])))
            break;
        return lab_causal_mask(buf[0].data, (int)n[0], (int)n[1], (int)n[2]);
    case LAB02_PADDING_MASK:
        if (!stub_call_shape(call, 3, 0, "fi") || !stub_holds(&buf[0], stub_elems(n[0], n[1], n[2])) ||
            !stub_holds(&buf[1], stub_elems(n[0], 1, 1)))
            break;
        return lab_padding_mask(buf[0].data, buf[1].data, (int)n[0], (int)n[1], (int)n[2]);
    case LAB02_BOOL_MASK:
        if (!stub_call_shape(call, 3, 0, "fu") || !stub_holds(&buf[0], stub_elems(n[0], n[1], n[2])) ||
            !stub_holds(&buf[1], stub_elems(n[0], n[1], n[2])))
            break;
        return lab_bool_mask(buf[0].data, buf[1].data, (int)n[0], (int)n[1], (int)n[2]);
    case LAB02_TEMPERATURE:
        /* the contract's tau is a float: narrow the double sent */
        if (!stub_call_shape(call, 1, 1, "f") || !stub_holds(&buf[0], stub_elems(n[0], 1, 1)))
            break;
        return lab_temperature(buf[0].data, (float)call->reals[0], (int)n[0]);
    default:
        break;
    }
    *no_such_call = 1;
    return 0;
}
