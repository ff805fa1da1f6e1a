/* pool.h: grade several labs at once, one worker process per lab, as many at
 * a time as there are cores.
 *
 * A worker is a fork of the grader: it grades its lab exactly as the
 * sequential loop would (its own build folder, its own sandboxed children) and
 * sends the lab's result back over a pipe (gr_lab_result_encode). The parent
 * only collects, so a worker that dies (it never should) is the grader's own
 * failure, named, never a student's verdict. A stop signal reaches every
 * worker (stop.h), each removes its own folders, and the parent reports the stop.
 */
#ifndef GR_POOL_H
#define GR_POOL_H

#include <stddef.h>
#include "result.h"

/* The work of one lab, run inside a worker: fill lr, return 0 or a gr_grade
   error code with err set. */
typedef int (*gr_lab_job)(void *ctx, int lab, gr_lab_result *lr, char *err, size_t errlen);

/* Run job for each of labs[0..n) in at most jobs workers at once; out[i] gets
   labs[i]'s result. 0, or the first failing lab's code with its err (the
   other labs are still finished or stopped, never left running). */
int gr_pool_run(gr_lab_job job, void *ctx, const int *labs, int n, int jobs,
                gr_lab_result *out, char *err, size_t errlen);

/* The number of cores this process may use, at least 1. */
int gr_pool_cores(void);

#endif
