/* cli.c: see cli.h. */
#include "cli.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int gr_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "attnlab %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, " (see 'attnlab %s --help')\n", cmd);
    return 2;
}

int gr_bad_option(const char *cmd, const char *arg)
{
    if (arg && strncmp(arg, "--", 2) == 0 && !strchr(arg, '='))
        return gr_usage_error(cmd, "unknown option or missing value: '%s'", arg);
    return gr_usage_error(cmd, "unknown option or missing value: '%s'", arg ? arg : "?");
}
