/* sandbox.h: run one test child under the grader's rules.
 *
 * gr_sandbox_run forks; the child makes itself a process-group leader, applies
 * rlimits (address space, file size 0, no core, no new processes), drops to an
 * unprivileged uid/gid when the grader runs as root, changes into a fresh empty
 * directory, closes every other descriptor, sets no_new_privs, enforces a
 * Landlock ruleset that allows no file but its own program (where the kernel
 * has Landlock) and installs a libseccomp allow-list, then execs the test
 * executable (statically linked, so both also cover code that runs before
 * main). A program the kernel will not start is the student's verdict
 * (exec_errno), never the grader's failure. The parent feeds the
 * request, reads the response and a bounded excerpt of stdout/stderr, and kills
 * the whole process group with SIGKILL at the output limit. The time limit is
 * CPU time (RLIMIT_CPU, then the exact figure from the child's rusage), so a
 * busy machine does not fail correct code; the wall clock allows twice the
 * limit plus 1 s, and a child that stops before answering (the stop after
 * its answer is the test child's, for the inspection below) is killed and
 * timed out at once.
 *
 * Memory is limited by the kernel, never by counts kept in the child: the
 * address space, and RLIMIT_DATA (heap, private mappings and writable image)
 * at the heap limit plus the request's buffers, the program's own writable
 * data (thread-local data included), a page and 16 bytes for each of
 * PROTO_MAX_BLOCKS heap blocks (each is a mapping of whole pages) and 2 MiB
 * for the C library. The test child's count of the heap, in the child's
 * memory, only names a verdict precisely for code that plays fair. The
 * parent reads the child's peak resident memory from wait4.
 *
 * What the call left in memory is judged from outside the child: it says it
 * is ready before the request (the parent notes the heap blocks that exist
 * then), and stops itself after its answer; the parent then reads its
 * mappings and memory (inspect.h) and kills it. A child that ends on its own
 * with status 0, without that stop, is not inspected (inspected 0), and its
 * answer must not be trusted.
 */
#ifndef GR_SANDBOX_H
#define GR_SANDBOX_H

#include <stddef.h>
#include "confined/inspect.h"
#include "base/rubric.h"

typedef struct gr_sandbox_result {
    int exited;                  /* 1: exited with exit_code; 0: killed by term_signal */
    int exit_code;
    int term_signal;
    int timed_out;               /* killed at the time limit */
    int output_limit;            /* killed for printing too much */
    unsigned char *response;     /* bytes the child wrote on fd 4 (bounded) */
    size_t response_len;
    char *output;                /* bounded excerpt of stdout+stderr, NUL-terminated */
    size_t output_len;           /* total bytes the child printed (may exceed the excerpt) */
    double seconds;              /* wall time */
    double cpu_seconds;          /* CPU time (user + system), the budget the time limit sets */
    int exec_errno;              /* not 0: the kernel would not start the program (errno) */
    int stopped;                 /* it stopped itself (with timed_out): killed at once */
    int out_of_memory;           /* over the memory limit by the parent's measure: its static
                                    data (not run at all) or its peak resident memory */
    size_t peak_bytes;           /* its peak resident memory (wait4's ru_maxrss); 0: unknown */
    int inspected;               /* it answered and stopped, and its memory was judged: */
    gr_inspection memory;        /*   what the call left (then exited 1, exit_code 0) */
} gr_sandbox_result;

/* Run exe with request on its fd 3 under lim. 0 when the child ran (whatever its
   fate, see out), -1 when the sandbox itself could not be set up (err says why). */
int gr_sandbox_run(const char *exe, const unsigned char *request, size_t request_len,
                   const gr_limits *lim, gr_sandbox_result *out, char *err, size_t errlen);

/* Free what gr_sandbox_run allocated. */
void gr_sandbox_result_free(gr_sandbox_result *r);

/* The layers a test child runs under on this machine, as one line for reports. */
const char *gr_sandbox_layers(void);

/* True when this kernel and build can install the seccomp filter. */
int gr_sandbox_has_seccomp(void);

/* Whether a run must have the seccomp filter (1, the default). With 0, a kernel
   without seccomp still runs children under every other rule, unconfined in
   system calls; for a student grading their own code, never for a class. */
void gr_sandbox_require_seccomp(int required);

#endif
