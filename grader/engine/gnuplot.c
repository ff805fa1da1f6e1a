/* gnuplot.c: see gnuplot.h. */
#include "engine/gnuplot.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "confined/tool.h"
#include "base/util.h"

#define GNUPLOT_SECONDS 60            /* one gnuplot run */
#define GNUPLOT_LOG     4096          /* bytes of gnuplot's messages kept */

/* The first executable called prog on PATH, into buf. 0, or -1 when none. */
static int find_program(const char *prog, char *buf, size_t len)
{
    const char *path = getenv("PATH");
    if (!path || !*path)
        path = "/usr/local/bin:/usr/bin:/bin";
    while (*path) {
        size_t n = strcspn(path, ":");
        if (n > 0 && (size_t)snprintf(buf, len, "%.*s/%s", (int)n, path, prog) < len) {
            struct stat st;
            if (stat(buf, &st) == 0 && S_ISREG(st.st_mode) && access(buf, X_OK) == 0)
                return 0;
        }
        path += n + (path[n] == ':');
    }
    return -1;
}

/* The first few lines of a tool's messages, indented, for a person. */
static void print_log(FILE *err, const char *log)
{
    int lines = 0;
    while (*log && lines < 8) {
        size_t n = strcspn(log, "\n");
        if (n > 0) {
            fprintf(err, "  %.*s\n", (int)n, log);
            lines++;
        }
        log += n + (log[n] == '\n');
    }
}

int gr_gnuplot_draw(FILE *err, const char *cmd, const char *again, const char *root,
                    const char *name, const char *dat, const char *png,
                    const char *const *args)
{
    char gnuplot[PATH_MAX];
    if (find_program("gnuplot", gnuplot, sizeof gnuplot) != 0) {
        fprintf(err, "attnlab %s: gnuplot is not installed, so there is no PNG; install it "
                "with 'sudo apt-get install gnuplot-nox' (or gnuplot), then run 'attnlab %s' "
                "again\n", cmd, again);
        return -1;
    }
    char *script = gr_xasprintf("%s/data/plots/%s.gp", root, name);
    if (access(script, R_OK) != 0) {
        fprintf(err, "attnlab %s: cannot read the plot script %s: %s\n", cmd, script, strerror(errno));
        free(script);
        return -1;
    }
    /* gnuplot draws into a temporary file beside the PNG, renamed once complete */
    char *tmp = gr_xasprintf("%s.tmp.XXXXXX", png);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        fprintf(err, "attnlab %s: cannot write %s: %s\n", cmd, png, strerror(errno));
        free(tmp);
        free(script);
        return -1;
    }
    fchmod(fd, 0644);  /* a PNG anyone may read, like the .dat */
    close(fd);

    const char *argv[16] = { gnuplot, "-d", "-c", script, dat, tmp };
    for (int i = 0; args && args[i] && i < 9; i++)
        argv[6 + i] = args[i];
    const gr_tool_opts opts = { .seconds = GNUPLOT_SECONDS, .log_bytes = GNUPLOT_LOG };
    gr_tool_run tr;
    gr_strbuf log = {0};
    int started = gr_tool_exec(argv, &opts, &tr) == 0;
    if (!started)
        gr_sb_printf(&log, "cannot start %s: %s", gnuplot, strerror(errno));
    else if (tr.log)
        gr_sb_append(&log, tr.log);
    if (started && tr.timed_out)
        gr_sb_printf(&log, "\nstopped after %d seconds", GNUPLOT_SECONDS);
    struct stat st;
    int ok = started && gr_tool_ok(&tr) && stat(tmp, &st) == 0 && st.st_size > 0;
    if (ok && rename(tmp, png) != 0) {
        fprintf(err, "attnlab %s: cannot write %s: %s\n", cmd, png, strerror(errno));
        ok = 0;
    } else if (!ok) {
        if (started && !tr.timed_out && WIFEXITED(tr.status) && WEXITSTATUS(tr.status) != 0)
            fprintf(err, "attnlab %s: gnuplot failed on %s (exit status %d):\n", cmd, script,
                    WEXITSTATUS(tr.status));
        else
            fprintf(err, "attnlab %s: gnuplot did not finish %s:\n", cmd, script);
        print_log(err, log.len ? log.s : "(no message)");
    }
    if (!ok)
        unlink(tmp);
    free(tr.log);
    free(log.s);
    free(tmp);
    free(script);
    return ok ? 0 : -1;
}
