/* lab08_calls.h: the functions of lab 8 (gradients) the grader can call,
 * numbered for the wire (proto_call.fn). Shared by the child's dispatch
 * (lab08_dispatch.c) and the parent's module (grader/labs/lab08.c).
 *
 *   fn                               buffers (in order)                 ints                 reals
 *   LAB08_SOFTMAX_BACKWARD           dS out, W in, dW in                rows n               -
 *   LAB08_SOFTMAX_BACKWARD_INPLACE   W in, dW inout (dS = dW, aliased)  rows n               -
 *   LAB08_GRADIENT_EXPERIMENT        g_raw out, g_scaled out, dks i32   n_dk T trials seed   -
 */
#ifndef LAB08_CALLS_H
#define LAB08_CALLS_H

enum lab08_call {
    LAB08_SOFTMAX_BACKWARD = 0,
    LAB08_SOFTMAX_BACKWARD_INPLACE = 1,
    LAB08_GRADIENT_EXPERIMENT = 2,
    LAB08_N_CALLS
};

#endif
