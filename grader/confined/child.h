/* child.h: the test child's set-up between fork and exec (child.c); sandbox.c
 * forks it and reads what it reports.
 */
#ifndef GR_CHILD_H
#define GR_CHILD_H

#include <sys/resource.h>

/* The child's fixed descriptors. */
enum { FD_ERR = 5, FD_EXE = 6, FD_FILTER = 7, FD_LANDLOCK = 8, FD_FIRST_FREE = 9 };

#define CHILD_STACK_BYTES ((rlim_t)8 << 20)   /* its stack limit */

/* Steps of the child's set-up, reported on FD_ERR as {step, errno} when one fails. */
enum step {
    STEP_SIGNALS = 1, STEP_SETPGID, STEP_FDS, STEP_CHDIR, STEP_RLIMIT, STEP_SETGROUPS,
    STEP_SETGID, STEP_SETUID, STEP_STILL_ROOT, STEP_NPROC, STEP_NO_NEW_PRIVS,
    STEP_READ_FILTER, STEP_NO_FILTER, STEP_SECCOMP, STEP_LANDLOCK, STEP_EXEC
};

/* What a failed step was doing, for "the test child could not ...". */
const char *gr_child_step_text(int step);

/* The path execveat is given: the seccomp filter compares this very pointer. */
extern const char gr_child_exec_path[1];

/* Everything the child needs, prepared by the parent before fork. */
typedef struct child_plan {
    int req_r, resp_w, out_w, err_w, exe_fd, null_fd, filter_r, landlock;
    const char *dir;
    struct rlimit as, data, cpu;
    int drop_root;
    int want_filter;
    char *const *argv;
    char *const *envp;
} child_plan;

/* In the forked child: set up as child.c says and exec the test program;
   never returns (exit 127 after reporting a failed step). */
void gr_child_run(const child_plan *p) __attribute__((noreturn));

#endif
