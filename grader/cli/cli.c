/* cli.c: see cli.h. */
#include "cli/cli.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SEED (1ULL << 53)  /* every seed up to 2^53 is exact in a rubric param (a double) */

int gr_vusage_error(FILE *err, const char *cmd, const char *fmt, va_list ap)
{
    fprintf(err, "attnlab %s: ", cmd);
    vfprintf(err, fmt, ap);
    fprintf(err, " (see 'attnlab %s --help')\n", cmd);
    return GR_EXIT_USAGE;
}

int gr_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = gr_vusage_error(stderr, cmd, fmt, ap);
    va_end(ap);
    return rc;
}

int gr_bad_option(const char *cmd, const char *arg)
{
    return gr_usage_error(cmd, "unknown option or missing value: '%s'", arg ? arg : "?");
}

int gr_usage_fail(FILE *err, const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    gr_vusage_error(err, cmd, fmt, ap);
    va_end(ap);
    return -1;
}

int gr_seed_option(FILE *err, const char *cmd, const char *text, uint64_t *seed)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (!isdigit((unsigned char)text[0]) || *end != '\0' || errno == ERANGE || v > MAX_SEED)
        return gr_usage_fail(err, cmd, "--seed takes a whole number from 0 to 2^53 (got '%s')",
                             text);
    *seed = (uint64_t)v;
    return 0;
}
