/* capture.h: run one attnlab command in the test process and keep what it
 * wrote, for the suites of commands whose entry point takes its output
 * streams (cmd_bench_run, cmd_explain_run: int run(FILE *out, FILE *err,
 * int argc, char **argv)).
 *
 *   run_result r = CAPTURE(cmd_bench_run, "bench", "--T", "32", "--format", "csv");
 *   ck_assert_int_eq(r.rc, 0);
 *   ck_assert_str_eq(r.err, "");
 *   ... r.out ...
 *   free_result(&r);
 *
 *   run_command(run, name, n, args)  the same with n arguments in an array
 *   CAPTURE(run, name, ARGS...)      the same with the arguments listed
 *   slurp(f)                         all of a tmpfile written up to now, as a
 *                                    string to free(); closes f
 *   check_usage_error(&r, i, prefix, says)
 *                                    r is a usage error: exit 2, out empty, one
 *                                    line on err starting with prefix, saying says
 *
 * Each call gets fresh tmpfiles for out and err and its own copy of argv
 * (argv[0] is the command's name), so a command may modify its arguments.
 * Anything that goes wrong in the harness itself fails the Check test.
 */
#ifndef ATTNLAB_CAPTURE_H
#define ATTNLAB_CAPTURE_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a command returned and wrote. */
typedef struct run_result {
    int rc;
    char *out;     /* everything written to out (the command's stdout) */
    char *err;     /* everything written to err (the command's stderr) */
} run_result;

/* A command's entry point with its output streams passed in. */
typedef int (*capture_fn)(FILE *out, FILE *err, int argc, char **argv);

/* Everything written to f up to its current position, as a string; closes f. */
static inline char *slurp(FILE *f)
{
    long len = ftell(f);
    ck_assert_int_ge(len, 0);
    rewind(f);
    char *s = calloc((size_t)len + 1, 1);
    ck_assert_ptr_nonnull(s);
    ck_assert_int_eq(fread(s, 1, (size_t)len, f), (size_t)len);
    fclose(f);
    return s;
}

/* Run `attnlab NAME ARGS...` through run (n arguments after the command name). */
static inline run_result run_command(capture_fn run, const char *name, int n,
                                     const char *const *args)
{
    char **argv = calloc((size_t)n + 2, sizeof *argv);
    ck_assert_ptr_nonnull(argv);
    argv[0] = strdup(name);
    for (int i = 0; i < n; i++)
        argv[i + 1] = strdup(args[i]);
    FILE *out = tmpfile(), *err = tmpfile();
    ck_assert(out && err);
    run_result r;
    r.rc = run(out, err, n + 1, argv);
    r.out = slurp(out);
    r.err = slurp(err);
    for (int i = 0; i <= n; i++)
        free(argv[i]);
    free(argv);
    return r;
}

/* run_command with the arguments listed: CAPTURE(cmd_explain_run, "explain", "--scores", "1 2"). */
#define CAPTURE(run, name, ...) \
    run_command((run), (name), (int)(sizeof((const char *[]){__VA_ARGS__}) / sizeof(const char *)), \
                (const char *[]){__VA_ARGS__})

static inline void free_result(run_result *r)
{
    free(r->out);
    free(r->err);
}

/* r is a usage error: exit status 2, nothing on out, and on err exactly one
   line that starts with prefix ("attnlab bench: ") and contains says. Case i
   (a loop test's _i) is named in the messages. */
static inline void check_usage_error(const run_result *r, int i, const char *prefix,
                                     const char *says)
{
    ck_assert_msg(r->rc == 2, "case %d: exit %d, expected 2", i, r->rc);
    ck_assert_str_eq(r->out, "");
    ck_assert_msg(strncmp(r->err, prefix, strlen(prefix)) == 0, "stderr: %s", r->err);
    ck_assert_msg(strstr(r->err, says) != NULL, "stderr '%s' lacks '%s'", r->err, says);
    const char *nl = strchr(r->err, '\n');
    ck_assert_msg(nl && nl[1] == '\0', "expected exactly one line, got: %s", r->err);
}

#endif
