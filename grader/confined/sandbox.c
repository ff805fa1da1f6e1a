/* sandbox.c: run one test child under the grader's rules (see sandbox.h).
 *
 * The child sets itself up between fork and exec as child.c says, and reports
 * a failing step as {step, errno} on the error pipe (exit 127); the parent
 * reports that as a sandbox error, never as the student's result. A
 * successful exec closes the error pipe silently.
 *
 * The parent writes the request without blocking, reads the response (bounded
 * by the size the request implies) and a 4 KiB excerpt of the output, and kills
 * the process group at the time limit or the output limit, and always once more
 * before reaping so nothing lingers.
 */
#include "confined/sandbox.h"
#include "confined/allowlist.h"
#include "confined/child.h"
#include "confined/confine.h"
#include "base/protocol.h"
#include "base/stop.h"
#include "confined/workdir.h"
#include "base/util.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <seccomp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/seccomp.h>

#define EXCERPT_BYTES   4096                    /* the excerpt of stdout+stderr kept */
#define RESPONSE_CAP    ((size_t)512 << 20)     /* when the request gives no bound */
#define AS_SLACK        ((size_t)64 << 20)      /* libc, stack, arenas beyond the heap limit */
#define KILL_GRACE_MS   2000                    /* after a kill, how long pipes may stay open */
#define DATA_SLACK      ((size_t)2 << 20)       /* RLIMIT_DATA beyond the heap limit: libc's own */
#define WALL_FACTOR     2                       /* wall-clock limit: 2x the CPU budget ... */
#define WALL_SLACK_S    1.0                     /* ... plus 1 s */
#define STOP_CHECK_MS   100                     /* how often a stopped child is looked for */

/* ---- options ------------------------------------------------------------------ */

static int seccomp_required = 1;

void gr_sandbox_require_seccomp(int required)
{
    seccomp_required = required ? 1 : 0;
}

static int probe_seccomp(void)
{
    /* EINVAL: no CONFIG_SECCOMP at all */
    if (prctl(PR_GET_SECCOMP, 0, 0, 0, 0) < 0)
        return 0;
    /* A NULL program never installs anything: EFAULT (or EACCES without
       no_new_privs) means filter mode exists, EINVAL means it does not. */
    if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, NULL, 0, 0) == 0)
        return 1;                        /* cannot happen, but it did install nothing */
    if (errno == EINVAL)
        return 0;
    return seccomp_arch_native() != 0;
}

const char *gr_sandbox_layers(void)
{
    static char text[160];
    const gr_confine_layers *l = gr_confine_probe();
    snprintf(text, sizeof text, "%s%sprocess group, rlimits%s%s",
             geteuid() == 0 ? "user nobody, " : "",
             gr_sandbox_has_seccomp() ? "seccomp allow-list (kill by default), " : "",
             l->landlock_abi ? ", Landlock (no files)" : "",
             gr_sandbox_has_seccomp() || !seccomp_required ? "" : " (seccomp missing: runs refused)");
    return text;
}

int gr_sandbox_has_seccomp(void)
{
    static int known = -1;               /* the kernel does not change under us */
    if (known < 0)
        known = probe_seccomp();
    return known;
}

/* ---- small helpers ------------------------------------------------------------- */

static void close_fd(int *fd)
{
    if (*fd >= 0) {
        close(*fd);
        *fd = -1;
    }
}

static int set_nonblock(int fd)
{
    int fl = fcntl(fd, F_GETFL);
    return fl < 0 ? -1 : fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

static size_t round_page(size_t n, size_t pg)
{
    return (n + pg - 1) / pg * pg;
}

/* Memory the executable's image needs (its PT_LOAD segments, bss included, and
   its thread-local data, which static glibc takes with sbrk before main), read
   from the open file, so a large static array fits the address-space limit and
   the test child can report it as out of memory instead of exec failing; *writable
   gets the part RLIMIT_DATA counts (writable segments, alignment padding
   included, and the thread-local data). */
static size_t image_bytes(int fd, size_t *writable)
{
    *writable = 0;
    size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    Elf64_Ehdr eh;
    if (pread(fd, &eh, sizeof eh, 0) != (ssize_t)sizeof eh || memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
        eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_phnum > 64)
        goto fallback;
    size_t total = 0;
    for (int i = 0; i < eh.e_phnum; i++) {
        Elf64_Phdr ph;
        if (pread(fd, &ph, sizeof ph, (off_t)(eh.e_phoff + (uint64_t)i * sizeof ph)) != (ssize_t)sizeof ph)
            goto fallback;
        if ((ph.p_type != PT_LOAD && ph.p_type != PT_TLS) || ph.p_memsz >= ((uint64_t)1 << 40))
            continue;
        size_t bytes = round_page((size_t)ph.p_memsz + (size_t)(ph.p_vaddr % pg), pg);
        total += bytes;
        if ((ph.p_flags & PF_W) || ph.p_type == PT_TLS)
            *writable += bytes;
    }
    return total;
fallback:;
    struct stat st;
    *writable = fstat(fd, &st) == 0 ? (size_t)st.st_size : 0;
    return *writable;
}



/* ---- the parent ------------------------------------------------------------------------ */

static void kill_group(pid_t pid)
{
    /* the group first; the child alone as well in case it has not made it yet */
    kill(-pid, SIGKILL);
    kill(pid, SIGKILL);
}

/* Read what is available on fd into the run. Returns 1 at EOF, 0 otherwise. */
typedef struct sink {
    unsigned char *data;
    size_t len, cap;      /* bytes stored, allocated */
    size_t keep;          /* store at most this many */
    size_t total;         /* bytes seen */
} sink;

static int drain(int fd, sink *s)
{
    unsigned char chunk[65536];
    for (;;) {
        ssize_t r = read(fd, chunk, sizeof chunk);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : 1;
        if (r == 0)
            return 1;
        s->total += (size_t)r;
        size_t room = s->keep > s->len ? s->keep - s->len : 0;
        size_t n = (size_t)r < room ? (size_t)r : room;
        if (n > 0) {
            if (s->len + n > s->cap) {
                size_t cap = s->cap ? s->cap : 65536;
                while (cap < s->len + n)
                    cap *= 2;
                if (cap > s->keep)
                    cap = s->keep;
                s->data = gr_xrealloc(s->data, cap);
                s->cap = cap;
            }
            memcpy(s->data + s->len, chunk, n);
            s->len += n;
        }
    }
}

/* Everything one run holds between its steps. */
typedef struct run_ctx {
    /* the call */
    const char *exe;
    const unsigned char *request;
    size_t request_len;
    const gr_limits *lim;
    gr_sandbox_result *out;
    char *err;
    size_t errlen;
    /* open_channels */
    int req[2], resp[2], outp[2], errp[2], filt[2];
    int exe_fd, null_fd, landlock;
    char dir[PATH_MAX];
    size_t resp_cap, buf_bytes;     /* the right answer's size, the child's buffers */
    size_t buf_sizes[PROTO_MAX_BUFS];   /* each buffer's bytes, where inspect looks */
    int n_bufs;
    size_t data_limit;              /* start_child: the child's RLIMIT_DATA */
    long own_peak_kib;              /* start_child: this process's peak RSS when it forked */
    /* start_child */
    int want_filter, filter_failed;
    scmp_filter_ctx filter;
    sigset_t pipe_set, old_mask;
    int masked, sigpipe_was_pending;
    pid_t pid;
    double start;
    /* pump */
    size_t req_off;
    sink response, output, errsink;
    int killed;
    double give_up;                 /* after a kill: when to stop waiting for pipes */
    int ready;                      /* it said so: the request may go */
    gr_blocks before;               /* the heap blocks it had then */
    int answered;                   /* it stopped after answering: to be inspected */
} run_ctx;

/* The call's arguments and this kernel's seccomp: 0, or -1 with err. */
static int check_call(const run_ctx *r)
{
    const gr_limits *lim = r->lim;
    if (!r->exe || !lim || (!r->request && r->request_len > 0)) {
        gr_set_err(r->err, r->errlen, "sandbox: no executable, limits or request given");
        return -1;
    }
    if (lim->time_ms <= 0 || lim->memory_bytes <= 0 || lim->output_bytes < 0) {
        gr_set_err(r->err, r->errlen, "sandbox: limits must be positive (time %ld ms, memory %ld "
                   "bytes, output %ld bytes); fix the rubric's limits", lim->time_ms,
                   lim->memory_bytes, lim->output_bytes);
        return -1;
    }
    if (!gr_sandbox_has_seccomp() && seccomp_required) {
        gr_set_err(r->err, r->errlen, "sandbox: this kernel cannot install seccomp filters, so "
                   "student code would run without its system-call allow-list; grade on a Linux "
                   "kernel with seccomp, or allow unconfined runs explicitly (only for code you trust)");
        return -1;
    }
    return 0;
}

/* The exact response a correct child sends and its guarded buffers' memory,
   from what protocol.c reads of the request; a request that does not parse
   (the child will exit PROTO_EXIT_BAD_REQUEST) gets RESPONSE_CAP. */
static void bound_request(run_ctx *r)
{
    size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    proto_bound b;
    if (proto_request_bound(r->request, r->request_len, &b) != 0) {
        r->resp_cap = RESPONSE_CAP;
        r->buf_bytes = r->request_len;
        r->n_bufs = 0;
        return;
    }
    r->resp_cap = b.response_bytes;
    r->buf_bytes = 0;
    r->n_bufs = b.n_bufs;
    for (int i = 0; i < b.n_bufs; i++) {
        r->buf_sizes[i] = b.buf_bytes[i];
        r->buf_bytes += round_page(b.buf_bytes[i], pg) + 2 * pg;
    }
}

/* The program, /dev/null, the five pipes, the run's empty folder, its Landlock
   ruleset, and the sizes its request implies: 0, or -1 with err. */
static int open_channels(run_ctx *r)
{
    r->exe_fd = open(r->exe, O_RDONLY | O_CLOEXEC);
    if (r->exe_fd < 0) {
        gr_set_err(r->err, r->errlen, "sandbox: cannot open the test program %s: %s", r->exe,
                   strerror(errno));
        return -1;
    }
    r->null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (r->null_fd < 0) {
        gr_set_err(r->err, r->errlen, "sandbox: cannot open /dev/null: %s", strerror(errno));
        return -1;
    }
    if (pipe2(r->req, O_CLOEXEC) || pipe2(r->resp, O_CLOEXEC) || pipe2(r->outp, O_CLOEXEC) ||
        pipe2(r->errp, O_CLOEXEC) || pipe2(r->filt, O_CLOEXEC)) {
        gr_set_err(r->err, r->errlen, "sandbox: cannot create pipes: %s", strerror(errno));
        return -1;
    }
    char *made = gr_workdir_make("run", r->err, r->errlen);
    if (!made)
        return -1;
    snprintf(r->dir, sizeof r->dir, "%s", made);
    free(made);
    r->landlock = gr_confine_landlock_only_exec(r->exe);
    bound_request(r);
    return 0;
}

/* Block SIGPIPE for this run (writing to a child that died then gives EPIPE),
   remembering whether one was already pending. */
static void block_sigpipe(run_ctx *r)
{
    sigemptyset(&r->pipe_set);
    sigaddset(&r->pipe_set, SIGPIPE);
    sigset_t pending;
    sigemptyset(&pending);
    sigpending(&pending);
    r->sigpipe_was_pending = sigismember(&pending, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &r->pipe_set, &r->old_mask);
    r->masked = 1;
}

/* Fork the child under its plan (run_child), then send it its seccomp filter,
   which names the child's pid (tgkill on itself only) and so is compiled now,
   here, where malloc is safe: 0, or -1 with err when fork fails. */
static int start_child(run_ctx *r)
{
    const gr_limits *lim = r->lim;
    /* address space: heap limit + its buffers + its image + room for libc and
       stack; data (heap, private mappings, writable image): the same, with
       only libc's own room beyond the heap limit, the student's static data
       counted in it. The kernel holds these whatever the child's own counts say. */
    size_t writable, image = image_bytes(r->exe_fd, &writable);
    size_t student_static = (size_t)lim->static_bytes;
    size_t blocks = (size_t)PROTO_MAX_BLOCKS * ((size_t)sysconf(_SC_PAGESIZE) + 16);
    size_t as = (size_t)lim->memory_bytes + r->buf_bytes + blocks + image + AS_SLACK;
    size_t data = (size_t)lim->memory_bytes + r->buf_bytes + blocks +
                  (writable > student_static ? writable - student_static : 0) + DATA_SLACK;
    r->data_limit = data;
    /* CPU time is the budget (a loaded machine must not fail correct code):
       SIGXCPU at the limit rounded up to a second, SIGKILL a second later; the
       exact limit is checked on the child's rusage when it ends (reap) */
    long secs = (lim->time_ms + 999) / 1000;
    char heap_env[64];
    snprintf(heap_env, sizeof heap_env, "ATTNLAB_HEAP_LIMIT=%ld", lim->memory_bytes);
    char arg0[] = "attnlab-test";
    char *argv[] = {arg0, NULL};
    char *envp[] = {heap_env, NULL};
    r->want_filter = gr_sandbox_has_seccomp();
    child_plan plan = {
        .req_r = r->req[0], .resp_w = r->resp[1], .out_w = r->outp[1], .err_w = r->errp[1],
        .exe_fd = r->exe_fd, .null_fd = r->null_fd, .filter_r = r->filt[0], .dir = r->dir,
        .landlock = r->landlock,
        .as = {(rlim_t)as, (rlim_t)as}, .data = {(rlim_t)data, (rlim_t)data}, .cpu = {(rlim_t)secs, (rlim_t)secs + 1},
        .drop_root = geteuid() == 0, .want_filter = r->want_filter,
        .argv = argv, .envp = envp,
    };
    block_sigpipe(r);
    struct rusage self;
    /* the child's peak before exec is a copy of ours: only a larger one is its own */
    r->own_peak_kib = getrusage(RUSAGE_SELF, &self) == 0 ? self.ru_maxrss : LONG_MAX;
    r->start = gr_now_seconds();
    r->pid = fork();
    if (r->pid < 0) {
        gr_set_err(r->err, r->errlen, "sandbox: cannot fork: %s", strerror(errno));
        return -1;
    }
    if (r->pid == 0)
        gr_child_run(&plan);
    setpgid(r->pid, r->pid);      /* also here, so a kill(-pid) right away already works */
    gr_stop_track(r->pid);
    close_fd(&r->req[0]);
    close_fd(&r->resp[1]);
    close_fd(&r->outp[1]);
    close_fd(&r->errp[1]);
    close_fd(&r->filt[0]);
    if (r->want_filter) {
        const gr_allowlist_fds fds = {FD_ERR, FD_EXE, gr_child_exec_path};
        r->filter = gr_allowlist_build(r->pid, &fds);
        r->filter_failed = !r->filter || seccomp_export_bpf(r->filter, r->filt[1]) != 0;
    }
    close_fd(&r->filt[1]);
    set_nonblock(r->req[1]);
    set_nonblock(r->resp[0]);
    set_nonblock(r->outp[0]);
    set_nonblock(r->errp[0]);
    return 0;
}

/* Has the child stopped (its SIGSTOP after answering, or a stop before)? The
   status stays to be reaped. */
static int child_stopped(pid_t pid)
{
    siginfo_t si;
    memset(&si, 0, sizeof si);
    return waitid(P_PID, (id_t)pid, &si, WSTOPPED | WNOHANG | WNOWAIT) == 0 && si.si_pid == pid &&
           si.si_code == CLD_STOPPED;
}

static void kill_run(run_ctx *r)
{
    if (!r->killed) {
        kill_group(r->pid);
        r->killed = 1;
        r->give_up = gr_now_seconds() + KILL_GRACE_MS / 1000.0;
    }
}

/* Write what the child will take of the request now; close it at the end (EOF
   after the end magic, as the test child checks). */
static void feed_request(run_ctx *r)
{
    while (r->req_off < r->request_len) {
        ssize_t w = write(r->req[1], r->request + r->req_off, r->request_len - r->req_off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            break;
        if (w <= 0) {                 /* EPIPE: the child stopped reading; its fate says why */
            r->req_off = r->request_len;
            break;
        }
        r->req_off += (size_t)w;
    }
    if (r->req_off >= r->request_len)
        close_fd(&r->req[1]);
}

/* Take what the child wrote on fd into s; close fd at EOF. The child is killed
   when s passes limit (more than any correct answer, or the output limit). */
static int take(run_ctx *r, int *fd, sink *s, size_t limit)
{
    if (drain(*fd, s))
        close_fd(fd);
    if (!r->killed && s->total > limit) {
        kill_run(r);
        return 1;
    }
    return 0;
}

/* The child said it is ready (its first four bytes on the response pipe):
   note its heap blocks, which are not the call's, and let the request go. */
static void note_ready(run_ctx *r)
{
    uint32_t magic;
    if (r->ready || r->response.len < sizeof magic)
        return;
    memcpy(&magic, r->response.data, sizeof magic);
    if (magic != PROTO_READY_MAGIC)
        return;                           /* not the test child's: it waits for nothing */
    r->ready = 1;
    if (gr_inspect_blocks_read(r->pid, &r->before) != 0)
        memset(&r->before, 0, sizeof r->before);   /* then inspect finds it unreadable too */
    if (r->request_len == 0)
        close_fd(&r->req[1]);
}

/* It stopped: after an answer, to be inspected (every byte it wrote is in the
   pipes now); before one, it would wait out the wall clock at no CPU cost, so
   it is killed and timed out at once. */
static void on_stop(run_ctx *r)
{
    take(r, &r->resp[0], &r->response, r->response.keep);
    if (take(r, &r->outp[0], &r->output, (size_t)r->lim->output_bytes))
        r->out->output_limit = 1;
    if (r->killed)
        return;                           /* it wrote more than it may: that is its fate */
    if (r->ready && r->response.len > sizeof(uint32_t)) {
        r->answered = 1;
        return;
    }
    kill_run(r);
    r->out->timed_out = r->out->stopped = 1;
}

/* Feed the request once the child is ready and take the answer, output and
   set-up errors until every pipe closes or the child stops after answering,
   killing the child at the time limit; after a kill, wait at most
   KILL_GRACE_MS for the pipes. 0, or -1 with err when poll fails. */
static int pump(run_ctx *r)
{
    /* the ready word and the answer; one byte over shows as "trailing bytes" */
    r->response.keep = sizeof(uint32_t) + r->resp_cap + 1;
    r->output.keep = EXCERPT_BYTES;
    r->errsink.keep = 64;
    /* the wall clock: a small multiple of the CPU budget, for a loaded machine */
    double deadline = r->start + (double)r->lim->time_ms * WALL_FACTOR / 1000.0 + WALL_SLACK_S;
    for (;;) {
        double t = gr_now_seconds();
        if (!r->killed && t >= deadline) {
            kill_run(r);
            r->out->timed_out = 1;
        }
        if (!r->killed && child_stopped(r->pid)) {
            on_stop(r);
            if (r->answered)
                return 0;
        }
        if (r->resp[0] < 0 && r->outp[0] < 0 && r->errp[0] < 0)
            return 0;                     /* every pipe closed: the child has gone */
        if (r->killed && t >= r->give_up)
            return 0;                     /* something still holds a pipe; stop waiting */
        struct pollfd pfd[4] = {{r->ready ? r->req[1] : -1, POLLOUT, 0}, {r->resp[0], POLLIN, 0},
                                {r->outp[0], POLLIN, 0}, {r->errp[0], POLLIN, 0}};
        int wait_ms = (int)(((r->killed ? r->give_up : deadline) - t) * 1000.0) + 1;
        /* a whole answer: the stop follows at once */
        int whole = r->response.len >= sizeof(uint32_t) + r->resp_cap;
        if (wait_ms > (whole ? 1 : STOP_CHECK_MS))
            wait_ms = whole ? 1 : STOP_CHECK_MS;
        int pr = poll(pfd, 4, wait_ms < 1 ? 1 : wait_ms);   /* fds of -1 are skipped */
        if (pr < 0 && errno == EINTR)
            continue;
        if (pr < 0) {
            gr_set_err(r->err, r->errlen, "sandbox: poll failed: %s", strerror(errno));
            kill_run(r);
            return -1;
        }
        if (pfd[0].revents)
            feed_request(r);
        if (pfd[1].revents) {
            take(r, &r->resp[0], &r->response, r->response.keep);
            note_ready(r);
        }
        if (pfd[2].revents && take(r, &r->outp[0], &r->output, (size_t)r->lim->output_bytes))
            r->out->output_limit = 1;
        if (pfd[3].revents && drain(r->errp[0], &r->errsink))
            close_fd(&r->errp[0]);
    }
}

/* It answered and stopped: judge what the call left in its memory. */
static void inspect(run_ctx *r)
{
    if (!r->answered)
        return;
    gr_inspect(r->pid, r->buf_sizes, r->n_bufs, &r->before, &r->out->memory);
    r->out->inspected = !r->out->memory.unreadable;
}

/* Wait for the child and record its fate in out: 0, or -1 with err. */
static int reap(run_ctx *r)
{
    /* Once more before reaping: while the child is an unreaped zombie its pid
       (and group id) cannot be reused, so this kill can only reach our group. */
    kill_group(r->pid);
    int status = 0;
    pid_t pid = r->pid;
    r->pid = -1;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    while (wait4(pid, &status, 0, &ru) < 0) {
        if (errno != EINTR) {
            gr_set_err(r->err, r->errlen, "sandbox: cannot wait for the test child: %s",
                       strerror(errno));
            return -1;
        }
    }
    gr_stop_track(0);
    r->out->seconds = gr_now_seconds() - r->start;
    r->out->cpu_seconds = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
                          (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
    if (r->out->cpu_seconds * 1000.0 > (double)r->lim->time_ms)
        r->out->timed_out = 1;            /* over the budget, even if it finished */
    /* the peak the kernel measured, when it is the child's own (above our own
       peak, which its pre-exec copy of us cannot exceed); over the data limit
       and the stack the kernel allows, it is out of memory whatever the child said */
    if (ru.ru_maxrss > r->own_peak_kib) {
        r->out->peak_bytes = (size_t)ru.ru_maxrss * 1024;
        if (r->out->peak_bytes > r->data_limit + CHILD_STACK_BYTES + image_bytes(r->exe_fd, &(size_t){0}))
            r->out->out_of_memory = 1;
    }
    if (r->answered) {
        r->out->exited = 1;               /* it answered; our kill ended it */
        r->out->exit_code = PROTO_EXIT_OK;
    } else if (WIFEXITED(status)) {
        r->out->exited = 1;
        r->out->exit_code = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
        r->out->term_signal = WTERMSIG(status);
    }
    return 0;
}

/* What the child's set-up reported, if anything: 0 when it reached the
   student's program (or the kernel refused to load it: their verdict), -1 with
   err when the sandbox itself failed. */
static int setup_report(run_ctx *r)
{
    if (r->errsink.len >= 2 * sizeof(int)) {
        int msg[2];
        memcpy(msg, r->errsink.data, sizeof msg);
        if (msg[0] == STEP_EXEC && msg[1] != EACCES && msg[1] != ENOENT && !r->filter_failed) {
            r->out->exec_errno = msg[1];
            return 0;
        }
        gr_set_err(r->err, r->errlen, "sandbox: the test child could not %s: %s%s",
                   gr_child_step_text(msg[0]), strerror(msg[1]),
                   msg[0] == STEP_EXEC && msg[1] == EACCES
                       ? " (is the work directory on a filesystem mounted noexec, or the "
                         "program not executable by user nobody?)"
                       : "");
        return -1;
    }
    if (r->filter_failed) {
        gr_set_err(r->err, r->errlen, "sandbox: libseccomp could not compile the system-call allow-list");
        return -1;
    }
    return 0;
}

/* Hand the answer and the output excerpt to out. */
static void collect(run_ctx *r)
{
    gr_sandbox_result *out = r->out;
    size_t skip = r->ready ? sizeof(uint32_t) : 0;   /* the ready word */
    if (r->response.len > skip)
        memmove(r->response.data, r->response.data + skip, r->response.len - skip);
    out->response = r->response.data;
    out->response_len = r->response.len > skip ? r->response.len - skip : 0;
    r->response.data = NULL;
    out->output = gr_xmalloc(r->output.len + 1);
    if (r->output.len)
        memcpy(out->output, r->output.data, r->output.len);
    out->output[r->output.len] = '\0';
    out->output_len = r->output.total;
}

/* Whatever the run still holds: a child (killed and reaped), the filter, every
   descriptor, the SIGPIPE block (swallowing one this run caused), the folder. */
static void close_channels(run_ctx *r)
{
    if (r->pid > 0) {
        kill_group(r->pid);
        while (waitpid(r->pid, NULL, 0) < 0 && errno == EINTR)
            ;
        gr_stop_track(0);
    }
    if (r->filter)
        seccomp_release(r->filter);
    int *fds[] = {&r->req[0], &r->req[1], &r->resp[0], &r->resp[1], &r->outp[0], &r->outp[1],
                  &r->errp[0], &r->errp[1], &r->filt[0], &r->filt[1], &r->exe_fd, &r->null_fd,
                  &r->landlock};
    for (size_t i = 0; i < sizeof fds / sizeof fds[0]; i++)
        close_fd(fds[i]);
    if (r->masked) {
        if (!r->sigpipe_was_pending) {
            struct timespec zero = {0, 0};
            while (sigtimedwait(&r->pipe_set, NULL, &zero) < 0 && errno == EINTR)
                ;
        }
        pthread_sigmask(SIG_SETMASK, &r->old_mask, NULL);
    }
    if (r->dir[0])
        gr_workdir_remove(gr_xstrdup(r->dir));
    free(r->response.data);
    free(r->output.data);
    free(r->errsink.data);
    gr_inspect_blocks_free(&r->before);
}

int gr_sandbox_run(const char *exe, const unsigned char *request, size_t request_len,
                   const gr_limits *lim, gr_sandbox_result *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (err && errlen)
        err[0] = '\0';
    run_ctx r;
    memset(&r, 0, sizeof r);
    r.exe = exe;
    r.request = request;
    r.request_len = request_len;
    r.lim = lim;
    r.out = out;
    r.err = err;
    r.errlen = errlen;
    int *fds[] = {&r.req[0], &r.req[1], &r.resp[0], &r.resp[1], &r.outp[0], &r.outp[1],
                  &r.errp[0], &r.errp[1], &r.filt[0], &r.filt[1], &r.exe_fd, &r.null_fd,
                  &r.landlock};
    for (size_t i = 0; i < sizeof fds / sizeof fds[0]; i++)
        *fds[i] = -1;
    r.pid = -1;
    if (check_call(&r) != 0)
        return -1;
    if (lim->static_bytes > lim->memory_bytes) {
        out->out_of_memory = 1;           /* its static data alone is over: nothing to run */
        out->output = gr_xstrdup("");
        return 0;
    }
    int rc = open_channels(&r);
    if (rc == 0)
        rc = start_child(&r);
    if (rc == 0) {
        int pumped = pump(&r);
        inspect(&r);
        rc = reap(&r);
        if (rc == 0)
            rc = pumped;
    }
    if (rc == 0)
        rc = setup_report(&r);
    if (rc == 0)
        collect(&r);
    close_channels(&r);
    if (rc != 0) {
        gr_sandbox_result_free(out);
        memset(out, 0, sizeof *out);
    }
    return rc;
}

void gr_sandbox_result_free(gr_sandbox_result *r)
{
    if (!r)
        return;
    free(r->response);
    free(r->output);
    r->response = NULL;
    r->output = NULL;
}
