/* cmd_bench.c: `attnlab bench`, time libattn's attention paths on this machine,
 * against the machine's own limit: the command line, its checks (the memory a
 * run needs among them), and the run. What is measured and how is
 * bench_measure.h's; the measuring is bench_measure.c, the printing
 * bench_report.c.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "attn.h"
#include "bench/bench_measure.h"
#include "cli/commands.h"
#include "cli/opts.h"
#include "labsup.h"

/* The most memory a run may ask for, all buffers together. */
#define BENCH_MAX_BYTES (4.0 * 1024 * 1024 * 1024)

/* Limits of each option, inclusive. */
#define MAX_T      16384
#define MAX_D      1024
#define MAX_HEADS  64
#define MAX_REPEAT 1000
#define MAX_THREADS 64

static const gr_cmd_spec bench_cmd = {
    .name = "bench",
    .synopsis =
    "[--T N] [--d N] [--heads N] [--causal] [--repeat N]\n"
    "                     [--threads N] [--format table|csv] [--blas none|LIBRARY]\n"
    "                     [--isa auto|avx512|avx2|portable]",
    .about =
    "Time libattn's attention paths on this machine against one-core sgemm, the\n"
    "machine's limit, and check that they agree.\n",
    .after =
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
    "Exit status: 0 measured, 1 a path failed (out of memory), 2 usage error.\n",
    .max_args = 0,
    .in_order = 1,
    .column = 20,
};

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

/* --blas LIBRARY or none: not empty. */
static int blas_option(void *to, const char *value, char *why, size_t whylen)
{
    if (value[0] == '\0')
        return gr_opt_fail(why, whylen, "--blas takes none or an OpenBLAS library file (got '')");
    *(const char **)to = value;
    return 0;
}

/* --isa's value into *(attn_isa *)to, a kernel this CPU runs. */
static int isa_option(void *to, const char *text, char *why, size_t whylen)
{
    static const attn_isa all[] = {ATTN_ISA_AUTO, ATTN_ISA_AVX512, ATTN_ISA_AVX2,
                                   ATTN_ISA_PORTABLE};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        if (strcmp(text, attn_isa_name(all[i])) != 0)
            continue;
        int runs = attn_fused_set_isa(all[i]) == 0;    /* asked only: run sets it */
        attn_fused_set_isa(ATTN_ISA_AUTO);
        if (!runs)
            return gr_opt_fail(why, whylen, "--isa %s: this CPU cannot run that kernel (its best is %s)",
                               text, attn_fused_isa());
        *(attn_isa *)to = all[i];
        return 0;
    }
    return gr_opt_fail(why, whylen, "--isa takes auto, avx512, avx2 or portable (got '%s')", text);
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
    const gr_opt opts[] = {
        GR_INT("T", 0, &o->T, "N",
                "sequence length, queries = keys (1-16384, default 1024)",
               1, MAX_T, "the sequence length, a whole number from 1 to " GR_OPT_STR(MAX_T), .example = "1024"),
        GR_INT("d", 0, &o->d, "N",
                "query/key size d, also the value size (1-1024, default 64)",
               1, MAX_D, "the query/key size, a whole number from 1 to " GR_OPT_STR(MAX_D), .example = "64"),
        GR_INT("heads", 0, &o->heads, "N",
                "heads, the batch B of every call (1-64, default 1)",
               1, MAX_HEADS, "the number of heads, a whole number from 1 to " GR_OPT_STR(MAX_HEADS), .example = "8"),
        GR_FLAG("causal", 0, &o->causal,
                "causal mask: query i sees keys 0..i"),
        GR_INT("repeat", 0, &o->repeat, "N",
                "timed runs per path (1-1000, default 7)",
               1, MAX_REPEAT, "the number of timed runs per path, a whole number from 1 to " GR_OPT_STR(MAX_REPEAT), .example = "7"),
        GR_INT("threads", 0, &o->threads, "N",
                "threads of the fused path and of OpenBLAS (1-64, default 1):\n"
                "the limit is then sgemm on N threads; reference and online\n"
                "always run on one",
               1, MAX_THREADS, "the threads of the fused path and OpenBLAS, a whole number from 1 to " GR_OPT_STR(MAX_THREADS), .example = "2"),
        GR_CALL("format", 0, gr_opt_table_or_csv, &o->csv, "FORMAT",
                "table (default) or csv", .example = "csv"),
        GR_CALL("blas", 0, blas_option, &o->blas, "LIBRARY",
                "the OpenBLAS to load (default libopenblas.so.0), or none\n"
                "to time libattn's paths alone", .example = "none"),
        GR_CALL("isa", 0, isa_option, &o->isa, "ISA",
                "the fused path's kernel: auto (default, the best this CPU\n"
                "runs), avx512, avx2 or portable; one this CPU cannot run\n"
                "is a usage error", .example = "avx2"),
    };
    int first, rc = gr_opts_parse(&bench_cmd, opts, GR_N_OPTS(opts), argc, argv, out, err, &first);
    return rc == 0 ? 0 : rc == GR_OPTS_HELP ? 1 : -1;
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

