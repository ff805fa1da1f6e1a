/* driver.c: run a fuzz target on saved inputs, without clang or libFuzzer.
 *
 *   fuzz_NAME FILE|FOLDER...
 *
 * Each file (each file of a folder, in name order) is read whole and given to
 * LLVMFuzzerTestOneInput in a child process of its own, with a time limit, so
 * one crashing or hanging input is reported by name and the rest still run.
 * Prints a line per failing input, then "NAME: N passed, N failed"; exits 1
 * if any failed. make test runs it over grader/fuzz/corpus/NAME and
 * grader/fuzz/regress/NAME.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fuzz.h"

#define INPUT_SECONDS 20     /* a hang: far above any input's run under ASan */

static int passed, failed;

/* Read path whole into a malloc'd buffer; NULL on error. */
static uint8_t *read_input(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    for (size_t got; buf && (got = fread(buf + n, 1, cap - n, f)) > 0;) {
        n += got;
        if (n == cap) {
            uint8_t *more = realloc(buf, cap *= 2);
            if (!more)
                free(buf);
            buf = more;
        }
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        return NULL;
    }
    *size = n;
    return buf;
}

/* Run one input in a child; count it as passed or failed. */
static void run_file(const char *prog, const char *path)
{
    size_t size = 0;
    uint8_t *data = read_input(path, &size);
    if (!data) {
        fprintf(stderr, "%s: %s: cannot read: %s\n", prog, path, strerror(errno));
        failed++;
        return;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        alarm(INPUT_SECONDS);
        LLVMFuzzerTestOneInput(data, size);
        free(data);
        exit(0);
    }
    free(data);
    int st = 0;
    if (pid < 0 || waitpid(pid, &st, 0) != pid) {
        fprintf(stderr, "%s: %s: cannot run: %s\n", prog, path, strerror(errno));
        failed++;
    } else if (WIFSIGNALED(st)) {
        fprintf(stderr, "%s: %s: FAILED, %s\n", prog, path,
                WTERMSIG(st) == SIGALRM ? "hung (over the time limit)" : strsignal(WTERMSIG(st)));
        failed++;
    } else if (WEXITSTATUS(st) != 0) {
        fprintf(stderr, "%s: %s: FAILED, exit status %d\n", prog, path, WEXITSTATUS(st));
        failed++;
    } else {
        passed++;
    }
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

static int not_hidden(const struct dirent *e)
{
    return e->d_name[0] != '.';
}

/* Run every file of folder dir, in name order. */
static void run_folder(const char *prog, const char *dir)
{
    struct dirent **names;
    int n = scandir(dir, &names, not_hidden, by_name);
    if (n < 0) {
        fprintf(stderr, "%s: %s: cannot list: %s\n", prog, dir, strerror(errno));
        failed++;
        return;
    }
    for (int i = 0; i < n; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]->d_name);
        run_file(prog, path);
        free(names[i]);
    }
    free(names);
}

int main(int argc, char **argv)
{
    const char *prog = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE|FOLDER...  (run saved inputs through the target)\n",
                prog);
        return 2;
    }
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode))
            run_folder(prog, argv[i]);
        else
            run_file(prog, argv[i]);
    }
    printf("%s: %d passed, %d failed\n", prog, passed, failed);
    return failed ? 1 : 0;
}
