/* lab09_calls.h: the functions of lab 9 (decoding masks and denominators) the
 * grader can call, numbered for the wire (proto_call.fn). Shared by the child's
 * dispatch (lab09_dispatch.c) and the parent's module (grader/labs/lab09.c).
 *
 *   fn                         buffers (in order)                          ints               reals
 *   LAB09_CAUSAL_MASK          S inout                                     B Tq Tk bottom_right  -
 *   LAB09_SLIDING_WINDOW       S inout                                     B Tq Tk window     -
 *   LAB09_SINK_SOFTMAX         W out, Wsink out, S in, sink in             B H Tq Tk          -
 *   LAB09_POSTMASK_BACKWARD    dS out, W in, dW in, keep in u8             rows n             -
 */
#ifndef LAB09_CALLS_H
#define LAB09_CALLS_H

enum lab09_call {
    LAB09_CAUSAL_MASK = 0,
    LAB09_SLIDING_WINDOW = 1,
    LAB09_SINK_SOFTMAX = 2,
    LAB09_POSTMASK_BACKWARD = 3,
    LAB09_N_CALLS
};

#endif
