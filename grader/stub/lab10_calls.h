/* lab10_calls.h: the functions of lab 10 (heads and what is plotted) the grader
 * can call, numbered for the wire (proto_call.fn). Shared by the child's
 * dispatch (lab10_dispatch.c) and the parent's module (grader/labs/lab10.c).
 *
 *   fn                    buffers (in order)               ints                   reals
 *   LAB10_HEAD_WEIGHTS    W out, Q in, K in                B H Tq Tk d            -
 *   LAB10_GQA_WEIGHTS     W out, Q in, K in                B H Hkv Tq Tk d        -
 *   LAB10_HEAD_AVERAGE    A out, M out, gap out, S in      B H Tq Tk              -
 *   LAB10_EXTRACT_HEAD    Wh out, W in                     B H Tq Tk b h          -
 */
#ifndef LAB10_CALLS_H
#define LAB10_CALLS_H

enum lab10_call {
    LAB10_HEAD_WEIGHTS = 0,
    LAB10_GQA_WEIGHTS = 1,
    LAB10_HEAD_AVERAGE = 2,
    LAB10_EXTRACT_HEAD = 3,
    LAB10_N_CALLS
};

#endif
