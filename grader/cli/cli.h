/* cli.h: what every attnlab subcommand says on a usage error (the options
 * themselves: cli/opts.h). */
#ifndef GR_CLI_H
#define GR_CLI_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include "cli/commands.h"   /* GR_EXIT_USAGE */

/* Print "attnlab CMD: <message> (see 'attnlab CMD --help')" on stderr; returns
   GR_EXIT_USAGE. */
int gr_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The same on the stream err, with the message's arguments in ap. Returns
   GR_EXIT_USAGE. */
int gr_vusage_error(FILE *err, const char *cmd, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));

/* The same one line on err, returning -1, so a parser that hands back -1 on
   failure can report and fail in one statement. */
int gr_usage_fail(FILE *err, const char *cmd, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
