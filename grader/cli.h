/* cli.h: what every attnlab subcommand says on a usage error. */
#ifndef GR_CLI_H
#define GR_CLI_H

#include <stdarg.h>
#include <stdio.h>

/* Print "attnlab CMD: <message> (see 'attnlab CMD --help')" on stderr; returns 2,
   the exit status of every usage error. */
int gr_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The same on the stream err, with the message's arguments in ap. Returns 2. */
int gr_vusage_error(FILE *err, const char *cmd, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));

/* Message for the option getopt_long rejected at argv[optind - 1]. */
int gr_bad_option(const char *cmd, const char *arg);

#endif
