/* test_hostile.c: hostile submissions against the whole `attnlab grade`
 * program, end to end.
 *
 * Each case is one lab 1 file from grader/tests/hostile/ (or a lab file that is
 * not a regular file at all) written by someone who wants a grade they did not
 * earn or a look at what they should not see. In a fresh temporary folder T the
 * suite lays out a submission (T/sub/lab01-scores/lab01.c the hostile file,
 * T/sub/lab02-softmax/lab02.c an untouched solution), runs
 *
 *   build/attnlab grade --submission T/sub --lab 1,2 --student hostile --json T/results.json
 *
 * in a session of its own with TMPDIR=T/tmp, under a wall-clock cap, and asserts:
 *   - exit status 0 or 1, never a crash or 2, and no hang;
 *   - results.json exists, is under 64 KiB, parses, and has no raw control bytes;
 *   - every lab 1 test scored 0 with one of the case's verdicts, and the lab's
 *     feedback says what the case says it must (a failure of the whole lab is
 *     told once, under its lead test); every lab 2 test passed with full marks;
 *   - no marker of a file the attack reached for appears in results.json or on
 *     the terminal; the canary T/canary was not written and T holds nothing new;
 *   - T/tmp is empty again; no process of the session remains.
 *
 * The hostile files are complete lab files with placeholders the suite fills
 * in: @SECRET@ (T/secret.h, whose text is the marker), @CANARY@ (T/canary),
 * @ROOT@ (the attnlab tree), @UP@ (enough "../" to reach / from any folder),
 * @ARG@ (the case's attack) and @WHEN@ (1: attack in a constructor).
 *
 * The compile-time cases assert what the confined toolchain (confine.h) and
 * the checks on what is compiled (scan.h, objcheck.h) do: refuse, and reach
 * nothing. ATTNLAB_HOSTILE_CASE=name runs only the case called name.
 */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <yaml.h>

#include "base/labmod.h"
#include "base/util.h"
#include "fixtures/fixture_kit.h"

Suite *test_suite(void);

#define HOSTILE_LAB   1
#define SOLUTION_LAB  2
#define CAP_SECONDS   60                  /* a grading run that takes longer hangs */
#define NODE_SECONDS  15                  /* a lab file that is not a file: seconds */
#define BOMB_SECONDS  60                  /* the preprocessor's CPU limit (15 s), and more */
#define JSON_MAX      (64 * 1024)
#define GRADER_AS     ((rlim_t)8 << 30)   /* bounds a grader that reads /dev/zero */
#define MARKER        "HOSTILE_SECRET_7e1d"

/* ---- the cases -------------------------------------------------------------------------- */

/* How the hostile lab's file is laid out in the submission. */
typedef enum layout {
    PLAIN,        /* the hostile file as lab01.c */
    WITH_LINK,    /* the hostile file, and beside it secret.h, a symbolic link to target */
    LINK,         /* lab01.c is a symbolic link to target */
    FIFO_NODE,    /* lab01.c is a named pipe */
    DIR_NODE,     /* lab01.c is a directory */
    DEVICE_NODE   /* lab01.c is a character device (1, 3), made only as root */
} layout;

typedef struct hostile_case {
    const char *name;
    const char *file;       /* under grader/tests/hostile/; NULL for the node layouts */
    const char *arg;        /* replaces @ARG@ */
    int in_ctor;            /* replaces @WHEN@ */
    const char *verdicts;   /* the verdicts allowed, '|'-separated */
    const char *says;       /* every lab 1 test's output holds one of these ('|'), or NULL */
    const char *kind;       /* ... and one of these too ('|'), or NULL */
    layout how;
    const char *target;     /* LINK, WITH_LINK: where the link points */
    int seconds;            /* wall-clock cap; 0: CAP_SECONDS */
} hostile_case;

#define REFUSED   "forbidden call|compile error"
#define FORBIDDEN "forbidden call"
#define NOT_FILE  "not a regular file"
#define UNREADABLE "unreadable file"
#define LOADING   "compile error|forbidden call|crashed"

/* syscall.c attacks (sys(nr, ...) is the raw system call nr) */
#define READ_PRINT "long fd = sys(2, (long)\"@SECRET@\", 0, 0, 0, 0);\n" \
                   "    sys(0, fd, (long)buf, sizeof buf - 1, 0, 0);\n    printf(\"%s\", buf);"
#define WRITE_FILE "sys(2, (long)\"@CANARY@\", 01101, 0644, 0, 0);   /* O_WRONLY|O_CREAT|O_TRUNC */"
#define SOCKET     "sys(41, 2, 1, 0, 0, 0);   /* socket(AF_INET, SOCK_STREAM) */"
#define FORK_LOOP  "for (;;)\n        sys(57, 0, 0, 0, 0, 0);"
#define EXEC_SHELL "static const char *const argv[] = {\"/bin/sh\", \"-c\", \"echo x > @CANARY@\", 0};\n" \
                   "    sys(59, (long)argv[0], (long)argv, 0, 0, 0);"
#define THREAD     "sys(56, 0x50f00, (long)(stack + 4096), 0, 0, 0);   /* clone: a thread */"
#define EXIT_GROUP "sys(231, 0, 0, 0, 0, 0);"
#define ASM_LEAK   "\".pushsection .rodata\\nhostile_leak:\\n.incbin \\\"@SECRET@\\\"\\n.byte 0\\n.popsection\""
#define SOLUTION   "@UP@@ROOT@/solutions/lab01-scores/lab01.c"

/* a crash (address 8, not NULL, which the compiler would drop) run before main
   from the section sec */
#define EARLY_SEGV "static void hostile_early(void) { *(volatile int *)8 = 1; }\n"
#define EARLY_ENTRY(sec) EARLY_SEGV "__attribute__((section(\"" sec "\"), used))\n" \
    "static void (*const hostile_init)(void) = hostile_early;"

#define M(i, j) "#define M" #i " M" #j ", M" #j "\n"
#define MACRO_BOMB "#define M0 0, 0\n" M(1, 0) M(2, 1) M(3, 2) M(4, 3) M(5, 4) M(6, 5) M(7, 6) \
    M(8, 7) M(9, 8) M(10, 9) M(11, 10) M(12, 11) M(13, 12) M(14, 13) M(15, 14) M(16, 15)        \
    M(17, 16) M(18, 17) M(19, 18) M(20, 19) M(21, 20) M(22, 21) M(23, 22) M(24, 23) M(25, 24)   \
    M(26, 25) M(27, 26) M(28, 27) M(29, 28) M(30, 29) M(31, 30) M(32, 31) M(33, 32) M(34, 33)   \
    M(35, 34) M(36, 35) M(37, 36) M(38, 37) M(39, 38) M(40, 39) "int hostile_bomb[] = {M40};"

static const hostile_case cases[] = {
    /* ---- runtime: stopped by the symbol check ---- */
    {"abort", "body.c", "abort();", 0, FORBIDDEN, "abort is not allowed", NULL, PLAIN, NULL, 0},
    {"exit", "body.c", "exit(0);", 0, FORBIDDEN, "exit is not allowed", NULL, PLAIN, NULL, 0},
    {"signal_ignored", "body.c",
     "extern void (*signal(int, void (*)(int)))(int);\n    signal(15, (void (*)(int))1);\n    for (;;) {}",
     0, FORBIDDEN, "signal is not allowed", NULL, PLAIN, NULL, 0},
    {"fopen_renamed", "top.c",
     "#pragma redefine_extname hostile_open fopen\nvoid *hostile_open(const char *path, const char *mode);\n"
     "__attribute__((constructor)) static void hostile_ctor(void) { hostile_open(\"@SECRET@\", \"r\"); }",
     0, FORBIDDEN, "fopen is not allowed", NULL, PLAIN, NULL, 0},

    /* ---- runtime: stopped by the sandbox ---- */
    {"trap", "body.c", "__builtin_trap();", 0, "crashed", "SIGILL", NULL, PLAIN, NULL, 0},
    {"segv_in_constructor", "top.c",
     EARLY_SEGV "__attribute__((constructor)) static void hostile_ctor(void) { hostile_early(); }",
     0, "crashed", "SIGSEGV", NULL, PLAIN, NULL, 0},
    {"stack_overflow", "body.c",
     "volatile char frame[1 << 20];\n    frame[0] = 1;\n"
     "    return lab_dot_scores(S, Q, K, B, Tq, Tk, d) + frame[B & 1];",
     0, "out of memory", "stack overflowed", NULL, PLAIN, NULL, 0},
    {"heap_overflow", "body.c",
     "volatile char *p = malloc(64);   /* volatile: the writes are not optimised away */\n"
     "    for (size_t i = 0; p && i < (size_t)1 << 30; i += 4096)\n        p[i] = 0x41;",
     0, "crashed", "SIGSEGV", NULL, PLAIN, NULL, 0},
    /* one element below S: the slack under the data holds a canary (or, for an
       empty S, the lower guard page sits right there) */
    {"write_below_output", "body.c", "((volatile float *)S)[-1] = 1.0f;",
     0, "crashed", "SIGSEGV", NULL, PLAIN, NULL, 0},
    /* a value read below another array, or further below the same one, written
       just below S (a loop from -1 whose row -1 is read from the canaries):
       every 4 bytes of every slack hold a different canary, so it still shows */
    {"write_below_output_from_input", "body.c",
     "((volatile float *)S)[-1] = ((volatile const float *)Q)[-1];",
     0, "crashed", "SIGSEGV", NULL, PLAIN, NULL, 0},
    {"write_below_output_shifted", "body.c",
     "((volatile float *)S)[-1] = ((volatile float *)S)[-2];",
     0, "crashed", "SIGSEGV", NULL, PLAIN, NULL, 0},
    /* one float past a scratch block of three, freed or kept: the block's
       data ends where its mapping does, so the write faults either way (the
       kernel's judgement: nothing in the student's memory decides it) */
    {"scratch_overflow_freed", "body.c",
     "volatile float *t = malloc(3 * sizeof *t);\n    if (t)\n        t[3] = 1.0f;\n"
     "    free((void *)t);",
     0, "crashed", "past the end of a malloc'd block", NULL, PLAIN, NULL, 0},
    {"scratch_overflow_kept", "body.c",
     "volatile float *t = malloc(3 * sizeof *t);\n    if (t)\n        t[3] = 1.0f;",
     0, "crashed", "SIGSEGV", NULL, PLAIN, NULL, 0},
    {"memory_bomb", "body.c",
     "for (;;) {\n        char *p = malloc(1 << 20);\n        if (!p)\n            break;\n"
     "        memset(p, 1, 1 << 20);\n    }",
     0, "out of memory", NULL, NULL, PLAIN, NULL, 0},
    {"output_flood", "body.c", "for (;;)\n        printf(\"flood \");", 0, "output limit", NULL, NULL, PLAIN, NULL, 0},
    {"binary_output", "body.c",
     "char bytes[256] = \"\\x1b[2J\\a\";   /* clear the screen, ring the bell */\n"
     "    for (int i = 5; i < 254; i++)\n        bytes[i] = (char)(260 - i);   /* 255 down to 7: invalid UTF-8 too */\n"
     "    printf(\"%s\", bytes);",
     0, "wrong answer", NULL, NULL, PLAIN, NULL, 0},
    {"nan_and_infinity", "body.c",
     "long n = (long)B * Tq * Tk;\n    for (long i = 0; i < n; i++)\n"
     "        S[i] = i % 2 ? __builtin_nanf(\"\") : __builtin_inff();\n    if (n > 0)\n        return LAB_OK;",
     0, "wrong answer", NULL, NULL, PLAIN, NULL, 0},
    /* for the uncatalogued-mistake digest and relation finders (digest.h): a
       signalling NaN with a payload, -0, the least subnormal and FLT_MAX */
    {"digest_edge_values", "body.c",
     "long n = (long)B * Tq * Tk;\n    for (long i = 0; i < n; i++) {\n"
     "        unsigned u = i % 4 == 0 ? 0x7f800001u : i % 4 == 1 ? 0x80000000u : i % 4 == 2 ? 1u : 0x7f7fffffu;\n"
     "        memcpy(&S[i], &u, sizeof u);\n    }\n    if (n > 0)\n        return LAB_OK;",
     0, "wrong answer", NULL, NULL, PLAIN, NULL, 0},
    {"inputs_overwritten", "body.c",
     "long nq = (long)B * Tq * d, nk = (long)B * Tk * d, ns = (long)B * Tq * Tk;\n"
     "    if (nq > 0 && nk > 0) {\n        memset((void *)Q, 0, (size_t)nq * sizeof *Q);\n"
     "        memset((void *)K, 0, (size_t)nk * sizeof *K);\n        memset(S, 0, (size_t)ns * sizeof *S);\n"
     "        return LAB_OK;\n    }",
     0, "wrong answer", NULL, NULL, PLAIN, NULL, 0},
    {"fake_response_via_stdout", "body.c", "stdout->_fileno = 4;   /* the response pipe */\n"
     "    printf(\"RLTA%c%c%c%c\", 0, 0, 0, 0);",
     0, "crashed", "SIGKILL|without a valid answer", NULL, PLAIN, NULL, 0},
    {"raw_read_and_print", "syscall.c", READ_PRINT, 0, FORBIDDEN, NULL, NULL, PLAIN, NULL, 0},
    {"raw_write_file", "syscall.c", WRITE_FILE, 0, FORBIDDEN, NULL, NULL, PLAIN, NULL, 0},
    {"raw_socket", "syscall.c", SOCKET, 0, FORBIDDEN, NULL, NULL, PLAIN, NULL, 0},
    {"raw_fork_loop", "syscall.c", FORK_LOOP, 0, FORBIDDEN, NULL, NULL, PLAIN, NULL, 0},
    {"raw_exec", "syscall.c", EXEC_SHELL, 0, FORBIDDEN, NULL, NULL, PLAIN, NULL, 0},
    {"raw_thread", "syscall.c", THREAD, 0, FORBIDDEN, NULL, NULL, PLAIN, NULL, 0},
    {"raw_exit", "syscall.c", EXIT_GROUP, 0, FORBIDDEN, "section attribute", NULL, PLAIN, NULL, 0},
    {"raw_close_pipes", "syscall.c", "sys(3, 3, 0, 0, 0, 0);\n    sys(3, 4, 0, 0, 0, 0);",
     0, FORBIDDEN, NULL, NULL, PLAIN, NULL, 0},
    {"raw_write_response_pipe", "syscall.c", "sys(1, 4, (long)\"RLTA\", 4, 0, 0);",
     0, FORBIDDEN, "section attribute", NULL, PLAIN, NULL, 0},
    {"raw_sigterm_ignored_loop", "syscall.c",
     "static const long ignore[4] = {1};   /* SIG_IGN */\n    for (long s = 1; s < 32; s++)\n"
     "        sys(13, s, (long)ignore, 0, 8, 0);\n    for (;;) {}",
     0, FORBIDDEN, "section attribute", NULL, PLAIN, NULL, 0},
    {"ctor_read_and_print", "syscall.c", READ_PRINT, 1, FORBIDDEN, NULL, NULL, PLAIN, NULL, 0},
    {"ctor_write_file", "syscall.c", WRITE_FILE, 1, FORBIDDEN, NULL, NULL, PLAIN, NULL, 0},
    {"ctor_socket", "syscall.c", SOCKET, 1, FORBIDDEN, NULL, NULL, PLAIN, NULL, 0},
    {"ctor_fork_loop", "syscall.c", FORK_LOOP, 1, FORBIDDEN, NULL, NULL, PLAIN, NULL, 0},
    {"ctor_exec", "syscall.c", EXEC_SHELL, 1, FORBIDDEN, NULL, NULL, PLAIN, NULL, 0},
    {"ctor_thread", "syscall.c", THREAD, 1, FORBIDDEN, NULL, NULL, PLAIN, NULL, 0},
    {"ctor_exit", "syscall.c", EXIT_GROUP, 1, FORBIDDEN, "section attribute", NULL, PLAIN, NULL, 0},

    /* ---- compile time: a file outside the submission ---- */
    {"include_absolute", "include.c", "#include \"@SECRET@\"", 0, REFUSED, NULL, NULL, PLAIN, NULL, 0},
    {"include_etc_hostname", "include.c", "#include \"/etc/hostname\"", 0, REFUSED, NULL, NULL, PLAIN, NULL, 0},
    {"include_relative_solution", "include.c", "#include \"" SOLUTION "\"", 0, REFUSED, NULL, NULL, PLAIN, NULL, 0},
    {"include_relative_rubric", "include.c", "#include \"@UP@@ROOT@/data/rubrics/lab01.yaml\"", 0, REFUSED,
     NULL, NULL, PLAIN, NULL, 0},
    {"include_proc_self_cwd", "include.c", "#include \"/proc/self/cwd/@UP@@SECRET@\"", 0, REFUSED, NULL, NULL,
     PLAIN, NULL, 0},
    {"include_proc_self_root", "include.c", "#include \"/proc/self/root@SECRET@\"", 0, REFUSED, NULL, NULL,
     PLAIN, NULL, 0},
    {"include_symlink_in_submission", "include.c", "#include \"secret.h\"", 0, REFUSED, NULL, NULL, WITH_LINK,
     "@SECRET@", 0},
    {"include_computed", "include.c", "#define HOSTILE_HEADER \"@SECRET@\"\n#include HOSTILE_HEADER", 0,
     REFUSED, NULL, NULL, PLAIN, NULL, 0},
    {"include_next", "include.c", "#include_next \"" SOLUTION "\"", 0, REFUSED, NULL, NULL, PLAIN, NULL, 0},
    {"include_after_lone_cr", "include.c", "#include <math.h>\r#include \"" SOLUTION "\"", 0, REFUSED, NULL,
     NULL, PLAIN, NULL, 0},
    {"include_only_when_optimizing", "include.c",
     "#ifdef __OPTIMIZE__\n#include <math.h>\r#include \"" SOLUTION "\"\n#endif", 0, REFUSED, NULL, NULL,
     PLAIN, NULL, 0},
    {"has_include_probe", "has_include.c", NULL, 0, REFUSED, NULL, NULL, PLAIN, NULL, 0},

    /* ---- compile time (target): a file embedded by the assembler ---- */
    {"incbin_top_level_asm", "plant.c", "__asm__(" ASM_LEAK ");", 0, REFUSED, NULL, NULL, PLAIN, NULL, 0},
    {"incbin_asm_in_function", "plant.c",
     "__attribute__((used)) static void hostile_embed(void)\n{\n    __asm__ volatile(" ASM_LEAK ");\n}", 0,
     REFUSED, NULL, NULL, PLAIN, NULL, 0},
    {"include_in_asm", "plant.c", "__asm__(\".include \\\"@SECRET@\\\"\");", 0, REFUSED, NULL, NULL, PLAIN,
     NULL, 0},
    {"incbin_section_name", "plant.c",
     "__attribute__((section(\".rodata\\nhostile_leak:\\n.incbin \\\"@SECRET@\\\"\\n.byte 0\\n#\"), used))\n"
     "static const char hostile_anchor = 1;", 0, REFUSED, NULL, NULL, PLAIN, NULL, 0},
    {"incbin_only_when_optimizing", "plant.c",
     "#ifdef __OPTIMIZE__\n__asm__(" ASM_LEAK ");\n#else\nconst char hostile_leak[] = \"none\";\n#endif", 0,
     REFUSED, NULL, NULL, PLAIN, NULL, 0},

    /* ---- compile time (target): link-time optimisation ---- */
    {"lto_options_section", "top.c",
     "__attribute__((section(\".gnu.lto_.opts\"), used))\n"
     "static const char hostile_opts[] = \"'-o' '@CANARY@' '-save-temps'\";", 0, REFUSED, NULL, NULL, PLAIN,
     NULL, 0},
    {"lto_symtab_section", "top.c",
     "__attribute__((section(\".gnu.lto_.symtab.0\"), used)) static const char hostile_symtab[64] = \"x\";\n"
     "__attribute__((section(\".gnu.lto_.opts\"), used))\n"
     "static const char hostile_opts[] = \"'-fdump-tree-all' '-dumpdir' '@CANARY@/'\";", 0, REFUSED, NULL, NULL,
     PLAIN, NULL, 0},
    {"lto_pragma", "top.c", "#pragma GCC optimize (\"-flto\")", 0, REFUSED, NULL, NULL, PLAIN, NULL, 0},

    /* ---- sections and attributes that break exec or loading ---- */
    {"interp_missing", "top.c",
     "__attribute__((section(\".interp\"), used)) static const char hostile_interp[] = \"/nonexistent/ld.so\";",
     0, LOADING, NULL, NULL, PLAIN, NULL, 0},
    {"interp_shell", "top.c",
     "__attribute__((section(\".interp\"), used)) static const char hostile_interp[] = \"/bin/sh\";",
     0, LOADING, NULL, NULL, PLAIN, NULL, 0},
    {"bss_16_gib", "top.c", "char hostile_bss[1L << 34];", 0, "out of memory|compile error", NULL, NULL, PLAIN,
     NULL, 0},
    {"note_malformed", "top.c",
     "__attribute__((section(\".note.gnu.property\"), used, aligned(8)))\n"
     "static const unsigned hostile_note[] = {4, 16, 5, 0x554e47, 0xc0000002, 64, 3, 0};",
     /* a property note the linker and kernel ignore is harmless: then the
        code's own verdict (status 7) is the right one */
     0, LOADING "|wrong answer", NULL, NULL, PLAIN, NULL, 0},
    {"init_array", "top.c",
     EARLY_ENTRY(".init_array"), 0, LOADING, "section attribute", NULL, PLAIN, NULL, 0},
    {"preinit_array", "top.c",
     EARLY_ENTRY(".preinit_array"), 0, LOADING, "section attribute", NULL, PLAIN, NULL, 0},
    {"macro_bomb", "top.c", MACRO_BOMB, 0, "compile error", NULL, NULL, PLAIN, NULL, BOMB_SECONDS},
    {"static_array_1_tib", "top.c", "char hostile_array[1L << 40];", 0, "compile error|out of memory", NULL,
     NULL, PLAIN, NULL, 0},

    /* ---- the lab file is not a regular file ---- */
    {"link_to_solution", NULL, NULL, 0, UNREADABLE, NOT_FILE, "symbolic link", LINK,
     "@ROOT@/solutions/lab01-scores/lab01.c", NODE_SECONDS},
    {"link_to_etc_hostname", NULL, NULL, 0, UNREADABLE, NOT_FILE, "symbolic link", LINK, "/etc/hostname", NODE_SECONDS},
    {"link_to_dev_zero", NULL, NULL, 0, UNREADABLE, NOT_FILE, "symbolic link", LINK, "/dev/zero", NODE_SECONDS},
    {"fifo", NULL, NULL, 0, UNREADABLE, NOT_FILE, "FIFO|named pipe", FIFO_NODE, NULL, NODE_SECONDS},
    {"directory", NULL, NULL, 0, UNREADABLE, NOT_FILE, "directory", DIR_NODE, NULL, NODE_SECONDS},
    {"device", NULL, NULL, 0, UNREADABLE, NOT_FILE, "device", DEVICE_NODE, NULL, NODE_SECONDS},
};

#define N_CASES ((int)(sizeof cases / sizeof cases[0]))

/* ---- small helpers ------------------------------------------------------------------------ */

/* The attnlab program the suite grades with (fixture_kit.h). */
static char *attnlab_path(void)
{
    char *p = fk_attnlab();
    ck_assert_msg(p != NULL, "%s/build/attnlab is missing: run make first", fk_root());
    return p;
}

/* ---- one grading run -------------------------------------------------------------------- */

/* A grading run's folder and what it left. */
typedef struct run {
    char *dir;          /* T */
    char *sub, *tmp, *secret, *canary, *json;
    char *out, *err;    /* the terminal output, read back */
    int status;         /* waitpid status */
    double seconds;
} run;

/* Every run's folder lives under one folder made by the Check process itself
   and removed when it exits: a failed assertion ends a test's process before
   run_free can clean up. */
static char *base_dir;

/* Unchecked fixture: runs in Check's parent process. */
static void base_setup(void)
{
    base_dir = fk_suite_dir("hostile");
}

static void run_init(run *r)
{
    memset(r, 0, sizeof *r);
    ck_assert_msg(base_dir != NULL, "cannot make a temporary directory");
    r->dir = gr_xasprintf("%s/run-XXXXXX", base_dir);
    ck_assert_ptr_nonnull(mkdtemp(r->dir));
    r->sub = gr_xasprintf("%s/sub", r->dir);
    r->tmp = gr_xasprintf("%s/tmp", r->dir);
    r->secret = gr_xasprintf("%s/secret.h", r->dir);
    r->canary = gr_xasprintf("%s/canary", r->dir);
    r->json = gr_xasprintf("%s/results.json", r->dir);
    ck_assert_int_eq(mkdir(r->sub, 0755), 0);
    ck_assert_int_eq(mkdir(r->tmp, 0755), 0);
    const char secret[] = MARKER "\n";
    ck_assert_int_eq(gr_write_file_atomic(r->secret, secret, strlen(secret)), 0);
}

static void run_free(run *r)
{
    if (r->dir)
        fk_rm_rf(r->dir);
    free(r->dir);
    free(r->sub);
    free(r->tmp);
    free(r->secret);
    free(r->canary);
    free(r->json);
    free(r->out);
    free(r->err);
}

/* Run `attnlab grade ARGS` in a new session, TMPDIR = r->tmp, stdout and stderr
   to T/out.txt and T/err.txt; kill the whole session after cap seconds and fail.
   Afterwards no process of the session may remain. */
static void run_grade(run *r, const char *name, int cap, const char *const *args, int n_args)
{
    char *exe = attnlab_path();
    char *out = gr_xasprintf("%s/out.txt", r->dir), *err = gr_xasprintf("%s/err.txt", r->dir);
    double t0 = fk_now();
    char *argv[16] = {exe, gr_xstrdup("grade")};
    for (int i = 0; i < n_args && i < 13; i++)
        argv[2 + i] = gr_xstrdup(args[i]);
    pid_t pid = fk_spawn_session(argv, out, err, r->tmp, GRADER_AS);
    for (int i = 1; argv[i]; i++)
        free(argv[i]);
    ck_assert_int_ge(pid, 0);
    int status = 0, done = fk_wait_capped(pid, cap, &status);
    ck_assert_int_ge(done, 0);
    r->seconds = fk_now() - t0;
    r->status = status;
    r->out = gr_read_file(out, NULL);
    r->err = gr_read_file(err, NULL);
    unlink(out);
    unlink(err);
    ck_assert_msg(done, "%s: attnlab grade still ran after %d s (killed); stderr: %.2000s", name, cap,
                  r->err ? r->err : "");
    /* the sandbox kills and reaps its children; give the kernel a moment */
    pid_t left[16];
    int n_left = 0;
    for (int tries = 0; tries < 100 && (n_left = fk_session_pids(pid, left, 16)) > 0; tries++)
        usleep(20000);
    if (n_left)
        fk_kill_session(pid);
    ck_assert_msg(n_left == 0, "%s: %d process(es) of the grading session remain, e.g. pid %d", name,
                  n_left, n_left ? (int)left[0] : 0);
    free(exe);
    free(out);
    free(err);
}

/* ---- results.json ------------------------------------------------------------------------- */

typedef struct json_test {
    char *name;         /* "lab01-scores: dot_worked_example" */
    double score, max_score;
    char *output;       /* the feedback; its first line is the verdict */
} json_test;

typedef struct results {
    double score, max_score;
    json_test *tests;
    int n_tests;
} results;

static const char *scalar(yaml_document_t *doc, yaml_node_t *map, const char *key)
{
    for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
        yaml_node_t *k = yaml_document_get_node(doc, p->key);
        yaml_node_t *v = yaml_document_get_node(doc, p->value);
        if (k && v && k->type == YAML_SCALAR_NODE && strcmp((char *)k->data.scalar.value, key) == 0)
            return v->type == YAML_SCALAR_NODE ? (const char *)v->data.scalar.value : NULL;
    }
    return NULL;
}

static yaml_node_t *child(yaml_document_t *doc, yaml_node_t *map, const char *key)
{
    for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
        yaml_node_t *k = yaml_document_get_node(doc, p->key);
        if (k && k->type == YAML_SCALAR_NODE && strcmp((char *)k->data.scalar.value, key) == 0)
            return yaml_document_get_node(doc, p->value);
    }
    return NULL;
}

static double number(const char *s, const char *what)
{
    ck_assert_msg(s != NULL, "results.json: %s is missing or not a number", what);
    char *end;
    double v = strtod(s, &end);
    ck_assert_msg(end != s && *end == '\0', "results.json: %s is '%s', not a number", what, s);
    return v;
}

/* Parse text (JSON, which libyaml reads as YAML) into res; fails the test if
   it is not Gradescope's shape. */
static void parse_results(const char *text, results *res)
{
    memset(res, 0, sizeof *res);
    yaml_parser_t parser;
    yaml_document_t doc;
    ck_assert(yaml_parser_initialize(&parser));
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, strlen(text));
    int ok = yaml_parser_load(&parser, &doc);
    ck_assert_msg(ok, "results.json does not parse: %s at line %zu", parser.problem ? parser.problem : "?",
                  parser.problem_mark.line + 1);
    yaml_node_t *root = yaml_document_get_root_node(&doc);
    ck_assert_msg(root && root->type == YAML_MAPPING_NODE, "results.json is not an object");
    res->score = number(scalar(&doc, root, "score"), "score");
    res->max_score = number(scalar(&doc, root, "max_score"), "max_score");
    yaml_node_t *tests = child(&doc, root, "tests");
    ck_assert_msg(tests && tests->type == YAML_SEQUENCE_NODE, "results.json: tests is not a list");
    for (yaml_node_item_t *it = tests->data.sequence.items.start; it < tests->data.sequence.items.top; it++) {
        yaml_node_t *t = yaml_document_get_node(&doc, *it);
        ck_assert_msg(t && t->type == YAML_MAPPING_NODE, "results.json: a test is not an object");
        yaml_node_t *extra = child(&doc, t, "extra_data");
        if (extra && extra->type == YAML_MAPPING_NODE && child(&doc, extra, "grade"))
            continue;                 /* the grade shown once published (report_json.c): no test */
        res->tests = gr_xrealloc(res->tests, (size_t)(res->n_tests + 1) * sizeof *res->tests);
        json_test *jt = &res->tests[res->n_tests++];
        const char *name = scalar(&doc, t, "name"), *output = scalar(&doc, t, "output");
        ck_assert_msg(name && output, "results.json: a test without name or output");
        jt->name = gr_xstrdup(name);
        jt->output = gr_xstrdup(output);
        jt->score = number(scalar(&doc, t, "score"), "a test's score");
        jt->max_score = number(scalar(&doc, t, "max_score"), "a test's max_score");
    }
    yaml_document_delete(&doc);
    yaml_parser_delete(&parser);
}

static void free_results(results *res)
{
    for (int i = 0; i < res->n_tests; i++) {
        free(res->tests[i].name);
        free(res->tests[i].output);
    }
    free(res->tests);
}

/* The verdict of a test: the first line of its output. */
static char *verdict_of(const json_test *t)
{
    size_t n = strcspn(t->output, "\n");
    char *v = gr_xmalloc(n + 1);
    memcpy(v, t->output, n);
    v[n] = '\0';
    return v;
}

/* Does test t belong to lab? Its name starts with the lab's folder and ": ". */
static int of_lab(const json_test *t, int lab)
{
    const char *dir = gr_lab_modules[lab - 1]->dir;
    size_t n = strlen(dir);
    return strncmp(t->name, dir, n) == 0 && strncmp(t->name + n, ": ", 2) == 0;
}

/* ---- laying out a submission ------------------------------------------------------------ */

static char *lab_folder(const run *r, int lab)
{
    return gr_xasprintf("%s/%s", r->sub, gr_lab_modules[lab - 1]->dir);
}

/* The placeholders of a hostile file filled in for run r and case c. */
static char *fill(const char *text, const run *r, const hostile_case *c)
{
    char up[3 * 24 + 1] = "";
    for (int i = 0; i < 24; i++)
        strcat(up, "../");
    char *a = fk_replace(text, "@ARG@", c->arg ? c->arg : "");
    char *b = fk_replace(a, "@WHEN@", c->in_ctor ? "1" : "0");
    char *d = fk_replace(b, "@SECRET@", r->secret);
    char *e = fk_replace(d, "@CANARY@", r->canary);
    char *f = fk_replace(e, "@ROOT@", fk_root());
    char *g = fk_replace(f, "@UP@", up);
    free(a);
    free(b);
    free(d);
    free(e);
    free(f);
    return g;
}

/* Lay out case c in r->sub: lab 1 as the case says, lab 2 a copy of its solution.
   0, or 1 when the case cannot be laid out here (a device node without root). */
static int lay_out(run *r, const hostile_case *c)
{
    char *hdir = lab_folder(r, HOSTILE_LAB), *sdir = lab_folder(r, SOLUTION_LAB);
    ck_assert_int_eq(mkdir(hdir, 0755), 0);
    ck_assert_int_eq(mkdir(sdir, 0755), 0);
    char *from = gr_xasprintf("%s/solutions/%s/lab%02d.c", fk_root(), gr_lab_modules[SOLUTION_LAB - 1]->dir,
                              SOLUTION_LAB);
    char *to = gr_xasprintf("%s/lab%02d.c", sdir, SOLUTION_LAB);
    size_t len;
    char *text = gr_read_file(from, &len);
    ck_assert_msg(text != NULL, "cannot read %s", from);
    ck_assert_int_eq(gr_write_file_atomic(to, text, len), 0);
    free(text);
    free(from);
    free(to);

    char *lab = gr_xasprintf("%s/lab%02d.c", hdir, HOSTILE_LAB);
    char *target = c->target ? fill(c->target, r, c) : NULL;
    int skipped = 0;
    if (c->file) {
        char *path = gr_xasprintf("%s/grader/tests/hostile/%s", fk_root(), c->file);
        char *raw = gr_read_file(path, NULL);
        ck_assert_msg(raw != NULL, "cannot read %s", path);
        char *filled = fill(raw, r, c);
        ck_assert_int_eq(gr_write_file_atomic(lab, filled, strlen(filled)), 0);
        free(filled);
        free(raw);
        free(path);
    }
    switch (c->how) {
    case PLAIN:
        break;
    case WITH_LINK: {
        char *link = gr_xasprintf("%s/secret.h", hdir);
        ck_assert_int_eq(symlink(target, link), 0);
        free(link);
        break;
    }
    case LINK:
        ck_assert_int_eq(symlink(target, lab), 0);
        break;
    case FIFO_NODE:
        ck_assert_int_eq(mkfifo(lab, 0644), 0);
        break;
    case DIR_NODE:
        ck_assert_int_eq(mkdir(lab, 0755), 0);
        break;
    case DEVICE_NODE:
        if (geteuid() != 0)
            skipped = 1;
        else
            ck_assert_int_eq(mknod(lab, S_IFCHR | 0644, makedev(1, 3)), 0);
        break;
    }
    free(target);
    free(lab);
    free(hdir);
    free(sdir);
    return skipped;
}

/* ---- what every run must show ------------------------------------------------------------- */

/* Nothing the attack reached for may show: the secret's marker, lines of the
   grader's rubric and of the lab's solution, and the machine's name as a
   compiler quotes a source line ("    1 | name" at the end of a line; the name
   alone may be too short to search for). */
static void check_no_marker(const char *where, const char *text, const char *name)
{
    static const char *const markers[] = {MARKER, "Rubric of lab 1, attention scores",
                                          "Summing in double costs nothing here", NULL};
    for (int i = 0; text && markers[i]; i++)
        ck_assert_msg(!strstr(text, markers[i]), "%s: '%s' leaked into %s", name, markers[i], where);
    char *host = gr_read_file("/etc/hostname", NULL);
    if (host && *host && text) {
        host[strcspn(host, "\n")] = '\0';
        char *quoted = gr_xasprintf("| %s\n", host), *escaped = gr_xasprintf("| %s\\n", host);
        ck_assert_msg(!strstr(text, quoted) && !strstr(text, escaped), "%s: /etc/hostname (%s) leaked into %s",
                      name, host, where);
        free(quoted);
        free(escaped);
    }
    free(host);
}

/* T holds only what the suite put there, T/tmp is empty, the canary is absent. */
static void check_nothing_written(const run *r, const char *name)
{
    ck_assert_msg(access(r->canary, F_OK) != 0, "%s: the canary %s was written", name, r->canary);
    static const char *const known[] = {".", "..", "sub", "tmp", "secret.h", "results.json", NULL};
    DIR *d = opendir(r->dir);
    ck_assert_ptr_nonnull(d);
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        int ok = 0;
        for (int i = 0; known[i]; i++)
            ok |= strcmp(e->d_name, known[i]) == 0;
        ck_assert_msg(ok, "%s: %s/%s was written by the grading run", name, r->dir, e->d_name);
    }
    closedir(d);
    d = opendir(r->tmp);
    ck_assert_ptr_nonnull(d);
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        ck_assert_msg(!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."),
                      "%s: TMPDIR still holds %s after grading", name, e->d_name);
    closedir(d);
}

/* results.json: present, small, printable, and in Gradescope's shape. */
static char *read_json(const run *r, const char *name, results *res)
{
    struct stat st;
    ck_assert_msg(stat(r->json, &st) == 0, "%s: no results.json (exit status %d); stderr: %.2000s", name,
                  WIFEXITED(r->status) ? WEXITSTATUS(r->status) : -1, r->err ? r->err : "");
    ck_assert_msg(st.st_size < JSON_MAX, "%s: results.json is %lld bytes", name, (long long)st.st_size);
    char *text = gr_read_file(r->json, NULL);
    ck_assert_ptr_nonnull(text);
    for (const char *p = text; *p; p++)
        ck_assert_msg((unsigned char)*p >= 0x20 || *p == '\n', "%s: results.json holds the raw byte 0x%02x",
                      name, (unsigned char)*p);
    ck_assert_msg(strlen(text) == (size_t)st.st_size, "%s: results.json holds a NUL byte", name);
    parse_results(text, res);
    return text;
}

START_TEST(hostile_submission)
{
    const hostile_case *c = &cases[_i];
    const char *only = getenv("ATTNLAB_HOSTILE_CASE");
    if (only && *only && strcmp(only, c->name) != 0)
        return;
    run r;
    run_init(&r);
    if (lay_out(&r, c)) {
        run_free(&r);
        return;                       /* no device nodes without root */
    }
    const char *args[] = {"--submission", r.sub, "--lab", "1,2", "--student", "hostile", "--json", r.json};
    int cap = c->seconds ? c->seconds : CAP_SECONDS;
    run_grade(&r, c->name, cap, args, 8);

    ck_assert_msg(WIFEXITED(r.status), "%s: attnlab grade died of signal %d", c->name, WTERMSIG(r.status));
    int code = WEXITSTATUS(r.status);
    ck_assert_msg(code == 0 || code == 1, "%s: exit status %d; stderr: %.2000s", c->name, code,
                  r.err ? r.err : "");
    results res;
    char *json = read_json(&r, c->name, &res);
    check_no_marker("results.json", json, c->name);
    check_no_marker("the terminal output", r.out, c->name);
    check_no_marker("stderr", r.err, c->name);
    check_nothing_written(&r, c->name);

    int n_hostile = 0, n_solution = 0;
    gr_strbuf said = {0};
    for (int i = 0; i < res.n_tests; i++) {
        const json_test *t = &res.tests[i];
        char *v = verdict_of(t);
        if (of_lab(t, HOSTILE_LAB)) {
            n_hostile++;
            ck_assert_msg(fk_is_one_of(v, c->verdicts), "%s: %s: verdict '%s', expected %s; output: %.1500s",
                          c->name, t->name, v, c->verdicts, t->output);
            ck_assert_msg(t->score == 0, "%s: %s scored %g", c->name, t->name, t->score);
            gr_sb_append(&said, t->output);   /* a lab's failure is told once, under its lead test */
        } else {
            ck_assert_msg(of_lab(t, SOLUTION_LAB), "%s: a test of neither lab: %s", c->name, t->name);
            n_solution++;
            ck_assert_msg(strcmp(v, "passed") == 0 && t->score == t->max_score,
                          "%s: the solution's %s: %g/%g, %s", c->name, t->name, t->score, t->max_score,
                          t->output);
        }
        free(v);
    }
    ck_assert_msg(n_hostile > 0 && n_solution > 0, "%s: %d tests of lab 1, %d of lab 2", c->name, n_hostile,
                  n_solution);
    const char *lab1 = said.s ? said.s : "";
    ck_assert_msg(!c->says || fk_has_one_of(lab1, c->says), "%s: lab 1 lacks '%s': %.1500s", c->name, c->says, lab1);
    ck_assert_msg(!c->kind || fk_has_one_of(lab1, c->kind), "%s: lab 1 does not say '%s': %.1500s", c->name, c->kind,
                  lab1);
    free(said.s);
    free(json);
    free_results(&res);
    run_free(&r);
}
END_TEST

/* A submission that is not a folder: exit 2, one line on stderr naming it, and
   no report. */
static void expect_refused_submission(const char *what)
{
    run r;
    run_init(&r);
    char *path = gr_xasprintf("%s/%s", r.dir, what);
    if (strcmp(what, "a-file") == 0)
        ck_assert_int_eq(gr_write_file_atomic(path, "x\n", 2), 0);
    const char *args[] = {"--submission", path, "--lab", "1", "--json", r.json};
    run_grade(&r, what, CAP_SECONDS, args, 6);
    ck_assert_msg(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 2, "%s: exit status %d, expected 2", what,
                  WIFEXITED(r.status) ? WEXITSTATUS(r.status) : -1);
    ck_assert_ptr_nonnull(r.err);
    const char *nl = strchr(r.err, '\n');
    ck_assert_msg(nl && nl[1] == '\0', "%s: expected one line on stderr, got: %s", what, r.err);
    ck_assert_msg(strstr(r.err, path) != NULL, "%s: stderr does not name %s: %s", what, path, r.err);
    ck_assert_msg(access(r.json, F_OK) != 0, "%s: results.json was written", what);
    if (access(path, F_OK) == 0)
        unlink(path);
    free(path);
    run_free(&r);
}

START_TEST(submission_that_does_not_exist) { expect_refused_submission("no-such-folder"); }
END_TEST

START_TEST(submission_that_is_a_file) { expect_refused_submission("a-file"); }
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("hostile");
    TCase *tc = tcase_create("submissions");
    tcase_add_unchecked_fixture(tc, base_setup, NULL);
    tcase_set_timeout(tc, BOMB_SECONDS + 30);
    tcase_add_loop_test(tc, hostile_submission, 0, N_CASES);
    tcase_add_test(tc, submission_that_does_not_exist);
    tcase_add_test(tc, submission_that_is_a_file);
    suite_add_tcase(s, tc);
    return s;
}
