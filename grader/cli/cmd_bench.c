/* cmd_bench.c: `attnlab bench`, time libattn's attention paths on this machine,
 * against the machine's own limit.
 *
 * Three libattn paths compute the same attention, O = softmax(Q K^T / sqrt(d)) V:
 *
 *   reference  attn_forward: every step as its own pass, and the whole
 *              (heads, T, T) weight matrix in memory
 *   online     attn_online_attention: one query and one tile of 64 keys at a
 *              time, running max and sum, in double; no T x T matrix
 *   fused      attn_fused_attention: query blocks x key tiles, in float, SIMD
 *              kernels; no T x T matrix
 *
 * and, where OpenBLAS can be loaded (dlopen: attnlab neither needs it to
 * build nor to run), two more on one core:
 *
 *   pipeline   sgemm, scale and mask, attn_softmax, sgemm: attention the
 *              unfused way, one head's (T, T) scores at a time
 *   sgemm      the two products alone (Q K^T, then S V): how fast this machine
 *              multiplies matrices, the limit every path is measured against
 *
 * Inputs Q, K, V are (B = heads, T, d) with dv = d, standard normals from
 * sup_rng with a fixed seed, so every run times the same numbers. Each path
 * gets one untimed warm-up and one memory run (in a child process, whose
 * resident high-water mark gives the path's peak memory), then the paths take
 * turns, repeat rounds of one timed run each (so a clock-speed change or a
 * busy neighbour mid-benchmark hits all alike). Per path: median and min
 * seconds, GFLOP/s from the median, its fraction of sgemm's GFLOP/s, the
 * speed-up of the median over the reference's, the largest |difference| of its
 * output from the reference output of the same run (a speed-up is only worth
 * reporting for an answer that is still right), and its peak memory.
 *
 * Performance is measured here, on the user's machine, and never asserted in a
 * unit test: test_bench.c checks the command line and the layout of the
 * output, and that the paths agree, not how fast they are.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
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
#define MAX_THREADS 64

#define BENCH_CSV_HEADER "path,T,d,heads,causal,repeat,median_s,min_s,gflops," \
                         "fraction_of_sgemm,speedup_vs_reference,max_abs_diff,peak_mib," \
                         "threads"

static const char bench_usage[] =
    "usage: attnlab bench [--T N] [--d N] [--heads N] [--causal] [--repeat N]\n"
    "                     [--threads N] [--format table|csv] [--blas none|LIBRARY]\n"
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
    "once in a child process to measure its memory, then the paths take turns for\n"
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

typedef struct bench_opts {
    int T;          /* sequence length: queries = keys */
    int d;          /* query/key size, and value size */
    int heads;      /* B of every call */
    int causal;     /* 1: causal mask */
    int repeat;     /* timed runs per path */
    int threads;    /* threads of fused, pipeline and sgemm */
    int csv;        /* --format csv */
    const char *blas;  /* --blas: "" the usual OpenBLAS, "none", or a library */
} bench_opts;

/* getopt_long values of the long options; above any character, so a value
   tells a long option from a short one. */
enum { OPT_T = 256, OPT_D, OPT_HEADS, OPT_CAUSAL, OPT_REPEAT, OPT_THREADS, OPT_FORMAT, OPT_BLAS,
       OPT_HELP };

static const struct option bench_longopts[] = {
    {"T", required_argument, 0, OPT_T},
    {"d", required_argument, 0, OPT_D},
    {"heads", required_argument, 0, OPT_HEADS},
    {"causal", no_argument, 0, OPT_CAUSAL},
    {"repeat", required_argument, 0, OPT_REPEAT},
    {"threads", required_argument, 0, OPT_THREADS},
    {"format", required_argument, 0, OPT_FORMAT},
    {"blas", required_argument, 0, OPT_BLAS},
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

/* Everything a run allocates: the weights, one head's (T, T) scores for the
   OpenBLAS paths, Q, K, V and one output per path. */
static double run_bytes(const bench_opts *o)
{
    return weight_bytes(o) + weight_bytes(o) / o->heads + 8.0 * tensor_bytes(o);
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

/* ---- OpenBLAS, the machine's limit, loaded at run time ----------------------------------- */

/* cblas_sgemm's enums, as the CBLAS interface fixes them. */
enum { CBLAS_ROW_MAJOR = 101, CBLAS_NO_TRANS = 111, CBLAS_TRANS = 112 };

typedef void (*cblas_sgemm_fn)(int order, int trans_a, int trans_b, int M, int N, int K,
                               float alpha, const float *A, int lda, const float *B, int ldb,
                               float beta, float *C, int ldc);

/* The OpenBLAS bench times against, if one could be loaded. */
typedef struct bench_blas {
    void *handle;              /* dlopen handle, NULL: no OpenBLAS */
    cblas_sgemm_fn sgemm;
    char file[64];             /* the library name that loaded */
    char core[64];             /* the kernel OpenBLAS chose (openblas_get_corename) */
    char why[160];             /* why none was loaded */
} bench_blas;

/* The OpenBLAS kernel family (its DYNAMIC_ARCH core name) made for the best
   vector unit this CPU has: the one it could run. */
static const char *best_blas_core(void)
{
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f")) return "SkylakeX";
    if (__builtin_cpu_supports("avx2"))
        return __builtin_cpu_is("amd") ? "Zen" : "Haswell";
    if (__builtin_cpu_supports("avx")) return "Sandybridge";
    return "Nehalem";
#else
    return "the one OpenBLAS detects";
#endif
}

/* Load OpenBLAS (name NULL: the usual sonames) and set it to threads threads.
   0, or -1 with bl->why saying what is missing. */
static int blas_load(bench_blas *bl, const char *name, int threads)
{
    static const char *const sonames[] = { "libopenblas.so.0", "libopenblas.so" };
    memset(bl, 0, sizeof bl[0]);
    for (int k = 0; k < 2 && !bl->handle; k++) {
        const char *try = name ? name : sonames[k];
        bl->handle = dlopen(try, RTLD_NOW | RTLD_LOCAL);
        snprintf(bl->file, sizeof bl->file, "%s", try);
        if (name) break;
    }
    if (!bl->handle) {
        snprintf(bl->why, sizeof bl->why, "no OpenBLAS (%s could not be loaded)",
                 name ? name : "libopenblas.so.0");
        return -1;
    }
    void (*set_threads)(int) = (void (*)(int))dlsym(bl->handle, "openblas_set_num_threads");
    char *(*corename)(void) = (char *(*)(void))dlsym(bl->handle, "openblas_get_corename");
    bl->sgemm = (cblas_sgemm_fn)dlsym(bl->handle, "cblas_sgemm");
    if (!set_threads || !corename || !bl->sgemm) {
        snprintf(bl->why, sizeof bl->why, "%s is not OpenBLAS (no cblas_sgemm, "
                 "openblas_set_num_threads or openblas_get_corename)", bl->file);
        dlclose(bl->handle);
        bl->handle = NULL;
        return -1;
    }
    set_threads(threads);                  /* the limit of as many cores as fused has */
    snprintf(bl->core, sizeof bl->core, "%s", corename());
    return 0;
}

/* The line about the kernel: which one runs, and whether it is the best. */
static void blas_note(FILE *out, const bench_blas *bl)
{
    const char *forced = getenv("OPENBLAS_CORETYPE");
    const char *best = best_blas_core();
    fprintf(out, "OpenBLAS %s: kernel %s; this CPU could run %s", bl->file, bl->core, best);
    if (forced && *forced)
        fprintf(out, " (OPENBLAS_CORETYPE=%s is set, so OpenBLAS runs that one; unset it "
                "and OPENBLAS_L2_SIZE for this command alone to time the best)", forced);
    else if (strcasecmp(bl->core, best) != 0 && strchr(best, ' ') == NULL)
        fputs(" (OpenBLAS chose another: an older OpenBLAS may not know this CPU)", out);
    fputs(".\n", out);
}

/* ---- timing ------------------------------------------------------------------------------- */

enum { PATH_REFERENCE, PATH_ONLINE, PATH_FUSED, PATH_PIPELINE, PATH_SGEMM, N_PATHS };

static const char *const path_name[N_PATHS] = {
    "reference", "online", "fused", "pipeline", "sgemm"
};

/* The paths a run times: the three of libattn, then with OpenBLAS the two
   that use it. */
static int n_paths(const bench_blas *bl)
{
    return bl->handle ? N_PATHS : PATH_PIPELINE;
}

/* The buffers of one run. */
typedef struct bench_data {
    const bench_opts *o;
    const bench_blas *blas;
    float *Q, *K, *V;          /* (heads, T, d) inputs */
    float *W;                  /* (heads, T, T) weights, the reference's */
    float *S;                  /* (T, T) one head's scores, sgemm and pipeline */
    float *O[N_PATHS];         /* (heads, T, d) output of each path */
} bench_data;

/* Per path, what the table and the CSV show. */
typedef struct bench_result {
    double median_s, min_s;
    double gflops;             /* flops / median_s / 1e9 */
    double fraction;           /* gflops / sgemm's gflops, nan without OpenBLAS */
    double speedup;            /* reference median / this median */
    double max_abs_diff;       /* max |O - O_reference|, nan if any difference is nan */
    double peak_bytes;         /* memory the path allocates and touches, measured */
} bench_result;

/* Seconds from t0 to t1, differences taken in whole seconds and nanoseconds
   first, so a microsecond run keeps its digits. */
static double elapsed_s(const struct timespec *t0, const struct timespec *t1)
{
    return (double)(t1->tv_sec - t0->tv_sec) + (double)(t1->tv_nsec - t0->tv_nsec) * 1e-9;
}

/* The two OpenBLAS paths, head by head through S (T, T): sgemm alone computes
   S = Q K^T and O = S V, the two products of attention and nothing else (the
   limit); the pipeline computes S = Q K^T / sqrt(d), masks, takes attn_softmax
   and then O = S V, attention the unfused way. S NULL: allocated here (the
   memory run). Returns 0, or -1 when memory runs out. */
static long run_blas(int path, bench_data *b, float *S)
{
    const bench_opts *o = b->o;
    int T = o->T, d = o->d;
    float *mine = NULL;
    if (S == NULL && (S = mine = malloc((size_t)T * (size_t)T * sizeof *S)) == NULL) return -1;
    float alpha = path == PATH_PIPELINE ? (float)(1.0 / sqrt((double)d)) : 1.0f;
    for (int h = 0; h < o->heads; h++) {
        long off = (long)h * T * d;
        b->blas->sgemm(CBLAS_ROW_MAJOR, CBLAS_NO_TRANS, CBLAS_TRANS, T, T, d, alpha,
                       b->Q + off, d, b->K + off, d, 0.0f, S, T);
        if (path == PATH_PIPELINE) {
            if (o->causal) attn_causal_mask(S, 1, T, T);
            attn_softmax(S, S, T, T);
        }
        b->blas->sgemm(CBLAS_ROW_MAJOR, CBLAS_NO_TRANS, CBLAS_NO_TRANS, T, d, T, 1.0f,
                       S, T, b->V + off, d, 0.0f, b->O[path] + off, d);
    }
    free(mine);
    return 0;
}

/* Run one path once; returns what the libattn call returned (-1 is failure).
   scratch 0: the reference and the OpenBLAS paths allocate their own (T, T)
   buffers, as a user's call would (the memory run); 1: they use the run's. */
static long run_path(int path, bench_data *b, int scratch)
{
    const bench_opts *o = b->o;
    switch (path) {
    case PATH_REFERENCE: {
        attn_config cfg;
        memset(&cfg, 0, sizeof cfg);
        cfg.scaled = 1;
        cfg.causal = o->causal;
        return attn_forward(b->O[path], scratch ? b->W : NULL, b->Q, b->K, b->V, o->heads,
                            o->T, o->T, o->d, o->d, &cfg);
    }
    case PATH_ONLINE:
        return attn_online_attention(b->O[path], b->Q, b->K, b->V, o->heads, o->T, o->T,
                                     o->d, o->d, BENCH_TILE, o->causal, NULL);
    case PATH_FUSED:
        return attn_fused_attention(b->O[path], b->Q, b->K, b->V, o->heads, o->T, o->T,
                                    o->d, o->d, o->causal, NULL);
    default:
        return run_blas(path, b, scratch ? b->S : NULL);
    }
}

/* The kibibytes on line key of /proc/self/status ("VmHWM:"), or -1. */
static long status_kib(const char *key)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kib = -1;
    size_t n = strlen(key);
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, key, n) == 0) kib = strtol(line + n, NULL, 10);
    if (f) fclose(f);
    return kib;
}

/* Peak memory of one run of path, in bytes: in a child process, the resident
   high-water mark is reset (/proc/self/clear_refs, Linux), the path runs
   allocating what it needs, and the new mark minus the resident size before
   is what it added. -1 where this cannot be measured. */
static double peak_bytes(int path, bench_data *b)
{
    int fd[2];
    if (pipe(fd) != 0) return -1.0;
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        double peak = -1.0;
        int cr = open("/proc/self/clear_refs", O_WRONLY);
        long before = -1, after = -1;
        if (cr >= 0 && write(cr, "5", 1) == 1) {
            before = status_kib("VmRSS:");
            if (run_path(path, b, 0) >= 0) after = status_kib("VmHWM:");
        }
        if (before >= 0 && after >= before) peak = (double)(after - before) * 1024.0;
        if (write(fd[1], &peak, sizeof peak) != (ssize_t)sizeof peak) _exit(1);
        _exit(0);
    }
    close(fd[1]);
    double peak = -1.0;
    if (pid < 0 || read(fd[0], &peak, sizeof peak) != (ssize_t)sizeof peak) peak = -1.0;
    close(fd[0]);
    if (pid > 0) waitpid(pid, NULL, 0);
    return peak;
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

/* Flops of one run of path: 4 * heads * T * T * d, half with the causal mask,
   except for sgemm, which always does both whole products (it is the limit:
   how fast this machine multiplies, whatever the work is worth). */
static double run_flops(const bench_opts *o, int path)
{
    double f = 4.0 * (double)o->heads * (double)o->T * (double)o->T * (double)o->d;
    return o->causal && path != PATH_SGEMM ? f / 2.0 : f;
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

/* Median, min, GFLOP/s, fraction of sgemm, speed-up and max |diff| of each
   path from its times (sorted here) and outputs. */
static void summarise(bench_data *b, double *times, int np, bench_result res[N_PATHS])
{
    const bench_opts *o = b->o;
    size_t nt = (size_t)o->heads * (size_t)o->T * (size_t)o->d;
    for (int p = 0; p < np; p++) {
        double *t = times + p * o->repeat;
        res[p].median_s = median(t, o->repeat);
        res[p].min_s = t[0];                       /* sorted by median() */
        res[p].gflops = run_flops(o, p) / res[p].median_s / 1e9;
        res[p].speedup = res[PATH_REFERENCE].median_s / res[p].median_s;
        /* sgemm's output is S V without softmax: no attention to compare */
        res[p].max_abs_diff = p == PATH_SGEMM ? (double)NAN
                            : max_abs_diff(b->O[p], b->O[PATH_REFERENCE], (long)nt);
    }
    for (int p = 0; p < np; p++)
        res[p].fraction = np > PATH_SGEMM ? res[p].gflops / res[PATH_SGEMM].gflops
                                          : (double)NAN;
}

/* Time every path on the inputs in b and fill res. 0, or -1 after a message on
   err (a path failed: out of memory). */
static int time_paths(FILE *err, bench_data *b, double *times, bench_result res[N_PATHS])
{
    const bench_opts *o = b->o;
    int show = isatty(fileno(err)), np = n_paths(b->blas);

    /* Warm-up: caches, page faults on the outputs and the weights, clock speed;
       then each path's peak memory, measured in a child of its own. */
    progress(err, show, "warm-up");
    for (int p = 0; p < np; p++) {
        if (run_path(p, b, 1) < 0)
            goto failed;
        res[p].peak_bytes = peak_bytes(p, b);
    }

    /* Timed rounds: every path once per round, so drift hits all alike. */
    for (int r = 0; r < o->repeat; r++) {
        progress(err, show, "round %d of %d", r + 1, o->repeat);
        for (int p = 0; p < np; p++) {
            struct timespec t0, t1;
            clock_gettime(CLOCK_MONOTONIC, &t0);
            long got = run_path(p, b, 1);
            clock_gettime(CLOCK_MONOTONIC, &t1);
            if (got < 0)
                goto failed;
            times[p * o->repeat + r] = elapsed_s(&t0, &t1);
        }
    }
    progress(err, show, NULL);
    summarise(b, times, np, res);
    return 0;

failed:
    progress(err, show, NULL);
    fputs("attnlab bench: a path failed while running (out of memory)\n", err);
    return -1;
}

/* Allocate and fill the inputs, time the paths, fill res. 0, or -1 after a
   message on err. */
static int measure(FILE *err, const bench_opts *o, const bench_blas *bl,
                   bench_result res[N_PATHS])
{
    size_t nt = (size_t)o->heads * (size_t)o->T * (size_t)o->d;
    size_t nw = (size_t)o->heads * (size_t)o->T * (size_t)o->T;
    bench_data b;
    memset(&b, 0, sizeof b);
    b.o = o;
    b.blas = bl;
    b.Q = malloc(nt * sizeof(float));
    b.K = malloc(nt * sizeof(float));
    b.V = malloc(nt * sizeof(float));
    b.W = malloc(nw * sizeof(float));
    b.S = bl->handle ? malloc((size_t)o->T * (size_t)o->T * sizeof(float)) : NULL;
    int ok = b.Q && b.K && b.V && b.W && (b.S || !bl->handle);
    for (int p = 0; p < n_paths(bl); p++)
        ok = (b.O[p] = malloc(nt * sizeof(float))) != NULL && ok;
    double *times = malloc((size_t)N_PATHS * (size_t)o->repeat * sizeof *times);

    int rc = -1;
    if (!ok || !times) {
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
    free(b.S);
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

/* A CSV number: %.9g, or an empty field for nan (no such value). */
static void csv_number(FILE *out, double v, const char *sep)
{
    if (isnan(v))
        fputs(sep, out);
    else
        fprintf(out, "%.9g%s", v, sep);
}

static void print_csv(FILE *out, const bench_opts *o, int np, const bench_result res[N_PATHS])
{
    fputs(BENCH_CSV_HEADER "\n", out);
    for (int p = 0; p < np; p++) {
        fprintf(out, "%s,%d,%d,%d,%d,%d,%.9g,%.9g,%.9g,", path_name[p], o->T, o->d, o->heads,
                o->causal, o->repeat, res[p].median_s, res[p].min_s, res[p].gflops);
        csv_number(out, res[p].fraction, ",");
        fprintf(out, "%.9g,", res[p].speedup);
        csv_number(out, res[p].max_abs_diff, ",");
        csv_number(out, res[p].peak_bytes < 0 ? (double)NAN
                        : res[p].peak_bytes / (1024.0 * 1024.0), ",");
        fprintf(out, "%d\n", p == PATH_REFERENCE || p == PATH_ONLINE ? 1 : o->threads);
    }
}

/* Columns of the table: a title and whether its cells are right-aligned. */
#define N_COLS 8
static const struct {
    const char *title;
    int right;
} cols[N_COLS] = {
    { "path", 0 }, { "median (s)", 1 }, { "min (s)", 1 }, { "GFLOP/s", 1 },
    { "of sgemm", 1 }, { "speed-up", 1 }, { "max |diff|", 1 }, { "peak memory", 1 },
};

/* The cells of path p's row. */
static void table_row(char cell[N_COLS][48], int p, const bench_result *r)
{
    snprintf(cell[0], 48, "%s", path_name[p]);
    snprintf(cell[1], 48, "%.6f", r->median_s);
    snprintf(cell[2], 48, "%.6f", r->min_s);
    snprintf(cell[3], 48, "%.2f", r->gflops);
    if (isnan(r->fraction))
        snprintf(cell[4], 48, "-");
    else
        snprintf(cell[4], 48, "%.0f%%", 100.0 * r->fraction);
    snprintf(cell[5], 48, "%.2fx", r->speedup);
    if (isnan(r->max_abs_diff) && p == PATH_SGEMM)
        snprintf(cell[6], 48, "-");
    else if (r->max_abs_diff == 0.0)
        snprintf(cell[6], 48, "0");
    else
        snprintf(cell[6], 48, "%.2e", r->max_abs_diff);
    if (r->peak_bytes < 0)
        snprintf(cell[7], 48, "?");
    else
        fmt_bytes(cell[7], r->peak_bytes);
}

static void print_table(FILE *out, const bench_opts *o, const bench_blas *bl,
                        const bench_result res[N_PATHS])
{
    char cpu[256];
    int np = n_paths(bl);
    cpu_model(cpu, sizeof cpu);
    fprintf(out, "attnlab bench: T %d, d %d, heads %d, causal %s, repeat %d; CPU %s; "
            "fused kernel %s, %d thread%s\n", o->T, o->d, o->heads, o->causal ? "yes" : "no",
            o->repeat, cpu, attn_fused_isa(), o->threads, o->threads == 1 ? "" : "s");

    char cell[N_PATHS][N_COLS][48];
    for (int p = 0; p < np; p++)
        table_row(cell[p], p, &res[p]);
    int w[N_COLS];
    for (int c = 0; c < N_COLS; c++) {
        w[c] = (int)strlen(cols[c].title);
        for (int p = 0; p < np; p++)
            if ((int)strlen(cell[p][c]) > w[c])
                w[c] = (int)strlen(cell[p][c]);
    }
    for (int p = -1; p < np; p++)
        for (int c = 0; c < N_COLS; c++)
            fprintf(out, "%s%*s%s", c ? "  " : "", cols[c].right ? w[c] : -w[c],
                    p < 0 ? cols[c].title : cell[p][c], c == N_COLS - 1 ? "\n" : "");

    char b1[32];
    fprintf(out, "\n"
            "GFLOP/s counts 4*heads*T*T*d flops per run%s: %.4g GFLOP here.\n"
            "of sgemm: GFLOP/s as a share of sgemm's, one-core OpenBLAS doing just the two\n"
            "products, the limit. speed-up: the reference's median over the path's.\n"
            "max |diff|: the largest |O - O_reference| over the outputs of this run.\n"
            "peak memory: what one run allocates and touches beyond Q, K, V and O. The\n"
            "reference keeps all heads*T*T weights (%s here), the pipeline one head's\n"
            "T*T scores; online and fused stream over tiles of keys and store neither.\n",
            o->causal ? ", halved for causal (sgemm does both whole products)" : "",
            run_flops(o, PATH_FUSED) / 1e9, fmt_bytes(b1, weight_bytes(o)));
    if (bl->handle)
        blas_note(out, bl);
    else
        fprintf(out, "sgemm and pipeline not timed: %s. Install it with\n"
                "  apt-get install libopenblas0   (Debian, Ubuntu)\n", bl->why);
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
    else if (blas_load(&bl, o.blas[0] ? o.blas : NULL, o.threads) != 0 && o.csv)
        fprintf(err, "attnlab bench: %s: sgemm and pipeline not timed; install it with "
                "'apt-get install libopenblas0'\n", bl.why);

    bench_result res[N_PATHS];
    memset(res, 0, sizeof res);
    attn_fused_set_threads(o.threads);     /* in range: parse_args checked it */
    int rc = measure(err, &o, &bl, res);
    attn_fused_set_threads(1);
    if (rc == 0 && o.csv)
        print_csv(out, &o, n_paths(&bl), res);
    else if (rc == 0)
        print_table(out, &o, &bl, res);
    if (bl.handle)
        dlclose(bl.handle);
    return rc == 0 ? GR_EXIT_OK : GR_EXIT_FAILED;
}

int cmd_bench(int argc, char **argv)
{
    return cmd_bench_run(stdout, stderr, argc, argv);
}
