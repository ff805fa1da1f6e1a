/* cli.c: see cli.h. */
#include "cli.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int gr_vusage_error(FILE *err, const char *cmd, const char *fmt, va_list ap)
{
    fprintf(err, "attnlab %s: ", cmd);
    vfprintf(err, fmt, ap);
    fprintf(err, " (see 'attnlab %s --help')\n", cmd);
    return 2;
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
    if (arg && strncmp(arg, "--", 2) == 0 && !strchr(arg, '='))
        return gr_usage_error(cmd, "unknown option or missing value: '%s'", arg);
    return gr_usage_error(cmd, "unknown option or missing value: '%s'", arg ? arg : "?");
}
