/* child.c: the test child's set-up between fork and exec (see child.h).
 *
 * The child, between fork and exec, only makes async-signal-safe system calls
 * (no malloc, no stdio), in this order:
 *
 *   signals     every disposition back to default, nothing blocked
 *   setpgid     its own process group, so one kill(-pgid) reaches everything
 *   fds         0 /dev/null, 1 and 2 the output pipe, 3 the request, 4 the
 *               response; 5 the error report and 6 the executable (both close
 *               at exec), 7 the seccomp program (closed before exec); all
 *               others closed
 *   chdir       a fresh empty directory made for this run
 *   rlimits     address space, data (heap, private mappings, writable image),
 *               file size 0, no core, 8 open files, CPU backstop, 8 MiB stack
 *               (soft = hard, so the student cannot raise them)
 *   identity    as root: no groups, gid and uid 65534 (nobody), checked
 *   NPROC 0     after the uid change, so execve is not refused for it
 *   landlock    no_new_privs, then (where the kernel has it) a ruleset that
 *               allows no file but reading and executing its own program
 *               (fd 8, closed once enforced)
 *   seccomp     the allow-list the parent compiled for
 *               this child (it needs the child's pid), default kill-process
 *   exec        execveat(6, "", AT_EMPTY_PATH): the only exec the filter allows,
 *               by fd, so no directory on the path needs to be open to nobody
 *
 * A failing step writes {step, errno} on the error pipe and exits 127; the
 * parent reports it as a sandbox error, never as the student's result. A
 * successful exec closes the error pipe silently.
 */
#include "confined/child.h"
#include "confined/confine.h"
#include "base/protocol.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stddef.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#define NOBODY       65534
#define NOFILE_LIMIT 8          /* the child may hold descriptors 0-7 */
#define MAX_FILTER   4096       /* BPF instructions we accept from libseccomp */

const char gr_child_exec_path[1] = "";

const char *gr_child_step_text(int step)
{
    switch (step) {
    case STEP_SIGNALS:       return "reset signal handling";
    case STEP_SETPGID:       return "start a process group";
    case STEP_FDS:           return "set up its file descriptors";
    case STEP_CHDIR:         return "enter its empty working directory";
    case STEP_RLIMIT:        return "set its resource limits";
    case STEP_SETGROUPS:     return "drop supplementary groups";
    case STEP_SETGID:        return "switch to group nobody (65534)";
    case STEP_SETUID:        return "switch to user nobody (65534)";
    case STEP_STILL_ROOT:    return "stop being root (uid still 0 after setuid)";
    case STEP_NPROC:         return "forbid new processes (RLIMIT_NPROC)";
    case STEP_NO_NEW_PRIVS:  return "set no_new_privs";
    case STEP_READ_FILTER:   return "read its seccomp filter";
    case STEP_NO_FILTER:     return "get a seccomp filter (the grader could not compile one)";
    case STEP_SECCOMP:       return "install its seccomp filter";
    case STEP_LANDLOCK:      return "enforce its Landlock ruleset";
    case STEP_EXEC:          return "execute the test program";
    default:                 return "set itself up";
    }
}

static struct sock_filter child_filter[MAX_FILTER];

static int child_err_fd = -1;            /* where child_fail reports (the child's copy) */

static void child_fail(int step)
{
    int msg[2] = {step, errno};
    ssize_t w = write(child_err_fd, msg, sizeof msg);
    (void)w;
    _exit(127);
}

/* Move fd to number target; cloexec keeps it only until exec. */
static int place_fd(int fd, int target, int cloexec)
{
    if (fd == target)
        return cloexec ? fcntl(fd, F_SETFD, FD_CLOEXEC) : fcntl(fd, F_SETFD, 0);
    return dup3(fd, target, cloexec ? O_CLOEXEC : 0) < 0 ? -1 : 0;
}

static void close_from(int first)
{
#ifdef SYS_close_range
    if (syscall(SYS_close_range, (unsigned)first, ~0u, 0u) == 0)
        return;
#endif
    struct rlimit rl;
    long max = getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
               rl.rlim_cur < 1048576 ? (long)rl.rlim_cur : 65536;
    for (long fd = first; fd < max; fd++)
        close((int)fd);
}

static int limit(int resource, rlim_t v)
{
    struct rlimit rl = {v, v};
    return setrlimit(resource, &rl);
}

/* Put every descriptor the child keeps on its number (see the top of this
   file) and close the rest. Every one is first lifted above 64, so placing one
   cannot overwrite another that happens to sit there; the error pipe goes
   first, so every later failure can be reported. */
static void child_fds(const child_plan *p)
{
    child_err_fd = p->err_w;
    int src[8] = {p->err_w, p->null_fd, p->out_w, p->req_r, p->resp_w, p->exe_fd, p->filter_r,
                  p->landlock};
    for (int i = 0; i < 8; i++) {
        if (src[i] < 0)
            continue;                     /* no Landlock here */
        src[i] = fcntl(src[i], F_DUPFD_CLOEXEC, 64);
        if (src[i] < 0)
            child_fail(STEP_FDS);
    }
    if (dup3(src[0], FD_ERR, O_CLOEXEC) < 0)
        child_fail(STEP_FDS);
    child_err_fd = FD_ERR;
    if (place_fd(src[1], 0, 0) || place_fd(src[2], 1, 0) || place_fd(src[2], 2, 0) ||
        place_fd(src[3], PROTO_FD_REQUEST, 0) || place_fd(src[4], PROTO_FD_RESPONSE, 0) ||
        place_fd(src[5], FD_EXE, 1) || place_fd(src[6], FD_FILTER, 1) ||
        (src[7] >= 0 && place_fd(src[7], FD_LANDLOCK, 1)))
        child_fail(STEP_FDS);
    close_from(FD_FIRST_FREE);
}

/* Signals back to their defaults, nothing blocked (the parent blocks SIGPIPE),
   and a process group of its own. */
static void child_signals(void)
{
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    for (int s = 1; s < NSIG; s++)
        if (s != SIGKILL && s != SIGSTOP)
            sigaction(s, &dfl, NULL);     /* fails harmlessly for glibc's reserved ones */
    sigset_t none;
    sigemptyset(&none);
    if (sigprocmask(SIG_SETMASK, &none, NULL) != 0)
        child_fail(STEP_SIGNALS);
    if (setpgid(0, 0) != 0)
        child_fail(STEP_SETPGID);
}

/* As root: no groups, group and user nobody, checked. Then no new processes:
   set before the uid change, the kernel would flag the new user as over its
   process limit and refuse the execve. */
static void child_identity(const child_plan *p)
{
    if (p->drop_root) {
        if (setgroups(0, NULL) != 0)
            child_fail(STEP_SETGROUPS);
        if (setgid(NOBODY) != 0)
            child_fail(STEP_SETGID);
        if (setuid(NOBODY) != 0)
            child_fail(STEP_SETUID);
        if (getuid() == 0 || geteuid() == 0 || getgid() == 0 || getegid() == 0 || setuid(0) == 0) {
            errno = EPERM;
            child_fail(STEP_STILL_ROOT);
        }
    }
    if (limit(RLIMIT_NPROC, 0) != 0)
        child_fail(STEP_NPROC);
}

/* Read the compiled filter, as raw BPF, until the parent closes the pipe, and
   install it when the plan wants one. */
static void child_seccomp(const child_plan *p)
{
    size_t got = 0, cap = sizeof child_filter;
    for (;;) {
        ssize_t r = read(FD_FILTER, (char *)child_filter + got, cap - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            child_fail(STEP_READ_FILTER);
        if (r == 0)
            break;
        got += (size_t)r;
        if (got == cap) {
            errno = E2BIG;
            child_fail(STEP_READ_FILTER);
        }
    }
    close(FD_FILTER);
    if (!p->want_filter)
        return;
    if (got == 0 || got % sizeof(struct sock_filter) != 0) {
        errno = ENOSYS;
        child_fail(STEP_NO_FILTER);
    }
    struct sock_fprog prog = {(unsigned short)(got / sizeof(struct sock_filter)), child_filter};
    if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) != 0)
        child_fail(STEP_SECCOMP);
}

/* The child's set-up, in the order the top of this file gives, then exec. */
void gr_child_run(const child_plan *p)
{
    child_fds(p);
    child_signals();
    if (chdir(p->dir) != 0)
        child_fail(STEP_CHDIR);
    if (setrlimit(RLIMIT_AS, &p->as) != 0 || setrlimit(RLIMIT_DATA, &p->data) != 0 ||
        limit(RLIMIT_FSIZE, 0) != 0 ||
        limit(RLIMIT_CORE, 0) != 0 || limit(RLIMIT_NOFILE, NOFILE_LIMIT) != 0 ||
        setrlimit(RLIMIT_CPU, &p->cpu) != 0 || limit(RLIMIT_STACK, CHILD_STACK_BYTES) != 0)
        child_fail(STEP_RLIMIT);
    child_identity(p);
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
        child_fail(STEP_NO_NEW_PRIVS);
    /* no file but its own program, from here on, even where seccomp is missing */
    if (p->landlock >= 0) {
        if (gr_confine_landlock_enforce(FD_LANDLOCK) != 0)
            child_fail(STEP_LANDLOCK);
        close(FD_LANDLOCK);
    }
    child_seccomp(p);
    syscall(SYS_execveat, FD_EXE, gr_child_exec_path, p->argv, p->envp, AT_EMPTY_PATH);
    child_fail(STEP_EXEC);
    _exit(127);
}
