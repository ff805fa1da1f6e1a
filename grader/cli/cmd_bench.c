/* cmd_bench.c: `attnlab bench`, time libattn's attention paths on this machine.
 *
 * Three paths compute the same attention, O = softmax(Q K^T / sqrt(d)) V:
 *
 *   reference  attn_forward: every step as its own pass, and the whole
 *              (heads, T, T) weight matrix in memory
 *   online     attn_online_attention: one query and one tile of 64 keys at a
 *              time, running max and sum, in double; no T x T matrix
 *   fused      attn_fused_attention: query blocks x key tiles, in float,
 *              shaped for vectorisation; no T x T matrix
 *
 * Inputs Q, K, V are (B = heads, T, d) with dv = d, standard normals from
 * sup_rng with a fixed seed, so every run times the same numbers. Each path
 * gets one untimed warm-up, then the paths take turns, repeat rounds of one
 * timed run each (so a clock-speed change mid-benchmark hits all three alike).
 * Per path: median and min seconds, GFLOP/s from the median, the speed-up of
 * the median over the reference's, and the largest |difference| of its
 * output from the reference output of the same run: a speed-up is only worth
 * reporting for an answer that is still right.
 *
 * Performance is measured here, on the user's machine, and never asserted in a
 * unit test: test_bench.c checks the command line and the layout of the
 * output, and that the paths agree, not how fast they are.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "attn.h"
#include "cli/commands.h"
#include "labsup.h"

/* The fixed seed of the inputs: Q, then K, then V, from one generator. */
#define BENCH_SEED 20240611u

/* Keys per tile for attn_online_attention. */
#define BENCH_TILE 64

/* The most memory a run may ask for, all buffers together. */
#define BENCH_MAX_BYTES (4.0 * 1024 * 1024 * 1024)

/* Limits of each option, inclusive. */
#define MAX_T      16384
#define MAX_D      1024
#define MAX_HEADS  64
#define MAX_REPEAT 1000

static const char bench_usage[] =
    "usage: attnlab bench [--T N] [--d N] [--heads N] [--causal] [--repeat N]\n"
    "                     [--format table|csv]\n"
    "\n"
    "Time libattn's three attention paths on this machine and check that they agree.\n"
    "\n"
    "  --T N             sequence length, queries = keys (1-16384, default 1024)\n"
    "  --d N             query/key size d, also the value size (1-1024, default 64)\n"
    "  --heads N         heads, the batch B of every call (1-64, default 1)\n"
    "  --causal          causal mask: query i sees keys 0..i\n"
    "  --repeat N        timed runs per path (1-1000, default 7)\n"
    "  --format FORMAT   table (default) or csv\n"
    "  -h, --help        show this help\n"
    "\n"
    "Paths, each computing O = softmax(Q K^T / sqrt(d)) V:\n"
    "  reference  attn_forward (scaled, causal as given): scores, mask, softmax and\n"
    "             output as separate passes over the whole heads x T x T weight matrix\n"
    "             (bench allocates that matrix once, so no timed run includes malloc)\n"
    "  online     attn_online_attention, tile 64: one query at a time, running max\n"
    "             and sum over tiles of keys, in double; no T x T matrix\n"
    "  fused      attn_fused_attention: blocks of queries against tiles of keys, in\n"
    "             float, the fast path; no T x T matrix\n"
    "\n"
    "Q, K and V are (heads, T, d) standard normals from sup_rng with seed 20240611,\n"
    "so every run times the same numbers. Each path runs once untimed (warm-up),\n"
    "then the paths take turns for N rounds of one timed run each, measured with\n"
    "clock_gettime(CLOCK_MONOTONIC), on one thread.\n"
    "\n"
    "Per path:\n"
    "  median_s, min_s        median and fastest of the timed runs, in seconds\n"
    "  gflops                 flops / median_s / 1e9, with\n"
    "                         flops = 4 * heads * T * T * d (2 * T * T * d for Q K^T,\n"
    "                         2 * T * T * d for weights x V, per head), half that\n"
    "                         with --causal; the same count for every path\n"
    "  speedup_vs_reference   the reference's median_s / this path's median_s\n"
    "  max_abs_diff           largest |O - O_reference| over every output element,\n"
    "                         from the same run (0 for the reference itself)\n"
    "The table also shows each path's extra memory beyond Q, K, V and O: the\n"
    "reference's heads * T * T weights are why online and fused exist.\n"
    "\n"
    "CSV: a header row, then one row per path (reference, online, fused):\n"
    "  path,T,d,heads,causal,repeat,median_s,min_s,gflops,speedup_vs_reference,max_abs_diff\n"
    "causal is 0 or 1; numbers have up to 9 significant digits.\n"
    "\n"
    "A run needing more than 4 GiB in all (mostly the heads * T * T * 4 bytes of\n"
    "weights) is refused. Timings depend on the machine and on what else it runs;\n"
    "compare runs made on the same machine.\n"
    "\n"
    "Exit status: 0 measured, 1 a path failed (out of memory), 2 usage error.\n";

/* ---- usage errors ------------------------------------------------------------------ */

/* One line on err in the format every attnlab command uses. Returns -1, so a
   parser can report and fail in one statement; the command then exits 2. */
static int usage_error(FILE *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int usage_error(FILE *err, const char *fmt, ...)
{
    va_list ap;
    fputs("attnlab bench: ", err);
    va_start(ap, fmt);
    vfprintf(err, fmt, ap);
    va_end(ap);
    fputs(" (see 'attnlab bench --help')\n", err);
    return -1;
}

/* ---- parsing the command line -------------------------------------------------------- */

typedef struct bench_opts {
    int T;          /* sequence length: queries = keys */
    int d;          /* query/key size, and value size */
    int heads;      /* B of every call */
    int causal;     /* 1: causal mask */
    int repeat;     /* timed runs per path */
    int csv;        /* --format csv */
} bench_opts;

/* getopt_long values of the long options; above any character, so a value
   tells a long option from a short one. */
enum { OPT_T = 256, OPT_D, OPT_HEADS, OPT_CAUSAL, OPT_REPEAT, OPT_FORMAT, OPT_HELP };

static const struct option bench_longopts[] = {
    {"T", required_argument, 0, OPT_T},
    {"d", required_argument, 0, OPT_D},
    {"heads", required_argument, 0, OPT_HEADS},
    {"causal", no_argument, 0, OPT_CAUSAL},
    {"repeat", required_argument, 0, OPT_REPEAT},
    {"format", required_argument, 0, OPT_FORMAT},
    {"help", no_argument, 0, OPT_HELP},
    {0, 0, 0, 0},
};

/* The long option whose value is val, or NULL. */
static const struct option *long_option(int val)
{
    for (const struct option *o = bench_longopts; o->name; o++)
        if (o->val == val)
            return o;
    return NULL;
}

/* A value to show in "--NAME needs a value, e.g. ...". */
static const char *option_example(int val)
{
    switch (val) {
    case OPT_T: return "1024";
    case OPT_D: return "64";
    case OPT_HEADS: return "8";
    case OPT_REPEAT: return "7";
    default: return "csv";
    }
}

/* The message for a long option getopt_long did not take: an abbreviation of
   more than one option (--he: --heads or --help?), or no option at all.
   Returns -1. */
static int unknown_long_option(FILE *err, const char *arg)
{
    const char *name = arg + strspn(arg, "-");
    size_t len = strcspn(name, "=");
    const struct option *first = NULL, *second = NULL;
    for (const struct option *o = bench_longopts; o->name; o++)
        if (len > 0 && strncmp(o->name, name, len) == 0) {
            if (!first)
                first = o;
            else if (!second)
                second = o;
        }
    if (strncmp(arg, "--", 2) == 0 && second)
        return usage_error(err, "'%.*s' is short for more than one option (--%s, --%s); "
                           "write it out", (int)(len + 2), arg, first->name, second->name);
    return usage_error(err, "unknown option '%s'", arg);
}

/* A whole number in [lo, hi] from text into *out; 0, or -1 after a usage error
   naming the option and what it means. */
static int parse_count(FILE *err, const char *opt, const char *what, const char *text,
                       int lo, int hi, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (end == text || *end != '\0' || errno == ERANGE || v < lo || v > hi)
        return usage_error(err, "--%s takes %s, a whole number from %d to %d (got '%s')",
                           opt, what, lo, hi, text);
    *out = (int)v;
    return 0;
}

/* Parse the whole command line. 0 ok, 1 when --help was shown, or -1 after a
   usage error. */
static int parse_args(FILE *out, FILE *err, int argc, char **argv, bench_opts *o)
{
    memset(o, 0, sizeof *o);
    o->T = 1024;
    o->d = 64;
    o->heads = 1;
    o->repeat = 7;

    optind = 0;        /* a fresh scan, also when called again (tests) */
    opterr = 0;        /* every message comes from here, on err */
    int ch;
    /* '+': stop at the first argument that is not an option; ':': report a
       missing value as ':' rather than '?'. */
    while ((ch = getopt_long(argc, argv, "+:h", bench_longopts, NULL)) != -1) {
        int r = 0;
        switch (ch) {
        case OPT_T:
            r = parse_count(err, "T", "the sequence length", optarg, 1, MAX_T, &o->T);
            break;
        case OPT_D:
            r = parse_count(err, "d", "the query/key size", optarg, 1, MAX_D, &o->d);
            break;
        case OPT_HEADS:
            r = parse_count(err, "heads", "the number of heads", optarg, 1, MAX_HEADS,
                            &o->heads);
            break;
        case OPT_REPEAT:
            r = parse_count(err, "repeat", "the number of timed runs per path", optarg, 1,
                            MAX_REPEAT, &o->repeat);
            break;
        case OPT_CAUSAL:
            o->causal = 1;
            break;
        case OPT_FORMAT:
            if (strcmp(optarg, "table") == 0)
                o->csv = 0;
            else if (strcmp(optarg, "csv") == 0)
                o->csv = 1;
            else
                r = usage_error(err, "--format must be table or csv (got '%s')", optarg);
            break;
        case 'h':
        case OPT_HELP:
            fputs(bench_usage, out);
            return 1;
        case ':': {
            const struct option *lo = long_option(optopt);
            if (lo)
                return usage_error(err, "--%s needs a value, e.g. --%s %s", lo->name,
                                   lo->name, option_example(lo->val));
            return usage_error(err, "'%s' needs a value", argv[optind - 1]);
        }
        default: {                                  /* '?' */
            const struct option *lo = long_option(optopt);
            if (lo)                                 /* --causal=1, --help=x */
                return usage_error(err, "--%s takes no value (got '%s')", lo->name,
                                   argv[optind - 1]);
            if (optopt != 0) {                      /* an unknown short option */
                char name[2] = { (char)optopt, '\0' };
                for (lo = bench_longopts; lo->name; lo++)
                    if (strcmp(lo->name, name) == 0)
                        return usage_error(err, "unknown option '-%c' (did you mean "
                                           "'--%c'?)", optopt, optopt);
                return usage_error(err, "unknown option '-%c'", optopt);
            }
            return unknown_long_option(err, argv[optind - 1]);
        }
        }
        if (r != 0)
            return -1;
    }
    if (optind < argc)
        return usage_error(err, "unexpected argument '%s'", argv[optind]);
    return 0;
}

/* ---- memory ------------------------------------------------------------------------------ */

/* A byte count for people: "768 B", "256.0 KiB", "4.0 MiB", "1.0 GiB". */
static const char *fmt_bytes(char buf[32], double bytes)
{
    static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
    int u = 0;
    while (bytes >= 1024.0 && u < 4) {
        bytes /= 1024.0;
        u++;
    }
    if (u == 0)
        snprintf(buf, 32, "%.0f B", bytes);
    else
        snprintf(buf, 32, "%.1f %s", bytes, unit[u]);
    return buf;
}

/* Bytes of the reference's weight matrix: heads * T * T floats. */
static double weight_bytes(const bench_opts *o)
{
    return (double)o->heads * (double)o->T * (double)o->T * (double)sizeof(float);
}

/* Bytes of one (heads, T, d) tensor. */
static double tensor_bytes(const bench_opts *o)
{
    return (double)o->heads * (double)o->T * (double)o->d * (double)sizeof(float);
}

/* Everything a run allocates: the weights, Q, K, V and one output per path. */
static double run_bytes(const bench_opts *o)
{
    return weight_bytes(o) + 6.0 * tensor_bytes(o);
}

/* Refuse a run that cannot fit: 0, or -1 after a usage error. */
static int check_memory(FILE *err, const bench_opts *o)
{
    double need = run_bytes(o);
    char b1[32], b2[32], b3[32];
    if (need > BENCH_MAX_BYTES)
        return usage_error(err, "--T %d --d %d --heads %d needs %s, of which the reference's "
                           "weight matrix (heads*T*T floats) is %s, more than the 4 GiB bench "
                           "allows; lower --T, --heads or --d", o->T, o->d, o->heads,
                           fmt_bytes(b1, need), fmt_bytes(b2, weight_bytes(o)));
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages > 0 && page > 0 && need > (double)pages * (double)page)
        return usage_error(err, "--T %d --d %d --heads %d needs %s but this machine has %s "
                           "of memory; lower --T, --heads or --d", o->T, o->d, o->heads,
                           fmt_bytes(b1, need), fmt_bytes(b3, (double)pages * (double)page));
    return 0;
}

/* ---- timing ------------------------------------------------------------------------------- */

enum { PATH_REFERENCE, PATH_ONLINE, PATH_FUSED, N_PATHS };

static const char *const path_name[N_PATHS] = { "reference", "online", "fused" };

/* The buffers of one run. */
typedef struct bench_data {
    const bench_opts *o;
    float *Q, *K, *V;          /* (heads, T, d) inputs */
    float *W;                  /* (heads, T, T) weights, the reference's */
    float *O[N_PATHS];         /* (heads, T, d) output of each path */
} bench_data;

/* Per path, what the table and the CSV show. */
typedef struct bench_result {
    double median_s, min_s;
    double gflops;             /* flops / median_s / 1e9 */
    double speedup;            /* reference median / this median */
    double max_abs_diff;       /* max |O - O_reference|, nan if any difference is nan */
    double extra_bytes;        /* memory beyond the inputs and the output */
    const char *extra_what;    /* what that memory is */
} bench_result;

/* Seconds from t0 to t1, differences taken in whole seconds and nanoseconds
   first, so a microsecond run keeps its digits. */
static double elapsed_s(const struct timespec *t0, const struct timespec *t1)
{
    return (double)(t1->tv_sec - t0->tv_sec) + (double)(t1->tv_nsec - t0->tv_nsec) * 1e-9;
}

/* Run one path once; returns what the libattn call returned (-1 is failure). */
static long run_path(int path, bench_data *b)
{
    const bench_opts *o = b->o;
    switch (path) {
    case PATH_REFERENCE: {
        attn_config cfg;
        memset(&cfg, 0, sizeof cfg);
        cfg.scaled = 1;
        cfg.causal = o->causal;
        return attn_forward(b->O[path], b->W, b->Q, b->K, b->V, o->heads, o->T, o->T,
                            o->d, o->d, &cfg);
    }
    case PATH_ONLINE:
        return attn_online_attention(b->O[path], b->Q, b->K, b->V, o->heads, o->T, o->T,
                                     o->d, o->d, BENCH_TILE, o->causal, NULL);
    default:
        return attn_fused_attention(b->O[path], b->Q, b->K, b->V, o->heads, o->T, o->T,
                                    o->d, o->d, o->causal, NULL);
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of n >= 1 values (sorts t). */
static double median(double *t, int n)
{
    qsort(t, (size_t)n, sizeof *t, cmp_double);
    return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

/* Largest |a[i] - b[i]|; nan if any difference is nan. */
static double max_abs_diff(const float *a, const float *b, long n)
{
    double m = 0.0;
    for (long i = 0; i < n; i++) {
        double diff = fabs((double)a[i] - (double)b[i]);
        if (isnan(diff))
            return (double)NAN;
        if (diff > m)
            m = diff;
    }
    return m;
}

/* Flops of one run of any path: 4 * heads * T * T * d, half with the causal mask. */
static double run_flops(const bench_opts *o)
{
    double f = 4.0 * (double)o->heads * (double)o->T * (double)o->T * (double)o->d;
    return o->causal ? f / 2.0 : f;
}

/* Progress on err while the paths run, when err is a terminal (a long run
   would otherwise look stuck): one line, rewritten in place. NULL erases it. */
static void progress(FILE *err, int on, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void progress(FILE *err, int on, const char *fmt, ...)
{
    if (!on)
        return;
    char line[48] = "";
    if (fmt) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(line, sizeof line, fmt, ap);
        va_end(ap);
    }
    /* Spaces over the previous text: works on any terminal, even a dumb one. */
    fprintf(err, "\r%-*s\r%s%s", (int)sizeof line + 16, "", fmt ? "attnlab bench: " : "", line);
    fflush(err);
}

/* Time every path on the inputs in b and fill res. 0, or -1 after a message on
   err (a path failed: out of memory). */
static int time_paths(FILE *err, bench_data *b, double *times, bench_result res[N_PATHS])
{
    const bench_opts *o = b->o;
    int show = isatty(fileno(err));

    /* Warm-up: caches, page faults on the outputs and the weights, clock speed. */
    progress(err, show, "warm-up");
    for (int p = 0; p < N_PATHS; p++)
        if (run_path(p, b) < 0)
            goto failed;

    /* Timed rounds: every path once per round, so drift hits all alike. */
    for (int r = 0; r < o->repeat; r++) {
        progress(err, show, "round %d of %d", r + 1, o->repeat);
        for (int p = 0; p < N_PATHS; p++) {
            struct timespec t0, t1;
            clock_gettime(CLOCK_MONOTONIC, &t0);
            long got = run_path(p, b);
            clock_gettime(CLOCK_MONOTONIC, &t1);
            if (got < 0)
                goto failed;
            times[p * o->repeat + r] = elapsed_s(&t0, &t1);
        }
    }
    progress(err, show, NULL);

    size_t nt = (size_t)o->heads * (size_t)o->T * (size_t)o->d;
    double flops = run_flops(o);
    for (int p = 0; p < N_PATHS; p++) {
        double *t = times + p * o->repeat;
        res[p].median_s = median(t, o->repeat);
        res[p].min_s = t[0];                       /* sorted by median() */
        res[p].gflops = flops / res[p].median_s / 1e9;
        res[p].max_abs_diff = max_abs_diff(b->O[p], b->O[PATH_REFERENCE], (long)nt);
    }
    for (int p = 0; p < N_PATHS; p++)
        res[p].speedup = res[PATH_REFERENCE].median_s / res[p].median_s;

    /* Memory beyond Q, K, V and O. The reference's is the weight matrix; the
       others keep one tile of scores and one accumulator row (online), and K
       repacked tile by tile (fused, "about d * Tk floats" in attn.h). */
    res[PATH_REFERENCE].extra_bytes = weight_bytes(o);
    res[PATH_REFERENCE].extra_what = "heads*T*T weights";
    res[PATH_ONLINE].extra_bytes = (double)BENCH_TILE * (double)sizeof(float) +
                                   (double)o->d * (double)sizeof(double);
    res[PATH_ONLINE].extra_what = "one tile of scores";
    res[PATH_FUSED].extra_bytes = (double)o->d * (double)o->T * (double)sizeof(float);
    res[PATH_FUSED].extra_what = "K repacked, about d*T floats";
    return 0;

failed:
    progress(err, show, NULL);
    fputs("attnlab bench: a libattn path failed while running (out of memory)\n", err);
    return -1;
}

/* Allocate and fill the inputs, time the paths, fill res. 0, or -1 after a
   message on err. */
static int measure(FILE *err, const bench_opts *o, bench_result res[N_PATHS])
{
    size_t nt = (size_t)o->heads * (size_t)o->T * (size_t)o->d;
    size_t nw = (size_t)o->heads * (size_t)o->T * (size_t)o->T;
    bench_data b;
    memset(&b, 0, sizeof b);
    b.o = o;
    b.Q = malloc(nt * sizeof(float));
    b.K = malloc(nt * sizeof(float));
    b.V = malloc(nt * sizeof(float));
    b.W = malloc(nw * sizeof(float));
    for (int p = 0; p < N_PATHS; p++)
        b.O[p] = malloc(nt * sizeof(float));
    double *times = malloc((size_t)N_PATHS * (size_t)o->repeat * sizeof *times);

    int rc = -1;
    if (!b.Q || !b.K || !b.V || !b.W || !b.O[0] || !b.O[1] || !b.O[2] || !times) {
        char buf[32];
        fprintf(err, "attnlab bench: cannot allocate the %s this run needs\n",
                fmt_bytes(buf, run_bytes(o)));
    } else {
        sup_rng rng;
        sup_rng_seed(&rng, BENCH_SEED);
        sup_rng_fill_normal(&rng, b.Q, (long)nt);
        sup_rng_fill_normal(&rng, b.K, (long)nt);
        sup_rng_fill_normal(&rng, b.V, (long)nt);
        rc = time_paths(err, &b, times, res);
    }
    free(b.Q);
    free(b.K);
    free(b.V);
    free(b.W);
    for (int p = 0; p < N_PATHS; p++)
        free(b.O[p]);
    free(times);
    return rc;
}

/* ---- printing ------------------------------------------------------------------------------ */

/* The CPU's name from /proc/cpuinfo ("model name", else "Hardware") into buf,
   or "unknown CPU". */
static void cpu_model(char *buf, size_t size)
{
    static const char *const keys[] = { "model name", "Hardware" };
    char found[2][256] = { "", "" };
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f) {
        char line[512];
        while (fgets(line, sizeof line, f)) {
            for (int k = 0; k < 2; k++) {
                size_t len = strlen(keys[k]);
                if (found[k][0] || strncmp(line, keys[k], len) != 0)
                    continue;
                const char *v = line + len;
                v += strspn(v, " \t");
                if (*v != ':')
                    continue;
                v++;
                v += strspn(v, " \t");
                size_t n = strcspn(v, "\r\n");
                if (n >= sizeof found[k])
                    n = sizeof found[k] - 1;
                memcpy(found[k], v, n);
                found[k][n] = '\0';
            }
        }
        fclose(f);
    }
    const char *name = found[0][0] ? found[0] : found[1][0] ? found[1] : "unknown CPU";
    size_t n = strlen(name);
    if (n >= size)
        n = size - 1;
    memcpy(buf, name, n);
    buf[n] = '\0';
}

static void print_csv(FILE *out, const bench_opts *o, const bench_result res[N_PATHS])
{
    fputs("path,T,d,heads,causal,repeat,median_s,min_s,gflops,speedup_vs_reference,"
          "max_abs_diff\n", out);
    for (int p = 0; p < N_PATHS; p++)
        fprintf(out, "%s,%d,%d,%d,%d,%d,%.9g,%.9g,%.9g,%.9g,%.9g\n", path_name[p], o->T,
                o->d, o->heads, o->causal, o->repeat, res[p].median_s, res[p].min_s,
                res[p].gflops, res[p].speedup, res[p].max_abs_diff);
}

/* Columns of the table: a title and whether its cells are right-aligned. */
#define N_COLS 7
static const struct {
    const char *title;
    int right;
} cols[N_COLS] = {
    { "path", 0 }, { "median (s)", 1 }, { "min (s)", 1 }, { "GFLOP/s", 1 },
    { "speed-up", 1 }, { "max |diff|", 1 }, { "extra memory", 0 },
};

static void print_table(FILE *out, const bench_opts *o, const bench_result res[N_PATHS])
{
    char cpu[256];
    cpu_model(cpu, sizeof cpu);
    fprintf(out, "attnlab bench: T %d, d %d, heads %d, causal %s, repeat %d; CPU %s\n",
            o->T, o->d, o->heads, o->causal ? "yes" : "no", o->repeat, cpu);

    char cell[N_PATHS][N_COLS][96];
    for (int p = 0; p < N_PATHS; p++) {
        char mem[32];
        snprintf(cell[p][0], 96, "%s", path_name[p]);
        snprintf(cell[p][1], 96, "%.6f", res[p].median_s);
        snprintf(cell[p][2], 96, "%.6f", res[p].min_s);
        snprintf(cell[p][3], 96, "%.2f", res[p].gflops);
        snprintf(cell[p][4], 96, "%.2fx", res[p].speedup);
        if (res[p].max_abs_diff == 0.0)
            snprintf(cell[p][5], 96, "0");
        else
            snprintf(cell[p][5], 96, "%.2e", res[p].max_abs_diff);
        snprintf(cell[p][6], 96, "%s (%s)", fmt_bytes(mem, res[p].extra_bytes),
                 res[p].extra_what);
    }
    int w[N_COLS];
    for (int c = 0; c < N_COLS; c++) {
        w[c] = (int)strlen(cols[c].title);
        for (int p = 0; p < N_PATHS; p++)
            if ((int)strlen(cell[p][c]) > w[c])
                w[c] = (int)strlen(cell[p][c]);
    }
    for (int p = -1; p < N_PATHS; p++) {
        for (int c = 0; c < N_COLS; c++) {
            const char *s = p < 0 ? cols[c].title : cell[p][c];
            if (c == N_COLS - 1)
                fprintf(out, "  %s\n", s);           /* last column: no padding */
            else
                fprintf(out, "%s%*s", c ? "  " : "", cols[c].right ? w[c] : -w[c], s);
        }
    }

    char b1[32], b2[32];
    fprintf(out, "\n"
            "GFLOP/s counts 4*heads*T*T*d flops per run%s: %.4g GFLOP here.\n"
            "speed-up: the reference's median over the path's. max |diff|: the largest\n"
            "|O - O_reference| over the outputs of this run.\n"
            "The reference keeps all heads*T*T weights: %s here, %s per head at T %d.\n"
            "Online and fused stream over tiles of keys and never store them; that is\n"
            "why they exist.\n",
            o->causal ? ", halved for causal" : "", run_flops(o) / 1e9,
            fmt_bytes(b1, weight_bytes(o)),
            fmt_bytes(b2, (double)MAX_T * (double)MAX_T * (double)sizeof(float)), MAX_T);
}

/* ---- the command -------------------------------------------------------------------------- */

int cmd_bench_run(FILE *out, FILE *err, int argc, char **argv)
{
    bench_opts o;
    int p = parse_args(out, err, argc, argv, &o);
    if (p != 0)
        return p > 0 ? GR_EXIT_OK : GR_EXIT_USAGE;
    if (check_memory(err, &o) != 0)
        return GR_EXIT_USAGE;

    bench_result res[N_PATHS];
    memset(res, 0, sizeof res);
    if (measure(err, &o, res) != 0)
        return GR_EXIT_FAILED;
    if (o.csv)
        print_csv(out, &o, res);
    else
        print_table(out, &o, res);
    return GR_EXIT_OK;
}

int cmd_bench(int argc, char **argv)
{
    return cmd_bench_run(stdout, stderr, argc, argv);
}
