/* lab07_calls.h: the functions of lab 7 (online softmax) the grader can call,
 * numbered for the wire (proto_call.fn). Shared by the child's dispatch
 * (lab07_dispatch.c) and the parent's module (grader/labs/lab07.c).
 *
 *   fn                        buffers (in order)          ints                        reals
 *   LAB07_ONLINE_LOGSUMEXP    lse out, S in               rows n tile                 -
 *   LAB07_ONLINE_ATTENTION    O out, Q in, K in, V in     B T d dv tile causal        -
 */
#ifndef LAB07_CALLS_H
#define LAB07_CALLS_H

enum lab07_call {
    LAB07_ONLINE_LOGSUMEXP = 0,
    LAB07_ONLINE_ATTENTION = 1,
    LAB07_N_CALLS
};

#endif
