/* opts.h: every command's options and usage text from one table.
 *
 * A command lists its options once, as rows of gr_opt; gr_opts_parse builds
 * getopt_long's table and short-option string from them and stores each
 * value where its row says, and gr_opts_usage writes the --help text with
 * the options list made from the same rows, so an option cannot be parsed
 * without being documented (test_commands checks each one against
 * doc/attnlab.1 too). getopt_long underneath: what every C command line on
 * Debian uses, and no dependency.
 *
 * Adding an option is one row of the command's table:
 *   GR_FLAG("once", 0, &a->once, "grade once and exit"),
 *   GR_TEXT("out", 'o', &a->out, "DIR", "write the results under DIR"),
 *   GR_INT("jobs", 'j', &o->jobs, "N", "grade N labs at once", 1, 64,
 *          "a number of labs from 1 to 64"),
 *   GR_CALL("shard", 0, shard_option, o, "K/N", "grade slice K of N"),
 *
 * Usage errors are one line on err, "attnlab CMD: ... (see 'attnlab CMD
 * --help')", and GR_EXIT_USAGE: "unknown option '--x'", "--x needs a value",
 * "--x takes WHAT (got 'V')", "unexpected argument 'a'".
 */
#ifndef GR_OPTS_H
#define GR_OPTS_H

#include <stddef.h>
#include <stdio.h>

typedef enum gr_opt_kind {
    GR_OPT_FLAG,   /* no value: *(int *)to = 1 */
    GR_OPT_TEXT,   /* a value: *(const char **)to = it (argv's own text) */
    GR_OPT_INT,    /* a whole number from lo to hi: *(int *)to */
    GR_OPT_CALL    /* a value: call(to, it, why, whylen) is 0, or -1 with why (one line) */
} gr_opt_kind;

typedef struct gr_opt {
    const char *name;      /* the long name, "jobs" for --jobs */
    char key;              /* the one-letter form ('j' for -j), or 0 */
    gr_opt_kind kind;
    void *to;              /* where the value goes */
    const char *arg;       /* the value's name in the usage ("N"); NULL for a flag */
    const char *help;      /* the usage's lines for it, '\n' between them */
    int lo, hi;            /* GR_OPT_INT: its range ... */
    const char *what;      /* ... as "--jobs takes WHAT (got '0')" says it */
    int (*call)(void *to, const char *value, char *why, size_t whylen);   /* GR_OPT_CALL */
    const char *example;   /* a value, for "--NAME needs a value, e.g. --NAME EXAMPLE" */
} gr_opt;

/* A command's usage around its options list. */
typedef struct gr_cmd_spec {
    const char *name;      /* "grade" */
    const char *synopsis;  /* after "usage: attnlab NAME ", its lines */
    const char *about;     /* what it does: the paragraph before the options */
    const char *after;     /* what follows the options (files, environment, exit status) */
    int max_args;          /* arguments after the options at most; -1: any number */
    int in_order;          /* 1: options end at the first argument (getopt's "+") */
    int column;            /* where the options' help starts (0: 21) */
} gr_cmd_spec;

/* One row each, with the fields its kind uses (designated, so the rest are 0);
   more fields may follow: GR_TEXT(..., "help", .example = "csv"). */
#define GR_FLAG(n_, k_, to_, help_, ...) \
    {.name = (n_), .key = (k_), .kind = GR_OPT_FLAG, .to = (to_), .help = (help_), __VA_ARGS__}
#define GR_TEXT(n_, k_, to_, arg_, help_, ...) \
    {.name = (n_), .key = (k_), .kind = GR_OPT_TEXT, .to = (to_), .arg = (arg_), .help = (help_), \
     __VA_ARGS__}
#define GR_INT(n_, k_, to_, arg_, help_, lo_, hi_, what_, ...) \
    {.name = (n_), .key = (k_), .kind = GR_OPT_INT, .to = (to_), .arg = (arg_), .help = (help_), \
     .lo = (lo_), .hi = (hi_), .what = (what_), __VA_ARGS__}
#define GR_CALL(n_, k_, fn_, to_, arg_, help_, ...) \
    {.name = (n_), .key = (k_), .kind = GR_OPT_CALL, .call = (fn_), .to = (to_), .arg = (arg_), \
     .help = (help_), __VA_ARGS__}

#define GR_OPTS_HELP (-1)  /* gr_opts_parse's answer to --help or -h */

/* Parse argv[1..] by opts (n rows; --help and -h are every command's):
   0 with *first the index of the first argument, GR_OPTS_HELP after the
   usage on out, or GR_EXIT_USAGE after a usage error on err. */
int gr_opts_parse(const gr_cmd_spec *cmd, const gr_opt *opts, int n, int argc, char **argv,
                  FILE *out, FILE *err, int *first);

/* The --help text: synopsis, about, the options list from opts, after. */
void gr_opts_usage(FILE *out, const gr_cmd_spec *cmd, const gr_opt *opts, int n);

/* For a GR_OPT_CALL function: why gets the message, and -1 is returned. */
int gr_opt_fail(char *why, size_t whylen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* GR_OPT_CALL functions every command may use: --format table|csv into
   *(int *)to (1: csv), and --seed's whole number from 0 to 2^53 into
   *(uint64_t *)to. */
int gr_opt_table_or_csv(void *to, const char *value, char *why, size_t whylen);
int gr_opt_seed(void *to, const char *value, char *why, size_t whylen);

/* A number's macro as text, for a row's what: "from 1 to " GR_OPT_STR(MAX_COUNT). */
#define GR_OPT_STR(x) GR_OPT_STR_(x)
#define GR_OPT_STR_(x) #x

#define GR_N_OPTS(a) ((int)(sizeof(a) / sizeof((a)[0])))

#endif
