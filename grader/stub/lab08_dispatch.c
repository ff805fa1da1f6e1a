/* lab08_dispatch.c: the child's side of lab 8. Unpacks a call (numbered in
 * lab08_calls.h) into the student's function; no answers live here. */
#include "dispatch.h"
#include "lab08_calls.h"
#include "../../labs/lab08-gradients/lab08.h"

int stub_dispatch(const proto_call *call, int *no_such_call)
{
    const int64_t *n = call->ints;
#define BUF(k) (call->bufs[k].data)
    switch (call->fn) {
    case LAB08_SOFTMAX_BACKWARD:
        if (!stub_call_shape(call, 2, 0, "fff"))
            break;
        return lab_softmax_backward(BUF(0), BUF(1), BUF(2), (int)n[0], (int)n[1]);
    case LAB08_SOFTMAX_BACKWARD_INPLACE:
        /* the contract allows dS == dW: one array, read as dW and written as dS */
        if (!stub_call_shape(call, 2, 0, "ff"))
            break;
        return lab_softmax_backward(BUF(1), BUF(0), BUF(1), (int)n[0], (int)n[1]);
    case LAB08_GRADIENT_EXPERIMENT:
        if (!stub_call_shape(call, 4, 0, "ffi"))
            break;
        return lab_gradient_experiment(BUF(0), BUF(1), BUF(2), (int)n[0], (int)n[1],
                                       (int)n[2], (uint64_t)n[3]);
    }
#undef BUF
    *no_such_call = 1;
    return 0;
}
