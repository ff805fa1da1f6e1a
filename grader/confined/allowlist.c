/* allowlist.c: the test child's seccomp allow-list (see allowlist.h). */
#include "confined/allowlist.h"
#include "base/protocol.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <linux/seccomp.h>

/* One argument condition, every field set (libseccomp's SCMP_A* macros leave
   the second datum to a partial initialiser). */
static struct scmp_arg_cmp arg_is(unsigned arg, scmp_datum_t v)
{
    struct scmp_arg_cmp c = {arg, SCMP_CMP_EQ, v, 0};
    return c;
}

static struct scmp_arg_cmp arg_lacks(unsigned arg, scmp_datum_t bits)
{
    struct scmp_arg_cmp c = {arg, SCMP_CMP_MASKED_EQ, bits, 0};
    return c;
}

/* Allow syscall name (with up to two argument conditions). Names this
   architecture does not have are skipped. -1 on a libseccomp error. */
static int allow(scmp_filter_ctx ctx, uint32_t action, const char *name, unsigned n,
                 struct scmp_arg_cmp a, struct scmp_arg_cmp b)
{
    int nr = seccomp_syscall_resolve_name(name);
    if (nr == __NR_SCMP_ERROR || nr < 0)
        return 0;
    int rc = n == 0 ? seccomp_rule_add(ctx, action, nr, 0)
           : n == 1 ? seccomp_rule_add(ctx, action, nr, 1, a)
                    : seccomp_rule_add(ctx, action, nr, 2, a, b);
    return rc == 0 ? 0 : -1;
}

/* I/O on the descriptors the child was given: requests in, answers and output
   out; and the memory calls of the heap and the guarded buffers, never
   executable. Nonzero on a libseccomp error, as for the groups below. */
static int allow_io_and_memory(scmp_filter_ctx ctx, struct scmp_arg_cmp none, int err_fd)
{
    const uint32_t A = SCMP_ACT_ALLOW;
    int bad = 0;
    bad |= allow(ctx, A, "read", 1, arg_is(0, PROTO_FD_REQUEST), none);
    bad |= allow(ctx, A, "read", 1, arg_is(0, 0), none);   /* stdin: /dev/null */
    const int out_fds[] = {1, 2, PROTO_FD_RESPONSE, err_fd};
    for (size_t i = 0; i < sizeof out_fds / sizeof out_fds[0]; i++) {
        bad |= allow(ctx, A, "write", 1, arg_is(0, (scmp_datum_t)out_fds[i]), none);
        bad |= allow(ctx, A, "writev", 1, arg_is(0, (scmp_datum_t)out_fds[i]), none);
    }
    bad |= allow(ctx, A, "lseek", 0, none, none);          /* stdio may ask; pipes say ESPIPE */
    bad |= allow(ctx, A, "brk", 0, none, none);
    /* private only: a shared mapping would escape RLIMIT_DATA, the heap's limit */
    bad |= allow(ctx, A, "mmap", 2, arg_lacks(2, PROT_EXEC), arg_lacks(3, MAP_SHARED));
    bad |= allow(ctx, A, "mprotect", 1, arg_lacks(2, PROT_EXEC), none);
    bad |= allow(ctx, A, "munmap", 0, none, none);
    /* refused (glibc's realloc then copies): moving a heap block out of the
       heap region would hide it from the parent's count of live blocks */
    bad |= allow(ctx, SCMP_ACT_ERRNO(ENOSYS), "mremap", 0, none, none);
    bad |= allow(ctx, A, "madvise", 0, none, none);        /* free trimming */
    return bad;
}

/* Signals a process ending in a crash or abort() sends itself (the test child's
   fault handler re-raises what it caught), and SIGSTOP, with which the test
   child waits for the parent's inspection after its answer (a stop before an
   answer is ended at once and timed out: sandbox.c). No other stop, nor any
   other signal. */
static const int own_signals[] = {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS, SIGKILL,
                                  SIGSTOP};

/* Signal handling and its own signals on itself only (above), the
   start-up of static glibc (TLS, robust futex list, restartable sequences,
   stack limit query, malloc's random tcache key), harmless facts (clocks when
   the vDSO is not used, ids: a test checks the uid, memory size: qsort asks)
   and leaving. */
static int allow_process(scmp_filter_ctx ctx, struct scmp_arg_cmp none, pid_t child)
{
    const uint32_t A = SCMP_ACT_ALLOW;
    static const char *const plain[] = {
        "rt_sigreturn", "rt_sigaction", "rt_sigprocmask", "sigaltstack", "getpid", "gettid",
        "arch_prctl", "set_tid_address", "set_robust_list", "rseq", "getrlimit", "getrandom",
        "clock_gettime", "clock_getres", "gettimeofday", "time", "getuid", "geteuid", "getgid",
        "getegid", "sysinfo", "exit", "exit_group", NULL
    };
    int bad = 0;
    for (int i = 0; plain[i]; i++)
        bad |= allow(ctx, A, plain[i], 0, none, none);
    for (size_t i = 0; i < sizeof own_signals / sizeof own_signals[0]; i++)
        bad |= allow(ctx, A, "tgkill", 2, arg_is(0, (scmp_datum_t)child),
                     arg_is(2, (scmp_datum_t)own_signals[i]));
    bad |= allow(ctx, A, "prlimit64", 2, arg_is(0, 0), arg_is(2, 0));
    return bad;
}

/* The test child stacks a stricter filter (no exec) before any student code runs
   (adding filters can only take permissions away); the one exec: of fd 6, with
   this exact path pointer, AT_EMPTY_PATH; and questions glibc asks in passing
   and copes with a "no" to (file status of stdout for its buffer size, the
   path of the executable, "is this a terminal"), answered with an error rather
   than allowed: stat and readlink take paths. */
static int allow_exec_and_questions(scmp_filter_ctx ctx, struct scmp_arg_cmp none,
                                    const gr_allowlist_fds *fds)
{
    int bad = allow(ctx, SCMP_ACT_ALLOW, "prctl", 2, arg_is(0, PR_SET_SECCOMP),
                    arg_is(1, SECCOMP_MODE_FILTER));
    int nr = seccomp_syscall_resolve_name("execveat");
    if (nr < 0 || seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr, 3, arg_is(0, (scmp_datum_t)fds->exe_fd),
                                   arg_is(1, (scmp_datum_t)(uintptr_t)fds->exec_path),
                                   arg_is(4, AT_EMPTY_PATH)) != 0)
        bad = 1;
    static const char *const refused[] = {"newfstatat", "fstat", "statx", "readlink", NULL};
    for (int i = 0; refused[i]; i++)
        bad |= allow(ctx, SCMP_ACT_ERRNO(EACCES), refused[i], 0, none, none);
    bad |= allow(ctx, SCMP_ACT_ERRNO(ENOTTY), "ioctl", 0, none, none);
    return bad;
}

/* The allow-list. Everything not named here kills the whole process with
   SIGSYS. Found by strace of a static glibc 2.36 program (start-up, stdio,
   malloc of small and large blocks, realloc, printf of floats, abort), plus
   what the test child itself does. */
scmp_filter_ctx gr_allowlist_build(pid_t child, const gr_allowlist_fds *fds)
{
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_KILL_PROCESS);
    if (!ctx)
        return NULL;
    const struct scmp_arg_cmp none = arg_is(0, 0);
    /* a 32-bit or x32 system call from this 64-bit process: kill, do not decode */
    int bad = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS) != 0;
    bad |= allow_io_and_memory(ctx, none, fds->err_fd);
    bad |= allow_process(ctx, none, child);
    bad |= allow_exec_and_questions(ctx, none, fds);
    if (bad) {
        seccomp_release(ctx);
        return NULL;
    }
    return ctx;
}
