/* stop.c: see stop.h. */
#include "base/stop.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t stop_signal;
static volatile pid_t tracked;
static volatile pid_t workers[GR_STOP_WORKERS];

static void on_stop(int sig)
{
    stop_signal = sig;
    pid_t pg = tracked;
    if (pg > 0)
        kill(-pg, SIGKILL);       /* its pipes close, and the loop waiting on it ends */
    for (int i = 0; i < GR_STOP_WORKERS; i++)
        if (workers[i] > 0)
            kill(workers[i], SIGTERM);   /* each cleans up after itself */
}

void gr_stop_add_worker(pid_t pid)
{
    for (int i = 0; i < GR_STOP_WORKERS; i++)
        if (workers[i] == 0) {
            workers[i] = pid;
            break;
        }
    if (stop_signal && pid > 0)
        kill(pid, SIGTERM);
}

void gr_stop_remove_worker(pid_t pid)
{
    for (int i = 0; i < GR_STOP_WORKERS; i++)
        if (workers[i] == pid)
            workers[i] = 0;
}

void gr_stop_forget_all(void)
{
    tracked = 0;
    for (int i = 0; i < GR_STOP_WORKERS; i++)
        workers[i] = 0;
}

void gr_stop_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;      /* no SA_RESTART: a blocked poll or wait returns EINTR */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
}

int gr_stop_requested(void)
{
    return stop_signal;
}

void gr_stop_track(pid_t pgid)
{
    tracked = pgid;
    if (pgid > 0 && stop_signal)
        kill(-pgid, SIGKILL);     /* the stop came between fork and now */
}

void gr_stop_reraise(void)
{
    int sig = stop_signal ? stop_signal : SIGTERM;
    signal(sig, SIG_DFL);
    raise(sig);
    _exit(128 + sig);
}
