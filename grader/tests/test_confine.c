/* test_confine.c: the walls around the toolchain (confine.c), tried with real
 * programs the way a compromised compiler would try them.
 *
 * A "secret" file is made outside the tool's work folder, standing for the
 * grader's tree (answer key, solutions, other submissions). Every layer that
 * this machine offers is tried alone and all together: the tool must not read
 * the secret, list /proc, write outside its folder or leave the namespace, and
 * must still read the toolchain and write its own folder (so that a broken
 * wall fails these tests rather than passing them vacuously).
 */
#include <check.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "confined/confine.h"
#include "confined/tool.h"
#include "base/util.h"
#include "fixtures/fixture_kit.h"

Suite *test_suite(void);

#define SECRET "attnlab-confine-secret-7f3a"

static char *top, *work, *secret_path, *outside_path;

static void setup(void)
{
    top = fk_mkdtemp("confine-test");
    ck_assert_ptr_nonnull(top);
    chmod(top, 0711);
    work = gr_xasprintf("%s/work", top);
    secret_path = gr_xasprintf("%s/answer-key.c", top);
    outside_path = gr_xasprintf("%s/written-by-tool", top);
    ck_assert_int_eq(mkdir(work, 0700), 0);
    ck_assert_int_eq(gr_write_file_atomic(secret_path, SECRET "\n", strlen(SECRET) + 1), 0);
    chmod(secret_path, 0644);   /* readable by anyone: only the walls keep it out */
}

static void teardown(void)
{
    fk_rm_rf(top);
    free(top);
    free(work);
    free(secret_path);
    free(outside_path);
}

/* The layer sets tried: each alone, then all. */
static const gr_confine_layers layer_sets[] = {
    {1, 0, 0, 0},      /* identity */
    {0, 1, 0, 0},      /* namespace */
    {0, 0, 99, 0},     /* landlock */
    {1, 1, 99, 1},     /* everything */
};
static const char *const layer_names[] = {"identity", "namespace", "landlock", "all"};

/* Is layer set i available here (and meaningful alone)? */
static int available(int i)
{
    const gr_confine_layers *have = gr_confine_probe();
    switch (i) {
    case 0: return have->identity;
    case 1: return have->namespace;
    case 2: return have->landlock_abi > 0;
    default: return 1;
    }
}

/* Run argv confined with layer set i in the work folder; the tool's exit
   status (0 for success), its output in *log (caller frees). */
static int run(int i, const char *const argv[], char **log)
{
    char err[256];
    gr_confine *c = gr_confine_new(work, &layer_sets[i], err, sizeof err);
    ck_assert_msg(c != NULL, "%s: %s", layer_names[i], err);
    char *tmpdir = gr_xasprintf("TMPDIR=%s", work);
    char path[] = "PATH=/usr/bin:/bin", locale[] = "LC_ALL=C";
    char *const env[] = {path, locale, tmpdir, NULL};
    gr_tool_opts o = {.cwd = work, .env = env, .seconds = 20, .log_bytes = 1 << 16,
                      .path_search = 1, .confine = c};
    gr_tool_run tr;
    int rc = gr_tool_exec(argv, &o, &tr);
    ck_assert_msg(rc == 0, "%s: %s: %s", layer_names[i], tr.why, strerror(errno));
    gr_confine_free(c);
    free(tmpdir);
    *log = tr.log;
    return gr_tool_ok(&tr) ? 0 : 1;
}

START_TEST(toolchain_still_works)
{
    if (!available(_i))
        return;
    char *log;
    /* the compiler reads system headers and writes into its own folder */
    char *src = gr_xasprintf("%s/t.c", work);
    ck_assert_int_eq(gr_write_file_atomic(src, "#include <math.h>\nint f(void){return 1;}\n", 42), 0);
    chmod(src, 0644);
    chmod(work, 0777);
    const char *cc[] = {"cc", "-c", "t.c", "-o", "t.o", NULL};
    ck_assert_msg(run(_i, cc, &log) == 0, "%s: cc failed: %s", layer_names[_i], log);
    free(log);
    char *obj = gr_xasprintf("%s/t.o", work);
    ck_assert_msg(access(obj, F_OK) == 0, "%s: no object written", layer_names[_i]);
    free(obj);
    free(src);
}
END_TEST

START_TEST(cannot_read_outside)
{
    if (!available(_i) || _i == 0)
        return;          /* nobody alone may read a world-readable file: that is its limit */
    char *log;
    const char *cat[] = {"cat", secret_path, NULL};
    ck_assert_msg(run(_i, cat, &log) != 0, "%s: read the secret", layer_names[_i]);
    ck_assert_msg(!strstr(log, SECRET), "%s: secret leaked: %s", layer_names[_i], log);
    free(log);
    /* nor through the compiler, by absolute path */
    char *src = gr_xasprintf("%s/inc.c", work);
    char *text = gr_xasprintf("#include \"%s\"\n", secret_path);
    ck_assert_int_eq(gr_write_file_atomic(src, text, strlen(text)), 0);
    chmod(src, 0644);
    const char *cc[] = {"cc", "-E", "inc.c", NULL};
    ck_assert_msg(run(_i, cc, &log) != 0, "%s: preprocessed the secret", layer_names[_i]);
    ck_assert_msg(!strstr(log, SECRET), "%s: secret leaked: %s", layer_names[_i], log);
    free(log);
    free(text);
    free(src);
}
END_TEST

START_TEST(cannot_see_processes)
{
    if (!available(_i) || _i == 0)
        return;
    char *log;
    const char *cat[] = {"cat", "/proc/1/cmdline", NULL};
    ck_assert_msg(run(_i, cat, &log) != 0, "%s: read /proc/1/cmdline: %s", layer_names[_i], log);
    free(log);
    const char *ls[] = {"ls", "/proc/self/", NULL};
    ck_assert_msg(run(_i, ls, &log) != 0, "%s: listed /proc/self: %s", layer_names[_i], log);
    free(log);
}
END_TEST

START_TEST(cannot_write_outside)
{
    if (!available(_i) || _i == 0)
        return;          /* nobody alone may write where anyone may */
    char *log;
    chmod(top, 0777);          /* even where the folder would let anyone write */
    char *cmd = gr_xasprintf("echo x > %s", outside_path);
    const char *sh[] = {"sh", "-c", cmd, NULL};
    run(_i, sh, &log);
    free(log);
    chmod(top, 0711);
    ck_assert_msg(access(outside_path, F_OK) != 0, "%s: wrote outside its folder", layer_names[_i]);
    free(cmd);
}
END_TEST

START_TEST(runs_as_nobody_when_root)
{
    char *log;
    const char *id[] = {"id", "-u", NULL};
    ck_assert_int_eq(run(3, id, &log), 0);
    if (geteuid() == 0 && gr_confine_probe()->identity)
        ck_assert_str_eq(log, "65534\n");
    else
        ck_assert_str_ne(log, "0\n");
    free(log);
}
END_TEST

START_TEST(cannot_make_namespaces_or_trace)
{
    if (!gr_confine_probe()->seccomp)
        return;
    char *log;
    const char *un[] = {"unshare", "-r", "true", NULL};
    ck_assert_msg(run(3, un, &log) != 0, "unshare ran: %s", log);
    free(log);
}
END_TEST

/* A compile killed at its time limit: the driver's own children (cc1, as,
   ld; here eight sleeps that ignore SIGTERM, started by a shell that prints
   its process group) are killed and reaped with it, so none of the group is
   left, running or exiting, when gr_tool_exec returns (with the driver alone
   reaped, they were handed to init, and where init does not reap, stayed). */
START_TEST(timed_out_tool_leaves_no_process_of_its_group)
{
    const char *argv[] = {"/bin/sh", "-c",
                          "echo $$; for i in 1 2 3 4 5 6 7 8; do (trap '' TERM; exec sleep 30) & done; sleep 30",
                          NULL};
    gr_tool_opts o = {.cwd = work, .seconds = 1, .log_bytes = 4096};
    gr_tool_run tr;
    ck_assert_int_eq(gr_tool_exec(argv, &o, &tr), 0);
    ck_assert_int_eq(tr.timed_out, 1);
    int pgid = atoi(tr.log);
    ck_assert_int_gt(pgid, 1);
    errno = 0;
    ck_assert_msg(kill(-pgid, 0) == -1 && errno == ESRCH, "process group %d still has processes", pgid);
    free(tr.log);
}
END_TEST

START_TEST(layers_are_described)
{
    gr_strbuf b = {0};
    gr_confine_layers all = {1, 1, 7, 1}, none = {0, 0, 0, 0};
    gr_confine_describe(&all, &b);
    ck_assert_str_eq(b.s, "user nobody, mount+network namespace, Landlock ABI 7, seccomp, rlimits");
    free(b.s);
    memset(&b, 0, sizeof b);
    gr_confine_describe(&none, &b);
    ck_assert_str_eq(b.s, "rlimits");
    free(b.s);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("confine");
    TCase *tc = tcase_create("walls");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    int n = (int)(sizeof layer_sets / sizeof layer_sets[0]);
    tcase_add_loop_test(tc, toolchain_still_works, 0, n);
    tcase_add_loop_test(tc, cannot_read_outside, 0, n);
    tcase_add_loop_test(tc, cannot_see_processes, 0, n);
    tcase_add_loop_test(tc, cannot_write_outside, 0, n);
    tcase_add_test(tc, runs_as_nobody_when_root);
    tcase_add_test(tc, cannot_make_namespaces_or_trace);
    tcase_add_test(tc, layers_are_described);
    tcase_add_test(tc, timed_out_tool_leaves_no_process_of_its_group);
    suite_add_tcase(s, tc);
    return s;
}
