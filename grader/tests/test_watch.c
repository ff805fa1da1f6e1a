/* test_watch.c: `attnlab watch` driven the way a student drives it. watch
 * runs in a child process on a scratch submission; the test saves lab01.c
 * (an editor's swap file first, then a wrong answer written in place, then
 * the solution renamed over it, as editors do) and reads what watch prints,
 * each step bounded in time. It measures the time from each save to the
 * verdict on the pipe and prints it. Also: --timeout without a pass, and
 * the usage errors. Run from the top of the tree. */
#include <check.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "capture.h"
#include "cli/commands.h"
#include "learner.h"
#include "base/labmod.h"
#include "learn/progress.h"
#include "base/layout.h"

Suite *test_suite(void);

#define STEP_SECONDS 20.0      /* a generous bound per step on a loaded 2-core machine */

/* A watch running in a child, and what it has printed so far. */
typedef struct watcher {
    pid_t pid;
    int fd;                    /* read end of its stdout and stderr */
    gr_strbuf seen;            /* everything read */
    size_t mark;               /* where the next wait_for starts looking */
} watcher;

static char *objs;

/* Start `attnlab watch ARGS...` (n of them) in a child writing to a pipe. */
static void start_watch(watcher *w, int n, const char *const *args)
{
    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    memset(w, 0, sizeof *w);
    w->pid = fork();
    ck_assert_int_ge(w->pid, 0);
    if (w->pid == 0) {
        close(fds[0]);
        FILE *out = fdopen(fds[1], "w");
        char *argv[16] = {gr_xstrdup("watch")};
        for (int i = 0; i < n && i < 14; i++)
            argv[i + 1] = gr_xstrdup(args[i]);
        int rc = cmd_watch_run(out, out, ".", objs, n + 1, argv);
        fflush(out);
        _exit(rc);
    }
    close(fds[1]);
    w->fd = fds[0];
}

/* Read until needle appears after the mark (then move the mark past it) or
   seconds pass (then fail the test with what was seen). The seconds waited. */
static double wait_for(watcher *w, const char *needle, double seconds)
{
    double t0 = gr_now_seconds();
    for (;;) {
        const char *at = w->seen.s ? strstr(w->seen.s + w->mark, needle) : NULL;
        if (at) {
            w->mark = (size_t)(at - w->seen.s) + strlen(needle);
            return gr_now_seconds() - t0;
        }
        double left = seconds - (gr_now_seconds() - t0);
        ck_assert_msg(left > 0, "no '%s' within %g s; watch printed:\n%s", needle, seconds,
                      w->seen.s ? w->seen.s : "");
        struct pollfd p = {w->fd, POLLIN, 0};
        if (poll(&p, 1, (int)(left * 1000) + 1) <= 0)
            continue;
        char buf[4096];
        ssize_t n = read(w->fd, buf, sizeof buf);
        ck_assert_msg(n > 0 || errno == EINTR, "watch ended before '%s':\n%s", needle,
                      w->seen.s ? w->seen.s : "");
        if (n > 0)
            gr_sb_appendn(&w->seen, buf, (size_t)n);
    }
}

/* Wait for the child's exit status (bounded: it is killed after seconds). */
static int end_watch(watcher *w, double seconds)
{
    int status;
    double t0 = gr_now_seconds();
    while (waitpid(w->pid, &status, WNOHANG) == 0) {
        if (gr_now_seconds() - t0 > seconds) {
            kill(w->pid, SIGKILL);
            waitpid(w->pid, &status, 0);
            ck_abort_msg("watch did not end within %g s:\n%s", seconds, w->seen.s);
        }
        usleep(10000);
    }
    close(w->fd);
    free(w->seen.s);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* The solution with the 1/d-for-1/sqrt(d) mistake planted. */
static char *inv_dk_solution(void)
{
    char *sol = read_text("solutions/lab01-scores/lab01.c");
    char *at = strstr(sol, "1.0 / sqrt((double)d)");
    ck_assert_ptr_nonnull(at);
    memcpy(at, "1.0 /     ((double)d)", 21);
    return sol;
}

/* The whole loop: the stub, a swap file (ignored), a wrong answer saved in
   place (the verdicts, the feedback and the hint), the solution renamed over
   it (passed, and the next lab named); with --once watch ends 0 there and the
   progress file says lab 1 passed. */
START_TEST(watch_regrades_each_save_until_it_passes)
{
    objs = fk_child_dir();
    char *sub, *state, *dir = learner_tree("watch", &sub, &state);
    char *stub = gr_layout_stub(".", 1);
    put_lab(sub, 1, stub);
    char *file = gr_xasprintf("%s/lab01-scores/lab01.c", sub);

    watcher w;
    start_watch(&w, 7, (const char *[]){"--lab", "1", "--submission", sub, "--timeout", "120",
                                        "--once"});
    wait_for(&w, "(save lab01.c to regrade; Ctrl-C to stop)", STEP_SECONDS);
    wait_for(&w, "not implemented  dot_worked_example", STEP_SECONDS);
    wait_for(&w, "Start lab 1: read labs/lab01-scores/README.md", STEP_SECONDS);

    /* an editor's swap file alone does not regrade */
    char *swap = gr_xasprintf("%s/lab01-scores/.lab01.c.swp", sub);
    put_text(swap, "swap");
    usleep(300 * 1000);

    char *wrong = inv_dk_solution();
    FILE *f = fopen(file, "w");                     /* saved in place: IN_CLOSE_WRITE */
    ck_assert_ptr_nonnull(f);
    fputs(wrong, f);
    fclose(f);
    double wrong_s = wait_for(&w, "] lab01.c saved: lab 1's visible tests", STEP_SECONDS);
    ck_assert_msg(strstr(w.seen.s, ".lab01.c.swp saved") == NULL, "%s", w.seen.s);
    wrong_s += wait_for(&w, "wrong answer     scaled_worked_example", STEP_SECONDS);
    wait_for(&w, "expected 2, got 1", STEP_SECONDS);            /* the first failing test's feedback */
    /* lab 1's visible tests carry 4 of its 10 points; watch runs no hidden test */
    wait_for(&w, " (4 of 10 points visible; 6 in hidden tests, not run here)\n", STEP_SECONDS);
    wait_for(&w, "Lab 1: 2 of 4 visible tests fail; the first is scaled_worked_example",
             STEP_SECONDS);
    wait_for(&w, "It looks like: divided by d instead of sqrt(d).", STEP_SECONDS);
    /* the misconception by its sentence, never by its id */
    ck_assert_msg(strstr(w.seen.s, "misconception: divided by d instead of sqrt(d)") != NULL &&
                  strstr(w.seen.s, "misconception: inv_dk") == NULL, "%s", w.seen.s);

    char *tmp = gr_xasprintf("%s/lab01-scores/.lab01.c.new", sub);
    char *sol = read_text("solutions/lab01-scores/lab01.c");
    f = fopen(tmp, "w");
    ck_assert_ptr_nonnull(f);
    fputs(sol, f);
    fclose(f);
    ck_assert_int_eq(rename(tmp, file), 0);         /* saved by rename: IN_MOVED_TO */
    double right_s = wait_for(&w, "passed           scaled_small", STEP_SECONDS);
    wait_for(&w, "lab01-scores: 4.0/4.0 (4 of 10 points visible; 6 in hidden tests, not run "
             "here)\n", STEP_SECONDS);
    wait_for(&w, "Lab 1 passes its visible tests. Next: lab 2, lab02-softmax", STEP_SECONDS);
    ck_assert_int_eq(end_watch(&w, STEP_SECONDS), 0);
    fprintf(stderr, "watch: save to verdict on the pipe: %.2f s (wrong answer), %.2f s (passed)\n",
            wrong_s, right_s);

    char *path = gr_xasprintf("%s/attnlab/progress.tsv", state), *real = realpath(sub, NULL);
    char *text = read_text(path), *rec = gr_xasprintf("%s\t1\tpassed\t4\t4\t4\t4\t", real);
    ck_assert_msg(strstr(text, rec), "%s", text);
    ck_assert_msg(strstr(text, "\t3\n"), "three runs of lab 1 recorded: %s", text);

    free(text);
    free(rec);
    free(real);
    free(path);
    free(sol);
    free(tmp);
    free(wrong);
    free(swap);
    free(file);
    free(stub);
    free(sub);
    free(state);
    remove_tree(dir);
    free(dir);
    free(objs);
}
END_TEST

/* path's text replaced by text, written in place (an editor's save). */
static void save_as(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

/* watch shows what grade shows and goes on after a pass: a file that does not
   compile shows the compiler's own lines; the solution passes and watch says
   it keeps watching; a wrong answer saved after the pass is graded, every
   failing test's misconception named; Ctrl-C ends it. */
START_TEST(watch_shows_the_compiler_and_keeps_watching_after_a_pass)
{
    objs = fk_child_dir();
    char *sub, *state, *dir = learner_tree("watch", &sub, &state);
    char *sol = read_text("solutions/lab01-scores/lab01.c");
    char *broken = gr_xasprintf("%s\nint broken(void) { return 1 +; }\n", sol);
    put_lab(sub, 1, "solutions/lab01-scores/lab01.c");
    char *file = gr_xasprintf("%s/lab01-scores/lab01.c", sub);
    save_as(file, broken);
    watcher w;
    start_watch(&w, 4, (const char *[]){"--lab", "1", "--submission", sub});
    wait_for(&w, "compile error    dot_worked_example", STEP_SECONDS);
    wait_for(&w, "compiler output:", STEP_SECONDS);
    wait_for(&w, "error: expected expression before ';' token", STEP_SECONDS);
    save_as(file, sol);
    wait_for(&w, "passed           scaled_small", STEP_SECONDS);
    wait_for(&w, "Lab 1 passes its visible tests.", STEP_SECONDS);
    wait_for(&w, "Still watching lab 1: each save is graded again", STEP_SECONDS);
    char *wrong = inv_dk_solution();
    save_as(file, wrong);
    wait_for(&w, "] lab01.c saved: lab 1's visible tests", STEP_SECONDS);
    wait_for(&w, "wrong answer     scaled_worked_example", STEP_SECONDS);
    wait_for(&w, "misconception: divided by d instead of sqrt(d)", STEP_SECONDS);
    kill(w.pid, SIGINT);
    wait_for(&w, "attnlab watch: stopped.", STEP_SECONDS);
    ck_assert_int_eq(end_watch(&w, STEP_SECONDS), 128 + SIGINT);
    free(wrong);
    free(file);
    free(broken);
    free(sol);
    free(sub);
    free(state);
    remove_tree(dir);
    free(dir);
    free(objs);
}
END_TEST

/* No save, no pass: --timeout ends watch with status 1 and says why; without
   --lab it watches the first lab the progress has not seen pass. */
START_TEST(watch_times_out_without_a_pass)
{
    objs = fk_child_dir();
    char *sub, *state, *dir = learner_tree("watch", &sub, &state);
    char *stub = gr_layout_stub(".", 1);
    put_lab(sub, 1, stub);
    watcher w;
    start_watch(&w, 4, (const char *[]){"--submission", sub, "--timeout", "1"});
    wait_for(&w, "attnlab watch: lab 1,", STEP_SECONDS);
    wait_for(&w, "no pass within 1 s; stopping.", STEP_SECONDS);
    ck_assert_int_eq(end_watch(&w, STEP_SECONDS), 1);
    free(stub);
    free(sub);
    free(state);
    remove_tree(dir);
    free(dir);
    free(objs);
}
END_TEST

static int cmd_watch_run_here(FILE *out, FILE *err, int argc, char **argv)
{
    return cmd_watch_run(out, err, ".", objs, argc, argv);
}

START_TEST(watch_usage_errors)
{
    objs = fk_child_dir();
    char *beyond = gr_xasprintf("--lab takes one lab number from 1 to %d (got '99')", GR_N_LABS);
    const char *const cases[][3] = {
        {"--lab", "99", beyond},                                    /* 99: in no course */
        {"--lab", "x", "--lab takes one lab number"},
        {"--timeout", "0", "--timeout takes a number of seconds above 0 (got '0')"},
        {"--timeout", "soon", "--timeout takes a number of seconds"},
        {"--bogus", "1", "'--bogus'"},
    };
    for (int i = 0; i < (int)(sizeof cases / sizeof cases[0]); i++) {
        run_result r = CAPTURE(cmd_watch_run_here, "watch", cases[i][0], cases[i][1]);
        check_usage_error(&r, i, "attnlab watch: ", cases[i][2]);
        free_result(&r);
    }
    free(beyond);
    run_result r = CAPTURE(cmd_watch_run_here, "watch", "--help");
    ck_assert_int_eq(r.rc, 0);
    ck_assert_ptr_nonnull(strstr(r.out, "usage: attnlab watch [--lab N]"));
    free_result(&r);
    free(objs);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("watch");
    TCase *tc = tcase_create("watch");
    tcase_add_test(tc, watch_regrades_each_save_until_it_passes);
    tcase_add_test(tc, watch_shows_the_compiler_and_keeps_watching_after_a_pass);
    tcase_add_test(tc, watch_times_out_without_a_pass);
    tcase_add_test(tc, watch_usage_errors);
    tcase_set_timeout(tc, 120);
    suite_add_tcase(s, tc);
    return s;
}
