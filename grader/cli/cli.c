/* cli.c: see cli.h. */
#include "cli/cli.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int gr_usage_fail(FILE *err, const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    gr_vusage_error(err, cmd, fmt, ap);
    va_end(ap);
    return -1;
}
