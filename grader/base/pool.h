/* pool.h: run many independent jobs at once, one worker process per job, as
 * many at a time as there are cores: the labs of one submission, pass by pass
 * (grade.h), the students of a class (batch.h), the mutants of a lab.
 *
 * A worker is a fork of the grader: it does its job exactly as the sequential
 * loop would (its own build folder, its own sandboxed children) and sends the
 * job's result back as bytes over a pipe. The parent only collects, so a worker
 * that dies (it never should) is the grader's own failure, named, never a
 * student's verdict. A stop signal reaches every worker (stop.h), each removes
 * its own folders, and the parent reports the stop. A worker whose parent dies
 * (kill -9) is stopped the same way, so nothing outlives the run.
 */
#ifndef GR_POOL_H
#define GR_POOL_H

#include <stddef.h>
#include "base/util.h"

/* n jobs, numbered 0..n-1, and what to do with each. */
typedef struct gr_pool_task {
    /* In a worker: do job i, append its result to out; 0 or a GR_STATUS_*
       code (status.h) with err set. */
    int (*work)(void *ctx, int i, gr_strbuf *out, char *err, size_t errlen);
    /* In the parent, as job i finishes: take its bytes[0..len); 0, or a
       GR_STATUS_* code with err set. */
    int (*done)(void *ctx, int i, const char *bytes, size_t len, char *err, size_t errlen);
    /* Job i for a person, in messages: "lab 3", "student s012". */
    void (*name)(void *ctx, int i, char *buf, size_t len);
    void *ctx;
} gr_pool_task;

/* Run jobs 0..n-1 of t in at most jobs workers at once. 0, or the first
   failing job's code with its err: no job starts after a failure or a stop
   signal, and the running ones are finished or stopped, never left running. */
int gr_pool_map(const gr_pool_task *t, int n, int jobs, char *err, size_t errlen);

/* The number of cores this process may use, at least 1. */
int gr_pool_cores(void);

#endif
