/* lab07_dispatch.c: the child's side of lab 7. Unpacks a call (numbered in
 * lab07_calls.h) into the student's function; no answers live here. */
#include "dispatch.h"
#include "lab07_calls.h"
#include "../../labs/lab07-online/lab07.h"

int stub_dispatch(const proto_call *call, int *no_such_call)
{
    const int64_t *n = call->ints;
#define BUF(k) (call->bufs[k].data)
    switch (call->fn) {
    case LAB07_ONLINE_LOGSUMEXP:
        if (!stub_call_shape(call, 3, 0, "ff"))
            break;
        return lab_online_logsumexp(BUF(0), BUF(1), (int)n[0], (int)n[1], (int)n[2]);
    case LAB07_ONLINE_ATTENTION:
        if (!stub_call_shape(call, 6, 0, "ffff"))
            break;
        return lab_online_attention(BUF(0), BUF(1), BUF(2), BUF(3), (int)n[0], (int)n[1],
                                    (int)n[2], (int)n[3], (int)n[4], (int)n[5]);
    }
#undef BUF
    *no_such_call = 1;
    return 0;
}
