/* test_sandbox.c: the sandbox (sandbox.c) and the test child
 * (child/child_main.c), end to end, with real test programs.
 *
 * The programs are the fake lab 99 (fixtures/lab99.h): the real test child and the
 * fixture's dispatch linked with one "student" file each, built at test time
 * without the build's rule checks, so that the sandbox alone must stop what
 * they try: loop forever, crash, write past a buffer, allocate or recurse too
 * much, print 10 MB, open files, open sockets, fork, exec a shell, signal pid 1,
 * do any of it in a constructor before main, or print a fake score.
 *
 * These tests run as root in CI and as a normal user on a student machine;
 * both must pass (the uid test checks whichever applies).
 */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <seccomp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/protocol.h"
#include "confined/sandbox.h"
#include "base/util.h"
#include "fixtures/fixture_kit.h"

Suite *test_suite(void);

/* ---- the programs, built once per test run ------------------------------------------ */

static const char *const programs[] = {
    "good", "loop", "segv", "past_end", "oom", "oom_checked", "stack_array", "recurse",
    "print", "fakescore", "fopen", "open", "socket", "fork", "exec", "kill", "ctor", "uid",
    "limits", "fds", "flood", "stop", "uncounted", "leak", NULL
};

static char *kit_dir;
static int kit_ok;
static char kit_error[512];

/* Unchecked fixture: runs in Check's parent process, so the programs are
   built once and every forked test sees them. */
static void kit_setup(void)
{
    if (kit_dir)
        return;
    if ((kit_dir = fk_suite_dir("sandbox-test")) == NULL) {
        snprintf(kit_error, sizeof kit_error, "cannot make a temporary directory");
        return;
    }
    if (fk_make_child(kit_dir) != 0) {
        snprintf(kit_error, sizeof kit_error, "cannot compile the test child; see %s/kit.log", kit_dir);
        return;
    }
    for (int i = 0; programs[i]; i++) {
        char *exe = fk_link(kit_dir, kit_dir, programs[i], 1);
        if (!exe) {
            snprintf(kit_error, sizeof kit_error, "cannot build fixture %s; see %s/kit.log",
                     programs[i], kit_dir);
            return;
        }
        free(exe);
    }
    char *exe = fk_link(kit_dir, kit_dir, "no_read", 0);
    if (!exe) {
        snprintf(kit_error, sizeof kit_error, "cannot build fixture no_read; see %s/kit.log", kit_dir);
        return;
    }
    free(exe);
    kit_ok = 1;
}

static char *program(const char *name)
{
    ck_assert_msg(kit_ok, "test programs missing: %s", kit_error);
    return gr_xasprintf("%s/%s", kit_dir, name);
}

static const gr_limits default_limits = {.time_ms = 2000, .memory_bytes = 64L << 20, .output_bytes = 64L << 10};

/* Run name on request bytes; the sandbox itself must succeed. */
static gr_sandbox_result run_bytes(const char *name, const unsigned char *req, size_t len, gr_limits lim)
{
    char *exe = program(name);
    gr_sandbox_result r;
    char err[512] = "";
    int rc = gr_sandbox_run(exe, req, len, &lim, &r, err, sizeof err);
    ck_assert_msg(rc == 0, "sandbox failed for %s: %s", name, err);
    ck_assert_ptr_nonnull(r.output);
    free(exe);
    return r;
}

static gr_sandbox_result run_call(const char *name, const proto_call *c, gr_limits lim)
{
    unsigned char *req;
    size_t len;
    ck_assert_int_eq(proto_encode_request(c, &req, &len), 0);
    gr_sandbox_result r = run_bytes(name, req, len, lim);
    free(req);
    return r;
}

/* A clean exit with a response that parses for c. */
static int32_t answer(const gr_sandbox_result *r, const proto_call *c, proto_buf out[PROTO_MAX_BUFS])
{
    ck_assert_msg(r->exited && r->exit_code == 0,
                  "expected a clean exit; exited %d code %d signal %d timed out %d", r->exited,
                  r->exit_code, r->term_signal, r->timed_out);
    int32_t st;
    char err[256] = "";
    ck_assert_msg(proto_decode_response(r->response, r->response_len, c, &st, out, err, sizeof err) == 0,
                  "response: %s", err);
    return st;
}

static const float A4[4] = {1, 2, 3, 4}, B4[4] = {10, 20, 30, 40};

static void expect_signal(const char *name, int sig)
{
    proto_call c = fk_add_call(A4, B4, 4);
    gr_sandbox_result r = run_call(name, &c, default_limits);
    ck_assert_msg(!r.exited && r.term_signal == sig,
                  "%s: expected signal %d (%s); exited %d code %d signal %d", name, sig,
                  strsignal(sig), r.exited, r.exit_code, r.term_signal);
    ck_assert_int_eq(r.timed_out, 0);
    ck_assert_int_eq(r.output_limit, 0);
    gr_sandbox_result_free(&r);
}

static void expect_exit(const char *name, int code)
{
    proto_call c = fk_add_call(A4, B4, 4);
    gr_sandbox_result r = run_call(name, &c, default_limits);
    ck_assert_msg(r.exited && r.exit_code == code, "%s: expected exit %d; exited %d code %d signal %d",
                  name, code, r.exited, r.exit_code, r.term_signal);
    gr_sandbox_result_free(&r);
}

/* ---- answers ------------------------------------------------------------------------------ */

START_TEST(correct_answer)
{
    proto_call c = fk_add_call(A4, B4, 4);
    gr_sandbox_result r = run_call("good", &c, default_limits);
    proto_buf out[PROTO_MAX_BUFS];
    ck_assert_int_eq(answer(&r, &c, out), 0);      /* LAB_OK */
    const float *o = out[0].data;
    /* 1+10, 2+20, 3+30, 4+40: exact in float */
    ck_assert(o[0] == 11.0f && o[1] == 22.0f && o[2] == 33.0f && o[3] == 44.0f);
    /* "lab_add: n = 4, sqrt(2) = 1.4142\n": 8 + 7 + 17 + 1 = 33 bytes */
    ck_assert_str_eq(r.output, "lab_add: n = 4, sqrt(2) = 1.4142\n");
    ck_assert_uint_eq(r.output_len, 33);
    ck_assert_int_eq(r.timed_out, 0);
    ck_assert(r.seconds > 0.0);
    /* it stopped after answering and its memory was read: nothing left behind */
    ck_assert_int_eq(r.inspected, 1);
    ck_assert_uint_eq(r.memory.leak_blocks, 0);
    ck_assert_int_eq(r.memory.below, 0);
    proto_free_outputs(out, c.n_bufs);
    gr_sandbox_result_free(&r);
}
END_TEST

/* INOUT, I32 and U8 buffers and a real argument, through the whole path:
   x = [1, 2, 3, 4], idx = [10, 20, 30, 40], mask = [1, 0, 1, 0], s = 2
   -> x = [1*2+10, 2, 3*2+30, 4] = [12, 2, 36, 4]. */
START_TEST(inout_int_and_byte_buffers)
{
    float x[4] = {1, 2, 3, 4};
    int32_t idx[4] = {10, 20, 30, 40};
    uint8_t mask[4] = {1, 0, 1, 0};
    proto_call c;
    memset(&c, 0, sizeof c);
    c.fn = FIX_SCALE;
    c.n_ints = 1;
    c.ints[0] = 4;
    c.n_reals = 1;
    c.reals[0] = 2.0;
    c.n_bufs = 3;
    c.bufs[0] = (proto_buf){PROTO_F32, PROTO_INOUT, 4, x};
    c.bufs[1] = (proto_buf){PROTO_I32, PROTO_IN, 4, idx};
    c.bufs[2] = (proto_buf){PROTO_U8, PROTO_IN, 4, mask};
    gr_sandbox_result r = run_call("good", &c, default_limits);
    proto_buf out[PROTO_MAX_BUFS];
    ck_assert_int_eq(answer(&r, &c, out), 0);
    const float *o = out[0].data;
    ck_assert(o[0] == 12.0f && o[1] == 2.0f && o[2] == 36.0f && o[3] == 4.0f);
    proto_free_outputs(out, c.n_bufs);
    gr_sandbox_result_free(&r);

    /* a contract-breaking argument: the status comes back, not a crash */
    c.reals[0] = HUGE_VAL;                  /* +inf */
    r = run_call("good", &c, default_limits);
    ck_assert_int_eq(answer(&r, &c, out), -2);     /* LAB_BAD_ARG */
    proto_free_outputs(out, c.n_bufs);
    gr_sandbox_result_free(&r);
}
END_TEST

/* lab_touch writes only the first k = 2 of n = 5 elements: the rest of an OUT
   f32 buffer comes back as filled (-1e30, 1e30, NaN: protocol.h) and the rest
   of an OUT u8 buffer 0x5A. */
START_TEST(unwritten_outputs_show)
{
    proto_call c;
    memset(&c, 0, sizeof c);
    c.fn = FIX_TOUCH;
    c.n_ints = 2;
    c.ints[0] = 5;
    c.ints[1] = 2;
    c.n_bufs = 2;
    c.bufs[0] = (proto_buf){PROTO_U8, PROTO_OUT, 5, NULL};
    c.bufs[1] = (proto_buf){PROTO_F32, PROTO_OUT, 5, NULL};
    gr_sandbox_result r = run_call("good", &c, default_limits);
    proto_buf out[PROTO_MAX_BUFS];
    ck_assert_int_eq(answer(&r, &c, out), 0);
    const uint8_t *u = out[0].data;
    const float *f = out[1].data;
    ck_assert(u[0] == 0 && u[1] == 1 && u[2] == 0x5A && u[3] == 0x5A && u[4] == 0x5A);
    ck_assert(f[0] == 0.0f && f[1] == 1.0f && f[2] == -1e30f && f[3] == 1e30f && isnan(f[4]));
    proto_free_outputs(out, c.n_bufs);
    gr_sandbox_result_free(&r);
}
END_TEST

/* 4 Mi floats in each of a and b (32 MiB of request) and 16 MiB back: the
   parent must write and read at once without either side blocking. */
START_TEST(megabytes_each_way)
{
    const int n = 4 * 1024 * 1024;
    float *a = gr_xmalloc((size_t)n * sizeof *a), *b = gr_xmalloc((size_t)n * sizeof *b);
    for (int i = 0; i < n; i++) {
        a[i] = (float)(i % 1000);
        b[i] = 0.5f;
    }
    proto_call c = fk_add_call(a, b, n);
    gr_limits lim = {.time_ms = 20000, .memory_bytes = 64L << 20, .output_bytes = 64L << 10};
    gr_sandbox_result r = run_call("good", &c, lim);
    proto_buf out[PROTO_MAX_BUFS];
    ck_assert_int_eq(answer(&r, &c, out), 0);
    const float *o = out[0].data;
    ck_assert(o[0] == 0.5f && o[999] == 999.5f && o[1000] == 0.5f && o[n - 1] == (float)((n - 1) % 1000) + 0.5f);
    proto_free_outputs(out, c.n_bufs);
    gr_sandbox_result_free(&r);
    free(a);
    free(b);
}
END_TEST

/* ---- what the sandbox stops ------------------------------------------------------------ */

/* A process that stops every child of parent but itself, once each, after
   delay_ms: what a child stopping itself would do where no seccomp filter
   refuses the signal. Its pid; the caller kills it. */
static pid_t start_stopper(pid_t parent, int delay_ms)
{
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid != 0)
        return pid;
    usleep((useconds_t)delay_ms * 1000);
    for (;;) {
        DIR *d = opendir("/proc");
        for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
            char path[300];
            snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
            char *stat = e->d_name[0] >= '1' && e->d_name[0] <= '9' ? gr_read_file(path, NULL) : NULL;
            const char *rp = stat ? strrchr(stat, ')') : NULL;
            char state;
            int ppid;
            if (rp && sscanf(rp + 1, " %c %d", &state, &ppid) == 2 && ppid == parent &&
                atoi(e->d_name) != getpid() && state != 'T')
                kill(atoi(e->d_name), SIGSTOP);
            free(stat);
        }
        if (d)
            closedir(d);
        usleep(20000);
    }
}

/* Run name with a 5 s budget; it must be found stopped before answering,
   killed at once and timed out, not waited for (wall limit 11 s). */
static void expect_stopped_at_once(const char *name, pid_t stopper)
{
    proto_call c = fk_add_call(A4, B4, 4);
    gr_limits lim = {.time_ms = 5000, .memory_bytes = 64L << 20, .output_bytes = 64L << 10};
    gr_sandbox_result r = run_call(name, &c, lim);
    if (stopper > 0) {
        kill(stopper, SIGKILL);
        waitpid(stopper, NULL, 0);
    }
    ck_assert_int_eq(r.stopped, 1);
    ck_assert_int_eq(r.timed_out, 1);
    ck_assert_int_eq(r.exited, 0);
    ck_assert_int_eq(r.inspected, 0);
    ck_assert_msg(r.seconds < 5.0, "a stopped child was waited for %.2f s", r.seconds);
    gr_sandbox_result_free(&r);
}

/* A child that stopped (here stopped from outside, as a stop signal the filter
   did not refuse would) is killed at once and timed out, not waited for. */
START_TEST(stopped_child_is_timed_out_at_once)
{
    expect_stopped_at_once("loop", start_stopper(getpid(), 300));
}
END_TEST

/* A child that stops itself before answering (SIGSTOP is allowed: the test
   child stops after its answer, to be inspected) is treated the same. */
START_TEST(stop_before_answering_is_timed_out_at_once)
{
    expect_stopped_at_once("stop", 0);
}
END_TEST

START_TEST(infinite_loop_is_killed)
{
    proto_call c = fk_add_call(A4, B4, 4);
    gr_limits lim = {.time_ms = 300, .memory_bytes = 64L << 20, .output_bytes = 64L << 10};
    gr_sandbox_result r = run_call("loop", &c, lim);
    ck_assert_int_eq(r.timed_out, 1);
    ck_assert_int_eq(r.exited, 0);
    /* the budget is CPU time: SIGXCPU at the limit rounded up to a second (or
       the wall-clock backstop's SIGKILL on a machine too busy to run it) */
    ck_assert_msg(r.term_signal == SIGXCPU || r.term_signal == SIGKILL, "signal %d", r.term_signal);
    ck_assert_msg(r.term_signal == SIGKILL || r.cpu_seconds >= 0.3, "cpu %.3f s", r.cpu_seconds);
    ck_assert_uint_eq(r.response_len, 0);
    gr_sandbox_result_free(&r);
}
END_TEST

START_TEST(crash_is_a_signal) { expect_signal("segv", SIGSEGV); }
END_TEST

START_TEST(write_past_the_end_hits_the_guard_page) { expect_signal("past_end", SIGSEGV); }
END_TEST

START_TEST(malloc_over_the_limit_unchecked) { expect_exit("oom", PROTO_EXIT_OUT_OF_MEMORY); }
END_TEST

START_TEST(malloc_over_the_limit_checked) { expect_exit("oom_checked", PROTO_EXIT_OUT_OF_MEMORY); }
END_TEST

/* Scratch memory still allocated when the call returns, as the parent reads
   it from the stopped child's mappings: the live blocks' requested bytes
   (10 + 20 + 30) and count; the freed block and the realloc'd one's old size
   do not count. ("good" mallocs, frees and prints, and answers: correct_answer,
   with no leak.) */
START_TEST(scratch_memory_left_allocated_is_a_leak)
{
    proto_call c = fk_add_call(A4, B4, 4);
    gr_sandbox_result r = run_call("leak", &c, default_limits);
    proto_buf out[PROTO_MAX_BUFS];
    ck_assert_int_eq(answer(&r, &c, out), 0);
    ck_assert_int_eq(r.inspected, 1);
    ck_assert_uint_eq(r.memory.leak_bytes, 60);
    ck_assert_uint_eq(r.memory.leak_blocks, 3);
    ck_assert_int_eq(r.memory.below, 0);
    ck_assert_str_eq(r.output, "lab_add: done\n");
    proto_free_outputs(out, c.n_bufs);
    gr_sandbox_result_free(&r);
}
END_TEST

/* Where the kernel lets the grader read the child's mappings but not its
   memory (Yama's ptrace_scope 2 or 3 for a grader that is not root; here a
   filter on this test's own process answers process_vm_readv with EPERM), the
   leaks are still judged from the mappings and the slack is left unread. */
START_TEST(leaks_judged_where_memory_cannot_be_read)
{
    const char *fork_mode = getenv("CK_FORK");
    if (fork_mode && strcmp(fork_mode, "no") == 0)
        return;                          /* the filter would outlive this test */
    scmp_filter_ctx f = seccomp_init(SCMP_ACT_ALLOW);
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(seccomp_rule_add(f, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(process_vm_readv), 0), 0);
    ck_assert_int_eq(seccomp_load(f), 0);
    seccomp_release(f);
    proto_call c = fk_add_call(A4, B4, 4);
    gr_sandbox_result r = run_call("leak", &c, default_limits);
    ck_assert_int_eq(r.inspected, 1);
    ck_assert_int_eq(r.memory.slack_unread, EPERM);
    ck_assert_uint_eq(r.memory.leak_bytes, 60);
    ck_assert_uint_eq(r.memory.leak_blocks, 3);
    gr_sandbox_result_free(&r);
}
END_TEST

/* When Yama keeps the grader from the children's memory (doctor says so):
   scope 2 unless root (CAP_SYS_PTRACE), scope 3 always; 0 and 1 (the
   parent is the child's parent) and no Yama at all never. */
START_TEST(yama_scope_that_blocks_reading)
{
    ck_assert_int_eq(gr_inspect_yama_blocks(NULL, 1000), 0);
    ck_assert_int_eq(gr_inspect_yama_blocks("0\n", 1000), 0);
    ck_assert_int_eq(gr_inspect_yama_blocks("1\n", 1000), 0);
    ck_assert_int_eq(gr_inspect_yama_blocks("2\n", 1000), 2);
    ck_assert_int_eq(gr_inspect_yama_blocks("2\n", 0), 0);
    ck_assert_int_eq(gr_inspect_yama_blocks("3\n", 0), 3);
}
END_TEST

/* 64 MiB on an 8 MiB stack, and endless recursion: the child names it a stack
   overflow; a SIGSEGV is acceptable where it cannot tell. */
static void expect_stack_overflow(const char *name)
{
    proto_call c = fk_add_call(A4, B4, 4);
    gr_sandbox_result r = run_call(name, &c, default_limits);
    ck_assert_msg((r.exited && r.exit_code == PROTO_EXIT_STACK_OVERFLOW) ||
                  (!r.exited && r.term_signal == SIGSEGV),
                  "%s: exited %d code %d signal %d", name, r.exited, r.exit_code, r.term_signal);
    ck_assert_int_eq(r.timed_out, 0);
    gr_sandbox_result_free(&r);
}

START_TEST(huge_stack_array) { expect_stack_overflow("stack_array"); }
END_TEST

START_TEST(endless_recursion) { expect_stack_overflow("recurse"); }
END_TEST

START_TEST(ten_megabytes_of_output)
{
    proto_call c = fk_add_call(A4, B4, 4);
    gr_sandbox_result r = run_call("print", &c, default_limits);     /* output limit 64 KiB */
    ck_assert_int_eq(r.output_limit, 1);
    ck_assert_int_eq(r.term_signal, SIGKILL);
    ck_assert_uint_gt(r.output_len, 64 << 10);
    ck_assert_uint_le(strlen(r.output), 4096);
    ck_assert(strncmp(r.output, "0000000000000000000000000000000000000000000000000\n", 50) == 0);
    gr_sandbox_result_free(&r);
}
END_TEST

/* Each of these makes a system call outside the allow-list: the kernel kills
   the process with SIGSYS on the spot. ctor.c does it in a constructor,
   before main, which the filter covers because it is installed before exec. */
static const char *const forbidden[] = {"fopen", "open", "socket", "fork", "exec", "kill", "ctor"};

START_TEST(forbidden_system_call_is_fatal)
{
    expect_signal(forbidden[_i], SIGSYS);
}
END_TEST

/* Memory the child's count never saw (code that forged it) is still refused:
   RLIMIT_DATA holds at the heap limit, 1 MiB here, plus the C library's room. */
START_TEST(memory_past_the_count_is_refused_by_the_kernel)
{
    proto_call c = fk_add_call(A4, B4, 4);
    gr_limits lim = {.time_ms = 2000, .memory_bytes = 1L << 20, .output_bytes = 64L << 10};
    gr_sandbox_result r = run_call("uncounted", &c, lim);
    proto_buf out[PROTO_MAX_BUFS];
    ck_assert_int_eq(answer(&r, &c, out), 0);
    ck_assert_msg(((const float *)out[0].data)[0] == 0.0f, "32 MiB were granted under a 1 MiB limit");
    ck_assert_msg(r.peak_bytes < ((size_t)16 << 20), "peak %zu bytes", r.peak_bytes);
    proto_free_outputs(out, c.n_bufs);
    gr_sandbox_result_free(&r);
}
END_TEST

/* Static data over the limit (measured by the build) is out of memory, not run. */
START_TEST(static_data_over_the_limit_is_not_run)
{
    proto_call c = fk_add_call(A4, B4, 4);
    gr_limits lim = {.time_ms = 2000, .memory_bytes = 1L << 20, .output_bytes = 64L << 10,
                     .static_bytes = 2L << 20};
    gr_sandbox_result r = run_call("good", &c, lim);
    ck_assert_int_eq(r.out_of_memory, 1);
    ck_assert_int_eq(r.exited, 0);
    ck_assert_uint_eq(r.response_len, 0);
    gr_sandbox_result_free(&r);
}
END_TEST

START_TEST(fake_score_stays_in_the_excerpt)
{
    proto_call c = fk_add_call(A4, B4, 4);
    gr_sandbox_result r = run_call("fakescore", &c, default_limits);
    proto_buf out[PROTO_MAX_BUFS];
    ck_assert_int_eq(answer(&r, &c, out), 0);
    const float *o = out[0].data;
    ck_assert(o[0] == 11.0f && o[3] == 44.0f);    /* the answer is what counts */
    ck_assert_ptr_nonnull(strstr(r.output, "Score: 100"));
    ck_assert_ptr_null(memmem(r.response, r.response_len, "Score", 5));
    proto_free_outputs(out, c.n_bufs);
    gr_sandbox_result_free(&r);
}
END_TEST

/* Endless bytes on the response descriptor: the parent keeps no more than a
   correct answer's size plus one byte, stops the child, and the result does
   not parse. */
START_TEST(response_flood_is_cut_off)
{
    proto_call c = fk_add_call(A4, B4, 4);
    gr_sandbox_result r = run_call("flood", &c, default_limits);
    ck_assert_int_eq(r.timed_out, 0);
    ck_assert_int_eq(r.term_signal, SIGKILL);
    /* a correct answer: 12 header + 8 count + 4*4 floats + 4 end = 40 bytes */
    ck_assert_uint_eq(r.response_len, 41);
    proto_buf out[PROTO_MAX_BUFS];
    int32_t st;
    ck_assert_int_eq(proto_decode_response(r.response, r.response_len, &c, &st, out, NULL, 0), -1);
    gr_sandbox_result_free(&r);
}
END_TEST

START_TEST(runs_unprivileged)
{
    proto_call c = fk_add_call(A4, B4, 4);
    gr_sandbox_result r = run_call("uid", &c, default_limits);
    proto_buf out[PROTO_MAX_BUFS];
    ck_assert_int_eq(answer(&r, &c, out), 0);
    const float *o = out[0].data;
    if (geteuid() == 0) {
        ck_assert_msg(o[0] == 65534.0f && o[1] == 65534.0f, "uid %g gid %g, want nobody (65534)",
                      (double)o[0], (double)o[1]);
    } else {
        ck_assert(o[0] == (float)getuid());
    }
    ck_assert(o[0] != 0.0f);
    proto_free_outputs(out, c.n_bufs);
    gr_sandbox_result_free(&r);
}
END_TEST

/* out = [file size, open files, processes, core size, stack MiB] */
START_TEST(resource_limits_are_set)
{
    static const float zeros[5] = {0};
    proto_call c = fk_add_call(zeros, zeros, 5);
    gr_sandbox_result r = run_call("limits", &c, default_limits);
    proto_buf out[PROTO_MAX_BUFS];
    ck_assert_int_eq(answer(&r, &c, out), 0);
    const float *o = out[0].data;
    ck_assert_msg(o[0] == 0.0f && o[1] == 8.0f && o[2] == 0.0f && o[3] == 0.0f && o[4] == 8.0f,
                  "limits %g %g %g %g %g", (double)o[0], (double)o[1], (double)o[2], (double)o[3],
                  (double)o[4]);
    proto_free_outputs(out, c.n_bufs);
    gr_sandbox_result_free(&r);
}
END_TEST

/* stdin reads as empty (/dev/null); the sandbox's own error pipe (fd 5) is
   closed by the time student code runs. */
START_TEST(descriptors_are_only_the_protocol_ones)
{
    static const float zeros[2] = {0};
    proto_call c = fk_add_call(zeros, zeros, 2);
    gr_sandbox_result r = run_call("fds", &c, default_limits);
    proto_buf out[PROTO_MAX_BUFS];
    ck_assert_int_eq(answer(&r, &c, out), 0);
    const float *o = out[0].data;
    ck_assert_msg(o[0] == 0.0f && o[1] == -1.0f, "read(0) %g, write(5) %g", (double)o[0], (double)o[1]);
    proto_free_outputs(out, c.n_bufs);
    gr_sandbox_result_free(&r);
}
END_TEST

/* A child that never reads its 8 MiB request: the parent must not block on
   the pipe, and the time limit still applies. */
START_TEST(child_that_never_reads)
{
    size_t len = 8u << 20;
    unsigned char *req = gr_xcalloc(len, 1);
    gr_limits lim = {.time_ms = 300, .memory_bytes = 64L << 20, .output_bytes = 64L << 10};
    gr_sandbox_result r = run_bytes("no_read", req, len, lim);
    ck_assert_int_eq(r.timed_out, 1);
    ck_assert_msg(r.term_signal == SIGXCPU || r.term_signal == SIGKILL, "signal %d", r.term_signal);
    gr_sandbox_result_free(&r);
    free(req);
}
END_TEST

/* The run's working directory is made under $TMPDIR and removed afterwards. */
START_TEST(working_directory_is_removed)
{
    char *tmp = fk_mkdtemp("sandbox-tmpdir");
    ck_assert_ptr_nonnull(tmp);
    const char *was = getenv("TMPDIR");
    char *old = was ? gr_xstrdup(was) : NULL;
    setenv("TMPDIR", tmp, 1);
    proto_call c = fk_add_call(A4, B4, 4);
    for (int k = 0; k < 2; k++) {
        gr_sandbox_result r = run_call(k == 0 ? "good" : "segv", &c, default_limits);
        gr_sandbox_result_free(&r);
    }
    DIR *d = opendir(tmp);
    ck_assert_ptr_nonnull(d);
    int entries = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        entries += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    if (old)                             /* as it was, also when Check does not fork */
        setenv("TMPDIR", old, 1);
    else
        unsetenv("TMPDIR");
    free(old);
    rmdir(tmp);
    ck_assert_int_eq(entries, 0);
    free(tmp);
}
END_TEST

/* ---- strict requests on the child's side ------------------------------------------------ */

/* The good program's request for lab_add(n = 4), damaged in one way per loop
   index; the child must refuse each with PROTO_EXIT_BAD_REQUEST. Layout:
   0 magic | 4 fn | 8 n_ints | 12 ints[0] | 20 n_reals | 24 n_bufs | 28 buf 0 ... */
START_TEST(child_refuses_a_bad_request)
{
    proto_call c = fk_add_call(A4, B4, 4);
    unsigned char *req;
    size_t len;
    ck_assert_int_eq(proto_encode_request(&c, &req, &len), 0);
    unsigned char *bad = gr_xmalloc(len + 1);
    memcpy(bad, req, len);
    size_t blen = len;
    uint32_t v;
    uint64_t big = (uint64_t)PROTO_MAX_ELEMS + 1;
    switch (_i) {
    case 0: bad[0] ^= 0xff; break;                               /* bad magic */
    case 1: blen = 0; break;                                     /* empty */
    case 2: blen = 10; break;                                    /* cut in the header */
    case 3: blen = len - 1; break;                               /* cut in the end magic */
    case 4: blen = len - 4; break;                               /* no end magic */
    case 5: bad[len] = 0; blen = len + 1; break;                 /* one trailing byte */
    case 6: v = PROTO_MAX_INTS + 1; memcpy(bad + 8, &v, 4); break;   /* too many ints */
    case 7: v = 9; memcpy(bad + 28, &v, 4); break;               /* unknown kind */
    case 8: memcpy(bad + 36, &big, 8); break;                    /* absurd element count */
    case 9: v = PROTO_MAX_BUFS + 1; memcpy(bad + 24, &v, 4); break;  /* too many buffers */
    case 10: bad[len - 1] ^= 0x01; break;                        /* bad end magic */
    }
    gr_sandbox_result r = run_bytes("good", bad, blen, default_limits);
    ck_assert_msg(r.exited && r.exit_code == PROTO_EXIT_BAD_REQUEST, "case %d: exited %d code %d signal %d",
                  _i, r.exited, r.exit_code, r.term_signal);
    ck_assert_uint_eq(r.response_len, 0);
    gr_sandbox_result_free(&r);
    free(bad);
    free(req);
}
END_TEST

START_TEST(child_refuses_an_unknown_call)
{
    proto_call c = fk_add_call(A4, B4, 4);
    c.fn = 99;                               /* not a call of lab 99 */
    gr_sandbox_result r = run_call("good", &c, default_limits);
    ck_assert_msg(r.exited && r.exit_code == PROTO_EXIT_NO_SUCH_CALL, "code %d", r.exit_code);
    gr_sandbox_result_free(&r);

    c.fn = FIX_ADD;
    c.n_ints = 2;                            /* the right call, the wrong shape */
    r = run_call("good", &c, default_limits);
    ck_assert_msg(r.exited && r.exit_code == PROTO_EXIT_NO_SUCH_CALL, "code %d", r.exit_code);
    gr_sandbox_result_free(&r);
}
END_TEST

/* ---- the sandbox's own errors ------------------------------------------------------------- */

START_TEST(missing_program_is_a_sandbox_error)
{
    proto_call c = fk_add_call(A4, B4, 4);
    unsigned char *req;
    size_t len;
    ck_assert_int_eq(proto_encode_request(&c, &req, &len), 0);
    gr_sandbox_result r;
    char err[512] = "";
    ck_assert_int_eq(gr_sandbox_run("/nonexistent/attnlab-test", req, len, &default_limits, &r, err,
                                    sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "/nonexistent/attnlab-test"));
    ck_assert_ptr_null(r.output);
    ck_assert_ptr_null(r.response);

    gr_limits bad = {.time_ms = 0, .memory_bytes = 64L << 20, .output_bytes = 1024};
    ck_assert_int_eq(gr_sandbox_run("/bin/true", req, len, &bad, &r, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "limits must be positive"));
    free(req);
}
END_TEST

/* A failure inside the child before exec is the sandbox's error, reported
   with the step that failed, never a result of the student's. */
START_TEST(exec_failure_is_a_sandbox_error)
{
    char *good = program("good");
    char *dir = fk_mkdtemp("sandbox-noexec");
    ck_assert_ptr_nonnull(dir);
    char *copy = gr_xasprintf("%s/not-executable", dir);
    size_t n;
    char *bytes = gr_read_file(good, &n);
    ck_assert_ptr_nonnull(bytes);
    ck_assert_int_eq(gr_write_file_atomic(copy, bytes, n), 0);   /* mode 0644: no x bit */
    proto_call c = fk_add_call(A4, B4, 4);
    unsigned char *req;
    size_t len;
    ck_assert_int_eq(proto_encode_request(&c, &req, &len), 0);
    gr_sandbox_result r;
    char err[512] = "";
    ck_assert_int_eq(gr_sandbox_run(copy, req, len, &default_limits, &r, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "could not execute the test program: Permission denied") != NULL,
                  "err: %s", err);
    ck_assert_ptr_null(r.output);
    free(req);
    free(bytes);
    fk_rm_rf(dir);
    free(copy);
    free(dir);
    free(good);
}
END_TEST

START_TEST(seccomp_is_available_here)
{
    /* the kernels attnlab is graded on have seccomp; if this fails, every
       sandboxed run above would have been refused too */
    ck_assert_int_eq(gr_sandbox_has_seccomp(), 1);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("sandbox");
    TCase *tc = tcase_create("answers");
    tcase_add_unchecked_fixture(tc, kit_setup, NULL);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, correct_answer);
    tcase_add_test(tc, inout_int_and_byte_buffers);
    tcase_add_test(tc, unwritten_outputs_show);
    tcase_add_test(tc, megabytes_each_way);
    tcase_add_test(tc, fake_score_stays_in_the_excerpt);
    suite_add_tcase(s, tc);

    tc = tcase_create("stops");
    tcase_add_unchecked_fixture(tc, kit_setup, NULL);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, infinite_loop_is_killed);
    tcase_add_test(tc, stopped_child_is_timed_out_at_once);
    tcase_add_test(tc, crash_is_a_signal);
    tcase_add_test(tc, write_past_the_end_hits_the_guard_page);
    tcase_add_test(tc, malloc_over_the_limit_unchecked);
    tcase_add_test(tc, malloc_over_the_limit_checked);
    tcase_add_test(tc, scratch_memory_left_allocated_is_a_leak);
    tcase_add_test(tc, stop_before_answering_is_timed_out_at_once);
    tcase_add_test(tc, leaks_judged_where_memory_cannot_be_read);
    tcase_add_test(tc, yama_scope_that_blocks_reading);
    tcase_add_test(tc, huge_stack_array);
    tcase_add_test(tc, endless_recursion);
    tcase_add_test(tc, ten_megabytes_of_output);
    tcase_add_loop_test(tc, forbidden_system_call_is_fatal, 0,
                        (int)(sizeof forbidden / sizeof forbidden[0]));
    tcase_add_test(tc, response_flood_is_cut_off);
    tcase_add_test(tc, memory_past_the_count_is_refused_by_the_kernel);
    tcase_add_test(tc, static_data_over_the_limit_is_not_run);
    tcase_add_test(tc, runs_unprivileged);
    tcase_add_test(tc, resource_limits_are_set);
    tcase_add_test(tc, descriptors_are_only_the_protocol_ones);
    tcase_add_test(tc, child_that_never_reads);
    tcase_add_test(tc, working_directory_is_removed);
    suite_add_tcase(s, tc);

    tc = tcase_create("requests");
    tcase_add_unchecked_fixture(tc, kit_setup, NULL);
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, child_refuses_a_bad_request, 0, 11);
    tcase_add_test(tc, child_refuses_an_unknown_call);
    tcase_add_test(tc, missing_program_is_a_sandbox_error);
    tcase_add_test(tc, exec_failure_is_a_sandbox_error);
    tcase_add_test(tc, seccomp_is_available_here);
    suite_add_tcase(s, tc);
    return s;
}
