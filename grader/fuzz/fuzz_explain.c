/* fuzz_explain.c: `attnlab explain`'s command line (grader/cmd_explain.c) on
 * any bytes.
 *
 * A self-learner types --scores, --mask, --scale, --temperature and --format by
 * hand; every mistake must be a usage error (exit 2, one line on stderr) and
 * every accepted row must print without a crash. The input is the argument
 * list, one argument per line ("--scores\n2 1 -1 0.5\n--mask\n0 0 0 1").
 * cmd_explain_run gets it as argv[1..] with argv[0] = "explain"; the table or
 * CSV goes to /dev/null, the error line to a memory stream that is checked.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "fuzz.h"

#define MAX_ARGS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *devnull;
    if (!devnull)
        devnull = fopen("/dev/null", "w");
    fuzz_check(devnull != NULL, "cannot open /dev/null");

    /* split a NUL-terminated copy at newlines; a NUL byte ends its argument early */
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = '\0';
    static char name[] = "explain";
    char *argv[MAX_ARGS + 2];
    int argc = 0;
    argv[argc++] = name;
    for (char *p = text; argc <= MAX_ARGS;) {
        argv[argc++] = p;
        char *nl = memchr(p, '\n', size - (size_t)(p - text));
        if (!nl)
            break;
        *nl = '\0';
        p = nl + 1;
    }
    if (size == 0)
        argc = 1;
    argv[argc] = NULL;

    char *msg = NULL;
    size_t msg_len = 0;
    FILE *err = open_memstream(&msg, &msg_len);
    fuzz_check(err != NULL, "cannot open a memory stream");
    int rc = cmd_explain_run(devnull, err, argc, argv);
    fclose(err);
    fuzz_check(rc == GR_EXIT_OK || rc == GR_EXIT_USAGE, "exit status is neither 0 nor 2");
    if (rc == GR_EXIT_USAGE)
        fuzz_check(strncmp(msg, "attnlab explain: ", 17) == 0 && msg_len > 17 &&
                   msg[msg_len - 1] == '\n', "a usage error without its line on stderr");
    free(msg);
    free(text);
    return 0;
}
