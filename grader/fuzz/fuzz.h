/* fuzz.h: what every fuzz target in grader/fuzz/ defines.
 *
 * Each fuzz_NAME.c feeds one parser the grader runs on input it does not
 * control (rubrics, tensor files, a child's response, a command line) and
 * checks what the parser promises: no crash, no leak, a clear error on bad
 * input, and output that agrees with the input on good input.
 *
 * The same file builds two ways:
 *   make fuzz         with clang -fsanitize=fuzzer,address,undefined; libFuzzer
 *                     supplies main() and mutates inputs for FUZZ_SECONDS each
 *   make test         with the normal compiler and driver.c, which runs every
 *                     file of grader/fuzz/corpus/NAME and grader/fuzz/regress/NAME
 * A broken promise aborts (fuzz_check), so both builds see it as a crash.
 */
#ifndef GR_FUZZ_H
#define GR_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* Run one input through the target; always 0 (libFuzzer's convention). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Abort with "file:line: what" on stderr when ok is false: a broken promise
   of the parser under test, reported as a crash with the input that caused it. */
#define fuzz_check(ok, what) \
    ((ok) ? (void)0 : fuzz_fail(__FILE__, __LINE__, (what)))

__attribute__((noreturn)) static inline void fuzz_fail(const char *file, int line,
                                                       const char *what)
{
    fprintf(stderr, "%s:%d: fuzz check failed: %s\n", file, line, what);
    abort();
}

#endif
