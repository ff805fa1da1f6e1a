/* lab01_calls.h: the calls the grader can make into lab 1 (scores).
 *
 * Shared by the grader's lab module (grader/labs/lab01.c), which builds each
 * call, and the child's dispatch (grader/stub/lab01_dispatch.c), which unpacks
 * it. Buffers are listed in the order of the function's array arguments. */
#ifndef LAB01_CALLS_H
#define LAB01_CALLS_H

enum lab01_call {
    /* lab_dot_scores: bufs S (OUT f32, B*Tq*Tk), Q (IN f32, B*Tq*d), K (IN f32, B*Tk*d);
       ints B, Tq, Tk, d */
    LAB01_DOT_SCORES = 0,
    /* lab_scaled_dot_scores: same buffers and ints */
    LAB01_SCALED_DOT_SCORES = 1,
    LAB01_N_CALLS
};

#endif
