/* cli.h: what every attnlab subcommand says on a usage error. */
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

/* Message for the option getopt_long rejected at argv[optind - 1]. */
int gr_bad_option(const char *cmd, const char *arg);

/* The same one line on err, returning -1, so a parser that hands back -1 on
   failure can report and fail in one statement. */
int gr_usage_fail(FILE *err, const char *cmd, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Read --seed's value text, a whole number from 0 to 2^53 (every such seed is
   exact in a rubric param, a double), into *seed and return 0; or return -1
   after a usage error on err, leaving *seed as it was. */
int gr_seed_option(FILE *err, const char *cmd, const char *text, uint64_t *seed);

#endif
