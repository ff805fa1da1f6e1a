/* bench_report.c: what `attnlab bench` prints (see bench_measure.h): the
 * table with its notes, or the CSV, from the measured results. */
#include "bench/bench_measure.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "attn.h"

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

void bench_print_csv(FILE *out, const bench_opts *o, int np,
                     const bench_result res[BENCH_N_PATHS])
{
    fputs(BENCH_CSV_HEADER "\n", out);
    for (int p = 0; p < np; p++) {
        fprintf(out, "%s,%d,%d,%d,%d,%d,%.9g,%.9g,%.9g,", bench_path_name[p], o->T, o->d, o->heads,
                o->causal, o->repeat, res[p].median_s, res[p].min_s, res[p].gflops);
        csv_number(out, res[p].fraction, ",");
        fprintf(out, "%.9g,", res[p].speedup);
        csv_number(out, res[p].max_abs_diff, ",");
        csv_number(out, res[p].peak_bytes < 0 ? (double)NAN
                        : res[p].peak_bytes / (1024.0 * 1024.0), ",");
        fprintf(out, "%d\n", p == BENCH_REFERENCE || p == BENCH_ONLINE ? 1 : o->threads);
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
    snprintf(cell[0], 48, "%s", bench_path_name[p]);
    snprintf(cell[1], 48, "%.6f", r->median_s);
    snprintf(cell[2], 48, "%.6f", r->min_s);
    snprintf(cell[3], 48, "%.2f", r->gflops);
    if (isnan(r->fraction))
        snprintf(cell[4], 48, "-");
    else
        snprintf(cell[4], 48, "%.0f%%", 100.0 * r->fraction);
    snprintf(cell[5], 48, "%.2fx", r->speedup);
    if (isnan(r->max_abs_diff) && p == BENCH_SGEMM)
        snprintf(cell[6], 48, "-");
    else if (r->max_abs_diff == 0.0)
        snprintf(cell[6], 48, "0");
    else
        snprintf(cell[6], 48, "%.2e", r->max_abs_diff);
    if (r->peak_bytes < 0)
        snprintf(cell[7], 48, "?");
    else
        bench_fmt_bytes(cell[7], r->peak_bytes);
}

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

void bench_print_table(FILE *out, const bench_opts *o, const bench_blas *bl,
                       const bench_result res[BENCH_N_PATHS])
{
    char cpu[256];
    int np = bench_n_paths(bl);
    cpu_model(cpu, sizeof cpu);
    fprintf(out, "attnlab bench: T %d, d %d, heads %d, causal %s, repeat %d; CPU %s; "
            "fused kernel %s, %d thread%s\n", o->T, o->d, o->heads, o->causal ? "yes" : "no",
            o->repeat, cpu, attn_fused_isa(), o->threads, o->threads == 1 ? "" : "s");

    char cell[BENCH_N_PATHS][N_COLS][48];
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
            bench_run_flops(o, BENCH_FUSED) / 1e9, bench_fmt_bytes(b1, bench_weight_bytes(o)));
    if (bl->handle)
        blas_note(out, bl);
    else
        fprintf(out, "sgemm and pipeline not timed: %s. Install it with\n"
                "  apt-get install libopenblas0   (Debian, Ubuntu)\n", bl->why);
}

