/* test_bench.c: `attnlab bench` as a user sees it, through cmd_bench_run.
 *
 * What is checked: the command line (defaults need no options, every wrong
 * value is one line on stderr and exit 2, --help exits 0), the CSV layout of
 * a tiny run (header, three rows with --blas none, five with OpenBLAS,
 * thirteen columns, the options echoed), the table's header line, that the
 * paths agree with the reference (max_abs_diff < 1e-5), that the reference's
 * measured peak memory covers its weight matrix, and what bench says when
 * OpenBLAS cannot be loaded. How fast anything is is never asserted: timings
 * belong to the machine, and only their being positive and finite is checked.
 */
#include <check.h>
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attn.h"
#include "cli/commands.h"
#include "capture.h"

Suite *test_suite(void);

/* ---- running the command ------------------------------------------------------------- */

#define BENCH(...) CAPTURE(cmd_bench_run, "bench", __VA_ARGS__)

/* ---- the CSV ---------------------------------------------------------------------------- */

#define CSV_HEADER "path,T,d,heads,causal,repeat,median_s,min_s,gflops,fraction_of_sgemm," \
                   "speedup_vs_reference,max_abs_diff,peak_mib,threads"
#define N_FIELDS 14

/* Split line at commas into exactly N_FIELDS fields (in place). */
static void split_row(char *line, char *f[N_FIELDS])
{
    int n = 0;
    char *p = line;
    for (;;) {
        ck_assert_msg(n < N_FIELDS, "more than %d fields in a row", N_FIELDS);
        f[n++] = p;
        char *comma = strchr(p, ',');
        if (!comma)
            break;
        *comma = '\0';
        p = comma + 1;
    }
    ck_assert_msg(n == N_FIELDS, "%d fields in a row, expected %d", n, N_FIELDS);
}

/* A field that must be a finite number; returns it. */
static double number(const char *field, const char *what)
{
    char *end;
    double v = strtod(field, &end);
    ck_assert_msg(end != field && *end == '\0', "%s '%s' is not a number", what, field);
    ck_assert_msg(isfinite(v), "%s '%s' is not finite", what, field);
    return v;
}

/* Whether this machine has an OpenBLAS bench can load. */
static int have_openblas(void)
{
    void *h = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_LOCAL);
    if (h) dlclose(h);
    return h != NULL;
}

/* Check a CSV run: the header, then one row per path in order (npaths: 3, or 5
   with OpenBLAS), the options echoed, timings positive, every attention path
   within 1e-5 of the reference, and fractions of sgemm present exactly when
   sgemm ran (sgemm's own is 1). */
static void check_csv(char *out, const char *T, const char *d, const char *heads,
                      const char *causal, const char *repeat, const char *threads, int npaths)
{
    static const char *const paths[5] = { "reference", "online", "fused", "pipeline", "sgemm" };
    char *save = NULL, *line = strtok_r(out, "\n", &save);
    ck_assert_ptr_nonnull(line);
    ck_assert_str_eq(line, CSV_HEADER);
    for (int p = 0; p < npaths; p++) {
        line = strtok_r(NULL, "\n", &save);
        ck_assert_msg(line != NULL, "missing the row of %s", paths[p]);
        char *f[N_FIELDS];
        split_row(line, f);
        ck_assert_str_eq(f[0], paths[p]);
        ck_assert_str_eq(f[1], T);
        ck_assert_str_eq(f[2], d);
        ck_assert_str_eq(f[3], heads);
        ck_assert_str_eq(f[4], causal);
        ck_assert_str_eq(f[5], repeat);
        ck_assert_str_eq(f[13], p <= 1 ? "1" : threads);  /* reference, online: one thread */
        double median_s = number(f[6], "median_s"), min_s = number(f[7], "min_s");
        double gflops = number(f[8], "gflops"), speedup = number(f[10], "speedup");
        double peak = number(f[12], "peak_mib");
        ck_assert_double_gt(median_s, 0.0);
        ck_assert_double_gt(min_s, 0.0);
        ck_assert_double_le(min_s, median_s);
        ck_assert_double_gt(gflops, 0.0);
        ck_assert_double_gt(speedup, 0.0);
        ck_assert_double_ge(peak, 0.0);
        if (npaths == 5)
            ck_assert_double_gt(number(f[9], "fraction_of_sgemm"), 0.0);
        else
            ck_assert_msg(f[9][0] == '\0', "fraction_of_sgemm '%s' without sgemm", f[9]);
        if (p == 4) {            /* sgemm: the limit itself, and no attention output */
            ck_assert_double_eq(number(f[9], "fraction_of_sgemm"), 1.0);
            ck_assert_msg(f[11][0] == '\0', "sgemm's max_abs_diff '%s', expected empty", f[11]);
            continue;
        }
        double diff = number(f[11], "max_abs_diff");
        ck_assert_msg(diff >= 0.0 && diff < 1e-5, "%s: max_abs_diff %s, expected < 1e-5",
                      paths[p], f[11]);
        if (p == 0) {            /* the reference against itself */
            ck_assert_double_eq(speedup, 1.0);
            ck_assert_double_eq(diff, 0.0);
        }
    }
    ck_assert_msg(strtok_r(NULL, "\n", &save) == NULL, "more than %d rows", npaths);
}

START_TEST(csv_tiny_run_three_rows)
{
    run_result r = BENCH("--T", "32", "--d", "8", "--repeat", "1", "--format", "csv",
                         "--blas", "none");
    ck_assert_int_eq(r.rc, 0);
    ck_assert_str_eq(r.err, "");
    check_csv(r.out, "32", "8", "1", "0", "1", "1", 3);
    free_result(&r);
}
END_TEST

/* Causal, several heads, --opt=value, an odd T (a partial tile) and d not a
   multiple of the vector width. */
START_TEST(csv_causal_heads_agree)
{
    run_result r = BENCH("--T=37", "--d=5", "--heads=3", "--causal", "--repeat=2",
                         "--format=csv", "--blas=none");
    ck_assert_int_eq(r.rc, 0);
    ck_assert_str_eq(r.err, "");
    check_csv(r.out, "37", "5", "3", "1", "2", "1", 3);
    free_result(&r);
}
END_TEST

/* --threads 2: the fused path (and OpenBLAS) on two threads agrees with the
   reference as one thread does, and the rows say how many threads ran. */
START_TEST(csv_threads)
{
    run_result r = BENCH("--T", "100", "--d", "16", "--heads", "3", "--causal", "--repeat", "1",
                         "--threads", "2", "--format", "csv");
    ck_assert_int_eq(r.rc, 0);
    check_csv(r.out, "100", "16", "3", "1", "1", "2", have_openblas() ? 5 : 3);
    free_result(&r);
    r = BENCH("--threads", "0");
    ck_assert_int_eq(r.rc, 2);
    ck_assert_ptr_nonnull(strstr(r.err, "--threads takes the threads of the fused path and "
                                        "OpenBLAS, a whole number from 1 to 64 (got '0')"));
    free_result(&r);
}
END_TEST

/* --isa: the fused path on the kernel named, the header saying which; after
   the run the best kernel is back; a kernel the CPU lacks or an unknown name
   is a usage error. */
START_TEST(isa_names_the_kernel)
{
    run_result r = BENCH("--T", "40", "--d", "8", "--repeat", "1", "--isa", "portable");
    ck_assert_int_eq(r.rc, 0);
    ck_assert_msg(strstr(r.out, "fused kernel portable, 1 thread"), "header: %s", r.out);
    ck_assert_ptr_nonnull(strstr(r.out, "\nfused "));
    free_result(&r);
    attn_isa best = __builtin_cpu_supports("avx512f") ? ATTN_ISA_AVX512
                    : __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")
                        ? ATTN_ISA_AVX2 : ATTN_ISA_PORTABLE;
    ck_assert_str_eq(attn_fused_isa(), attn_isa_name(best));
    r = BENCH("--isa", "sse9");
    ck_assert_int_eq(r.rc, 2);
    ck_assert_ptr_nonnull(strstr(r.err, "--isa takes auto, avx512, avx2 or portable (got 'sse9')"));
    free_result(&r);
    if (best != ATTN_ISA_AVX512) {           /* say so where the CPU lacks it */
        r = BENCH("--isa", "avx512");
        ck_assert_int_eq(r.rc, 2);
        ck_assert_ptr_nonnull(strstr(r.err, "this CPU cannot run that kernel"));
        free_result(&r);
    }
}
END_TEST

/* The table: the header line names every option and the CPU, then a column
   row and one row per path. */
START_TEST(table_header_names_the_run)
{
    run_result r = BENCH("--T", "32", "--d", "8", "--repeat", "1", "--causal");
    ck_assert_int_eq(r.rc, 0);
    ck_assert_str_eq(r.err, "");
    ck_assert_msg(strncmp(r.out, "attnlab bench: T 32, d 8, heads 1, causal yes, repeat 1; CPU ",
                          61) == 0, "header: %s", r.out);
    const char *cols = strchr(r.out, '\n');
    ck_assert_ptr_nonnull(cols);
    ck_assert_msg(strncmp(cols + 1, "path ", 5) == 0, "column row: %s", cols + 1);
    ck_assert_ptr_nonnull(strstr(r.out, "\nreference "));
    ck_assert_ptr_nonnull(strstr(r.out, "\nonline "));
    ck_assert_ptr_nonnull(strstr(r.out, "\nfused "));
    /* The reference's weight matrix: 32 * 32 floats = 4096 bytes = 4.0 KiB. */
    ck_assert_ptr_nonnull(strstr(r.out, "all heads*T*T weights (4.0 KiB here)"));
    ck_assert_ptr_nonnull(strstr(r.out, "fused kernel "));
    ck_assert_ptr_nonnull(strstr(r.out, "halved for causal"));
    free_result(&r);
}
END_TEST

/* With OpenBLAS: five rows, sgemm the limit; without: the table says how to
   install it and the CSV run says so on stderr, and the other three still run. */
START_TEST(openblas_rows_or_install_hint)
{
    run_result r = BENCH("--T", "40", "--d", "8", "--heads", "2", "--repeat", "1",
                         "--format", "csv");
    ck_assert_int_eq(r.rc, 0);
    if (have_openblas()) {
        ck_assert_str_eq(r.err, "");
        check_csv(r.out, "40", "8", "2", "0", "1", "1", 5);
    } else {
        ck_assert_ptr_nonnull(strstr(r.err, "apt-get install libopenblas0"));
        check_csv(r.out, "40", "8", "2", "0", "1", "1", 3);
    }
    free_result(&r);

    r = BENCH("--T", "16", "--d", "4", "--repeat", "1", "--blas", "/nonexistent/libopenblas.so");
    ck_assert_int_eq(r.rc, 0);
    ck_assert_ptr_nonnull(strstr(r.out, "no OpenBLAS (/nonexistent/libopenblas.so could not "
                                        "be loaded)"));
    ck_assert_ptr_nonnull(strstr(r.out, "apt-get install libopenblas0"));
    ck_assert_ptr_null(strstr(r.out, "\nsgemm  "));          /* no sgemm row */
    ck_assert_ptr_nonnull(strstr(r.out, "\nfused  "));
    free_result(&r);
}
END_TEST

/* The reference's peak memory is measured, not assumed: at T 512 its weight
   matrix alone is 512 * 512 floats = 1 MiB, which the fused path never holds. */
START_TEST(peak_memory_measured)
{
    run_result r = BENCH("--T", "512", "--d", "16", "--repeat", "1", "--format", "csv",
                         "--blas", "none");
    ck_assert_int_eq(r.rc, 0);
    char *save = NULL, *line = strtok_r(r.out, "\n", &save);
    double peak[3];
    for (int p = 0; p < 3; p++) {
        line = strtok_r(NULL, "\n", &save);
        ck_assert_ptr_nonnull(line);
        char *f[N_FIELDS];
        split_row(line, f);
        peak[p] = number(f[12], "peak_mib");
    }
    ck_assert_msg(peak[0] >= 1.0, "reference peak %.3f MiB, expected >= 1 MiB", peak[0]);
    ck_assert_msg(peak[2] < peak[0] - 0.75, "fused peak %.3f MiB not below the reference's "
                  "%.3f MiB by the weight matrix", peak[2], peak[0]);
    free_result(&r);
}
END_TEST

/* ---- the command line --------------------------------------------------------------------- */

START_TEST(help_exits_0)
{
    run_result r = BENCH("--help");
    ck_assert_int_eq(r.rc, 0);
    ck_assert_str_eq(r.err, "");
    ck_assert_int_eq(strncmp(r.out, "usage: attnlab bench [--T N]", 28), 0);
    ck_assert_ptr_nonnull(strstr(r.out, "4 * heads * T * T * d"));      /* the flop count */
    ck_assert_ptr_nonnull(strstr(r.out, CSV_HEADER));
    free_result(&r);

    r = BENCH("--T", "32", "-h");
    ck_assert_int_eq(r.rc, 0);
    ck_assert_int_eq(strncmp(r.out, "usage: attnlab bench", 20), 0);
    free_result(&r);
}
END_TEST

/* Each wrong command line: exit 2, nothing on out, exactly one line on err
   that starts with "attnlab bench: " and contains the words below. */
static const struct {
    const char *args[4];
    int n;
    const char *says;
} usage_cases[] = {
    { { "--T", "abc" }, 2, "--T takes the sequence length, a whole number from 1 to 16384 "
                           "(got 'abc')" },
    { { "--T", "0" }, 2, "--T takes the sequence length" },
    { { "--T", "16385" }, 2, "(got '16385')" },
    { { "--T", "12x" }, 2, "(got '12x')" },
    { { "--T", "" }, 2, "(got '')" },
    { { "--T", "99999999999999999999" }, 2, "(got '99999999999999999999')" },
    { { "--d", "0" }, 2, "--d takes the query/key size, a whole number from 1 to 1024" },
    { { "--d", "1025" }, 2, "--d takes the query/key size" },
    { { "--d", "-3" }, 2, "(got '-3')" },
    { { "--heads", "65" }, 2, "--heads takes the number of heads, a whole number from 1 to 64" },
    { { "--heads", "two" }, 2, "(got 'two')" },
    { { "--repeat", "0" }, 2, "--repeat takes the number of timed runs per path, a whole "
                              "number from 1 to 1000" },
    { { "--repeat", "1001" }, 2, "(got '1001')" },
    { { "--repeat", "1.5" }, 2, "(got '1.5')" },
    { { "--format", "xml" }, 2, "--format must be table or csv (got 'xml')" },
    { { "--blas", "" }, 2, "--blas takes none or an OpenBLAS library file (got '')" },
    { { "--blas" }, 1, "--blas needs a value, e.g. --blas none" },
    { { "--T" }, 1, "--T needs a value" },
    { { "--repeat" }, 1, "--repeat needs a value" },
    { { "--causal=1" }, 1, "--causal takes no value" },
    { { "--frobnicate" }, 1, "unknown option '--frobnicate'" },
    { { "-T", "32" }, 2, "unknown option '-T' (did you mean '--T'?)" },
    { { "-x" }, 1, "unknown option '-x'" },
    { { "32" }, 1, "unexpected argument '32'" },
    { { "--he", "3" }, 2, "'--he' is short for more than one option (--heads, --help)" },
    /* 16384^2 * 5 floats = 5 GiB of weights: refused before anything is allocated. */
    { { "--T", "16384", "--heads", "5" }, 4, "more than the 4 GiB bench allows" },
    { { "--T", "16384", "--heads", "64" }, 4, "weight matrix (heads*T*T floats) is 64.0 GiB" },
};

START_TEST(usage_error_one_line_exit_2)
{
    run_result r = run_command(cmd_bench_run, "bench", usage_cases[_i].n, usage_cases[_i].args);
    check_usage_error(&r, _i, "attnlab bench: ", usage_cases[_i].says);
    ck_assert_msg(strstr(r.err, "(see 'attnlab bench --help')") != NULL, "stderr: %s", r.err);
    free_result(&r);
}
END_TEST

/* The last value of a repeated option wins, and an error after a good run of
   options still stops the command (the parser is reset between calls). */
START_TEST(parser_resets_between_calls)
{
    run_result r = BENCH("--T", "8", "--T", "16", "--d", "4", "--repeat", "1",
                         "--format", "csv", "--blas", "none");
    ck_assert_int_eq(r.rc, 0);
    check_csv(r.out, "16", "4", "1", "0", "1", "1", 3);
    free_result(&r);
    r = BENCH("--d", "4", "--bogus");
    ck_assert_int_eq(r.rc, 2);
    ck_assert_ptr_nonnull(strstr(r.err, "unknown option '--bogus'"));
    free_result(&r);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("bench");
    TCase *tc = tcase_create("runs");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, csv_tiny_run_three_rows);
    tcase_add_test(tc, csv_causal_heads_agree);
    tcase_add_test(tc, csv_threads);
    tcase_add_test(tc, isa_names_the_kernel);
    tcase_add_test(tc, table_header_names_the_run);
    tcase_add_test(tc, parser_resets_between_calls);
    tcase_add_test(tc, openblas_rows_or_install_hint);
    tcase_add_test(tc, peak_memory_measured);
    suite_add_tcase(s, tc);

    tc = tcase_create("command line");
    tcase_add_test(tc, help_exits_0);
    tcase_add_loop_test(tc, usage_error_one_line_exit_2, 0,
                        (int)(sizeof usage_cases / sizeof usage_cases[0]));
    suite_add_tcase(s, tc);
    return s;
}
