/* bench_measure.c: the measuring half of `attnlab bench` (see bench_measure.h):
 * the inputs, OpenBLAS loaded at run time, the runs of each path, their times,
 * peak memory and agreement with the reference.
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
 */
#include "bench/bench_measure.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "attn.h"
#include "labsup.h"

/* The fixed seed of the inputs: Q, then K, then V, from one generator. */
#define BENCH_SEED 20240611u

/* Keys per tile for attn_online_attention. */
#define BENCH_TILE 64

/* cblas_sgemm's enums, as the CBLAS interface fixes them. */
enum { CBLAS_ROW_MAJOR = 101, CBLAS_NO_TRANS = 111, CBLAS_TRANS = 112 };

const char *const bench_path_name[BENCH_N_PATHS] = {
    "reference", "online", "fused", "pipeline", "sgemm"
};

/* ---- memory ------------------------------------------------------------------------------ */

/* A byte count for people: "768 B", "256.0 KiB", "4.0 MiB", "1.0 GiB". */
const char *bench_fmt_bytes(char buf[32], double bytes)
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
double bench_weight_bytes(const bench_opts *o)
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
double bench_run_bytes(const bench_opts *o)
{
    return bench_weight_bytes(o) + bench_weight_bytes(o) / o->heads + 8.0 * tensor_bytes(o);
}

/* ---- OpenBLAS, the machine's limit, loaded at run time ----------------------------------- */

/* Load OpenBLAS (name NULL: the usual sonames) and set it to threads threads.
   0, or -1 with bl->why saying what is missing. */
int bench_blas_load(bench_blas *bl, const char *name, int threads)
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

void bench_blas_close(bench_blas *bl)
{
    if (bl->handle)
        dlclose(bl->handle);
    bl->handle = NULL;
}

/* ---- timing ------------------------------------------------------------------------------- */

int bench_n_paths(const bench_blas *bl)
{
    return bl->handle ? BENCH_N_PATHS : BENCH_PIPELINE;
}

/* The buffers of one run. */
typedef struct bench_data {
    const bench_opts *o;
    const bench_blas *blas;
    float *Q, *K, *V;          /* (heads, T, d) inputs */
    float *W;                  /* (heads, T, T) weights, the reference's */
    float *S;                  /* (T, T) one head's scores, sgemm and pipeline */
    float *O[BENCH_N_PATHS];         /* (heads, T, d) output of each path */
} bench_data;

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
    float alpha = path == BENCH_PIPELINE ? (float)(1.0 / sqrt((double)d)) : 1.0f;
    for (int h = 0; h < o->heads; h++) {
        long off = (long)h * T * d;
        b->blas->sgemm(CBLAS_ROW_MAJOR, CBLAS_NO_TRANS, CBLAS_TRANS, T, T, d, alpha,
                       b->Q + off, d, b->K + off, d, 0.0f, S, T);
        if (path == BENCH_PIPELINE) {
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
    case BENCH_REFERENCE: {
        attn_config cfg;
        memset(&cfg, 0, sizeof cfg);
        cfg.scaled = 1;
        cfg.causal = o->causal;
        return attn_forward(b->O[path], scratch ? b->W : NULL, b->Q, b->K, b->V, o->heads,
                            o->T, o->T, o->d, o->d, &cfg);
    }
    case BENCH_ONLINE:
        return attn_online_attention(b->O[path], b->Q, b->K, b->V, o->heads, o->T, o->T,
                                     o->d, o->d, BENCH_TILE, o->causal, NULL);
    case BENCH_FUSED:
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
double bench_run_flops(const bench_opts *o, int path)
{
    double f = 4.0 * (double)o->heads * (double)o->T * (double)o->T * (double)o->d;
    return o->causal && path != BENCH_SGEMM ? f / 2.0 : f;
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
static void summarise(bench_data *b, double *times, int np, bench_result res[BENCH_N_PATHS])
{
    const bench_opts *o = b->o;
    size_t nt = (size_t)o->heads * (size_t)o->T * (size_t)o->d;
    for (int p = 0; p < np; p++) {
        double *t = times + p * o->repeat;
        res[p].median_s = median(t, o->repeat);
        res[p].min_s = t[0];                       /* sorted by median() */
        res[p].gflops = bench_run_flops(o, p) / res[p].median_s / 1e9;
        res[p].speedup = res[BENCH_REFERENCE].median_s / res[p].median_s;
        /* sgemm's output is S V without softmax: no attention to compare */
        res[p].max_abs_diff = p == BENCH_SGEMM ? (double)NAN
                            : max_abs_diff(b->O[p], b->O[BENCH_REFERENCE], (long)nt);
    }
    for (int p = 0; p < np; p++)
        res[p].fraction = np > BENCH_SGEMM ? res[p].gflops / res[BENCH_SGEMM].gflops
                                          : (double)NAN;
}

/* Time every path on the inputs in b and fill res. 0, or -1 after a message on
   err (a path failed: out of memory). */
static int time_paths(FILE *err, bench_data *b, double *times, bench_result res[BENCH_N_PATHS])
{
    const bench_opts *o = b->o;
    int show = isatty(fileno(err)), np = bench_n_paths(b->blas);

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
int bench_measure(FILE *err, const bench_opts *o, const bench_blas *bl,
                  bench_result res[BENCH_N_PATHS])
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
    for (int p = 0; p < bench_n_paths(bl); p++)
        ok = (b.O[p] = malloc(nt * sizeof(float))) != NULL && ok;
    double *times = malloc((size_t)BENCH_N_PATHS * (size_t)o->repeat * sizeof *times);

    int rc = -1;
    if (!ok || !times) {
        char buf[32];
        fprintf(err, "attnlab bench: cannot allocate the %s this run needs\n",
                bench_fmt_bytes(buf, bench_run_bytes(o)));
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
    for (int p = 0; p < BENCH_N_PATHS; p++)
        free(b.O[p]);
    free(times);
    return rc;
}

