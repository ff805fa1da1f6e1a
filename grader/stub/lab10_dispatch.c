/* lab10_dispatch.c: the child's side of lab 10. Unpacks a call (numbered in
 * lab10_calls.h) into the student's function; no answers live here. */
#include "dispatch.h"
#include "lab10_calls.h"
#include "../../labs/lab10-heads/lab10.h"

int stub_dispatch(const proto_call *call, int *no_such_call)
{
    const int64_t *n = call->ints;
#define BUF(k) (call->bufs[k].data)
    switch (call->fn) {
    case LAB10_HEAD_WEIGHTS:
        if (!stub_call_shape(call, 5, 0, "fff"))
            break;
        return lab_head_weights(BUF(0), BUF(1), BUF(2),
                                (int)n[0], (int)n[1], (int)n[2], (int)n[3], (int)n[4]);
    case LAB10_GQA_WEIGHTS:
        if (!stub_call_shape(call, 6, 0, "fff"))
            break;
        return lab_gqa_weights(BUF(0), BUF(1), BUF(2), (int)n[0], (int)n[1], (int)n[2],
                               (int)n[3], (int)n[4], (int)n[5]);
    case LAB10_HEAD_AVERAGE:
        if (!stub_call_shape(call, 4, 0, "ffff"))
            break;
        return lab_head_average(BUF(0), BUF(1), BUF(2), BUF(3),
                                (int)n[0], (int)n[1], (int)n[2], (int)n[3]);
    case LAB10_EXTRACT_HEAD:
        if (!stub_call_shape(call, 6, 0, "ff"))
            break;
        return lab_extract_head(BUF(0), BUF(1), (int)n[0], (int)n[1], (int)n[2], (int)n[3],
                                (int)n[4], (int)n[5]);
    }
#undef BUF
    *no_such_call = 1;
    return 0;
}
