/* lab05_dispatch.c: the child's side of lab 5. Unpacks a call (numbered in
 * lab05_calls.h) into the student's function; no answers live here. */
#include "dispatch.h"
#include "lab05_calls.h"
#include "../../labs/lab05-masking/lab05.h"

int stub_dispatch(const proto_call *call, int *no_such_call)
{
    const int64_t *n = call->ints;
#define BUF(k) (call->bufs[k].data)
    switch (call->fn) {
    case LAB05_ATTEND_PREMASK:
        if (!stub_call_shape(call, 4, 0, "ffif"))
            break;
        return lab_attend_premask(BUF(0), BUF(1), BUF(2), BUF(3),
                                  (int)n[0], (int)n[1], (int)n[2], (int)n[3]);
    case LAB05_ATTEND_POSTMASK:
        if (!stub_call_shape(call, 4, 0, "fffif"))
            break;
        return lab_attend_postmask(BUF(0), BUF(1), BUF(2), BUF(3), BUF(4),
                                   (int)n[0], (int)n[1], (int)n[2], (int)n[3]);
    case LAB05_MASKING_EXPERIMENT:
        if (!stub_call_shape(call, 4, 0, "ffi"))
            break;
        return lab_masking_experiment(BUF(0), BUF(1), BUF(2), (int)n[0], (int)n[1],
                                      (int)n[2], (uint64_t)n[3]);
    }
#undef BUF
    *no_such_call = 1;
    return 0;
}
