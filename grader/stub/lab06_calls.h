/* lab06_calls.h: the functions of lab 6 (biases and dropout) the grader can
 * call, numbered for the wire (proto_call.fn). Shared by the child's dispatch
 * (lab06_dispatch.c) and the parent's module (grader/labs/lab06.c).
 *
 *   fn                       buffers (in order)           ints                                   reals
 *   LAB06_ALIBI_SLOPES       slopes out                   H                                      -
 *   LAB06_ALIBI_BIAS         S inout                      B H Tq Tk                              -
 *   LAB06_T5_BUCKET          bucket out i32, rel in i32   n bidirectional num_buckets max_dist   -
 *   LAB06_RELPOS_BIAS        S inout, table in            B H Tq Tk bidirectional num_buckets max_dist  -
 *   LAB06_DROPOUT            W inout                      seed n                                 p
 *   LAB06_ATTENTION_OUTPUT   O out, W in, V in            B Tq Tk dv                             -
 */
#ifndef LAB06_CALLS_H
#define LAB06_CALLS_H

enum lab06_call {
    LAB06_ALIBI_SLOPES = 0,
    LAB06_ALIBI_BIAS = 1,
    LAB06_T5_BUCKET = 2,
    LAB06_RELPOS_BIAS = 3,
    LAB06_DROPOUT = 4,
    LAB06_ATTENTION_OUTPUT = 5,
    LAB06_N_CALLS
};

#endif
