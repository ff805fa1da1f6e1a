/* labrun.h: what the `make run` programs share (run_lab04.c, run_lab05.c,
 * run_lab08.c): their command line, their messages, and the table or CSV
 * they print. Not graded, and you need not read it to do a lab; it is here so
 * that every lab's `make run` takes the same options and says things the same
 * way.
 *
 *   make run                     a table, seed 1
 *   make run SEED=7 FORMAT=csv   the same experiment with seed 7, as CSV with a
 *                                header row (for plotting)
 *
 * make passes SEED and FORMAT on as --seed and --format. A program may take
 * whole-number options of its own (lab 4: --T and --trials; make run
 * ARGS="--T 256"). --help prints the usage.
 *
 * How a run program uses it:
 *
 *   labrun r = labrun_options("run_lab05", argc, argv, NULL, 0);
 *   int rc = lab_masking_experiment(..., r.seed);
 *   if (rc == LAB_NOT_IMPLEMENTED)
 *       return labrun_stop(&r, "lab_masking_experiment is not implemented yet; ...");
 *   static const labrun_column cols[3] = {         // CSV name, table heading,
 *       { "rowsum", "rowsum", 12, 6 }, ...          // table width, decimals
 *   };
 *   labrun_note(&r, "lab 5: ..., seed %llu", (unsigned long long)r.seed);
 *   labrun_header(&r, "pads", cols, 3);            // the column names
 *   for (...)
 *       labrun_row(&r, pads[m], values, cols, 3);   // one row per setting
 *
 * labrun_options   reads --seed N (default 1), --format table|csv (default
 *                  table) and the program's own options; after --help it
 *                  exits with status 0, after a wrong option with status 2
 * labrun_stop      says why the run stops, on stderr, as one line starting
 *                  with the program's name; returns 1, the exit status
 * labrun_note      a line of the table's text (a title, a footnote); the CSV
 *                  leaves it out, so it stays a header row and numbers
 * labrun_header    the header row: the key column's name, then each column's
 * labrun_row       one row: the key (a whole number: a size, a count), then
 *                  one number per column; CSV gets %.6f, the table each
 *                  column's own width and decimals
 */
#ifndef LABRUN_H
#define LABRUN_H

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__)
#define LABRUN_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define LABRUN_PRINTF(fmt, args)
#endif

/* What the command line asked for. */
typedef struct labrun {
    const char *prog;   /* the program's name, first in every message: "run_lab05" */
    uint64_t seed;      /* --seed N: the experiment's seed (default 1) */
    int csv;            /* --format csv: 1; --format table (the default): 0 */
} labrun;

/* A whole-number option of one program: --T 256. */
typedef struct labrun_count {
    const char *name;   /* "--T" */
    const char *what;   /* for messages: "a number of keys" */
    int max;            /* it takes a whole number from 1 to max */
    int *value;         /* holds the default; the option sets it */
} labrun_count;

/* A column of numbers in the output. */
typedef struct labrun_column {
    const char *csv;    /* its name in the CSV header: "rowsum_predicted" */
    const char *title;  /* its heading in the table: "predicted" */
    int width;          /* the table prints it as %*.*f with this width ... */
    int decimals;       /* ... and these decimals (the CSV always as %.6f) */
} labrun_column;

/* Parse a whole decimal number >= 0 into *out: 0, or -1 when text is not one
   (or is too large for 64 bits). */
static inline int labrun_parse_u64(const char *text, uint64_t *out)
{
    char *end = NULL;
    if (text == NULL || *text < '0' || *text > '9')
        return -1;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno != 0 || *end != '\0')
        return -1;
    *out = (uint64_t)v;
    return 0;
}

/* The usage line(s), with the program's own options, to f. */
static inline void labrun_usage(FILE *f, const char *prog, const labrun_count *counts,
                                int n_counts)
{
    fprintf(f, "usage: %s [--seed N] [--format table|csv]", prog);
    for (int i = 0; i < n_counts; i++)
        fprintf(f, " [%s N]", counts[i].name);
    fprintf(f, "\n  (from make: make run SEED=N FORMAT=csv)\n");
}

/* Read argv: --seed N, --format table|csv, --help (or -h), and the program's
   own options counts[0..n_counts) (NULL, 0 when it has none); prog names the
   program in messages. --help prints the usage and exits with status 0; a
   wrong option is said on stderr, and the program exits with status 2. */
static inline labrun labrun_options(const char *prog, int argc, char **argv,
                                    const labrun_count *counts, int n_counts)
{
    labrun r = { prog, 1, 0 };
    for (int a = 1; a < argc; a += 2) {   /* every option but --help takes a value */
        const char *opt = argv[a], *val = a + 1 < argc ? argv[a + 1] : NULL;
        const labrun_count *count = NULL;
        for (int i = 0; i < n_counts; i++)
            if (strcmp(opt, counts[i].name) == 0)
                count = &counts[i];
        if (strcmp(opt, "--help") == 0 || strcmp(opt, "-h") == 0) {
            labrun_usage(stdout, prog, counts, n_counts);
            exit(0);
        }
        if (count == NULL && strcmp(opt, "--seed") != 0 && strcmp(opt, "--format") != 0) {
            fprintf(stderr, "%s: unknown option '%s'.\n", prog, opt);
            labrun_usage(stderr, prog, counts, n_counts);
            exit(2);
        }
        if (val == NULL) {
            fprintf(stderr, "%s: '%s' needs a value after it.\n", prog, opt);
            labrun_usage(stderr, prog, counts, n_counts);
            exit(2);
        }
        if (strcmp(opt, "--seed") == 0) {
            if (labrun_parse_u64(val, &r.seed) != 0) {
                fprintf(stderr, "%s: the seed '%s' is not a whole number >= 0; give one "
                        "like SEED=7.\n", prog, val);
                exit(2);
            }
        } else if (strcmp(opt, "--format") == 0) {
            if (strcmp(val, "table") != 0 && strcmp(val, "csv") != 0) {
                fprintf(stderr, "%s: unknown format '%s'; use FORMAT=table or FORMAT=csv.\n",
                        prog, val);
                exit(2);
            }
            r.csv = strcmp(val, "csv") == 0;
        } else {
            uint64_t v;
            if (labrun_parse_u64(val, &v) != 0 || v < 1 || v > (uint64_t)count->max) {
                fprintf(stderr, "%s: %s needs %s from 1 to %d, got '%s'.\n", prog,
                        count->name, count->what, count->max, val);
                exit(2);
            }
            *count->value = (int)v;
        }
    }
    return r;
}

/* Say on stderr, as one line after the program's name, why the run stops
   (printf's format and arguments); returns 1, the exit status. */
static inline int labrun_stop(const labrun *r, const char *fmt, ...) LABRUN_PRINTF(2, 3);
static inline int labrun_stop(const labrun *r, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s: ", r->prog);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return 1;
}

/* A line of the table's text (printf's format and arguments; the newline is
   added); nothing when the output is CSV. */
static inline void labrun_note(const labrun *r, const char *fmt, ...) LABRUN_PRINTF(2, 3);
static inline void labrun_note(const labrun *r, const char *fmt, ...)
{
    va_list ap;
    if (r->csv)
        return;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
}

/* The header row: key, then the n columns' names (CSV) or headings (table). */
static inline void labrun_header(const labrun *r, const char *key,
                                 const labrun_column *cols, int n)
{
    printf(r->csv ? "%s" : "%6s", key);
    for (int c = 0; c < n; c++) {
        if (r->csv)
            printf(",%s", cols[c].csv);
        else
            printf("  %*s", cols[c].width, cols[c].title);
    }
    putchar('\n');
}

/* One row: the whole number key, then v[c] for each of the n columns. */
static inline void labrun_row(const labrun *r, int key, const double *v,
                              const labrun_column *cols, int n)
{
    printf(r->csv ? "%d" : "%6d", key);
    for (int c = 0; c < n; c++) {
        if (r->csv)
            printf(",%.6f", v[c]);
        else
            printf("  %*.*f", cols[c].width, cols[c].decimals, v[c]);
    }
    putchar('\n');
}

#endif
