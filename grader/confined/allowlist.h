/* allowlist.h: the system calls a test child may make (the seccomp filter
 * sandbox.c installs before exec).
 *
 * Everything not named kills the whole process with SIGSYS, wherever in the
 * program the system call instruction sits: this filter, not the link's
 * refusal of syscall() and the like (objcheck.h), is what holds a raw system
 * call. The list holds what static glibc and the test child need: I/O on the
 * child's own descriptors, private non-executable memory (mremap answered
 * with an error: it could move a heap block out of the region the parent
 * inspects), the signals a crash or abort() sends the process itself and the
 * stop after its answer (a stop before one is timed out at once), clocks and
 * ids, leaving, and the one exec of its program.
 */
#ifndef GR_ALLOWLIST_H
#define GR_ALLOWLIST_H

#include <seccomp.h>
#include <sys/types.h>

/* The descriptors and the exec the filter names. */
typedef struct gr_allowlist_fds {
    int err_fd;                 /* the set-up error pipe (written by the child before exec) */
    int exe_fd;                 /* the program, executed with execveat(exe_fd, path, AT_EMPTY_PATH) */
    const char *exec_path;      /* that very path pointer (the filter compares the pointer) */
} gr_allowlist_fds;

/* The allow-list for the child whose pid is child (signals to itself only),
   ready for seccomp_export_bpf; NULL on a libseccomp error. */
scmp_filter_ctx gr_allowlist_build(pid_t child, const gr_allowlist_fds *fds);

#endif
