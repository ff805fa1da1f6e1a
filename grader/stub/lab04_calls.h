/* lab04_calls.h: the calls the grader can make into lab 4 (entropy experiment).
 *
 * Shared by the grader's lab module (grader/labs/lab04.c), which builds each
 * call, and the child's dispatch (grader/stub/lab04_dispatch.c), which unpacks
 * it. Buffers are listed in the order of the function's array arguments. */
#ifndef LAB04_CALLS_H
#define LAB04_CALLS_H

enum lab04_call {
    /* lab_row_entropy: bufs H (OUT f32, rows), W (IN f32, rows*n); ints rows, n */
    LAB04_ROW_ENTROPY = 0,
    /* lab_entropy_experiment: bufs H_raw (OUT f32, n_dk), H_scaled (OUT f32, n_dk),
       dks (IN i32, n_dk); ints n_dk, T, trials, seed (the uint64 seed's bits) */
    LAB04_ENTROPY_EXPERIMENT = 1,
    LAB04_N_CALLS
};

#endif
