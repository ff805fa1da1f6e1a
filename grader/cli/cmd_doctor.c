/* cmd_doctor.c: `attnlab doctor`, what this machine has and what that means.
 *
 * One row per thing attnlab needs: the C compiler and the static C library
 * (the test child is linked statically), make and pkg-config, Check (the
 * labs' visible tests), libyaml, libseccomp and Jansson (building attnlab), gnuplot
 * (plots), nm (the check of what a compiled lab calls); then the kernel's
 * layers around the toolchain (confine.h) and the test child (sandbox.h).
 * Each missing piece says exactly what to install; each missing layer says
 * what grading loses without it.
 */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/opts.h"
#include "confined/confine.h"
#include "confined/sandbox.h"
#include "base/util.h"

extern char **environ;

static const gr_cmd_spec doctor_cmd = {
    .name = "doctor",
    .synopsis = "",
    .about =
    "Check what attnlab needs on this machine: the C compiler ($ATTNLAB_CC or\n"
    "cc) and the static C library, make, pkg-config, Check, libyaml, libseccomp,\n"
    "Jansson, gnuplot and nm; then the kernel's layers around the compiler and the\n"
    "tests (namespaces, Landlock, seccomp, rlimits). Every missing tool comes\n"
    "with the command that installs it (Debian and Ubuntu package names), and\n"
    "every missing layer with what grading loses without it.\n",
    .after =
    "Exit status: 0 everything needed to build and grade is here (a weaker\n"
    "sandbox is said, not failed), 1 something needed is missing, 2 usage error.\n",
    .max_args = 0,
    .in_order = 1,
};

/* One tool: how to find its version, the package that has it, and what is
   lost without it. */
typedef struct doctor_tool {
    const char *name;           /* the row's name */
    const char *argv[5];        /* a command that prints its version first */
    const char *package;        /* Debian/Ubuntu package */
    int needed;                 /* 1: building or grading cannot work without it */
    const char *without;        /* what does not work without it */
} doctor_tool;

static const doctor_tool tools[] = {
    {"make", {"make", "--version", NULL}, "make", 1, "no make target runs"},
    {"pkg-config", {"pkg-config", "--version", NULL}, "pkg-config", 1,
     "the Makefiles cannot find Check, libyaml, libseccomp and Jansson"},
    {"Check", {"pkg-config", "--modversion", "check", NULL}, "check", 1,
     "make check and each lab's make test (the visible tests) cannot build"},
    {"libyaml", {"pkg-config", "--modversion", "yaml-0.1", NULL}, "libyaml-dev", 1,
     "attnlab itself cannot be rebuilt (it reads every rubric with libyaml)"},
    {"libseccomp", {"pkg-config", "--modversion", "libseccomp", NULL}, "libseccomp-dev", 1,
     "attnlab itself cannot be rebuilt (its sandbox filters system calls)"},
    {"Jansson", {"pkg-config", "--modversion", "jansson", NULL}, "libjansson-dev", 1,
     "attnlab itself cannot be rebuilt (it writes and reads every results.json with Jansson)"},
    {"nm", {"nm", "--version", NULL}, "binutils", 1,
     "a compiled lab's calls cannot be checked, so no lab can be graded"},
    {"gnuplot", {"gnuplot", "--version", NULL}, "gnuplot-nox", 0,
     "attnlab plot and make plots cannot draw (grading is unaffected)"},
};

/* Run argv (found on PATH), its stdout's first line into line. 0 when it ran
   and exited 0, -1 otherwise. */
static int first_line_of(const char *const *argv, char *line, size_t len)
{
    int fds[2];
    line[0] = '\0';
    if (pipe(fds) != 0)
        return -1;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addclose(&fa, fds[0]);
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], &fa, NULL, (char *const *)(uintptr_t)argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fds[1]);
    if (rc != 0) {
        close(fds[0]);
        return -1;
    }
    size_t n = 0;
    ssize_t got;
    while (n + 1 < len && (got = read(fds[0], line + n, len - 1 - n)) > 0)
        n += (size_t)got;
    line[n] = '\0';
    line[strcspn(line, "\n")] = '\0';
    char drain[256];
    while (read(fds[0], drain, sizeof drain) > 0)
        ;                                /* let it finish writing */
    close(fds[0]);
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* One row: ok or MISSING, the name, and the version or what is lost. */
static void row(FILE *out, const char *mark, const char *name, const char *text)
{
    fprintf(out, "  %-8s %-12s %s\n", mark, name, text);
}

/* The compiler and its static C library. Adds their packages to missing. */
static int check_compiler(FILE *out, gr_strbuf *missing)
{
    const char *cc = getenv("ATTNLAB_CC");
    if (!cc || !*cc)
        cc = "cc";
    char line[512];
    const char *version[] = {cc, "--version", NULL};
    if (first_line_of(version, line, sizeof line) != 0) {
        char *why = gr_xasprintf("'%s' does not run: nothing can be compiled or graded", cc);
        row(out, "MISSING", "compiler", why);
        free(why);
        gr_sb_append(missing, " build-essential");
        return 1;
    }
    row(out, "ok", "compiler", line);
    /* the test child is linked statically: -print-file-name answers a bare
       name when the library is not there */
    const char *libc[] = {cc, "-print-file-name=libc.a", NULL};
    if (first_line_of(libc, line, sizeof line) != 0 || line[0] != '/') {
        row(out, "MISSING", "libc.a", "the static C library: no test child can be linked");
        gr_sb_append(missing, " libc6-dev");
        return 1;
    }
    row(out, "ok", "libc.a", line);
    return 0;
}

/* The tools of the table. Adds the packages of those missing to missing;
   the number of needed ones missing. */
static int check_tools(FILE *out, gr_strbuf *missing)
{
    int bad = 0;
    for (size_t i = 0; i < sizeof tools / sizeof tools[0]; i++) {
        const doctor_tool *t = &tools[i];
        char line[512];
        if (first_line_of(t->argv, line, sizeof line) == 0) {
            row(out, "ok", t->name, line);
            continue;
        }
        row(out, "MISSING", t->name, t->without);
        gr_sb_printf(missing, " %s", t->package);
        bad += t->needed;
    }
    return bad;
}

/* The kernel's layers and what each missing one costs. */
static void check_layers(FILE *out)
{
    const gr_confine_layers *l = gr_confine_probe();
    gr_strbuf walls = {0};
    gr_confine_describe(l, &walls);
    fprintf(out, "\nThe compiler runs confined by: %s\n", walls.s ? walls.s : "");
    fprintf(out, "The tests run confined by: %s\n", gr_sandbox_layers());
    free(walls.s);
    const char *off = getenv("ATTNLAB_CONFINE_DISABLE");
    if (off && *off)
        fprintf(out, "(ATTNLAB_CONFINE_DISABLE=%s turns some layers off on purpose)\n", off);
    int weaker = 0;
    if (!l->identity && geteuid() == 0)
        weaker += fprintf(out, "  weaker: the tools run as root, not as user nobody\n") > 0;
    if (!l->namespace)
        weaker += fprintf(out, "  weaker: no private namespaces, so the compiler is not shut in a view\n"
                          "          of the toolchain alone; allow unprivileged user namespaces\n"
                          "          (sysctl user.max_user_namespaces=15000, and on older Debian\n"
                          "          kernel.unprivileged_userns_clone=1; in Docker, run with\n"
                          "          --security-opt seccomp=unconfined) to add that wall\n") > 0;
    if (!l->landlock_abi)
        weaker += fprintf(out, "  weaker: no Landlock (Linux 5.13 or later with landlock in the lsm=\n"
                          "          boot list): the files the compiler may read are walled by the\n"
                          "          namespace alone, and test children are not kept from files\n") > 0;
    if (!l->seccomp)
        weaker += fprintf(out, "  weaker: no seccomp for the toolchain: a compiler tricked by student\n"
                          "          text could use sockets, ptrace or mounts\n") > 0;
    char *yama = gr_read_file("/proc/sys/kernel/yama/ptrace_scope", NULL);
    int scope = gr_inspect_yama_blocks(yama, (unsigned)geteuid());
    free(yama);
    if (scope)
        weaker += fprintf(out, "  weaker: kernel.yama.ptrace_scope is %d, so the grader cannot read a\n"
                          "          test child's memory after its call: leaks are judged, writes\n"
                          "          below an array or past a malloc'd block are not%s\n", scope,
                          scope == 2 ? " (grade as root,\n          or sysctl kernel.yama.ptrace_scope=1)"
                                     : "") > 0;
    if (!gr_sandbox_has_seccomp())
        weaker += fprintf(out, "  weaker: no seccomp for the test child: tests are refused or run\n"
                          "          without the system-call allow-list (kernel needs\n"
                          "          CONFIG_SECCOMP_FILTER)\n") > 0;
    if (!weaker)
        fputs("  Every layer is on: grading here is as strict as it gets.\n", out);
}

int cmd_doctor_run(FILE *out, FILE *err, int argc, char **argv)
{
    int first, rc = gr_opts_parse(&doctor_cmd, NULL, 0, argc, argv, out, err, &first);
    if (rc != 0)
        return rc == GR_OPTS_HELP ? GR_EXIT_OK : rc;
    gr_strbuf missing = {0};
    fputs("attnlab doctor: what this machine has for attnlab\n\n", out);
    int bad = check_compiler(out, &missing);
    bad += check_tools(out, &missing);
    check_layers(out);
    if (missing.s) {
        fprintf(out, "\nTo install what is missing (Debian, Ubuntu):\n"
                "  %sapt-get install -y --no-install-recommends%s\n",
                geteuid() == 0 ? "" : "sudo ", missing.s);
    }
    fprintf(out, "\n%s\n", bad ? "Something needed is missing: install it, then run 'make'."
                               : "Everything needed to build and grade is here.");
    free(missing.s);
    return bad ? GR_EXIT_FAILED : GR_EXIT_OK;
}

int cmd_doctor(int argc, char **argv)
{
    return cmd_doctor_run(stdout, stderr, argc, argv);
}
