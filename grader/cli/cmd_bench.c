/* cmd_bench.c: `attnlab bench`, time libattn's attention paths on this machine,
 * against the machine's own limit: the command line, its checks (the memory a
 * run needs among them), and the run. What is measured and how is
 * bench_measure.h's; the measuring is bench_measure.c, the printing
 * bench_report.c.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "attn.h"
#include "cli/bench_measure.h"
#include "cli/commands.h"
#include "labsup.h"

/* The most memory a run may ask for, all buffers together. */
#define BENCH_MAX_BYTES (4.0 * 1024 * 1024 * 1024)

/* Limits of each option, inclusive. */
#define MAX_T      16384
#define MAX_D      1024
#define MAX_HEADS  64
#define MAX_REPEAT 1000
#define MAX_THREADS 64

static const char bench_usage[] =
    "usage: attnlab bench [--T N] [--d N] [--heads N] [--causal] [--repeat N]\n"
    "                     [--threads N] [--format table|csv] [--blas none|LIBRARY]\n"
    "                     [--isa auto|avx512|avx2|portable]\n"
    "\n"
    "Time libattn's attention paths on this machine against one-core sgemm, the\n"
    "machine's limit, and check that they agree.\n"
    "\n"
    "  --T N             sequence length, queries = keys (1-16384, default 1024)\n"
    "  --d N             query/key size d, also the value size (1-1024, default 64)\n"
    "  --heads N         heads, the batch B of every call (1-64, default 1)\n"
    "  --causal          causal mask: query i sees keys 0..i\n"
    "  --repeat N        timed runs per path (1-1000, default 7)\n"
    "  --threads N       threads of the fused path and of OpenBLAS (1-64, default 1):\n"
    "                    the limit is then sgemm on N threads; reference and online\n"
    "                    always run on one\n"
    "  --format FORMAT   table (default) or csv\n"
    "  --blas LIBRARY    the OpenBLAS to load (default libopenblas.so.0), or none\n"
    "                    to time libattn's paths alone\n"
    "  --isa ISA         the fused path's kernel: auto (default, the best this CPU\n"
    "                    runs), avx512, avx2 or portable; one this CPU cannot run\n"
    "                    is a usage error\n"
    "  -h, --help        show this help\n"
    "\n"
    "Paths, each computing O = softmax(Q K^T / sqrt(d)) V except sgemm:\n"
    "  reference  attn_forward (scaled, causal as given): scores, mask, softmax and\n"
    "             output as separate passes over the whole heads x T x T weight matrix\n"
    "             (bench allocates that matrix once, so no timed run includes malloc)\n"
    "  online     attn_online_attention, tile 64: one query at a time, running max\n"
    "             and sum over tiles of keys, in double; no T x T matrix\n"
    "  fused      attn_fused_attention: blocks of queries against tiles of keys, in\n"
    "             float, SIMD kernels (AVX-512, AVX2+FMA or portable, as the CPU\n"
    "             allows); the fast path; no T x T matrix\n"
    "  pipeline   OpenBLAS sgemm Q K^T / sqrt(d), the mask, attn_softmax, sgemm S V:\n"
    "             attention the unfused way, head by head through a T x T matrix\n"
    "  sgemm      OpenBLAS sgemm Q K^T then S V and nothing else, on one thread:\n"
    "             the limit (always both whole products, even with --causal)\n"
    "pipeline and sgemm need OpenBLAS (Debian: apt-get install libopenblas0),\n"
    "loaded at run time; without it bench says so and times the other three.\n"
    "\n"
    "Q, K and V are (heads, T, d) standard normals from sup_rng with seed 20240611,\n"
    "so every run times the same numbers. Each path runs once untimed (warm-up) and\n"
    "once in a child process to bench_measure its memory, then the paths take turns for\n"
    "N rounds of one timed run each, measured with clock_gettime(CLOCK_MONOTONIC),\n"
    "on one thread unless --threads says more.\n"
    "\n"
    "Per path:\n"
    "  median_s, min_s        median and fastest of the timed runs, in seconds\n"
    "  gflops                 flops / median_s / 1e9, with\n"
    "                         flops = 4 * heads * T * T * d (2 * T * T * d for Q K^T,\n"
    "                         2 * T * T * d for weights x V, per head), half that\n"
    "                         with --causal (the work that counts); sgemm's is\n"
    "                         never halved\n"
    "  fraction_of_sgemm      gflops / sgemm's gflops (empty without OpenBLAS)\n"
    "  speedup_vs_reference   the reference's median_s / this path's median_s\n"
    "  max_abs_diff           largest |O - O_reference| over every output element,\n"
    "                         from the same run (0 for the reference itself; empty\n"
    "                         for sgemm, which computes no attention)\n"
    "  peak_mib               memory one run allocates and touches beyond Q, K, V\n"
    "                         and O, in MiB: the rise of the resident high-water\n"
    "                         mark (Linux; empty where it cannot be read)\n"
    "  threads                the threads the path ran on (--threads for fused,\n"
    "                         pipeline and sgemm, 1 for reference and online)\n"
    "\n"
    "CSV: a header row, then one row per path (reference, online, fused, then\n"
    "pipeline and sgemm with OpenBLAS):\n"
    "  " BENCH_CSV_HEADER "\n"
    "causal is 0 or 1; numbers have up to 9 significant digits.\n"
    "\n"
    "A run needing more than 4 GiB in all (mostly the heads * T * T * 4 bytes of\n"
    "weights) is refused. Timings depend on the machine and on what else it runs;\n"
    "compare runs made on the same machine. `make bench` times a standard set and\n"
    "draws build/bench/bench-d64.png, -d64-causal, -d128 and -d128-causal.\n"
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

/* getopt_long values of the long options; above any character, so a value
   tells a long option from a short one. */
enum { OPT_T = 256, OPT_D, OPT_HEADS, OPT_CAUSAL, OPT_REPEAT, OPT_THREADS, OPT_FORMAT, OPT_BLAS,
       OPT_ISA, OPT_HELP };

static const struct option bench_longopts[] = {
    {"T", required_argument, 0, OPT_T},
    {"d", required_argument, 0, OPT_D},
    {"heads", required_argument, 0, OPT_HEADS},
    {"causal", no_argument, 0, OPT_CAUSAL},
    {"repeat", required_argument, 0, OPT_REPEAT},
    {"threads", required_argument, 0, OPT_THREADS},
    {"format", required_argument, 0, OPT_FORMAT},
    {"blas", required_argument, 0, OPT_BLAS},
    {"isa", required_argument, 0, OPT_ISA},
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
    case OPT_THREADS: return "2";
    case OPT_BLAS: return "none";
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

/* --isa's value into *isa, a kernel this CPU runs; 0, or -1 after a usage error. */
static int parse_isa(FILE *err, const char *text, attn_isa *isa)
{
    static const attn_isa all[] = {ATTN_ISA_AUTO, ATTN_ISA_AVX512, ATTN_ISA_AVX2,
                                   ATTN_ISA_PORTABLE};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        if (strcmp(text, attn_isa_name(all[i])) != 0)
            continue;
        int runs = attn_fused_set_isa(all[i]) == 0;    /* asked only: run sets it */
        attn_fused_set_isa(ATTN_ISA_AUTO);
        if (!runs)
            return usage_error(err, "--isa %s: this CPU cannot run that kernel (its best is %s)",
                               text, attn_fused_isa());
        *isa = all[i];
        return 0;
    }
    return usage_error(err, "--isa takes auto, avx512, avx2 or portable (got '%s')", text);
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
    o->threads = 1;
    o->blas = "";

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
        case OPT_THREADS:
            r = parse_count(err, "threads", "the threads of the fused path and OpenBLAS", optarg,
                            1, MAX_THREADS, &o->threads);
            break;
        case OPT_CAUSAL:
            o->causal = 1;
            break;
        case OPT_BLAS:
            if (optarg[0] == '\0')
                r = usage_error(err, "--blas takes none or an OpenBLAS library file (got '')");
            o->blas = optarg;
            break;
        case OPT_ISA:
            r = parse_isa(err, optarg, &o->isa);
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

/* Refuse a run that cannot fit: 0, or -1 after a usage error. */
static int check_memory(FILE *err, const bench_opts *o)
{
    double need = bench_run_bytes(o);
    char b1[32], b2[32], b3[32];
    if (need > BENCH_MAX_BYTES)
        return usage_error(err, "--T %d --d %d --heads %d needs %s, of which the reference's "
                           "weight matrix (heads*T*T floats) is %s, more than the 4 GiB bench "
                           "allows; lower --T, --heads or --d", o->T, o->d, o->heads,
                           bench_fmt_bytes(b1, need), bench_fmt_bytes(b2, bench_weight_bytes(o)));
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages > 0 && page > 0 && need > (double)pages * (double)page)
        return usage_error(err, "--T %d --d %d --heads %d needs %s but this machine has %s "
                           "of memory; lower --T, --heads or --d", o->T, o->d, o->heads,
                           bench_fmt_bytes(b1, need), bench_fmt_bytes(b3, (double)pages * (double)page));
    return 0;
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

    bench_blas bl;
    memset(&bl, 0, sizeof bl);
    if (strcmp(o.blas, "none") == 0)
        snprintf(bl.why, sizeof bl.why, "--blas none");
    else if (bench_blas_load(&bl, o.blas[0] ? o.blas : NULL, o.threads) != 0 && o.csv)
        fprintf(err, "attnlab bench: %s: sgemm and pipeline not timed; install it with "
                "'apt-get install libopenblas0'\n", bl.why);

    bench_result res[BENCH_N_PATHS];
    memset(res, 0, sizeof res);
    attn_fused_set_threads(o.threads);     /* in range: parse_args checked it */
    attn_fused_set_isa(o.isa);             /* one this CPU runs: parse_args checked it */
    int rc = bench_measure(err, &o, &bl, res);
    attn_fused_set_threads(1);
    if (rc == 0 && o.csv)
        bench_print_csv(out, &o, bench_n_paths(&bl), res);
    else if (rc == 0)
        bench_print_table(out, &o, &bl, res);   /* it names the kernel that ran */
    attn_fused_set_isa(ATTN_ISA_AUTO);
    bench_blas_close(&bl);
    return rc == 0 ? GR_EXIT_OK : GR_EXIT_FAILED;
}

int cmd_bench(int argc, char **argv)
{
    return cmd_bench_run(stdout, stderr, argc, argv);
}

