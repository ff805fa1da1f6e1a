/* test_hostile_sandbox.c: hostile submissions against the limits the sandbox
 * holds from outside the student's process, end to end through `attnlab grade`.
 *
 * Each case lays out a submission in a fresh folder T (hostile lab files from
 * grader/tests/hostile/, or a solution with an attack appended, and beside
 * them an untouched solution), runs
 *
 *   build/attnlab grade --submission T/sub --lab L,... --student hostile --json T/results.json
 *
 * in a session of its own under a wall-clock cap, reads results.json back
 * (gr_report_read_json) and asserts: exit status 0 or 1; every test of a
 * hostile lab the case names scored 0 with one of the case's verdicts, and the
 * lab's feedback says what the case says; every test of the solution lab
 * passed with full marks; the run took less than the cap. Each case runs twice: with every
 * layer this machine has, and with ATTNLAB_CONFINE_DISABLE=namespace,landlock,
 * as in a container without them (the limits here are rlimits, seccomp, the
 * link's flags and file checks, and the grader's own loop: they all hold).
 *
 * The attacks: a heap limit forged in the test program's own memory (lab 7's
 * memory wall must hold with the whole score matrix stored), static data whose
 * alignment padding the linker adds, a self-SIGSTOP in every test, every lab
 * stopping itself, syscall() through a function pointer, a nested
 * function's trampoline, scratch memory never freed (a wrong answer, whatever
 * was computed: the contract says free it), a leak, a write below an output
 * and a heap overflow each followed by wiping the test child's own data (its
 * records, were they kept there), 100,000 live blocks, 96 MiB of thread-local
 * data, glibc's own syscall instruction, its mmap and its exit_group called
 * through a pointer, and a lab whose every test loops; and a rubric's
 * budget_s running out (the tests left are not run). The "order" cases grade
 * hostile/order.c, whose calls of tests not shown spin, loop or spend the
 * budget on a bit of their inputs, with the bit clear and set: every visible
 * test runs first, and what the student sees is the same either way (the
 * timing relay the visible tests' times would carry, the time-out oracle and
 * the budget oracle). The "layers" cases
 * check the linked-program check (objcheck.h) on programs built without the
 * build's rule checks. ATTNLAB_HOSTILE_CASE=name runs only the case called name.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "confined/objcheck.h"
#include "base/labmod.h"
#include "report/report.h"
#include "base/util.h"
#include "fixtures/fixture_kit.h"

Suite *test_suite(void);

#define CAP_SECONDS 60          /* the brief: every lab self-stopping, in under a minute */
#define ALL_LABS    0           /* a case's hostile lab: every lab, no solution beside */

/* The attack appended to a solution: a constructor that stops the process
   (getpid, then tgkill(pid, pid, SIGSTOP), as machine code run from the stack a
   nested function's trampoline made executable) before main, so in every test. */
static const char stop_tail[] =
    "\n/* ---- appended: every test stops itself before main ---- */\n"
    "static void hostile_stop(void)\n{\n"
    "    static const unsigned char code[] = {0xb8, 0x27, 0, 0, 0, 0x0f, 0x05, 0x89, 0xc7, 0x89,\n"
    "        0xc6, 0xba, 0x13, 0, 0, 0, 0xb8, 0xea, 0, 0, 0, 0x0f, 0x05, 0xc3};\n"
    "    volatile int depth = 0;\n"
    "    void hostile_nested(void) { depth++; }\n"
    "    void (*volatile keep)(void) = hostile_nested;\n"
    "    keep();\n"
    "    volatile unsigned char buf[sizeof code];\n"
    "    for (unsigned i = 0; i < sizeof code; i++)\n        buf[i] = code[i];\n"
    "    ((void (*)(void))(void *)(unsigned char *)buf)();\n}\n\n"
    "__attribute__((constructor)) static void hostile_ctor(void)\n{\n    hostile_stop();\n}\n";

/* After an attack on memory, the forgery of its record: the test program's
   own writable data found as an attacker would, from the ELF header at the
   program's fixed base (0x400000) to its writable segment; every word of the
   .bss below the student's own (the C runtime's and the test child's:
   child_main.o is linked before the student's object) zeroed, and every word
   of the data past the read-only-after-start part (PT_GNU_RELRO) that holds
   an address in the heap or buffer regions (the allocator's bump pointers).
   What the call left in memory is read from outside the child (inspect.h), so
   none of it changes the verdict. */
#define WIPE_HARNESS \
    "static volatile char hostile_anchor;\n" \
    "    const unsigned char *eh = (const unsigned char *)0x400000;\n" \
    "    unsigned long phoff = *(const unsigned long *)(eh + 32), relro_end = 0;\n" \
    "    unsigned short phnum = *(const unsigned short *)(eh + 56);\n" \
    "    for (int i = 0; i < phnum; i++) {\n" \
    "        const unsigned char *ph = eh + phoff + 56UL * (unsigned long)i;\n" \
    "        if (*(const unsigned *)ph == 0x6474e552u)   /* PT_GNU_RELRO */\n" \
    "            relro_end = *(const unsigned long *)(ph + 16) + *(const unsigned long *)(ph + 40);\n" \
    "    }\n" \
    "    for (int i = 0; i < phnum; i++) {\n" \
    "        const unsigned char *ph = eh + phoff + 56UL * (unsigned long)i;\n" \
    "        if (*(const unsigned *)ph != 1 || !(*(const unsigned *)(ph + 4) & 2))\n" \
    "            continue;   /* a PT_LOAD that is writable */\n" \
    "        unsigned long va = *(const unsigned long *)(ph + 16), filesz = *(const unsigned long *)(ph + 32);\n" \
    "        unsigned long from = ((relro_end > va ? relro_end : va) + 4095) & ~4095UL;\n" \
    "        volatile unsigned long *w = (volatile unsigned long *)from;\n" \
    "        for (; (unsigned long)w + 8 <= va + filesz; w++)\n" \
    "            if (*w >= 0x1000000000UL && *w < 0x4000000000UL)\n" \
    "                *w = 0;\n" \
    "        for (w = (volatile unsigned long *)((va + filesz + 7) & ~7UL);\n" \
    "             (unsigned long)w + 8 <= (unsigned long)&hostile_anchor; w++)\n" \
    "            *w = 0;\n" \
    "    }\n"

typedef struct sandbox_case {
    const char *name;
    int lab;                /* the hostile lab, or ALL_LABS */
    const char *file;       /* under grader/tests/hostile/, or NULL: the solution + stop_tail */
    const char *body;       /* when file is body.c: its @ARG@ */
    const char *tests;      /* the hostile lab's tests that must score 0 ('|'), or NULL: all */
    const char *verdicts;   /* the verdicts allowed for them, '|'-separated */
    const char *says;       /* a test's feedback holds one of these ('|'), or NULL */
} sandbox_case;

static const sandbox_case cases[] = {
    {"forged_heap_limit", 7, "lab07_forged_limit.c", NULL, "attention_memory_4096",
     "out of memory|crashed", NULL},
    {"static_padding", 1, "padding.c", NULL, NULL, "out of memory", "memory"},
    {"self_stop_every_test", 1, NULL, NULL, NULL, "compile error|timed out|forbidden call|crashed",
     "trampoline|stopped itself|system call"},
    {"ten_self_stopping_labs", ALL_LABS, NULL, NULL, NULL,
     "compile error|timed out|forbidden call|crashed", NULL},
    {"syscall_through_pointer", 1, "body.c",
     "extern long syscall(long, ...);\n    long (*volatile sys)(long, ...) = syscall;\n"
     "    sys(62, 0L, 19L);   /* kill(0, SIGSTOP): the whole group */",
     NULL, "forbidden call", "syscall is not allowed"},
    /* the link refuses syscall() by name, but glibc's own openat holds a
       "mov $257, %eax; syscall" that code can find in the program and call
       through a pointer, no forbidden name in sight: seccomp is what holds it */
    {"glibc_syscall_instruction_by_pointer", 1, "body.c",
     "const unsigned char *code = (const unsigned char *)(const void *)lab_scaled_dot_scores;\n"
     "    static const unsigned char mov_openat_syscall[] = {0xb8, 0x01, 0x01, 0, 0, 0x0f, 0x05};\n"
     "    for (unsigned long i = 0; i < (1UL << 20); i++)\n"
     "        if (memcmp(code + i, mov_openat_syscall, sizeof mov_openat_syscall) == 0) {\n"
     "            long (*raw)(long, const char *, long) = (long (*)(long, const char *, long))(const void *)(code + i);\n"
     "            if (raw(-100, \"/etc/hostname\", 0) >= 0)   /* openat(AT_FDCWD, ..., O_RDONLY) */\n"
     "                return LAB_OK;\n"
     "            break;\n"
     "        }",
     NULL, "forbidden call", "system call"},
    {"nested_function_trampoline", 1, "body.c",
     "int nested(int x) { return x + B; }\n    int (*volatile f)(int) = nested;\n"
     "    if (f(0) < 0)\n        return 0;",
     NULL, "compile error", "trampoline"},
    {"scratch_memory_left_allocated", 1, "body.c",
     "char *volatile scratch = malloc(40);\n    if (scratch)\n        scratch[0] = 1;   /* never freed */",
     NULL, "wrong answer", "40 bytes in 1 block of scratch memory still allocated"},
    /* the attacker's report: a leak, then the record of it cleared */
    {"leak_then_wipe_the_harness", 1, "body.c",
     "char *volatile scratch = malloc(40);\n    if (scratch)\n        scratch[0] = 1;   /* never freed */\n"
     "    " WIPE_HARNESS,
     NULL, "wrong answer", "40 bytes in 1 block of scratch memory still allocated"},
    {"write_below_output_then_wipe", 1, "body.c",
     "((volatile float *)S)[-1] = 1.0f;\n    " WIPE_HARNESS,
     NULL, "crashed", "below the first element of an array argument"},
    {"heap_overflow_then_wipe", 1, "body.c",
     "volatile float *t = malloc(3 * sizeof *t);\n    if (t)\n        t[3] = 1.0f;   /* past its end */\n"
     "    " WIPE_HARNESS,
     NULL, "crashed", "past the end of a malloc'd block"},
    /* memory taken without malloc, from glibc's own mmap found in the program's
       code and called through a pointer: no block of the heap region, but the
       child's private memory grew during the call, and the kernel says so */
    {"leak_through_glibc_mmap_by_pointer", 1, "body.c",
     "const unsigned char *code = (const unsigned char *)(const void *)lab_scaled_dot_scores;\n"
     "    /* mov %ecx, %r10d; test $0xfff, %r9d; jne: the start of glibc's mmap */\n"
     "    static const unsigned char glibc_mmap[] = {0x41, 0x89, 0xca, 0x41, 0xf7, 0xc1, 0xff, 0x0f, 0, 0, 0x75};\n"
     "    for (unsigned long i = 0; i < (1UL << 20); i++)\n"
     "        if (memcmp(code + i, glibc_mmap, sizeof glibc_mmap) == 0) {\n"
     "            void *(*raw)(void *, unsigned long, int, int, int, long) =\n"
     "                (void *(*)(void *, unsigned long, int, int, int, long))(const void *)(code + i);\n"
     "            char *p = raw(0, 1UL << 16, 3, 0x22, -1, 0);   /* PROT_READ|WRITE, MAP_PRIVATE|ANONYMOUS */\n"
     "            if (p != (char *)-1)\n                p[0] = 1;   /* never unmapped */\n"
     "            break;\n"
     "        }",
     NULL, "wrong answer", "65536 bytes in 1 block of scratch memory still allocated"},
    /* ending the process itself, to skip whatever is checked after the call:
       glibc's own exit_group found in the program's code and called through a
       pointer (exit and _exit are refused by name); a test child that does
       not stop for its inspection has no answer the grader trusts */
    {"exit_before_the_inspection", 1, "body.c",
     "char *volatile scratch = malloc(40);   /* never freed */\n"
     "    const unsigned char *code = (const unsigned char *)(const void *)lab_scaled_dot_scores;\n"
     "    static const unsigned char exit_group[] = {0xb8, 0xe7, 0, 0, 0, 0x0f, 0x05};\n"
     "    for (unsigned long i = 0; scratch && i < (1UL << 20); i++)\n"
     "        if (memcmp(code + i, exit_group, sizeof exit_group) == 0)\n"
     "            ((void (*)(int))(const void *)(code + i))(0);",
     NULL, "crashed", "exited with status 0 before answering"},
    /* no address is used twice until the heap region is used up, then places
       are taken again around the blocks still live: 9,000 blocks of 100 bytes
       made and freed beside 1,000 kept (each block of one size takes 16 MiB of
       the region's 128 GiB) go round it more than once, and the call goes on */
    {"heap_region_round_and_round", 1, "body.c",
     "static char *kept[1000];\n    for (int i = 0; i < 1000; i++)\n        kept[i] = malloc(100);\n"
     "    for (int i = 0; i < 9000; i++) {\n        char *volatile p = malloc(100);\n"
     "        if (!p)\n            return 8;\n        p[99] = 1;\n        free((char *)p);\n    }\n"
     "    for (int i = 0; i < 1000; i++)\n        free(kept[i]);",
     NULL, "wrong answer", "returned 7"},
    /* each block is a mapping: 100k live ones end in a named verdict, not a grader crash */
    {"hundred_thousand_blocks", 1, "body.c",
     "static void *blocks[100000];\n    for (int i = 0; i < 100000; i++)\n"
     "        blocks[i] = malloc(8);\n    for (int i = 0; i < 100000; i++)\n        free(blocks[i]);",
     NULL, "out of memory", "blocks from malloc at once"},
    /* thread-local data is static data: static glibc takes it before main, and
       a refusal there exited 127 ("exited with status 127") */
    {"thread_local_96_mib", 1, "top.c", "_Thread_local char hostile_tls[96 << 20];\n"
     "int hostile_touch(void);\nint hostile_touch(void) { return hostile_tls[1 << 20]; }",
     NULL, "out of memory", "memory limit"},
    {"endless_loop_every_test", 1, "body.c", "for (volatile int spin = 1; spin;) {}", NULL,
     "timed out", "time limit|wall-clock limit|not run: earlier visible tests timed out|"
     "not run: earlier hidden tests timed out"},
};

#define N_CASES ((int)(sizeof cases / sizeof cases[0]))

/* ---- laying out and running ------------------------------------------------------------- */

static char *base_dir;

static void base_setup(void)
{
    base_dir = fk_suite_dir("hostile-sandbox");
}

static char *read_or_fail(const char *path)
{
    char *text = gr_read_file(path, NULL);
    ck_assert_msg(text != NULL, "cannot read %s", path);
    return text;
}

/* Write text as lab's file into sub. */
static void put_lab(const char *sub, int lab, const char *text)
{
    char *dir = gr_xasprintf("%s/%s", sub, gr_lab_modules[lab - 1]->dir);
    char *to = gr_xasprintf("%s/lab%02d.c", dir, lab);
    ck_assert_int_eq(mkdir(dir, 0755), 0);
    ck_assert_int_eq(gr_write_file_atomic(to, text, strlen(text)), 0);
    free(to);
    free(dir);
}

/* Write lab's file into sub: the case's attack when hostile, else the solution. */
static void write_lab(const char *sub, int lab, const sandbox_case *c, int hostile)
{
    const gr_lab_module *mod = gr_lab_modules[lab - 1];
    char *sol_path = gr_xasprintf("%s/solutions/%s/lab%02d.c", fk_root(), mod->dir, lab);
    char *text;
    if (!hostile) {
        text = read_or_fail(sol_path);
    } else if (!c->file) {
        char *sol = read_or_fail(sol_path);
        text = gr_xasprintf("%s%s", sol, stop_tail);
        free(sol);
    } else {
        char *path = gr_xasprintf("%s/grader/tests/hostile/%s", fk_root(), c->file);
        char *raw = read_or_fail(path);
        text = fk_replace(raw, "@ARG@", c->body ? c->body : "");
        free(raw);
        free(path);
    }
    put_lab(sub, lab, text);
    free(text);
    free(sol_path);
}

/* Run attnlab grade with args in a session of its own, output to T/log.txt,
   without the namespace and Landlock layers when walls is 0; kill the session
   and fail after CAP_SECONDS. The exit status; *seconds. */
static int run_grade(const char *dir, const char *const *args, int n, int walls, double *seconds)
{
    char *exe = fk_attnlab();
    ck_assert_msg(exe != NULL, "build/attnlab is missing: run make first");
    char *log = gr_xasprintf("%s/log.txt", dir), *tmp = gr_xasprintf("%s/tmp", dir);
    ck_assert_int_eq(mkdir(tmp, 0755), 0);
    char *argv[16] = {exe, gr_xstrdup("grade")};
    for (int i = 0; i < n && i < 13; i++)
        argv[2 + i] = gr_xstrdup(args[i]);
    double t0 = fk_now();
    pid_t pid = fk_spawn_session_env(argv, log, NULL, tmp, 0,
                                     walls ? NULL : "ATTNLAB_CONFINE_DISABLE=namespace,landlock");
    for (int i = 1; argv[i]; i++)
        free(argv[i]);
    ck_assert_int_ge(pid, 0);
    int status = 0, done = fk_wait_capped(pid, CAP_SECONDS, &status);
    ck_assert_int_ge(done, 0);
    *seconds = fk_now() - t0;
    char *out = gr_read_file(log, NULL);
    ck_assert_msg(done, "attnlab grade still ran after %d s (killed); its output: %.2000s", CAP_SECONDS,
                  out ? out : "");
    ck_assert_msg(WIFEXITED(status) && (WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == 1),
                  "attnlab grade ended with status %d; its output: %.2000s", status, out ? out : "");
    free(out);
    free(exe);
    free(log);
    free(tmp);
    return WEXITSTATUS(status);
}

/* ---- the cases -------------------------------------------------------------------------- */

static void check_lab(const sandbox_case *c, const gr_lab_result *lr, int hostile)
{
    int judged = 0, said = 0;
    for (int i = 0; i < lr->n_tests; i++) {
        const gr_test_result *t = &lr->tests[i];
        const char *v = gr_result_verdict_name(t->verdict);
        const char *msg = t->feedback ? t->feedback : t->message ? t->message : "";
        if (!hostile) {
            ck_assert_msg(t->verdict == GR_PASSED && t->score == t->max_score,
                          "%s: the solution's %s: %s: %s, %g/%g, %.1000s", c->name, lr->name,
                          t->name, v, t->score, t->max_score, msg);
            continue;
        }
        if (c->tests && !fk_is_one_of(t->name, c->tests))
            continue;
        judged++;
        ck_assert_msg(fk_is_one_of(v, c->verdicts) && t->score == 0, "%s: %s: %s: verdict '%s', %g points, "
                      "expected 0 and %s; %.1500s", c->name, lr->name, t->name, v, t->score,
                      c->verdicts, msg);
        said += !c->says || fk_has_one_of(msg, c->says);
    }
    ck_assert_msg(!hostile || judged > 0, "%s: %s has none of the tests %s", c->name, lr->name,
                  c->tests ? c->tests : "(any)");
    /* a lab's failure message is stored once, under its first test */
    ck_assert_msg(!hostile || said > 0, "%s: %s: no test's feedback says '%s'", c->name, lr->name,
                  c->says);
}

START_TEST(hostile_sandbox_submission)
{
    const sandbox_case *c = &cases[_i / 2];
    int walls = _i % 2 == 0;
    const char *only = getenv("ATTNLAB_HOSTILE_CASE");
    if (only && *only && strcmp(only, c->name) != 0)
        return;
    ck_assert_msg(base_dir != NULL, "cannot make a temporary directory");
    char *dir = gr_xasprintf("%s/%s-XXXXXX", base_dir, c->name);
    ck_assert_ptr_nonnull(mkdtemp(dir));
    /* TMPDIR is in here: without the namespace, the toolchain's user nobody
       must reach the work folders the grader makes under it */
    ck_assert_int_eq(chmod(base_dir, 0711), 0);
    ck_assert_int_eq(chmod(dir, 0711), 0);
    char *sub = gr_xasprintf("%s/sub", dir), *json = gr_xasprintf("%s/results.json", dir);
    ck_assert_int_eq(mkdir(sub, 0755), 0);
    int solution = c->lab == 2 ? 1 : 2;
    char labs[64] = "all";
    if (c->lab != ALL_LABS) {
        write_lab(sub, c->lab, c, 1);
        write_lab(sub, solution, c, 0);
        snprintf(labs, sizeof labs, "%d,%d", c->lab, solution);
    } else {
        for (int lab = 1; lab <= GR_N_LABS; lab++)
            write_lab(sub, lab, c, 1);
    }
    const char *args[] = {"--submission", sub, "--lab", labs, "--student", "hostile", "--json", json};
    double seconds;
    run_grade(dir, args, 8, walls, &seconds);
    gr_report rep;
    char err[512];
    if (gr_report_read_json(json, &rep, err, sizeof err) != 0) {
        char *log = gr_xasprintf("%s/log.txt", dir), *text = gr_read_file(log, NULL);
        ck_abort_msg("%s: %s; attnlab's output: %.2000s", c->name, err, text ? text : "");
    }
    int seen = 0;
    for (int i = 0; i < rep.n_labs; i++) {
        int hostile = c->lab == ALL_LABS || rep.labs[i].lab == c->lab;
        ck_assert_msg(hostile || rep.labs[i].lab == solution, "%s: a lab of neither kind: %s", c->name,
                      rep.labs[i].name);
        check_lab(c, &rep.labs[i], hostile);
        seen++;
    }
    ck_assert_int_eq(seen, c->lab == ALL_LABS ? GR_N_LABS : 2);
    fprintf(stderr, "hostile_sandbox %s (%s): graded in %.1f s\n", c->name,
            walls ? "every layer" : "no namespace, no Landlock", seconds);
    gr_result_free(&rep);
    fk_rm_rf(dir);
    free(dir);
    free(sub);
    free(json);
}
END_TEST

/* dir/rubrics, the course's rubrics of lab 1 with its budget_s set to 1
   (malloc'd): graded alone, lab 1 has one second of wall clock. */
static char *tight_rubrics(const char *dir)
{
    char *rubrics = gr_xasprintf("%s/rubrics", dir), *rubric = gr_xasprintf("%s/lab01.yaml", rubrics);
    char *from = gr_xasprintf("%s/data/rubrics/lab01.yaml", fk_root());
    ck_assert_int_eq(mkdir(rubrics, 0755), 0);
    char *text = read_or_fail(from), *tight = gr_xasprintf("%sbudget_s: 1\n", text);
    ck_assert_int_eq(gr_write_file_atomic(rubric, tight, strlen(tight)), 0);
    free(text);
    free(tight);
    free(from);
    free(rubric);
    return rubrics;
}

/* A submission's wall-clock budget, set by the rubric (budget_s: 1 for lab 1,
   graded alone): the lab's first test runs out of it, and every test after it
   is not run, with the reason, long before the tests' own limits add up. */
START_TEST(budget_runs_out)
{
    ck_assert_msg(base_dir != NULL, "cannot make a temporary directory");
    char *dir = gr_xasprintf("%s/budget-XXXXXX", base_dir);
    ck_assert_ptr_nonnull(mkdtemp(dir));
    ck_assert_int_eq(chmod(dir, 0711), 0);
    char *sub = gr_xasprintf("%s/sub", dir), *json = gr_xasprintf("%s/results.json", dir);
    char *rubrics = tight_rubrics(dir);
    ck_assert_int_eq(mkdir(sub, 0755), 0);
    const sandbox_case *loop = &cases[N_CASES - 1];
    ck_assert_str_eq(loop->name, "endless_loop_every_test");
    write_lab(sub, 1, loop, 1);
    const char *args[] = {"--submission", sub, "--lab", "1", "--rubrics", rubrics, "--json", json};
    double seconds;
    run_grade(dir, args, 8, 1, &seconds);
    gr_report rep;
    char err[512];
    ck_assert_msg(gr_report_read_json(json, &rep, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(rep.n_labs, 1);
    const gr_lab_result *lr = &rep.labs[0];
    int not_run = 0;
    for (int i = 0; i < lr->n_tests; i++) {
        const gr_test_result *t = &lr->tests[i];
        const char *msg = t->feedback ? t->feedback : t->message ? t->message : "";
        ck_assert_msg(t->verdict == GR_TIMED_OUT && t->score == 0, "%s: %s", t->name, msg);
        not_run += strstr(msg, "not run: the submission's grading budget of 1 s") != NULL;
    }
    ck_assert_msg(not_run == lr->n_tests - 1, "%d of %d tests not run for the budget", not_run,
                  lr->n_tests);
    gr_result_free(&rep);
    fk_rm_rf(dir);
    free(rubrics);
    free(json);
    free(sub);
    free(dir);
}
END_TEST

/* ---- what a test not shown does never reaches one shown ----------------------------------- */

/* What order.c's hidden calls (dot_random's, dot_more_queries_than_keys') do
   for the hidden bit set: spin 2^31 ticks of the time-stamp counter (under
   the CPU limit of 2 s at any clock rate above 1.1 GHz), or loop for ever;
   for the bit clear, nothing. */
#define HIDDEN_SPIN "for (unsigned long long end = t0 + (1ull << 31); __builtin_ia32_rdtsc() < end;) {}"
#define HIDDEN_LOOP "for (volatile int spin = 1; spin;) {}"
#define RELAY_TICKS (1ull << 30)  /* a gap this long between two visible calls: a spin ran in it */

/* Grade order.c as lab 1, its hidden calls doing act, printing their ticks
   when ticks is 1: beside a solution of lab 2 with the course's rubrics, or
   alone with a budget of 1 s when tight. *rep is results.json read back;
   *log what attnlab printed (its progress lines). */
static void grade_order(const char *act, int ticks, int tight, gr_report *rep, char **log)
{
    ck_assert_msg(base_dir != NULL, "cannot make a temporary directory");
    char *dir = gr_xasprintf("%s/order-XXXXXX", base_dir);
    ck_assert_ptr_nonnull(mkdtemp(dir));
    ck_assert_int_eq(chmod(dir, 0711), 0);
    char *sub = gr_xasprintf("%s/sub", dir), *json = gr_xasprintf("%s/results.json", dir);
    char *path = gr_xasprintf("%s/grader/tests/hostile/order.c", fk_root());
    char *raw = read_or_fail(path), *acted = fk_replace(raw, "@ARG@", act);
    char *text = fk_replace(acted, "@WHEN@", ticks ? "1" : "0");
    ck_assert_int_eq(mkdir(sub, 0755), 0);
    put_lab(sub, 1, text);
    char *rubrics = tight ? tight_rubrics(dir) : NULL;
    if (!tight)
        write_lab(sub, 2, NULL, 0);
    const char *args[] = {"--submission", sub, "--student", "hostile", "--json", json, "--lab",
                          tight ? "1" : "1,2", "--rubrics", rubrics};
    double seconds;
    run_grade(dir, args, tight ? 10 : 8, 1, &seconds);
    char err[512];
    ck_assert_msg(gr_report_read_json(json, rep, err, sizeof err) == 0, "%s", err);
    char *log_path = gr_xasprintf("%s/log.txt", dir);
    *log = read_or_fail(log_path);
    fk_rm_rf(dir);
    free(log_path);
    free(rubrics);
    free(text);
    free(acted);
    free(raw);
    free(path);
    free(json);
    free(sub);
    free(dir);
}

/* The ticks lab 1's test t printed (order.c with ticks on): 1, or 0 when it
   printed none. */
static int ticks_of(const gr_test_result *t, unsigned long long *t0, unsigned long long *t1)
{
    const char *at = t->feedback ? strstr(t->feedback, "ticks ") : NULL;
    return at && sscanf(at, "ticks %llu %llu", t0, t1) == 2;
}

/* What a student reads from the times the visible tests of lr print: 1 when
   two of them, one after the other, lie a spin apart (a hidden call ran
   between them and spun), else 0. */
static int relayed(const gr_lab_result *lr)
{
    unsigned long long from[64], to[64], t0, t1;
    int n = 0;
    for (int i = 0; i < lr->n_tests && n < 64; i++)
        if (lr->tests[i].visibility == GR_VISIBLE && ticks_of(&lr->tests[i], &t0, &t1)) {
            int k = n++;
            for (; k > 0 && from[k - 1] > t0; k--) {   /* in the order they ran */
                from[k] = from[k - 1];
                to[k] = to[k - 1];
            }
            from[k] = t0;
            to[k] = t1;
        }
    ck_assert_msg(n >= 2, "only %d visible tests of %s printed their ticks", n, lr->name);
    for (int k = 0; k + 1 < n; k++)
        if (from[k + 1] - to[k] > RELAY_TICKS)
            return 1;
    return 0;
}

/* Every visible test of lr ended before any other test of lr began. */
static void assert_visible_first(const gr_lab_result *lr)
{
    unsigned long long last_visible = 0, first_other = ~0ull, t0, t1;
    for (int i = 0; i < lr->n_tests; i++) {
        if (!ticks_of(&lr->tests[i], &t0, &t1))
            continue;
        if (lr->tests[i].visibility == GR_VISIBLE)
            last_visible = t1 > last_visible ? t1 : last_visible;
        else
            first_other = t0 < first_other ? t0 : first_other;
    }
    ck_assert_msg(last_visible > 0 && first_other < ~0ull && last_visible < first_other,
                  "a test of %s not shown ran before a visible one ended", lr->name);
}

/* What the student sees of lab 1 at submission: each visible test's name,
   verdict and feedback, with the ticks lines left out when skip_ticks. */
static char *visible_view(const gr_report *rep, int skip_ticks)
{
    gr_strbuf b = {0};
    const gr_lab_result *lr = &rep->labs[0];
    ck_assert_int_eq(lr->lab, 1);
    for (int i = 0; i < lr->n_tests; i++) {
        const gr_test_result *t = &lr->tests[i];
        if (t->visibility != GR_VISIBLE)
            continue;
        char *fb = gr_xstrdup(t->feedback ? t->feedback : ""), *at;
        while (skip_ticks && (at = strstr(fb, "ticks ")) != NULL)
            memmove(at, at + strcspn(at, "\n"), strlen(at + strcspn(at, "\n")) + 1);
        gr_sb_printf(&b, "%s: %s: %s\n", t->name, gr_result_verdict_name(t->verdict), fb);
        free(fb);
    }
    return gr_sb_take(&b);
}

/* The test of lr called name. */
static const gr_test_result *test_named(const gr_lab_result *lr, const char *name)
{
    for (int i = 0; i < lr->n_tests; i++)
        if (strcmp(lr->tests[i].name, name) == 0)
            return &lr->tests[i];
    ck_abort_msg("%s has no test %s", lr->name, name);
    return NULL;
}

/* Every lab's visible pass was done (its progress line) before any lab's hidden one began. */
static void assert_passes_in_order(const char *log)
{
    const char *last_visible = NULL, *first_hidden = strstr(log, "hidden tests ran in");
    for (const char *p = log; (p = strstr(p, "visible tests ran in")) != NULL; p++)
        last_visible = p;
    ck_assert_msg(last_visible && first_hidden && last_visible < first_hidden,
                  "a lab's hidden tests began before every lab's visible tests ran:\n%s", log);
}

/* order.c graded with the hidden bit clear and set, and what the student
   sees of lab 1 the same, byte for byte, in both (every visible test ran:
   a wrong answer), the ticks lines aside. */
typedef struct bit_runs {
    gr_report clear, set;
    char *log;                  /* attnlab's output with the bit set */
} bit_runs;

static void grade_both(const char *act, int ticks, int tight, bit_runs *b)
{
    char *log_clear;
    grade_order("", ticks, tight, &b->clear, &log_clear);
    grade_order(act, ticks, tight, &b->set, &b->log);
    char *seen_clear = visible_view(&b->clear, ticks), *seen_set = visible_view(&b->set, ticks);
    ck_assert_msg(strstr(seen_clear, "scaled_small: wrong answer"), "%s", seen_clear);
    ck_assert_str_eq(seen_clear, seen_set);
    free(seen_clear);
    free(seen_set);
    free(log_clear);
}

static void bit_runs_free(bit_runs *b)
{
    gr_result_free(&b->clear);
    gr_result_free(&b->set);
    free(b->log);
}

/* The timing relay: a hidden call spins when its bit is set; the visible
   calls print their ticks, from which the student reads whether a spin ran
   between two of them. With the bit clear or set they read no spin. */
START_TEST(hidden_time_never_reaches_visible_output)
{
#if defined(__x86_64__) || defined(__i386__)
    bit_runs b;
    grade_both(HIDDEN_SPIN, 1, 0, &b);
    unsigned long long t0, t1;
    ck_assert(ticks_of(test_named(&b.set.labs[0], "dot_random"), &t0, &t1));
    ck_assert_msg(t1 - t0 >= (1ull << 31), "the hidden call did not spin: %llu ticks", t1 - t0);
    ck_assert_msg(relayed(&b.set.labs[0]) == 0 && relayed(&b.clear.labs[0]) == 0,
                  "the visible tests' times carry the hidden bit");
    assert_visible_first(&b.set.labs[0]);
    assert_visible_first(&b.clear.labs[0]);
    assert_passes_in_order(b.log);
    bit_runs_free(&b);
#endif
}
END_TEST

/* The time-out oracle: two hidden calls loop for ever when the bit is set.
   Two time-outs stop the rest of their pass, never a visible test. */
START_TEST(hidden_timeouts_never_stop_visible_tests)
{
    bit_runs b;
    grade_both(HIDDEN_LOOP, 0, 0, &b);
    const gr_lab_result *lr = &b.set.labs[0];
    ck_assert_int_eq(test_named(lr, "dot_random")->verdict, GR_TIMED_OUT);
    ck_assert_int_eq(test_named(lr, "dot_more_queries_than_keys")->verdict, GR_TIMED_OUT);
    const gr_test_result *after = test_named(lr, "dot_bad_d");
    ck_assert_msg(after->verdict == GR_TIMED_OUT && after->feedback &&
                  strstr(after->feedback, "not run: earlier hidden tests timed out (2 of them)"),
                  "dot_bad_d: %s", after->feedback ? after->feedback : "");
    bit_runs_free(&b);
}
END_TEST

/* The budget: lab 1 alone has 1 s of wall clock; its hidden calls spin past
   it. The visible tests ran before, within it; the hidden tests after the
   spins are not run. */
START_TEST(hidden_spending_never_stops_visible_tests)
{
#if defined(__x86_64__) || defined(__i386__)
    bit_runs b;
    grade_both(HIDDEN_SPIN, 0, 1, &b);
    const gr_test_result *after = test_named(&b.set.labs[0], "scaled_random");
    ck_assert_msg(after->verdict == GR_TIMED_OUT && after->feedback &&
                  strstr(after->feedback, "not run: the submission's grading budget of 1 s"),
                  "scaled_random: %s", after->feedback ? after->feedback : "");
    bit_runs_free(&b);
#endif
}
END_TEST

/* ---- the linked-program check on programs built without the rule checks ------------------- */

/* Build fixture name with the stub (unchecked) and return why gr_objcheck_exe
   refuses it (malloc'd), or NULL when it accepts it. */
static char *exe_refusal(const char *name)
{
    ck_assert_msg(base_dir != NULL, "cannot make a temporary directory");
    char *dir = gr_xasprintf("%s/exe-%s-XXXXXX", base_dir, name);
    ck_assert_ptr_nonnull(mkdtemp(dir));
    ck_assert_msg(fk_make_child(dir) == 0, "cannot compile the stub; see %s/kit.log", dir);
    char *exe = fk_link(dir, dir, name, 1);
    ck_assert_msg(exe != NULL, "cannot build fixture %s; see %s/kit.log", name, dir);
    char why[256];
    unsigned long long writable = 0;
    char *refusal = gr_objcheck_exe(exe, &writable, why, sizeof why) == 0 ? NULL : gr_xstrdup(why);
    ck_assert_msg(refusal || writable > 0, "%s: no writable segment measured", name);
    fk_rm_rf(dir);
    free(exe);
    free(dir);
    return refusal;
}

START_TEST(clean_program_is_accepted)
{
    char *why = exe_refusal("good");
    ck_assert_msg(why == NULL, "a clean link was refused: %s", why);
}
END_TEST

START_TEST(executable_stack_is_refused)
{
    char *why = exe_refusal("execstack");
    ck_assert_msg(why && strstr(why, "executable stack"), "got: %s", why ? why : "(accepted)");
    free(why);
}
END_TEST

START_TEST(syscall_in_the_link_is_refused)
{
    char *why = exe_refusal("syscall_ptr");
    ck_assert_msg(why && strstr(why, "syscall()"), "got: %s", why ? why : "(accepted)");
    free(why);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("hostile_sandbox");
    TCase *tc = tcase_create("submissions");
    tcase_add_unchecked_fixture(tc, base_setup, NULL);
    tcase_set_timeout(tc, CAP_SECONDS + 30);
    tcase_add_loop_test(tc, hostile_sandbox_submission, 0, 2 * N_CASES);
    tcase_add_test(tc, budget_runs_out);
    suite_add_tcase(s, tc);

    tc = tcase_create("order");
    tcase_add_unchecked_fixture(tc, base_setup, NULL);
    tcase_set_timeout(tc, 2 * CAP_SECONDS + 30);
    tcase_add_test(tc, hidden_time_never_reaches_visible_output);
    tcase_add_test(tc, hidden_timeouts_never_stop_visible_tests);
    tcase_add_test(tc, hidden_spending_never_stops_visible_tests);
    suite_add_tcase(s, tc);

    tc = tcase_create("layers");
    tcase_add_unchecked_fixture(tc, base_setup, NULL);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, clean_program_is_accepted);
    tcase_add_test(tc, executable_stack_is_refused);
    tcase_add_test(tc, syscall_in_the_link_is_refused);
    suite_add_tcase(s, tc);
    return s;
}
