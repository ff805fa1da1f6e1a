/* lab05_calls.h: the functions of lab 5 (pre- versus post-softmax masking) the
 * grader can call, numbered for the wire (proto_call.fn). Shared by the child's
 * dispatch (lab05_dispatch.c) and the parent's module (grader/labs/lab05.c), so
 * both sides agree on what each number means and how its arguments are packed.
 *
 *   fn                         buffers (in order)                ints            reals
 *   LAB05_ATTEND_PREMASK       O out, S in, lengths i32, V in    B Tq Tk dv      -
 *   LAB05_ATTEND_POSTMASK      O out, rowsum out, S, lengths, V  B Tq Tk dv      -
 *   LAB05_MASKING_EXPERIMENT   rowsum out, drift out, pads i32   n_pads T d seed -
 */
#ifndef LAB05_CALLS_H
#define LAB05_CALLS_H

enum lab05_call {
    LAB05_ATTEND_PREMASK = 0,
    LAB05_ATTEND_POSTMASK = 1,
    LAB05_MASKING_EXPERIMENT = 2,
    LAB05_N_CALLS
};

#endif
