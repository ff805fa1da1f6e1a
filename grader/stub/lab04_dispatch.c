/* lab04_dispatch.c: the child side of lab 4 (entropy experiment). Unpacks a
 * call built by grader/labs/lab04.c into the student's function. No answers
 * live here. */
#include "dispatch.h"
#include "lab04_calls.h"
#include "../../labs/lab04-entropy/lab04.h"

int stub_dispatch(const proto_call *call, int *no_such_call)
{
    const proto_buf *buf = call->bufs;
    const int64_t *n = call->ints;
    switch (call->fn) {
    case LAB04_ROW_ENTROPY:
        if (!stub_call_shape(call, 2, 0, "ff") || !stub_holds(&buf[0], n[0]) ||
            !stub_holds(&buf[1], n[0] > 0 && n[1] > 0 ? n[0] * n[1] : 0))
            break;
        return lab_row_entropy(buf[0].data, buf[1].data, (int)n[0], (int)n[1]);
    case LAB04_ENTROPY_EXPERIMENT:
        /* ints: n_dk, T, trials, and the seed's 64 bits carried in an int64 */
        if (!stub_call_shape(call, 4, 0, "ffi") || !stub_holds(&buf[0], n[0]) ||
            !stub_holds(&buf[1], n[0]) || !stub_holds(&buf[2], n[0]))
            break;
        return lab_entropy_experiment(buf[0].data, buf[1].data, buf[2].data, (int)n[0],
                                      (int)n[1], (int)n[2], (uint64_t)n[3]);
    default:
        break;
    }
    *no_such_call = 1;
    return 0;
}
