/* spawn.h: run the built attnlab as a separate process, as a user would,
 * for suites that grade a class with it (test_shards, test_hostile_merge).
 *
 *   spawn_path()                   build/attnlab beside this test program
 *   spawn(log, secret, args)       start attnlab args... (NULL-terminated),
 *                                  stdout and stderr into log, ATTNLAB_SECRET
 *                                  set to secret; its pid
 *   spawn_exit(pid)                wait for it: its exit status, -1 if killed
 *   spawn_run(log, secret, args, &out)  both, and what it wrote (to free())
 */
#ifndef ATTNLAB_SPAWN_H
#define ATTNLAB_SPAWN_H

#include <check.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/util.h"

static inline char *spawn_path(void)
{
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    ck_assert_int_gt(n, 0);
    exe[n] = '\0';
    *strrchr(exe, '/') = '\0';                 /* .../grader/tests */
    return gr_xasprintf("%s/../../attnlab", exe);
}

static inline pid_t spawn(const char *log, const char *secret, const char *const *args)
{
    char *prog = spawn_path(), *argv[32] = {prog};
    int n = 1;
    for (; args[n - 1] && n < 31; n++)
        argv[n] = gr_xstrdup(args[n - 1]);
    argv[n] = NULL;
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(fd, 1);
        dup2(fd, 2);
        setenv("ATTNLAB_SECRET", secret, 1);
        execv(prog, argv);
        _exit(127);
    }
    for (int i = 0; i < n; i++)
        free(argv[i]);
    return pid;
}

static inline int spawn_exit(pid_t pid)
{
    int st;
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static inline int spawn_run(const char *log, const char *secret, const char *const *args,
                            char **out)
{
    int rc = spawn_exit(spawn(log, secret, args));
    *out = gr_read_file(log, NULL);
    ck_assert_ptr_nonnull(*out);
    return rc;
}

#endif
