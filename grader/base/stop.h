/* stop.h: stopping cleanly on Ctrl-C, kill or a closed terminal.
 *
 * While a command that installed these handlers runs, SIGINT, SIGTERM and
 * SIGHUP do not kill attnlab outright: the handler kills the process group of
 * the child running now (a tool or a test), and the grading loop, seeing
 * gr_stop_requested(), unwinds: it removes its work folders and writes no
 * report (reports are written whole or not at all). The command then ends
 * with the signal's own status (gr_stop_reraise), as a shell expects.
 */
#ifndef GR_STOP_H
#define GR_STOP_H

#include <sys/types.h>

/* Catch SIGINT, SIGTERM and SIGHUP as above. */
void gr_stop_install(void);

/* The signal that asked attnlab to stop, or 0. */
int gr_stop_requested(void);

/* The child (a process-group leader) that a stop must kill now, or 0 for none. */
void gr_stop_track(pid_t pgid);

/* A worker process (pool.h) that a stop must pass SIGTERM on to, so that it
   stops its own child and removes its own folders; pid 0 forgets it. At most
   GR_STOP_WORKERS at once. */
#define GR_STOP_WORKERS 64
void gr_stop_add_worker(pid_t pid);
void gr_stop_remove_worker(pid_t pid);

/* In a new worker: forget the parent's workers and child. */
void gr_stop_forget_all(void);

/* End the process with the status of the signal that stopped it. */
void gr_stop_reraise(void) __attribute__((noreturn));

#endif
