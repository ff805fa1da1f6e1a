/* lab02_dispatch.c: the child side of lab 2 (masks and softmax). Unpacks a call
 * built by grader/labs/lab02.c into the student's function. No answers live here. */
#include "dispatch.h"
#include "lab02_calls.h"
#include "../../labs/lab02-softmax/lab02.h"

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
    case LAB02_SOFTMAX:
        if (!stub_call_shape(call, 2, 0, "ffi") || !holds(&buf[0], elems(n[0], n[1], 1)) ||
            !holds(&buf[1], elems(n[0], n[1], 1)) || !holds(&buf[2], 1))
            break;
        return lab_softmax(buf[0].data, buf[1].data, (int)n[0], (int)n[1], buf[2].data);
    case LAB02_SOFTMAX_INPLACE:
        /* W == S: the same memory for both, as the contract allows */
        if (!stub_call_shape(call, 2, 0, "fi") || !holds(&buf[0], elems(n[0], n[1], 1)) ||
            !holds(&buf[1], 1))
            break;
        return lab_softmax(buf[0].data, buf[0].data, (int)n[0], (int)n[1], buf[1].data);
    case LAB02_SOFTMAX_NOCOUNT:
        if (!stub_call_shape(call, 2, 0, "ff") || !holds(&buf[0], elems(n[0], n[1], 1)) ||
            !holds(&buf[1], elems(n[0], n[1], 1)))
            break;
        return lab_softmax(buf[0].data, buf[1].data, (int)n[0], (int)n[1], NULL);
    case LAB02_CAUSAL_MASK:
        if (!stub_call_shape(call, 3, 0, "f") || !holds(&buf[0], elems(n[0], n[1], n[2])))
            break;
        return lab_causal_mask(buf[0].data, (int)n[0], (int)n[1], (int)n[2]);
    case LAB02_PADDING_MASK:
        if (!stub_call_shape(call, 3, 0, "fi") || !holds(&buf[0], elems(n[0], n[1], n[2])) ||
            !holds(&buf[1], elems(n[0], 1, 1)))
            break;
        return lab_padding_mask(buf[0].data, buf[1].data, (int)n[0], (int)n[1], (int)n[2]);
    case LAB02_BOOL_MASK:
        if (!stub_call_shape(call, 3, 0, "fu") || !holds(&buf[0], elems(n[0], n[1], n[2])) ||
            !holds(&buf[1], elems(n[0], n[1], n[2])))
            break;
        return lab_bool_mask(buf[0].data, buf[1].data, (int)n[0], (int)n[1], (int)n[2]);
    case LAB02_TEMPERATURE:
        /* the contract's tau is a float: narrow the double sent */
        if (!stub_call_shape(call, 1, 1, "f") || !holds(&buf[0], elems(n[0], 1, 1)))
            break;
        return lab_temperature(buf[0].data, (float)call->reals[0], (int)n[0]);
    default:
        break;
    }
    *no_such_call = 1;
    return 0;
}
