/* bench_measure.h: what `attnlab bench` (grader/cli/cmd_bench.c) measures and
 * prints; beside the libattn kernels it times, and like them it includes
 * nothing of the grader.
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
 * build nor to run), two more:
 *
 *   pipeline   sgemm, scale and mask, attn_softmax, sgemm: attention the
 *              unfused way, one head's (T, T) scores at a time
 *   sgemm      the two products alone (Q K^T, then S V): how fast this machine
 *              multiplies matrices, the limit every path is measured against
 *
 * bench_measure.c times them (bench_measure), bench_report.c prints the table
 * or the CSV. Performance is measured there, on the user's machine, and never
 * asserted in a unit test: test_bench.c checks the command line and the layout
 * of the output, and that the paths agree, not how fast they are.
 */
#ifndef GR_BENCH_MEASURE_H
#define GR_BENCH_MEASURE_H

#include <stdio.h>

#include "attn.h"

/* The CSV's header row, also quoted by the usage text. */
#define BENCH_CSV_HEADER "path,T,d,heads,causal,repeat,median_s,min_s,gflops," \
                         "fraction_of_sgemm,speedup_vs_reference,max_abs_diff,peak_mib," \
                         "threads"

/* One run's settings, checked by the command line. */
typedef struct bench_opts {
    int T;          /* sequence length: queries = keys */
    int d;          /* query/key size, and value size */
    int heads;      /* B of every call */
    int causal;     /* 1: causal mask */
    int repeat;     /* timed runs per path */
    int threads;    /* threads of fused, pipeline and sgemm */
    int csv;        /* --format csv */
    const char *blas;  /* --blas: "" the usual OpenBLAS, "none", or a library */
    attn_isa isa;      /* --isa: the fused path's kernel (ATTN_ISA_AUTO: the best this CPU runs) */
} bench_opts;

/* The paths, in the order they run and are printed. */
enum { BENCH_REFERENCE, BENCH_ONLINE, BENCH_FUSED, BENCH_PIPELINE, BENCH_SGEMM, BENCH_N_PATHS };

extern const char *const bench_path_name[BENCH_N_PATHS];

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

/* Per path, what the table and the CSV show. */
typedef struct bench_result {
    double median_s, min_s;
    double gflops;             /* flops / median_s / 1e9 */
    double fraction;           /* gflops / sgemm's gflops, nan without OpenBLAS */
    double speedup;            /* reference median / this median */
    double max_abs_diff;       /* max |O - O_reference|, nan if any difference is nan */
    double peak_bytes;         /* memory the path allocates and touches, measured */
} bench_result;

/* ---- measuring (bench_measure.c) ----------------------------------------------------- */

/* A byte count for people: "768 B", "256.0 KiB", "4.0 MiB", "1.0 GiB". */
const char *bench_fmt_bytes(char buf[32], double bytes);

/* Bytes of the reference's weight matrix: heads * T * T floats. */
double bench_weight_bytes(const bench_opts *o);

/* Everything a run allocates: the weights, one head's (T, T) scores for the
   OpenBLAS paths, Q, K, V and one output per path. */
double bench_run_bytes(const bench_opts *o);

/* Flops of one run of path: 4 * heads * T * T * d, half with the causal mask,
   except for sgemm, which always does both whole products. */
double bench_run_flops(const bench_opts *o, int path);

/* Load OpenBLAS (name NULL: the usual sonames) and set it to threads threads.
   0, or -1 with bl->why saying what is missing. */
int bench_blas_load(bench_blas *bl, const char *name, int threads);

/* Unload what bench_blas_load loaded (nothing when it loaded nothing). */
void bench_blas_close(bench_blas *bl);

/* The paths a run times: the three of libattn, then with OpenBLAS the two
   that use it. */
int bench_n_paths(const bench_blas *bl);

/* Allocate and fill the inputs, time the paths, fill res. 0, or -1 after a
   message on err (out of memory). */
int bench_measure(FILE *err, const bench_opts *o, const bench_blas *bl,
                  bench_result res[BENCH_N_PATHS]);

/* ---- printing (bench_report.c) ------------------------------------------------------- */

/* The CSV: BENCH_CSV_HEADER, then one row per path of np. */
void bench_print_csv(FILE *out, const bench_opts *o, int np,
                     const bench_result res[BENCH_N_PATHS]);

/* The table, the CPU and the kernels, and what each column means. */
void bench_print_table(FILE *out, const bench_opts *o, const bench_blas *bl,
                       const bench_result res[BENCH_N_PATHS]);

#endif
