/* tool.h: running a trusted tool of the machine (the C compiler, objcopy,
 * gnuplot) for attnlab: fork/exec, never through a shell, stdin from
 * /dev/null, stdout and stderr captured together into a bounded log, in a
 * process group of its own that is killed after a deadline, under resource
 * limits (address space 4 GiB, CPU time the deadline plus 5 s, files 512 MiB,
 * no core dump), with every descriptor but 0, 1 and 2 closed.
 */
#ifndef GR_TOOL_H
#define GR_TOOL_H

#include <stddef.h>

/* How to run one tool. */
typedef struct gr_tool_opts {
    const char *cwd;       /* the folder it runs in; NULL: the caller's */
    char *const *env;      /* its whole environment; NULL: the caller's */
    int seconds;           /* its process group is killed after this many seconds */
    size_t log_bytes;      /* how much of its output is kept: the first log_bytes bytes */
    int path_search;       /* 1: argv[0] without a '/' is looked for on PATH; 0: run as named */
} gr_tool_opts;

/* How one run ended. */
typedef struct gr_tool_run {
    int status;            /* its waitpid status */
    int timed_out;         /* 1 when it was killed after opts->seconds */
    char *log;             /* its stdout and stderr, at most log_bytes; the caller frees it */
} gr_tool_run;

/* Run argv (NULL-ended) as o says and fill tr: 0 when it ran (whatever its
   status), or -1 with errno set and tr->log NULL when it could not be started
   (exec's errno) or its end could not be awaited. */
int gr_run_tool(const char *const argv[], const gr_tool_opts *o, gr_tool_run *tr);

/* 1 when the run finished within its time and exited with status 0, else 0. */
int gr_tool_ok(const gr_tool_run *tr);

#endif
