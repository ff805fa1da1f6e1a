/* lab03_calls.h: the calls the grader can make into lab 3 (learned scores).
 *
 * Shared by the grader's lab module (grader/labs/lab03.c), which builds each
 * call, and the child's dispatch (grader/stub/lab03_dispatch.c), which unpacks
 * it. Buffers are listed in the order of the function's array arguments. */
#ifndef LAB03_CALLS_H
#define LAB03_CALLS_H

enum lab03_call {
    /* lab_general_scores: bufs S (OUT f32, B*Tq*Tk), Q (IN f32, B*Tq*dq),
       W (IN f32, dq*dk), K (IN f32, B*Tk*dk); ints B, Tq, Tk, dq, dk */
    LAB03_GENERAL_SCORES = 0,
    /* lab_additive_scores: bufs S (OUT f32, B*Tq*Tk), Q (IN f32, B*Tq*dq),
       K (IN f32, B*Tk*dk), Wq (IN f32, h*dq), Wk (IN f32, h*dk), v (IN f32, h);
       ints B, Tq, Tk, dq, dk, h */
    LAB03_ADDITIVE_SCORES = 1,
    LAB03_N_CALLS
};

#endif
