/* cli.h: what every attnlab subcommand says on a usage error. */
#ifndef GR_CLI_H
#define GR_CLI_H

/* Print "attnlab CMD: <message> (see 'attnlab CMD --help')" on stderr; returns 2,
   the exit status of every usage error. */
int gr_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Message for the option getopt_long rejected at argv[optind - 1]. */
int gr_bad_option(const char *cmd, const char *arg);

#endif
