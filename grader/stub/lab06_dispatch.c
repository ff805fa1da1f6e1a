/* lab06_dispatch.c: the child's side of lab 6. Unpacks a call (numbered in
 * lab06_calls.h) into the student's function; no answers live here. */
#include "dispatch.h"
#include "lab06_calls.h"
#include "../../labs/lab06-biases/lab06.h"

int stub_dispatch(const proto_call *call, int *no_such_call)
{
    const int64_t *n = call->ints;
#define BUF(k) (call->bufs[k].data)
    switch (call->fn) {
    case LAB06_ALIBI_SLOPES:
        if (!stub_call_shape(call, 1, 0, "f"))
            break;
        return lab_alibi_slopes(BUF(0), (int)n[0]);
    case LAB06_ALIBI_BIAS:
        if (!stub_call_shape(call, 4, 0, "f"))
            break;
        return lab_alibi_bias(BUF(0), (int)n[0], (int)n[1], (int)n[2], (int)n[3]);
    case LAB06_T5_BUCKET:
        if (!stub_call_shape(call, 4, 0, "ii"))
            break;
        return lab_t5_bucket(BUF(0), BUF(1), (int)n[0], (int)n[1], (int)n[2], (int)n[3]);
    case LAB06_RELPOS_BIAS:
        if (!stub_call_shape(call, 7, 0, "ff"))
            break;
        return lab_relpos_bias(BUF(0), BUF(1), (int)n[0], (int)n[1], (int)n[2], (int)n[3],
                               (int)n[4], (int)n[5], (int)n[6]);
    case LAB06_DROPOUT:
        /* p is a float in the contract: narrowed here, as the parent assumes */
        if (!stub_call_shape(call, 2, 1, "f"))
            break;
        return lab_dropout(BUF(0), (float)call->reals[0], (uint64_t)n[0], (long)n[1]);
    case LAB06_ATTENTION_OUTPUT:
        if (!stub_call_shape(call, 4, 0, "fff"))
            break;
        return lab_attention_output(BUF(0), BUF(1), BUF(2),
                                    (int)n[0], (int)n[1], (int)n[2], (int)n[3]);
    }
#undef BUF
    *no_such_call = 1;
    return 0;
}
