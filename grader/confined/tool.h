/* tool.h: running a trusted tool of the machine (the C compiler, objcopy,
 * gnuplot) for attnlab: fork/exec, never through a shell, stdin from
 * /dev/null, stdout and stderr captured together into a bounded log, in a
 * process group of its own that is killed after a deadline (and always at the
 * end, every process of it awaited, so nothing it started is still running
 * or exiting when gr_tool_exec returns), under resource
 * limits (address space, CPU time and file size as asked, no core dump),
 * with every descriptor but 0, 1 and 2 closed, and, for a tool that reads
 * student text, inside the walls of confine.h.
 */
#ifndef GR_TOOL_H
#define GR_TOOL_H

#include <stddef.h>
#include "confined/confine.h"

/* How to run one tool. */
typedef struct gr_tool_opts {
    const char *cwd;       /* the folder it runs in; NULL: the caller's */
    char *const *env;      /* its whole environment; NULL: the caller's */
    int seconds;           /* its process group is killed after this many seconds */
    size_t log_bytes;      /* how much of its output is kept: the first log_bytes bytes */
    int path_search;       /* 1: argv[0] without a '/' is looked for on PATH; 0: run as named */
    int cpu_seconds;       /* CPU limit; 0: seconds + 5 */
    size_t memory_bytes;   /* address-space limit; 0: 4 GiB */
    size_t file_bytes;     /* largest file it may write; 0: 512 MiB */
    const gr_confine *confine;  /* the kernel's walls for a tool reading student text, or NULL */
} gr_tool_opts;

/* How one run ended. */
typedef struct gr_tool_run {
    int status;            /* its waitpid status */
    int timed_out;         /* 1 when it was killed after opts->seconds */
    char *log;             /* its stdout and stderr, at most log_bytes; the caller frees it */
    char why[160];         /* when it could not start: what failed ("cannot confine it: ...") */
} gr_tool_run;

/* Run argv (NULL-ended) as o says and fill tr: 0 when it ran (whatever its
   status), or -1 with errno set, tr->why saying what failed and tr->log NULL
   when it could not be started (exec's or confinement's errno) or its end
   could not be awaited. */
int gr_tool_exec(const char *const argv[], const gr_tool_opts *o, gr_tool_run *tr);

/* 1 when the run finished within its time and exited with status 0, else 0. */
int gr_tool_ok(const gr_tool_run *tr);

#endif
