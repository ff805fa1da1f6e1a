/* lab02_calls.h: the calls the grader can make into lab 2 (masks and softmax).
 *
 * Shared by the grader's lab module (grader/labs/lab02.c), which builds each
 * call, and the child's dispatch (grader/stub/lab02_dispatch.c), which unpacks
 * it. Buffers are listed in the order of the function's array arguments. */
#ifndef LAB02_CALLS_H
#define LAB02_CALLS_H

enum lab02_call {
    /* lab_softmax(W, S, rows, n, &count): bufs W (OUT f32, rows*n), S (IN f32, rows*n),
       count (OUT i32, 1); ints rows, n */
    LAB02_SOFTMAX = 0,
    /* lab_softmax(S, S, rows, n, &count), in place: bufs S (INOUT f32, rows*n),
       count (OUT i32, 1); ints rows, n */
    LAB02_SOFTMAX_INPLACE = 1,
    /* lab_softmax(W, S, rows, n, NULL): bufs W (OUT f32), S (IN f32); ints rows, n */
    LAB02_SOFTMAX_NOCOUNT = 2,
    /* lab_causal_mask: bufs S (INOUT f32, B*Tq*Tk); ints B, Tq, Tk */
    LAB02_CAUSAL_MASK = 3,
    /* lab_padding_mask: bufs S (INOUT f32, B*Tq*Tk), lengths (IN i32, B); ints B, Tq, Tk */
    LAB02_PADDING_MASK = 4,
    /* lab_bool_mask: bufs S (INOUT f32, B*Tq*Tk), M (IN u8, B*Tq*Tk); ints B, Tq, Tk */
    LAB02_BOOL_MASK = 5,
    /* lab_temperature: bufs S (INOUT f32, n); ints n; reals tau (narrowed to float) */
    LAB02_TEMPERATURE = 6,
    LAB02_N_CALLS
};

#endif
