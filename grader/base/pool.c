/* pool.c: see pool.h. */
#include "base/pool.h"
#include "base/status.h"
#include "base/stop.h"
#include "base/util.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_WORKERS 16

typedef struct worker {
    pid_t pid;
    int fd;              /* the read end of its pipe, or -1 */
    int index;           /* which job of the call */
    gr_strbuf got;       /* everything it sent */
} worker;

int gr_pool_cores(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > MAX_WORKERS ? MAX_WORKERS : (int)n;
}

static void write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return;
        p += w;
        n -= (size_t)w;
    }
}

/* The worker's side: do job i and send {code, err, result}. Never returns. */
static void run_worker(const gr_pool_task *t, int i, int fd, pid_t parent)
{
    gr_stop_forget_all();
    /* the parent killed outright (kill -9) stops its workers as a stop signal
       would: each removes its folders and writes nothing half-done */
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != parent)
        raise(SIGTERM);
    char err[1024] = "";
    gr_strbuf res = {0};
    int32_t rc = t->work(t->ctx, i, &res, err, sizeof err);
    uint32_t elen = (uint32_t)strlen(err);
    gr_strbuf b = {0};
    gr_sb_appendn(&b, (const char *)&rc, sizeof rc);
    gr_sb_appendn(&b, (const char *)&elen, sizeof elen);
    gr_sb_appendn(&b, err, elen);
    if (rc == 0 && res.len)
        gr_sb_appendn(&b, res.s, res.len);
    write_all(fd, b.s ? b.s : "", b.len);
    _exit(0);
}

static int start_worker(const gr_pool_task *t, int i, worker *w, char *err, size_t errlen)
{
    int p[2];
    if (pipe2(p, O_CLOEXEC) != 0) {
        gr_set_err(err, errlen, "cannot make a pipe for a grading worker: %s", strerror(errno));
        return -1;
    }
    fflush(NULL);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        gr_set_err(err, errlen, "cannot start a grading worker: %s", strerror(errno));
        close(p[0]);
        close(p[1]);
        return -1;
    }
    if (pid == 0) {
        close(p[0]);
        run_worker(t, i, p[1], parent);
    }
    close(p[1]);
    gr_stop_add_worker(pid);
    w->pid = pid;
    w->fd = p[0];
    w->index = i;
    memset(&w->got, 0, sizeof w->got);
    return 0;
}

/* The worker has closed its pipe: reap it and hand its result to t->done.
   0, or a GR_STATUS_* code with err. */
static int finish_worker(const gr_pool_task *t, worker *w, char *err, size_t errlen)
{
    int st = 0;
    while (waitpid(w->pid, &st, 0) < 0 && errno == EINTR)
        ;
    gr_stop_remove_worker(w->pid);
    const char *p = w->got.s;
    size_t n = w->got.len;
    int32_t rc;
    uint32_t elen;
    int ok = WIFEXITED(st) && WEXITSTATUS(st) == 0 && n >= 8;
    if (ok) {
        memcpy(&rc, p, 4);
        memcpy(&elen, p + 4, 4);
        ok = elen <= n - 8;
    }
    char what[128];
    t->name(t->ctx, w->index, what, sizeof what);
    if (!ok) {
        if (gr_stop_requested())
            return GR_STATUS_STOPPED;
        gr_set_err(err, errlen, "the grading worker for %s died (%s %d) without a result; "
                   "this is the grader's fault: run it alone with --jobs 1 to see why",
                   what, WIFSIGNALED(st) ? "signal" : "exit status",
                   WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
        return GR_STATUS_FAILED;
    }
    if (rc != 0) {
        snprintf(err, errlen, "%.*s", (int)elen, p + 8);
        return rc;
    }
    return t->done(t->ctx, w->index, p + 8 + elen, n - 8 - elen, err, errlen);
}

/* Read what the running workers sent; finish those that closed their pipes. */
static int collect(const gr_pool_task *t, worker *ws, int *running, int *first_rc,
                   char *err, size_t errlen)
{
    struct pollfd pfd[MAX_WORKERS];
    for (int i = 0; i < *running; i++)
        pfd[i] = (struct pollfd){ws[i].fd, POLLIN, 0};
    if (poll(pfd, (nfds_t)*running, -1) < 0)
        return errno == EINTR ? 0 : -1;
    for (int i = *running - 1; i >= 0; i--) {
        if (!pfd[i].revents)
            continue;
        char chunk[65536];
        ssize_t r = read(ws[i].fd, chunk, sizeof chunk);
        if (r < 0 && errno == EINTR)
            continue;
        if (r > 0) {
            gr_sb_appendn(&ws[i].got, chunk, (size_t)r);
            continue;
        }
        close(ws[i].fd);
        char werr[1024] = "";
        int rc = finish_worker(t, &ws[i], werr, sizeof werr);
        if (rc != 0 && *first_rc == 0) {
            *first_rc = rc;
            gr_set_err(err, errlen, "%s", werr);
        }
        free(ws[i].got.s);
        ws[i] = ws[--*running];
    }
    return 0;
}

int gr_pool_map(const gr_pool_task *t, int n, int jobs, char *err, size_t errlen)
{
    worker ws[MAX_WORKERS];
    int running = 0, next = 0, first_rc = 0;
    if (jobs < 1)
        jobs = 1;
    if (jobs > MAX_WORKERS)
        jobs = MAX_WORKERS;
    while (next < n || running > 0) {
        while (next < n && running < jobs && first_rc == 0 && !gr_stop_requested()) {
            if (start_worker(t, next, &ws[running], err, errlen) != 0) {
                first_rc = GR_STATUS_FAILED;
                break;
            }
            running++;
            next++;
        }
        if (running == 0)
            break;
        if (collect(t, ws, &running, &first_rc, err, errlen) != 0) {
            gr_set_err(err, errlen, "cannot wait for the grading workers: %s", strerror(errno));
            first_rc = GR_STATUS_FAILED;
            for (int i = 0; i < running; i++) {   /* stop them: none is left running */
                kill(ws[i].pid, SIGTERM);
                close(ws[i].fd);
                while (waitpid(ws[i].pid, NULL, 0) < 0 && errno == EINTR)
                    ;
                gr_stop_remove_worker(ws[i].pid);
                free(ws[i].got.s);
            }
            running = 0;
        }
    }
    if (first_rc == 0 && gr_stop_requested())
        first_rc = GR_STATUS_STOPPED;
    return first_rc;
}
