/* tool.c: see tool.h. */
#include "confined/tool.h"
#include "base/stop.h"
#include "base/util.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* What the child writes when it cannot start the tool, "attnlab: cannot run
   (errno N) WHAT", for the parent to recognise and take errno from; WHAT is the
   program, or "confine: STEP" when a wall could not be put up. */
static const char cannot_run[] = "attnlab: cannot run (errno ";

/* Report a failed start as above and exit 127 (async-signal-safe). */
static void start_failed(const char *what, const char *detail)
{
    char num[16];
    int at = (int)sizeof num;
    num[--at] = ' ';
    num[--at] = ')';
    unsigned e = (unsigned)errno;
    do
        num[--at] = (char)('0' + e % 10);
    while ((e /= 10) != 0 && at > 0);
    ssize_t w = write(2, cannot_run, sizeof cannot_run - 1);
    w = write(2, num + at, sizeof num - (size_t)at);
    w = write(2, what, strlen(what));
    if (detail)
        w = write(2, detail, strlen(detail));
    (void)w;
    _exit(127);
}

/* The child's side, after fork: never returns. */
static void exec_child(char *const argv[], const gr_tool_opts *o, int null_fd, int out_fd)
{
    setpgid(0, 0);
    if (dup2(null_fd, 0) < 0 || dup2(out_fd, 1) < 0 || dup2(out_fd, 2) < 0 ||
        (o->cwd && chdir(o->cwd) != 0))
        _exit(126);
#ifdef SYS_close_range
    /* CLOEXEC keeps the confinement's Landlock ruleset until exec */
    syscall(SYS_close_range, 3u, ~0u, CLOSE_RANGE_CLOEXEC);
#endif
    /* a compiler fed a macro bomb must not take the machine with it */
    rlim_t as_bytes = o->memory_bytes ? (rlim_t)o->memory_bytes : (rlim_t)4 << 30;
    rlim_t cpu_s = o->cpu_seconds > 0 ? (rlim_t)o->cpu_seconds : (rlim_t)o->seconds + 5;
    struct rlimit as = {as_bytes, as_bytes};
    struct rlimit cpu = {cpu_s, cpu_s};
    rlim_t file_bytes = o->file_bytes ? (rlim_t)o->file_bytes : (rlim_t)512 << 20;
    struct rlimit fsize = {file_bytes, file_bytes};
    struct rlimit core = {0, 0};
    setrlimit(RLIMIT_AS, &as);
    setrlimit(RLIMIT_CPU, &cpu);
    setrlimit(RLIMIT_FSIZE, &fsize);
    setrlimit(RLIMIT_CORE, &core);
    if (o->confine) {
        const char *step = gr_confine_enter(o->confine);
        if (step)
            start_failed("confine: ", step);
    }
    char *const *env = o->env ? o->env : environ;
    if (o->path_search)
        execvpe(argv[0], argv, env);
    else
        execve(argv[0], argv, env);
    start_failed(argv[0], NULL);
}

/* Read the tool's output from fd into log (its first o->log_bytes) until EOF,
   killing its process group at the deadline: 1 when it was killed, else 0. */
static int read_log(int fd, pid_t pid, const gr_tool_opts *o, gr_strbuf *log)
{
    double deadline = gr_now_seconds() + o->seconds;
    for (;;) {
        double left = deadline - gr_now_seconds();
        if (left <= 0) {
            kill(-pid, SIGKILL);
            return 1;
        }
        struct pollfd pfd = {fd, POLLIN, 0};
        int pr = poll(&pfd, 1, (int)(left * 1000.0) + 1);
        if (pr < 0 && errno == EINTR)
            continue;
        if (pr < 0)
            return 0;
        if (pr == 0)
            continue;
        char chunk[8192];
        ssize_t r = read(fd, chunk, sizeof chunk);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return 0;
        if (log->len < o->log_bytes)
            gr_sb_appendn(log, chunk, (size_t)r < o->log_bytes - log->len ? (size_t)r
                                                                           : o->log_bytes - log->len);
    }
}

/* Kill the tool's process group and reap every process of it; the driver's
   status in *st. The compiler driver forks cc1, as and collect2/ld into its
   group: killed at the time limit they would be handed to init and could
   still be exiting after we return, so this process is their subreaper (set
   before the fork) and waits for the whole group, not only for the driver.
   0, or -1 with errno when the driver could not be awaited. */
static int reap_group(pid_t pid, int *st)
{
    kill(-pid, SIGKILL);      /* whatever it left behind (the zombie keeps the id ours) */
    int driver = 0;
    for (;;) {
        int s = 0;
        pid_t waited = waitpid(-pid, &s, 0);
        if (waited < 0 && errno == EINTR)
            continue;
        if (waited < 0)
            break;            /* ECHILD: none of the group is left */
        if (waited == pid) {
            *st = s;
            driver = 1;
        }
    }
    if (!driver)
        errno = ECHILD;
    return driver ? 0 : -1;
}

/* Run writable argv; see gr_tool_exec. */
static int run_argv(char *const argv[], const gr_tool_opts *o, gr_tool_run *tr)
{
    int p[2];
    if (pipe2(p, O_CLOEXEC) != 0)
        return -1;
    int null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (null_fd < 0) {
        int e = errno;
        close(p[0]);
        close(p[1]);
        errno = e;
        return -1;
    }
    fflush(NULL);             /* what the caller printed comes before anything said about the tool */
    prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);   /* its orphans come back to us (reap_group) */
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        close(p[0]);
        close(p[1]);
        close(null_fd);
        errno = e;
        return -1;
    }
    if (pid == 0)
        exec_child(argv, o, null_fd, p[1]);
    setpgid(pid, pid);
    gr_stop_track(pid);
    close(p[1]);
    close(null_fd);

    gr_strbuf log = {0};
    tr->timed_out = read_log(p[0], pid, o, &log);
    close(p[0]);
    int st = 0, reaped = reap_group(pid, &st);
    gr_stop_track(0);
    if (reaped != 0) {
        free(log.s);
        return -1;            /* errno from waitpid: no status to judge the run by */
    }
    tr->status = st;
    tr->log = gr_sb_take(&log);
    if (WIFEXITED(st) && WEXITSTATUS(st) == 127 &&
        strncmp(tr->log, cannot_run, sizeof cannot_run - 1) == 0) {
        char *end;
        long e = strtol(tr->log + sizeof cannot_run - 1, &end, 10);
        snprintf(tr->why, sizeof tr->why, "%s%s", strncmp(end, ") confine: ", 11) == 0 ? "cannot confine it: " : "cannot run ",
                 strncmp(end, ") confine: ", 11) == 0 ? end + 11 : end + 2);
        free(tr->log);
        tr->log = NULL;
        errno = e > 0 && e < 4096 ? (int)e : ENOENT;
        return -1;
    }
    return 0;
}

int gr_tool_exec(const char *const argv[], const gr_tool_opts *o, gr_tool_run *tr)
{
    memset(tr, 0, sizeof *tr);
    /* execve wants char *const[]: writable copies, made before fork */
    int argc = 0;
    while (argv[argc])
        argc++;
    char **copy = gr_xcalloc((size_t)argc + 1, sizeof *copy);
    for (int i = 0; i < argc; i++)
        copy[i] = gr_xstrdup(argv[i]);
    int rc = run_argv(copy, o, tr);
    int e = errno;
    for (int i = 0; i < argc; i++)
        free(copy[i]);
    free(copy);
    errno = e;
    return rc;
}

int gr_tool_ok(const gr_tool_run *tr)
{
    return !tr->timed_out && WIFEXITED(tr->status) && WEXITSTATUS(tr->status) == 0;
}
