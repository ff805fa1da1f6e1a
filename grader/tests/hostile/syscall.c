/*
 * syscall.c (lab 1): makes raw system calls without naming a forbidden symbol
 * and without the word asm: the machine code of a syscall trampoline is an
 * array placed in a .text.* section, which the linker makes executable. The
 * suite puts the calls in place of the ARG placeholder (open a file and print
 * it, create a file, a socket, a fork loop, exec a shell, a thread, exit,
 * close or write the protocol pipes, ignore SIGTERM and spin), run in a
 * constructor before main when the WHEN placeholder is 1, else at the start of
 * every lab function. The grader refuses the section attribute before anything
 * runs (forbidden call); were it to get through, the sandbox's seccomp filter
 * would stop each call (test_sandbox.c tries the same calls on fixtures built
 * without the rule checks).
 */
#include <stdio.h>

#include "lab01.h"

/* mov rax,rdi; mov rdi,rsi; mov rsi,rdx; mov rdx,rcx; mov r10,r8; mov r8,r9;
   syscall; ret: sys(nr, a, b, c, d, e) is system call nr with five arguments. */
__attribute__((section(".text.hostile"), used))
static const unsigned char trampoline[] = {
    0x48, 0x89, 0xf8, 0x48, 0x89, 0xf7, 0x48, 0x89, 0xd6, 0x48, 0x89, 0xca,
    0x4d, 0x89, 0xc2, 0x4d, 0x89, 0xc8, 0x0f, 0x05, 0xc3
};
typedef long (*sys_fn)(long nr, long a, long b, long c, long d, long e);

static char buf[4096];
static long stack[4096];

static void attack(void)
{
    sys_fn sys = (sys_fn)(const void *)trampoline;
    (void)buf;
    (void)stack;
    @ARG@
}

__attribute__((constructor)) static void before_main(void)
{
    if (@WHEN@)
        attack();
}

int lab_dot_scores(float *S, const float *Q, const float *K, int B, int Tq, int Tk, int d)
{
    (void)S; (void)Q; (void)K; (void)B; (void)Tq; (void)Tk; (void)d;
    attack();
    return 7;
}

int lab_scaled_dot_scores(float *S, const float *Q, const float *K, int B, int Tq, int Tk, int d)
{
    (void)S; (void)Q; (void)K; (void)B; (void)Tq; (void)Tk; (void)d;
    attack();
    return 7;
}
